"""The seed's loss table: exact lattice powers against exact atom convolution, and Eq. 15's
direction (C_p(f) is at least as private as Lemma 4.4's f_{eps',delta'}) after composition."""

import mpmath
import pytest
import sympy as sp

from symdp.composition import LossAtoms, loss_of
from symdp.composition.seed_claim import loss_table
from symdp.subsampling.eps_delta import lemma_4_4, subsampled_eps_delta


def _mid(ball):
    with mpmath.workdps(40):
        return mpmath.mpf(ball.mid().str(40, radius=False))


def test_table_rows_match_exact_atoms_at_small_T():
    eps, delta, p = 1, sp.Rational(1, 10 ** 4), sp.Rational(1, 10)
    rows = loss_table(eps, delta, p, "0.01", steps=(1, 3))
    C = loss_of(subsampled_eps_delta(eps, delta, p))
    F = LossAtoms.from_eps_delta(*lemma_4_4(eps, delta, p))
    for T, a, b in rows:
        with mpmath.workdps(40):
            assert abs(_mid(a) - C.power(T).epsilon("0.01")) < 1e-30
            assert abs(_mid(b) - F.power(T).epsilon("0.01")) < 1e-30


def test_composition_keeps_the_direction_of_eq_15_and_the_gap_grows():
    rows = loss_table(1, "1e-8", "0.01", "1e-5", steps=(10, 100, 1000))
    gaps = [_mid(b) - _mid(a) for _, a, b in rows]
    assert all(g > 0 for g in gaps)
    assert gaps[0] < gaps[1] < gaps[2]


def test_no_finite_eps_below_the_mass_at_infinity():
    (T, a, b), = loss_table(1, "0.001", "0.1", "1e-5", steps=(100,))  # 1 - (1 - 1e-4)^100 > 1e-5
    assert a is None and b is None


def test_plot_compose_writes_a_file(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from symdp.cli.main import main

    out = tmp_path / "compose.png"
    assert main(["plot", "compose", "--steps", "10", "30", "--out", str(out)]) == 0
    assert out.stat().st_size > 1000
    assert main(["plot", "compose", "--p", "2", "--out", str(out)]) == 2
    assert "--p must be in [0, 1]" in capsys.readouterr().err


@pytest.mark.parametrize("kw,match", [(dict(eps=0), "eps must be > 0"), (dict(p=0), "p must be in"),
                                      (dict(delta=2), "delta must be in"), (dict(steps=(0,)), "T must be")])
def test_bad_input_names_the_parameter(kw, match):
    from symdp.core.errors import InvalidParameterError

    args = dict(eps=1, delta="1e-8", p="0.01", target="1e-5", steps=(10,))
    args.update(kw)
    with pytest.raises(InvalidParameterError, match=match):
        loss_table(**args)
