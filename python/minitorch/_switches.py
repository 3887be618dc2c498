"""Process-wide switches that training scripts set: deterministic algorithms and the float32
matmul precision (torch.use_deterministic_algorithms, torch.set_float32_matmul_precision and
their getters; torch.backends.cuda.matmul.allow_tf32 reads and writes the same precision).

Every minitorch kernel is deterministic (its reductions use a fixed order whatever the
thread count; see README), so the deterministic mode changes nothing and is only recorded;
no float32 product runs in reduced precision on the CPU, so there the precision is only
recorded; CUDA's float32 products use TF32 unless it is "highest" (mirrored into C)."""

__all__ = ["use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
           "get_deterministic_debug_mode", "set_float32_matmul_precision",
           "get_float32_matmul_precision"]

_deterministic = False
_warn_only = False
_precision = "highest"
_PRECISIONS = ("highest", "high", "medium")


def _type_name(x):
    return type(x).__name__


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Asks for deterministic algorithms (all of minitorch's are); warn_only as torch's."""
    global _deterministic, _warn_only
    if not isinstance(mode, bool):
        raise TypeError("_set_deterministic_algorithms(): argument 'mode' (position 1) must be "
                        f"bool, not {_type_name(mode)}")
    if not isinstance(warn_only, bool):
        raise TypeError("_set_deterministic_algorithms(): argument 'warn_only' must be bool, "
                        f"not {_type_name(warn_only)}")
    _deterministic, _warn_only = mode, warn_only


def are_deterministic_algorithms_enabled():
    return _deterministic


def is_deterministic_algorithms_warn_only_enabled():
    return _warn_only


def set_deterministic_debug_mode(debug_mode):
    """0 / "default": off; 1 / "warn": deterministic, warn only; 2 / "error": deterministic."""
    if isinstance(debug_mode, str):
        names = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in names:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, "
                               f"`error`, but got {debug_mode}")
        debug_mode = names[debug_mode]
    elif not isinstance(debug_mode, int) or isinstance(debug_mode, bool):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    if not _deterministic:
        return 0
    return 1 if _warn_only else 2


def set_float32_matmul_precision(precision):
    """"highest", "high" or "medium" (on the cpu only recorded: its float32 products are always
    full precision; on CUDA anything but "highest" allows TF32); another string warns and changes
    nothing, as torch."""
    global _precision
    if not isinstance(precision, str):
        raise RuntimeError("set_float32_matmul_precision expects a str, but got "
                           f"{_type_name(precision)}")
    if precision not in _PRECISIONS:
        import warnings
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", stacklevel=2)
        return
    _precision = precision
    _mirror_tf32()


def get_float32_matmul_precision():
    return _precision


def _allow_tf32():
    return _precision != "highest"


def _set_allow_tf32(flag):
    global _precision
    _precision = "high" if flag else "highest"
    _mirror_tf32()


def _mirror_tf32():
    """The CUDA GEMM reads the precision from C (TF32 for float32 products unless "highest")."""
    from minitorch import _C
    _C._set_matmul_allow_tf32(_precision != "highest")


# ---- warn-always (torch.set_warn_always): warnings torch gives once per process (autograd's
# create_graph warning, ...) are given every time while it is on ----
__all__ += ["set_warn_always", "is_warn_always_enabled"]
_warn_always = False


def set_warn_always(b):
    """While True, warnings given once per process are given every time."""
    global _warn_always
    if not isinstance(b, bool):
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {_type_name(b)}")
    _warn_always = b


def is_warn_always_enabled():
    return _warn_always
