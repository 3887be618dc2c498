"""Imported by minitorch/__init__.py so that ``minitorch.distributed`` is available after
``import minitorch`` (as ``torch.distributed`` is); exports nothing."""
__all__ = []
