"""SharedList: a read-only list whose items live serialised in shared memory.

Note [Copy-on-read]
A dataset that holds a big Python list (of dicts, strings, numbers...) grows every worker's
memory by the size of the list as the workers read it (PyTorch issue 13246): a fork shares the
pages, but reading an object writes its reference count, so each page a worker touches is
copied into it.  SharedList pickles every item once, into one shared-memory storage (an offset
table and the bytes); reading item i unpickles it from there into a fresh object that dies with
the sample.  The shared pages are only ever read, so forked workers keep sharing them, and a
SharedList sent to a spawned worker travels as a shared-memory handle, not a copy."""
import operator
import pickle
from collections.abc import Sequence

import numpy as np

import minitorch as _mt

__all__ = ["SharedList"]


class SharedList(Sequence):
    """A read-only list of picklable items kept serialised in shared memory (see Note
    [Copy-on-read]); ``shared[i]`` is a new copy of item i."""

    def __init__(self, items):
        blob = bytearray()
        offsets = [0]
        for item in items:
            blob += pickle.dumps(item, pickle.HIGHEST_PROTOCOL)
            offsets.append(len(blob))
        n = len(offsets) - 1
        table = np.asarray(offsets, dtype=np.int64)
        storage = _mt.empty(table.nbytes + len(blob), dtype=_mt.uint8).share_memory_()
        view = storage.numpy()
        view[:table.nbytes] = table.view(np.uint8)
        view[table.nbytes:] = np.frombuffer(blob, dtype=np.uint8)
        del blob
        self._setup(storage, n)

    def _setup(self, storage, n):
        self._storage = storage
        self._n = n
        view = storage.numpy()
        self._offsets = view[:(n + 1) * 8].view(np.int64)
        self._bytes = memoryview(view[(n + 1) * 8:])

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        i = operator.index(i)
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("SharedList index out of range")
        return pickle.loads(self._bytes[self._offsets[i]:self._offsets[i + 1]])

    def __reduce__(self):
        # the storage pickles as shared memory for other processes (Queue, spawn), by value
        # for pickle.dumps / minitorch.save
        return _rebuild, (self._storage, self._n)

    def __repr__(self):
        return f"SharedList({self._n} items, {self._storage.numel()} bytes in shared memory)"


def _rebuild(storage, n):
    obj = SharedList.__new__(SharedList)
    obj._setup(storage, n)
    return obj
