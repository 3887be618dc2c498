"""The connectionist temporal classification loss: ctc_loss and its primitives _ctc_loss (the
alpha recursion, aten_lite/ctc.c) and _ctc_loss_backward (its gradient, torch's form; see
Note [CTC gradient] there).  Arguments are checked here with torch's messages; the kernels
check them again, so no call can read out of bounds."""
from . import _C
from ._checks import _check, _legacy_name

_WHERE = " (while checking arguments for ctc_loss_allocate_outputs)"


def _lengths(x, what, device):
    """Lengths given as a tensor (on any device, as torch takes them) or a sequence of ints, as
    an int64 tensor on `device` (the kernels take all their operands on one device)."""
    if isinstance(x, _C.TensorBase):
        if x.dtype.is_floating_point or x.dtype.is_complex or x.dtype == _C.bool:
            raise RuntimeError(f"{what} must be integral")
        return x.reshape(-1).to(device=device, dtype=_C.int64)
    if isinstance(x, (tuple, list)):
        vals = []
        for v in x:
            if isinstance(v, bool) or not hasattr(v, "__index__"):
                raise TypeError(f"ctc_loss(): argument '{what}' must be tuple of ints, but found "
                                f"element of type {type(v).__name__}")
            vals.append(int(v))
        return _C.tensor(vals, dtype=_C.int64, device=device)
    raise TypeError(f"ctc_loss(): argument '{what}' must be a Tensor or a tuple of ints, not "
                    f"{type(x).__name__}")


def _check_ctc(log_probs, targets, input_lengths, target_lengths, blank):
    """torch's checks of _ctc_loss's arguments (lengths as int64 tensors)."""
    if log_probs.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional "
                           f"tensor for argument #1 'log_probs'{_WHERE}")
    if not 1 <= targets.dim() <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional tensor "
                           f"for argument #2 'targets'{_WHERE}")
    t_max, n, c = log_probs.shape
    if not 0 <= blank < c:
        raise RuntimeError("blank must be in label range")
    if input_lengths.numel() != n:
        raise RuntimeError("input_lengths must be of size batch_size")
    if target_lengths.numel() != n:
        raise RuntimeError("target_lengths must be of size batch_size")
    tl = target_lengths.tolist()
    for v in tl:
        if v < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value "
                               f"{v}{_WHERE}")
    if targets.dim() == 1:
        total = sum(tl)
        if targets.size(0) != total:
            raise RuntimeError(f"Expected tensor to have size {total} at dimension 0, but got size "
                               f"{targets.size(0)} for argument #2 'targets'{_WHERE}")
    else:
        if targets.size(0) != n:
            raise RuntimeError(f"Expected tensor to have size {n} at dimension 0, but got size "
                               f"{targets.size(0)} for argument #2 'targets'{_WHERE}")
        longest = max(tl, default=0)
        if targets.size(1) < longest:
            raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but "
                               f"got size {targets.size(1)} for argument #2 'targets'{_WHERE}")
    for v in input_lengths.tolist():
        if v < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value "
                               f"{v}{_WHERE}")
        if v > t_max:
            raise RuntimeError(f"Expected input_lengths to have value at most {t_max}, but got value "
                               f"{v}{_WHERE}")


def _check_float(log_probs):
    if log_probs.dtype not in (_C.float32, _C.float64):
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for '{_legacy_name(log_probs.dtype)}'")


def _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    """(negative log likelihood (N,), log alphas (N, T, 2 * max target length + 1)) of the
    targets under log_probs (T, N, C); targets int64, padded (N, S) or concatenated."""
    _check(log_probs, "_ctc_loss", "log_probs")
    _check(targets, "_ctc_loss", "targets")
    if targets.dtype != _C.int64:
        raise RuntimeError(f"Expected tensor for argument #2 'targets' to have scalar type Long; but "
                           f"got {_legacy_name(targets.dtype)} instead{_WHERE}")
    il = _lengths(input_lengths, "input_lengths", log_probs.device)
    tl = _lengths(target_lengths, "target_lengths", log_probs.device)
    _check_ctc(log_probs, targets, il, tl, int(blank))
    _check_float(log_probs)
    return _C._ctc_loss_kernel(log_probs, targets, il, tl, int(blank))


def _ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths,
                       neg_log_likelihood, log_alpha, blank, zero_infinity=False):
    """The gradient of grad . neg_log_likelihood with respect to log_probs (torch's form: see
    Note [CTC gradient] in aten_lite/ctc.c)."""
    il = _lengths(input_lengths, "input_lengths", log_probs.device)
    tl = _lengths(target_lengths, "target_lengths", log_probs.device)
    return _C._ctc_loss_backward_kernel(grad.to(log_probs.dtype), log_probs, targets, il, tl,
                                        neg_log_likelihood, log_alpha, int(blank),
                                        bool(zero_infinity))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1,
             zero_infinity=False):
    """The CTC loss of log_probs (T, N, C) (or unbatched (T, C)) against targets; reduction
    0 none, 1 mean (each loss divided by its target length, then the mean), 2 sum;
    zero_infinity replaces infinite losses (impossible alignments) and their gradients by 0."""
    _check(log_probs, "ctc_loss", "log_probs")
    _check(targets, "ctc_loss", "targets")
    tensors = isinstance(input_lengths, _C.TensorBase), isinstance(target_lengths, _C.TensorBase)
    if tensors[0] != tensors[1] or not (tensors[0] or (isinstance(input_lengths, (tuple, list)) and
                                                       isinstance(target_lengths, (tuple, list)))):
        raise TypeError("ctc_loss(): input_lengths and target_lengths must be both Tensors or both "
                        f"tuples of ints, got {type(input_lengths).__name__} and "
                        f"{type(target_lengths).__name__}")
    il = _lengths(input_lengths, "input_lengths", log_probs.device)
    tl = _lengths(target_lengths, "target_lengths", log_probs.device)
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    tg = targets.to(device=lp.device, dtype=_C.int64)
    _check_ctc(lp, tg, il, tl, int(blank))
    _check_float(lp)
    import minitorch
    res = minitorch._ctc_loss(lp, tg, il, tl, blank, zero_infinity)[0]
    if zero_infinity:
        res = minitorch.where(res == float("inf"), res.new_zeros(()), res)
    reduction = int(reduction)
    if reduction == 1:
        return (res / tl.to(res.dtype).clamp_min(1)).mean()
    if reduction == 2:
        return res.sum()
    return res if batched else res.squeeze(0)
