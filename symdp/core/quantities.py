r"""Quantities a document names but symdp does not evaluate: probabilities, expectations,
variances, indicators, suprema and infima, sums over a set, applications of a function
nobody defined.

``symdp check-tex`` reads ``\Pr[M(x) \in S]``, ``\mathbb{E}[e^{\lambda X}]``,
``\operatorname{Var}(X)``, ``\mathbb{I}[Y \in E]``, ``\sup_{z \in \mathbb{R}} f(z)``,
``\sum_{y \in S} p_y`` and ``s(X)`` (``% symdp: function s``) into the objects of this module,
so that the algebra *around* them can be checked: each object carries what it is of (an
:class:`Event`, a body, a binder) and what is known of its value whatever that is
(:func:`value_bounds`: a probability and an indicator lie in [0, 1], a variance is at least
0, everything here is a real number).  Two occurrences are the same quantity exactly when
they are equal as SymPy objects (same event text, same body, same binder), so
``\Pr[A] \le \Pr[A] + \delta`` holds and ``\Pr[A] \le \Pr[B]`` is not decided.

What a checker may do with them (the rule :mod:`symdp.report.tex_check` follows): replace
each maximal such subexpression by a fresh real symbol ranging over :func:`value_bounds`.
A claim that holds for every value of those symbols holds for the quantities; a claim that
fails for *some* value says nothing, since the failing value need not be one the quantity
can take (the events are not known), so it is not decided, never refuted.  Where a
``% symdp: let X \sim \mathrm{Laplace}(b)`` names a law, the probability is computed from
it (:mod:`sympy.stats`) and is no longer opaque.

The classes are SymPy ``Function`` subclasses with real-valued assumptions; the kernel's
definedness rules may treat every :class:`ReadQuantity` as a real number in
:func:`value_bounds` (they are defined wherever the document writes them: nothing here is
a partial function of its arguments).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["Text", "Event", "ReadQuantity", "Probability", "Expectation", "Variance",
           "Indicator", "Extremum", "Aggregate", "Norm", "value_bounds", "is_opaque", "label"]


class Text(sp.Symbol):
    """A piece of LaTeX carried as an argument (an event as written, a binder ``x \\sim x'``,
    a law ``x \\sim P``): compared by its text, never a variable (no free symbols)."""

    @property
    def free_symbols(self):
        return set()


class Event(sp.Function):
    r"""``Event(text, content)``: an event as written (``M(x) \in S``) and what was read of
    it: the relation (``X \ge t``) when the grammar reads it, else a ``Tuple`` of the symbols
    it mentions (so that substituting a value for one of them gives another event)."""

    nargs = 2

    @property
    def text(self) -> str:
        return self.args[0].name

    @property
    def relation(self):
        content = self.args[1]
        return None if isinstance(content, sp.Tuple) else content


class ReadQuantity(sp.Function):
    """A real number a document names and symdp does not evaluate."""

    def _eval_is_real(self):
        return True

    def _eval_is_extended_real(self):
        return True

    def _eval_is_finite(self):
        return True

    def _eval_is_complex(self):
        return True


class Probability(ReadQuantity):
    r"""``Probability(event)``: :math:`\Pr[E]`, in [0, 1]."""

    nargs = 1

    def _eval_is_nonnegative(self):
        return True

    def _eval_is_negative(self):
        return False


class Indicator(ReadQuantity):
    r"""``Indicator(event)``: :math:`\mathbb{I}[E]`, 0 or 1."""

    nargs = 1

    def _eval_is_nonnegative(self):
        return True

    def _eval_is_negative(self):
        return False


class Expectation(ReadQuantity):
    r"""``Expectation(body, under)``: :math:`\mathbb{E}_{under}[body]` (``under`` is a
    :class:`Text`, empty when the document names no law); non-negative when the body is."""

    nargs = 2

    def _eval_is_nonnegative(self):
        return True if self.args[0].is_nonnegative else None

    def _eval_is_positive(self):
        return True if self.args[0].is_positive else None


class Variance(ReadQuantity):
    r"""``Variance(body)``: :math:`\operatorname{Var}(X)`, at least 0."""

    nargs = 1

    def _eval_is_nonnegative(self):
        return True

    def _eval_is_negative(self):
        return False


class _Binding(ReadQuantity):
    """A quantity that binds variables: ``(kind, body, binder, bound)``, ``bound`` the Tuple
    of the bound symbols (not free in the quantity)."""

    nargs = 4

    @property
    def free_symbols(self):
        return self.args[1].free_symbols - set(self.args[3])


class Extremum(_Binding):
    r"""``Extremum(kind, body, binder, bound)``: :math:`\sup_{x \in S} f(x)` and its kin,
    ``kind`` one of ``sup inf max min`` (a :class:`Text`), ``binder`` the subscript as
    written, ``bound`` the variables it binds."""


class Aggregate(_Binding):
    r"""``Aggregate(kind, body, binder, bound)``: :math:`\sum_{y \in S} p_y` or
    :math:`\prod_{j \in A} q_j` over a set symdp does not enumerate (``kind`` ``sum`` or
    ``prod``)."""


class Norm(ReadQuantity):
    r"""``Norm(body, kind)``: :math:`\|x - x'\|_1` (``kind`` the subscript as written, a
    :class:`Text`), at least 0."""

    nargs = 2

    def _eval_is_nonnegative(self):
        return True

    def _eval_is_negative(self):
        return False


_BOUNDS = {Probability: (sp.S.Zero, sp.S.One), Indicator: (sp.S.Zero, sp.S.One),
           Variance: (sp.S.Zero, sp.oo), Norm: (sp.S.Zero, sp.oo)}


def is_opaque(expr) -> bool:
    """Whether ``expr`` is a quantity symdp reads but does not evaluate: a
    :class:`ReadQuantity` or an application of an undefined function (``s(X)``)."""
    return isinstance(expr, ReadQuantity) or isinstance(expr, sp.core.function.AppliedUndef)


def value_bounds(expr) -> sp.Interval:
    """What is known of the value of an opaque quantity whatever it is of, as a set: [0, 1]
    for a probability or an indicator, [0, oo) for a variance or a norm, (0, oo) for the
    expectation of a body positive for every real value of its symbols ([0, oo) for one
    non-negative), the real line otherwise."""
    if type(expr) in _BOUNDS:
        return sp.Interval(*_BOUNDS[type(expr)])
    if isinstance(expr, Expectation) and not isinstance(expr.args[0], Event):
        body = expr.args[0]
        real = body.xreplace({s: sp.Dummy(s.name, real=True) for s in body.free_symbols
                              if isinstance(s, sp.Symbol)})
        if real.is_positive:
            return sp.Interval.open(0, sp.oo)
        if real.is_nonnegative:
            return sp.Interval(0, sp.oo)
    return sp.Interval(-sp.oo, sp.oo)


def label(expr) -> str:
    r"""A short name of an opaque quantity for reports: ``Pr[M(x) \in S]``, ``E[Z]``,
    ``sup_{z \in \mathbb{R}}[f(z)]`` (quantities inside it shown by their own names)."""
    def text(arg) -> str:
        if isinstance(arg, Event):
            return arg.text
        if isinstance(arg, Text):
            return arg.name
        inner = {q: sp.Symbol(label(q)) for q in sp.preorder_traversal(arg)
                 if isinstance(q, ReadQuantity) and q is not arg}
        return sp.sstr(arg.xreplace(inner) if inner else arg)

    if isinstance(expr, Probability):
        return f"Pr[{text(expr.args[0])}]"
    if isinstance(expr, Indicator):
        return f"I[{text(expr.args[0])}]"
    if isinstance(expr, Expectation):
        under = text(expr.args[1])
        return f"E{'_{' + under + '}' if under else ''}[{text(expr.args[0])}]"
    if isinstance(expr, Variance):
        return f"Var[{text(expr.args[0])}]"
    if isinstance(expr, (Extremum, Aggregate)):
        return f"{text(expr.args[0])}_{{{text(expr.args[2])}}}[{text(expr.args[1])}]"
    if isinstance(expr, Norm):
        return f"||{text(expr.args[0])}||_{text(expr.args[1])}"
    return sp.sstr(expr)
