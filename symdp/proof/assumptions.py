"""SymPy assumptions implied by a parameter's domain -- and nothing stronger.

A parameter with domain D becomes a Dummy carrying only what D implies: real; integer when
D holds integers only; nonnegative when inf D >= 0, positive only when moreover 0 is not
in D (inf D > 0, or an open end at 0); the mirror images for sup D <= 0.  A closed end at
0 gives ``nonnegative``, never ``positive``: ``x > 0`` must not follow from
``0 <= x <= 1`` (issue #12).  Never ``integer=False`` (SymPy reads it as non-zero).

The construction is the kernel's (:func:`symdp.proof.kernel.closed_forms.assumption_symbols`):
the stages evaluate under the very Dummies the kernel re-evaluates under when it binds a
certificate to the written statement (issue #27).
"""

from __future__ import annotations

from .kernel.closed_forms import assumption_symbols

__all__ = ["assumption_symbols"]
