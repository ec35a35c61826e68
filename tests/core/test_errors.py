"""symdp.core.errors: every deliberate error is a SymdpError, input errors are ValueErrors."""

import pytest

from symdp.core import errors as E


@pytest.mark.parametrize("cls, builtin", [
    (E.InvalidParameterError, ValueError), (E.ParseError, ValueError),
    (E.NotATradeOffFunctionError, ValueError), (E.DerivationError, ValueError),
    (E.RootFindingError, ArithmeticError),
])
def test_hierarchy(cls, builtin):
    assert issubclass(cls, E.SymdpError) and issubclass(cls, builtin)


def test_input_errors_are_invalid_parameter_errors():
    assert issubclass(E.ParseError, E.InvalidParameterError)
    assert issubclass(E.NotATradeOffFunctionError, E.InvalidParameterError)


def test_root_finding_error_carries_its_residual():
    err = E.RootFindingError("no root", residual=1e-3, tolerance=1e-30)
    assert (str(err), err.residual, err.tolerance) == ("no root", 1e-3, 1e-30)
