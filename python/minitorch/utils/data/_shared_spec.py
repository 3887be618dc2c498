"""The dataset (and the rest of what a worker needs) sent to the worker zygote once, read as
it is written.

Note [One pickle for all workers]
Under `spawn` and `forkserver` multiprocessing pickles a Process's arguments for each process:
with the dataset among them, the main process would pickle the whole dataset once per worker
and push each copy through a pipe (minutes, reported for big datasets and many workers).
Instead the loader pickles the worker's spec once, for the one process that forks the workers
(Note [Worker zygote] in _zygote.py), into an anonymous memory file (memfd: nothing in
/dev/shm, gone with its last descriptor).  The zygote gets a descriptor of that file with its
arguments and unpickles while the main process is still pickling: each time another few MB are
written the main process says how many bytes the file holds on the zygote's pipe, and the
zygote's reader waits for that word when it runs ahead (`SpecWriter`, `SpecReader`).  So the
pickling, the zygote's start (interpreter and imports) and its unpickling overlap.  Tensors met
while pickling are not written by value: they travel as tensors do between processes (Note
[Tensors cross processes in shared memory]: in shared memory, no copy), one object per tensor
however often the spec names it."""
import io
import os
import pickle
from multiprocessing import reduction as _reduction

from minitorch import _C
from minitorch.multiprocessing import reductions as _reductions

__all__ = ["SpecFile", "SpecWriter", "SpecReader"]

_NOTIFY_BYTES = 4 << 20     # the main process reports progress every this many bytes


class SpecFile:
    """A descriptor of the spec's memory file, for a Process's arguments (the child gets its
    own descriptor of the same file)."""

    def __init__(self, fd):
        self.fd = fd

    def __reduce__(self):
        return _rebuild_spec_file, (_reduction.DupFd(self.fd),)


def _rebuild_spec_file(dup):
    return SpecFile(dup.detach())


def new_spec_file():
    if hasattr(os, "memfd_create"):
        return SpecFile(os.memfd_create("minitorch-dataloader-spec", os.MFD_CLOEXEC))
    import tempfile
    f = tempfile.TemporaryFile()       # no memfd: an unlinked file
    fd = os.dup(f.fileno())
    f.close()
    return SpecFile(fd)


class _SpecPickler(pickle.Pickler):
    def reducer_override(self, obj):
        if isinstance(obj, _C.TensorBase):
            return _reductions.reduce_tensor(obj)
        return NotImplemented


class SpecWriter(io.RawIOBase):
    """The main process's side: `dump(obj)` pickles obj into the file of `fd`, telling `conn`
    ("more", bytes written) every few MB and ("end", bytes) at the end."""

    def __init__(self, fd, conn):
        super().__init__()
        self.fd = fd
        self.conn = conn
        self.n = 0
        self.told = 0

    def writable(self):
        return True

    def write(self, b):
        view = memoryview(b).cast("B")
        total = len(view)
        while view:
            view = view[os.write(self.fd, view):]
        self.n += total
        if self.n - self.told >= _NOTIFY_BYTES:
            self.told = self.n
            self.conn.send(("more", self.n))
        return total

    def dump(self, obj):
        _SpecPickler(self, pickle.HIGHEST_PROTOCOL).dump(obj)
        self.conn.send(("end", self.n))


class MainGone(Exception):
    """The main process stopped before the spec was whole (it failed to pickle, or exited)."""


class SpecReader(io.RawIOBase):
    """The zygote's side: reads the file of `fd` as far as `conn`'s reports say it is
    written; `load()` unpickles the spec."""

    def __init__(self, fd, conn):
        super().__init__()
        self.fd = fd
        self.conn = conn
        self.pos = 0
        self.avail = 0
        self.ended = False

    def readable(self):
        return True

    def readinto(self, b):
        while self.pos >= self.avail and not self.ended:
            try:
                kind, n = self.conn.recv()
            except (EOFError, OSError):
                raise MainGone() from None
            self.avail = n
            self.ended = kind == "end"
        if self.pos >= self.avail:
            return 0
        view = memoryview(b).cast("B")[:self.avail - self.pos]
        got = os.preadv(self.fd, [view], self.pos)
        self.pos += got
        return got

    def load(self):
        return pickle.Unpickler(io.BufferedReader(self, 1 << 20)).load()
