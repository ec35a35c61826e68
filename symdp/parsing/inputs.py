r"""The files beside a document whose macro definitions ``symdp check-tex`` may read.

``--follow-inputs`` reads the definitions (``\newcommand``, ``\def``, ``\DeclareMathOperator``;
nothing else, nothing executed) of the files a document names with ``\input{macros}``,
``\include{..}`` or ``\usepackage{localmacros}``, when they lie in the document's folder or
below it: :func:`folder_inputs` makes the reader :func:`symdp.parsing.document.read_tex`
calls.  A path that leaves the folder (``../../lib.sty``, an absolute path, a symbolic link
out of it) is refused with a note; a ``\usepackage`` of a package that is not a file there
(``amsmath``) is TeX's own and is not read.  ``--macros FILE`` reads one file the user
names (:func:`read_macro_file`).
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import InvalidParameterError, ParseError

__all__ = ["folder_inputs", "read_macro_file", "MAX_INPUT_BYTES"]

#: the largest file whose definitions are read, in bytes
MAX_INPUT_BYTES = 2_000_000


def _text(path: Path, what: str) -> str:
    """The UTF-8 text of ``path``, read by :func:`symdp.core.files.read_input` (a regular
    file of at most :data:`MAX_INPUT_BYTES` bytes; a FIFO does not block); a ``ParseError``
    saying why not."""
    from ..core.files import input_text, read_input

    try:
        return input_text(what, path, read_input(what, str(path), max_bytes=MAX_INPUT_BYTES))
    except InvalidParameterError as error:
        raise ParseError(str(error)) from None


def folder_inputs(document: str | Path):
    r"""The reader of the files beside ``document``: ``inputs(name, command)`` returns
    ``(shown path, text)``, None for a ``\usepackage`` that is not a file of the folder, or
    raises ``ParseError`` saying why the file is not read."""
    folder = Path(document).resolve().parent

    def inputs(name: str, command: str):
        if command in ("usepackage", "RequirePackage"):
            candidates = [name + ".sty"]
        else:
            candidates = [name] if Path(name).suffix else [name + ".tex", name]
        for candidate in candidates:
            path = (folder / candidate).resolve()
            if not path.is_relative_to(folder):
                raise ParseError(f"{candidate} lies outside the document's folder {folder} "
                                 "(only files in it or below it are read)")
            if path.exists():
                return str(path.relative_to(folder)), _text(path, candidate)
        if command in ("usepackage", "RequirePackage"):
            return None  # a package of TeX's own: nothing of the document's to read
        raise ParseError(f"no file {candidates[0]} in the document's folder")

    return inputs


def read_macro_file(path: str) -> str:
    """The text of a ``--macros FILE`` (a regular UTF-8 file of at most
    :data:`MAX_INPUT_BYTES` bytes); ``InvalidParameterError`` naming the option otherwise."""
    from ..core.files import input_text, read_input

    return input_text("--macros", path, read_input("--macros", path, max_bytes=MAX_INPUT_BYTES))
