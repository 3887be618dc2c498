"""Fuzzing minitorch's public API in subprocesses (see run.py)."""
