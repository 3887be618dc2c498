"""Fractional max pooling (Graham, 2014): max pooling over windows whose starts are spread
pseudo-randomly so that the output has any size between the input's and the input's over the
window's.

Note [Fractional windows]
Along a dimension of input size n, window size k and output size m, one sample u in [0, 1)
(per batch element, channel and dimension: `_random_samples` of shape (N, C, dims), in torch's
order: (width, height) in 2-d, (time, height, width) in 3-d) places the windows at
    start_i = floor((i + u) a) - floor(u a),  a = (n - k) / (m - 1),  for i < m - 1,
and the last window ends at the input's end (start = n - k); a is computed in the input's
dtype, as torch's kernels do.  Each output is the maximum of its window (the first maximum in
row-major order; its flat index within the plane is returned), gathered with recorded ops, so
the gradient flows back to the chosen elements."""
from .. import _C

_NAMES = {2: ("height", "width"), 3: ("time", "height", "width")}


def _tuple(v, nd, what):
    if isinstance(v, (list, tuple)):
        if len(v) != nd:
            raise ValueError(f"{what} must be an int or a tuple of {nd} ints")
        return tuple(v)
    return (v,) * nd


def _starts(u, n, k, m, dtype):
    """The windows' starts along one dimension: (N, C, m) int64 from the samples u (N, C)."""
    import minitorch
    if m == 1:
        return minitorch.full(tuple(u.shape) + (1,), n - k, dtype=minitorch.int64,
                              device=u.device)
    alpha = minitorch.tensor((n - k), dtype=dtype) / minitorch.tensor(m - 1, dtype=dtype)
    i = minitorch.arange(m - 1, dtype=dtype, device=u.device)
    first = ((i + u.unsqueeze(-1)) * alpha).floor() - (u * alpha).floor().unsqueeze(-1)
    last = minitorch.full(tuple(u.shape) + (1,), n - k, dtype=minitorch.int64, device=u.device)
    return minitorch.cat([first.to(minitorch.int64), last], -1)


def fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                        _random_samples, nd):
    import minitorch
    name = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    ks = _tuple(kernel_size, nd, "kernel_size")
    spatial = tuple(input.shape[-nd:])
    if output_size is None:
        ratio = _tuple(output_ratio, nd, "output_ratio")
        output_size = tuple(int(spatial[d] * ratio[d]) for d in range(nd))
    out = _tuple(output_size, nd, "output_size")
    for d in range(nd):
        if out[d] + ks[d] - 1 > spatial[d]:
            dim = _NAMES[nd][d]
            raise RuntimeError(f"{name}(): pool {dim} {ks[d]} too large relative to input "
                               f"{dim} {spatial[d]}")
    batched = input.dim() == nd + 2
    x = input if batched else input.unsqueeze(0)
    N, C = x.shape[0], x.shape[1]
    samples = _random_samples
    if samples is None:
        samples = minitorch.rand(N, C, nd, dtype=x.dtype, device=x.device)
    elif tuple(samples.shape) != (N, C, nd):
        raise RuntimeError(f"{name}(): Expected _random_samples to have shape ({N}, {C}, {nd}), "
                           f"but got {list(samples.shape)}")
    # flat position (within a plane) of every window element, (N, C, *out, *ks)
    flat = None
    plane = 1
    for d in reversed(range(nd)):
        col = nd - 1 - d if nd == 2 else d             # (torch's order of the samples)
        starts = _starts(samples[:, :, col].detach(), spatial[d], ks[d], out[d], x.dtype)
        pos = starts.unsqueeze(-1) + minitorch.arange(ks[d], device=x.device)   # (N, C, m, k)
        shape = [N, C] + [1] * (2 * nd)
        shape[2 + d], shape[2 + nd + d] = out[d], ks[d]
        term = pos.reshape(shape) * plane
        flat = term if flat is None else flat + term
        plane *= spatial[d]
    flat = flat.expand(N, C, *out, *ks).reshape(N, C, -1)
    vals = x.reshape(N, C, -1).gather(2, flat).reshape(N, C, *out, -1)
    values, arg = vals.max(-1)
    if not batched:
        values = values.squeeze(0)
    if not return_indices:
        return values
    idx = flat.reshape(N, C, *out, -1).gather(-1, arg.unsqueeze(-1)).squeeze(-1)
    return values, (idx if batched else idx.squeeze(0))
