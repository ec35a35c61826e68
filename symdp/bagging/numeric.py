r"""Exact privacy of bagging at n, k, N up to 10**18 and beyond, with mpmath.

Every quantity is a function of :math:`\lambda(m) = \log(1 - q(m))`
(:mod:`symdp.bagging.profile`), computed without cancellation:

.. math::
    \lambda(m) = Nk\,\mathrm{log1p}(-1/m),\quad \mathrm{log1p}(-Nk/m),\quad
    N\,\mathrm{log1p}(-k/m)

(with replacement, jointly without, independently without), then
:math:`q(m) = -\mathrm{expm1}(\lambda(m))` and, for the smaller-first orderings,
:math:`(1 - e^{\varepsilon}(1 - q))_+ = -\mathrm{expm1}(\varepsilon + \lambda)` when
:math:`\varepsilon + \lambda < 0`, else 0.  Floating-point ``1 - ((n-1)/n)**k``
is 0.0 at n = k = 10**18; the value is :math:`1 - e^{-1}(1 + O(1/n)) \approx 0.632`.

Precision is scoped with ``mpmath.workdps`` (never set globally).  Each value
is computed at two working precisions, raised until they agree to
``10**-(dps + 3)`` relative, so a result printed to ``dps`` digits is stable;
the working precision starts ``dps`` plus the digits of n and N k plus a guard,
which absorbs the growth of :math:`\lambda` when N k / n is large.  Rational
quantities whose exact value is small enough are also returned exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError, SymdpError
from ..core.validation import nonnegative, positive_integer, shown
from .schemes import ORDERINGS, Bagging, Ordering, Sampling

#: Largest exact rational (bits of numerator + denominator) returned alongside a decimal.
EXACT_BITS = 700
MAX_ATTEMPTS = 12


class PrecisionError(SymdpError, ArithmeticError):
    """Two working precisions never agreed (a value could not be pinned down)."""


@dataclass(frozen=True)
class Value:
    """A computed real number: mpmath value (to ``dps`` digits) and exact Rational if known."""

    mp: mpmath.mpf
    dps: int
    exact: sp.Rational | None = None

    def decimal(self, digits: int | None = None) -> str:
        """Decimal string with ``digits`` significant digits (trailing zeros kept); "0" for 0."""
        digits = self.dps if digits is None else digits
        if self.exact is not None and self.exact == 0 or self.mp == 0:
            return "0"
        if mpmath.isinf(self.mp):
            return "inf" if self.mp > 0 else "-inf"
        return mpmath.nstr(self.mp, digits, strip_zeros=False, min_fixed=-6, max_fixed=digits)

    def rational(self) -> str | None:
        return None if self.exact is None else str(self.exact)


def _stable(compute, dps: int, guard: int) -> mpmath.mpf:
    """``compute()`` at rising precision until two precisions agree to dps + 3 digits."""
    extra = guard
    previous = None
    for _ in range(MAX_ATTEMPTS):
        with mpmath.workdps(dps + extra):
            low = compute()
        with mpmath.workdps(dps + extra + 20):
            high = compute()
            if low == high:
                return high
            if high != 0 and abs(low - high) <= abs(high) * mpmath.mpf(10) ** (-(dps + 3)):
                return high
        previous = (low, high)
        extra *= 2
    raise PrecisionError(f"no agreement to {dps} digits after {MAX_ATTEMPTS} attempts "
                         f"(last values {previous})")


def log_exclusion(sampling: Sampling, size: int, k: int, models: int) -> mpmath.mpf:
    r""":math:`\lambda(m) = \log(1 - q(m))` at the current mpmath precision (inputs exact ints)."""
    m = mpmath.mpf(size)
    if sampling is Sampling.WITH_REPLACEMENT:
        return mpmath.mpf(models * k) * mpmath.log1p(-1 / m)
    if sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return mpmath.log1p(-mpmath.mpf(models * k) / m)
    if sampling is Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
        return mpmath.mpf(models) * mpmath.log1p(-mpmath.mpf(k) / m)
    raise TypeError(f"sampling must be a Sampling; got {shown(sampling)}")


def exact_inclusion(bagging: Bagging, size: int) -> sp.Rational | None:
    """``q(size)`` as an exact Rational when it has at most ``EXACT_BITS`` bits, else None."""
    b = bagging
    if b.sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return sp.Rational(b.total_draws, size)
    power = b.total_draws if b.sampling is Sampling.WITH_REPLACEMENT else b.models
    if power * 2 * size.bit_length() > EXACT_BITS:
        return None
    drop = 1 if b.sampling is Sampling.WITH_REPLACEMENT else b.k
    value = 1 - Fraction(size - drop, size) ** power
    return sp.Rational(value.numerator, value.denominator)


def exact_paper_exp_epsilon(bagging: Bagging) -> sp.Rational | None:
    r"""The paper's :math:`e^\varepsilon` exactly, when small enough."""
    b = bagging
    if b.sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
        return sp.Rational(b.n + 1, b.n + 1 - b.total_draws)
    power = b.total_draws if b.sampling is Sampling.WITH_REPLACEMENT else b.models
    if power * 2 * (b.n + 1).bit_length() > EXACT_BITS:
        return None
    drop = 1 if b.sampling is Sampling.WITH_REPLACEMENT else b.k
    base = Fraction(b.n + 1, b.n) if b.sampling is Sampling.WITH_REPLACEMENT else \
        Fraction(b.n + 1, b.n + 1 - drop)
    value = base ** power
    return sp.Rational(value.numerator, value.denominator)


def _mp_int(p: int):
    """mpf of a Python int at the current precision (huge ints are shifted, not converted whole)."""
    shift = max(0, abs(p).bit_length() - (mpmath.mp.prec + 64))
    if shift == 0:
        return mpmath.mpf(p)
    return mpmath.ldexp(mpmath.mpf(p >> shift if p > 0 else -((-p) >> shift)), shift)


def _mp_of(x):
    """mpf of an exact input (int or Rational) built inside the current precision."""
    x = sp.Rational(x)
    return _mp_int(int(x.p)) / _mp_int(int(x.q))


@dataclass(frozen=True)
class ProfilePoint:
    """Exact delta(eps) at one eps: worst case and each ordering (keys of Ordering.key)."""

    eps: sp.Rational
    eps_value: Value
    delta: Value
    orderings: dict = field(default_factory=dict)


@dataclass(frozen=True)
class BaggingAnalysis:
    """Everything ``symdp bagging`` reports, for one configuration."""

    bagging: Bagging
    dps: int
    q: Value                            # q(n): exact TV, exact delta for every eps >= 0
    q_add: Value                        # q(n + 1)
    paper_epsilon: Value
    paper_delta: Value
    tv: Value
    min_epsilon_at_paper_delta: Value
    min_delta_at_paper_epsilon: Value
    paper_epsilon_orderings: dict       # delta of each ordering at the paper's epsilon
    min_error_sum: Value                # min_a (a + f(a)) = 1 - q(n) for f = C_q(0)
    profile: tuple                      # ProfilePoint, one per requested eps


class _Evaluator:
    """Evaluates the quantities of one configuration at a target precision."""

    def __init__(self, bagging: Bagging, dps: int):
        self.b = bagging
        self.dps = dps
        self.guard = 15 + len(str(bagging.n)) + len(str(bagging.total_draws))

    def value(self, compute, exact=None) -> Value:
        if exact is not None:
            def from_exact():
                return _mp_of(exact)
            return Value(_stable(from_exact, self.dps, self.guard), self.dps, exact)
        return Value(_stable(compute, self.dps, self.guard), self.dps, None)

    def lam(self, size: int):
        return log_exclusion(self.b.sampling, size, self.b.k, self.b.models)

    def q(self, size: int) -> Value:
        return self.value(lambda: -mpmath.expm1(self.lam(size)), exact_inclusion(self.b, size))

    def paper_epsilon(self) -> Value:
        b = self.b
        if b.sampling is Sampling.WITH_REPLACEMENT:
            compute = lambda: mpmath.mpf(b.total_draws) * mpmath.log1p(1 / mpmath.mpf(b.n))  # noqa: E731
        elif b.sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
            compute = lambda: -mpmath.log1p(-mpmath.mpf(b.total_draws) / (b.n + 1))  # noqa: E731
        else:
            compute = lambda: -mpmath.mpf(b.models) * mpmath.log1p(-mpmath.mpf(b.k) / (b.n + 1))  # noqa: E731
        return self.value(compute)

    def paper_delta(self) -> Value:
        """Thm. 2 / Thm. 3 delta, from the paper's own formula (it coincides with q(n))."""
        b = self.b
        if b.sampling is Sampling.WITH_REPLACEMENT:
            compute = lambda: -mpmath.expm1(mpmath.mpf(b.total_draws) * mpmath.log1p(-1 / mpmath.mpf(b.n)))  # noqa: E731
        elif b.sampling is Sampling.WITHOUT_REPLACEMENT_JOINT:
            compute = lambda: mpmath.mpf(b.total_draws) / b.n  # noqa: E731
        else:
            compute = lambda: -mpmath.expm1(mpmath.mpf(b.models) * mpmath.log1p(-mpmath.mpf(b.k) / b.n))  # noqa: E731
        return self.value(compute, exact_inclusion(self.b, b.n))

    def ordering_delta(self, ordering: Ordering, eps_compute, exact_w=None) -> Value:
        r"""delta of one ordering at eps >= 0: q (larger first) or (1 - e^eps (1 - q))_+."""
        size = ordering.larger_size(self.b.n)
        if ordering.larger_first:
            return self.q(size)
        exact = None
        q_exact = exact_inclusion(self.b, size)
        if exact_w is not None and q_exact is not None:
            exact = sp.Max(0, 1 - exact_w * (1 - q_exact))

        def compute():
            s = eps_compute() + self.lam(size)
            return -mpmath.expm1(s) if s < 0 else mpmath.mpf(0)
        return self.value(compute, exact)

    def min_epsilon_at(self, delta: Value, identical_to_q: bool) -> Value:
        r"""Smallest eps >= 0 with :math:`\max_o \delta_o(\varepsilon) \le \delta`: 0 or infinity.

        The worst-case profile is the constant q(n) on eps >= 0, so the answer
        is 0 when delta >= q(n) and infinite (no epsilon) otherwise.  Equality
        cannot be decided numerically: the caller says when delta is q(n)
        identically; otherwise the sign of delta - q(n) is pinned down at rising
        precision (it is never 0 then).
        """
        zero = Value(mpmath.mpf(0), self.dps, sp.Integer(0))
        if identical_to_q:
            return zero
        q = self.q(self.b.n)
        if delta.exact is not None and q.exact is not None:
            return zero if delta.exact >= q.exact else Value(mpmath.inf, self.dps, None)
        diff = _stable(lambda: delta.mp - q.mp, self.dps, self.guard)
        return zero if diff >= 0 else Value(mpmath.inf, self.dps, None)


@lru_cache(maxsize=None)
def paper_delta_is_q(sampling: Sampling) -> bool:
    """Is the paper's delta identically q(n)?  Decided symbolically (it is, for every scheme)."""
    from .paper import paper_delta
    from .profile import N, k, max_privacy_profile, n
    return sp.simplify(paper_delta(sampling, n, k, N) - max_privacy_profile(sampling, n, k, N)) == 0


def analyse(bagging: Bagging, at=(), dps: int = 40) -> BaggingAnalysis:
    """Exact privacy of ``bagging``: paper values, TV, tight values, profile at each eps in ``at``.

    ``at`` holds epsilons >= 0 (numbers, decimal strings or Rationals, taken
    exactly); the profile of every ordering and their maximum are returned.
    """
    dps = positive_integer("dps", dps)
    if dps > 100000:
        raise InvalidParameterError(f"dps must be <= 100000; got dps={dps}")
    if not isinstance(bagging, Bagging):
        raise InvalidParameterError(f"bagging must be a symdp.bagging.Bagging; got {shown(bagging)}")
    epsilons = [nonnegative("eps", e) for e in at]
    for e in epsilons:
        if not e.is_Rational:
            raise InvalidParameterError(f"eps must be a finite number >= 0; got eps={e}")
    ev = _Evaluator(bagging, dps)
    q = ev.q(bagging.n)
    q_add = ev.q(bagging.n + 1)
    paper_eps = ev.paper_epsilon()
    paper_w = exact_paper_exp_epsilon(bagging)
    paper_eps_compute = {
        Sampling.WITH_REPLACEMENT:
            lambda: mpmath.mpf(bagging.total_draws) * mpmath.log1p(1 / mpmath.mpf(bagging.n)),
        Sampling.WITHOUT_REPLACEMENT_JOINT:
            lambda: -mpmath.log1p(-mpmath.mpf(bagging.total_draws) / (bagging.n + 1)),
        Sampling.WITHOUT_REPLACEMENT_INDEPENDENT:
            lambda: -mpmath.mpf(bagging.models) * mpmath.log1p(-mpmath.mpf(bagging.k) / (bagging.n + 1)),
    }[bagging.sampling]
    at_paper = {o.key: ev.ordering_delta(o, paper_eps_compute, paper_w) for o in ORDERINGS}
    points = []
    for e in epsilons:
        w_exact = sp.Integer(1) if e == 0 else None
        orderings = {o.key: ev.ordering_delta(o, lambda e=e: _mp_of(e), w_exact) for o in ORDERINGS}
        points.append(ProfilePoint(e, ev.value(None, e), q, orderings))
    paper_delta = ev.paper_delta()
    one_minus_q = ev.value(lambda: mpmath.exp(ev.lam(bagging.n)),
                           None if q.exact is None else 1 - q.exact)
    return BaggingAnalysis(
        bagging=bagging, dps=dps, q=q, q_add=q_add, paper_epsilon=paper_eps,
        paper_delta=paper_delta, tv=q,
        min_epsilon_at_paper_delta=ev.min_epsilon_at(paper_delta, paper_delta_is_q(bagging.sampling)),
        min_delta_at_paper_epsilon=q,
        paper_epsilon_orderings=at_paper, min_error_sum=one_minus_q, profile=tuple(points))
