"""torch.get_num_interop_threads / set_num_interop_threads.  minitorch runs no inter-op
thread pool (ops run one after another on the calling thread; each op's work is split over the
intra-op pool, set_num_threads): the inter-op setting is kept and reported, with torch's
checks, but changes nothing."""
_value = 1
_set = False


def get_num_interop_threads():
    """The inter-op thread count set (1 unless set_num_interop_threads changed it)."""
    return _value


def set_num_interop_threads(n):
    """Records n (>= 1); like torch, it may be called once."""
    global _value, _set
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"set_num_interop_threads(): argument 'int' must be int, not "
                        f"{type(n).__name__}")
    if n <= 0:
        raise RuntimeError("Expected positive number of threads")
    if _set:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work "
                           "has started or set_num_interop_threads called")
    _value, _set = n, True
