"""Output files: symdp writes regular files only, atomically, with the usual permissions.

Every file symdp writes on request (``symdp check --json PATH``, figures, the report) goes
through :func:`output_file` before any work and :func:`atomic_write` (or
:func:`atomic_path`) at the end:

* the path must be non-empty and name a regular file or a file that does not exist yet in
  an existing directory; a directory, a device (``/dev/full``), a FIFO or a socket is
  refused with :class:`~symdp.core.errors.InvalidParameterError` naming the option -- a
  device is never replaced by a file;
* a symbolic link is written *through*: the file it points to is replaced, the link stays
  (a link to nothing, or to something that is not a regular file, is refused);
* the data go to a temporary file beside the target, which replaces it only when complete
  (an interrupted write leaves the old file and no stray temporary file);
* a new file gets mode ``0o666 & ~umask`` (0644 under the usual umask 022), like any file
  a program creates; a replaced file keeps its mode;
* an output never names an input of the same run (:func:`not_an_input`): the paths are
  compared resolved, through symbolic links and ``..``, and as the same file (a hard link),
  so ``symdp check proof.py --json proof.py`` is refused before any work.

Every input file symdp reads on request (``check-tex FILE.tex``, ``account --event FILE``)
goes through :func:`read_input`: a regular file only (a FIFO, a device such as
``/dev/zero``, a directory or anything under ``/proc``, ``/sys`` or ``/dev`` is refused by
name, without blocking and without reading), at most a stated number of bytes (checked on
the file's size and again on what is read), and decoded by :func:`input_text` as UTF-8 (a
byte-order mark is not text).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from .errors import InvalidParameterError

__all__ = ["atomic_path", "atomic_write", "input_text", "new_file_mode", "not_an_input",
           "output_directory", "output_file", "read_input", "KERNEL_DIRECTORIES"]

#: directories of the kernel's interfaces and devices: nothing under them is read as an input
#: file (``/proc/self/mem`` is a "regular file" of size 0 whose reading fails or never ends)
KERNEL_DIRECTORIES = ("/proc", "/sys", "/dev")

_KINDS = ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def _text(name: str, path) -> str:
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not path.strip():
        raise InvalidParameterError(f"{name} must be a file path; got {name}={path!r}")
    if "\x00" in path:
        raise InvalidParameterError(f"{name} must not contain a NUL character; got {name}={path!r}")
    return path


def output_file(name: str, path) -> Path:
    """The regular file to write for option ``name`` (e.g. ``"--json"``): ``path``, or the
    file a symbolic link ``path`` points to.  Raises :class:`InvalidParameterError` (one
    line naming ``name`` and the path) for an empty path, a directory, a device, a FIFO, a
    socket, a dangling link or a missing parent directory.  Call it before any work."""
    text = _text(name, path)
    if text.endswith(("/", os.sep)):
        raise InvalidParameterError(f"{name} must name a file, not a directory; got {name}={text!r}")
    p = Path(text)
    try:
        if p.is_symlink():
            target = Path(os.path.realpath(p))
            if not target.exists():
                raise InvalidParameterError(
                    f"{name} is a symbolic link to a missing file; got {name}={text!r}")
            p = target
        if p.exists():
            mode = p.stat().st_mode
            if not stat.S_ISREG(mode):
                hint = " (use - for standard output)" if name == "--json" else ""
                raise InvalidParameterError(
                    f"{name} must be a regular file, not {_kind(mode)}: symdp writes only "
                    f"regular files; got {name}={text!r}{hint}")
        directory = p.parent
        if not directory.is_dir():
            raise InvalidParameterError(
                f"{name}: the output directory does not exist: {str(directory)!r}; got "
                f"{name}={text!r}")
    except OSError as exc:  # e.g. a name too long, a path through a file
        raise InvalidParameterError(f"{name}: cannot use {text!r}: "
                                    f"{exc.strerror or type(exc).__name__}") from None
    return p


def _same(a: Path, b: Path) -> bool:
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def not_an_input(name: str, output, inputs, *, within_directories: tuple = ()) -> None:
    """Refuse (:class:`InvalidParameterError` naming ``name`` and the input) an ``output`` path
    that is one of ``inputs`` (files or directories) after resolving links and ``..``, or
    the same file.  With ``within_directories`` (suffixes such as ``(".py",)``), an output
    with one of them inside an input directory counts as an input too (the run reads every
    such file there)."""
    out = Path(_text(name, output))
    for given in inputs:
        if given is None:
            continue
        source = Path(given)
        if _same(out, source):
            raise InvalidParameterError(
                f"{name} would replace an input of this run: {str(output)!r} is {str(given)!r}")
        try:
            inside = source.is_dir() and Path(os.path.realpath(out)).is_relative_to(
                os.path.realpath(source))
        except OSError:
            inside = False
        if inside and out.suffix in within_directories:
            raise InvalidParameterError(
                f"{name} would write a file that this run reads: {str(output)!r} is inside the "
                f"input directory {str(given)!r}")


def output_directory(name: str, path) -> Path:
    """The directory to write into for option ``name`` (created later if missing): a
    non-empty path that is not an existing non-directory."""
    text = _text(name, path)
    p = Path(text)
    try:
        if p.exists() and not p.is_dir():
            raise InvalidParameterError(
                f"cannot write to output directory {text!r}: it is {_kind(p.stat().st_mode)}, "
                f"and {name} must be a directory")
    except OSError as exc:
        raise InvalidParameterError(f"{name}: cannot use {text!r}: "
                                    f"{exc.strerror or type(exc).__name__}") from None
    return p


def new_file_mode() -> int:
    """``0o666 & ~umask``: the mode a program's new file gets."""
    mask = os.umask(0o022)  # read the umask (the only portable way) and put it back
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def atomic_path(name: str, path, *, suffix: str = ""):
    """Yield a temporary path beside the target of ``path`` (:func:`output_file`); when the
    block ends without error the temporary file replaces the target, with the target's mode
    if it existed and :func:`new_file_mode` otherwise.  On any error (or Ctrl-C) the
    temporary file is removed and the target is left as it was."""
    target = output_file(name, path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".symdp-", suffix=suffix or ".tmp")
    except OSError as exc:
        raise InvalidParameterError(f"{name}: cannot write {str(target)!r}: "
                                    f"{exc.strerror or type(exc).__name__}") from None
    os.close(fd)
    try:
        yield tmp
        try:
            mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else new_file_mode()
            os.chmod(tmp, mode)
            os.replace(tmp, target)
        except OSError as exc:
            raise InvalidParameterError(f"{name}: cannot write {str(target)!r}: "
                                        f"{exc.strerror or type(exc).__name__}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def atomic_write_all(outputs) -> list[Path]:
    """Write every ``(name, path, data)`` of ``outputs`` as :func:`atomic_write` does, all or
    none: each goes to a temporary file first, and the targets are replaced only when every
    temporary file is complete (a failure on the second output leaves the first untouched)."""
    with contextlib.ExitStack() as stack:
        temporaries = [(stack.enter_context(atomic_path(name, path)), name, path, data)
                       for name, path, data in outputs]
        for tmp, name, path, data in temporaries:
            payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
            try:
                with open(tmp, "wb") as fh:
                    fh.write(payload)
            except OSError as exc:
                raise InvalidParameterError(f"{name}: cannot write {str(path)!r}: "
                                            f"{exc.strerror or type(exc).__name__}") from None
    return [output_file(name, path) for name, path, _ in outputs]


def atomic_write(name: str, path, data) -> Path:
    """Write ``data`` (str as UTF-8, or bytes) to ``path`` as :func:`atomic_path` does;
    return the path written (the link's target for a symbolic link)."""
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    with atomic_path(name, path) as tmp:
        try:
            with open(tmp, "wb") as fh:
                fh.write(payload)
        except OSError as exc:  # e.g. no space left on the device
            raise InvalidParameterError(f"{name}: cannot write {str(path)!r}: "
                                        f"{exc.strerror or type(exc).__name__}") from None
    return output_file(name, path)


def read_input(name: str, path, *, max_bytes: int, stdin=None) -> bytes:
    """The bytes of the input file ``path`` for option ``name`` (e.g. ``"--event"``), at most
    ``max_bytes`` of them; ``"-"`` reads ``stdin`` (a binary stream) when one is given.

    Refused with :class:`InvalidParameterError` naming ``name`` and the path, before anything
    is read: a path under :data:`KERNEL_DIRECTORIES`, anything that is not a regular file
    (a FIFO is opened without blocking, so a FIFO with no writer does not hang), a file
    larger than ``max_bytes``, a path the system cannot open (a name too long, missing,
    unreadable: the system's reason is said)."""
    if path == "-" and stdin is not None:
        data = stdin.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InvalidParameterError(f"{name}: the standard input has more than the limit of "
                                        f"{max_bytes} bytes")
        return data
    text = _text(name, path)
    real = os.path.realpath(text)
    for directory in KERNEL_DIRECTORIES:
        if real == directory or real.startswith(directory + "/"):
            raise InvalidParameterError(
                f"{name} must be a regular file; {text!r} is under {directory}, an interface of "
                f"the system, not a file symdp reads")
    try:
        fd = os.open(text, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise InvalidParameterError(f"{name}: cannot read {text!r} "
                                    f"({exc.strerror or type(exc).__name__})") from None
    mode = os.fstat(fd)
    if not stat.S_ISREG(mode.st_mode) or mode.st_size > max_bytes:
        os.close(fd)
        if not stat.S_ISREG(mode.st_mode):
            raise InvalidParameterError(f"{name} must be a regular file, not "
                                        f"{_kind(mode.st_mode)}; got {name}={text!r}")
        raise InvalidParameterError(f"{name}: {text!r} has {mode.st_size} bytes, more than "
                                    f"the limit of {max_bytes}")
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(max_bytes + 1)
        except OSError as exc:
            raise InvalidParameterError(f"{name}: cannot read {text!r} "
                                        f"({exc.strerror or type(exc).__name__})") from None
    if len(data) > max_bytes:
        raise InvalidParameterError(f"{name}: {text!r} has more than the limit of {max_bytes} "
                                    f"bytes")
    return data


def input_text(name: str, path, data: bytes) -> str:
    """``data`` (read from ``path`` by :func:`read_input`) as UTF-8 text, a leading byte-order
    mark dropped; else :class:`InvalidParameterError` naming ``name`` and the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidParameterError(f"{name} must be UTF-8 text; {str(path)!r} is not "
                                    f"(byte {exc.start})") from None
