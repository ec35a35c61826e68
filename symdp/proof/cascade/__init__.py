"""Stages of the check cascade that have a module of their own (see :mod:`symdp.proof.check`)."""
