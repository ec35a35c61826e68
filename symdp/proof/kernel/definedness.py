r"""The kernel's definedness rules: where an expression, as written, is defined.

Deny by default (issue #27, item 3): every node of a side is either

* **total** -- defined wherever its arguments are (:data:`TOTAL`: ``+``, ``*``, ``exp``,
  ``sin``, ``cos``, ``Abs``, ``Max``, ``Min``, ``erf``, ``erfc``, :math:`\Phi`, ...);
* **partial with a rule** here -- the facts under which it is defined (:func:`hazards`):

  - ``b**k``: ``b != 0`` under a negative integer power, ``b >= 0`` under a fractional power
    (``b > 0`` when also negative); a symbolic exponent needs ``b > 0`` unless ``k > 0`` on
    the domain (then ``0**k = 0``; ``b >= 0`` unless k is an integer);
  - ``log(u)``: ``u > 0``;
  - :math:`\Phi^{-1}(u)`: ``0 < u < 1`` (``+-oo`` at the ends), ``0 <= u <= 1`` where it is
    the argument of :math:`\Phi`, ``erf`` or ``erfc`` plus finite terms (:math:`\Phi(\pm\infty)`
    is 1 or 0, the continuous extension); ``erfinv(u)``: ``-1 < u < 1``; ``erfcinv(u)``:
    ``0 < u < 2``;
  - ``factorial(z)`` (SymPy's :math:`\Gamma(z + 1)`, poles at the negative integers):
    ``z > -1``, i.e. ``z >= 0`` for an integer z; ``gamma(z)``: ``z > 0``;
    ``binomial(n, k)``: total for an integer k (a polynomial in n; 0 for k < 0), else
    ``n > -1``, ``k > -1``, ``n - k > -1`` (the Gamma form);
  - ``asin(u)``, ``acos(u)``: ``-1 <= u <= 1``; ``atanh(u)``: ``-1 < u < 1``; ``acosh(u)``:
    ``u >= 1``; ``tan(u)``: ``cos(u) != 0``; ``cot(u)``: ``sin(u) != 0``;
  - a probability ``Pr[E]`` or an indicator ``1[E]`` read from a document
    (``symdp.core.quantities``): a number in [0, 1] wherever it is written, its event not
    looked into (an expectation, a variance, a supremum has no rule: it may be infinite);
  - symdp's values: ``TradeOffAt(f, x)`` and ``f``'s value by definition at x: ``0 <= x <= 1``
    (a trade-off function lives on [0, 1]); ``InverseAt(f, a)``
    (:math:`\inf\{t : f(t) \le a\}`, Eq. 4): ``0 <= a <= 1``; ``ConjugateAt(f, y)`` (a
    supremum over the compact [0, 1]) and a privacy profile ``ProfileAt(f, eps)``: every real
    argument; an :class:`~symdp.core.enumerable.Enumerated` atom: every argument an integer
    (its value is its enumeration; the ranges of its cases are checked where it is
    enumerated); an abstract trade-off function f (issue #28) is such a ``TradeOffAt``:
    ``f(x)`` needs ``0 <= x <= 1``, which holds without a fact for an argument that is a
    value ``g(y)`` or the fixed point of a g the kernel shows to be a trade-off function
    (``convex.tradeoff_reason``; Prop. 2.2: g maps [0, 1] into [0, 1]); the fixed point
    ``FixedPoint(g)`` only of such a g (it exists and is unique); an abstract mechanism is
    looked into and ``M o Sample_p`` needs its rate ``0 <= p <= 1``; a trade-off *object* (``EpsDelta(eps, delta)``...) is a set of parameters,
    looked into (its own conditions are the obligations of issue #12); an undefined function
    ``f(x)`` stands for an arbitrary real function (a claim about every f);
  - ``Sum(t, (j, a, b))``: a finite sum (a, b integers, not infinite) of terms defined for
    every integer j in [a, b]; ``Integral(t, (x, a, b))``: the integrand built from
    functions continuous where defined (:func:`symdp.proof.kernel.continuous_where_defined`),
    defined on [a, b] (``a <= b``); an infinite end needs a Gaussian tail:
    :math:`|t(x)| \le C (1 + |x|)^d e^{L|x| - c x^2}` with ``c > 0`` read off the integrand
    (:func:`_gaussian_growth`), which makes the integral absolutely convergent;
  - an infinity: a side may be ``+-oo``; ``oo + finite`` is ``oo``, but ``oo - oo`` and
    ``0 * oo`` are undefined (every other factor of an infinite product must be non-zero);

* or **unknown** -- no holding verdict: :class:`NoRule` names it (``Limit``, ``Derivative``,
  ``hyper``, ``LambertW``, a supremum ``DualSup``, a user's function class ...).

:func:`defined_on` confirms each fact on a domain through the kernel's
:func:`~symdp.proof.kernel.confirm`.  Words, never a verdict: only the package's ``accept``
seals.
"""

from __future__ import annotations

import sympy as sp

from ..certificates import Domain, Fact


class NoRule(ValueError):
    """A node the kernel has no definedness rule for (``node``): no holding verdict."""

    def __init__(self, node, why: str = ""):
        self.node = node
        name = getattr(node, "func", type(node))
        name = getattr(name, "__name__", str(name))
        super().__init__(f"the kernel has no definedness rule for {name}"
                         + (f" ({why})" if why else "") + f", in {sp.sstr(node)[:120]}")


def confirm(fact: Fact, domain: Domain) -> str:
    """The kernel's :func:`~symdp.proof.kernel.confirm` (imported late: it calls back here)."""
    from . import confirm as kernel_confirm

    return kernel_confirm(fact, domain)


def total_nodes() -> tuple:
    """The nodes defined wherever their arguments are (and real-valued there)."""
    from ...core.special import Phi   # local: the proof package stays free of cycles

    return (sp.Add, sp.Mul, sp.exp, sp.sin, sp.cos, sp.atan, sp.sinh, sp.cosh, sp.tanh,
            sp.asinh, sp.Abs, sp.Max, sp.Min, sp.sign, sp.floor, sp.ceiling, sp.erf, sp.erfc,
            Phi)


def continuous_nodes() -> tuple:
    """The nodes continuous at every point where they are defined and finite (the total ones
    but sign, floor and ceiling; log, powers and the inverse normal CDF on their domains)."""
    from ...core.special import Phi, PhiInv

    return (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.sin, sp.cos, sp.atan, sp.sinh, sp.cosh,
            sp.tanh, sp.asinh, sp.Abs, sp.Max, sp.Min, sp.erf, sp.erfc, Phi, PhiInv)


#: boolean nodes (Piecewise conditions) and containers: looked into, no condition of their own
_LOOKED_INTO = (sp.core.relational.Relational, sp.logic.boolalg.BooleanFunction, sp.Tuple)


class _ByName:
    """symdp's value class of the qualified name ``qualified`` (with its subclasses), read from
    the class's MRO: the kernel imports none of symdp's objects (``symdp.tradeoff`` and
    ``symdp.composition`` are outside the trusted base), and a user's class that merely
    shares the short name is another class."""

    def __init__(self, qualified: str):
        self.qualified = qualified

    def __instancecheck__(self, obj) -> bool:
        return any(f"{k.__module__}.{k.__qualname__}" == self.qualified
                   for k in type(obj).__mro__)


def _symdp_classes():
    """symdp's value classes: ``(TradeOff, TradeOffAt, InverseAt, ConjugateAt,
    ValueByDefinitionAt, ProfileAt, Enumerated)`` -- the last imported (core is trusted),
    the others recognised by qualified name (:class:`_ByName`)."""
    from ...core.enumerable import Enumerated

    return (_ByName("symdp.tradeoff.base.TradeOff"), _ByName("symdp.tradeoff.base.TradeOffAt"),
            _ByName("symdp.tradeoff.base.InverseAt"), _ByName("symdp.tradeoff.base.ConjugateAt"),
            _ByName("symdp.tradeoff.numeric.ValueByDefinitionAt"),
            _ByName("symdp.composition.products.ProfileAt"), Enumerated)


#: issue #28's objects without values, by qualified name: the fixed point x* = g(x*) of a
#: trade-off function g (it exists and is unique: g(x) - x falls continuously and strictly
#: from g(0) >= 0 to -1), an abstract mechanism M (a name and its declared guarantees,
#: looked into), then M o Sample_m (defined for a rate p in [0, 1]).  An
#: abstract trade-off function f is a TradeOff (looked into: a name and its declarations);
#: its value f(x) is a ``TradeOffAt``, defined for 0 <= x <= 1 only.
_ABSTRACT_OBJECTS = (_ByName("symdp.tradeoff.abstract.FixedPoint"),
                     _ByName("symdp.subsampling.mechanism.Mechanism"),
                     _ByName("symdp.subsampling.mechanism.SampledMechanism"))

#: a probability ``Pr[E]`` and an indicator ``1[E]`` read from a document
#: (:mod:`symdp.core.quantities`, outside the trusted base: recognised by qualified name):
#: a number in [0, 1] for every event as written, so defined wherever written (the event
#: is a set, not evaluated; what holds of every value in [0, 1] holds of it).  The other
#: quantities of that module (an expectation, a variance, a supremum, a sum over a set, a
#: norm) may be infinite or fail to exist: no rule, deny by default.
_PROBABILITIES = (_ByName("symdp.core.quantities.Probability"),
                  _ByName("symdp.core.quantities.Indicator"))


def hazards(expr, where=(), domain: Domain | None = None) -> list:
    """The facts under which ``expr`` is defined (the rules of this module's docstring).
    Piecewise conditions are looked into as expressions; a hazard inside a branch is needed
    only where its condition holds and the earlier ones fail (``where``).  Raises
    :class:`NoRule` for a node without a rule."""
    return list(dict.fromkeys(_hazards(expr, tuple(where), domain, False)))


def _cond(where):
    return Domain((), (), where) if where else None


def _in(expr, lo, hi, where, left_open=False, right_open=False, why="definedness"):
    """Facts ``lo <(=) expr <(=) hi`` (an end None: no bound); a bound that holds as an
    exact comparison of numbers needs no fact."""
    out = []
    for gap, strict in ((None if lo is None else expr - lo, left_open),
                        (None if hi is None else hi - expr, right_open)):
        if gap is None:
            continue
        if gap.is_Rational and (gap > 0 if strict else gap >= 0):
            continue
        out.append(Fact(gap, "positive" if strict else "nonnegative", why, _cond(where)))
    return out


def _infinite(e) -> bool:
    return e in (sp.oo, -sp.oo, sp.zoo) or (isinstance(e, sp.Mul) and any(
        a in (sp.oo, -sp.oo) for a in e.args))


def _hazards(expr, where, domain, extended):  # noqa: C901 - one rule per kind of node
    """The facts of ``expr``; ``extended``: an infinite value is allowed here (an argument of
    Phi, erf or erfc, whose value at +-oo is the limit)."""
    from ...core.special import Phi, PhiInv

    if not isinstance(expr, sp.Basic):
        return []
    if expr.is_Atom:
        if expr in (sp.nan, sp.zoo):
            raise NoRule(expr, "nan or complex infinity")
        return []
    TradeOff, TradeOffAt, InverseAt, ConjugateAt, ByDefinition, ProfileAt, Enumerated = \
        _symdp_classes()
    out = []
    if isinstance(expr, sp.Piecewise):
        earlier = ()
        for branch, cond in expr.args:
            out += _hazards(cond, where + earlier, domain, False) \
                if isinstance(cond, sp.Basic) else []
            relational = isinstance(cond, sp.core.relational.Relational)
            out += _hazards(branch, where + earlier + ((cond,) if relational else ()), domain,
                            False)
            if not relational:
                break
            earlier += (cond.negated,)
        return out
    if isinstance(expr, sp.core.relational.Relational):
        return [f for a in expr.args if not _infinite(a)
                for f in _hazards(a, where, domain, False)]
    if isinstance(expr, _LOOKED_INTO) or isinstance(expr, TradeOff) or \
            isinstance(expr, _ABSTRACT_OBJECTS[1]):
        return [f for a in expr.args for f in _hazards(a, where, domain, False)]
    if isinstance(expr, _ABSTRACT_OBJECTS[0]):   # x* = g(x*): g must be a trade-off function
        if not _tradeoff_function(expr.args[0], domain):
            raise NoRule(expr, "the fixed point of a function not shown to be a trade-off "
                               "function")
        return [f for a in expr.args for f in _hazards(a, where, domain, False)]
    if isinstance(expr, _ABSTRACT_OBJECTS[2]):   # M o Sample_m, p = m/n a sampling rate
        return [f for a in expr.args for f in _hazards(a, where, domain, False)] + \
            _in(expr.args[1], 0, 1, where, why="definedness: a sampling rate in [0, 1]")
    if isinstance(expr, sp.Sum):
        return _sum(expr, where, domain)
    if isinstance(expr, sp.Integral):
        return _integral(expr, where, domain)
    if isinstance(expr, sp.Add):
        infinite = [a for a in expr.args if _infinite(a)]
        if len(infinite) > 1 or (infinite and any(a.has(sp.oo, -sp.oo, sp.zoo) or
                                                  a.has(PhiInv, sp.erfinv, sp.erfcinv)
                                                  for a in expr.args if a not in infinite)):
            raise NoRule(expr, "oo - oo")
        extended_here = extended and sum(a.has(PhiInv, sp.erfinv, sp.erfcinv)
                                         for a in expr.args) <= 1
        return [f for a in expr.args if not _infinite(a)
                for f in _hazards(a, where, domain, extended_here)]
    if isinstance(expr, sp.Mul) and any(_infinite(a) for a in expr.args):
        finite = [a for a in expr.args if not _infinite(a)]
        if len(finite) < len(expr.args) - 1:
            raise NoRule(expr, "a product of infinities")
        out = [f for a in finite for f in _hazards(a, where, domain, False)]
        return out + [Fact(a, "nonzero", "definedness: 0 * oo", _cond(where))
                      for a in finite if a.free_symbols or a == 0]
    if isinstance(expr, (Phi, sp.erf, sp.erfc)):
        return _hazards(expr.args[0], where, domain, True)
    if isinstance(expr, _PROBABILITIES):
        return []   # a number in [0, 1] wherever it is written; its event is not arithmetic
    # the arguments first, then the node's own conditions
    if not isinstance(expr, sp.Pow):
        for a in expr.args:   # (a deeper infinity is met where it is an argument)
            if _infinite(a) or (isinstance(a, sp.Add) and any(_infinite(t) for t in a.args)):
                raise NoRule(expr, "an infinite argument")
    args = expr.args
    if isinstance(expr, sp.Mul) and extended:
        # Phi(-PhiInv(u)): a non-zero constant times one extended value stays extended
        spread = [a for a in args if a.has(PhiInv, sp.erfinv, sp.erfcinv)]
        if len(spread) == 1 and all(a.is_number and a.is_nonzero for a in args
                                    if a is not spread[0]):
            return _hazards(spread[0], where, domain, True)
    if isinstance(expr, total_nodes()):
        return [f for a in args for f in _hazards(a, where, domain, False)]
    if isinstance(expr, sp.core.function.AppliedUndef):   # an arbitrary (real) function f
        return [f for a in args for f in _hazards(a, where, domain, False)]
    inner = [f for a in args for f in _hazards(a, where, domain, False)]
    if isinstance(expr, sp.Pow):
        return inner + _power(expr, where, domain)
    if isinstance(expr, sp.log):
        return inner + _in(args[0], 0, None, where, left_open=True)
    if isinstance(expr, PhiInv):
        return inner + _in(args[0], 0, 1, where, not extended, not extended)
    if isinstance(expr, sp.erfinv):
        return inner + _in(args[0], -1, 1, where, not extended, not extended)
    if isinstance(expr, sp.erfcinv):
        return inner + _in(args[0], 0, 2, where, not extended, not extended)
    if isinstance(expr, sp.factorial):
        return inner + _in(args[0], -1, None, where, left_open=True,
                           why="definedness: a pole of factorial")
    if isinstance(expr, sp.gamma):
        return inner + _in(args[0], 0, None, where, left_open=True,
                           why="definedness: a pole of gamma")
    if isinstance(expr, sp.binomial):
        n, k = args
        if _integer(k, domain):
            return inner
        return inner + _in(n, -1, None, where, True) + _in(k, -1, None, where, True) + \
            _in(n - k, -1, None, where, True)
    if isinstance(expr, (sp.asin, sp.acos)):
        return inner + _in(args[0], -1, 1, where)
    if isinstance(expr, sp.atanh):
        return inner + _in(args[0], -1, 1, where, True, True)
    if isinstance(expr, sp.acosh):
        return inner + _in(args[0], 1, None, where)
    if isinstance(expr, sp.tan):
        return inner + [Fact(sp.cos(args[0]), "nonzero", "definedness", _cond(where))]
    if isinstance(expr, sp.cot):
        return inner + [Fact(sp.sin(args[0]), "nonzero", "definedness", _cond(where))]
    if isinstance(expr, (TradeOffAt, ByDefinition)):
        if _value_of_a_tradeoff(args[1], domain, (TradeOffAt, ByDefinition)):
            return inner   # g(y), x* = g(x*) in [0, 1] for a trade-off function g (Prop. 2.2)
        return inner + _in(args[1], 0, 1, where, why="definedness: a trade-off function on [0, 1]")
    if isinstance(expr, InverseAt):
        return inner + _in(args[1], 0, 1, where, why="definedness: f^-1 on [0, 1]")
    if isinstance(expr, (ConjugateAt, ProfileAt)):
        return inner
    if isinstance(expr, Enumerated):
        return inner + [Fact(a, "integer", "definedness: an enumerated atom's argument",
                             _cond(where))
                        for a in args if isinstance(a, sp.Expr) and a.free_symbols
                        and not _integer(a, domain)]
    raise NoRule(expr)


def _value_of_a_tradeoff(x, domain, value_classes) -> bool:
    """``x`` is ``g(y)`` or the fixed point ``x* = g(x*)`` of a g the kernel shows to be a
    trade-off function on ``domain`` (:func:`_tradeoff_function`), so that ``x`` lies in
    [0, 1] (Dong, Roth, Su 2022, Def. 2.1: a type II error; Prop. 2.2) wherever it is
    defined -- ``g(y)``'s own condition ``0 <= y <= 1`` is among the argument's facts."""
    if domain is None or not isinstance(x, value_classes + (_ABSTRACT_OBJECTS[0],)):
        return False
    return _tradeoff_function(x.args[0], domain)


def _tradeoff_function(g, domain) -> bool:
    """g is a trade-off function on ``domain`` by the kernel's rule
    (:func:`symdp.proof.kernel.convex.tradeoff_reason`: a family with its parameters in
    range, a mixture, an inverse, C_p of one, a declared abstract f)."""
    if domain is None:
        return False
    from .convex import Refused, tradeoff_reason   # after this module: convex reads hazards

    try:
        tradeoff_reason(g, domain)
    except Refused:
        return False
    except Exception:  # noqa: BLE001 - not shown: no rule
        return False
    return True


def _power(e, where, domain):
    """``b**k``: with a symbolic k, an integer k >= 0 needs nothing (``0**0 = 1``), another
    integer ``b != 0``, a positive non-integer ``b >= 0``, any other k ``b > 0``."""
    dom = _cond(where)
    if not e.base.free_symbols and (e.base.is_positive or not e.exp.free_symbols):
        return []
    if e.base.has(sp.oo, -sp.oo, sp.zoo) or e.exp.has(sp.oo, -sp.oo, sp.zoo):
        raise NoRule(e, "an infinite base or exponent")
    if not e.exp.is_number:
        if _integer(e.exp, domain):
            if confirm(Fact(e.exp, "nonnegative"), domain):
                return []
            return [Fact(e.base, "nonzero", "definedness: exponent", dom)]
        k_positive = domain is not None and confirm(Fact(e.exp, "positive"), domain)
        return [Fact(e.base, "nonnegative" if k_positive else "positive",
                     "definedness: exponent", dom)]
    if e.exp.is_negative:
        return [Fact(e.base, "nonzero" if e.exp.is_integer else "positive", "definedness", dom)]
    if not e.exp.is_integer:
        return [Fact(e.base, "nonnegative", "definedness", dom)]
    return []


def _integer(e, domain) -> bool:
    """``e`` is an integer at every point of ``domain``: by its structure (integer
    parameters, +, *, non-negative integer powers, binomials and factorials of integers) or
    confirmed by the kernel."""
    from .deciders import integer_by_structure

    if domain is None:
        return bool(e.is_Integer)
    return integer_by_structure(e, domain) or bool(confirm(Fact(e, "integer"), domain))


def _bound_domain(domain, variable, integer, conditions, where):
    """The step's domain with the bound ``variable`` of a Sum or an Integral added (its set:
    the integers or the reals; ``conditions`` its range) and narrowed by ``where``."""
    dummy_set = sp.S.Integers if integer else sp.S.Reals
    return Domain(tuple(domain.hypotheses) + ((variable, dummy_set),), domain.constraints,
                  tuple(domain.side_conditions) + tuple(where) + tuple(conditions))


def _sum(e, where, domain):
    """A finite sum: integer, finite limits; each term defined for every integer j in them."""
    if domain is None or len(e.limits) != 1 or len(e.limits[0]) != 3:
        raise NoRule(e, "a sum the kernel reads with the step's domain and one (j, a, b)")
    j, a, b = e.limits[0]
    if any(v.has(sp.oo, -sp.oo, sp.zoo) for v in (a, b)):
        raise NoRule(e, "an infinite sum (its convergence is not shown)")
    if not (_integer(a, domain) and _integer(b, domain)):
        raise NoRule(e, "limits that are not shown to be integers")
    fresh = sp.Dummy(j.name, integer=True)
    body = e.function.xreplace({j: fresh})
    inner = _bound_domain(domain, fresh, True, (fresh >= a, fresh <= b), where)
    facts = [f for v in (a, b) for f in _hazards(v, where, domain, False)]
    for f in _hazards(body, (), inner, False):
        facts.append(Fact(f.expression, f.property, f.source + " (a term of a sum)",
                          Domain(inner.hypotheses, inner.constraints,
                                 tuple(inner.side_conditions) + tuple(
                                     f.domain.side_conditions if f.domain else ()))))
    return facts


def _integral(e, where, domain):
    """An integral in one variable: the integrand continuous where defined and defined on
    [a, b] (a <= b); an infinite end needs a Gaussian tail (absolute convergence)."""
    from . import continuous_where_defined

    if domain is None or len(e.limits) != 1 or len(e.limits[0]) != 3:
        raise NoRule(e, "an integral the kernel reads with the step's domain and one (x, a, b)")
    x, a, b = e.limits[0]
    fresh = sp.Dummy(x.name, real=True)
    body = e.function.xreplace({x: fresh})
    known = continuous_where_defined()
    odd = next((n for n in sp.preorder_traversal(body)
                if not (n.is_Atom or isinstance(n, known))), None)
    if odd is not None:
        raise NoRule(e, f"an integrand with {type(odd).__name__}, not known continuous")
    infinite = [v for v in (a, b) if v in (sp.oo, -sp.oo)]
    if any(v.has(sp.oo, -sp.oo, sp.zoo) for v in (a, b) if v not in infinite) or \
            a == sp.oo or b == -sp.oo:
        raise NoRule(e, "limits the kernel does not read")
    if infinite and not _gaussian_growth(body, fresh):
        raise NoRule(e, "an infinite range without a Gaussian tail (convergence not shown)")
    conditions = tuple(c for c, v in ((fresh >= a, a), (fresh <= b, b)) if v not in infinite)
    facts = [f for v in (a, b) if v not in infinite for f in _hazards(v, where, domain, False)]
    if not infinite:
        facts.append(Fact(b - a, "nonnegative", "definedness: an integral's limits in order",
                          _cond(where)))
    inner = _bound_domain(domain, fresh, False, conditions, where)
    for f in _hazards(body, (), inner, False):
        facts.append(Fact(f.expression, f.property, f.source + " (the integrand)",
                          Domain(inner.hypotheses, inner.constraints,
                                 tuple(inner.side_conditions) + tuple(
                                     f.domain.side_conditions if f.domain else ()))))
    return facts


def _gaussian_growth(e, x) -> bool:
    r"""``|e(x)| <= C (1 + |x|)^d e^{L |x| + q x^2}`` with a rational ``q < 0``: read off the
    tree (:func:`_growth`), so that the integral of ``e`` over an infinite range converges
    absolutely."""
    g = _growth(e, x)
    return g is not None and g[1] < 0


def _growth(e, x):
    """``(d, q)``: ``|e| <= C (1 + |x|)^d e^{L|x| + q x^2}`` for some C, L (None: not read).
    A sum takes the largest of each, a product the sums, ``exp(a2 x^2 + a1 x + a0)`` gives
    ``q = a2`` (a rational), a bounded function (Phi, erf, erfc, sin, cos, atan, tanh) 0."""
    from ...core.special import Phi

    if x not in e.free_symbols:
        return (0, 0)
    if e == x:
        return (1, 0)
    if isinstance(e, sp.Add):
        parts = [_growth(a, x) for a in e.args]
        return None if None in parts else (max(p[0] for p in parts), max(p[1] for p in parts))
    if isinstance(e, sp.Mul):
        parts = [_growth(a, x) for a in e.args]
        return None if None in parts else (sum(p[0] for p in parts), sum(p[1] for p in parts))
    if isinstance(e, sp.Pow) and e.base is sp.E:
        return _growth(sp.exp(e.exp), x)
    if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp > 0:
        g = _growth(e.base, x)
        return None if g is None else (g[0] * int(e.exp), g[1] * int(e.exp))
    if isinstance(e, sp.exp):
        a = sp.expand(e.args[0])
        if not a.is_polynomial(x) or sp.degree(a, x) > 2:
            return None
        q = a.coeff(x, 2)
        return (0, q) if q.is_Rational else None
    if isinstance(e, (Phi, sp.erf, sp.erfc, sp.sin, sp.cos, sp.atan, sp.tanh)):
        return (0, 0)
    if isinstance(e, sp.Abs):
        return _growth(e.args[0], x)
    return None


def defined_on(sides, domain: Domain) -> str:
    """"" when every hazard of ``sides`` is confirmed on ``domain``, else what is not (a node
    without a rule is named)."""
    for side in sides:
        if side.has(sp.nan) or side.has(sp.zoo):
            return "a side contains nan or zoo"
        try:
            facts = hazards(side, domain=domain)
        except NoRule as exc:
            return str(exc)
        for fact in facts:
            if not confirm(fact, domain):
                return f"{fact.text()} is not shown on the domain"
    return ""
