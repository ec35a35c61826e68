"""``symdp check --json``, schema symdp-check/3: the scope of every verdict, and one record
form (the JSON is the serialisation of the report records; reading it back gives them)."""

import json

import sympy as sp

from symdp.proof import Derivation, Step, Verdict, check_derivation
from symdp.report.check_output import SCHEMA, json_report
from symdp.report.from_json import parse_check_json
from symdp.report.views import report_dict, view_of_report
from symdp.tradeoff.assumptions import Assumption
from symdp.tradeoff.base import TradeOff, piece
from symdp.core.symbols import alpha

x, mu = sp.Symbol("x"), sp.Symbol("mu")
_t = sp.Dummy("t")


class _Chosen(TradeOff):
    """Id, claiming to rest on ``mu <= 1`` (a choice made at a witness point)."""

    def pieces(self):
        return [piece(0, 1, 1 - _t, _t)]

    @property
    def assumptions(self):
        return (Assumption(sp.Le(self.args[0], 1), "chosen at mu=1/2"),)

    def _latex_name(self, printer):
        return "I_{%s}" % printer._print(self.args[0])


def _reports():
    claims = Derivation(
        "scopes", "four scopes", "test", {x: sp.Interval(0, 1), alpha: sp.Interval(0, 1),
                                          mu: sp.Interval(0, 2)},
        (Step(x ** 2, "<=", x, "square"),
         Step(sp.sin(x) ** 2 + sp.cos(x) ** 2, "=", 1, "Pythagoras", skip=("symbolic", "certified")),
         Step(_Chosen(mu)(alpha), "<=", 1 - alpha, "uses a choice"),
         Step(x, ">=", 1, "printed", expect=Verdict.REFUTED)),
        chained=False)
    return [check_derivation(claims, points=8)]


def test_json_v2_says_the_scope_of_every_step_and_round_trips():
    reports = _reports()
    text = json_report(reports, [], dps=(30, 60))
    data = json.loads(text)
    assert data["schema"] == SCHEMA == "symdp-check/3"
    steps = data["derivations"][0]["steps"]
    assert [s["verdict"] for s in steps] == ["PROVED", "NUMERIC_AT_POINTS", "PROVED", "REFUTED"]
    assert [s["holds_everywhere"] for s in steps] == [True, False, False, False]
    assert [s["evidence_only"] for s in steps] == [False, True, False, False]
    assert [s["under_hypotheses"] for s in steps] == [False, False, True, False]
    # the test object's closed form is no kernel definition: the verdict rests on it too
    closed = "_Chosen(mu)(alpha) = 1 - alpha (symdp's closed form, not checked by the kernel)"
    assert steps[2]["hypotheses"] == [closed, "mu <= 1"]
    assert steps[2]["label"] == f"PROVED under: {closed}; mu <= 1"
    assert "points only" in steps[1]["scope"] and "evidence, not proof" in steps[1]["scope"]
    assert steps[0]["scope"].startswith("holds for every parameter value")
    conclusion = data["derivations"][0]["conclusion"]
    assert conclusion["holds_everywhere"] is False and conclusion["hypotheses"] == [closed,
                                                                                   "mu <= 1"]
    assert data["derivations"][0]["domains"] == {"x": "Interval(0, 1)", "alpha": "Interval(0, 1)",
                                                 "mu": "Interval(0, 2)"}
    s = data["summary"]
    assert (s["holds_everywhere"], s["under_hypotheses"], s["evidence_only"],
            s["findings_reproduced"]) == (1, 1, 1, 1)
    assert s["line"] == ("1 of 4 steps hold for every parameter value; 1 hold only under "
                         "unproved hypotheses; 1 checked at points only; 1 findings reproduced")
    # one record form: reading the JSON back gives records that serialise to the same JSON
    back = parse_check_json(data)
    assert [report_dict(r) for r in back.reports] == data["derivations"]
    assert report_dict(view_of_report(reports[0])) == data["derivations"][0]
    assert back.reports[0].steps[2].hypotheses == (closed, "mu <= 1")


def test_require_proof_is_recorded_in_the_summary():
    data = json.loads(json_report(_reports(), [], require_proof=True))
    assert data["summary"]["require_proof"] is True and data["summary"]["ok"] is False
    assert data["summary"]["not_proved"] == 2


def test_the_table_is_the_same_from_the_checked_objects_and_from_the_records():
    from symdp.report.check_output import text_report

    reports = _reports()
    records = parse_check_json(json.loads(json_report(reports, []))).reports
    for verbose in (False, True):
        assert text_report(reports, [], verbose=verbose) == text_report(records, [], verbose=verbose)
