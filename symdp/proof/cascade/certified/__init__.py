"""Certified verdicts: ball arithmetic (python-flint's ``arb``) at points and over boxes."""
