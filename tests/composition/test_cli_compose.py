"""symdp compose: values against independent routes, bad input one line, exit 2."""

import json

import mpmath
import pytest

from symdp.cli.main import main
from symdp.composition import kov_profile_value


def _run(capsys, *argv):
    code = main(["compose", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_eps_delta_times_100_prints_30_digits(capsys):
    code, out, _ = _run(capsys, "--eps-delta", "0.1", "0", "--times", "100", "--delta", "1e-5", "--json")
    assert code == 0
    value = json.loads(out)["epsilon"][0]["epsilon"]
    assert len(value.replace(".", "").lstrip("0")) >= 30
    with mpmath.workdps(45):
        # the printed eps solves delta_100(eps) = 1e-5 (the profile evaluated independently)
        assert abs(kov_profile_value("0.1", 0, 100, value, dps=40) - mpmath.mpf("1e-5")) < 1e-33


def test_gaussian_closed_form_and_profile(capsys):
    code, out, _ = _run(capsys, "--gaussian", "1", "2", "--eps", "1", "--json")
    r = json.loads(out)
    assert r["closed_form"] == "Gaussian(sqrt(5))"
    with mpmath.workdps(40):
        m = mpmath.sqrt(5)
        ref = mpmath.ncdf(-1 / m + m / 2) - mpmath.e * mpmath.ncdf(-1 / m - m / 2)
        assert abs(mpmath.mpf(r["delta"][0]["delta"]) - ref) < 1e-29


@pytest.mark.parametrize("argv,match", [
    (["--gaussian", "-1"], "--gaussian must be in [0, 1000]"),
    (["--eps-delta", "0.1", "2"], "--eps-delta DELTA must be in [0, 1]"),
    (["--eps-delta", "0.1", "0", "--times", "0"], "times must be"),
    (["--eps-delta", "0.1", "0", "--delta", "x"], "delta must be a number"),
    (["--subsampled-gaussian", "--sigma", "1", "--p", "0.1", "--steps", "10"], "needs --clt"),
    (["--gaussian", "1", "--dps", "10"], "--dps must be an integer in [30, 200]"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, match):
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert match in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("scheme", ["uniform", "poisson"])
def test_subsampled_gaussian_clt(capsys, scheme):
    argv = ["--subsampled-gaussian", "--sigma", "2", "--p", "0.05", "--steps", "400", "--clt", "--json"]
    code, out, _ = _run(capsys, *argv, *(["--poisson"] if scheme == "poisson" else []))
    assert code == 0
    r = json.loads(out)["clt"]
    assert r["scheme"] == scheme
    with mpmath.workdps(40):
        # the published limits, evaluated here with mpmath's own normal CDF: nu = p sqrt(T) = 1
        s = mpmath.mpf(2)
        c = 2 * (mpmath.exp(1 / s ** 2) * mpmath.ncdf(1.5 / s) + 3 * mpmath.ncdf(-0.5 / s) - 2) \
            if scheme == "uniform" else mpmath.exp(1 / s ** 2) - 1
        assert abs(mpmath.mpf(r["limit_mu"]) - mpmath.sqrt(c)) < 1e-28
        # finite T: within O(p) of the limit
        assert abs(mpmath.mpf(r["mu"]) / mpmath.sqrt(c) - 1) < 0.1


def test_delta_zero_is_the_largest_loss(capsys):
    """delta(eps) = 0 exactly from the largest loss on: never for a Gaussian, at mu1 + mu2 for two
    Laplace factors, at k eps for f_{eps,0}^{(x)k} (a root-find would stop where the profile
    underflows instead)."""
    for argv, expected in ((["--gaussian", "1"], "inf"), (["--laplace", "1", "2"], 3),
                           (["--eps-delta", "0.1", "0", "--times", "100"], 10)):
        code, out, _ = _run(capsys, *argv, "--delta", "0", "--json")
        value = json.loads(out)["epsilon"][0]["epsilon"]
        assert code == 0 and (value == expected if expected == "inf" else mpmath.mpf(value) == expected)
    code, _, err = _run(capsys, "--subsampled-gaussian", "--sigma", "1", "--p", "0", "--steps", "10", "--clt")
    assert code == 2 and "p must be in (0, 1]" in err


def test_two_precisions_refuse_a_value_that_moves(capsys):
    from symdp.cli.compose import _two_precisions
    from symdp.core.errors import RootFindingError

    assert _two_precisions(lambda n: mpmath.mpf(2), 30) == 2
    def moving(n):  # accurate to n - 10 digits only
        with mpmath.workdps(n):
            return 1 + mpmath.mpf(10) ** (-n + 10)

    with pytest.raises(RootFindingError, match="two precisions"):
        _two_precisions(moving, 30)
