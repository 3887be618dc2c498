"""embedding_bag: sums, means or maxima of bags of embedding rows, without materialising the
per-index embeddings as a padded batch.

Note [Bags]
indices is one flat list of row numbers; offsets[b] is where bag b starts (with
include_last_offset, offsets has one more entry, and its last marks the end of the last bag).
Each index's bag (offset2bag) is found with one index_add of ones at the offsets and a cumsum.
Entries equal to padding_idx are dropped.  sum and mean are one index_select of weight rows and
one index_add into the bags; max finds, per bag and feature, the first entry holding the
maximum (a scatter_reduce of the values, then of the entries' positions where they equal it)
and gathers weight there, so that its gradient goes to exactly one row as torch's does.  All
of it is made of differentiable ops, so first and second derivatives (of weight and of
per_sample_weights) come from their formulas.  With include_last_offset, entries after the
last offset belong to the last bag, as in torch's general CPU kernel (its float32 fast path
leaves them out of sums but not out of the mean's count)."""
from . import _C
from ._checks import _check, _legacy_name

_MODES = ("sum", "mean", "max")


def _mt():
    import minitorch
    return minitorch


def _type_name(t):
    return f"torch.{_legacy_name(t.dtype)}Tensor"


def _check_index_dtype(t):
    if t.dtype not in (_C.int64, _C.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following "
                           f"scalar types: Long, Int; but got {_type_name(t)} instead (while checking "
                           "arguments for embedding_bag)")


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """torch.embedding_bag: (output (B, D), offset2bag, bag_size, max_indices) for the bags of
    the 1-d indices delimited by offsets (Note [Bags]); mode 0 sum, 1 mean, 2 max."""
    _check(weight, "embedding_bag", "weight")
    _check(indices, "embedding_bag", "indices")
    _check(offsets, "embedding_bag", "offsets")
    mode = int(mode)
    if mode not in (0, 1, 2):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    _check_index_dtype(indices)
    _check_index_dtype(offsets)
    if weight.dtype not in (_C.float16, _C.bfloat16, _C.float32, _C.float64):
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following "
                           f"scalar types: Half, BFloat16, Float, Double; but got {_type_name(weight)} "
                           "instead (while checking arguments for embedding_bag)")
    if per_sample_weights is not None:
        if mode != 0:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
        if per_sample_weights.dtype != weight.dtype:
            raise RuntimeError("Expected tensor for argument #1 'weight' to have the same type as "
                               "tensor for argument #1 'per_sample_weights'; but type "
                               f"{_type_name(weight)} does not equal {_type_name(per_sample_weights)} "
                               "(while checking arguments for embedding_bag)")
    if sparse:
        raise NotImplementedError("sparse gradients (embedding_bag(sparse=True)) are not implemented "
                                  "in minitorch")
    if indices.dim() != 1 or offsets.dim() != 1:
        raise RuntimeError(f"embedding_bag: expected 1-D indices and offsets, but got indices of "
                           f"{indices.dim()} and offsets of {offsets.dim()} dimensions")
    num_weights, dim = weight.shape
    if padding_idx is not None:
        padding_idx = int(padding_idx)
        if not -num_weights <= padding_idx < num_weights:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, "
                               f"-{num_weights} through {num_weights - 1}, but got {padding_idx}")
        padding_idx %= num_weights
    mt = _mt()
    n = indices.numel()
    idx = indices.long()
    offs = offsets.long()
    nb = offs.numel() - 1 if include_last_offset else offs.numel()
    if offs.numel():
        first = int(offs[0])
        if first != 0:
            raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                               f"has to start from position 0. However, got {first}")
        last = int(offs[-1])
        if last > n:
            raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got "
                               f"offsets[-1] of {last}")
    if n:
        lo, hi = idx.aminmax()
        if int(lo) < 0 or int(hi) >= num_weights:
            bad = int(((idx < 0) | (idx >= num_weights)).nonzero()[0, 0])
            raise RuntimeError(f"Index {bad} of input takes value {int(idx[bad])} which is not in the "
                               f"valid range [0, {num_weights})")
    nb = max(nb, 0)
    if nb == 0:
        empty = _C.zeros(0, dtype=_C.int64, device=weight.device)
        return (weight.new_zeros((0, dim)) + weight.sum() * 0, empty, empty.clone(),
                _C.zeros((0, dim) if mode == 2 else (offs.numel() if mode == 0 else 0,), dtype=_C.int64, device=weight.device))
    starts = offs[:nb]
    # Note [Bags]: each entry's bag, entries past the last offset in the last bag
    marks = _C.zeros(n + 1, dtype=_C.int64, device=weight.device).index_add_(0, starts, _C.ones(nb, dtype=_C.int64, device=weight.device))
    offset2bag = marks[:n].cumsum(0) - 1 if n else _C.zeros(0, dtype=_C.int64, device=weight.device)
    keep = _C.ones(n, dtype=_C.bool, device=weight.device) if padding_idx is None else idx != padding_idx
    bag_size = _C.zeros(nb, dtype=_C.int64, device=weight.device).index_add_(0, offset2bag, keep.long()) \
        if nb else _C.zeros(0, dtype=_C.int64, device=weight.device)
    out_dtype = weight.dtype
    if mode == 2:
        output, max_indices = _bag_max(weight, idx, offset2bag, keep, nb, dim)
    else:
        pos = keep.nonzero().reshape(-1) if not bool(keep.all()) else None
        sel_idx = idx if pos is None else idx.index_select(0, pos)
        sel_bag = offset2bag if pos is None else offset2bag.index_select(0, pos)
        rows = weight.index_select(0, sel_idx)
        if scale_grad_by_freq:
            rows = _scaled_by_frequency(rows, idx, sel_idx, num_weights)
        if per_sample_weights is not None:
            psw = per_sample_weights if pos is None else per_sample_weights.index_select(0, pos)
            rows = rows * psw.unsqueeze(1)
        output = _C.zeros((nb, dim), dtype=out_dtype, device=weight.device).index_add(0, sel_bag, rows)
        if mode == 1:
            output = output / bag_size.clamp_min(1).unsqueeze(1).to(out_dtype)
            max_indices = bag_size.clone()
        else:
            max_indices = _C.zeros(nb, dtype=_C.int64, device=weight.device)
    if mode == 0:          # torch's sum kernel leaves these unused (one entry per offset)
        bag_size = _C.zeros(offs.numel(), dtype=_C.int64, device=weight.device)
        max_indices = _C.zeros(offs.numel(), dtype=_C.int64, device=weight.device)
        if padding_idx is None:
            offset2bag = _C.zeros(0, dtype=_C.int64, device=weight.device)
    return output, offset2bag, bag_size, max_indices


def _scaled_by_frequency(rows, idx, sel_idx, num_weights):
    """rows, with the gradient of each divided by how often its row occurs in idx (the values
    unchanged)."""
    counts = _C.zeros(num_weights, dtype=rows.dtype, device=rows.device).index_add_(
        0, idx, _C.ones(idx.numel(), dtype=rows.dtype, device=rows.device))
    scale = counts.index_select(0, sel_idx).reciprocal_().unsqueeze(1)
    fixed = rows.detach()
    return fixed + (rows - fixed) * scale


def _bag_max(weight, idx, offset2bag, keep, nb, dim):
    """Per bag and feature, the weight entry of the first index holding the maximum
    (Note [Bags]); empty bags give zeros and index 0."""
    mt = _mt()
    pos = keep.nonzero().reshape(-1) if not bool(keep.all()) else None
    sel_idx = idx if pos is None else idx.index_select(0, pos)
    sel_bag = offset2bag if pos is None else offset2bag.index_select(0, pos)
    m = sel_idx.numel()
    if m == 0 or nb == 0:
        return weight.new_zeros((nb, dim)) + weight.sum() * 0, _C.zeros((nb, dim), dtype=_C.int64, device=weight.device)
    rows = weight.detach().index_select(0, sel_idx)                       # (m, D)
    bags = sel_bag.unsqueeze(1).expand(m, dim)
    best = _C.full((nb, dim), float("-inf"), dtype=weight.dtype, device=weight.device).scatter_reduce(
        0, bags, rows, "amax", include_self=False)
    hit = rows == best.index_select(0, sel_bag)
    entry = mt.where(hit, _C.arange(m, device=weight.device).unsqueeze(1), m)
    first = _C.full((nb, dim), m, dtype=_C.int64, device=weight.device).scatter_reduce(0, bags, entry, "amin")
    empty = first == m
    max_indices = sel_idx.take(first.clamp_max(m - 1)).masked_fill(empty, 0)
    output = weight.gather(0, max_indices)
    if bool(empty.any()):
        output = output.masked_fill(empty, 0)
    return output, max_indices
