"""No verdict depends on the clock (issue #19, item 2): steps of the stages that used to
budget in seconds (the symbolic stage's simplify limit and monotonicity deadline, the
certified stage's sign-analysis, factoring and tail timers, the numeric stage's point
timers) get the same verdicts when the clock runs a thousand times faster -- as a machine a
thousand times slower, or a loaded one, would see it.  On the old code (budgets in seconds)
this test fails: the symbolic stage's 4 s limit becomes 4 ms and the first step loses its
proof (PROVED, then CHECKED_AT_POINTS)."""

import signal
import time

import pytest
import sympy as sp

from symdp.proof import Derivation, Step
from symdp.proof.check import check_step

x, y = sp.symbols("x y")
n = sp.Symbol("n", integer=True)

CASES = [
    # simplify proves it (the symbolic stage)
    ("simplify", {x: sp.Interval(0, 1)}, Step((x ** 2 - 1) / (x + 1), "=", x - 1)),
    # derivative-sign monotonicity (the symbolic stage)
    ("monotone", {x: sp.Interval(0, 5)}, Step(sp.exp(x), ">=", 1 + x)),
    # boxes over [0, 1]^2 after the sign analysis and the factoring of the certified stage
    ("boxes", {x: sp.Interval(0, 1), y: sp.Interval(0, 1)},
     Step(x * y * (1 - x), "<=", sp.Rational(1, 4), skip=("symbolic",))),
    # an integer on an infinite range: boxes up to N0, the tail argument beyond
    ("tail", {n: sp.Range(1, sp.oo)},
     Step(n / (n + 1), ">=", sp.Rational(1, 2), skip=("symbolic",))),
    # evidence at points (every point's evaluation had a timer)
    ("points", {x: sp.Interval(0, 1)},
     Step(sp.besselj(0, x) ** 2 + 2 * sp.besselj(1, x) ** 2, "<=", 1, skip=("symbolic",))),
]


def _verdicts():
    out = {}
    for name, hypotheses, step in CASES:
        d = Derivation(name, "a step", "a test", hypotheses, [step])
        out[name] = check_step(step, d, 0, points=6).verdict
    return out


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_a_thousand_times_faster_clock_changes_no_verdict(monkeypatch):
    idle = _verdicts()
    # every case is true (e^x >= 1 + x; xy(1 - x) <= 1/4 on the unit square; n/(n + 1) >= 1/2;
    # J0^2 + 2 J1^2 <= 1, Abramowitz-Stegun 9.1.76): the comparison below is between runs
    # that decide, not two runs that both gave up
    assert all(idle[name].holds_everywhere for name in ("simplify", "monotone", "boxes", "tail"))
    assert idle["points"].supports
    speed = 1000.0
    real_perf, real_mono, real_setitimer = time.perf_counter, time.monotonic, signal.setitimer
    t0p, t0m = real_perf(), real_mono()
    monkeypatch.setattr(time, "perf_counter", lambda: t0p + speed * (real_perf() - t0p))
    monkeypatch.setattr(time, "monotonic", lambda: t0m + speed * (real_mono() - t0m))
    monkeypatch.setattr(signal, "setitimer",
                        lambda which, seconds, interval=0.0:
                        real_setitimer(which, seconds / speed if seconds else 0.0, interval))
    loaded = _verdicts()
    assert loaded == idle
