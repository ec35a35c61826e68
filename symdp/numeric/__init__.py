"""Numeric evaluation, below the trade-off objects (it imports none of them; objects compile
themselves through the hooks ``_arb_compile_`` and ``_mpmath_compile_``):

* :mod:`.balls` -- Arb balls, exact conversions, scoped precision;
* :mod:`.ball_compiler` -- SymPy expressions to certified ball functions;
* :mod:`.ball_inverse` -- certified root isolation for implicit inverses;
* :mod:`.mp_compiler` -- SymPy expressions to mpmath functions at the caller's precision;
* :mod:`.roots` -- the one root-finding module (bisection, Illinois, ``mpmath.findroot``,
  golden-section search).
"""
