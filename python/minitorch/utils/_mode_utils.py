"""torch.utils._mode_utils: no_dispatch (Note [Python dispatch] in minitorch/_python_dispatch.py)."""
from .._python_dispatch import no_dispatch

__all__ = ["no_dispatch"]
