"""One description of each mechanism, read by every analysis (issue #23).

Two ways this can fail:

* **the source**: each mechanism formula (a pattern that finds the formula as the code writes
  it, whatever the variable names) occurs in the mechanism's own module of ``symdp.events``
  and in no other module of symdp -- the patterns are shown to find the copies main had
  before this change (``OLD_COPIES``), so the scan is alive; the views' constructors call no
  parameter check of their own (validation is the event's or the mechanism module's);
* **the numbers**: for every mechanism kind the three views an analysis reads -- the
  accountant's pair (``pair_of``), the privacy-loss law (``privacy_loss_of``) and the
  trade-off object (``tradeoff_of``) -- agree with each other and with the pair computed here
  from the definition (quadrature of the densities, enumeration of the outcomes), at 50 and at
  60 digits: the trade-off function at :math:`\\alpha = Q(L \\ge y)` is :math:`1 - P(L \\ge y)`
  (Neyman--Pearson), the profile is :math:`\\int (p - e^\\varepsilon q)_+`.
"""

from __future__ import annotations

import ast
import inspect
import io
import re
import textwrap
import tokenize
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import sympy as sp
from flint import arb

from symdp.accountant import pairs
from symdp.accountant.events import pair_of
from symdp.composition import privacy_loss
from symdp.composition.events import privacy_loss_of, tradeoff_of
from symdp.core.errors import InvalidParameterError
from symdp.events import EpsDelta, Gaussian, Laplace, RandomizedResponse
from symdp.tradeoff import families
from symdp.tradeoff.highprec import evaluate_many

ROOT = Path(__file__).resolve().parents[2]

# ----------------------------------------------------------------------------- the source

#: formula -> (pattern on the code with all whitespace removed, the one module allowed to write it)
FORMULAS = {
    "G_mu = Phi(Phi^-1(1 - alpha) - mu)": (r"(?i)phi_?inv\(1-[\w.]+\)-", "symdp/events/gaussian.py"),
    "Gaussian tails Phi-bar(y/mu -+ mu/2)": (r"[\w.]+/(m|mu|self\.mu)[-+](m|mu|self\.mu)/2", "symdp/events/gaussian.py"),
    "Laplace tail / profile e^{(y - mu)/2}": (r"exp\(\([\w.]+-(m|mu|self\.mu)\)/2\)", "symdp/events/laplace.py"),
    "Laplace trade-off e^{-mu}/(4 alpha)": (r"/\(4\*[\w.]+\)", "symdp/events/laplace.py"),
    "Laplace Q-tail e^{-(y + mu)/2}, threshold (y b + 1)/2": (r"exp\(-\([\w.]+\+(m|mu|self\.mu)\)/2\)|\([\w.]+\*b\+1\)/2",
                                                               "symdp/events/laplace.py"),
    "f_eps,delta line 1 - delta - e^eps alpha": (r"1-(d|delta|self\.delta)-(\w+\.)?exp\(", "symdp/events/eps_delta.py"),
    "KOV masses e^eps / (1 + e^eps)": (r"(E|\w+\.exp\(\)|(sp\.|mpmath\.)?exp\([\w.]+\))\*?/\(1\+(E|\w+\.exp\(\)|"
                                       r"(sp\.|mpmath\.)?exp\([\w.]+\))\)", "symdp/events/eps_delta.py"),
    "randomized response keep = 1 - rho + rho/k": (r"1-(rho|self\.rho|self\.noise_parameter)\+", "symdp/events/randomized_response.py"),
}

#: modules that may write a formula again, and why (an independent route is the point of them)
EXEMPT = {
    "symdp/accountant/reference.py": "an independent reference the accountant's tests compare with",
    "symdp/composition/eps_delta.py": "KOV 2015 Thm. 3.3: the closed form of the k-fold composition "
                                      "f_eps,delta^(x)k, a theorem checked against the product of the atoms",
    "symdp/events/randomized_response.py": "one bit at eps0: its masses are the KOV masses at delta = 0",
}
#: proofs and bagging are other helpers' areas (their formulas are derivations, not views)
OUT_OF_SCOPE = ("symdp/proof/", "symdp/bagging/")

#: lines main wrote before issue #23 was done: the patterns must find each (so they can fail)
OLD_COPIES = {
    "G_mu = Phi(Phi^-1(1 - alpha) - mu)": ["return [piece(0, 1, Phi(PhiInv(1 - _t) - self.mu), _t)]",
                                           "g = mp_phi(_phi_inv(1 - x) - to_mpf(self.mu))"],
    "Gaussian tails Phi-bar(y/mu -+ mu/2)": ["return phi_bar(y / m - m / 2), phi_bar(y / m + m / 2)",
                                             "value = mp_phi(-e / m + m / 2) - mpmath.exp(e) * mp_phi(-e / m - m / 2)"],
    "Laplace tail / profile e^{(y - mu)/2}": ["return 1 - mpmath.exp((e - m) / 2)"],
    "Laplace trade-off e^{-mu}/(4 alpha)": ["piece(sp.exp(-m) / 2, sp.S.Half, sp.exp(-m) / (4 * _t), _t),"],
    "Laplace Q-tail e^{-(y + mu)/2}, threshold (y b + 1)/2": ["x = (y * b + 1) / 2"],
    "f_eps,delta line 1 - delta - e^eps alpha": ["return sp.Max(0, 1 - d - sp.exp(e) * x, sp.exp(-e) * (1 - d - x))"],
    "KOV masses e^eps / (1 + e^eps)": ["r = e.exp() / (1 + e.exp())",
                                       "atoms = [(sp.oo, delta), (eps, (1 - delta) * E / (1 + E))]"],
    "randomized response keep = 1 - rho + rho/k": ["return 1 - rho + other, other, rho * (self.k - 2) / self.k"],
}


def code_lines(text: str):
    """(line number, code without strings, comments or whitespace) of Python source."""
    lines: dict = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.STRING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE,
                        tokenize.INDENT, tokenize.DEDENT) or tok.type == getattr(tokenize, "FSTRING_START", -1):
            continue
        lines.setdefault(tok.start[0], []).append(tok.string)
    return [(n, "".join(parts)) for n, parts in sorted(lines.items())]


def writers(pattern: str) -> dict:
    """module -> [line numbers] where the code matches ``pattern``."""
    found: dict = {}
    for path in sorted((ROOT / "symdp").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(OUT_OF_SCOPE):
            continue
        for n, code in code_lines(path.read_text()):
            if re.search(pattern, code):
                found.setdefault(rel, []).append(n)
    return found


@pytest.mark.parametrize("formula", sorted(FORMULAS))
def test_each_formula_is_written_in_its_mechanism_module_only(formula):
    pattern, owner = FORMULAS[formula]
    found = writers(pattern)
    assert owner in found, f"{formula}: the pattern no longer finds the formula in {owner}"
    others = {m: lines for m, lines in found.items() if m != owner and m not in EXEMPT}
    assert not others, f"{formula} is written again outside {owner}: {others}"


@pytest.mark.parametrize("formula", sorted(FORMULAS))
def test_the_scan_finds_the_copies_main_had(formula):
    pattern, _ = FORMULAS[formula]
    for line in OLD_COPIES[formula]:
        assert any(re.search(pattern, code) for _, code in code_lines(line + "\n")), line


def test_the_duplicate_randomized_response_class_is_gone():
    names = set()
    for path in (ROOT / "symdp").rglob("*.py"):
        tree = ast.parse(path.read_text())
        names |= {node.name for node in ast.walk(tree) if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    assert "KaryRandomizedResponse" not in names and "randomized_response_tails" not in names
    assert pairs.RandomizedResponse("0.5").event == RandomizedResponse.binary("0.5")
    assert pairs.RandomizedResponse.kary("1/3", 3).event == RandomizedResponse("1/3", 3)


#: parameter checks of symdp.core.validation / symdp.events / symdp.accountant.pairs
CHECKS = {"rational", "exact", "real", "nonnegative", "probability", "parameter", "to_exact"}

VIEWS = [pairs.Gaussian, pairs.Laplace, pairs.EpsDelta, pairs.RandomizedResponse, pairs.PoissonGaussian,
         pairs.UniformGaussian, pairs.Subsampled, privacy_loss.GaussianLoss, privacy_loss.LaplaceLoss,
         families.Gaussian, families.Laplace, families.EpsDelta]


@pytest.mark.parametrize("view", VIEWS, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_the_views_do_not_check_parameters_themselves(view):
    called = set()
    for cls in view.__mro__:
        for name in ("__init__", "__new__", "__post_init__"):
            fn = cls.__dict__.get(name)
            if fn is None or not hasattr(fn, "__code__") or cls.__module__.startswith("symdp.tradeoff.base"):
                continue
            try:
                source = textwrap.dedent(inspect.getsource(fn))
            except (OSError, TypeError):        # generated by dataclass: no source, no check
                continue
            tree = ast.parse(source)
            called |= {n.func.id if isinstance(n.func, ast.Name) else n.func.attr
                       for n in ast.walk(tree) if isinstance(n, ast.Call)
                       and isinstance(n.func, (ast.Name, ast.Attribute))}
    assert not called & CHECKS, f"{view.__name__} validates {sorted(called & CHECKS)} itself"


def _message(make):
    with pytest.raises(InvalidParameterError) as info:
        make()
    return str(info.value)


def test_the_views_give_the_events_messages():
    assert _message(lambda: pairs.Gaussian(-1)) == _message(lambda: Gaussian.from_mu(-1))
    assert "mu" in _message(lambda: pairs.Gaussian(0))
    assert _message(lambda: pairs.Laplace("-2")) == _message(lambda: Laplace("-2"))
    assert _message(lambda: pairs.PoissonGaussian(0, "0.1")) == _message(lambda: Gaussian(0))
    assert _message(lambda: families.Gaussian(-1)) == _message(lambda: privacy_loss.GaussianLoss(-1))
    assert _message(lambda: families.EpsDelta(1, 2)) == _message(lambda: privacy_loss.LossAtoms.from_eps_delta(1, 2))
    assert "eps0" in _message(lambda: pairs.RandomizedResponse(-1))
    assert "delta0" in _message(lambda: pairs.EpsDelta(1, "1.5"))


# ----------------------------------------------------------------------------- the numbers

def mp(x) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def defined_tails(event, y):
    """(P(L >= y), Q(L >= y)) from the definition of the mechanism, computed here."""
    if isinstance(event, Gaussian):
        # P = N(1, s^2), Q = N(0, s^2); L(x) = (2x - 1)/(2 s^2) >= y  iff  x >= s^2 y + 1/2
        s = mp(event.sigma)
        x = s * s * y + mpmath.mpf(1) / 2
        dens = lambda c: (lambda t: mpmath.exp(-(t - c) ** 2 / (2 * s * s)) / (s * mpmath.sqrt(2 * mpmath.pi)))  # noqa: E731
        return (mpmath.quad(dens(1), [x, x + 10 * s, mpmath.inf]), mpmath.quad(dens(0), [x, x + 10 * s, mpmath.inf]))
    if isinstance(event, Laplace):
        # P = Lap(1, b), Q = Lap(0, b); L(x) = (|x| - |x - 1|)/b, in [-1/b, 1/b]
        b = mp(event.b)
        if y <= -1 / b:
            return mpmath.mpf(1), mpmath.mpf(1)
        if y > 1 / b:
            return mpmath.mpf(0), mpmath.mpf(0)
        x = (y * b + 1) / 2                       # L(x) = (2x - 1)/b on [0, 1]
        dens = lambda c: (lambda t: mpmath.exp(-abs(t - c) / b) / (2 * b))  # noqa: E731
        return tuple(mpmath.quad(dens(c), [x, 1, mpmath.inf]) for c in (1, 0))
    # finite pairs: the outcomes' masses (P, Q), summed where log(P/Q) >= y
    if isinstance(event, EpsDelta):
        E, d = mpmath.exp(mp(event.eps)), mp(event.delta)
        P = [d, (1 - d) * E / (1 + E), (1 - d) / (1 + E), mpmath.mpf(0)]
        Q = P[::-1]
    elif event.eps0 is not None:
        E = mpmath.exp(mp(event.eps0))
        P, Q = [E / (1 + E), 1 / (1 + E)], [1 / (1 + E), E / (1 + E)]
    else:
        rho, k = mp(event.noise_parameter), event.num_buckets
        keep, other = 1 - rho + rho / k, rho / k
        P, Q = [keep, other] + [other] * (k - 2), [other, keep] + [other] * (k - 2)
    loss = [mpmath.inf if q == 0 else -mpmath.inf if p == 0 else mpmath.log(p / q) for p, q in zip(P, Q)]
    y = y - mpmath.mpf(10) ** (-mpmath.mp.dps + 5)     # a loss computed as y less a few ulps is y
    return (mpmath.fsum(p for p, l in zip(P, loss) if l >= y), mpmath.fsum(q for q, l in zip(Q, loss) if l >= y))


def event_buckets(event):
    return event.num_buckets if isinstance(event, RandomizedResponse) else -1


def defined_profile(event, eps):
    """sup_S P(S) - e^eps Q(S) = integral of (p - e^eps q)_+, from the definition."""
    t = mpmath.exp(eps)
    if isinstance(event, Gaussian):
        s = mp(event.sigma)
        dens = lambda c, x: mpmath.exp(-(x - c) ** 2 / (2 * s * s)) / (s * mpmath.sqrt(2 * mpmath.pi))  # noqa: E731
        cross = s * s * eps + mpmath.mpf(1) / 2       # where p = e^eps q
        return mpmath.quad(lambda x: max(dens(1, x) - t * dens(0, x), 0), [-mpmath.inf, cross, cross + 10 * s, mpmath.inf])
    if isinstance(event, Laplace):
        b = mp(event.b)
        f = lambda x: max(mpmath.exp(-abs(x - 1) / b) - t * mpmath.exp(-abs(x) / b), 0) / (2 * b)  # noqa: E731
        cross = (eps * b + 1) / 2                 # where p = e^eps q, when in (0, 1)
        return mpmath.quad(f, [-mpmath.inf, 0] + ([cross] if 0 < cross < 1 else []) + [1, mpmath.inf])
    a, b = defined_tails(event, eps)
    return a - t * b


MECHANISMS = [Gaussian("0.7"), Gaussian(2), Laplace("1.5"), Laplace("2/5"), EpsDelta("0.5", "1e-3"),
              EpsDelta(1, 0), RandomizedResponse("1/3"), RandomizedResponse.binary("0.5"),
              RandomizedResponse("2/5", 3)]


def sample_losses(event):
    if isinstance(event, Gaussian):
        return ["-1.3", "0.2", "2.1"]
    if isinstance(event, Laplace):
        m = 1 / event.b
        return [str(-2 * m), str(-m / 3), str(m / 2), str(m), str(2 * m)]
    e = event.eps if isinstance(event, EpsDelta) else (event.eps0 if event.eps0 is not None else None)
    return ["-3", "-1/5", "0", "1/7", "3"] + ([str(e), str(-e)] if e is not None else [])


def atoms_of(event):
    """The finite loss atoms of the event's pair (as the decimal strings sample_losses uses)."""
    if isinstance(event, Laplace):
        return {str(1 / event.b), str(-1 / event.b)}
    if isinstance(event, EpsDelta):
        return {str(event.eps), str(-event.eps)}
    if isinstance(event, RandomizedResponse):
        return {"0"} | ({str(event.eps0), str(-event.eps0)} if event.eps0 is not None else set())
    return set()


def _close(a, b, dps):
    return abs(a - b) <= mpmath.mpf(10) ** (-dps + 6)


@pytest.mark.parametrize("dps", [50, 60])
@pytest.mark.parametrize("event", MECHANISMS, ids=repr)
def test_the_pair_of_the_event_is_the_mechanisms(event, dps):
    pair, = pair_of(event)
    for y in sample_losses(event):
        with mpmath.workdps(dps):
            want = defined_tails(event, mp(y))
        try:
            got = pair.tails(arb(y))                # Arb balls at python-flint's precision
        except ArithmeticError:
            # a ball on a loss atom cannot be told apart from it (the grid never asks there)
            assert y in atoms_of(event), y
            continue
        for ball, value in zip(got, want):
            assert abs(mpmath.mpf(float(ball.mid())) - value) <= float(ball.rad()) + 1e-15, (y, got, want)


@pytest.mark.parametrize("dps", [50, 60])
@pytest.mark.parametrize("event", [e for e in MECHANISMS if event_buckets(e) in (-1, 2)], ids=repr)
def test_the_tradeoff_of_the_event_is_neyman_pearson_on_its_pair(event, dps):
    # T(Q, P)(Q(L >= y)) = 1 - P(L >= y): the Neyman-Pearson test rejects on {L >= y}; between two
    # vertices of a finite pair the curve is the segment (randomised test)
    f = tradeoff_of(event)
    with mpmath.workdps(dps + 10):
        points = [defined_tails(event, mp(y)) for y in sample_losses(event)]
        if not isinstance(event, (Gaussian, Laplace)):
            points = sorted(points, key=lambda ab: ab[1])
            points += [((a1 + a2) / 2, (b1 + b2) / 2) for (a1, b1), (a2, b2) in zip(points, points[1:])]
    alphas = [b for _, b in points]
    values = evaluate_many(f, alphas, dps=dps)
    with mpmath.workdps(dps):
        for (a, b), v in zip(points, values):
            assert _close(mpmath.mpf(v), 1 - a, dps), (event, b, v, 1 - a)


@pytest.mark.parametrize("dps", [50, 60])
@pytest.mark.parametrize("event", [e for e in MECHANISMS if event_buckets(e) in (-1, 2)], ids=repr)
def test_the_loss_law_of_the_event_gives_the_profile_of_its_pair(event, dps):
    law = privacy_loss_of(event)
    for eps in ("-0.4", "0", "0.3", "1.2"):
        with mpmath.workdps(dps):
            want = defined_profile(event, mp(eps))
            got = law.profile(sp.Rational(eps)) if isinstance(law, privacy_loss.LossAtoms) else law.profile(mp(eps))
            assert _close(got, want, dps), (event, eps, got, want)


def test_the_kary_loss_atoms_are_the_pairs():
    # k = 3 has no trade-off object yet; its atoms (read by the accountant) against enumeration
    event = RandomizedResponse("2/5", 3)
    with mpmath.workdps(50):
        from symdp.events.backends import MPMATH
        from symdp.events.losses import atom_tails
        for y in sample_losses(event):
            got = atom_tails(MPMATH, event.atoms(MPMATH), mp(y))
            want = defined_tails(event, mp(y))
            assert all(_close(g, w, 50) for g, w in zip(got, want)), (y, got, want)


def test_the_one_bit_form_is_an_event_of_its_own_kind():
    from symdp.events import from_json, to_json
    e = RandomizedResponse.binary("0.5")
    assert e.noise_parameter is None and e.eps0 == Fraction(1, 2)
    assert to_json(e) == {"kind": "randomized_response", "num_buckets": 2, "eps0": "0.5"}
    assert from_json(to_json(e)) == e
    with pytest.raises(InvalidParameterError, match="exactly one of noise_parameter"):
        from_json({"kind": "randomized_response"})
    with pytest.raises(InvalidParameterError, match="num_buckets must be 2"):
        RandomizedResponse(None, 3, "0.5")
    with pytest.raises(InvalidParameterError, match="irrational"):
        RandomizedResponse.binary("0.5").keep
