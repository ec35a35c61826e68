"""Figure 6 (right) recomputed, its PNG, and ``symdp subsample``."""

import json
import subprocess
import sys
from pathlib import Path

import mpmath
import sympy as sp

from symdp.subsampling.figure6 import figure6, plot_figure6, seed_comparison

ROOT = Path(__file__).resolve().parents[2]


def test_figure6_values_from_independent_formulas():
    fig = figure6()
    with mpmath.workdps(40):
        e = mpmath.exp(3)
        checks = {
            "eps_prime": mpmath.log(mpmath.mpf("0.8") + mpmath.mpf("0.2") * e),
            "delta_prime": mpmath.mpf("0.02"),
            "subsampled": 1 - mpmath.mpf("0.2") + 2 * mpmath.mpf("0.2") * mpmath.mpf("0.9") / (1 + e),
            "lemma_4_4": 2 * mpmath.mpf("0.98") / (1 + mpmath.mpf("0.8") + mpmath.mpf("0.2") * e),
            "original": 2 * mpmath.mpf("0.9") / (1 + e),
            "cor_4_3_printed": 1 - mpmath.mpf("0.02") - mpmath.mpf("0.2") * (e - 1) / (e + 1),
        }
        for name, expected in checks.items():
            assert abs(mpmath.mpf(fig.value(name, 30)) - expected) < mpmath.mpf(10) ** -28, name


def test_seed_comparison_reports_which_numbers_are_reproduced():
    rows = {r["quantity"]: r for r in seed_comparison()}
    assert rows["eps_prime"]["reproduced"] and rows["delta_prime"]["reproduced"]
    assert rows["min_error_sum_lemma_4_4"]["reproduced"]
    assert not rows["min_error_sum_cor_4_3"]["reproduced"]
    assert rows["min_error_sum_cor_4_3"]["symdp"].startswith("0.81707331434392404")
    assert rows["min_error_sum_cor_4_3"]["seed_line_value"].startswith("0.79897")
    assert not rows["min_error_sum_original"]["reproduced"]
    assert rows["min_error_sum_original"]["symdp"].startswith("0.085366571719620")
    assert rows["min_error_sum_original"]["seed_grid_value"].startswith("0.0856675")


def test_png_is_written(tmp_path):
    path = plot_figure6(tmp_path / "fig6.png", points=101)
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_import_symdp_does_not_import_matplotlib():
    code = "import sys, symdp, symdp.subsampling; print('matplotlib' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.stdout.strip() == "False"


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "symdp.cli.main", "subsample", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_cli_json_has_the_documented_keys_and_30_digit_numbers():
    r = _cli("--eps", "3", "--delta", "0.1", "--p", "0.2", "--at", "0", "1", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    for key in ("eps_prime", "delta_prime", "min_error_sum", "profile", "latex"):
        assert key in out
    assert set(out["min_error_sum"]) >= {"subsampled", "lemma_4_4", "original"}
    assert [row["eps"][:3] for row in out["profile"]] == ["0.0", "1.0"]

    def digits(s):
        return len(s.split("e")[0].replace("-", "").replace(".", "").lstrip("0"))

    for s in (out["eps_prime"], out["min_error_sum"]["subsampled"], out["profile"][1]["delta"]):
        assert digits(s) >= 30, s
    assert out["min_error_sum"]["subsampled"].startswith("0.817073314343924041116385334")
    assert out["latex"].startswith(r"C_{\frac{1}{5}}\left(f_{3,\frac{1}{10}}\right)")


def test_cli_gaussian_text_and_errors(symdp_in_process):
    r = _cli("--mu", "1", "--p", "0.2", "--at", "0")
    assert r.returncode == 0, r.stderr
    assert "C_p(f) for f = G_1" in r.stdout and "0.0765849845096052414550818442" in r.stdout
    # the errors in this process (the exit code, stderr and the warnings a process would print)
    for args, name in ((("--eps", "3", "--delta", "0.1", "--p", "1.5"), "p"),
                       (("--eps", "-1", "--delta", "0.1", "--p", "0.5"), "eps"),
                       (("--eps", "1", "--delta", "2", "--p", "0.5"), "delta"),
                       (("--mu", "-1", "--p", "0.5"), "mu")):
        r = symdp_in_process("subsample", *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and name in r.stderr, (args, r.stderr)
        assert not r.warnings, (args, r.warnings)
