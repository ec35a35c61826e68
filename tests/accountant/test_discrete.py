"""Review (issue #16): the directed rescaling after each fmpz_poly product.

FLINT's ``fmpz_poly // n`` is polynomial division: a quotient coefficient is 0 when
|c| < n, so ``-((-poly) // 2**B)`` rounded masses below one unit 2^-B *down* to 0 -- a
wrong direction for the upper PLD (P-masses) and the lower PLD (Q-masses).  Expected
values here are plain integer ceilings/floors computed with Python ints."""

import random

from flint import fmpz_poly

from symdp.accountant.discrete import Grid, LowerPLD, UpperPLD, _shift_down, _shift_up


def _ceil(c, bits):
    return -((-c) >> bits)


def test_shift_up_is_a_coefficientwise_ceiling():
    rng = random.Random(16)
    bits = 20
    coeffs = [0, 1, 3, (1 << bits) - 1, 1 << bits, (1 << bits) + 1] + [rng.getrandbits(45) for _ in range(50)]
    got = [int(x) for x in _shift_up(fmpz_poly(coeffs), bits).coeffs()]
    want = [_ceil(c, bits) for c in coeffs]
    while want and want[-1] == 0:
        want.pop()
    assert got == want
    got = [int(x) for x in _shift_down(fmpz_poly(coeffs), bits).coeffs()]
    want = [c >> bits for c in coeffs]
    while want and want[-1] == 0:
        want.pop()
    assert got == want


def test_upper_product_keeps_masses_below_one_unit():
    g = Grid()
    B = g.bits
    u = UpperPLD(fmpz_poly([1, 1 << B]), 0, 0, g)
    v = u * u
    # exact product (2^{2B} + 2^{B+1} + 1) 2^{-2B}: each of its three cells is ceil'd separately,
    # 1 + 2 + 2^B units; truncation only moves mass, never removes it
    assert v.total() == (1 << B) + 3


def test_lower_product_rounds_tiny_q_masses_up():
    g = Grid()
    B = g.bits
    low = LowerPLD(fmpz_poly([1 << (B - 1), 1 << (B - 1)]), fmpz_poly([1 << B, 1]), 0, g)
    w = low * low
    q = [int(x) for x in w.q.coeffs()]
    # P cells of 1/4, 1/2, 1/4 keep all three cells from truncation;
    # Q-array (2^B + x)^2 = 2^{2B} + 2^{B+1} x + x^2: ceilings 2^B, 2, 1 (the last was 0 before)
    assert q == [1 << B, 2, 1]
