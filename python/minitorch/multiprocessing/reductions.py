"""How tensors and storages are pickled for other processes (multiprocessing's ForkingPickler:
Queue, SimpleQueue, Pipe, Process and spawn arguments, Pool).

Note [Tensors cross processes in shared memory]
As in torch, pickling a tensor for another process moves its storage into shared memory (in
place: the sender's tensor now lives there too) and sends a handle; the receiver maps the same
memory, so in-place changes on either side are seen by the other.  Views keep their offset and
strides, and views of one storage share one storage on the other side: the receiver keeps the
storages it mapped, by segment, and maps a segment once however many handles name it.  Under
the file_descriptor strategy (the default) the handle names this process's descriptor lender
(Note [Descriptor lending]); under file_system it names a /dev/shm segment.  Ordinary pickling
(minitorch.save, pickle.dumps) still stores tensors by value."""
import atexit
import os
import threading
from multiprocessing import util as _mp_util
from multiprocessing.reduction import ForkingPickler

from .. import _C
from . import _fd_lender

_lock = threading.Lock()


def _strategy():
    from . import get_sharing_strategy
    return get_sharing_strategy()


def _handle(storage):
    """The handle of an untyped storage, moved into shared memory first when it is not."""
    info = _C._shm_info(storage)
    if info is None:
        _C._share_storage_(storage, _strategy())
        info = _C._shm_info(storage)
    kind, fd, inode, nbytes, name = info
    if kind == "file_descriptor":
        return ("fd", _fd_lender.lend(fd, inode), inode, nbytes)
    _C._shm_ref_for_handle(storage)
    return ("name", name, inode, nbytes)


def _storage_from_handle(handle):
    """The storage a handle names: the one mapping its segment here already (the loan goes
    back unused), else a new mapping."""
    kind, where, inode, nbytes = handle
    with _lock:
        storage = _C._shm_lookup(inode)
        if storage is None:
            if kind == "name":
                return _C._shm_open(where, nbytes)
            fd = _fd_lender.borrow(where, inode)
            try:
                return _C._shm_from_fd(fd, nbytes)
            finally:
                os.close(fd)
    if kind == "fd":
        _fd_lender.give_back(where, inode)
    else:
        _C._shm_unref_name(where)
    return storage


def rebuild_storage(handle, dtype):
    storage = _storage_from_handle(handle)
    if dtype is None:
        return storage
    return _C.empty(0, dtype=dtype).set_(storage).storage()


def reduce_storage(storage):
    from .._storage import TypedStorage
    dtype = storage.dtype if isinstance(storage, TypedStorage) else None
    return rebuild_storage, (_handle(storage.untyped()), dtype)


def rebuild_tensor(cls, handle, dtype, offset, size, stride, requires_grad=False):
    from .._tensor import Tensor
    t = _C.empty(0, dtype=dtype).set_(_storage_from_handle(handle), offset, size, stride)
    if cls is not Tensor:
        t = t.as_subclass(cls)
    if t.requires_grad != requires_grad:
        t.requires_grad_(requires_grad)
    return t


def reduce_tensor(tensor):
    """A leaf keeps requires_grad on the other side (a new leaf there); a non-leaf that
    requires grad is refused, as autograd graphs do not cross processes (torch's error)."""
    if tensor.requires_grad and not tensor.is_leaf:
        raise RuntimeError("Cowardly refusing to serialize non-leaf tensor which requires_grad, "
                           "since autograd does not support crossing process boundaries.  If you "
                           "just want to transfer the data, call detach() on the tensor before "
                           "serializing (e.g., putting it on the queue).")
    return rebuild_tensor, (type(tensor), _handle(tensor.untyped_storage()), tensor.dtype,
                            tensor.storage_offset(), tuple(tensor.shape), tensor.stride(),
                            tensor.requires_grad)


def register(cls):
    """Pickles instances of cls (a Tensor class) for other processes through shared memory."""
    ForkingPickler.register(cls, reduce_tensor)


class _ExitHook:
    """Gives back this process's references to named segments when it exits: at interpreter
    exit (atexit), and in multiprocessing children, which leave by os._exit after running
    their finalizers (re-registered in each forked child)."""

    def __init__(self):
        atexit.register(_C._shm_detach_named)
        self.register()
        _mp_util.register_after_fork(self, _ExitHook.register)

    def register(self):
        _mp_util.Finalize(None, _C._shm_detach_named, exitpriority=-100)


def init_reductions():
    from .._storage import TypedStorage, UntypedStorage
    from .._tensor import Tensor
    register(Tensor)
    for cls in (UntypedStorage, TypedStorage):
        ForkingPickler.register(cls, reduce_storage)
    global _exit_hook
    _exit_hook = _ExitHook()
