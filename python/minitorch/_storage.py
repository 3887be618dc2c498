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


class _LegacyStorageMeta(type):
    """Note [Legacy typed storages]: torch.DoubleStorage, torch.FloatStorage ... are not types
    of their own objects: calling one makes a TypedStorage of its dtype, and isinstance()
    accepts any TypedStorage of that dtype (as torch's legacy storage classes)."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, TypedStorage) and obj.dtype == cls.dtype


class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):
    """Base of the legacy storage names (see Note [Legacy typed storages])."""

    dtype = None

    def __new__(cls, *args, device=None):
        """cls(n): n uninitialised elements; cls(sequence): the elements of the sequence;
        cls(): empty."""
        if len(args) > 1:
            raise TypeError(f"{cls.__name__}(): expected at most 1 argument, got {len(args)}")
        arg = args[0] if args else 0
        if isinstance(arg, int) and not isinstance(arg, bool):
            return TypedStorage(arg, dtype=cls.dtype, device=device)
        from . import tensor
        return tensor(list(arg), dtype=cls.dtype, device=device).storage()


def _legacy_storage_classes():
    from . import _C as C
    names = {"DoubleStorage": C.float64, "FloatStorage": C.float32, "HalfStorage": C.float16,
             "BFloat16Storage": C.bfloat16, "LongStorage": C.int64, "IntStorage": C.int32,
             "ShortStorage": C.int16, "CharStorage": C.int8, "ByteStorage": C.uint8,
             "BoolStorage": C.bool, "ComplexDoubleStorage": C.complex128,
             "ComplexFloatStorage": C.complex64}
    out = {}
    for name, dtype in names.items():
        cls = _LegacyStorageMeta(name, (_LegacyStorage,), {"dtype": dtype, "__module__": "minitorch",
                                                           "__doc__": f"TypedStorage of {dtype}."})
        out[name] = cls
    return out


_LEGACY = _legacy_storage_classes()
__all__ = ["TypedStorage", "UntypedStorage", *_LEGACY]
globals().update(_LEGACY)


def storage_class(dtype):
    """The legacy storage name of dtype (Tensor.storage_type): FloatStorage for float32, ...;
    dtypes without one give TypedStorage."""
    for cls in _LEGACY.values():
        if cls.dtype == dtype:
            return cls
    return TypedStorage
