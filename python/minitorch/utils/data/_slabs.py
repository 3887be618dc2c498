"""How batches travel from DataLoader workers to the main process without a copy.

Note [Batch slabs]
Each worker owns a few slabs: shared-memory segments it reuses for batch after batch.  While it
builds a batch, default_collate stacks each tensor straight into the worker's current slab
(Note [Collate output allocator]; bump allocation, 64-byte aligned; a batch that does not fit
goes on in another slab).  The batch is then pickled with every tensor in a slab written as a
reference (slab, byte offset, dtype, shape, stride) and sent with the list of regions it used.
The main process maps each slab once (its descriptor is lent the first time the slab is named,
Note [Descriptor lending]) and wraps each region in a storage of its own whose death clears the
slab's busy word (Note [Shared regions]); the batch's tensors are views of those storages.  So
a batch costs one copy (the stack), a small message, and no system call for shared memory;
the worker reuses a slab once every tensor of the batch it held is gone, wherever that happens.
A worker keeps as many slabs as the batches in flight and held by the user need, and drops
idle ones beyond a few.  With pin_memory=True the main process page-locks each slab once, as it
maps it (cudaHostRegister through Note [Pinned host memory]): the batch's tensors are pinned
where they lie, so no pin-memory copy is made, and a region goes back to its worker only once
the asynchronous copies from it have completed (the region's deleter waits for them); a slab
is unregistered when it is retired or the loader's iterator goes.  Tensors that are not in a slab (made by a custom collate_fn, say)
travel as any tensor sent to another process (Note [Tensors cross processes in shared memory])."""
import io
import pickle
import struct
import warnings
import weakref

import minitorch as _mt
from minitorch import _C
from minitorch.multiprocessing.reductions import ForkingPickler

_HEADER = 64          # bytes in front of a slab's data: the busy word (int32) at offset 0
_ALIGN = 64
_MIN_SLAB = 1 << 20
_IDLE_KEPT = 4        # idle slabs a worker keeps beyond those in use
_LEN = struct.Struct("<Q")   # a message: header length, header pickle, batch pickle


def _round(n, to):
    return (n + to - 1) // to * to


class _Slab:
    __slots__ = ("id", "storage", "capacity", "busy", "ptr", "used")

    def __init__(self, slab_id, capacity):
        self.id = slab_id
        self.capacity = capacity
        self.storage = _C._shm_new(_HEADER + capacity, "file_descriptor")
        self.busy = _mt.empty(0, dtype=_mt.int32).set_(self.storage, 0, (1,))
        self.ptr = self.storage.data_ptr()
        self.used = _HEADER

    def free(self):
        return self.busy.item() == 0


class SlabRing:
    """The worker's side: allocates batch tensors in slabs (the collate hook) and pickles
    batches (see Note [Batch slabs])."""

    def __init__(self):
        self.slabs = {}               # id -> _Slab
        self.by_ptr = {}              # slab data_ptr -> _Slab
        self.next_id = 0
        self.announced = set()        # slabs the main process has been sent
        self.batch = []               # the slabs of the batch being built, in order
        self.largest = 0              # bytes of the largest batch so far
        self.retired = []

    def begin_batch(self):
        self.batch = []

    def _take(self, need):
        """A free slab of at least `need` bytes (the smallest), or a new one."""
        best = None
        for s in self.slabs.values():
            if s.capacity >= need and s not in self.batch and s.free():
                if best is None or s.capacity < best.capacity:
                    best = s
        if best is None:
            best = _Slab(self.next_id, _round(max(need, self.largest, _MIN_SLAB), _MIN_SLAB))
            self.next_id += 1
            self.slabs[best.id] = best
            self.by_ptr[best.ptr] = best
        best.busy.fill_(1)
        best.used = _HEADER
        self.batch.append(best)
        return best

    def alloc(self, shape, dtype):
        """The collate hook: an uninitialised contiguous tensor of `shape` and `dtype` in the
        current slab (see Note [Collate output allocator])."""
        numel = 1
        for n in shape:
            numel *= n
        nbytes = numel * dtype.itemsize
        if nbytes == 0:        # no bytes to share: it travels by value (no region names it)
            return _mt.empty(shape, dtype=dtype)
        slab = self.batch[-1] if self.batch else None
        if slab is None or slab.used + nbytes > _HEADER + slab.capacity:
            slab = self._take(nbytes)
        offset = slab.used
        slab.used = _round(offset + nbytes, _ALIGN)
        return _mt.empty(0, dtype=dtype).set_(slab.storage, offset // dtype.itemsize, tuple(shape))

    def end_batch(self):
        """The regions of the finished batch: [(slab id, start, nbytes)]; unused slabs of it
        are released again, and idle slabs beyond a few are dropped."""
        regions, total = [], 0
        for s in self.batch:
            if s.used == _HEADER:
                s.busy.fill_(0)
                continue
            regions.append((s.id, _HEADER, s.used - _HEADER))
            total += s.used - _HEADER
        self.largest = max(self.largest, total)
        idle = [s for s in self.slabs.values() if s not in self.batch and s.free()]
        for s in sorted(idle, key=lambda s: s.capacity)[:-_IDLE_KEPT or None]:
            del self.slabs[s.id], self.by_ptr[s.ptr]
            if s.id in self.announced:
                self.announced.discard(s.id)
                self.retired.append(s.id)
        return regions

    def abandon(self, regions):
        """The regions of a batch that will not be sent are free again."""
        for sid, _, _ in regions:
            if sid in self.slabs:
                self.slabs[sid].busy.fill_(0)

    def locate(self, t):
        """(slab id, byte offset) of a tensor that lives in one of this ring's slabs, or None."""
        s = self.by_ptr.get(t.untyped_storage().data_ptr())
        if s is None:
            return None
        return s.id, t.data_ptr() - s.ptr

    def encode(self, idx, data, regions):
        """The message for batch `idx` (bytes)."""
        new = {sid: self.slabs[sid].storage for sid, _, _ in regions if sid not in self.announced}
        header = ForkingPickler.dumps((idx, regions, new, self.retired))   # new slabs are lent
        buf = io.BytesIO()
        buf.write(_LEN.pack(len(header)))
        buf.write(header)
        _BatchPickler(buf, self).dump(data)
        self.announced.update(new)
        self.retired = []
        return buf.getbuffer()


class _BatchPickler(ForkingPickler):
    def __init__(self, f, ring):
        super().__init__(f, pickle.HIGHEST_PROTOCOL)
        self.ring = ring

    def persistent_id(self, obj):
        if isinstance(obj, _C.TensorBase):
            where = self.ring.locate(obj)
            if where is not None:
                return ("slab",) + where + (obj.dtype, tuple(obj.shape), obj.stride())
        return None


class SlabMapper:
    """The main process's side: maps each worker's slabs once and decodes batches into tensors
    on per-batch region storages (see Note [Batch slabs])."""

    def __init__(self):
        self.slabs = {}               # (worker id, slab id) -> the slab's storage here
        self.pinned = None            # page-locked slabs' storages by key, once pinning is asked

    def pin(self):
        """Page-lock the slabs from now on (the DataLoader's pin_memory=True with a device)."""
        if self.pinned is None:
            self.pinned = {}
            weakref.finalize(self, _unregister_all, self.pinned)

    def _mapped(self, key, storage):
        self.slabs[key] = storage
        if self.pinned is not None:
            try:
                _C._cuda_host_register(storage)
            except RuntimeError as e:   # e.g. the runtime's limit on locked memory
                warnings.warn(f"DataLoader: batch slabs could not be page-locked ({e}); batches "
                              "are copied to pinned memory instead", stacklevel=2)
                _unregister_all(self.pinned)
                self.pinned = None
            else:
                self.pinned[key] = storage

    def _retired(self, key):
        self.slabs.pop(key, None)
        if self.pinned is not None and key in self.pinned:
            _C._cuda_host_unregister(self.pinned.pop(key))

    def decode(self, worker_id, message):
        """(idx, data) of a worker's message.  A region whose batch never gets here (the loader
        shut down first) stays busy; its slab goes with the worker."""
        return _BatchUnpickler(memoryview(message), self, worker_id).load_batch()


class _BatchUnpickler(pickle.Unpickler):
    def __init__(self, message, mapper, worker_id):
        (n,) = _LEN.unpack_from(message)
        self.header = pickle.loads(message[_LEN.size:_LEN.size + n])
        super().__init__(io.BytesIO(message[_LEN.size + n:]))
        self.mapper = mapper
        self.worker_id = worker_id
        self.regions = {}             # slab id -> (start, storage of the region)

    def load_batch(self):
        idx, regions, new, retired = self.header
        slabs = self.mapper.slabs
        for sid, storage in new.items():
            self.mapper._mapped((self.worker_id, sid), storage)
        for sid in retired:
            self.mapper._retired((self.worker_id, sid))
        for sid, start, nbytes in regions:
            self.regions[sid] = (start, _C._shm_region(slabs[self.worker_id, sid], start, nbytes, 0))
        return idx, self.load()

    def persistent_load(self, pid):
        _, slab_id, offset, dtype, shape, stride = pid
        start, region = self.regions[slab_id]
        return _mt.empty(0, dtype=dtype).set_(region, (offset - start) // dtype.itemsize, shape, stride)


def _unregister_all(pinned):
    """Unregisters every page-locked slab (each after the copies still reading it)."""
    for storage in pinned.values():
        _C._cuda_host_unregister(storage)
    pinned.clear()
