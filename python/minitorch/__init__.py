"""minitorch: a small PyTorch-compatible tensor and distributed-training runtime.

``import minitorch as torch`` gives the torch API subset listed in README.md."""

from . import _C
from ._formats import (layout, strided, memory_format, contiguous_format,  # noqa: F401
                       preserve_format, channels_last, channels_last_3d)
from ._size import Size
from ._tensor import Tensor
from . import _op_forms
from ._storage import TypedStorage, UntypedStorage
from ._tensor_str import set_printoptions, get_printoptions

_C._set_tensor_class(Tensor)
_C._set_size_class(Size)

from .version import __version__  # noqa: E402
from . import version  # noqa: E402,F401

# ---- dtypes -------------------------------------------------------------
dtype = _C.dtype
bool = _C.bool
uint8 = _C.uint8
int8 = _C.int8
int16 = _C.int16
int32 = _C.int32
int64 = _C.int64
float16 = _C.float16
bfloat16 = _C.bfloat16
float32 = _C.float32
float64 = _C.float64
float = float32
double = float64
half = float16
long = int64
int = int32
short = int16
complex64 = _C.complex64
complex128 = _C.complex128
cfloat = complex64
cdouble = complex128
# dtypes minitorch has no tensors of (see Note [Named dtypes] in csrc/dtype_object.c)
complex32 = _C.complex32
chalf = complex32
bcomplex32 = _C.bcomplex32
uint16 = _C.uint16
uint32 = _C.uint32
uint64 = _C.uint64
float8_e5m2 = _C.float8_e5m2
float8_e4m3fn = _C.float8_e4m3fn

device = _C.device
Storage = TypedStorage

get_default_dtype = _C.get_default_dtype
set_default_dtype = _C.set_default_dtype
from ._default_device import set_default_device, get_default_device  # noqa: E402
# torch's numeric constants
from math import inf, nan, e, pi  # noqa: E402
newaxis = None
set_num_threads = _C.set_num_threads
get_num_threads = _C.get_num_threads

# ---- every op function, from the op table (see _op_table.py) ----------------
globals().update(_op_forms.module_functions(Tensor))

from ._random import (  # noqa: E402,F401
    Generator, default_generator, manual_seed, seed, initial_seed, get_rng_state, set_rng_state,
)
from . import autograd  # noqa: E402
from .autograd.grad_mode import (no_grad, enable_grad, set_grad_enabled,  # noqa: E402,F401
                                 inference_mode, is_grad_enabled, is_inference_mode_enabled)
from .distributed._autoload import *  # noqa: E402,F401,F403
from .multiprocessing._autoload import *  # noqa: E402,F401,F403


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_storage(obj):
    return isinstance(obj, _C.StorageBase)


def typename(obj):
    if isinstance(obj, Tensor):
        return obj.type()
    return type(obj).__qualname__


# ---- serialization: see serialization.py (weights-only loading by default) ---
from .serialization import save, load  # noqa: E402
from ._finfo import finfo, iinfo  # noqa: E402
from . import serialization  # noqa: E402,F401
from . import _utils  # noqa: E402,F401  (torch._utils)
from . import overrides  # noqa: E402,F401  (__torch_function__: sets the C handler)

from . import cuda  # noqa: E402
from . import backends  # noqa: E402,F401
from . import futures  # noqa: E402
from ._legacy import *  # noqa: E402,F401,F403


# submodules loaded on first use (``minitorch.utils.data.DataLoader``, ``minitorch.nn.Linear``,
# ``minitorch.optim.SGD`` after a plain ``import minitorch``, as torch), so importing minitorch
# stays quick
_LAZY_SUBMODULES = frozenset({
    "utils",
    "nn",
    "optim",
    # distributions (probability distributions, transforms, KL divergences)
    "distributions",
})


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        import importlib
        return importlib.import_module("." + name, __name__)
    if name in _LAZY_ATTRIBUTES:
        import importlib
        module, attr = _LAZY_ATTRIBUTES[name]
        return getattr(importlib.import_module("." + module, __name__), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- setup calls of training scripts: autocast state, deterministic algorithms, float32
# matmul precision (small modules, loaded here); torch.amp, torch.cpu, torch.accelerator,
# torch.onnx, torch._dynamo, torch.compiler and torch.autocast / torch.compile load on first
# use, as the submodules above
from ._autocast_state import *  # noqa: E402,F401,F403
from ._switches import *  # noqa: E402,F401,F403

_LAZY_SUBMODULES = _LAZY_SUBMODULES | frozenset({
    "amp", "cpu", "accelerator", "onnx", "_dynamo", "compiler",
    # torch.testing (assert_close, make_tensor); torch.jit's API, run eagerly
    "testing", "jit",
    # torch.func (function transforms); torch.fft (discrete Fourier transforms)
    "func", "fft",
    # torch.hub (hubconf entry points, weights by URL); torch.signal.windows; torch.types
    "hub", "signal", "types",
})
# name -> (submodule, attribute) loaded on first use
_LAZY_ATTRIBUTES = {
    "autocast": ("amp", "autocast"),
    "compile": ("_compile", "compile"),
    "_amp_foreach_non_finite_check_and_unscale_":
        ("amp.grad_scaler", "_amp_foreach_non_finite_check_and_unscale_"),
    "_amp_update_scale_": ("amp.grad_scaler", "_amp_update_scale_"),
}
# ---- linear algebra: minitorch.linalg (torch.linalg), over a LAPACK opened at first use ----
from . import linalg  # noqa: E402,F401
# ---- special functions: torch.special (special.py) -------------------------------------------
from . import special  # noqa: E402,F401
# ---- autograd: anomaly mode switches (torch.is_anomaly_enabled, ...; autograd/anomaly_mode.py) --
from .autograd.anomaly_mode import (is_anomaly_enabled, is_anomaly_check_nan_enabled,  # noqa: E402,F401,E501
                                    set_anomaly_enabled)
# ---- the profiler: minitorch.profiler (torch.profiler) and minitorch.ops (torch.ops, with
# the profiler's ops), loaded on first use ----
_LAZY_SUBMODULES = _LAZY_SUBMODULES | frozenset({"profiler"})
_LAZY_ATTRIBUTES["ops"] = ("_op_namespaces", "ops")
# ---- autograd: inference tensors (torch.is_inference; Note [Inference storages] in c10_lite) --
is_inference = _C.is_inference
# ---- forward-mode AD: torch's private entry points (torch._make_dual, torch._unpack_dual) ----
from .autograd.forward_ad import _make_dual, _unpack_dual  # noqa: E402,F401
# ---- data loading: torch's legacy typed storage names (DoubleStorage, FloatStorage ...;
# _storage.py) --------------------------------------------------------------------------------
from ._storage import (BFloat16Storage, BoolStorage, ByteStorage, CharStorage,  # noqa: E402,F401
                       ComplexDoubleStorage, ComplexFloatStorage, DoubleStorage, FloatStorage,
                       HalfStorage, IntStorage, LongStorage, ShortStorage)
# ---- sparse COO tensors: layouts, torch.sparse_coo_tensor, Tensor.to_sparse and the sparse
# methods of dense tensors, minitorch.sparse (Note [Sparse COO tensors] in _sparse_coo.py) ----
from ._formats import sparse_coo, sparse_csr, sparse_csc, sparse_bsr, sparse_bsc  # noqa: E402,F401
# (the sparse methods of dense tensors, to_sparse ..., are in Tensor's class body: _tensor.py)


def spmm(input, mat2):
    """input @ mat2 for a sparse input (torch.spmm): a dense result."""
    from .sparse import mm
    return mm(input, mat2)


def smm(input, mat2):
    """sparse input @ dense mat2 as a sparse tensor (torch.smm)."""
    from . import _sparse_coo
    with autograd._watch.unwatched():
        return _sparse_coo.smm(input, mat2)


def hspmm(mat1, mat2):
    """sparse mat1 @ dense mat2 as a hybrid sparse tensor of the nonzero rows (torch.hspmm)."""
    from . import _sparse_coo
    with autograd._watch.unwatched():
        return _sparse_coo.hspmm(mat1, mat2)


_LAZY_SUBMODULES = _LAZY_SUBMODULES | frozenset({"sparse"})
_LAZY_ATTRIBUTES["sparse_coo_tensor"] = ("_sparse_coo", "sparse_coo_tensor")

# the op functions by their internal names (torch._VF), loaded on first use
_LAZY_SUBMODULES = _LAZY_SUBMODULES | frozenset({"_VF"})
# ---- in-place ops as functions of the module (torch.sin_, torch.relu_, torch.zero_, ...;
# _inplace_functions.py) ------------------------------------------------------------------------
from ._inplace_functions import *  # noqa: E402,F401,F403
# ---- torch.functional: the module of some top-level functions (functional.py), and its
# unravel_index ----------------------------------------------------------------------------------
from . import functional  # noqa: E402,F401
from .functional import unravel_index  # noqa: E402,F401

# ---- torch namespace additions: symbolic-shape names, eager control flow, inter-op threads,
# __torch_function__ switches, out-of-memory errors, vmap, build facts ------------------------
from ._sym import (SymInt, SymFloat, SymBool, sym_int, sym_float, sym_max, sym_min,  # noqa: E402,F401,E501
                   sym_not, sym_ite, sym_sqrt, sym_sum)
from ._control_flow import cond, while_loop  # noqa: E402,F401
from ._interop_threads import get_num_interop_threads, set_num_interop_threads  # noqa: E402,F401
from .overrides import DisableTorchFunction, DisableTorchFunctionSubclass  # noqa: E402,F401
OutOfMemoryError = _C.OutOfMemoryError
_LAZY_ATTRIBUTES["vmap"] = ("func", "vmap")


def compiled_with_cxx11_abi():
    """torch's question about its C++ ABI; minitorch is C (no C++ ABI to mismatch): True."""
    return True


has_lapack = True           # LAPACK from the BLAS library opened at first use (linalg)
has_spectral = True         # minitorch.fft
has_mkl = False
has_openmp = False          # minitorch's own thread pool, not OpenMP


def get_device(input):
    """The tensor's device index (-1 for the CPU), as Tensor.get_device."""
    return input.get_device()


# nn operators of torch's top-level namespace, with ATen's signatures (_nn_aliases.py)
from ._nn_aliases import *  # noqa: E402,F401,F403

# ---- torch.xpu: the device functions of a build without XPU support (xpu/) ---------------------
_LAZY_SUBMODULES = _LAZY_SUBMODULES | frozenset({"xpu"})
