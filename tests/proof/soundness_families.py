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
    # the lines
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
