"""minitorch.cuda.nccl: the NCCL library minitorch loads at run time (Note [Loading NCCL])."""
from .. import _C

_c10d = _C._c10d


def _unavailable_reason():
    """None when NCCL loads, else why it does not."""
    if not _c10d._nccl_built:
        return "minitorch was built without NCCL (no CUDA toolkit with nccl.h at build time)"
    try:
        _c10d._nccl_version()
    except RuntimeError as e:
        return str(e)
    return None


def version():
    """The loaded NCCL's version as (major, minor, patch); RuntimeError saying why when the
    library cannot be loaded."""
    if not _c10d._nccl_built:
        raise RuntimeError(_unavailable_reason())
    code = _c10d._nccl_version()
    if code >= 20900:  # NCCL_VERSION(X, Y, Z) = X * 10000 + Y * 100 + Z since 2.9
        return code // 10000, code // 100 % 100, code % 100
    return code // 1000, code // 100 % 10, code % 100


def unique_id():
    """A new ncclUniqueId (bytes): one rank makes it, the others receive it (through the store
    in init_process_group)."""
    if not _c10d._nccl_built:
        raise RuntimeError(_unavailable_reason())
    return _c10d._nccl_unique_id()


def library_path():
    """The file of the loaded NCCL library."""
    if not _c10d._nccl_built:
        raise RuntimeError(_unavailable_reason())
    return _c10d._nccl_library()
