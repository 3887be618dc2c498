"""The dataset (and the rest of what a worker needs) sent to spawned workers once.

Note [One pickle for all workers]
Under `spawn` and `forkserver` every worker process gets its arguments pickled for it: with
the dataset among them, the main process pickles the whole dataset once per worker, one worker
after the other, and pushes each copy through a pipe (minutes, reported for big datasets and
many workers).  Instead the loader pickles the worker's spec once into a shared-memory
segment (`SharedSpec`) and each worker receives a handle of the segment: it maps the segment
and unpickles straight from it.  Tensors met while pickling are not written into the segment:
they are collected in a list that travels as tensors do between processes (Note [Tensors
cross processes in shared memory]: in shared memory, no copy), and the pickle names them by
their place in the list.  Persistent workers unpickle it once, as before."""
import io
import pickle

import numpy as np

import minitorch as _mt
from minitorch import _C

__all__ = ["SharedSpec"]

_table = None       # the tensors of the SharedSpec being loaded in this process


def _table_tensor(i):
    return _table[i]


class _SpecPickler(pickle.Pickler):
    def __init__(self, f, tensors):
        super().__init__(f, pickle.HIGHEST_PROTOCOL)
        self.tensors = tensors

    def reducer_override(self, obj):
        if isinstance(obj, _C.TensorBase):
            self.tensors.append(obj)
            return _table_tensor, (len(self.tensors) - 1,)
        return NotImplemented


class SharedSpec:
    """`obj` pickled once into shared memory (Note [One pickle for all workers]); `load()` in
    any process that received this object gives a new copy of it."""

    def __init__(self, obj):
        buf = io.BytesIO()
        tensors = []
        _SpecPickler(buf, tensors).dump(obj)
        data = buf.getbuffer()
        blob = _mt.empty(len(data), dtype=_mt.uint8).share_memory_()
        blob.numpy()[:] = np.frombuffer(data, dtype=np.uint8)
        self.blob = blob
        self.tensors = tensors

    def __reduce__(self):
        return _rebuild, (self.blob, self.tensors)

    def load(self):
        global _table
        _table = self.tensors
        try:
            return pickle.loads(memoryview(self.blob.numpy()))
        finally:
            _table = None


def _rebuild(blob, tensors):
    obj = SharedSpec.__new__(SharedSpec)
    obj.blob = blob
    obj.tensors = tensors
    return obj
