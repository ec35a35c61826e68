"""Independent route for tests: product distributions written out atom by atom, and the
hockey-stick divergence sum_w (Q(w) - e^t P(w))_+ straight from its definition."""

import itertools

import mpmath


def eps_delta_pair(eps, delta):
    """(P, Q) of f_{eps,delta} on four points (Kairouz-Oh-Viswanath 2015, Sec. 3), as mpf lists."""
    E = mpmath.exp(eps)
    P = [delta, (1 - delta) * E / (1 + E), (1 - delta) / (1 + E), mpmath.mpf(0)]
    return P, P[::-1]


def product(pairs):
    """Atoms (P(w), Q(w)) of the product of the pairs, one per tuple of coordinates."""
    atoms = []
    for combo in itertools.product(*[range(len(P)) for P, _ in pairs]):
        p = q = mpmath.mpf(1)
        for (P, Q), i in zip(pairs, combo):
            p *= P[i]
            q *= Q[i]
        atoms.append((p, q))
    return atoms


def hockey_stick(atoms, t):
    e = mpmath.exp(t)
    return mpmath.fsum(max(q - e * p, 0) for p, q in atoms)


def neyman_pearson(atoms, a):
    """T(P, Q)(a): reject in decreasing order of q/p (q/p = inf first), the last atom in part."""
    order = sorted(atoms, key=lambda pq: -(mpmath.inf if pq[0] == 0 else pq[1] / pq[0]))
    used, power = mpmath.mpf(0), mpmath.mpf(0)
    for p, q in order:
        if p == 0:
            power += q
            continue
        if used + p >= a:
            return 1 - power - q * (a - used) / p
        used += p
        power += q
    return 1 - power
