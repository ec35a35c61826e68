"""Certified trade-off curves (``symdp.tradeoff_curve``, ``symdp tradeoff``; issue #31) against
exact curves: G_mu's closed form Phi(Phi^-1(1 - alpha) - mu), Kairouz-Oh-Viswanath's
f_(eps,delta)^(x)T and randomized response by enumerating the composed atoms at 40 digits
(the Neyman-Pearson test on the atoms, written here from the definition), and mutants of the
bound (a rounding in the wrong direction, the intervals between nodes dropped, the tails of
the line dropped) that these references catch."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest

import symdp
from symdp.accountant import FFTGrid
from symdp.accountant.certify import compose_direction, support_bound
from symdp.accountant.curve import Profile, bracket, estimated_argmax, tradeoff_curve
from symdp.accountant.events import phases_of
from symdp.cli.main import main
from symdp.core.errors import InvalidParameterError
from symdp.events import (EpsDelta, Gaussian, PoissonSampled, RandomizedResponse, SelfComposed,
                          TradeOffFunction)

from exact_references import DPS, composed_atoms, delta_of_atoms, poisson_pair, rr_atoms  # noqa: I001

GOAL = Fraction(1, 10 ** 4)        # the goal: width <= 1e-4 relative to 1 - beta


def exact_tradeoff(atoms, alpha) -> mpmath.mpf:
    r"""f(α) = inf{P(S^c) : Q(S) <= α} of a finite pair (Neyman-Pearson: reject on the largest
    likelihood ratios first, the last atom in part)."""
    with mpmath.workdps(DPS):
        a = mpmath.mpf(Fraction(alpha).numerator) / Fraction(alpha).denominator
        cum_q = cum_p = mpmath.mpf(0)
        for loss, p, q in sorted(atoms, key=lambda t: t[0], reverse=True):
            if cum_q + q <= a:
                cum_q, cum_p = cum_q + q, cum_p + p
            else:
                cum_p += (a - cum_q) / q * p
                break
        return 1 - cum_p


def gauss_tradeoff(mu, alpha) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        a = mpmath.mpf(Fraction(alpha).numerator) / Fraction(alpha).denominator
        return mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1) - mpmath.mpf(mu))


def mp(x: Fraction) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        return mpmath.mpf(x.numerator) / x.denominator


def check(point, exact):
    """beta_lo <= exact <= beta_hi, compared at 40 digits (the ends can be that close)."""
    assert point.beta_lo >= 0 and point.beta_hi <= 1 - point.alpha
    with mpmath.workdps(DPS):
        assert mp(point.beta_lo) <= exact <= mp(point.beta_hi), (point, exact)


def rel_width(point):
    return (point.beta_hi - point.beta_lo) / max(1 - point.beta_hi, Fraction(1, 10 ** 30))


# ----------------------------------------------------------------------------- G_mu

ALPHAS = ["1e-6", "0.001", "0.05", "0.5", "0.95"]


@pytest.fixture(scope="module")
def gaussian_composed():
    """G_1.5 = (G_0.5)^(x)9 composed on the grid (not by its closed form): the generic route."""
    phases = phases_of(SelfComposed(Gaussian(2), 9))
    return compose_direction(phases, 0, FFTGrid(h_exp=13), None, ("eps", 1.0))


@pytest.mark.parametrize("alpha", ALPHAS)
def test_grid_route_contains_g_mu(alpha, gaussian_composed):
    prof = Profile([gaussian_composed], [None])
    p = bracket(prof, Fraction(alpha))
    check(p, gauss_tradeoff("1.5", alpha))
    assert rel_width(p) <= GOAL


def test_closed_form_route_is_g_mu_itself():
    c = tradeoff_curve(SelfComposed(Gaussian(2), 9), ALPHAS)
    for p in c.curves["curve"].points:
        check(p, gauss_tradeoff("1.5", p.alpha))
        assert rel_width(p) <= Fraction(1, 10 ** 12)
    # the implied mu at these alphas is 1.5; the least error sum 2 Phi(-mu/2) (delta(0) of G_mu)
    assert c.mu[0] <= Fraction(3, 2) <= c.mu[1] and c.mu[1] - c.mu[0] < Fraction(1, 10 ** 9)
    with mpmath.workdps(DPS):
        least = 2 * mpmath.ncdf(-mpmath.mpf("0.75"))
    assert float(c.error_sum[0]) <= least <= float(c.error_sum[1])


# ----------------------------------------------------------------------------- exact finite pairs

def test_kov_eps_delta_composed():
    """f_(1/3, 1/1000)^(x)6 (losses at multiples of 1/3: never grid nodes)."""
    eps0, d0 = Fraction(1, 3), Fraction(1, 1000)
    with mpmath.workdps(DPS):
        E = mpmath.exp(mpmath.mpf(1) / 3)
        r = E / (1 + E)
        d = mpmath.mpf(1) / 1000
        step = [(mpmath.inf, d, mpmath.mpf(0)), (mpmath.mpf(1) / 3, (1 - d) * r, (1 - d) * (1 - r)),
                (-mpmath.mpf(1) / 3, (1 - d) * (1 - r), (1 - d) * r), (-mpmath.inf, mpmath.mpf(0), d)]
    atoms = composed_atoms(step, 6)
    alphas = ["1e-4", "0.01", "0.2", "0.7", "0.999"]
    c = tradeoff_curve(SelfComposed(EpsDelta(eps0, d0), 6), alphas)
    for p in c.curves["curve"].points:
        check(p, exact_tradeoff(atoms, p.alpha))
        assert rel_width(p) <= GOAL
    assert float(c.error_sum[0]) <= 1 - delta_of_atoms(atoms, 0) <= float(c.error_sum[1])


def test_randomized_response_enumerated():
    atoms = composed_atoms(rr_atoms("0.3", 3), 5)
    c = tradeoff_curve(SelfComposed(RandomizedResponse("0.3", 3), 5), ["1e-3", "0.1", "0.4", "0.8"])
    for p in c.curves["curve"].points:
        check(p, exact_tradeoff(atoms, p.alpha))
        assert rel_width(p) <= GOAL


def test_poisson_sampled_rr_both_directions_and_their_symmetrisation():
    """Poisson sampling (q = 0.1) of RR(0.5, 3), 10 steps: remove and add against their exact
    curves; the symmetrisation min(f_r, f_a)** lies below both, and above the exact
    1 - max(delta_r, delta_a)(eps) - e^eps alpha at every eps (Prop. 2.12)."""
    step = rr_atoms("0.5", 3)
    dirs = {d: composed_atoms(poisson_pair(step, "0.1", d), 10) for d in ("remove", "add")}
    alphas = ["1e-3", "0.05", "0.3", "0.6"]
    c = tradeoff_curve(SelfComposed(PoissonSampled(RandomizedResponse("0.5", 3), "0.1"), 10), alphas)
    assert set(c.curves) == {"remove", "add", "symmetrised"}
    for d in ("remove", "add"):
        for p in c.curves[d].points:
            check(p, exact_tradeoff(dirs[d], p.alpha))
            assert rel_width(p) <= GOAL
    for p in c.curves["symmetrised"].points:
        with mpmath.workdps(DPS):
            a = mpmath.mpf(p.alpha.numerator) / p.alpha.denominator
            upper = min(exact_tradeoff(dirs[d], p.alpha) for d in dirs)
            lower = max(1 - max(delta_of_atoms(dirs[d], e) for d in dirs) - mpmath.exp(e) * a
                        for e in [mpmath.mpf(i) / 100 for i in range(-200, 200)])
        assert float(p.beta_lo) <= upper and lower <= float(p.beta_hi)


def test_trivial_alphas_and_invariants():
    c = tradeoff_curve(SelfComposed(EpsDelta(1, "0.01"), 2), [0, 1, "0.5"])
    p0, p1, _ = c.curves["curve"].points
    # f(0) = 1 - P(L = +oo) = (1 - 0.01)^2 exactly (the loss is bounded: delta = M beyond it)
    assert p0.beta_lo == p0.beta_hi == Fraction(99, 100) ** 2
    assert p1.beta_lo == p1.beta_hi == 0


# ----------------------------------------------------------------------------- mutants

def test_mutant_lower_end_from_delta_lo_is_caught_by_g_mu(gaussian_composed):
    alpha = Fraction(1, 20)
    exact = gauss_tradeoff("1.5", alpha)
    check(bracket(Profile([gaussian_composed], [None]), alpha), exact)      # the control holds
    bad = bracket(Profile([gaussian_composed], [None]), alpha, mutate="lower-from-delta-lo")
    with mpmath.workdps(DPS):
        assert mp(bad.beta_lo) > exact


def _kov_profile():
    eps0, d0 = Fraction(1, 3), Fraction(1, 1000)
    phases = phases_of(SelfComposed(EpsDelta(eps0, d0), 6))
    c = compose_direction(phases, 0, FFTGrid(h_exp=14), None, ("eps", 0.5))
    with mpmath.workdps(DPS):
        E = mpmath.exp(mpmath.mpf(1) / 3)
        r, d = E / (1 + E), mpmath.mpf(1) / 1000
        step = [(mpmath.inf, d, mpmath.mpf(0)), (mpmath.mpf(1) / 3, (1 - d) * r, (1 - d) * (1 - r)),
                (-mpmath.mpf(1) / 3, (1 - d) * (1 - r), (1 - d) * r), (-mpmath.inf, mpmath.mpf(0), d)]
    return (lambda: Profile([c], [support_bound(phases, 0)])), composed_atoms(step, 6)


def test_mutant_nodes_only_is_caught_by_kov():
    """The supremum of 1 - delta(eps) - e^eps alpha sits at a loss k/3 (a kink), never a dyadic
    node: reading the upper end at the nodes alone misses it."""
    make, atoms = _kov_profile()
    alpha = Fraction(1, 100)
    exact = exact_tradeoff(atoms, alpha)
    check(bracket(make(), alpha), exact)
    bad = bracket(make(), alpha, mutate="nodes-only")
    with mpmath.workdps(DPS):
        assert mp(bad.beta_hi) < exact


def test_mutant_dropped_tails_is_caught_with_a_wrong_hint():
    """Any hint gives a valid bracket (it only says where to look first); covering only the
    hint's neighbourhood does not."""
    make, atoms = _kov_profile()
    alpha = Fraction(1, 100)
    exact = exact_tradeoff(atoms, alpha)
    good_hint = estimated_argmax(make(), float(alpha))
    check(bracket(make(), alpha, good_hint + 3), exact)
    bad = bracket(make(), alpha, good_hint + 3, mutate="local-only")
    with mpmath.workdps(DPS):
        assert mp(bad.beta_hi) < exact


# ----------------------------------------------------------------------------- API and CLI

def test_bad_input_is_refused_by_name():
    ev = SelfComposed(Gaussian(2), 2)
    for alphas, word in (([], "non-empty"), (["2"], r"alphas\[0\]"), ([float("nan")], r"alphas\[0\]"),
                         (list(range(201)), "at most 200")):
        with pytest.raises(InvalidParameterError, match=word):
            tradeoff_curve(ev, alphas)
    with pytest.raises(InvalidParameterError, match="event must be"):
        tradeoff_curve("gaussian", ["0.1"])
    with pytest.raises(InvalidParameterError, match="precision"):
        tradeoff_curve(ev, ["0.1"], precision=7)
    from symdp.core.symbols import alpha
    with pytest.raises(InvalidParameterError, match="dominating pair"):
        tradeoff_curve(TradeOffFunction(1 - alpha), ["0.1"])


def test_cli_json_and_errors(tmp_path, capsys):
    f = tmp_path / "event.json"
    f.write_text('{"kind": "self_composed", "count": 3, "event": {"kind": "randomized_response", '
                 '"noise_parameter": "0.5", "num_buckets": 2}}')
    code = main(["tradeoff", "--event", str(f), "--alpha", "0.01", "0.3", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rec = json.loads(out)
    assert rec["schema"] == "symdp-tradeoff/1" and rec["certified"] is True
    atoms = composed_atoms(rr_atoms("0.5", 2), 3)
    for pt in rec["curves"]["curve"]["points"]:
        lo, hi = Fraction(pt["beta"]["lower"]["value"]), Fraction(pt["beta"]["upper"]["value"])
        exact = exact_tradeoff(atoms, Fraction(pt["alpha"]))
        assert float(lo) <= exact <= float(hi)
        assert Fraction(pt["tpr"]["lower"]["value"]) <= 1 - hi + Fraction(1, 10 ** 14)
    for argv, word in ((["--alpha", "2"], "--alpha must be in [0, 1]"),
                       (["--alpha", "x"], "--alpha"),
                       (["--sigma", "1"], "--event replaces")):
        code = main(["tradeoff", "--event", str(f), *argv])
        _, err = capsys.readouterr()
        assert code == 2 and word in err and len(err.strip().splitlines()) == 1


def test_tradeoff_curve_takes_a_dp_accounting_event():
    dpa = pytest.importorskip("dp_accounting")
    c = symdp.tradeoff_curve(dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(2.0), 9), ["0.05"])
    check(c.curves["curve"].points[0], gauss_tradeoff("1.5", "0.05"))


def test_plot_tradeoff_event_draws_the_band(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    f = tmp_path / "event.json"
    f.write_text('{"kind": "self_composed", "count": 4, "event": {"kind": "gaussian", "sigma": "2"}}')
    out = tmp_path / "band.png"
    code = main(["plot", "tradeoff", "--event", str(f), "--points", "6", "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code = main(["plot", "tradeoff", "--event", str(f), "--points", "1000", "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 2 and "--points must be in [4, 200]" in err
