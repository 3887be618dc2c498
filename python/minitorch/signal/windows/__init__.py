"""minitorch.signal.windows: window functions of M points, as torch.signal.windows (SciPy's
definitions).  sym=True gives the symmetric window (filter design), sym=False the periodic one
(spectral analysis: the symmetric window of M + 1 points without its last)."""
import math

import minitorch

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _checks(name, M, dtype):
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    dtype = dtype or minitorch.get_default_dtype()
    if dtype not in (minitorch.float32, minitorch.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _finish(w, dtype, device, requires_grad):
    return w.to(dtype=dtype, device=device).requires_grad_(requires_grad)


def _trivial(M, dtype, device, requires_grad):
    return minitorch.ones(M, dtype=dtype, device=device).requires_grad_(requires_grad)


def _points(M, sym):
    """The sample positions 0..M-1 and the symmetric length they are taken from."""
    return minitorch.arange(M, dtype=minitorch.float64), (M if sym else M + 1)


def general_cosine(M, *, a, sym=True, dtype=None, layout=minitorch.strided, device=None,
                   requires_grad=False):
    """sum_k (-1)^k a_k cos(2 pi k n / (N - 1))."""
    dtype = _checks("general_cosine", M, dtype)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    n, N = _points(M, sym)
    w = minitorch.zeros(M, dtype=minitorch.float64)
    for k, ak in enumerate(a):
        w = w + ((-1) ** k) * float(ak) * minitorch.cos(2 * math.pi * k * n / (N - 1))
    return _finish(w, dtype, device, requires_grad)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=minitorch.strided,
                    device=None, requires_grad=False):
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, device=device,
                          requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=minitorch.strided, device=None, requires_grad=False):
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, device=device,
                           requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=minitorch.strided, device=None,
            requires_grad=False):
    return general_hamming(M, sym=sym, dtype=dtype, device=device, requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=minitorch.strided, device=None,
             requires_grad=False):
    return general_cosine(M, a=[0.42, 0.50, 0.08], sym=sym, dtype=dtype, device=device,
                          requires_grad=requires_grad)


def nuttall(M, *, sym=True, dtype=None, layout=minitorch.strided, device=None,
            requires_grad=False):
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, device=device, requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=minitorch.strided, device=None,
             requires_grad=False):
    """1 - |2 n / (N - 1) - 1|."""
    dtype = _checks("bartlett", M, dtype)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    n, N = _points(M, sym)
    return _finish(1 - (2 * n / (N - 1) - 1).abs(), dtype, device, requires_grad)


def cosine(M, *, sym=True, dtype=None, layout=minitorch.strided, device=None,
           requires_grad=False):
    """sin(pi (n + 1/2) / N)."""
    dtype = _checks("cosine", M, dtype)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    n, N = _points(M, sym)
    return _finish(minitorch.sin(math.pi * (n + 0.5) / N), dtype, device, requires_grad)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=minitorch.strided,
                device=None, requires_grad=False):
    """exp(-|n - center| / tau), centred by default."""
    dtype = _checks("exponential", M, dtype)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    n, N = _points(M, sym)
    c = (N - 1) / 2 if center is None else center
    return _finish(minitorch.exp(-(n - c).abs() / tau), dtype, device, requires_grad)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=minitorch.strided, device=None,
             requires_grad=False):
    """exp(-(n - (N - 1)/2)^2 / (2 std^2))."""
    dtype = _checks("gaussian", M, dtype)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    n, N = _points(M, sym)
    return _finish(minitorch.exp(-((n - (N - 1) / 2) ** 2) / (2 * std * std)), dtype, device,
                   requires_grad)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=minitorch.strided, device=None,
           requires_grad=False):
    """I0(beta sqrt(1 - (2 n / (N - 1) - 1)^2)) / I0(beta)."""
    dtype = _checks("kaiser", M, dtype)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    n, N = _points(M, sym)
    r = (1 - (2 * n / (N - 1) - 1) ** 2).clamp(min=0).sqrt()
    w = minitorch.special.i0(beta * r) / minitorch.special.i0(
        minitorch.tensor(float(beta), dtype=minitorch.float64))
    return _finish(w, dtype, device, requires_grad)
