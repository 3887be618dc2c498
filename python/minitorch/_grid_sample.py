"""Sampling images at grid points: grid_sampler (bilinear / nearest / bicubic, zeros / border /
reflection padding, 4-D and 5-D) and affine_grid_generator.

Note [Sampling by taps]
grid_sampler reads each output point from T taps of the input (bilinear: the 2**k corners of
the cell around the point, nearest: one, bicubic: the 4 x 4 around it).  Each tap is a flat
position in the input's spatial extent, a weight and whether it lies inside; all taps of all
points are read by one gather of the (N, C, S) input into (N, C, T, P), weighted and summed
over T.  Positions and masks are computed without gradient; the weights are differentiable
functions of the grid (through the unnormalisation and the border / reflection folding), so
that the gradients of the input (a scatter-add, gather's derivative) and of the grid come
from the ops' formulas, to any order.  The folding of coordinates follows torch's kernels,
including their derivative at the edges (zero where a coordinate is clipped, the sign of the
reflection inside)."""
import itertools

from . import _C
from ._checks import _check, _legacy_name

_MODES = ("bilinear", "nearest", "bicubic")
_PADDINGS = ("zeros", "border", "reflection")
_CUBIC_A = -0.75


def _mt():
    import minitorch
    return minitorch


def _unnormalize(coord, size, align_corners, k):
    """[-1, 1] -> pixel coordinates: the corner pixels' centres (align_corners) or their outer
    edges at -1 and 1.  Rounded as torch's kernels (the 2-d one scales by half the size)."""
    if k == 2:
        if align_corners:
            return (coord + 1) * ((size - 1) / 2)
        return (coord + 1) * (size / 2) - 0.5
    if align_corners:
        return ((coord + 1) / 2) * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _clip(coord, size):
    """coord clamped to [0, size - 1]; its derivative is 0 where clamped and at the ends."""
    inside = (coord > 0) & (coord < size - 1)
    return _mt().where(inside, coord, coord.detach().clamp(0, size - 1))


def _reflect(coord, twice_low, twice_high):
    """coord reflected into [twice_low / 2, twice_high / 2] (as often as needed)."""
    if twice_low == twice_high:
        return coord * 0
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    shifted = coord - low
    sign = _mt().where(shifted.detach() < 0, -1.0, 1.0).to(coord.dtype)
    dist = shifted * sign
    flips = (dist.detach() / span).floor()
    extra = dist - flips * span        # fmod for non-negative values
    even = flips.remainder(2) == 0
    return _mt().where(even, extra + low, (span + low) - extra)


def _fold_coordinate(coord, size, padding_mode, align_corners):
    """Pixel coordinate -> the coordinate read under the padding mode (torch's
    compute_coordinates)."""
    if padding_mode == "border":
        return _clip(coord, size)
    if padding_mode == "reflection":
        if align_corners:
            coord = _reflect(coord, 0, 2 * (size - 1))
        else:
            coord = _reflect(coord, -1, 2 * size - 1)
        return _clip(coord, size)
    return coord


def _cubic_weights(t):
    """The four cubic-convolution coefficients (A = -0.75) of the taps at -1, 0, 1, 2 from a
    point at fraction t past tap 0."""
    a = _CUBIC_A

    def near(x):                      # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):                       # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _check_grid_sampler(input, grid, interpolation_mode):
    _check(input, "grid_sampler")
    _check(grid, "grid_sampler", "grid")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"expected scalar type {_legacy_name(input.dtype)} but found "
                           f"{_legacy_name(grid.dtype)}")
    isz, gsz = list(input.shape), list(grid.shape)
    if input.dim() == 0 or grid.dim() == 0:
        raise RuntimeError("grid_sampler(): expected 4D or 5D input and grid, but got input with "
                           f"sizes {isz} and grid with sizes {gsz}")
    if isz[0] != gsz[0]:
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, but "
                           f"got input with sizes {isz} and grid with sizes {gsz}")
    if gsz[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last "
                           f"dimension, but got grid with sizes {gsz}")
    for i in range(2, input.dim()):
        if isz[i] <= 0:
            raise RuntimeError("grid_sampler(): expected input to have non-empty spatial dimensions, "
                               f"but input has sizes {isz} with dimension {i} being empty")
    k = 4 if input.dim() == 4 else 5
    if input.dim() != k or grid.dim() != k:
        raise RuntimeError(f"grid_sampler(): expected {k}D input and grid with same number of "
                           f"dimensions, but got input with sizes {isz} and grid with sizes {gsz}")
    if k == 5 and interpolation_mode == 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if not input.dtype.is_floating_point:
        kernel = "grid_sampler_2d_cpu_kernel_impl" if input.dim() == 4 else "grid_sampler_3d_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_legacy_name(input.dtype)}\'')


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """input (N, C, *in) sampled at grid (N, *out, k) -> (N, C, *out) (Note [Sampling by
    taps]); interpolation_mode 0 bilinear, 1 nearest, 2 bicubic; padding_mode 0 zeros,
    1 border, 2 reflection; grid's last dim holds (x, y[, z]), x indexing the last input dim."""
    mode, pad = int(interpolation_mode), int(padding_mode)
    if mode not in (0, 1, 2):
        raise RuntimeError(f"grid_sampler(): unknown interpolation mode {mode}")
    if pad not in (0, 1, 2):
        raise RuntimeError(f"grid_sampler(): unknown padding mode {pad}")
    _check_grid_sampler(input, grid, mode)
    mt = _mt()
    mode_name, padding_name = _MODES[mode], _PADDINGS[pad]
    align = bool(align_corners)
    n, c = input.shape[:2]
    sizes = tuple(input.shape[2:])
    k = len(sizes)
    out_shape = tuple(grid.shape[1:-1])
    p = 1
    for s in out_shape:
        p *= s
    if n == 0 or c == 0 or p == 0:
        return input.new_zeros((n, c) + out_shape) + grid.sum() * 0
    g = grid.reshape(n, p, k)
    # coordinate of input dim 2 + d is grid entry k - 1 - d (x indexes the last dim)
    coords = [_unnormalize(g[:, :, k - 1 - d], sizes[d], align, k) for d in range(k)]
    per_dim = []                      # per spatial dim: [(position (no grad), weight), ...]
    if mode_name == "bicubic":
        for d in range(k):
            lo = coords[d].detach().floor()
            weights = _cubic_weights(coords[d] - lo)
            taps = []
            for i, w in enumerate(weights):
                pos = _fold_coordinate(lo + (i - 1), sizes[d], padding_name, align)
                taps.append((pos.detach().trunc(), w))
            per_dim.append(taps)
    else:
        folded = [_fold_coordinate(coords[d], sizes[d], padding_name, align) for d in range(k)]
        for d in range(k):
            if mode_name == "nearest":
                pos = folded[d].detach().round()
                per_dim.append([(pos, folded[d] * 0 + 1)])
            else:
                lo = folded[d].detach().floor()
                per_dim.append([(lo, (lo + 1) - folded[d]), (lo + 1, folded[d] - lo)])
    strides = [1] * k
    for d in range(k - 2, -1, -1):
        strides[d] = strides[d + 1] * sizes[d + 1]
    # per dim and tap: (offset along the flat extent, weight, inside), then every combination
    taps = [[(pos.clamp(0, sizes[d] - 1).long() * strides[d], w,
              (pos >= 0) & (pos <= sizes[d] - 1)) for pos, w in per_dim[d]] for d in range(k)]
    positions, weights, masks = [], [], []
    for combo in itertools.product(*taps):
        flat, weight, inside = None, None, None
        for term, w, ok in combo:
            flat = term if flat is None else flat + term
            weight = w if weight is None else weight * w
            inside = ok if inside is None else inside & ok
        positions.append(flat)
        weights.append(weight)
        masks.append(inside)
    t = len(positions)
    idx = mt.stack(positions, 1)                                    # (N, T, P)
    inside = mt.stack(masks, 1)
    w = mt.stack(weights, 1).masked_fill(inside.logical_not(), 0)   # (N, T, P)
    s = 1
    for size in sizes:
        s *= size
    vals = input.reshape(n, c, s).gather(2, idx.view(n, 1, t * p).expand(n, c, t * p))
    vals = vals.view(n, c, t, p)
    if not bool(inside.all()):
        vals = vals.masked_fill(inside.logical_not().unsqueeze(1), 0)
    out = vals.mul(w.unsqueeze(1)).sum(2) if t > 1 else vals.squeeze(2) * w
    return out.reshape((n, c) + out_shape)


def _linspace_from_neg_one(num, align_corners, dtype):
    """num points from -1 to 1 (0 for a single point) in torch's rounding: the first half
    stepped up from -1, the second down from 1; scaled by (num - 1) / num without
    align_corners."""
    if num <= 1:
        return _C.zeros(1, dtype=dtype)
    i = _C.arange(num, dtype=dtype)
    step = _C.full((), 2.0, dtype=dtype) / (num - 1)
    r = _mt().where(i < num // 2, step * i - 1, 1 - step * ((num - 1) - i))
    return r if align_corners else r * (num - 1) / num


def affine_grid_generator(theta, size, align_corners):
    """The sampling grid (N, *spatial, k) of affine maps theta (N, k, k + 1) over the output
    size (N, C, *spatial), k = 2 or 3: each output point's normalised coordinates (x, y[, z],
    1) times theta^T."""
    _check(theta, "affine_grid_generator", "theta")
    size = [int(s) for s in size]
    n, spatial = size[0], size[2:]
    k = len(spatial)
    axes = [_linspace_from_neg_one(s, bool(align_corners), theta.dtype) for s in reversed(spatial)]
    mt = _mt()
    # base grid (*spatial, k + 1): x varies along the last dim, then y, then z; the last is 1
    parts = []
    for j, ax in enumerate(axes):
        shape = [1] * k
        shape[k - 1 - j] = ax.numel()
        parts.append(ax.view(shape).expand(spatial))
    parts.append(_C.ones(spatial, dtype=theta.dtype))
    base = mt.stack(parts, -1).reshape(1, -1, k + 1).expand(n, -1, k + 1)
    return base.bmm(theta.transpose(1, 2)).view([n] + spatial + [k])
