"""symdp.cli.subsample: parses the flags, bounds them, formats symdp.subsampling.summary.

Run in-process through symdp.cli.main.main; numbers against Lemma 4.4 written with mpmath.
"""

import json

import mpmath
import pytest

from symdp.cli.main import main


def _run(capsys, *argv):
    code = main(["subsample", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_the_summary_with_lemma_4_4(capsys):
    code, out, _ = _run(capsys, "--eps", "1", "--delta", "0.01", "--p", "0.1", "--at", "0",
                        "--json")
    d = json.loads(out)
    assert code == 0 and d["family"] == "eps_delta" and len(d["profile"]) == 1
    with mpmath.workdps(50):
        eps1 = mpmath.log(1 - mpmath.mpf("0.1") + mpmath.mpf("0.1") * mpmath.e)
        assert abs(mpmath.mpf(d["eps_prime"]) - eps1) < mpmath.mpf(10) ** -28
    assert d["delta_prime"].startswith("0.00100000000")


def test_text_names_the_mechanism_and_the_default_epsilons(capsys):
    code, out, _ = _run(capsys, "--mu", "1", "--p", "0.5")
    assert code == 0 and out.startswith("C_p(f) for f = G_1, p = 1/2")
    assert out.count("    eps = ") == 4       # 0, 0.5, 1, 2 (no eps' for a Gaussian)


@pytest.mark.parametrize("argv, name", [
    (("--mu", "1", "--eps", "1", "--p", "0.5"), "--mu"),
    (("--eps", "1", "--p", "0.5"), "--delta"),
    (("--mu", "20000", "--p", "0.5"), "--mu"),
    (("--mu", "1", "--p", "0.5", "--at", "-1"), "--at"),
    (("--mu", "1", "--p", "0.5", "--dps", "10"), "--dps"),
])
def test_bad_flags_are_one_line_exit_2(capsys, argv, name):
    code, _, err = _run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and name in err
