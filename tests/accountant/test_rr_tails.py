"""The one randomized-response tail formula against enumeration of the outcomes (issue #23)."""

import math
from fractions import Fraction

import pytest
from flint import arb

from symdp.accountant.pairs import RandomizedResponse, randomized_response_tails
from symdp.accountant.sampled import KaryRandomizedResponse


def _enumerated(P, Q, y):
    # outcomes with their loss log(P/Q); tails by summing over outcomes with loss >= y
    losses = [math.log(p / q) for p, q in zip(P, Q)]
    return (sum(p for p, l in zip(P, losses) if l >= y), sum(q for q, l in zip(Q, losses) if l >= y))


@pytest.mark.parametrize("rho,k", [(Fraction(1, 3), 3), (Fraction(1, 2), 2), (Fraction(2, 5), 5)])
@pytest.mark.parametrize("y", ["-3", "-1/2", "0", "1/3", "3"])
def test_kary_tails_by_enumeration(rho, k, y):
    keep, other = 1 - rho + rho / k, rho / k
    P = [keep, other] + [other] * (k - 2)
    Q = [other, keep] + [other] * (k - 2)
    a, b = KaryRandomizedResponse(rho, k).tails(arb(y))
    ea, eb = _enumerated([float(x) for x in P], [float(x) for x in Q], float(Fraction(y)))
    assert abs(float(a.mid()) - ea) < 1e-15 and abs(float(b.mid()) - eb) < 1e-15


def test_binary_rr_is_the_k2_case():
    # RandomizedResponse(eps0) is the formula at keep = r, other = 1 - r, mid = 0
    e = arb(1) / 2
    r = e.exp() / (1 + e.exp())
    for y in ("-1", "-1/4", "0", "1/4", "1"):
        got = RandomizedResponse("0.5").tails(arb(y))
        ref = randomized_response_tails(arb(y), r, 1 - r, arb(0), e)
        assert all(g.overlaps(x) for g, x in zip(got, ref))
        P, Q = [float(r.mid()), 1 - float(r.mid())], [1 - float(r.mid()), float(r.mid())]
        ea, eb = _enumerated(P, Q, float(Fraction(y)))
        assert abs(float(got[0].mid()) - ea) < 1e-15 and abs(float(got[1].mid()) - eb) < 1e-15
