"""symdp.plotting._mpl: Agg figures without pyplot, output-path checks, atomic and
reproducible saving (file contents checked by their format's magic bytes)."""

import pytest

pytest.importorskip("matplotlib")

from symdp.core.errors import InvalidParameterError  # noqa: E402
from symdp.plotting._mpl import check_path, new_figure, save_figure, to_png  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _drawn():
    fig, ax = new_figure(2, 2)
    ax.plot([0, 1], [1, 0])
    return fig


def test_new_figure_is_an_agg_figure_of_the_requested_size():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig, ax = new_figure(3, 2)
    assert isinstance(fig.canvas, FigureCanvasAgg)
    assert tuple(fig.get_size_inches()) == (3, 2)
    assert ax in fig.axes
    _, axes = new_figure(ncols=3)
    assert len(axes) == 3


def test_new_figure_leaves_pyplot_alone():
    import sys

    before = "matplotlib.pyplot" in sys.modules
    new_figure()
    assert ("matplotlib.pyplot" in sys.modules) == before


@pytest.mark.parametrize("name", ["out.svg", "out", "out.png.txt"])
def test_check_path_refuses_other_suffixes(tmp_path, name):
    with pytest.raises(InvalidParameterError, match="png or .pdf"):
        check_path(tmp_path / name)


def test_check_path_refuses_a_directory(tmp_path):
    (tmp_path / "d.png").mkdir()
    with pytest.raises(InvalidParameterError):
        check_path(tmp_path / "d.png")


def test_save_png_and_pdf(tmp_path):
    fig = _drawn()
    png = save_figure(fig, tmp_path / "a.png")
    assert png.read_bytes().startswith(PNG_MAGIC)
    pdf = save_figure(fig, tmp_path / "a.PDF")
    assert pdf.read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.PDF", "a.png"]   # no temp files left


def test_pdf_output_is_reproducible(tmp_path):
    fig = _drawn()
    one = save_figure(fig, tmp_path / "one.pdf").read_bytes()
    two = save_figure(fig, tmp_path / "two.pdf").read_bytes()
    assert one == two                          # no CreationDate in the metadata


def test_to_png_bytes():
    assert to_png(_drawn()).startswith(PNG_MAGIC)
