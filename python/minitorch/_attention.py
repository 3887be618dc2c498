"""Scaled dot-product attention: torch.nn.functional.scaled_dot_product_attention with every
argument, the fused kernel behind it (torch._scaled_dot_product_flash_attention_for_cpu) and
the op-by-op ("math") form used for dropout, half-precision dtypes, masks that require grad
and double backward.

Note [Attention dispatch]
scaled_dot_product_attention checks its arguments as torch does, then takes
  - the fused kernel (Note [Fused attention] in aten_lite/attention.h) for float32/float64
    operands without dropout: one recorded op, whose derivative is the fused backward kernel
    (formulas.sdpa_flash; under create_graph the same gradients written with recorded ops,
    so that they can be differentiated again);
  - otherwise the math form, softmax(q @ k^T * scale + mask) @ v with ordinary recorded ops.
Rows that see no key give zeros in both (torch's CPU behaviour).  enable_gqa groups the query
heads over the key/value heads through views (no repeated copies of k and v).
minitorch.backends.cuda's flags and torch.nn.attention.sdpa_kernel choose between the two
as torch's do between its flash and math kernels."""
import math

from . import _C
from ._broadcasting import broadcast_shapes

def _scalar_name(dt):
    """The C++ name torch's messages give a dtype ("float", "c10::Half", "long int")."""
    names = {
        _C.float32: "float", _C.float64: "double", _C.float16: "c10::Half",
        _C.bfloat16: "c10::BFloat16", _C.int64: "long int", _C.int32: "int",
        _C.int16: "short int", _C.int8: "signed char", _C.uint8: "unsigned char",
        _C.bool: "bool", _C.complex64: "c10::complex<float>",
        _C.complex128: "c10::complex<double>",
    }
    return names.get(dt, str(dt).replace("minitorch.", ""))


def _type_name(x):
    return type(x).__name__


def _check_args(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    fn = "scaled_dot_product_attention()"
    for pos, (name, t) in enumerate((("query", query), ("key", key), ("value", value)), 1):
        if not isinstance(t, _C.TensorBase):
            raise TypeError(f"{fn}: argument '{name}' (position {pos}) must be Tensor, not "
                            f"{_type_name(t)}")
    if attn_mask is not None and not isinstance(attn_mask, _C.TensorBase):
        raise TypeError(f"{fn}: argument 'attn_mask' must be Tensor, not {_type_name(attn_mask)}")
    if isinstance(dropout_p, bool) or not isinstance(dropout_p, (int, float)):
        raise TypeError(f"{fn}: argument 'dropout_p' must be float, not {_type_name(dropout_p)}")
    for name, flag in (("is_causal", is_causal), ("enable_gqa", enable_gqa)):
        if not isinstance(flag, bool):
            raise TypeError(f"{fn}: argument '{name}' must be bool, not {_type_name(flag)}")
    if scale is not None and (isinstance(scale, bool) or not isinstance(scale, (int, float))):
        raise TypeError(f"{fn}: argument 'scale' must be float, not {_type_name(scale)}")
    if not (query.dtype == key.dtype == value.dtype):
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_scalar_name(query.dtype)} key.dtype: {_scalar_name(key.dtype)} and value.dtype: "
            f"{_scalar_name(value.dtype)} instead.")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
            f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if attn_mask is not None and attn_mask.dtype != _C.bool and \
            attn_mask.dtype != _C.float32 and attn_mask.dtype != query.dtype:
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {_scalar_name(attn_mask.dtype)} and  query.dtype: "
            f"{_scalar_name(query.dtype)} instead.")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if not query.dtype.is_floating_point:
        raise RuntimeError(f"expected scalar type Float but found {_short_name(query.dtype)}")


def _short_name(dt):
    from ._reductions import _scalar_type_name
    return _scalar_type_name(dt)


def _batch_numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _check_shapes(qshape, kshape, vshape, attn_mask):
    """torch's errors for operands whose sizes do not fit (those of its batched products, and
    of adding the mask to the (batch..., L, S) scores)."""
    if attn_mask is None and kshape[-1] == qshape[-1] and vshape[-2] == kshape[-2]:
        # the usual call: nothing to report but batch dims that do not broadcast
        if not (qshape[:-2] == kshape[:-2] == vshape[:-2]):
            broadcast_shapes(qshape[:-2], kshape[:-2], vshape[:-2])
        return
    batch = tuple(broadcast_shapes(qshape[:-2], kshape[:-2], vshape[:-2]))
    n = _batch_numel(batch)
    if kshape[-1] != qshape[-1]:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{n}, {qshape[-1]}] but got: [{n}, {kshape[-1]}].")
    if vshape[-2] != kshape[-2]:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{n}, {kshape[-2]}] but got: [{n}, {vshape[-2]}].")
    if attn_mask is not None:
        if attn_mask.dim() < 2:
            raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but "
                             "got -2)")
        scores = batch + (qshape[-2], kshape[-2])
        mshape = tuple(attn_mask.shape)
        nd = max(len(scores), len(mshape))
        for i in range(nd - 1, -1, -1):         # torch's message for sizes that do not broadcast
            a = scores[i - nd + len(scores)] if i - nd + len(scores) >= 0 else 1
            b = mshape[i - nd + len(mshape)] if i - nd + len(mshape) >= 0 else 1
            if a != b and a != 1 and b != 1:
                raise RuntimeError(f"The size of tensor a ({a}) must match the size of tensor b "
                                   f"({b}) at non-singleton dimension {i}")
        full = tuple(broadcast_shapes(scores, mshape))
        if full != scores:
            raise RuntimeError(f"output with shape {list(scores)} doesn't match the broadcast "
                               f"shape {list(full)}")


def _gqa(query, key, value, attn_mask):
    """enable_gqa: the query heads (dim -3) in groups over the key/value heads.  When key and
    value have the same head count, as views: query (..., Hk, rep, L, E), key and value
    (..., Hk, 1, S, E) (broadcast over the group), the mask likewise; the output (..., Hk,
    rep, L, Ev) flattens back.  Returns the operands and whether to flatten the output."""
    hq, hk, hv = query.size(-3), key.size(-3), value.size(-3)
    if hq % hk != 0 or hq % hv != 0:
        raise RuntimeError("Number of heads in key and value must divide the number of heads "
                           "in query")
    if hk == hq and hv == hq:
        return query, key, value, attn_mask, False
    if hk != hv:                     # each repeated to the query's head count
        return (query, key.repeat_interleave(hq // hk, -3),
                value.repeat_interleave(hq // hv, -3), attn_mask, False)
    query = query.unflatten(-3, (hk, hq // hk))
    key, value = key.unsqueeze(-3), value.unsqueeze(-3)
    if attn_mask is not None and attn_mask.dim() >= 3:
        attn_mask = attn_mask.unflatten(-3, (hk, hq // hk)) if attn_mask.size(-3) == hq \
            else attn_mask.unsqueeze(-3)
    return query, key, value, attn_mask, True


def _arrange(query, key, value, attn_mask):
    """The operands as the fused kernel reads them: one broadcast batch shape (expanded
    views), unit inner strides, the mask expanded to (batch..., L, S) in bool or the query's
    dtype."""
    qb, kb, vb = tuple(query.shape[:-2]), tuple(key.shape[:-2]), tuple(value.shape[:-2])
    batch = qb if qb == kb == vb else tuple(broadcast_shapes(qb, kb, vb))
    ops = []
    for t, tb in ((query, qb), (key, kb), (value, vb)):
        if tb != batch:
            t = t.expand(batch + tuple(t.shape[-2:]))
        if (t.size(-1) > 1 and t.stride(-1) != 1) or \
                (t.size(-2) > 1 and t.stride(-2) < max(t.size(-1), 1)):
            t = t.contiguous()
        ops.append(t)
    mask = attn_mask
    if mask is not None:
        if mask.dtype != _C.bool and mask.dtype != query.dtype:
            mask = mask.to(query.dtype)
        full = batch + (query.size(-2), key.size(-2))
        if tuple(mask.shape) != full:
            mask = mask.expand(full)
    return ops[0], ops[1], ops[2], mask


def _default_scale(query, scale):
    if scale is not None:
        return float(scale)
    return 1.0 / math.sqrt(query.size(-1)) if query.size(-1) else math.inf


def _scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p=0.0,
                                                is_causal=False, *, attn_mask=None, scale=None):
    """(softmax(query @ key^T * scale + mask) @ value, logsumexp of the masked scores) by the
    fused kernel (Note [Fused attention]); float32/float64 operands whose batch dims
    broadcast, a bool mask or one of the query's dtype.  No dropout."""
    if dropout_p > 0.0:
        raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not "
                           "support dropout > 0")
    q, k, v, mask = _arrange(query, key, value, attn_mask)
    return _C._sdpa_flash_forward(q, k, v, mask, bool(is_causal), _default_scale(query, scale))


def _flash_backward(query, key, value, attn_mask, is_causal, scale, out, lse, grad_out):
    """The fused kernel's gradients of query, key and value (of the arranged shapes: the
    recorder sums them down to each input's shape)."""
    q, k, v, mask = _arrange(query, key, value, attn_mask)
    if grad_out.stride(-1) != 1 or grad_out.stride(-2) < max(grad_out.size(-1), 1):
        grad_out = grad_out.contiguous()
    return _C._sdpa_flash_backward(q, k, v, mask, bool(is_causal), _default_scale(query, scale),
                                   out, lse, grad_out)


def _masked_scores(query, key, attn_mask, is_causal, scale):
    """q @ k^T * scale with the causal / given mask applied (-inf where a key is masked out)."""
    scores = query.matmul(key.transpose(-2, -1))
    if query.size(-1):                   # no features: the scores are 0 whatever the scale
        scores = scores * _default_scale(query, scale)
    L, S = query.size(-2), key.size(-2)
    if is_causal:
        keep = _C.ones(L, S, dtype=_C.bool).tril()
        scores = scores.masked_fill(keep.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == _C.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            # added in the scores' dtype (a float32 mask with a half-precision query)
            scores = scores + (attn_mask if attn_mask.dtype == scores.dtype
                               else attn_mask.to(scores.dtype))
    return scores


def _attention_weights(query, key, attn_mask, is_causal, scale):
    """softmax of the masked scores along the keys; rows that see no key are zeros."""
    scores = _masked_scores(query, key, attn_mask, is_causal, scale)
    if attn_mask is None and (not is_causal or key.size(-2) > 0):
        return scores.softmax(-1)
    empty = (scores == float("-inf")).all(-1, keepdim=True)
    if not bool(empty.any()):
        return scores.softmax(-1)
    return scores.masked_fill(empty, 0.0).softmax(-1).masked_fill(empty, 0.0)


def _sdpa_math(query, key, value, attn_mask, dropout_p, is_causal, scale):
    """The op-by-op form (torch's math kernel)."""
    w = _attention_weights(query, key, attn_mask, is_causal, scale)
    if dropout_p > 0.0:
        if dropout_p > 1.0:
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
        if dropout_p == 1.0:
            w = w * 0
        else:
            keep = _C.empty(w.shape, dtype=w.dtype).bernoulli_(1.0 - dropout_p)
            w = w * keep.div_(1.0 - dropout_p)
    return w.matmul(value)


def _flash_backward_math(query, key, value, attn_mask, is_causal, scale, grad_out,
                         grad_lse=None):
    """The fused kernel's gradients written with recorded ops (for create_graph, and for a
    gradient of the logsumexp: d lse / d scores is the softmax)."""
    w = _attention_weights(query, key, attn_mask, is_causal, scale)
    out = w.matmul(value)
    s = _default_scale(query, scale)
    gv = w.transpose(-2, -1).matmul(grad_out)
    gw = grad_out.matmul(value.transpose(-2, -1))
    d = (grad_out * out).sum(-1, keepdim=True)
    if grad_lse is not None:
        d = d - grad_lse.unsqueeze(-1)
    gs = w * (gw - d) * s
    gq = gs.matmul(key)
    gk = gs.transpose(-2, -1).matmul(query)
    return gq, gk, gv


def _backend_flags():
    """(flags, whether math is preferred to flash) of minitorch.backends.cuda."""
    from .backends import cuda
    order = cuda._SDP_ORDER
    return cuda._SDP_FLAGS, order.index("math") < order.index("flash")


_flash_op = None


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(query @ key^T * scale + attn_mask) @ value (Note [Attention dispatch]).

    query (N..., L, E), key (N..., S, E), value (N..., S, Ev); the batch dims broadcast.
    attn_mask broadcasts to (N..., L, S): a bool mask keeps the keys where it is True, a float
    mask is added to the scores.  is_causal lets query i see keys j <= i.  scale defaults to
    1 / sqrt(E); dropout_p > 0 drops attention weights.  enable_gqa: query heads (dim -3)
    share key/value heads in groups."""
    global _flash_op
    _check_args(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    if _C._autocast_on():
        query, key, value, attn_mask = _C._autocast_lower(query, key, value, attn_mask)
    grouped = False
    if enable_gqa and query.dim() >= 3 and key.dim() >= 3 and value.dim() >= 3:
        hq = query.size(-3)
        _check_shapes(query.shape, key.shape[:-3] + (hq,) + key.shape[-2:],
                      value.shape[:-3] + (hq,) + value.shape[-2:], attn_mask)
        query, key, value, attn_mask, grouped = _gqa(query, key, value, attn_mask)
    else:
        _check_shapes(query.shape, key.shape, value.shape, attn_mask)
    flags, math_first = _backend_flags()
    # the fused kernel is the CPU's (_scaled_dot_product_flash_attention_for_cpu); tensors on
    # another device take the math form
    if flags["flash"] and not (math_first and flags["math"]) and dropout_p <= 0.0 and \
            query.is_cpu and \
            (query.dtype == _C.float32 or query.dtype == _C.float64) and \
            query.size(-1) > 0 and value.size(-1) > 0 and \
            (attn_mask is None or not attn_mask.requires_grad):
        if _flash_op is None:
            from ._op_forms import FORMS
            _flash_op = FORMS["_scaled_dot_product_flash_attention_for_cpu"]
        out = _flash_op(query, key, value, 0.0, is_causal, attn_mask=attn_mask, scale=scale)[0]
    elif flags["math"]:
        out = _sdpa_math(query, key, value, attn_mask, dropout_p, is_causal, scale)
    elif not flags["flash"]:
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. "
                           "This is likely due to turning off both the math kernel and the "
                           "fused kernels.")
    else:
        import warnings
        warnings.warn("Flash attention kernel not used because:", stacklevel=2)
        if dropout_p > 0.0:
            warnings.warn("Both fused kernels do not support non-zero dropout.", stacklevel=2)
        raise RuntimeError("No available kernel.  Aborting execution.")
    return out.flatten(-4, -3) if grouped else out
