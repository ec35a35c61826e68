r"""Formula LaTeX read from a file, checked against the subset that ``sympy.latex`` prints.

``symdp report --from-json FILE`` typesets the ``*_latex`` fields of a ``symdp check --json``
file as they are.  The file is untrusted input: a hand-written ``\input{/etc/passwd}``,
``\openin``, ``\write18``, ``\catcode`` or ``\csname`` would otherwise be run by pdflatex.
:func:`check_formula_latex` accepts a field only when every token is one SymPy's printer
(and symdp's objects) produce:

* control words from :data:`ALLOWED_COMMANDS` (Greek letters, ``\frac``, ``\sqrt``,
  ``\left``/``\right``, ``\operatorname``, ``\text``, relations, ...), environments from
  :data:`ALLOWED_ENVIRONMENTS` (``cases``, matrices);
* control symbols ``\,`` ``\;`` ``\:`` ``\!`` ``\ `` ``\\`` ``\{`` ``\}`` ``\|`` ``\_``
  ``\%`` ``\&`` ``\#`` ``\$``;
* no ``%`` (a comment), ``#`` (a macro parameter), ``$`` (leaving math mode), ``^^``
  (TeX's notation for any character by its code, e.g. ``^^5c`` for a backslash), no
  control characters, braces balanced, at most :data:`MAX_FORMULA_CHARS` characters.

With TeX's standard category codes (which no accepted token can change) this is exactly
how TeX itself splits the text into tokens, so nothing outside the list can be reached.
pdflatex also runs without shell escape and with paranoid file access
(:mod:`symdp.report.pdf`): two independent guards.
"""

from __future__ import annotations

__all__ = ["ALLOWED_COMMANDS", "ALLOWED_ENVIRONMENTS", "MAX_FORMULA_CHARS", "UnsafeLatexError",
           "check_formula_latex"]

MAX_FORMULA_CHARS = 100_000

_GREEK = """alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa
varkappa lambda mu nu xi omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi
chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega digamma"""
_FUNCTIONS = """log ln lg exp sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth
max min sup inf lim liminf limsup det gcd arg deg dim ker Pr hom"""
_STRUCTURE = """frac dfrac tfrac cfrac sqrt binom dbinom tbinom left right middle big Big bigg
Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr begin end text textrm textit textbf mathrm
mathit mathbf mathbb mathcal mathfrak mathsf mathtt mathscr boldsymbol operatorname overline
underline hat bar tilde widetilde widehat check breve acute grave dot ddot vec prime limits
nolimits displaystyle textstyle scriptstyle scriptscriptstyle overset underset stackrel
substack quad qquad hfill"""
_SYMBOLS = """sum prod coprod int iint iiint oint bigcup bigcap bigvee bigwedge bigoplus
bigotimes cdot times div pm mp circ ast star bullet cup cap setminus wedge vee neg lnot land
lor oplus ominus otimes odot le leq ge geq lt gt ne neq leqslant geqslant ll gg approx equiv
sim simeq cong propto in notin ni subset subseteq supset supseteq subsetneq supsetneq to
rightarrow leftarrow longrightarrow longleftarrow mapsto Rightarrow Leftarrow Leftrightarrow
leftrightarrow iff implies mid nmid parallel perp infty emptyset varnothing partial nabla
ldots cdots dots vdots ddots lfloor rfloor lceil rceil langle rangle lbrace rbrace lvert
rvert lVert rVert vert Vert forall exists nexists hbar ell imath jmath Re Im aleph top bot
angle triangle Box colon backslash prec succ preceq succeq triangleq doteq models vdash
dagger ddagger S P cdotp ldotp surd"""

#: control words accepted in formula fields (``\name`` without the backslash)
ALLOWED_COMMANDS = frozenset(" ".join((_GREEK, _FUNCTIONS, _STRUCTURE, _SYMBOLS)).split())
#: ``\begin{...}`` environments accepted in formula fields
ALLOWED_ENVIRONMENTS = frozenset("""cases dcases matrix pmatrix bmatrix Bmatrix vmatrix
Vmatrix smallmatrix array aligned gathered split""".split())
_CONTROL_SYMBOLS = frozenset(",;:! \\{}|_%&#$")
_FORBIDDEN = {"%": "% (a comment)", "#": "# (a macro parameter)", "$": "$ (leaves math mode)"}


class UnsafeLatexError(ValueError):
    """A formula field holds LaTeX outside the subset symdp prints; the message says what."""


def check_formula_latex(latex: str) -> str:
    """``latex`` unchanged when it is in the safe subset (module docstring); else raise
    :class:`UnsafeLatexError` naming the first offending token."""
    if not isinstance(latex, str):
        raise UnsafeLatexError(f"is {type(latex).__name__}, not str")
    if len(latex) > MAX_FORMULA_CHARS:
        raise UnsafeLatexError(f"is {len(latex)} characters long (at most {MAX_FORMULA_CHARS})")
    if "^^" in latex:
        raise UnsafeLatexError("holds ^^ (TeX's character-code notation)")
    depth, i, n = 0, 0, len(latex)
    while i < n:
        c = latex[i]
        if c == "\\":
            if i + 1 >= n:
                raise UnsafeLatexError("ends with a lone backslash")
            if latex[i + 1].isascii() and latex[i + 1].isalpha():
                j = i + 1
                while j < n and latex[j].isascii() and latex[j].isalpha():
                    j += 1
                word = latex[i + 1:j]
                if word not in ALLOWED_COMMANDS:
                    raise UnsafeLatexError(f"holds \\{word}, which symdp's formulas never "
                                           "contain")
                if word in ("begin", "end"):
                    k = j
                    while k < n and latex[k] == " ":
                        k += 1
                    close = latex.find("}", k)
                    name = latex[k + 1:close] if k < n and latex[k] == "{" and close > k else None
                    if name not in ALLOWED_ENVIRONMENTS:
                        raise UnsafeLatexError(f"holds \\{word} of environment {name!r}, not one "
                                               f"of {', '.join(sorted(ALLOWED_ENVIRONMENTS))}")
                i = j
                continue
            if latex[i + 1] not in _CONTROL_SYMBOLS:
                raise UnsafeLatexError(f"holds the control symbol \\{latex[i + 1]!r}")
            i += 2
            continue
        if c in _FORBIDDEN:
            raise UnsafeLatexError(f"holds {_FORBIDDEN[c]}")
        if ord(c) < 32 or ord(c) == 127:
            raise UnsafeLatexError(f"holds the control character U+{ord(c):04X}")
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                raise UnsafeLatexError("closes a brace it did not open")
        i += 1
    if depth:
        raise UnsafeLatexError(f"leaves {depth} brace(s) open")
    return latex
