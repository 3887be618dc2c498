"""Rearrangements of channels into space and back: pixel_shuffle, pixel_unshuffle and
channel_shuffle (each one reshape-permute-reshape copy; their gradients are the inverse
rearrangement, autograd/formulas.py)."""
from . import _C
from ._checks import _check


def _int_factor(x, fname, what, position):
    if isinstance(x, bool) or not isinstance(x, int):
        if isinstance(x, _C.TensorBase) or not hasattr(x, "__index__") or isinstance(x, bool):
            raise TypeError(f"{fname}(): argument '{what}' (position {position}) must be int, not "
                            f"{type(x).__name__}")
        x = int(x)
    return x


def _copy(x):
    """x, or a copy when it is a view of the input (factor 1): the results own their memory."""
    return x.clone() if x._base is not None else x


def pixel_shuffle(input, upscale_factor):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r): each group of r * r channels becomes an
    r x r block of pixels."""
    _check(input, "pixel_shuffle")
    r = _int_factor(upscale_factor, "pixel_shuffle", "upscale_factor", 2)
    nd = input.dim()
    if nd < 3:
        raise RuntimeError("pixel_shuffle expects input to have at least 3 dimensions, but got "
                           f"input with {nd} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if c % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible "
                           f"by the square of upscale_factor, but input.size(-3)={c} is not "
                           f"divisible by {r * r}")
    lead = tuple(input.shape[:-3])
    b = len(lead)
    x = input.reshape(lead + (c // (r * r), r, r, h, w))
    x = x.permute(tuple(range(b)) + (b, b + 3, b + 1, b + 4, b + 2))
    return _copy(x.reshape(lead + (c // (r * r), h * r, w * r)))


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W): the inverse of pixel_shuffle."""
    _check(input, "pixel_unshuffle")
    r = _int_factor(downscale_factor, "pixel_unshuffle", "downscale_factor", 2)
    nd = input.dim()
    if nd < 3:
        raise RuntimeError("pixel_unshuffle expects input to have at least 3 dimensions, but got "
                           f"input with {nd} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if h % r:
        raise RuntimeError("pixel_unshuffle expects height to be divisible by downscale_factor, "
                           f"but input.size(-2)={h} is not divisible by {r}")
    if w % r:
        raise RuntimeError("pixel_unshuffle expects width to be divisible by downscale_factor, "
                           f"but input.size(-1)={w} is not divisible by {r}")
    lead = tuple(input.shape[:-3])
    b = len(lead)
    x = input.reshape(lead + (c, h // r, r, w // r, r))
    x = x.permute(tuple(range(b)) + (b, b + 2, b + 4, b + 1, b + 3))
    return _copy(x.reshape(lead + (c * r * r, h // r, w // r)))


def channel_shuffle(input, groups):
    """(N, C, *) with C = g * k: channel i * k + j moves to j * g + i (the channels seen as a
    g x k matrix, transposed)."""
    _check(input, "channel_shuffle")
    g = _int_factor(groups, "channel_shuffle", "groups", 2)
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                           f"{list(input.shape)}")
    if g <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{g}")
    n, c = input.shape[:2]
    if c % g:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and "
                           f"{g} groups.")
    rest = tuple(input.shape[2:])
    x = input.reshape((n, g, c // g) + rest).transpose(1, 2)
    return _copy(x.reshape(input.shape))
