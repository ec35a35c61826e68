r"""symdp.plotting.tradeoff: sampled curves against hand formulas, labels in the papers'
notation, and the axes a figure is drawn on.

f_{eps,delta}(a) = max(0, 1 - delta - e^eps a, e^{-eps}(1 - delta - a)) (DRS Eq. 5), kinks at
a = (1 - delta)/(1 + e^eps) and a = 1 - delta; G_mu(a) = Phi(Phi^{-1}(1 - a) - mu) with
statistics.NormalDist as the independent Phi.
"""

import math
from statistics import NormalDist

import pytest

pytest.importorskip("matplotlib")

from symdp import EpsDelta, Gaussian, subsample  # noqa: E402
from symdp.plotting._mpl import new_figure  # noqa: E402
from symdp.plotting.tradeoff import (ALPHA_LABEL, BETA_LABEL, curve, plot_curves,  # noqa: E402
                                     tradeoff_label)
from symdp.tradeoff.operators import Inverse  # noqa: E402

N = NormalDist()


def _f_eps_delta(a, eps=1.0, delta=0.1):
    return max(0.0, 1 - delta - math.exp(eps) * a, math.exp(-eps) * (1 - delta - a))


def _gauss(a, mu):
    if a <= 0:
        return 1.0
    if a >= 1:
        return 0.0
    return N.cdf(N.inv_cdf(1 - a) - mu)


def test_eps_delta_curve_matches_the_hand_formula_and_hits_the_kinks():
    xs, ys = curve(EpsDelta(1, "0.1"), 21)
    assert xs == sorted(xs) and xs[0] == 0 and xs[-1] == 1
    for x, y in zip(xs, ys):
        assert abs(y - _f_eps_delta(x)) < 1e-12
    kink = 0.9 / (1 + math.e)
    assert any(abs(x - kink) < 1e-15 for x in xs)       # piece ends are sampled
    assert any(abs(x - 0.9) < 1e-15 for x in xs)


def test_gaussian_curve_and_its_inverse():
    xs, ys = curve(Gaussian(1), 41)
    for x, y in zip(xs, ys):
        assert abs(y - _gauss(x, 1)) < 1e-9
    # G_mu is symmetric: the reflected graph of the inverse lies on G_mu again
    ixs, iys = curve(Inverse(Gaussian(1)), 41)
    assert ixs == sorted(ixs)
    for x, y in zip(ixs, iys):
        assert abs(y - _gauss(x, 1)) < 1e-9


def test_curve_needs_two_points():
    with pytest.raises(ValueError):
        curve(Gaussian(1), 1)


def test_labels_in_the_papers_notation():
    assert tradeoff_label(Gaussian(1)) == r"$G_{\mu}$, $\mu=1$"
    assert tradeoff_label(EpsDelta(1, "0.05")) == \
        r"$f_{\varepsilon,\delta}$, $\varepsilon=1$, $\delta=0.05$"
    C = subsample(Gaussian(1), "0.2")
    assert tradeoff_label(C, short=True) == r"$C_p(f)$, $p=0.2$"
    assert tradeoff_label(C) == r"$C_p(G_{\mu})$, $p=0.2$, $\mu=1$"
    assert tradeoff_label(Gaussian(1).mix("0.5"), short=True) == r"$f_p$, $p=0.5$"


def test_plot_curves_draws_each_curve_and_the_diagonal():
    fig, ax = new_figure()
    plot_curves(ax, [("a", Gaussian(1)), ("b", EpsDelta(1, "0.1"))], points=11)
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels[:2] == ["a", "b"] and "perfect privacy" in labels[2]
    assert ax.get_xlabel() == ALPHA_LABEL and ax.get_ylabel() == BETA_LABEL
    assert ax.get_xlim() == (0, 1) and ax.get_ylim() == (0, 1)
    # the drawn data of the diagonal is 1 - alpha
    dx, dy = ax.get_lines()[2].get_data()
    assert list(dx) == [0, 1] and list(dy) == [1, 0]
