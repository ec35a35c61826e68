"""The cache of ``symdp check`` (issue #30, ``symdp/proof/cache.py``): a derivation whose proof
file, modules, libraries and options did not change is reused, and the output says how;
anything that changed is checked again; an entry that does not match its key, or whose
certificate the kernel does not replay, is discarded and checked again -- never trusted.

The cold run over the two proof files is made once per module, in a ``symdp`` process of its
own (:func:`cold`); each test that starts from it runs ``symdp check`` in this process on a copy
of its cache -- a cache another process wrote.  In this process or not, each derivation is
checked in a worker process of its own (:mod:`symdp.proof.runner`)."""

import contextlib
import io
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from symdp.cli.main import main
from symdp.proof.cache import CheckCache, dependencies, replayable

ROOT = Path(__file__).resolve().parents[2]

PROOF = """\
import sympy as sp
from symdp.proof import Derivation, Step, Verdict
{extra}
x = sp.Symbol('x')
derivation = Derivation({ident!r}, 'three verdicts', 'test', {{x: sp.Interval(0, 1)}},
    (Step(x**2, '<=', x, 'square'),
     Step(sp.sin(x)**2 + sp.cos(x)**2, '=', 1, 'Pythagoras', skip=('symbolic', 'certified')),
     Step(x, '>=', {bound}, 'printed', expect=Verdict.REFUTED)),
    chained=False)
"""


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


def symdp(*argv) -> Run:
    """``symdp argv`` in this process: its exit code and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return Run(rc, out.getvalue(), err.getvalue())


def check(*args, cache):
    out = cache.parent / f"run-{len(list(cache.parent.glob('run-*.json')))}.json"
    r = symdp("check", *args, "--cache", cache, "--json", out, "--jobs", "2")
    assert r.returncode in (0, 1), r.stderr
    return r, json.loads(out.read_text())


def origins(data):
    """{derivation id: [origin word of each step]} ("recorded <key>" -> "recorded")."""
    return {d["id"]: [s["origin"].split(" ")[0] if s["origin"].startswith("recorded")
                      else s["origin"] for s in d["steps"]] for d in data["derivations"]}


def verdicts(data):
    return {(d["id"], s["index"]): (s["verdict"], s["detail"], tuple(s["hypotheses"]))
            for d in data["derivations"] for s in d["steps"]}


def write_proofs(directory):
    directory.mkdir()
    (directory / "a_first.py").write_text(PROOF.format(extra="", ident="first", bound=1))
    (directory / "b_second.py").write_text(PROOF.format(extra="", ident="second", bound=1))
    return directory


@pytest.fixture
def proofs(tmp_path):
    """The two proof files, as the cold run checked them, for a test to edit."""
    return write_proofs(tmp_path / "proofs")


@dataclass(frozen=True)
class Cold:
    proofs: Path     # never edited: a test that edits copies them (``proofs``)
    cache: Path      # never written after the cold run: a test copies it (``cache``)
    run: subprocess.CompletedProcess
    data: dict


@pytest.fixture(scope="module")
def cold(tmp_path_factory):
    """The first run over the two proof files, into an empty cache: a ``symdp`` process."""
    base = tmp_path_factory.mktemp("cold")
    proofs, cache, out = write_proofs(base / "proofs"), base / "cache", base / "cold.json"
    r = subprocess.run([sys.executable, "-m", "symdp.cli.main", "check", str(proofs),
                        "--cache", str(cache), "--json", str(out), "--jobs", "2"],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return Cold(proofs, cache, r, json.loads(out.read_text()))


@pytest.fixture
def cache(cold, tmp_path):
    """A copy of the cold run's cache, this test's own."""
    return Path(shutil.copytree(cold.cache, tmp_path / "cache"))


@pytest.fixture(scope="module")
def warm(cold, tmp_path_factory):
    """The second run over the unchanged files, on a copy of the cold run's cache:
    (its output, its JSON, its cache)."""
    cache = Path(shutil.copytree(cold.cache, tmp_path_factory.mktemp("warm") / "cache"))
    return (*check(cold.proofs, cache=cache), cache)


@pytest.fixture(scope="module")
def uncached(cold, tmp_path_factory):
    """``symdp check --no-cache --json -`` over the unchanged files, with ``$SYMDP_CACHE_DIR``
    an empty directory: (its JSON, that directory)."""
    directory = tmp_path_factory.mktemp("uncached") / "cache"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SYMDP_CACHE_DIR", str(directory))
        r = symdp("check", cold.proofs, "--no-cache", "--json", "-")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), directory


def test_an_unchanged_run_reuses_everything_and_says_how(cold, warm):
    assert origins(cold.data) == {"first": ["checked now"] * 3, "second": ["checked now"] * 3}
    assert cold.data["summary"]["line"].endswith("; all 6 checked now")
    again, data, cache = warm
    # the proved step's certificate is replayed by the kernel; the evidence at points and the
    # refutation have none: they are reused as recorded
    assert origins(data) == {"first": ["replayed", "recorded", "recorded"],
                             "second": ["replayed", "recorded", "recorded"]}
    assert verdicts(data) == verdicts(cold.data)
    assert data["summary"]["origins"] == {"checked now": 0, "replayed": 2, "recorded": 4}
    assert "0 checked now, 2 replayed by the kernel from the cache, 4 recorded in the cache" \
        in again.stdout
    key = data["derivations"][0]["steps"][1]["origin"].split(" ")[1]
    assert len(key) == 12 and list(cache.glob(f"v1/entries/{key[:2]}/{key}*.json"))
    assert "recorded " + key in again.stdout   # the table says it too


def test_editing_one_proof_file_checks_only_its_derivations_again(cold, proofs, cache):
    (proofs / "a_first.py").write_text(PROOF.format(extra="", ident="first", bound="sp.Rational(1, 2)"))
    _, warm = check(proofs, cache=cache)
    assert origins(warm)["first"] == ["checked now"] * 3
    assert "checked now" not in origins(warm)["second"]
    assert warm["derivations"][0]["steps"][2]["counterexample"] != \
        cold.data["derivations"][0]["steps"][2]["counterexample"]   # the new claim, checked


def test_changing_a_module_checks_again_the_derivations_whose_check_loaded_it(proofs, tmp_path):
    helper = tmp_path / "helpers" / "proof_helper.py"
    helper.parent.mkdir()
    helper.write_text("BOUND = 1\n")
    uses = f"import sys; sys.path.insert(0, {str(helper.parent)!r}); import proof_helper"
    (proofs / "a_first.py").write_text(PROOF.format(extra=uses, ident="first",
                                                    bound="proof_helper.BOUND"))
    cache = tmp_path / "cache"
    check(proofs, cache=cache)
    _, unchanged = check(proofs, cache=cache)
    assert "checked now" not in origins(unchanged)["first"]
    helper.write_text("BOUND = 1  # edited\n")
    _, warm = check(proofs, cache=cache)
    assert origins(warm)["first"] == ["checked now"] * 3          # it imports the module
    assert "checked now" not in origins(warm)["second"]           # it does not


def test_the_key_holds_symdps_modules_that_the_check_loaded_and_no_others(cold, tmp_path):
    (manifest,) = [json.loads(p.read_text()) for p in cold.cache.glob("v1/files/*.json")
                   if "first" in p.read_text()]
    modules = manifest["deps"]["first"]["modules"]
    assert {"symdp.proof.kernel", "symdp.proof.check", "symdp.proof.cascade.numeric"} <= set(modules)
    assert modules["symdp.proof.kernel"] == str((ROOT / "symdp/proof/kernel/__init__.py").resolve())
    # modules its check never loaded are no part of its key: editing them re-checks nothing
    assert not any(m.startswith(("symdp.accountant", "symdp.cli", "symdp.plotting"))
                   for m in modules)
    assert {"sympy", "mpmath", "z3-solver", "python-flint"} <= set(manifest["deps"]["first"]["packages"])
    # and a changed text of one of them gives another key
    c = CheckCache(tmp_path / "cache", dps=(30, 60), certify=True)
    copy = tmp_path / "copy_of_kernel.py"
    copy.write_text((ROOT / "symdp/proof/kernel/__init__.py").read_text())
    before = c.key("p", "first", {"modules": {"symdp.proof.kernel": str(copy)}, "packages": []})
    copy.write_text(copy.read_text() + "\n# edited\n")
    c = CheckCache(tmp_path / "cache", dps=(30, 60), certify=True)   # a new run reads the text again
    after = c.key("p", "first", {"modules": {"symdp.proof.kernel": str(copy)}, "packages": []})
    assert before != after


def test_the_options_are_part_of_the_key(cold, cache):
    _, other = check(cold.proofs, "--no-certify", cache=cache)
    assert set(w for ws in origins(other).values() for w in ws) == {"checked now"}
    _, again = check(cold.proofs, "--dps", "40", cache=cache)
    assert set(w for ws in origins(again).values() for w in ws) == {"checked now"}


def _entries(cache):
    return sorted(cache.glob("v1/entries/*/*.json"))


def test_a_corrupted_entry_is_discarded_and_checked_again(cold, cache):
    entries = _entries(cache)
    assert len(entries) == 2
    data = json.loads(entries[0].read_text())
    # the verdict of the stored record changed by hand: the digest no longer matches
    data["record"]["steps"][0]["verdict"] = "REFUTED"
    entries[0].write_text(json.dumps(data))
    r, warm = check(cold.proofs, cache=cache)
    assert "discarded" in r.stderr and "does not match its digest" in r.stderr
    ident = data["id"]
    assert origins(warm)[ident] == ["checked now"] * 3
    assert verdicts(warm) == verdicts(cold.data)
    entries[1].write_bytes(b"\x00not json")
    r, warm = check(cold.proofs, cache=cache)
    assert "not the JSON symdp writes" in r.stderr
    assert verdicts(warm) == verdicts(cold.data)


def test_an_entry_whose_certificate_the_kernel_does_not_replay_is_discarded(cold, cache):
    c = CheckCache(cache, dps=(30, 60), certify=True)
    path = _entries(cache)[0]
    data = json.loads(path.read_text())
    del data["digest"], data["format"]
    (index, blob), = data["replays"]
    data["replays"] = [[2, blob]]   # step 1's certificate offered for step 3's claim
    c._store(path, data)            # a well-formed entry, with its digest
    r, warm = check(cold.proofs, cache=cache)
    assert "did not replay its certificate" in r.stderr
    assert "stored for another claim than the step's" in r.stderr
    assert origins(warm)[data["id"]] == ["checked now"] * 3
    assert verdicts(warm) == verdicts(cold.data)


REPLAYED_PROOF = """\
import sympy as sp
from symdp.proof import Derivation, Step, Verdict
x = sp.Symbol('x')
derivation = Derivation('replayed', 'a true step and a false one', 'test',
    {x: sp.Interval(0, 1)},
    (Step(x**2, '<=', x, 'true on [0, 1]'),
     Step(x, '<=', x**2, 'false on (0, 1)', expect=Verdict.REFUTED)),
    chained=False)
"""


def _replay_setup(tmp_path, text=REPLAYED_PROOF):
    """The proof file, its derivation checked in this process, and the blob of step 1."""
    from symdp.proof.cache import replay_blob
    from symdp.proof.check import check_derivation
    from symdp.proof.loader import load_file

    path = tmp_path / "replayed_proof.py"
    path.write_text(text)
    (derivation,) = load_file(path)
    report = check_derivation(derivation)
    assert report.steps[0].verdict.holds_everywhere
    assert report.steps[1].verdict.value == "REFUTED"   # x = 1/2: 1/2 <= 1/4 fails
    blob = replay_blob(derivation.steps[0], derivation, report.steps[0])
    assert blob is not None
    return path, derivation, blob


def test_a_replay_rebuilds_the_claim_from_the_step_and_goes_through_the_one_door(tmp_path):
    import base64
    import pickle

    from symdp.proof import kernel
    from symdp.proof.cache import replay_file, step_text

    path, derivation, blob = _replay_setup(tmp_path)
    first, second = (step_text(s) for s in derivation.steps)
    assert replay_file(path, [("replayed", [(0, first, blob)])]) == {"replayed": [None]}
    # step 1's certificate and claim, offered for step 2 (its record's text is step 2's):
    # the claim rebuilt from step 2 is not the stored one
    (why,) = replay_file(path, [("replayed", [(1, second, blob)])])["replayed"]
    assert why == "its certificate is stored for another claim than the step's"
    # the stored claim rewritten to step 2's: the kernel, asked about step 2's claim, refuses
    # step 1's certificate
    from symdp.proof.check import step_claim

    certificate, _, verdict = pickle.loads(base64.b64decode(blob))
    forged = base64.b64encode(pickle.dumps(
        (certificate, step_claim(derivation.steps[1], derivation), verdict))).decode()
    (why,) = replay_file(path, [("replayed", [(1, second, forged)])])["replayed"]
    assert why is not None and why.startswith("the kernel gives UNDECIDED, not PROVED")
    # mutant: a replay that trusted the stored claim would let step 1's certificate "hold"
    # for a record of the false step 2
    trusted = kernel.accept(pickle.loads(base64.b64decode(blob))[1], certificate)
    assert trusted.verdict.holds_everywhere
    # a record whose text is not the step's, and a step no longer defined, are refused
    (why,) = replay_file(path, [("replayed", [(0, second, blob)])])["replayed"]
    assert why == "its record shows another claim than the step's"
    (why,) = replay_file(path, [("replayed", [(5, first, blob)])])["replayed"]
    assert why == "its step is no longer defined"


def test_a_replay_of_a_file_that_no_longer_imports_is_refused(tmp_path):
    from symdp.proof.cache import replay_file, step_text

    path, derivation, blob = _replay_setup(tmp_path)
    path.write_text(REPLAYED_PROOF + "raise RuntimeError('broken')\n")
    (why,) = replay_file(path, [("replayed", [(0, step_text(derivation.steps[0]), blob)])])[
        "replayed"]
    assert why.startswith("its proof file does not import: RuntimeError: broken")


def test_verdicts_are_the_same_with_and_without_the_cache(warm, uncached):
    _, cached, _ = warm
    fresh, _ = uncached
    assert verdicts(cached) == verdicts(fresh)
    assert set(w for ws in origins(fresh).values() for w in ws) == {"checked now"}


def test_no_cache_reads_and_writes_no_entry(uncached):
    _, directory = uncached
    assert _entries(directory) == []


def test_which_certificates_are_replayed():
    import sympy as sp
    from symdp.proof.certificates import FiniteCertificate, StructuralCertificate

    x = sp.Symbol("x")
    assert replayable(StructuralCertificate(x, x, "=", "structural"))
    small = FiniteCertificate(x, x, "<=", "enumeration", values=((x, tuple(range(10))),))
    large = FiniteCertificate(x, x, "<=", "enumeration", values=((x, tuple(range(1000))),))
    assert replayable(small) and not replayable(large)
    # a certificate about a symdp object's closed form, not about the written side: binding
    # the two (comparing them at points) is the costly part of the kernel's acceptance
    from symdp.core.special import Phi
    from symdp.proof.certificates import Claim, Domain, SymbolicCertificate

    domain = Domain.of({x: sp.Interval(0, 1)}, (), ())
    written = Claim(Phi(x), "<=", 1, domain)
    closed = SymbolicCertificate(sp.erfc(-x / sp.sqrt(2)) / 2, sp.Integer(1), "<=", "symbolic",
                                 "simplify")
    assert not replayable(closed, written)
    assert replayable(SymbolicCertificate(Phi(x), sp.Integer(1), "<=", "symbolic", "simplify"),
                      written)
    assert replayable(closed, Claim(sp.erfc(-x / sp.sqrt(2)) / 2, "<=", 1, domain))


def test_dependencies_keep_symdp_sources_and_name_distributions():
    deps = dependencies()
    assert "symdp.proof.cache" in deps["modules"]
    assert not any(m.startswith("sympy") for m in deps["modules"])   # by version instead
    assert "sympy" in deps["packages"]
