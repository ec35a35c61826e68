"""The reproducers of issue #14: bad input is one line naming the parameter (exit 2 on the
command line, InvalidParameterError in Python) or a correct result -- never a traceback, a
hang, NaN or a silently wrong value.  Expected values come from the definitions (mpmath at
60 digits), not from symdp's output."""

import math
import sys

import mpmath
import pytest
import sympy as sp

from symdp.cli.main import main
from symdp.core.errors import InvalidParameterError
from symdp.proof import Derivation, Step, Verdict, check_derivation, claims
from symdp.tradeoff import EpsDelta, Gaussian, Laplace


def one_line(capsys, argv, *words, code=2):
    rc = main(argv)
    captured = capsys.readouterr()
    assert rc == code, captured
    assert captured.err.startswith("symdp: error:") and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    for word in words:
        assert word in captured.err, captured.err
    return captured


HUGE = "1" * 100_000


@pytest.mark.parametrize("argv, words", [
    (["subsample", "--eps", "1e400", "--delta", "0.1", "--p", "0.2"], ("--eps", "10000")),
    (["subsample", "--mu", "1e400", "--p", "0.2"], ("--mu", "10000")),
    (["subsample", "--eps", "3", "--delta", "0.1", "--p", "0.2", "--at", "1e400"], ("--at",)),
    (["subsample", "--eps", "1000000", "--delta", "0.1", "--p", "0.2"], ("--eps", "10000")),
    (["subsample", "--eps", HUGE, "--delta", "0.1", "--p", "0.2"], ("--eps", "1000")),
    (["subsample", "--eps", "1e999999999", "--delta", "0.1", "--p", "0.2"], ("--eps",)),
    (["subsample", "--eps", "3", "--delta", "0.1", "--p", "0.2", "--dps", "1000000"],
     ("--dps", "10000")),
    (["bagging", "--n", "100", "--k", "10", "--at", HUGE], ("eps", "1000")),
    (["bagging", "--n", HUGE, "--k", "10"], ("n", "1000 digits")),
    (["plot", "tradeoff", "--mu", "1e400", "--out", "x.png"], ("--mu", "100")),
    (["plot", "profile", "--mu", *map(str, range(1, 201)), "--out", "x.png"], ("--mu", "20")),
    (["step", "1", "=>", "1"], ("relation", "'=>'")),
    (["check", "nope.py"], ("nope.py",)),
    (["latex", "--list", "--paths", "nope.py"], ("nope.py",)),
    (["check", "--dps", "100000"], ("--dps", "1000")),
    (["step", "x", "=", "x", "--dps", "100000"], ("--dps",)),
])
def test_cli_reproducers_are_one_line_exit_2(tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    one_line(capsys, argv, *words)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_tiny_eps_is_computed_not_zero(capsys):
    # eps' = log(1 - p + p e^eps) ~ p eps for tiny eps (Lemma 4.4); sympy.N printed 0 here
    assert main(["subsample", "--eps", "1e-100", "--delta", "0.1", "--p", "0.2"]) == 0
    out = capsys.readouterr().out
    with mpmath.workdps(200):
        eps1 = mpmath.log(1 - mpmath.mpf("0.2") + mpmath.mpf("0.2") * mpmath.exp(mpmath.mpf("1e-100")))
    line = next(l for l in out.splitlines() if "eps'" in l)
    printed = mpmath.mpf(line.split("=")[-1].split()[0])
    assert abs(printed / eps1 - 1) < mpmath.mpf("1e-28")
    assert main(["subsample", "--eps", "1e-400", "--delta", "0.1", "--p", "0.2"]) == 0
    assert "2.00000000000000000000000000000e-401" in capsys.readouterr().out


def test_superscript_digits_are_powers(capsys):
    assert main(["step", "x²", "=", "x^2"]) == 0
    assert "PROVED" in capsys.readouterr().out


def test_a_right_hand_side_starting_with_minus_is_a_formula(capsys):
    # min of x^3 - x on x >= 0 is -2/(3 sqrt 3) at x = 1/sqrt(3): the step holds
    rc = main(["step", "x^3-x", ">=", "-2/(3*sqrt(3))", "--assume", "x>=0"])
    out = capsys.readouterr()
    assert rc == 0, out
    assert out.out.startswith("x**3 - x >= -2*sqrt(3)/9")
    rc = main(["step", "-x", "<=", "0", "--assume", "x>=0"])
    assert rc == 0 and "PROVED" in capsys.readouterr().out


def test_a_side_undefined_on_the_domain_is_not_proved(capsys):
    rc = main(["step", "1/x", ">=", "1", "--assume", "x>=0", "--assume", "x<=1"])
    out = capsys.readouterr().out
    assert rc == 1 and "UNDECIDED" in out and "undefined at x = 0" in out
    # on (0, 1] the step holds
    assert main(["step", "1/x", ">=", "1", "--assume", "x>0", "--assume", "x<=1"]) == 0
    capsys.readouterr()


def test_nan_steps_and_undefined_denominators_in_proof_files():
    x = sp.Symbol("x")
    d = Derivation("nan_steps", "nan", "test", {x: sp.Interval(0, 1)},
                   (Step(sp.nan * x, "=", sp.nan, "nan"),
                    Step(1 / x, ">=", 1, "pole at 0"),
                    Step(1 / (x - sp.Rational(1, 2)) ** 2, ">=", 0, "pole at 1/2"),
                    Step(sp.Piecewise((1 / x, x > 0), (1, True)), ">=", 1, "guarded"),
                    Step(1 / (x + 1), "<=", 1, "no pole")), chained=False)
    verdicts = [r.verdict for r in check_derivation(d).steps]
    assert verdicts[:3] == [Verdict.UNDECIDED] * 3
    assert verdicts[3].holds_everywhere and verdicts[4].holds_everywhere


@pytest.mark.parametrize("make, words", [
    (lambda: Gaussian(10 ** 100_000), ("mu", "1000 digits")),
    (lambda: Laplace(10 ** 100_000), ("1000 digits",)),
    (lambda: EpsDelta(10 ** 100_000, 0), ("eps", "1000 digits")),
    (lambda: EpsDelta("1" * 100_000, 0), ("eps", "1000")),
    (lambda: Gaussian(1).conjugate(float("nan")), ("y", "finite")),
    (lambda: claims.dominates(Gaussian(1), "x"), ("g", "TradeOff")),
    (lambda: Gaussian(1).privacy_profile("eps"), ("eps", "not text")),
    (lambda: Gaussian(1).privacy_profile(float("nan")), ("eps", "finite")),
    (lambda: Gaussian(1).privacy_profile(-1), ("eps", ">= 0")),
    (lambda: Gaussian(1).evaluate(0.5, dps=float("nan")), ("dps",)),
    (lambda: Gaussian(1).evaluate(0.5, dps="40"), ("dps", "'40'")),
    (lambda: Gaussian(1).evaluate(0.5, dps=0), ("dps",)),
    (lambda: Gaussian(1).evaluate(0.5, dps=-5), ("dps",)),
    (lambda: Gaussian(1).evaluate(0.5, dps=10 ** 6), ("dps", "10000")),
    (lambda: Gaussian(1).evaluate_many(["0.5"], dps="50"), ("dps",)),
])
def test_api_reproducers_raise_invalid_parameter(make, words):
    with pytest.raises(InvalidParameterError) as caught:
        make()
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_evaluate_at_small_dps_is_right_not_truncated():
    # G_1(1/2) = Phi(Phi^-1(1/2) - 1) = Phi(-1); dps=0 used to give 0.15625
    with mpmath.workdps(60):
        expected = mpmath.ncdf(-1)
    for dps in (1, 2, 5, 15):
        value = Gaussian(1).evaluate(0.5, dps=dps)
        assert not mpmath.isnan(value)
        assert abs(value - expected) <= 10 ** (-dps + 1) * abs(expected)


def test_privacy_profile_at_a_number_is_the_definition():
    # delta(1) of G_1: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Cor. 2.13)
    value = Gaussian(1).privacy_profile(1)
    with mpmath.workdps(60):
        expected = mpmath.ncdf(-0.5) - mpmath.e * mpmath.ncdf(-1.5)
        assert abs(mpmath.mpf(sp.N(value, 50)) - expected) < mpmath.mpf("1e-45")


def test_unknown_relations_are_refused_not_guessed():
    from symdp.core.errors import DerivationError

    for rel in ("=>", "=<", "~", "!="):
        with pytest.raises(DerivationError, match="relation must be one of"):
            Step(1, rel, 1)


def test_an_unexpected_exception_is_one_line_exit_3(capsys, monkeypatch):
    import symdp.cli.latex as latex_command

    def broken(args):
        raise TypeError("something symdp did not expect\nsecond line")

    monkeypatch.setattr(latex_command, "run", broken)
    monkeypatch.delenv("SYMDP_TRACEBACK", raising=False)
    rc = main(["latex", "--list"])
    err = capsys.readouterr().err
    assert rc == 3 and err.count("\n") == 1
    assert "internal error" in err and "TypeError: something symdp did not expect" in err
