r"""Quantities of the bagging proofs computed by exact enumeration.

Each class is a :class:`~symdp.core.enumerable.Enumerated` SymPy expression:
unevaluated while its arguments are symbolic, and, once every argument is an
Integer, :meth:`enumerate` lists the outputs of the subsample map on the real
datasets of :mod:`symdp.bagging.enumeration` and returns an exact Rational.  The
check cascade of :mod:`symdp.proof.check` uses them to decide steps such as

.. math::
    |\Gamma_1| = n^k - (n - 1)^k \qquad (|D'| = n - 1)

with verdict ENUMERATED.  Arguments that select a case are Integers:
``sign`` (-1 remove, +1 add), ``of_dprime``/``d_first`` (0 or 1),
``region`` (0 = every output, 1, 2, 3 = the paper's Gamma_i / Lambda_i).
Rational parameters (``w = e^eps``, ``alpha``) are passed as a numerator and
a denominator, so that e.g. the paper's :math:`e^\varepsilon = ((n+1)/n)^k` is
``num=(n+1)**k, den=n**k``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..core.errors import InvalidParameterError
from ..core.enumerable import Enumerated
from . import enumeration as en
from .schemes import ORDERINGS, Ordering, Sampling

_REGION_LATEX = {0: r"\Phi", 1: r"1", 2: r"2", 3: r"3"}


_CACHE: dict = {}


def _size_latex(printer, n_, sign) -> str:
    return printer._print(n_ + sign)


def _raised(latex: str, printer, exp) -> str:
    """``latex`` raised to ``exp`` (SymPy's printer passes the exponent of a power here)."""
    return latex if exp is None else f"\\left({latex}\\right)^{{{printer._print(exp)}}}"


def _rational(value: Fraction) -> sp.Rational:
    return sp.Rational(value.numerator, value.denominator)


class _BaggingEnumerated(Enumerated):
    """Common machinery: named Integer arguments, validation on enumeration."""

    _arg_names: tuple = ()
    sampling: Sampling = Sampling.WITH_REPLACEMENT

    def __new__(cls, *args):
        if len(args) != len(cls._arg_names):
            raise TypeError(f"{cls.__name__} takes {len(cls._arg_names)} arguments "
                            f"({', '.join(cls._arg_names)}); got {len(args)}")
        return super().__new__(cls, *(sp.sympify(a) for a in args))

    def arg(self, name: str):
        return self.args[self._arg_names.index(name)]

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

    def ints(self) -> dict:
        """The arguments as Python ints (only when enumerable)."""
        if not self.is_enumerable:
            raise InvalidParameterError(
                f"{type(self).__name__} is enumerable only at integer arguments; got {self.args}")
        return {name: int(a) for name, a in zip(self._arg_names, self.args)}

    @staticmethod
    def _check_case(values: dict):
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

    def _sympystr(self, printer):
        return f"{type(self).__name__}({', '.join(printer._print(a) for a in self.args)})"


# --------------------------------------------------------------------------- counts

class _RegionCount(_BaggingEnumerated):
    _arg_names = ("region", "n", "k", "sign")
    is_integer = True
    is_nonnegative = True
    _letter = r"\Gamma"

    def _compute(self) -> sp.Rational:
        v = self.ints()
        self._check_case(v)
        if v["region"] == 0:
            raise InvalidParameterError("region must be 1, 2 or 3 for a count; got region=0")
        parts = en.regions(self.sampling, v["n"], v["k"], v["sign"])
        return sp.Integer(len(parts[v["region"]]))

    def _latex(self, printer, exp=None):
        region, n_, k_, sign = self.args
        s = (rf"\left|{self._letter}_{{{printer._print(region)}}}\right|"
             rf"_{{|D|={printer._print(n_)},\,|D'|={_size_latex(printer, n_, sign)},"
             rf"\,k={printer._print(k_)}}}")
        return _raised(s, printer, exp)


class GammaCount(_RegionCount):
    r""":math:`|\Gamma_i|`: ``k``-sequences with replacement only ``D`` (1), only ``D'`` (2), both (3) produce."""

    sampling = Sampling.WITH_REPLACEMENT
    _letter = r"\Gamma"


class LambdaCount(_RegionCount):
    r""":math:`|\Lambda_i|`: ``k``-subsets only ``D`` (1), only ``D'`` (2), both (3) produce."""

    sampling = Sampling.WITHOUT_REPLACEMENT_JOINT
    _letter = r"\Lambda"


class _RegionProbability(_BaggingEnumerated):
    _arg_names = ("region", "n", "k", "sign", "of_dprime")
    is_nonnegative = True
    _letter = r"\Gamma"
    _map = "b"

    def _compute(self) -> sp.Rational:
        v = self.ints()
        self._check_case(v)
        if v["region"] == 0:
            raise InvalidParameterError("region must be 1, 2 or 3 for a probability; got region=0")
        records = en.neighbour(v["n"], v["sign"]) if v["of_dprime"] else en.dataset(v["n"])
        P = en.distribution(self.sampling, records, v["k"])
        parts = en.regions(self.sampling, v["n"], v["k"], v["sign"])
        return _rational(en.probability(P, parts[v["region"]]))

    def _latex(self, printer, exp=None):
        region, n_, k_, sign, of_dprime = self.args
        which = "D'" if of_dprime == 1 else "D"
        s = (rf"P\left[{self._map}({which}) \in {self._letter}_{{{printer._print(region)}}}\right]"
             rf"_{{|D|={printer._print(n_)},\,|D'|={_size_latex(printer, n_, sign)},"
             rf"\,k={printer._print(k_)}}}")
        return _raised(s, printer, exp)


class GammaProbability(_RegionProbability):
    r""":math:`P[b(X) \in \Gamma_i]` with ``X = D`` (``of_dprime = 0``) or ``D'`` (1)."""

    sampling = Sampling.WITH_REPLACEMENT
    _letter = r"\Gamma"
    _map = "b"


class LambdaProbability(_RegionProbability):
    r""":math:`P[a(X) \in \Lambda_i]` with ``X = D`` (``of_dprime = 0``) or ``D'`` (1)."""

    sampling = Sampling.WITHOUT_REPLACEMENT_JOINT
    _letter = r"\Lambda"
    _map = "a"


# --------------------------------------------------------------------------- pair quantities

class _PairQuantity(_BaggingEnumerated):
    """A quantity of the ordered pair ``(P, Q)`` of an ordering, on real datasets."""

    _tag = r"\mathrm{wr}"

    def pair(self, v):
        ordering = Ordering(v["sign"], bool(v["d_first"]))
        return en.pair(self.sampling, v["n"], v["k"], v["models"], ordering)

    def rows(self, v, region=0):
        """The enumerated pair as rows (P(o), Q(o), multiplicity) (see enumeration.table)."""
        ordering = Ordering(v["sign"], bool(v.get("d_first", 1)))
        return en.table(self.sampling, v["n"], v["k"], v["models"], ordering, region)

    def _pair_latex(self, printer):
        n_, k_, models, sign, d_first = (self.arg(a) for a in ("n", "k", "models", "sign", "d_first"))
        neighbour = r"D\setminus\{x\}" if sign == -1 else r"D\cup\{y\}" if sign == 1 else "?"
        first = r"b(D)\,\|\,b(D')" if d_first == 1 else r"b(D')\,\|\,b(D)"
        return (rf"{first};\ D'={neighbour},\ n={printer._print(n_)},\ k={printer._print(k_)},"
                rf"\ N={printer._print(models)}")


class _HockeyStick(_PairQuantity):
    r""":math:`\sup_{\Delta \subseteq A}\, P(\Delta) - wQ(\Delta) = \sum_{o\in A}(P(o) - wQ(o))_+`.

    ``A`` is every output (``region = 0``) or the paper's region 1, 2, 3 of
    ``(D, D')``; :math:`w = e^\varepsilon = num/den`.
    """

    _arg_names = ("n", "k", "models", "sign", "d_first", "region", "num", "den")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        self._check_case(v)
        if v["num"] < 0:
            raise InvalidParameterError(f"num must be >= 0 (w = e^eps >= 0); got num={v['num']}")
        return _rational(en.table_hockey_stick(self.rows(v, v["region"]), Fraction(v["num"], v["den"])))

    def _latex(self, printer, exp=None):
        region, num, den = self.arg("region"), self.arg("num"), self.arg("den")
        s = (rf"\mathcal{{H}}^{{{self._tag}}}_{{{_REGION_LATEX.get(region, printer._print(region))}}}"
             rf"\left({self._pair_latex(printer)};\ w=\frac{{{printer._print(num)}}}"
             rf"{{{printer._print(den)}}}\right)")
        return _raised(s, printer, exp)


class HockeyStickWithReplacement(_HockeyStick):
    __doc__ = _HockeyStick.__doc__ + "\n    Sampling with replacement, ``N k`` draws.\n"
    sampling = Sampling.WITH_REPLACEMENT
    _tag = r"\mathrm{wr}"


class HockeyStickJoint(_HockeyStick):
    __doc__ = _HockeyStick.__doc__ + "\n    Without replacement, ``N k`` jointly, split.\n"
    sampling = Sampling.WITHOUT_REPLACEMENT_JOINT
    _tag = r"\mathrm{joint}"


class HockeyStickIndependent(_HockeyStick):
    __doc__ = _HockeyStick.__doc__ + "\n    Without replacement, ``N`` independent ``k``-subsets.\n"
    sampling = Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
    _tag = r"\mathrm{indep}"


class _TradeOff(_PairQuantity):
    r""":math:`T(P, Q)(\alpha)` at :math:`\alpha = a/b` by the Neyman--Pearson lemma."""

    _arg_names = ("n", "k", "models", "sign", "d_first", "a", "b")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        self._check_case(v)
        return _rational(en.table_tradeoff_at(self.rows(v), Fraction(v["a"], v["b"])))

    def _latex(self, printer, exp=None):
        s = (rf"T^{{{self._tag}}}\left({self._pair_latex(printer)}\right)"
             rf"\left(\frac{{{printer._print(self.arg('a'))}}}{{{printer._print(self.arg('b'))}}}\right)")
        return _raised(s, printer, exp)


class TradeOffWithReplacement(_TradeOff):
    sampling = Sampling.WITH_REPLACEMENT
    _tag = r"\mathrm{wr}"


class TradeOffJoint(_TradeOff):
    sampling = Sampling.WITHOUT_REPLACEMENT_JOINT
    _tag = r"\mathrm{joint}"


class TradeOffIndependent(_TradeOff):
    sampling = Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
    _tag = r"\mathrm{indep}"


class _TotalVariation(_PairQuantity):
    r""":math:`\mathrm{TV}(b(D), b(D')) = \tfrac12\sum_o |P(o) - Q(o)|` (symmetric; ``d_first`` = 1)."""

    _arg_names = ("n", "k", "models", "sign")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        self._check_case(v)
        return _rational(en.table_total_variation(self.rows(dict(v, d_first=1))))

    def _latex(self, printer, exp=None):
        n_, k_, models, sign = self.args
        neighbour = r"D\setminus\{x\}" if sign == -1 else r"D\cup\{y\}"
        s = (rf"\mathrm{{TV}}^{{{self._tag}}}\left(b(D), b(D'); D'={neighbour},\ n={printer._print(n_)},"
             rf"\ k={printer._print(k_)},\ N={printer._print(models)}\right)")
        return _raised(s, printer, exp)


class TotalVariationWithReplacement(_TotalVariation):
    sampling = Sampling.WITH_REPLACEMENT
    _tag = r"\mathrm{wr}"


class TotalVariationJoint(_TotalVariation):
    sampling = Sampling.WITHOUT_REPLACEMENT_JOINT
    _tag = r"\mathrm{joint}"


class TotalVariationIndependent(_TotalVariation):
    sampling = Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
    _tag = r"\mathrm{indep}"


class _WorstHockeyStick(_PairQuantity):
    r""":math:`\max` over the four orderings of the loss :math:`\sup_S P(S) - wQ(S)`, :math:`w = num/den`.

    For :math:`w \ge 1` this is the privacy profile of the map: the smallest
    delta at :math:`\varepsilon = \log w` over all neighbouring pairs of ``D``.
    """

    _arg_names = ("n", "k", "models", "num", "den")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        self._check_case(v)
        w_ = Fraction(v["num"], v["den"])
        return _rational(max(
            en.table_hockey_stick(en.table(self.sampling, v["n"], v["k"], v["models"], o), w_)
            for o in ORDERINGS))

    def _latex(self, printer, exp=None):
        n_, k_, models, num, den = self.args
        s = (rf"\max_{{\text{{orderings}}}}\mathcal{{H}}^{{{self._tag}}}\left(n={printer._print(n_)},"
             rf"\ k={printer._print(k_)},\ N={printer._print(models)};\ w=\frac{{{printer._print(num)}}}"
             rf"{{{printer._print(den)}}}\right)")
        return _raised(s, printer, exp)


class WorstHockeyStickWithReplacement(_WorstHockeyStick):
    sampling = Sampling.WITH_REPLACEMENT
    _tag = r"\mathrm{wr}"


class WorstHockeyStickJoint(_WorstHockeyStick):
    sampling = Sampling.WITHOUT_REPLACEMENT_JOINT
    _tag = r"\mathrm{joint}"


class WorstHockeyStickIndependent(_WorstHockeyStick):
    sampling = Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
    _tag = r"\mathrm{indep}"


class _LeastTradeOff(_PairQuantity):
    r""":math:`\min` over the four orderings of :math:`T(P, Q)(\alpha)`, :math:`\alpha = a/b`."""

    _arg_names = ("n", "k", "models", "a", "b")
    is_nonnegative = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        self._check_case(v)
        alpha_ = Fraction(v["a"], v["b"])
        return _rational(min(
            en.table_tradeoff_at(en.table(self.sampling, v["n"], v["k"], v["models"], o), alpha_)
            for o in ORDERINGS))

    def _latex(self, printer, exp=None):
        n_, k_, models, a_, b_ = self.args
        s = (rf"\min_{{\text{{orderings}}}}T^{{{self._tag}}}_{{n={printer._print(n_)},\,k={printer._print(k_)},"
             rf"\,N={printer._print(models)}}}\left(\frac{{{printer._print(a_)}}}{{{printer._print(b_)}}}\right)")
        return _raised(s, printer, exp)


class LeastTradeOffWithReplacement(_LeastTradeOff):
    sampling = Sampling.WITH_REPLACEMENT
    _tag = r"\mathrm{wr}"


class LeastTradeOffJoint(_LeastTradeOff):
    sampling = Sampling.WITHOUT_REPLACEMENT_JOINT
    _tag = r"\mathrm{joint}"


class LeastTradeOffIndependent(_LeastTradeOff):
    sampling = Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
    _tag = r"\mathrm{indep}"


class _LikelihoodRatio(_PairQuantity):
    r"""Extreme of :math:`P(o)/Q(o)` over the outputs of a region (``extreme`` 1 = max, 0 = min).

    Constant on the region (max = min = c) means :math:`P(\Delta) = c\,Q(\Delta)` for
    every :math:`\Delta` in it, the paper's step on :math:`\Gamma_3`/:math:`\Lambda_3`.
    """

    _arg_names = ("n", "k", "models", "sign", "d_first", "region", "extreme")
    is_positive = True

    def _compute(self) -> sp.Rational:
        v = self.ints()
        self._check_case(v)
        if v["region"] == 0 or v["extreme"] not in (0, 1):
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
        return _rational(max(ratios) if v["extreme"] else min(ratios))

    def _latex(self, printer, exp=None):
        op = r"\max" if self.arg("extreme") == 1 else r"\min"
        region = _REGION_LATEX.get(self.arg("region"), printer._print(self.arg("region")))
        s = rf"{op}_{{o\in\Gamma_{{{region}}}}}\frac{{P(o)}}{{Q(o)}}\left({self._pair_latex(printer)}\right)"
        return _raised(s, printer, exp)


class LikelihoodRatioWithReplacement(_LikelihoodRatio):
    sampling = Sampling.WITH_REPLACEMENT
    _tag = r"\mathrm{wr}"


class LikelihoodRatioJoint(_LikelihoodRatio):
    sampling = Sampling.WITHOUT_REPLACEMENT_JOINT
    _tag = r"\mathrm{joint}"


class LikelihoodRatioIndependent(_LikelihoodRatio):
    sampling = Sampling.WITHOUT_REPLACEMENT_INDEPENDENT
    _tag = r"\mathrm{indep}"


HOCKEY_STICK = {Sampling.WITH_REPLACEMENT: HockeyStickWithReplacement,
                Sampling.WITHOUT_REPLACEMENT_JOINT: HockeyStickJoint,
                Sampling.WITHOUT_REPLACEMENT_INDEPENDENT: HockeyStickIndependent}
TRADE_OFF = {Sampling.WITH_REPLACEMENT: TradeOffWithReplacement,
             Sampling.WITHOUT_REPLACEMENT_JOINT: TradeOffJoint,
             Sampling.WITHOUT_REPLACEMENT_INDEPENDENT: TradeOffIndependent}
TOTAL_VARIATION = {Sampling.WITH_REPLACEMENT: TotalVariationWithReplacement,
                   Sampling.WITHOUT_REPLACEMENT_JOINT: TotalVariationJoint,
                   Sampling.WITHOUT_REPLACEMENT_INDEPENDENT: TotalVariationIndependent}
WORST_HOCKEY_STICK = {Sampling.WITH_REPLACEMENT: WorstHockeyStickWithReplacement,
                      Sampling.WITHOUT_REPLACEMENT_JOINT: WorstHockeyStickJoint,
                      Sampling.WITHOUT_REPLACEMENT_INDEPENDENT: WorstHockeyStickIndependent}
LEAST_TRADE_OFF = {Sampling.WITH_REPLACEMENT: LeastTradeOffWithReplacement,
                   Sampling.WITHOUT_REPLACEMENT_JOINT: LeastTradeOffJoint,
                   Sampling.WITHOUT_REPLACEMENT_INDEPENDENT: LeastTradeOffIndependent}
LIKELIHOOD_RATIO = {Sampling.WITH_REPLACEMENT: LikelihoodRatioWithReplacement,
                    Sampling.WITHOUT_REPLACEMENT_JOINT: LikelihoodRatioJoint,
                    Sampling.WITHOUT_REPLACEMENT_INDEPENDENT: LikelihoodRatioIndependent}
