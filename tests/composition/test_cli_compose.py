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
    (["--gaussian", "-1"], "mu must be >= 0"),
    (["--eps-delta", "0.1", "2"], "delta must be in"),
    (["--eps-delta", "0.1", "0", "--times", "0"], "times must be"),
    (["--eps-delta", "0.1", "0", "--delta", "x"], "delta must be a number"),
    (["--subsampled-gaussian", "--sigma", "1", "--p", "0.1", "--steps", "10"], "needs --clt"),
    (["--gaussian", "1", "--dps", "10"], "--dps must be >= 30"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, match):
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert match in err and err.count("\n") == 1 and "Traceback" not in err
