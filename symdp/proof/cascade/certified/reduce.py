r"""Symbolic reductions of an inequality before (or instead of) a box search.

Each rule replaces ``L REL R`` by an *equivalent* relation, applying one strictly
monotone map to both sides, under conditions that are recorded:

* common terms: :math:`c + A \;\mathrm{REL}\; c + B \iff A \;\mathrm{REL}\; B`;
* negation: :math:`-A \;\mathrm{REL}\; -B \iff B \;\mathrm{REL}\; A`;
* a common factor c > 0: :math:`cA \;\mathrm{REL}\; cB \iff A \;\mathrm{REL}\; B`;
* a common exponent k: :math:`A^k \;\mathrm{REL}\; B^k \iff A \;\mathrm{REL}\; B` for
  :math:`k > 0` and :math:`A, B \ge 0` (flipped for k < 0 and A, B > 0), since
  :math:`t \mapsto t^k` is strictly monotone on :math:`[0, \infty)`;
* :math:`\exp` (increasing), :math:`\log` (increasing, arguments > 0).

Each map is recorded (``Reduction.moves``) and re-derived by the kernel
(:func:`symdp.proof.kernel.replay.reduction`), which confirms every side condition itself
(``c > 0``, ``k > 0`` and ``A, B >= 0``, ...): the signs found here choose the map, they
prove nothing.  A sign condition the SymPy assumptions of the hypotheses do not settle becomes
an **obligation** (e.g. ``(n - 1)/n >= 0``) that the box search certifies.  This
is the *symbolic tail argument* for integer exponents: the rule for
:math:`A^k` holds for every k > 0 at once, so the range of k -- infinite in
Thm. 2 of Liu, Jia, Gong 2021 -- drops out of the problem.

The reduced difference is then given to a sign analysis: the SymPy assumptions
of the hypotheses after shifting every parameter with a finite lower bound a to
:math:`a + m`, :math:`m \ge 0`; factor by factor; and, for a linear factor F and
a linear constraint :math:`g \ge 0` (``k <= n - 1``), the sign of
:math:`F - \lambda g` with :math:`\lambda \ge 0` chosen to cancel one variable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

FLIP = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


@dataclass(frozen=True)
class Obligation:
    lhs: sp.Expr
    relation: str
    rhs: sp.Expr
    why: str

    def text(self) -> str:
        return f"{sp.sstr(self.lhs)} {self.relation} {sp.sstr(self.rhs)}"


@dataclass
class Reduction:
    lhs: sp.Expr
    rhs: sp.Expr
    relation: str
    steps: list = field(default_factory=list)
    obligations: list = field(default_factory=list)
    #: the maps applied, for the kernel to re-derive with their side conditions (issue #27):
    #: ("cancel", c), ("negate",), ("divide", c), ("power", k, +1 or -1), ("exp",), ("log",)
    moves: list = field(default_factory=list)
    proved: bool | None = None       # the reduced relation decided by the sign analysis
    sign_reason: str = ""

    def summary(self) -> str:
        parts = list(self.steps)
        if self.proved:
            relation = f"{sp.sstr(self.lhs)} {self.relation} {sp.sstr(self.rhs)}"
            if len(relation) > 240:  # the reason names the shape; the JSON keeps the relation
                relation = f"{relation[:100]} ... {relation[-100:]}"
            parts.append(f"then {relation}: {self.sign_reason}")
        if self.obligations:
            parts.append("conditions " + "; ".join(o.text() for o in self.obligations))
        return "; ".join(parts)

    def as_dict(self) -> dict:
        return {"steps": list(self.steps),
                "reduced": f"{sp.sstr(self.lhs)} {self.relation} {sp.sstr(self.rhs)}",
                "proved_symbolically": bool(self.proved), "sign": self.sign_reason or None,
                "obligations": [o.text() for o in self.obligations]}


def _shift_variable(symbol, open_end: bool, integer: bool) -> sp.Dummy:
    """The shift ``m >= 0`` of a parameter from a finite end of its domain (``m > 0`` at an
    open end), an integer for an integer parameter.

    Only what the domain implies is assumed: for a real parameter ``integer`` is left
    *unset*, never ``False`` -- SymPy reads ``integer=False`` as "not an integer", hence
    non-zero, which would make ``x > 0`` follow from ``0 <= x <= 1`` (issue #12).
    """
    assumptions = {"nonnegative": True}
    if open_end:
        assumptions["positive"] = True
    if integer:
        assumptions["integer"] = True
    return sp.Dummy(f"m_{symbol.name}", **assumptions)


class Signs:
    """Signs of expressions under the hypotheses (SymPy assumptions, shifted parameters)."""

    def __init__(self, hypotheses, conditions):
        from ...assumptions import assumption_symbols

        self.mapping = assumption_symbols(hypotheses)
        self.shift = {}
        self.slacks = []         # expressions >= 0 under the hypotheses
        self.strict_slacks = []  # the ones > 0 (an open end of a domain)
        for symbol, domain in hypotheses.items():
            dummy = self.mapping[symbol]
            integer = bool(dummy.is_integer)
            lo, hi = domain.inf, domain.sup
            lo_ok = lo.is_finite and lo.is_number
            hi_ok = hi.is_finite and hi.is_number
            lo_open = bool(getattr(domain, "left_open", False)) and not integer
            hi_open = bool(getattr(domain, "right_open", False)) and not integer
            if lo_ok:    # x = lo + m, m >= 0 (m > 0 at an open end)
                m = _shift_variable(symbol, lo_open, integer)
                self.shift[dummy] = lo + m
            elif hi_ok:  # x = hi - m for a domain (-oo, hi]
                m = _shift_variable(symbol, hi_open, integer)
                self.shift[dummy] = hi - m
            # the domains' bounds are constraints too
            if lo_ok:
                (self.strict_slacks if lo_open else self.slacks).append(dummy - lo)
            if hi_ok:
                (self.strict_slacks if hi_open else self.slacks).append(hi - dummy)
        for c in conditions:
            if isinstance(c, sp.core.relational.Relational) and c.rel_op in ("<=", "<", ">=", ">"):
                g = (c.rhs - c.lhs) if c.rel_op in ("<=", "<") else (c.lhs - c.rhs)
                g = sp.expand(g.xreplace(self.mapping))
                (self.strict_slacks if c.rel_op in ("<", ">") else self.slacks).append(g)
        self.slacks = self.slacks + self.strict_slacks

    def _forms(self, e):
        e = e.xreplace(self.mapping)
        yield e
        shifted = e.xreplace(self.shift)
        yield shifted
        yield self.exp_shifted(shifted)
        yield sp.expand(self.exp_shifted(shifted))
        if _branched(e):  # simplify/factor of a Piecewise/Max/Min rarely decide, and slowly
            return
        for f in (sp.simplify(e), sp.factor(sp.together(shifted))):
            yield f

    def exp_shifted(self, e):
        """``exp(a) = 1 + u`` with ``u >= 0`` for every ``a >= 0`` (exp is increasing;
        ``u > 0`` when ``a > 0``)."""
        sub = {a: 1 + sp.Dummy("u", nonnegative=True, positive=bool(a.args[0].is_positive) or None)
               for a in e.atoms(sp.exp) if a.args[0].is_nonnegative}
        return e.xreplace(sub) if sub else e

    def sign(self, e, want: str, work: int | None = None) -> tuple[bool, str]:
        """Is ``e >= 0`` (want ``">="``) or ``e > 0`` (``">"``) decided under the hypotheses,
        within ``work`` heartbeats (:data:`~symdp.proof.budgets.SIGN_WORK` by default)?"""
        from ...budgets import SIGN_WORK, WorkExhausted, work_limit

        try:
            with work_limit(SIGN_WORK if work is None else work):
                for form in self._forms(e):
                    v = form.is_nonnegative if want == ">=" else form.is_positive
                    if v:
                        return True, "sign under the hypotheses"
                if _branched(e):
                    return False, ""
                return self._by_factors(e, want)
        except (WorkExhausted, Exception):  # noqa: BLE001 - undecided, not wrong
            return False, ""

    def _by_factors(self, e, want):
        f = sp.factor(sp.together(e.xreplace(self.mapping)))
        if f.is_Mul or f.is_Pow:
            factors = sp.Mul.make_args(f)
        else:
            factors = (f,)
        negatives = 0
        for factor in factors:
            base, exp = factor.as_base_exp()
            if exp.is_Integer and int(exp) % 2 == 0 and want == ">=":
                continue
            s = self._factor_sign(base, strict=want == ">")
            if s is None:
                return False, ""
            if s < 0 and exp.is_Integer and int(exp) % 2 == 1:
                negatives += 1
            elif s < 0:
                return False, ""
        if negatives % 2 == 0:
            return True, "sign of each factor of the difference (with the constraints)"
        return False, ""

    def _deeper(self, e, want) -> bool:
        """The factor-by-factor analysis of a remainder, one level deep (the remainder of a
        linear slack often needs another slack, e.g. ``1 - delta >= 0``)."""
        if getattr(self, "_depth", 0) >= 1:
            return False
        self._depth = 1
        try:
            return self._by_factors(e, want)[0]
        finally:
            self._depth = 0

    def _plain_sign(self, e, attr: str, factor: bool = False) -> bool:
        """``e`` has the sign ``attr`` (``is_nonnegative``/``is_positive``) by the assumptions
        of one of its shifted forms."""
        shifted = self.exp_shifted(e.xreplace(self.shift))
        forms = [e, e.xreplace(self.shift), shifted, sp.expand(shifted)]
        if factor:
            forms.append(sp.factor(sp.together(shifted)))
        return any(getattr(f, attr) for f in forms)

    def _factor_sign(self, g, strict=False):
        """+1 if g >= 0 (g > 0 when strict), -1 if g <= 0 (< 0), None if undecided."""
        pos = "is_positive" if strict else "is_nonnegative"
        neg = "is_negative" if strict else "is_nonpositive"
        shifted = self.exp_shifted(g.xreplace(self.shift))
        forms = (g, g.xreplace(self.shift), shifted, sp.expand(shifted))
        for form in forms:
            if getattr(form, pos):
                return 1
            if getattr(form, neg):
                return -1
        candidates = []  # (sign, rest, attr): h = lam * slack + rest with lam >= 0
        for sign, h in ((1, sp.expand(g)), (-1, sp.expand(-g))):
            for slack in self.slacks:
                for v in slack.free_symbols & h.free_symbols:
                    ch, cs = h.coeff(v), slack.coeff(v)
                    if cs == 0 or v in ch.free_symbols or v in cs.free_symbols:
                        continue
                    lam = sp.cancel(ch / cs)
                    if self._plain_sign(lam, "is_nonnegative"):
                        rest = sp.expand(h - lam * slack)
                        # h > 0 also when rest >= 0, lam > 0 and the slack is > 0 (open end)
                        weak = (strict and slack in self.strict_slacks
                                and self._plain_sign(lam, "is_positive"))
                        try:
                            rest = sp.cancel(sp.together(rest))  # fractions of the slack
                        except Exception:  # noqa: BLE001 - keep the expanded remainder
                            pass
                        candidates.append((sign, rest, "is_nonnegative" if weak else pos))
        # cheapest test first over every candidate, then factored, then one level deeper
        for sign, rest, attr in candidates:
            if self._plain_sign(rest, attr):
                return sign
        for sign, rest, attr in candidates:
            if self._plain_sign(rest, attr, factor=True):
                return sign
        if getattr(self, "_depth", 0) == 0:  # the smallest remainders only: a bounded cost
            for sign, rest, attr in sorted(candidates, key=lambda c: sp.count_ops(c[1]))[:5]:
                if self._deeper(rest, ">=" if attr == "is_nonnegative" else ">"):
                    return sign
        return None


def reduce_relation(lhs, rhs, relation: str, hypotheses: dict, conditions=()) -> Reduction:
    """Apply the monotone reductions, then try the sign analysis of the reduced relation."""
    signs = Signs(hypotheses, conditions)
    red = Reduction(lhs, rhs, relation)
    for _ in range(12):
        if not _one_step(red, signs):
            break
    lattice = _lattice(red) or _by_arguments(red, signs)
    if lattice:
        red.proved, red.sign_reason = True, lattice
        return red
    diff = (red.rhs - red.lhs) if red.relation in ("<=", "<") else (red.lhs - red.rhs)
    want = ">" if red.relation in ("<", ">") else ">="
    ok, why = signs.sign(diff, want)
    if ok:
        red.proved, red.sign_reason = True, why
    elif _relaxable(diff, hypotheses):  # one-sided bounds (Bernoulli, log <= A - 1, ...) in the sound direction
        from .tail import Relaxer

        ok, notes = Relaxer(signs).prove(diff, want, tried=True)
        if ok:
            red.proved = True
            red.sign_reason = ("the difference is >= a lower bound whose sign is decided "
                               "(relaxations: " + "; ".join(notes) + ")")
    return red


def _relaxable(e, hypotheses) -> bool:
    """A power with a parameter in its exponent (``((n-1)/n)^k``), or a log of a parameter
    with an integer parameter in the hypotheses (``log((n+1)/n)``): the relaxations apply."""
    from ...sampling import is_integer_domain

    if any(not p.exp.is_number and p.base.free_symbols for p in e.atoms(sp.Pow)):
        return True
    return any(a.free_symbols for a in e.atoms(sp.log)) and any(
        is_integer_domain(d) for d in hypotheses.values())


def _branched(e) -> bool:
    return e.has(sp.Piecewise, sp.Max, sp.Min)


def _lattice(red: Reduction) -> str:
    """``Max(..., X, ...) >= X`` and ``Min(..., X, ...) <= X`` hold by definition."""
    big, small = ((red.lhs, red.rhs) if red.relation == ">=" else
                  (red.rhs, red.lhs) if red.relation == "<=" else (None, None))
    if big is None:
        return ""
    if isinstance(big, sp.Max) and small in big.args:
        return "Max(..., X, ...) >= X (the maximum is at least each of its arguments)"
    if isinstance(small, sp.Min) and big in small.args:
        return "Min(..., X, ...) <= X (the minimum is at most each of its arguments)"
    return ""


def _by_arguments(red: Reduction, signs: "Signs") -> str:
    """``X >= Max(a_1, ..., a_k)`` when ``X >= a_i`` for every i; ``Max(a_1, ...) >= X`` when
    ``a_i >= X`` for one i (and the same for Min, and for strict relations), each decided by
    the sign analysis."""
    if red.relation in (">=", ">"):
        big, small = red.lhs, red.rhs
    else:
        big, small = red.rhs, red.lhs
    want = ">" if red.relation in (">", "<") else ">="
    op = ">" if want == ">" else ">="
    if isinstance(small, sp.Max) or isinstance(big, sp.Min):
        every = small.args if isinstance(small, sp.Max) else big.args
        pairs = [(big, a) for a in every] if isinstance(small, sp.Max) else \
            [(b, small) for b in every]
        if len(pairs) <= 4 and all(signs.sign(b - a, want)[0] for b, a in pairs):
            name = "Max" if isinstance(small, sp.Max) else "Min"
            return (f"{name} of {len(pairs)} arguments: each comparison {op} holds (sign of each "
                    f"difference under the hypotheses and the constraints)")
    if isinstance(big, sp.Max) or isinstance(small, sp.Min):
        some = big.args if isinstance(big, sp.Max) else small.args
        for a in some[:4]:
            b, c = (a, small) if isinstance(big, sp.Max) else (big, a)
            if signs.sign(b - c, want)[0]:
                name = "Max" if isinstance(big, sp.Max) else "Min"
                return (f"{name}: its argument {sp.sstr(a)} already satisfies {op} (sign of the "
                        f"difference under the hypotheses and the constraints)")
    return ""


def _nonneg(signs, e, strict=False) -> bool:
    return signs.sign(e, ">" if strict else ">=")[0]


def _one_step(red: Reduction, signs: Signs) -> bool:  # noqa: C901 - one rule per branch
    L, R, rel = red.lhs, red.rhs, red.relation
    # common additive terms
    lt, rt = sp.Add.make_args(L), sp.Add.make_args(R)
    common = [t for t in lt if t in rt]
    if common and (len(lt) > 1 or len(rt) > 1):
        c = sp.Add(*common)
        red.lhs, red.rhs = L - c, R - c
        red.steps.append(f"cancel the common term {sp.sstr(c)}")
        red.moves.append(("cancel", c))
        return True
    # negation
    if (L.could_extract_minus_sign() or L == 0) and (R.could_extract_minus_sign() or R == 0) \
            and not (L == 0 and R == 0):
        red.lhs, red.rhs, red.relation = -L, -R, FLIP[rel]
        red.steps.append("multiply both sides by -1")
        red.moves.append(("negate",))
        return True
    # a common positive factor
    if L.is_Mul or R.is_Mul:
        lf, rf = sp.Mul.make_args(L), sp.Mul.make_args(R)
        common = [f for f in lf if f in rf and not f.is_number]
        for c in common:
            if _nonneg(signs, c, strict=True):
                red.lhs, red.rhs = L / c, R / c
                red.steps.append(f"divide by {sp.sstr(c)} > 0")
                red.moves.append(("divide", c))
                return True
    # a common exponent
    if L.is_Pow and R.is_Pow and L.exp == R.exp and L.exp != 1:
        k = L.exp
        A, B = L.base, R.base
        positive, negative = _nonneg(signs, k, strict=True), _nonneg(signs, -k, strict=True)
        if positive or negative:
            strict = negative
            for base in (A, B):
                if not _nonneg(signs, base, strict):
                    red.obligations.append(Obligation(base, ">" if strict else ">=", sp.S.Zero,
                                                      f"base of the power {sp.sstr(k)}"))
            red.lhs, red.rhs = A, B
            if negative:
                red.relation = FLIP[rel]
            red.moves.append(("power", k, 1 if positive else -1))
            red.steps.append(f"t -> t^({sp.sstr(k)}) is strictly "
                             f"{'increasing' if positive else 'decreasing'} on "
                             f"{'[0, oo)' if positive else '(0, oo)'} for every "
                             f"{sp.sstr(k)} {'> 0' if positive else '< 0'}")
            return True
    # exp and log
    if isinstance(L, sp.exp) and isinstance(R, sp.exp):
        red.lhs, red.rhs = L.args[0], R.args[0]
        red.steps.append("exp is strictly increasing")
        red.moves.append(("exp",))
        return True
    if isinstance(L, sp.log) and isinstance(R, sp.log):
        for arg in (L.args[0], R.args[0]):
            if not _nonneg(signs, arg, strict=True):
                red.obligations.append(Obligation(arg, ">", sp.S.Zero, "argument of log"))
        red.lhs, red.rhs = L.args[0], R.args[0]
        red.steps.append("log is strictly increasing on (0, oo)")
        red.moves.append(("log",))
        return True
    return False
