"""Fuzz the public constructors and methods (issue #14): every call either raises
InvalidParameterError (a ValueError; DerivationError for Step) with one line naming the
parameter, or returns a correct value -- the parameter kept exactly (never clipped), the
trade-off value against the definition computed here with mpmath, never NaN."""

from __future__ import annotations

import decimal
import fractions
import math

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz_harness import FUZZ, HOSTILE_NUMBERS, count, formulas, names_the_parameter
from symdp import EpsDelta, Gaussian, Identity, InvalidParameterError, Laplace, subsample
from symdp.bagging.schemes import Bagging, Sampling
from symdp.core.errors import DerivationError, ParseError
from symdp.core.validation import to_exact
from symdp.parsing import parse_formula
from symdp.proof import Step

values = st.one_of(
    st.sampled_from(HOSTILE_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-10**6, 10**6),
    st.sampled_from([10**100_000, -10**5000, 2**64, True, False, None, [], {}, b"1", (1, 2),
                     sp.nan, sp.oo, -sp.oo, sp.zoo, sp.I, sp.Symbol("m"),
                     sp.Symbol("m", positive=True), sp.Rational(1, 3), sp.Float("0.5", 50),
                     sp.pi, sp.E, sp.sqrt(2), decimal.Decimal("0.25"), decimal.Decimal("NaN"),
                     fractions.Fraction(1, 3), mpmath.mpf("0.5"), mpmath.mpf("nan"),
                     mpmath.inf, complex(1, 1), 1j]),
    st.fractions(max_denominator=100),
)
dps_values = st.one_of(st.sampled_from([None, 0, -5, 1, 2, 15, 40, 200, 10_000, 10_001, 10**6,
                                        float("nan"), 40.0, "40", True, sp.Integer(30)]),
                       st.integers(-3, 60))


def one_line(exc: BaseException, names) -> None:
    message = str(exc)
    assert "\n" not in message and message, message
    assert names_the_parameter(message, names), (names, message)


def kept_exactly(stored, given) -> None:
    """An accepted parameter is the given number exactly (never clipped or rounded)."""
    if isinstance(given, sp.Basic) and given.free_symbols:
        assert stored == given
    else:
        assert sp.simplify(stored - to_exact("x", given)) == 0


@settings(FUZZ, max_examples=150)
@given(mu=values)
def test_gaussian_and_laplace(mu):
    count("api Gaussian/Laplace")
    for family in (Gaussian, Laplace):
        try:
            f = family(mu)
        except InvalidParameterError as exc:
            one_line(exc, ["mu"])
            continue
        kept_exactly(f.mu, mu)
        assert not f.mu.has(sp.nan)


@settings(FUZZ, max_examples=150)
@given(eps=values, delta=values)
def test_eps_delta(eps, delta):
    count("api EpsDelta")
    try:
        f = EpsDelta(eps, delta)
    except InvalidParameterError as exc:
        one_line(exc, ["eps", "delta"])
        return
    kept_exactly(f.eps, eps)
    kept_exactly(f.delta, delta)


@settings(FUZZ, max_examples=60)
@given(p=values)
def test_subsample(p):
    count("api subsample")
    try:
        C = subsample(Gaussian(1), p)
    except InvalidParameterError as exc:
        one_line(exc, ["p"])
        return
    if not hasattr(C, "p"):   # C_0(f) = Id and C_1(f) = f (Def. 4.1 with p = 0 or 1)
        assert C == (Identity() if to_exact("p", p) == 0 else Gaussian(1))
        return
    kept_exactly(C.p, p)


@settings(FUZZ, max_examples=120)
@given(n=values, k=values, models=values,
       sampling=st.sampled_from(list(Sampling) + ["with", None, 1]))
def test_bagging(n, k, models, sampling):
    count("api Bagging")
    try:
        b = Bagging(n, k, models, sampling)
    except InvalidParameterError as exc:
        one_line(exc, ["n", "k", "models", "models*k", "sampling"])
        return
    assert (b.n, b.k, b.models) == (int(n), int(k), int(models))
    assert b.n == n and b.k == k and b.models == models


@settings(FUZZ, max_examples=150)
@given(x=values, dps=dps_values)
def test_evaluate(x, dps):
    """G_1(x) = Phi(Phi^-1(1 - x) - 1) (Dong, Roth, Su 2022, Def. 2.7) at the digits asked."""
    count("api evaluate")
    try:
        value = Gaussian(1).evaluate(x, dps=dps)
    except InvalidParameterError as exc:
        one_line(exc, ["alpha", "x", "dps"])
        return
    a = sp.Rational(to_exact("x", x))   # a Float by its exact binary value
    digits = 15 if dps is None else int(dps)
    with mpmath.workdps(digits + 30):
        v = mpmath.mpf(sp.N(value, digits + 20)) if isinstance(value, sp.Basic) else \
            mpmath.mpf(value)
        assert not mpmath.isnan(v) and 0 <= v <= 1
        q = mpmath.mpf(a.p) / a.q
        expected = (mpmath.mpf(1) if q == 0 else mpmath.mpf(0) if q == 1 else
                    mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * q - 1) - 1))
        assert abs(v - expected) <= mpmath.mpf(10) ** (2 - digits) * max(expected, 10 ** -300), \
            (x, dps, v, expected)


@settings(FUZZ, max_examples=60)
@given(points=st.one_of(st.lists(values, max_size=3), values), dps=dps_values)
def test_evaluate_many(points, dps):
    count("api evaluate_many")
    try:
        out = Gaussian(1).evaluate_many(points, dps=50 if dps is None else dps)
    except InvalidParameterError as exc:
        one_line(exc, ["points", "alpha", "dps"])
        return
    assert len(out) == len(points) and not any(mpmath.isnan(v) for v in out)


@settings(FUZZ, max_examples=30)
@given(y=values)
def test_conjugate_and_profile(y):
    count("api conjugate/privacy_profile")
    for method, name in ((Gaussian(1).conjugate, "y"), (Gaussian(1).privacy_profile, "eps")):
        try:
            value = method(y)
        except InvalidParameterError as exc:
            one_line(exc, [name])
            continue
        assert not value.has(sp.nan) and not value.has(sp.zoo)
        if not value.free_symbols:
            assert math.isfinite(float(sp.N(value, 30)))


@settings(FUZZ, max_examples=200)
@given(text=formulas, latex=st.booleans())
def test_parse_formula(text, latex):
    count("api parse_formula")
    try:
        expr = parse_formula(text, latex=latex)
    except ParseError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    assert isinstance(expr, sp.Basic)


@settings(FUZZ, max_examples=80)
@given(relation=st.one_of(st.sampled_from(["=", "<=", "<", ">=", ">", "=>", "=<", "==", "!=",
                                           "≤", "≥", "", "~"]), st.text(max_size=3)),
       side=values)
def test_step(relation, side):
    count("api Step")
    try:
        step = Step(sp.Symbol("x"), relation, side if not isinstance(side, str) else 1)
    except (DerivationError, InvalidParameterError) as exc:
        one_line(exc, ["relation", "rhs", "lhs"])
        return
    assert step.relation in ("=", "<=", "<", ">=", ">")


# --------------------------------------------------------------------------- issue #22: the newer APIs

def _fraction_of(value):
    """The exact rational a number stands for (the shared conversion, then a Fraction)."""
    v = to_exact("x", value)
    v = sp.Rational(v) if isinstance(v, sp.Float) else v
    return fractions.Fraction(int(v.p), int(v.q))


def _pair_classes():
    from symdp.accountant import pairs as P

    # (constructor, [(field, which argument it comes from)])
    return [(lambda a, b, d: P.PoissonGaussian(a, b, d), [("sigma", 0), ("q", 1), ("direction", 2)]),
            (lambda a, b, d: P.UniformGaussian(a, b), [("sigma", 0), ("p", 1)]),
            (lambda a, b, d: P.Gaussian(a), [("mu", 0)]),
            (lambda a, b, d: P.EpsDelta(a, b), [("eps0", 0), ("delta0", 1)]),
            (lambda a, b, d: P.Laplace(a), [("b", 0)]),
            (lambda a, b, d: P.RandomizedResponse(a), [("eps0", 0)]),
            (lambda a, b, d: P.Subsampled(P.Gaussian(1), b), [("p", 1)])]


@settings(FUZZ, max_examples=150)
@given(a=values, b=values, direction=st.sampled_from(["remove", "add", "sideways", "", None, 1, "ADD"]))
def test_accountant_pairs(a, b, direction):
    """The accountant's pairs: an InvalidParameterError naming the parameter, or the exact
    rational given (never clipped), within the pair's domain."""
    for make, fields in _pair_classes():
        count("api accountant pairs")
        try:
            pair = make(a, b, direction)
        except InvalidParameterError as exc:
            one_line(exc, [field for field, _ in fields])
            continue
        for field, source in fields:
            if field != "direction":
                stored = getattr(pair, field)
                assert isinstance(stored, fractions.Fraction)
                assert stored == _fraction_of((a, b)[source])
        if hasattr(pair, "direction"):
            assert pair.direction in ("remove", "add")


@settings(FUZZ, max_examples=60)
@given(pairs=st.sampled_from([(), None, [], "x", (1,), "pairs", "G"]) | st.just("ok"), steps=values)
def test_phase(pairs, steps):
    from symdp.accountant import Gaussian as GaussianPair
    from symdp.accountant import Phase

    count("api Phase")
    given_pairs = (GaussianPair(1),) if pairs == "ok" else pairs
    try:
        phase = Phase(given_pairs, steps)
    except InvalidParameterError as exc:
        one_line(exc, ["pairs", "steps"])
        return
    assert pairs == "ok" and isinstance(phase.steps, int) and phase.steps == steps >= 1


@settings(FUZZ, max_examples=80)
@given(f=st.sampled_from(["1-alpha", None, 1, sp.Integer(1), "G", Gaussian(1), EpsDelta(1, 0),
                          sp.Symbol("alpha")]), p=values)
def test_mixture_and_inverse(f, p):
    from symdp.tradeoff.operators import Inverse, Mixture

    count("api Mixture/Inverse")
    try:
        m = Mixture(f, p)
    except InvalidParameterError as exc:
        one_line(exc, ["f", "p"])
    else:
        assert isinstance(m, sp.Basic)
    try:
        inv = Inverse(f)
    except InvalidParameterError as exc:
        one_line(exc, ["f"])
    else:
        assert isinstance(inv, sp.Basic)


@pytest.mark.slow   # 16 s without gmpy2 (mpmath's Python integers at high dps): CI's step 3
@settings(FUZZ, max_examples=80)
@given(eps=values, dps=dps_values)
def test_tensor_delta(eps, dps):
    """(G_1 (x) G_2).delta(eps, dps) against Cor. 2.13 for G_sqrt(5) computed here."""
    from symdp.composition import tensor

    count("api tensor delta")
    try:
        value = tensor(Gaussian(1), Gaussian(2)).delta(eps, 30 if dps is None else dps)
    except InvalidParameterError as exc:
        one_line(exc, ["eps", "dps"])
        return
    digits = 30 if dps is None else int(dps)
    e = _fraction_of(eps)
    with mpmath.workdps(digits + 30):
        m = mpmath.sqrt(5)
        t = mpmath.mpf(e.numerator) / e.denominator
        expected = mpmath.ncdf(-t / m + m / 2) - mpmath.exp(t) * mpmath.ncdf(-t / m - m / 2)
        assert abs(value - expected) <= mpmath.mpf(10) ** (2 - digits) * max(expected, 10 ** -300)


@settings(FUZZ, max_examples=60)
@given(k=st.one_of(st.sampled_from(HOSTILE_NUMBERS[:20] + [0, -1, 10**6, 10**100, True, 2.5]),
                   st.integers(1, 60)),
       delta=st.one_of(st.sampled_from(["1e-300", "0", "1", "1e-5", "nan", -1, 2]), values))
def test_tensor_power_epsilon(k, delta):
    """f_{0.5,0.01}^{(x)k}: eps(delta) is the smallest eps with delta_k(eps) <= delta, checked
    against KOV's profile evaluated at the answer (and just below it)."""
    from symdp.composition import tensor_power
    from symdp.composition.eps_delta import kov_profile_value

    count("api tensor_power epsilon")
    try:
        f = tensor_power(EpsDelta("0.5", "0.01"), k)
        value = f.epsilon(delta, dps=30)
    except InvalidParameterError as exc:
        one_line(exc, ["n", "k", "delta"])
        return
    if value == mpmath.inf:
        return
    n = int(to_exact("k", k))
    target = to_exact("delta", delta)
    with mpmath.workdps(40):
        assert kov_profile_value("0.5", "0.01", n, value * (1 + mpmath.mpf(10) ** -25), 40) <= \
            mpmath.mpf(target.p) / target.q * (1 + mpmath.mpf(10) ** -20)
