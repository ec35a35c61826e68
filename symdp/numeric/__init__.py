"""Numeric evaluation: Arb balls (:mod:`.balls`), the ball compiler of SymPy expressions
(:mod:`.ball_compiler`) and certified root isolation for inverses (:mod:`.ball_inverse`)."""
