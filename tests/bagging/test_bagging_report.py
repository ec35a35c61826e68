"""The ``symdp bagging`` report: JSON content, text, LaTeX, and the command line."""

import argparse
import importlib.util
import json
import re
import subprocess
import sys

import mpmath
import pytest

from symdp.bagging.report import report as bagging_report
from symdp.bagging.schemes import Bagging, Sampling
from symdp.cli import bagging as cli
from symdp.cli.arguments import bagging_configuration, integer_argument
from symdp.core.errors import InvalidParameterError

BIG = "1000000000000000000"


def report(n, k, models="1", without_replacement=False, joint=None, at=None, dps="40",
           as_json=False):
    """What ``symdp bagging`` does with its flags: parse, then report."""
    dps = integer_argument("dps", dps)
    bagging = bagging_configuration(n, k, models, without_replacement, joint)
    return bagging_report(bagging, at, dps, as_json=as_json)


def _significant_digits(text: str) -> int:
    mantissa = text.split("e")[0].replace("-", "").replace(".", "").lstrip("0")
    return len(mantissa)


def _numbers(d: dict):
    yield d["paper"]["epsilon"]
    yield d["paper"]["delta"]
    for key in ("tv", "min_epsilon_at_paper_delta", "min_delta_at_paper_epsilon"):
        yield d["exact"][key]
    for point in d["exact"]["profile"]:
        yield point["eps"]
        yield point["delta"]


@pytest.mark.parametrize("n, k, flags", [
    ("60000", "1000", {}),
    (BIG, BIG, {}),
    ("60000", "1000", {"without_replacement": True}),
    ("60000", "100", {"without_replacement": True, "models": "5", "joint": False}),
])
def test_json_has_the_required_fields_with_30_digits(n, k, flags):
    d = json.loads(report(n, k, at=["0", "0.5", "1"], as_json=True, **flags))
    assert set(d["paper"]) >= {"epsilon", "delta"}
    assert set(d["exact"]) >= {"tv", "min_epsilon_at_paper_delta", "min_delta_at_paper_epsilon", "profile"}
    assert [p["eps"][:3] for p in d["exact"]["profile"]] == ["0", "0.5", "1.0"]
    assert all(set(p) >= {"eps", "delta"} for p in d["exact"]["profile"])
    for value in _numbers(d):
        assert value == "0" or _significant_digits(value) >= 30, value
        mpmath.mpf(value)   # parses as a decimal
    assert d["latex"]["paper_epsilon"].startswith(r"\varepsilon_{\mathrm{paper}} =")
    assert d["exact"]["min_epsilon_at_paper_delta"] == "0"
    assert d["exact"]["tv"] == d["paper"]["delta"] == d["exact"]["min_delta_at_paper_epsilon"]


def test_json_at_1e18_has_the_true_value_not_the_float_zero():
    d = json.loads(report(BIG, BIG, as_json=True))
    assert d["paper"]["delta"].startswith("0.63212055882855767")
    assert d["exact"]["tv"].startswith("0.63212055882855767")


def test_text_report_shows_values_and_latex():
    text = report("60000", "1000", at=["0.25"])
    assert "paper (Liu, Jia, Gong, IJCAI 2021, Thm. 2" in text
    assert r"\delta_{\mathrm{paper}} = 1 - \left(\frac{n - 1}{n}\right)^{k}" in text
    assert "smallest epsilon at paper delta = 0" in text
    assert "remove_Dprime_first" in text and "findings:" in text


def test_models_appear_in_the_formulas():
    d = json.loads(report("100", "3", models="4", as_json=True))
    assert d["latex"]["paper_epsilon"].startswith(r"\varepsilon_{\mathrm{paper}} = N k \log")
    assert d["latex"]["paper_delta"].endswith(r"^{N k}")
    assert d["parameters"]["total_draws"] == 12


@pytest.mark.parametrize("args, start", [
    (dict(n="0", k="1"), "n must be"), (dict(n="abc", k="1"), "n must be"),
    (dict(n="10", k="2.5"), "k must be"), (dict(n="10", k="-2"), "k must be"),
    (dict(n="1", k="3"), "n must be an integer >= 2"),
    (dict(n="10", k="10", without_replacement=True), "k must be <= n - 1"),
    (dict(n="10", k="3", models="4", without_replacement=True, joint=True), "models*k must be"),
    (dict(n="10", k="3", models="0"), "models must be"),
    (dict(n="10", k="3", dps="0"), "dps must be"),
    (dict(n="10", k="3", at=["-1"]), "eps must be"),
])
def test_bad_input_raises_naming_the_parameter(args, start):
    with pytest.raises(InvalidParameterError) as info:
        report(**args)
    assert str(info.value).startswith(start)


def test_report_takes_a_validated_configuration():
    d = json.loads(bagging_report(Bagging(100, 3, 4, Sampling.WITHOUT_REPLACEMENT_JOINT),
                                  at=["0"], dps=30, as_json=True))
    assert d["parameters"]["total_draws"] == 12
    assert d["exact"]["tv"].startswith("0.12000000000")          # q(n) = N k / n = 12/100
    with pytest.raises(InvalidParameterError, match="dps must be"):
        bagging_report(Bagging(100, 3), dps=0)


def test_tv_latex_uses_the_papers_operator():
    # "operator b" with replacement (proof of Thm. 2), "operator a" without (Thm. 3)
    wr = json.loads(bagging_report(Bagging(100, 3), as_json=True))["latex"]["tv"]
    wo = json.loads(bagging_report(Bagging(100, 3, 1, Sampling.WITHOUT_REPLACEMENT_JOINT),
                                   as_json=True))["latex"]["tv"]
    assert "b(D), b(D')" in wr and "a(D), a(D')" in wo and "b(" not in wo
    conventions = [json.loads(bagging_report(Bagging(100, 3, 1, s), as_json=True))["convention"]
                   for s in (Sampling.WITH_REPLACEMENT, Sampling.WITHOUT_REPLACEMENT_INDEPENDENT)]
    assert "(b(D), b(D'))" in conventions[0] and "(a(D), a(D'))" in conventions[1]


def _parser():
    parser = argparse.ArgumentParser(prog="symdp")
    cli.add_parser(parser.add_subparsers(dest="command"))
    return parser


def test_cli_module_has_exactly_add_parser_and_run():
    functions = {name for name, value in vars(cli).items()
                 if callable(value) and getattr(value, "__module__", "") == cli.__name__}
    assert functions == {"add_parser", "run"}


def test_cli_run_prints_json(capsys):
    args = _parser().parse_args(["bagging", "--n", "60000", "--k", "1000", "--at", "0", "1", "--json"])
    assert cli.run(args) == 0
    d = json.loads(capsys.readouterr().out)
    assert len(d["exact"]["profile"]) == 2


def test_cli_flags():
    args = _parser().parse_args(["bagging", "--n", "9", "--k", "2", "--models", "3",
                                 "--without-replacement", "--independent", "--dps", "35"])
    assert (args.joint, args.without_replacement, args.models, args.dps) == (False, True, "3", "35")
    with pytest.raises(SystemExit):
        _parser().parse_args(["bagging", "--n", "9", "--k", "2", "--joint", "--independent"])


main_available = importlib.util.find_spec("symdp.cli.main") is not None


def _symdp(*argv):
    return subprocess.run([sys.executable, "-m", "symdp.cli.main", "bagging", *argv],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not main_available, reason="symdp.cli.main not written yet")
def test_command_at_1e18_json():
    result = _symdp("--n", BIG, "--k", BIG, "--json")
    assert result.returncode == 0, result.stderr
    d = json.loads(result.stdout)
    assert d["paper"]["delta"].startswith("0.6321205588285576")


@pytest.mark.skipif(not main_available, reason="symdp.cli.main not written yet")
@pytest.mark.parametrize("argv, name", [
    (("--n", "0", "--k", "3"), "n"), (("--n", "10", "--k", "x"), "k"),
    (("--n", "5", "--k", "5", "--without-replacement"), "k"),
    (("--n", "1", "--k", "1"), "n"), (("--n", "9", "--k", "2", "--models", "-1"), "models"),
])
def test_command_bad_input_one_line_exit_2(argv, name):
    result = _symdp(*argv)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and re.search(rf"\b{re.escape(name)}\b", lines[0]), result.stderr
    assert "Traceback" not in result.stderr
