"""Imported by minitorch/__init__.py so that ``minitorch.multiprocessing`` is an attribute
of the package after ``import minitorch`` (as ``torch.multiprocessing``); exports nothing."""
__all__ = []
