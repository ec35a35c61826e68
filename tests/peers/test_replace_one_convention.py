"""Issue #31, D7: a dp_accounting GaussianDpEvent under REPLACE_ONE is a shift of +-1 each way
(dp_event.py: records of norm <= C move the sum by up to 2C), as dp_accounting's PLD accountant
reads it; pinned against that accountant."""

import pytest

import symdp
from symdp.core.errors import InvalidParameterError

dpa = pytest.importorskip("dp_accounting")
from dp_accounting.pld import pld_privacy_accountant  # noqa: E402

EVENT = dpa.ComposedDpEvent([dpa.GaussianDpEvent(3.0), dpa.RandomizedResponseDpEvent(0.5, 2)])


def test_replace_one_follows_dp_accountings_pld():
    acc = pld_privacy_accountant.PLDAccountant(dpa.NeighboringRelation.REPLACE_ONE)
    acc.compose(EVENT)
    peer = acc.get_epsilon(1e-5)                    # 3.8063 (connect-the-dots, h = 1e-4)
    b = symdp.account(EVENT, delta="1e-5", precision=0, neighboring_relation=dpa.NeighboringRelation.REPLACE_ONE)
    assert float(b.lo) - 1e-3 <= peer <= float(b.hi) + 1e-3
    # the distance-1 reading (symdp.events.Gaussian(3)) is far from it: 2.3461
    assert float(b.lo) > 3.5


def test_without_the_relation_it_is_refused_by_name():
    with pytest.raises(InvalidParameterError, match="ambiguous.*neighboring_relation"):
        symdp.account(EVENT, delta="1e-5")
    # a relation dp_accounting refuses for the same tree is refused too
    with pytest.raises(InvalidParameterError, match="replace-one"):
        symdp.account(EVENT, delta="1e-5", neighboring_relation="ADD_OR_REMOVE_ONE")
