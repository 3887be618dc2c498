"""The three discrete Fourier transforms every minitorch.fft function is made of, as torch's
_fft_c2c / _fft_r2c / _fft_c2r, computed by NumPy's pocketfft.

Note [FFT primitives]
  _fft_c2c(x, dim, normalization, forward)   complex -> complex over the dims, e^-2pi i (forward)
                                              or e^+2pi i (not) without any scaling, then
  _fft_r2c(x, dim, normalization, onesided)  real -> complex, forward; onesided keeps the first
                                              n // 2 + 1 outputs of the last dim
  _fft_c2r(x, dim, normalization, last_dim_size)  the onesided half of a Hermitian spectrum ->
                                              real, inverse direction; the last dim's output has
                                              last_dim_size points
normalization scales the result: 0 not at all, 1 by 1/sqrt(n), 2 by 1/n, n the product of the
transformed sizes (of the output's for c2r).  Each is the adjoint of another one, which gives
their derivatives (autograd/formulas.py).  NumPy computes float32/complex64 in single
precision and float64/complex128 in double; 16-bit floats are refused as on torch's CPU.
Device tensors are transformed on the host and copied back (a departure: torch calls cuFFT)."""
import numpy as np

from . import _C

_NUMPY_NORM = {0: "backward", 1: "ortho", 2: "forward"}


def _check(x, what, want_complex):
    dt = x.dtype
    if dt in (_C.float16, _C.bfloat16) or dt is getattr(_C, "complex32", None):
        name = {_C.float16: "Half", _C.bfloat16: "BFloat16"}.get(dt, "ComplexHalf")
        raise NotImplementedError(f"Unsupported dtype {name}")
    if want_complex and not dt.is_complex:
        raise RuntimeError(f"{what} expects a complex input tensor, but got {dt}")
    if not want_complex and not dt.is_floating_point:
        raise RuntimeError(f"{what} expects a floating point input tensor, but got {dt}")


def _host(x):
    """x's values as a NumPy array (a view for CPU tensors; conjugate/negative bits resolved)."""
    if x.device.type != "cpu":
        x = x.cpu()
    x = x.resolve_conj().resolve_neg()
    return x.numpy()


def _back(arr, like, dtype):
    out = _C.from_numpy(np.ascontiguousarray(arr, dtype=_numpy_dtype(dtype)))
    if like.device.type != "cpu":
        out = out.to(like.device)
    return out


def _numpy_dtype(dtype):
    return {_C.complex64: np.complex64, _C.complex128: np.complex128,
            _C.float32: np.float32, _C.float64: np.float64}[dtype]


def _complex_of(dtype):
    return _C.complex128 if dtype in (_C.float64, _C.complex128) else _C.complex64


def _real_of(dtype):
    return _C.float64 if dtype in (_C.float64, _C.complex128) else _C.float32


def _dims(x, dim):
    nd = x.dim()
    out = []
    for d in dim:
        if not -nd <= d < max(nd, 1) or nd == 0:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-max(nd, 1)}, {max(nd, 1) - 1}], but got {d})")
        out.append(d % nd)
    if len(set(out)) != len(out):
        raise RuntimeError("FFT dims must be unique")
    return out


def _fft_c2c(self, dim, normalization, forward):
    """See Note [FFT primitives]."""
    _check(self, "_fft_c2c", True)
    dim = _dims(self, dim)
    a = _host(self)
    if not dim or self.numel() == 0:
        return self.clone()
    norm = _NUMPY_NORM[int(normalization)]
    if forward:
        r = np.fft.fftn(a, axes=dim, norm=norm)
    else:
        # numpy's inverse divides by n for "backward": ask for the scaling torch's mode means
        r = np.fft.ifftn(a, axes=dim, norm={"backward": "forward", "forward": "backward",
                                            "ortho": "ortho"}[norm])
    return _back(r, self, self.dtype)


def _fft_r2c(self, dim, normalization, onesided):
    """See Note [FFT primitives]."""
    _check(self, "_fft_r2c", False)
    dim = _dims(self, dim)
    a = _host(self)
    norm = _NUMPY_NORM[int(normalization)]
    if self.numel() == 0 or not dim:
        shape = list(self.shape)
        if dim and onesided:
            shape[dim[-1]] = shape[dim[-1]] // 2 + 1
        return _C.zeros(shape, dtype=_complex_of(self.dtype), device=self.device)
    if onesided:
        r = np.fft.rfftn(a, axes=dim, norm=norm)
    else:
        r = np.fft.fftn(a, axes=dim, norm=norm)
    return _back(r, self, _complex_of(self.dtype))


def _fft_c2r(self, dim, normalization, last_dim_size):
    """See Note [FFT primitives]."""
    _check(self, "_fft_c2r", True)
    dim = _dims(self, dim)
    n = int(last_dim_size)
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    a = _host(self)
    norm = _NUMPY_NORM[int(normalization)]
    s = [self.shape[d] for d in dim[:-1]] + [n]
    inverse_norm = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    r = np.fft.irfftn(a, s=s, axes=dim, norm=inverse_norm)
    return _back(r, self, _real_of(self.dtype))
