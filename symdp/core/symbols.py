"""The symbols of the papers, named so that they print as the papers write them."""

import sympy as sp

alpha = sp.Symbol("alpha", real=True)          # type-I error
x = sp.Symbol("x", real=True)                  # a point of [0, 1]
eps = sp.Symbol("varepsilon", real=True)       # ε
delta = sp.Symbol("delta", real=True)          # δ
mu = sp.Symbol("mu", real=True)                # μ
p = sp.Symbol("p", real=True)                  # sampling ratio
y = sp.Symbol("y", real=True)                  # conjugate variable
n = sp.Symbol("n", integer=True)
k = sp.Symbol("k", integer=True)
N = sp.Symbol("N", integer=True)
