r"""Typesetting pieces of the report: escaped text, and displays that do not overflow.

Text (statements, rules, citations, details, error messages) goes through :func:`text`:
LaTeX's special characters are escaped (:data:`_SPECIALS`) and non-ASCII characters are either mapped to a LaTeX command (Greek letters, ≤, –, …) or
shown as their code point, so that ``pdflatex`` never meets a character it cannot set.
It is symdp's one text escaper: the report, the derivation fragments of ``symdp latex``
(:mod:`symdp.report.fragment`) and the views all use it.

Formulas come from ``sympy.latex`` (and the objects' own ``_latex``).  A step is set in
``align*`` as ``lhs`` on one line and ``rel rhs`` on the next when it is long, a long
top-level sum is broken after whole terms, and every line is put in a box that is
scaled down to the text width only when it would otherwise overflow
(``\symdpfit``, defined in :data:`PREAMBLE_MACROS`).
"""

from __future__ import annotations

import re

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE, precedence

from ..proof.derivation import LATEX_RELATION

__all__ = ["text", "identifier", "math", "domain_latex", "step_display", "step_display_latex", "visible_width",
           "split_sum", "split_latex", "sum_terms", "PREAMBLE_MACROS"]

#: Macros the report's preamble defines.  ``\symdpfit{...}`` sets its argument in display
#: style and scales it down to the line width only when it is wider.
PREAMBLE_MACROS = r"""\newsavebox{\symdpbox}
\newlength{\symdpwidth}
\newcommand{\symdpfit}[1]{\setlength{\symdpwidth}{\linewidth}%
  \addtolength{\symdpwidth}{-4em}%
  \sbox{\symdpbox}{$\displaystyle #1$}%
  \ifdim\wd\symdpbox>\symdpwidth\resizebox{\symdpwidth}{!}{\usebox{\symdpbox}}%
  \else\usebox{\symdpbox}\fi}"""

#: LaTeX's special characters in running text
_SPECIALS = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}",
}

_UNICODE = {
    # Greek (lower and upper case used in the papers)
    "α": r"\ensuremath{\alpha}", "β": r"\ensuremath{\beta}", "γ": r"\ensuremath{\gamma}",
    "δ": r"\ensuremath{\delta}", "ε": r"\ensuremath{\varepsilon}", "ζ": r"\ensuremath{\zeta}",
    "η": r"\ensuremath{\eta}", "θ": r"\ensuremath{\theta}", "κ": r"\ensuremath{\kappa}",
    "λ": r"\ensuremath{\lambda}", "μ": r"\ensuremath{\mu}", "ν": r"\ensuremath{\nu}",
    "ξ": r"\ensuremath{\xi}", "π": r"\ensuremath{\pi}", "ρ": r"\ensuremath{\rho}",
    "σ": r"\ensuremath{\sigma}", "τ": r"\ensuremath{\tau}", "φ": r"\ensuremath{\varphi}",
    "ϕ": r"\ensuremath{\phi}", "χ": r"\ensuremath{\chi}", "ψ": r"\ensuremath{\psi}",
    "ω": r"\ensuremath{\omega}", "Γ": r"\ensuremath{\Gamma}", "Δ": r"\ensuremath{\Delta}",
    "Θ": r"\ensuremath{\Theta}", "Λ": r"\ensuremath{\Lambda}", "Ξ": r"\ensuremath{\Xi}",
    "Π": r"\ensuremath{\Pi}", "Σ": r"\ensuremath{\Sigma}", "Φ": r"\ensuremath{\Phi}",
    "Ψ": r"\ensuremath{\Psi}", "Ω": r"\ensuremath{\Omega}",
    # relations and operators
    "≤": r"\ensuremath{\le}", "≥": r"\ensuremath{\ge}", "≠": r"\ensuremath{\ne}",
    "≈": r"\ensuremath{\approx}", "→": r"\ensuremath{\to}", "←": r"\ensuremath{\leftarrow}",
    "⇒": r"\ensuremath{\Rightarrow}", "⇔": r"\ensuremath{\Leftrightarrow}",
    "∈": r"\ensuremath{\in}", "∉": r"\ensuremath{\notin}", "∪": r"\ensuremath{\cup}",
    "∩": r"\ensuremath{\cap}", "⊂": r"\ensuremath{\subset}", "⊆": r"\ensuremath{\subseteq}",
    "∖": r"\ensuremath{\setminus}", "∞": r"\ensuremath{\infty}", "±": r"\ensuremath{\pm}",
    "×": r"\ensuremath{\times}", "·": r"\ensuremath{\cdot}", "−": r"\ensuremath{-}",
    "∑": r"\ensuremath{\sum}", "∏": r"\ensuremath{\prod}", "√": r"\ensuremath{\surd}",
    "∂": r"\ensuremath{\partial}", "∀": r"\ensuremath{\forall}", "∃": r"\ensuremath{\exists}",
    "∘": r"\ensuremath{\circ}", "⁻": r"\ensuremath{^{-}}", "¹": r"\ensuremath{^{1}}",
    "²": r"\ensuremath{^{2}}", "³": r"\ensuremath{^{3}}", "′": r"\ensuremath{'}",
    "″": r"\ensuremath{''}", "∗": r"\ensuremath{*}", "⋆": r"\ensuremath{\star}",
    "⌊": r"\ensuremath{\lfloor}", "⌋": r"\ensuremath{\rfloor}",
    "⌈": r"\ensuremath{\lceil}", "⌉": r"\ensuremath{\rceil}", "‖": r"\ensuremath{\|}",
    # punctuation
    "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "…": r"\ldots{}",
    "\u00a0": "~", "é": r"\'e", "è": r"\`e", "ö": r"\"o", "ü": r"\"u", "ä": r"\"a",
    "ß": r"\ss{}", "ç": r"\c{c}",
}


#: ASCII characters that the default OT1 text fonts set as something else
_ASCII_OT1 = {"|": r"\textbar{}", '"': "''"}


def text(value) -> str:
    """``value`` as LaTeX running text: specials escaped, non-ASCII mapped or shown as U+XXXX."""
    out = []
    for c in str(value):
        if c in _SPECIALS:
            out.append(_SPECIALS[c])
        elif c in _ASCII_OT1:
            out.append(_ASCII_OT1[c])
        elif ord(c) < 128:
            out.append(c if c.isprintable() or c in "\n\t" else " ")
        else:
            out.append(_UNICODE.get(c, r"\texttt{[U+%04X]}" % ord(c)))
    return "".join(out)


def identifier(name: str) -> str:
    """An identifier (derivation id, file name) as text that may break after underscores."""
    return text(name).replace(r"\_", r"\_\allowbreak{}")


def math(expr) -> str:
    """The LaTeX of a SymPy object (or a Relational), for use inside math mode."""
    return sp.latex(expr)


def domain_latex(symbol: sp.Symbol, domain: sp.Set) -> str:
    """A hypothesis ``symbol in domain`` in math mode."""
    return f"{sp.latex(symbol)} \\in {sp.latex(domain)}"


_COMMAND = re.compile(r"\\(left|right|mathrm|mathcal|mathbf|operatorname|text|displaystyle)\b")
_NAMED = re.compile(r"\\[a-zA-Z]+")


def visible_width(latex: str) -> float:
    """A rough count of the characters a formula shows (commands count as one, groups as
    nothing), used only to decide where to break a display."""
    s = _COMMAND.sub("", latex)
    s = _NAMED.sub("x", s)
    s = re.sub(r"\\[,;:! ]", "", s)
    # sub- and superscripts are set smaller
    small = sum(len(m) for m in re.findall(r"[_^]\{([^{}]*)\}", s))
    s = s.replace("{", "").replace("}", "").replace("&", "")
    return len(s) - 0.4 * small


def sum_terms(expr) -> list[tuple[str, str]] | None:
    """The top-level terms of a sum as ``(sign, latex)`` pairs in the order SymPy prints
    them (a term of lower precedence than ``+`` is parenthesised); None when ``expr`` is not
    a sum.  ``symdp check --json`` stores them (``rhs_latex_terms``) so that a document built
    from the JSON breaks long displays exactly where one built from the objects does."""
    if not isinstance(expr, sp.Add):
        return None
    printer = LatexPrinter()
    pieces = []
    for term in printer._as_ordered_terms(expr, order=None):
        t = printer._print(term)
        if t.startswith("-"):
            sign, t = "-", t[1:].lstrip()
        else:
            sign = "+"
        if precedence(term) < PRECEDENCE["Add"]:
            t = r"\left(%s\right)" % t
        pieces.append((sign, t))
    return pieces


def split_latex(whole: str, terms=None, width: float = 70.0) -> list[str]:
    """``whole`` (the LaTeX of an expression) as lines no wider than ``width`` (roughly),
    broken only between the ``terms`` of a top-level sum (:func:`sum_terms`; None: no
    break).  Every line but the first starts with its sign (``+`` or ``-``)."""
    if not terms or visible_width(whole) <= width:
        return [whole]
    lines, current = [], ""
    for i, (sign, t) in enumerate(terms):
        chunk = (("-" if sign == "-" else "") + t) if i == 0 else f" {sign} {t}"
        if current and visible_width(current + chunk) > width:
            lines.append(current)
            current = f"{{}}{sign} {t}"
        else:
            current += chunk
    lines.append(current)
    return lines


def split_sum(expr, width: float = 70.0) -> list[str]:
    """The LaTeX of ``expr`` as lines no wider than ``width`` (roughly), broken only between
    the terms of a top-level sum, in the order SymPy prints them.  Every line but the first
    starts with its sign (``+`` or ``-``)."""
    whole = sp.latex(expr)
    if not isinstance(expr, sp.Add) or visible_width(whole) <= width:
        return [whole]
    return split_latex(whole, sum_terms(expr), width)


def step_display(lhs, relation: str, rhs, *, show_lhs: bool = True, side_conditions=(),
                 width: float = 70.0) -> str:
    r"""One step as the rows of an ``align*`` environment (without the environment).

    Short steps take one row ``lhs &rel rhs``.  Long ones take ``lhs`` on one row and
    ``&rel rhs`` on the next, the rhs broken after whole terms of a sum when still too
    long; each row is fitted to the line width (``\symdpfit``).
    """
    right = sp.latex(rhs)
    terms = sum_terms(rhs) if visible_width(right) > width else None
    return step_display_latex(sp.latex(lhs) if show_lhs else "", relation, right, terms,
                              [sp.latex(c) for c in side_conditions], width=width)


def step_display_latex(left: str, relation: str, right: str, right_terms=None,
                       side_conditions=(), *, width: float = 70.0) -> str:
    r""":func:`step_display` from LaTeX strings (as ``symdp check --json`` stores them):
    ``left`` (empty: not shown), the relation, ``right`` and its sum terms
    (:func:`sum_terms`, or None), the side conditions' LaTeX."""
    rel = LATEX_RELATION[relation]
    right_lines = split_latex(right, right_terms, width)
    side = ""
    if side_conditions:
        side = r"\quad\text{for } " + r",\ ".join(side_conditions)
    one_row = visible_width(left) + visible_width(right_lines[0]) + visible_width(side) + 3
    if len(right_lines) == 1 and one_row <= width:
        return r"\symdpfit{%s} &\symdpfit{{}%s %s%s}" % (left, rel, right_lines[0], side)
    rows = []
    if left:
        rows.append(r"&\symdpfit{%s}" % left)
    rows.append(r"&\symdpfit{\quad %s %s}" % (rel, right_lines[0]))
    for line in right_lines[1:]:
        rows.append(r"&\symdpfit{\qquad %s}" % line)
    if side:
        rows.append(r"&\symdpfit{\qquad %s}" % side)
    return " \\\\\n".join(rows)
