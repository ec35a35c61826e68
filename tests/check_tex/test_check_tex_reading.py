r"""Reading LaTeX displays into chains (symdp.parsing.document): no checking here, fast.

Expected values are what the LaTeX means, written out by hand: the steps of a chain, the
source line and column of a parse error, the hypotheses of a comment.
"""

from pathlib import Path

import pytest
import sympy as sp

from symdp.core.errors import ParseError
from symdp.core.special import Phi, PhiInv
from symdp.parsing import parse_formula
from symdp.parsing.document import read_directive, read_tex, starred
from symdp.tradeoff import EpsDelta, Gaussian

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.tex"))
FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.tex"))

x, y, a, b, c, d, n, k, p = sp.symbols("x y a b c d n k p")
eps, delta, mu, alpha = sp.symbols("varepsilon delta mu alpha")


def steps_of(text):
    doc = read_tex(text)
    return [(s.lhs, s.relation, s.rhs, s.line) for row in doc.rows for s in row.steps]


def test_a_chain_is_its_steps_each_continuing_the_last():
    text = "\\begin{align*}\na &= b \\\\\n  &\\le c \\\\\n  &< d\n\\end{align*}\n"
    assert steps_of(text) == [(a, "=", b, 2), (b, "<=", c, 3), (c, "<", d, 4)]


def test_a_row_with_a_left_side_starts_a_new_chain():
    text = "\\begin{align}\nx &= y \\\\\na &\\ge b\n\\end{align}"
    doc = read_tex(text)
    assert [r.chain for r in doc.rows] == [0, 1]
    assert steps_of(text) == [(x, "=", y, 2), (a, ">=", b, 3)]


def test_several_relations_on_one_row():
    assert steps_of("\\[ a = b \\le c \\]") == [(a, "=", b, 1), (b, "<=", c, 1)]


@pytest.mark.parametrize("env", ["align", "align*", "equation", "equation*", "gather", "gather*",
                                 "eqnarray", "eqnarray*", "multline"])
def test_every_display_environment_is_read(env):
    assert steps_of(f"\\begin{{{env}}}\na = b\n\\end{{{env}}}") == [(a, "=", b, 2)]


@pytest.mark.parametrize("inner", ["split", "aligned"])
def test_split_and_aligned_inside_equation(inner):
    text = f"\\begin{{equation}}\n\\begin{{{inner}}}\na &= b \\\\\n&= c\n\\end{{{inner}}}\n\\end{{equation}}"
    doc = read_tex(text)
    assert steps_of(text) == [(a, "=", b, 3), (b, "=", c, 4)]
    assert all(r.nested for r in doc.rows)


def test_eqnarray_columns():
    assert steps_of("\\begin{eqnarray}\na &=& b \\\\\n&\\le& c\n\\end{eqnarray}") == \
        [(a, "=", b, 2), (b, "<=", c, 3)]


def test_ignored_tokens_are_not_refused():
    text = ("\\begin{align}\na &= b \\label{eq:1} \\nonumber \\\\\n"
            "&= \\left( b \\right) \\quad \\qquad \\, \\! \\notag \\tag{3} \\\\\n"
            "&\\le c. \\\\\n&\\le \\displaystyle d,\n\\end{align}")
    assert steps_of(text) == [(a, "=", b, 2), (b, "=", b, 3), (b, "<=", c, 4), (c, "<=", d, 5)]


def test_text_and_intertext_are_the_rule():
    text = ("\\begin{align*}\na &= b \\quad \\text{by Lemma 2} \\\\\n"
            "\\intertext{and then}\n&\\le c \\qquad \\text{since } b \\le c \\text{ holds}\n"
            "\\end{align*}")
    doc = read_tex(text)
    rules = [s.rule for row in doc.rows for s in row.steps]
    assert rules == ["by Lemma 2", "and then; since b \\le c holds"]
    assert [(s.lhs, s.relation, s.rhs) for r in doc.rows for s in r.steps] == \
        [(a, "=", b), (b, "<=", c)]


def test_a_row_without_a_relation_continues_the_row_above():
    text = "\\begin{align*}\na &= b + c \\\\\n&\\qquad + d\n\\end{align*}"
    doc = read_tex(text)
    assert [(s.lhs, s.rhs) for r in doc.rows for s in r.steps] == [(a, b + c + d)]
    assert (doc.rows[0].line, doc.rows[0].last_line) == (2, 3)


def test_overset_labels_the_relation():
    text = "\\[ a \\overset{(i)}{\\le} b \\stackrel{\\text{Lem. 1}}{=} c \\]"
    doc = read_tex(text)
    assert steps_of(text) == [(a, "<=", b, 1), (b, "=", c, 1)]
    assert "(i)" in doc.rows[0].steps[0].rule


def test_macros_with_and_without_arguments_are_expanded():
    text = ("\\newcommand{\\eps}{\\varepsilon}\n\\newcommand{\\pr}[2]{\\frac{#1}{#2}}\n"
            "\\newcommand{\\sq}[1][2]{^{#1}}\n\\def\\half{\\frac12}\n\\def\\tw#1{2 #1}\n"
            "\\DeclareMathOperator{\\Ln}{ln}\n"
            "\\[ \\pr{\\eps}{2} = \\half\\eps \\le \\tw{x}\\sq \\le x\\sq[3] = \\Ln x \\]")
    assert steps_of(text) == [(eps / 2, "=", eps / 2, 7), (eps / 2, "<=", 2 * x ** 2, 7),
                              (2 * x ** 2, "<=", x ** 3, 7), (x ** 3, "=", sp.log(x), 7)]


def test_a_macro_that_expands_forever_is_a_problem_on_its_line():
    doc = read_tex("\\def\\a{\\a\\a}\n\\[ \\a = 1 \\]")
    (row,) = doc.rows
    assert row.problem is not None and "macro expansions" in row.problem.message


def test_usepackage_is_skipped_and_file_primitives_are_only_reported():
    text = ("\\documentclass{article}\n\\usepackage{amsmath}\n\\input{/etc/passwd}\n"
            "\\immediate\\write18{rm -rf /}\n\\catcode`\\@=11\n\\begin{document}\n"
            "\\include{chapter}\n\\[ a = a \\]\n\\end{document}")
    doc = read_tex(text)
    reported = {(note.line, note.message.split()[0]) for note in doc.notes}
    assert reported == {(3, "\\input"), (4, "\\immediate"), (4, "\\write"), (5, "\\catcode"),
                        (7, "\\include")}
    assert all("never executed" in note.message for note in doc.notes)
    assert steps_of(text) == [(a, "=", a, 8)]


def test_a_parse_error_names_line_column_and_what_was_expected_and_the_rest_is_read():
    text = "\\begin{align*}\na &= b \\\\\n  &= \\frac{1}{2} + ) \\\\\nc &\\le d\n\\end{align*}"
    doc = read_tex(text)
    problems = [r.problem for r in doc.rows if r.problem]
    assert len(problems) == 1
    assert (problems[0].line, problems[0].column) == (3, 20)  # the ")" in "  &= \\frac{1}{2} + )"
    assert "unexpected ')'" in problems[0].message
    assert steps_of(text) == [(a, "=", b, 2), (c, "<=", d, 4)]


def test_an_unsupported_relation_makes_the_row_unread_with_the_reason():
    doc = read_tex("\\[ a \\approx b \\]")
    assert "\\approx" in doc.rows[0].problem.message and not doc.rows[0].steps


def test_commented_out_displays_are_not_read():
    assert steps_of("% \\[ a = b \\]\n\\[ c = d \\] % \\[ x = y \\]") == [(c, "=", d, 2)]


def test_hypothesis_comments_apply_to_the_next_display_or_to_the_file():
    text = ("% symdp file: assume eps >= 0\n"
            "% symdp: assume 0 <= p <= 1, eps >= 0; integer n, k; n >= 1\n"
            "\\[ p = p \\]\n\\[ n = n \\]")
    first, second = read_tex(text).displays
    assert [r for _, r in first.hypotheses.relations] == \
        [sp.Ge(eps, 0), sp.And(sp.Le(0, p), sp.Le(p, 1)), sp.Ge(eps, 0), sp.Ge(n, 1)]
    assert first.hypotheses.integers == ("n", "k")
    assert [r for _, r in second.hypotheses.relations] == [sp.Ge(eps, 0)]
    assert second.hypotheses.integers == ()


def test_preamble_comments_hold_for_the_whole_file_and_cli_flags_too():
    text = "% symdp: assume x >= 0\n\\begin{document}\n\\[ x = x \\]\n\\[ y = y \\]\n\\end{document}"
    doc = read_tex(text, assume=["y <= 1"], integers=["n"])
    for display in doc.displays:
        assert [r for _, r in display.hypotheses.relations] == [sp.Le(y, 1), sp.Ge(x, 0)]
        assert display.hypotheses.integers == ("n",)


def test_let_names_a_formula_and_a_function():
    hyp = read_directive(r"let x^* = \frac{1-\delta}{2}; let f_p(t) = p t + (1-p)(1-t)").hypotheses
    symbols = hyp.symbols()
    assert parse_formula("x_{star}", latex=True, symbols=symbols) == (1 - delta) / 2
    assert parse_formula("f_p(x)", latex=True, symbols=symbols) == p * x + (1 - p) * (1 - x)


def test_expect_and_skip_in_a_row():
    text = ("\\begin{align*}\na &= b % symdp: expect refuted\n\\\\ c &= d \\\\\n"
            "x &= y % symdp: skip\n\\end{align*}")
    doc = read_tex(text)
    assert [s.expect for r in doc.rows for s in r.steps] == ["REFUTED", None]
    assert doc.rows[-1].skipped


def test_a_directive_that_cannot_be_read_leaves_its_display_unchecked_with_the_reason():
    doc = read_tex("% symdp: assume 0 <= p <=\n\\[ p = p \\]")
    assert "cannot read the symdp comment" in doc.rows[0].problem.message
    assert doc.rows[0].problem.line == 1


def test_symdps_objects_by_their_usual_spellings():
    text = (r"\[ G_\mu(\alpha) + f_{\varepsilon,\delta}(\alpha) + \Phi^{-1}(\alpha) "
            r"+ \mathrm{e}^{\mu} + \exp(\mu) + \ln \mu + \log_2 \mu + \binom{n}{k} "
            r"+ \sum_{i=1}^{n} i + \prod_{j=1}^{n} j = 0 \]")
    (lhs, _, _, _), = steps_of(text)
    i, j = sp.Symbol("i", integer=True), sp.Symbol("j", integer=True)
    expected = (Gaussian(mu)(alpha) + EpsDelta(eps, delta)(alpha) + PhiInv(alpha)
                + 2 * sp.exp(mu) + sp.log(mu) + sp.log(mu) / sp.log(2) + sp.binomial(n, k)
                + sp.Sum(i, (i, 1, n)) + sp.Product(j, (j, 1, n)))
    assert sp.expand(lhs - expected) == 0
    assert Gaussian(mu)(alpha).doit() == Phi(PhiInv(1 - alpha) - mu)


def test_a_family_with_the_wrong_number_of_subscripts_is_refused_not_multiplied():
    doc = read_tex(r"\[ f_p(x) = 1 \]")
    assert "takes 2 subscripts" in doc.rows[0].problem.message


def test_a_starred_name_is_a_name_but_a_conjugate_is_not_multiplied():
    assert starred("x^* + x^{*} + y^\\ast") == "x_{star} + x_{star} + y_{star}"
    assert starred("f^*(y)") == "f^*(y)"
    assert read_tex(r"\[ f^*(y) = 1 \]").rows[0].problem is not None


@pytest.mark.parametrize("path", EXAMPLES + FIXTURES, ids=lambda p: p.stem)
def test_at_least_90_percent_of_the_display_lines_are_read(path):
    doc = read_tex(path.read_text(), str(path))
    read, total = doc.read_fraction()
    assert total >= 3 and read >= 0.9 * total, [str(r.problem) for r in doc.rows if r.problem]


def test_the_examples_cover_both_papers():
    names = {p.stem for p in EXAMPLES}
    assert {"drs_eq14", "drs_thm_4_2_proof", "drs_cor_4_3", "drs_lemma_4_4", "bagging_thm2",
            "bagging_thm3"} <= names


def test_the_test_documents_use_macros_text_and_mixed_relations():
    for path in FIXTURES:
        text = path.read_text()
        doc = read_tex(text, str(path))
        relations = {s.relation for r in doc.rows for s in r.steps}
        assert "\\newcommand" in text and "\\text" in text
        assert "=" in relations and relations & {"<=", "<", ">=", ">"}, path.name
    assert len(FIXTURES) >= 3


def test_bad_arguments():
    with pytest.raises(ParseError, match="--assume"):
        read_tex("\\[ a = a \\]", assume=["0 <= p <="])
    with pytest.raises(ParseError, match="--integer"):
        read_tex("\\[ a = a \\]", integers=["1 + n"])


def test_a_left_side_begun_on_the_row_above_is_read_with_it():
    text = "\\begin{multline}\na + b \\\\\n= b + a\n\\end{multline}"
    assert steps_of(text) == [(a + b, "=", a + b, 2)]
