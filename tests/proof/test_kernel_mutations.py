"""Mutation tests of the kernel (issue #19): each of its checks is load-bearing.

For each check, the check is disabled by monkeypatching and a statement of the battery's
kinds that is false (truth established here by exact arithmetic, never by symdp) becomes a
"holds" verdict; with the check in place the same statement does not hold.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy as sp

from symdp.core.errors import DerivationError
from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.proof import kernel
from symdp.proof.certificates import Claim, Domain, FiniteCertificate, SymbolicCertificate

x, y = sp.symbols("x y", real=True)
n = sp.Symbol("n", integer=True)


def accept(cert, domain, written=None):
    """The kernel's judgement of ``cert`` as a proof of the claim of its own sides (or of the
    ``written`` ones) and relation, on ``domain``."""
    lhs, rhs = written or (cert.lhs, cert.rhs)
    if cert.stage == "continuity":
        return kernel.accept(Claim.continuity(lhs, cert.variable, domain), cert)
    return kernel.accept(Claim(lhs, cert.relation, rhs, domain), cert)


def _one(lhs, rel, rhs, hyp):
    d = Derivation("t", "t", "test", hyp, (Step(lhs, rel, rhs, "test"),))
    return check_derivation(d).steps[0]


def test_coverage_is_load_bearing(monkeypatch):
    """n <= 6 for every integer n >= 2, enumerated for n = 2..6 only: false at n = 7."""
    m = sp.Symbol("m", integer=True)
    assert not 7 <= 6   # the truth: the statement fails at m = 7, outside the sample
    cert = FiniteCertificate(m, sp.Integer(6), "<=", "enumeration",
                             values=((m, tuple(range(2, 7))),), cases=5, how="exact")
    domain = Domain.of({m: sp.Range(2, sp.oo)})
    assert accept(cert, domain).verdict is Verdict.ENUMERATED_ON_RANGE
    monkeypatch.setattr(kernel, "_first_missing", lambda domain_set, values: None)
    assert accept(cert, domain).holds_everywhere   # the mutant says: holds for all m


def test_definedness_is_load_bearing(monkeypatch):
    """(x^2 - y^2)/(x - y) = x + y on [0, 1]^2, as written: undefined where x = y."""
    written = sp.Mul(x**2 - y**2, sp.Pow(x - y, -1, evaluate=False), evaluate=False)
    with pytest.raises(ZeroDivisionError):   # 0/0 at the point (0, 0) of the domain
        Fraction(0**2 - 0**2, 0 - 0)
    cert = SymbolicCertificate(written, x + y, "=", "symbolic", "simplify", sp.S.Zero)
    domain = Domain.of({x: sp.Interval(0, 1), y: sp.Interval(0, 1)})
    assert not accept(cert, domain, (written, x + y)).holds_everywhere
    monkeypatch.setattr(kernel, "defined_on", lambda sides, domain: "")
    assert accept(cert, domain, (written, x + y)).verdict is Verdict.PROVED


def test_fact_confirmation_is_load_bearing(monkeypatch):
    """(x - 1/3)^2 >= 10^-6 on [0, 1], a certificate whose sign fact is false: the claim fails
    at x = 1/3 (0 < 10^-6, exactly), a point the kernel's second look at admissible points
    does not visit.  (SymPy's own wrong sign of binomial(n, 3), which this test used before,
    is corrected in symdp.core.sympy_fixes.)"""
    third, tiny = sp.Rational(1, 3), sp.Rational(1, 10 ** 6)
    assert (third - third) ** 2 < tiny
    lhs = (x - third) ** 2
    cert = SymbolicCertificate(lhs, tiny, ">=", "symbolic", "simplify", lhs - tiny)
    domain = Domain.of({x: sp.Interval(0, 1)})
    assert not accept(cert, domain).holds_everywhere
    monkeypatch.setattr(kernel, "confirm", lambda fact, domain: "mutant: trusted")
    assert accept(cert, domain).verdict is Verdict.PROVED


def test_declaration_check_is_load_bearing(monkeypatch):
    """x declared positive with stated domain [-1, 1]: Abs(x) = x is false at x = -1."""
    xp = sp.Symbol("x", positive=True)
    assert abs(-1) != -1
    hyp = {xp: sp.Interval(-1, 1)}
    with pytest.raises(DerivationError, match="positive"):
        _one(sp.Abs(xp), "=", xp, hyp)
    monkeypatch.setattr(kernel, "check_declarations", lambda symbols, domain: None)
    assert _one(sp.Abs(xp), "=", xp, hyp).verdict is Verdict.PROVED


def _box_certificate(lhs, rhs, hi, leaves):
    from symdp.proof.certificates import BoxCertificate, BoxSearch

    search = BoxSearch(lhs, rhs, "<=", ((x, x, Fraction(0), hi, False, None),), None, leaves)
    return BoxCertificate(lhs, rhs, "<=", "certified", searches=(search,), bits=80)


def test_box_coverage_is_load_bearing(monkeypatch):
    """x <= 3/4 for x in [0, 1], boxes over [0, 1/2] only: false at x = 1 (1 > 3/4)."""
    assert Fraction(1) > Fraction(3, 4)
    half = ((Fraction(0), Fraction(1, 2)),)
    cert = _box_certificate(x, sp.Rational(3, 4), Fraction(1, 2), ((half, "decided", None),))
    domain = Domain.of({x: sp.Interval(0, 1)})
    assert not accept(cert, domain).holds_everywhere
    monkeypatch.setattr(kernel.replay, "covered",
                        lambda search: {x: sp.Interval(0, 1)})   # the mutant: "all covered"
    assert accept(cert, domain).holds_everywhere


def test_box_leaf_replay_is_load_bearing(monkeypatch):
    """x <= 3/4 for x in [0, 1], a leaf [1/2, 1] said decided: false at x = 1."""
    whole, a, b = (((Fraction(0), Fraction(1)),), ((Fraction(0), Fraction(1, 2)),),
                   ((Fraction(1, 2), Fraction(1)),))
    cert = _box_certificate(x, sp.Rational(3, 4), Fraction(1),
                            ((whole, "split", (a, b)), (a, "decided", None),
                             (b, "decided", None)))
    domain = Domain.of({x: sp.Interval(0, 1)})
    assert not accept(cert, domain).holds_everywhere
    monkeypatch.setattr(kernel.replay, "replay_search", lambda search, domain, bits: "")
    assert accept(cert, domain).holds_everywhere


def test_finite_case_replay_is_load_bearing(monkeypatch):
    """n**2 <= 10 for n in 0..4, all five cases said to hold: false at n = 4 (16 > 10)."""
    assert 4 ** 2 > 10
    cert = FiniteCertificate(n ** 2, sp.Integer(10), "<=", "enumeration",
                             values=((n, tuple(range(5))),), cases=5, how="exact")
    domain = Domain.of({n: sp.Range(0, 5)})
    assert not accept(cert, domain).holds_everywhere
    monkeypatch.setattr(kernel.replay, "decide_cases", lambda *a: ("exact", ""))
    assert accept(cert, domain).holds_everywhere


def test_the_continuous_functions_list_is_load_bearing(monkeypatch):
    """floor(2a)/4 + (1 - a)/2 on [0, 1] jumps at a = 1/2, exactly: f(1/2 - h) = (1/2 + h)/2
    tends to 1/4, while f(1/2) = 1/4 + 1/4 = 1/2."""
    from symdp.proof.certificates import ContinuityCertificate

    a = sp.Symbol("a", real=True)
    f = sp.floor(2 * a) / 4 + (1 - a) / 2
    h = sp.Rational(1, 10 ** 6)
    assert f.subs(a, sp.Rational(1, 2)) - f.subs(a, sp.Rational(1, 2) - h) > sp.Rational(1, 5)
    cert = ContinuityCertificate(f, f, "=", "continuity", variable=a)
    domain = Domain.of({a: sp.Interval(0, 1)})
    assert not accept(cert, domain).holds_everywhere
    known = kernel.continuous_where_defined()
    monkeypatch.setattr(kernel, "continuous_where_defined", lambda: known + (sp.floor,))
    assert accept(cert, domain).holds_everywhere
