"""Figures exist, are labelled in the papers' notation, and show the right curves."""

import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

pytest.importorskip("matplotlib")

from symdp import EpsDelta, Gaussian  # noqa: E402
from symdp.plotting import (bagging_figure, bagging_values, curve, profile_figure,  # noqa: E402
                            save_figure, subsampling_figure, tradeoff_figure)
from symdp.tradeoff.operators import Inverse  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _labels(ax):
    return [line.get_label() for line in ax.get_lines()]


def test_import_symdp_does_not_import_matplotlib():
    code = "import sys, symdp, symdp.plotting, symdp.report; print('matplotlib' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.stdout.strip() == "False", r.stderr


def test_tradeoff_figure_has_f_fp_inverse_cp_and_lemma_curves():
    fig = tradeoff_figure(EpsDelta(1, "0.05"), p="0.3", points=101)
    (ax,) = fig.axes
    assert ax.get_xlabel() == r"type I error $\alpha$"
    assert ax.get_ylabel() == r"type II error $\beta = f(\alpha)$"
    labels = " ".join(_labels(ax))
    for name in (r"$f = $", r"$f_p$", r"$f_p^{-1}$", r"$C_p(f)$", r"f_{\varepsilon',\delta'}"):
        assert name.replace("$f = $", "$f$ = ") in labels or name in labels, name
    assert ax.get_xlim() == (0, 1) and ax.get_ylim() == (0, 1)


def test_inverse_curve_is_the_reflection_and_values_are_right():
    f = EpsDelta(1, "0.05")
    xs, ys = curve(f, 51)
    # f_{eps,delta}(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha))
    for x, y in zip(xs, ys):
        expected = max(0.0, 0.95 - float(sp.E) * x, (0.95 - x) / float(sp.E))
        assert abs(y - expected) < 1e-12
    ixs, iys = curve(Inverse(f.mix("0.3")), 51)
    fx, fy = curve(f.mix("0.3"), 51)
    assert sorted(zip(ixs, iys)) == sorted(zip(fy, fx))


def test_subsampled_gaussian_curve_is_symmetric():
    from symdp.subsampling import subsample

    xs, ys = curve(subsample(Gaussian(1), sp.Rational(1, 2)), 41)
    pts = set(zip(xs, ys))
    assert all((y, x) in pts for x, y in pts)


def test_subsampling_figure_is_figure6_with_shaded_triangle():
    fig = subsampling_figure(points=101)
    (ax,) = fig.axes
    labels = " ".join(_labels(ax))
    assert r"\varepsilon'=1.572" in labels and r"\delta'=0.02" in labels
    assert ax.patches and "improvement" in ax.patches[0].get_label()
    assert ax.get_xlabel().endswith(r"$\alpha$")


def test_profile_figure_axes_and_gaussian_values():
    fig = profile_figure([Gaussian(1)], eps_max=2, points=21)
    (ax,) = fig.axes
    assert ax.get_xlabel() == r"$\varepsilon$" and ax.get_ylabel() == r"$\delta(\varepsilon)$"
    (line,) = [ln for ln in ax.get_lines()]
    eps, delta = line.get_data()
    # Cor. 2.13 at eps = 0: Phi(1/2) - Phi(-1/2)
    assert abs(delta[0] - float(sp.erf(1 / (2 * sp.sqrt(2))))) < 1e-12


def test_bagging_figure_and_values_paper_delta_is_exact_and_eps_is_loose():
    rows = bagging_values(20, ks=[1, 5, 20])
    for r in rows:
        assert abs(r["paper_delta"] - r["exact_delta_at_paper_eps"]) < 1e-15
        assert r["exact_min_eps_at_paper_delta"] == 0 and r["paper_eps"] > 0
    fig = bagging_figure(20, points=10)
    left, right = fig.axes
    assert left.get_xlabel().startswith("$k/n$") and left.get_ylabel() == r"$\delta$"
    assert right.get_ylabel() == r"$\varepsilon$"
    assert len(left.get_lines()) == 2 and len(right.get_lines()) == 2


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF")])
def test_save_figure_writes_png_and_pdf(tmp_path, suffix, magic):
    path = save_figure(profile_figure([Gaussian(1)], points=11), tmp_path / f"p{suffix}")
    assert path.read_bytes().startswith(magic)
    assert not list(tmp_path.glob(".symdp-*"))


def test_save_figure_rejects_other_suffixes(tmp_path):
    from symdp import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="must end in .png or .pdf"):
        save_figure(profile_figure([Gaussian(1)], points=11), tmp_path / "p.jpg")


def test_pdf_output_is_deterministic(tmp_path):
    a = save_figure(tradeoff_figure(Gaussian(1), points=41), tmp_path / "a.pdf").read_bytes()
    b = save_figure(tradeoff_figure(Gaussian(1), points=41), tmp_path / "b.pdf").read_bytes()
    assert a == b
