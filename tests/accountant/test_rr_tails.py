"""The one randomized-response pair (``pairs.RandomizedResponse``: the eps0 form and the k-ary
rho form, both the atoms of ``symdp.events.RandomizedResponse``) against enumeration of the
outcomes (issue #23)."""

import math
from fractions import Fraction

import pytest
from flint import arb

from symdp.accountant.pairs import RandomizedResponse
from symdp.events import RandomizedResponse as RandomizedResponseEvent


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
    a, b = RandomizedResponse.kary(rho, k).tails(arb(y))
    ea, eb = _enumerated([float(x) for x in P], [float(x) for x in Q], float(Fraction(y)))
    assert abs(float(a.mid()) - ea) < 1e-15 and abs(float(b.mid()) - eb) < 1e-15


def test_binary_rr_by_enumeration_and_one_class():
    # RandomizedResponse(eps0): keep = r = e^eps0/(1 + e^eps0), other = 1 - r, no third outcome
    e = arb(1) / 2
    r = e.exp() / (1 + e.exp())
    for y in ("-1", "-1/4", "0", "1/4", "1"):
        got = RandomizedResponse("0.5").tails(arb(y))
        P, Q = [float(r.mid()), 1 - float(r.mid())], [1 - float(r.mid()), float(r.mid())]
        ea, eb = _enumerated(P, Q, float(Fraction(y)))
        assert abs(float(got[0].mid()) - ea) < 1e-15 and abs(float(got[1].mid()) - eb) < 1e-15
    # the two forms are one class, the eps0 form a constructor of the same event kind
    assert type(RandomizedResponse("0.5")) is type(RandomizedResponse.kary("1/3", 3))
    assert RandomizedResponse("0.5").event == RandomizedResponseEvent.binary("0.5")
    assert RandomizedResponse.of(RandomizedResponseEvent("1/3", 3)) == RandomizedResponse.kary("1/3", 3)
