"""minitorch.backends.cuda."""
from ... import _C


def is_built():
    """Whether minitorch was compiled with CUDA support (whether or not a GPU is present)."""
    return bool(_C._has_cuda)


# ---- scaled dot-product attention kernels (Note [Attention dispatch] in minitorch/_attention.py)
# On the CPU the "flash" kernel is minitorch's fused one and "math" the op-by-op form; the
# memory-efficient and cuDNN kernels exist only on GPUs, their flags are kept for scripts.
_SDP_FLAGS = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}
# the order of preference (torch.nn.attention.sdpa_kernel(..., set_priority=True) changes it)
_SDP_ORDER = ["flash", "mem_efficient", "math", "cudnn"]
_SDP_SETTERS = {"flash": "set_sdp_use_flash", "mem_efficient": "set_sdp_use_mem_efficient",
                "math": "set_sdp_use_math", "cudnn": "set_sdp_use_cudnn"}


def _set_sdp(name, enabled):
    if not isinstance(enabled, bool):
        raise RuntimeError(f"{_SDP_SETTERS[name]} expects a bool, but got {type(enabled).__name__}")
    _SDP_FLAGS[name] = enabled


def flash_sdp_enabled():
    return _SDP_FLAGS["flash"]


def enable_flash_sdp(enabled):
    _set_sdp("flash", enabled)


def mem_efficient_sdp_enabled():
    return _SDP_FLAGS["mem_efficient"]


def enable_mem_efficient_sdp(enabled):
    _set_sdp("mem_efficient", enabled)


def math_sdp_enabled():
    return _SDP_FLAGS["math"]


def enable_math_sdp(enabled):
    _set_sdp("math", enabled)


def cudnn_sdp_enabled():
    return _SDP_FLAGS["cudnn"]


def enable_cudnn_sdp(enabled):
    _set_sdp("cudnn", enabled)


_fp16_bf16_reduction_math_sdp = False


def allow_fp16_bf16_reduction_math_sdp(enabled):
    global _fp16_bf16_reduction_math_sdp
    if not isinstance(enabled, bool):
        raise RuntimeError("set_math_sdp_allow_fp16_bf16_reduction expects a bool, but got "
                           f"{type(enabled).__name__}")
    _fp16_bf16_reduction_math_sdp = enabled


def fp16_bf16_reduction_math_sdp_allowed():
    return _fp16_bf16_reduction_math_sdp


def is_flash_attention_available():
    """Whether a flash attention kernel for CUDA was built: never (no CUDA kernels yet)."""
    return False


class _SdpKernel:
    """sdp_kernel(): sets the four flags for the block and restores them after."""

    def __init__(self, flags):
        self._flags = flags

    def __enter__(self):
        import warnings
        warnings.warn("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this "
                      "context manager will be removed. Please see `torch.nn.attention."
                      "sdpa_kernel()` for the new context manager, with updated signature.",
                      FutureWarning, stacklevel=2)
        self._saved = dict(_SDP_FLAGS)
        for name, on in self._flags.items():
            _set_sdp(name, on)
        return self

    def __exit__(self, *exc):
        _SDP_FLAGS.update(self._saved)
        return False


def sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True, enable_cudnn=True):
    """Deprecated form of torch.nn.attention.sdpa_kernel: which kernels may run in the block."""
    return _SdpKernel({"flash": enable_flash, "math": enable_math,
                       "mem_efficient": enable_mem_efficient, "cudnn": enable_cudnn})


# ---- matmul switches (torch.backends.cuda.matmul) -----------------------------------------

class cuBLASModule:
    """torch.backends.cuda.matmul: allow_tf32 is the float32 matmul precision ("highest"
    when False, see minitorch._switches); the reduced-precision reductions are recorded.
    Other names raise AttributeError, as torch."""

    _flags = {"allow_fp16_reduced_precision_reduction": True,
              "allow_bf16_reduced_precision_reduction": True,
              "allow_fp16_accumulation": False}

    def __getattr__(self, name):
        if name == "allow_tf32":
            from ... import _switches
            return _switches._allow_tf32()
        if name in cuBLASModule._flags:
            return cuBLASModule._flags[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            if not isinstance(value, bool):
                raise RuntimeError(f"set_allow_tf32_cublas expects a bool, but got "
                                   f"{type(value).__name__}")
            from ... import _switches
            _switches._set_allow_tf32(value)
            return
        if name in ("allow_fp16_reduced_precision_reduction",
                    "allow_bf16_reduced_precision_reduction"):
            if not isinstance(value, (bool, tuple, list)):
                raise TypeError(f"{name} expects a bool or a tuple/list of bools, but got "
                                f"{type(value)}")
            cuBLASModule._flags[name] = value if isinstance(value, bool) else bool(value[0])
            return
        if name == "allow_fp16_accumulation":
            if not isinstance(value, bool):
                raise RuntimeError(f"{name} expects a bool, but got {type(value).__name__}")
            cuBLASModule._flags[name] = value
            return
        raise AttributeError(f"Unknown attribute {name}")


matmul = cuBLASModule()

