"""Budgets count all work (issue #27, item 5): memory that no heartbeat sees is bounded too.

SymPy's polynomial routines build plain lists and integers: ``sp.factor`` of a difference of
``exp(-x^2/2)`` and ``exp(-(x - 10^-30)^2/2)`` reads ``exp(x/10^30)`` as the generator of a
polynomial of degree 10^30 and grew to 23 GB in the monotonicity argument of
``Phi(x) - Phi(x - 10^-30) > 0`` on [-5, 5] -- under an address-space limit the MemoryError
was caught somewhere else and the verdict differed.  A work-limited block now stops at
:data:`~symdp.proof.budgets.MEMORY_WORK` bytes of growth, as if its heartbeats were spent.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from symdp.proof.budgets import (MemoryBudgetHit, WorkExhausted, address_space, memory_guard,
                                 work_limit)

linux_only = pytest.mark.skipif(address_space() is None or not hasattr(signal, "setitimer"),
                                reason="reads /proc/self/statm and needs SIGPROF")


def _hog(megabytes: int) -> list:
    """Allocate ``megabytes`` MiB in 1 MiB pieces (plain Python objects: no heartbeat)."""
    out = []
    for _ in range(megabytes):
        out.append(bytearray(2 ** 20))
        sum(range(2000))   # some bytecode between allocations, where the poll can run
    return out


@linux_only
def test_a_work_limit_stops_at_its_memory_budget_though_no_heartbeat_is_spent():
    with pytest.raises(WorkExhausted):
        with work_limit(10 ** 12, memory=64 * 2 ** 20):
            _hog(400)


@linux_only
def test_a_block_within_its_memory_budget_returns_normally():
    with work_limit(10 ** 12, memory=512 * 2 ** 20):
        kept = _hog(16)
    assert len(kept) == 16


@linux_only
def test_a_step_outside_work_limited_blocks_stops_at_the_step_memory_budget():
    with pytest.raises(MemoryBudgetHit):
        with memory_guard(64 * 2 ** 20):
            _hog(400)


@linux_only
def test_the_innermost_block_gets_the_stop_and_the_outer_one_goes_on():
    with memory_guard(2048 * 2 ** 20):
        with pytest.raises(WorkExhausted):
            with work_limit(10 ** 12, memory=64 * 2 ** 20):
                _hog(400)
        kept = _hog(8)   # the outer guard is not spent
    assert len(kept) == 8


_CHILD = r"""
import json, resource, sys
limit = int(sys.argv[1])
if limit:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import contextlib, io
from symdp.cli.main import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        code = main(["step", "--json", "--no-certify", "--assume=-5<=x<=5", "--",
                     "Phi(x) - Phi(x - 10^-30)", ">", "0"])
    except SystemExit as exc:
        code = exc.code
peak = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmPeak"))
print(json.dumps({"code": code, "step": json.loads(out.getvalue()), "peak": peak}))
"""


def _run(limit: int) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(limit)], capture_output=True,
                          text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@linux_only
@pytest.mark.slow   # over a minute of CPU: CI's step 3
def test_the_verdict_is_the_same_with_and_without_a_2_gb_address_space_limit():
    """The issue's step, in a subprocess with ``RLIMIT_AS`` of 2 GB and in one without a
    limit of its own (only a 6 GB safety net, which a bounded run never nears): the same
    verdict and detail, and the unlimited run's address space stayed under 2 GB -- the
    memory budget, not the limit, stopped the polynomial blow-up."""
    gib = 2 ** 30
    limited, free = _run(2 * gib), _run(6 * gib)
    assert free["peak"] < 2 * gib, free["peak"]
    assert limited["step"]["verdict"] == free["step"]["verdict"]
    assert limited["step"]["detail"] == free["step"]["detail"]
    # the statement is true (Phi is strictly increasing): never REFUTED
    assert free["step"]["verdict"] != "REFUTED"
