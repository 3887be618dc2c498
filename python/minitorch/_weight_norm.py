"""``norm_except_dim`` and ``_weight_norm``, as torch's: the norm of a tensor over every
dimension but one (kept, the others of size 1), and the weight-normalised tensor
v * (g / ||v||) of weight normalisation (nn.utils.weight_norm).  Composites of differentiable
ops: their gradients are autograd's."""
from ._C import TensorBase as Tensor

__all__ = ["norm_except_dim", "_weight_norm"]


def norm_except_dim(v, pow=2, dim=0):
    """||v||_pow over all dimensions but `dim`, shaped as v with size 1 elsewhere; dim=-1: the
    norm of the whole tensor (0-dim)."""
    if not isinstance(v, Tensor):
        raise TypeError(f"norm_except_dim(): argument 'v' must be Tensor, not {type(v).__name__}")
    if dim == -1:
        return v.norm(pow)
    nd = v.dim()
    if dim == 0:
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view((v.size(0),) + (1,) * (nd - 1))
    if dim == nd - 1:
        return v.contiguous().view(-1, v.size(-1)).norm(pow, 0).view((1,) * (nd - 1) + (v.size(-1),))
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v, g, dim=0):
    """v * (g / norm_except_dim(v, 2, dim))."""
    if not isinstance(v, Tensor) or not isinstance(g, Tensor):
        raise TypeError("_weight_norm(): arguments 'v' and 'g' must be Tensors")
    return v * (g / norm_except_dim(v, 2, dim))
