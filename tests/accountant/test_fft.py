"""The FFT engine (symdp.accountant.fft, docs/accountant.md §3F) against independent references.

References are those of test_accountant_bracket (never the accountant's output): G_mu
compositions in closed form (Dong-Roth-Su 2022, Cor. 2.13 and Cor. 3.3), randomized response by
exact enumeration, the Poisson-subsampled Gaussian at T = 1, 2 by mpmath quadrature, C_p(G_1) by
symdp's closed form; at T = 1000 the exact-integer engine (a different algorithm: FLINT products,
no floating point) and dp_accounting's optimistic/pessimistic pair.  Also the pieces of the
error argument (the FFT bound, the geometric weights, the Chernoff wrap-around bound) against
direct computations, and mutants that the references must catch."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from symdp.accountant import Gaussian, PoissonGaussian, RandomizedResponse, UniformGaussian
from symdp.accountant import fft as F
from symdp.accountant.certify import Phase, certified_epsilon, compose, delta_bounds, poisson_gaussian

from test_accountant_bracket import gdp_delta, mixture_delta_quadrature, mpf, rr_delta

GRID = F.FFTGrid(h_exp=10)


def bracket(pairs_steps, eps, grid=GRID, target=None):
    phases = [Phase((pair,), steps) for pair, steps in pairs_steps]
    lo, hi = delta_bounds(compose(phases, grid, None, target or ("eps", float(eps))), Fraction(eps))
    return mpf(lo), mpf(hi)


@pytest.mark.parametrize("mu,T", [("0.5", 1), ("0.2", 25), ("0.05", 1000)])
@pytest.mark.parametrize("eps", ["0", "0.5", "1.5"])
def test_gaussian_composition_is_exact_gdp(mu, T, eps):
    with mpmath.workdps(50):
        lo, hi = bracket([(Gaussian(mu), T)], eps)
        exact = gdp_delta(mpmath.sqrt(T) * mpmath.mpf(mu), mpf(eps))
        assert lo <= exact <= hi
        assert hi - lo < 1e-3 * exact + 1e-12


def test_phases_of_gaussians_compose_to_gdp():
    with mpmath.workdps(50):
        lo, hi = bracket([(Gaussian("0.3"), 4), (Gaussian("0.1"), 20)], "0.7")
        exact = gdp_delta(mpmath.sqrt(mpmath.mpf("0.56")), mpmath.mpf("0.7"))
        assert lo <= exact <= hi


def test_a_tilt_far_from_the_query_still_brackets():
    """The tilt only steers accuracy: aimed at eps = 3, queried at eps = 0, the bracket holds."""
    with mpmath.workdps(50):
        lo, hi = bracket([(Gaussian("0.2"), 25)], "0", target=("eps", 3.0))
        assert lo <= gdp_delta(1, 0) <= hi


@pytest.mark.parametrize("eps0,T,eps", [("0.5", 1, "0.25"), ("0.5", 10, "1"), ("0.3", 7, "0.4"),
                                        ("1", 30, "3")])
def test_randomized_response_by_enumeration(eps0, T, eps):
    with mpmath.workdps(80):
        lo, hi = bracket([(RandomizedResponse(eps0), T)], eps)
        assert lo <= rr_delta(eps0, T, eps) <= hi


@pytest.mark.parametrize("direction", ["remove", "add"])
def test_poisson_one_step_by_quadrature(direction):
    with mpmath.workdps(50):
        lo, hi = bracket([(PoissonGaussian(1, "0.1", direction), 1)], "0.05")
        assert lo <= mixture_delta_quadrature(1, "0.1", "0.05", direction) <= hi


def test_poisson_two_steps_agree_with_the_exact_engine():
    """T = 2 against the exact-integer engine, whose bracket contains the quadrature value
    (test_accountant_bracket): the two brackets overlap."""
    from test_accountant_bracket import FAST, bracket as exact_bracket
    lo, hi = bracket([(PoissonGaussian(1, "0.2", "remove"), 2)], "0.3")
    elo, ehi = exact_bracket([(PoissonGaussian(1, "0.2", "remove"), 2)], "0.3", FAST)
    assert max(lo, elo) <= min(hi, ehi)


@pytest.mark.parametrize("eps", ["0", "0.3"])
def test_uniform_one_step_against_cp_profile(eps):
    import sympy as sp

    from symdp import Gaussian as G
    from symdp.subsampling import subsample

    C = subsample(G(1), sp.Rational(1, 5))
    profile = C.privacy_profile(sp.Symbol("varepsilon", nonnegative=True))
    with mpmath.workdps(50):
        exact = mpmath.mpf(str(sp.N(profile.subs(profile.free_symbols.pop(), sp.Rational(eps)), 50)))
        lo, hi = bracket([(UniformGaussian(1, "0.2"), 1)], eps)
        assert lo <= exact <= hi


def test_issue_case_against_the_exact_engine_and_dp_accounting():
    """sigma = 1, q = 0.01, T = 1000, delta = 1e-5 (Poisson): the FFT bracket overlaps the exact
    engine's (precision 0) and lies inside dp_accounting's [optimistic, pessimistic] at h = 1e-4."""
    ph = poisson_gaussian(1, "0.01", 1000)
    b = certified_epsilon(ph, "1e-5", precision=1)
    e = certified_epsilon(ph, "1e-5", precision=0, engine="exact")
    assert max(b.lo, e.lo) <= min(b.hi, e.hi)
    assert b.hi - b.lo < Fraction(1, 10 ** 4)
    pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    pes = pld.from_gaussian_mechanism(1.0, sampling_prob=0.01, value_discretization_interval=1e-4,
                                      pessimistic_estimate=True, use_connect_dots=False)
    opt = pld.from_gaussian_mechanism(1.0, sampling_prob=0.01, value_discretization_interval=1e-4,
                                      pessimistic_estimate=False)
    assert opt.self_compose(1000).get_epsilon_for_delta(1e-5) <= float(b.lo)
    assert float(b.hi) <= pes.self_compose(1000).get_epsilon_for_delta(1e-5)


def test_certified_delta_at_large_T_is_narrow_and_inside_dp_accountings_pair():
    """sigma = 1, q = 0.01, T = 20000, eps = 8: with the tilt from the coarse cells' midpoints
    (biased by T half-cells) the bracket was [1.4e-4, 1]; the tilt from the cells' likelihood
    ratios and the node tilt picked on a coarse grid give a relative width below 1e-4 (6e-5
    measured), inside dp_accounting's [optimistic, pessimistic] delta at h = 1e-4."""
    from symdp.accountant import certified_delta

    b = certified_delta(poisson_gaussian(1, "0.01", 20000), 8)
    assert 0 < b.hi - b.lo < Fraction(1, 10 ** 4) * b.hi
    pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    pes = pld.from_gaussian_mechanism(1.0, sampling_prob=0.01, value_discretization_interval=1e-4,
                                      pessimistic_estimate=True, use_connect_dots=False)
    opt = pld.from_gaussian_mechanism(1.0, sampling_prob=0.01, value_discretization_interval=1e-4,
                                      pessimistic_estimate=False)
    assert opt.self_compose(20000).get_delta_for_epsilon(8) <= float(b.lo)
    assert float(b.hi) <= pes.self_compose(20000).get_delta_for_epsilon(8)


# ----------------------------------------------------------------- the pieces of the argument

@pytest.mark.parametrize("N", [2, 16, 128])
def test_fft_matches_the_dft_within_its_bound(N):
    """Against a 30-digit mpmath DFT of the same float input (Higham's bound, Thm 24.2)."""
    rng = np.random.default_rng(N)
    x = rng.random(N) + 1j * rng.random(N)
    with mpmath.workdps(30):
        w = [mpmath.exp(-2j * mpmath.pi * j / N) for j in range(N)]
        dft = [mpmath.fsum(mpmath.mpc(x[j]) * w[(j * k) % N] for j in range(N)) for k in range(N)]
        got = F.fft(x)
        err = mpmath.sqrt(mpmath.fsum(abs(mpmath.mpc(got[k]) - dft[k]) ** 2 for k in range(N)))
        norm = mpmath.sqrt(mpmath.fsum(abs(v) ** 2 for v in dft))
        assert err <= F.fft_error_factor(N) * norm
    assert np.allclose(F.fft(F.fft(x), inverse=True) / N, x)


def test_geometric_weights_within_their_bound():
    w, rel = F.geometric(Fraction(-3, 2), Fraction(1, 1024), -50, 3000)
    with mpmath.workdps(40):
        worst = max(abs(mpmath.mpf(w[j]) / mpmath.exp(mpmath.mpf(-3) / 2 * (j - 50) / 1024) - 1)
                    for j in range(0, 3000, 7))
    assert worst <= rel < 1e-11


def test_tail_bound_is_above_the_exact_tail():
    """Binomial(20, 1/2) as 20 steps of a fair coin on {0, 1}: P(S >= 15), P(S < 5) exactly."""
    k, x = np.array([0, 1]), np.array([0.5, 0.5])
    with mpmath.workdps(30):
        upper = sum(mpmath.binomial(20, i) for i in range(15, 21)) / mpmath.mpf(2) ** 20
    assert upper <= float(F.tail_bound([(k, x, 20)], 0, 15, True).upper().mid()) * (1 + 1e-12)
    assert F.tail_bound([(k, x, 20)], 0, 21, True) == 0          # beyond the support: exactly 0
    assert upper <= float(F.tail_bound([(k, x, 20)], 0, 5, False).upper().mid()) * (1 + 1e-12)


# ----------------------------------------------------------------- mutants

def gaussian_bracket(mutate, cells=None):
    grid = F.FFTGrid(h_exp=8, mutate=mutate, cells=cells)
    return bracket([(Gaussian("0.1"), 100)], "1", grid)


def test_a_grid_shifted_down_is_caught():
    with mpmath.workdps(50):
        exact = gdp_delta(1, 1)
        lo, hi = gaussian_bracket(None)
        assert lo <= exact <= hi
        assert gaussian_bracket("upper-shift-down")[1] < exact


def test_a_short_fft_still_brackets():
    """An FFT far too short for the composition (forced, 4 standard deviations): the Chernoff
    bound on the wrapped-around mass keeps the bracket valid (just wide)."""
    with mpmath.workdps(50):
        exact = gdp_delta(1, 1)
        for cells in (1024, 2048):
            lo, hi = gaussian_bracket(None, cells=cells)
            assert lo <= exact <= hi


@pytest.mark.parametrize("phases", [
    [(2, "0.1", 30)], [("0.7", "0.05", 50)], [(5, "0.3", 100)], [(1, "0.02", 200), (2, "0.1", 50)],
])
def test_sweep_against_the_exact_engine(phases):
    """Poisson add/remove (both directions), single phases and a schedule: the FFT bracket on
    delta(eps) overlaps the exact-integer engine's (a different algorithm, no floating point)."""
    from symdp.accountant.certify import grid_for
    ph = [poisson_gaussian(s, q, T) for s, q, T in phases]
    fft_pairs = compose(ph, grid_for(0), None, ("eps", 1.0))
    exact_pairs = compose(ph, grid_for(0, engine="exact"))
    for eps in ("0.5", "2"):
        flo, fhi = delta_bounds(fft_pairs, Fraction(eps))
        elo, ehi = delta_bounds(exact_pairs, Fraction(eps))
        assert max(flo, elo) <= min(fhi, ehi), (phases, eps, flo, fhi, elo, ehi)


@pytest.mark.parametrize("pairs_steps", [
    [("epsdelta", 10)], [("laplace", 20)], [("cp_epsdelta", 20)], [("gauss", 3), ("laplace", 5)],
])
def test_other_pairs_against_the_exact_engine(pairs_steps):
    """f_(eps,delta) (an atom at +oo), Laplace (atoms at the ends), C_p of them, a mixed schedule."""
    from symdp.accountant import EpsDelta, Laplace, Subsampled
    from symdp.accountant.certify import grid_for
    make = {"epsdelta": lambda: EpsDelta("0.5", "0.001"), "laplace": lambda: Laplace("2"),
            "cp_epsdelta": lambda: Subsampled(EpsDelta(1, "0.01"), "0.1"), "gauss": lambda: Gaussian("0.5")}
    ph = [Phase((make[name](),), T) for name, T in pairs_steps]
    f = compose(ph, grid_for(0), None, ("eps", 1.0))
    e = compose(ph, grid_for(0, engine="exact"))
    for eps in ("0", "0.5", "1.5"):
        flo, fhi = delta_bounds(f, Fraction(eps))
        elo, ehi = delta_bounds(e, Fraction(eps))
        assert max(flo, elo) <= min(fhi, ehi), (pairs_steps, eps, flo, fhi, elo, ehi)
