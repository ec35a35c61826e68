r"""A corpus of real differential-privacy documents read and checked by ``symdp check-tex``.

``tests/check_tex/corpus/opendp/`` holds excerpts of 20 proof documents that OpenDP keeps
beside its Rust code (MIT licence, ``LICENSE`` in that folder; each file names its source path
and commit, and :data:`CORPUS` repeats them): the displays verbatim, with the sentences that
introduce them, and the ``% symdp:`` comments that state what their prose states (assumptions,
declared functions, premises cited from other lemmas, the values a proof assigns).  Each file
``\input``s ``lib.sty`` beside it, an excerpt of OpenDP's macro file, read with
``--follow-inputs``.

Every display row's outcome is pinned here (:data:`CORPUS`):

* ``holds`` / ``evidence``: every such row was checked by hand to be true (the notes below
  give the algebra of the less obvious ones); none is a false statement
  (:func:`test_no_false_alarm_and_no_false_statement_holds`);
* ``refuted``: a real slip of the document, each confirmed here with mpmath at 50 digits,
  independently of the cascade (:data:`SLIPS`; the mpmath tests at the end);
* ``undecided``: read, and either a quantity symdp does not know (a probability of an event
  without a law, a sum over a set, a function without a definition) or a step that needs an
  argument symdp does not make; never a refutation;
* ``defined``, ``premise``, ``expression``: read, nothing to check;
* ``not read`` / ``skipped``: with the reason in the table (notation with two readings, cases
  environments, integrals, logical rows, typing slips of the source).

Five more slips of these documents are read but left undecided (:data:`UNREFUTED_SLIPS`, each
confirmed here too): they sit in sums and products over index sets or in variances, which
symdp keeps as unknowns.

The outcomes are computed without the certified stage (as ``--no-certify``); the measurement
of the whole corpus with the command's defaults, before and after, is
``benchmarks/check_tex_corpus.py``.
"""

import json
import re
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from symdp.parsing.document import read_tex
from symdp.parsing.inputs import folder_inputs
from symdp.proof.verdict import Verdict
from symdp.report.tex_check import check_document

CORPUS_DIR = Path(__file__).parent / "corpus" / "opendp"

#: file -> (source path in opendp/opendp, commit, {display line: outcome})
CORPUS = {
    'approximate_to_tradeoff': ('rust/src/measurements/canonical_noise/approximate_to_tradeoff.tex',
        '375b184f7e22bc5031fae27079c5448daf028351', {
            15: 'holds', 26: 'holds', 28: 'holds', 29: 'evidence',
        }),
    'br_pure_dp': ('rust/src/combinators/measure_cast/bounded_range_to_pureDP/br_pure_dp/br_pure_dp.tex',
        '626e36437f688ed87487607f2807000719abc4d3', {
            15: 'undecided', 25: 'not read',
        }),
    'br_zcdp': ('rust/src/combinators/measure_cast/bounded_range_to_zCDP/br_zcdp/br_zcdp.tex',
        '2ae2d9664ee86ea1d9ecd5378d9d9669d8b93ab4', {
            15: 'defined', 19: 'defined', 30: 'undecided', 38: 'undecided', 45: 'undecided',
            49: 'undecided', 50: 'not read', 58: 'undecided', 65: 'premise', 66: 'not read',
            67: 'not read', 79: 'undecided', 81: 'evidence', 83: 'holds', 84: 'not read',
        }),
    'cdp_delta': ('rust/src/combinators/measure_cast/zCDP_to_approxDP/cdp_delta/cdp_delta.tex',
        '3bccc6eba6e801fb727a5938b534a10500318f95', {
            17: 'defined', 25: 'undecided', 31: 'undecided', 38: 'not read', 46: 'holds',
            53: 'undecided', 54: 'evidence', 55: 'refuted', 56: 'refuted', 61: 'undecided',
        }),
    'cdp_epsilon': ('rust/src/combinators/measure_cast/zCDP_to_approxDP/cdp_epsilon.tex',
        '1909a2be3cdd2424b040363b26a64caac039e9d4', {
            15: 'defined', 16: 'holds', 17: 'refuted', 23: 'skipped', 29: 'evidence',
        }),
    'gamma_hi_from_x': ('rust/src/combinators/select_private_candidate/bounds/gamma_hi_from_x.tex',
        '279be6fdeff9d9ebcae0c7ae1a9b4c750f0c025a', {
            18: 'evidence', 26: 'premise', 30: 'evidence',
        }),
    'gumbel': ('rust/src/measurements/gumbel_max/make_report_noisy_max_gumbel.tex',
        '01264d994a6ca29c89106c4561d33b3a39e12cee', {
            14: 'not read', 20: 'undecided', 28: 'defined', 33: 'not read', 41: 'undecided',
            42: 'undecided', 43: 'undecided', 44: 'undecided', 45: 'undecided', 46: 'undecided',
            47: 'undecided', 48: 'undecided', 57: 'premise', 58: 'evidence', 59: 'evidence',
            60: 'evidence', 61: 'evidence', 62: 'evidence', 72: 'undecided', 73: 'holds',
            74: 'holds', 75: 'holds', 83: 'not read', 84: 'not read', 85: 'not read',
            93: 'undecided', 99: 'undecided', 111: 'undecided', 113: 'undecided', 114: 'undecided',
            # 115: ln(e^{eps M / Delta} S / S) = eps M / Delta for the real max M and the
            # sum S of exponentials (> 0): ln(e^a) = a for real a, PROVED since the kernel of
            # main proves it (evidence before the merge)
            115: 'holds',
        }),
    'laplace_noise_map': ('rust/src/measurements/noise/distribution/laplace/NoisePrivacyMap_for_ZExpFamily1.tex',
        '1253533736044d9f206028c59fb8cebba8b35a32', {
            14: 'undecided', 17: 'undecided', 19: 'undecided', 21: 'undecided', 23: 'not read',
            25: 'not read', 27: 'undecided', 29: 'undecided',
        }),
    'laplace_threshold': ('rust/src/measurements/noise_threshold/distribution/laplace/NoiseThresholdPrivacyMap_for_ZExpFamily1.tex',
        '1253533736044d9f206028c59fb8cebba8b35a32', {
            15: 'not read', 24: 'not read', 32: 'undecided', 33: 'undecided', 34: 'undecided',
            42: 'evidence', 43: 'evidence', 49: 'undecided',
        }),
    'log_alpha_over_alpha_minus_one_lo': ('rust/src/combinators/select_private_candidate/bounds/log_alpha_over_alpha_minus_one_lo.tex',
        'd73ddf561d9b920c51c565de5c8d61007fcba319', {
            20: 'evidence', 28: 'premise', 32: 'evidence', 37: 'evidence', 42: 'evidence',
        }),
    'log_mean_hi': ('rust/src/combinators/select_private_candidate/bounds/log_mean_hi.tex',
        '684b8dfc802527821552171aad28061d8e617e51', {
            20: 'evidence', 28: 'premise', 33: 'evidence',
        }),
    'make_count': ('rust/src/transformations/count/make_count.tex',
        '01fd3cc712616ddd408b28e8ab2cd29e40284dd9', {
            15: 'undecided', 16: 'evidence', 26: 'undecided', 27: 'undecided', 28: 'undecided',
            29: 'undecided', 30: 'undecided', 31: 'undecided', 32: 'undecided', 33: 'undecided',
            34: 'undecided', 35: 'undecided',
        }),
    'nb_rdp_curve': ('rust/src/combinators/select_private_candidate/bounds/new_negative_binomial_rdp_curve.tex',
        'd73ddf561d9b920c51c565de5c8d61007fcba319', {
            16: 'expression', 32: 'premise', 37: 'evidence', 42: 'premise', 47: 'premise',
            52: 'premise', 57: 'evidence', 62: 'premise',
        }),
    'new_poisson_rdp_curve': ('rust/src/combinators/select_private_candidate/bounds/new_poisson_rdp_curve.tex',
        '684b8dfc802527821552171aad28061d8e617e51', {
            18: 'expression', 27: 'defined', 37: 'premise', 42: 'evidence', 52: 'evidence',
            57: 'evidence', 62: 'premise', 71: 'premise', 78: 'premise',
        }),
    'proportion_ci_mean': ('rust/src/transformations/proportion_ci/via_lipschitz/make_lipschitz_sized_proportion_ci_mean.tex',
        '8d6d79f29d35cd684265eb3e1eca1695b2a5a3b9', {
            16: 'undecided', 22: 'undecided', 23: 'undecided', 24: 'undecided', 25: 'undecided',
            27: 'undecided', 39: 'undecided', 48: 'undecided',
        }),
    'rappor': ('rust/src/measurements/rappor/make_rappor.tex',
        '05f418d98d491748e76a404bb23c9e41ecfebd1e', {
            15: 'defined', 20: 'undecided', 21: 'undecided', 28: 'undecided', 34: 'defined',
            35: 'undecided', 36: 'undecided', 37: 'undecided', 45: 'undecided', 52: 'undecided',
            58: 'undecided', 59: 'holds', 63: 'holds', 70: 'undecided', 71: 'holds', 72: 'defined',
            74: 'undecided', 82: 'undecided', 88: 'undecided', 89: 'undecided', 90: 'undecided',
            91: 'undecided', 92: 'holds',
        }),
    'rr': ('rust/src/measurements/randomized_response/make_randomized_response.tex',
        '00bef14e58abe15779d23de7d8ea3ca13b62dd53', {
            19: 'undecided', 24: 'undecided', 29: 'undecided', 37: 'evidence', 45: 'undecided',
            47: 'undecided', 48: 'undecided', 49: 'refuted',
        }),
    'rr_bool': ('rust/src/measurements/randomized_response/make_randomized_response_bool.tex',
        '03b8064f99bca3aaa5e8353b075e3b20eb66656e', {
            21: 'undecided', 25: 'undecided', 29: 'holds', 33: 'evidence',
        }),
    'score_candidates': ('rust/src/transformations/quantile_score_candidates/score_candidates.tex',
        '7a0221d71c7534ce422bfde3a5c7243e7ef70b3b', {
            15: 'undecided',
        }),
    'tulap': ('rust/src/measurements/tulap/make_tulap.tex',
        '094474dd3ae73136c1625447c50c431fc7f0f2d3', {
            12: 'not read', 21: 'not read', 30: 'not read', 35: 'not read',
        }),
}

#: the rows refuted, each a real slip of the document (confirmed below with mpmath)
def _slips(kind: str) -> dict:
    data = json.loads((Path(__file__).parent / "corpus" / "slips.json").read_text())
    return {(name, int(line)): why for key, why in data[kind].items()
            for name, _, line in [key.partition(":")]}


#: the rows refuted, each a real slip of the document (confirmed below with mpmath); kept in
#: corpus/slips.json, which benchmarks/check_tex_corpus.py reads too
SLIPS = _slips("refuted")
#: slips of the documents that symdp reads but leaves undecided (confirmed below)
UNREFUTED_SLIPS = _slips("unrefuted")

OPTIONS = {"certify": False}


def outcome(row) -> str:
    """The outcome of a checked row, in the words of :data:`CORPUS`."""
    if row.row.skipped:
        return "skipped"
    if row.problem is None and not row.results and row.row.kind != "steps":
        return {"definition": "defined"}.get(row.row.kind, row.row.kind)
    if row.problem is not None and not row.results:
        return "not read"
    verdicts = [r.verdict for r in row.step_results]
    if Verdict.REFUTED in verdicts:
        return "refuted"
    if Verdict.UNDECIDED in verdicts:
        return "undecided"
    if all(r.holds_everywhere for r in row.step_results):
        return "holds"
    return "evidence"


def read(name):
    path = CORPUS_DIR / f"{name}.tex"
    return read_tex(path.read_text(), str(path), inputs=folder_inputs(path))


def test_the_corpus_is_twenty_documents_with_their_sources_and_licence():
    assert len(CORPUS) >= 20
    assert {p.stem for p in CORPUS_DIR.glob("*.tex")} == set(CORPUS)
    licence = (CORPUS_DIR / "LICENSE").read_text()
    assert "MIT License" in licence and "President and Fellows of Harvard College" in licence
    for name, (source, commit, _) in CORPUS.items():
        head = (CORPUS_DIR / f"{name}.tex").read_text()[:600]
        assert f"%   {source}\n%   at commit {commit}" in head, name
        assert re.fullmatch(r"[0-9a-f]{40}", commit)


def test_at_least_80_percent_of_the_display_lines_are_read():
    read_rows = total = 0
    for name, (_, _, lines) in CORPUS.items():
        document = read(name)
        assert sorted(r.line for r in document.rows) == sorted(lines), name
        got, rows = document.read_fraction()
        assert got == sum(1 for o in lines.values() if o not in ("not read", "skipped")), name
        read_rows, total = read_rows + got, total + rows
    assert total >= 170 and read_rows >= 0.8 * total


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_each_row_gets_its_outcome(name):
    check = check_document(read(name), **OPTIONS)
    assert {row.row.line: outcome(row) for row in check.rows} == CORPUS[name][2]


def test_no_false_alarm_and_no_false_statement_holds():
    refuted = {(name, line) for name, (_, _, lines) in CORPUS.items()
               for line, o in lines.items() if o == "refuted"}
    assert refuted == set(SLIPS)  # every refutation is a slip listed here
    for name, line in {**SLIPS, **UNREFUTED_SLIPS}:
        assert CORPUS[name][2][line] not in ("holds", "evidence"), (name, line)


# --------------------------------------------------------------------------- the slips, by mpmath

def _cdp_delta_lines(alpha, eps):
    """The four right sides of cdp_delta's chain for c, and c from f itself."""
    a = alpha / (alpha - 1)
    f = lambda z: mpmath.exp(z - alpha * z) - mpmath.exp(eps - alpha * z)  # noqa: E731
    c = f(eps - mpmath.log(1 - 1 / alpha))
    second = (a * mpmath.exp(eps)) ** (1 - alpha) - mpmath.exp(eps) * (a * mpmath.exp(eps)) ** -alpha
    third = (a * mpmath.exp(eps) - mpmath.exp(eps)) * (a * mpmath.exp(-eps)) ** alpha
    fourth = mpmath.exp(eps) / (alpha - 1) * (1 - 1 / alpha) ** alpha * mpmath.exp(-alpha * eps)
    return c, second, third, fourth


@pytest.mark.parametrize("alpha, eps", [("1.001", "0"), ("2", "0.5"), ("7", "3")])
def test_cdp_delta_third_line_is_a_slip_and_the_fourth_is_c(alpha, eps):
    with mpmath.workdps(50):
        c, second, third, fourth = _cdp_delta_lines(mpmath.mpf(alpha), mpmath.mpf(eps))
        assert abs(second - c) < mpmath.mpf(10) ** -40 * abs(c)   # line 54 holds
        assert abs(fourth - c) < mpmath.mpf(10) ** -40 * abs(c)   # line 56's value is c
        assert abs(third - c) > mpmath.mpf(10) ** -3 * abs(c)     # line 55 is not


def test_cdp_epsilon_second_derivative_has_the_wrong_sign():
    with mpmath.workdps(50):
        rho, delta = mpmath.mpf("0.3"), mpmath.mpf("0.5")

        def eps(alpha):
            return alpha * rho + (mpmath.log(1 / delta) + (alpha - 1) * mpmath.log((alpha - 1) / alpha)
                                  - mpmath.log(alpha)) / (alpha - 1)

        for alpha in (mpmath.mpf(2), mpmath.mpf("3.5")):
            true = mpmath.diff(eps, alpha, 2)
            printed = (2 * alpha * mpmath.log(alpha * delta) - alpha + 1) / ((alpha - 1) ** 3 * alpha)
            assert abs(true + printed) < mpmath.mpf(10) ** -30  # the same size, the other sign
            assert abs(true - printed) > mpmath.mpf(10) ** -2


def test_randomized_response_maximum_is_a_slip():
    t, p = 3, Fraction(2, 5)  # t >= 2, 1/t <= p < 1
    printed = max(p * (t - 1) / (1 - p), (1 - p) * (t - 1) / p, Fraction(1))
    correct = max(p * (t - 1) / (1 - p), (1 - p) / ((t - 1) * p), Fraction(1))
    assert printed == 3 and correct == Fraction(4, 3) == p * (t - 1) / (1 - p)


def test_the_unrefuted_slips_are_slips():
    # rappor 52: m = 1, k = 2, f = 1/2, y = (1, 0): the ratio of line 45 against the printed one
    f = Fraction(1, 2)
    h, g = f / 2, 1 - f / 2
    ratio = (h ** 0 * g ** 1 * h ** 0 * g ** 1) / (h ** 1 * g ** 0 * h ** 1 * g ** 0)
    printed = h ** (2 * 0) * g ** (2 * 1) * h ** (2 * 0) * g ** (2 * 1)
    assert ratio == 9 and printed == Fraction(81, 256)
    # rappor 90: N = (Y - n f/2)/(1 - f) with Y ~ Binomial(3, 1/4): Var N = Var Y / (1-f)^2
    n, q = 3, Fraction(1, 4)
    from math import comb
    law = {y: comb(n, y) * q ** y * (1 - q) ** (n - y) for y in range(n + 1)}
    mean = lambda g_: sum(w * g_(y) for y, w in law.items())  # noqa: E731
    var = lambda g_: mean(lambda y: g_(y) ** 2) - mean(g_) ** 2  # noqa: E731
    N = lambda y: (y - n * f / 2) / (1 - f)  # noqa: E731
    assert var(N) == var(lambda y: y) / (1 - f) ** 2 != var(lambda y: y) / (1 - f)
    # laplace_noise_map 19: the printed normalising constant is negative at s = 1
    assert (mpmath.exp(-1) - 1) / (mpmath.exp(-1) + 1) < 0
    # proportion_ci_mean 23: c = n = (1, 1), v = (1, 0), w = (0, 1)
    c, nn, v, w = (1, 1), (1, 1), (1, 0), (0, 1)
    lhs = abs(sum(ci * vi / ni for ci, vi, ni in zip(c, v, nn)) -
              sum(ci * wi / ni for ci, wi, ni in zip(c, w, nn)))
    rhs = sum(ci / ni * abs(vi - wi) for ci, vi, wi, ni in zip(c, v, w, nn))
    assert (lhs, rhs) == (0, 2)
    # make_count 26: len(x) = 1, len(x') = 2, c = 5: |f(x) - f(x')| = 1 > |len(x') - len(x')|
    assert abs(min(1, 5) - min(2, 5)) == 1 > abs(2 - 2)
