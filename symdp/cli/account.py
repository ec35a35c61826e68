r"""``symdp account``: certified bounds on epsilon(delta) or delta(eps) of DP-SGD-like compositions.

    symdp account --poisson-gaussian --sigma 1 --q 0.01 --steps 1000 --delta 1e-5 [--compare]
    symdp account --uniform-gaussian --sigma 1 --p 0.01 --steps 1000 --eps 2
    symdp account --schedule phases.json --delta 1e-5       # [{"sigma":..,"q":..,"steps":..}, ...]
    symdp account --event event.json --delta 1e-5           # any event tree (docs/events.md)

Both ends of the printed bracket are proved (docs/accountant.md); ``--compare`` adds
what the CLT (GDP), RDP and dp_accounting say, each marked bound or approximation.
Supported: sigma in [0.5, 10], q (or p) in [1e-4, 0.5], eps <= 20, delta >= 1e-12.
Limits on work, each named when hit: a schedule file of at most :data:`MAX_SCHEDULE_BYTES`
bytes and :data:`MAX_PHASES` phases, at most :data:`MAX_TOTAL_STEPS` steps in all.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from decimal import Decimal, localcontext
from fractions import Fraction

from ..core.errors import InvalidParameterError
from ..core.validation import rational, shown

#: the largest --schedule file read (a schedule is a few lines; /dev/zero is refused)
MAX_SCHEDULE_BYTES = 1 << 20
#: the most phases of a schedule: each phase is composed on its own grid and the phases
#: are then convolved (about a second per phase at --precision 2)
MAX_PHASES = 20
#: the most steps of all phases together (each phase's T-fold power costs log T squarings)
MAX_TOTAL_STEPS = 10 ** 7


def add_mechanism_arguments(p):
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--poisson-gaussian", action="store_true",
                      help="Poisson subsampling with rate --q, add/remove adjacency (default)")
    kind.add_argument("--uniform-gaussian", action="store_true",
                      help="sampling a fraction --p without replacement, replace-one adjacency")
    p.add_argument("--sigma", metavar="S", help="noise multiplier (0.5 to 10)")
    p.add_argument("--q", metavar="Q", help="Poisson sampling rate (1e-4 to 0.5)")
    p.add_argument("--p", metavar="P", help="sampled fraction for --uniform-gaussian (1e-4 to 0.5)")
    p.add_argument("--steps", metavar="T", help="number of steps (compositions)")
    p.add_argument("--schedule", metavar="FILE",
                   help='phases instead of --sigma/--q/--steps: a JSON list of {"sigma", "q" (or "p"), '
                        '"steps"} objects, or a CSV with the header sigma,q,steps')
    p.add_argument("--precision", type=_precision_level, default=2, metavar="N",
                   help="grid level 0-6 (h = 2^-(9+N)); higher is tighter and slower (default 2)")
    p.add_argument("--json", action="store_true", help="print a JSON record")


def _precision_level(text) -> int:
    """--precision: an integer 0-6 (argparse reports a bad one on one line)."""
    digits = str(text).strip()
    if not (digits.isascii() and digits.isdigit()) or int(digits[:4]) > 6:
        raise argparse.ArgumentTypeError(f"must be an integer in [0, 6]; got {shown(text)}")
    return int(text)


def check_precision(level) -> None:
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 6:
        raise InvalidParameterError(f"--precision must be an integer in [0, 6]; got --precision={shown(level)}")


def number(name: str, text, where: str = "") -> Fraction:
    """A decimal typed by the user as an exact rational (never eval'd), named ``--name``
    (or ``name`` with ``where``: a schedule cell, e.g. "--schedule phase 2: sigma")."""
    label = f"{where}{name}" if where else f"--{name}"
    if text is None:
        raise InvalidParameterError(f"{label} is required")
    value = rational(label, text)
    if abs(value) > 10 ** 300:
        raise InvalidParameterError(f"{label} must be at most 1e300 in size; got {label}={shown(text)}")
    return value


def integer(name: str, text, where: str = "") -> int:
    value = number(name, text, where)
    label = f"{where}{name}" if where else f"--{name}"
    if value.denominator != 1:
        raise InvalidParameterError(f"{label} must be an integer; got {label}={shown(text)}")
    return int(value)


def read_phases(args):
    """[(sigma, q, steps)] and the phase objects of symdp.accountant."""
    from ..accountant import poisson_gaussian, uniform_gaussian

    uniform = bool(args.uniform_gaussian)
    rate = "p" if uniform else "q"
    if args.schedule is not None:
        if not args.schedule.strip():
            raise InvalidParameterError(f"--schedule must name a file; got --schedule={shown(args.schedule)}")
        if args.sigma or args.q or args.p or args.steps:
            raise InvalidParameterError("--schedule replaces --sigma/--q/--p/--steps; give one or the other")
        rows = _read_schedule(args.schedule, rate)
    else:
        if uniform and args.q:
            raise InvalidParameterError("--uniform-gaussian takes --p (the sampled fraction), not --q")
        if not uniform and args.p:
            raise InvalidParameterError("--poisson-gaussian takes --q (the sampling rate), not --p")
        rows = [(args.sigma, getattr(args, rate), args.steps)]
    phases, raw = [], []
    for i, (sigma, q, steps) in enumerate(rows):
        where = f"--schedule phase {i + 1}: " if args.schedule is not None else ""
        s, r, t = number("sigma", sigma, where), number(rate, q, where), integer("steps", steps, where)
        try:
            phases.append(uniform_gaussian(s, r, t) if uniform else poisson_gaussian(s, r, t))
        except InvalidParameterError as exc:  # name the cell or the option, not the API's argument
            message = str(exc)
            for field in ("sigma", rate, "steps"):
                if message.startswith(field + " "):
                    label = f"{where}{field}" if where else f"--{field}"
                    message = label + message[len(field):].replace(f"got {field}=", f"got {label}=")
            raise InvalidParameterError(message) from None
        raw.append((s, r, t))
    total = sum(t for _, _, t in raw)
    if total > MAX_TOTAL_STEPS:
        raise InvalidParameterError(f"at most {MAX_TOTAL_STEPS} steps in all (the limit on work); "
                                    f"got {total}")
    return raw, phases, uniform


def _read_schedule(path, rate):
    from ..core.files import input_text, read_input

    # a regular file only (a FIFO is refused without blocking), size-capped before reading;
    # a byte-order mark (Excel's CSV) is not data
    text = input_text("--schedule", path, read_input("--schedule", path,
                                                     max_bytes=MAX_SCHEDULE_BYTES))
    rows = []
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            where = f" ({exc.msg}, line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
            raise InvalidParameterError(f"--schedule: not valid JSON{where}") from None
        if not isinstance(data, list):
            raise InvalidParameterError("--schedule: a JSON schedule must be a list of phases")
        _check_phase_count(len(data))
        for i, item in enumerate(data):
            if not isinstance(item, dict) or not {"sigma", rate, "steps"} <= set(item):
                raise InvalidParameterError(f"--schedule: phase {i + 1} must be an object with keys "
                                            f"sigma, {rate}, steps; got {shown(item)}")
            rows.append(tuple(_cell(item[key], i, key) for key in ("sigma", rate, "steps")))
    else:
        reader = csv.DictReader(text.splitlines())
        if not reader.fieldnames or not {"sigma", rate, "steps"} <= {f.strip() for f in reader.fieldnames if f}:
            raise InvalidParameterError(f"--schedule: the CSV header must name sigma,{rate},steps; "
                                        f"got {shown(reader.fieldnames)}")
        for i, row in enumerate(reader):
            _check_phase_count(i + 1)
            row = {k.strip(): v for k, v in row.items() if k}
            rows.append(tuple(_cell(row[key], i, key) for key in ("sigma", rate, "steps")))
    if not rows:
        raise InvalidParameterError("--schedule: no phases in the file")
    return rows


def _check_phase_count(n: int) -> None:
    if n > MAX_PHASES:
        raise InvalidParameterError(f"--schedule: at most {MAX_PHASES} phases (the limit on work); "
                                    f"got {n}")


def _cell(value, i: int, key: str) -> str:
    """A schedule cell as text: a JSON number or string, or a CSV field (a missing one is
    named)."""
    if value is None or isinstance(value, (bool, list, dict)):
        raise InvalidParameterError(f"--schedule phase {i + 1}: {key} must be a number; got "
                                    f"{key}={shown(value)}")
    return str(value)


def fmt(x, direction: str, digits: int = 7) -> str:
    """A rational printed with ``digits`` significant digits, rounded ``down`` or ``up``, so a
    printed bound is still a bound (:func:`symdp.accountant.certify.printed`)."""
    from ..accountant.certify import printed

    return printed(x, direction, digits)


def exact_str(x: Fraction) -> str:
    """An exact rational as the decimal it is (1/100 -> "0.01"), or "n/d" if not a decimal."""
    x = Fraction(x)
    d, twos, fives = x.denominator, 0, 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    places = max(twos, fives)
    with localcontext() as ctx:
        ctx.prec = 10 ** 4
        return format(Decimal(x.numerator) / Decimal(x.denominator), "f") if places else str(x.numerator)


class Progress:
    """Progress lines on stderr, only when it is a terminal."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()

    def __call__(self, message: str):
        if self.enabled:
            sys.stderr.write("\r\033[K" + message)
            sys.stderr.flush()

    def done(self):
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def add_parser(subparsers):
    p = subparsers.add_parser("account", help="certified (eps, delta) of a subsampled Gaussian composition",
                              description="Certified two-sided bounds on epsilon(delta) or delta(eps) of a "
                                          "T-fold composition of the subsampled Gaussian. Exit 0, or 2 on "
                                          "input errors.")
    add_mechanism_arguments(p)
    add_event_argument(p)
    target = p.add_mutually_exclusive_group()
    target.add_argument("--delta", metavar="D", help="bound epsilon at this delta (>= 1e-12)")
    target.add_argument("--eps", metavar="E", help="bound delta at this epsilon (0 to 20)")
    p.add_argument("--compare", action="store_true",
                   help="also print the CLT (GDP), RDP and dp_accounting values, against the bracket")
    return p


def compare_rows(raw, uniform, quantity, given, lo, hi):
    """What other accountants say; each row: name, kind, value (float or None), placement."""
    from ..accountant import reference as R

    rows = []

    def place(v):
        if v is None:
            return "not available"
        v = Fraction(v)
        if v < lo:
            return "below the bracket (under-reports)"
        if v > hi:
            return "above the bracket"
        return "inside the bracket"

    mu = R.clt_mu(raw)
    if quantity == "epsilon":
        clt = R.gdp_epsilon(mu, given)
    else:
        clt = R.gdp_delta(mu, given)
    rows.append(("CLT / GDP (Bu-Dong-Long-Su 2020)", f"approximation, mu={float(mu):.6g}",
                 Fraction(str(clt)) if clt is not None else None))
    if uniform:
        rows.append(("RDP", "not implemented for sampling without replacement", None))
        rows.append(("dp_accounting PLD", "not compared: its subsampled Gaussian is Poisson add/remove", None))
    else:
        if quantity == "epsilon":
            e, a = R.rdp_epsilon(raw, given)
            e0, a0 = R.rdp_epsilon(raw, given, improved=False)
            rows.append((f"RDP (Mironov-Talwar-Zhang, CKS conversion, order {a})", "upper bound",
                         Fraction(str(e))))
            rows.append((f"RDP (classical conversion, order {a0})", "upper bound", Fraction(str(e0))))
        for cd, label in ((True, "connect-the-dots"), (False, "pessimistic")):
            try:
                v = (R.dp_accounting_epsilon(raw, given, connect_dots=cd) if quantity == "epsilon"
                     else R.dp_accounting_delta(raw, given, connect_dots=cd))
            except Exception as exc:   # a peer library failing is reported, not fatal
                rows.append((f"dp_accounting PLD ({label}, h=1e-4)", f"failed: {type(exc).__name__}", None))
                continue
            rows.append((f"dp_accounting PLD ({label}, h=1e-4)",
                         "estimate (floating point)" if v is not None else "dp_accounting not installed",
                         Fraction(v) if v is not None else None))
    return [(n, k, v, place(v)) for n, k, v in rows]


def run(args) -> int:
    from ..accountant import certified_delta, certified_epsilon

    if getattr(args, "event", None) is not None:
        return run_event(args)
    raw, phases, uniform = read_phases(args)
    if args.delta is None and args.eps is None:
        raise InvalidParameterError("give --delta D (to bound epsilon) or --eps E (to bound delta)")
    from ..accountant.certify import DELTA_MIN, EPS_MAX
    from ..accountant.pairs import check_range

    check_precision(args.precision)
    delta = eps = None
    if args.delta is not None:
        delta = number("delta", args.delta)
        check_range("--delta", delta, DELTA_MIN, 1.0)
    else:
        eps = number("eps", args.eps)
        check_range("--eps", eps, 0.0, EPS_MAX)
    progress = Progress(not args.json)
    try:
        if args.delta is not None:
            b = certified_epsilon(phases, delta, precision=args.precision, progress=progress)
        else:
            b = certified_delta(phases, eps, precision=args.precision, progress=progress)
    finally:
        progress.done()
    rows = compare_rows(raw, uniform, b.quantity, b.given, b.lo, b.hi) if args.compare else []
    if args.json:
        print(json.dumps(record(b, raw, uniform, rows), indent=2))
        return 0
    print(describe(raw, uniform))
    if b.quantity == "epsilon":
        print(f"certified: {fmt(b.lo, 'down')} <= eps <= {fmt(b.hi, 'up')} at delta = {fmt(b.given, 'down', 12)}"
              f"  (width {float(b.hi - b.lo):.2e}, {b.seconds:.1f} s, precision {b.precision})")
    else:
        print(f"certified: {fmt(b.lo, 'down')} <= delta <= {fmt(b.hi, 'up')} at eps = {fmt(b.given, 'down', 12)}"
              f"  ({b.seconds:.1f} s, precision {b.precision})")
    if uniform:
        print("  note: " + UNIFORM_LOWER_END)
    for n, k, v, where in rows:
        value = "-" if v is None else f"{float(v):.6g}"
        print(f"  {n}: {value}  [{k}; {where}]")
    return 0


#: For uniform sampling the bracket is that of the guarantee C_p(G_{1/sigma})^{(x)T}: its upper
#: end bounds the mechanism, its lower end only the guarantee -- real dataset pairs may do
#: better for T >= 2 (docs/accountant.md, section 6), so it is no lower bound on the mechanism.
UNIFORM_LOWER_END = ("the upper end bounds the mechanism; the lower end bounds the guarantee "
                     "C_p(G_1/sigma)^(x)T only, not the mechanism (real dataset pairs may do "
                     "better for T >= 2; symdp audit uses a realised pair to refute)")


def describe(raw, uniform) -> str:
    scheme = ("uniform subsampling without replacement (p), replace-one" if uniform
              else "Poisson subsampling (q), add/remove (worse direction)")
    rate = "p" if uniform else "q"
    phases = "; ".join(f"sigma={float(s):g}, {rate}={float(q):g}, T={t}" for s, q, t in raw)
    return f"subsampled Gaussian, {scheme}: {phases}"


def _num(x: Fraction, direction: str):
    return {"value": fmt(x, direction, 12), "float": float(x)}


def record(b, raw, uniform, rows) -> dict:
    rate = "p" if uniform else "q"
    return {
        "schema": "symdp-account/1",
        "mechanism": "uniform-gaussian" if uniform else "poisson-gaussian",
        "phases": [{"sigma": exact_str(s), rate: exact_str(q), "steps": t} for s, q, t in raw],
        "quantity": b.quantity,
        ("delta" if b.quantity == "epsilon" else "eps"): exact_str(b.given),
        "lower": _num(b.lo, "down"),
        "upper": _num(b.hi, "up"),
        "certified": True,
        "lower_bounds": "the guarantee C_p(G_1/sigma)^(x)T only" if uniform else "the mechanism",
        "note": UNIFORM_LOWER_END if uniform else None,
        "seconds": round(b.seconds, 3),
        "precision": b.precision,
        "directions": [{k: (float(v) if isinstance(v, Fraction) else v) for k, v in d.items()}
                       for d in b.directions],
        "compare": [{"name": n, "kind": k, "value": None if v is None else float(v), "placement": w}
                    for n, k, v, w in rows],
    }


# ----------------------------------------------------------------------------- --event (issue #23)

def add_event_argument(p):
    p.add_argument("--event", metavar="FILE",
                   help="account the event tree in FILE (JSON, docs/events.md) instead of the flags "
                        "above; '-' reads standard input")


def read_event(path):
    """The event of a JSON file (``-``: stdin), a regular file of at most
    :data:`~symdp.events.serial.MAX_JSON_BYTES` bytes (:func:`symdp.core.files.read_input`);
    formulas are parsed by symdp.parsing."""
    from ..core.files import input_text, read_input
    from ..events import from_json_text
    from ..events.serial import MAX_JSON_BYTES
    from ..parsing import parse_formula

    data = read_input("--event", path, max_bytes=MAX_JSON_BYTES, stdin=sys.stdin.buffer
                      if path == "-" and hasattr(sys.stdin, "buffer") else None)
    text = input_text("--event", path, data)

    def formula(text):
        from ..core.symbols import alpha
        return parse_formula(text, symbols={"alpha": alpha, "x": alpha})

    try:
        return from_json_text(text, parse_formula=formula)
    except InvalidParameterError as exc:
        raise InvalidParameterError(f"--event: {exc}") from None


def run_event(args) -> int:
    from ..accountant.events import account
    from ..events import to_json

    if args.sigma or args.q or args.p or args.steps or args.schedule or args.poisson_gaussian \
            or args.uniform_gaussian or getattr(args, "compare", False):
        raise InvalidParameterError("--event replaces the mechanism flags (--poisson-gaussian, --sigma, --q, "
                                    "--p, --steps, --schedule, --compare); give one or the other")
    if args.delta is None and args.eps is None:
        raise InvalidParameterError("give --delta D (to bound epsilon) or --eps E (to bound delta)")
    event = read_event(args.event)
    progress = Progress(not args.json)
    try:
        a = account(event, delta=None if args.delta is None else number("delta", args.delta),
                    eps=None if args.eps is None else number("eps", args.eps),
                    precision=args.precision, progress=progress)
    finally:
        progress.done()
    if args.json:
        print(json.dumps(event_record(a, to_json(event)), indent=2))
        return 0
    print(f"event: {json.dumps(to_json(event))}")
    name = "eps" if a.quantity == "epsilon" else "delta"
    given = "delta" if a.quantity == "epsilon" else "eps"
    print(f"certified: {fmt(a.lo, 'down')} <= {name} <= {fmt(a.hi, 'up')} at {given} = {fmt(a.given, 'down', 12)}"
          f"  (width {float(a.hi - a.lo):.2e}, {a.seconds:.1f} s, precision {a.precision})")
    print(f"  the upper end bounds the mechanism; the lower end bounds {a.lower_bounds}")
    for t, lo in a.realised:
        print(f"  realised neighbouring datasets t={float(t):g}: {name} >= {fmt(lo, 'down')}")
    return 0


def event_record(a, event_json) -> dict:
    return {
        "schema": "symdp-account/1",
        "event": event_json,
        "quantity": a.quantity,
        ("delta" if a.quantity == "epsilon" else "eps"): exact_str(a.given),
        "lower": _num(a.lo, "down"),
        "upper": _num(a.hi, "up"),
        "certified": True,
        "lower_bounds": a.lower_bounds,
        "realised": [{"t": exact_str(t), "lower": _num(lo, "down")} for t, lo in a.realised],
        "seconds": round(a.seconds, 3),
        "precision": a.precision,
    }
