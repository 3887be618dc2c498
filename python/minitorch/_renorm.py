"""renorm: the sub-tensors along a dimension rescaled to a maximum p-norm."""
from . import _C


def renorm(input, p, dim, maxnorm):
    """input with each slice input.select(dim, i) whose p-norm exceeds maxnorm scaled to
    maxnorm / (norm + 1e-7) times itself."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"renorm(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if not p > 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input.dim() < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.dim()} dimensions")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        from ._reductions import _scalar_type_name
        raise NotImplementedError("linalg.vector_norm: Expected a floating point or complex tensor "
                                  f"as input. Got {_scalar_type_name(input.dtype)}")
    nd = input.dim()
    if not -nd <= dim < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], "
                         f"but got {dim})")
    d = dim % nd
    others = [k for k in range(nd) if k != d]
    import minitorch
    norms = minitorch.norm(input, p, dim=others, keepdim=True)
    if norms.dtype.is_complex:
        norms = norms.real
    factor = (maxnorm / (norms + 1e-7)).masked_fill(norms <= maxnorm, 1.0)
    return input * factor.to(input.dtype)
