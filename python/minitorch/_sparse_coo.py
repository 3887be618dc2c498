"""Sparse COO tensors (layout minitorch.sparse_coo): the tensor type, its construction
(sparse_coo_tensor, Tensor.to_sparse), coalescing, and the ops that take sparse operands.

Note [Sparse COO tensors]
A sparse tensor is an instance of SparseCOOTensor, a Python subclass of minitorch.Tensor (so
isinstance(s, minitorch.Tensor) holds, as in torch), holding in its __dict__ what torch's
SparseTensorImpl holds: `_i` the int64 indices (sparse_dim x nnz), `_v` the values
(nnz x dense sizes), `_size` and whether it is coalesced.  The C object under it is an empty
placeholder: shape, dtype, device, requires_grad, grad and the rest are the subclass's own
properties, read from the indices and values.

The dense path pays nothing for this.  Ops reach sparse operands through an op watcher (Note [Op
watchers] in csrc/autograd/autograd.h), added while at least one sparse tensor is alive and
removed when the last one dies: it sees every op call, and a call with a sparse tensor among its
arguments goes to the sparse implementation of that op (_IMPLS) or raises torch's
NotImplementedError ("Could not run 'aten::<op>' with arguments from the 'SparseCPU' backend"),
never reaching the placeholder.  The few calls that do not reach the watcher (comparison
operators, storage accessors, numpy/tolist) are refused by the subclass itself.  A program
without sparse tensors has no watcher; one with them runs its dense ops through the watcher (a
few microseconds per op, against sparse kernels that dominate such programs), and the engine
runs backward nodes in Python meanwhile (Note [Op watchers]).

Autograd flows through the values: every sparse op is written with recorded ops on `_v` (the
sparse x dense product's kernel _coo_spmm, whose derivative is declared in formulas.py, and
index_select, mul, index_add, index_put), so gradients reach the values and the dense operands
as torch's.  A sparse leaf that requires grad is one whose values are a leaf that requires grad;
its .grad is the sparse tensor of the values' gradient on its indices (torch.sparse.mm's rule:
the gradient of the sparse operand has the operand's pattern).  Index bookkeeping (coalescing,
sparse x sparse products) is done in NumPy over the indices' own memory."""
import numpy as _np

from . import _C
from ._checks import scalar_type_name
from ._formats import sparse_coo
from ._subclass import _disabled_torch_function_impl
from ._tensor import Tensor
from .autograd import _watch

_LIVE = 0       # how many sparse tensors exist (the watcher is active while nonzero)


def _not_implemented(name):
    return NotImplementedError(
        f"Could not run 'aten::{name}' with arguments from the 'SparseCPU' backend. This could "
        "be because the operator doesn't exist for this backend (minitorch's sparse COO "
        "tensors implement the ops listed in README.md)")


class SparseCOOTensor(Tensor):
    """A sparse COO tensor (see Note [Sparse COO tensors]); made by sparse_coo_tensor and
    Tensor.to_sparse, never directly."""

    __torch_function__ = _disabled_torch_function_impl
    __module__ = "minitorch"
    _mt_placeholder_layout = True   # (Tensor.data refuses to mix it with dense tensors)

    def __del__(self):
        global _LIVE
        try:
            _LIVE -= 1
            if _LIVE == 0:
                _watch.remove(_dispatch)
        except Exception:       # interpreter shutdown
            pass

    # ---- metadata ----------------------------------------------------------------------
    layout = property(lambda self: sparse_coo)
    is_sparse = property(lambda self: True)
    shape = property(lambda self: self._size)
    dtype = property(lambda self: self._v.dtype)
    device = property(lambda self: self._v.device)
    is_cuda = property(lambda self: self._v.is_cuda)
    is_cpu = property(lambda self: self._v.is_cpu)
    ndim = property(lambda self: len(self._size))
    T = property(lambda self: self.t())
    mT = property(lambda self: transpose(self, -2, -1))

    def size(self, dim=None):
        if dim is None:
            return self._size
        return self._size[_wrap(dim, len(self._size))]

    def dim(self):
        return len(self._size)

    ndimension = dim

    def numel(self):
        n = 1
        for s in self._size:
            n *= s
        return n

    nelement = numel

    @property
    def nbytes(self):
        raise RuntimeError("nbytes is not defined for sparse tensors.  If you want the size of "
                           "the constituent tensors, add the nbytes of the indices and values.")

    def element_size(self):
        return self._v.element_size()

    def sparse_dim(self):
        return self._i.shape[0]

    def dense_dim(self):
        return self._v.dim() - 1

    def _nnz(self):
        return self._i.shape[1]

    def is_coalesced(self):
        return self._coalesced

    def _coalesced_(self, coalesced):
        """Marks the tensor coalesced or not, in place, without looking at its indices (as
        torch's; marking uncoalesced indices coalesced is the caller's promise)."""
        self._coalesced = bool(coalesced)
        return self

    def _indices(self):
        return self._i

    def _values(self):
        # an alias of the values outside autograd, as torch's (values() is the
        # differentiable getter)
        return self._v.detach()

    def indices(self):
        if not self._coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return self._i

    def values(self):
        if not self._coalesced:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return self._v

    def is_contiguous(self, memory_format=None):
        return False

    def stride(self, dim=None):
        raise RuntimeError("Sparse tensors do not have strides")

    def _no_storage(self, *args, **kwargs):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    data_ptr = tolist = item = storage = untyped_storage = _no_storage

    def numpy(self, *, force=False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() "
                        "first.")

    __array__ = numpy

    def __len__(self):
        if not self._size:
            raise TypeError("len() of a 0-d tensor")
        return self._size[0]

    def __bool__(self):
        raise _not_implemented("is_nonzero")

    def __iter__(self):
        raise _not_implemented("unbind.int")

    # operators that do not reach the op watcher (Note [Sparse COO tensors]); a dense tensor
    # on the left gets these too, Python trying the subclass's reflected operator first
    def _refused(name):
        def method(self, *args, **kwargs):
            raise _not_implemented(name)
        method.__name__ = name
        return method

    __eq__, __ne__ = _refused("eq.Tensor"), _refused("ne.Tensor")
    __lt__, __le__ = _refused("lt.Tensor"), _refused("le.Tensor")
    __gt__, __ge__ = _refused("gt.Tensor"), _refused("ge.Tensor")
    __invert__, __pos__ = _refused("bitwise_not"), _refused("positive")
    __contains__ = _refused("eq.Scalar")
    storage_offset, share_memory_ = _refused("storage_offset"), _refused("share_memory_")
    new = _refused("new")
    del _refused
    __hash__ = Tensor.__hash__

    # ---- autograd: through the values ---------------------------------------------------
    @property
    def requires_grad(self):
        return self._v.requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self._v.requires_grad_(value)

    def requires_grad_(self, requires_grad=True):
        self._v.requires_grad_(requires_grad)
        return self

    @property
    def is_leaf(self):
        return self._v.is_leaf

    @property
    def grad_fn(self):
        return self._v.grad_fn

    @property
    def grad(self):
        g = self._v.grad
        return None if g is None else _make(self._i, g, self._size, self._coalesced)

    @grad.setter
    def grad(self, value):
        if value is not None:
            raise NotImplementedError("setting .grad of a sparse tensor to a tensor is not "
                                      "supported in minitorch (only None)")
        self._v.grad = None

    def detach(self):
        return _make(self._i, self._v.detach(), self._size, self._coalesced)

    def detach_(self):
        self._v = self._v.detach()
        return self

    @property
    def data(self):
        return self.detach()

    @data.setter
    def data(self, value):
        if isinstance(value, SparseCOOTensor):
            raise NotImplementedError("assigning .data of a sparse tensor is not implemented in "
                                      "minitorch")
        raise RuntimeError("Attempted to call `variable.set_data(tensor)`, but `variable` and "
                           "`tensor` have incompatible tensor type.")

    def backward(self, *args, **kwargs):
        raise _not_implemented("backward of a sparse tensor")

    def retain_grad(self):
        self._v.retain_grad()

    # ---- conversions ----------------------------------------------------------------------
    def coalesce(self):
        return coalesce(self)

    def to_dense(self, dtype=None, *, masked_grad=None):
        return to_dense(self, dtype)

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
        _check_layout(layout)
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError("to_sparse: conversion from Sparse to Sparse with sparse_dim "
                               "argument !=self.sparse_dim() is not supported")
        return self

    def to(self, *args, **kwargs):
        v = self._v.to(*args, **kwargs)
        if v is self._v:
            return self
        if v.device.type != "cpu":
            raise NotImplementedError("minitorch has sparse COO tensors on the CPU only")
        return _make(self._i, v, self._size, self._coalesced)

    def type(self, dtype=None, non_blocking=False, **kwargs):
        if dtype is None:
            return "minitorch.sparse." + self._v.type().rpartition(".")[2]
        return _make(self._i, self._v.type(dtype), self._size, self._coalesced)

    def _cast(name):
        def method(self, memory_format=None):
            return _make(self._i, getattr(self._v, name)(), self._size, self._coalesced)
        method.__name__ = name
        return method

    double, float, half, bfloat16 = _cast("double"), _cast("float"), _cast("half"), \
        _cast("bfloat16")
    long, int, short, char, byte, bool = _cast("long"), _cast("int"), _cast("short"), \
        _cast("char"), _cast("byte"), _cast("bool")
    del _cast

    def cpu(self, memory_format=None):
        return self

    def cuda(self, *args, **kwargs):
        raise NotImplementedError("minitorch has sparse COO tensors on the CPU only")

    def __repr__(self):
        return _repr(self)

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        # torch's form (minitorch.save writes it under torch._utils' name, as torch.save)
        from .serialization import _rebuild_sparse_tensor
        return (_rebuild_sparse_tensor, (sparse_coo, (self._i, self._v.detach(), self._size,
                                                      self._coalesced)))

    def __deepcopy__(self, memo):
        return _make(self._i.clone(), self._v.detach().clone().requires_grad_(
            self._v.requires_grad), self._size, self._coalesced)


def _wrap(dim, ndim):
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {dim})")
    return dim % max(ndim, 1)


def _check_layout(layout):
    if layout is not None and layout is not sparse_coo:
        raise NotImplementedError(f"minitorch has no {layout} tensors (only sparse_coo and "
                                  "strided)")


def _make(indices, values, size, coalesced):
    """A sparse tensor over indices (int64, sparse_dim x nnz) and values, no checks."""
    global _LIVE
    with _watch.unwatched():
        t = _C.empty(0, dtype=values.dtype).as_subclass(SparseCOOTensor)
    _LIVE += 1
    if _LIVE == 1:
        _watch.add(_dispatch)
    t._i = indices
    t._v = values
    t._size = _size(size)
    t._coalesced = bool(coalesced)
    return t


def _size(size):
    from ._size import Size
    return Size(int(s) for s in size)


# ---- construction ---------------------------------------------------------------------------

def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory=False,
                      requires_grad=False, check_invariants=None, is_coalesced=None):
    """The sparse tensor with `values` at `indices` (sparse_dim x nnz), as torch's: size
    inferred from the indices when not given; values of shape (nnz, *dense sizes)."""
    import minitorch
    with _watch.unwatched():
        if not isinstance(indices, Tensor):
            indices = minitorch.tensor(indices)
        if not isinstance(values, Tensor):
            values = minitorch.tensor(values, dtype=dtype)
        if device is not None and minitorch.device(device).type != "cpu":
            raise NotImplementedError("minitorch has sparse COO tensors on the CPU only")
        if indices.dim() != 2:
            raise RuntimeError(f"indices must be sparse_dim x nnz, but got: "
                               f"{list(indices.shape)}")
        if indices.dtype != minitorch.int64:
            indices = indices.long()            # as torch, whatever the indices' dtype
        if values.dim() == 0:
            raise RuntimeError("values must have at least one dimension (nnz)")
        sparse_dim, nnz = indices.shape
        if values.shape[0] != nnz:
            raise RuntimeError(f"indices and values must have same nnz, but got nnz from "
                               f"indices: {nnz}, nnz from values: {values.shape[0]}")
        if dtype is not None and values.dtype != dtype:
            values = values.to(dtype)
        dense = tuple(values.shape[1:])
        idx = indices.numpy() if nnz else None
        if size is None:
            if nnz:
                lo = idx.min(axis=1)
                for d in range(sparse_dim):
                    if lo[d] < 0:
                        raise RuntimeError(f"found negative index {lo[d]} for dim {d}")
                sizes = tuple(int(m) + 1 for m in idx.max(axis=1))
            else:
                sizes = (0,) * sparse_dim
            size = sizes + dense
        else:
            size = tuple(int(s) for s in size)
            if len(size) != sparse_dim + len(dense):
                raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: "
                                   f"len(size) = {len(size)}, sparse_dim = {sparse_dim}, "
                                   f"dense_dim = {len(dense)}")
            if tuple(size[sparse_dim:]) != dense:
                raise RuntimeError(f"values has incorrect size, expected "
                                   f"{list((nnz,) + tuple(size[sparse_dim:]))}, got "
                                   f"{list(values.shape)}")
            if nnz:
                lo, hi = idx.min(axis=1), idx.max(axis=1)
                for d in range(sparse_dim):
                    if lo[d] < 0:
                        raise RuntimeError(f"found negative index {lo[d]} for dim {d}")
                    if hi[d] >= size[d]:
                        raise RuntimeError(f"size is inconsistent with indices: for dim {d}, "
                                           f"size is {size[d]} but found index {hi[d]}")
        if not values.requires_grad:
            values = values.detach()
            if requires_grad:
                values.requires_grad_()
        coalesced = bool(is_coalesced) if is_coalesced is not None else nnz <= 1
        return _make(indices, values, size, coalesced)


def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
    """Tensor.to_sparse for a dense tensor: the coalesced sparse tensor of its nonzero entries
    over its first sparse_dim dimensions (all of them by default)."""
    import minitorch
    _check_layout(layout)
    if blocksize is not None or dense_dim is not None:
        raise NotImplementedError("to_sparse: blocksize and dense_dim are for the compressed "
                                  "layouts, which minitorch does not have")
    nd = self.dim()
    sd = nd if sparse_dim is None else int(sparse_dim)
    if not 0 <= sd <= nd:
        raise RuntimeError(f"sparse_dim must be in [0, {nd}], but got {sd}"
                           if sd > nd else f"sparse_dim must be non-negative, got {sd}")
    with _watch.unwatched():
        if sd == nd:
            nz = self != 0
        else:
            nz = (self != 0).reshape(*self.shape[:sd], -1).any(-1) if sd else \
                minitorch.ones((), dtype=minitorch.bool)
        indices = nz.nonzero().t().contiguous() if sd else \
            minitorch.zeros(0, 1, dtype=minitorch.int64)
        if sd:
            values = self[tuple(indices)]
        else:
            values = self.unsqueeze(0)
        return _make(indices, values, tuple(self.shape), True)


# ---- coalescing and conversions ---------------------------------------------------------------

def _linear(idx, size):
    """NumPy: the row-major linear index of each column of idx (sparse_dim x nnz)."""
    lin = _np.zeros(idx.shape[1], dtype=_np.int64)
    for d in range(idx.shape[0]):
        lin = lin * int(size[d]) + idx[d]
    return lin


def _unlinear(lin, size):
    out = _np.empty((len(size), len(lin)), dtype=_np.int64)
    for d in range(len(size) - 1, -1, -1):
        out[d] = lin % size[d] if size[d] else 0
        lin = lin // size[d] if size[d] else lin
    return out


def _from_numpy_indices(idx):
    import minitorch
    return minitorch.from_numpy(_np.ascontiguousarray(idx, dtype=_np.int64))


def coalesce(self):
    """Sorted indices without duplicates; the values of duplicates summed (recorded)."""
    import minitorch
    if self._coalesced:
        return self
    with _watch.unwatched():
        sd = self.sparse_dim()
        if self._nnz() == 0:
            return _make(self._i, self._v, self._size, True)
        lin = _linear(self._i.numpy(), self._size[:sd])
        uniq, inv = _np.unique(lin, return_inverse=True)
        indices = _from_numpy_indices(_unlinear(uniq, self._size[:sd]))
        if len(uniq) == len(lin) and _np.all(inv == _np.arange(len(lin))):
            values = self._v
        else:
            values = minitorch.zeros((len(uniq),) + tuple(self._v.shape[1:]),
                                     dtype=self._v.dtype).index_add(
                0, minitorch.from_numpy(inv.reshape(-1).astype(_np.int64)), self._v)
        return _make(indices, values, self._size, True)


def to_dense(self, dtype=None):
    import minitorch
    if not isinstance(self, SparseCOOTensor):
        return self if dtype is None else self.to(dtype)
    with _watch.unwatched():
        v = self._v if dtype is None else self._v.to(dtype)
        out = minitorch.zeros(tuple(self._size), dtype=v.dtype)
        if self._nnz() == 0:
            return out + v.sum(0) * 0 if v.requires_grad else out
        return out.index_put(tuple(self._i), v, accumulate=True)


# ---- ops ---------------------------------------------------------------------------------------

def _is_sparse(x):
    return isinstance(x, SparseCOOTensor)


def _same(self, values, coalesced=None):
    return _make(self._i, values, self._size, self._coalesced if coalesced is None else coalesced)


def _check_mm(a, b, name="mm"):
    if a.dim() != 2 or b.dim() != 2:
        raise RuntimeError(f"{'self' if a.dim() != 2 else 'mat2'} must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                           f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(a.dtype)} but found "
                           f"{scalar_type_name(b.dtype)}")


def _spmm(s, d):
    """sparse (M x K) @ dense (K x N) -> dense (M x N): each nonzero's row of d, scaled by its
    value, added into its row of the result (recorded ops: gradients reach the values and d)."""
    import minitorch
    if s.dense_dim() != 0:
        raise NotImplementedError("mm of a hybrid sparse tensor (dense_dim > 0) is not "
                                  "supported in minitorch")
    rows, cols = s._i[0], s._i[1]
    if d.dtype in (minitorch.float32, minitorch.float64) and d.device.type == "cpu":
        # the kernel (Note [COO sparse-dense product] in aten_lite/sparse_coo.c), recorded
        return minitorch._coo_spmm(rows, cols, s._v, d, s._size[0])
    contrib = d.index_select(0, cols) * s._v.unsqueeze(1)
    return minitorch.zeros(s._size[0], d.shape[1], dtype=d.dtype).index_add(0, rows, contrib)


def _dsmm(d, s):
    """dense (M x K) @ sparse (K x N) -> dense, as (s^T @ d^T)^T."""
    return _spmm(transpose(s, 0, 1), d.t()).t()


def _sssmm(a, b):
    """sparse @ sparse -> sparse (coalesced): every pair of a nonzero a[i, k] and b[k, j]."""
    import minitorch
    a, b = coalesce(a), coalesce(b)
    ai, bi = a._i.numpy(), b._i.numpy()
    k = a._size[1]
    counts = _np.bincount(bi[0], minlength=k) if bi.shape[1] else _np.zeros(k, _np.int64)
    starts = _np.cumsum(counts) - counts
    per = counts[ai[1]] if ai.shape[1] else _np.zeros(0, _np.int64)
    total = int(per.sum())
    a_idx = _np.repeat(_np.arange(ai.shape[1]), per)
    offs = _np.arange(total) - _np.repeat(_np.cumsum(per) - per, per)
    b_idx = starts[ai[1]][a_idx] + offs if total else _np.zeros(0, _np.int64)
    ta, tb = minitorch.from_numpy(a_idx.astype(_np.int64)), minitorch.from_numpy(
        b_idx.astype(_np.int64))
    values = a._v.index_select(0, ta) * b._v.index_select(0, tb)
    indices = _from_numpy_indices(_np.stack([ai[0][a_idx], bi[1][b_idx]]) if total
                                  else _np.zeros((2, 0), _np.int64))
    return coalesce(_make(indices, values, (a._size[0], b._size[1]), total <= 1))


def mm(a, b, *, out=None):
    """torch.mm with sparse operands: sparse @ dense and dense @ sparse give dense results,
    sparse @ sparse a sparse one."""
    if out is not None:
        raise _not_implemented("mm.out")
    _check_mm(a, b)
    if _is_sparse(a) and _is_sparse(b):
        return _sssmm(a, b)
    if _is_sparse(a):
        return _spmm(a, b)
    return _dsmm(a, b)


def spmm(a, b):
    return mm(a, b)


def matmul(a, b, *, out=None):
    if _is_sparse(a) and a.dim() == 2 and not _is_sparse(b) and b.dim() == 1:
        return mm(a, b.unsqueeze(1)).squeeze(1)
    if a.dim() == 2 and b.dim() == 2:
        return mm(a, b, out=out)
    raise _not_implemented("matmul")


def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat1 @ mat2) with a sparse mat1 (or mat2); dense input."""
    if out is not None or _is_sparse(input):
        raise _not_implemented("addmm")
    p = mm(mat1, mat2)
    if _is_sparse(p):
        raise _not_implemented("addmm")
    r = p if alpha == 1 else p * alpha
    if beta == 0:
        return r            # input is not read (its NaNs do not propagate), as torch
    return r + (input if beta == 1 else input * beta)


def _dims(dim, nd):
    if isinstance(dim, int):
        dim = (dim,)
    ds = sorted({_wrap(int(d), nd) for d in dim})
    return ds


def sum(self, dim=None, keepdim=False, *, dtype=None):
    """Sum of a sparse tensor: dense when every sparse dimension is summed (dim=None: a 0-d
    tensor), else sparse over the sparse dimensions left."""
    import minitorch
    v = self._v if dtype is None else self._v.to(dtype)
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return v.sum(dtype=None if dtype is None else dtype)
    nd, sd = self.dim(), self.sparse_dim()
    ds = _dims(dim, nd)
    dense_ds = [d - sd + 1 for d in ds if d >= sd]
    if dense_ds:
        v = v.sum(dense_ds, keepdim=keepdim)
    keep = [d for d in range(sd) if d not in ds]
    if not keep and not keepdim:
        return v.sum(0)
    if keepdim:
        idx = self._i.clone()
        for d in ds:
            if d < sd:
                idx[d] = 0
        size = tuple(1 if d in ds else s for d, s in enumerate(self._size))
    else:
        idx = self._i[keep] if keep else self._i[:0]
        size = tuple(s for d, s in enumerate(self._size) if d not in ds)
    if v.dtype in (minitorch.bool, minitorch.uint8, minitorch.int8, minitorch.int16,
                   minitorch.int32) and dtype is None:
        v = v.long()
    return coalesce(_make(idx, v, size, False))


def _scalar_like(x):
    return isinstance(x, (int, float, complex, bool)) or (
        isinstance(x, Tensor) and not _is_sparse(x) and x.dim() == 0)


def _check_same_size(a, b, name):
    if tuple(a.shape) != tuple(b.shape):
        raise RuntimeError(f"{name}: expected sparse operands of the same size, but got "
                           f"{list(a.shape)} and {list(b.shape)}")


def add(a, b, *, alpha=1, out=None):
    """dense + sparse -> dense; sparse + sparse -> sparse (torch refuses sparse + dense)."""
    import minitorch
    if out is not None:
        raise _not_implemented("add.out")
    if _is_sparse(a) and _is_sparse(b):
        _check_same_size(a, b, "add")
        if a.sparse_dim() != b.sparse_dim():
            raise RuntimeError("add: expected 'self' and 'other' to have same sparse "
                               "dimensions")
        bv = b._v if alpha == 1 else b._v * alpha
        dt = minitorch.promote_types(a.dtype, bv.dtype)
        r = _make(minitorch.cat([a._i, b._i], 1), minitorch.cat([a._v.to(dt), bv.to(dt)]),
                  a._size, False)
        return coalesce(r) if a._coalesced and b._coalesced else r
    if _is_sparse(b) and isinstance(a, Tensor):
        if tuple(a.shape) != tuple(b._size):
            raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self "
                               f"has size {list(a.shape)} while other has size "
                               f"{list(b._size)} (FYI: dense-sparse addition does not "
                               "currently support broadcasting)")
        return a + to_dense(b if alpha == 1 else mul(b, alpha))
    if _is_sparse(a) and (isinstance(b, Tensor) or _scalar_like(b)):
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                           "instead.")
    raise _not_implemented("add.Tensor")


def add_(a, b, *, alpha=1):
    """dense.add_(sparse): the sparse operand's entries added in place; sparse.add_(sparse):
    the sum's indices and values become the tensor's own (the other in-place ops on sparse
    tensors are not implemented)."""
    import minitorch
    if _is_sparse(a):
        if not _is_sparse(b):
            raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                               "instead.")
        if a._v.requires_grad and a._v.is_leaf and minitorch.is_grad_enabled():
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                               "operation.")
        r = add(a, b, alpha=alpha)
        a._i, a._v, a._coalesced = r._i, r._v, r._coalesced
        return a
    if tuple(a.shape) != tuple(b._size):
        raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has "
                           f"size {list(a.shape)} while other has size {list(b._size)} (FYI: "
                           "dense-sparse addition does not currently support broadcasting)")
    return a.add_(to_dense(b if alpha == 1 else mul(b, alpha)))


def sub(a, b, *, alpha=1, out=None):
    if _is_sparse(b):
        return add(a, neg(b), alpha=alpha, out=out)
    if _is_sparse(a) and (isinstance(b, Tensor) or _scalar_like(b)):
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                           "instead.")
    raise _not_implemented("sub.Tensor")


def rsub(a, b, alpha=1):
    return sub(b, a, alpha=alpha)


def neg(self):
    return _same(self, -self._v)


def mul(a, b, *, out=None):
    """sparse * scalar, sparse * sparse (the common nonzeros) and sparse * dense of the same
    shape (the dense entries at the nonzeros): sparse results."""
    import minitorch
    if out is not None:
        raise _not_implemented("mul.out")
    if _is_sparse(b) and not _is_sparse(a):
        a, b = b, a
    if _scalar_like(b):
        return _same(a, a._v * b)
    if _is_sparse(b):
        _check_same_size(a, b, "mul")
        a, b = coalesce(a), coalesce(b)
        sd = a.sparse_dim()
        la, lb = _linear(a._i.numpy(), a._size[:sd]), _linear(b._i.numpy(), b._size[:sd])
        _, ia, ib = _np.intersect1d(la, lb, assume_unique=True, return_indices=True)
        ta, tb = minitorch.from_numpy(ia.astype(_np.int64)), minitorch.from_numpy(
            ib.astype(_np.int64))
        return _make(a._i.index_select(1, ta), a._v.index_select(0, ta) *
                     b._v.index_select(0, tb), a._size, True)
    if isinstance(b, Tensor):
        # the dense operand broadcast to the sparse one's shape, read at the nonzeros
        return _same(a, a._v * b.expand(tuple(a._size))[tuple(a._i)])
    raise _not_implemented("mul.Tensor")


def div(a, b, *, rounding_mode=None, out=None):
    if _is_sparse(a) and not _is_sparse(b) and _scalar_like(b) and out is None:
        return _same(a, a._v.div(b, rounding_mode=rounding_mode))
    if _is_sparse(a) and isinstance(b, Tensor):
        raise RuntimeError(f"Sparse division requires a scalar or zero-dim dense tensor divisor "
                           f"(got shape {list(b.shape)} for divisor)")
    raise _not_implemented("div.Tensor")


def transpose(self, dim0, dim1):
    nd, sd = self.dim(), self.sparse_dim()
    d0, d1 = _wrap(dim0, nd), _wrap(dim1, nd)
    if d0 == d1:
        return self
    if d0 >= sd or d1 >= sd:
        if d0 >= sd and d1 >= sd:
            return _same(self, self._v.transpose(d0 - sd + 1, d1 - sd + 1))
        raise RuntimeError("transpose(): can't transpose a sparse dimension with a dense one "
                           "of a sparse tensor")
    perm = list(range(sd))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    size = list(self._size)
    size[d0], size[d1] = size[d1], size[d0]
    return _make(self._i[perm], self._v, size, False)


def t(self):
    if self.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.dim()}D")
    return self if self.dim() < 2 else transpose(self, 0, 1)


def clone(self, *, memory_format=None):
    return _make(self._i.clone(), self._v.clone(), self._size, self._coalesced)


def softmax(self, dim, dtype=None):
    if not _is_sparse(self):
        raise _dense_backend("_sparse_softmax")
    return _softmax(self, dim, dtype, log=False)


def log_softmax(self, dim, dtype=None):
    if not _is_sparse(self):
        raise _dense_backend("_sparse_log_softmax")
    return _softmax(self, dim, dtype, log=True)


def _dense_backend(name):
    return NotImplementedError(f"Could not run 'aten::{name}' with arguments from the 'CPU' "
                               "backend (it takes sparse tensors)")


def _softmax(self, dim, dtype, log):
    """Softmax over the nonzeros that share every index but dim's (unspecified entries are
    -inf, as torch.sparse.softmax defines it); a sparse result of the same pattern."""
    import minitorch
    s = coalesce(self)
    if dtype is not None:
        s = _same(s, s._v.to(dtype))
    nd, sd = s.dim(), s.sparse_dim()
    d = _wrap(dim, nd)
    if d >= sd:
        v = s._v.log_softmax(d - sd + 1) if log else s._v.softmax(d - sd + 1)
        return _same(s, v)
    if s._nnz() == 0:
        return s
    idx = s._i.numpy()
    others = [k for k in range(sd) if k != d]
    lin = _linear(idx[others], [s._size[k] for k in others]) if others else \
        _np.zeros(idx.shape[1], _np.int64)
    _, group = _np.unique(lin, return_inverse=True)
    g = minitorch.from_numpy(group.reshape(-1).astype(_np.int64))
    ngroups = int(group.max()) + 1
    shape = (ngroups,) + tuple(s._v.shape[1:])
    gidx = g.view(-1, *([1] * (s._v.dim() - 1))).expand(s._v.shape)
    with minitorch.no_grad():
        m = minitorch.full(shape, -float("inf"), dtype=s._v.dtype).scatter_reduce(
            0, gidx, s._v, "amax", include_self=True)
    z = s._v - m.index_select(0, g)
    e = z.exp()
    tot = minitorch.zeros(shape, dtype=s._v.dtype).index_add(0, g, e).index_select(0, g)
    return _same(s, z - tot.log() if log else e / tot)


def smm(a, b):
    """sparse @ dense -> sparse (torch.smm): the product's nonzero rows."""
    return mm(a, b).to_sparse()


def hspmm(a, b):
    return mm(a, b).to_sparse(1)


# ---- printing ----------------------------------------------------------------------------------

def _inner(t, indent):
    from . import _tensor_str
    if t.numel() == 0:
        return f"tensor([], size={tuple(t.shape)})"
    return "tensor(" + _tensor_str._tensor_str(t.detach(), indent) + ")"


def _repr(self):
    import minitorch
    from . import _tensor_str
    default = minitorch.get_default_dtype()
    default_complex = minitorch.complex128 if default == minitorch.float64 else minitorch.complex64
    s = "tensor(indices=" + _inner(self._i, len("tensor(indices=tensor(")) + ",\n"
    s += "       values=" + _inner(self._v, len("       values=tensor(")) + ",\n"
    s += f"       size={tuple(self._size)}"
    suffixes = [f"nnz={self._nnz()}"]
    if self.dtype not in (default, default_complex, minitorch.int64, minitorch.bool):
        suffixes.append(f"dtype={self.dtype}")
    suffixes.append(f"layout={sparse_coo}")
    if self._v.grad_fn is not None:
        suffixes.append(f"grad_fn=<{self._v.grad_fn.name()}>")
    elif self._v.requires_grad:
        suffixes.append("requires_grad=True")
    return _tensor_str._add_suffixes(s, suffixes, len("       "))


# ---- the op watcher ------------------------------------------------------------------------------

_IMPLS = {
    "mm": mm, "spmm": spmm, "matmul": matmul, "addmm": addmm, "sum": sum, "add": add,
    "add_": add_,
    "sub": sub, "subtract": sub, "rsub": rsub, "mul": mul, "multiply": mul, "div": div,
    "divide": div, "true_divide": div, "neg": neg, "negative": neg,
    "transpose": transpose, "swapaxes": transpose, "swapdims": transpose, "t": t,
    "clone": clone, "coalesce": coalesce, "to_dense": to_dense, "smm": smm, "hspmm": hspmm,
    "softmax": softmax, "log_softmax": log_softmax,
    "detach": lambda s: s.detach(), "to": lambda s, *a, **k: s.to(*a, **k),
}
# operators the recorder names otherwise ("o.<name>")
_OPERATORS = {"iadd": "add_", "isub": "sub_", "imul": "mul_", "inplace_add": "add_"}


def _has_sparse(args, kwargs):
    for a in args:
        if isinstance(a, SparseCOOTensor):
            return True
        if type(a) in (list, tuple):
            for x in a:
                if isinstance(x, SparseCOOTensor):
                    return True
    if kwargs:
        for a in kwargs.values():
            if isinstance(a, SparseCOOTensor):
                return True
    return False


def _dispatch(key, self, args, kwargs, proceed):
    """The op watcher of Note [Sparse COO tensors]: calls with a sparse argument go to its
    sparse implementation."""
    full = args if self is None else (self,) + tuple(args)
    if not _has_sparse(full, kwargs):
        return proceed(args, kwargs)
    name = key.partition(".")[2]
    name = _OPERATORS.get(name, name)
    impl = _IMPLS.get(name)
    if impl is None:
        if name == "cat" or name == "stack":
            raise RuntimeError(f"Concatenating sparse tensors is not supported in minitorch "
                               f"({name})")
        raise _not_implemented(name)
    with _watch.unwatched():
        return impl(*full, **(kwargs or {}))


# ---- the sparse methods of dense tensors (Tensor's class body calls them) --------

def _dense_error(name, what="sparse coordinate tensor"):
    def method(self, *args, **kwargs):
        raise RuntimeError(f"{name} expected {what} layout but got Strided")
    method.__name__ = name
    return method


def _dense_not_implemented(name):
    def method(self, *args, **kwargs):
        raise _dense_backend(name)
    method.__name__ = name
    return method


def sparse_mask(self, mask):
    """dense.sparse_mask(mask): the sparse tensor of self's entries at mask's indices (mask's
    values ignored; coalesced when mask is), a recorded indexing of self, so gradients reach
    it at those positions."""
    if _is_sparse(self):
        raise _not_implemented("sparse_mask")
    if not _is_sparse(mask):
        raise NotImplementedError("Could not run 'aten::sparse_mask' with arguments from the "
                                  "'CPU' backend (its mask must be a sparse tensor)")
    if tuple(self.shape) != tuple(mask._size):
        raise RuntimeError(f"sparse_mask(): operands have incompatible sizes; self has size "
                           f"{list(self.shape)} but mask has size {list(mask._size)}")
    with _watch.unwatched():
        values = self[tuple(mask._i)] if mask.sparse_dim() else self.unsqueeze(0).expand(
            (mask._nnz(),) + tuple(self.shape))
        return _make(mask._i, values, mask._size, mask._coalesced)


def _dense_to_dense(self, dtype=None, *, masked_grad=None):
    return self if dtype is None or dtype == self.dtype else self.to(dtype)


DENSE_METHODS = {
    "to_sparse": to_sparse,
    "sparse_mask": sparse_mask,
    "to_sparse_coo": lambda self: to_sparse(self),
    "to_dense": _dense_to_dense,
    "coalesce": _dense_error("coalesce"),
    "is_coalesced": _dense_error("is_coalesced"),
    "indices": _dense_error("indices"),
    "values": _dense_error("values", "sparse tensor"),
    "_nnz": _dense_not_implemented("_nnz"),
    "_indices": _dense_not_implemented("_indices"),
    "_values": _dense_not_implemented("_values"),
    "sparse_dim": lambda self: 0,
    "dense_dim": lambda self: self.dim(),
}

# ForkingPickler would share the placeholder's memory: sparse tensors pickle by __reduce_ex__
try:
    from multiprocessing.reduction import ForkingPickler as _FP
    _FP._extra_reducers.pop(SparseCOOTensor, None)
except (ImportError, AttributeError):
    pass
