"""The stages of the check cascade, one module each; :mod:`symdp.proof.check` runs them in order."""
