"""Certificates: what an untrusted stage of the check cascade says it did, and over what set.

The stages (:mod:`symdp.proof.cascade`, :mod:`symdp.proof.cascade.certified`) are *proposers*: a
stage that believes a step holds returns one of the frozen records below, never a verdict
that holds everywhere.  Only :func:`symdp.proof.kernel.accept` turns a certificate into
PROVED, CERTIFIED or ENUMERATED, after it has checked, itself, that the certificate's set
covers the step's :class:`Domain`, that both sides are defined there, that every
:class:`Fact` the certificate relies on is confirmed by a second method, and that each
Symbol's declared assumptions agree with its domain (issue #19).

A certificate is a claim, not a proof: every field is read by the kernel as something to
check, and a field the kernel cannot check means the certificate is refused.  It is judged
against a :class:`Claim` -- the step's sides *as written*, its relation and its domain --
and proves that claim only when its own sides are the claim's, or are shown equal to them by
a rule the kernel owns (its :class:`Unfolding` records say how they were obtained; issue #27).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

#: the properties a :class:`Fact` may state about its expression, as ``expr REL 0`` (or
#: integrality); ``"defined"`` is not here: definedness is a kernel check of its own
PROPERTIES = ("positive", "nonnegative", "negative", "nonpositive", "nonzero", "zero",
              "integer")


@dataclass(frozen=True)
class Domain:
    """The stated domain of one step: the hypotheses' sets, the derivation's constraints and
    the step's side conditions; the integer lattice is that of the sets (a ``Range``, a set of
    integers).  A point is in the domain when every symbol is in its set and every constraint
    and side condition holds there.

    ``hypotheses`` is a tuple of ``(symbol, set)`` pairs (a dict is not hashable); ``symbols``
    lists the step's own parameters and those tied to them by constraints.
    """

    hypotheses: tuple
    constraints: tuple = ()
    side_conditions: tuple = ()

    @classmethod
    def of(cls, hypotheses: dict, constraints=(), side_conditions=()) -> "Domain":
        pairs = tuple(sorted(hypotheses.items(), key=lambda kv: kv[0].name))
        return cls(pairs, tuple(constraints), tuple(side_conditions))

    @property
    def sets(self) -> dict:
        return dict(self.hypotheses)

    @property
    def symbols(self) -> tuple:
        return tuple(s for s, _ in self.hypotheses)

    @property
    def conditions(self) -> tuple:
        return tuple(self.constraints) + tuple(self.side_conditions)

    def restricted_to(self, symbols) -> "Domain":
        """The domain of the given symbols and of those the conditions tie to them (x <= y
        <= z ties x to z through y): their sets and the conditions on them."""
        keep = set(symbols)
        grown = True
        while grown:
            grown = False
            for c in self.conditions:
                free = c.free_symbols
                if free & keep and not free <= keep:
                    keep |= free
                    grown = True
        return Domain(tuple((s, d) for s, d in self.hypotheses if s in keep),
                      tuple(c for c in self.constraints if c.free_symbols <= keep),
                      tuple(c for c in self.side_conditions if c.free_symbols <= keep))

    def text(self) -> str:
        parts = [f"{s.name} in {sp.sstr(d)}" for s, d in self.hypotheses]
        parts += [sp.sstr(c) for c in self.conditions]
        return ", ".join(parts) or "no parameters"


@dataclass(frozen=True)
class Fact:
    """``expression`` has ``property`` (one of :data:`PROPERTIES`) on ``domain`` (None: the
    step's domain).  ``source`` says where the proposer took it from (e.g. ``"SymPy
    assumptions"``); ``confirmed_by`` is filled by the kernel only ("z3", "exact evaluation
    at 21 points", "Arb balls over 12 sub-boxes"), never by a stage."""

    expression: sp.Expr
    property: str
    source: str = "SymPy assumptions"
    domain: Domain | None = None
    confirmed_by: str = ""

    def __post_init__(self):
        if self.property not in PROPERTIES:
            raise ValueError(f"Fact.property must be one of {PROPERTIES}; got {self.property!r}")

    def text(self) -> str:
        words = {"positive": "> 0", "nonnegative": ">= 0", "negative": "< 0",
                 "nonpositive": "<= 0", "nonzero": "!= 0", "zero": "= 0",
                 "integer": "is an integer"}
        return f"{sp.sstr(self.expression)} {words[self.property]}"


def sign_fact(margin: sp.Expr, strict: bool, source: str = "SymPy assumptions",
              domain: Domain | None = None) -> Fact:
    """The fact ``margin > 0`` (strict) or ``margin >= 0``."""
    return Fact(margin, "positive" if strict else "nonnegative", source, domain)


def margin_of(lhs, rhs, relation: str) -> sp.Expr:
    """The margin whose sign is the relation: ``rhs - lhs`` for ``<``/``<=``, ``lhs - rhs``
    for ``>``/``>=``, ``lhs - rhs`` for ``=`` (which must be zero)."""
    return (rhs - lhs) if relation in ("<", "<=") else (lhs - rhs)


# ------------------------------------------------------------------ the statement

#: the relations a :class:`Claim` may state; ``"continuous"``: ``lhs`` is continuous in the
#: claim's ``variable`` at every point of the domain (Prop. 2.2 of Dong, Roth, Su 2022)
CLAIM_RELATIONS = ("=", "<=", "<", ">=", ">", "continuous")


@dataclass(frozen=True)
class Claim:
    """What a verdict is about: ``lhs REL rhs`` with the sides *as written* (unevaluated:
    ``symdp step`` parses them with ``evaluate=False``; a proof file's objects as built), on
    ``domain``.  The kernel's token (:class:`symdp.proof.kernel.Acceptance`) carries the
    claim it was issued for, and :func:`symdp.proof.kernel.accept` seals a verdict only for a
    certificate that proves this claim (HOL Light's ``prove(t, tac)``: "justification
    generated wrong theorem" unless the theorem's conclusion is ``t``)."""

    lhs: sp.Basic
    relation: str
    rhs: sp.Basic
    domain: Domain
    variable: sp.Symbol | None = None

    def __post_init__(self):
        if self.relation not in CLAIM_RELATIONS:
            raise ValueError(f"Claim.relation must be one of {CLAIM_RELATIONS}; got "
                             f"{self.relation!r}")
        if (self.relation == "continuous") != (self.variable is not None):
            raise ValueError("a continuity claim, and only it, names its variable")

    @classmethod
    def continuity(cls, expr, variable, domain: Domain) -> "Claim":
        """``expr`` is continuous in ``variable`` on ``domain``."""
        return cls(expr, "continuous", expr, domain, variable)

    @property
    def sides(self) -> tuple:
        return (self.lhs,) if self.relation == "continuous" else (self.lhs, self.rhs)

    def text(self) -> str:
        if self.relation == "continuous":
            return f"{sp.sstr(self.lhs)} is continuous in {self.variable} on {self.domain.text()}"
        return f"{sp.sstr(self.lhs)} {self.relation} {sp.sstr(self.rhs)} on {self.domain.text()}"


#: the rules by which a node of a written side may be replaced by a closed form; the kernel
#: re-applies each (``symdp.proof.kernel.closed_forms``)
UNFOLDING_RULES = ("definition", "conjugate", "inverse", "derived")


@dataclass(frozen=True)
class Unfolding:
    """How a certificate's side was obtained from the written one: ``node`` (a symdp object
    in the written side, e.g. ``ConjugateAt(Gaussian(mu), y)``) replaced by ``closed_form``
    by ``rule``:

    * ``"definition"`` -- a listed definition the kernel holds itself (a named family's
      trade-off formula, a mixture, ...; the kernel applies these without being told);
    * ``"conjugate"`` -- a convex conjugate whose ``evidence`` (a :class:`ConjugateEvidence`)
      the kernel checks: pieces, stationary points, slopes at the kinks;
    * ``"inverse"`` -- the inverse ``f^{-1}(a) = inf{t : f(t) <= a}`` (Eq. 4) of a strictly
      decreasing f, with an :class:`InverseEvidence` the kernel checks;
    * ``"derived"`` -- a closed form computed by symdp (``doit``) that no kernel rule checks:
      the kernel then seals a verdict only *under the hypothesis* that it is right.
    """

    node: sp.Basic
    closed_form: sp.Basic
    rule: str
    evidence: object = None

    def __post_init__(self):
        if self.rule not in UNFOLDING_RULES:
            raise ValueError(f"Unfolding.rule must be one of {UNFOLDING_RULES}; got {self.rule!r}")


@dataclass(frozen=True)
class ConjugateEvidence:
    r"""Why :math:`f^*(y) = \sup_{0 \le x \le 1} (x y - f(x))`, at the point ``y`` of a
    ``ConjugateAt(function, y)``, has the closed form ``Piecewise(*[(value, condition)
    ...])``: ``pieces`` are ``(lo, hi, g)`` with ``g`` the formula of f on ``[lo, hi]`` in
    ``variable`` (consecutive, from 0 to 1), and ``branches`` per branch ``(value, condition,
    maximiser, piece, kind)``: ``kind`` is ``"stationary"`` (``g_piece'(maximiser) = y``, the
    maximiser inside the piece), ``"point"`` (the maximiser is the piece's start: x = 0 or a
    kink, where the slopes on either side enclose y) or ``"end"`` (x = 1, right of every
    slope); the kernel checks each on the region where the branch applies
    (:mod:`symdp.proof.kernel.conjugate`)."""

    function: sp.Basic
    variable: sp.Symbol
    y: sp.Basic
    pieces: tuple = ()
    branches: tuple = ()


@dataclass(frozen=True)
class InverseEvidence:
    r"""Why :math:`f^{-1}(a) = \inf\{t \in [0,1] : f(t) \le a\}` (Dong, Roth, Su 2022,
    Eq. 4), at the point ``a`` of a ``TradeOffAt(Inverse(function), a)``, has the closed form
    ``Piecewise((h_1(a), a <= hi_1), ..., (h_m(a), True))``: ``pieces`` are f's ``(lo, hi,
    g)`` in ``variable`` (consecutive, from 0 to 1), ``branches`` the inverse's pieces
    ``(lo, hi, h, piece)`` in ``level`` -- h on ``[lo, hi]`` inverts f's piece of that index
    (``None``: the constant 0, above f(0)) -- in increasing order of a
    (:mod:`symdp.proof.kernel.conjugate`)."""

    function: sp.Basic
    variable: sp.Symbol
    level: sp.Symbol
    pieces: tuple = ()
    branches: tuple = ()


# ------------------------------------------------------------------ the certificates

@dataclass(frozen=True)
class Certificate:
    """Common part: the relation ``lhs REL rhs`` the stage claims, as the stage checked it
    (after closed forms), and the stage's name.  ``unfoldings`` (keyword only): how these
    sides were obtained from the claim's written sides, for the kernel to re-apply
    (:class:`Unfolding`)."""

    lhs: sp.Expr
    rhs: sp.Expr
    relation: str
    stage: str
    unfoldings: tuple = field(default=(), kw_only=True)


@dataclass(frozen=True)
class StructuralCertificate(Certificate):
    """``lhs`` and ``rhs`` are the same SymPy tree (a non-strict relation)."""


@dataclass(frozen=True)
class SymbolicCertificate(Certificate):
    """A symbolic rewriting: ``difference`` is what ``method`` (``"simplify"``, ``"simplify
    after Phi -> erfc"``, ...) made of ``lhs - rhs`` (for an equality it must be 0), and
    ``facts`` are the sign facts the conclusion rests on (for an inequality, the sign of
    ``difference``).  ``mapping`` is the symbol -> assumption-Dummy substitution the
    rewriting ran under (pairs).  A reparametrisation ``x = a + (b - a)/(1 + t)``, ``t >= 0``
    is listed in ``substitution`` as ``(x, t, expression)`` triples, with the facts on the
    reparametrised difference (over ``t >= 0``) and at the included endpoints among
    ``facts``; ``reduced`` says that ``difference`` is the margin of a relation reached by
    rewritings the kernel does not check (monotone reductions, monotonicity arguments): the
    kernel then confirms the sign of the original margin instead.  A derivative-sign
    monotonicity argument is ``chain``: ``(x, end, direction, end_open)`` per level (the
    margin is monotone in x with that direction, so least at ``x = end``); the kernel
    re-derives the derivatives and end values and confirms their signs."""

    method: str = "simplify"
    difference: sp.Expr = sp.S.Zero
    facts: tuple = ()
    mapping: tuple = ()
    substitution: tuple = ()
    reduced: bool = False
    chain: tuple = ()


@dataclass(frozen=True)
class BoxSearch:
    """One branch-and-bound search, for the kernel to replay leaf by leaf.

    The claim ``lhs REL rhs`` (an inequality) is searched in the variables of
    ``coordinates``, per parameter ``(symbol, variable, lo, hi, integer, transform)``: the
    variable runs over ``[lo, hi]`` (exact Fractions) and the parameter is
    ``transform`` of it (None: the variable is the parameter).  ``searched`` is the margin
    as the search evaluated it after a change of variables onto an unbounded range (tidied
    by ``simplify``; None: the margin with the transforms substituted).  ``leaves`` is the
    search tree, one entry ``(box, kind, data)`` per sub-box examined, ``box`` a tuple of
    exact ``(lo, hi)`` per variable: ``"decided"`` (the margin's ball has the sign),
    ``"vacuous"`` (a condition of the domain is certainly false), ``"monotone"`` (``data``
    the face the sub-box was replaced by: the margin is monotone in each moved variable,
    and the constraints hold on the whole sub-box) or ``"split"`` (``data`` the two halves).
    ``piece_of``: for a search of one piece of a Piecewise/Max/Min claim between exact
    breakpoints, the claim ``(lhs, relation, rhs)`` whose branch the piece's ``lhs``,
    ``rhs`` are on the open piece."""

    lhs: sp.Expr
    rhs: sp.Expr
    relation: str
    coordinates: tuple = ()
    searched: sp.Expr | None = None
    leaves: tuple = ()
    piece_of: tuple = ()


@dataclass(frozen=True)
class BoxCertificate(Certificate):
    """Branch and bound with ball arithmetic.  ``coordinates``: per parameter ``(symbol,
    lo, hi, integer, transform)`` with ``lo``, ``hi`` exact :class:`~fractions.Fraction`
    ends of the searched variable and ``transform`` the change of variables (None: the
    identity; ``a + t/(1 - t)`` maps ``t in [0, 1)`` onto ``[a, oo)``).  ``tails``: per
    integer parameter ``(symbol, start, argument)``, a tail argument for ``symbol >= start``.
    ``bits`` the precision; ``sub_boxes``/``monotone`` the work done; ``smallest_margin`` the
    certified lower bound; ``pieces`` the exact breakpoints the Piecewise branches were cut
    at (branch decisions); ``facts`` what the search took from elsewhere (a reduction's
    conclusion); ``searches`` the search trees (:class:`BoxSearch`) the kernel replays.
    ``reduction``: the monotone maps that turned the claim into the relation searched
    (:mod:`symdp.proof.cascade.certified.reduce`), per map ``(name, *arguments)``; the kernel
    re-derives the reduced relation and every side condition of every map."""

    coordinates: tuple = ()
    tails: tuple = ()
    bits: int = 0
    sub_boxes: int = 0
    monotone: int = 0
    smallest_margin: str | None = None
    pieces: tuple = ()
    facts: tuple = ()
    detail: str = ""
    searches: tuple = ()
    reduction: tuple = ()


@dataclass(frozen=True)
class FiniteCertificate(Certificate):
    """Exact (or ball) evaluation at every point of a finite set: ``values`` per symbol
    ``(symbol, (v1, v2, ...))``, the set being the admissible points of their product;
    ``cases`` the number of points decided; ``how`` ``"exact"`` or ``"balls"``."""

    values: tuple = ()
    cases: int = 0
    how: str = "exact"
    detail: str = ""


@dataclass(frozen=True)
class ContinuityCertificate(Certificate):
    """``lhs`` (the same as ``rhs``; relation ``"="``) is continuous in ``variable`` at every
    point of the domain: it is built only from functions continuous wherever they are
    defined, and it is defined on the whole domain (Prop. 2.2's "continuous", piece by piece;
    the pieces' meeting values are equalities of their own)."""

    variable: sp.Symbol | None = None


# Room for issue #20 (the `bagging` helper): InductionCertificate and CountingCertificate
# are added below this line, with their acceptance in a separate section of kernel.py.

# ------------------------------------------------------------------ issue #20: counting, induction
#
# A counting argument is checked in two parts: the closed form of each enumerated atom, derived
# through the counting lemmas of symdp.core.counting (re-checked application by application),
# and the algebra left once the atoms are replaced (a ResidualNode tree, re-checked leaf by
# leaf).  Enumeration on small cases is an independent check of the lemma derivation: the
# kernel re-evaluates both at the listed points and refuses the certificate on a disagreement.


@dataclass(frozen=True)
class ResidualNode:
    """One node of the proof of ``lhs REL rhs`` under ``conditions`` (Relationals added to
    the step's domain).  ``method``:

    * ``"identity"`` -- ``reduced`` (lhs - rhs with binomials and symbolic powers replaced by
      the ``atoms``, pairs ``(symbol, value)``) is the zero rational function;
    * ``"z3"`` -- the domain, the conditions and ``atom_facts`` (triples ``(relational,
      lemma, premise)``: the lemma turns the premise on the atoms' bases into the fact) imply
      ``reduced REL 0``;
      ``rewrites`` pairs each binomial and factorial with its value in the ``C_``/``F_`` atoms
      (Pascal's absorption rules), each re-checked on its own;
      ``reduced_conditions`` pairs a condition on powers or binomials (of the node or of the
      domain) with its form in the atoms, which z3 then uses;
    * ``"split"`` -- ``extremum`` (a Max, Min or Abs in a side) takes each of its arguments'
      values in turn; one child per case, under that case's selecting conditions;
    * ``"decided"`` -- one case of ``extremum`` holds on the whole domain: ``children`` are the
      proofs of its selecting conditions, then the proof with the extremum replaced;
    * ``"first_value"`` -- ``variable`` (an integer parameter with least value ``a``) is ``a``
      or at least ``a + 1``: one child with ``variable = a`` substituted, one under the
      condition ``variable >= a + 1``.
    """

    lhs: sp.Expr
    relation: str
    rhs: sp.Expr
    conditions: tuple = ()
    method: str = "identity"
    reduced: sp.Expr = sp.S.Zero
    atoms: tuple = ()
    atom_facts: tuple = ()
    extremum: sp.Expr | None = None
    children: tuple = ()
    reduced_conditions: tuple = ()
    rewrites: tuple = ()
    variable: sp.Symbol | None = None


@dataclass(frozen=True)
class CountingCertificate(Certificate):
    """``lhs REL rhs`` holds after each enumerated atom is replaced by its closed form.

    ``atoms``: pairs ``(atom, derived)`` with ``derived`` a
    :class:`symdp.core.counting.Derived` (lemma applications, blocks, closed form);
    ``residual``: the :class:`ResidualNode` proof of the relation between the closed forms;
    ``checks``: points (tuples of ``(symbol, Integer)``) at which the kernel compares every
    atom's enumeration with its closed form."""

    atoms: tuple = ()
    residual: ResidualNode | None = None
    checks: tuple = ()


@dataclass(frozen=True)
class InductionCertificate(Certificate):
    """``lhs REL rhs`` for every integer ``variable >= start``: ``base`` proves the relation
    at ``variable = start``; ``step`` proves it at ``variable + 1`` from ``hypothesis`` (a
    fresh Symbol standing for ``lhs`` at ``variable``, with the condition ``hypothesis REL
    rhs``), after ``peeled`` -- ``lhs`` at ``variable + 1`` written through ``hypothesis``
    (``Finset.sum_range_succ``, ``Finset.prod_range_succ``, ``pow_succ``)."""

    variable: sp.Symbol | None = None
    start: sp.Expr = sp.S.Zero
    hypothesis: sp.Symbol | None = None
    peeled: sp.Expr = sp.S.Zero
    base: ResidualNode | None = None
    step: ResidualNode | None = None


# ------------------------------------------------------------------ issue #28: convex analysis
#
# A proof about trade-off functions is a list of inferences, each a named lemma of convex
# analysis or f-DP applied within its hypotheses, or a rule of arithmetic (z3), instantiation,
# rewriting or case analysis; the kernel (symdp.proof.kernel.convex) replays them and derives
# every judgement itself.  The step's claim must be the last judgement.


@dataclass(frozen=True)
class Judgement:
    """``lhs REL rhs`` at every point of ``domain`` (every symbol in its set, every condition
    holding): the statement an inference derives.  A symbol of the domain that is not a
    parameter of the step (``t`` in "for every t in [0, 1]") is a bound variable."""

    lhs: sp.Expr
    relation: str
    rhs: sp.Expr
    domain: Domain

    def text(self) -> str:
        return f"{sp.sstr(self.lhs)} {self.relation} {sp.sstr(self.rhs)} on {self.domain.text()}"


@dataclass(frozen=True)
class Inference:
    """One inference of a proof: ``rule`` (``"lemma"``, ``"arith"``, ``"instantiate"``,
    ``"rewrite"``, ``"cases"``, ``"minorant"``), its ``premises`` (indices of earlier
    inferences of the same proof) and ``data``, pairs ``(key, value)`` the rule reads: the
    lemma's name and instantiation, the judgement an ``arith`` inference concludes, ...
    (:mod:`symdp.proof.kernel.convex` documents each rule)."""

    rule: str
    data: tuple = ()
    premises: tuple = ()
    note: str = ""

    def get(self, key, default=None):
        return dict(self.data).get(key, default)


@dataclass(frozen=True)
class LemmaCertificate(Certificate):
    """``lhs REL rhs`` (the step's claim) is the last judgement of ``proof``, a tuple of
    :class:`Inference` replayed by the kernel from the lemmas it knows."""

    proof: tuple = ()


@dataclass(frozen=True)
class MinorantCertificate(Certificate):
    """``lhs = rhs`` with ``lhs`` a Piecewise ``h`` in ``variable`` (conditions ``variable <=
    c_i``, the last ``True``) and ``rhs`` the convex envelope ``g**`` at ``variable`` (a
    :class:`~symdp.tradeoff.base.TradeOffAt` of a ``ConvexEnvelope(g)``): h is g** on [0, 1]
    by the characterisation of the greatest convex minorant (kernel.convex).  ``kinds`` gives
    each piece of h: ``("graph", i)`` (h is the i-th function of the minimum g = min{g_0,
    g_1} there, or g itself when g is no minimum: i = 0) or ``("chord",)`` (h is affine
    there, below g, its ends on the graph of g).  The kernel lists the obligations itself
    (:func:`~symdp.proof.kernel.convex.minorant_obligations`); ``proof`` (inferences) derives
    them and ``discharge`` pairs each obligation's key with the index of the inference whose
    judgement proves it (none: the kernel tries z3 on the obligation alone)."""

    variable: sp.Symbol | None = None
    kinds: tuple = ()
    proof: tuple = ()
    discharge: tuple = ()


def fraction(x) -> Fraction:
    """An exact rational end (``sympy.Rational``, int, Fraction)."""
    if isinstance(x, Fraction):
        return x
    x = sp.Rational(x)
    return Fraction(int(x.p), int(x.q))


__all__ = ["PROPERTIES", "Domain", "Fact", "sign_fact", "margin_of", "CLAIM_RELATIONS", "Claim",
           "UNFOLDING_RULES", "Unfolding", "ConjugateEvidence", "InverseEvidence", "Certificate",
           "StructuralCertificate", "SymbolicCertificate", "BoxSearch", "BoxCertificate",
           "FiniteCertificate", "ContinuityCertificate", "fraction", "ResidualNode", "CountingCertificate",
           "InductionCertificate", "Judgement", "Inference", "LemmaCertificate", "MinorantCertificate"]
