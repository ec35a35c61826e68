r"""``symdp check`` over proofs/ before and after issue #30, side by side in one run.

    python -m benchmarks.check                      # baseline 935fb91 vs this checkout, --jobs 2
    python -m benchmarks.check --baseline HEAD~3 --jobs 1 --markdown table.md
    python -m benchmarks.check --no-baseline        # this checkout only

Rows, each the wall-clock and CPU time (user + system, summed over every process of the run:
the processes are waited for, so their time is counted in this script's children):

1. a cold run: ``symdp check --jobs N --json`` over a copy of proofs/, with an empty cache;
2. an unchanged re-run: the same command again (the derivations are reused from the cache);
3. a re-run after editing one proof file (a comment appended to ``--touch FILE``): its
   derivations are checked again, the others reused;
4. a run with ``--no-cache`` (every derivation checked; the work ordered by the costs the
   cold run recorded).

The baseline is the code of ``--baseline`` (default 935fb91: main as merged into this branch,
without issue #30's changes -- the same kernel, so the verdicts compare; 46e320b is the commit
issue #30 started from) in a temporary ``git worktree``, run by the same Python on the same copy of proofs/;
it has no cache, so each of its runs is a cold run: it is measured once and shown in rows 1-3.
The verdicts of every run are compared step by step with the baseline's
(:func:`benchmarks.determinism.differences`): the table says whether they are identical.
The machine and its load are printed: on a shared machine compare CPU times and ratios of
the same run, not wall times across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .determinism import differences, step_verdicts

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "935fb91"
TOUCH = "fdp_symmetry_and_fixed_points.py"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(command, cwd, env):
    """Run ``command``; ``(wall seconds, CPU seconds of it and all its processes, exit code,
    stdout)``."""
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    return time.perf_counter() - start, _children_cpu() - cpu, done.returncode, done.stdout


def _check(python_path, proofs, out, jobs, extra=(), cache=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(python_path) + (os.pathsep + env["PYTHONPATH"]
                                            if env.get("PYTHONPATH") else "")
    if cache is not None:
        env["SYMDP_CACHE_DIR"] = str(cache)
    command = [sys.executable, "-m", "symdp.cli.main", "check", str(proofs), "--jobs",
               str(jobs), "--json", str(out), *extra]
    wall, cpu, code, stdout = measured(command, python_path, env)
    if code not in (0, 1) or not out.exists():
        raise RuntimeError(f"{' '.join(command[2:])} in {python_path} exited {code}")
    return wall, cpu, json.loads(out.read_text()), stdout


def _baseline_tree(commit: str, where: Path) -> Path:
    tree = where / "baseline"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
                   check=True, capture_output=True, text=True)
    return tree


def _remove_tree(tree: Path):
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                   capture_output=True, text=True)


def _imports_from(tree: Path) -> str:
    """Where ``symdp`` is imported from with ``tree`` first on the path (must be ``tree``)."""
    return subprocess.run([sys.executable, "-c", "import symdp, os; print(os.path.dirname("
                           "os.path.dirname(symdp.__file__)))"], cwd=tree, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(tree)}).stdout.strip()


def _same(first, second) -> str:
    lines = differences(first, second)
    return "identical" if not lines else f"**{len(lines)} differ**: {lines[0]}"


def machine() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{platform.platform()}; {os.cpu_count()} CPUs; load average {load:.1f} at start; "
            f"python {platform.python_version()}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.check",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE, metavar="COMMIT",
                        help=f"the commit to compare with (default {BASELINE})")
    parser.add_argument("--no-baseline", action="store_true", help="this checkout only")
    parser.add_argument("--jobs", type=int, default=2, help="symdp check --jobs (default 2)")
    parser.add_argument("--touch", default=TOUCH, metavar="FILE",
                        help=f"the proof file edited before row 3 (default {TOUCH})")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table to FILE")
    parser.add_argument("--keep", metavar="DIR", help="keep the reports in DIR")
    parser.add_argument("--runs", default="cold,unchanged,touched,no-cache",
                        help="the runs of this checkout, in order (default: all four; the "
                        "second and third need the first)")
    args = parser.parse_args(argv)
    where = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="symdp-bench-"))
    where.mkdir(parents=True, exist_ok=True)
    proofs = where / "proofs"
    shutil.rmtree(proofs, ignore_errors=True)
    shutil.copytree(ROOT / "proofs", proofs, ignore=shutil.ignore_patterns("__pycache__"))
    cache = where / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    header = f"Machine: {machine()}; symdp check --jobs {args.jobs} over {proofs.name}/."
    print(header, flush=True)
    rows, base = [], None
    try:
        if not args.no_baseline:
            tree = _baseline_tree(args.baseline, where)
            try:
                if Path(_imports_from(tree)) != tree:
                    raise RuntimeError("the baseline's symdp is not imported from its worktree")
                wall, cpu, base, _ = _check(tree, proofs, where / "baseline.json", args.jobs)
                print(f"  baseline {args.baseline}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
            finally:
                _remove_tree(tree)
            base_cells = (wall, cpu)
        runs = {}
        wanted = args.runs.split(",")
        for name, extra in (("cold", ()), ("unchanged", ()), ("touched", ()),
                            ("no-cache", ("--no-cache",))):
            if name not in wanted:
                continue
            if name == "touched":
                target = proofs / args.touch
                target.write_text(target.read_text() + "\n# edited by benchmarks/check.py\n")
            wall, cpu, data, stdout = _check(ROOT, proofs, where / f"{name}.json", args.jobs,
                                             extra, cache=cache)
            runs[name] = (wall, cpu, data)
            print(f"  {name}: {wall:.1f} s wall, {cpu:.1f} s CPU; "
                  f"{data['summary']['line'].rsplit('; ', 1)[-1]}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(where, ignore_errors=True)
    reference = base if base is not None else runs["cold"][2]
    what = {"cold": "1. cold run (empty cache)",
            "unchanged": "2. unchanged re-run",
            "touched": f"3. re-run after editing {args.touch}",
            "no-cache": "4. --no-cache (every derivation checked)"}
    lines = [header, "",
             "| run | wall | CPU | baseline wall | baseline CPU | CPU ratio | where the verdicts "
             "come from | verdicts vs baseline |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, (wall, cpu, data) in runs.items():
        origins = data["summary"]["origins"]
        source = ", ".join(f"{n} {k}" for k, n in origins.items() if n)
        if base is not None:
            bw, bc = base_cells
            cells = (f"{bw:.1f} s", f"{bc:.1f} s", f"{cpu / bc:.2f}×")
        else:
            cells = ("-", "-", "-")
        lines.append(f"| {what[name]} | {wall:.1f} s | {cpu:.1f} s | {cells[0]} | {cells[1]} | "
                     f"{cells[2]} | {source} | {_same(reference, data)} |")
    if base is not None:
        lines += ["", f"Baseline: commit {args.baseline}, which has no cache: each of its runs "
                  "checks every derivation (measured once, shown in every row)."]
    lines.append(f"Steps: {len(step_verdicts(reference))}.")
    table = "\n".join(lines)
    print()
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
