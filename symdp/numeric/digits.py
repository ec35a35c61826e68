"""Numbers that print the digits they were computed to.

An ``mpmath.mpf`` prints at mpmath's *global* precision (15 digits by default), so a value
computed at 40 digits inside ``mpmath.workdps(40)`` printed 15 of them.  :class:`Digits` is
an ``mpf`` that remembers its precision ``dps`` and prints (``str``, ``repr``) that many
significant digits.  It is an ``mpf`` in every other respect: arithmetic gives plain
``mpf`` at the caller's precision, comparisons and ``float()`` are unchanged.
"""

from __future__ import annotations

import mpmath

__all__ = ["Digits", "with_digits"]


class Digits(mpmath.mpf):
    """An ``mpf`` rounded to ``dps`` significant digits that prints all of them."""

    def __new__(cls, value, dps: int):
        with mpmath.workdps(dps):
            number = mpmath.mpf.__new__(cls, value)
        number.dps = int(dps)
        return number

    def __str__(self) -> str:
        return mpmath.nstr(self, self.dps, strip_zeros=False)

    def __repr__(self) -> str:
        return f"mpf('{mpmath.nstr(self, self.dps, strip_zeros=False)}')"

    def __reduce__(self):  # the exact binary value, not rounded at the global precision
        return (_restore, (self._mpf_, self.dps))


def _restore(raw, dps: int) -> Digits:
    with mpmath.workdps(dps):
        return Digits(mpmath.mpf(raw), dps)


def with_digits(value, dps: int) -> Digits:
    """``value`` (an mpf, or anything ``mpf`` accepts) rounded to ``dps`` digits, printing them."""
    return Digits(value, dps)
