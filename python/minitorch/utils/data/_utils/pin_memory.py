"""``torch.utils.data._utils.pin_memory``: pinning every tensor of a batch
(``Tensor.pin_memory``, which needs an accelerator), keeping the batch's structure."""
import collections.abc

import minitorch as _mt

__all__ = ["pin_memory"]


def pin_memory(data, device=None):
    """`data` with every tensor pinned (objects with a ``pin_memory()`` method too): mappings,
    namedtuples, tuples and sequences keep their type where it can be rebuilt."""
    if isinstance(data, _mt.Tensor):
        return data.pin_memory() if device is None else data.pin_memory(device)
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        items = {k: pin_memory(v, device) for k, v in data.items()}
        try:
            return type(data)(items)
        except TypeError:
            return items
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(pin_memory(v, device) for v in data))
    if isinstance(data, tuple):
        return [pin_memory(v, device) for v in data]
    if isinstance(data, collections.abc.Sequence):
        values = [pin_memory(v, device) for v in data]
        try:
            return type(data)(values)
        except TypeError:
            return values
    if hasattr(data, "pin_memory"):
        return data.pin_memory()
    return data
