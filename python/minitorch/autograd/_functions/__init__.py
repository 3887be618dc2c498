"""torch.autograd._functions: torch's legacy autograd Functions over tensors (Resize, Type),
which torch still ships and some code and tests use."""
from .tensor import Resize, Type  # noqa: F401

__all__ = ["Resize", "Type"]
