"""nn.Parameter (a tensor a Module registers as one of its parameters) and nn.Buffer."""
from collections import OrderedDict

from .. import _C
from .._subclass import _disabled_torch_function_impl
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "is_lazy"]


def _detached(data):
    if data is None:
        return _C.empty(0)
    if not isinstance(data, _C.TensorBase):
        raise TypeError(f"Parameter data must be a Tensor, not {type(data).__name__}")
    with no_grad():
        return data.detach()


class Parameter(Tensor):
    """A tensor that is a module parameter: assigning one to a Module attribute registers it
    (it appears in ``parameters()`` and ``state_dict()``).  It shares its storage with the
    tensor it is made from and requires grad unless ``requires_grad=False``.  Ops on a
    Parameter give plain tensors."""

    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data=None, requires_grad=True):
        t = _detached(data).as_subclass(cls)
        if requires_grad:
            t.requires_grad_(True)
        return t

    def __init__(self, data=None, requires_grad=True):
        pass

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        found = memo.get(id(self))
        if found is not None:
            return found
        with no_grad():
            result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol):
        # minitorch.save writes this as torch's torch._utils._rebuild_parameter
        from ..serialization import _rebuild_parameter
        return (_rebuild_parameter, (self.data, self.requires_grad, OrderedDict()))


def _rebuild_shared_parameter(rebuild, args, requires_grad):
    return Parameter(rebuild(*args), requires_grad)


def _reduce_parameter_for_processes(param):
    """A Parameter sent to another process (multiprocessing) shares memory, as tensors do, and
    arrives as a Parameter with the same requires_grad."""
    from ..multiprocessing import reductions
    rebuild, args = reductions.reduce_tensor(param.data)
    return _rebuild_shared_parameter, (rebuild, args, param.requires_grad)


def _register_process_reduction():
    from multiprocessing.reduction import ForkingPickler
    ForkingPickler.register(Parameter, _reduce_parameter_for_processes)


_register_process_reduction()


class Buffer(Tensor):
    """Marks a tensor as a buffer: assigning ``Buffer(t)`` to a Module attribute registers
    ``t`` as a buffer (``persistent=False`` keeps it out of the state dict).  The module stores
    the plain tensor."""

    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = _C.empty(0)
        t = data.as_subclass(cls)
        t.persistent = persistent
        return t

    def __init__(self, data=None, *, persistent=True):
        pass


_UNINITIALIZED_OK = frozenset({
    # what an uninitialized parameter or buffer may still do: be converted and moved (to
    # choose the dtype and device it materializes with), compared by identity, described
    "size", "copy_", "is_complex", "is_floating_point", "half", "float", "double", "char",
    "short", "int", "long", "cuda", "cpu", "to", "get_device", "bfloat16", "detach",
    "requires_grad_", "type",
})


class UninitializedTensorMixin:
    """A placeholder for a parameter or buffer whose shape a lazy module learns from its first
    input: materialize(shape) gives it memory and turns it into cls_to_become.  Until then its
    shape cannot be read and tensor methods raise torch's errors."""

    cls_to_become = None

    def materialize(self, shape, device=None, dtype=None):
        """Gives the placeholder memory of `shape` (uninitialised), on its device and of its
        dtype unless given, and makes it a cls_to_become."""
        if device is None:
            device = self.data.device
        if dtype is None:
            dtype = self.data.dtype
        self.data = _C.empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
            "initialized one. Call `forward` to initialize the parameters before accessing their "
            "attributes.")

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
            "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    def __reduce_ex__(self, proto):
        return (type(self), (self.requires_grad,))


def _uninitialized_use(name):
    def method(self, *args, **kwargs):
        raise ValueError(
            f"Attempted to use an uninitialized parameter in {name}. This error happens when you "
            "are using a `LazyModule` or explicitly manipulating "
            f"`torch.nn.parameter.{type(self).__name__}` objects. When using LazyModules Call "
            "`forward` with a dummy batch to initialize the parameters before calling torch "
            "functions")
    method.__name__ = name
    return method


def _refuse_tensor_methods(cls):
    """Gives cls a raising stand-in of every Tensor method and operator it may not use."""
    own = set(vars(UninitializedTensorMixin))
    for name in dir(Tensor):
        if name in _UNINITIALIZED_OK or name in own or (name.startswith("__") and name not in _OPERATORS):
            continue
        member = getattr(Tensor, name, None)
        if callable(member) and not isinstance(member, type):
            setattr(cls, name, _uninitialized_use(f"<method '{name}' of 'torch._C.TensorBase' objects>"))
    return cls


_OPERATORS = frozenset({
    "__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__", "__rmul__",
    "__imul__", "__truediv__", "__rtruediv__", "__itruediv__", "__floordiv__", "__rfloordiv__",
    "__mod__", "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__neg__",
    "__abs__", "__getitem__", "__setitem__", "__lt__", "__le__", "__gt__", "__ge__",
    "__and__", "__or__", "__xor__", "__invert__", "__len__", "__iter__",
})


@_refuse_tensor_methods
class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter of a lazy module before its first forward (see UninitializedTensorMixin);
    it becomes a Parameter when materialized."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return Parameter.__new__(cls, _C.empty(0, device=device, dtype=dtype), requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass

    def __deepcopy__(self, memo):
        found = memo.get(id(self))
        if found is None:
            found = memo[id(self)] = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        return found


@_refuse_tensor_methods
class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer of a lazy module before its first forward; a Tensor once materialized."""

    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        t = _C.empty(0, device=device, dtype=dtype).as_subclass(cls)
        if requires_grad:
            t.requires_grad_(True)
        return t

    def __init__(self, requires_grad=False, device=None, dtype=None):
        pass


def is_lazy(param):
    """Whether param is an uninitialized parameter or buffer of a lazy module."""
    return isinstance(param, UninitializedTensorMixin)
