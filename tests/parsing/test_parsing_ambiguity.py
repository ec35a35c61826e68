r"""Notation with two readings is refused, naming both; notation with one keeps it (issue #27, item 4).

Generated families: for each ambiguous spelling, the parser must refuse and name both readings;
for each of the two unambiguous spellings that the message proposes, the parser must read the
value that reading means.  The expected values are computed independently of the parser, with
Fractions or mpmath at 50 digits from the intended reading, never from symdp's output.
"""

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symdp.cli.main import main
from symdp.core.errors import ParseError
from symdp.parsing import parse_formula

x, y = sp.symbols("x y")
POINT = {x: sp.Rational(3, 7), y: sp.Rational(5, 11)}
NUMBERS = [2, 3, 5, 7]


def value(text, latex=True, symbols=None):
    """The parsed formula's exact value at POINT (x = 3/7, y = 5/11)."""
    expr = parse_formula(text, latex=latex, symbols=symbols)
    return expr.xreplace(POINT)


def close(a, b):
    with mpmath.workdps(50):
        return abs(mpmath.mpf(sp.N(a, 60)) - mpmath.mpf(sp.N(b, 60))) < mpmath.mpf(10) ** -40


# --------------------------------------------------------------------------- a / b c

QUOTIENTS = [(a, b) for a, b in itertools.product(NUMBERS, NUMBERS) if a != b][:8]


@pytest.mark.parametrize("a, b", QUOTIENTS)
@pytest.mark.parametrize("latex", [True, False])
def test_a_quotient_followed_by_a_factor_is_refused_naming_both_readings(a, b, latex):
    text = f"{a}/{b}x"
    with pytest.raises(ParseError) as info:
        parse_formula(text, latex=latex)
    message = str(info.value)
    assert "two readings" in message and f"({a}/{b})·x" in message and f"{a}/({b}·x)" in message


@pytest.mark.parametrize("a, b", QUOTIENTS)
def test_each_written_reading_of_a_quotient_reads_as_meant(a, b):
    xv = Fraction(3, 7)
    first, second = Fraction(a, b) * xv, Fraction(a) / (b * xv)
    assert value(rf"\frac{{{a}}}{{{b}}} x") == sp.Rational(first.numerator, first.denominator)
    assert value(rf"\frac{{{a}}}{{{b} x}}") == sp.Rational(second.numerator, second.denominator)
    assert value(f"({a}/{b})*x", latex=False) == sp.Rational(first.numerator, first.denominator)
    assert value(f"{a}/({b}*x)", latex=False) == sp.Rational(second.numerator,
                                                           second.denominator)


def test_the_issue_examples_are_refusals_not_verdicts(capsys):
    for lhs, rel, rhs in [(r"\ln xy", "=", r"y\ln x"), (r"1/2\pi", ">=", "1"),
                          (r"\exp xy", "=", r"y \exp x"), ("x/2y", "=", r"\frac{x}{2y}")]:
        assert main(["step", lhs, rel, rhs, "--latex"]) == 2
        err = capsys.readouterr().err
        assert "has two readings" in err and err.count("\n") == 1, err


#: issue #27 item 4's examples: (LHS, relation, RHS, the two readings the refusal names)
ISSUE_EXAMPLES = [
    (r"\ln xy", "=", r"y\ln x", r"(\ln x)·y", r"\ln(xy)"),
    (r"\exp xy", "=", r"y \exp x", r"(\exp x)·y", r"\exp(xy)"),
    ("a/bc", "=", r"\frac{a}{bc}", "(a/b)·c", "a/(b·c)"),
    (r"1/2\pi", ">=", "1", r"(1/2)·\pi", r"1/(2·\pi)"),
    (r"\sin x^2", "=", r"\sin(x^2)", r"\sin(x^2)", r"(\sin x)^2"),
]


@pytest.mark.parametrize("lhs, rel, rhs, first, second", ISSUE_EXAMPLES,
                         ids=[e[0] for e in ISSUE_EXAMPLES])
def test_the_issue_examples_name_both_readings_in_step_and_check_tex(lhs, rel, rhs, first,
                                                                      second, capsys, tmp_path):
    assert main(["step", lhs, rel, rhs, "--latex"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"two readings: {first} and {second}" in err, err
    source = tmp_path / "doc.tex"
    tex_rel = {"=": "=", ">=": r"\ge"}[rel]
    source.write_text(f"\\begin{{align}}\n{lhs} &{tex_rel} {rhs}\n\\end{{align}}\n")
    assert main(["check-tex", str(source), "--no-certify"]) == 1   # the row is not read
    out = capsys.readouterr().out
    assert "0 of 1 display lines read" in out, out
    assert f"doc.tex:2:" in out and f"two readings: {first} and {second}" in out, out


def test_a_quotient_stays_read_where_it_has_one_reading():
    assert parse_formula(r"a/b \cdot c", latex=True) == sp.Symbol("a") * sp.Symbol("c") / sp.Symbol("b")
    assert parse_formula("a/bc") == sp.Symbol("a") / sp.Symbol("bc")  # plain: bc is one name
    assert parse_formula(r"e^{-t/s}/2", latex=True) == sp.exp(-sp.Symbol("t") / sp.Symbol("s")) / 2
    assert parse_formula(r"2a/b", latex=True) == 2 * sp.Symbol("a") / sp.Symbol("b")


# --------------------------------------------------------------------------- \ln x y and friends

FUNCTIONS = {r"\ln": mpmath.log, r"\exp": mpmath.exp, r"\sin": mpmath.sin, r"\cos": mpmath.cos}
AMBIGUOUS_ARGUMENTS = [  # (the bare argument as written, the two readings of f applied to it)
    ("xy", lambda f, X, Y: f(X) * Y, lambda f, X, Y: f(X * Y)),
    ("x^2", lambda f, X, Y: f(X) ** 2, lambda f, X, Y: f(X ** 2)),
    ("x/y", lambda f, X, Y: f(X) / Y, lambda f, X, Y: f(X / Y)),
    (r"2\pi", lambda f, X, Y: f(2) * mpmath.pi, lambda f, X, Y: f(2 * mpmath.pi)),
]


@pytest.mark.parametrize("command", sorted(FUNCTIONS))
@pytest.mark.parametrize("argument, first, second", AMBIGUOUS_ARGUMENTS,
                         ids=[a for a, _, _ in AMBIGUOUS_ARGUMENTS])
def test_a_bare_argument_that_could_go_on_is_refused_and_both_spellings_read(command, argument,
                                                                             first, second):
    with pytest.raises(ParseError, match="two readings"):
        parse_formula(f"{command} {argument}", latex=True)
    f = FUNCTIONS[command]
    with mpmath.workdps(50):
        X, Y = mpmath.mpf(3) / 7, mpmath.mpf(5) / 11
        spelled = {  # the two spellings the message proposes, for each argument
            "xy": (rf"\left({command} x\right)y", rf"{command}\left(xy\right)"),
            "x^2": (rf"\left({command} x\right)^2", rf"{command}\left(x^2\right)"),
            "x/y": (rf"\frac{{{command} x}}{{y}}", rf"{command}\left(x/y\right)"),
            r"2\pi": (rf"\left({command} 2\right)\pi", rf"{command}\left(2\pi\right)"),
        }[argument]
        for text, meant in zip(spelled, (first(f, X, Y), second(f, X, Y))):
            assert close(value(text), meant), text


def test_a_bare_argument_with_one_reading_stays():
    assert parse_formula(r"\ln x + y", latex=True) == sp.log(x) + y
    assert parse_formula(r"\log n!", latex=True) == sp.log(sp.factorial(sp.Symbol("n")))
    assert parse_formula(r"\ln \frac{x}{y}", latex=True) == sp.log(x / y)
    assert parse_formula(r"\ln e^{x}", latex=True) == sp.log(sp.exp(x))  # not (ln e)^x = 1
    assert parse_formula(r"\log n \log\log n", latex=True) == \
        sp.log(sp.Symbol("n")) * sp.log(sp.log(sp.Symbol("n")))


# --------------------------------------------------------------------------- s(X)

@pytest.mark.parametrize("name", ["s", "f", r"\phi", "F_{Y'}", "g_1"])
def test_an_undeclared_one_argument_application_is_refused_and_a_declared_one_applied(name):
    with pytest.raises(ParseError, match="two readings: the function"):
        parse_formula(f"{name}(x)", latex=True)
    symbol = parse_formula(name, latex=True)
    function = sp.Function(symbol.name, real=True)
    assert parse_formula(f"{name}(x)", latex=True, symbols={symbol.name: function}) == function(x)
    # the product, written with its operator, is the product
    assert parse_formula(rf"{name} \cdot (x)", latex=True) == symbol * x


def test_a_name_that_stands_for_a_number_times_a_group_is_a_product():
    p, n = sp.symbols("p n")
    assert parse_formula("p(1-p)", latex=True) == p * (1 - p)  # p is used on its own
    assert parse_formula("n(n-1)/2", latex=True) == n * (n - 1) / 2
    assert parse_formula(r"\delta(1+x)", latex=True, symbols={"delta": sp.Symbol("delta")}) == \
        sp.Symbol("delta") * (1 + x)  # a caller's symbol (an assumption) is a number
    assert parse_formula("score(x, c, y)", latex=True) == \
        sp.Function("score", real=True)(x, sp.Symbol("c"), y)  # several arguments: applied
    with pytest.raises(ParseError, match="two readings: an expectation"):
        parse_formula("E[x]", latex=True)


# --------------------------------------------------------------------------- \sum_i a_i - b_i

def test_an_index_used_after_its_operator_ended_is_refused():
    with pytest.raises(ParseError, match="index i"):
        parse_formula(r"\sum_{i=1}^{3} i - i", latex=True)
    with pytest.raises(ParseError, match="index i"):
        parse_formula(r"\sum_i a_i - b_i", latex=True)
    # both readings, written: 6 - i (i free) is not asked for; the sum of the difference is 0
    assert parse_formula(r"\sum_{i=1}^{3} (i - i)", latex=True).doit() == 0
    assert parse_formula(r"\left(\sum_{i=1}^{3} i\right) - j", latex=True).doit() == \
        6 - sp.Symbol("j")
