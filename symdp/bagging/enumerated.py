r"""Quantities of the bagging proofs computed by exact enumeration.

Each class is an :class:`~symdp.core.enumerable.Enumerated` SymPy expression:
unevaluated while its arguments are symbolic, and, once every parameter is an
Integer, :meth:`enumerate` lists the outputs of the subsample map on the real
datasets of :mod:`symdp.bagging.enumeration` and returns an exact Rational.  The
check cascade of :mod:`symdp.proof.check` uses them to decide steps such as

.. math::
    |\Gamma_1| = n^k - (n - 1)^k \qquad (|D'| = n - 1)

with verdict ENUMERATED.

The sampling scheme is data, not a subclass: the first argument of every
quantity is a :class:`~symdp.bagging.schemes.Sampling` (held as a SymPy
``Str``), and :data:`NOTATION` says how Liu, Jia, Gong (IJCAI 2021, Appendix)
write that scheme's quantities -- the subsample operator :math:`b` and the
regions :math:`\Gamma_i` of the domain :math:`\Phi` with replacement, the
operator :math:`a` and the regions :math:`\Lambda_i` of :math:`\Psi` without.
The case selectors are the enums of :mod:`symdp.bagging.schemes`
(:class:`Neighbour`, :class:`First`, :class:`Dataset`, :class:`Region`,
:class:`Extreme`), held as Integers so that the checker's substitutions work on
them; invalid values are reported at enumeration time.  Rational parameters
(``w = e^eps``, ``alpha``) are passed as a numerator and a denominator, so that
e.g. the paper's :math:`e^\varepsilon = ((n+1)/n)^k` is ``num=(n+1)**k, den=n**k``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from sympy.core.symbol import Str

from ..core.enumerable import Enumerated
from ..core.errors import InvalidParameterError
from . import enumeration as en
from .schemes import (NOTATION, ORDERINGS, Dataset, Extreme, First, Neighbour, Notation, Ordering,
                      Region, Sampling)
from ..core.validation import shown


#: The enum naming each case-selector argument (printing and validation).
_CASES = {"sign": Neighbour, "d_first": First, "of_dprime": Dataset, "region": Region,
          "extreme": Extreme}

_CACHE: dict = {}


def _raised(latex: str, printer, exp) -> str:
    """``latex`` raised to ``exp`` (SymPy's printer passes the exponent of a power here)."""
    return latex if exp is None else f"\\left({latex}\\right)^{{{printer._print(exp)}}}"


def _rational(value: Fraction) -> sp.Rational:
    return sp.Rational(value.numerator, value.denominator)


def _sampling_atom(sampling) -> Str:
    if isinstance(sampling, Sampling):
        return Str(sampling.name)
    if isinstance(sampling, Str) and sampling.name in Sampling.__members__:
        return sampling     # SymPy rebuilding the expression (xreplace, subs)
    raise InvalidParameterError(
        f"sampling must be a symdp.bagging.Sampling; got sampling={shown(sampling)}")


class _BaggingEnumerated(Enumerated):
    """Common machinery: a sampling scheme, named parameters, validation on enumeration."""

    _arg_names: tuple = ()   # the parameters after the sampling scheme

    def __new__(cls, sampling, *args):
        if len(args) != len(cls._arg_names):
            raise TypeError(f"{cls.__name__} takes a Sampling and {len(cls._arg_names)} arguments "
                            f"({', '.join(cls._arg_names)}); got {len(args)}")
        return super().__new__(cls, _sampling_atom(sampling), *(sp.sympify(int(a)) if isinstance(
            a, (Neighbour, First, Dataset, Region, Extreme)) else sp.sympify(a) for a in args))

    @property
    def sampling(self) -> Sampling:
        return Sampling[self.args[0].name]

    @property
    def notation(self) -> Notation:
        return NOTATION[self.sampling]

    @property
    def parameters(self) -> tuple:
        """The arguments after the sampling scheme."""
        return self.args[1:]

    def arg(self, name: str):
        return self.parameters[self._arg_names.index(name)]

    @property
    def is_enumerable(self) -> bool:
        return all(a.is_Integer for a in self.parameters)

    def enumerate(self) -> sp.Rational:
        """Exact value by listing outputs (cached per class and arguments)."""
        key = (type(self), self.args)
        value = _CACHE.get(key)
        if value is None:
            value = self._compute()
            if len(_CACHE) > 100_000:
                _CACHE.clear()
            _CACHE[key] = value
        return value

    def _compute(self) -> sp.Rational:  # pragma: no cover - abstract
        raise NotImplementedError

    def counting_derivation(self):
        """The symbolic value derived through the counting lemmas (a
        :class:`symdp.core.counting.Derived`), or None (:mod:`symdp.bagging.lemmas`)."""
        from .lemmas import derive

        return derive(self)

    def ints(self) -> dict:
        """The parameters as Python ints (only when enumerable), validated."""
        if not self.is_enumerable:
            raise InvalidParameterError(
                f"{type(self).__name__} is enumerable only at integer arguments; got {self.args}")
        values = {name: int(a) for name, a in zip(self._arg_names, self.parameters)}
        _check_case(values)
        return values

    def _region_latex(self, printer, region=None) -> str:
        """:math:`\\Gamma_i`/:math:`\\Lambda_i` for a region, the domain for :attr:`Region.ALL`."""
        region = self.arg("region") if region is None else region
        if region == Region.ALL:
            return self.notation.domain
        return rf"{self.notation.region}_{{{printer._print(region)}}}"

    def _sympystr(self, printer):
        def show(name, a):
            case = _CASES.get(name)
            if case is not None and a.is_Integer and int(a) in case._value2member_map_:
                return f"{case.__name__}.{case(int(a)).name}"
            return printer._print(a)
        return (f"{type(self).__name__}(Sampling.{self.sampling.name}, "
                + ", ".join(show(name, a) for name, a in zip(self._arg_names, self.parameters)) + ")")


def _check_case(values: dict):
    """Reject parameters outside the quantity's domain, naming parameter and value."""
    if values.get("n", 2) < 2:
        raise InvalidParameterError(f"n must be an integer >= 2; got n={values['n']}")
    for name in ("k", "models"):
        if name in values and values[name] < 1:
            raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={values[name]}")
    if "sign" in values and values["sign"] not in (-1, 1):
        raise InvalidParameterError(f"sign must be -1 or +1; got sign={values['sign']}")
    for name in ("of_dprime", "d_first"):
        if name in values and values[name] not in (0, 1):
            raise InvalidParameterError(f"{name} must be 0 or 1; got {name}={values[name]}")
    if "region" in values and values["region"] not in (0, 1, 2, 3):
        raise InvalidParameterError(f"region must be 0, 1, 2 or 3; got region={values['region']}")
    for name in ("den", "b"):
        if name in values and values[name] < 1:
            raise InvalidParameterError(f"{name} must be an integer >= 1; got {name}={values[name]}")


def _sizes_latex(printer, n_, sign) -> str:
    return (rf"|D|={printer._print(n_)},\,|D'|={printer._print(n_ + sign)}")


# --------------------------------------------------------------------------- counts

class RegionCount(_BaggingEnumerated):
    r""":math:`|\Gamma_i|` (with replacement: ``k``-sequences) or :math:`|\Lambda_i|` (without:
    ``k``-subsets) that only ``D`` (region 1), only ``D'`` (2), both (3) produce.

    Liu, Jia, Gong, IJCAI 2021, Appendix, proofs of Thms. 2 and 3.
    """

    _arg_names = ("region", "n", "k", "sign")
    is_integer = True
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        if v["region"] == Region.ALL:
            raise InvalidParameterError("region must be 1, 2 or 3 for a count; got region=0")
        parts = en.regions(self.sampling, v["n"], v["k"], v["sign"])
        return sp.Integer(len(parts[v["region"]]))

    def _latex(self, printer, exp=None):
        region, n_, k_, sign = self.parameters
        s = (rf"\left|{self._region_latex(printer, region)}\right|"
             rf"_{{{_sizes_latex(printer, n_, sign)},\,k={printer._print(k_)}}}")
        return _raised(s, printer, exp)


class RegionProbability(_BaggingEnumerated):
    r""":math:`P[b(X) \in \Gamma_i]` (with replacement) or :math:`P[a(X) \in \Lambda_i]`
    (without), ``X = D`` (``of_dprime`` = :attr:`Dataset.D`) or ``D'``."""

    _arg_names = ("region", "n", "k", "sign", "of_dprime")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        if v["region"] == Region.ALL:
            raise InvalidParameterError("region must be 1, 2 or 3 for a probability; got region=0")
        records = en.neighbour(v["n"], v["sign"]) if v["of_dprime"] else en.dataset(v["n"])
        P = en.distribution(self.sampling, records, v["k"])
        parts = en.regions(self.sampling, v["n"], v["k"], v["sign"])
        return _rational(en.probability(P, parts[v["region"]]))

    def _latex(self, printer, exp=None):
        region, n_, k_, sign, of_dprime = self.parameters
        which = "D'" if of_dprime == Dataset.D_PRIME else "D"
        s = (rf"P\left[{self.notation.operator}({which}) \in {self._region_latex(printer, region)}"
             rf"\right]_{{{_sizes_latex(printer, n_, sign)},\,k={printer._print(k_)}}}")
        return _raised(s, printer, exp)


# --------------------------------------------------------------------------- pair quantities

class _PairQuantity(_BaggingEnumerated):
    """A quantity of the ordered pair ``(P, Q)`` of an ordering, on real datasets."""

    def rows(self, v, region=Region.ALL):
        """The enumerated pair as rows (P(o), Q(o), multiplicity) (see enumeration.table)."""
        ordering = Ordering(v["sign"], bool(v.get("d_first", First.D)))
        return en.table(self.sampling, v["n"], v["k"], v["models"], ordering, region)

    def _over_orderings(self, v, value) -> list:
        """``value(rows)`` for the pair of each of the four orderings."""
        return [value(en.table(self.sampling, v["n"], v["k"], v["models"], o)) for o in ORDERINGS]

    def _neighbour_latex(self, sign) -> str:
        return r"D\setminus\{x\}" if sign == -1 else r"D\cup\{y\}" if sign == 1 else "?"

    def _pair_latex(self, printer):
        n_, k_, models, sign, d_first = (self.arg(a) for a in ("n", "k", "models", "sign", "d_first"))
        op = self.notation.operator
        first = (rf"{op}(D)\,\|\,{op}(D')" if d_first == First.D else rf"{op}(D')\,\|\,{op}(D)")
        return (rf"{first};\ D'={self._neighbour_latex(sign)},\ n={printer._print(n_)},"
                rf"\ k={printer._print(k_)},\ N={printer._print(models)}")


class HockeyStick(_PairQuantity):
    r""":math:`\sup_{\Delta \subseteq A}\, P(\Delta) - wQ(\Delta) = \sum_{o\in A}(P(o) - wQ(o))_+`.

    ``A`` is the whole joint domain (``region`` = :attr:`Region.ALL`) or the paper's
    region 1, 2, 3 of ``(D, D')``; :math:`w = e^\varepsilon = num/den`.  ``models``
    base models: with replacement ``N k`` draws; joint: ``N k`` records jointly, split;
    independent: ``N`` independent ``k``-subsets.
    """

    _arg_names = ("n", "k", "models", "sign", "d_first", "region", "num", "den")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        if v["num"] < 0:
            raise InvalidParameterError(f"num must be >= 0 (w = e^eps >= 0); got num={v['num']}")
        return _rational(en.table_hockey_stick(self.rows(v, v["region"]), Fraction(v["num"], v["den"])))

    def _latex(self, printer, exp=None):
        num, den = self.arg("num"), self.arg("den")
        s = (rf"\mathcal{{H}}^{{{self.notation.tag}}}_{{{self._region_latex(printer)}}}"
             rf"\left({self._pair_latex(printer)};\ w=\frac{{{printer._print(num)}}}"
             rf"{{{printer._print(den)}}}\right)")
        return _raised(s, printer, exp)


class TradeOff(_PairQuantity):
    r""":math:`T(P, Q)(\alpha)` at :math:`\alpha = a/b` by the Neyman--Pearson lemma."""

    _arg_names = ("n", "k", "models", "sign", "d_first", "a", "b")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        return _rational(en.table_tradeoff_at(self.rows(v), Fraction(v["a"], v["b"])))

    def _latex(self, printer, exp=None):
        s = (rf"T^{{{self.notation.tag}}}\left({self._pair_latex(printer)}\right)"
             rf"\left(\frac{{{printer._print(self.arg('a'))}}}{{{printer._print(self.arg('b'))}}}\right)")
        return _raised(s, printer, exp)


class TotalVariation(_PairQuantity):
    r""":math:`\mathrm{TV}(b(D), b(D')) = \tfrac12\sum_o |P(o) - Q(o)|` (symmetric, so ``D`` first)."""

    _arg_names = ("n", "k", "models", "sign")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        return _rational(en.table_total_variation(self.rows(dict(v, d_first=First.D))))

    def _latex(self, printer, exp=None):
        n_, k_, models, sign = self.parameters
        op = self.notation.operator
        s = (rf"\mathrm{{TV}}^{{{self.notation.tag}}}\left({op}(D), {op}(D'); "
             rf"D'={self._neighbour_latex(sign)},\ n={printer._print(n_)},"
             rf"\ k={printer._print(k_)},\ N={printer._print(models)}\right)")
        return _raised(s, printer, exp)


class WorstHockeyStick(_PairQuantity):
    r""":math:`\max` over the four orderings of the loss :math:`\sup_S P(S) - wQ(S)`, :math:`w = num/den`.

    For :math:`w \ge 1` this is the privacy profile of the map: the smallest
    delta at :math:`\varepsilon = \log w` over all neighbouring pairs of ``D``.
    """

    _arg_names = ("n", "k", "models", "num", "den")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        w_ = Fraction(v["num"], v["den"])
        return _rational(max(self._over_orderings(v, lambda rows: en.table_hockey_stick(rows, w_))))

    def _latex(self, printer, exp=None):
        n_, k_, models, num, den = self.parameters
        s = (rf"\max_{{\text{{orderings}}}}\mathcal{{H}}^{{{self.notation.tag}}}"
             rf"\left(n={printer._print(n_)},"
             rf"\ k={printer._print(k_)},\ N={printer._print(models)};\ w=\frac{{{printer._print(num)}}}"
             rf"{{{printer._print(den)}}}\right)")
        return _raised(s, printer, exp)


class LeastTradeOff(_PairQuantity):
    r""":math:`\min` over the four orderings of :math:`T(P, Q)(\alpha)`, :math:`\alpha = a/b`."""

    _arg_names = ("n", "k", "models", "a", "b")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        alpha_ = Fraction(v["a"], v["b"])
        return _rational(min(self._over_orderings(v, lambda rows: en.table_tradeoff_at(rows, alpha_))))

    def _latex(self, printer, exp=None):
        n_, k_, models, a_, b_ = self.parameters
        s = (rf"\min_{{\text{{orderings}}}}T^{{{self.notation.tag}}}"
             rf"_{{n={printer._print(n_)},\,k={printer._print(k_)},"
             rf"\,N={printer._print(models)}}}\left(\frac{{{printer._print(a_)}}}{{{printer._print(b_)}}}\right)")
        return _raised(s, printer, exp)


class LikelihoodRatio(_PairQuantity):
    r"""Extreme of :math:`P(o)/Q(o)` over the outputs of a region (``extreme`` = :class:`Extreme`).

    Constant on the region (max = min = c) means :math:`P(\Delta) = c\,Q(\Delta)` for
    every :math:`\Delta` in it, the paper's step on :math:`\Gamma_3`/:math:`\Lambda_3`.
    """

    _arg_names = ("n", "k", "models", "sign", "d_first", "region", "extreme")
    is_positive = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        if v["region"] == Region.ALL or v["extreme"] not in (0, 1):
            raise InvalidParameterError(
                f"region must be 1, 2 or 3 and extreme 0 or 1; got region={v['region']}, "
                f"extreme={v['extreme']}")
        ratios = []
        for p, q, _ in self.rows(v, v["region"]):
            if q == 0:
                raise InvalidParameterError(
                    f"Q vanishes at an output of region {v['region']}; the ratio is infinite")
            ratios.append(p / q)
        if not ratios:
            raise InvalidParameterError(f"region {v['region']} is empty")
        return _rational(max(ratios) if v["extreme"] == Extreme.MAX else min(ratios))

    def _latex(self, printer, exp=None):
        op = r"\max" if self.arg("extreme") == Extreme.MAX else r"\min"
        s = (rf"{op}_{{o\in{self._region_latex(printer)}}}\frac{{P(o)}}{{Q(o)}}"
             rf"\left({self._pair_latex(printer)}\right)")
        return _raised(s, printer, exp)
