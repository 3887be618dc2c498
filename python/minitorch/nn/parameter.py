"""nn.Parameter (a tensor a Module registers as one of its parameters) and nn.Buffer."""
from collections import OrderedDict

from .. import _C
from .._subclass import _disabled_torch_function_impl
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "is_lazy"]


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


class UninitializedParameter(Parameter):
    """Lazy modules are not implemented in minitorch."""

    def __new__(cls, *args, **kwargs):
        raise NotImplementedError("lazy modules (UninitializedParameter) are not implemented in minitorch")


def is_lazy(param):
    return isinstance(param, UninitializedParameter)
