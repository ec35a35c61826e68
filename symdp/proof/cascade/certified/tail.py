r"""An integer parameter on an infinite range: boxes up to N0, a symbolic argument beyond.

For a claim :math:`m(n, y) \ge 0` with n an integer in :math:`[a, \infty)` (y the
other parameters, on bounded ranges) the range is cut at :math:`N_0 = a + 63`:

* **finite part** -- :math:`n \in \{a, \dots, N_0\}` by the box search, with n split
  and snapped at integers, so every n is examined exactly;
* **tail** -- :math:`n \ge N_0` by one of two symbolic arguments (SymPy's
  assumptions after the shift :math:`n = N_0 + k`, :math:`k \ge 0`, the sign
  analysis of :mod:`symdp.proof.cascade.certified.reduce`):

  1. the sign of m itself on the tail (n integer);
  2. monotonicity: :math:`\partial m / \partial n \ge 0` for every *real*
     :math:`n \ge N_0` (mean value theorem), so :math:`m(n) \ge m(N_0)`, which the
     finite part certified; or :math:`\partial m/\partial n \le 0` and the limit
     :math:`\lim_{n\to\infty} m` (SymPy, a number, for a margin in n alone) is
     :math:`\ge 0` (:math:`> 0` for a strict claim).

The result says which part is which ("certified on n in 1..64 by boxes; n >= 64
symbolic: ...").  When no tail argument is found the caller falls back to the
relaxed search (n real, :math:`n = a + t/(1-t)`), which is stated as such.
"""

from __future__ import annotations

import itertools

import sympy as sp

from ...budgets import (SIGN_WORK, SIGN_WORK_LIGHT, TAIL_LIMIT_WORK, TAIL_STEP_WORK, TAIL_WORK,
                        WorkExhausted, heartbeats, work_limit)

TAIL_SPAN = 63   # N0 = a + TAIL_SPAN: 64 integers in the finite part


def split_point(r) -> int:
    return int(sp.ceiling(r.lo)) + TAIL_SPAN


def tail_argument(margin, relation: str, n, n0: int, ranges, constraints) -> str:
    """A symbolic reason why ``margin >= 0`` (``> 0`` for strict relations) for every
    integer ``n >= n0`` with the other parameters in ``ranges``; "" when none is found.

    The finite part (``n in lo..n0``, certified by the caller's boxes) includes ``n = n0``,
    which the induction-style arguments start from."""
    from .reduce import Signs

    strict = relation in ("<", ">")
    want = ">" if strict else ">="
    others = {r.symbol: (sp.Range(int(sp.ceiling(r.lo)), r.hi + 1 if r.hi.is_finite else sp.oo)
                         if r.integer else sp.Interval(r.lo, r.hi))
              for r in ranges if r.symbol != n}
    relevant = [c for c in constraints if c.free_symbols <= set(others) | {n}]
    # m(n, y) >= m(n0, y) needs (n0, y) admissible whenever (n, y) is: no constraint on n
    free_n = not any(n in c.free_symbols for c in relevant)
    start = heartbeats()
    try:
        on_integers = Signs({**others, n: sp.Range(n0, sp.oo)}, relevant)
        ok, why = on_integers.sign(margin, want, _sign_work(margin))
        if ok:
            return f"the sign of the margin for {n.name} = {n0} + j, j >= 0 ({why})"
        ints = Relaxer(on_integers)
        ok, notes = ints.prove(margin, want, tried=True)
        if ok:
            return (f"the margin is >= a lower bound that is {want} 0 for every integer "
                    f"{n.name} >= {n0} (relaxations: {_notes(notes)})")
        with work_limit(TAIL_STEP_WORK):
            d = sp.diff(margin, n)
        on_reals = Signs({**others, n: sp.Interval(n0, sp.oo)}, relevant)
        reals = Relaxer(on_reals)
        if free_n:
            why = _shifted_difference(margin, n, n0, reals, start)
            if why:
                return why
            ok, notes = reals.prove(d, ">=")
            if ok:
                return (f"d(margin)/d{n.name} >= 0 for every real {n.name} >= {n0}"
                        f"{_by(notes)}, so the margin is at least its value at "
                        f"{n.name} = {n0}, certified above")
            for argument in (lambda: _ratio(margin, n, n0, ints, strict, start),
                             lambda: _induction(margin, n, n0, ints, start)):
                why = argument()
                if why:
                    return why
        if margin.free_symbols == {n} and on_reals.sign(-d, ">=")[0]:
            with work_limit(TAIL_LIMIT_WORK):
                limit = sp.limit(margin, n, sp.oo)
            if limit.is_number and limit.is_finite:
                decided = limit.is_positive if strict else limit.is_nonnegative
                if decided:
                    return (f"d(margin)/d{n.name} <= 0 for every real {n.name} >= {n0} and "
                            f"the margin tends to {sp.sstr(limit)} {'>' if strict else '>='} 0")
    except (WorkExhausted, Exception):  # noqa: BLE001 - no tail argument, not a wrong one
        return ""
    return ""


def _spent(start) -> bool:
    """Has the tail argument spent :data:`~symdp.proof.budgets.TAIL_WORK` heartbeats since
    ``start``?  (The induction-style arguments are then not tried.)"""
    return heartbeats() - start > TAIL_WORK


def _tidy(e):
    """A rational function in lowest terms (``n*((n-1)/n - 1)`` is ``-1``); else as it is."""
    try:
        return sp.cancel(sp.together(e)) if e.is_rational_function() else e
    except Exception:  # noqa: BLE001
        return e


def _sign_work(e) -> int:
    """The budget of SymPy's assumptions on ``e``: small when a transcendental atom depends
    on a parameter (the assumptions rarely decide those, and slowly; the relaxations do)."""
    heavy = any(a.free_symbols for a in e.atoms(sp.log, sp.exp)) or any(
        not p.exp.is_number and p.base.free_symbols for p in e.atoms(sp.Pow))
    return SIGN_WORK_LIGHT if heavy else SIGN_WORK


def _notes(notes) -> str:
    return "; ".join(notes) if notes else "none"


def _by(notes) -> str:
    return f" (relaxations: {_notes(notes)})" if notes else ""


def _simplified(e):
    with work_limit(TAIL_STEP_WORK):
        return sp.factor(sp.powsimp(sp.together(sp.expand_power_base(e, force=False))))


def _induction(margin, n, n0, ints, start) -> str:
    """m(n + 1) - m(n) >= 0 for every integer n >= n0: m(n) >= m(n0) >= 0 by induction."""
    if _spent(start):
        return ""
    step = margin.subs(n, n + 1) - margin
    try:
        step = _simplified(step)
    except (WorkExhausted, Exception):  # noqa: BLE001 - the unsimplified difference
        pass
    ok, notes = ints.prove(step, ">=")
    if not ok:
        return ""
    return (f"induction: m({n.name} + 1) - m({n.name}) = {_short(step)} >= 0 for every integer "
            f"{n.name} >= {n0}{_by(notes)}, so m({n.name}) >= m({n0}), certified above")


def _parts(margin):
    pos = [t for t in sp.Add.make_args(margin) if not t.could_extract_minus_sign()]
    neg = [-t for t in sp.Add.make_args(margin) if t.could_extract_minus_sign()]
    return sp.Add(*pos), sp.Add(*neg)


def _ratio(margin, n, n0, ints, strict, start) -> str:
    """margin = P - Q with P, Q > 0 and P(n+1)/P(n) >= Q(n+1)/Q(n) for every integer
    n >= n0: P/Q is nondecreasing, and P(n0)/Q(n0) >= 1 (> 1) by the boxes."""
    if _spent(start):
        return ""
    P, Q = _parts(margin)
    if P == 0 or Q == 0 or not (ints.holds(P, ">") and ints.holds(Q, ">")):
        return ""
    rp, rq = _simplified(P.subs(n, n + 1) / P), _simplified(Q.subs(n, n + 1) / Q)
    ok, notes = ints.prove(_simplified(rp - rq), ">=")
    if not ok:
        return ""
    return (f"ratio: with P = {_short(P)} > 0 and Q = {_short(Q)} > 0, P({n.name}+1)/P({n.name}) "
            f"= {_short(rp)} >= Q({n.name}+1)/Q({n.name}) = {_short(rq)} for every integer "
            f"{n.name} >= {n0}{_by(notes)}, so P/Q is nondecreasing and P/Q "
            f"{'>' if strict else '>='} 1 at {n.name} = {n0}, certified above")


def _shifted_difference(margin, n, n0, reals, start) -> str:
    """margin = G(n + 1) - G(n) with dG/dn >= 0 for every real n >= n0 (mean value theorem)."""
    if _spent(start):
        return ""
    P, Q = _parts(margin)
    if P == 0 or Q == 0:
        return ""
    for G, other in ((Q, P), (-P, -Q)):   # margin = G(n+1) - G(n)
        if sp.simplify(G.subs(n, n + 1) - other) != 0:
            continue
        dG = sp.diff(G, n)
        ok, notes = reals.prove(dG, ">=")
        if ok:
            return (f"the margin is G({n.name} + 1) - G({n.name}) with G = {_short(G)} and "
                    f"dG/d{n.name} >= 0 for every real {n.name} >= {n0}{_by(notes)}")
    return ""


def _short(e, width=80) -> str:
    s = sp.sstr(e)
    return s if len(s) <= width else s[:width - 5] + " ..."


# ------------------------------------------------------------------ one-sided relaxations

_RELAX_LIMIT = 12   # candidates kept per node


class Relaxer:
    r"""One-sided bounds of an expression, each valid on the whole domain of the ``signs``.

    ``bounds(e, d)`` returns ``[(e', notes), ...]`` with :math:`e' \le e` (``d = -1``) or
    :math:`e' \ge e` (``d = +1``) at every admissible point, the original first.  The
    classical inequalities are used only in the direction in which they hold:

    * :math:`\log A \le A - 1` and :math:`\log A \ge 1 - 1/A` (:math:`A > 0`);
    * :math:`e^u \ge 1 + u`;
    * Bernoulli: :math:`(1 + u)^k \ge 1 + k u` for :math:`u \ge -1` and real
      :math:`k \ge 1` (so every integer k >= 1);

    and they are propagated through the monotone operations only: a sum (each term the same
    way), a product with a factor of known sign (the same way for ``c >= 0``, the other way
    for ``c <= 0``), :math:`B^c` for a number c (increasing in ``B >= 0`` for ``c > 0``,
    decreasing in ``B > 0`` for ``c < 0``), :math:`B^e = e^{e \log B}` for ``B > 0``, exp
    and log.  Every side condition (``A > 0``, ``u >= -1``, the sign of a factor, a lower
    bound of a log's argument staying > 0) is decided by the sign analysis on the domain;
    one that is not decided drops the relaxation.
    """

    def __init__(self, signs):
        self.signs = signs
        self._memo = {}

    def holds(self, e, want=">=") -> bool:
        key = (e, want)
        if key not in self._memo:
            self._memo[key] = bool(self.signs.sign(e, want, _sign_work(e))[0])
        return self._memo[key]

    def bounds(self, e, d: int):
        out = [(e, ())]
        if not e.free_symbols or not e.has(sp.log, sp.exp, sp.Pow):
            return out
        extra = []
        if e.is_Add:
            options = [self.bounds(t, d) for t in e.args]
            for combo in itertools.islice(itertools.product(*[o[::-1] for o in options]),
                                          _RELAX_LIMIT):
                value = sp.Add(*[c[0] for c in combo])
                notes = tuple(dict.fromkeys(x for c in combo for x in c[1]))
                if notes:
                    extra.append((value, notes))
        elif e.is_Mul:
            fixed = [f for f in e.args if not f.has(sp.log, sp.exp) and
                     not (f.is_Pow and not f.exp.is_number)]
            moving = [f for f in e.args if f not in fixed]
            if len(moving) == 1:
                c = sp.Mul(*fixed)
                dc = d if self.holds(c) else -d if self.holds(-c) else 0
                if dc:
                    extra += [(c * v, notes) for v, notes in self.bounds(moving[0], dc)[1:]]
        elif isinstance(e, sp.exp):
            a = e.args[0]
            for v, notes in self.bounds(a, d)[1:]:
                extra.append((sp.exp(v), notes))
            if d < 0:
                for v, notes in self.bounds(a, d):
                    extra.append((1 + v, notes + (f"exp(u) >= 1 + u at u = {sp.sstr(a)}",)))
        elif isinstance(e, sp.log):
            A = e.args[0]
            if self.holds(A, ">"):
                for v, notes in self.bounds(A, d):
                    if d > 0:
                        if v != A:
                            extra.append((sp.log(v), notes))
                        extra.append((v - 1, notes + (f"log(A) <= A - 1 at A = {sp.sstr(v)}",)))
                    elif v == A or self.holds(v, ">"):
                        if v != A:
                            extra.append((sp.log(v), notes))
                        extra.append((1 - 1 / v, notes + (f"log(A) >= 1 - 1/A at A = {sp.sstr(v)}",)))
        elif e.is_Pow:
            B, c = e.base, e.exp
            if c.is_number and c.is_real:
                if c.is_positive and self.holds(B):
                    for v, notes in self.bounds(B, d)[1:]:
                        if d > 0 or self.holds(v):
                            extra.append((v ** c, notes))
                elif c.is_negative and self.holds(B, ">"):
                    for v, notes in self.bounds(B, -d)[1:]:
                        if d < 0 or self.holds(v, ">"):
                            extra.append((v ** c, notes))
            elif d < 0 and self.holds(B) and self.holds(c - 1):
                extra.append((1 + c * (B - 1), (f"Bernoulli (1 + u)^k >= 1 + k u at u = "
                                                f"{sp.sstr(B - 1)}, k = {sp.sstr(c)}",)))
            if not c.is_number and self.holds(B, ">"):
                for v, notes in self.bounds(c * sp.log(B), d)[1:]:
                    extra.append((sp.exp(_tidy(v)), notes))
        seen, result = {e}, list(out)
        for v, notes in extra:
            if v not in seen:
                seen.add(v)
                result.append((v, notes))
        return result[:_RELAX_LIMIT + 1]

    def prove(self, e, want=">=", tried=False):
        """``(True, notes)`` when ``e >= 0`` (``> 0``) on the domain, directly (unless
        ``tried``) or after lower bounds; factors that are > 0 on the domain are dropped
        first."""
        if not tried and self.holds(e, want):
            return True, ()
        factors = sp.Mul.make_args(e)
        kept = [e] if len(factors) == 1 else [f for f in factors if not self.holds(f, ">")]
        if not kept:
            return True, ("each factor is > 0",)
        core = sp.Mul(*kept)
        dropped = ("drop the factors > 0",) if len(kept) < len(factors) else ()
        if dropped and self.holds(core, want):
            return True, dropped
        for v, notes in self.bounds(core, -1)[1:]:
            if self.holds(v, want):
                return True, dropped + notes
        return False, ()
