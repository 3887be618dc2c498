"""The op objects a __torch_dispatch__ handler is given (Note [Python dispatch] in
_python_dispatch.py): torch's OpOverload / OpOverloadPacket, named aten.<op>.<overload> after
the recorder's key of the call.  Calling one runs the op (its public entry point: recorded
when an argument requires grad, and dispatched again when an argument is a dispatch tensor)."""
from . import _C

# recorder names whose aten op has another name
_ATEN_NAMES = {
    "subtract": "sub", "multiply": "mul", "true_divide": "div", "divide": "div",
    "power": "pow", "negative": "neg", "absolute": "abs", "getitem": "index",
    "setitem": "index_put_", "T": "permute", "mT": "transpose", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "__lshift__", "rshift": "__rshift__",
    "clip": "clamp", "greater": "gt", "less": "lt", "greater_equal": "ge", "less_equal": "le",
    "not_equal": "ne", "__getitem__": "index", "__setitem__": "index_put_",
}

# ops whose overload is "Tensor" whatever the second operand (torch wraps numbers into tensors)
_TENSOR_OVERLOAD = frozenset({"add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_",
                              "rsub", "transpose_"})
# ops whose overload is "Tensor" or "Scalar" after their second operand
_TENSOR_OR_SCALAR = frozenset({
    "eq", "ne", "lt", "le", "gt", "ge", "remainder", "fmod", "bitwise_and", "bitwise_or",
    "bitwise_xor", "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "remainder_", "fmod_",
    "floor_divide", "floor_divide_", "atan2", "maximum", "minimum", "fill_", "masked_fill",
    "masked_fill_"})
# ops whose overload depends on whether a dimension is given
_DIM_OVERLOAD = {"sum": "dim_IntList", "mean": "dim", "prod": "dim_int", "amax": "default",
                 "amin": "default", "std": "correction", "var": "correction",
                 "max": "dim", "min": "dim", "argmax": "default", "argmin": "default",
                 "norm": "ScalarOpt_dim", "logsumexp": "default", "any": "dim", "all": "dim",
                 "squeeze": "dim", "nansum": "default", "cumsum": "default",
                 "cumprod": "default"}
_FIXED = {"transpose": "int", "select": "int", "slice": "Tensor", "split": "Tensor",
          "chunk": "default", "unbind": "int", "softmax": "int", "log_softmax": "int",
          "index": "Tensor", "index_put_": "default", "permute": "default",
          "expand": "default", "view": "default", "reshape": "default", "pow_": "Scalar",
          "clamp": "default", "where": "self", "sub_": "Tensor", "copy_": "default",
          "zero_": "default", "detach": "default", "clone": "default", "to": "dtype",
          "size": "int", "item": "default", "_local_scalar_dense": "default"}


class OpOverloadPacket:
    """An aten op of every overload (torch.ops.aten.<op>): callable, its overloads as
    attributes."""

    def __init__(self, name, fn):
        self._name = name
        self._fn = fn
        self._overloads = {}
        self.__name__ = name
        self._qualified_op_name = f"aten::{name}"

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def overloads(self):
        return list(self._overloads)

    def __getattr__(self, name):
        ov = self.__dict__.get("_overloads", {}).get(name)
        if ov is None and self.__dict__.get("_any_overload") and not name.startswith("_"):
            ov = self._overloads[name] = OpOverload(self, name, self._fn)
        if ov is None:
            raise AttributeError(f"The underlying op of 'aten.{self.__dict__.get('_name')}' "
                                 f"has no overload name '{name}'")
        return ov

    def __str__(self):
        return f"aten.{self._name}"

    # the op objects of one aten op are equal whichever entry point they run
    def __eq__(self, other):
        return isinstance(other, OpOverloadPacket) and other._name == self._name

    def __hash__(self):
        return hash(("aten", self._name))

    def __repr__(self):
        return f"<OpOverloadPacket(op='aten.{self._name}')>"


class OpOverload:
    """One overload of an aten op (torch.ops.aten.<op>.<overload>): what a __torch_dispatch__
    handler gets as `func`; calling it runs the op."""

    def __init__(self, packet, overload, fn):
        self.overloadpacket = packet
        self._overloadname = overload
        self._fn = fn
        self.namespace = "aten"
        self.__name__ = f"{packet._name}.{overload}"
        self.__qualname__ = self.__name__

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def name(self):
        return f"aten::{self.overloadpacket._name}.{self._overloadname}"

    def __eq__(self, other):
        return isinstance(other, OpOverload) and other.overloadpacket == self.overloadpacket \
            and other._overloadname == self._overloadname

    def __hash__(self):
        return hash(("aten", self.overloadpacket._name, self._overloadname))

    def __str__(self):
        return f"aten.{self.overloadpacket._name}.{self._overloadname}"

    def __repr__(self):
        return f"<OpOverload(op='aten.{self.overloadpacket._name}', " \
               f"overload='{self._overloadname}')>"


_packets = {}   # (aten name, entry point) -> packet


def _entry(kind, name):
    """The public entry point of the recorder's key: a function of the full arguments (a
    method's self first)."""
    if kind == "m":
        return getattr(_C.TensorBase, name)
    if kind == "f":
        return getattr(_C, name)
    if kind == "p":
        from ._op_forms import FORMS, PY_IMPLS
        return FORMS.get(name) or PY_IMPLS[name]
    from .autograd._record import _OPERATORS
    return _OPERATORS[name]


def _overload(aten, full, kwargs):
    if aten in _TENSOR_OVERLOAD:
        return "Tensor"
    if aten in _TENSOR_OR_SCALAR:
        second = full[1] if len(full) > 1 else kwargs.get("other", kwargs.get("value"))
        return "Tensor" if isinstance(second, _C.TensorBase) else "Scalar"
    if aten in _DIM_OVERLOAD:
        dim = full[1] if len(full) > 1 else kwargs.get("dim")
        return _DIM_OVERLOAD[aten] if dim is not None else "default"
    if aten in ("pow", "pow_"):
        a = isinstance(full[0], _C.TensorBase) if full else True
        b = isinstance(full[1], _C.TensorBase) if len(full) > 1 else True
        return "Tensor_Tensor" if a and b else "Tensor_Scalar" if a else "Scalar"
    return _FIXED.get(aten, "default")


def op_of(key, self, args, kwargs):
    """The OpOverload of the recorder's call `key` with these arguments."""
    kind, name = key[0], key[2:]
    inplace_op = kind == "o" and name.startswith("inplace_")
    base = name[8:] if inplace_op else name
    aten = _ATEN_NAMES.get(base, base)
    if inplace_op:
        aten += "_"
    if kind == "m" and name == "item":
        aten = "_local_scalar_dense"
    if aten == "index" and kind == "o":      # x[i] / x[a:b]: torch's select / slice
        i = args[1] if len(args) > 1 else None
        if isinstance(i, int) and not isinstance(i, bool):
            aten = "select"
        elif isinstance(i, slice):
            aten = "slice"
    fn = _entry(kind, name)
    packet = _packets.get((aten, fn))
    if packet is None:
        packet = _packets[aten, fn] = OpOverloadPacket(aten, fn)
    full = ((self,) + tuple(args)) if kind == "m" else tuple(args)
    ov = _overload(aten, full, kwargs)
    op = packet._overloads.get(ov)
    if op is None:
        op = packet._overloads[ov] = OpOverload(packet, ov, fn)
    return op



_scalar = None


def scalar_op():
    """aten._local_scalar_dense.default: a one-element tensor's value as a Python number."""
    global _scalar
    if _scalar is None:
        fn = _C.TensorBase.item
        packet = _packets[("_local_scalar_dense", fn)] = OpOverloadPacket("_local_scalar_dense",
                                                                          fn)
        _scalar = packet._overloads["default"] = OpOverload(packet, "default", fn)
    return _scalar


_named = {}


def aten_packet(name):
    """torch.ops.aten.<name>: the packet running minitorch's function (or Tensor method) of
    that name; any overload name gives an OpOverload of it (minitorch's functions take every
    overload's arguments).  None when minitorch has no such op."""
    p = _named.get(name)
    if p is None:
        import minitorch
        fn = _aten_only(name) or getattr(minitorch, name, None)
        if not callable(fn) or isinstance(fn, type):
            fn = getattr(minitorch.Tensor, name, None)
        if not callable(fn) or isinstance(fn, type):
            return None
        p = _named[name] = OpOverloadPacket(name, fn)
        p._any_overload = True
    return p


# ---- aten ops that are not functions of minitorch (nor of torch) ------------------------------

# threshold's gradient op, recorded under create_graph (formulas.threshold)
_ATEN_NAMES["_threshold_backward"] = "threshold_backward"


def _aten_only(name):
    """The function of torch.ops.aten.<name> for the aten ops torch has no Python function for;
    None for the others."""
    if name == "_new_zeros_with_same_feature_meta":
        from .autograd._forward import new_zeros_with_same_feature_meta
        return new_zeros_with_same_feature_meta
    if name == "convolution_backward":
        return _convolution_backward
    return None


def _convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                          transposed, output_padding, groups, output_mask):
    """aten.convolution_backward: (grad_input, grad_weight, grad_bias), None where output_mask
    is False; bias_sizes (the bias' shape, or None) is read by torch for its symbolic shapes
    only, the bias gradient being the sum of grad_output over all but its channel dim."""
    import minitorch
    return tuple(minitorch._convolution_backward(grad_output, input, weight, stride, padding,
                                                 dilation, transposed, output_padding, groups,
                                                 output_mask))
