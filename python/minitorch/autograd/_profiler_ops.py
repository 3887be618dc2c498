"""How the profiler describes an op call (Note [Profiled ops]): its name as torch's
(aten::add, aten::linear, ...), its inputs (shapes, dtypes, strides and the values of
non-tensor arguments, as torch's record_shapes gives them) and its FLOPs (with_flops).

Note [Profiled ops]
The profiler's op watcher gets each call as the recorder's key "<kind>.<name>" (Note [Op
watchers]).  Most op-table names are ATen's; the others are mapped below (the conversion
methods are aten::to, Python operators have their dunder or ATen names, indexing is named by
the first step ATen would take: aten::select, aten::slice, aten::index, ...).  Calls that only
read metadata (is_complex, dim, ...) are not ops in torch and are not recorded.  An op's
inputs follow its declared signature when its row has one (so aten::add shows its alpha as
torch does), else the arguments as passed."""
from .. import _C

# op-table names whose ATen op is named otherwise
_RENAMED = {
    "float": "to", "double": "to", "half": "to", "bfloat16": "to", "int": "to", "long": "to",
    "short": "to", "char": "to", "byte": "to", "bool": "to", "cfloat": "to", "cdouble": "to",
    "type": "to",
    "_split": "split", "_upsample": "upsample", "_upsample_backward": "upsample_backward",
    "_max_pool2d_with_indices": "max_pool2d_with_indices",
    "_max_pool3d_with_indices": "max_pool3d_with_indices",
    "_max_pool2d_backward": "max_pool2d_with_indices_backward",
    "_max_pool3d_backward": "max_pool3d_with_indices_backward",
    "_avg_pool2d": "avg_pool2d", "_avg_pool3d": "avg_pool3d",
    "_avg_pool2d_backward": "avg_pool2d_backward", "_avg_pool3d_backward": "avg_pool3d_backward",
    "_adaptive_max_pool2d": "adaptive_max_pool2d", "_adaptive_max_pool3d": "adaptive_max_pool3d",
    "_adaptive_max_pool2d_backward": "adaptive_max_pool2d_backward",
    "_adaptive_max_pool3d_backward": "adaptive_max_pool3d_backward",
    "_convolution_backward": "convolution_backward",
    "bce": "binary_cross_entropy", "bce_logits": "binary_cross_entropy_with_logits",
    "nll": "nll_loss", "huber": "huber_loss", "smooth_l1": "smooth_l1_loss",
    "logsigmoid": "log_sigmoid", "lstm_layer": "lstm", "unique": "_unique2",
}

# Python operators (key "o.<slot>")
_OPERATORS = {
    "add": "add", "subtract": "sub", "multiply": "mul", "true_divide": "div",
    "floor_divide": "floor_divide", "remainder": "remainder", "power": "pow",
    "negative": "neg", "absolute": "abs", "and": "__and__", "or": "__or__", "xor": "__xor__",
    "lshift": "__lshift__", "rshift": "__rshift__", "T": "numpy_T", "mT": "mT",
    "inplace_add": "add_", "inplace_subtract": "sub_", "inplace_multiply": "mul_",
    "inplace_true_divide": "div_", "inplace_floor_divide": "floor_divide_",
    "inplace_remainder": "remainder_", "inplace_power": "pow_", "inplace_and": "__iand__",
    "inplace_or": "__ior__", "inplace_xor": "__ixor__", "inplace_lshift": "__ilshift__",
    "inplace_rshift": "__irshift__",
}
# operators whose reflected form (a number first) ATen computes on the tensor
_REFLECTED = {"add": "add", "multiply": "mul", "subtract": "rsub"}

# calls that read metadata only: not ops
_NOT_OPS = frozenset({
    "is_complex", "is_floating_point", "is_contiguous", "is_conj", "is_neg", "is_inference",
    "is_shared", "is_pinned", "is_signed", "is_nonzero", "is_same_size", "dim", "ndimension",
    "numel", "nelement", "size", "stride", "storage_offset", "element_size", "data_ptr",
    "get_device", "numpy", "tolist", "as_subclass", "share_memory_", "from_numpy",
    "broadcast_shapes", "can_cast", "result_type", "promote_types", "requires_grad_",
    "retain_grad",
})

_TENSOR = _C.TensorBase


def op_name(key, self, args):
    """torch's name of the call `key` ("aten::..."), or None when it is not an op."""
    kind, name = key[0], key[2:]
    if kind == "o":
        if name == "getitem":
            return "aten::" + _index_op(args[1] if len(args) > 1 else None)
        if name == "setitem":
            return "aten::" + _index_put_op(args[1] if len(args) > 1 else None,
                                            args[2] if len(args) > 2 else None)
        if name in _REFLECTED and len(args) == 2 and not isinstance(args[0], _TENSOR):
            return "aten::" + _REFLECTED[name]
        return "aten::" + _OPERATORS.get(name, name)
    if name in _NOT_OPS:
        return None
    return "aten::" + _RENAMED.get(name, name)


def _index_kind(k):
    if k is None:
        return "unsqueeze"
    if k is Ellipsis:
        return "alias"
    if isinstance(k, slice):
        return "slice"
    if isinstance(k, (bool, _TENSOR, list)) or hasattr(k, "__array__"):
        return "index"
    return "select"


def _index_op(key):
    """The first ATen op of t[key]."""
    if not isinstance(key, tuple):
        return _index_kind(key)
    kinds = [_index_kind(k) for k in key]
    if "index" in kinds:
        return "index"
    steps = [k for k in kinds if k != "alias"]
    return steps[0] if steps else "alias"


def _index_put_op(key, value):
    """The ATen op that writes t[key] = value."""
    keys = key if isinstance(key, tuple) else (key,)
    tensor_value = isinstance(value, _TENSOR)
    for k in keys:
        if isinstance(k, _TENSOR) and k.dtype == _C.bool and not tensor_value:
            return "masked_fill_"
        if isinstance(k, (bool, _TENSOR, list)) or hasattr(k, "__array__"):
            return "index_put_" if tensor_value else "index_fill_"
    return "copy_" if tensor_value else "fill_"


# ---- inputs ---------------------------------------------------------------------------------

_signatures = None


def _signature(name):
    """[(param name, varargs)] of the op-table row `name` declared with d(...), or None."""
    global _signatures
    if _signatures is None:
        from .._op_table import OPS
        from ._dsl import parse_signature
        sigs = {}
        for row in OPS:
            grad = row["grad"]
            if isinstance(grad, dict):
                params = [(p.name, p.type.endswith("...")) for p in
                          parse_signature(grad["signature"])]
                for n in (row["name"],) + row["aliases"]:
                    sigs[n] = params
        _signatures = sigs
    return _signatures.get(name)


def call_arguments(key, self, args, kwargs):
    """The call's arguments in its op's order: the declared parameters (None for those not
    given), else the positional arguments then the keyword ones; a method's self first."""
    kind, name = key[0], key[2:]
    if kind == "m":
        args = (self,) + tuple(args)
    if kind == "o":
        if name in _REFLECTED and len(args) == 2 and not isinstance(args[0], _TENSOR):
            args = (args[1], args[0])
        name = _OPERATORS.get(name, name)
    params = _signature(name)
    if params is None and name.endswith("_"):
        params = _signature(name[:-1])         # an in-place form: its op's parameters
    if params is None:
        return list(args) + [v for k, v in kwargs.items() if k != "out"]
    out = []
    rest = list(args)
    for pname, varargs in params:
        if varargs:
            if len(rest) == 1 and isinstance(rest[0], (list, tuple)):
                out.append(list(rest[0]))
            elif rest:
                out.append(list(rest))
            else:
                out.append(kwargs.get(pname))
            rest = []
        elif rest:
            out.append(rest.pop(0))
        elif pname in kwargs:
            out.append(kwargs[pname])
        elif pname == "self" and "input" in kwargs:
            out.append(kwargs["input"])
        else:
            out.append(None)
    known = {p for p, _ in params} | {"input", "out"}
    return out + rest + [v for k, v in kwargs.items() if k not in known]


# torch's C++ names of the dtypes (the trace's "Input type")
_CPP_TYPES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
    "uint8": "unsigned char", "bool": "bool", "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}
# torch's ScalarType numbers (a dtype argument's concrete value)
_SCALAR_TYPES = {
    "uint8": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "float16": 5, "float32": 6,
    "float64": 7, "complex64": 9, "complex128": 10, "bool": 11, "bfloat16": 15,
}


def _dtype_name(dtype):
    return str(dtype).rpartition(".")[2]


def describe(arguments):
    """(shapes, dtypes, strides, concrete values, structured shapes) of the arguments, as
    torch's record_shapes: a tensor's shape and strides (a list of tensors: [] and, structured,
    each one's shape), a non-tensor's [] and its value (numbers, bools, lists of numbers,
    dtypes as torch's ScalarType numbers)."""
    shapes, dtypes, strides, concrete, structured = [], [], [], [], []
    for a in arguments:
        if isinstance(a, _TENSOR):
            shape = list(a.shape)
            shapes.append(shape)
            structured.append(shape)
            strides.append(list(a.stride()))
            dtypes.append(_CPP_TYPES.get(_dtype_name(a.dtype), _dtype_name(a.dtype)))
            concrete.append(None)
            continue
        shapes.append([])
        strides.append([])
        if isinstance(a, (list, tuple)) and a and all(isinstance(t, _TENSOR) for t in a):
            structured.append([list(t.shape) for t in a])
            dtypes.append("TensorList")
            concrete.append(None)
            continue
        structured.append([])
        if a is None:
            dtypes.append("")
            concrete.append(None)
        elif isinstance(a, (bool, int, float, complex)):
            dtypes.append("Scalar")
            concrete.append(a)
        elif isinstance(a, (list, tuple)) and all(isinstance(v, (bool, int, float)) for v in a):
            dtypes.append("ScalarList")
            concrete.append(list(a))
        elif isinstance(a, _C.dtype):
            dtypes.append("Scalar")
            concrete.append(_SCALAR_TYPES.get(_dtype_name(a)))
        elif isinstance(a, str):
            dtypes.append("String")
            concrete.append(a)
        else:
            dtypes.append("")
            concrete.append(None)
    return shapes, dtypes, strides, concrete, structured


# ---- FLOPs ----------------------------------------------------------------------------------

def _prod(values):
    p = 1
    for v in values:
        p *= v
    return p


def _conv2d_flops(shapes, concrete):
    x, w = shapes[0], shapes[1]
    if len(x) != 4 or len(w) != 4:
        return 0

    def pair(i, default):
        v = concrete[i] if len(concrete) > i and concrete[i] is not None else default
        if isinstance(v, str):
            return v
        v = list(v) if isinstance(v, (list, tuple)) else [v]
        return v * 2 if len(v) == 1 else v
    stride, padding, dilation = pair(3, 1), pair(4, 0), pair(5, 1)
    out = []
    for d in range(2):
        size, k = x[2 + d], w[2 + d]
        if padding == "same":
            out.append(size)
            continue
        pad = 0 if padding == "valid" else padding[d]
        out.append((size + 2 * pad - dilation[d] * (k - 1) - 1) // stride[d] + 1)
    return 2 * x[0] * w[0] * w[1] * w[2] * w[3] * out[0] * out[1]


def flops(name, shapes, concrete):
    """The FLOPs torch counts for an op (matrix products, 2-D convolutions, elementwise add
    and mul); 0 for the others.  aten::matmul is counted too: it is one op here, where torch
    counts the aten::mm it calls."""
    try:
        if name in ("aten::mm", "aten::addmm", "aten::matmul"):
            a, b = (shapes[1], shapes[2]) if name == "aten::addmm" else (shapes[0], shapes[1])
            if name == "aten::matmul" and (len(a) < 2 or len(b) < 2):
                return 2 * _prod(a) * (b[-1] if len(b) > 1 else 1) if a and b else 0
            batch = _prod(a[:-2]) if len(a) > 2 else _prod(b[:-2])
            return 2 * batch * a[-2] * a[-1] * b[-1]
        if name in ("aten::bmm", "aten::baddbmm"):
            a, b = (shapes[1], shapes[2]) if name == "aten::baddbmm" else (shapes[0], shapes[1])
            return 2 * a[0] * a[1] * a[2] * b[2]
        if name == "aten::conv2d":
            return _conv2d_flops(shapes, concrete)
        if name in ("aten::mul", "aten::add"):
            tensors = [s for s in shapes[:2] if s]
            if not tensors:
                return 0
            ndim = max(len(s) for s in tensors)
            out = [max((s[i - ndim + len(s)] if i - ndim + len(s) >= 0 else 1) for s in tensors)
                   for i in range(ndim)]
            return _prod(out)
    except (IndexError, TypeError):
        return 0
    return 0


# threshold's gradient op (formulas.threshold), as torch's profiler names it
_RENAMED["_threshold_backward"] = "threshold_backward"
