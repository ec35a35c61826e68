"""Fuzz the newer commands -- ``compose``, ``account``, ``audit``, ``plot compose`` -- and
the examples of issue #22, each class of its table with the issue's examples and generated
values.  Every case ends with exit 2 and one line naming the option, or with the right
answer: ε(δ) of a Gaussian product against Dong, Roth, Su 2022 Cor. 2.13 solved here with
mpmath in log space (an independent route), accountant brackets that hold it.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz_harness import FUZZ, HOSTILE_NUMBERS, check_outcome, count, files_in, numbers, run_cli, scratch

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "cli" / "fixtures"


# --------------------------------------------------------------------------- the oracle

def gaussian_delta(mu, eps):
    r"""Cor. 2.13: :math:`\delta(\varepsilon) = \Phi(-\varepsilon/\mu + \mu/2) - e^\varepsilon
    \Phi(-\varepsilon/\mu - \mu/2)`, at the current precision."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def gaussian_epsilon(mu, delta, digits=60):
    """ε with δ(ε) = delta for G_mu, by bisection on log δ(ε) - log delta at ``digits`` + 40
    digits (log space: a δ of 1e-300 is resolved relatively)."""
    with mpmath.workdps(digits + 40):
        mu, delta = mpmath.mpf(mu), mpmath.mpf(delta)
        if gaussian_delta(mu, 0) <= delta:
            return mpmath.mpf(0)
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while gaussian_delta(mu, hi) > delta:
            lo, hi = hi, 2 * hi
        for _ in range(int((digits + 10) * 3.33) + int(mpmath.log(hi, 2)) + 5):
            mid = (lo + hi) / 2
            if mpmath.log(gaussian_delta(mu, mid)) > mpmath.log(delta):
                lo = mid
            else:
                hi = mid
        return +hi


def _compose(argv, cwd="."):
    rc, out, err = run_cli(["compose", *argv], cwd)
    return rc, out, err


# --------------------------------------------------------------------------- issue's examples

@pytest.mark.parametrize("mus,delta", [(["1"], "1e-300"), (["1", "2"], "1e-400"), (["1"], "1e-52"),
                                       (["0.5"], "1e-5"), (["3"], "1e-1000"), (["1000"], "1e-300")])
def test_gaussian_epsilon_at_tiny_delta_is_right_to_20_digits(mus, delta):
    """No bracket's end as the answer (1e-300 used to print 64, 1e-400 128); 1e-52 is no
    longer refused by the two-precision agreement."""
    count("issue examples")
    with scratch() as cwd:
        rc, out, err = _compose(["--gaussian", *mus, "--delta", delta, "--json"], cwd)
    assert rc == 0, err
    with mpmath.workdps(60):
        got = mpmath.mpf(json.loads(out)["epsilon"][0]["epsilon"])
        mu = mpmath.sqrt(sum(mpmath.mpf(m) ** 2 for m in mus))
        expected = gaussian_epsilon(mu, mpmath.mpf(delta))
        assert abs(got - expected) <= mpmath.mpf(10) ** -20 * expected, (got, expected)
    if mus == ["1"] and delta == "1e-300":
        assert mpmath.nstr(got, 6) == "37.4488"


def test_repeated_options_all_count():
    """G_0.5 (x) G_1.2 (x) G_2 = G_sqrt(0.25 + 1.44 + 4) (DRS Cor. 3.3), eps = 12.4479 at 1e-5."""
    count("issue examples")
    with scratch() as cwd:
        rc, out, err = _compose(["--gaussian", "0.5", "--gaussian", "1.2", "--gaussian", "2",
                                 "--delta", "1e-5", "--json"], cwd)
    assert rc == 0, err
    r = json.loads(out)
    assert r["closed_form"] == "Gaussian(sqrt(569)/10)"
    with mpmath.workdps(60):
        expected = gaussian_epsilon(mpmath.sqrt(mpmath.mpf("5.69")), mpmath.mpf("1e-5"))
        assert abs(mpmath.mpf(r["epsilon"][0]["epsilon"]) - expected) < mpmath.mpf(10) ** -25
    assert mpmath.nstr(expected, 6) == "12.4479"
    with scratch() as cwd:   # --delta repeated: both values reported
        rc, out, _ = _compose(["--gaussian", "1", "--delta", "1e-5", "--delta", "1e-6", "--json"], cwd)
    assert rc == 0 and [row["delta"] for row in json.loads(out)["epsilon"]] == ["1e-5", "1e-6"]


LIMITS = [
    (["--eps-delta", "0.1", "0", "--times", "10000000"], "--times"),
    (["--eps-delta", "0.1", "0", "--times", "9" * 100], "--times"),
    (["--laplace", "1", "2", "3"], "--laplace"),
    (["--gaussian", *(["1"] * 1001)], "factors"),
    (["--gaussian", "1", "--dps", "0"], "--dps"),
    (["--gaussian", "1", "--dps", "100000000"], "--dps"),
    (["--gaussian", "1", "--delta", *(["1e-5"] * 51)], "--delta"),
    (["--eps-delta", "0.1", "0", "--eps-delta", "0.2", "0", "--times", "15000"], "factors"),
]


@pytest.mark.parametrize("argv,name", LIMITS, ids=[n for _, n in LIMITS])
def test_compose_limits_are_named(argv, name):
    count("issue examples")
    with scratch() as cwd:
        rc, out, err = _compose(argv, cwd)
    assert rc == 2 and err.count("\n") == 1 and name in err and len(err) < 400, err


def test_api_validates_dps_and_constructors():
    """dps=0 used to give 0.625 for (G_1 (x) G_2)(1) (true 0.58910...); the constructors of
    the issue's table raise InvalidParameterError naming parameter, constraint and value."""
    import symdp
    from symdp.accountant import EpsDelta, Phase, PoissonGaussian
    from symdp.composition import tensor
    from symdp.tradeoff import Gaussian
    from symdp.tradeoff.operators import Inverse, Mixture

    count("issue examples")
    product = tensor(Gaussian(1), Gaussian(2))
    cases = [
        (lambda: product.delta(1, dps=0), "dps must be an integer in"),
        (lambda: product.epsilon("1e-5", dps=-3), "dps must be an integer in"),
        (lambda: product.evaluate("0.1", dps=float("nan")), "dps must be"),
        (lambda: EpsDelta(1, -0.5), "delta0 must be in [0, 1); got delta0=-0.5"),
        (lambda: PoissonGaussian(1, "0.01", "sideways"), "direction must be 'remove' or 'add'"),
        (lambda: Phase((), 10), "pairs must be a non-empty tuple"),
        (lambda: Phase((EpsDelta(1, 0),), 0), "steps must be an integer in [1,"),
        (lambda: Mixture("1-alpha", 0.5), "f must be a trade-off function"),
        (lambda: Inverse(None), "f must be a trade-off function"),
        (lambda: PoissonGaussian(float("nan"), "0.01"), "sigma must be a finite number"),
        (lambda: PoissonGaussian(1, "1e400"), "q must be in"),
    ]
    for make, message in cases:
        with pytest.raises(symdp.InvalidParameterError) as info:
            make()
        assert message in str(info.value) and "\n" not in str(info.value), str(info.value)
    with mpmath.workdps(40):
        m = mpmath.sqrt(5)
        expected = mpmath.ncdf(-1 / m + m / 2) - mpmath.e * mpmath.ncdf(-1 / m - m / 2)
        assert abs(product.delta(1, dps=30) - expected) < mpmath.mpf(10) ** -28


def test_numbers_are_accepted_as_users_hold_them():
    """int, Fraction, str, float, NumPy scalars (float32 too), SymPy numbers and mpmath mpf:
    the same exact parameter everywhere (one conversion, symdp.core.validation)."""
    from fractions import Fraction

    import numpy as np
    import sympy as sp

    import symdp
    from symdp.accountant import PoissonGaussian, poisson_gaussian
    from symdp.composition.clt import sgd_limit_constant
    from symdp.tradeoff import Gaussian
    from symdp.tradeoff.operators import Mixture

    count("issue examples")
    for half in (Fraction(1, 2), "0.5", 0.5, np.float64(0.5), np.float32(0.5), sp.Float("0.5"),
                 sp.Rational(1, 2), mpmath.mpf("0.5"), "1/2"):
        assert PoissonGaussian(1, half).q == Fraction(1, 2)
        assert sp.Rational(Mixture(Gaussian(1), half).p) == sp.Rational(1, 2)  # a Float stays a Float
    assert PoissonGaussian(np.float32(0.1), "0.5").sigma == Fraction(1, 10)  # its own shortest decimal
    assert poisson_gaussian(np.int64(2), np.float64(0.01), np.int32(10)).steps == 10
    assert sgd_limit_constant(np.float64(2.0)) == sgd_limit_constant(2)
    for bad, name in ((np.float64("nan"), "finite"), (float("inf"), "finite"), (np.bool_(True), "number"),
                      (sp.nan, "finite"), (mpmath.inf, "finite"), ("1e400", "q must be in")):
        with pytest.raises(symdp.InvalidParameterError, match=name):
            PoissonGaussian(1, bad)


def _schedule(cwd: Path, name: str, data) -> str:
    path = cwd / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return name


SCHEDULES = [
    ("empty name", None, "--schedule must name a file"),
    ("/dev/zero", "/dev/zero", "--schedule must be a regular file"),
    ("bad cell", b"sigma,q,steps\n1,0.01,10\n2,x,5\n", "phase 2: q must be a number"),
    ("bad sigma cell", b'[{"sigma": 0.1, "q": 0.01, "steps": 10}]', "phase 1: sigma must be in"),
    ("null cell", b'[{"sigma": null, "q": 0.01, "steps": 10}]', "phase 1: sigma must be a number"),
    ("too many phases", ("sigma,q,steps\n" + "1,0.01,1\n" * 21).encode(), "at most 20 phases"),
    ("too large", b"sigma,q,steps\n" + b"1,0.01,1\n" * 120_000, "more than the limit"),
    ("total steps", b"sigma,q,steps\n1,0.01,9000000\n1,0.01,9000000\n", "steps in all"),
    ("not UTF-8", b"sigma,q,steps\n\xff\xfe,0.01,1\n", "must be UTF-8"),
    ("huge cell", ("sigma,q,steps\n" + "1" * 100_001 + ",0.01,1\n").encode(), "100001 characters"),
    ("JSON object", b'{"sigma": 1}', "--schedule"),
]


@pytest.mark.parametrize("case", SCHEDULES, ids=[c[0] for c in SCHEDULES])
def test_schedule_messages(case):
    label, data, message = case
    count("account --schedule")
    with scratch() as cwd:
        if data is None:
            path = ""
        elif isinstance(data, str):
            path = data
        else:
            path = _schedule(cwd, "s.csv", data)
        rc, out, err = run_cli(["account", "--schedule", path, "--delta", "1e-5"], cwd)
    assert rc == 2 and err.count("\n") == 1 and len(err) < 400, err
    assert message in err, err
    assert "--sigma is required" not in err


def test_schedule_with_byte_order_mark_is_read():
    count("account --schedule")
    with scratch() as cwd:
        path = _schedule(cwd, "s.csv", b"\xef\xbb\xbfsigma,q,steps\n1,0.01,10\n")
        rc, out, err = run_cli(["account", "--schedule", path, "--delta", "1e-5", "--json",
                                "--precision", "0"], cwd)
        rc2, out2, _ = run_cli(["account", "--sigma", "1", "--q", "0.01", "--steps", "10",
                                "--delta", "1e-5", "--json", "--precision", "0"], cwd)
    assert rc == 0 == rc2, err
    a, b = json.loads(out), json.loads(out2)
    assert (a["lower"], a["upper"]) == (b["lower"], b["upper"])


def test_output_never_names_an_input(tmp_path):
    count("output paths")
    proof = tmp_path / "proof.py"
    proof.write_text((FIXTURES / "good_step.py").read_text())
    (tmp_path / "link.json").symlink_to(proof)
    os.link(proof, tmp_path / "hard.json")
    before = proof.read_text()
    for target in ("proof.py", "link.json", "hard.json", "./../" + tmp_path.name + "/proof.py",
                   str(proof)):
        rc, out, err = run_cli(["check", "proof.py", "--json", target, "--jobs", "1"], tmp_path)
        assert rc == 2 and "--json would replace an input" in err, (target, err)
    rc, out, err = run_cli(["check", ".", "--json", "new.py", "--jobs", "1"], tmp_path)
    assert rc == 2 and "inside the input directory" in err, err
    rc, out, err = run_cli(["report", "proof.py", "--no-check", "--no-figures", "--out", "proof.py"],
                           tmp_path)
    assert rc == 2, err
    assert proof.read_text() == before


@pytest.mark.parametrize("at", ["0", "1e-300"])
def test_plot_with_nothing_to_draw_is_an_error(at):
    count("plot compose")
    with scratch() as cwd:
        rc, out, err = run_cli(["plot", "compose", "--at-delta", at, "--steps", "10", "--out", "c.png"],
                               cwd)
        assert rc == 2 and "nothing to draw" in err and err.count("\n") == 1, err
        assert not files_in(cwd)


ABORTS = [
    ["compose", "--eps-delta", "0.1", "0", "--times", "1" + "0" * 99],
    ["plot", "compose", "--steps", "1000000000", "--out", "c.png"],
    ["account", "--sigma", "1e400", "--q", "0.01", "--steps", "10", "--delta", "1e-5"],
    ["compose", "--gaussian", "1", "--times", "9" * 1000],
]


@pytest.mark.parametrize("argv", ABORTS, ids=[" ".join(a[:3]) for a in ABORTS])
def test_no_abort_or_internal_error_in_a_subprocess(argv, tmp_path):
    """GNU MP and FLINT abort the whole process (SIGABRT) on sizes they cannot hold: only a
    subprocess shows that these are refused before the libraries are reached."""
    count("subprocess")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "symdp.cli.main", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-300:])
    assert proc.stderr.count("\n") == 1 and "internal error" not in proc.stderr, proc.stderr


# --------------------------------------------------------------------------- generated values

def compose_is_right(argv, out):
    """ε(δ) of a Gaussian product against Cor. 2.13 solved here; δ(ε) against Cor. 2.13."""
    data = json.loads(out)
    if not data["closed_form"] and data["composition"].startswith("Gaussian(") is False:
        return
    if not data["method"].startswith("closed form G_sqrt"):
        for row in data["epsilon"]:
            assert row["epsilon"] == "inf" or mpmath.mpf(row["epsilon"]) >= 0
        for row in data["delta"]:
            assert 0 <= mpmath.mpf(row["delta"]) <= 1
        return
    mus = argv[argv.index("--gaussian") + 1:argv.index("--delta")]
    with mpmath.workdps(60):
        mu = mpmath.sqrt(sum(_exact(m) ** 2 for m in mus))
        for row in data["epsilon"]:
            if _exact(row["delta"]) == 0:   # delta(eps) > 0 for every eps when mu > 0
                assert row["epsilon"] == ("inf" if mu > 0 else "0." + "0" * 30), row
                continue
            expected = gaussian_epsilon(mu, _exact(row["delta"]), 40)
            got = mpmath.mpf(row["epsilon"])
            assert abs(got - expected) <= mpmath.mpf(10) ** -25 * max(1, expected), (row, expected)
        for row in data["delta"]:
            e = _exact(row["eps"])
            expected = gaussian_delta(mu, e) if mu > 0 else (0 if e >= 0 else 1 - mpmath.exp(e))
            got = mpmath.mpf(row["delta"])
            assert abs(got - expected) <= mpmath.mpf(10) ** -25 * max(expected, mpmath.mpf(10) ** -300)


def _exact(text):
    from symdp.core.validation import to_exact
    from symdp.tradeoff.numeric import to_mpf

    return to_mpf(to_exact("x", text))


def bracket_is_sane(argv, out):
    assert "nan" not in out.lower()


CG = ["compose", "--gaussian", "1", "--delta", "1e-5", "--json"]
CGE = ["compose", "--gaussian", "1", "--delta", "1e-5", "--eps", "1", "--json"]
CE = ["compose", "--eps-delta", "0.5", "0.001", "--times", "3", "--delta", "1e-2", "--json"]
ACC = ["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5", "--precision", "0"]
AUD = ["audit", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5",
       "--claimed-eps", "2", "--precision", "0"]
PC = ["plot", "compose", "--steps", "10", "--out", "c.png"]

deltas = st.one_of(st.sampled_from(HOSTILE_NUMBERS + ["1e-300", "1e-52", "1e-1000", "0.999", "1e-16"]),
                   st.integers(1, 999).map(lambda k: f"1e-{k}"), numbers)
mus = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.decimals(0, 50, places=3).map(str), numbers)

GENERATED = [
    ("compose --gaussian", CG, "--gaussian", mus, ["--gaussian", "mu"], compose_is_right, 30),
    ("compose --delta", CG, "--delta", deltas, ["--delta", "delta"], compose_is_right, 40),
    ("compose --eps", CGE, "--eps", numbers, ["--eps", "eps"], compose_is_right, 30),
    ("compose --times", CE, "--times", numbers, ["--times"], compose_is_right, 25),
    ("compose --eps-delta", CE, "--eps-delta", numbers, ["--eps-delta", "eps", "delta"],
     compose_is_right, 25),
    ("compose --dps", CG, "--dps", numbers, ["--dps"], compose_is_right, 20),
    ("account --sigma", ACC, "--sigma", numbers, ["--sigma", "sigma"], bracket_is_sane, 25),
    ("account --q", ACC, "--q", numbers, ["--q", "q"], bracket_is_sane, 25),
    ("account --steps", ACC, "--steps", numbers, ["--steps", "steps"], bracket_is_sane, 20),
    ("account --delta", ACC, "--delta", deltas, ["--delta", "delta"], bracket_is_sane, 20),
    ("audit --claimed-eps", AUD, "--claimed-eps", numbers, ["--claimed-eps", "claimed-eps"],
     bracket_is_sane, 20),
    ("plot compose --at-delta", PC, "--at-delta", deltas, ["--at-delta", "at-delta"],
     bracket_is_sane, 12),
    ("plot compose --steps", PC, "--steps", numbers, ["--steps", "T", "steps"], bracket_is_sane, 15),
]


def _replace(base, option, value):
    argv = list(base)
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    return argv


@pytest.mark.parametrize("case", GENERATED, ids=[g[0] for g in GENERATED])
def test_generated_values(case):
    name, base, option, values, names, oracle, examples = case

    @settings(FUZZ, max_examples=examples)
    @given(value=values)
    def one(value):
        count(name)
        argv = _replace(base, option, value)
        with scratch() as cwd:
            rc, out, err = run_cli(argv, cwd)
            if check_outcome(rc, out, err, names, value=value, allowed_codes=(0, 1, 2)):
                oracle(argv, out)
            assert len(err) < 400, err[:200]
            written = files_in(cwd)
        assert written <= ({"c.png"} if rc == 0 and "--out" in argv else set()), written

    one()
