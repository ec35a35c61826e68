"""Limits of the formula parser and the digit budget of every SymPy construction.

SymPy evaluates numbers as it builds them, so :class:`_Builder` checks each construction
*before* it runs against :data:`MAX_DIGITS` (digits of the numbers of the whole formula),
:data:`MAX_ROOT_DIGITS` (digits under a fractional power), :data:`MAX_COMPARISONS` and a
time limit (:data:`MAX_SECONDS`); see the Limits section of :mod:`symdp.parsing`.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import mpmath
import sympy as sp

from ..core.special import Phi
from .tokens import _Problem
from .vocabulary import _SYMPY_FUNCTIONS


#: Longest accepted input, in characters.
MAX_LENGTH = 10_000
#: Deepest accepted nesting (groups, exponents, unary signs); keeps the parser
#: far from Python's recursion limit.
MAX_DEPTH = 50
#: Budget of digits for the numbers of one formula (see Limits).  Python refuses
#: int <-> str conversions above 4300 digits: a larger number could not be printed.
MAX_DIGITS = 4000
#: Most digits under a fractional power: SymPy factors the radicand, in time
#: growing like the cube of its length (1600 digits take about a second).
MAX_ROOT_DIGITS = 500

#: Most pairwise comparisons that Min/Max may make in one formula (about 1 ms each).
MAX_COMPARISONS = 100
#: A safety net: building one formula may take at most this long (checked between
#: constructions).  SymPy's assumption queries can evaluate a number thousands of
#: times; the limits above keep each construction short, this keeps their sum short.
MAX_SECONDS = 10.0
# PhiInv(a) is evaluated with as many extra digits as min(a, 1 - a) has leading
# zeros, in time growing like their cube (10^-400 takes half a second).
_PHI_INV_DIGITS = 100
# floor/ceiling of an inexact number evaluates it to every digit of its integer part.
_FLOOR_DIGITS = 100


class _Value(NamedTuple):
    """A built expression and what building it cost, as bounds (see _Builder)."""

    expr: sp.Basic
    digits: int = 0  # digits of the numbers SymPy computed with
    roots: int = 0   # digits of those under a fractional power: SymPy factors them
    q: int = 1       # lcm of those powers' denominators: b^(p/q) expands to b^(q-1)


def _cost(values) -> tuple[int, int, int]:
    """The summed cost of several values: digits and roots add, denominators lcm."""
    return (sum(v.digits for v in values), sum(v.roots for v in values),
            math.lcm(*(v.q for v in values)))


def _rational_digits(r: sp.Rational) -> int:
    return int(max(abs(r.p).bit_length(), r.q.bit_length()) * math.log10(2)) + 1


def _expression_digits(expr: sp.Basic) -> int:
    return sum(_rational_digits(r) for r in expr.atoms(sp.Rational))


def _ceil_abs(r: sp.Rational) -> int:
    return -(-abs(r.p) // r.q)


def _spread(exponent: sp.Basic) -> tuple[int, int]:
    """How far SymPy may raise the numbers of a base to ``exponent``.

    Returns the product of the exponent's numbers (rounded up, at least 1) and
    the lcm of their denominators: SymPy pulls ``b^(c h)`` out of
    ``b^(c (h + t))`` and expands ``b^(p/q)`` into ``b^(q-1)``.  Both are capped
    far above any accepted size, so they stay small integers.
    """
    cap = 10 ** (MAX_DIGITS + 1)
    k = q = 1
    for node in sp.preorder_traversal(exponent):
        if node.is_Rational:
            k = min(k * max(_ceil_abs(node), 1), cap)
            q = min(math.lcm(q, node.q), cap)
    return k, q


def _approximate(expr: sp.Basic, col: int):
    """``expr`` as an mpmath number at low precision, or None if SymPy cannot say.

    Only called on numbers already accepted, whose size is within the budget,
    so the evaluation is quick.  A number that mpmath fails on is refused.
    """
    try:
        value = expr.evalf(15, maxn=60)
    except (ArithmeticError, TypeError, ValueError) as error:  # fail closed: size unknown
        raise _Problem(col, f"SymPy failed to evaluate a number to bound its size "
                            f"({type(error).__name__}: {error})") from None
    real, imag = value.as_real_imag()
    if not (real.is_Number and imag.is_Number) or sp.nan in (real, imag):
        return None
    if real.is_infinite or imag.is_infinite:
        return mpmath.inf
    return mpmath.mpc(mpmath.mpf(sp.Float(real, 15)._mpf_), mpmath.mpf(sp.Float(imag, 15)._mpf_))


def _size(log10_magnitude) -> int:
    """Decimal digits of a number of the given log10 magnitude; capped, never huge."""
    size = abs(log10_magnitude)
    return MAX_DIGITS + 1 if size > MAX_DIGITS else int(size) + 1


class _Builder:
    """Builds SymPy expressions from values, refusing numbers that are too large.

    SymPy evaluates as it builds: ``2**99999999`` computes the integer,
    ``sqrt(n)`` factors ``n``, ``12**(996/997)`` multiplies out ``12**995``,
    ``floor(x)`` evaluates ``x`` to every digit of its integer part.  Each value
    carries bounds on what building it cost (:class:`_Value`), summed over its
    parts; an inexact number such as ``e^{9000}`` counts its order of magnitude.
    Every construction is checked against :data:`MAX_DIGITS` and
    :data:`MAX_ROOT_DIGITS` before it runs.
    """

    def __init__(self, seconds: float = MAX_SECONDS, evaluate: bool = True):
        self.evaluate = evaluate  # False: sums, products and powers as written (x/x stays)
        self.comparisons = 0  # pairwise comparisons Min/Max make; they cost ~1 ms each
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def check(self, digits: int, roots: int, q: int, col: int) -> None:
        """Refuse a construction over the limits; called before each one runs."""
        if time.monotonic() > self.deadline:
            raise _Problem(col, f"the formula takes too long to build (over {self.seconds:g} s)")
        if digits > MAX_DIGITS:
            raise _Problem(col, f"number too large (more than {MAX_DIGITS} digits)")
        if roots * max(q - 1, 1) > MAX_ROOT_DIGITS:
            raise _Problem(col, f"number too large for exact fractional powers (SymPy "
                                f"factors b^(q-1) for b^(p/q): at most {MAX_ROOT_DIGITS} "
                                "digits)")

    def defined(self, expr: sp.Basic, col: int) -> sp.Basic:
        for part in (expr, *expr.args):
            if part is sp.zoo:
                raise _Problem(col, "the value is complex infinity (zoo), "
                                    "e.g. a division by zero")
            if part is sp.nan:
                raise _Problem(col, "the value is undefined (nan), e.g. oo - oo")
        return expr

    def add(self, values: list[_Value], cols: list[int]) -> _Value:
        """A sum; integers add to at most one digit per tenfold more terms."""
        digits = roots = integers = count = 0
        q = 1
        for value, col in zip(values, cols):
            if value.expr.is_Integer:
                integers, count = max(integers, value.digits), count + 1
            else:
                digits += value.digits
            roots, q = roots + value.roots, math.lcm(q, value.q)
            self.check(digits + integers + len(str(count)), roots, q, col)
        digits += integers + len(str(count)) if count else 0
        expr = sp.Add(*(v.expr for v in values), evaluate=self.evaluate)
        return _Value(self.defined(expr, cols[-1]), digits, roots, q)

    def mul(self, values: list[_Value], cols: list[int]) -> _Value:
        """A product; its numbers have at most the digits of the factors' together."""
        digits = roots = 0
        q = 1
        for value, col in zip(values, cols):
            digits, roots, q = digits + value.digits, roots + value.roots, math.lcm(q, value.q)
            self.check(digits, roots, q, col)
        expr = sp.Mul(*(v.expr for v in values), evaluate=self.evaluate)
        return _Value(self.defined(expr, cols[-1]), digits, roots, q)

    def neg(self, value: _Value) -> _Value:
        return value._replace(expr=-value.expr)

    def inverse(self, value: _Value, col: int) -> _Value:
        if value.expr.is_zero:
            raise _Problem(col, "division by zero")
        return self.pow(value, _Value(sp.S.NegativeOne, 1), col)

    def pow(self, base: _Value, exponent: _Value, col: int) -> _Value:
        b, e = base.expr, exponent.expr
        if b is sp.E:
            return self.exp(exponent, col)
        if b.is_zero and e.is_extended_negative:
            raise _Problem(col, "division by zero")
        digits, roots, q = _cost([base, exponent])
        if base.digits and b not in (sp.S.Zero, sp.S.One, sp.S.NegativeOne):
            k, denominator = _spread(e)
            if b.is_Rational and e.is_Integer:  # exact: the size of b**e
                digits = exponent.digits + (MAX_DIGITS + 1 if k > MAX_DIGITS else
                                            _size(k * math.log10(max(abs(b.p), b.q))))
            elif not (b.is_Pow and b.base.is_Symbol):  # (x^a)^e is x^(a e): digits add
                digits = base.digits * k + exponent.digits
            if denominator > 1:
                roots, q = roots + base.digits, math.lcm(q, denominator)
        if e.is_number and b.is_number and not (b.is_Rational and e.is_Rational):
            self.check(digits, roots, q, col)  # inexact: count the order of magnitude
            with mpmath.workdps(15):
                bv, ev = _approximate(b, col), _approximate(e, col)
                if bv is not None and ev is not None and bv != 0 and mpmath.isfinite(bv) \
                        and mpmath.isfinite(ev):
                    digits += _size(abs(ev) * mpmath.log10(abs(bv)))
        self.check(digits, roots, q, col)
        return _Value(self.defined(sp.Pow(b, e, evaluate=self.evaluate), col), digits, roots, q)

    def exp(self, arg: _Value, col: int) -> _Value:
        a = arg.expr
        digits, roots, q = arg.digits, arg.roots, arg.q
        if a.has(sp.log):
            # SymPy rewrites exp(c log(u)) as u**c (after logcombine): bound it like a power
            k, denominator = _spread(a)
            digits = arg.digits * (k + 1)
            if denominator > 1:
                roots, q = roots + arg.digits, math.lcm(q, denominator)
        elif a.is_number and not a.is_infinite:
            self.check(digits, roots, q, col)
            with mpmath.workdps(15):
                value = _approximate(a, col)
                if value is not None and mpmath.isfinite(value):
                    digits += _size(abs(value) / mpmath.ln(10))
        self.check(digits, roots, q, col)
        return _Value(self.defined(sp.exp(a), col), digits, roots, q)

    def call(self, name: str, args: list[_Value], col: int) -> _Value:
        exprs = [a.expr for a in args]
        digits, roots, q = _cost(args)
        self.check(digits, roots, q, col)
        if name == "exp":
            return self.exp(args[0], col)
        if name == "sqrt":
            return self.pow(args[0], _Value(sp.S.Half, 1), col)
        if name == "log" and len(args) == 2:
            return self.mul([self.call("log", args[:1], col),
                             self.inverse(self.call("log", args[1:], col), col)], [col, col])
        if name == "factorial":
            digits += self._factorial_digits(exprs[0], col)
        elif name == "binomial":
            digits += self._binomial_digits(args[0], args[1], col)
        elif name in ("floor", "ceiling") and exprs[0].is_number and not exprs[0].is_Rational:
            with mpmath.workdps(15):  # SymPy evaluates the integer part, every digit of it
                value = _approximate(exprs[0], col)
                if value is not None and value != 0 and mpmath.isfinite(value):
                    size = _size(mpmath.log10(abs(value)))
                    if size > _FLOOR_DIGITS:  # evaluating gamma(571.5) to 1300 digits: 17 s
                        raise _Problem(col, f"number too large for {name} (more than "
                                            f"{_FLOOR_DIGITS} digits before the point)")
                    digits += size
        elif name == "PhiInv" and exprs[0].is_number:
            digits += self._phi_inv_digits(exprs[0], col)
        elif name in ("Min", "Max"):
            count = sum(len(e.args) if e.func.__name__ == name else 1 for e in exprs)
            self.comparisons += count * (count - 1) // 2
            if self.comparisons > MAX_COMPARISONS:
                raise _Problem(col, f"too many min/max arguments (SymPy compares them "
                                    f"pairwise; at most {MAX_COMPARISONS} comparisons)")
        elif name in ("erf", "erfc", "Phi") and exprs[0].is_number:
            digits += self._gaussian_tail_digits(name, exprs[0], col)
        self.check(digits, roots, q, col)
        # binomial(n, k) of an inexact number n and an integer k: SymPy would expand the
        # product of k sums (binomial(log(3) + pi, 17) takes minutes); keep it as it is
        evaluate = not (name == "binomial" and exprs[1].is_Integer and exprs[0].is_number
                        and not exprs[0].is_Rational)
        # as written: Phi(PhiInv(x)) is not x yet (the kernel checks PhiInv's argument)
        evaluate = evaluate and self.evaluate
        try:
            expr = _SYMPY_FUNCTIONS[name](*exprs, evaluate=evaluate)
        except ValueError as error:  # Min/Max of numbers that cannot be ordered, e.g. I
            raise _Problem(col, f"{name} needs real arguments ({error})") from None
        return _Value(self.defined(expr, col), digits, roots, q)

    def _gaussian_tail_digits(self, name: str, z: sp.Basic, col: int) -> int:
        """Leading zeros of erf/erfc/Phi at z, about z^2 / ln 10 in the tail."""
        with mpmath.workdps(15):
            value = _approximate(z, col)
            if value is None or not mpmath.isfinite(value):
                return 0
            if abs(value) > 10 ** 100:  # mpmath overflows near 10^300
                return MAX_DIGITS + 1
            if value.imag == 0 and (name == "erf" or (name == "erfc") == (value.real < 0)):
                return 1  # erf is within [-1, 1]; erfc(-z), Phi(z) within [1, 2] for z > 0
            scale = 2 if name == "Phi" else 1  # Phi(z) = erfc(-z / sqrt 2) / 2
            return _size(abs(value) ** 2 / scale / mpmath.ln(10))

    def _phi_inv_digits(self, a: sp.Basic, col: int) -> int:
        """Digits of precision that evaluating PhiInv(a) takes: those of min(a, 1 - a)."""
        if a.is_extended_real is False or a.is_extended_negative \
                or (a - 1).is_extended_positive:  # mpmath would raise on evaluation
            raise _Problem(col, f"PhiInv needs an argument in [0, 1]; got {a}")
        if a.is_zero or (a - 1).is_zero or (isinstance(a, Phi) and a.args[0].is_extended_real):
            return 1  # PhiInv evaluates these exactly
        with mpmath.workdps(15):
            low, high = _approximate(a, col), _approximate(1 - a, col)
            if low is None or high is None:
                return 0
            tail = min(abs(low), abs(high))
            size = MAX_DIGITS + 1 if tail == 0 else _size(mpmath.log10(tail))
        if size > _PHI_INV_DIGITS:
            raise _Problem(col, f"PhiInv argument too close to 0 or 1 (within "
                                f"10^-{_PHI_INV_DIGITS}); its evaluation would take too long")
        return size

    def _factorial_digits(self, n: sp.Basic, col: int) -> int:
        """Digits of n! when n is a number (SymPy computes it for integers)."""
        if not n.is_number or n.is_infinite:
            return 0
        with mpmath.workdps(15):
            value = _approximate(n, col)
            if value is None or not mpmath.isfinite(value):
                return 0
            size = abs(value)
            if size > 10 ** 5:
                return MAX_DIGITS + 1
            return _size(mpmath.loggamma(size + 1) / mpmath.ln(10))

    def _binomial_digits(self, n: _Value, k: _Value, col: int) -> int:
        """Digits of binomial(n, k) when n and k are numbers."""
        ne, ke = n.expr, k.expr
        if not (ne.is_number and ke.is_number) or ne.is_infinite or ke.is_infinite:
            return 0
        if ne.is_Integer and ke.is_Integer:
            nn, kk = int(ne), int(ke)
            if nn < 0:  # binomial(n, k) = (-1)^k binomial(k - n - 1, k)
                nn = kk - nn - 1
            if kk < 0 or kk > nn:
                return 1
            m = min(kk, nn - kk)
            if m == 0:
                return 1
            if m > 10 ** 6:  # binomial(n, m) >= 2^m
                return MAX_DIGITS + 1
            if m * math.log10(nn) <= MAX_DIGITS:
                return _size(m * math.log10(nn))
            if nn < 10 ** 15:
                return _size((math.lgamma(nn + 1) - math.lgamma(kk + 1)
                              - math.lgamma(nn - kk + 1)) / math.log(10))
            return _size(m * (math.log10(nn) - math.log10(m) + math.log10(math.e)))
        # otherwise SymPy multiplies out k factors (Integer k) or leaves it to gamma
        with mpmath.workdps(15):
            nv, kv = _approximate(ne, col), _approximate(ke, col)
            if nv is None or kv is None or not (mpmath.isfinite(nv) and mpmath.isfinite(kv)):
                return 0
            size = abs(nv) + abs(kv) + 2
            if size > 10 ** 5:
                return MAX_DIGITS + 1
            return _size(size * mpmath.log10(size)) + (abs(int(ke)) * n.digits
                                                         if ke.is_Integer else 0)
