"""The words and characters the formula parser knows (:mod:`symdp.parsing`).

Names of Greek letters (``eps`` is ``varepsilon``), constants, functions and what SymPy
builds for them, reserved words, LaTeX commands read as tokens, the characters of both
syntaxes and the regular expressions of numbers and identifiers.  Nothing here runs text.
"""

from __future__ import annotations

import keyword
import re

import sympy as sp

from ..core.special import Phi, PhiInv


_EPSILON = "varepsilon"
_CANONICAL = {"eps": _EPSILON, "epsilon": _EPSILON, "varepsilon": _EPSILON}

_GREEK = frozenset("""alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta
    iota kappa lambda mu nu xi rho varrho sigma varsigma tau upsilon phi varphi chi psi
    omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Psi Omega pi""".split())

_UNICODE_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon",
    "ϵ": "varepsilon", "ζ": "zeta", "η": "eta", "θ": "theta", "ι": "iota",
    "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi",
    "ρ": "rho", "σ": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi",
    "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta",
    "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma", "Υ": "Upsilon", "Φ": "Phi",
    "Ψ": "Psi", "Ω": "Omega",
}

_CONSTANTS = {"e": sp.E, "E": sp.E, "pi": sp.pi, "oo": sp.oo, "inf": sp.oo,
              "infinity": sp.oo}
# In LaTeX, E is a letter like any other and inf is i n f.
_LATEX_CONSTANTS = {"e": sp.E, "pi": sp.pi, "oo": sp.oo}

#: function name -> (canonical name, fewest arguments, most arguments or None)
_FUNCTIONS = {
    "exp": ("exp", 1, 1), "log": ("log", 1, 2), "ln": ("log", 1, 1),
    "sqrt": ("sqrt", 1, 1), "binomial": ("binomial", 2, 2), "binom": ("binomial", 2, 2),
    "Phi": ("Phi", 1, 1), "PhiInv": ("PhiInv", 1, 1), "erf": ("erf", 1, 1),
    "erfc": ("erfc", 1, 1), "min": ("Min", 1, None), "Min": ("Min", 1, None),
    "max": ("Max", 1, None), "Max": ("Max", 1, None), "abs": ("Abs", 1, 1),
    "Abs": ("Abs", 1, 1), "factorial": ("factorial", 1, 1), "floor": ("floor", 1, 1),
    "ceiling": ("ceiling", 1, 1), "ceil": ("ceiling", 1, 1),
    "sin": ("sin", 1, 1), "cos": ("cos", 1, 1),
}
_LATEX_FUNCTION_COMMANDS = frozenset("exp ln log Phi erf erfc min max sin cos".split())
_SYMPY_FUNCTIONS = {"log": sp.log, "Phi": Phi, "PhiInv": PhiInv, "erf": sp.erf,
                    "erfc": sp.erfc, "Min": sp.Min, "Max": sp.Max, "Abs": sp.Abs,
                    "factorial": sp.factorial, "binomial": sp.binomial,
                    "floor": sp.floor, "ceiling": sp.ceiling, "sin": sp.sin, "cos": sp.cos}

# Words that are never names: they mean code, not mathematics.  ``lambda`` is
# kept out of the list because it is a Greek letter.
_RESERVED = (frozenset(keyword.kwlist) - {"lambda"}) | frozenset(
    """eval exec compile open input print getattr setattr delattr hasattr globals
    locals vars dir breakpoint help exit quit import""".split())

# \left and \right only size the delimiter that follows; the delimiter is the token.
_SPACING = frozenset([",", ";", ":", "!", " ", *"""quad qquad displaystyle textstyle scriptstyle
    left right limits nolimits big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr""".split()])

_COMMAND_TOKENS = {
    "cdot": ("op", "*"), "times": ("op", "*"), "ast": ("op", "*"), "div": ("op", "/"),
    "le": ("rel", "<="), "leq": ("rel", "<="), "leqslant": ("rel", "<="),
    "ge": ("rel", ">="), "geq": ("rel", ">="), "geqslant": ("rel", ">="),
    "lt": ("rel", "<"), "gt": ("rel", ">"),
    "{": ("open", "\\{"), "lbrace": ("open", "\\{"), "}": ("close", "\\}"),
    "rbrace": ("close", "\\}"), "lfloor": ("open", "lfloor"), "rfloor": ("close", "rfloor"),
    "lceil": ("open", "lceil"), "rceil": ("close", "rceil"), "lvert": ("op", "|"),
    "rvert": ("op", "|"), "vert": ("op", "|"), "prime": ("op", "'"),
    "|": ("op", "‖"), "Vert": ("op", "‖"), "lVert": ("op", "‖"), "rVert": ("op", "‖"),
    "#": ("name", "#"), "mid": ("op", "|"),
}
#: commands whose braced argument is a name as written: ``\mathrm{tot}``, ``\texttt{d\_in}``
_WORD_COMMANDS = frozenset("""mathrm operatorname text textrm mathit rm textnormal texttt
    mathtt textsf textit""".split())
#: font commands whose argument is a letter of another alphabet: a name of its own
#: (``\mathcal{X}`` is not ``X``); ``\mathbb{E}`` and friends are read by the grammar
_FONT_COMMANDS = {"mathcal": "cal", "mathbf": "bf", "boldsymbol": "bf", "bm": "bf",
                  "mathsf": "sf", "mathfrak": "frak", "mathscr": "scr", "mathbb": "bb",
                  "mathds": "bb", "mathbbm": "bb"}
#: ``\mathbb{E}``, ``\mathbf{P}`` ...: the token the grammar reads (a probability, an
#: expectation, an indicator, a variance, a number set)
_FONT_LETTERS = {("bb", "E"): "Expectation", ("bf", "E"): "Expectation",
                 ("bb", "P"): "Pr", ("bf", "P"): "Pr", ("bb", "I"): "Indicator",
                 ("bb", "1"): "Indicator", ("bf", "1"): "Indicator", ("bb", "V"): "Var",
                 ("bb", "R"): "set", ("bb", "Z"): "set", ("bb", "N"): "set",
                 ("bb", "Q"): "set", ("bb", "C"): "set"}
#: accents: ``\bar x`` is the name ``bar(x)``, ``\widehat{\mu}`` is ``hat(mu)``
_ACCENTS = {"bar": "bar", "overline": "bar", "hat": "hat", "widehat": "hat", "tilde": "tilde",
            "widetilde": "tilde", "dot": "dot", "ddot": "ddot", "vec": "vec", "check": "check",
            "breve": "breve", "acute": "acute", "grave": "grave", "mathring": "ring",
            "underline": "underline"}

_CHARACTERS = {
    "+": ("op", "+"), "-": ("op", "-"), "−": ("op", "-"), "*": ("op", "*"),
    "·": ("op", "*"), "×": ("op", "*"), "/": ("op", "/"), "÷": ("op", "/"),
    "^": ("op", "^"), ",": ("op", ","), "|": ("op", "|"), "!": ("op", "!"),
    "(": ("open", "("), ")": ("close", ")"), "[": ("open", "["), "]": ("close", "]"),
    "<": ("rel", "<"), ">": ("rel", ">"), "=": ("rel", "="), "≤": ("rel", "<="),
    "≥": ("rel", ">="), "∞": ("name", "oo"),
}
_LATEX_CHARACTERS = {"{": ("open", "{"), "}": ("close", "}"), "_": ("op", "_"),
                     "'": ("op", "'")}
_TWO_CHARACTERS = {"**": ("op", "^"), "<=": ("rel", "<="), ">=": ("rel", ">="),
                   "==": ("rel", "=")}

_CLOSING = {"(": ")", "[": "]", "{": "}", "\\{": "\\}", "lfloor": "rfloor", "lceil": "rceil"}

_RELATIONS = {"=": sp.Eq, "<=": sp.Le, ">=": sp.Ge, "<": sp.Lt, ">": sp.Gt}

_PLAIN_NUMBER = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_LATEX_NUMBER = re.compile(r"[0-9]+\.?[0-9]*|\.[0-9]+")
_ASCII_DIGITS = "0123456789"
#: superscript digits read as an exponent: x² is x^2
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹", _ASCII_DIGITS))
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*'*")
_GREEK_TAIL = re.compile(r"(_[A-Za-z0-9_]*)?'*")
_LETTERS = re.compile(r"[A-Za-z]+")
_COMMAND = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
_BRACED_WORD = re.compile(r"\s*\{\s*([A-Za-z]+)\s*\}")
