"""Linear algebra: matmul and friends (C, through a run-time BLAS), outer, einsum, the @ operator."""
import os as _os
import warnings as _warnings

from . import _C
from ._C import TensorBase as Tensor

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "vdot", "addmm", "addmv", "baddbmm", "addbmm", "addr",
           "outer", "ger", "einsum", "tensordot"]

matmul = _C.matmul
mm = _C.mm
bmm = _C.bmm
mv = _C.mv
dot = _C.dot
vdot = _C.vdot
addmm = _C.addmm
addmv = _C.addmv
baddbmm = _C.baddbmm


def _load_blas():
    """Hands the CBLAS of the scipy-openblas32 package (when installed) to the C core.

    See Note [Run-time BLAS] in aten_lite/blas.h: without it float32/float64 products use the
    portable blocked GEMM.  MINITORCH_BLAS=0 keeps the fallback; MINITORCH_BLAS=<path> loads
    another CBLAS library."""
    choice = _os.environ.get("MINITORCH_BLAS", "")
    if choice == "0":
        return
    # minitorch calls the library single-threaded (Note [One thread pool]); should anything
    # else in the process run threaded products through it, its idle threads would spin for
    # 2**28 cycles (~0.1 s) after each one, taking the cores from the intra-op pool's kernels;
    # 2**20 cycles (~0.3 ms) is enough.  Read by OpenBLAS when it is loaded; a user's value wins.
    _os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "20")
    if choice:
        try:
            _C._blas_load(choice)
        except RuntimeError as e:
            _warnings.warn(f"MINITORCH_BLAS: {e}; using the portable GEMM", RuntimeWarning)
        return
    try:
        import scipy_openblas32
    except ImportError:
        return
    path = _os.path.join(scipy_openblas32.get_lib_dir(), scipy_openblas32.get_library(fullname=True))
    try:
        _C._blas_load(path)
    except RuntimeError:
        pass  # a broken install: keep the fallback rather than failing the import


_load_blas()


def _check_1d(t, name, fname):
    if not isinstance(t, Tensor):
        raise TypeError(f"{fname}(): argument '{name}' must be Tensor, not {type(t).__name__}")
    if t.dim() != 1:
        raise RuntimeError(f"{fname}: Expected 1-D argument {name}, but got {t.dim()}-D")


def outer(input, vec2, *, out=None):
    """Outer product of two 1-D tensors (dtypes promote as in mul)."""
    _check_1d(input, "self", "outer")
    _check_1d(vec2, "vec2", "outer")
    r = input.reshape(-1, 1) * vec2
    if out is None:
        return r
    return _C.mul(input.reshape(-1, 1), vec2, out=out)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * sum over b of batch1[b] @ batch2[b]: one addmm over the batches
    laid side by side along the contracted dim."""
    for name, t in (("input", input), ("batch1", batch1), ("batch2", batch2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"addbmm(): argument '{name}' must be Tensor, not {type(t).__name__}")
    if batch1.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    b, n, m = batch1.shape
    if batch2.shape[0] != b or batch2.shape[1] != m:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] "
                           f"but got: [{batch2.shape[0]}, {batch2.shape[1]}].")
    mat1 = batch1.permute(1, 0, 2).reshape(n, b * m)
    mat2 = batch2.reshape(b * m, batch2.shape[2])
    return addmm(input, mat1, mat2, beta=beta, alpha=alpha, out=out)


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * outer(vec1, vec2) (input broadcasts; beta=0 ignores it)."""
    for name, t in (("input", input), ("vec1", vec1), ("vec2", vec2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"addr(): argument '{name}' must be Tensor, not {type(t).__name__}")
    if vec1.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1.dim()}-D")
    if vec2.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    return addmm(input, vec1.reshape(-1, 1), vec2.reshape(1, -1), beta=beta, alpha=alpha, out=out)


def ger(input, vec2, *, out=None):
    """Alias of outer."""
    return outer(input, vec2, out=out)


def tensordot(a, b, dims=2, out=None):
    """Sums a * b over dims[0] of a and dims[1] of b (or a's last and b's first `dims` dims).

    One mm after moving the contracted dims of a last and of b first."""
    for name, t in (("a", a), ("b", b)):
        if not isinstance(t, Tensor):
            raise TypeError(f"tensordot(): argument '{name}' must be Tensor, not {type(t).__name__}")
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a.dim() or dims > b.dim():
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da, db = list(range(a.dim() - dims, a.dim())), list(range(dims))
    else:
        if not isinstance(dims, (list, tuple)) or len(dims) != 2:
            raise RuntimeError("tensordot expects dims to be an int or a pair of dim lists")
        da, db = ([d] if isinstance(d, int) else list(d) for d in dims)
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    da = [_wrap_dim(d, a.dim()) for d in da]
    db = [_wrap_dim(d, b.dim()) for d in db]
    for x, y in zip(da, db):
        if a.shape[x] != b.shape[y]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {a.shape[x]} "
                               f"in dim {x} and second has size {b.shape[y]} in dim {y}")
    free_a = [d for d in range(a.dim()) if d not in da]
    free_b = [d for d in range(b.dim()) if d not in db]
    k = _prod(a.shape[d] for d in da)
    a2 = a.permute(free_a + da).reshape(_prod(a.shape[d] for d in free_a), k)
    b2 = b.permute(db + free_b).reshape(k, _prod(b.shape[d] for d in free_b))
    shape = [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b]
    r = mm(a2, b2).reshape(shape)
    if out is None:
        return r
    if not isinstance(out, Tensor):
        raise TypeError(f"tensordot(): argument 'out' must be Tensor, not {type(out).__name__}")
    if out.dtype != r.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {r.dtype}, but got {out.dtype} instead")
    return _C._store_out(out, r, "tensordot")


def _wrap_dim(d, ndim):
    lo, hi = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    if not lo <= d <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {d})")
    return d % ndim if ndim else 0


# ---- einsum ---------------------------------------------------------------
# Note [einsum]
# The equation is parsed into one label list per operand; an ellipsis becomes
# labels (0, j) ... for its broadcast dims, right-aligned across operands so
# they broadcast like NumPy's.  Then, with no string special-cased:
#   1. a label repeated within an operand takes the diagonal (as_strided: the
#      repeated dims merge into one whose stride is the sum of theirs);
#   2. operands are contracted left to right, two at a time: labels needed
#      neither by the output nor by a later operand are summed out first when
#      only one side has them, else contracted by one bmm over the layout
#      (shared kept labels, left-only, contracted) x (shared, contracted,
#      right-only); size-1 dims broadcast against the other side;
#   3. the last result sums what the output does not keep and is permuted to
#      the output's order.


def _einsum_parse_term(term, op_index, equation_offset):
    labels = []
    ellipsis = False
    i = 0
    while i < len(term):
        ch = term[i]
        if ch == ".":
            if ellipsis:
                raise RuntimeError(f"einsum(): found '.' for operand {op_index} for which an "
                                   "ellipsis was already found")
            if term[i:i + 3] != "...":
                raise RuntimeError(f"einsum(): found '.' for operand {op_index} that is not part "
                                   "of any ellipsis")
            labels.append(...)
            ellipsis = True
            i += 3
            continue
        if not (ch.isascii() and ch.isalpha()):
            raise RuntimeError(f"einsum(): invalid subscript given at index {equation_offset + i} "
                               "in the equation string, subscripts must be in [a-zA-Z]")
        labels.append(ch)
        i += 1
    return labels


def _sublist_to_equation(args):
    """einsum(op0, [0, 1], op1, [1, 2], [0, 2]) -> ('ab,bc->ac', [op0, op1])."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def term(sub):
        s = ""
        for v in sub:
            if v is Ellipsis:
                s += "..."
            elif isinstance(v, int) and 0 <= v < 52:
                s += letters[v]
            else:
                raise RuntimeError("einsum(): expected subscript to be within the range [0, 52), "
                                   f"but got {v}")
        return s

    n = len(args) - (len(args) % 2)
    ops = list(args[0:n:2])
    eq = ",".join(term(sub) for sub in args[1:n:2])
    if len(args) % 2 == 1:
        eq += "->" + term(args[-1])
    return eq, ops


def einsum(*args):
    """einsum(equation, *operands): sums of products over the labelled dims, as torch.einsum.

    Supports explicit ('ij,jk->ik') and implicit ('ij,jk') output, repeated labels
    (diagonals, 'ii->i', traces 'ii'), '...' broadcasting, any number of operands and the
    sublist form einsum(op0, [0, 1], op1, [1, 2], [0, 2])."""
    if not args:
        raise TypeError("einsum(): must specify the equation string and at least one operand, "
                        "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        equation, operands = _sublist_to_equation(args)
    else:
        equation, operands = args[0], list(args[1:])
        if not isinstance(equation, str):
            raise TypeError(f"einsum(): argument 'equation' must be str, not {type(equation).__name__}")
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])
    for i, op in enumerate(operands):
        if not isinstance(op, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, but found "
                            f"element of type {type(op).__name__} at pos {i}")
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    offset, parsed = 0, []
    for k, term in enumerate(terms):
        parsed.append(_einsum_parse_term(term, k, offset))
        offset += len(term) + 1

    # expand ellipses into right-aligned broadcast labels (0, j)
    ell_ndims = []
    for k, (labels, op) in enumerate(zip(parsed, operands)):
        n = sum(1 for lab in labels if lab is not ...)
        if ... in labels:
            if n > op.dim():
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) is more "
                                   f"than the number of dimensions ({op.dim()}) for operand {k}")
            ell_ndims.append(op.dim() - n)
        else:
            if n != op.dim():
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) does not "
                                   f"match the number of dimensions ({op.dim()}) for operand {k} "
                                   "and no ellipsis was given")
            ell_ndims.append(0)
    max_ell = max(ell_ndims)
    ell_all = [(0, j) for j in range(max_ell)]
    in_labels = []
    for labels, e in zip(parsed, ell_ndims):
        out = []
        for lab in labels:
            if lab is ...:
                out.extend((0, j) for j in range(max_ell - e, max_ell))
            else:
                out.append(lab)
        in_labels.append(out)

    counts = {}
    for labels in in_labels:
        for lab in labels:
            if isinstance(lab, str):
                counts[lab] = counts.get(lab, 0) + 1
    if arrow:
        out_labels = []
        seen_ell = False
        for ch in _einsum_parse_term(rhs, "output", len(lhs) + 2):
            if ch is ...:
                if seen_ell:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                       "already found")
                seen_ell = True
                out_labels.extend(ell_all)
                continue
            if ch not in counts:
                raise RuntimeError(f"einsum(): output subscript {ch} does not appear in the "
                                   "equation for any input operand")
            if ch in out_labels:
                raise RuntimeError(f"einsum(): output subscript {ch} appears more than once in the "
                                   "output")
            out_labels.append(ch)
    else:
        out_labels = ell_all + sorted(lab for lab, c in counts.items() if c == 1)

    # 1. diagonals of repeated labels; record each label's size
    ops = []
    for k, (labels, op) in enumerate(zip(in_labels, operands)):
        uniq, sizes, strides = [], [], []
        for lab, size, stride in zip(labels, op.shape, op.stride()):
            if lab in uniq:
                j = uniq.index(lab)
                if sizes[j] != size:
                    name = lab if isinstance(lab, str) else "..."
                    raise RuntimeError(f"einsum(): subscript {name} is repeated for operand {k} but "
                                       f"the sizes don't match, {sizes[j]} != {size}")
                strides[j] += stride
            else:
                uniq.append(lab)
                sizes.append(size)
                strides.append(stride)
        if len(uniq) != len(labels):
            op = op.as_strided(sizes, strides, op.storage_offset())
        ops.append((op, uniq))
    label_size = {}
    for op, labels in ops:
        for lab, size in zip(labels, op.shape):
            prev = label_size.get(lab, 1)
            if prev != size and prev != 1 and size != 1:
                shapes = " ".join(f"{list(o.shape)}" for o in operands)
                raise RuntimeError("einsum(): operands do not broadcast with remapped shapes "
                                   f"(original->remapped): {shapes}")
            label_size[lab] = size if prev == 1 else prev

    # 2. contract left to right
    cur, cur_labels = ops[0]
    for i in range(1, len(ops) + 1):
        later = set(out_labels)
        for _, labels in ops[i:]:
            later.update(labels)
        cur, cur_labels = _einsum_sum_unneeded(cur, cur_labels, later)
        if i == len(ops):
            break
        other, other_labels = ops[i]
        after = set(out_labels)  # labels needed once this pair is contracted
        for _, labels in ops[i + 1:]:
            after.update(labels)
        other, other_labels = _einsum_sum_unneeded(other, other_labels, after.union(cur_labels))
        cur, cur_labels = _einsum_pair(cur, cur_labels, other, other_labels, after)

    # 3. output order (labels kept but absent because an operand had size 1 broadcast)
    perm = [cur_labels.index(lab) for lab in out_labels]
    if perm != list(range(len(perm))):
        cur = cur.permute(perm)
    shape = [label_size[lab] for lab in out_labels]
    if list(cur.shape) != shape:
        cur = cur.expand(shape)
    return cur if cur is not operands[0] else cur.view(cur.shape)


def _sum_keep_dtype(t, dims, keepdim=False):
    r = t.sum(dim=tuple(dims), keepdim=keepdim)
    return r if r.dtype == t.dtype else r.to(t.dtype)


def _einsum_sum_unneeded(t, labels, needed):
    dims = [d for d, lab in enumerate(labels) if lab not in needed]
    if not dims:
        return t, labels
    return _sum_keep_dtype(t, dims), [lab for lab in labels if lab in needed]


def _einsum_pair(a, la, b, lb, later):
    """Contracts a (labels la) with b (labels lb) by one bmm; returns (result, labels)."""
    sb = set(lb)
    sa = set(la)
    batch = [lab for lab in la if lab in sb and lab in later]
    contr = [lab for lab in la if lab in sb and lab not in later]
    left = [lab for lab in la if lab not in sb]
    right = [lab for lab in lb if lab not in sa]
    size_a = dict(zip(la, a.shape))
    size_b = dict(zip(lb, b.shape))
    # a contracted dim of size 1 on one side broadcasts: sum the other side first
    for lab in list(contr):
        if size_a[lab] != size_b[lab]:
            if size_a[lab] == 1:
                b = _sum_keep_dtype(b, [lb.index(lab)], keepdim=True)
                size_b[lab] = 1
            else:
                a = _sum_keep_dtype(a, [la.index(lab)], keepdim=True)
                size_a[lab] = 1
    bsz = [max(size_a[lab], size_b[lab]) for lab in batch]
    lsz = [size_a[lab] for lab in left]
    rsz = [size_b[lab] for lab in right]
    csz = [size_a[lab] for lab in contr]
    a = a.permute([la.index(lab) for lab in batch + left + contr]).expand(bsz + lsz + csz)
    b = b.permute([lb.index(lab) for lab in batch + contr + right]).expand(bsz + csz + rsz)
    nb, nl, nc, nr = _prod(bsz), _prod(lsz), _prod(csz), _prod(rsz)
    r = bmm(a.reshape(nb, nl, nc), b.reshape(nb, nc, nr))
    return r.reshape(bsz + lsz + rsz), batch + left + right


def _prod(sizes):
    p = 1
    for s in sizes:
        p *= s
    return p
