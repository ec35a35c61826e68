"""symdp against dp_accounting (google/differential-privacy), a peer no one here wrote.

For each quantity both compute, three numbers: symdp's (50 digits, from its closed forms),
the peer's (double precision), and a 50-digit reference from a third, independent route --
mpmath quadrature of the hockey-stick divergence for the Gaussian mechanisms, an exact finite
sum for the (eps, delta) mechanism.  Where the peer is exact up to rounding the two agree to
its double-precision accuracy; where the peer is pessimistic by design (the PLD accountant's
discretisation and tail truncation) the test asserts the direction, never equality; where
they differ (underflow), the reference says which is right.

Peer version: dp_accounting 0.6 (``pip install -e '.[peers]'``).
"""

import functools
import math

import mpmath
import pytest
import sympy as sp

dp_accounting = pytest.importorskip(
    "dp_accounting", reason="peer tests need dp_accounting: pip install -e '.[peers]'")
from dp_accounting import dp_event  # noqa: E402
from dp_accounting.pld import privacy_loss_distribution as pld  # noqa: E402
from dp_accounting.pld import privacy_loss_mechanism as plm  # noqa: E402
from dp_accounting.pld.pld_privacy_accountant import PLDAccountant  # noqa: E402

from symdp import EpsDelta, Gaussian, Laplace  # noqa: E402
from symdp.subsampling import subsample  # noqa: E402
from symdp.subsampling.eps_delta import lemma_4_4  # noqa: E402
from symdp.tradeoff import varepsilon  # noqa: E402
from symdp.tradeoff.numeric import decreasing_inverse, mp_callable  # noqa: E402

DPS = 50
#: the peer evaluates in doubles; its hockey-stick formula cancels two terms, losing up to
#: about 1e-12 relative when delta is far below 1 (measured: 9e-13 at delta = 1e-89)
PEER_RELATIVE = 2e-12


@functools.lru_cache(maxsize=None)
def _profile(f):
    """symdp's delta(eps) of f as a 50-digit function (closed form derived once per f)."""
    fn = mp_callable((varepsilon,), f.privacy_profile())

    def delta(eps):
        with mpmath.workdps(DPS + 20):   # 20 guard digits: the closed forms cancel (two Phi terms)
            value = fn(mpmath.mpf(eps))
        with mpmath.workdps(DPS):
            return +value
    return delta


def _hockey_stick_quad(upper, lower, eps, crossings):
    r""":math:`\int (u(x) - e^{\varepsilon} l(x))_+\,dx` by quadrature, split where the
    integrand changes sign (the ``crossings``), at 50 digits: independent of any closed form."""
    with mpmath.workdps(DPS + 10):
        w = mpmath.exp(mpmath.mpf(eps))
        points = [-mpmath.inf] + sorted(crossings) + [mpmath.inf]
        total = mpmath.mpf(0)
        for a, b in zip(points, points[1:]):
            mid = (a + b) / 2 if mpmath.isfinite(a + b) else (a + 1 if mpmath.isfinite(a) else b - 1)
            if upper(mid) > w * lower(mid):
                total += mpmath.quad(lambda x: upper(x) - w * lower(x), _subdivide(a, b))
        return +total


def _subdivide(a, b):
    """[a, b] cut at a +- 2^k / max(1, |a|) (k = -4..10) towards an infinite end: beyond a
    finite end far out, a Gaussian tail decays at rate |a|, so tanh-sinh needs nodes on that
    scale next to the end."""
    if mpmath.isfinite(a) and mpmath.isfinite(b):
        return [a, b]
    end, sign = (a, 1) if mpmath.isfinite(a) else (b, -1)
    scale = 1 / max(1, abs(end)) if mpmath.isfinite(end) else 1
    cuts = [end + sign * scale * mpmath.mpf(2) ** k for k in range(-4, 11)] if mpmath.isfinite(end) else []
    ordered = [end] + cuts + [sign * mpmath.inf]
    return ordered if sign > 0 else ordered[::-1]


def _gaussian_reference(mu, eps):
    r"""delta(eps) of N(mu, 1) vs N(0, 1) by quadrature of the hockey stick.

    The likelihood ratio exceeds :math:`e^\varepsilon` exactly for :math:`x > x^* =
    \varepsilon/\mu + \mu/2`; with :math:`x = x^* + t` the integrand
    :math:`\varphi(x-\mu) - e^{\varepsilon}\varphi(x)` is
    :math:`\varphi(c)\,e^{-ct - t^2/2}\,(1 - e^{-\mu t})`, :math:`c = x^* - \mu`: the tiny
    scale :math:`\varphi(c)` comes out of the integral, which is then of order one (no
    cancellation left, tanh-sinh at full accuracy).
    """
    with mpmath.workdps(DPS + 10):
        mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
        c = eps / mu + mu / 2 - mu
        integrand = lambda t: mpmath.exp(-c * t - t * t / 2) * -mpmath.expm1(-mu * t)  # noqa: E731
        scale = 1 / max(1, abs(c))
        cuts = [mpmath.mpf(0)] + [scale * mpmath.mpf(2) ** k for k in range(-4, 11)] + [mpmath.inf]
        if c < 0:
            cuts = sorted(set(cuts + [-c]))
        return mpmath.npdf(c) * mpmath.quad(integrand, cuts)


def _close(a, b, rel):
    return abs(a - b) <= rel * abs(b)


# ---------------------------------------------------------------- mu-GDP / Gaussian mechanism

@pytest.mark.parametrize("mu", ["1/2", "1", "2", "5"])
@pytest.mark.parametrize("eps", ["0.01", "1", "5", "10"])
def test_gdp_delta_agrees_with_gaussian_privacy_loss(mu, eps):
    # Dong, Roth, Su 2022, Cor. 2.13; the peer's GaussianPrivacyLoss.get_delta_for_epsilon
    # evaluates the same hockey stick from Phi in doubles (sigma = 1/mu, sensitivity 1)
    ours = _profile(Gaussian(mu))(eps)
    peer = plm.GaussianPrivacyLoss(standard_deviation=1 / float(sp.Rational(mu)),
                                   sensitivity=1).get_delta_for_epsilon(float(eps))
    reference = _gaussian_reference(sp.Rational(mu), eps)
    assert abs(ours - reference) <= mpmath.mpf(10) ** (-DPS + 2) * reference
    assert _close(peer, float(reference), PEER_RELATIVE)


@pytest.mark.parametrize("mu, eps", [("1/2", 20), ("1", 40), ("1/2", 60)])
def test_gdp_delta_below_doubles_the_peer_underflows_to_zero(mu, eps):
    # delta is positive for every eps (no Gaussian mechanism is (eps, 0)-DP), but below
    # 2.2e-308 the peer's double-precision difference underflows to 0; symdp keeps it
    ours = _profile(Gaussian(mu))(eps)
    peer = plm.GaussianPrivacyLoss(standard_deviation=1 / float(sp.Rational(mu)),
                                   sensitivity=1).get_delta_for_epsilon(float(eps))
    reference = _gaussian_reference(sp.Rational(mu), eps)
    assert peer == 0.0
    assert 0 < reference < mpmath.mpf("1e-300")
    assert abs(ours - reference) <= mpmath.mpf(10) ** (-DPS + 2) * reference


@pytest.mark.parametrize("mu, target_delta", [("1/2", "1e-5"), ("1", "1e-6"), ("2", "1e-10")])
def test_gdp_epsilon_for_delta_agrees_with_analytic_gaussian_calibration(mu, target_delta):
    # the peer's get_epsilon_gaussian (Balle & Wang 2018, brentq to xtol 1e-12) against the
    # eps solving symdp's delta(eps) = target at 50 digits
    from dp_accounting import gaussian_mechanism

    delta = _profile(Gaussian(mu))
    with mpmath.workdps(DPS):
        target = mpmath.mpf(target_delta)
        ours = decreasing_inverse(delta, target, lo=0, hi=60)   # delta(eps) falls with eps
        assert abs(_gaussian_reference(sp.Rational(mu), ours) - target) <= target * mpmath.mpf(10) ** -40
    peer = gaussian_mechanism.get_epsilon_gaussian(1 / float(sp.Rational(mu)), float(target_delta))
    assert abs(peer - float(ours)) <= 1e-10


@pytest.mark.parametrize("eps", [0.0, 0.5, 1.0, 2.0, 3.0, 5.0])
def test_pld_accountant_is_pessimistic_for_the_gaussian_mechanism(eps):
    # documented: pessimistic discretisation (privacy losses rounded up to multiples of the
    # interval) and truncated tails counted as infinite loss -- never below the exact delta
    interval = 1e-4
    accountant = PLDAccountant(value_discretization_interval=interval)
    accountant.compose(dp_event.GaussianDpEvent(noise_multiplier=2.0))    # mu = 1/2
    peer = accountant.get_delta(eps)
    exact = _profile(Gaussian(sp.Rational(1, 2)))(eps)
    assert peer >= float(exact)
    # and loose by at most one interval of eps, plus the truncated tail mass and the rounding
    # of a double-precision sum over ~1e5 buckets (together below 1e-12)
    looser = _profile(Gaussian(sp.Rational(1, 2)))(max(eps - interval, 0))
    assert peer <= float(looser) + 1e-12


# ---------------------------------------------------------------- Laplace mechanism

@pytest.mark.parametrize("mu", ["1/2", "1", "3"])
@pytest.mark.parametrize("eps", ["0", "0.25", "1", "2"])
def test_laplace_delta_agrees_with_laplace_privacy_loss(mu, eps):
    # T(Lap(0, 1), Lap(mu, 1)) (Dong, Roth, Su 2022, Sec. 2.3) is the Laplace mechanism with
    # scale 1/mu and sensitivity 1
    ours = _profile(Laplace(mu))(eps)
    peer = plm.LaplacePrivacyLoss(1 / float(sp.Rational(mu)), sensitivity=1).get_delta_for_epsilon(float(eps))
    with mpmath.workdps(DPS + 10):
        m = mpmath.mpf(sp.Rational(mu))
        density = lambda x, c: mpmath.exp(-abs(x - c)) / 2  # noqa: E731
        # the log-likelihood ratio is -m, 2x - m, m on x < 0, [0, m], x > m: it crosses eps at
        # (eps + m)/2 when eps < m
        crossings = [mpmath.mpf(0), m] + ([(mpmath.mpf(eps) + m) / 2] if mpmath.mpf(eps) < m else [])
        reference = _hockey_stick_quad(lambda x: density(x, m), lambda x: density(x, 0), eps, crossings)
    assert abs(ours - reference) <= mpmath.mpf(10) ** (-DPS + 2) * max(reference, 1e-30)
    assert abs(peer - float(reference)) <= 1e-14


# ---------------------------------------------------------------- subsampling an (eps, delta) mechanism

def _eps_delta_pair(eps, delta):
    """The four-point pair with T(P, Q) = f_{eps, delta} (Dong, Roth, Su 2022, Prop. 2.5)."""
    E = mpmath.exp(eps)
    P = [delta, (1 - delta) * E / (1 + E), (1 - delta) / (1 + E), mpmath.mpf(0)]
    Q = [mpmath.mpf(0), (1 - delta) / (1 + E), (1 - delta) * E / (1 + E), delta]
    return P, Q


def _subsampled_pair(eps, delta, p):
    """Poisson subsampling with rate p: (p P + (1 - p) Q, Q) -- the peer's 'remove' direction;
    the reverse order is its 'add' direction."""
    P, Q = _eps_delta_pair(eps, delta)
    return [p * a + (1 - p) * b for a, b in zip(P, Q)], Q


def _finite_hockey_stick(eps, upper, lower):
    w = mpmath.exp(eps)
    return sum((max(u - w * l, 0) for u, l in zip(upper, lower)), mpmath.mpf(0))


def _peer_subsampled_pld(eps, delta, p, interval):
    with mpmath.workdps(30):
        upper, lower = _subsampled_pair(mpmath.mpf(eps), mpmath.mpf(delta), mpmath.mpf(p))
        log = lambda v: float(mpmath.log(v)) if v > 0 else -math.inf  # noqa: E731
        return pld.from_two_probability_mass_functions(
            {i: log(v) for i, v in enumerate(lower)}, {i: log(v) for i, v in enumerate(upper)},
            pessimistic_estimate=True, value_discretization_interval=interval, symmetric=False)


CASES = [("1", "1/100", "1/5"), ("3", "1/10", "1/5"), ("1/2", "1/1000", "1/2"), ("2", "0", "1/10")]


def _reference_subsampled_delta(eps, delta, p, at):
    """The larger hockey stick of the two orders of the subsampled pair, as an exact finite sum."""
    with mpmath.workdps(DPS + 10):
        upper, lower = _subsampled_pair(*(mpmath.mpf(sp.Rational(v)) for v in (eps, delta, p)))
        e = mpmath.mpf(at)
        return max(_finite_hockey_stick(e, upper, lower), _finite_hockey_stick(e, lower, upper))


@pytest.mark.parametrize("eps, delta, p", CASES)
def test_subsampled_eps_delta_epsilon_prime_agrees_with_peer_pld(eps, delta, p):
    # Lemma 4.4: eps' = log(1 - p + p e^eps) at delta' = p delta.  symdp: the smallest eps with
    # delta(eps) <= p delta on the profile of C_p(f_{eps,delta}); reference: the hockey stick of
    # the subsampled pair is exactly p delta at eps'
    interval = 1e-5
    eps_prime, delta_prime = lemma_4_4(eps, delta, p)
    profile = _profile(subsample(EpsDelta(eps, delta), p))
    with mpmath.workdps(DPS):
        lemma = mpmath.mpf(sp.N(eps_prime, DPS + 10))
        target = mpmath.mpf(sp.Rational(delta_prime))
        ours = decreasing_inverse(profile, target, lo=0, hi=40, tol=mpmath.mpf(10) ** -45)
        assert abs(ours - lemma) <= mpmath.mpf(10) ** -40
        assert abs(_reference_subsampled_delta(eps, delta, p, lemma) - target) <= mpmath.mpf(10) ** -45
    # delta(eps) is constant (= p delta) for eps >= eps': exactly at delta' the peer's answer
    # flips between eps' and infinity on the rounding of its point mass, so ask it just above
    peer = _peer_subsampled_pld(sp.Rational(eps), sp.Rational(delta), sp.Rational(p), interval) \
        .get_epsilon_for_delta(float(target) * (1 + 1e-9) + 1e-300)
    # pessimistic: at most one interval above; below eps' only by the 1e-9 relative nudge
    assert float(lemma) - 1e-6 <= peer <= float(lemma) + interval + 1e-12


@pytest.mark.parametrize("eps, delta, p", CASES)
@pytest.mark.parametrize("at", ["0", "0.1", "0.5", "1", "2"])
def test_subsampled_eps_delta_profile_agrees_with_peer_pld(eps, delta, p, at):
    # delta(eps) of C_p(f_{eps,delta}) (symdp: 1 + C_p(f)^*(-e^eps), Prop. 2.12) is the larger
    # hockey stick of the two orders of the subsampled pair -- what the peer's PLD reports
    interval = 1e-5
    ours = _profile(subsample(EpsDelta(eps, delta), p))(at)
    with mpmath.workdps(DPS):
        assert abs(ours - _reference_subsampled_delta(eps, delta, p, at)) <= mpmath.mpf(10) ** -45
    peer = _peer_subsampled_pld(sp.Rational(eps), sp.Rational(delta), sp.Rational(p),
                                interval).get_delta_for_epsilon(float(at))
    # pessimistic: losses rounded up by < one interval, so between delta(eps) and delta(eps - interval)
    looser = _reference_subsampled_delta(eps, delta, p, mpmath.mpf(at) - interval)
    assert float(ours) - 1e-15 <= peer <= float(looser) + 1e-15


# ---------------------------------------------------------------- subsampled Gaussian mechanism

@pytest.mark.parametrize("mu, p", [("1", "1/5"), ("2", "1/2"), ("1/2", "1/10")])
@pytest.mark.parametrize("eps", ["0", "0.1", "0.5", "1"])
def test_subsampled_gaussian_profile_agrees_with_peer(mu, p, eps):
    # C_p(G_mu): its profile is the larger of the two orders of (p N(mu,1) + (1-p) N(0,1), N(0,1));
    # the peer's GaussianPrivacyLoss with sampling_prob = p, REMOVE and ADD, evaluates each exactly
    ours = _profile(subsample(Gaussian(mu), p))(eps)
    sigma, q = 1 / float(sp.Rational(mu)), float(sp.Rational(p))
    peer = max(plm.GaussianPrivacyLoss(sigma, sampling_prob=q, adjacency_type=kind).get_delta_for_epsilon(float(eps))
               for kind in (plm.AdjacencyType.REMOVE, plm.AdjacencyType.ADD))
    with mpmath.workdps(DPS + 10):
        m, pp = mpmath.mpf(sp.Rational(mu)), mpmath.mpf(sp.Rational(p))
        mixture = lambda x: pp * mpmath.npdf(x, m) + (1 - pp) * mpmath.npdf(x)  # noqa: E731
        w = mpmath.exp(mpmath.mpf(eps))

        # the likelihood ratio p e^{mu x - mu^2/2} + 1 - p (or its reciprocal) is monotone in x:
        # it crosses w once, where p e^{mu x - mu^2/2} = w - 1 + p (or 1/w - 1 + p), if that is > 0
        def crossing(level):
            return [(mpmath.log(level / pp) + m * m / 2) / m] if level > 0 else []
        reference = max(_hockey_stick_quad(mixture, mpmath.npdf, eps, crossing(w - 1 + pp)),
                        _hockey_stick_quad(mpmath.npdf, mixture, eps, crossing(1 / w - 1 + pp)))
    assert abs(ours - reference) <= mpmath.mpf(10) ** (-DPS + 3) * max(reference, mpmath.mpf(10) ** -30)
    assert _close(peer, float(reference), PEER_RELATIVE)
