r"""Statements with known truth for the soundness battery (issue #12, item 6).

Every statement carries its truth, established *without symdp*: by elementary
calculus stated next to each family (a function's value at a named point, a
monotone function's range, the sign of a square), by exact arithmetic of
rationals, or, for the hand-written DP facts, by the paper's theorem and an
explicit witness for the false variants.  A false statement names its witness in
``why``; no truth value is read off the checker.

Families:

* ``boundary``  -- ``f(x) > f(a)`` on a domain closed at ``a`` (false: equality at a)
  against ``>=`` (true), and the open domain (true);
* ``interior``  -- a square, an absolute value, ``exp``/``log`` of a square vanishing
  at an interior rational point r (``> 0`` false at r, ``>= 0`` true);
* ``coupled``   -- constraints coupling two or three parameters (``x + y >= 1`` on
  [0,1]^2, ``x <= y``, ``k <= n``);
* ``tiny``      -- constants 1e-80 ... 1e-400 (``exp(10**-80) - 1 = 0`` is false);
* ``far``       -- integer statements false only for n beyond 10^5;
* ``ties``      -- true statements with an exact tie (AM-GM at x = y, ``e^x >= 1 + x``
  at 0, Bernoulli at x = 0);
* ``dp``        -- hand-written facts on trade-off functions and privacy profiles
  (Dong, Roth, Su 2022), true and false variants.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

x, y, z = sp.symbols("x y z", real=True)
e, mu, a = sp.symbols("varepsilon mu alpha", real=True)
n, k = sp.symbols("n k", integer=True)

UNIT = sp.Interval(0, 1)
HALF_OPEN = sp.Interval.Lopen(0, 1)
NONNEG = sp.Interval(0, sp.oo)
POSITIVE = sp.Interval.open(0, sp.oo)
NATURALS = sp.Range(1, sp.oo)


@dataclass(frozen=True)
class Statement:
    family: str
    lhs: sp.Expr
    relation: str
    rhs: sp.Expr
    hypotheses: dict
    true: bool
    why: str
    constraints: tuple = ()
    # the kernel's families (issue #19); see kernel_statements()
    enumeration: tuple = ()   # ((Symbol, range), ...): the Derivation's enumeration ranges
    witness: tuple = ()       # ((Symbol, Rational), ...): a point where it fails / is undefined
    sample_only: bool = False  # no route but a sample of an infinite domain: never "holds"
    refusable: bool = False    # a declaration conflict: a clear error is a right answer
    prime: tuple = ()          # ((hypotheses, constraints) or a callable, ...) run first (cache)
    build: object = None       # a callable giving (lhs, rhs) after ``prime`` ran (cache family)

    @property
    def label(self) -> str:
        dom = ", ".join(f"{s.name} in {d}" for s, d in self.hypotheses.items())
        cons = (" with " + ", ".join(sp.sstr(c) for c in self.constraints)) if self.constraints else ""
        return f"[{self.family}] {sp.sstr(self.lhs)} {self.relation} {sp.sstr(self.rhs)} ({dom}{cons})"


S = Statement

# increasing functions with f(0) = 0 on [0, oo) (each: derivative > 0 on (0, oo), value 0 at 0)
INCREASING_AT_0 = [
    x, x ** 2, x ** 3, sp.sqrt(x), sp.exp(x) - 1, sp.log(1 + x), x / (1 + x), 1 - sp.exp(-x),
    sp.atan(x), x * sp.exp(x), sp.sinh(x), sp.tanh(x), x ** sp.Rational(3, 2), sp.log(1 + x ** 2),
    sp.exp(x ** 2) - 1,
]


def boundary() -> list:
    out = []
    for f in INCREASING_AT_0:
        out += [
            S("boundary", f, ">", 0, {x: UNIT}, False, "f(0) = 0 at the closed end x = 0"),
            S("boundary", f, ">=", 0, {x: UNIT}, True, "f increasing with f(0) = 0"),
            S("boundary", f, ">", 0, {x: HALF_OPEN}, True, "f > f(0) = 0 on (0, 1]"),
            S("boundary", f, ">", 0, {x: NONNEG}, False, "f(0) = 0 at the closed end x = 0"),
            # the upper end: f(x) < f(1) fails at x = 1, f(x) <= f(1) holds
            S("boundary", f, "<", f.subs(x, 1), {x: UNIT}, False, "equality at x = 1"),
            S("boundary", f, "<=", f.subs(x, 1), {x: UNIT}, True, "f increasing"),
        ]
    # shifted: the closed end at a rational a
    for r in (sp.Rational(1, 3), sp.Rational(2, 7), sp.Rational(5, 2)):
        dom = sp.Interval(r, r + 1)
        out += [
            S("boundary", sp.exp(x - r), ">", 1, {x: dom}, False, f"equality at x = {r}"),
            S("boundary", sp.exp(x - r), ">=", 1, {x: dom}, True, "exp(u) >= 1 for u >= 0"),
            S("boundary", sp.log(x / r), ">", 0, {x: dom}, False, f"log 1 = 0 at x = {r}"),
            S("boundary", sp.log(x / r), ">=", 0, {x: dom}, True, "log increasing, log 1 = 0"),
        ]
    # the issue's lines
    out += [
        S("boundary", x, ">", 0, {x: UNIT}, False, "x = 0"),
        S("boundary", sp.exp(e), ">", 1, {e: NONNEG}, False, "eps = 0"),
    ]
    return out


INTERIOR_POINTS = (sp.Rational(1, 3), sp.Rational(2, 7), sp.Rational(5, 11), sp.Rational(1, 2),
                   sp.Rational(3, 5), sp.Rational(7, 9))


def interior() -> list:
    out = []
    for r in INTERIOR_POINTS:
        for g, zero in (((x - r) ** 2, 0), (sp.Abs(x - r), 0), (sp.exp((x - r) ** 2), 1),
                        (sp.log(1 + (x - r) ** 2), 0), ((x - r) ** 2 * (1 + x), 0),
                        (sp.cosh(x - r), 1)):
            out += [
                S("interior", g, ">", zero, {x: UNIT}, False, f"equality at the interior x = {r}"),
                S("interior", g, ">=", zero, {x: UNIT}, True, f"minimum {zero} at x = {r}"),
            ]
        # strict inequality whose sides touch at r: x^2 - 2 r x + r^2 vs 0 written as two sides
        out.append(S("interior", x ** 2 + r ** 2, ">", 2 * r * x, {x: UNIT}, False,
                     f"x^2 + r^2 - 2 r x = (x - r)^2 = 0 at x = {r}"))
    # two parameters
    out += [
        S("interior", (x - y) ** 2, ">", 0, {x: UNIT, y: UNIT}, False, "x = y"),
        S("interior", (x - y) ** 2, ">=", 0, {x: UNIT, y: UNIT}, True, "a square"),
        S("interior", x ** 2 + y ** 2, ">", 2 * x * y, {x: UNIT, y: UNIT}, False, "x = y"),
        S("interior", (x - sp.Rational(1, 3)) ** 2 + (y - sp.Rational(2, 5)) ** 2, ">", 0,
          {x: UNIT, y: UNIT}, False, "x = 1/3, y = 2/5"),
        S("interior", sp.Abs(x - y) + sp.Abs(y - sp.Rational(1, 7)), ">", 0,
          {x: UNIT, y: UNIT}, False, "x = y = 1/7"),
        S("interior", (x + y) / 2, ">", sp.sqrt(x * y), {x: POSITIVE, y: POSITIVE}, False,
          "AM = GM at x = y"),
        S("interior", sp.Abs(x - sp.Rational(1, 3)), ">", 0, {x: UNIT}, False, "x = 1/3 (issue)"),
    ]
    return out


def coupled() -> list:
    box2 = {x: UNIT, y: UNIT}
    box3 = {x: UNIT, y: UNIT, z: UNIT}
    s1 = (x + y >= 1,)
    out = []
    # min of x + y on {x + y >= 1} is 1 (on the whole segment x + y = 1)
    for c, truth in ((1, True), (sp.Rational(1, 2), True), (sp.Rational(6, 5), False),
                     (sp.Rational(11, 10), False), (sp.Rational(101, 100), False)):
        out.append(S("coupled", x + y, ">=", c, box2, truth,
                     "min of x + y is 1, at x + y = 1" + ("" if truth else f" < {c}"), s1))
    out += [
        S("coupled", x + y, ">", 1, box2, False, "x + y = 1 is admissible", s1),
        # x^2 + y^2 on x + y >= 1: min 1/2 at x = y = 1/2
        S("coupled", x ** 2 + y ** 2, ">=", sp.Rational(1, 2), box2, True, "min 1/2 at x = y = 1/2", s1),
        S("coupled", x ** 2 + y ** 2, ">", sp.Rational(1, 2), box2, False, "= 1/2 at x = y = 1/2", s1),
        S("coupled", x ** 2 + y ** 2, ">=", sp.Rational(3, 5), box2, False, "= 1/2 at x = y = 1/2", s1),
        # x y on x + y >= 1 in [0,1]^2: min 0 at (0, 1)
        S("coupled", x * y, ">=", 0, box2, True, "x, y >= 0", s1),
        S("coupled", x * y, ">", 0, box2, False, "x = 0, y = 1", s1),
        S("coupled", x * y, ">=", sp.Rational(1, 100), box2, False, "x = 0, y = 1", s1),
        # 2 - x - y <= 1 on x + y >= 1
        S("coupled", 2 - x - y, "<=", 1, box2, True, "x + y >= 1", s1),
        S("coupled", 2 - x - y, "<", 1, box2, False, "x + y = 1", s1),
        S("coupled", sp.exp(x + y), ">=", sp.E, box2, True, "exp increasing, x + y >= 1", s1),
        S("coupled", sp.exp(x + y), ">", sp.E, box2, False, "x + y = 1", s1),
        S("coupled", sp.log(x + y), ">=", 0, box2, True, "x + y >= 1", s1),
        S("coupled", sp.log(x + y), ">=", sp.Rational(1, 10), box2, False, "x + y = 1", s1),
        # x <= y
        S("coupled", y - x, ">=", 0, box2, True, "x <= y", (x <= y,)),
        S("coupled", y - x, ">", 0, box2, False, "x = y", (x <= y,)),
        S("coupled", y ** 2, ">=", x ** 2, box2, True, "0 <= x <= y", (x <= y,)),
        S("coupled", y ** 2, ">", x ** 2, box2, False, "x = y", (x <= y,)),
        S("coupled", y - x, ">=", sp.Rational(1, 10), box2, False, "x = y", (x <= y,)),
        # three parameters
        S("coupled", x + y + z, ">=", 1, box3, True, "constraint", (x + y + z >= 1,)),
        S("coupled", x + y + z, ">=", sp.Rational(11, 10), box3, False, "x + y + z = 1",
          (x + y + z >= 1,)),
        S("coupled", x * y * z, ">", 0, box3, False, "x = 0", (x + y + z >= 1,)),
        S("coupled", x ** 2 + y ** 2 + z ** 2, ">=", sp.Rational(1, 3), box3, True,
          "min 1/3 at x = y = z = 1/3 (Cauchy-Schwarz)", (x + y + z >= 1,)),
        S("coupled", x ** 2 + y ** 2 + z ** 2, ">", sp.Rational(1, 3), box3, False,
          "x = y = z = 1/3", (x + y + z >= 1,)),
        S("coupled", z - x, ">=", 0, box3, True, "x <= y <= z", (x <= y, y <= z)),
        S("coupled", z - x, ">", 0, box3, False, "x = y = z", (x <= y, y <= z)),
    ]
    # integers k <= n
    kn = {n: NATURALS, k: NATURALS}
    out += [
        S("coupled", n - k, ">=", 0, kn, True, "k <= n", (k <= n,)),
        S("coupled", n - k, ">", 0, kn, False, "k = n", (k <= n,)),
        S("coupled", n - k, ">=", 1, kn, False, "k = n", (k <= n,)),
        S("coupled", k / n, "<=", 1, kn, True, "k <= n", (k <= n,)),
        S("coupled", k / n, "<", 1, kn, False, "k = n", (k <= n,)),
        S("coupled", (n - k) / (n + 1), ">=", 0, kn, True, "k <= n", (k <= n,)),
        S("coupled", (n - k) / (n + 1), ">", 0, kn, False, "k = n", (k <= n,)),
        S("coupled", sp.binomial(n, k), ">=", 1, kn, True, "0 <= k <= n", (k <= n,)),
        S("coupled", 2 ** n, ">=", 2 ** k, kn, True, "k <= n", (k <= n,)),
        S("coupled", 2 ** n, ">", 2 ** k, kn, False, "k = n", (k <= n,)),
    ]
    return out


TINY_EXPONENTS = (80, 100, 150, 200, 300, 400)


def tiny() -> list:
    out = []
    for j in TINY_EXPONENTS:
        t = sp.Rational(1, 10 ** j)
        out += [
            S("tiny", sp.exp(t) - 1, "=", 0, {}, False, f"exp(1e-{j}) - 1 = 1e-{j} + ..."),
            S("tiny", sp.exp(t) - 1, ">", 0, {}, True, "exp(u) > 1 for u > 0"),
            S("tiny", sp.log(1 + t), "=", 0, {}, False, f"log(1 + 1e-{j}) ~ 1e-{j}"),
            S("tiny", sp.log(1 + t), ">", 0, {}, True, "log(1 + u) > 0 for u > 0"),
            S("tiny", sp.exp(t) - 1, "<=", t, {}, False, f"e^u - 1 - u = u^2/2 + ... > 0 (u = 1e-{j})"),
            S("tiny", sp.exp(t) - 1, ">=", t, {}, True, "e^u >= 1 + u"),
            S("tiny", sp.exp(x + t), "=", sp.exp(x), {x: UNIT}, False,
              f"exp(x + 1e-{j}) = exp(x) (1 + 1e-{j} + ...)"),
            S("tiny", sp.exp(x + t), ">", sp.exp(x), {x: UNIT}, True, "exp increasing"),
        ]
    return out


def far() -> list:
    big = {n: NATURALS}
    out = [
        S("far", n, "<=", 10 ** 5, big, False, "n = 100001"),
        S("far", n ** 2, "<=", 10 ** 11, big, False, "n = 316228: n^2 > 1e11"),
        S("far", sp.log(n), "<", 12, big, False, "n = 162755 > e^12"),
        S("far", sp.sqrt(n), "<", 1000, big, False, "n = 10^6"),
        S("far", 1 / n, ">=", sp.Rational(1, 10 ** 6), big, False, "n = 10^6 + 1"),
        S("far", n / (n + 1), "<", 1 - sp.Rational(1, 10 ** 7), big, False,
          "n/(n+1) = 1 - 1/(n+1) >= 1 - 1e-7 for n >= 10^7 - 1"),
        S("far", (1 + 1 / n) ** n, "<", sp.Rational(2718281, 10 ** 6), big, False,
          "(1 + 1/n)^n -> e = 2.7182818... > 2.718281 (n ~ 2e6)"),
        S("far", n * sp.exp(-n / 10 ** 6), "<=", 10 ** 5, big, False,
          "at n = 10^6 it is 10^6/e > 10^5"),
        # true ones on the same n (also far out)
        S("far", (1 + 1 / n) ** n, "<", sp.E, big, True, "(1 + 1/n)^n increases to e"),
        S("far", n / (n + 1), "<", 1, big, True, "n/(n+1) = 1 - 1/(n+1)"),
        S("far", 1 / n, ">", 0, big, True, "n >= 1"),
        S("far", sp.log(n + 1) - sp.log(n), "<=", 1 / n, big, True, "log(1 + u) <= u"),
        S("far", sp.log(n + 1) - sp.log(n), ">=", 1 / (n + 1), big, True,
          "log(1 + 1/n) >= 1/(n + 1) (log(1+u) >= u/(1+u))"),
        S("far", sp.log(n), "<", n, big, True, "log n < n"),
        S("far", sp.sqrt(n), "<=", n, big, True, "n >= 1"),
        S("far", n ** 2, ">=", n, big, True, "n >= 1"),
        S("far", n ** 2, ">", n, big, False, "n = 1"),
        S("far", 2 ** n, ">=", n + 1, big, True, "Bernoulli"),
        S("far", 2 ** n, ">", n + 1, big, False, "n = 1"),
    ]
    return out


def ties() -> list:
    box2 = {x: UNIT, y: UNIT}
    out = [
        S("ties", sp.exp(x), ">=", 1 + x, {x: UNIT}, True, "e^u >= 1 + u, tie at 0"),
        S("ties", sp.exp(x), ">", 1 + x, {x: UNIT}, False, "tie at x = 0"),
        S("ties", sp.exp(x), ">", 1 + x, {x: HALF_OPEN}, True, "strict for u != 0"),
        S("ties", sp.log(1 + x), "<=", x, {x: NONNEG}, True, "log(1 + u) <= u, tie at 0"),
        S("ties", sp.log(1 + x), "<", x, {x: NONNEG}, False, "tie at x = 0"),
        S("ties", x * (1 - x), "<=", sp.Rational(1, 4), {x: UNIT}, True, "tie at 1/2"),
        S("ties", x * (1 - x), "<", sp.Rational(1, 4), {x: UNIT}, False, "tie at x = 1/2"),
        S("ties", 2 * x * y, "<=", x ** 2 + y ** 2, box2, True, "AM-GM, tie at x = y"),
        S("ties", (x + y) ** 2, ">=", 4 * x * y, box2, True, "tie at x = y"),
        S("ties", (x + y) ** 2, ">", 4 * x * y, box2, False, "tie at x = y"),
        S("ties", sp.sqrt(x * y), "<=", (x + y) / 2, box2, True, "AM-GM"),
        S("ties", sp.Max(x, 1 - x), ">=", sp.Rational(1, 2), {x: UNIT}, True, "tie at 1/2"),
        S("ties", sp.Max(x, 1 - x), ">", sp.Rational(1, 2), {x: UNIT}, False, "tie at x = 1/2"),
        S("ties", sp.Min(x, 1 - x), "<=", sp.Rational(1, 2), {x: UNIT}, True, "tie at 1/2"),
        S("ties", sp.Abs(x - sp.Rational(1, 3)), ">=", 0, {x: UNIT}, True, "tie at 1/3"),
        S("ties", (1 + x) ** 3, ">=", 1 + 3 * x, {x: NONNEG}, True, "Bernoulli, tie at 0"),
        S("ties", (1 + x) ** 3, ">", 1 + 3 * x, {x: NONNEG}, False, "tie at x = 0"),
        S("ties", (1 + x) ** n, ">=", 1 + n * x, {x: UNIT, n: NATURALS}, True,
          "Bernoulli, tie at x = 0 and n = 1"),
        S("ties", (1 + x) ** n, ">", 1 + n * x, {x: UNIT, n: NATURALS}, False, "n = 1"),
        S("ties", (x + 1) ** 2, "=", x ** 2 + 2 * x + 1, {x: UNIT}, True, "algebra"),
        S("ties", sp.exp(sp.log(1 + x)), "=", 1 + x, {x: UNIT}, True, "exp(log u) = u"),
        S("ties", sp.log(sp.exp(x)), "=", x, {x: UNIT}, True, "log(exp u) = u"),
        S("ties", (x + 1) ** 2, "=", x ** 2 + 2 * x + 1 + sp.Rational(1, 10 ** 30), {x: UNIT},
          False, "off by 1e-30"),
        S("ties", sp.exp(-x), "<=", 1 / (1 + x), {x: NONNEG}, True, "e^x >= 1 + x"),
        S("ties", sp.exp(-x), "<", 1 / (1 + x), {x: NONNEG}, False, "tie at x = 0"),
        S("ties", x / (1 + x), "<=", sp.log(1 + x), {x: NONNEG}, True, "log(1+u) >= u/(1+u)"),
        S("ties", 1 - x, "<=", sp.exp(-x), {x: UNIT}, True, "e^-u >= 1 - u"),
        S("ties", sp.tanh(x), "<=", x, {x: NONNEG}, True, "tanh u <= u, tie at 0"),
        S("ties", sp.tanh(x), "<", x, {x: NONNEG}, False, "tie at x = 0"),
        S("ties", sp.tanh(x), "<", x, {x: POSITIVE}, True, "tanh u < u for u > 0"),
    ]
    return out


def dp() -> list:
    """Facts of f-DP (Dong, Roth, Su 2022): trade-off functions and privacy profiles."""
    from symdp import Phi

    # G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu) (DRS 2022, Def. 2.7) written with u = Phi^{-1}(1 - alpha)
    u = x  # quantile variable: alpha = 1 - Phi(u)
    out = [
        # Gaussian trade-off below the identity trade-off: Phi(u - mu) <= Phi(u) for mu >= 0
        S("dp", Phi(u - mu), "<=", Phi(u), {u: sp.Interval(-5, 5), mu: sp.Interval(0, 3)}, True,
          "Phi increasing, mu >= 0"),
        S("dp", Phi(u - mu), "<", Phi(u), {u: sp.Interval(-5, 5), mu: sp.Interval(0, 3)}, False,
          "mu = 0"),
        S("dp", Phi(u - mu), "<", Phi(u), {u: sp.Interval(-5, 5), mu: sp.Interval.Lopen(0, 3)},
          True, "Phi strictly increasing, mu > 0"),
        S("dp", Phi(-x), "=", 1 - Phi(x), {x: sp.Interval(-3, 3)}, True, "symmetry of Phi"),
        S("dp", Phi(-x), "=", 1 - Phi(x) + sp.Rational(1, 10 ** 50), {x: sp.Interval(-3, 3)},
          False, "off by 1e-50"),
        S("dp", Phi(x), ">", 0, {x: sp.Interval(-3, 3)}, True, "Phi > 0"),
        S("dp", Phi(x), ">=", sp.Rational(1, 2), {x: sp.Interval(0, 3)}, True, "Phi(0) = 1/2"),
        S("dp", Phi(x), ">", sp.Rational(1, 2), {x: sp.Interval(0, 3)}, False, "x = 0"),
        # Gaussian privacy profile delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
        # (DRS 2022, Cor. 2.13) lies in [0, 1]
        S("dp", Phi(-e / mu + mu / 2) - sp.exp(e) * Phi(-e / mu - mu / 2), ">=", 0,
          {e: sp.Interval(0, 5), mu: sp.Interval(sp.Rational(1, 2), 2)}, True, "a profile is >= 0"),
        S("dp", Phi(-e / mu + mu / 2) - sp.exp(e) * Phi(-e / mu - mu / 2), "<=", 1,
          {e: sp.Interval(0, 5), mu: sp.Interval(sp.Rational(1, 2), 2)}, True, "<= Phi <= 1"),
        S("dp", Phi(-e / mu + mu / 2) - sp.exp(e) * Phi(-e / mu - mu / 2), "<=",
          Phi(mu / 2) - Phi(-mu / 2) - sp.Rational(1, 10 ** 6),
          {e: sp.Interval(0, 5), mu: sp.Interval(sp.Rational(1, 2), 2)}, False,
          "at eps = 0 the profile is Phi(mu/2) - Phi(-mu/2)"),
        # (eps, 0)-DP trade-off f(alpha) = max(0, 1 - e^eps alpha, e^-eps (1 - alpha)) (DRS 2022, eq. (5))
        S("dp", sp.Max(0, 1 - sp.exp(e) * a, sp.exp(-e) * (1 - a)), "<=", 1 - a,
          {e: sp.Interval(0, 3), a: UNIT}, True, "f <= Id"),
        S("dp", sp.Max(0, 1 - sp.exp(e) * a, sp.exp(-e) * (1 - a)), "<", 1 - a,
          {e: sp.Interval(0, 3), a: UNIT}, False, "alpha = 1 (both 0)"),
        S("dp", sp.Max(0, 1 - sp.exp(e) * a, sp.exp(-e) * (1 - a)), ">=", 0,
          {e: sp.Interval(0, 3), a: UNIT}, True, "a maximum with 0"),
        S("dp", sp.Max(0, 1 - sp.exp(e) * a, sp.exp(-e) * (1 - a)), ">=",
          sp.exp(-e) * (1 - a), {e: sp.Interval(0, 3), a: UNIT}, True, "an argument of the Max"),
        S("dp", sp.Max(0, 1 - sp.exp(e) * a, sp.exp(-e) * (1 - a)), ">=", 1 - a - e / 10,
          {e: sp.Interval(0, 3), a: UNIT}, False,
          "eps = 1, alpha = 1/(1+e): f = e^-1 * e/(1+e) = 1/(1+e) ~ 0.269 < 1 - 0.269 - 0.1"),
        # group privacy / composition of pure DP: k eps-DP steps give (k eps)-DP; e^{k eps} >= 1 + k eps
        S("dp", sp.exp(k * e), ">=", 1 + k * e, {k: NATURALS, e: sp.Interval(0, 2)}, True,
          "e^u >= 1 + u"),
        S("dp", sp.exp(k * e), ">", 1 + k * e, {k: NATURALS, e: sp.Interval(0, 2)}, False, "eps = 0"),
        # amplification by subsampling (Balle et al. 2018): log(1 + p (e^eps - 1)) <= eps
        S("dp", sp.log(1 + y * (sp.exp(e) - 1)), "<=", e, {y: UNIT, e: sp.Interval(0, 5)}, True,
          "p <= 1"),
        S("dp", sp.log(1 + y * (sp.exp(e) - 1)), "<", e, {y: UNIT, e: sp.Interval(0, 5)}, False,
          "p = 1 (or eps = 0)"),
        S("dp", sp.log(1 + y * (sp.exp(e) - 1)), "<=", y * e, {y: UNIT, e: sp.Interval(0, 5)},
          False, "p = 1/2, eps = 5: log(1 + (e^5 - 1)/2) ~ 4.31 > 2.5"),
        S("dp", sp.log(1 + y * (sp.exp(e) - 1)), "<=", y * (sp.exp(e) - 1),
          {y: UNIT, e: sp.Interval(0, 5)}, True, "log(1 + u) <= u"),
        # advanced-composition-type term: eps (e^eps - 1) >= eps^2
        S("dp", e * (sp.exp(e) - 1), ">=", e ** 2, {e: sp.Interval(0, 3)}, True, "e^u - 1 >= u"),
        S("dp", e * (sp.exp(e) - 1), ">", e ** 2, {e: sp.Interval(0, 3)}, False, "eps = 0"),
        # tanh-type: (e^eps - 1)/(e^eps + 1) = tanh(eps/2) <= eps/2
        S("dp", (sp.exp(e) - 1) / (sp.exp(e) + 1), "<=", e / 2, {e: sp.Interval(0, 4)}, True,
          "tanh u <= u"),
        S("dp", (sp.exp(e) - 1) / (sp.exp(e) + 1), "<", e / 2, {e: sp.Interval(0, 4)}, False,
          "eps = 0"),
        S("dp", (sp.exp(e) - 1) / (sp.exp(e) + 1), "<=", e / 3, {e: sp.Interval(0, 4)}, False,
          "eps = 1: tanh(1/2) ~ 0.462 > 1/3"),
    ]
    return out


def all_statements() -> list:
    return boundary() + interior() + coupled() + tiny() + far() + ties() + dp()


# ---------------------------------------------------------------------------------------
# The kernel's families (issue #19): one per class of the issue's table.  Each statement's
# truth comes from exact arithmetic in plain Python (Fraction, integer enumeration over the
# whole finite domain, the generalised binomial n (n-1) ... (n-k+1) / k!) or from an
# analytic argument stated in ``why``; SymPy builds the expressions handed to symdp, and is
# never asked whether they hold -- SymPy's own assumption system is what several of these
# families catch out (Abs(x) is x for Symbol("x", positive=True) whatever x's domain).
# ---------------------------------------------------------------------------------------

import itertools  # noqa: E402
import math  # noqa: E402
from fractions import Fraction as F  # noqa: E402

from symdp.core.enumerable import Enumerated  # noqa: E402

ONE_TO_OO = sp.Range(1, sp.oo)
_LISTING_LIMIT = 9  # the atoms list objects; beyond this size they refuse (a search stage
#                     evaluating them at n = 10^5 must not list 10^5! permutations)


def _listable(*sizes):
    if any(s > _LISTING_LIMIT for s in sizes):
        raise ValueError(f"too large to list: {sizes}")


class Subsets(Enumerated):
    """The number of j-element subsets of {0, ..., n-1}, by listing them (binomial(n, j))."""

    def enumerate(self):
        n, j = (int(a) for a in self.args)
        _listable(n, j)
        return sp.Integer(sum(1 for _ in itertools.combinations(range(n), j)))


class PowerSet(Enumerated):
    """The number of subsets of {0, ..., n-1}, by listing their indicator words (2^n)."""

    def enumerate(self):
        (n,) = (int(a) for a in self.args)
        _listable(n)
        return sp.Integer(sum(1 for _ in itertools.product((0, 1), repeat=n)))


class Words(Enumerated):
    """The number of words of length k over n letters, by listing them (n^k)."""

    def enumerate(self):
        n, k = (int(a) for a in self.args)
        _listable(n, k)
        return sp.Integer(sum(1 for _ in itertools.product(range(n), repeat=k)))


class Derangements(Enumerated):
    """The number of permutations of n points with no fixed point, by listing them
    (the subfactorial !n: 0, 1, 2, 9, 44, 265, 1854, ...)."""

    def enumerate(self):
        (n,) = (int(a) for a in self.args)
        _listable(n)
        return sp.Integer(sum(1 for p in itertools.permutations(range(n))
                              if all(p[i] != i for i in range(n))))


def _subfactorial(n: int) -> int:
    """!n by the recurrence !n = (n - 1)(!(n-1) + !(n-2)), !0 = 1, !1 = 0."""
    a, b = 1, 0
    for i in range(2, n + 1):
        a, b = b, (i - 1) * (a + b)
    return a if n == 0 else b


def _vanishing(n_, m):
    """prod_{i=1..m} (n - i): zero at n = 1..m, m! at n = m + 1."""
    return sp.Mul(*[(n_ - i) for i in range(1, m + 1)])


def enumerated_sample() -> list:
    """ENUMERATED over a sample of an infinite domain: n in Range(1, oo) enumerated for
    n <= m only.  A count claimed for all n is at best evidence (``sample_only``); one that
    agrees for n <= m and fails at n = m + 1 is false (witness n = m + 1, computed below)."""
    out = []
    kk = sp.Symbol("k", integer=True)
    for m in (3, 4, 5, 6):
        E = ((n, tuple(range(1, m + 1))),)
        E2 = ((n, tuple(range(1, m + 1))), (kk, (1, 2, 3)))
        w = ((n, sp.Integer(m + 1)),)
        hyp, hyp2 = {n: ONE_TO_OO}, {n: ONE_TO_OO, kk: ONE_TO_OO}
        N = m + 1
        # the false ones: exact integers at the witness n = m + 1 (k = 2)
        assert math.comb(N, 2) != math.comb(N, 2) + math.factorial(m)
        assert 2 ** N != sum(math.comb(N, j) for j in range(m + 1))
        assert _subfactorial(N) != _subfactorial(N) + math.factorial(m)
        assert N ** 2 != N ** 2 + math.factorial(m)
        assert math.factorial(m) > 0 and math.comb(N, N) == 1 and 2 ** N > 2 ** m
        out += [
            S("enumerated", Subsets(n, 2), "=", n * (n - 1) / 2, hyp, True,
              "C(n, 2) = n(n-1)/2, for every n: only n <= %d enumerated" % m,
              enumeration=E, sample_only=True),
            S("enumerated", Subsets(n, 2), "=", n * (n - 1) / 2 + _vanishing(n, m), hyp, False,
              f"the added product vanishes for n <= {m}; at n = {N} it is {m}!",
              enumeration=E, witness=w),
            S("enumerated", PowerSet(n), "=", 2 ** n, hyp, True,
              "2^n subsets, for every n: only n <= %d enumerated" % m,
              enumeration=E, sample_only=True),
            S("enumerated", PowerSet(n), "=", sp.Add(*[sp.binomial(n, j) for j in range(m + 1)]),
              hyp, False, f"sum_(j <= {m}) C(n, j) = 2^n only for n <= {m}; 2^{N} - 1 at n = {N}",
              enumeration=E, witness=w),
            S("enumerated", PowerSet(n), "<=", sp.Add(*[sp.binomial(n, j) for j in range(m + 1)]),
              hyp, False, f"2^{N} > 2^{N} - 1 at n = {N}", enumeration=E, witness=w),
            S("enumerated", Derangements(n), "=", sp.subfactorial(n), hyp, True,
              "!n derangements, for every n: only n <= %d enumerated" % m,
              enumeration=E, sample_only=True),
            S("enumerated", Derangements(n), "=", sp.subfactorial(n) + _vanishing(n, m), hyp,
              False, f"the added product is {m}! at n = {N}", enumeration=E, witness=w),
            S("enumerated", Words(n, kk), "=", n ** kk, hyp2, True,
              "n^k words, for every n, k: only n <= %d, k <= 3 enumerated" % m,
              enumeration=E2, sample_only=True),
            S("enumerated", Words(n, kk), "=", n ** kk + _vanishing(n, m) * (kk - 1), hyp2, False,
              f"the added term is {m}! at n = {N}, k = 2", enumeration=E2,
              witness=((n, sp.Integer(N)), (kk, sp.Integer(2)))),
            # integer statements without atoms, true for n <= m and false at n = m + 1
            S("enumerated", _vanishing(n, m), "<=", 0, hyp, False,
              f"zero for n <= {m}, {m}! > 0 at n = {N}", enumeration=E, witness=w),
            S("enumerated", sp.binomial(n, m + 1), "=", 0, hyp, False,
              f"C(n, {N}) = 0 for n <= {m}, 1 at n = {N}", enumeration=E, witness=w),
            S("enumerated", 2 ** n, "<=", 2 ** m, hyp, False, f"2^{N} > 2^{m}",
              enumeration=E, witness=w),
        ]
    return out


def _gbinom(a: int, k: int) -> F:
    """The generalised binomial a (a-1) ... (a-k+1) / k! of an integer a (negative too)."""
    return F(math.prod(a - i for i in range(k)), math.factorial(k))


_RELATION = {"=": lambda a, b: a == b, "<=": lambda a, b: a <= b, "<": lambda a, b: a < b,
             ">=": lambda a, b: a >= b, ">": lambda a, b: a > b}


def _exact_over(values, lhs, relation, rhs):
    """(truth, first failing value) by exact evaluation at every value of a finite domain;
    ``lhs``/``rhs`` are Python functions returning a Fraction, or None where undefined."""
    for v in values:
        left, right = lhs(v), rhs(v)
        if left is None or right is None or not _RELATION[relation](left, right):
            return False, v
    return True, None


def sign_facts() -> list:
    """Integer functions whose sign SymPy's assumption system states wrongly: binomials with
    negative, odd or even arguments (binomial(n, 3) < 1 for integer n in [-10, 10] fails at
    n = 4: C(4, 3) = 4), falling and rising factorials, factorials at negative integers
    (undefined), floor and (-1)^n.  Truth: exact enumeration of the whole finite domain."""
    out = []
    m_ = sp.Symbol("m", integer=True)

    def add(lhs, relation, rhs, symbol, lo, hi, py_lhs, py_rhs, why):
        truth, at = _exact_over(range(lo, hi), py_lhs, relation, py_rhs)
        out.append(S("sign", lhs, relation, rhs, {symbol: sp.Range(lo, hi)}, truth,
                     why + ("" if truth else f"; fails at {symbol.name} = {at}"),
                     witness=() if truth else ((symbol, sp.Integer(at)),)))

    for k_ in (2, 3, 4, 5):
        for lo, hi in ((-10, 11), (-10, k_), (0, 11), (-6, 7)):
            for relation, c in (("<", 1), (">=", 0), ("<=", 0), ("<", 100)):
                add(sp.binomial(n, k_), relation, c, n, lo, hi,
                    lambda v, k_=k_: _gbinom(v, k_), lambda v, c=c: F(c),
                    f"generalised binomial C(n, {k_}) at every integer of the range")
    for k_ in (2, 3):
        for shift, word in ((1, "odd"), (0, "even")):
            for relation, c in (("<", 1), (">=", 0)):
                add(sp.binomial(2 * m_ + shift, k_), relation, c, m_, -5, 6,
                    lambda v, k_=k_, s_=shift: _gbinom(2 * v + s_, k_), lambda v, c=c: F(c),
                    f"C(2m + {shift}, {k_}), an {word} argument")
    for k_ in (2, 3):
        add(sp.ff(n, k_), ">=", 0, n, -10, 11,
            lambda v, k_=k_: F(math.prod(v - i for i in range(k_))), lambda v: F(0),
            f"falling factorial n (n-1) ... (n-{k_ - 1})")
        add(sp.rf(n, k_), ">=", 0, n, -10, 11,
            lambda v, k_=k_: F(math.prod(v + i for i in range(k_))), lambda v: F(0),
            f"rising factorial n (n+1) ... (n+{k_ - 1})")
    add(sp.factorial(n), ">=", 1, n, -3, 6,
        lambda v: F(math.factorial(v)) if v >= 0 else None, lambda v: F(1),
        "n! is undefined at negative integers (a pole of Gamma(n + 1))")
    add(sp.factorial(n), ">=", 1, n, 0, 8, lambda v: F(math.factorial(v)), lambda v: F(1),
        "n! >= 1 for n >= 0")
    add(2 * sp.floor(n / 2), "<=", n, n, -10, 11, lambda v: F(2 * (v // 2)), F, "2 floor(n/2) <= n")
    add(2 * sp.floor(n / 2), "=", n, n, -10, 11, lambda v: F(2 * (v // 2)), F, "odd n")
    add(sp.floor(n / 2), ">=", 0, n, -10, 11, lambda v: F(v // 2), lambda v: F(0), "floor")
    add((-1) ** n, "=", 1, n, -10, 11, lambda v: F((-1) ** v), lambda v: F(1), "odd n")
    add(n * (n - 1) * (n - 2) / 6, "=", sp.binomial(n, 3), n, -10, 11,
        lambda v: F(v * (v - 1) * (v - 2), 6), lambda v: _gbinom(v, 3), "the definition")
    return out


def _at(expr, point):
    """Exact value of a rational expression at a rational point (Fraction arithmetic on the
    expression tree: +, *, integer powers; anything else is an error)."""
    if expr.is_Symbol:
        return point[expr]
    if expr.is_Rational:
        return F(int(expr.p), int(expr.q))
    if expr.is_Add:
        return sum((_at(a, point) for a in expr.args), F(0))
    if expr.is_Mul:
        return math.prod((_at(a, point) for a in expr.args), start=F(1))
    if expr.is_Pow and expr.exp.is_Integer:
        return _at(expr.base, point) ** int(expr.exp)
    raise TypeError(f"not a rational expression: {expr}")


def undefined_sides() -> list:
    """Sides undefined on part of the domain: a denominator in two or three parameters that
    vanishes inside it (``(x^2-y^2)/(x-y)`` on x = y), a log or square root whose argument
    reaches 0 or below, 0 to a negative power.  Each false statement names a rational point
    of the domain where the offending argument is exactly 0 (or negative), computed with
    Fractions; the true twins restate the identity on a domain that keeps clear of it."""
    out = []
    h = sp.Rational(1, 2)
    sq = {x: UNIT, y: UNIT}
    sep = {x: UNIT, y: sp.Interval(2, 3)}  # x - y <= -1: never zero

    def bad(lhs, relation, rhs, hyp, witness, offending, kind, why):
        point = dict(witness)
        value = _at(offending, point)
        assert (value == 0) if kind in ("pole", "log") else (value < 0), (offending, value)
        if kind == "log":
            assert value <= 0
        inside = all(sp.Rational(v) in hyp[s_] for s_, v in witness)
        assert inside, (witness, hyp)
        out.append(S("undefined", lhs, relation, rhs, hyp, False,
                     f"{why}: {sp.sstr(offending)} = {value} at " +
                     ", ".join(f"{s_.name} = {v}" for s_, v in witness), witness=tuple(witness)))

    def good(lhs, relation, rhs, hyp, why):
        out.append(S("undefined", lhs, relation, rhs, hyp, True, why))

    for j in (2, 3, 4, 5):
        quotient = sp.Add(*[x ** i * y ** (j - 1 - i) for i in range(j)])
        bad((x ** j - y ** j) / (x - y), "=", quotient, sq, ((x, h), (y, h)), x - y, "pole",
            "division by x - y")
        good((x ** j - y ** j) / (x - y), "=", quotient, sep,
             "x^j - y^j = (x - y) sum x^i y^(j-1-i), and x - y <= -1")
    bad((x ** 2 - y ** 2) / (x - y), "<=", 2, sq, ((x, h), (y, h)), x - y, "pole",
        "division by x - y")
    good((x ** 2 - y ** 2) / (x - y), "<=", 4, sep, "= x + y <= 4")
    bad((x ** 2 - 2 * x * y + y ** 2) / (x - y), "=", x - y, sq, ((x, h), (y, h)), x - y, "pole",
        "division by x - y")
    bad((x ** 2 + x * y) / (x + y), "=", x, sq, ((x, 0), (y, 0)), x + y, "pole",
        "division by x + y")
    good((x ** 2 + x * y) / (x + y), "=", x, {x: sp.Interval(1, 2), y: sp.Interval(1, 2)},
         "x (x + y)/(x + y), x + y >= 2")
    # x y/(x y) and (x + y + z)/(x + y + z) as written (SymPy would cancel them to 1 at once)
    xy_over_xy = sp.Mul(x * y, sp.Pow(x * y, -1, evaluate=False), evaluate=False)
    bad(xy_over_xy, "=", 1, sq, ((x, 0), (y, h)), x * y, "pole", "division by x y")
    good(xy_over_xy, "=", 1, {x: sp.Interval(h, 1), y: sp.Interval(h, 1)}, "x y >= 1/4")
    # three parameters
    cube = {x: UNIT, y: UNIT, z: UNIT}
    bad((x * y - x * z) / (y - z), "=", x, cube, ((x, h), (y, h), (z, h)), y - z, "pole",
        "division by y - z")
    good((x * y - x * z) / (y - z), "=", x, {x: UNIT, y: UNIT, z: sp.Interval(2, 3)},
         "x (y - z)/(y - z), y - z <= -1")
    bad((x * y * z - x * y) / (z - 1), "=", x * y, cube, ((x, h), (y, h), (z, 1)), z - 1, "pole",
        "division by z - 1")
    total = sp.Mul(x + y + z, sp.Pow(x + y + z, -1, evaluate=False), evaluate=False)
    bad(total, "=", 1, cube, ((x, 0), (y, 0), (z, 0)), x + y + z, "pole", "division by x + y + z")
    good(total, "=", 1, {x: HALF_OPEN, y: UNIT, z: UNIT}, "x + y + z > 0")
    bad(1 / (x - y) + 1 / (y - z), ">=", -sp.oo, cube, ((x, h), (y, h), (z, 0)), x - y, "pole",
        "division by x - y")
    # one parameter, the pole at an interior rational
    for r in (sp.Rational(1, 3), h, sp.Rational(2, 3)):
        bad((x ** 2 - r ** 2) / (x - r), "=", x + r, {x: UNIT}, ((x, r),), x - r, "pole",
            "division by x - r")
    # logarithms reaching 0 or below
    for r in (sp.S.Zero, sp.Rational(1, 3), h):
        bad(sp.log(x - r), "<=", x - r - 1, {x: UNIT}, ((x, r),), x - r, "log",
            "log of 0 (and of negatives below)")
        good(sp.log(x - r), "<=", x - r - 1, {x: sp.Interval(r + sp.Rational(1, 4), 1)},
             "log u <= u - 1 for u > 0")
    bad(sp.log(x * y), "=", sp.log(x) + sp.log(y), sq, ((x, 0), (y, h)), x * y, "log", "log of 0")
    good(sp.log(x * y), "=", sp.log(x) + sp.log(y), {x: sp.Interval(h, 1), y: sp.Interval(h, 1)},
         "log(x y) = log x + log y for x, y > 0")
    bad(sp.log(x - y), "<=", x - y - 1, sq, ((x, h), (y, h)), x - y, "log", "log of 0")
    good(sp.log(x - y), "<=", x - y - 1, {x: sp.Interval(2, 3), y: UNIT}, "log u <= u - 1, u >= 1")
    bad(sp.log(x ** 2), "=", 2 * sp.log(x), {x: sp.Interval(-1, 1)}, ((x, 0),), x, "log",
        "log of 0 (and log x of a negative x)")
    good(sp.log(x ** 2), "=", 2 * sp.log(x), {x: sp.Interval(h, 2)}, "x > 0")
    # square roots of negatives, 0 to a negative power
    for r in (sp.Rational(1, 3), h):
        bad(sp.sqrt(x - r), ">=", 0, {x: UNIT}, ((x, 0),), x - r, "negative",
            "square root of a negative number")
        good(sp.sqrt(x - r), ">=", 0, {x: sp.Interval(r, 1)}, "x >= r")
    bad(sp.sqrt(x - y), "<=", 1, sq, ((x, 0), (y, 1)), x - y, "negative",
        "square root of a negative number")
    good(sp.sqrt(x - y), "<=", 2, {x: sp.Interval(1, 2), y: UNIT}, "0 <= x - y <= 2")
    quarter = sp.Rational(1, 4)
    bad(sp.sqrt(x * y - quarter), ">=", 0, sq, ((x, 0), (y, 0)), x * y - quarter, "negative",
        "square root of a negative number")
    bad(sp.Pow(sp.sqrt(x), 2, evaluate=False), "=", x, {x: sp.Interval(-1, 1)}, ((x, -h),), x,
        "negative", "sqrt(x) of a negative x (the square written as the user wrote it)")
    bad(x ** -h, ">=", 1, {x: UNIT}, ((x, 0),), x, "pole", "0 to the power -1/2")
    good(x ** -h, ">=", 1, {x: HALF_OPEN}, "x^(-1/2) >= 1 on (0, 1]")
    bad(1 / (x * y), ">=", 1, sq, ((x, 0), (y, 0)), x * y, "pole", "0 to the power -1")
    good(1 / (x * y), ">=", 1, {x: HALF_OPEN, y: HALF_OPEN}, "x y <= 1")
    return out


def _piecewise_value(branch, cond_num, cond_den, rel, x0):
    """(value of the first branch, whether the condition holds) at the rational x0: the
    condition is ``cond_num(x0)/cond_den(x0) rel 0``; None for the condition at a pole."""
    den = _at(cond_den, {x: x0})
    if den == 0:
        return None
    ratio = _at(cond_num, {x: x0}) / den
    return _at(branch, {x: x0}), (ratio > 0 if rel == ">" else ratio < 0)


def piecewise_poles() -> list:
    """Piecewise conditions that flip at a pole of the switching function, not only at its
    roots: ``Piecewise((10 (x-r)(x-p), (x-b)/(x-p) > 0), (1, True)) + |x-r| - (x-r) >= 0``
    on [0, 1] with 0 < r < p < b < 1 is false at x = (r+p)/2, where the condition holds
    (x < p < b) and the branch is negative; with the root-free condition ``1/(x-p) < 0``
    too.  True twins have a nonnegative first branch on the condition's set and the pole
    outside [0, 1].  Truth: Fractions at the witness (and on a grid for the true twins)."""
    out = []
    tenth = sp.Rational(1, 10)

    def statement(branch, num, den, rel, shifted, truth, why, witness=None):
        cond = (num / den > 0) if rel == ">" else (num / den < 0)
        pw = sp.Piecewise((branch, cond), (1, True))
        lhs = pw + sp.Abs(x - shifted) - (x - shifted) if shifted is not None else pw
        if witness is not None:
            value, holds = _piecewise_value(branch, num, den, rel, witness)
            assert holds and value < 0, (branch, witness)
            if shifted is not None:
                assert witness >= shifted  # the Abs part is 0 there
        else:  # the first branch is >= 0 wherever the condition holds, on a grid of [0, 1]
            for i in range(201):
                got = _piecewise_value(branch, num, den, rel, F(i, 200))
                assert got is not None and (not got[1] or got[0] >= 0), (branch, i)
        out.append(S("piecewise", lhs, ">=", 0, {x: UNIT}, truth, why,
                     witness=((x, sp.Rational(witness.numerator, witness.denominator)),)
                     if witness is not None else ()))

    for r in (tenth, 2 * tenth, 3 * tenth):
        for p in (4 * tenth, 5 * tenth):
            F_r, F_p = F(int(r.p), int(r.q)), F(int(p.p), int(p.q))
            w = (F_r + F_p) / 2
            for b in (7 * tenth, 9 * tenth):
                statement(10 * (x - r) * (x - p), x - b, x - p, ">", None, False,
                          f"at x = {w} the condition holds (x < {p} < {b}) and the branch "
                          f"10 (x - {r})(x - {p}) < 0", w)
            # a switching function with no root at all: one sample decides its only branch
            statement(10 * (x - r) * (x - p), sp.S.One, x - p, "<", None, False,
                      f"1/(x - {p}) < 0 for x < {p}: at x = {w} the branch is negative", w)
    statement(10 * (x - tenth) * (x - 4 * tenth), x - 9 * tenth, x - 4 * tenth, ">", tenth,
              False, "at x = 1/4 the condition holds and the branch is -9/40", F(1, 4))
    # the pole outside [0, 1]: the condition (x - b)/(x - p) > 0 holds for x < b when p > 1,
    # for x > b when p < 0; there (x - b)(x - p) > 0
    for p in (sp.Rational(3, 2), sp.Integer(2), -sp.Rational(1, 2), -sp.Integer(1)):
        for b in (3 * tenth, 7 * tenth):
            statement(10 * (x - b) * (x - p), x - b, x - p, ">", None, True,
                      f"(x - {b})(x - {p}) > 0 exactly where the condition holds")
    for p in (sp.Rational(3, 2), sp.Integer(2)):
        statement(10 * (x - 2 * tenth) * (x - p), x - 9 * tenth, x - p, ">", None, False,
                  "at x = 11/20 the condition holds (x < 9/10) and the branch is negative",
                  F(11, 20))
    # the issue's line
    statement(10 * (x - 2 * tenth) * (x - 5 * tenth), x - 9 * tenth, x - 5 * tenth, ">",
              2 * tenth, False, "-1/5 at x = 3/10 (the issue's example)", F(3, 10))
    return out


def declarations() -> list:
    """Symbols whose own assumptions disagree with their stated domain.  Narrower: a
    ``Symbol("x", positive=True)`` given the domain [-1, 1] -- SymPy then rewrites ``Abs(x)``
    to ``x`` before any stage looks, and ``Abs(x) = x`` is false on [-1, 0); a clear error
    naming the symbol is a right answer (``refusable``).  Wider: a real or an unassumed
    Symbol on [0, 1] -- no conflict, the domain decides.  Truth: each side evaluated in plain
    Python at the witness, a rational point of the stated domain (mpmath for sin)."""
    import mpmath

    out = []
    h = sp.Rational(1, 2)

    def add(symbol, lhs, relation, rhs, domain, py_lhs, py_rhs, witness, why, refusable=True):
        """``py_lhs``/``py_rhs``: the sides as Python functions of a Fraction (the meaning of
        the formula on the domain, not SymPy's reading of it under the symbol's assumptions);
        ``witness``: None for a true statement (argued in ``why``), else a failing point."""
        truth = witness is None
        if not truth:
            witness = sp.Rational(witness)
            w = F(int(witness.p), int(witness.q))
            left, right = py_lhs(w), py_rhs(w)
            assert left is None or right is None or not _RELATION[relation](left, right), why
            assert witness in domain
        out.append(S("declarations", lhs, relation, rhs, {symbol: domain}, truth,
                     why + ("" if truth else f"; fails at {symbol.name} = {witness}"),
                     witness=() if truth else ((symbol, witness),), refusable=refusable))

    sqrt_sq = lambda v: abs(v)  # noqa: E731 - sqrt(v^2) = |v| for a real v
    for word, kwargs in (("positive", {"positive": True}), ("nonnegative", {"nonnegative": True})):
        s_ = sp.Symbol("x", **kwargs)
        for domain, w in ((sp.Interval(-1, 1), -h), (sp.Interval(-2, -h), -1)):
            why = f"x declared {word}, stated domain {domain}"
            add(s_, sp.Abs(s_), "=", s_, domain, abs, lambda v: v, w, why)
            add(s_, sp.sqrt(s_ ** 2), "=", s_, domain, sqrt_sq, lambda v: v, w, why)
            add(s_, sp.Max(s_, 0), "=", s_, domain, lambda v: max(v, F(0)), lambda v: v, w, why)
            add(s_, s_, ">=", 0, domain, lambda v: v, lambda v: F(0), w, why)
            add(s_, (s_ + sp.Abs(s_)) / 2, "=", s_, domain, lambda v: (v + abs(v)) / 2,
                lambda v: v, w, why)
            add(s_, s_ ** 2, ">=", 0, domain, lambda v: v * v, lambda v: F(0), None,
                why + ": a square is >= 0 on any real domain")
            add(s_, sp.Abs(s_), ">=", s_, domain, abs, lambda v: v, None, why + ": |x| >= x")
    s_ = sp.Symbol("x", negative=True)
    why = "x declared negative, stated domain [-1, 1]"
    add(s_, sp.Abs(s_), "=", -s_, sp.Interval(-1, 1), abs, lambda v: -v, h, why)
    add(s_, sp.Min(s_, 0), "=", s_, sp.Interval(-1, 1), lambda v: min(v, F(0)), lambda v: v, h, why)
    add(s_, s_, "<=", 0, sp.Interval(-1, 1), lambda v: v, lambda v: F(0), h, why)
    add(s_, s_ ** 2, ">=", 0, sp.Interval(-1, 1), lambda v: v * v, lambda v: F(0), None,
        why + ": a square")
    s_ = sp.Symbol("x", integer=True)
    why = "x declared integer, stated domain the real interval [0, 3]"

    def sin_pi(v):
        """sin(pi v) at 50 digits, as a Fraction of its first 30 (0 when below 1e-40)."""
        with mpmath.workdps(50):
            value = mpmath.sin(mpmath.pi * mpmath.mpf(v.numerator) / v.denominator)
            return F(0) if abs(value) < mpmath.mpf(10) ** -40 else F(mpmath.nstr(value, 30))
    add(s_, sp.sin(sp.pi * s_), "=", 0, sp.Interval(0, 3), sin_pi, lambda v: F(0), h,
        why + " (sin(pi/2) = 1)")
    add(s_, sp.floor(s_), "=", s_, sp.Interval(0, 3), lambda v: F(v.numerator // v.denominator),
        lambda v: v, h, why)
    add(s_, s_ * (s_ - 1) * (s_ - 2) * (s_ - 3), "=", 0, sp.Interval(0, 3),
        lambda v: v * (v - 1) * (v - 2) * (v - 3), lambda v: F(0), h, why)
    add(s_, s_ * (1 - s_), "=", 0, sp.Interval(0, 1), lambda v: v * (1 - v), lambda v: F(0), h,
        "x declared integer, stated domain the real interval [0, 1]")
    add(s_, (s_ - sp.Rational(3, 2)) ** 2, ">=", 0, sp.Interval(0, 3),
        lambda v: (v - F(3, 2)) ** 2, lambda v: F(0), None, why + ": a square")
    even, odd = sp.Symbol("x", even=True), sp.Symbol("x", odd=True)
    add(even, (-1) ** even, "=", 1, sp.Range(0, 10), lambda v: F((-1) ** int(v)), lambda v: F(1),
        sp.Integer(1), "x declared even, stated domain Range(0, 10)")
    add(odd, (-1) ** odd, "=", -1, sp.Range(0, 10), lambda v: F((-1) ** int(v)), lambda v: F(-1),
        sp.Integer(0), "x declared odd, stated domain Range(0, 10)")
    # wider: the assumptions allow more than the domain; no conflict, the domain decides
    w_ = sp.Symbol("w")  # no assumptions at all (complex)
    for s_, word in ((x, "real"), (w_, "unassumed")):
        why = f"x {word}, domain [0, 1]"
        add(s_, sp.Abs(s_), "=", s_, UNIT, abs, lambda v: v, None, why + ": |x| = x for x >= 0",
            refusable=False)
        add(s_, sp.Max(s_, 0), "=", s_, UNIT, None, None, None, why + ": x >= 0",
            refusable=False)
        add(s_, s_ ** 2, "<=", s_, UNIT, None, None, None, why + ": x^2 <= x on [0, 1]",
            refusable=False)
        add(s_, s_, ">", 0, UNIT, lambda v: v, lambda v: F(0), sp.S.Zero, why, refusable=False)
        add(s_, sp.Abs(s_), "=", s_, sp.Interval(-1, 1), abs, lambda v: v, -h,
            f"x {word}, domain [-1, 1]", refusable=False)
    nr = sp.Symbol("n", real=True)
    add(nr, (-1) ** (2 * nr), "=", 1, sp.Range(0, 6), None, None, None,
        "n real, domain Range(0, 6): an even power of -1", refusable=False)
    add(nr, sp.floor(nr), "=", nr, sp.Range(0, 6), None, None, None,
        "n real, domain Range(0, 6): integers", refusable=False)
    return out


def _cache_pair(narrow, wide, lhs, relation, rhs, why_narrow, why_wide, witness,
                narrow_constraints=(), wide_constraints=()):
    """The same step over a domain where it holds and one where it fails, each checked after
    the other (``prime``): a cache keyed by the expression alone answers the second from the
    first."""
    return [
        S("cache", lhs, relation, rhs, narrow, True, why_narrow, narrow_constraints,
          prime=((wide, wide_constraints),)),
        S("cache", lhs, relation, rhs, wide, False, why_wide, wide_constraints,
          witness=tuple(witness), prime=((narrow, narrow_constraints),)),
    ]


def cache_pairs() -> list:
    """A cache keyed by expression only: each step checked over two domains in turn.
    Truth: the narrow one by the stated argument; the wide one fails at its witness,
    checked here in Fractions (or with mpmath's 50 digits for exp, log, sin, cos)."""
    import mpmath

    out = []
    U2 = sp.Interval(0, 2)
    with mpmath.workdps(50):
        assert mpmath.e < 3 and mpmath.e ** 2 > 3
        assert mpmath.log(2) < 1 and mpmath.log(4) > 1
        assert mpmath.sin(4) < 0 and mpmath.cos(mpmath.mpf(3) / 2) > 0 and mpmath.cos(2) < 0
    assert F(3, 2) ** 2 > F(3, 2) and F(3, 2) * (1 - F(3, 2)) < 0 and 2 ** 3 - 2 > 0
    assert math.comb(11, 2) > 45 and 2 ** 11 > 1024 and F(1, 3) < F(1, 2) and F(3, 1) > 1
    h = sp.Rational(1, 2)
    out += _cache_pair({x: UNIT}, {x: U2}, x ** 2, "<=", x, "x^2 <= x on [0, 1]",
                       "(3/2)^2 > 3/2", ((x, sp.Rational(3, 2)),))
    out += _cache_pair({x: UNIT}, {x: sp.Interval(0, 4)}, sp.sqrt(x), "<=", 1, "sqrt(x) <= 1",
                       "sqrt(4) = 2", ((x, 4),))
    out += _cache_pair({x: UNIT}, {x: sp.Interval(0, 3)}, sp.log(1 + x), "<=", 1, "log 2 < 1",
                       "log 4 > 1", ((x, 3),))
    out += _cache_pair({x: UNIT}, {x: U2}, x * (1 - x), ">=", 0, "x, 1 - x >= 0",
                       "(3/2)(-1/2) < 0", ((x, sp.Rational(3, 2)),))
    out += _cache_pair({x: sp.Interval(0, 3)}, {x: sp.Interval(0, 4)}, sp.sin(x), ">=", 0,
                       "sin >= 0 on [0, pi]", "sin 4 < 0", ((x, 4),))
    out += _cache_pair({n: sp.Range(0, 11)}, {n: sp.Range(0, 12)}, sp.binomial(n, 2), "<=", 45,
                       "C(n, 2) <= C(10, 2) = 45", "C(11, 2) = 55", ((n, 11),))
    out += _cache_pair({n: sp.Range(0, 11)}, {n: sp.Range(0, 12)}, 2 ** n, "<=", 1024,
                       "2^10 = 1024", "2^11 = 2048", ((n, 11),))
    out += _cache_pair({x: UNIT, y: UNIT}, {x: UNIT, y: UNIT}, x + y, ">=", 1,
                       "the constraint", "x = y = 0 without it", ((x, 0), (y, 0)),
                       narrow_constraints=(x + y >= 1,))
    out += _cache_pair({x: UNIT, y: UNIT}, {x: UNIT, y: U2}, x * y, "<=", x, "y <= 1",
                       "x = 1, y = 2", ((x, 1), (y, 2)))
    out += _cache_pair({x: UNIT}, {x: U2}, 1 / (1 + x), ">=", h, "1 + x <= 2", "1/3 < 1/2",
                       ((x, 2),))
    out += _cache_pair({x: sp.Interval(0, sp.Rational(3, 2))}, {x: U2}, sp.cos(x), ">=", 0,
                       "cos >= 0 on [0, pi/2], 3/2 < pi/2", "cos 2 < 0", ((x, 2),))
    return out + validated_trade_offs()


c_ = sp.Symbol("c", real=True)
# (f, a domain of c where Prop. 2.2 holds, a wider one, a point (c, alpha) of it where it
# fails, f at that point as a Python function of Fractions, the bound it breaks, why)
TRADE_OFFS = (
    (c_ * (1 - a), sp.Interval(0, sp.Rational(1, 2)), sp.Interval(0, 2), (2, 0),
     lambda c, t: c * (1 - t), "f(0) = c = 2 > 1 - 0 at c = 2 (the issue's example)"),
    ((1 - a) * (1 - c_ * a), sp.Interval(0, 1), sp.Interval(0, 2), (2, F(3, 4)),
     lambda c, t: (1 - t) * (1 - c * t), "f(3/4) = (1/4)(1 - 3/2) < 0 at c = 2"),
    (c_ * (1 - a) ** 2, sp.Interval(0, 1), sp.Interval(0, 3), (3, 0),
     lambda c, t: c * (1 - t) ** 2, "f(0) = 3 > 1 at c = 3"),
)
_VALIDATIONS: dict = {}


def _validate(f, domain):
    """validate_tradeoff(f, domains={c: domain}), once per test session (it costs seconds)."""
    from symdp.proof.claims import validate_tradeoff

    if (f, domain) not in _VALIDATIONS:
        _VALIDATIONS[(f, domain)] = validate_tradeoff(f, domains={c_: domain})
    return _VALIDATIONS[(f, domain)]


def validated_trade_offs() -> list:
    """The issue's row 6: ``validate_tradeoff(c (1 - alpha), {c: [0, 1/2]})``, then
    ``TradeOff(c (1 - alpha))`` used with c in [0, 2].  A step on the object over the wide
    domain holds only if Prop. 2.2 does there -- it fails at the named point (f above
    1 - alpha, or below 0, in Fractions) -- so the step must carry the condition; over the
    narrow domain it holds (Prop. 2.2 by the stated argument, and f >= 0 there)."""
    import symdp

    out = []
    for f, narrow, wide, (c_bad, t_bad), value, why in TRADE_OFFS:
        v = value(F(c_bad), F(t_bad))
        assert v > 1 - F(t_bad) or v < 0, why
        assert sp.Integer(c_bad) in wide and sp.Integer(c_bad) not in narrow
        prime = (lambda f=f, narrow=narrow: _validate(f, narrow),)
        for domains, label in ((None, "TradeOff(f)"), ({c_: wide}, "TradeOff(f, domains=wide)")):
            build = (lambda f=f, domains=domains:
                     (symdp.TradeOff(f, domains=domains)(a), sp.S.Zero))
            out.append(S("cache", symdp.TradeOff(f)(a), ">=", 0, {a: UNIT, c_: wide}, False,
                         f"{label} after validate_tradeoff(f, c in {narrow}) is not a trade-off "
                         f"function for every c in {wide}: {why}", prime=prime, build=build,
                         witness=((c_, sp.Integer(c_bad)),)))
        build = (lambda f=f: (symdp.TradeOff(f)(a), sp.S.Zero))
        out.append(S("cache", symdp.TradeOff(f)(a), ">=", 0, {a: UNIT, c_: narrow}, True,
                     f"Prop. 2.2 holds for c in {narrow}, and f >= 0", prime=prime, build=build))
    return out


def kernel_statements() -> list:
    """The families of issue #19 (the kernel), one per class of the issue's table."""
    return (enumerated_sample() + sign_facts() + undefined_sides() + piecewise_poles()
            + declarations() + cache_pairs())


def typed_statements() -> list:
    """Statements of the kernel's families as a user types them (``symdp step``), each
    ``(family, argv, truth, why)``; truth in exact arithmetic as above.  Text is where
    ``x/x`` must not be cancelled before any stage looks (issue #19)."""
    n_range = range(-10, 11)
    unit2 = ["--assume", "0<=x<=1", "--assume", "0<=y<=1"]
    out = []
    for text, relation, rhs, py, c in (("binomial(n,3)", "<", "1", lambda v: _gbinom(v, 3), 1),
                                       ("binomial(n,5)", "<=", "0", lambda v: _gbinom(v, 5), 0),
                                       ("binomial(n,3)", ">=", "0", lambda v: _gbinom(v, 3), 0),
                                       ("binomial(n,2)", ">=", "0", lambda v: _gbinom(v, 2), 0)):
        truth, at = _exact_over(n_range, py, relation, lambda v, c=c: F(c))
        why = "exact enumeration of n in [-10, 10]" + ("" if truth else f": fails at n = {at}")
        out.append(("sign", [text, relation, rhs, "--integer", "n", "--assume=-10<=n<=10"], truth,
                    why))
    assert F(1, 2) - F(1, 2) == 0 and F(1, 3) - F(1, 3) == 0
    out += [
        ("undefined", ["(x^2-y^2)/(x-y)", "=", "x+y", *unit2], False, "undefined on x = y"),
        ("undefined", ["(x^3-y^3)/(x-y)", "=", "x^2+x*y+y^2", *unit2], False, "undefined on x = y"),
        ("undefined", ["x/x", "=", "1", "--assume=-1<=x<=1"], False, "undefined at x = 0"),
        ("undefined", ["(x*y)/(x*y)", "=", "1", *unit2], False, "undefined at x = 0"),
        ("undefined", ["log(x-1/3)", "<=", "x-4/3", "--assume", "0<=x<=1"], False,
         "log of 0 at x = 1/3, of negatives below"),
        ("undefined", ["(x^2-y^2)/(x-y)", "=", "x+y", "--assume", "0<=x<=1", "--assume", "2<=y<=3"],
         True, "x - y <= -1 is never 0"),
    ]
    return out


# ---------------------------------------------------------------------------------------
# Issue #27's families: a verdict bound to the statement as written.  Truth, as above, from
# exact arithmetic in plain Python (the generalised binomial, Fractions) or from mpmath at
# 50 digits with mpmath's own normal law -- never from symdp.
# ---------------------------------------------------------------------------------------

import mpmath  # noqa: E402


def evaluations() -> list:
    """Sides SymPy rewrites under the domain's assumptions before any stage looks: the
    written ``Abs(binomial(n - c, k))`` (unevaluated, as ``symdp step`` parses it) against
    ``binomial(n - c, k)`` and ``-binomial(n - c, k)`` on integer ranges where the binomial
    has one sign, the other, or both (SymPy 1.14 called every odd binomial of an integer of
    unknown sign negative); ``Abs(x - c)``, ``sqrt(x^2)``, ``Max(x, c)`` written unevaluated
    on intervals on one side of the kink or across it.  Truth: exact enumeration of the whole
    finite range (``_gbinom``), or the sign of x - c on the interval (a witness point)."""
    out = []
    for k, (lo, hi) in itertools.product((1, 2, 3, 5), ((8, 15), (0, 4), (-6, -1), (-3, 6))):
        c = 5
        values = range(lo, hi + 1)
        written = sp.Abs(sp.binomial(n - c, k), evaluate=False)
        for sign in (1, -1):
            truth, at = _exact_over(values, lambda v: abs(_gbinom(v - c, k)), "=",
                                    lambda v: sign * _gbinom(v - c, k))
            out.append(S("evaluation", written, "=", sign * sp.binomial(n - c, k),
                         {n: sp.Range(lo, hi + 1)}, truth,
                         f"|C(n - {c}, {k})| {'=' if truth else '!='} {'' if sign > 0 else '-'}"
                         f"C(n - {c}, {k}) on {lo}..{hi}" + ("" if truth else f", at n = {at}"),
                         witness=() if truth else ((n, sp.Integer(at)),)))
    half = sp.Rational(1, 2)
    for lo, hi in ((sp.Rational(1, 2), 1), (0, sp.Rational(1, 3)), (0, 1), (-1, 1)):
        dom = {x: sp.Interval(lo, hi)}
        for written, value, kink in ((sp.Abs(x - half, evaluate=False), x - half, half),
                                     (sp.Pow(sp.Pow(x, 2, evaluate=False), half, evaluate=False),
                                      x, sp.S.Zero),
                                     (sp.Max(x, half, evaluate=False), x, half)):
            truth = lo >= kink   # each is the value where x >= kink, and differs below
            witness = () if truth else ((x, sp.Rational(lo)),)
            out.append(S("evaluation", written, "=", value, dom, truth,
                         f"{sp.sstr(written)} = {sp.sstr(value)} exactly where x >= {kink}; "
                         f"x in [{lo}, {hi}]" + ("" if truth else f": fails at x = {lo}"),
                         witness=witness))
    return out


def _gaussian_conjugate(mu, y0) -> mpmath.mpf:
    """sup_{0<=x<=1} (x y - G_mu(x)) by mpmath at 50 digits: for y < 0 the concave objective
    is stationary where G_mu'(x) = -exp(mu z - mu^2/2) = y, z = Phi^-1(1 - x); for y >= 0 it
    is largest at x = 1 (G_mu(1) = 0, the objective non-decreasing)."""
    with mpmath.workdps(50):
        mu, y0 = mpmath.mpf(mu), mpmath.mpf(y0)
        if y0 >= 0:
            return y0
        z = (mpmath.log(-y0) + mu ** 2 / 2) / mu
        return (1 - mpmath.ncdf(z)) * y0 - mpmath.ncdf(z - mu)


def _gaussian_conjugate_exact(mu, y0):
    """The same supremum written exactly (by hand, from the stationary point above)."""
    if y0 >= 0:
        return sp.sympify(y0)
    z = (sp.log(-y0) + sp.sympify(mu) ** 2 / 2) / mu
    from symdp.core.special import Phi

    return (1 - Phi(z)) * y0 - Phi(z - mu)


def _polygon_conjugate(vertices, y0):
    """sup of x y - f(x) for a convex piecewise-linear f given by its vertices (x, f(x)): the
    objective is concave and piecewise linear, so its maximum is at a vertex (exact)."""
    return max(vx * y0 - fx for vx, fx in vertices)


def conjugates() -> list:
    """Closed forms of convex conjugates ``f^*(y) = sup_x (x y - f(x))`` at rational y:
    G_mu (the stationary point, by hand, checked against mpmath), f_{eps,delta} and its
    mixture (a vertex of the polygon, exact), true and perturbed by 1/10 or by a relative
    10^-3.  The written side is ``ConjugateAt(f, y)``: the kernel must check symdp's closed
    form (issue #27), never take it."""
    from symdp import EpsDelta, Gaussian, Mixture
    from symdp.tradeoff import ConjugateAt

    out = []
    for mu_v, y0 in itertools.product((1, 2, sp.Rational(1, 2)), (-3, -sp.Rational(1, 2),
                                                                  sp.Rational(1, 5))):
        exact = _gaussian_conjugate_exact(mu_v, y0)
        with mpmath.workdps(50):
            assert abs(mpmath.mpf(sp.N(exact, 60)) - _gaussian_conjugate(mu_v, y0)) < \
                mpmath.mpf(10) ** -45
        node = ConjugateAt(Gaussian(mu_v), y0)
        out.append(S("conjugate", node, "=", exact, {}, True,
                     f"G_{mu_v}^*({y0}): the stationary point by hand, = mpmath's maximum"))
        out.append(S("conjugate", node, "=", exact + sp.Rational(1, 10), {}, False,
                     f"G_{mu_v}^*({y0}) + 1/10: mpmath's maximum differs by 1/10"))
    eps_, delta_ = sp.Integer(1), sp.Rational(1, 10)
    kink = (1 - delta_) / (1 + sp.E)
    eps_delta = [(sp.S.Zero, 1 - delta_), (kink, kink), (1 - delta_, sp.S.Zero),
                 (sp.S.One, sp.S.Zero)]
    p_ = sp.Rational(1, 3)
    mixture = [(vx, p_ * fx + (1 - p_) * (1 - vx)) for vx, fx in eps_delta]
    for f, vertices, name in ((EpsDelta(eps_, delta_), eps_delta, "f_{1,1/10}"),
                              (Mixture(EpsDelta(eps_, delta_), p_), mixture, "(f_{1,1/10})_{1/3}")):
        for y0 in (-4, -1, -sp.Rational(1, 2), sp.Rational(1, 5)):
            best = _polygon_conjugate(vertices, sp.sympify(y0))
            exact = sp.nsimplify(best) if best.is_Rational else best
            node = ConjugateAt(f, y0)
            wrong = exact * (1 + sp.Rational(1, 1000)) if exact != 0 else sp.Rational(1, 1000)
            out.append(S("conjugate", node, "=", exact, {}, True,
                         f"{name}^*({y0}): the largest vertex value, exactly"))
            out.append(S("conjugate", node, "=", wrong, {}, False,
                         f"{name}^*({y0}) times 1.001: not the largest vertex value"))
    return out


def issue_27_statements() -> list:
    """The families of issue #27 that run through the cascade."""
    return evaluations() + conjugates()


def binding_pairs() -> list:
    """``(claim, certificate, claim_true, why)``: certificates handed to the kernel for a
    claim that is not theirs (issue #27, item 1) -- the sides moved by a constant, the
    relation made strict, an equality's certificate for another right-hand side, a domain
    wider than the certificate's, a mapping that merges two parameters.  Each certificate
    proves its own claim (the battery checks that too); the claims here are false, each with
    its witness in ``why`` (exact rationals)."""
    from symdp.proof.certificates import (Claim, Domain, FiniteCertificate,
                                          StructuralCertificate, SymbolicCertificate)

    unit = Domain.of({x: UNIT})
    unit2 = Domain.of({x: UNIT, y: UNIT})
    ints = Domain.of({n: sp.Range(0, 6)})
    out = []
    true_equalities = [
        ((x + 1) ** 2, x ** 2 + 2 * x + 1, unit),
        (x * (x - 1), x ** 2 - x, unit),
        ((x + y) ** 2, x ** 2 + 2 * x * y + y ** 2, unit2),
        (sp.exp(x) * sp.exp(y), sp.exp(x + y), unit2),
        (sp.Rational(1, 2) * x + sp.Rational(1, 2) * x, x, unit),
    ]
    for lhs, rhs, dom in true_equalities:
        cert = SymbolicCertificate(lhs, rhs, "=", "symbolic", "simplify", sp.S.Zero)
        out.append((Claim(lhs, "=", rhs, dom), cert, True, "an identity (its own claim)"))
        for shift in (sp.Rational(1, 7), -sp.Rational(2, 3)):
            out.append((Claim(lhs + shift, "=", rhs, dom), cert, False,
                        f"lhs + {shift} = rhs fails everywhere (the sides differ by {shift})"))
        out.append((Claim(lhs, "<", rhs, dom), cert, False, "lhs < rhs fails: they are equal"))
        out.append((Claim(lhs, "=", rhs + x, dom), cert, False,
                    "rhs + x differs from rhs at x = 1"))
    for e in (x, x ** 2, 1 - x, x * (1 - x), sp.exp(x)):
        cert = StructuralCertificate(e, e, "<=", "structural")
        out.append((Claim(e, "<=", e, unit), cert, True, "the same tree (its own claim)"))
        out.append((Claim(e, "<", e, unit), cert, False, f"{e} < {e} fails at every point"))
        out.append((Claim(e, "<=", e - 1, unit), cert, False, "e <= e - 1 fails everywhere"))
    for k_ in (1, 2, 3):
        values = ((n, tuple(range(0, 6))),)
        lhs = n ** k_
        cert = FiniteCertificate(lhs, sp.Integer(5 ** k_), "<=", "enumeration", values=values,
                                 cases=6, how="exact")
        out.append((Claim(lhs, "<=", sp.Integer(5 ** k_), ints), cert, True,
                    f"n^{k_} <= 5^{k_} on 0..5 (its own claim)"))
        out.append((Claim(lhs, "<=", sp.Integer(5 ** k_) - 1, ints), cert, False,
                    f"n^{k_} <= 5^{k_} - 1 fails at n = 5"))
        wider = Domain.of({n: sp.Range(0, 7)})
        out.append((Claim(lhs, "<=", sp.Integer(5 ** k_), wider), cert, False,
                    f"n^{k_} <= 5^{k_} fails at n = 6, outside the certificate's cases"))
    t = sp.Dummy("t", real=True)
    for lhs, rhs in ((x, y), (x ** 2, y ** 2), (sp.exp(x), sp.exp(y)), (x + 1, y + 1)):
        merged = SymbolicCertificate(lhs, rhs, "=", "symbolic", "simplify", sp.S.Zero,
                                     mapping=((x, t), (y, t)))
        out.append((Claim(lhs, "=", rhs, unit2), merged, False,
                    f"{lhs} = {rhs} fails at x = 0, y = 1 (a mapping of x and y onto one symbol)"))
    return out
