"""``minitorch.utils``: utilities outside the tensor core, as ``torch.utils``.

Loaded on demand: ``import minitorch`` does not import this package, and this package does not
import its subpackages until they are asked for (``import minitorch.utils.data`` or the attribute
``minitorch.utils.data`` after ``import minitorch.utils``)."""
import importlib

__all__ = ["data", "checkpoint", "tensorboard", "hooks", "benchmark"]

_SUBPACKAGES = frozenset(__all__)


def __getattr__(name):
    if name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
