"""`symdp account --event FILE.json` and `symdp calibrate` (issue #23)."""

import json
import subprocess
import sys
from fractions import Fraction

import mpmath
import pytest

from symdp.cli.main import main


def run_cli(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def write(tmp_path, obj, name="event.json"):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(p)


def g_mu_eps(mu, delta):
    f = lambda e: mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2) - delta  # noqa: E731
    lo, hi = mpmath.mpf(0), mpmath.mpf(20)
    with mpmath.workdps(40):
        for _ in range(120):            # bisection: delta(eps) is decreasing
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    return (lo + hi) / 2


def test_event_gaussian_composition_json(tmp_path, capsys):
    ev = {"kind": "composed", "events": [
        {"kind": "self_composed", "count": 3, "event": {"kind": "gaussian", "sigma": 2}},
        {"kind": "gaussian", "sigma": "1"}]}
    rc, out, err = run_cli(capsys, "account", "--event", write(tmp_path, ev), "--delta", "1e-5",
                           "--precision", "0", "--json")
    assert rc == 0, err
    rec = json.loads(out)
    mu = mpmath.sqrt(mpmath.mpf(3) / 4 + 1)          # G_{1/2}^{(x)3} (x) G_1 = G_{sqrt(7/4)}
    ref = g_mu_eps(mu, mpmath.mpf("1e-5"))
    assert Fraction(rec["lower"]["value"]) <= Fraction(str(ref)) <= Fraction(rec["upper"]["value"])
    assert rec["lower_bounds"] == "the mechanism" and rec["certified"] is True


@pytest.mark.parametrize("ev", [
    {"kind": "laplace", "b": 2},
    {"kind": "randomized_response", "noise_parameter": 0.5, "num_buckets": 3},
    {"kind": "eps_delta", "eps": 1, "delta": "1e-6"},
    {"kind": "poisson_sampled", "q": 0.1, "event": {"kind": "laplace", "b": 1}},
    {"kind": "sampled_without_replacement", "n": 100, "m": 10, "event": {"kind": "gaussian", "sigma": 1}},
    # over 10 s (the with-replacement count's quadrature): CI's step 3 (issue #30)
    pytest.param({"kind": "sampled_with_replacement", "n": 3, "k": 2,
                  "event": {"kind": "gaussian", "sigma": 2}}, marks=pytest.mark.slow),
])
def test_event_every_kind_accounts(tmp_path, capsys, ev):
    rc, out, err = run_cli(capsys, "account", "--event", write(tmp_path, ev), "--eps", "0.5",
                           "--precision", "0")
    assert rc == 0, err
    assert "certified:" in out and "delta" in out


BAD_EVENTS = [
    ('{"kind": "gaussian", "sigma": 1,', "not valid JSON"),
    ('{"kind": "gaussian", "sigma": 0}', "sigma must be"),
    ('{"kind": "poisson_sampled", "q": 2, "event": {"kind": "gaussian", "sigma": 1}}', "q must be"),
    ('{"kind": "tradeoff", "formula": "1 - alpha"}', "dominating pair"),
    ('{"kind": "tradeoff", "formula": "1 - __import__(\'os\')"}', ""),
]


@pytest.mark.parametrize("text,needle", BAD_EVENTS)
def test_bad_event_file_is_one_line_exit_2(tmp_path, symdp_in_process, text, needle):
    """In this process: the exit code and stderr the command gives, with the warnings a process
    would print (the subprocess test below runs one of these as the user does)."""
    r = symdp_in_process("account", "--event", write(tmp_path, text), "--delta", "1e-5")
    assert r.returncode == 2, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert needle in r.stderr and not r.warnings, r.warnings


def test_bad_event_file_is_one_line_exit_2_in_a_process(tmp_path):
    """The process boundary: a real ``symdp`` process exits 2 with one line on stderr."""
    text, needle = BAD_EVENTS[-1]
    path = write(tmp_path, text)
    r = subprocess.run([sys.executable, "-m", "symdp.cli.main", "account", "--event", path, "--delta", "1e-5"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert needle in r.stderr and "formula" in r.stderr   # refused as a formula, never run


def test_event_and_flags_are_exclusive(tmp_path, capsys):
    path = write(tmp_path, {"kind": "gaussian", "sigma": 1})
    rc = main(["account", "--event", path, "--sigma", "1", "--delta", "1e-5"])
    assert rc == 2
    assert "replaces the mechanism flags" in capsys.readouterr().err


def test_missing_event_file(capsys):
    assert main(["account", "--event", "/nonexistent/e.json", "--delta", "1e-5"]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["0.5", "1", "1.5"])
def test_calibrate_meets_the_target_and_1pct_less_does_not(capsys, target):
    from symdp.accountant import certified_epsilon, poisson_gaussian
    rc, out, err = run_cli(capsys, "calibrate", "--target-eps", target, "--delta", "1e-5", "--q", "0.05",
                           "--steps", "10", "--precision", "0", "--json")
    assert rc == 0, err
    rec = json.loads(out)
    assert rec["smaller_shown_not_to_meet"] is True
    E = Fraction(target)
    sigma, smaller = Fraction(rec["sigma"]), Fraction(rec["smaller_sigma"])
    assert smaller <= Fraction(99, 100) * sigma
    # re-check both claims independently of the search, at another grid level
    assert certified_epsilon(poisson_gaussian(sigma, Fraction(1, 20), 10), Fraction(1, 10 ** 5), precision=1).hi <= E
    assert certified_epsilon(poisson_gaussian(smaller, Fraction(1, 20), 10), Fraction(1, 10 ** 5),
                             precision=1).lo > E


def test_calibrate_bad_input(capsys):
    assert main(["calibrate", "--target-eps", "nan", "--delta", "1e-5", "--q", "0.01", "--steps", "10"]) == 2
    assert main(["calibrate", "--target-eps", "0.0001", "--delta", "1e-5", "--q", "0.5", "--steps", "10"]) == 2
    err = capsys.readouterr().err
    assert "target-eps" in err


def test_flags_and_the_event_they_stand_for_agree(tmp_path, capsys):
    ev = {"kind": "self_composed", "count": 10,
          "event": {"kind": "poisson_sampled", "q": 0.05, "event": {"kind": "gaussian", "sigma": 1}}}
    rc, out, err = run_cli(capsys, "account", "--event", write(tmp_path, ev), "--delta", "1e-5",
                           "--precision", "0", "--json")
    assert rc == 0, err
    by_event = json.loads(out)
    rc, out, err = run_cli(capsys, "account", "--poisson-gaussian", "--sigma", "1", "--q", "0.05", "--steps", "10",
                           "--delta", "1e-5", "--precision", "0", "--json")
    assert rc == 0, err
    by_flags = json.loads(out)
    assert by_event["lower"] == by_flags["lower"] and by_event["upper"] == by_flags["upper"]
