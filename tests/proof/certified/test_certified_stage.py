"""The CERTIFIED stage in the cascade: at points, over boxes, reductions, opt-out, CLI."""

import json
import subprocess
import sys

import pytest
import sympy as sp

pytest.importorskip("flint")

from symdp import Phi  # noqa: E402
from symdp.proof import Derivation, Step, Verdict, check_derivation  # noqa: E402
from symdp.proof.cascade.certified.reduce import reduce_relation  # noqa: E402

p, e, x, delta = sp.symbols("p varepsilon x delta", real=True)
n, k = sp.symbols("n k", integer=True)
R = sp.Rational


def _check(lhs, rel, rhs, hyp, constraints=(), skip=(), **kw):
    d = Derivation("t", "test", "test", hyp, (Step(lhs, rel, rhs, "test", skip=skip),),
                   constraints=constraints)
    return check_derivation(d, **kw).steps[0]


def test_inequality_sympy_cannot_decide_is_certified_over_the_box():
    # (the symbolic stage proves it by monotonicity in p; skipped to see the box stage)
    r = _check(sp.log(1 - p + p * sp.exp(e)), "<=", e,
               {p: sp.Interval(0, 1), e: sp.Interval(0, 10)}, skip=("symbolic",))
    assert r.verdict is Verdict.CERTIFIED
    assert r.detail.startswith("over the box")
    search = r.extra["certified"]["box"]["searches"][0]
    assert search["status"] == "certified" and search["sub_boxes"] > 0


def test_equality_is_certified_at_points_to_a_radius_and_says_so():
    # Phi(x) + Phi(-x) = 1: SymPy leaves it; balls decide it at every point
    r = _check(Phi(x) + Phi(-x) + sp.exp(x) - sp.exp(x) * 1, "=", 1 + sp.exp(x) * 0,
               {x: sp.Interval(-5, 5)}, certify=True, symbolic_work=0)
    assert r.verdict in (Verdict.CHECKED_AT_POINTS, Verdict.PROVED)
    if r.verdict is Verdict.CHECKED_AT_POINTS:
        assert "points" in r.detail and "not all parameter values" in r.detail


def test_difference_of_1e_40_is_refuted_by_balls_not_certified():
    r = _check(Phi(x), "=", Phi(x) + R(1, 10 ** 40), {x: sp.Interval(0, 1)})
    assert r.verdict is Verdict.REFUTED


def test_numeric_pass_is_never_certified_when_a_node_is_unsupported():
    r = _check(sp.Si(x) ** 2 + sp.exp(x), ">", 0 * x, {x: sp.Interval(0, 1)})
    assert r.verdict not in (Verdict.CERTIFIED, Verdict.CHECKED_AT_POINTS)
    assert "CERTIFIED stage skipped: unsupported" in r.detail or r.verdict is Verdict.PROVED


def test_opt_out_gives_the_numeric_verdict():
    r = _check(sp.log(1 - p + p * sp.exp(e)), "<=", e,
               {p: sp.Interval(0, 1), e: sp.Interval(0, 10)}, certify=False, skip=("symbolic",))
    assert r.verdict is Verdict.NUMERIC_AT_POINTS


def test_false_inequality_is_refuted_with_a_certified_box():
    # (the probe before the proof attempts refutes it first; off, to see the box stage)
    r = _check(sp.log(1 - p + p * sp.exp(e)), ">=", e, {p: sp.Interval(0, 1), e: sp.Interval(0, 10)},
               probe=False)
    assert r.verdict is Verdict.REFUTED and r.counterexample is not None
    assert r.extra["certified"]["box"]["searches"][0]["counterexample_box"]["box"]


def test_bagging_exponent_k_is_removed_by_the_monotone_lemma():
    hyp = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)}
    red = reduce_relation(1 - (1 - 1 / n ** 2) ** k, 1 - ((n - 1) / n) ** k, "<=", hyp)
    assert red.proved and not red.lhs.has(k) and not red.rhs.has(k)
    r = _check(1 - (1 - 1 / n ** 2) ** k, "<=", 1 - ((n - 1) / n) ** k, hyp)
    # true for every n >= 2, k >= 1: 1 - 1/n^2 >= 1 - 1/n >= 0 and x -> x^k is increasing;
    # exactly at a few points, independently of symdp:
    for nv, kv in [(2, 1), (3, 7), (10, 40)]:
        a = 1 - (1 - sp.Rational(1, nv ** 2)) ** kv
        b = 1 - sp.Rational(nv - 1, nv) ** kv
        assert a <= b
    # the reduction is a proposal the kernel does not check (issue #19); the kernel proves the
    # original margin itself, by the monotone power lemmas of the residual algebra (issue #20)
    assert r.holds_everywhere and "residual algebra" in r.detail


def test_constraint_slack_decides_the_without_replacement_ratio():
    hyp = {n: sp.Range(2, sp.oo), k: sp.Range(1, sp.oo)}
    r = _check((n - k) / n, "<=", (n + 1) / (n + 1 - k), hyp, constraints=(sp.Le(k, n - 1),))
    assert r.verdict is Verdict.PROVED


def test_json_report_carries_the_certified_record():
    from symdp.report.check_output import derivation_dict

    d = Derivation("t", "test", "test", {p: sp.Interval(0, 1), e: sp.Interval(0, 10)},
                   (Step(sp.log(1 - p + p * sp.exp(e)), "<=", e, "test", skip=("symbolic",)),))
    step = derivation_dict(check_derivation(d))["steps"][0]
    json.dumps(step)
    assert step["certified"]["box"]["searches"][0]["box"]["p"] == ["0", "1"]


def _symdp(*args):
    return subprocess.run([sys.executable, "-m", "symdp.cli.main", *args], capture_output=True,
                          text=True, timeout=120)


def test_cli_step_certify_over_a_box():
    out = _symdp("step", "log(1-p+p*exp(eps))", "<=", "eps", "--certify", "--box", "p=0..1",
                 "--box", "eps=0..10")
    assert out.returncode == 0, out.stderr
    # the symbolic stage may prove it first (the margin is monotone in p and in eps)
    assert "CERTIFIED: over the box" in out.stdout or \
        "PROVED: derivative-sign monotonicity" in out.stdout, out.stdout


@pytest.mark.parametrize("box", ["p=1..0", "eps=-oo..oo", "p=x..1"])
def test_cli_bad_box_is_one_line_exit_2(box):
    out = _symdp("step", "p", "<=", "1", "--certify", "--box", box)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_cli_box_without_certify_is_an_error():
    out = _symdp("step", "p", "<=", "1", "--box", "p=0..1")
    assert out.returncode == 2
