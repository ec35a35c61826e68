"""``symdp check``: the summary line says the scope; ``--require-proof`` (issue #12).  The
commands run in this process (what they print and return is tested here; their process,
in tests/cli/test_cli.py)."""

import subprocess
from pathlib import Path

import pytest

from symdp.cli.main import main

ROOT = Path(__file__).resolve().parents[2]

PROOF = """\
import sympy as sp
from symdp.proof import Derivation, Step, Verdict
x = sp.Symbol('x')
derivation = Derivation('scopes', 'three kinds of verdict', 'test', {x: sp.Interval(0, 1)},
    (Step(x**2, '<=', x, 'square'),
     # the numeric stage only: checked at points, whatever the other stages could do
     Step(sp.sin(x)**2 + sp.cos(x)**2, '=', 1, 'Pythagoras', skip=('symbolic', 'certified')),
     Step(x, '>=', 1, 'printed', expect=Verdict.REFUTED)),
    chained=False)
"""


@pytest.fixture
def symdp(capsys):
    def run(*args):
        rc = main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, rc, out.out, out.err)
    return run


def test_summary_line_and_require_proof(tmp_path, symdp):
    proof = tmp_path / "scopes.py"
    proof.write_text(PROOF)
    r = symdp("check", "--jobs", "1", str(proof))
    assert r.returncode == 0, r.stdout + r.stderr  # the default keeps today's exit codes
    last = r.stdout.rstrip().splitlines()[-1]
    assert last == ("1 of 3 steps hold for every parameter value; 1 checked at points only; "
                    "1 findings reproduced; all 3 checked now")
    assert "NUMERIC_AT_POINTS" in r.stdout
    strict = symdp("check", "--jobs", "1", "--require-proof", str(proof))
    assert strict.returncode == 1
    assert "NOT PROVED (--require-proof" in strict.stdout
    listed = strict.stdout.split("NOT PROVED", 1)[1]
    assert "scopes, step 2: NUMERIC_AT_POINTS" in listed and "step 1" not in listed
    assert strict.stdout.rstrip().endswith("--require-proof: 1 step(s) do not hold for every "
                                           "parameter value")


def test_require_proof_passes_when_every_step_holds_everywhere(symdp):
    r = symdp("check", "--jobs", "1", "--require-proof",
              str(ROOT / "proofs" / "fdp_gaussian_duality.py"))
    assert r.returncode == 0 and "NOT PROVED" not in r.stdout


def test_step_prints_its_scope_in_words(symdp):
    r = symdp("step", "x", "<=", "2", "--assume", "0<=x<=1")
    assert r.returncode == 0
    assert "\nscope: holds for every parameter value" in r.stdout
    r = symdp("step", "x", ">=", "1/2", "--assume", "0<=x<=1")
    assert r.returncode == 1 and "\nscope: does not hold: a counterexample" in r.stdout
