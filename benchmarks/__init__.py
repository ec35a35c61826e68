"""symdp's benchmarks (issue 7): ``python -m benchmarks`` prints the table (see run.py)."""
