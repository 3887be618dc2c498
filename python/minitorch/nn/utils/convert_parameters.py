"""parameters_to_vector / vector_to_parameters."""
import minitorch as _mt

from ... import _C
from ..modules.module import _typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """The parameters, flattened and concatenated into one 1-D tensor."""
    return _mt.cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """Makes each parameter's data the matching slice of vec (viewed in its shape)."""
    if not isinstance(vec, _C.TensorBase):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
