r"""The tensor product of trade-off functions (Dong, Roth, Su 2022, arXiv 1905.02383v3, Sec. 3).

Definition 3.1: for :math:`f = T(P, Q)` and :math:`g = T(P', Q')`,

.. math::
    f \otimes g = T(P \times P',\ Q \times Q'),

well defined (it does not depend on the pair chosen) and the trade-off function of
the composition of an f-DP and a g-DP mechanism (Thm. 3.2, numbering as cited in issue #15).  It is commutative and
associative, :math:`f \otimes \mathrm{Id} = f`, and monotone in each argument
(DRS Sec. 3.1; checked in ``proofs/drs_composition_properties.py``).

:class:`TensorProduct` and :class:`TensorPower` are unevaluated SymPy objects that print
as the paper writes them (``f \otimes g``, ``f^{\otimes n}``).  ``doit()`` simplifies
where a closed form exists:

* :math:`G_{\mu_1} \otimes \cdots \otimes G_{\mu_n} = G_{\sqrt{\mu_1^2+\cdots+\mu_n^2}}`
  (DRS Sec. 3: the privacy loss of :math:`G_\mu` is :math:`N(\mu^2/2, \mu^2)` under Q and
  independent normal losses add; ``proofs/drs_gaussian_composition.py``);
* Id factors drop out, a 0 factor gives 0.

Everything else is evaluated from the definition through the privacy-loss distribution
(:mod:`.privacy_loss`): exactly for f_{ε,δ} and piecewise-linear factors (KOV 2015 for
powers), by quadrature for Gaussian and Laplace factors.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..core.errors import InvalidParameterError, RootFindingError
from ..subsampling.operator import as_trade_off
from ..tradeoff.base import TradeOff, alpha, varepsilon
from ..tradeoff.families import EpsDelta, Gaussian, Identity, Laplace, Zero
from ..numeric.mp_compiler import to_mpf
from ..numeric.roots import golden_max
from ..tradeoff.numeric import ValueByDefinitionAt
from ..core.validation import parameter, precision, probability, shown, to_exact
from .eps_delta import eps_delta_groups, grouped_epsilon_value, grouped_profile_value
from .privacy_loss import GaussianLoss, LaplaceLoss, LossAtoms, epsilon_for_delta, product_profile

__all__ = ["TensorProduct", "TensorPower", "tensor", "tensor_power", "loss_of"]


def _paren(printer, f) -> str:
    text = printer._print(f)
    if isinstance(f, (TensorProduct, TensorPower)) or "\\left(" in text and not text.startswith(
            ("f_{", "G_{", "L_{", "C_{", "T\\left(")):
        return r"\left(%s\right)" % text
    return text


class TensorProduct(TradeOff):
    r""":math:`f_1 \otimes \cdots \otimes f_n = T(P_1\times\cdots\times P_n, Q_1\times\cdots\times Q_n)`
    (DRS Def. 3.1).  Kept as written (not flattened, not reordered: commutativity and
    associativity are theorems checked in ``proofs/``, not built in); ``doit()`` gives the
    closed form where one exists."""

    def __new__(cls, *factors):
        if len(factors) < 2:
            raise InvalidParameterError(
                f"a tensor product needs at least 2 factors; got {len(factors)} (use f itself)")
        factors = tuple(as_trade_off(f) for f in factors)
        conditions = [c for f in factors for c in f.conditions]
        return super().__new__(cls, *factors, conditions=conditions)

    @property
    def factors(self) -> tuple:
        return self.args

    def flat_factors(self) -> list:
        """The factors with nested products and integer powers multiplied out."""
        return _flatten(self)

    # ------------------------------------------------------------ closed forms
    def doit(self, **hints):
        return _closed_form([f.doit(**hints) if hints.get("deep", True) else f
                             for f in self.flat_factors()])

    def pieces(self):
        closed = self.doit()
        if not isinstance(closed, (TensorProduct, TensorPower)):
            return closed.pieces()
        return _discrete_pieces(closed)

    def expr(self, x=alpha):
        closed = self.doit()
        if not isinstance(closed, (TensorProduct, TensorPower)):
            return closed.expr(x)
        try:
            return super().expr(x)
        except NotImplementedError:
            return TensorAt(self, sp.sympify(x))

    def evaluate(self, x, dps: int | None = None):
        closed = self.doit()
        if not isinstance(closed, (TensorProduct, TensorPower)):
            return closed.evaluate(x, dps)
        return trade_off_value(closed, x, 15 if dps is None else dps)

    def inverse(self):
        closed = self.doit()
        return closed.inverse() if closed != self else super().inverse()

    # ------------------------------------------------------------ profile
    def losses(self) -> list:
        """The privacy-loss distribution of each factor (:func:`loss_of`)."""
        return [loss_of(f) for f in self.flat_factors()]

    def privacy_profile(self, eps=varepsilon):
        r""":math:`\delta(\varepsilon)`: the closed form's profile when there is one; for
        finitely many atoms, the exact finite sum at a number ε; else unevaluated
        (:class:`ProfileAt`, numeric by the privacy-loss route)."""
        closed = self.doit()
        if not isinstance(closed, (TensorProduct, TensorPower)):
            return closed.privacy_profile(eps)
        eps = to_exact("eps", eps) if not isinstance(eps, sp.Basic) else eps  # "0.3" -> 3/10
        groups = _eps_delta_groups(closed)
        if eps.is_number and groups is not None and len(groups) == 1:
            from .eps_delta import kov_profile

            e, d, k = groups[0]
            return kov_profile(e, d, k, eps)  # KOV 2015 Thm. 3.3, k + 1 terms
        losses = closed.losses()
        if eps.is_number and all(isinstance(l, LossAtoms) for l in losses):
            return _product_atoms(losses).profile_exact(to_exact("eps", eps))
        return ProfileAt(closed, eps)

    def delta(self, eps, dps: int = 30):
        r""":math:`\delta(\varepsilon)` at ``dps`` digits (an mpf)."""
        return profile_value(self, eps, dps)

    def epsilon(self, delta, dps: int = 30):
        r"""The smallest ε ≥ 0 with :math:`\delta(\varepsilon) \le \delta` at ``dps`` digits."""
        return epsilon_value(self, delta, dps)

    # ------------------------------------------------------------ printing
    def _latex_name(self, printer):
        return r" \otimes ".join(_paren(printer, f) for f in self.factors)

    def _sympystr(self, printer):
        return "TensorProduct(%s)" % ", ".join(printer._print(f) for f in self.factors)


class TensorPower(TradeOff):
    r""":math:`f^{\otimes n} = f \otimes \cdots \otimes f` (n factors): the n-fold composition.
    n is a positive integer (or a symbol, for derivations: :math:`G_\mu^{\otimes n} = G_{\sqrt n\mu}`)."""

    def __new__(cls, f, n):
        f = as_trade_off(f)
        conditions = list(f.conditions)
        n = parameter("n", n, 1, None, integer=True, conditions=conditions)
        return super().__new__(cls, f, n, conditions=conditions)

    @property
    def base(self) -> TradeOff:
        return self.args[0]

    @property
    def n(self):
        return self.args[1]

    def flat_factors(self) -> list:
        if not self.n.is_Integer:
            raise NotImplementedError(f"{self} has a symbolic number of factors")
        return _flatten(self)

    def doit(self, **hints):
        f = self.base.doit(**hints) if hints.get("deep", True) else self.base
        n = self.n
        if n == 1:
            return f
        if isinstance(f, Gaussian):
            return Gaussian(sp.sqrt(n) * f.mu)
        if isinstance(f, (Identity, Zero)):
            return f
        if isinstance(f, TensorPower):
            return TensorPower(f.base, f.n * n).doit()
        return TensorPower(f, n) if f != self.base else self

    pieces = TensorProduct.pieces
    expr = TensorProduct.expr
    evaluate = TensorProduct.evaluate
    inverse = TensorProduct.inverse
    privacy_profile = TensorProduct.privacy_profile
    delta = TensorProduct.delta
    epsilon = TensorProduct.epsilon

    def losses(self) -> list:
        if not self.n.is_Integer:
            raise NotImplementedError(f"{self} has a symbolic number of factors")
        loss = loss_of(self.base)
        if isinstance(loss, LossAtoms):
            return [loss.power(int(self.n))]  # exact convolution by repeated squaring
        return [loss] * int(self.n)

    def _latex_name(self, printer):
        base = printer._print(self.base)
        if isinstance(self.base, (TensorProduct, TensorPower)) or "^" in base:
            base = r"\left(%s\right)" % base
        return r"%s^{\otimes %s}" % (base, printer._print(self.n))

    def _latex(self, printer, exp=None):
        name = self._latex_name(printer)
        return name if exp is None else r"\left(%s\right)^{%s}" % (name, exp)

    def _sympystr(self, printer):
        return "TensorPower(%s, %s)" % (printer._print(self.base), printer._print(self.n))


def tensor(*factors) -> TradeOff:
    r""":math:`f_1 \otimes \cdots \otimes f_n` (DRS Def. 3.1), unevaluated; one factor is itself.

    >>> from symdp import EpsDelta, Gaussian
    >>> tensor(Gaussian(1), Gaussian(2)).doit()
    Gaussian(sqrt(5))
    >>> sp.latex(tensor(EpsDelta(1, 0), Gaussian(2)))
    'f_{1,0} \\otimes G_{2}'
    """
    if len(factors) == 1:
        return as_trade_off(factors[0])
    return TensorProduct(*factors)


def tensor_power(f, n) -> TradeOff:
    r""":math:`f^{\otimes n}`, unevaluated (``doit()`` for the closed form).

    >>> from symdp import EpsDelta
    >>> f = tensor_power(EpsDelta("0.1", 0), 100)
    >>> sp.latex(f)
    'f_{\\frac{1}{10},0}^{\\otimes 100}'
    >>> print(mpmath.nstr(f.epsilon("1e-5", dps=30), 30))
    4.30679137251650678710278484986
    """
    return TensorPower(f, n)


# ---------------------------------------------------------------- helpers

def _flatten(f) -> list:
    if isinstance(f, TensorProduct):
        return [g for h in f.factors for g in _flatten(h)]
    if isinstance(f, TensorPower) and f.n.is_Integer:
        return _flatten(f.base) * int(f.n)
    return [f]


def _closed_form(factors) -> TradeOff:
    """Id drops out (Id = T(P, P): zero loss), 0 absorbs, Gaussians combine."""
    if any(isinstance(f, Zero) for f in factors):
        return Zero()
    factors = [f for f in factors if not isinstance(f, Identity)]
    if not factors:
        return Identity()
    if all(isinstance(f, Gaussian) for f in factors):
        return Gaussian(sp.sqrt(sum(f.mu ** 2 for f in factors)))
    if len(factors) == 1:
        return factors[0]
    if all(f == factors[0] for f in factors):
        return TensorPower(factors[0], len(factors))
    return TensorProduct(*factors)


def loss_of(f):
    r"""The privacy-loss distribution of a trade-off function (:mod:`.privacy_loss`):
    exact atoms for f_{ε,δ}, Id, 0 and piecewise-linear f; N(μ²/2, μ²) for G_μ; atoms and
    a density for the Laplace family."""
    if isinstance(f, EpsDelta):
        return LossAtoms.from_eps_delta(f.eps, f.delta)
    if isinstance(f, Gaussian):
        return GaussianLoss(f.mu)
    if isinstance(f, Laplace):
        return LaplaceLoss(f.mu)
    if isinstance(f, Identity):
        return LossAtoms(((sp.S.Zero, sp.S.One),))
    if isinstance(f, Zero):
        return LossAtoms(((sp.oo, sp.S.One),))
    if hasattr(f, "loss") and callable(f.loss):  # DensityPair: a pair given by densities
        return f.loss()
    if isinstance(f, (TensorProduct, TensorPower)):
        losses = f.losses()
        if all(isinstance(l, LossAtoms) for l in losses):
            return _product_atoms(losses)
        raise NotImplementedError(f"{f} has continuous factors; use its losses()")
    try:
        return LossAtoms.from_piecewise_linear(f)
    except (NotImplementedError, InvalidParameterError) as exc:
        raise NotImplementedError(
            f"no privacy-loss distribution known for {f}: give the pair (P, Q) as a "
            f"DensityLoss ({exc})") from None


def _product_atoms(losses) -> LossAtoms:
    prod = losses[0]
    for l in losses[1:]:
        prod = prod.tensor(l)
    return prod


def _discrete_pieces(f):
    """Exact pieces of a product of piecewise-linear trade-off functions (Neyman--Pearson
    on the product atoms: one linear piece per distinct loss)."""
    from ..tradeoff.base import piece

    losses = f.losses()
    if not all(isinstance(l, LossAtoms) for l in losses):
        raise NotImplementedError(f"{f} has continuous factors: no pieces (evaluate() it)")
    atoms = _product_atoms(losses)
    t = sp.Dummy("t", real=True)
    a0, b0 = sp.S.Zero, 1 - atoms.infinite_mass
    out = []
    for loss, m in atoms.sorted_finite():
        pm = sp.simplify(m * sp.exp(-loss))
        a1, b1 = sp.simplify(a0 + pm), sp.simplify(b0 - m)
        out.append(piece(a0, a1, b0 - sp.exp(loss) * (t - a0), t))
        a0, b0 = a1, b1
    if a0 != 1:
        out.append(piece(a0, 1, sp.S.Zero, t))
    return out


# ---------------------------------------------------------------- numerics

def _eps_delta_groups(closed):
    """[(eps, delta, k)] when every factor of ``closed`` is an f_{eps,delta}, else None."""
    if isinstance(closed, EpsDelta):
        return [(closed.eps, closed.delta, 1)]
    if isinstance(closed, (TensorProduct, TensorPower)):
        try:
            factors = closed.flat_factors()
        except NotImplementedError:
            return None
        if all(isinstance(g, EpsDelta) for g in factors):
            return eps_delta_groups(factors)
    return None


def profile_value(f, eps, dps: int = 30):
    r""":math:`\delta_f(\varepsilon)` for a product f at ``dps`` digits (two guard passes are
    the caller's business: this is one evaluation at ``dps + 10``)."""
    dps = precision("dps", dps)
    if isinstance(eps, mpmath.mpf) and mpmath.isnan(eps):
        raise InvalidParameterError("eps must be a number; got eps=nan")
    eps_exact = to_exact("eps", eps) if not isinstance(eps, mpmath.mpf) else eps
    if isinstance(eps_exact, sp.Basic) and not (eps_exact.is_number and eps_exact.is_real
                                                and eps_exact.is_finite):
        # a value needs a number: a symbol or a complex value has no delta(eps) to evaluate
        raise InvalidParameterError(f"eps must be a finite real number to evaluate delta(eps); "
                                    f"got eps={shown(eps)}")
    closed = f.doit()
    groups = _eps_delta_groups(closed)
    if groups is not None:  # (eps, delta) factors: enumerate the grouped losses (KOV for one group)
        return grouped_profile_value(groups, eps_exact, dps)
    with mpmath.workdps(dps + 10):
        if isinstance(closed, Gaussian):
            value = GaussianLoss(closed.mu).profile(to_mpf(eps_exact))
        elif isinstance(closed, (TensorProduct, TensorPower)):
            losses = closed.losses()
            if all(isinstance(l, LossAtoms) for l in losses):
                value = _product_atoms(losses).profile(eps_exact)
            else:
                value = product_profile(losses, to_mpf(eps_exact))
        else:
            loss = loss_of(closed)
            value = loss.profile(eps_exact if isinstance(loss, LossAtoms) else to_mpf(eps_exact))
    with mpmath.workdps(dps):
        return +value


def epsilon_value(f, delta, dps: int = 30):
    r"""The smallest ε ≥ 0 with :math:`\delta_f(\varepsilon) \le \delta`, at ``dps`` digits:
    a closed form for atoms, bracketed root-finding on the profile otherwise."""
    from ..core.validation import probability

    delta = probability("delta", delta)
    dps = precision("dps", dps)
    closed = f.doit()
    groups = _eps_delta_groups(closed)
    if groups is not None:
        return grouped_epsilon_value(groups, delta, dps)
    if delta == 0 and not all(isinstance(l, LossAtoms) for l in _losses_of(closed)):
        # delta(eps) = 0 exactly for eps >= the largest loss: solve that, not a root-find
        # that would stop where the profile underflows
        return _largest_loss(_losses_of(closed))
    with mpmath.workdps(dps + 10):
        if isinstance(closed, (TensorProduct, TensorPower)):
            losses = closed.losses()
            if all(isinstance(l, LossAtoms) for l in losses):
                value = _product_atoms(losses).epsilon(delta)
            else:
                value = epsilon_for_delta(lambda e: product_profile(losses, e), to_mpf(delta))
        else:
            loss = loss_of(closed)
            if isinstance(loss, LossAtoms):
                value = loss.epsilon(delta)
            else:
                value = epsilon_for_delta(loss.profile, to_mpf(delta))
    with mpmath.workdps(dps):
        return +value


def _losses_of(closed) -> list:
    if isinstance(closed, (TensorProduct, TensorPower)):
        return closed.losses()
    return [loss_of(closed)]


def _largest_loss(losses):
    """ess sup of the product's loss under Q: the sum of the factors' (inf for a Gaussian factor
    with mu > 0, mu for a Laplace factor); a DensityLoss does not know its own."""
    total = mpmath.mpf(0)
    for l in losses:
        if isinstance(l, GaussianLoss):
            if l.mu != 0:
                return mpmath.inf
        elif isinstance(l, LaplaceLoss):
            total += to_mpf(l.mu)
        elif isinstance(l, LossAtoms):
            if l.infinite_mass != 0:
                return mpmath.inf
            total += max(to_mpf(loss) for loss, _ in l.atoms)
        else:
            raise InvalidParameterError(
                "delta must be > 0 for a pair given by densities (its largest loss is not known); got delta=0")
    return max(total, mpmath.mpf(0))


def trade_off_value(f, x, dps: int = 15):
    r""":math:`(f_1\otimes\cdots)(\alpha)`: Neyman--Pearson on exact atoms, else from the
    profile by Prop. 2.12 read for every real ε:
    :math:`f(\alpha) = \max\{0, \sup_{s>0}(1 - \delta(\log s) - s\alpha)\}` (the objective
    is concave in s since :math:`\delta(\log s) = 1 + f^*(-s)`), by golden-section search."""
    x = to_exact("alpha", probability("alpha", x))
    dps = precision("dps", dps)
    if x == 1:
        return mpmath.mpf(0)        # 0 <= f(alpha) <= 1 - alpha for every trade-off function
    groups = _eps_delta_groups(f)
    if groups is not None:
        from .eps_delta import grouped_trade_off_value

        return grouped_trade_off_value(groups, x, dps)
    losses = f.losses()
    value = _trade_off_from_losses(losses, x, dps + 10)
    if 0 < value < mpmath.mpf(10) ** -10:
        # 1 - delta(log s) - s*alpha cancels to the value, leaving about 10 - log10(value)
        # of the working digits: take that many more
        value = _trade_off_from_losses(losses, x, dps + 10 + int(-mpmath.log10(value)) + 1)
    with mpmath.workdps(dps):
        return +value


def _trade_off_from_losses(losses, x, digits: int):
    """The supremum of Prop. 2.12 (or Neyman--Pearson on atoms) at ``digits`` working digits."""
    with mpmath.workdps(digits):
        if all(isinstance(l, LossAtoms) for l in losses):
            return _product_atoms(losses).trade_off(to_mpf(x))
        a = to_mpf(x)

        def objective(s):
            return 1 - product_profile(losses, mpmath.log(s)) - s * a

        hi = mpmath.mpf(2)
        while objective(hi) > objective(hi / 2):   # widen until the maximiser is inside
            hi *= 4
            if hi > mpmath.mpf(10) ** 300:
                raise RootFindingError(f"the maximiser of 1 - delta(log s) - s*alpha at "
                                       f"alpha={x} lies beyond s = 1e300")
        lo = min(mpmath.mpf(10) ** -12, hi / 4)
        while objective(lo) > objective(2 * lo):   # concave: the maximiser is below 2 lo
            lo /= 4
            if lo < mpmath.mpf(10) ** -300:
                raise RootFindingError(f"the maximiser of 1 - delta(log s) - s*alpha at "
                                       f"alpha={x} lies below s = 1e-300")
        return max(mpmath.mpf(0), golden_max(objective, lo, hi))


class TensorAt(ValueByDefinitionAt):
    """``(f ⊗ g)(x)`` with no closed form; numeric from the definition."""

    def _latex(self, printer, exp=None):
        body = r"\left(%s\right)\left(%s\right)" % (printer._print(self.args[0]),
                                                      printer._print(self.args[1]))
        return body if exp is None else r"%s^{%s}" % (body, exp)


class ProfileAt(sp.Expr):
    r""":math:`\delta_{f}(\varepsilon)` of a product kept unevaluated; ``evalf`` by the
    privacy-loss route (:func:`profile_value`)."""

    is_commutative = True

    def __new__(cls, f, eps):
        return super().__new__(cls, f, sp.sympify(eps))

    def _eval_is_real(self):
        return True

    def _eval_evalf(self, prec):
        e = self.args[1].evalf(prec)
        if not e.is_Number:
            return None
        dps = mpmath.libmp.prec_to_dps(prec)
        point = self.args[1] if self.args[1].is_Rational else e
        return sp.Float(profile_value(self.args[0], point, dps + 5), dps + 5)

    def _latex(self, printer, exp=None):
        body = r"\delta_{%s}\left(%s\right)" % (printer._print(self.args[0]),
                                                 printer._print(self.args[1]))
        return body if exp is None else r"%s^{%s}" % (body, exp)

    def _sympystr(self, printer):
        return "ProfileAt(%s, %s)" % (printer._print(self.args[0]), printer._print(self.args[1]))
