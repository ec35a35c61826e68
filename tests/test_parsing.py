"""Tests of symdp.parsing: the safe formula parser (plain and LaTeX).

Every expected value is built by hand from SymPy constructors, never by
parsing text, so the parser is checked against an independent route.
"""

from __future__ import annotations

import doctest
import re
import time

import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from symdp import parsing
from symdp.core.errors import InvalidParameterError, ParseError
from symdp.parsing import (MAX_DEPTH, MAX_DIGITS, MAX_LENGTH, parse_assumptions,
                           parse_formula, parse_relation)
from symdp.core.special import Phi, PhiInv

x, y, n, k, a, b, c, f, p = sp.symbols("x y n k a b c f p")
eps = sp.Symbol("varepsilon")
delta, mu, alpha = sp.symbols("delta mu alpha")


def same(left, right) -> bool:
    """Structurally equal, or equal after simplification."""
    return left == right or sp.simplify(left - right) == 0


def latex(text: str, **kwargs):
    return parse_formula(text, latex=True, **kwargs)


# ---------------------------------------------------------------------------
# Plain syntax

@pytest.mark.parametrize("text, expected", [
    ("3", sp.Integer(3)),
    ("0.25", sp.Rational(1, 4)),
    (".5", sp.Rational(1, 2)),
    ("1e-3", sp.Rational(1, 1000)),
    ("2.5E2", sp.Integer(250)),
    ("0.1", sp.Rational(1, 10)),
    ("007", sp.Integer(7)),
])
def test_plain_numbers_are_exact_rationals(text, expected):
    value = parse_formula(text)
    assert value == expected
    assert isinstance(value, sp.Rational)


@pytest.mark.parametrize("text", ["eps", "epsilon", "varepsilon", "ε"])
def test_every_spelling_of_epsilon_is_varepsilon(text):
    assert parse_formula(text) == sp.Symbol("varepsilon")


@pytest.mark.parametrize("text, expected", [
    ("delta", delta), ("mu", mu), ("alpha", alpha), ("lambda", sp.Symbol("lambda")),
    ("x_1", sp.Symbol("x_1")), ("eps_0", sp.Symbol("varepsilon_0")),
    ("eps'", sp.Symbol("varepsilon'")), ("x_1''", sp.Symbol("x_1''")),
    ("δ", delta), ("ε_0", sp.Symbol("varepsilon_0")), ("n2", sp.Symbol("n2")),
])
def test_plain_identifiers_name_symbols(text, expected):
    assert parse_formula(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("1+2*3", sp.Integer(7)),
    ("(1+2)*3", sp.Integer(9)),
    ("2^3^2", sp.Integer(512)),
    ("2**3**2", sp.Integer(512)),
    ("-2^2", sp.Integer(-4)),
    ("(-2)^2", sp.Integer(4)),
    ("2^-1", sp.Rational(1, 2)),
    ("2*-3", sp.Integer(-6)),
    ("--x", x),
    ("+x", x),
    ("1 - 2 - 3", sp.Integer(-4)),
    ("12/4/3", sp.Integer(1)),
    ("[x+1]*2", 2 * x + 2),
    ("x - y", sp.Add(x, sp.Mul(-1, y))),
    ("x·y × 2 ÷ 4", x * y / 2),
    ("x − y", x - y),
])
def test_plain_operators_and_precedence(text, expected):
    assert parse_formula(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("2n", 2 * n),
    ("2(n+1)", 2 * (n + 1)),
    ("n(n-1)", n * (n - 1)),
    ("(n-1)(n+1)", (n - 1) * (n + 1)),
    ("n k", n * k),
    ("2 pi", 2 * sp.pi),
    ("2e", 2 * sp.E),
    ("2n^2", 2 * n ** 2),
    ("2|x|", 2 * sp.Abs(x)),
])
def test_plain_implicit_multiplication(text, expected):
    assert parse_formula(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("exp(eps)", sp.exp(eps)),
    ("log(x)", sp.log(x)),
    ("ln(x)", sp.log(x)),
    ("log(x, 2)", sp.log(x) / sp.log(2)),
    ("sqrt(x)", sp.sqrt(x)),
    ("binomial(n, k)", sp.binomial(n, k)),
    ("binom(n, k)", sp.binomial(n, k)),
    ("Phi(x)", Phi(x)),
    ("PhiInv(x)", PhiInv(x)),
    ("erf(x)", sp.erf(x)),
    ("erfc(x)", sp.erfc(x)),
    ("min(a, b)", sp.Min(a, b)),
    ("max(a, b, c)", sp.Max(a, b, c)),
    ("Min(a, b)", sp.Min(a, b)),
    ("Max(a, b)", sp.Max(a, b)),
    ("abs(x)", sp.Abs(x)),
    ("Abs(x)", sp.Abs(x)),
    ("|x - 1|", sp.Abs(x - 1)),
    ("factorial(n)", sp.factorial(n)),
    ("n!", sp.factorial(n)),
    ("(n+1)!", sp.factorial(n + 1)),
    ("5!", sp.Integer(120)),
    ("floor(x)", sp.floor(x)),
    ("ceiling(x)", sp.ceiling(x)),
    ("ceil(x)", sp.ceiling(x)),
    ("floor(7/2)", sp.Integer(3)),
    ("Phi(0)", sp.Rational(1, 2)),
])
def test_plain_functions(text, expected):
    assert parse_formula(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("e", sp.E), ("E", sp.E), ("pi", sp.pi), ("oo", sp.oo), ("inf", sp.oo),
    ("infinity", sp.oo), ("e^x", sp.exp(x)), ("-oo", -sp.oo), ("π", sp.pi), ("∞", sp.oo),
])
def test_plain_constants(text, expected):
    assert parse_formula(text) == expected


def test_unknown_identifier_before_parenthesis_is_a_product():
    assert parse_formula("f(x+1)") == f * (x + 1)


@pytest.mark.parametrize("text, message", [
    ("exp", "exp is a function: write exp(...)"),
    ("binomial(n)", "binomial takes 2 arguments, got 1"),
    ("ln(x, 2)", "ln takes 1 argument, got 2"),
    ("min()", "missing argument"),
])
def test_plain_function_misuse_is_reported(text, message):
    with pytest.raises(ParseError, match=re.escape(message)):
        parse_formula(text)


# ---------------------------------------------------------------------------
# LaTeX syntax

@pytest.mark.parametrize("text, expected", [
    (r"\frac{a}{b}", a / b),
    (r"\dfrac{a}{b}", a / b),
    (r"\tfrac{a}{b}", a / b),
    (r"\frac12", sp.Rational(1, 2)),
    (r"\frac{1}{2}x", x / 2),
    (r"\binom{n}{k}", sp.binomial(n, k)),
    (r"\sqrt{x}", sp.sqrt(x)),
    (r"\sqrt2", sp.sqrt(2)),
    (r"\sqrt[3]{x}", x ** sp.Rational(1, 3)),
    (r"\ln x", sp.log(x)),
    (r"\ln(x)", sp.log(x)),
    (r"\ln\frac{n+1}{n}", sp.log((n + 1) / n)),
    (r"\log x", sp.log(x)),
    (r"\exp(x)", sp.exp(x)),
    (r"\exp x", sp.exp(x)),
    (r"e^{\varepsilon}", sp.exp(eps)),
    (r"e^x", sp.exp(x)),
    (r"e^{-x^2/2}", sp.exp(-x ** 2 / 2)),
    (r"\mathrm{e}^{x}", sp.exp(x)),
    (r"x^{2}", x ** 2),
    (r"x^2", x ** 2),
    (r"x^2y", x ** 2 * y),
    (r"x^{-1}", 1 / x),
    (r"\left( x + 1 \right)", x + 1),
    (r"\left[ x + 1 \right]", x + 1),
    (r"\{ x + 1 \}", x + 1),
    (r"\left\{ x + 1 \right\}", x + 1),
    (r"{x + 1}^{2}", (x + 1) ** 2),
    (r"2 \cdot 3", sp.Integer(6)),
    (r"2 \times x", 2 * x),
    (r"\min\{a, b\}", sp.Min(a, b)),
    (r"\max(a,b)", sp.Max(a, b)),
    (r"\min\left(a, b, c\right)", sp.Min(a, b, c)),
    (r"\Phi(x)", Phi(x)),
    (r"\Phi^{-1}(x)", PhiInv(x)),
    (r"\Phi^{-1}\left(1 - \alpha\right)", PhiInv(1 - alpha)),
    (r"\operatorname{erfc}(x)", sp.erfc(x)),
    (r"\operatorname{erf}{\left(x \right)}", sp.erf(x)),
    (r"\left|x - y\right|", sp.Abs(x - y)),
    (r"\lfloor x \rfloor", sp.floor(x)),
    (r"\left\lceil x \right\rceil", sp.ceiling(x)),
    (r"n!", sp.factorial(n)),
    (r"\pi", sp.pi),
    (r"\infty", sp.oo),
    (r"$x + 1$", x + 1),
    (r"$$x + 1$$", x + 1),
    (r"2e-3", 2 * sp.E - 3),  # no scientific notation in LaTeX
])
def test_latex_constructs(text, expected):
    assert latex(text) == expected


@pytest.mark.parametrize("text, name", [
    (r"\alpha", "alpha"), (r"\beta", "beta"), (r"\gamma", "gamma"), (r"\delta", "delta"),
    (r"\varepsilon", "varepsilon"), (r"\epsilon", "varepsilon"), (r"\mu", "mu"),
    (r"\nu", "nu"), (r"\sigma", "sigma"), (r"\lambda", "lambda"), (r"\phi", "phi"),
    (r"\Delta", "Delta"), ("eps", "varepsilon"), ("delta", "delta"), ("ε", "varepsilon"),
])
def test_latex_greek_letters_name_symbols(text, name):
    assert latex(text) == sp.Symbol(name)


@pytest.mark.parametrize("text, name", [
    (r"x_{1}", "x_1"), (r"x_1", "x_1"), (r"\varepsilon_0", "varepsilon_0"),
    (r"\epsilon_{0}", "varepsilon_0"), (r"f_{p}", "f_p"), (r"x_{ij}", "x_ij"),
    (r"x_{\alpha}", "x_alpha"), (r"\varepsilon'", "varepsilon'"),
    (r"\varepsilon''", "varepsilon''"), (r"\varepsilon^{\prime}", "varepsilon'"),
    (r"x_{1'}", "x_1'"), (r"e_1", "e_1"), (r"\mathrm{tot}", "tot"), (r"\pi_1", "pi_1"),
])
def test_latex_subscripts_and_primes_name_symbols(text, name):
    assert latex(text) == sp.Symbol(name)


@pytest.mark.parametrize("text, expected", [
    (r"2n", 2 * n),
    (r"n k", n * k),
    (r"nk", n * k),
    (r"2\,n\;k\!\:m", 2 * n * k * sp.Symbol("m")),
    (r"\frac{1}{2}x", x / 2),
    (r"(n-1)(n+1)", (n - 1) * (n + 1)),
    (r"2\left(n+1\right)", 2 * (n + 1)),
    (r"\alpha\beta", alpha * sp.Symbol("beta")),
    (r"n_1k_2", sp.Symbol("n_1") * sp.Symbol("k_2")),
    (r"x~y", x * y),
])
def test_latex_implicit_multiplication(text, expected):
    assert latex(text) == expected


@pytest.mark.parametrize("text, expected", [
    (r"\ln \frac{x}{y} + 1", sp.log(x / y) + 1),  # a bare argument is the next factor
    (r"\log n!", sp.log(sp.factorial(n))),
    (r"\log n \log\log n", sp.log(n) * sp.log(sp.log(n))),  # a function ends the argument
    (r"\ln(x)^2", sp.log(x) ** 2),         # a delimited argument leaves ^ to the value
    (r"\log{\left(x \right)}^{2}", sp.log(x) ** 2),
    (r"\ln^{2} x", sp.log(x) ** 2),
    (r"\log_{2} x", sp.log(x) / sp.log(2)),
    (r"\log_2(8)", sp.log(8) / sp.log(2)),
    (r"\ln\frac{1+x}{2}", sp.log((1 + x) / 2)),
    (r"\ln -x", sp.log(-x)),
    (r"\exp\left(-\frac{x^2}{2}\right)", sp.exp(-x ** 2 / 2)),
])
def test_latex_function_arguments(text, expected):
    assert latex(text) == expected


def test_issue_examples():
    assert latex(r"\frac{1}{2}+\frac{1}{3}") == sp.Rational(5, 6)
    assert parse_formula("(n-1)/n") == (n - 1) / n
    assert latex(r"\frac{n-1}{n}") == (n - 1) / n
    assert latex(r"\ln\frac{n+1}{n}") == sp.log((n + 1) / n)
    assert latex(r"e^{\varepsilon}") == sp.exp(eps)
    assert latex(r"\binom{n}{k}") == sp.binomial(n, k)
    assert same(latex(r"\frac{n-1}{n}"), 1 - 1 / n)


def test_plain_and_latex_agree_on_a_paper_formula():
    # the f-DP trade-off of (eps, delta)-DP, as typed both ways
    plain = parse_formula("max(0, 1 - delta - exp(eps)*x, exp(-eps)*(1 - delta - x))")
    tex = latex(r"\max\left\{0,\ 1-\delta-e^{\varepsilon}x,\ e^{-\varepsilon}(1-\delta-x)\right\}")
    expected = sp.Max(0, 1 - delta - sp.exp(eps) * x, sp.exp(-eps) * (1 - delta - x))
    assert plain == expected
    assert tex == expected


LATEX_ROUND_TRIP = [
    sp.exp(eps),
    (n - 1) / n,
    sp.binomial(n, k) * p ** k * (1 - p) ** (n - k),
    sp.log((n + 1) / n),
    sp.sqrt(x) + x ** sp.Rational(1, 3) + x ** sp.Rational(2, 3),
    sp.Min(x, 1 - delta),
    sp.Max(0, 1 - delta - sp.exp(eps) * x),
    Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2),
    PhiInv(1 - x) - mu,
    Phi(x) ** 2 + PhiInv(x) ** 2,
    sp.Abs(x - y),
    sp.factorial(n) / (sp.factorial(k) * sp.factorial(n - k)),
    sp.floor(n / 2) + sp.ceiling(x),
    sp.erfc(x / sp.sqrt(2)) / 2 + sp.erf(x),
    sp.exp(-x ** 2 / 2) / sp.sqrt(2 * sp.pi),
    sp.log(x, 2),
    (1 - delta) ** n * sp.Rational(-1, 2),
    sp.Symbol("x_1") + sp.Symbol("varepsilon_0") * sp.Symbol("x'"),
    sp.Float("0.25") * x + sp.Float("1e-10"),
    sp.binomial(n, k) ** 2,
    2 ** sp.factorial(n),
    (x + 1) ** (-sp.Rational(3, 2)),
    sp.oo * x + sp.pi,
]


@pytest.mark.parametrize("expr", LATEX_ROUND_TRIP, ids=str)
def test_sympy_latex_round_trips(expr):
    text = sp.latex(expr)
    parsed = latex(text)
    expected = expr.replace(lambda e: e.is_Float, lambda e: sp.nsimplify(e, rational=True))
    assert same(parsed, expected), (text, parsed)


@pytest.mark.parametrize("expr", LATEX_ROUND_TRIP, ids=str)
def test_sympy_str_round_trips(expr):
    parsed = parse_formula(str(expr))
    expected = expr.replace(lambda e: e.is_Float, lambda e: sp.nsimplify(e, rational=True))
    assert same(parsed, expected), (str(expr), parsed)


# ---------------------------------------------------------------------------
# Symbols supplied by the caller

def test_symbols_override_by_canonical_name_and_keep_assumptions():
    positive_eps = sp.Symbol("varepsilon", positive=True)
    value = parse_formula("exp(eps) - 1", symbols={"varepsilon": positive_eps})
    assert value == sp.exp(positive_eps) - 1
    assert value.free_symbols == {positive_eps}
    assert next(iter(value.free_symbols)).is_positive
    assert latex(r"e^{\epsilon}", symbols={"varepsilon": positive_eps}) == sp.exp(positive_eps)


def test_symbols_override_by_typed_name_first():
    typed, canonical = sp.Symbol("t", real=True), sp.Symbol("varepsilon", positive=True)
    value = parse_formula("eps + varepsilon", symbols={"eps": typed, "varepsilon": canonical})
    assert value == typed + canonical


def test_symbols_do_not_override_constants_or_functions():
    value = parse_formula("e + exp(1)", symbols={"e": x, "exp": y})
    assert value == 2 * sp.E


def test_symbols_must_be_a_dict_of_sympy_objects():
    with pytest.raises(InvalidParameterError, match="symbols"):
        parse_formula("x", symbols={"x": "x"})
    with pytest.raises(InvalidParameterError, match="symbols"):
        parse_formula("x", symbols=[x])


# ---------------------------------------------------------------------------
# Relations and assumptions

@pytest.mark.parametrize("text, expected", [
    ("eps>=0", sp.Ge(eps, 0)),
    ("n >= 1", sp.Ge(n, 1)),
    ("x <= 1", sp.Le(x, 1)),
    ("x < 1", sp.Lt(x, 1)),
    ("x > 1", sp.Gt(x, 1)),
    ("x = y", sp.Eq(x, y)),
    ("x == y", sp.Eq(x, y)),
    ("x ≤ 1", sp.Le(x, 1)),
    ("x ≥ 1", sp.Ge(x, 1)),
])
def test_plain_relations(text, expected):
    value = parse_relation(text)
    assert isinstance(value, sp.Rel)
    assert value == expected


@pytest.mark.parametrize("text, expected", [
    (r"\delta \le 1", sp.Le(delta, 1)),
    (r"\delta \leq 1", sp.Le(delta, 1)),
    (r"\varepsilon \ge 0", sp.Ge(eps, 0)),
    (r"\varepsilon \geq 0", sp.Ge(eps, 0)),
    (r"x \lt 1", sp.Lt(x, 1)),
    (r"x \gt 1", sp.Gt(x, 1)),
    (r"\frac{1}{2} = x", sp.Eq(sp.Rational(1, 2), x)),
])
def test_latex_relations(text, expected):
    assert parse_relation(text, latex=True) == expected


def test_chained_relation_is_an_and_of_two_relationals():
    value = parse_relation("0<=delta<=1")
    assert value == sp.And(sp.Le(0, delta), sp.Le(delta, 1))
    assert parse_relation(r"0 \le \delta < 1", latex=True) == sp.And(sp.Le(0, delta),
                                                                     sp.Lt(delta, 1))


def test_relations_stay_unevaluated():
    value = parse_relation("1 <= 2")
    assert isinstance(value, sp.Le)
    assert value.args == (1, 2)
    positive = sp.Symbol("varepsilon", positive=True)
    assert isinstance(parse_relation("eps > 0", symbols={"varepsilon": positive}), sp.Gt)


def test_relation_errors():
    with pytest.raises(ParseError, match="must point one way"):
        parse_relation("a < b > c")
    with pytest.raises(ParseError, match="expected a relation"):
        parse_relation("x + 1")
    with pytest.raises(ParseError, match=r"column 3: unexpected relation '<=' in a formula"):
        parse_formula("x <= 1")
    with pytest.raises(ParseError, match="'!=' is not a supported relation"):
        parse_relation("x != 1")


def test_parse_assumptions_parses_each_item():
    value = parse_assumptions(["eps >= 0", "0 < delta < 1", "n >= 1"])
    assert value == [sp.Ge(eps, 0), sp.And(sp.Lt(0, delta), sp.Lt(delta, 1)), sp.Ge(n, 1)]
    assert parse_assumptions([r"\varepsilon \ge 0"], latex=True) == [sp.Ge(eps, 0)]
    assert parse_assumptions([]) == []


def test_parse_assumptions_refuses_a_bare_string():
    with pytest.raises(InvalidParameterError, match="list of strings"):
        parse_assumptions("eps >= 0")


def test_parse_assumptions_names_the_failing_item():
    with pytest.raises(ParseError, match="cannot parse relation at column 6: unexpected '\\)'"):
        parse_assumptions(["eps >= 0", "x >= )"])


# ---------------------------------------------------------------------------
# Error messages

@pytest.mark.parametrize("text, latex_mode, message", [
    ("(1+2))", False, "cannot parse formula at column 6: unexpected ')'"),
    ("1/(2*n", False, "cannot parse formula at column 7: missing ')' to close '(' at column 3"),
    ("(x]", False, "cannot parse formula at column 3: expected ')' to close '(' at column 1, "
                   "got ']'"),
    ("", False, "cannot parse formula at column 1: empty input"),
    ("x +", False, "cannot parse formula at column 4: unexpected end of input"),
    ("x 2", False, "cannot parse formula at column 3: missing operator before the number '2'"),
    ("n!!", False, "cannot parse formula at column 2: '!!' (double factorial) is not supported"),
    ("1/0", False, "cannot parse formula at column 2: division by zero"),
    ("oo - oo", False, "cannot parse formula at column 4: the value is undefined (nan)"),
    ("log(0)", False, "cannot parse formula at column 1: the value is complex infinity"),
    ("x_", False, "cannot parse formula at column 1: malformed identifier 'x_'"),
    (r"\frac{1}{2}", False, "cannot parse formula at column 1: LaTeX command '\\frac' in a "
                            "plain formula"),
    ("{x}", False, "cannot parse formula at column 1: unexpected '{'"),
    (r"\foo{x}", True, "cannot parse formula at column 1: unknown function or command \\foo"),
    (r"x^23", True, "cannot parse formula at column 3: TeX reads only the first digit of "
                    "'23' here: write ^{23}"),
    (r"x^{2}^{3}", True, "cannot parse formula at column 6: double superscript"),
    (r"\frac{1}", True, "cannot parse formula at column 9: '\\frac' needs an argument in braces"),
    (r"\min x", True, "cannot parse formula at column 6: '\\min' needs its arguments in "
                      "parentheses or braces"),
    (r"\exp_2 x", True, "cannot parse formula at column 5: a subscript on '\\exp' is not "
                        "supported"),
    (r"\ln^{-1} x", True, "cannot parse formula at column 4: '\\ln'^{-1} is ambiguous"),
    (r"x_{1/2}", True, "cannot parse formula at column 5: unsupported subscript: '/'"),
    (r"(x)'", True, "cannot parse formula at column 4: a prime (') must follow a symbol"),
    (r"\left|x", True, "cannot parse formula at column 8: missing '|' to close '|' at column 6"),
    (r"x \\ y", True, "cannot parse formula at column 3: unknown command '\\\\\\\\'"),
    (r"PhiInv(2)", False, "cannot parse formula at column 1: PhiInv needs an argument in [0, 1]"),
])
def test_error_messages_name_the_column_and_the_problem(text, latex_mode, message):
    with pytest.raises(ParseError) as info:
        parse_formula(text, latex=latex_mode)
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


def test_parse_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_formula("(")
    assert issubclass(ParseError, InvalidParameterError)


def test_non_string_input_is_refused():
    with pytest.raises(ParseError, match="must be a string"):
        parse_formula(12)


# ---------------------------------------------------------------------------
# Safety: nothing typed is ever run

PAYLOADS = [
    "__import__('os').system('touch pwned')",
    "().__class__",
    "().__class__.__bases__[0].__subclasses__()",
    'eval("1")',
    "eval(1)",
    "exec",
    "exec('open(\"pwned\", \"w\")')",
    "lambda: 1",
    "`touch pwned`",
    "x; import os",
    "import os",
    "os.system('touch pwned')",
    "open('pwned', 'w')",
    "open",
    "__builtins__",
    "_x",
    "x.real",
    "getattr(x, 'y')",
    "globals",
    "1 if 1 else 0",
    "x#comment",
    "x @ y",
    "x & y",
    "x % 2",
    "f'{x}'",
    "\\input{/etc/passwd}",
    "\\write18{touch pwned}",
    "\\immediate\\write18{touch pwned}",
    "x:=1",
    "\\text{import}",
]
PLAIN_ONLY = ["$(touch pwned)", "~x", "{x}"]


@pytest.mark.parametrize("latex_mode", [False, True])
@pytest.mark.parametrize("payload", PAYLOADS)
def test_injection_payloads_raise_and_run_nothing(payload, latex_mode, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParseError):
        parse_formula(payload, latex=latex_mode)
    with pytest.raises(ParseError):
        parse_relation(payload + " = 1", latex=latex_mode)
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("payload", PLAIN_ONLY)
def test_plain_injection_payloads_raise(payload, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParseError):
        parse_formula(payload)
    assert not (tmp_path / "pwned").exists()


# The no-eval source check reads every module of symdp/parsing/:
# tests/parsing/test_parsing_sources.py.


# ---------------------------------------------------------------------------
# Limits: big numbers, long and deep input

HUGE = [
    ("10^10^10", False),
    ("2**99999999", False),
    ("10000!", False),
    ("factorial(10^6)", False),
    ("binomial(10^6, 5*10^5)", False),
    ("1e999999999", False),
    ("1e-5000", False),
    ("9" * (MAX_DIGITS + 1), False),
    ("*".join(["1e1000"] * 5), False),
    ("(2x)^(10^9)", False),
    ("exp(10^50*(log(2)+log(3)))", False),
    ("sqrt(10^3999+7)", False),
    ("(10^400+7)^(1/2)*(10^400+9)^(1/2)", False),
    ("floor(exp(exp(20)))", False),
    ("erfc(10^10)", False),
    ("PhiInv(erfc(30))", False),
    ("2^2^2^2^2", False),
    (r"10^{10^{10}}", True),
    (r"e^{e^{e^{e^{20}}}}", True),
    (r"\left(e^{x + \ln 2}\right)^{10^{3000}}", True),
    (r"\binom{10^{6}}{5 \cdot 10^{5}}", True),
]


@pytest.mark.parametrize("text, latex_mode", HUGE)
def test_huge_numbers_raise_quickly(text, latex_mode):
    start = time.perf_counter()
    with pytest.raises(ParseError, match="too large|too close"):
        parse_formula(text, latex=latex_mode)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("text, expected", [
    ("10^3000", sp.Integer(10) ** 3000),
    ("2^2^2^2", sp.Integer(65536)),
    ("factorial(1000)", sp.factorial(1000)),
    ("binomial(10^6, 3)", sp.Integer(166666166667000000)),
    ("x^(10^9)", x ** (10 ** 9)),
    ("(x^1000)^1000", x ** 1000000),
    ("+".join(["1"] * 4000), sp.Integer(4000)),
])
def test_big_but_reasonable_numbers_are_accepted(text, expected):
    assert parse_formula(text) == expected


@pytest.mark.parametrize("text, latex_mode", [
    ("12^(996/997)*12^(990/991)", False),      # SymPy would multiply out 12^984051
    ("9101/211e9^0.51e-3", False),             # ... and 211e9^99949 here
    ("exp(log(12)/997)*exp(log(12)/991)", False),
    (r"\operatorname{erfc}\exp 2100", True),   # mpmath overflows on erfc(10^912)
    ("erf(10^200)", False),
    ("PhiInv(1 - 10^-150)", False),            # evaluation time is cubic in 150
    ("floor(exp(9000)) + floor(exp(9000))", False),
])
def test_constructions_sympy_would_hang_on_raise_quickly(text, latex_mode):
    start = time.perf_counter()
    with pytest.raises(ParseError, match="too large|too close"):
        parse_formula(text, latex=latex_mode)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("text, latex_mode, expected", [
    (r"\exp\log \operatorname{erfc}(\mathrm{e}) \cdot \pi", True, sp.pi * sp.erfc(sp.E)),
    ("(factorial(PhiInv(0*9))+1-9)^(0/1023)", False, sp.Integer(1)),
    ("12^(96/97)", False, sp.Integer(12) ** sp.Rational(96, 97)),
    ("sqrt(2)*sqrt(3)", False, sp.sqrt(6)),
    ("erfc(-100)", False, sp.erfc(-100)),
    ("Phi(exp(5))", False, Phi(sp.exp(5))),
])
def test_fuzzer_findings_parse(text, latex_mode, expected):
    assert parse_formula(text, latex=latex_mode) == expected


@pytest.mark.parametrize("text, message", [
    ("min(sqrt(-1), 2)", "Min needs real arguments"),
    ("PhiInv(2)", "PhiInv needs an argument in [0, 1]"),
    ("PhiInv(-1/2)", "PhiInv needs an argument in [0, 1]"),
])
def test_arguments_sympy_or_mpmath_would_raise_on_are_parse_errors(text, message):
    with pytest.raises(ParseError, match=re.escape(message)):
        parse_formula(text)


@pytest.mark.parametrize("text", [
    "factorial(erfc(log(log(8.52, erf(4.27)))))",  # mpmath ZeroDivisionError inside SymPy
    "min(sqrt((floor(4.33))^(n+8889380584-5963871549)), 8)",  # SymPy pulls out 4^2925508035
    "binomial(16*1.68+e-Phi(14), 1e2)",  # SymPy expands a product of 100 sums
    "ceiling(factorial(7.55^pi))",  # evaluates gamma(571.5) to 1300 digits
    "(53/5)^(1000*(n+m+1000))",  # SymPy pulls out (53/5)^(10^6)
])
def test_sympy_pitfalls_are_parse_errors_or_quick(text):
    start = time.perf_counter()
    try:
        parse_formula(text)
    except ParseError as error:
        assert "\n" not in str(error)
    assert time.perf_counter() - start < 2.0


def test_binomial_of_an_inexact_number_stays_unevaluated():
    value = parse_formula("binomial(pi, 3)")
    assert value == sp.binomial(sp.pi, 3, evaluate=False)
    assert same(sp.expand_func(value), sp.pi * (sp.pi - 1) * (sp.pi - 2) / 6)
    assert parse_formula("binomial(5/2, 2)") == sp.Rational(15, 8)


def test_building_is_stopped_after_max_seconds(monkeypatch):
    monkeypatch.setattr(parsing, "MAX_SECONDS", -1.0)
    with pytest.raises(ParseError, match="takes too long to build"):
        parse_formula("x + 1")


def test_too_many_min_max_comparisons_raise_quickly():
    start = time.perf_counter()
    with pytest.raises(ParseError, match="too many min/max arguments"):
        parse_formula("max(" + ",".join(f"x{i}" for i in range(200)) + ")")
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("opening, closing, latex_mode", [
    ("(", ")", False), ("[", "]", False), ("(", ")", True), ("{", "}", True),
    (r"\sqrt{", "}", True), ("exp(", ")", False), ("-", "", False), ("x^", "", False),
])
def test_deep_nesting_raises_parse_error_not_recursion_error(opening, closing, latex_mode):
    for levels in (MAX_DEPTH + 1, 5000):
        text = opening * levels + "x" + closing * levels
        with pytest.raises(ParseError, match="nesting|characters"):
            parse_formula(text, latex=latex_mode)
    levels = (MAX_LENGTH - 1) // (len(opening) + len(closing))
    with pytest.raises(ParseError, match="nesting deeper"):
        parse_formula(opening * levels + "x" + closing * levels, latex=latex_mode)


def test_reasonable_nesting_is_accepted():
    assert parse_formula("(" * 20 + "x" + ")" * 20) == x
    assert latex(r"\frac{1}{" * 10 + "x" + "}" * 10) == x  # ten reciprocals


def test_long_input_is_refused():
    with pytest.raises(ParseError, match=f"more than the limit of {MAX_LENGTH}"):
        parse_formula("x+" * MAX_LENGTH + "x")


def test_long_flat_input_within_the_limit_is_quick():
    start = time.perf_counter()
    assert parse_formula("+".join(["x"] * 4999)) == 4999 * x
    assert latex("x" * 9999) == x ** 9999
    assert time.perf_counter() - start < 5.0


# ---------------------------------------------------------------------------
# Properties

_LEAVES = st.one_of(
    st.sampled_from([x, y, n, eps, delta, mu]),
    st.integers(-9, 12).map(sp.Integer),
    st.tuples(st.integers(-9, 9), st.integers(1, 9)).map(lambda t: sp.Rational(*t)),
)


def _min(pair):
    try:
        return sp.Min(*pair)
    except ValueError:  # complex arguments cannot be ordered
        return pair[0]


def _extend(children):
    return st.one_of(
        st.tuples(children, children).map(lambda t: t[0] + t[1]),
        st.tuples(children, children).map(lambda t: t[0] - t[1]),
        st.tuples(children, children).map(lambda t: t[0] * t[1]),
        st.tuples(children, children).map(lambda t: t[0] / t[1] if t[1] != 0 else t[0]),
        st.tuples(children, st.integers(-3, 3)).map(lambda t: t[0] ** t[1]),
        st.tuples(children, st.sampled_from([sp.Rational(1, 2), sp.Rational(1, 3),
                                             sp.Rational(-3, 2)])).map(lambda t: t[0] ** t[1]),
        children.map(sp.exp), children.map(sp.log), children.map(sp.sqrt),
        children.map(Phi), children.map(sp.Abs), children.map(sp.erfc),
        st.tuples(children, children).map(_min),
        st.tuples(children, children).map(lambda t: sp.binomial(*t)),
    )


_EXPRESSIONS = st.recursive(_LEAVES, _extend, max_leaves=8)


_GRAMMAR_FUNCTIONS = (sp.exp, sp.log, sp.Abs, Phi, PhiInv, sp.erf, sp.erfc, sp.Min, sp.Max,
                      sp.binomial, sp.factorial, sp.floor, sp.ceiling)


def _printable(expr) -> bool:
    """In the grammar: no I, no infinities, no functions SymPy introduced (re, sign)."""
    functions = {type(e) for e in expr.atoms(sp.Function)}
    return (not expr.has(sp.I, sp.zoo, sp.nan, sp.oo, -sp.oo) and len(str(expr)) < 400
            and all(issubclass(cls, _GRAMMAR_FUNCTIONS) for cls in functions))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_EXPRESSIONS)
def test_printed_expressions_parse_back_equal(expr):
    assume(_printable(expr))
    try:
        plain, tex = parse_formula(str(expr)), latex(sp.latex(expr))
    except ParseError as error:  # e.g. erfc(exp(exp(2))) is 10^-1137000: over the budget
        assert "too large" in str(error) or "too close" in str(error), (expr, error)
        assume(False)
    assert same(plain, expr), str(expr)
    assert same(tex, expr), sp.latex(expr)


_ALPHABET = list("xyne0123456789+-*/^()[]{}|!,.'_= <>") + [
    "exp(", "log(", "sqrt(", "Phi(", "max(", r"\frac", r"\sqrt", r"\ln", r"\left(",
    r"\right)", r"\cdot", r"\varepsilon", r"\Phi^{-1}", r"\binom", "__", "eval", ";", "`"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_ALPHABET), max_size=20).map("".join), st.booleans())
def test_any_input_parses_or_raises_parse_error(text, latex_mode):
    for parse in (parse_formula, parse_relation):
        try:
            parse(text, latex=latex_mode)
        except ParseError as error:
            assert "\n" not in str(error)


def test_docstring_examples_run():
    failures, _ = doctest.testmod(parsing, optionflags=doctest.ELLIPSIS)
    assert failures == 0
