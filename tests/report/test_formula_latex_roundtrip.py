r"""The LaTeX symdp emits for formulas reads back through SymPy's own LaTeX parser.

``sympy.parsing.latex.parse_latex`` (ANTLR backend, ``antlr4-python3-runtime==4.11``,
the version SymPy requires) parses the printed formula; the result must equal the
original -- by ``simplify`` or, failing that, at 50 digits at seeded points.  Formulas
outside the parser's grammar are listed in :data:`OUTSIDE_GRAMMAR` with the reason, and
the test checks that they really are outside (so the list cannot go stale silently).
"""

import random

import mpmath
import pytest
import sympy as sp

from symdp import Phi
from symdp.formulas import formula, names

parse_latex = pytest.importorskip("sympy.parsing.latex").parse_latex
pytest.importorskip("antlr4", reason="the LaTeX parser needs antlr4-python3-runtime==4.11 "
                                     "(pip install -e '.[test]')")

#: named formulas whose printed LaTeX SymPy's grammar cannot read back, and why
OUTSIDE_GRAMMAR = {
    "gaussian": r"\Phi^{-1}\left(x\right) is read as the power \Phi^{-1} times (x): the "
                "grammar has no inverse-function notation for an undefined function",
    "laplace": r"a Piecewise prints as \begin{cases}...\end{cases}, which the grammar lacks",
}

_FUNCTIONS = {"max": sp.Max, "min": sp.Min, "Phi": Phi}


def _read_back(latex: str, like: sp.Expr) -> sp.Expr:
    """Parse ``latex`` and give its symbols and functions the meaning symdp's have."""
    parsed = parse_latex(latex)
    by_name = {s.name: s for s in like.free_symbols}
    parsed = parsed.xreplace({s: by_name.get(s.name, sp.E if s.name == "e" else s)
                              for s in parsed.free_symbols})
    replacements = {}
    for f in parsed.atoms(sp.Function):
        name = type(f).__name__
        if name in _FUNCTIONS:
            replacements[f] = _FUNCTIONS[name](*f.args)
    # innermost first is not needed: xreplace rebuilds bottom-up
    return parsed.xreplace(replacements) if replacements else parsed


def _points(expr, count=5, seed=7):
    rng = random.Random(seed)
    symbols = sorted(expr.free_symbols, key=lambda s: s.name)
    for _ in range(count):
        point = {}
        for s in symbols:
            if s.is_integer:
                point[s] = sp.Integer(rng.randint(3, 40))
            else:  # a rational in (0, 1): inside every domain used (alpha, delta, p, mu, eps)
                point[s] = sp.Rational(rng.randint(5, 95), 100)
        yield point


def agree(original: sp.Expr, parsed: sp.Expr) -> tuple[bool, str]:
    if sp.simplify(original - parsed) == 0:
        return True, "simplify"
    if parsed.free_symbols - original.free_symbols:
        return False, f"unexpected symbols {parsed.free_symbols - original.free_symbols}"
    with mpmath.workdps(60):
        for point in _points(original):
            a = sp.N(original.xreplace(point), 50)
            b = sp.N(parsed.xreplace(point), 50)
            if not (a.is_Number and b.is_Number):
                return False, f"not a number at {point}: {a}, {b}"
            if abs(a - b) > sp.Float(10) ** -45 * max(1, abs(a)):
                return False, f"differ at {point}: {a} vs {b}"
    return True, "50 digits at 5 points"


def _named():
    return [n for n in names()]


@pytest.mark.parametrize("name", _named())
def test_named_formula_latex_round_trips(name):
    _, eq = formula(name)
    rhs = eq.rhs if isinstance(eq, sp.Equality) else eq
    latex = sp.latex(rhs)
    if name in OUTSIDE_GRAMMAR:
        try:
            ok, _ = agree(rhs, _read_back(latex, rhs))
        except Exception:  # noqa: BLE001 - the parser rejects it: outside, as listed
            ok = False
        assert not ok, f"{name} now round-trips: remove it from OUTSIDE_GRAMMAR"
        return
    try:
        parsed = _read_back(latex, rhs)
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"{name}: SymPy cannot parse {latex!r} ({type(exc).__name__}); if the "
                    "grammar lacks the notation, list it in OUTSIDE_GRAMMAR with the reason")
    ok, how = agree(rhs, parsed)
    assert ok, f"{name}: {latex!r} parses to {parsed}, which {how}"


def test_outside_grammar_lists_only_existing_formulas():
    assert set(OUTSIDE_GRAMMAR) <= set(names())


def _family_formulas():
    from symdp.bagging.paper import paper_delta, paper_epsilon
    from symdp.bagging.profile import N, k, n
    from symdp.bagging.schemes import Sampling
    from symdp.subsampling.eps_delta import lemma_4_4
    from symdp.symbols import alpha, delta, eps
    from symdp.tradeoff import EpsDelta, Gaussian

    p = sp.Symbol("p", positive=True)
    out = {"EpsDelta(eps, delta).expr": EpsDelta(eps, delta).expr(alpha),
           "Gaussian(mu).privacy_profile": Gaussian(sp.Symbol("mu", positive=True))
           .privacy_profile(eps),
           "Lemma 4.4 eps'": lemma_4_4(eps, delta, p)[0],
           "Lemma 4.4 delta'": lemma_4_4(eps, delta, p)[1]}
    for s in Sampling:
        out[f"paper_epsilon[{s.name}]"] = paper_epsilon(s, n, k, N)
        out[f"paper_delta[{s.name}]"] = paper_delta(s, n, k, N)
    return out


@pytest.mark.parametrize("label,expr", sorted(_family_formulas().items()))
def test_closed_forms_latex_round_trips(label, expr):
    parsed = _read_back(sp.latex(expr), expr)
    ok, how = agree(expr, parsed)
    assert ok, f"{label}: {sp.latex(expr)!r} parses to {parsed}, which {how}"


def test_a_wrong_read_back_is_caught():
    """Meta-test: the comparison does catch a formula that parses to something else."""
    x = sp.Symbol("x", real=True)
    assert agree(x + 1, x + 1)[0]
    assert not agree(sp.exp(x) / 3, sp.exp(x) / 3 + sp.Rational(1, 10**30))[0]
    assert not agree(Phi(x), parse_latex(r"\Phi^{-1}\left(x\right)"))[0]
