"""Turning a list of samples into a batch: ``default_collate``, ``default_convert`` and the
extensible ``collate(batch, collate_fn_map=...)`` they are built on, as torch's
``torch.utils.data._utils.collate``.

The rules, by the type of the batch's first sample: tensors are stacked along a new first dim;
NumPy arrays and scalars become tensors (then stacked); Python floats a float64 tensor, ints
(and bools) a tensor of their inferred dtype; str and bytes stay a list; a Mapping becomes the
same mapping type of collated values; a namedtuple the same namedtuple of collated fields; any
other Sequence is transposed and collated field by field (a tuple gives a list). Anything else
is a TypeError.

Note [Collate output allocator]
Stacking a batch of tensors is one ``minitorch.stack(batch, 0, out=out)``; no intermediate copy.
``out`` comes from an allocator hook so that a DataLoader worker can have batches written
straight into shared memory:

* ``collate_tensors(batch, out_alloc)`` calls ``out_alloc(shape, dtype)`` with
  ``shape = (len(batch), *batch[0].shape)`` and the samples' common dtype, and stacks into the
  tensor it returns, which must be a contiguous CPU tensor of exactly that shape and dtype (the
  result IS that tensor). When the samples are not all tensors of one dtype the hook is not
  called and stack's own result (or error) is used.
* ``default_collate`` passes the module-level variable ``_collate_out_alloc`` of THIS module
  (``minitorch.utils.data._collate._collate_out_alloc``), read at each call. It is None (plain
  stack) except in a DataLoader worker process, whose worker loop sets it once at start-up.
  Where it is None but this is a worker process (``_worker_info``), the batch is stacked into
  shared memory, as torch's default_collate does in workers.
"""
import collections.abc
import copy
import re

import numpy as np

import minitorch as _mt
from ._utils import worker as _worker

__all__ = ["collate", "collate_tensors", "default_collate", "default_collate_fn_map", "default_convert"]

_collate_out_alloc = None  # see Note [Collate output allocator]

# NumPy dtype kinds that cannot become tensors: bytes, str, object
np_str_obj_array_pattern = re.compile(r"[SaUO]")

default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, numbers, "
                                  "dicts or lists; found {}")


def collate_tensors(batch, out_alloc=None):
    """Stacks the tensors of `batch` along a new dim 0, into ``out_alloc(shape, dtype)`` when
    that hook is given; see Note [Collate output allocator]."""
    elem = batch[0]
    out = None
    if out_alloc is not None and all(isinstance(t, _mt.Tensor) and t.dtype == elem.dtype for t in batch):
        out = out_alloc((len(batch), *elem.shape), elem.dtype)
    return _mt.stack(batch, 0, out=out)


def _rebuild_mapping(elem, items):
    """`items` (a dict) in `elem`'s mapping type when it can be built, else a plain dict."""
    try:
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)
            clone.update(items)
            return clone
        return type(elem)(items)
    except TypeError:
        return items


def _rebuild_sequence(elem, values):
    """`values` (a list) in `elem`'s sequence type when it can be built, else the list."""
    try:
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for i, v in enumerate(values):
                clone[i] = v
            return clone
        return type(elem)(values)
    except TypeError:
        return values


def collate(batch, *, collate_fn_map=None):
    """Collates `batch` (a list of samples) by the type of ``batch[0]``: a function of
    `collate_fn_map` registered for that type (exactly, else the first key it is an instance of)
    is called as ``fn(batch, collate_fn_map=collate_fn_map)``; mappings, namedtuples and
    sequences are collated field by field; anything else is a TypeError."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        fn = collate_fn_map.get(elem_type)
        if fn is None:
            fn = next((f for key, f in collate_fn_map.items() if isinstance(elem, key)), None)
        if fn is not None:
            return fn(batch, collate_fn_map=collate_fn_map)

    if isinstance(elem, collections.abc.Mapping):
        return _rebuild_mapping(elem, {k: collate([d[k] for d in batch], collate_fn_map=collate_fn_map)
                                       for k in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple
        return elem_type(*(collate(field, collate_fn_map=collate_fn_map) for field in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [collate(field, collate_fn_map=collate_fn_map) for field in zip(*batch)]
        if isinstance(elem, tuple):
            return fields
        return _rebuild_sequence(elem, fields)
    raise TypeError(default_collate_err_msg_format.format(elem_type))


# ---- the functions of default_collate_fn_map -----------------------------------------------------
def _shared_alloc(shape, dtype):
    return _mt.empty(shape, dtype=dtype).share_memory_()


def collate_tensor_fn(batch, *, collate_fn_map=None):
    alloc = _collate_out_alloc
    if alloc is None and _worker._worker_info is not None:     # a worker process
        alloc = _shared_alloc
    return collate_tensors(batch, alloc)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([_mt.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return _mt.as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    return _mt.tensor(batch, dtype=_mt.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return _mt.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


# searched in this order for types not found exactly (see collate)
default_collate_fn_map = {
    _mt.Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def default_collate(batch):
    """Collates a list of samples into a batch by the rules of the module docstring
    (``collate(batch, collate_fn_map=default_collate_fn_map)``)."""
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data):
    """Converts NumPy arrays and scalars in `data` (also inside mappings, namedtuples and
    sequences) to tensors, without batching; everything else is returned unchanged (a plain tuple
    becomes a list)."""
    data_type = type(data)
    if isinstance(data, _mt.Tensor):
        return data
    if data_type.__module__ == "numpy" and data_type.__name__ not in ("str_", "string_"):
        if data_type.__name__ == "ndarray" and np_str_obj_array_pattern.search(data.dtype.str) is not None:
            return data
        return _mt.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {k: default_convert(data[k]) for k in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a namedtuple
        return data_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(d) for d in data])
    return data
