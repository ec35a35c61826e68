"""Seeded parameter points drawn from a derivation's hypotheses.

Points are exact Rationals (so a counterexample can be re-checked exactly):
boundaries and near-boundaries of every domain first, then seeded interior
points (log-uniform on half-lines).  Constraints and side conditions are
enforced by rejection.
"""

from __future__ import annotations

import itertools
import random
import zlib
from collections.abc import Sequence
from fractions import Fraction

import sympy as sp


def seed_for(*parts) -> int:
    """A deterministic seed from strings (``hash()`` is salted per process)."""
    return zlib.crc32("\x1f".join(str(p) for p in parts).encode())


def _adder(a):
    """``x -> a + x`` for Fractions, returning SymPy numbers: in Python's exact rationals when
    ``a`` is rational (thousands of candidates are drawn per step), else in SymPy."""
    if a.is_Rational:
        base = Fraction(int(a.p), int(a.q))
        return lambda x: sp.Rational((base + x).numerator, (base + x).denominator)
    return lambda x: a + sp.Rational(x.numerator, x.denominator)


class _Drawn(Sequence):
    """Candidate values drawn now -- the generator called in the same order as ever, so the
    same points come out -- and built as SymPy numbers only when one is taken (issue #30:
    thousands are drawn per parameter, a few are used; building them all was 8 % of the
    soundness battery's time)."""

    def __init__(self, raw: list, build):
        self._raw, self._build, self._built = raw, build, {}

    def __len__(self) -> int:
        return len(self._raw)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._raw)))]
        if i < 0:
            i += len(self._raw)
        try:
            return self._built[i]
        except KeyError:
            value = self._built[i] = self._build(self._raw[i])
            return value


def _interval_candidates(domain: sp.Interval, rng: random.Random, count: int) -> tuple[list, list]:
    a, b = domain.start, domain.end
    edges, interior = [], []
    if a.is_finite and b.is_finite:
        width = b - a
        if not domain.left_open:
            edges.append(a)
        if not domain.right_open:
            edges.append(b)
        edges += [a + width / 1000, b - width / 1000, a + width / 2]
        if width.is_Rational:
            w = Fraction(int(width.p), int(width.q))
            interior = _Drawn([w * Fraction(rng.randint(1, 9999), 10000) for _ in range(count)],
                              _adder(a))
        else:
            interior = _Drawn([rng.randint(1, 9999) for _ in range(count)],
                              lambda r: a + width * sp.Rational(r, 10000))
    elif a.is_finite:  # [a, oo)
        if not domain.left_open:
            edges.append(a)
        edges += [a + sp.Rational(1, 1000), a + 1, a + 10]
        interior = _Drawn([Fraction(round(10 ** rng.uniform(-3, 1.7) * 1000), 1000)
                           + Fraction(1, 10 ** 6) for _ in range(count)], _adder(a))
    elif b.is_finite:  # (-oo, b]
        if not domain.right_open:
            edges.append(b)
        edges += [b - sp.Rational(1, 1000), b - 1, b - 10]
        interior = _Drawn([-Fraction(round(10 ** rng.uniform(-3, 1.7) * 1000), 1000)
                           - Fraction(1, 10 ** 6) for _ in range(count)], _adder(b))
    else:
        edges += [sp.Integer(0), sp.Integer(1), sp.Integer(-1), sp.Integer(10), sp.Integer(-10)]
        interior = _Drawn([rng.randint(-30000, 30000) for _ in range(count)],
                          lambda r: sp.Rational(r, 1000))
    return edges, interior


def _range_candidates(domain: sp.Set, rng: random.Random, count: int) -> tuple[list, list]:
    inf, sup = domain.inf, domain.sup
    if isinstance(domain, sp.FiniteSet):
        return list(domain), []
    start = int(inf) if inf.is_finite else -20
    if sup.is_finite:
        stop = int(sup)
        edges = sorted({start, min(start + 1, stop), stop, max(stop - 1, start)})
        interior = [rng.randint(start, stop) for _ in range(count)]
    else:
        edges = [start, start + 1, start + 2, start + 5, start + 10, start + 100]
        interior = [start + int(10 ** rng.uniform(0, 3)) for _ in range(count)]
    member: dict = {}   # a SymPy membership test is slow; each value is tested once

    def inside(v):
        if v not in member:
            here = _integer_in(v, domain)
            member[v] = bool(sp.Integer(v) in domain) if here is None else here
        return member[v]

    edges = [sp.Integer(v) for v in edges if inside(v)]
    interior = [sp.Integer(v) for v in interior if inside(v)]
    return edges, interior


def _integer_in(v: int, domain: sp.Set) -> bool | None:
    """``v in domain`` for an integer ``v``, in Python integers, when the domain is a Range
    with integer start and step (its stop an integer or oo) or a union of such Ranges: v is
    in ``Range(a, b, s)``, s > 0, iff a <= v < b and s divides v - a (and for s < 0 iff
    b < v <= a and |s| divides a - v), which is SymPy's answer.  None for any other set
    (SymPy decides)."""
    if isinstance(domain, sp.Union):
        parts = [_integer_in(v, part) for part in domain.args]
        return None if None in parts else any(parts)
    if not isinstance(domain, sp.Range):
        return None
    start, stop, step = domain.start, domain.stop, domain.step
    if not (start.is_Integer and step.is_Integer and (stop.is_Integer or stop in (sp.oo, -sp.oo))):
        return None
    a, s = int(start), int(step)
    if s > 0:
        return a <= v and (stop is sp.oo or v < int(stop)) and (v - a) % s == 0
    return v <= a and (stop is -sp.oo or int(stop) < v) and (a - v) % -s == 0


def is_integer_domain(domain: sp.Set) -> bool:
    if isinstance(domain, (sp.Range,)) or domain.is_subset(sp.S.Integers):
        return True
    if isinstance(domain, sp.FiniteSet):
        return all(e.is_integer for e in domain)
    return False


def candidates(domain: sp.Set, rng: random.Random, count: int) -> tuple[list, list]:
    """Boundary and interior candidate values of one parameter's domain."""
    if is_integer_domain(domain):
        return _range_candidates(domain, rng, count)
    if isinstance(domain, sp.FiniteSet):
        return list(domain), []
    if isinstance(domain, sp.Interval):
        return _interval_candidates(domain, rng, count)
    if isinstance(domain, sp.Union):
        edges, interior = [], []
        for part in domain.args:
            e, i = candidates(part, rng, max(1, count // len(domain.args)))
            edges += e
            interior += i
        return edges, interior
    raise ValueError(f"cannot sample from the domain {domain}")


def constraint_closure(symbols, conditions, hypotheses) -> set:
    """``symbols`` and every parameter tied to them through the conditions, transitively.

    ``z - x >= 0`` under ``x <= y, y <= z`` speaks of x and z only, yet its domain is cut
    by both constraints through y: a point of (x, z) is admissible only if some y fits
    between.  Sampling y with x and z (and keeping both constraints) keeps every point
    admissible; dropping the constraints would admit z < x.
    """
    closure = set(symbols)
    changed = True
    while changed:
        changed = False
        for c in conditions:
            free = set(c.free_symbols)
            if free & closure and not free <= closure and free <= set(hypotheses):
                closure |= free
                changed = True
    return closure


def conditions_on(symbols, conditions) -> tuple:
    """The conditions that speak of the given symbols only."""
    symbols = set(symbols)
    return tuple(c for c in conditions if set(c.free_symbols) <= symbols)


def satisfied(conditions, point) -> bool:
    for cond in conditions:
        value = cond.xreplace(point)
        if value is sp.true or value is True:
            continue
        if value is sp.false or value is False:
            return False
        try:
            value = sp.simplify(value)
        except Exception:  # noqa: BLE001 - an undecidable condition rejects the point
            return False
        if value is not sp.true:
            return False
    return True


def sample_points(symbols, hypotheses: dict, conditions=(), *, count: int = 24,
                  seed: int = 0, max_tries: int = 4000) -> list[dict]:
    """Up to ``count`` points (dicts Symbol -> exact value) satisfying ``conditions``.

    Boundary combinations come first (at most ``count // 2``), then seeded
    interior points; duplicates are dropped.
    """
    symbols = sorted(symbols, key=lambda s: s.name)
    if not symbols:
        return [{}]
    rng = random.Random(seed)
    per = {s: candidates(hypotheses[s], rng, max_tries) for s in symbols}
    points, seen = [], set()

    def offer(point):
        key = tuple(point[s] for s in symbols)
        if key in seen:
            return
        seen.add(key)
        if satisfied(conditions, point):
            points.append(point)

    edge_lists = [per[s][0] or per[s][1][:3] for s in symbols]
    for combo in itertools.islice(itertools.product(*edge_lists), 4 * count):
        if len(points) >= max(1, count // 2):
            break
        offer(dict(zip(symbols, combo)))
    tries = 0
    while len(points) < count and tries < max_tries:
        tries += 1
        point = {}
        for s in symbols:
            edges, interior = per[s]
            pool = interior if (interior and rng.random() < 0.8) else (edges or interior)
            point[s] = rng.choice(pool)
        offer(point)
    return points
