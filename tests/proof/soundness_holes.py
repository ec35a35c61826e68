r"""Statements of known truth for the kernel's checks of issue #27, item 3 (the soundness
battery's families ``ties``, ``maps``, ``holes``, ``partial``, ``nearint``, ``samename``).

Every truth is established here without symdp: exact rationals (``fractions.Fraction``),
``math.comb``, or mpmath at 50 digits, at a named witness for each false statement and by a
stated argument for each true one.  "False" includes "undefined somewhere on the domain":
a side that is not a real number at a point of the stated domain makes the statement not
hold there.

* ``ties``     -- a Max/Min/Abs/Piecewise whose branches differ by less than 10^-40 on an
  open piece (a choice from 40-digit values is wrong there);
* ``maps``     -- relations a monotone map reduces, with a side condition SymPy's
  assumptions get wrong (``binomial(n - s, 3) < 0`` for n >= s + 3);
* ``holes``    -- an integer set with holes (``n >= b, n^2 >= t``), typed as a user does;
* ``partial``  -- partial functions outside their domains (PhiInv, erfinv, factorial, gamma,
  asin, acos, atanh, acosh, tan, zeta, a trade-off function beyond [0, 1]);
* ``nearint``  -- a power whose exponent is within e^-20 ... e^-60 of an integer (a numeric
  guesser reads it as the integer);
* ``samename`` -- two Symbols of one name (``x`` positive and ``x`` real; a Dummy and a
  Symbol; a parameter named ``atom_0``), which z3 must not merge.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import sympy as sp

from soundness_families import Statement as S

x = sp.Symbol("x", real=True)
n = sp.Symbol("n", integer=True)
UNIT = sp.Interval(0, 1)


def _q(v) -> sp.Rational:
    v = F(v)
    return sp.Rational(v.numerator, v.denominator)


# ------------------------------------------------------------------ ties below 10^-40

# (a, b, k): u = (x - a)(b - x)/10^k
TIES = ((F(1, 3), F(2, 3), 50), (F(1, 5), F(2, 5), 41), (F(1, 4), F(3, 4), 45),
        (F(2, 7), F(5, 7), 60))


def ties() -> list:
    """u = (x - a)(b - x)/10^k is > 0 exactly on (a, b), below 10^-40 everywhere on [0, 1]:
    ``Max(x, x + u) <= x`` fails at the midpoint m (u(m) > 0, exact), ``Min(x, x - u) >= x``
    too, ``Piecewise((x + 1, u > 0), (x, True)) <= x`` too (the condition holds at m);
    ``x + Abs(u) <= x + u`` fails at 0 (u(0) = -ab/10^k < 0, |u| > u).  True twins:
    ``Max(x, x + u) >= x`` (a maximum is at least each argument), ``Max(x, x - (x - a)^2/10^k)
    <= x`` (the second argument is at most x), ``Piecewise((x - 1, u > 0), (x, True)) <= x``
    (x - 1 <= x and x <= x), ``x + Abs(u) >= x + u`` (|u| >= u)."""
    out = []
    for a, b, k in TIES:
        m = (a + b) / 2
        c = F(1, 10 ** k)
        gap = (m - a) * (b - m) * c
        assert 0 < gap < F(1, 10 ** 40)
        u0 = (0 - a) * (b - 0) * c
        assert u0 < 0
        A, B = _q(a), _q(b)
        u = (x - A) * (B - x) / sp.Integer(10) ** k
        wm, w0 = ((x, _q(m)),), ((x, sp.S.Zero),)
        why = f"u = (x - {a})(b - x)/10^{k}, u({m}) = {gap} > 0"
        out += [
            S("ties", sp.Max(x, x + u), "<=", x, {x: UNIT}, False, why, witness=wm),
            S("ties", sp.Min(x, x - u), ">=", x, {x: UNIT}, False, why, witness=wm),
            S("ties", sp.Piecewise((x + 1, u > 0), (x, True)), "<=", x, {x: UNIT}, False,
              why + ": the condition holds, x + 1 > x", witness=wm),
            S("ties", x + sp.Abs(u), "<=", x + u, {x: UNIT}, False,
              f"u(0) = {u0} < 0, so |u| > u at 0", witness=w0),
            S("ties", sp.Max(x, x + u), ">=", x, {x: UNIT}, True, "Max >= each argument"),
            S("ties", sp.Max(x, x - (x - A) ** 2 / sp.Integer(10) ** k), "<=", x, {x: UNIT},
              True, "the second argument is at most x"),
            S("ties", sp.Piecewise((x - 1, u > 0), (x, True)), "<=", x, {x: UNIT}, True,
              "each branch is at most x"),
            S("ties", x + sp.Abs(u), ">=", x + u, {x: UNIT}, True, "|u| >= u"),
        ]
    return out


# ------------------------------------------------------------------ monotone maps

MAP_CONFIGS = ((5, 8, 15), (5, 8, 10), (6, 9, 14), (7, 10, 13))   # (s, n_lo, n_hi)


def _k(s, v):
    return math.comb(v - s, 3)


def maps() -> list:
    """k = binomial(n - s, 3) >= 1 for integer n in [s + 3, ...] (math.comb).  With k > 0,
    t -> t^k and t -> k t are increasing and e^x >= 1 + x (equality only at 0), so
    ``(n e^x + 1)^k >= (n + n x + 1)^k`` and ``k e^x >= k (1 + x)`` hold, and their ``<=``
    twins fail at x = 1 (n e + 1 > 2n + 1 since e > 2; checked with mpmath at 50 digits);
    ``exp(k x) >= exp(k x^2)`` and ``log(k + x) >= log(k + x^2)`` hold on [0, 1] (x >= x^2),
    their ``<=`` twins fail at x = 1/2 (1/2 > 1/4)."""
    out = []
    for s, lo, hi in MAP_CONFIGS:
        assert all(_k(s, v) >= 1 for v in range(lo, hi + 1))
        hyp = {n: sp.Range(lo, hi + 1), x: UNIT}
        k = sp.binomial(n - s, 3)
        with mpmath.workdps(50):
            kl = _k(s, lo)
            assert (lo * mpmath.e + 1) ** kl > (2 * lo + 1) ** kl
            assert kl * mpmath.e > kl * 2
            assert mpmath.exp(kl * mpmath.mpf(1) / 2) > mpmath.exp(kl * mpmath.mpf(1) / 4)
            assert mpmath.log(kl + mpmath.mpf(1) / 2) > mpmath.log(kl + mpmath.mpf(1) / 4)
        w1 = ((n, sp.Integer(lo)), (x, sp.S.One))
        wh = ((n, sp.Integer(lo)), (x, sp.S.Half))
        why = f"k = C(n - {s}, 3) = {kl} at n = {lo}"
        out += [
            S("maps", (n * sp.exp(x) + 1) ** k, "<=", (n + n * x + 1) ** k, hyp, False,
              why + ": n e + 1 > 2n + 1 at x = 1", witness=w1),
            S("maps", (n * sp.exp(x) + 1) ** k, ">=", (n + n * x + 1) ** k, hyp, True,
              "e^x >= 1 + x and t^k increasing for k > 0"),
            S("maps", k * sp.exp(x), "<=", k * (1 + x), hyp, False, why + ": e > 2 at x = 1",
              witness=w1),
            S("maps", k * sp.exp(x), ">=", k * (1 + x), hyp, True, "k > 0, e^x >= 1 + x"),
            S("maps", sp.exp(k * x), "<=", sp.exp(k * x ** 2), hyp, False,
              why + ": k/2 > k/4 at x = 1/2", witness=wh),
            S("maps", sp.exp(k * x), ">=", sp.exp(k * x ** 2), hyp, True, "k x >= k x^2"),
            S("maps", sp.log(k + x), "<=", sp.log(k + x ** 2), hyp, False,
              why + ": 1/2 > 1/4 at x = 1/2", witness=wh),
            S("maps", sp.log(k + x), ">=", sp.log(k + x ** 2), hyp, True,
              "log increasing, x >= x^2, k + x^2 >= 1"),
        ]
    return out


# ------------------------------------------------------------------ integer sets with holes

HOLE_BOUNDS = (-10, -7)
HOLE_THRESHOLDS = (4, 9, 16, 25)


def holes_typed() -> list:
    """``--integer n --assume n>=b --assume n^2>=t`` (t a square r^2): the set is
    {b, ..., -r} u {r, r + 1, ...}.  ``n^2 >= t``, ``Abs(n) >= r`` and ``(n-1)(n+1) >= t - 1``
    hold on it (the hypothesis, and n^2 - 1 >= t - 1); ``n^2 >= t + 1`` fails at n = -r
    (n^2 = t).  Each ``(family, argv, truth, why)``; checked here over b..1000 in integers."""
    out = []
    for b in HOLE_BOUNDS:
        for t in HOLE_THRESHOLDS:
            r = math.isqrt(t)
            assert r * r == t and -r >= b
            members = [v for v in range(b, 1001) if v * v >= t]
            assert -r in members and 0 not in members and all(abs(v) >= r for v in members)
            assume = ["--integer", "n", f"--assume=n>={b}", f"--assume=n^2>={t}"]
            why = f"n in {{{b}, ..., {-r}}} u {{{r}, ...}}"
            out += [
                ("holes", ["n^2", ">=", str(t), *assume], True, why + ": the hypothesis"),
                ("holes", ["n^2", ">=", str(t + 1), *assume], False, why + f": n = {-r}"),
                ("holes", ["Abs(n)", ">=", str(r), *assume], True, why),
                ("holes", ["(n-1)*(n+1)", ">=", str(t - 1), *assume], True, why),
            ]
    return out


def holes() -> list:
    """The same sets given as a proof file gives them (a union of Ranges): ``n^2 >= t`` true,
    ``n^2 > t`` false at n = -r (n^2 = t)."""
    out = []
    for b in HOLE_BOUNDS:
        for t in (9, 16):
            r = math.isqrt(t)
            dom = sp.Union(sp.Range(b, -r + 1), sp.Range(r, sp.oo))
            assert sp.Integer(-1) not in dom and sp.Integer(-r) in dom
            out += [
                S("holes", n ** 2, ">=", t, {n: dom}, True, "the set's definition"),
                S("holes", n ** 2, ">", t, {n: dom}, False, f"n = {-r}: n^2 = {t}",
                  witness=((n, sp.Integer(-r)),)),
            ]
    return out


# ------------------------------------------------------------------ partial functions

def _not_real(value) -> bool:
    """mpmath's value (50 digits) is not a finite real number: complex with a non-zero
    imaginary part, infinite, or an error (a pole)."""
    try:
        with mpmath.workdps(50):
            v = value()
    except (ValueError, ZeroDivisionError):
        return True
    if isinstance(v, mpmath.mpc) and abs(v.imag) > mpmath.mpf(10) ** -40:
        return True
    return not mpmath.isfinite(v)


def partial() -> list:
    """A partial function whose argument leaves its domain at the witness (checked with
    mpmath: complex, infinite, or a pole), and its twin on a domain where it is defined (the
    identity then holds: inverse functions, the Gamma recurrence, tan = sin/cos)."""
    from symdp.core.special import Phi, PhiInv
    from symdp.tradeoff import EpsDelta

    out = []
    h = F(1, 2)

    def add(lhs, rel, rhs, bad, good, where, value, why, truth_good=True):
        assert _not_real(value), why
        w = ((x, _q(where)),)
        assert _q(where) in bad
        out.append(S("partial", lhs, rel, rhs, {x: bad}, False, why, witness=w))
        out.append(S("partial", lhs, rel, rhs, {x: good}, truth_good, "defined there: " + why))

    mp = mpmath
    for c in (F(3, 2), F(2)):
        C = _q(c)
        add(Phi(PhiInv(x, evaluate=False), evaluate=False), "=", x, sp.Interval(0, C),
            UNIT, c, lambda c=c: mp.erfinv(2 * mp.mpf(c.numerator) / c.denominator - 1),
            f"PhiInv({c}) is not real (erfinv of {2 * c - 1})")
        add(sp.erf(sp.erfinv(x, evaluate=False), evaluate=False), "=", x, sp.Interval(0, C),
            sp.Interval(0, _q(h)), c, lambda c=c: mp.erfinv(mp.mpf(c.numerator) / c.denominator),
            f"erfinv({c}) is not real")
        add(sp.sin(sp.asin(x, evaluate=False), evaluate=False), "=", x, sp.Interval(-C, C),
            sp.Interval(-1, 1), c, lambda c=c: mp.asin(mp.mpf(c.numerator) / c.denominator),
            f"asin({c}) is not real")
        add(sp.cos(sp.acos(x, evaluate=False), evaluate=False), "=", x, sp.Interval(-C, C),
            sp.Interval(-1, 1), c, lambda c=c: mp.acos(mp.mpf(c.numerator) / c.denominator),
            f"acos({c}) is not real")
    for a in (F(0), F(-1, 2)):
        A = _q(a)
        add(x * sp.factorial(x - 1), "=", sp.factorial(x), sp.Interval(A, 2),
            sp.Interval(_q(h), 2), F(0), lambda: mp.factorial(-1),
            "factorial(-1) is a pole (x = 0)")
        add(sp.gamma(x + 1), "=", x * sp.gamma(x), sp.Interval(A, 1), sp.Interval(_q(h), 1),
            F(0), lambda: mp.gamma(0), "gamma(0) is a pole (x = 0)")
    add(sp.tanh(sp.atanh(x, evaluate=False), evaluate=False), "=", x, UNIT,
        sp.Interval(0, _q(h)), F(1), lambda: mp.atanh(1), "atanh(1) is infinite")
    add(sp.cosh(sp.acosh(x, evaluate=False), evaluate=False), "=", x, sp.Interval(0, 2),
        sp.Interval(1, 2), h, lambda: mp.acosh(mp.mpf(1) / 2), "acosh(1/2) is not real")
    # tan's pole pi/2 is irrational: the witness is the pole itself, not a rational point
    with mpmath.workdps(50):
        assert 0 < mpmath.pi / 2 < 2 and mpmath.mpf(3) / 2 < mpmath.pi / 2
    out.append(S("partial", sp.tan(x), "=", sp.sin(x) / sp.cos(x), {x: sp.Interval(0, 2)},
                 False, "tan has a pole at pi/2, inside [0, 2]", witness=((x, sp.pi / 2),)))
    out.append(S("partial", sp.tan(x), "=", sp.sin(x) / sp.cos(x),
                 {x: sp.Interval(0, sp.Rational(3, 2))}, True, "cos > 0 on [0, 3/2]"))
    with mpmath.workdps(50):
        assert abs(mpmath.zeta(1 + mpmath.mpf(10) ** -30)) > 10 ** 29
    side = (x - 1) * sp.zeta(x)
    out.append(S("partial", side, "=", side, {x: sp.Interval(0, 2)}, False,
                 "zeta has a pole at x = 1 (0 * oo)", witness=((x, sp.S.One),)))
    f = EpsDelta(1, 0)
    out.append(S("partial", f(x), ">=", 0, {x: sp.Interval(0, 2)}, False,
                 "a trade-off function is defined on [0, 1] only (x = 2)",
                 witness=((x, sp.Integer(2)),)))
    out.append(S("partial", f(x), ">=", 0, {x: UNIT}, True, "f >= 0 on [0, 1]"))
    return out


# ------------------------------------------------------------------ near-integer exponents

NEAR_EXPONENTS = (20, 30, 40, 50, 60)
NEAR_BASES = (F(1), F(1, 2), F(3, 2))


def nearint() -> list:
    """(x - c)^(n + e^-k), n in {1, 2, 3}: for x < c the base is negative and the exponent is
    not an integer, so the power is not real (mpmath at 120 digits: an imaginary part of
    about sin(pi e^-k) times the modulus, 7e-27 at k = 60, checked).  On
    [c, c + 1] the base is >= 0 and ``A = A`` holds."""
    out = []
    for k in NEAR_EXPONENTS:
        for c in NEAR_BASES:
            C = _q(c)
            w = c - F(1, 4)
            with mpmath.workdps(120):
                v = mpmath.power(mpmath.mpf(w.numerator) / w.denominator - mpmath.mpf(C.p) / C.q,
                                 1 + mpmath.exp(-k))
                assert abs(v.imag) > mpmath.mpf(10) ** -(k // 2 + 10)
            side = (x - C) ** (n + sp.exp(-k))
            out.append(S("nearint", side, "=", side, {x: sp.Interval(0, 2), n: sp.FiniteSet(1, 2, 3)},
                         False, f"(x - {c})^(1 + e^-{k}) is not real at x = {w}",
                         witness=((x, _q(w)), (n, sp.S.One))))
            out.append(S("nearint", side, "=", side, {x: sp.Interval(C, C + 1),
                                                       n: sp.FiniteSet(1, 2, 3)},
                         True, "a non-negative base"))
    return out


# ------------------------------------------------------------------ two Symbols of one name

def samename() -> list:
    """Pairs (p, r) of distinct Symbols printed alike -- ``x`` positive and ``x`` real, a
    Dummy ``x`` and a Symbol ``x``, ``atom_0`` and ``atom_0#1`` -- with p in (0, 1] and r in
    [-2, 1].  Each side, as written, is undefined at the witness (Fractions): sqrt, the
    4th root and PhiInv/asin/factorial of u = p - r (or u + 1/2, ...) where u leaves the
    function's domain.  The true twins take r in [-1/2, 0] (then u in (0, 3/2]) with the
    defined forms sqrt(u)^2 = u and (u^(1/4))^4 = u."""
    from symdp.core.special import Phi, PhiInv

    out = []
    pairs = ((sp.Symbol("x", positive=True), sp.Symbol("x", real=True)),
             (sp.Dummy("x", positive=True), sp.Symbol("x", real=True)),
             (sp.Symbol("atom_0", positive=True), sp.Symbol("atom_0#1", real=True)))
    for p, r in pairs:
        u = p - r
        hyp = {p: sp.Interval.Lopen(0, 1), r: sp.Interval(-2, 1)}
        w_neg = ((p, sp.Rational(1, 2)), (r, sp.S.One))          # u = -1/2
        w_big = ((p, sp.S.One), (r, -sp.Integer(2)))              # u = 3
        assert F(1, 2) - 1 < 0 and 1 - (-2) == 3
        forms = (
            (sp.Pow(sp.sqrt(u), 2, evaluate=False), u, w_neg, "sqrt(-1/2)"),
            (sp.Pow(u ** sp.Rational(1, 4), 4, evaluate=False), u, w_neg, "(-1/2)^(1/4)"),
            (Phi(PhiInv(u / 4 + sp.Rational(1, 2), evaluate=False), evaluate=False),
             u / 4 + sp.Rational(1, 2), w_big, "PhiInv(5/4)"),
            (sp.sin(sp.asin(u / 2, evaluate=False), evaluate=False), u / 2, w_big, "asin(3/2)"),
            (u * sp.factorial(u - sp.Rational(1, 2)), u * sp.factorial(u - sp.Rational(1, 2)),
             w_neg, "factorial(-1), a pole"),
        )
        for lhs, rhs, w, bad in forms:
            out.append(S("samename", lhs, "=", rhs, hyp, False,
                         f"two Symbols named {p.name}: undefined at the witness ({bad})",
                         witness=w))
        good = {p: sp.Interval.Lopen(0, 1), r: sp.Interval(-sp.Rational(1, 2), 0)}
        for lhs, rhs, *_ in forms:
            out.append(S("samename", lhs, "=", rhs, good, True,
                         "u = p - r in (0, 3/2]: every form is defined and the identity holds"))
    return out


def holes_statements() -> list:
    """The families of issue #27, item 3 (run through ``check_derivation``)."""
    return ties() + maps() + holes() + partial() + nearint() + samename()
