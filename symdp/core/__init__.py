"""The bottom layer, importing nothing else of symdp: errors, the shared symbols,
parameter validation, the special functions Phi and PhiInv, and the Enumerated node.

Importing it corrects SymPy's known-wrong answers (:mod:`.sympy_fixes`) before anything else
of symdp runs."""

from . import sympy_fixes  # noqa: F401 - applied on import (issue #27)
