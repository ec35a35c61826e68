r"""The kernel's closed forms: how a written side becomes the side a certificate speaks of.

A step is written with symdp's objects (``G_mu(alpha)``, ``f_p^*(y)``, ...); the stages work
on closed forms.  The kernel binds a certificate to the written statement (issue #27) with
three rules of its own, and nothing else:

* **definition** -- :data:`DEFINITIONS`, a short table of definitional unfoldings: a named
  family's trade-off formula *is* its definition (Dong, Roth, Su 2022, arXiv 1905.02383v3:
  Eq. 5, Def. 2.7, Sec. 2.3), and so are the mixture ``f_p`` (Def. 4.1), the pointwise
  minimum and a user's ``TradeOff(expr)``.  Applied to ``f(x)`` nodes (``TradeOffAt``)
  whatever the certificate says, with the condition ``0 <= x <= 1`` where f is defined;
* **conjugate** -- a closed form of :math:`f^*(y) = \sup_{0 \le x \le 1}(x y - f(x))` comes
  with a :class:`~symdp.proof.certificates.ConjugateEvidence` that :mod:`.conjugate` checks;
* **evaluation** -- SymPy's automatic evaluation (every node rebuilt, ``evaluate=True``, and
  SymPy's own ``Integral``/``Sum``/``Product``/``Limit``/``Derivative`` carried out by their
  ``doit``) under the assumptions the domain implies (:func:`assumption_symbols`).  It may
  rewrite by assumptions (SymPy's ``Abs(binomial(n - 5, 3))`` under ``n >= 8`` was
  ``-binomial(n - 5, 3)``, issue #27), so it is a *proposal*: the written side and the
  certificate's side are compared exactly at admissible points (:func:`disagreement`: every
  point of a small finite domain; else ends and interior rationals) and, where they differ
  in form, shown equal by the trusted equality, else refused.

A closed form that no rule checks (``rule="derived"``: symdp's ``doit`` of an object the
kernel has no rule for, e.g. Eq. 14's closed form of ``C_p(f)``) is not trusted: the kernel
seals at most a verdict *under the hypothesis* that it is right (:func:`bind`).

symdp's objects are recognised by their class's qualified name (the kernel imports none of
them: ``symdp.tradeoff`` is outside the trusted base).  Words, never a verdict: only the
package's ``accept`` seals.
"""

from __future__ import annotations

import itertools

import sympy as sp

from ...core.exact_cost import exact_is_cheap
from ...core.special import Phi, PhiInv
from ..certificates import Domain, Fact, Unfolding

TRADEOFF_AT = "symdp.tradeoff.base.TradeOffAt"
CONJUGATE_AT = "symdp.tradeoff.base.ConjugateAt"
INVERSE = "symdp.tradeoff.operators.Inverse"

#: the words that end the hypothesis of a closed form no kernel rule checks
UNCHECKED = "symdp's closed form, not checked by the kernel"

#: points at which a written side and a certificate's side are compared (counts, not seconds)
AGREEMENT_POINTS = 8
#: a finite domain with at most this many points is compared at every one of them
FINITE_AGREEMENT = 64


def qualified_name(obj) -> str:
    t = type(obj)
    return f"{t.__module__}.{t.__qualname__}"


def is_symdp_node(e) -> bool:
    """A node that is not SymPy's own -- one of symdp's objects or their evaluation nodes, an
    enumerated quantity, a user's subclass --, and not one of the special functions Phi,
    PhiInv of :mod:`symdp.core.special` (trusted definitions): the kernel runs none of its
    code."""
    module = type(e).__module__ or ""
    return not (module == "sympy" or module.startswith("sympy.")) and \
        not isinstance(e, (Phi, PhiInv))


# ------------------------------------------------------------------ the assumptions a domain implies

_ASSUMPTION_SYMBOLS: dict = {}


def assumption_symbols(hypotheses: dict) -> dict:
    """Map each symbol to a Dummy carrying only what its set implies: real; integer when the
    set holds integers only; nonnegative when inf >= 0, positive only when moreover 0 is not
    in the set; the mirror images for sup <= 0 (a closed end at 0 gives ``nonnegative``,
    never ``positive``; never ``integer=False``, which SymPy reads as non-zero).  The same
    hypotheses give the same Dummies (cached), for the stages and the kernel alike."""
    try:
        key = frozenset(hypotheses.items())
        return dict(_ASSUMPTION_SYMBOLS[key])
    except KeyError:
        pass
    except TypeError:  # an unhashable set: no caching
        return _assumption_symbols(hypotheses)
    mapping = _assumption_symbols(hypotheses)
    _ASSUMPTION_SYMBOLS[key] = mapping
    return dict(mapping)


def _integer_set(domain) -> bool:
    if isinstance(domain, sp.Range) or domain.is_subset(sp.S.Integers):
        return True
    return isinstance(domain, sp.FiniteSet) and all(e.is_integer for e in domain)


def _assumption_symbols(hypotheses: dict) -> dict:
    mapping = {}
    for symbol, domain in hypotheses.items():
        assumptions = {"real": True}
        lo, hi = domain.inf, domain.sup
        if _integer_set(domain):
            assumptions["integer"] = True
        if lo.is_finite and lo >= 0:
            assumptions["nonnegative"] = True
            if lo > 0 or (lo == 0 and 0 not in domain):
                assumptions["positive"] = True
        if hi.is_finite and hi <= 0:
            assumptions["nonpositive"] = True
            if hi < 0 or (hi == 0 and 0 not in domain):
                assumptions["negative"] = True
        mapping[symbol] = sp.Dummy(symbol.name, **assumptions)
    return mapping


# ------------------------------------------------------------------ definitions

def _gaussian(f, x):
    (mu,) = f.args
    return Phi(PhiInv(1 - x) - mu)


def _eps_delta(f, x):
    eps, delta = f.args
    return sp.Max(0, 1 - delta - sp.exp(eps) * x, sp.exp(-eps) * (1 - delta - x),
                  evaluate=False)


def _laplace(f, x):
    (mu,) = f.args
    e = sp.exp(-mu)
    return sp.Piecewise((1 - sp.exp(mu) * x, sp.Le(x, e / 2)), (e / (4 * x), sp.Le(x, sp.S.Half)),
                        (e * (1 - x), True))


def _mixture(f, x, at):
    base, p = f.args
    return p * at(base, x) + (1 - p) * (1 - x)


def _pointwise_min(f, x, at):
    return sp.Min(at(f.args[0], x), at(f.args[1], x), evaluate=False)


def _user(f, x):
    return f.args[0](x)


#: class -> (the definition of f(x), its citation).  A builder taking ``at`` builds the
#: evaluation node of an operand (``TradeOffAt(g, x)``), unfolded in turn.
DEFINITIONS = {
    "symdp.tradeoff.families.Gaussian": (
        _gaussian, "G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu) (Dong, Roth, Su 2022, Def. 2.7)"),
    "symdp.tradeoff.families.EpsDelta": (
        _eps_delta, "f_eps,delta(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - "
                    "alpha)} (Dong, Roth, Su 2022, Eq. 5)"),
    "symdp.tradeoff.families.Laplace": (
        _laplace, "T(Lap(0, 1), Lap(mu, 1)), its three pieces (Dong, Roth, Su 2022, Sec. 2.3)"),
    "symdp.tradeoff.families.Identity": (
        lambda f, x: 1 - x, "Id(alpha) = 1 - alpha (Dong, Roth, Su 2022, Sec. 2.1)"),
    "symdp.tradeoff.families.Zero": (
        lambda f, x: sp.S.Zero, "the zero trade-off function (Dong, Roth, Su 2022, Sec. 2.1)"),
    "symdp.tradeoff.operators.Mixture": (
        _mixture, "f_p = p f + (1 - p) Id (Dong, Roth, Su 2022, Def. 4.1)"),
    "symdp.tradeoff.operators.PointwiseMin": (
        _pointwise_min, "min{f, g}, pointwise"),
    "symdp.tradeoff.custom.UserTradeOff": (
        _user, "the user's formula TradeOff(expr)"),
}


def definition(node):
    """``(closed form, citation, conditions)`` of ``node`` by :data:`DEFINITIONS`, or None.
    ``conditions``: the facts under which the node is defined (its point in [0, 1])."""
    if qualified_name(node) != TRADEOFF_AT:
        return None
    f, x = node.args
    entry = DEFINITIONS.get(qualified_name(f))
    if entry is None:
        return None
    build, citation = entry
    at = (lambda g, t: node.func(g, t))   # the evaluation node of an operand
    try:
        value = build(f, x, at) if build in (_mixture, _pointwise_min) else build(f, x)
    except (TypeError, ValueError):
        return None
    conditions = () if x.is_number else (Fact(x, "nonnegative", "definedness: f(x) needs "
                                              "0 <= x <= 1"),
                                         Fact(1 - x, "nonnegative", "definedness: f(x) needs "
                                              "0 <= x <= 1"))
    return value, citation, conditions


def function_definition(f, x):
    """The kernel's definition of the trade-off function ``f`` at ``x`` (None: no entry),
    every operand unfolded too."""
    entry = DEFINITIONS.get(qualified_name(f))
    if entry is None:
        return None
    build, _ = entry
    if build in (_mixture, _pointwise_min):
        def at(g, t):
            value = function_definition(g, t)
            if value is None:
                raise ValueError("an operand without a definition")
            return value
        try:
            return build(f, x, at)
        except ValueError:
            return None
    return build(f, x)


# ------------------------------------------------------------------ unfolding a written side

class Refusal(Exception):
    """A written side the kernel cannot bind to the certificate's (the reason)."""


def _rebuild(e, args):
    """``e`` with new ``args``, unevaluated where SymPy allows it (the written tree kept)."""
    try:
        return e.func(*args, evaluate=False)
    except TypeError:
        return e.func(*args)


def unfold(expr, unfoldings, domain: Domain):
    """``(expr', hypotheses, conditions)``: ``expr`` with every symdp node replaced by its
    closed form -- by a kernel definition, or a proposed unfolding whose rule the kernel
    checks (:mod:`.conjugate`), or, for a ``"derived"`` closed form no rule checks, a
    hypothesis (its text) -- and the definedness facts the definitions add.  A symdp node with
    neither stays (opaque: the certificate's side must then hold the same node).  Raises
    :class:`Refusal` for an unfolding whose rule is not the kernel's or whose evidence fails."""
    proposed = {u.node: u for u in unfoldings}
    hypotheses, conditions = [], []

    def walk(e):
        if not isinstance(e, sp.Basic) or not e.args:
            return e
        if is_symdp_node(e):
            known = definition(e)
            if known is not None:
                value, _, needs = known
                conditions.extend(needs)
                return walk(value)
            u = proposed.get(e)
            if u is None:
                return e
            return walk(_proposed(u, domain, hypotheses))
        args = tuple(walk(a) for a in e.args)
        return e if args == e.args else _rebuild(e, args)

    return walk(expr), tuple(dict.fromkeys(hypotheses)), tuple(dict.fromkeys(conditions))


def _proposed(u: Unfolding, domain: Domain, hypotheses: list):
    if not isinstance(u, Unfolding):
        raise Refusal(f"an unfolding that is not an Unfolding: {type(u).__name__}")
    if u.rule == "conjugate":
        from .conjugate import checked_conjugate   # after this module: it reads definitions

        value, why = checked_conjugate(u.node, u.evidence, domain)
        if why:
            raise Refusal(f"the conjugate {sp.sstr(u.node)}: {why}")
        return value
    if u.rule == "inverse":
        from .conjugate import checked_inverse

        value, why = checked_inverse(u.node, u.evidence, domain)
        if why:
            raise Refusal(f"the inverse {sp.sstr(u.node)}: {why}")
        return value
    if u.rule == "derived":
        hypotheses.append(f"{sp.sstr(u.node)} = {_short(u.closed_form)} ({UNCHECKED})")
        return u.closed_form
    raise Refusal(f"the unfolding of {sp.sstr(u.node)} by the rule {u.rule!r}, which is not a "
                  "kernel rule for that node")


def _short(e, width: int = 80) -> str:
    text = sp.sstr(e)
    return text if len(text) <= width else text[:width - 3] + "..."


# ------------------------------------------------------------------ automatic evaluation

_OPERATIONS = (sp.Integral, sp.Sum, sp.Product, sp.Limit, sp.Derivative, sp.Subs)


def evaluated(expr, domain: Domain):
    """SymPy's automatic evaluation of ``expr`` under the assumptions ``domain`` implies:
    every node rebuilt bottom-up (``evaluate=True``), SymPy's own operations carried out by
    ``doit``; symdp's nodes are left as they are (the kernel runs none of their code)."""
    sets = {s: d for s, d in domain.hypotheses if s in expr.free_symbols}
    mapping = assumption_symbols(sets)
    back = {v: k for k, v in mapping.items()}
    return _evaluate(expr.xreplace(mapping)).xreplace(back)


def _evaluate(e):
    if not isinstance(e, sp.Basic) or not e.args or is_symdp_node(e):
        return e
    args = [_evaluate(a) for a in e.args]
    try:
        node = e.func(*args)
    except Exception:  # noqa: BLE001 - a node SymPy cannot rebuild stays as written
        return e
    if isinstance(node, _OPERATIONS):
        try:
            node = node.doit(deep=False)
        except Exception:  # noqa: BLE001 - not carried out: stays unevaluated
            pass
    return node


# ------------------------------------------------------------------ the comparison at points

def admissible_points(domain: Domain, symbols) -> list:
    """Points of ``domain`` (in ``symbols`` and those the conditions tie to them) at which two
    forms of a side are compared: every point of a finite domain of at most
    :data:`FINITE_AGREEMENT` points, else up to :data:`AGREEMENT_POINTS` built from each
    set's ends and interior rationals -- deterministic, exact."""
    dom = domain.restricted_to(symbols)
    sets = dom.sets
    names = sorted(sets, key=sp.default_sort_key)
    if not names:
        return [{}]
    finite = all(isinstance(sets[s], sp.FiniteSet) or
                 (isinstance(sets[s], sp.Range) and sets[s].size.is_finite) for s in names)
    values = [list(sets[s]) if finite else _candidates(sets[s]) for s in names]
    size = 1
    for v in values:
        size *= len(v)
    if finite and size <= FINITE_AGREEMENT:
        combos = itertools.product(*values)
    else:
        # the diagonals of the candidates: point i takes each set's i-th candidate (cyclically)
        combos = (tuple(v[(i + j) % len(v)] for j, v in enumerate(values))
                  for i in range(max(len(v) for v in values) * 2))
    points = []
    for combo in combos:
        point = dict(zip(names, combo))
        try:
            if all(c.xreplace(point) is sp.true for c in dom.conditions):
                points.append(point)
        except TypeError:
            continue
        if len(points) >= (FINITE_AGREEMENT if finite else AGREEMENT_POINTS):
            break
    return points


def _candidates(s) -> list:
    """A few exact values of a set: its ends when they belong to it, and rationals inside."""
    lo, hi = s.inf, s.sup
    out = []
    for v in (lo, hi):
        if v.is_finite and v.is_Rational and s.contains(v) is sp.true:
            out.append(v)
    if lo.is_finite and hi.is_finite:
        width = hi - lo
        inside = [lo + width * sp.Rational(k, 7) for k in (3, 1, 5)]
    elif lo.is_finite:
        inside = [lo + d for d in (sp.Rational(1, 3), 1, 7, 40)]
    elif hi.is_finite:
        inside = [hi - d for d in (sp.Rational(1, 3), 1, 7, 40)]
    else:
        inside = [sp.Rational(1, 3), sp.Integer(-2), sp.Integer(5)]
    integer = _integer_set(s)
    for v in inside:
        v = sp.floor(v) if integer else v if v.is_Rational else sp.Rational(str(sp.N(v, 12)))
        if v.is_Rational and s.contains(v) is sp.true and v not in out:
            out.append(v)
    return out or [v for v in (lo, hi) if v.is_finite and s.contains(v) is sp.true]


def _value_at(e, point):
    """``e`` at ``point`` by exact arithmetic on numbers: a Rational, a real number expression,
    or None (undefined, complex, holding an operation the kernel does not carry out, or too
    large to compute exactly: :func:`~symdp.core.exact_cost.exact_is_cheap`)."""
    if not exact_is_cheap(e, point):
        return None
    try:
        v = e.xreplace(point)
    except Exception:  # noqa: BLE001 - not evaluable there (a derivative in a point's symbol)
        return None
    if v.free_symbols or v.has(*_OPERATIONS) or any(is_symdp_node(n) for n in
                                                    sp.preorder_traversal(v)):
        return None
    if v.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or v.is_real is False:
        return None
    return v


def disagreement(written, proposed, domain: Domain) -> str:
    """A point of ``domain`` where ``written`` and ``proposed`` certainly differ, in words
    ("" when none is found): :func:`violated_at` of the equality."""
    return violated_at(written, "=", proposed, domain, ("as written", "as evaluated"))


_HOLDS = {"=": lambda d: d == 0, "<=": lambda d: d <= 0, "<": lambda d: d < 0,
          ">=": lambda d: d >= 0, ">": lambda d: d > 0}


def violated_at(lhs, relation: str, rhs, domain: Domain, names=("lhs", "rhs")) -> str:
    """A point of ``domain`` (:func:`admissible_points`) where ``lhs REL rhs`` certainly fails,
    in words ("" when none is found): both sides evaluated there exactly (rationals
    compared), else as Arb balls at 128 bits whose difference has the failing sign.  A
    second look at a relation a rewriting under assumptions decided (it catches a wrong
    sign from SymPy's assumptions, issue #27); never a proof."""
    from ...numeric.ball_compiler import evaluate_ball

    symbols = lhs.free_symbols | rhs.free_symbols
    for point in admissible_points(domain, symbols):
        a, b = _value_at(lhs, point), _value_at(rhs, point)
        if a is None or b is None:
            continue
        where = ", ".join(f"{s} = {v}" for s, v in point.items()) or "every point"
        if a.is_Rational and b.is_Rational:
            if not _HOLDS[relation](a - b):
                return f"at {where}: {sp.sstr(a)} {names[0]}, {sp.sstr(b)} {names[1]}"
            continue
        try:
            d = evaluate_ball(a - b, {}, bits=128)
        except Exception:  # noqa: BLE001 - no ball: the point does not decide
            continue
        if d is None or not d.is_finite():
            continue
        fails = {"=": not d.contains(0), "<=": d > 0, "<": d >= 0, ">=": d < 0,
                 ">": d <= 0}[relation]
        if fails:
            return f"at {where}: {names[0]} - {names[1]} is in {d}"
    return ""


# ------------------------------------------------------------------ binding a certificate

#: which claim relation a certificate's relation proves (an equality proves both
#: inequalities, a strict inequality the non-strict one)
PROVES = {"=": ("=", "<=", ">="), "<": ("<", "<="), ">": (">", ">="), "<=": ("<=",),
          ">=": (">=",)}


def bind_side(written, side, unfoldings, domain: Domain):
    """``(why, unfolded, hypotheses, conditions)``: ``why`` is "" when the certificate's
    ``side`` is the ``written`` side, or is shown equal to it by the kernel's rules;
    ``unfolded`` is the written side with the kernel's definitions (and the closed forms
    used) in place, whose definedness the kernel checks; then the hypotheses of the derived
    closed forms used and the definedness facts of the definitions used."""
    from .deciders import simplifies_to

    if written == side:
        try:
            unfolded, _, conditions = unfold(written, (), domain)
        except Refusal:
            unfolded, conditions = written, ()
        return "", unfolded, (), conditions
    try:
        unfolded, hypotheses, conditions = unfold(written, unfoldings, domain)
    except Refusal as exc:
        return str(exc), written, (), ()
    if unfolded != side:
        proposal = evaluated(unfolded, domain)
        if proposal != side and not _equal(proposal, side, domain, simplifies_to):
            return (f"the certificate's side {_short(side)} is not the written side "
                    f"{_short(written)} (nor shown equal to it)"), unfolded, (), ()
        why = disagreement(unfolded, side, domain)
        if why:
            return (f"the written side {_short(written)} and the evaluated side "
                    f"{_short(side)} differ {why}"), unfolded, (), ()
    return "", unfolded, hypotheses, conditions


def _equal(a, b, domain: Domain, simplifies_to) -> bool:
    """The trusted equality, under the assumptions the domain implies."""
    sets = {s: d for s, d in domain.hypotheses if s in a.free_symbols | b.free_symbols}
    mapping = assumption_symbols(sets)
    A, B = a.xreplace(mapping), b.xreplace(mapping)
    methods = ["simplify"] + (["Phi identities + simplify"] if A.has(Phi, PhiInv) or
                              B.has(Phi, PhiInv) else [])
    return any(simplifies_to(A, B, m) for m in methods)


def residual_nodes(expr) -> list:
    """The symdp nodes of ``expr`` that the kernel's definitions do not unfold (outermost
    first; each once): the nodes a proposer must give an :class:`Unfolding` for."""
    found = []

    def walk(e):
        if not isinstance(e, sp.Basic) or not e.args:
            return
        if is_symdp_node(e):
            known = definition(e)
            if known is not None:
                walk(known[0])
            elif e not in found:
                found.append(e)
            return
        for a in e.args:
            walk(a)

    walk(expr)
    return found
