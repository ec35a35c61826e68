r"""What follows from a pair (P, Q) whatever the mechanism, written once for every backend.

A mechanism module (``gaussian``, ``laplace``, ``eps_delta``, ``randomized_response``) gives
its pair by the **loss tails** :math:`A(y) = P(L \ge y)`, :math:`B(y) = Q(L \ge y)` of the
privacy loss :math:`L = \log(dP/dQ)` (P: the mechanism on the dataset with the record), or,
for a finite pair, by its **atoms** ``(loss, P-mass, Q-mass)``.  From them:

* the privacy profile :math:`H(e^y) = A(y) - e^y B(y)` (the Neyman--Pearson test rejects on
  :math:`\{L \ge y\}`; an atom at :math:`L = y` contributes :math:`P - e^y Q = 0`), the
  hockey-stick divergence :math:`\delta(\varepsilon)` at :math:`y = \varepsilon`
  (Dong-Roth-Su 2022, Prop. 2.12; Balle et al. 2018);
* the tails of a finite pair: the sums of the masses of the atoms with loss :math:`\ge y`.
"""

from __future__ import annotations


def profile_from_tails(ops, tails, eps):
    r""":math:`\delta(\varepsilon) = A(\varepsilon) - e^{\varepsilon} B(\varepsilon)` for the
    tails ``tails(eps) = (A, B)`` of a pair."""
    a, b = tails(eps)
    return a - ops.exp(eps) * b


def atom_tails(ops, atoms, y):
    r"""``(A(y), B(y))`` of a finite pair: the P- and Q-masses of the atoms with loss
    :math:`\ge y`.  ``atoms`` are ``(loss, p, q)`` with losses ``"+inf"`` / ``"-inf"`` for the
    outcomes only P / only Q can produce; for balls a node that cannot be told apart from a
    finite loss raises ``ArithmeticError`` (the grid nodes are never losses)."""
    above = []
    for loss, p, q in atoms:
        if loss in ("+inf", "-inf"):
            above.append(loss == "+inf")
        elif y <= loss:
            above.append(True)
        elif y > loss:
            above.append(False)
        else:
            raise ArithmeticError("grid node ball straddles a loss atom")
    finite = [up for (loss, _, _), up in zip(atoms, above) if loss not in ("+inf", "-inf")]
    if all(finite):
        # every outcome but those of loss -inf: 1 minus their mass (exactly 1 when there are none)
        one = ops.number(1)
        below = [(p, q) for (loss, p, q) in atoms if loss == "-inf"]
        return one - sum_of(ops, [p for p, _ in below]), one - sum_of(ops, [q for _, q in below])
    kept = [(p, q) for (p, q), up in zip(((p, q) for _, p, q in atoms), above) if up]
    return sum_of(ops, [p for p, _ in kept]), sum_of(ops, [q for _, q in kept])


def sum_of(ops, terms):
    """The sum of ``terms`` in the backend (the exact 0 when there are none)."""
    total = ops.number(0)
    for t in terms:
        total = total + t
    return total
