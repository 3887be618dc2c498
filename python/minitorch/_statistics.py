"""Covariance and correlation matrices (cov, corrcoef) and histograms with bin edges
(histogram), composed from reductions, matmul, searchsorted and index_add."""
import warnings

from . import _C
from ._reductions import _return_type

histogram_ret = _return_type("histogram", ["hist", "bin_edges"])


def _scalar_type_name(dt):
    from ._reductions import _scalar_type_name
    return _scalar_type_name(dt)


def _mt():
    import minitorch
    return minitorch


def _check_weights(w, name, n, integral):
    if w is None:
        return None
    if not isinstance(w, _C.TensorBase):
        raise TypeError(f"cov(): argument '{name}' must be Tensor, not {type(w).__name__}")
    if w.dim() > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} "
                           f"with {w.dim()} dimensions")
    if w.numel() != n:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {w.numel()} != {n}")
    if integral and (w.dtype.is_floating_point or w.dtype.is_complex):
        raise RuntimeError(f"cov(): expected {name} to have integral dtype but got {name} with "
                           f"{_scalar_type_name(w.dtype)} dtype")
    if not integral and not w.dtype.is_floating_point:
        raise RuntimeError(f"cov(): expected {name} to have floating point dtype but got {name} "
                           f"with {_scalar_type_name(w.dtype)} dtype")
    if bool((w < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")
    return w


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in input's rows (observations in its columns;
    a 1-D input is one variable), frequency and observation weights as NumPy's cov."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"cov(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.dim()} dimensions")
    x = input.reshape(1, -1) if input.dim() < 2 else input
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        x = x.to(_C.get_default_dtype())
    n = x.shape[1]
    fw = _check_weights(fweights, "fweights", n, True)
    aw = _check_weights(aweights, "aweights", n, False)
    w = None
    if fw is not None:
        w = fw
    if aw is not None:
        w = aw if w is None else w * aw
    if w is None:
        avg = x.mean(1)
        w_sum = float(n)
        norm = w_sum - correction
    else:
        w_sum = w.sum()
        avg = (x * w).sum(1) / w_sum
        if correction == 0:
            norm = w_sum
        elif aw is None:
            norm = w_sum - correction
        else:
            norm = w_sum - correction * (w * aw).sum() / w_sum
    norm_le0 = (norm <= 0) if not isinstance(norm, _C.TensorBase) else bool(norm <= 0)
    if norm_le0:
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than "
                      "the number of observations.", UserWarning, stacklevel=2)
        norm = 0.0 if not isinstance(norm, _C.TensorBase) else norm.clamp_min(0)
    xc = x - avg.unsqueeze(1)
    xw = xc if w is None else xc * w
    c = _mt().matmul(xw, xc.transpose(0, 1).conj())
    c = c / norm
    return c.squeeze()


def corrcoef(input):
    """Pearson correlation coefficients of the variables in input's rows, clipped to [-1, 1]."""
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    std = d.sqrt() if not d.dtype.is_complex else d.real.sqrt()
    c = c / std.unsqueeze(1)
    c = c / std.unsqueeze(0)
    if c.dtype.is_complex:
        return c.real.clamp(-1, 1) + c.imag.clamp(-1, 1) * 1j
    return c.clamp(-1, 1)


def _edges(input, bins, range_):
    if isinstance(bins, _C.TensorBase):
        if bins.dim() != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got "
                               f"{bins.dim()} dimensions in the bins tensor for dimension 0")
        return bins.to(input.dtype)
    if isinstance(bins, bool) or not isinstance(bins, int):
        raise TypeError(f"histogram(): argument 'bins' must be int or Tensor, not "
                        f"{type(bins).__name__}")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if range_ is not None:
        lo, hi = float(range_[0]), float(range_[1])
    elif input.numel():
        lo, hi = float(input.min().item()), float(input.max().item())
    else:
        lo, hi = 0.0, 1.0
    if lo > hi:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} max "
                           f"{hi:g} for dimension 0")
    if not (abs(lo) < float("inf") and abs(hi) < float("inf")):
        raise RuntimeError(f"torch.histogramdd: dimension 0's range [{lo:g}, {hi:g}] is not finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return _C.linspace(lo, hi, bins + 1, dtype=input.dtype)


def histogram(input, bins, *, range=None, weight=None, density=False, out=None):
    """(hist, bin_edges): the counts (or summed weights) of input's values in each bin, bins
    half-open [e_i, e_(i+1)) except the last, which holds its right edge; values outside the
    edges are not counted.  density=True divides by the total and the bin widths."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"histogram(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for "
                                  f"'{_scalar_type_name(input.dtype)}'")
    if weight is not None:
        if tuple(weight.shape) != tuple(input.shape):
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided it should have the same shape as "
                "the input tensor excluding its innermost dimension, but got input with shape "
                f"{list(input.reshape(-1, 1).shape)} and weight with shape {list(weight.shape)}")
        if weight.dtype != input.dtype:
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
                f"should have the same dtype, but got input({_type(input.dtype)}), and "
                f"weight({_type(weight.dtype)})")
    edges = _edges(input, bins, range)
    nb = edges.numel() - 1
    x = input.reshape(-1)
    idx = _mt().searchsorted(edges, x, right=True) - 1
    last = x == edges[-1]
    idx = idx.masked_fill(last, nb - 1)
    keep = (idx >= 0) & (idx < nb) & (x >= edges[0]) & (x <= edges[-1])
    w = weight.reshape(-1) if weight is not None else _C.ones(x.shape, dtype=input.dtype)
    hist = _C.zeros((max(nb, 0),), dtype=input.dtype)
    if nb > 0 and x.numel():
        hist = hist.index_add(0, idx[keep], w[keep])
    if density:
        widths = edges[1:] - edges[:-1]
        hist = hist / (hist.sum() * widths)
    if out is not None:
        oh, oe = out
        oh.resize_(hist.shape).copy_(hist)
        oe.resize_(edges.shape).copy_(edges)
        return histogram_ret(oh, oe)
    return histogram_ret(hist, edges)


def _type(dt):
    return {"float32": "float", "float64": "double", "float16": "c10::Half",
            "bfloat16": "c10::BFloat16"}.get(str(dt).split(".")[-1], str(dt))
