"""Shared helpers of the tests that compare minitorch with NumPy: the dtypes, their NumPy
counterparts (bfloat16 compares as float32) and random (tensor, ndarray) pairs."""
import numpy as np

import minitorch as torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]
NP_OF = {torch.bool: np.bool_, torch.uint8: np.uint8, torch.int8: np.int8, torch.int16: np.int16,
         torch.int32: np.int32, torch.int64: np.int64, torch.float16: np.float16,
         torch.bfloat16: np.float32, torch.float32: np.float32, torch.float64: np.float64}


def to_np(t):
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()


def make(rng, shape, dtype=torch.float32, noncontig=False, lo=-20, hi=20, halves=False,
         specials=False):
    """(tensor, ndarray) with equal values: integers in [lo, hi) (bool: > 0, uint8: abs);
    halves divides floats by 2; specials puts nan/inf/-inf/-0.0 among floats; noncontig gives
    a strided view of a buffer twice as wide."""
    shape = tuple(shape)
    full = shape[:-1] + (shape[-1] * 2,) if noncontig and shape else shape
    a = rng.integers(lo, hi, size=full)
    if dtype.is_floating_point and (halves or specials):
        a = np.asarray(a.astype(np.float64) / 2)
        if specials and a.size:
            pick = rng.random(size=full)
            a[pick < 0.1] = np.nan
            a[(pick >= 0.1) & (pick < 0.15)] = np.inf
            a[(pick >= 0.15) & (pick < 0.2)] = -np.inf
            a[(pick >= 0.2) & (pick < 0.25)] = -0.0
    elif dtype == torch.bool:
        a = a > 0
    elif dtype == torch.uint8:
        a = np.abs(a)
    a = np.asarray(a.astype(NP_OF[dtype]))
    t = torch.from_numpy(a.copy()).to(dtype)
    if noncontig and shape:
        t, a = t[..., ::2], a[..., ::2]
        assert not t.is_contiguous() or t.numel() <= 1
    return t, a
