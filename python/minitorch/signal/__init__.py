"""minitorch.signal: signal-processing helpers (windows)."""
from . import windows  # noqa: F401

__all__ = ["windows"]
