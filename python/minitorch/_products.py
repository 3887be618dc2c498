"""The cross product of 3-vectors (cross) and products of chains of matrices (chain_matmul)."""
import warnings

from . import _C


def _scalar_type_name(dt):
    from ._reductions import _scalar_type_name
    return _scalar_type_name(dt)


def _mt():
    import minitorch
    return minitorch


_warned = set()


def _warn_once(key, message):
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=3)


def cross(input, other, dim=None, *, out=None):
    """The cross product of the 3-vectors along dim (broadcasting the other dimensions); without
    dim, the first dimension of size 3 (deprecated, as in torch)."""
    for name, x in (("input", input), ("other", other)):
        if not isinstance(x, _C.TensorBase):
            raise TypeError(f"cross(): argument '{name}' must be Tensor, not {type(x).__name__}")
    if dim is None:
        _warn_once("cross", "Using torch.cross without specifying the dim arg is deprecated.\n"
                            "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
                            "The default value of dim will change to agree with that of linalg.cross "
                            "in a future release.")
        sizes = list(input.shape)
        if 3 not in sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes.index(3)
    if input.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if input.dtype != other.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_type_name(input.dtype)} but found "
                           f"{_scalar_type_name(other.dtype)}")
    nd = max(input.dim(), 1)
    if not -nd <= dim < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], "
                         f"but got {dim})")
    d = dim % nd
    if input.dim() == 0 or input.shape[d] != 3 or other.shape[d] != 3:
        a = input.shape[d] if input.dim() else 1
        b = other.shape[d] if other.dim() else 1
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {a} and {b}")
    a0, a1, a2 = (input.select(d, i) for i in range(3))
    b0, b1, b2 = (other.select(d, i) for i in range(3))
    r = _mt().stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], d)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def _chain_order(dims):
    """The split points of the cheapest parenthesization of matrices with shapes dims[i] x
    dims[i+1] (the classic dynamic programme)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def chain_matmul(*matrices, out=None):
    """The product of the 2-D matrices, in the order of fewest multiplications (deprecated in
    torch for linalg.multi_dot)."""
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    _warn_once("chain_matmul", "torch.chain_matmul is deprecated and will be removed in a future "
                               "PyTorch release. Use torch.linalg.multi_dot instead, which accepts a "
                               "list of two or more tensors rather than multiple parameters.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if not isinstance(m, _C.TensorBase):
            raise TypeError(f"chain_matmul(): expected Tensors, not {type(m).__name__}")
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    for i in range(len(matrices) - 1):
        a, b = matrices[i], matrices[i + 1]
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes {list(a.shape)} "
                               f"and {list(b.shape)} cannot be multiplied")
        if a.dtype != b.dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 "
                               f"is {_scalar_type_name(matrices[0].dtype)} and tensor {i + 1} is "
                               f"{_scalar_type_name(b.dtype)}")
    if len(matrices) == 1:
        r = matrices[0].clone()
    else:
        dims = [m.shape[0] for m in matrices] + [matrices[-1].shape[1]]
        split = _chain_order(dims)

        def product(i, j):
            if i == j:
                return matrices[i]
            k = split[i][j]
            return _mt().mm(product(i, k), product(k + 1, j))
        r = product(0, len(matrices) - 1)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r
