r"""Solving the equations trade-off functions produce, by peeling monotone layers.

SymPy's ``solve`` does not know :math:`\Phi`; the equations of f-DP (inverse
``g(t) = a``, stationarity ``g'(x) = y``, fixed point ``g(x) = x``) are
compositions of strictly monotone functions, so they are solved by *peeling*:
move what does not depend on the unknown to the other side, undo the outermost
function, repeat.  When the unknown occurs several times but only through one
sub-expression ``u(x)`` (e.g. :math:`\Phi^{-1}(1 - x)`), the equation is first
solved for ``z = u(x)`` and then ``u(x) = z`` is peeled.  Each result is one
root; callers check that it lies in their interval.

Why not SymPy's own inverter (``sympy.solvers.solvers._invert``, ``solveset.invert_real``),
given ``Phi``/``PhiInv`` an ``inverse()``: measured on the 122 distinct equations the tests
of tradeoff/ and subsampling/ hand to :func:`peel`, it inverts 99 the same way and refuses
23 -- even powers such as :math:`e^{\Phi^{-1}(1-t)^2/2} = z` or :math:`-e^{-1}/(4t^2) = y`,
where :func:`peel` takes the principal root that the interval makes the right one
(``invert_real`` returns both branches as a set).  Conjugates and profiles would lose their
closed forms.  Nor does :math:`\Phi` canonicalise :math:`\Phi(-x)` on construction: every
printed closed form would change (:math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)`
would print as :math:`1 - \Phi(\mu - \Phi^{-1}(1-\alpha))`); :func:`phi_normal_form`
applies the identities where a computation wants them.
"""

from __future__ import annotations

import sympy as sp

from ..core.special import Phi, PhiInv, phi_normal_form


_INVERSES = {
    sp.exp: lambda v: sp.log(v),
    sp.log: lambda v: sp.exp(v),
    Phi: lambda v: PhiInv(v),
    PhiInv: lambda v: Phi(v),
}


def _occurrences(expr, x) -> int:
    if expr == x:
        return 1
    return sum(_occurrences(a, x) for a in expr.args)


def peel(lhs: sp.Expr, rhs: sp.Expr, x: sp.Symbol, positive_root: bool = True):
    """Solve ``lhs(x) = rhs`` when x occurs once in ``lhs``; None if a layer is unknown."""
    for _ in range(200):
        if lhs == x:
            return rhs
        if lhs.is_Add:
            dep = [a for a in lhs.args if a.has(x)]
            if len(dep) != 1:
                return None
            rhs = rhs - sp.Add(*[a for a in lhs.args if not a.has(x)])
            lhs = dep[0]
        elif lhs.is_Mul:
            dep = [a for a in lhs.args if a.has(x)]
            if len(dep) != 1:
                return None
            rhs = rhs / sp.Mul(*[a for a in lhs.args if not a.has(x)])
            lhs = dep[0]
        elif lhs.is_Pow:
            base, exponent = lhs.args
            if exponent.has(x) and not base.has(x):
                rhs = sp.log(rhs) / sp.log(base)
                lhs = exponent
            elif base.has(x) and not exponent.has(x):
                rhs = rhs ** (1 / exponent)  # principal root: the positive branch
                if not positive_root:
                    return None
                lhs = base
            else:
                return None
        elif lhs.func in _INVERSES and len(lhs.args) == 1:
            rhs = _INVERSES[lhs.func](rhs)
            lhs = lhs.args[0]
        else:
            return None
    return None


def _inner_candidates(expr, x):
    """Sub-expressions u(x) through which x might enter ``expr``, innermost-last."""
    found = []
    for node in sp.preorder_traversal(expr):
        if node.has(x) and node != x and isinstance(node, (PhiInv, Phi, sp.exp, sp.log)):
            found.append(node)
    return found


def solve_for(lhs: sp.Expr, rhs: sp.Expr, x: sp.Symbol):
    """One root of ``lhs = rhs`` in ``x`` (both may contain x), or None."""
    eq_l = lhs - rhs
    # unknown on one side only
    if not rhs.has(x) and _occurrences(lhs, x) == 1:
        return peel(lhs, rhs, x)
    if not lhs.has(x) and _occurrences(rhs, x) == 1:
        return peel(rhs, lhs, x)
    # through one inner sub-expression: solve for z = u(x), then peel u(x) = z
    for u in _inner_candidates(eq_l, x):
        z = sp.Dummy("z", real=True)
        x_of_z = peel(u, z, x)
        if x_of_z is None:
            continue
        in_z = eq_l.xreplace({u: z})
        in_z = in_z.subs(x, x_of_z)
        if in_z.has(x):
            continue
        z_root = _solve_in(in_z, z)
        if z_root is None:
            continue
        return sp.simplify(phi_normal_form(x_of_z.xreplace({z: z_root})))
    return _solve_in(eq_l, x)


def _solve_in(expr: sp.Expr, z: sp.Symbol):
    """A root of ``expr = 0`` in z: peeling, Phi identities, then SymPy's solve."""
    candidates = [expr, sp.powsimp(sp.expand(expr), force=True),
                  phi_normal_form(sp.expand(expr))]
    for e in candidates:
        e = sp.powsimp(e, force=True)
        if _occurrences(e, z) == 1:
            root = peel(e, sp.S.Zero, z)
            if root is not None:
                return root
        reduced = _phi_equation(e)
        if reduced is not None:
            root = _solve_in(reduced, z)
            if root is not None:
                return root
    if expr.has(Phi) or expr.has(PhiInv):
        return None  # SymPy's solve knows no Phi; it would only spend time
    try:
        roots = sp.solve(expr, z)
    except Exception:  # noqa: BLE001 - solve raises NotImplementedError and friends
        return None
    real = [r for r in roots if r.is_real is not False]
    if len(real) == 1:
        return real[0]
    return None


def _phi_equation(e: sp.Expr):
    """Reduce ``±Phi(A) ± Phi(B) + c = 0`` to an equation between A and B.

    ``Phi(A) - Phi(B) = 0`` gives ``A - B``; ``Phi(A) + Phi(B) - 1 = 0`` gives
    ``A + B`` (as ``1 - Phi(B) = Phi(-B)`` and Phi is strictly increasing).
    """
    if not e.is_Add:
        return None
    const = sp.S.Zero
    terms = []
    for t in e.args:
        coeff, rest = t.as_coeff_Mul()
        if isinstance(rest, Phi) and coeff in (1, -1):
            terms.append((coeff, rest.args[0]))
        elif not t.free_symbols:
            const += t
        else:
            return None
    if len(terms) != 2:
        return None
    (c1, a1), (c2, a2) = terms
    if c1 == -c2 and const == 0:
        return a1 - a2
    if c1 == c2 and const == -c1:
        return a1 + a2
    return None
