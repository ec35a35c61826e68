"""Every copy-paste example of README.md runs.

Each line of a ```bash block is a command (comments stripped) and must exit 0 (``symdp
step`` examples that refute exit 1 by design and are not in the README); each ```python
block runs as a script.  Commands run in a scratch directory that links ``proofs/``, with
``symdp`` from this checkout.

The ``pip install ...`` lines are not run here: CI runs them itself (the second runs this
test suite, and with it the first line's ``symdp check``, whose exit code the README's
``symdp check --json report.json`` line checks here).

Every derivation in ``proofs/`` is checked once per test session, by the README's
``symdp check --json FILE`` line: the ``proofs_check`` fixture (tests/conftest.py, issue #30)
runs it -- reusing, through the cache, what the README's first command checked -- or reads
the report CI's step 1 wrote (``SYMDP_CHECK_JSON``); the line's test reads that run.  A line
that reads the file (``symdp report --from-json FILE ...``) runs in the same directory after
it, and its PDF is verified against the JSON: one section per derivation, one verdict per
step with the JSON's counts, in the ``.tex`` and (with ``pdftotext``) in the PDF's text.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

VERDICTS = ("PROVED", "CERTIFIED", "ENUMERATED", "CHECKED_AT_POINTS", "NUMERIC_AT_POINTS", "UNDECIDED", "REFUTED")


def _blocks(language):
    return re.findall(r"```%s\n(.*?)```" % language, README, re.S)


def _commands():
    out = []
    for block in _blocks("bash"):
        for line in block.splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["MPLBACKEND"] = "Agg"
    return env


def _link_proofs(directory: Path) -> Path:
    (directory / "proofs").symlink_to(ROOT / "proofs", target_is_directory=True)
    return directory


@pytest.fixture
def scratch(tmp_path):
    return _link_proofs(tmp_path)


def _option(argv, name):
    return argv[argv.index(name) + 1] if name in argv[:-1] else None


def _writer_of(path: str) -> str:
    """The README command that writes ``path`` with ``--json``."""
    for command in _commands():
        if _option(shlex.split(command), "--json") == path:
            return command
    raise AssertionError(f"no README command writes {path} (symdp check --json {path})")


@pytest.fixture(scope="module")
def sequence(tmp_path_factory):
    """One directory for the commands that write or read a check's JSON, and each such
    command's result, so that the full check runs once however the tests are selected."""
    return {"dir": _link_proofs(tmp_path_factory.mktemp("readme-sequence")), "runs": {}}


def _run(argv, cwd):
    return subprocess.run([sys.executable, "-m", "symdp.cli.main", *argv[1:]], cwd=cwd,
                          env=_env(), capture_output=True, text=True, timeout=900)


@dataclass(frozen=True)
class _Ran:
    returncode: int
    stdout: str | None   # None: the run's report was read from SYMDP_CHECK_JSON
    stderr: str = ""


def _run_once(command, sequence, proofs_check):
    runs = sequence["runs"]
    if command not in runs:
        argv = shlex.split(command)
        if argv[:3] == ["symdp", "check", "--json"] and len(argv) == 4:
            # the whole check of proofs/: the session's one run of this very command
            shutil.copyfile(proofs_check.path, sequence["dir"] / argv[3])
            code = proofs_check.returncode
            if code is None:
                code = 0 if proofs_check.data["summary"]["ok"] else 1
            runs[command] = _Ran(code, proofs_check.stdout)
        else:
            runs[command] = _run(argv, sequence["dir"])
    return runs[command]


def test_readme_has_the_main_sections():
    for title in ("## Check the papers' derivations", "## Check a step typed in LaTeX",
                  "## Export LaTeX", "## Plot"):
        assert title in README


@pytest.mark.parametrize("command", _commands())
def test_readme_command_runs(command, scratch, sequence, proofs_check):
    if command.startswith("pip install"):
        pytest.skip("install command: CI runs it (and the second one runs this test suite)")
    argv = shlex.split(command)
    assert argv[0] == "symdp", f"a README command that is not symdp: {command}"
    if command.startswith("symdp report") and "--pdf" in argv:
        if shutil.which("pdflatex") is None:
            pytest.skip("pdflatex is not on PATH (install TeX Live)")
    reads = _option(argv, "--from-json")
    if reads is not None or _option(argv, "--json") not in (None, "-"):
        if reads is not None:  # the check that writes the file first (once)
            writer = _run_once(_writer_of(reads), sequence, proofs_check)
            assert writer.returncode == 0, f"{_writer_of(reads)}\n{writer.stderr[-2000:]}"
        r, cwd = _run_once(command, sequence, proofs_check), sequence["dir"]
    else:
        r, cwd = _run(argv, scratch), scratch
    assert r.returncode == 0, f"{command}\n{(r.stdout or '')[-2000:]}\n{r.stderr[-2000:]}"
    for word in argv:  # every file the command says it writes exists
        if word.endswith((".png", ".pdf", ".json")):
            assert (cwd / word).exists(), word
    if _option(argv, "--json") not in (None, "-"):
        data = json.loads((cwd / _option(argv, "--json")).read_text(encoding="utf-8"))
        assert data["schema"] == "symdp-check/4" and data["summary"]["ok"] is True
        if r.stdout is not None:
            assert "all verdicts match their expectations" in r.stdout  # the table too
            assert data["summary"]["line"] in r.stdout
    if reads is not None:
        _verify_document(cwd / reads, cwd / _option(argv, "--out"), "--pdf" in argv, r.stdout)


def _verify_document(json_path: Path, out: Path, pdf: bool, stdout: str):
    """The document typeset from a check's JSON shows every derivation with its verdicts:
    counted in the .tex and in the PDF's text, against the JSON's own records."""
    data = json.loads(json_path.read_text(encoding="utf-8"))
    ids = [d["id"] for d in data["derivations"]]
    steps = [s for d in data["derivations"] for s in d["steps"]]
    assert len(ids) >= 10 and len(steps) == data["summary"]["steps"]
    expected = {v: sum(1 for s in steps if s["verdict"] == v) for v in VERDICTS}
    tex = (out / "symdp-report.tex").read_text(encoding="utf-8")
    headings = re.findall(r"\\subsection\{(.*?)\}\n", tex)
    assert [h.replace(r"\_\allowbreak{}", "_") for h in headings] == ids
    # verdict names are escaped in the LaTeX (CHECKED\_AT\_POINTS)
    found = {v: len(re.findall(r"^Verdict: \\textbf\{%s\}" % re.escape(v.replace("_", r"\_")), tex, re.M))
             for v in VERDICTS}
    assert found == expected
    assert tex.count("(recorded finding") == sum(1 for s in steps if s["finding"])
    if not pdf:
        return
    document = out / "symdp-report.pdf"
    assert document.read_bytes().startswith(b"%PDF")
    assert not list(out.glob(".symdp-report-*")), "a temporary build directory was left"
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(document)], capture_output=True, text=True)
        pages = int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1))
    else:  # pdflatex's own count, as symdp report relays it
        pages = int(re.search(r"symdp-report\.pdf \((\d+) pages\)", stdout).group(1))
    assert pages >= len(ids) // 2, f"{pages} pages for {len(ids)} derivations"
    if shutil.which("pdftotext") is None:
        return
    text = subprocess.run(["pdftotext", str(document), "-"], capture_output=True,
                          text=True, check=True).stdout
    # pdftotext gives the underscore of CHECKED\_AT\_POINTS as a space
    # (ENUMERATED must not count ENUMERATED ON RANGE)
    shown = {v: len(re.findall(r"Verdict:\s+%s\b(?![ _][A-Z])" % v.replace("_", "[ _]"), text))
             for v in VERDICTS}
    assert shown == expected, "verdicts in the PDF's text differ from the JSON"
    words = " ".join(text.replace("_", " ").split())
    missing = [i for i in ids if " ".join(i.split("_")) not in words]
    assert not missing, f"derivations not in the PDF's text: {missing[:5]}"


@pytest.fixture(scope="module")
def python_block(tmp_path_factory):
    """Each ```python block run once as a script, in a scratch directory of its own that links
    ``proofs/``: ``python_block(index)`` is its completed process, for every test that reads it."""
    runs = {}

    def run(index):
        if index not in runs:
            directory = _link_proofs(tmp_path_factory.mktemp(f"readme-python-{index}"))
            script = directory / f"example_{index}.py"
            script.write_text(_blocks("python")[index], encoding="utf-8")
            runs[index] = subprocess.run([sys.executable, str(script)], cwd=directory, env=_env(),
                                         capture_output=True, text=True, timeout=900)
        return runs[index]

    return run


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_readme_python_block_runs(index, python_block):
    code = _blocks("python")[index]
    r = python_block(index)
    assert r.returncode == 0, f"{code}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"


def test_readme_tradeoff_block_prints_the_digits_it_computes(python_block):
    """The trade-off block's numbers print the precision they were computed at (issue #14:
    they printed 15 digits) and agree with the definitions computed here with mpmath."""
    import mpmath

    r = python_block(next(i for i, b in enumerate(_blocks("python")) if "evaluate_many" in b))
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    inverse, exact, certified, back = lines[3], lines[4], lines[5], lines[6]

    def digits(text):
        return len(text.replace("-", "").replace(".", "").lstrip("0"))

    with mpmath.workdps(80):
        def g1(t):  # G_1(t) = Phi(Phi^-1(1 - t) - 1) (Dong, Roth, Su 2022, Def. 2.7)
            return mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * t - 1) - 1)

        # f = (G_1)_{1/2} = G_1/2 + (1 - alpha)/2; f^-1(1/3) solves f(t) = 1/3
        t = mpmath.findroot(lambda t: g1(t) / 2 + (1 - t) / 2 - mpmath.mpf(1) / 3, (0.3, 0.7),
                            solver="anderson")
        assert digits(inverse) >= 40 and abs(mpmath.mpf(inverse) - t) < mpmath.mpf(10) ** -39
        assert exact == "9/10 - E/20"
        assert digits(certified) == 50
        assert abs(mpmath.mpf(certified) - mpmath.ncdf(-1)) < mpmath.mpf(10) ** -50
        assert digits(back) >= 30
        assert abs(mpmath.mpf(back) - g1(mpmath.mpf(1) / 5)) < mpmath.mpf(10) ** -30
