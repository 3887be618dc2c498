"""constant_pad_nd: padding with a constant, negative pads cropping."""
from . import _C


def constant_pad_nd(input, pad, value=0):
    """input padded by pad = (left of the last dim, right of the last dim, left of the one before,
    ...) with value (converted to input's dtype); negative amounts remove elements."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"constant_pad_nd(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    nd = input.dim()
    if len(pad) // 2 > nd:
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions of "
                           f"the input. Pad length is {len(pad)}while the input has {nd}dimensions.")
    src = input
    shape = list(input.shape)
    where = []      # (dim, offset in the result) of the copied block
    for i in range(len(pad) // 2):
        d = nd - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        size = shape[d]
        new = size + lo + hi
        start, keep = max(-lo, 0), size - max(-lo, 0) - max(-hi, 0)
        if keep < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        src = src.narrow(d, start, keep)
        shape[d] = new
        where.append((d, max(lo, 0)))
    out = _C.empty(shape, dtype=input.dtype).fill_(value)
    target = out
    for d, off in where:
        target = target.narrow(d, off, src.shape[d])
    if src.numel():
        target.copy_(src)
    return out
