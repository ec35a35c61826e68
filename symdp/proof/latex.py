r"""LaTeX of derivations: statement, hypotheses, citation and the chain in ``align*``.

Text (statements, rules, citations) is escaped; formulas come from
``sympy.latex`` and the objects' own ``_latex`` methods.
"""

from __future__ import annotations

import sympy as sp

from .derivation import LATEX_RELATION, Derivation

_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}",
}


def escape_text(text: str) -> str:
    """Escape LaTeX's special characters in running text."""
    return "".join(_ESCAPES.get(c, c) for c in text)


def domain_latex(symbol: sp.Symbol, domain: sp.Set) -> str:
    return f"{sp.latex(symbol)} \\in {sp.latex(domain)}"


def derivation_latex(d: Derivation, results=None) -> str:
    """The derivation as a LaTeX fragment (needs amsmath); ``results`` adds verdicts."""
    lines = [r"\paragraph{%s}" % escape_text(d.id.replace("_", " ")),
             escape_text(d.statement), "",
             r"\textit{Source:} %s.\\" % escape_text(d.citation),
             r"\textit{Hypotheses:} $" + r",\ ".join(domain_latex(s, dom) for s, dom in
                                                    d.hypotheses.items()) + "$"
             + ("".join(r", $%s$" % sp.latex(c) for c in d.constraints)) + ".",
             "", r"\begin{align*}"]
    rows = []
    for i, step in enumerate(d.steps):
        rel = LATEX_RELATION[step.relation]
        lhs = sp.latex(step.lhs) if (i == 0 or not d.chained) else ""
        tag = escape_text(step.rule) if step.rule else ""
        if results is not None:
            r = results[i]
            tag += (r"; " if tag else "") + r"\textbf{%s}" % r.verdict.value
            if r.is_finding:
                tag += r" (finding)"
        side = ""
        if step.side_conditions:
            side = r",\quad " + r",\ ".join(sp.latex(c) for c in step.side_conditions)
        rows.append(f"{lhs} &{rel} {sp.latex(step.rhs)}{side} && \\text{{({i + 1}) {tag}}}")
    lines.append(" \\\\\n".join(rows))
    lines.append(r"\end{align*}")
    return "\n".join(lines)
