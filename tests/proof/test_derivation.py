"""symdp.proof.derivation: relations, steps, chains and their conclusion (no checking)."""

import itertools

import pytest
import sympy as sp

from symdp.core.errors import DerivationError
from symdp.proof.derivation import (RELATIONS, Derivation, Step, chain, compose_relations,
                                    normalise_relation)
from symdp.proof.verdict import Verdict

x, y = sp.symbols("x y", real=True)
HYP = {x: sp.Interval(0, 1), y: sp.Interval(0, 1)}


@pytest.mark.parametrize("typed, rel", [("==", "="), ("≤", "<="), ("≥", ">="), (" < ", "<"),
                                        (">", ">")])
def test_relation_spellings(typed, rel):
    assert normalise_relation(typed) == rel


# "=>" reads as an implication and "=<" as a typo: refused, not guessed (issue #14)
@pytest.mark.parametrize("typed", ["!=", "~", "", "<<", "=>", "=<"])
def test_unknown_relations_are_refused(typed):
    with pytest.raises(DerivationError, match="relation must be one of"):
        normalise_relation(typed)


def _holds(rel, a, b):
    return {"=": a == b, "<=": a <= b, "<": a < b, ">=": a >= b, ">": a > b}[rel]


def test_composition_agrees_with_the_order_of_three_numbers():
    # a ? c follows from a r1 b and b r2 c exactly when it holds for every triple satisfying
    # the premises; checked on all triples of {0, 1, 2} (enough to separate < from <=)
    for r1, r2 in itertools.product(RELATIONS, repeat=2):
        triples = [t for t in itertools.product(range(3), repeat=3)
                   if _holds(r1, t[0], t[1]) and _holds(r2, t[1], t[2])]
        valid = [r for r in RELATIONS if all(_holds(r, a, c) for a, _, c in triples)]
        strongest = next((r for r in ("=", "<", ">", "<=", ">=") if r in valid), None)
        got = compose_relations(r1, r2)
        assert got == strongest, (r1, r2, got, valid)


def test_steps_take_numbers_exactly_and_refuse_text():
    s = Step(x, "<=", 0.5, "r")
    assert s.rhs == sp.Rational(1, 2)
    with pytest.raises(DerivationError, match="not text"):
        Step("x", "=", x)
    with pytest.raises(DerivationError, match="skip must name stages"):
        Step(x, "=", x, skip="numeric")
    assert Step(x, "=", x, skip="symbolic").skip == ("symbolic",)
    assert Step(x, "<=", 1, side_conditions=[sp.Le(y, x)]).free_symbols == {x, y}


def test_chain_links_each_rhs_to_the_next_lhs():
    steps = chain(x ** 2, ("<=", x, "x <= 1"), ("<", 1 + x, "0 < 1", {"note": "n"}))
    assert [(s.lhs, s.relation, s.rhs) for s in steps] == [(x ** 2, "<=", x), (x, "<", 1 + x)]
    assert steps[1].note == "n"
    d = Derivation("square_lt", "s", "c", HYP, steps)
    assert d.conclusion_relation == "<"
    c = d.conclusion
    assert (c.lhs, c.relation, c.rhs) == (x ** 2, "<", 1 + x) and c.rule == "chain of steps 1, 2"
    assert d.statement_latex() == r"x^{2} < x + 1"


def test_claims_do_not_conclude():
    d = Derivation("claims", "s", "c", HYP, (Step(x, "<=", 1), Step(y, ">=", 0)), chained=False)
    assert d.conclusion is None and d.conclusion_relation is None
    assert d.statement_latex() == r"x \le 1 \quad\text{and}\quad y \ge 0"


@pytest.mark.parametrize("kwargs, message", [
    (dict(id="", steps=(Step(x, "=", x),)), "non-empty identifier"),
    (dict(id="a-b", steps=(Step(x, "=", x),)), "non-empty identifier"),
    (dict(id="none", steps=()), "has no steps"),
    (dict(id="free", steps=(Step(sp.Symbol("z"), "=", 0),)), "no domain for z"),
    (dict(id="gap", steps=(Step(x, "=", x), Step(y, "=", y))), "does not chain"),
    (dict(id="updown", steps=(Step(x, "<=", y), Step(y, ">=", 0))), "do not compose"),
    (dict(id="bad_hyp", steps=(Step(x, "=", x),), hypotheses={x: (0, 1)}), "SymPy sets"),
])
def test_malformed_derivations_are_refused(kwargs, message):
    args = dict(statement="s", citation="c", hypotheses=HYP)
    args.update(kwargs)
    with pytest.raises(DerivationError, match=message):
        Derivation(**args)


def test_a_recorded_finding_is_data():
    s = Step(x, ">", 1, "printed claim", expect=Verdict.REFUTED, note="finding")
    assert s.expect is Verdict.REFUTED and s.note == "finding"
