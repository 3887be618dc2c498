"""minitorch.Tensor: the C TensorBase plus the Python-level sugar."""
import builtins
import math
import operator
import warnings

import numpy as _np


from . import _C
from . import _formats
from . import _op_forms
from . import _python_callables, _python_dispatch, _subclass
from . import _tensor_str
from ._checks import _check_count_fits, _VIEW_BYTES  # noqa: F401
from ._op_forms import tensor_methods as _tensor_methods


def _sparse_method(name):
    """Tensor.<name> of a dense tensor, from _sparse_coo.DENSE_METHODS (to_sparse, to_dense,
    and the sparse accessors' errors; the module loads on first use)."""
    def method(self, *args, **kwargs):
        from . import _sparse_coo
        return _sparse_coo.DENSE_METHODS[name](self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    return method


def _int_dtype_of_size(itemsize):
    return {1: _C.uint8, 2: _C.int16, 4: _C.int32, 8: _C.int64}[itemsize]


def _rebuild_tensor(data, dtype, shape, requires_grad=False, device=None):
    """Unpickles a tensor saved by Tensor.__reduce_ex__ (a copy of its values, a leaf that
    requires grad when the tensor did, as torch; on its device, a string, when not the cpu)."""
    t = _C.empty(shape, dtype=dtype)
    if t.numel():
        memoryview(t.view(_int_dtype_of_size(dtype.itemsize))).cast("B")[:] = data
    if device is not None:
        t = t.to(device)
    return t.requires_grad_() if requires_grad else t


def _rebuild_from_type_v2(func, new_type, args, state):
    """Unpickles a tensor subclass instance, or a tensor with attributes of its own
    (torch._tensor._rebuild_from_type_v2): func(*args) as new_type, its state restored through
    the class's own __setstate__ when it has one, else set as attributes."""
    from ._utils import _set_obj_state
    t = func(*args)
    if type(t) is not new_type:
        t = t.as_subclass(new_type)
    setstate = getattr(type(t), "__setstate__", None)
    if setstate is not None and setstate is not getattr(Tensor, "__setstate__", None):
        t.__setstate__(state)
        return t
    return _set_obj_state(t, state)


# NumPy ufuncs that are Python operators: (operator, number of operands)
_UFUNC_OPERATORS = {
    **{n: (getattr(operator, f), 2) for n, f in (
        ("add", "add"), ("subtract", "sub"), ("multiply", "mul"), ("true_divide", "truediv"),
        ("divide", "truediv"), ("floor_divide", "floordiv"), ("remainder", "mod"), ("power", "pow"),
        ("matmul", "matmul"), ("bitwise_and", "and_"), ("bitwise_or", "or_"), ("bitwise_xor", "xor"),
        ("left_shift", "lshift"), ("right_shift", "rshift"), ("equal", "eq"), ("not_equal", "ne"),
        ("less", "lt"), ("less_equal", "le"), ("greater", "gt"), ("greater_equal", "ge"))},
    **{n: (getattr(operator, f), 1) for n, f in (
        ("negative", "neg"), ("positive", "pos"), ("absolute", "abs"), ("invert", "invert"))},
}


def _as_operand(x):
    """A ufunc operand as minitorch's operators take it: arrays as tensors (no copy where
    possible), NumPy scalars as Python numbers."""
    if isinstance(x, _np.ndarray):
        return _C.as_tensor(x)
    if isinstance(x, _np.generic):
        return x.item()
    return x


# The Tensor methods the op table implements in Python (see _op_table.py); the C ones come
# with TensorBase.
_TensorOps = type("_TensorOps", (), _tensor_methods())


class Tensor(_TensorOps, _C.TensorBase):
    """A strided view of a storage, as torch.Tensor.

    Views (view, transpose, slicing, ...) share memory with their base;
    ``from_numpy``/``numpy()`` share memory with NumPy arrays."""

    __module__ = "minitorch"

    def __repr__(self, *, tensor_contents=None):
        if tensor_contents is not None:     # a wrapper subclass shows what it wraps
            return _python_dispatch.wrapper_repr(self, tensor_contents)
        return _tensor_str._str(self)

    _make_wrapper_subclass = staticmethod(_python_dispatch.make_wrapper_subclass)
    _make_subclass = staticmethod(_python_dispatch.make_subclass)

    def __format__(self, spec):
        if self.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    __hash__ = object.__hash__

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """The protocol's default (Note [Torch function]): func run with subclass dispatch
        off, its tensor results given the class cls."""
        from . import overrides
        if kwargs is None:
            kwargs = {}
        if not all(issubclass(cls, t) for t in types):
            return NotImplemented
        with overrides.DisableTorchFunctionSubclass():
            ret = func(*args, **kwargs)
            if func in overrides._nowrap():
                return ret
            return overrides._convert(ret, cls)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _subclass.preserve_subclass(cls, Tensor)
        from .multiprocessing import reductions
        reductions.register(cls)

    def _set_real(self, value):
        _C._real(self).copy_(value)

    def _set_imag(self, value):
        _C._imag(self).copy_(value)

    def _fw_primal(self, level):
        """This tensor without its forward-mode AD tangent at `level` (a view)."""
        from .autograd import _forward
        return _forward.primal(self, level)

    def _get_real(self):
        from .autograd import _watch
        if _C._ag_live() or _watch._watchers:
            return _op_forms.FORMS["real"](self)
        return _C._real(self)

    def _get_imag(self):
        from .autograd import _watch
        if _C._ag_live() or _watch._watchers:
            return _op_forms.FORMS["imag"](self)
        return _C._imag(self)

    # recorded as minitorch.real/imag when something requires grad or op watchers are active
    real = property(_get_real, _set_real, doc="The real part, as a view.")
    imag = property(_get_imag, _set_imag, doc="The imaginary part, as a view (complex only).")

    def __complex__(self):
        """complex(t) of a one-element tensor (of any dtype), as torch."""
        return complex(self.item())

    # NumPy defers binary operators to us (np.float64(2) * t is a Tensor), as torch
    __array_priority__ = 1000

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy ufuncs given tensors.  A NumPy array or scalar on the left of a Python operator
        (np.ones(4) + t, np.float64(2) * t) runs minitorch's operator, with arrays taken as
        tensors and NumPy scalars as Python numbers, so it follows torch's promotion (a NumPy
        scalar is a number: np.float64 * float32 stays float32, as in torch).  Any other call
        (np.exp(t), np.greater(t, 2), np.add.reduce(t), out=) runs in NumPy over the tensors'
        own memory (no copies) and gives tensors, as torch's __array_wrap__ does; out= tensors
        are written in place.  (torch defines no __array_ufunc__, so there `ndarray + tensor`
        fails.)"""
        op = _UFUNC_OPERATORS.get(ufunc.__name__)
        if (op is not None and method == "__call__" and not kwargs and len(inputs) == op[1] and
                not isinstance(inputs[0], _C.TensorBase)):
            # `ndarray_or_scalar <op> tensor` (a tensor on the left never gets here: its own
            # operator runs); an explicit np.<ufunc>(tensor, ...) runs in NumPy below, as torch
            return op[0](*(_as_operand(x) for x in inputs))
        arrays = tuple(x.numpy() if isinstance(x, _C.TensorBase) else x for x in inputs)
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(o.numpy() if isinstance(o, _C.TensorBase) else o for o in out)
        result = getattr(ufunc, method)(*arrays, **kwargs)
        if out is not None:
            return out[0] if len(out) == 1 else out
        if isinstance(result, tuple):
            return tuple(self.__array_wrap__(r) for r in result)
        return self.__array_wrap__(result)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """NumPy ufuncs applied to tensors give tensors (np.abs(t), np.add(t, t)), as torch:
        the ufunc's result array is taken over without a copy; a bool result becomes a uint8
        tensor (a copy), as torch's."""
        try:
            array = array if isinstance(array, _np.ndarray) else _np.asarray(array)
            if array.dtype == bool:
                array = array.astype("uint8")
            return _C.from_numpy(array)
        except (TypeError, ValueError):      # a dtype minitorch has no tensor for
            return array

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __reversed__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(reversed(self.unbind(0)))

    def __array__(self, dtype=None, copy=None):
        if copy is False and dtype is not None and str(dtype) != str(self.numpy().dtype):
            raise ValueError("converting to another dtype needs a copy")
        a = self.numpy()
        if dtype is not None:
            a = a.astype(dtype, copy=False)
        if copy:
            a = a.copy()
        return a

    def __reduce_ex__(self, protocol):
        # a device tensor's values are copied to the host first (never read there)
        c = self.detach().cpu().contiguous()
        data = bytes(memoryview(c.view(_int_dtype_of_size(c.element_size()))).cast("B")) if c.numel() else b""
        args = (data, self.dtype, tuple(self.shape))
        if self.device.type != "cpu":
            args += (self.requires_grad, str(self.device))
        elif self.requires_grad:
            args += (True,)
        state = self.__getstate__()
        if type(self) is Tensor and not state:
            return (_rebuild_tensor, args)
        # a subclass keeps its class, and any tensor its attributes, as torch's
        return (_rebuild_from_type_v2, (_rebuild_tensor, type(self), args, state))

    # torch has no in-place @: `a @= b` rebinds a to a new tensor (no __imatmul__).
    def __matmul__(self, other):
        if not isinstance(other, _C.TensorBase):
            return NotImplemented
        return _C.matmul(self, other)

    def __rmatmul__(self, other):
        if not isinstance(other, _C.TensorBase):
            return NotImplemented
        return _C.matmul(other, self)

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        prev = _C._set_grad_enabled(False)
        try:
            r = self.clone()
        finally:
            _C._set_grad_enabled(prev)
        memo[id(self)] = r
        if self.requires_grad:
            r.requires_grad_(True)
        if self.grad is not None:
            import copy
            r.grad = copy.deepcopy(self.grad, memo)
        return r

    # ---- autograd (see minitorch/autograd) ----
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulates the gradient of this tensor into the leaves' .grad."""
        from . import autograd
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def register_hook(self, hook):
        """hook(grad) -> new grad or None runs when this tensor's gradient is computed."""
        from .autograd.graph import RemovableHandle
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            hooks = self._backward_hooks_list
            hooks.append(hook)
            return RemovableHandle(hooks, hook)
        return self.grad_fn._register_tensor_hook(self.output_nr, hook)

    @property
    def _grad(self):
        """torch's other name of .grad (code that shares tensors between processes sets it)."""
        return self.grad

    @_grad.setter
    def _grad(self, value):
        self.grad = value

    @property
    def _backward_hooks(self):
        """The hooks register_hook added to this tensor, by number (None when there are none),
        as torch's attribute of that name."""
        if self.grad_fn is None:
            hooks = list(self._backward_hooks_list)
        else:
            hooks = [e[1] for e in self.grad_fn._pre_hooks
                     if isinstance(e, tuple) and len(e) == 2 and e[0] == self.output_nr and callable(e[1])]
        if not hooks:
            return None
        import collections
        return collections.OrderedDict(enumerate(hooks))

    def register_post_accumulate_grad_hook(self, hook):
        """hook(tensor) runs after this leaf's .grad was accumulated."""
        from .autograd.graph import RemovableHandle
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        hooks = self._post_accumulate_grad_hooks_list
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def retain_grad(self):
        """Keeps the gradient of this non-leaf in .grad after backward."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self.grad_fn._register_retain_grad(self.output_nr, self)
        self._retains_grad = True

    @property
    def volatile(self):
        """Removed from torch: always False (with torch's warning)."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value):
        warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                      "instead.", stacklevel=2)

    @property
    def retains_grad(self):
        return self._retains_grad

    @property
    def _backward_hooks(self):
        """The tensor hooks of a leaf, as torch's (an ordered dict, None when there are none);
        the dict assigned to it, while one is."""
        hooks = self._backward_hooks_list
        if not hooks:
            return None
        import collections
        if isinstance(hooks[0], _HookDict):
            if len(hooks) == 1:
                return hooks[0].hooks
            return collections.OrderedDict(list(hooks[0].hooks.items()) +
                                           list(enumerate(hooks[1:], len(hooks[0].hooks))))
        return collections.OrderedDict(enumerate(hooks))

    @_backward_hooks.setter
    def _backward_hooks(self, hooks):
        # as torch: the assigned dict replaces the hooks; the hooks it holds when the gradient
        # arrives run in its order (None: no hooks)
        lst = self._backward_hooks_list
        del lst[:]
        if hooks is not None:
            lst.append(_HookDict(hooks))

    @_backward_hooks.deleter
    def _backward_hooks(self):
        raise RuntimeError("cannot delete _backward_hooks")

    def is_inference(self):
        """Whether this is an inference tensor (made in inference mode, or a view of one)."""
        return _C.is_inference(self)

    # ---- splitting (views; split and unbind are op-table rows, _splitting.py) ----
    def chunk(self, chunks, dim=0):
        if isinstance(chunks, (bool, float)) or not hasattr(chunks, "__index__"):
            raise TypeError(f"chunk(): argument 'chunks' must be int, not {type(chunks).__name__}")
        chunks = operator.index(chunks)
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        length = self.size(dim)
        size = max(1, math.ceil(length / chunks)) if length else 0
        if length == 0:
            _check_count_fits(chunks, _VIEW_BYTES, "chunk")
            return tuple(self.narrow(dim, 0, 0) for _ in range(chunks))
        return self.split(size, dim)

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def type_as(self, other):
        return self.to(other.dtype)

    # ---- new_* factories: same dtype/device unless given ----
    def _new_opts(self, dtype, device):
        return dict(dtype=self.dtype if dtype is None else dtype,
                    device=self.device if device is None else device)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return _C.empty(*size, requires_grad=requires_grad, **self._new_opts(dtype, device))

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return _C.zeros(*size, requires_grad=requires_grad, **self._new_opts(dtype, device))

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return _C.ones(*size, requires_grad=requires_grad, **self._new_opts(dtype, device))

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        return _C.full(size, fill_value, requires_grad=requires_grad, **self._new_opts(dtype, device))

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        return _C.tensor(data, requires_grad=requires_grad, **self._new_opts(dtype, device))

    # ---- a Python callable per element (CPU; _python_callables.py) ------------------------
    def apply_(self, callable):
        return _python_callables.apply_(self, callable)

    def map_(self, tensor, callable):
        return _python_callables.map_(self, tensor, callable)

    def map2_(self, x, y, callable):
        return _python_callables.map2_(self, x, y, callable)

    # ---- the nn operators torch also has as methods (_nn_aliases.py) -----------------------
    def hardshrink(self, lambd=0.5):
        from . import _nn_aliases
        return _nn_aliases.hardshrink(self, lambd)

    def prelu(self, weight):
        from . import _nn_aliases
        return _nn_aliases.prelu(self, weight)

    # ---- metadata -------------------------------------------------------------------------
    def is_signed(self):
        """Whether the dtype holds negative values."""
        return self.dtype.is_signed

    def const_data_ptr(self):
        """The address of the first element (as data_ptr; minitorch has no read-only views)."""
        return self.data_ptr()

    def dim_order(self, *, ambiguity_check=False):
        """The dimensions from the outermost in memory to the innermost (strides descending,
        ties in dimension order)."""
        if not isinstance(ambiguity_check, (bool, list)):
            raise TypeError("The ambiguity_check argument must be a bool or a list of memory "
                            "formats.")
        strides = self.stride()
        return tuple(sorted(builtins.range(self.dim()), key=lambda d: -strides[d]))

    def storage_type(self):
        """The legacy typed storage class of this dtype (FloatStorage for float32, ...)."""
        from . import _storage
        return _storage.storage_class(self.dtype)

    def new_empty_strided(self, size, stride, dtype=None, device=None, requires_grad=False,
                          layout=None, pin_memory=False):
        t = _C.empty_strided(size, stride, **self._new_opts(dtype, device))
        return t.requires_grad_() if requires_grad else t

    def new(self, *args, device=None):
        """The legacy constructor, in this tensor's dtype: new() is empty, new(*sizes) (or a
        Size) uninitialised, new(sequence) the data, new(tensor) that tensor (of this dtype)."""
        opts = self._new_opts(None, device)
        if not args:
            return _C.empty((0,), **opts)
        if len(args) == 1 and isinstance(args[0], _C.TensorBase):
            other = args[0]
            if other.dtype != self.dtype:
                raise TypeError(f"expected {self.dtype} (got {other.dtype})")
            return other.detach()
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return _C.empty(args, **opts)
        if len(args) == 1:
            data = args[0]
            from ._size import Size
            if isinstance(data, Size):
                return _C.empty(tuple(data), **opts)
            if isinstance(data, (list, tuple)) or hasattr(data, "__array__"):
                return _C.tensor(data, **opts)
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)})")

    # ---- memory ----
    def is_shared(self):
        """Whether the storage is in shared memory (share_memory_ or sent to another process)."""
        return self.untyped_storage().is_shared()

    def is_pinned(self, device=None):
        """Whether the bytes are in page-locked host memory (Note [Pinned host memory])."""
        return _C._cuda_is_pinned(self)

    def pin_memory(self, device=None):
        """A copy in page-locked host memory (self when it is there already), from which
        copies to a CUDA device with non_blocking=True run without the host."""
        if self.device.type != "cpu":
            raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
        if _C._cuda_is_pinned(self):
            return self
        return _C._cuda_pinned_empty(self).copy_(self)   # recorded: the gradient flows back

    def record_stream(self, stream):
        """Marks this CUDA tensor's memory as used by `stream`: the caching allocator does not
        hand it out again, after the tensor is freed, before the work queued on `stream` so far
        has completed."""
        _C._cuda_record_stream(self, stream.cuda_stream)

    def share_memory_(self):
        """Moves the storage into shared memory, in place (every view sees it), under the
        current sharing strategy; nothing when it is there already.  Returns self."""
        self.untyped_storage().share_memory_()
        return self

    @property
    def layout(self):
        return _formats.strided

    @property
    def is_meta(self):
        return False

    # Device and layout kinds a minitorch tensor never has (torch's tests for them are False on
    # CPU tensors); programs check them to choose a code path.
    is_xpu = is_mps = is_mkldnn = is_vulkan = is_ipu = is_mtia = is_maia = is_xla = is_meta
    is_nested = is_sparse_csr = is_meta

    @property
    def H(self):
        """The conjugate transpose of a matrix (0-d tensors are returned as they are)."""
        if self.dim() not in (0, 2):
            hint = " For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""
            raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). "
                               f"Got {self.dim()}-D tensor.{hint}")
        return self.t().conj() if self.dim() else self.conj()

    @property
    def mH(self):
        """The conjugate transpose of the last two dimensions."""
        if self.dim() == 1:
            raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                               f"Got {self.dim()}-D tensor.")
        return self.mT.conj()

    # sparse COO tensors (_sparse_coo.py): a dense tensor's conversions and sparse accessors
    to_sparse, to_sparse_coo, to_dense = (_sparse_method("to_sparse"),
                                          _sparse_method("to_sparse_coo"),
                                          _sparse_method("to_dense"))
    coalesce, is_coalesced = _sparse_method("coalesce"), _sparse_method("is_coalesced")
    indices, values = _sparse_method("indices"), _sparse_method("values")
    _nnz, _indices, _values = (_sparse_method("_nnz"), _sparse_method("_indices"),
                               _sparse_method("_values"))
    sparse_dim, dense_dim = _sparse_method("sparse_dim"), _sparse_method("dense_dim")
    sparse_mask = _sparse_method("sparse_mask")


class _HookDict:
    """The one tensor hook standing for a dict assigned to Tensor._backward_hooks: runs the
    dict's hooks, in its order, each on the gradient the previous one returned."""

    def __init__(self, hooks):
        self.hooks = hooks

    def __call__(self, grad):
        for hook in list(self.hooks.values()):
            r = hook(grad)
            if r is not None:
                grad = r
        return grad
