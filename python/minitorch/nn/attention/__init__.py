"""minitorch.nn.attention: SDPBackend and sdpa_kernel, which choose the kernels
scaled_dot_product_attention may use (see Note [Attention dispatch] in minitorch/_attention.py:
FLASH_ATTENTION is minitorch's fused CPU kernel, MATH the op-by-op form; the GPU-only kernels
are accepted and never run)."""
import contextlib
import enum

from ...backends import cuda as _cuda

__all__ = ["SDPBackend", "sdpa_kernel", "WARN_FOR_UNFUSED_KERNELS"]

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.Enum):
    """The kernels of scaled_dot_product_attention (torch's values)."""
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value


_FLAG_OF = {SDPBackend.MATH: "math", SDPBackend.FLASH_ATTENTION: "flash",
            SDPBackend.EFFICIENT_ATTENTION: "mem_efficient",
            SDPBackend.CUDNN_ATTENTION: "cudnn"}


def _cur_sdpa_kernel_backends():
    return [b for b, name in _FLAG_OF.items() if _cuda._SDP_FLAGS[name]]


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Only the given backends (one or a list) may run in the block; with set_priority their
    order is the order of preference.  The previous choice is restored after."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend "
                             f"instances, got {type(backends).__name__}")
    if isinstance(backends, SDPBackend):
        backends = [backends]
    backends = list(dict.fromkeys(backends))
    saved, saved_order = dict(_cuda._SDP_FLAGS), list(_cuda._SDP_ORDER)
    try:
        for b, name in _FLAG_OF.items():
            _cuda._SDP_FLAGS[name] = b in backends
        if set_priority:
            order = [_FLAG_OF[b] for b in backends if b in _FLAG_OF]
            _cuda._SDP_ORDER[:] = order + [n for n in saved_order if n not in order]
        yield {}
    finally:
        _cuda._SDP_FLAGS.update(saved)
        _cuda._SDP_ORDER[:] = saved_order
