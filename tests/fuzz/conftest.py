"""Counts the fuzz cases run (printed at the end of the session: the issue asks for it)."""

from fuzz_harness import CASES


def pytest_terminal_summary(terminalreporter):
    if CASES:
        total = sum(CASES.values())
        terminalreporter.write_line(
            f"fuzz cases: {total} in all ("
            + ", ".join(f"{name} {n}" for name, n in sorted(CASES.items())) + ")")
