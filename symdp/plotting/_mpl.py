"""matplotlib, imported only when a figure is drawn, through the Agg canvas (no pyplot state,
no display needed, the caller's backend untouched)."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import InvalidParameterError
from ..core.files import atomic_path, output_file

FORMATS = (".png", ".pdf")


def new_figure(width: float = 5.6, height: float = 5.0, ncols: int = 1):
    """A matplotlib ``Figure`` on an Agg canvas and its Axes (one, or a tuple of ``ncols``)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plotting needs matplotlib: pip install 'symdp[plot]'") from exc
    fig = Figure(figsize=(width, height), dpi=150)
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, ncols)
    return fig, axes


def check_path(path, name: str = "--out") -> Path:
    """``path`` as a Path ending in .png or .pdf that names a regular file or a new one
    (:func:`symdp.core.files.output_file`); anything else is an InvalidParameterError."""
    output_file(name, path)
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise InvalidParameterError(
            f"the output file must end in .png or .pdf; got {name}={str(p)!r}")
    return p


def save_figure(fig, path) -> Path:
    """Write ``fig`` to ``path`` (PNG or PDF by its suffix), atomically: the file appears only
    once complete, with mode 0666 & ~umask (:mod:`symdp.core.files`).  PDF metadata carry no
    date, so output is reproducible."""
    p = check_path(path)
    metadata = {"CreationDate": None} if p.suffix.lower() == ".pdf" else None
    with atomic_path("--out", p, suffix=p.suffix) as tmp:
        fig.savefig(tmp, format=p.suffix.lower()[1:], metadata=metadata)
    return p


def to_png(fig) -> bytes:
    """The PNG bytes of ``fig`` (for ``IPython.display.Image`` in a notebook)."""
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()
