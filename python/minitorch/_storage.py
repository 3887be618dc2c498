"""Storage classes: a refcounted buffer seen as bytes (UntypedStorage) or elements (TypedStorage)."""
from . import _C


class _Sharing:
    """share_memory_ / is_shared of both storage classes (see Note [Shared memory])."""

    def share_memory_(self):
        """Moves the bytes into shared memory in place (tensors on this storage see them
        there), under the current sharing strategy.  Returns self."""
        from .multiprocessing import get_sharing_strategy
        _C._share_storage_(self, get_sharing_strategy())
        return self

    def is_shared(self):
        return _C._shm_info(self) is not None


class UntypedStorage(_Sharing, _C.StorageBase):
    """Bytes of a storage: size() and nbytes() agree, indexing gives ints 0..255."""

    __module__ = "minitorch"

    def __new__(cls, size=0, *, device=None):
        return super().__new__(cls, size, device=device)

    def __repr__(self):
        return f" {' '.join(str(v) for v in self.tolist()[:64])}{' ...' if len(self) > 64 else ''}\n" \
               f"[minitorch.storage.UntypedStorage(device={self.device}) of size {len(self)}]"


class TypedStorage(_Sharing, _C.StorageBase):
    """Elements of a storage of one dtype, as returned by Tensor.storage()."""

    __module__ = "minitorch"

    def __new__(cls, size=0, *, dtype=None, device=None):
        from . import get_default_dtype
        return super().__new__(cls, size, dtype=dtype or get_default_dtype(), device=device)

    def __repr__(self):
        vals = self.tolist()
        body = "\n".join(f" {v}" for v in vals[:64]) + ("\n ..." if len(vals) > 64 else "")
        return f"{body}\n[minitorch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size {len(self)}]"

    def untyped_storage(self):
        return self.untyped()


_C._set_storage_classes(UntypedStorage, TypedStorage)
