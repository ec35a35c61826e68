r"""``symdp check-tex`` on the corpus of real DP documents (issue #29): lines read, false alarms,
false holds, seconds per file.

    python -m benchmarks.check_tex_corpus                    # this checkout, the command's defaults
    python -m benchmarks.check_tex_corpus --code /tmp/base   # another checkout of symdp (before)
    python -m benchmarks.check_tex_corpus --no-certify --jobs 2

Each file of ``tests/check_tex/corpus/opendp/`` is checked by ``symdp check-tex FILE --json -``
(``--follow-inputs`` where the code knows it) in a process of its own, under a wall-clock limit
(``--limit``, default 600 s: a file that reaches it counts as a hang).  From the JSON: the
display lines the code counts and those it read, and each row's mark.  A *false alarm* is a
refuted row that is not one of the corpus's known slips (``tests/check_tex/corpus/slips.json``,
each confirmed with mpmath by ``tests/check_tex/test_check_tex_corpus.py``); a *false hold* is
a row marked as holding (or as evidence) that is one of them.  Lines read are given against
the code's own count and against the rows of the current reader (every display row; an older
reader did not count ``$$`` displays or skipped rows).

Targets (issue #29): >= 80 % of the lines read, 0 false alarms, 0 false holds, no file over 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the command, run with the checkout on PYTHONPATH (its own symdp, whatever is installed)
_SYMDP = [sys.executable, "-c", "import sys; from symdp.cli.main import main; "
          "sys.exit(main(sys.argv[1:]))"]
CORPUS = ROOT / "tests" / "check_tex" / "corpus" / "opendp"


def _slips() -> set:
    data = json.loads((CORPUS.parent / "slips.json").read_text())
    return {(key.partition(":")[0], int(key.partition(":")[2]))
            for kind in ("refuted", "unrefuted") for key in data[kind]}


def _run(path: Path, code: Path, certify: bool, limit: float, follow: bool) -> dict:
    command = [*_SYMDP, "check-tex", str(path), "--json", "-"]
    if follow:
        command.append("--follow-inputs")
    if not certify:
        command.append("--no-certify")
    env = {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=limit,
                              cwd=str(code))
    except subprocess.TimeoutExpired:
        return {"file": path.stem, "seconds": limit, "hang": True}
    seconds = time.perf_counter() - start
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"file": path.stem, "seconds": seconds, "error": done.stderr.strip()[-300:]}
    return {"file": path.stem, "seconds": seconds, "tex": report["tex"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout of symdp to run")
    parser.add_argument("--no-certify", dest="certify", action="store_false")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--limit", type=float, default=600.0)
    args = parser.parse_args(argv)
    helped = subprocess.run([*_SYMDP, "check-tex", "--help"], cwd=str(args.code),
                            capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(args.code)}).stdout
    follow = "--follow-inputs" in helped
    sys.path.insert(0, str(ROOT))
    from symdp.parsing.document import read_tex  # the current reader: every display row
    from symdp.parsing.inputs import folder_inputs

    files = sorted(CORPUS.glob("*.tex"))
    rows_now = {p.stem: len(read_tex(p.read_text(), str(p), inputs=folder_inputs(p)).rows)
                for p in files}
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: _run(p, args.code, args.certify, args.limit, follow),
                                files))
    slips = _slips()
    total = read = counted = alarms = holds = hangs = 0
    print(f"{'file':<36} {'read':>9} {'marks':<44} {'s':>6}")
    for r in results:
        name = r["file"]
        total += rows_now[name]
        if "tex" not in r:
            hangs += r.get("hang", False)
            print(f"{name:<36} {'HANG' if r.get('hang') else 'ERROR':>9} "
                  f"{r.get('error', '')[:44]:<44} {r['seconds']:6.1f}")
            continue
        tex = r["tex"]
        read += tex["lines_read"]
        counted += tex["lines"]
        marks = {}
        for row in tex["rows"]:
            marks[row["mark"]] = marks.get(row["mark"], 0) + 1
            slip = (name, row["line"]) in slips
            alarms += row["mark"] == "refuted" and not slip
            holds += row["mark"] in ("holds", "evidence") and slip
        shown = ", ".join(f"{k} {v}" for k, v in sorted(marks.items()))
        print(f"{name:<36} {tex['lines_read']:>4}/{tex['lines']:<4} {shown:<44} "
              f"{r['seconds']:6.1f}")
    slowest = max(r["seconds"] for r in results)
    print(f"\nlines read: {read} of {counted} counted by this code ({100 * read / max(counted, 1):.1f} %); "
          f"{read} of {total} display rows ({100 * read / total:.1f} %)")
    print(f"false alarms: {alarms}; false holds: {holds}; files that hang (> {args.limit:g} s): "
          f"{hangs}; slowest file: {slowest:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
