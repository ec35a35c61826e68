r"""Exact composition of (ε, δ)-DP: :math:`f_{\varepsilon,\delta}^{\otimes k}` and heterogeneous products.

**Homogeneous (Kairouz, Oh, Viswanath 2015, ICML / arXiv 1311.0776, Thm. 3.3).**  Under Q the
loss of :math:`f_{\varepsilon,\delta}` is +∞ w.p. δ, else ±ε with probabilities
:math:`E/(1+E)`, :math:`1/(1+E)` (:math:`E = e^\varepsilon`).  Over k independent copies the
loss is +∞ w.p. :math:`1-(1-\delta)^k`, else :math:`(2i-k)\varepsilon` with i ~ Bin(k, E/(1+E)),
so the privacy profile :math:`\delta_k(t) = E_Q[(1-e^{t-L})_+]` is

.. math::
    \delta_k(t) = 1 - (1-\delta)^k + \frac{(1-\delta)^k}{(1+E)^k}
        \sum_{i:\,(2i-k)\varepsilon > t} \binom{k}{i}\big(E^{i} - e^{t} E^{k-i}\big),

a polynomial in E divided by :math:`(1+E)^k`, linear in :math:`e^t` between consecutive
losses.  At :math:`t = (k-2l)\varepsilon` it is KOV's printed
:math:`1-(1-\delta)^k(1-\tilde\delta_l)` with
:math:`\tilde\delta_l = \sum_{i=0}^{l-1}\binom{k}{i}(E^{k-i} - E^{k-2l+i})/(1+E)^k`
(substitute i → k − i); :func:`kov_theorem_3_3` types that in for comparison.

ε(δ) is then a closed form on the segment holding δ: :math:`t = \log((A-\delta)/B)`.

**Heterogeneous** :math:`f_{\varepsilon_1,\delta_1}\otimes\cdots\otimes f_{\varepsilon_k,\delta_k}`:
the loss takes up to :math:`2^k` finite values :math:`\sum_j \pm\varepsilon_j`; they are
enumerated exactly (:class:`~.privacy_loss.LossAtoms`), for k ≤ :data:`MAX_HETEROGENEOUS`.
No general shortcut exists: computing the optimal composition of heterogeneous
(ε_j, δ_j) guarantees is #P-complete (Murtagh, Vadhan 2016, TCC, "The complexity of
computing the optimal composition of differential privacy", Thm. 1.5).
"""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError
from ..numeric.mp_compiler import to_mpf
from ..core.validation import nonnegative, positive_integer, precision, probability, to_exact
from .privacy_loss import LossAtoms, compare_exact

__all__ = ["kov_profile", "kov_profile_value", "kov_epsilon", "kov_epsilon_value",
           "kov_theorem_3_3", "heterogeneous_loss", "MAX_HETEROGENEOUS", "grouped_profile_value",
           "grouped_epsilon_value", "grouped_trade_off_value", "eps_delta_groups", "MAX_GROUPED_ATOMS"]

#: heterogeneous products are enumerated exactly up to this many factors (2^12 = 4096 losses)
MAX_HETEROGENEOUS = 12
#: the largest k of the O(k) numeric KOV walks (about 10 s at k = 10^5; a larger k is refused
#: naming this limit, not left to run for hours)
MAX_KOV_K = 10 ** 5


def _value_params(eps, delta, k, dps):
    eps, delta, k = _params(eps, delta, k)
    if k > MAX_KOV_K:
        raise InvalidParameterError(f"k must be at most {MAX_KOV_K} for a numeric value (the "
                                    f"limit on work: the sum has k + 1 terms); got k={k}")
    return eps, delta, k, precision("dps", dps)


def _params(eps, delta, k):
    return nonnegative("eps", eps), probability("delta", delta), positive_integer("k", k)


def kov_profile(eps, delta, k, t) -> sp.Expr:
    r"""The exact privacy profile :math:`\delta_k(t)` of :math:`f_{\varepsilon,\delta}^{\otimes k}`
    (KOV 2015 Thm. 3.3 for every real t), as a SymPy expression in :math:`e^\varepsilon`, :math:`e^t`."""
    eps, delta, k = _params(eps, delta, k)
    t = to_exact("t", t)
    E = sp.exp(eps)
    total = sp.S.Zero
    for i in range(k + 1):
        if sp.sympify((2 * i - k) * eps - t).is_positive:
            total += sp.binomial(k, i) * (E ** i - sp.exp(t) * E ** (k - i))
    return 1 - (1 - delta) ** k + (1 - delta) ** k * total / (1 + E) ** k


def _segments(eps, delta, k):
    """Yield (i, loss, A, B) as mpf for i = k, k-1, ..., 0: the profile on [L_{i-1}, L_i] is
    A - B e^t where A, B sum the atoms with loss >= L_i."""
    E = mpmath.exp(eps)
    A, B = 1 - (1 - delta) ** k, mpmath.mpf(0)
    # the atom masses (1-delta)^k C(k,i) E^i/(1+E)^k and their P-masses (times E^{k-2i}) by the
    # recurrence C(k,i-1) = C(k,i) i/(k-i+1), from i = k down (no binomial per step)
    q = ((1 - delta) * E / (1 + E)) ** k      # i = k
    pm = ((1 - delta) / (1 + E)) ** k         # q E^{k-2i} at i = k
    for i in range(k, -1, -1):
        A += q
        B += pm
        yield i, (2 * i - k) * eps, A, B
        if i:
            ratio = mpmath.mpf(i) / (k - i + 1)
            q = q * ratio / E
            pm = pm * ratio * E


def kov_profile_value(eps, delta, k, t, dps: int = 30):
    """:func:`kov_profile` at ``dps`` digits (an mpf), in O(k) operations."""
    eps, delta, k, dps = _value_params(eps, delta, k, dps)
    t_exact = to_exact("t", t)
    with mpmath.workdps(dps + 20):
        e, d, tt = to_mpf(eps), to_mpf(delta), to_mpf(t_exact)
        value = 1 - (1 - d) ** k
        for i, _loss, A, B in _segments(e, d, k):
            # the atom at (2i - k) eps counts iff it is > t (decided exactly for exact inputs)
            if not sp.sympify((2 * i - k) * eps - t_exact).is_positive:
                break
            value = A - B * mpmath.exp(tt)
    with mpmath.workdps(dps):
        return +value


def kov_epsilon(eps, delta, k, target) -> sp.Expr:
    r"""The smallest t ≥ 0 with :math:`\delta_k(t) \le` ``target``, in closed form
    :math:`\log((A - \delta)/B)` (``oo`` if ``target`` < :math:`1 - (1-\delta)^k`)."""
    eps, delta, k = _params(eps, delta, k)
    return LossAtoms.from_eps_delta(eps, delta).power(k).epsilon_exact(target)


def kov_epsilon_value(eps, delta, k, target, dps: int = 30):
    r"""The smallest t ≥ 0 with :math:`\delta_k(t) \le` ``target`` at ``dps`` digits, in O(k):
    walk the segments from the largest loss down until the profile at the segment's lower
    end reaches the target, then :math:`t = \log((A-\delta)/B)`.  Returns ``mpmath.inf``
    when target < :math:`1-(1-\delta)^k` (no finite ε)."""
    eps, delta, k, dps = _value_params(eps, delta, k, dps)
    target = probability("delta", target)
    with mpmath.workdps(dps + 20):
        e, d, tgt = to_mpf(eps), to_mpf(delta), to_mpf(target)
        if tgt < 1 - (1 - d) ** k:
            return mpmath.inf
        if e == 0:
            return mpmath.mpf(0)
        segments = list(_segments(e, d, k))
        for j, (_i, loss, A, B) in enumerate(segments):
            low = segments[j + 1][1] if j + 1 < len(segments) else -mpmath.inf
            low = max(low, mpmath.mpf(0))
            if A - B * mpmath.exp(low) >= tgt:
                value = mpmath.log((A - tgt) / B) if B > 0 else mpmath.mpf(0)
                break
        else:  # pragma: no cover - the last segment reaches t = 0 where delta_k(0) <= 1
            value = mpmath.mpf(0)
        value = max(value, mpmath.mpf(0))
    with mpmath.workdps(dps):
        return +value


def kov_theorem_3_3(eps, delta, k, l) -> tuple:
    r"""KOV 2015 Thm. 3.3 as printed: for :math:`0 \le l \le \lfloor k/2 \rfloor` the k-fold
    composition is :math:`((k-2l)\varepsilon, \delta_l)`-DP with
    :math:`\delta_l = 1 - (1-\delta)^k(1-\tilde\delta_l)`,
    :math:`\tilde\delta_l = \sum_{i=0}^{l-1}\binom{k}{i}(e^{(k-i)\varepsilon} - e^{(k-2l+i)\varepsilon})/(1+e^\varepsilon)^k`."""
    eps, delta, k = _params(eps, delta, k)
    l = int(l)
    if not 0 <= l <= k // 2:
        raise InvalidParameterError(f"l must be in [0, {k // 2}]; got l={l}")
    E = sp.exp(eps)
    tilde = sum((sp.binomial(k, i) * (E ** (k - i) - E ** (k - 2 * l + i)) for i in range(l)),
                sp.S.Zero) / (1 + E) ** k
    return (k - 2 * l) * eps, 1 - (1 - delta) ** k * (1 - tilde)


def heterogeneous_loss(pairs) -> LossAtoms:
    r"""The exact loss distribution of :math:`f_{\varepsilon_1,\delta_1}\otimes\cdots\otimes
    f_{\varepsilon_k,\delta_k}` for k ≤ :data:`MAX_HETEROGENEOUS` (#P-hard in general,
    Murtagh--Vadhan 2016)."""
    pairs = list(pairs)
    if not pairs:
        raise InvalidParameterError("pairs must hold at least one (eps, delta); got pairs=[]")
    if len(pairs) > MAX_HETEROGENEOUS:
        raise InvalidParameterError(
            f"at most {MAX_HETEROGENEOUS} heterogeneous (eps, delta) pairs are composed exactly "
            f"(2^k losses; #P-hard in general, Murtagh-Vadhan 2016); got {len(pairs)}")
    loss = None
    for eps, delta in pairs:
        one = LossAtoms.from_eps_delta(eps, delta)
        loss = one if loss is None else loss.tensor(one)
    return loss


#: grouped heterogeneous products are enumerated up to this many distinct losses
MAX_GROUPED_ATOMS = 1 << 16


def _grouped_atoms(groups, dps: int):
    r"""Atoms of :math:`\bigotimes_j f_{\varepsilon_j,\delta_j}^{\otimes k_j}` (``groups`` =
    [(eps_j, delta_j, k_j)], exact parameters): the finite loss is
    :math:`\sum_j (2 i_j - k_j)\varepsilon_j` with probability
    :math:`\prod_j (1-\delta_j)^{k_j}\binom{k_j}{i_j}E_j^{i_j}/(1+E_j)^{k_j}`; the rest,
    :math:`1 - \prod_j (1-\delta_j)^{k_j}`, is at +∞.  Returns (inf_mass, [(exact loss, mpf
    loss, mpf mass)]) at ``dps`` digits."""
    count = 1
    for _, _, k in groups:
        count *= k + 1
    if count > MAX_GROUPED_ATOMS:
        raise InvalidParameterError(
            f"the product has {count} losses, more than {MAX_GROUPED_ATOMS}: exact composition of "
            "heterogeneous (eps, delta) pairs is #P-hard in general (Murtagh-Vadhan 2016); "
            "use fewer distinct pairs or fewer repetitions")
    with mpmath.workdps(dps):
        keep = mpmath.mpf(1)
        per_group = []
        for eps, delta, k in groups:
            E, d = mpmath.exp(to_mpf(eps)), to_mpf(delta)
            keep *= (1 - d) ** k
            per_group.append([((2 * i - k) * eps, (2 * i - k) * to_mpf(eps),
                               mpmath.binomial(k, i) * E ** i / (1 + E) ** k) for i in range(k + 1)])
        atoms = []
        for combo in itertools.product(*per_group):
            loss = sum((c[0] for c in combo), sp.S.Zero)
            value = mpmath.fsum(c[1] for c in combo)
            mass = keep
            for c in combo:
                mass *= c[2]
            atoms.append((loss, value, mass))
        atoms.sort(key=lambda a: -a[1])
        return 1 - keep, atoms


def _above(loss_exact, loss_value, t_exact, t_value) -> bool:
    """loss > t, decided numerically with an exact check when the two are close."""
    gap = loss_value - t_value
    if abs(gap) > mpmath.mpf(10) ** (-mpmath.mp.dps + 15) or t_exact is None:
        return gap > 0
    return compare_exact(sp.sympify(loss_exact), sp.sympify(t_exact)) > 0


def grouped_profile_value(groups, t, dps: int = 30):
    r""":math:`\delta(t)` of :math:`\bigotimes_j f_{\varepsilon_j,\delta_j}^{\otimes k_j}` at ``dps``
    digits, by enumerating the :math:`\prod_j (k_j + 1)` finite losses."""
    groups = [(nonnegative("eps", e), probability("delta", d), positive_integer("k", k)) for e, d, k in groups]
    dps = precision("dps", dps)
    t_exact = to_exact("t", t) if not isinstance(t, mpmath.mpf) else None
    with mpmath.workdps(dps + 20):
        inf_mass, atoms = _grouped_atoms(groups, dps + 20)
        tt = to_mpf(t_exact) if t_exact is not None else mpmath.mpf(t)
        total = inf_mass + mpmath.fsum(m * (1 - mpmath.exp(tt - v)) for L, v, m in atoms
                                       if _above(L, v, t_exact, tt))
    with mpmath.workdps(dps):
        return +total


def grouped_epsilon_value(groups, target, dps: int = 30):
    r"""The smallest t ≥ 0 with :math:`\delta(t) \le` ``target`` for the grouped product: on the
    segment holding the target the profile is :math:`A - Be^t`, so :math:`t = \log((A-\delta)/B)`."""
    groups = [(nonnegative("eps", e), probability("delta", d), positive_integer("k", k)) for e, d, k in groups]
    dps = precision("dps", dps)
    target = probability("delta", target)
    with mpmath.workdps(dps + 20):
        inf_mass, atoms = _grouped_atoms(groups, dps + 20)
        tgt = to_mpf(target)
        if tgt < inf_mass:
            return mpmath.inf
        A, B = inf_mass, mpmath.mpf(0)
        value = mpmath.mpf(0)
        for j, (_, v, m) in enumerate(atoms):
            A, B = A + m, B + m * mpmath.exp(-v)
            low = atoms[j + 1][1] if j + 1 < len(atoms) else -mpmath.inf
            low = max(low, mpmath.mpf(0))
            if A - B * mpmath.exp(low) >= tgt:
                value = max(mpmath.log((A - tgt) / B), mpmath.mpf(0)) if B > 0 else mpmath.mpf(0)
                break
    with mpmath.workdps(dps):
        return +value


def eps_delta_groups(factors):
    """[(eps, delta, count)] for a list of EpsDelta factors (equal factors grouped, order kept)."""
    groups: dict = {}
    for f in factors:
        key = (f.eps, f.delta)
        groups[key] = groups.get(key, 0) + 1
    return [(e, d, k) for (e, d), k in groups.items()]


def grouped_trade_off_value(groups, alpha, dps: int = 30):
    r""":math:`\bigotimes_j f_{\varepsilon_j,\delta_j}^{\otimes k_j}(\alpha)` by Neyman--Pearson on
    the enumerated losses: reject the +∞ atom, then atoms by decreasing loss (P-mass
    :math:`q e^{-L}`), the boundary atom in part."""
    groups = [(nonnegative("eps", e), probability("delta", d), positive_integer("k", k)) for e, d, k in groups]
    dps = precision("dps", dps)
    a = probability("alpha", alpha)
    with mpmath.workdps(dps + 20):
        inf_mass, atoms = _grouped_atoms(groups, dps + 20)
        a = to_mpf(a)
        power, used = inf_mass, mpmath.mpf(0)
        value = None
        for _, v, m in atoms:
            pm = m * mpmath.exp(-v)
            if used + pm >= a:
                value = 1 - power - m * (a - used) / pm
                break
            used += pm
            power += m
        if value is None:
            value = 1 - power
        value = max(value, mpmath.mpf(0))
    with mpmath.workdps(dps):
        return +value
