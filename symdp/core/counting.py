r"""Counting lemmas as checked rules: finite sets as data, and the cardinality rules that
apply to them.

A counting argument ("the k-sequences of D that contain x at least once number
n^k - (n-1)^k") is written as a list of :class:`Application` records, each naming a
:class:`Lemma` and the set it is applied to.  :func:`check_derivation` re-checks every
application -- the lemma's pattern matches the set, its premises are earlier conclusions
of the list -- and returns the cardinality the list concludes.  Nothing is evaluated at
points: the conclusion holds for every value of the symbolic sizes.

Sets (frozen, hashable):

* :class:`Records` -- a finite set of records of symbolic size (``D``, ``D'``);
* :class:`Seq` -- sequences of length ``m`` over a set of records, :math:`X^m`;
* :class:`KSubsets` -- the ``K``-subsets of a set of records;
* :class:`Tuples` -- ``N``-tuples of elements of a set of outputs, :math:`A^N`;
* :class:`Splits` -- ordered ``N``-tuples of pairwise disjoint ``k``-subsets;
* :class:`Diff` -- ``A \ B``;  :class:`Inter` -- ``A \cap B``.

Subset facts between records are given by the construction (``D' = D \ {x}`` is a subset of
``D``): :class:`Context` holds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp


# --------------------------------------------------------------------------- sets


@dataclass(frozen=True)
class Records:
    """A finite set of records of (symbolic) size ``size``."""

    name: str
    size: sp.Expr

    def __str__(self):
        return self.name


@dataclass(frozen=True)
class Seq:
    """Sequences of length ``length`` over ``records``: :math:`X^m` (functions Fin m -> X)."""

    records: Records
    length: sp.Expr

    def __str__(self):
        return f"{self.records}^{self.length}"


@dataclass(frozen=True)
class KSubsets:
    """The ``size``-subsets of ``records`` (Mathlib ``Finset.powersetCard``)."""

    records: Records
    size: sp.Expr

    def __str__(self):
        return f"({self.records} choose {self.size})"


@dataclass(frozen=True)
class Tuples:
    """``count``-tuples of elements of the output set ``of``: :math:`A^N`."""

    of: object
    count: sp.Expr

    def __str__(self):
        return f"({self.of})^{self.count}"


@dataclass(frozen=True)
class Splits:
    """Ordered ``count``-tuples of pairwise disjoint ``block``-subsets of ``records``."""

    records: Records
    count: sp.Expr
    block: sp.Expr

    def __str__(self):
        return f"splits({self.records}; {self.count} x {self.block})"


@dataclass(frozen=True)
class Diff:
    """``left \\ right``."""

    left: object
    right: object

    def __str__(self):
        return f"({self.left} \\ {self.right})"


@dataclass(frozen=True)
class Inter:
    """``left \\cap right``."""

    left: object
    right: object

    def __str__(self):
        return f"({self.left} n {self.right})"


@dataclass(frozen=True)
class Empty:
    def __str__(self):
        return "{}"


OUTPUT_SETS = (Seq, KSubsets, Tuples, Splits)


def records_of(output_set):
    """The records an output set draws from (``Tuples`` of ``KSubsets`` included)."""
    if isinstance(output_set, (Seq, KSubsets, Splits)):
        return output_set.records
    if isinstance(output_set, Tuples):
        return records_of(output_set.of)
    raise TypeError(f"not an output set: {output_set}")


def with_records(output_set, records: Records):
    """The same construction over other records."""
    if isinstance(output_set, Seq):
        return Seq(records, output_set.length)
    if isinstance(output_set, KSubsets):
        return KSubsets(records, output_set.size)
    if isinstance(output_set, Splits):
        return Splits(records, output_set.count, output_set.block)
    if isinstance(output_set, Tuples):
        return Tuples(with_records(output_set.of, records), output_set.count)
    raise TypeError(f"not an output set: {output_set}")


@dataclass(frozen=True)
class Context:
    """The records of an argument and which is a subset of which (by construction)."""

    subsets: tuple = ()        # pairs (small, large): small is a subset of large

    def subset(self, small, large) -> bool:
        return small == large or (small, large) in self.subsets


# --------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class Card:
    """``|of| = value``."""

    of: object
    value: sp.Expr

    def __str__(self):
        return f"|{self.of}| = {sp.sstr(self.value)}"


@dataclass(frozen=True)
class Subset:
    """``small`` is a subset of ``large``."""

    small: object
    large: object

    def __str__(self):
        return f"{self.small} <= {self.large}"


@dataclass(frozen=True)
class SetEq:
    """``left = right`` as sets."""

    left: object
    right: object

    def __str__(self):
        return f"{self.left} = {self.right}"


# --------------------------------------------------------------------------- lemmas


@dataclass(frozen=True)
class Lemma:
    """A named counting rule: statement, reference, and its checker.

    ``check(conclusion, premises, context)`` is True when ``conclusion`` is an instance of
    the rule whose premises are among ``premises`` (earlier conclusions).
    """

    name: str
    statement: str
    reference: str
    check: object = field(compare=False, repr=False)


def _card_fun(c, premises, ctx):
    return isinstance(c, Card) and isinstance(c.of, Seq) and \
        sp.simplify(c.value - c.of.records.size ** c.of.length) == 0


def _card_powerset_card(c, premises, ctx):
    return isinstance(c, Card) and isinstance(c.of, KSubsets) and \
        sp.simplify(c.value - sp.binomial(c.of.records.size, c.of.size)) == 0


def _card_pi(c, premises, ctx):
    if not (isinstance(c, Card) and isinstance(c.of, Tuples)):
        return False
    return any(isinstance(p, Card) and p.of == c.of.of and
               sp.simplify(c.value - p.value ** c.of.count) == 0 for p in premises)


def _card_splits(c, premises, ctx):
    if not (isinstance(c, Card) and isinstance(c.of, Splits)):
        return False
    s = c.of
    total = s.count * s.block
    expected = sp.binomial(s.records.size, total) * sp.factorial(total) / sp.factorial(s.block) ** s.count
    return sp.simplify(c.value - expected) == 0


def _card_sdiff(c, premises, ctx):
    if not (isinstance(c, Card) and isinstance(c.of, Diff)):
        return False
    a, b = c.of.left, c.of.right
    if Subset(b, a) not in premises:
        return False
    ca = [p.value for p in premises if isinstance(p, Card) and p.of == a]
    cb = [p.value for p in premises if isinstance(p, Card) and p.of == b]
    return any(sp.simplify(c.value - (x - y)) == 0 for x in ca for y in cb)


def _sdiff_eq_empty(c, premises, ctx):
    return isinstance(c, Card) and isinstance(c.of, Diff) and c.value == 0 and \
        Subset(c.of.left, c.of.right) in premises


def _mono(c, premises, ctx):
    """Output sets are monotone in their records: X <= Y gives Out(X) <= Out(Y)."""
    if not isinstance(c, Subset) or type(c.small) is not type(c.large):
        return False
    if not isinstance(c.small, OUTPUT_SETS):
        return False
    small, large = records_of(c.small), records_of(c.large)
    return with_records(c.small, large) == c.large and ctx.subset(small, large)


def _inter_of_subset(c, premises, ctx):
    """Out(X) n Out(Y) = Out(X n Y); with Y <= X it is Out(Y)."""
    if not (isinstance(c, SetEq) and isinstance(c.left, Inter)):
        return False
    a, b = c.left.left, c.left.right
    if not (isinstance(a, OUTPUT_SETS) and type(a) is type(b)):
        return False
    ra, rb = records_of(a), records_of(b)
    if with_records(a, rb) != b:
        return False
    small = rb if ctx.subset(rb, ra) else ra if ctx.subset(ra, rb) else None
    return small is not None and c.right == with_records(a, small)


def _card_congr(c, premises, ctx):
    """Equal sets have equal cardinalities (a rewrite by a SetEq premise)."""
    if not isinstance(c, Card):
        return False
    for p in premises:
        if isinstance(p, SetEq) and p.left == c.of:
            if any(isinstance(q, Card) and q.of == p.right and
                   sp.simplify(q.value - c.value) == 0 for q in premises):
                return True
    return False


def _card_empty(c, premises, ctx):
    return isinstance(c, Card) and isinstance(c.of, Empty) and c.value == 0


LEMMAS = {lemma.name: lemma for lemma in (
    Lemma("card_fun", "|X^m| = |X|^m: sequences of length m over a set of size s number s^m",
          "Mathlib Fintype.card_fun; Stanley, EC1, 1.1", _card_fun),
    Lemma("card_powersetCard", "the K-subsets of a set of size s number C(s, K)",
          "Mathlib Finset.card_powersetCard; Stanley, EC1, 1.2", _card_powerset_card),
    Lemma("card_pi", "|A^N| = |A|^N (the product rule, N factors)",
          "Mathlib Fintype.card_pi / Fintype.card_fun; the product rule", _card_pi),
    Lemma("card_ordered_splits",
          "ordered N-tuples of disjoint k-subsets of an s-set: choose their union (C(s, Nk)), "
          "then split it (the multinomial (Nk)!/(k!)^N)",
          "Mathlib Nat.multinomial, Finset.card_powersetCard; Stanley, EC1, 1.2",
          _card_splits),
    Lemma("card_sdiff", "B <= A gives |A \\ B| = |A| - |B| (the complement count; e.g. "
          "sequences containing a record at least once = all - those avoiding it)",
          "Mathlib Finset.card_sdiff", _card_sdiff),
    Lemma("sdiff_eq_empty_of_subset", "A <= B gives A \\ B = {} and |A \\ B| = 0",
          "Mathlib Finset.sdiff_eq_empty_iff_subset", _sdiff_eq_empty),
    Lemma("output_mono", "X <= Y gives X^m <= Y^m, (X choose K) <= (Y choose K), and the "
          "same for tuples and splits",
          "Mathlib Set.pi_mono, Finset.powersetCard_mono", _mono),
    Lemma("output_inter", "Out(X) n Out(Y) = Out(X n Y) (an output uses records of both iff "
          "it uses records of the intersection); with Y <= X this is Out(Y)",
          "Mathlib Set.pi_inter_distrib, Finset.powersetCard_inter", _inter_of_subset),
    Lemma("card_congr", "equal sets have equal cardinalities", "Mathlib Finset.card_congr",
          _card_congr),
    Lemma("card_empty", "|{}| = 0", "Mathlib Finset.card_empty", _card_empty),
)}


@dataclass(frozen=True)
class Application:
    """One use of a lemma: its ``conclusion`` (a Card, Subset or SetEq record)."""

    lemma: str
    conclusion: object

    def __str__(self):
        return f"{self.lemma}: {self.conclusion}"


class CountingError(Exception):
    """An application that is not an instance of its lemma."""


def check_derivation(applications, context: Context) -> list:
    """Re-check every application in order; return the conclusions (raise CountingError)."""
    proved = []
    for i, app in enumerate(applications):
        lemma = LEMMAS.get(app.lemma)
        if lemma is None:
            raise CountingError(f"application {i + 1}: no lemma named {app.lemma!r}")
        if not lemma.check(app.conclusion, proved, context):
            raise CountingError(f"application {i + 1}: {app} is not an instance of "
                                f"{app.lemma} ({lemma.statement}) given the earlier conclusions")
        proved.append(app.conclusion)
    return proved


def card_of(conclusions, of) -> sp.Expr | None:
    """The cardinality of ``of`` among the checked conclusions, or None."""
    for c in conclusions:
        if isinstance(c, Card) and c.of == of:
            return c.value
    return None


# --------------------------------------------------------------------------- blocks of a pair


@dataclass(frozen=True)
class Block:
    """A block of outputs on which both distributions of a pair are constant: ``|set| =
    count`` outputs, each of probability ``p`` under P and ``q`` under Q.

    The probabilities come from the uniform law on a support (Mathlib
    ``PMF.uniformOfFinset``): ``1/|support|`` on an output of the support, 0 off it.
    ``p_support`` / ``q_support`` name the supports; ``p_in`` / ``q_in`` say whether the
    block lies inside (True, by a Subset conclusion) or outside (False, the block is a
    difference with that support) -- the kernel re-checks both against the conclusions.
    """

    set: object
    count: sp.Expr
    p: sp.Expr
    q: sp.Expr
    p_support: object = None
    q_support: object = None
    p_in: bool = True
    q_in: bool = True


def uniform_value(block: Block, support, inside: bool, conclusions) -> sp.Expr | None:
    """``1/|support|`` when the conclusions show ``block.set <= support``, ``0`` when the block
    is ``A \\ support`` (disjoint from it), else None (PMF.uniformOfFinset_apply)."""
    if inside:
        ok = block.set == support or Subset(block.set, support) in conclusions or \
            (isinstance(block.set, Diff) and block.set.left == support)   # Finset.sdiff_subset
        size = card_of(conclusions, support)
        return (1 / size) if ok and size is not None else None
    ok = isinstance(block.set, Diff) and block.set.right == support
    return sp.Integer(0) if ok else None


def hockey_stick_of_blocks(blocks, w) -> sp.Expr:
    r""":math:`\sum_o (P(o) - wQ(o))_+ = \sum_B |B|\,(p_B - w q_B)_+` (Finset.sum_const on each
    block, Finset.sum_union over disjoint blocks)."""
    return sp.Add(*[b.count * sp.Max(0, b.p - w * b.q) for b in blocks])


def probability_of_blocks(blocks, first: bool = True) -> sp.Expr:
    """``P(A) = sum_B |B| p_B`` (or Q with ``first=False``)."""
    return sp.Add(*[b.count * (b.p if first else b.q) for b in blocks])


def total_variation_of_blocks(blocks) -> sp.Expr:
    r""":math:`\tfrac12 \sum_B |B|\,|p_B - q_B|`."""
    return sp.Add(*[b.count * sp.Abs(b.p - b.q) for b in blocks]) / 2


def tradeoff_of_blocks(blocks, alpha) -> sp.Expr | None:
    r"""Neyman--Pearson :math:`T(P, Q)(\alpha)` when at most one block has both ``p > 0`` and
    ``q > 0``: blocks with ``p = 0`` are rejected for free, blocks with ``q = 0`` add no
    power, and the one remaining block is rejected in the fraction ``min(1, alpha/P(B))``
    (Lehmann--Romano, Thm. 3.2.1; the likelihood ratio is constant on a block).  None when
    two blocks would have to be ranked."""
    free = [b for b in blocks if b.p == 0]
    mixed = [b for b in blocks if b.p != 0 and b.q != 0]
    if len(mixed) > 1:
        return None
    power = sp.Add(*[b.count * b.q for b in free])
    if mixed:
        b = mixed[0]
        power += sp.Min(1, alpha / (b.count * b.p)) * (b.count * b.q)
    return 1 - power


# --------------------------------------------------------------------------- derived quantities


@dataclass(frozen=True)
class Derived:
    """A quantity's symbolic value and how it follows from the lemmas.

    ``kind`` (one of :data:`KINDS`) names the formula that turns ``blocks`` into ``value``;
    ``parts`` holds, for a maximum/minimum over orderings, one Derived per ordering;
    ``region`` the counted set (a count).  ``applications`` and ``context`` are what
    :func:`check_derivation` re-checks; ``parameter`` is ``w`` (hockey stick), ``alpha``
    (trade-off) or the extreme (1: max, 0: min) of a likelihood ratio.
    """

    kind: str
    value: sp.Expr
    applications: tuple = ()
    context: Context = Context()
    blocks: tuple = ()
    parameter: sp.Expr = sp.S.Zero
    parts: tuple = ()
    region: object = None


KINDS = ("count", "probability", "hockey_stick", "total_variation", "likelihood_ratio",
         "tradeoff", "max", "min")


def applications_of(derived: Derived) -> list:
    """Every application of a Derived record and of its parts."""
    out = list(derived.applications)
    for part in derived.parts:
        out += applications_of(part)
    return out


def _block_error(block: Block, conclusions) -> str:
    count = card_of(conclusions, block.set)
    if count is None or sp.simplify(count - block.count) != 0:
        return f"|{block.set}| = {block.count} is not a checked conclusion"
    for value, support, inside in ((block.p, block.p_support, block.p_in),
                                   (block.q, block.q_support, block.q_in)):
        expected = uniform_value(block, support, inside, conclusions)
        if expected is None or sp.simplify(expected - value) != 0:
            return (f"the probability {value} of an output of {block.set} under the uniform "
                    f"law on {support} does not follow")
    return ""


def check_derived(derived: Derived) -> str:
    """"" when every application is an instance of its lemma and the value is the kind's
    formula of the checked blocks; otherwise what fails."""
    if derived.kind not in KINDS:
        return f"unknown kind {derived.kind!r}"
    if derived.kind in ("max", "min"):
        for part in derived.parts:
            why = check_derived(part)
            if why:
                return why
        op = sp.Max if derived.kind == "max" else sp.Min
        return "" if derived.value == op(*[p.value for p in derived.parts]) else \
            "the value is not the extremum of the parts"
    try:
        conclusions = check_derivation(derived.applications, derived.context)
    except CountingError as exc:
        return str(exc)
    if derived.kind == "count":
        value = card_of(conclusions, derived.region)
        return "" if value is not None and sp.simplify(value - derived.value) == 0 else \
            f"|{derived.region}| = {derived.value} is not concluded"
    sets = [b.set for b in derived.blocks]
    if len(set(sets)) != len(sets):
        return "a block is listed twice"
    for block in derived.blocks:
        why = _block_error(block, conclusions)
        if why:
            return why
    # the blocks are disjoint: a difference A \ B and a subset of B
    for b1 in derived.blocks:
        for b2 in derived.blocks:
            if b1 is not b2 and isinstance(b1.set, Diff) and not (
                    b1.set.right == b2.set or Subset(b2.set, b1.set.right) in conclusions):
                return f"the blocks {b1.set} and {b2.set} are not shown disjoint"
    blocks, x = derived.blocks, derived.parameter
    value = {"probability": lambda: probability_of_blocks(blocks),
             "hockey_stick": lambda: hockey_stick_of_blocks(blocks, x),
             "total_variation": lambda: total_variation_of_blocks(blocks),
             "tradeoff": lambda: tradeoff_of_blocks(blocks, x),
             "likelihood_ratio": lambda: (sp.Max if x == 1 else sp.Min)(
                 *[b.p / b.q for b in blocks]) if blocks and all(b.q != 0 for b in blocks)
             else None}[derived.kind]()
    if value is None or value != derived.value:
        return f"the value is not the {derived.kind} of the blocks"
    return ""
