"""symdp.cli.step: one typed step checked, its verdict and scope printed (in-process)."""

import pytest

from symdp.cli.main import main


def _run(capsys, *argv):
    code = main(["step", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_true_identity_is_proved(capsys):
    code, out, _ = _run(capsys, "(n+1)^2", "=", "n^2 + 2n + 1")
    assert code == 0 and "PROVED" in out


def test_a_box_claim_holds_everywhere(capsys):
    pytest.importorskip("flint")
    # the monotonicity stage may prove it before the certified stage runs on the box
    code, out, _ = _run(capsys, "log(1+x)", "<=", "x", "--certify", "--box", "x=0..1")
    assert code == 0 and ("CERTIFIED" in out or "PROVED" in out)
    assert "holds for every parameter value" in out


def test_a_false_step_is_refuted_and_exits_1(capsys):
    code, out, _ = _run(capsys, "x^2", "<=", "x", "--assume", "0 <= x <= 2")
    assert code == 1 and "REFUTED" in out


@pytest.mark.parametrize("argv, words", [
    (("x", "<<", "1"), "relation"),
    (("__import__('os')", "=", "1"), "may not start with '_'"),
    (("x", "<=", "1", "--box", "x=0..1"), "--box needs --certify"),
    (("x", "<=", "1", "--certify", "--box", "x=1..0"), "lower <= upper"),
])
def test_usage_errors_are_one_line_exit_2(capsys, argv, words):
    code, _, err = _run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and words in err


def test_a_huge_integer_power_is_never_evaluated_exactly(capsys):
    # x^(10^100) at x = 5 has 10^100 digits: the kernel's looks at points used to compute it
    # and never returned.  Truth by parity: an even power is >= 0, an odd one is -1 at x = -1.
    code, out, _ = _run(capsys, "x^(10^100)", ">=", "0")
    assert code == 0 and "holds for every parameter value" in out
    code, out, _ = _run(capsys, "x^(10^100+1)", ">=", "0")
    assert code == 1 and "REFUTED" in out and "x=-1" in out
