"""Every copy-paste example of README.md runs.

Each line of a ```bash block is a command (comments stripped) and must exit 0 (``symdp
step`` examples that refute exit 1 by design and are not in the README); each ```python
block runs as a script.  Commands run in a scratch directory that links ``proofs/``, with
``symdp`` from this checkout.

Two kinds of lines are not run here, each for a stated reason:

* ``pip install ...`` -- the install commands, which CI itself runs (the second runs this
  test suite);
* commands that check *every* derivation in ``proofs/`` -- they take minutes; they run
  with ``SYMDP_SLOW=1`` (``SYMDP_SLOW=1 python -m pytest tests/test_readme_examples.py``).
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: commands that check all of proofs/ (minutes): run only with SYMDP_SLOW=1
SLOW = {"symdp check", "symdp check --json report.json", "symdp report --out out --pdf"}


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


@pytest.fixture
def scratch(tmp_path):
    (tmp_path / "proofs").symlink_to(ROOT / "proofs", target_is_directory=True)
    return tmp_path


def test_readme_has_the_main_sections():
    for title in ("## Check the papers' derivations", "## Check a step typed in LaTeX",
                  "## Export LaTeX", "## Plot"):
        assert title in README


@pytest.mark.parametrize("command", _commands())
def test_readme_command_runs(command, scratch):
    if command.startswith("pip install"):
        pytest.skip("install command: CI runs it (and the second one runs this test suite)")
    if command in SLOW and os.environ.get("SYMDP_SLOW") != "1":
        pytest.skip("checks every derivation in proofs/ (minutes): set SYMDP_SLOW=1 to run it")
    argv = shlex.split(command)
    assert argv[0] == "symdp", f"a README command that is not symdp: {command}"
    if command.startswith("symdp report") and "--pdf" in argv:
        import shutil

        if shutil.which("pdflatex") is None:
            pytest.skip("pdflatex is not on PATH (install TeX Live)")
    r = subprocess.run([sys.executable, "-m", "symdp.cli.main", *argv[1:]], cwd=scratch,
                       env=_env(), capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"{command}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    for word in argv:  # every file the command says it writes exists
        if word.endswith((".png", ".pdf", ".json")):
            assert (scratch / word).exists(), word


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_readme_python_block_runs(index, scratch):
    code = _blocks("python")[index]
    script = scratch / f"example_{index}.py"
    script.write_text(code, encoding="utf-8")
    r = subprocess.run([sys.executable, str(script)], cwd=scratch, env=_env(),
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"{code}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
