"""``torch.utils.data._utils.pin_memory``: pinning every tensor of a batch
(``Tensor.pin_memory``, which needs an accelerator), keeping the batch's structure."""
import collections.abc

import minitorch as _mt

__all__ = ["pin_memory"]


def map_batch(data, fn, other=None):
    """`data` with fn(t) in place of every tensor t: mappings, namedtuples, tuples (which
    become lists, as torch's pin_memory makes them) and sequences keep their type where it can
    be rebuilt; any other object x becomes other(x) when `other` is given."""
    if isinstance(data, _mt.Tensor):
        return fn(data)
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        items = {k: map_batch(v, fn, other) for k, v in data.items()}
        try:
            return type(data)(items)
        except TypeError:
            return items
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(map_batch(v, fn, other) for v in data))
    if isinstance(data, tuple):
        return [map_batch(v, fn, other) for v in data]
    if isinstance(data, collections.abc.Sequence):
        values = [map_batch(v, fn, other) for v in data]
        try:
            return type(data)(values)
        except TypeError:
            return values
    return data if other is None else other(data)


def pin_memory(data, device=None):
    """`data` with every tensor pinned (objects with a ``pin_memory()`` method too), the batch's
    structure kept as map_batch keeps it."""
    def pin(t):
        return t.pin_memory() if device is None else t.pin_memory(device)
    return map_batch(data, pin, lambda x: x.pin_memory() if hasattr(x, "pin_memory") else x)
