r"""symdp's benchmarks (issue 7): one command, one table of ratios measured side by side.

    python -m benchmarks                 # every row, medians of 3 repetitions
    python -m benchmarks --quick         # smaller sizes, for a smoke run
    python -m benchmarks --rows 1,2 --repeat 5 --markdown table.md

Each row times symdp and its baseline in the same run, on the same machine, as the
median of ``--repeat`` repetitions; accuracy is measured against a reference from an
independent route (never against the value being timed).  Targets are goals for the
table, not assertions.  Rows:

1. float f_{eps,delta} and C_p(f_{eps,delta}) on 10^6 points: numpy
   (:mod:`symdp.tradeoff.vectorized`) vs the seed note's scalar Python loop.
2. 50-digit G_mu and C_p(G_mu) at 10^4 points: ``f.evaluate_many(points, 50)`` (Arb balls,
   the digits certified by the radius) vs SymPy ``subs(...).evalf(50)`` per point; symdp's
   compiled mpmath callable (``mp_function``) in the notes.
3. Eq. 14 closed form of C_p(G_1), p = 1/5, vs the numeric lower convex envelope of
   min{f_p, f_p^{-1}} on a 2*10^5-point grid; digits against the 60-digit definition route.
4. bagging: closed form vs exact enumeration; q at n = k = 10^18 vs naive floating point.
5. ``symdp check --no-cache`` over proofs/: wall time and peak RSS summed over its processes
   (one per core at a time); the cache is measured by ``python -m benchmarks.check``.
6. ``import symdp`` vs ``import sympy`` in fresh interpreters.
7. the certified accountant vs dp_accounting's PLD (:mod:`benchmarks.accountant`).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

import mpmath
import numpy as np
import sympy as sp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------- measurement

def median_time(fn, repeat):
    """Median wall time of ``repeat`` calls of ``fn`` (and the last result)."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def digits(error, scale=1):
    """Correct decimal digits of a value with absolute ``error`` relative to ``scale``."""
    error, scale = mpmath.mpf(error), mpmath.mpf(scale)
    if error == 0:
        return math.inf
    return max(0.0, float(-mpmath.log10(error / scale)))


def fmt_time(seconds):
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def fmt_digits(d, cap=None):
    if d == math.inf:
        return "exact" if cap is None else f"≥ {cap} (no difference at {cap} digits)"
    return f"{d:.1f}"


@dataclass
class Row:
    number: str
    what: str
    symdp: str
    baseline: str
    ratio: str
    target: str
    met: str
    accuracy: str
    notes: list = field(default_factory=list)


# ---------------------------------------------------------------- row 1: float curves

def seed_f_eps_delta(a, eps, delta):
    """The seed note's scalar function, verbatim (its ``f_eps_delta``)."""
    return max(0.0, 1 - delta - np.exp(eps) * a, np.exp(-eps) * (1 - delta - a))


def seed_loop_cp_derived(a, eps, delta, p):
    """The seed note's ``Cp_eps_delta`` loop shape with the chord derived from Eq. 14
    (the seed's printed line is lower by p delta (e^eps - 1)/(e^eps + 1); see
    ``proofs/drs_cor_4_3.py``): the baseline for the same quantity symdp computes."""
    e0, d0 = np.log(1 - p + p * np.exp(eps)), p * delta
    line = 1 - p + 2 * p * (1 - delta) / (1 + np.exp(eps)) - a
    return max(seed_f_eps_delta(a, e0, d0), line)


def seed_cp_printed(a, eps, delta, p):
    """The seed note's ``Cp_eps_delta`` as printed (for the note on the difference)."""
    e0, d0 = np.log(1 - p + p * np.exp(eps)), p * delta
    line = 1 - p * delta - p * (np.exp(eps) - 1) / (np.exp(eps) + 1) - a
    return max(seed_f_eps_delta(a, e0, d0), line)


def row_1(args):
    from symdp.tradeoff import vectorized as V

    eps, delta, p = 3.0, 0.1, 0.2
    n = 10 ** 5 if args.quick else 10 ** 6
    grid = np.linspace(0.0, 1.0, n)
    points = grid.tolist()
    rows = []
    cases = [
        ("1a", f"float f_{{ε,δ}} (ε=3, δ=0.1), {n:.0e} points",
         lambda: V.eps_delta(grid, eps, delta),
         lambda: [seed_f_eps_delta(a, eps, delta) for a in points]),
        ("1b", f"float C_p(f_{{ε,δ}}) (p=0.2), {n:.0e} points",
         lambda: V.subsampled_eps_delta(grid, eps, delta, p),
         lambda: [seed_loop_cp_derived(a, eps, delta, p) for a in points]),
    ]
    for number, what, fast, slow in cases:
        fast()   # warm-up (first-call allocation), untimed
        t_fast, v_fast = median_time(fast, args.repeat)
        t_slow, v_slow = median_time(slow, args.repeat)
        err = float(np.max(np.abs(v_fast - np.asarray(v_slow))))
        ratio = t_slow / t_fast
        rows.append(Row(number, what, fmt_time(t_fast), f"{fmt_time(t_slow)} (scalar loop)",
                        f"{ratio:.0f}×", "≥ 100×, agree to 1e-12", _met(ratio >= 100 and err <= 1e-12),
                        f"max |Δ| = {err:.1e}"))
    printed = max(abs(seed_cp_printed(a, eps, delta, p) - float(V.subsampled_eps_delta(a, eps, delta, p)))
                  for a in np.linspace(0, 1, 2001))
    rows[-1].notes.append(f"the seed's printed C_p line differs from Eq. 14 by up to {printed:.4f} "
                          f"(= pδ(e^ε-1)/(e^ε+1)); the baseline loop uses the derived chord")
    return rows


# ---------------------------------------------------------------- row 2: 50 digits

def row_2(args):
    from sympy.core.cache import clear_cache

    from symdp import Gaussian
    from symdp.subsampling import subsample
    from symdp.tradeoff import alpha

    n = 10 ** 3 if args.quick else 10 ** 4
    n_base = {"G": 50 if args.quick else 200, "C": 10 if args.quick else 40}
    rng = random.Random(2022)
    points = [sp.Rational(rng.randrange(1, 10 ** 6), 10 ** 6) for _ in range(n)]
    G = Gaussian(1)
    C = subsample(G, sp.Rational(1, 5))
    C.pieces()  # derive Eq. 14 once (cached on the object), outside the timings
    rows = []
    for number, name, f in [("2a", "G_1", G), ("2b", "C_{1/5}(G_1)", C)]:
        expr = f.expr(alpha)

        def compiled(f=f):
            # symdp's route for many points: Arb balls, digits certified by the radius
            return f.evaluate_many(points, 50)

        def compiled_mpmath(f=f):
            with mpmath.workdps(50):
                fn = f.mp_function()     # compiled once (cached), computes at the scope's precision
                return [fn(mpmath.mpf(x.p) / x.q) for x in points]

        subset = points[: n_base["G" if f is G else "C"]]

        def via_evalf(expr=expr, subset=subset):
            # a user's 10^4 points are all new: clear SymPy's cache so that repetitions do
            # not reuse the substitutions of the previous one
            clear_cache()
            return [expr.subs(alpha, x).evalf(50) for x in subset]

        t_fast, values = median_time(compiled, args.repeat)
        t_mp, _ = median_time(compiled_mpmath, args.repeat)
        t_slow, reference = median_time(via_evalf, args.repeat)
        per_fast, per_slow = t_fast / n, t_slow / len(subset)
        with mpmath.workdps(60):
            worst = max(abs(mpmath.mpf(v) - mpmath.mpf(r._to_mpmath(220))) / abs(mpmath.mpf(r._to_mpmath(220)))
                        for v, r in zip(values, reference))
        ratio = per_slow / per_fast
        if f is G:
            # what SymPy alone offers: G_mu(a) = erfc(mu/sqrt2 - erfinv(1 - 2a))/2, through SymPy's
            # erfc/erfinv (mpmath's erfinv underneath; SymPy cannot evalf erfcinv)
            plain = sp.erfc(1 / sp.sqrt(2) - sp.erfinv(1 - 2 * alpha)) / 2
            t_plain, plain_values = median_time(
                lambda: (clear_cache(), [plain.subs(alpha, x).evalf(50) for x in subset])[1], args.repeat)
            with mpmath.workdps(60):
                plain_worst = max(abs(mpmath.mpf(v) - mpmath.mpf(r._to_mpmath(220))) / abs(mpmath.mpf(v))
                                  for v, r in zip(values, plain_values))
            note = (f"vs plain SymPy erfc/erfinv subs+evalf(50): {fmt_time(t_plain / len(subset))}/pt, "
                    f"{t_plain / len(subset) / per_fast:.0f}× ({fmt_digits(digits(plain_worst))} digits agree)")
        rows.append(Row(number, f"50-digit {name}, {n:.0e} points",
                        f"{fmt_time(t_fast)} ({fmt_time(per_fast)}/pt)",
                        f"{fmt_time(per_slow)}/pt (subs+evalf, {len(subset)} pts)",
                        f"{ratio:.1f}×", "≥ 20×", _met(ratio >= 20),
                        f"{fmt_digits(digits(worst))} digits vs evalf"))
        if f is G:
            rows[-1].notes.append(note)
        rows[-1].notes.append(f"symdp's compiled mpmath callable (mp_function) on the same points: "
                              f"{fmt_time(t_mp / n)}/pt, {per_slow / (t_mp / n):.1f}× the baseline")
    rows[-1].notes.append("the subs+evalf route evaluates symdp's own Phi/PhiInv/InverseAt, so it "
                          "shares the numerics made faster here (Phi^-1, root-finding): the ratio "
                          "is SymPy's per-point overhead")
    return rows


# ---------------------------------------------------------------- row 3: C_p closed form vs hull

def lower_hull(x, y):
    """Lower convex hull of points sorted by x (Andrew's monotone chain): what numeric
    tools do to convexify a sampled function."""
    hx, hy = [], []
    for px, py in zip(x.tolist(), y.tolist()):
        while len(hx) >= 2 and (hx[-1] - hx[-2]) * (py - hy[-2]) - (hy[-1] - hy[-2]) * (px - hx[-2]) <= 0:
            hx.pop()
            hy.pop()
        hx.append(px)
        hy.append(py)
    return np.array(hx), np.array(hy)


def row_3(args):
    from symdp import Gaussian
    from symdp.subsampling import subsample
    from symdp.tradeoff import vectorized as V

    mu, p = 1.0, 0.2
    size = 2 * 10 ** 5
    C = subsample(Gaussian(1), sp.Rational(1, 5))
    closed_float = V.vectorize(C)
    probes = [sp.Rational(s) for s in ("0.001", "0.01", "0.1", "0.25", "0.4", "0.5", "0.6", "0.7",
                                       "0.8", "0.9", "0.99", "0.999")]
    probe_x = np.array([float(x) for x in probes])
    grid = np.linspace(0.0, 1.0, size)

    def numeric_envelope():
        fp = p * V.gaussian(grid, mu) + (1 - p) * (1 - grid)         # f_p on the grid
        x = np.concatenate([grid, fp])                                # graph of f_p and of f_p^{-1}
        y = np.concatenate([fp, grid])
        order = np.argsort(x, kind="stable")
        hx, hy = lower_hull(x[order], y[order])
        return np.interp(probe_x, hx, hy), np.interp(grid, hx, hy)

    def closed_form():
        return closed_float(grid)

    t_hull, (hull_at_probes, _) = median_time(numeric_envelope, args.repeat)
    t_closed, _ = median_time(closed_form, args.repeat)
    closed_at_probes = closed_float(probe_x)

    # the 60-digit reference: the definition route sup_y (xy - h*(y)) (golden section), which
    # does not use Eq. 14; the closed form at 60 digits is checked against it too
    definition = C.definition()
    reference, exact60 = [], []
    start = time.perf_counter()
    for x in probes:
        reference.append(definition.evaluate(x, dps=60))
    t_reference = time.perf_counter() - start
    t60, _ = median_time(lambda: [C.evaluate(x, dps=60) for x in probes], 1)
    for x in probes:
        exact60.append(C.evaluate(x, dps=60))
    with mpmath.workdps(70):
        err60 = max(abs(a - b) for a, b in zip(exact60, reference))
        err_closed = max(abs(mpmath.mpf(float(a)) - b) for a, b in zip(closed_at_probes, reference))
        err_hull = max(abs(mpmath.mpf(float(a)) - b) for a, b in zip(hull_at_probes, reference))
    ratio = t_hull / t_closed
    row = Row("3", f"C_{{1/5}}(G_1): Eq. 14 vs numeric envelope, {size:.0e}-point grid",
              f"{fmt_time(t_closed)} (float Eq. 14)", f"{fmt_time(t_hull)} (hull of min{{f_p, f_p⁻¹}})",
              f"{ratio:.1f}×", "digits vs 60-digit ref", "-",
              f"Eq. 14: {fmt_digits(digits(err_closed))} (float), {fmt_digits(digits(err60), 60)} (60 dps); "
              f"hull: {fmt_digits(digits(err_hull))}")
    row.notes.append(f"60-digit Eq. 14 at {len(probes)} points: {fmt_time(t60)}; the reference "
                     f"(definition route, golden section on the conjugate): {fmt_time(t_reference)}")
    return [row]


# ---------------------------------------------------------------- row 4: bagging

def row_4(args):
    from fractions import Fraction

    from symdp.bagging import ORDERINGS, Bagging, Sampling
    from symdp.bagging import enumeration as E
    from symdp.bagging import profile as closed
    from symdp.bagging.numeric import analyse

    w = Fraction(3, 2)   # e^eps with eps = log(3/2)
    configs = [(Sampling.WITH_REPLACEMENT, 6, 3, 2), (Sampling.WITHOUT_REPLACEMENT_JOINT, 10, 3, 2),
               (Sampling.WITHOUT_REPLACEMENT_INDEPENDENT, 8, 3, 2)]
    if args.quick:
        configs = [(Sampling.WITH_REPLACEMENT, 5, 2, 2)]
    t_enum_total, t_closed_total, agree = 0.0, 0.0, True
    sizes = []
    for sampling, n, k, models in configs:
        def by_enumeration():
            E.distribution.cache_clear()
            return max(E.hockey_stick(*E.pair(sampling, n, k, models, o), w) for o in ORDERINGS)

        def by_closed_form():
            return max(closed.privacy_profile(sampling, o, n, k, models, w_=sp.Rational(3, 2))
                       for o in ORDERINGS)

        t_e, v_e = median_time(by_enumeration, args.repeat)
        t_c, v_c = median_time(by_closed_form, args.repeat)
        t_enum_total += t_e
        t_closed_total += t_c
        agree &= sp.Rational(v_e.numerator, v_e.denominator) == v_c
        sizes.append(f"{sampling.name.lower()} n={n} k={k} N={models} ({E.output_count(sampling, n + 1, k, models)} outputs)")
    row_a = Row("4a", "bagging δ(log 3/2), 3 schemes: closed form vs enumeration",
                fmt_time(t_closed_total), f"{fmt_time(t_enum_total)} (enumeration)",
                f"{t_enum_total / t_closed_total:.0f}×", "-", "-",
                "exact, equal" if agree else "DIFFERENT")
    row_a.notes.append("sizes: " + "; ".join(sizes))

    big = 10 ** 18
    t_big, analysis = median_time(lambda: analyse(Bagging(big, big), dps=50), args.repeat)
    with mpmath.workdps(120):   # reference: 1 - ((n-1)/n)^k directly, with 120 digits to spare
        reference = 1 - (mpmath.mpf(big - 1) / big) ** big
        closed_digits = digits(abs(analysis.q.mp - reference), reference)
        naive = 1 - ((big - 1) / big) ** big          # floating point: (n-1)/n rounds to 1.0
        naive_digits = digits(abs(mpmath.mpf(naive) - reference), reference)
    row_b = Row("4b", "bagging q(n) at n = k = 10^18 (with replacement)",
                f"{fmt_time(t_big)} (50 digits, log1p/expm1)", f"naive float gives {naive!r}",
                "-", "-", "-",
                f"{fmt_digits(min(closed_digits, 50.0))} digits vs 60-digit ref; naive: {fmt_digits(naive_digits)}")
    row_b.notes.append(f"q(10^18) = {mpmath.nstr(analysis.q.mp, 20)} (1 - 1/e = {mpmath.nstr(1 - mpmath.exp(-1), 20)})")
    return [row_a, row_b]


# ---------------------------------------------------------------- row 5: symdp check

def _tree_rss_kib(root_pid) -> int:
    """Resident memory (KiB) of a process and all its descendants now (Linux /proc; 0 elsewhere)."""
    children: dict = {}
    rss: dict = {}
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return 0
    for entry in entries:
        try:
            with open(f"/proc/{entry}/status") as fh:
                fields = dict(line.split(":", 1) for line in fh if ":" in line)
        except OSError:
            continue
        pid, ppid = int(entry), int(fields.get("PPid", "0").strip() or 0)
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0]) if "VmRSS" in fields else 0
    total, stack = 0, [root_pid]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack += children.get(pid, [])
    return total


def run_measured(command, timeout):
    """Run ``command``; wall time, peak memory, whether it was stopped at ``timeout``, its
    exit code and output.  Peak memory is the larger of the child's own peak RSS
    (``os.wait4``) and the largest sum of RSS over the child and its worker processes,
    sampled every 0.1 s (``symdp check`` runs one worker per core)."""
    import tempfile

    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.DEVNULL)
        timed_out = False
        tree_peak = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            tree_peak = max(tree_peak, _tree_rss_kib(proc.pid))
            if time.perf_counter() - start > timeout:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                timed_out = True
                break
            time.sleep(0.1)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace")
    return wall, max(usage.ru_maxrss, tree_peak) / 1024, timed_out, proc.returncode, text   # KiB


def row_5(args):
    # every derivation checked in each run (the cache would reuse the first run's verdicts;
    # python -m benchmarks.check measures the cache)
    command = [sys.executable, "-m", "symdp.cli.main", "check", "--no-cache"]
    runs = []
    for _ in range(min(args.repeat, 3)):
        runs.append(run_measured(command, args.check_timeout))
        if runs[-1][2] or runs[-1][0] > 120:   # stopped, or too slow to repeat: one run
            break
    wall = statistics.median(r[0] for r in runs)
    rss = max(r[1] for r in runs)
    timed_out = any(r[2] for r in runs)
    summary = [line for line in runs[-1][4].splitlines() if line.strip()][-1:] or ["(no output)"]
    met = (not timed_out) and wall < 60 and rss < 1024
    row = Row("5", f"symdp check over proofs/ ({len(runs)} run{'s' if len(runs) > 1 else ''})",
              (f"> {args.check_timeout:.0f} s (stopped)" if timed_out else f"{wall:.1f} s")
              + f", peak RSS {rss:.0f} MiB (all processes)",
              "-", "-", "< 60 s, < 1 GiB", _met(met), f"exit {runs[-1][3]}")
    row.notes.append("symdp check: " + summary[0].strip()[:160])
    return [row]


# ---------------------------------------------------------------- row 6: import time

def import_time(module):
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return float(out.stdout.strip())


def row_6(args):
    repeat = max(5, args.repeat)
    symdp_times, sympy_times = [], []
    for _ in range(repeat):   # interleaved, so load changes hit both alike
        sympy_times.append(import_time("sympy"))
        symdp_times.append(import_time("symdp"))
    t_symdp, t_sympy = statistics.median(symdp_times), statistics.median(sympy_times)
    ratio = t_symdp / t_sympy
    code = ("import sys, symdp; print(','.join(m for m in ('matplotlib', 'numpy', 'scipy') "
            "if m in sys.modules) or 'none')")
    heavy = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    return [Row("6", f"import symdp vs import sympy (fresh interpreters, median of {repeat})",
                fmt_time(t_symdp), f"{fmt_time(t_sympy)} (import sympy)", f"{ratio:.2f}×", "≤ 1.5×",
                _met(ratio <= 1.5), f"heavy modules imported: {heavy}")]


# ---------------------------------------------------------------- table

def _met(ok):
    return "yes" if ok else "**no**"


def machine():
    versions = {"python": platform.python_version(), "numpy": np.__version__,
                "mpmath": mpmath.__version__, "sympy": sp.__version__}
    try:
        import gmpy2
        versions["gmpy2"] = gmpy2.version()
    except ImportError:
        versions["gmpy2"] = "absent"
    try:
        import scipy
        versions["scipy"] = scipy.__version__
    except ImportError:
        versions["scipy"] = "absent"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{platform.platform()}; {platform.processor() or platform.machine()}; "
            f"{os.cpu_count()} CPUs; load average {load:.1f} at start; "
            + ", ".join(f"{k} {v}" for k, v in versions.items())
            + f"; mpmath backend {mpmath.libmp.BACKEND}")


def render(rows, header):
    lines = [header, "",
             "| # | what | symdp | baseline | ratio | target | met | accuracy |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r.number} | {r.what} | {r.symdp} | {r.baseline} | {r.ratio} | {r.target} | "
                     f"{r.met} | {r.accuracy} |")
    notes = [f"- {r.number}: {n}" for r in rows for n in r.notes]
    if notes:
        lines += ["", "Notes:", *notes]
    return "\n".join(lines)


def row_7(args):
    from .accountant import row_7 as accountant_row

    return accountant_row(args)


ROWS = {"1": row_1, "2": row_2, "3": row_3, "4": row_4, "5": row_5, "6": row_6, "7": row_7}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="1,2,3,4,5,6,7", help="comma-separated rows (default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions per timing (median); default 3")
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run, not the table)")
    parser.add_argument("--check-timeout", type=float, default=600.0, metavar="S",
                        help="stop `symdp check` after S seconds (row 5); default 600")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table to FILE")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be >= 1; got --repeat={args.repeat}")
    wanted = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in wanted if r not in ROWS]
    if unknown:
        parser.error(f"--rows must name rows 1-7; got {unknown[0]!r}")
    header = (f"Machine: {machine()}.  Medians of {args.repeat} repetitions"
              + (" (--quick sizes)" if args.quick else "") + ".")
    print(header, flush=True)
    rows = []
    for key in wanted:
        start = time.perf_counter()
        new = ROWS[key](args)
        rows += new
        for r in new:
            print(f"  row {r.number}: {r.symdp} | {r.baseline} | {r.ratio} | {r.accuracy}  "
                  f"[{time.perf_counter() - start:.0f} s]", flush=True)
    table = render(rows, header)
    print()
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
