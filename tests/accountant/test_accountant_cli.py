"""symdp account / symdp audit: output, JSON, verdicts, exit codes, bad input (one line, exit 2)."""

import json

import pytest

from symdp.cli.main import main

FAST = ["--poisson-gaussian", "--sigma", "1", "--q", "0.1", "--steps", "10", "--precision", "0"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_account_prints_a_certified_bracket(capsys):
    code, out, err = run(capsys, "account", *FAST, "--delta", "1e-5")
    assert code == 0, err
    assert "certified:" in out and "<= eps <=" in out


def test_account_json_bracket_is_ordered_and_contains_rdp_below(capsys):
    from symdp.accountant.reference import rdp_epsilon

    code, out, _ = run(capsys, "account", *FAST, "--delta", "1e-5", "--json")
    rec = json.loads(out)
    assert code == 0 and rec["schema"] == "symdp-account/1" and rec["certified"] is True
    lo, hi = rec["lower"]["float"], rec["upper"]["float"]
    assert 0 < lo <= hi
    rdp, _ = rdp_epsilon([(1, "0.1", 10)], "1e-5")      # an independent valid upper bound
    assert hi <= float(rdp)


def test_account_eps_mode_and_compare(capsys):
    code, out, _ = run(capsys, "account", *FAST, "--eps", "1", "--compare")
    assert code == 0
    assert "<= delta <=" in out and "CLT / GDP" in out and "RDP" not in out.split("CLT")[0]


def test_uniform_and_schedule(capsys, tmp_path):
    code, out, _ = run(capsys, "account", "--uniform-gaussian", "--sigma", "1", "--p", "0.1",
                       "--steps", "10", "--precision", "0", "--delta", "1e-5")
    assert code == 0 and "replace-one" in out
    # the lower end bounds the C_p guarantee, not the mechanism (review of issue #16)
    assert "lower end bounds the guarantee" in out
    f = tmp_path / "phases.json"
    f.write_text(json.dumps([{"sigma": 1, "q": 0.1, "steps": 4}, {"sigma": 2, "q": 0.05, "steps": 6}]))
    code, out, _ = run(capsys, "account", "--schedule", str(f), "--delta", "1e-5", "--precision", "0", "--json")
    rec = json.loads(out)
    assert code == 0 and len(rec["phases"]) == 2 and rec["phases"][1]["sigma"] == "2"
    assert rec["lower_bounds"] == "the mechanism" and rec["note"] is None  # Poisson
    c = tmp_path / "phases.csv"
    c.write_text("sigma,q,steps\n1,0.1,4\n2,0.05,6\n")
    code, out2, _ = run(capsys, "account", "--schedule", str(c), "--delta", "1e-5", "--precision", "0", "--json")
    assert code == 0 and json.loads(out2)["upper"] == rec["upper"]


def test_audit_refutes_eps_zero_and_holds_the_rdp_bound(capsys):
    from symdp.accountant.reference import rdp_epsilon

    # eps = 0 with delta = 1e-5 claims total variation <= 1e-5: false for sigma = 1
    code, out, _ = run(capsys, "audit", *FAST, "--delta", "1e-5", "--claimed-eps", "0")
    assert code == 1 and "REFUTED" in out
    code, out, _ = run(capsys, "audit", *FAST, "--delta", "1e-5", "--claimed-eps", "0", "--expect", "REFUTED")
    assert code == 0
    rdp, _ = rdp_epsilon([(1, "0.1", 10)], "1e-5")
    code, out, _ = run(capsys, "audit", *FAST, "--delta", "1e-5", "--claimed-eps", str(float(rdp)), "--json")
    rec = json.loads(out)
    assert code == 0 and rec["verdict"] == "HOLDS" and rec["matches_expectation"]


def test_audit_inside_the_bracket_is_undecided(capsys):
    code, out, _ = run(capsys, "account", *FAST, "--delta", "1e-5", "--json")
    rec = json.loads(out)
    mid = (rec["lower"]["float"] + rec["upper"]["float"]) / 2
    code, out, _ = run(capsys, "audit", *FAST, "--delta", "1e-5", "--claimed-eps", repr(mid), "--json")
    assert json.loads(out)["verdict"] == "UNDECIDED" and code == 1


@pytest.mark.parametrize("argv,needle", [
    (["account", "--sigma", "0.2", "--q", "0.01", "--steps", "10", "--delta", "1e-5"], "sigma must be in [0.5, 10]"),
    (["account", "--sigma", "1", "--q", "0.7", "--steps", "10", "--delta", "1e-5"], "q must be in"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-13"], "delta must be in"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--eps", "25"], "eps must be in"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "1.5", "--delta", "1e-5"], "--steps must be an integer"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "0", "--delta", "1e-5"], "steps must be an integer in"),
    (["account", "--sigma", "nan", "--q", "0.01", "--steps", "10", "--delta", "1e-5"], "--sigma must be a finite number"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "10"], "give --delta"),
    (["account", "--sigma", "1", "--steps", "10", "--delta", "1e-5"], "--q is required"),
    (["account", "--uniform-gaussian", "--sigma", "1", "--q", "0.1", "--steps", "10", "--delta", "1e-5"], "takes --p"),
    (["account", "--schedule", "/nonexistent/x.json", "--delta", "1e-5"], "cannot read"),
    (["audit", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5"], "--claimed-eps"),
    (["audit", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5", "--claimed-eps", "30"],
     "claimed-eps must be in"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_bad_schedule_json(capsys, tmp_path):
    f = tmp_path / "s.json"
    f.write_text('[{"sigma": 1, "steps": 3}]')
    code, _, err = run(capsys, "account", "--schedule", str(f), "--delta", "1e-5")
    assert code == 2 and "keys sigma, q, steps" in err
