r"""Certified two-sided bounds on :math:`\delta(\varepsilon)` and :math:`\varepsilon(\delta)` of a
T-fold (or phased) composition (docs/accountant.md §5).

For each direction of adjacency the composed discrete pairs give

.. math::
    \delta_{\rm lo}(\varepsilon) \le \delta(\varepsilon) \le \delta_{\rm hi}(\varepsilon),

both ends being lower/upper ends of Arb balls computed from exact integer masses.
With several directions (Poisson add/remove) the mechanism's :math:`\delta` is the
maximum over directions, so both ends are maxima too.  :math:`\delta_{\rm hi}` and the exact
:math:`\delta` are non-increasing in :math:`\varepsilon`; hence

* :math:`\delta_{\rm hi}(\varepsilon_{\rm hi}) \le \delta \Rightarrow \varepsilon(\delta) \le \varepsilon_{\rm hi}`;
* :math:`\delta_{\rm lo}(\varepsilon_{\rm lo}) > \delta \Rightarrow \varepsilon(\delta) > \varepsilon_{\rm lo}`

(:math:`\varepsilon(\delta) = \inf\{\varepsilon \ge 0 : \delta(\varepsilon) \le \delta\}`).
The two candidates are found by floating-point bisection and then **checked** in
Arb; only checked values are returned.
"""

from __future__ import annotations

import itertools
import math
import numbers
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..core.errors import InvalidParameterError
from . import fft
from .closed import ClosedComposed, gaussian_closed_form
from .discrete import Grid, LowerPLD, UpperPLD, discretise
from ..core.validation import shown
from .fft import FFTGrid
from .pairs import Pair, check_range, exact

#: supported ranges (the targets of issue #16); outside them a clear error
SIGMA_RANGE = (0.5, 10.0)
Q_RANGE = (1e-4, 0.5)
EPS_MAX = 20.0
DELTA_MIN = 1e-12
STEPS_MAX = 10 ** 7
#: the most phases of one composition (each is discretised and transformed on its own)
MAX_PHASES = 20


def grid_for(precision: int, mutate: str | None = None, refine: int = 0, engine: str = "fft"):
    """Precision level -> grid.

    ``engine="fft"`` (the default, docs §3F): h = 2^-(12+level+refine), composed by the
    certified floating-point FFT.  ``engine="exact"`` (docs §3): h = 2^-(9+level+refine), mass
    unit 2^-(96+4 level), composed by exact integer products (FLINT), about 30x slower at
    the same width.

    ``refine`` (from :func:`refinement`) makes the grid finer for steps whose losses are all
    small (sigma = 10, q = 1e-4: a window of 2e-4), so that a step still spans many cells."""
    if not isinstance(precision, int) or not 0 <= precision <= 6:
        raise InvalidParameterError(f"precision must be an integer in [0, 6]; got precision={precision!r}")
    if engine == "fft":
        return FFTGrid(h_exp=12 + precision + refine, mutate=mutate)
    if engine != "exact":
        raise InvalidParameterError(f"engine must be 'fft' or 'exact'; got engine={engine!r}")
    # mass unit 2^-B: ~1e5 cells x ~40 products x 2^-B stays far below 1e-12 * 1e-6;
    # Arb precision: B bits of mass after the second differences of the profile (~2 h_exp bits)
    # truncation threshold 2^-(B-24) = 2^24 units: after the directed ceiling every cell of the
    # support holds >= 1 unit, so a threshold of a few units would cut almost nothing and the
    # arrays would double in length at each squaring; 2^-(B-24) <= 2^-72 per end and product
    # still stays far below 1e-12 * 1e-6
    bits = 96 + 4 * precision
    h_exp = 9 + precision + refine
    return Grid(h_exp=h_exp, bits=bits, tail_bits=bits - 24, prec=bits + 2 * h_exp + 48, mutate=mutate)


def refinement(phases) -> int:
    """Extra grid bits so that the narrowest one-step loss window spans >= 1/8 of a unit of
    loss, i.e. >= 64 cells of the level-0 grid (a choice of grid only; any grid gives a
    certified bracket)."""
    width = min(hi - lo for ph in phases for pair in ph.pairs
                for lo, hi in [pair.loss_window(2.0 ** -40)])
    return max(0, min(20, math.ceil(math.log2(1 / (8 * width))))) if width > 0 else 0


@dataclass(frozen=True)
class Phase:
    """``steps`` compositions of one step whose dominating pairs (one per direction) are given."""

    pairs: tuple
    steps: int

    def __post_init__(self):
        pairs = (self.pairs,) if isinstance(self.pairs, Pair) else self.pairs
        if not isinstance(pairs, (tuple, list)) or not pairs or \
                not all(isinstance(pair, Pair) for pair in pairs):
            raise InvalidParameterError(f"pairs must be a non-empty tuple of dominating pairs "
                                        f"(symdp.accountant.Pair); got pairs={self.pairs!r}"[:300])
        object.__setattr__(self, "pairs", tuple(pairs))
        if isinstance(self.steps, bool) or not isinstance(self.steps, numbers.Integral) or \
                not 1 <= self.steps <= STEPS_MAX:
            raise InvalidParameterError(f"steps must be an integer in [1, {STEPS_MAX}]; got "
                                        f"steps={shown(self.steps)}")
        object.__setattr__(self, "steps", int(self.steps))


def poisson_gaussian(sigma, q, steps) -> Phase:
    """Poisson subsampling with rate q, noise multiplier sigma, add/remove adjacency: the phase
    of the event ``SelfComposed(PoissonSampled(Gaussian(sigma), q), steps)``, read by
    :func:`symdp.accountant.events.phases_of` (the one description of the mechanism)."""
    from ..events import Gaussian, PoissonSampled, SelfComposed
    from .events import phases_of

    _check_common(sigma, q, steps, "q")
    (phase,) = phases_of(SelfComposed(PoissonSampled(Gaussian(sigma), q), int(steps)))
    return phase


def uniform_gaussian(sigma, p, steps) -> Phase:
    """Sampling a fraction p without replacement, replace-one adjacency, C_p(G_{1/sigma}): the
    phase of ``SelfComposed(SampledWithoutReplacement(Gaussian(sigma), p=p), steps)``
    read by :func:`symdp.accountant.events.phases_of`."""
    from ..events import Gaussian, SampledWithoutReplacement, SelfComposed
    from .events import phases_of

    _check_common(sigma, p, steps, "p")
    (phase,) = phases_of(SelfComposed(SampledWithoutReplacement(Gaussian(sigma), p=p), int(steps)))
    return phase


def _check_common(sigma, q, steps, qname):
    check_range("sigma", sigma, *SIGMA_RANGE)
    check_range(qname, q, *Q_RANGE)
    if isinstance(steps, bool) or not isinstance(steps, numbers.Integral) or not 1 <= steps <= STEPS_MAX:
        raise InvalidParameterError(f"steps must be an integer in [1, {STEPS_MAX}]; got steps={shown(steps)}")


@dataclass
class Composed:
    """The composed upper and lower discrete pairs of one direction."""

    upper: UpperPLD
    lower: LowerPLD
    name: str


@dataclass
class Bracket:
    """A certified bracket ``lo <= value <= hi`` (exact rationals) and how it was obtained."""

    quantity: str            # "epsilon" or "delta"
    given: Fraction          # the delta (for epsilon) or the epsilon (for delta)
    lo: Fraction
    hi: Fraction
    seconds: float
    precision: int
    directions: list = field(default_factory=list)
    #: the composed discrete pairs used, one per direction (for further delta/eps queries)
    composed: list = field(default_factory=list, repr=False)

    @property
    def width(self) -> float:
        return float(self.hi - self.lo)


def _directions(phases) -> int:
    kinds = {len(ph.pairs) for ph in phases}
    if len(kinds) != 1:
        raise InvalidParameterError("phases must all use the same sampling scheme (Poisson or uniform); "
                                    "got a mixture")
    return kinds.pop()


def compose_direction(phases, d: int, grid, progress=None, target=None, tilt_scale: float = 1.0,
                      closed: bool = False):
    """Compose every phase in direction ``d`` (the adjacent pair is fixed for all steps).

    ``target`` (``("delta", D)`` or ``("eps", E)``) and ``tilt_scale`` only steer the FFT
    engine's tilt and nodes towards the cells that decide that query; the result is a valid
    bracket at every eps.  With ``closed``, a composition that has a closed form
    (``closed.gaussian_closed_form``: plain Gaussians) is returned as it, not composed on the
    grid (the event-level entry points ask for it; the engine's own tests do not)."""
    if closed and grid.mutate is None:
        form = gaussian_closed_form([ph.pairs[d] for ph in phases], [ph.steps for ph in phases])
        if form is not None:
            return form
    if isinstance(grid, FFTGrid):
        return fft.compose_direction([ph.pairs[d] for ph in phases], [ph.steps for ph in phases], grid,
                                     target or ("delta", 1e-6), progress, tilt_scale)
    upper = lower = None
    for k, ph in enumerate(phases):
        def step(i, n, _k=k):
            if progress:
                progress(f"{ph.pairs[d].name.split(',')[0]}, phase {_k + 1}/{len(phases)}, "
                         f"h=2^-{grid.h_exp}: squaring {i}/{n}")
        u, l = discretise(ph.pairs[d], grid)
        u, l = u.power(ph.steps, step), l.power(ph.steps)
        upper = u if upper is None else upper * u
        lower = l if lower is None else lower * l
    return Composed(upper, lower, phases[0].pairs[d].name.split(",")[0])


def compose(phases, grid, progress=None, target=None) -> list:
    """Compose every phase in every direction (directions must agree across phases)."""
    return [compose_direction(phases, d, grid, progress, target) for d in range(_directions(phases))]


def delta_bounds(composed: list[Composed], eps) -> tuple[Fraction, Fraction]:
    """Certified (lo, hi) of delta(eps) as exact rationals (ends of Arb balls)."""
    lo, hi = Fraction(0), Fraction(0)
    for c in composed:
        u = c.upper.delta(eps)
        l = c.lower.delta(eps)
        hi = max(hi, _rational(u.upper()))
        lo = max(lo, _rational(l.lower()))
    return lo, min(hi, Fraction(1))


def _rational(x) -> Fraction:
    m, e = x.man_exp()
    m, e = int(m), int(e)
    return Fraction(m * 2 ** e) if e >= 0 else Fraction(m, 2 ** -e)


def _float_upper(c: Composed):
    y, m, inf = c.upper.float_masses()
    s0 = np.cumsum(m[::-1])[::-1]
    with np.errstate(over="ignore", invalid="ignore"):
        # only suffixes with y > eps >= 0 are read below; exp(-y) may overflow for the deep
        # negative losses of the "add" direction, which never enter f
        s1 = np.cumsum((m * np.exp(-y))[::-1])[::-1]

    def f(eps):
        k = int(np.searchsorted(y, eps, side="right"))
        if k >= len(y):
            return inf
        return s0[k] - math.exp(eps) * s1[k] + inf
    return f


def _float_lower(c: Composed):
    P, Q = c.lower.float_masses()
    tp, tq = c.lower.float_top()
    sp_, sq = np.cumsum(P[::-1])[::-1], np.cumsum(Q[::-1])[::-1]

    def f(eps):
        return max(0.0, float(np.max(sp_ - math.exp(eps) * sq))) + max(0.0, tp - math.exp(eps) * tq)
    return f


def _estimator(c, side: str):
    """A float function eps -> delta estimate of one end (candidates only, never returned)."""
    pld = c.upper if side == "upper" else c.lower
    if hasattr(pld, "estimator"):
        return pld.estimator()
    return _float_upper(c) if side == "upper" else _float_lower(c)


def _bisect_eps(f, delta: float):
    """Float root of a non-increasing f(eps) = delta in [0, 64] (a candidate only), or None
    when the float estimate says none is there: a float estimate never decides a refusal
    (issue #31, D1: the search of :func:`epsilon_bounds` then goes on with certified checks)."""
    lo, hi = 0.0, 64.0
    try:
        if f(lo) <= delta:
            return 0.0
        if not f(hi) <= delta:
            return None
        for _ in range(48):          # 64 / 2^48 ~ 2e-13: far below the 1e-9 of the candidates
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) > delta else (lo, mid)
    except (ArithmeticError, ValueError):
        return None
    return hi


def _decimal_up(x: float, digits: int = 9) -> Fraction:
    return Fraction(math.ceil(x * 10 ** digits), 10 ** digits)


def _decimal_down(x: float, digits: int = 9) -> Fraction:
    return Fraction(math.floor(x * 10 ** digits), 10 ** digits)


#: the resolution of the certified searches (9-digit decimals, relative 1e-9 above 1)
RESOLUTION = Fraction(1, 10 ** 9)
#: the certified search for an upper end doubles eps up to this before it gives up
EPS_SEARCH_MAX = Fraction(2 ** 12)


def _first_checked(cand: Fraction, passes, direction: int, stop: Fraction | None = None):
    """From a float candidate, a checked 9-digit eps near the nearest passing one: steps of
    1e-9 doubling away (``direction`` +1 up, -1 down) until one passes, then a bisection
    between the last failing and the passing value (every returned value passed the Arb
    check; None if none in (0, ``stop``] does -- ``stop`` defaults to 200)."""
    stop = Fraction(200) if stop is None else stop
    step = RESOLUTION
    fail = None
    while not passes(cand):
        fail = cand
        cand += direction * step
        step *= 2
        if not 0 < cand <= stop:
            return None
    if fail is None:
        return cand
    return _bisect_checked(cand, fail, passes, direction)


def _bisect_checked(ok: Fraction, fail: Fraction, passes, direction: int) -> Fraction:
    """Bisection between a passing ``ok`` and a failing ``fail`` on 9-digit decimals (rounded
    towards the failing side's opposite: up for an upper end, ``direction`` +1, down for a
    lower end); returns the passing end, within 1e-9 (relative, above 1) of the failing one."""
    while abs(ok - fail) > RESOLUTION * max(1, abs(ok)):
        mid = (ok + fail) / 2
        mid = _decimal_up(float(mid)) if direction > 0 else _decimal_down(float(mid))
        if mid in (ok, fail):
            break
        if passes(mid):
            ok = mid
        else:
            fail = mid
    return ok


def support_bound(phases, d: int):
    r"""(Y, M) for direction ``d``: an exact rational Y >= every finite value of the composed loss
    and the exact probability M of the loss +oo under P, when every step's pair knows its
    support (``Pair.loss_support``: finite pairs, Laplace, their sampled forms); else None.

    The composed loss is the sum of the steps' losses, so its finite values are at most
    :math:`\sum_i T_i y_i`, and it is +oo iff some step's is: :math:`M = 1 - \prod_i (1 - m_i)^{T_i}`.
    Then :math:`\delta(\varepsilon) = E_P[(1 - e^{\varepsilon - L})_+] + M = M` for every
    :math:`\varepsilon \ge Y` (docs/accountant.md §0), exactly."""
    Y, keep = Fraction(0), Fraction(1)
    for ph in phases:
        s = ph.pairs[d].loss_support()
        if s is None:
            return None
        y, m = s
        Y += ph.steps * y
        keep *= (1 - m) ** ph.steps
    return Y, 1 - keep


def epsilon_bounds(composed: list[Composed], delta, supports=None) -> tuple[Fraction, Fraction, list]:
    """Certified (eps_lo, eps_hi) with delta(eps_lo) > delta >= delta(eps_hi) proved.

    Float estimators propose candidates; every returned value passed an Arb check, and when a
    candidate is missing or fails the search goes on with checked values only (issue #31, D1
    and D2: a float estimate that is wrong far from its window must cost time, never a
    bracket or a false refusal).  ``supports`` (one :func:`support_bound` per direction, or
    None) gives the exact end of a bounded loss: delta(eps) = M <= delta for eps >= Y proves
    eps_hi <= Y (a flat profile, f_(eps0, delta0) at delta = delta0: D4), and M > delta proves
    that no eps exists (a certified refusal)."""
    D = exact(delta)
    lo, hi = Fraction(0), Fraction(0)
    notes = []
    for i, c in enumerate(composed):
        support = supports[i] if supports is not None else None
        if support is not None and support[1] > D:
            raise InvalidParameterError(
                f"no epsilon has delta(eps) <= {float(D):g}: the privacy loss is +infinity with "
                f"probability >= {_fmt_down(support[1])} > delta ({c.name}), so delta(eps) >= "
                f"{_fmt_down(support[1])} for every eps")

        def passes_hi(e, c=c):
            return _rational(c.upper.delta(e).upper()) <= D

        def passes_lo(e, c=c):
            return _rational(c.lower.delta(e).lower()) > D

        flat = max(support[0], Fraction(0)) if support is not None else None
        e_hi = _upper_end(c, D, passes_hi, flat)
        e_lo = _lower_end(c, D, passes_lo, e_hi)
        notes.append({"direction": c.name, "eps_lo": e_lo, "eps_hi": e_hi})
        lo, hi = max(lo, e_lo), max(hi, e_hi)
    return lo, hi, notes


def _upper_end(c, D: Fraction, passes_hi, flat: Fraction | None) -> Fraction:
    """The smallest checked eps with delta_hi(eps) <= D (or ``flat``, the exact end of a
    bounded loss, if smaller): from the float candidate, else by doubling and bisection."""
    if flat is not None and flat == 0:
        return Fraction(0)
    root = _bisect_eps(_estimator(c, "upper"), float(D))
    found = None
    if root is not None:
        found = _first_checked(_decimal_up(root), passes_hi, +1, stop=flat)
    if found is None:
        # certified doubling: the first passing eps of 1, 2, 4, ... (or the flat end)
        e, fail = Fraction(1), Fraction(0)
        while e <= EPS_SEARCH_MAX and (flat is None or e < flat):
            if passes_hi(e):
                found = _bisect_checked(e, fail, passes_hi, +1) if fail < e else e
                break
            fail, e = e, 2 * e
    if flat is not None and (found is None or flat < found):
        return flat
    if found is None:
        # nothing passed: a refusal only if it is itself proved (delta_lo > D at the last eps)
        if _rational(c.lower.delta(EPS_SEARCH_MAX).lower()) > D:
            raise InvalidParameterError(f"epsilon at delta={float(D):g} exceeds {int(EPS_SEARCH_MAX)} "
                                        f"(certified: delta({int(EPS_SEARCH_MAX)}) > delta, {c.name})")
        raise ArithmeticError("could not certify an upper bound on epsilon; raise the precision")
    return found


def _lower_end(c, D: Fraction, passes_lo, e_hi: Fraction) -> Fraction:
    """The largest checked eps found with delta_lo(eps) > D, or 0 (then only eps(delta) >= 0
    is claimed): from the float candidate, else by a certified bisection on [0, eps_hi]
    (delta_lo(eps_hi) <= delta_hi(eps_hi) <= D fails, so it is a failing end)."""
    if e_hi == 0:
        return Fraction(0)
    root = _bisect_eps(_estimator(c, "lower"), float(D))
    if root is not None and root > 0:
        cand = min(_decimal_down(root), e_hi)
        if passes_lo(cand):
            return _bisect_checked(cand, e_hi, passes_lo, -1)
        found = _first_checked(cand, passes_lo, -1)
        if found is not None:
            return found
    # certified bisection: any passing eps is a valid lower end (delta_lo need not be monotone,
    # so this finds a boundary, not necessarily the last one)
    ok, fail = Fraction(0), e_hi
    for _ in range(80):
        if fail - ok <= RESOLUTION * max(1, ok):
            break
        mid = _decimal_down(float((ok + fail) / 2))
        if mid in (ok, fail):
            break
        if passes_lo(mid):
            ok = mid
        else:
            fail = mid
    return ok


def printed(x, direction: str, digits: int = 7) -> str:
    """The rational ``x`` as a decimal of ``digits`` significant digits rounded ``"down"`` or
    ``"up"`` (Decimal division with a directed rounding mode), so that a printed lower or upper
    bound is still one (issue #31, D6)."""
    from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext

    x = Fraction(x)
    if x == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = ROUND_FLOOR if direction == "down" else ROUND_CEILING
        value = Decimal(x.numerator) / Decimal(x.denominator)
    return format(value, "g") if abs(value) < Decimal("1e-4") else format(value, "f")


def _fmt_down(x) -> str:
    return printed(x, "down")


def certified_epsilon(phases, delta, precision: int = 2, progress=None, mutate=None,
                      limits: bool = True, engine: str = "fft", closed: bool = False) -> Bracket:
    """Certified bracket on epsilon(delta) for the composition of ``phases``.

    With two directions, the exact engine first composes each on a grid two levels coarser;
    the FFT engine composes the direction with the larger float Chernoff estimate of ε at
    ``precision`` at once and the others on a grid 2^4 times coarser.  Then the direction with
    the larger certified lower end is (re)computed at ``precision``, and so is any other whose
    coarse upper end would widen the result.  Every bracket is
    valid at any grid, so the maxima below are certified whichever grids were used."""
    D = exact(delta, "delta")
    check_range("delta", D, DELTA_MIN, 1.0)
    phases = _phases(phases)
    start = time.perf_counter()
    n = _directions(phases)
    refine = refinement(phases)
    fine = grid_for(precision, mutate, refine, engine)
    if engine == "fft":
        # the direction with the larger float Chernoff estimate goes straight to the fine grid;
        # the others only need an upper end below its own, which a coarse grid gives cheaply
        coarse = FFTGrid(h_exp=max(8, fine.h_exp - 4), mutate=mutate) if n > 1 else fine
        first = max(range(n), key=lambda d: fft.chernoff_epsilon(
            [ph.pairs[d] for ph in phases], [ph.steps for ph in phases], float(D)))
    else:
        coarse = grid_for(max(0, precision - 2), mutate, refine, engine) if n > 1 else fine
        first = None
    target = ("delta", float(D))
    found = []
    for d in range(n):
        grid = fine if d == first else coarse
        c = compose_direction(phases, d, grid, progress, target, closed=closed)
        lo, hi, note = epsilon_bounds([c], D, [support_bound(phases, d)])
        found.append([lo, hi, note[0], fine.h_exp if isinstance(c, ClosedComposed) else grid.h_exp, c])
    if limits and max(f[0] for f in found) > EPS_MAX:
        raise InvalidParameterError(f"epsilon at this delta exceeds the supported range eps <= {EPS_MAX:g} "
                                    f"(certified eps >= {printed(max(f[0] for f in found), 'down')})")
    order = sorted(range(n), key=lambda d: found[d][0], reverse=True)
    for d in order:
        if found[d][3] == fine.h_exp:
            continue
        best_hi = max((f[1] for f in found if f[3] == fine.h_exp), default=None)
        if d != order[0] and best_hi is not None and found[d][1] <= best_hi:
            continue     # this direction cannot change the result
        c = compose_direction(phases, d, fine, progress, target)
        lo, hi, note = epsilon_bounds([c], D, [support_bound(phases, d)])
        found[d] = [max(lo, found[d][0]), min(hi, found[d][1]), note[0], fine.h_exp, c]
    if engine == "fft":
        # a wide bracket of a deciding direction: other tilts (a choice of accuracy only)
        for d in {max(range(n), key=lambda d: found[d][0]), max(range(n), key=lambda d: found[d][1])}:
            if found[d][3] == fine.h_exp and not isinstance(found[d][4], ClosedComposed):
                found[d] = _retilted(phases, d, fine, D, found[d], progress)
    lo, hi = max(f[0] for f in found), max(f[1] for f in found)
    notes = [dict(f[2], eps_lo=f[0], eps_hi=f[1], h=f"2^-{f[3]}") for f in found]
    if limits and lo > EPS_MAX:
        raise InvalidParameterError(f"epsilon at this delta exceeds the supported range eps <= {EPS_MAX:g} "
                                    f"(certified eps >= {printed(lo, 'down')})")
    return Bracket("epsilon", D, lo, hi, time.perf_counter() - start, precision, notes,
                   [f[4] for f in found])


#: a bracket on eps wider than this (relative to its upper end) is retried at other tilts
WIDE = Fraction(1, 10 ** 4)
#: the multiples of the deciding tilt tried then (on a grid 2^3 times coarser)
RETILT_SCALES = (1.5, 2.0, 2.5, 3.0)


def _retilted(phases, d: int, fine, D: Fraction, entry: list, progress=None) -> list:
    """``entry`` = [lo, hi, note, h_exp, composed] of direction ``d``, and if its bracket is wider
    than :data:`WIDE`, intersected with the bracket at the tilt scale of :data:`RETILT_SCALES`
    whose coarse trial is narrowest (issue #31, D5: sigma = 0.5, q = 1e-4, T = 1000 at
    delta = 1e-12 gave 0.40 at the default tilt, 4e-5 at 2.5 times it).  Both brackets are
    certified, so their intersection is; the composition of the narrower is kept."""
    lo, hi = entry[0], entry[1]
    if hi == 0 or (hi - lo) / hi <= WIDE:
        return entry
    target = ("delta", float(D))
    support = [support_bound(phases, d)]
    trial_grid = FFTGrid(h_exp=max(8, fine.h_exp - 3), mutate=fine.mutate)
    best, arg, cells = None, None, None
    for k in (1.0,) + RETILT_SCALES:
        g = FFTGrid(h_exp=trial_grid.h_exp, mutate=trial_grid.mutate, cells=cells)
        try:
            c = compose_direction(phases, d, g, progress, target, k)
            l, h, _ = epsilon_bounds([c], D, support)
        except ArithmeticError:
            continue
        cells = cells or 4 * c.upper.arr.N          # a much longer FFT is tried short, and loses
        if best is None or h - l < best:
            best, arg = h - l, k
    if arg is None or arg == 1.0:
        return entry
    try:
        c = compose_direction(phases, d, fine, progress, target, arg)
        l, h, note = epsilon_bounds([c], D, support)
    except ArithmeticError:
        return entry
    keep = c if h - l < hi - lo else entry[4]
    return [max(lo, l), min(hi, h), note[0], fine.h_exp, keep]


#: the multiples of the deciding tilt tried by :func:`certified_delta` (FFT engine)
TILT_SCALES = (1.0, 2.0, 3.0)


def best_tilt_scale(phases, d: int, grid: FFTGrid, E: Fraction, progress=None) -> float:
    """The tilt scale (of :data:`TILT_SCALES`, ``fft.compose_direction``) whose certified delta
    bracket at ``E`` is the narrowest on ``grid`` (a coarse grid: a cheap trial; the FFT length
    is capped at twice that of the first candidate, so a candidate that would need a much
    longer one is tried short and loses).  The tilt is a free parameter of a valid bound (docs
    §3F.2), so this is a choice of accuracy only: at T = 1000 the saddle point is best, at
    T = 10^4..10^5 nodes dense where three times it puts the one-step mass halve the width."""
    best, arg, cells = None, TILT_SCALES[0], None
    for k in TILT_SCALES:
        g = FFTGrid(h_exp=grid.h_exp, mutate=grid.mutate, cells=cells)
        try:
            c = compose_direction(phases, d, g, progress, ("eps", float(E)), k)
            lo, hi = delta_bounds([c], E)
        except ArithmeticError:
            continue
        cells = cells or 2 * c.upper.arr.N
        width = (hi - lo) / hi if hi > 0 else Fraction(1)
        if best is None or width < best:
            best, arg = width, k
    return arg


def certified_delta(phases, eps, precision: int = 2, progress=None, mutate=None,
                    engine: str = "fft", closed: bool = False) -> Bracket:
    """Certified bracket on delta(eps) for the composition of ``phases``.

    FFT engine: in each direction the tilt is chosen by :func:`best_tilt_scale` on a grid
    2^3 times coarser, then the direction is composed at ``precision``."""
    E = exact(eps, "eps")
    check_range("eps", E, 0.0, EPS_MAX)
    start = time.perf_counter()
    phases = _phases(phases)
    grid = grid_for(precision, mutate, refinement(phases), engine)
    forms = [gaussian_closed_form([ph.pairs[d] for ph in phases], [ph.steps for ph in phases])
             if closed and mutate is None else None for d in range(_directions(phases))]
    if all(isinstance(f, ClosedComposed) for f in forms):
        composed = forms
    elif isinstance(grid, FFTGrid):
        trial = FFTGrid(h_exp=max(8, grid.h_exp - 3), mutate=mutate)
        composed = [compose_direction(phases, d, grid, progress, ("eps", float(E)),
                                      best_tilt_scale(phases, d, trial, E, progress))
                    for d in range(_directions(phases))]
    else:
        composed = compose(phases, grid, progress, ("eps", float(E)))
    lo, hi = delta_bounds(composed, E)
    notes = [{"direction": c.name,
              "delta_lo": _rational(c.lower.delta(E).lower()),
              "delta_hi": _rational(c.upper.delta(E).upper())} for c in composed]
    return Bracket("delta", E, lo, hi, time.perf_counter() - start, precision, notes, composed)


def _phases(phases):
    if isinstance(phases, Phase):
        phases = [phases]
    elif isinstance(phases, Iterable) and not isinstance(phases, (str, bytes, Pair)):
        phases = list(itertools.islice(phases, MAX_PHASES + 1))
        if len(phases) > MAX_PHASES:
            raise InvalidParameterError(f"at most {MAX_PHASES} phases (the limit on work: each is "
                                        f"composed on its own); got more")
    else:
        raise InvalidParameterError(f"phases must be a Phase or a list of Phases; got "
                                    f"phases={shown(phases)}")
    if not phases:
        raise InvalidParameterError("the schedule must have at least one phase; got none")
    for i, ph in enumerate(phases):
        if not isinstance(ph, Phase):
            raise InvalidParameterError(f"phases[{i}] must be a Phase; got {shown(ph)}")
        for pair in ph.pairs:
            if _zero_loss(pair):
                raise InvalidParameterError(
                    f"phases[{i}]: the pair {pair.name} has no privacy loss but 0 (and "
                    f"+-infinity) to put on a grid: eps0 must be > 0 in the certified accountant")
    return phases


def _zero_loss(pair) -> bool:
    """Whether the finite privacy losses of ``pair`` (or of the base it samples) are all 0:
    an (0, delta) pair or randomized response with eps0 = 0, which the grids cannot hold."""
    base = getattr(pair, "base", None)
    if isinstance(base, Pair):
        return _zero_loss(base)
    if not hasattr(pair, "eps0") and not hasattr(pair, "event"):
        return False
    lo, hi = pair.loss_window(2.0 ** -40)
    return not hi > lo
