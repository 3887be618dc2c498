"""minitorch.signal.windows: window functions of M points, as torch.signal.windows (SciPy's
definitions).  sym=True gives the symmetric window (filter design), sym=False the periodic one
(spectral analysis: the symmetric window of M + 1 points without its last)."""
import math

import minitorch

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _window(name, M, sym, dtype, device, requires_grad, formula):
    """formula(n, N) over the positions n = 0..M-1 (float64) of a symmetric window of N points
    (M, or M + 1 for a periodic one), cast; windows of 0 or 1 points are ones."""
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    dtype = dtype or minitorch.get_default_dtype()
    if dtype not in (minitorch.float32, minitorch.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    if M <= 1:
        w = minitorch.ones(M, dtype=dtype, device=device)
    else:
        n = minitorch.arange(M, dtype=minitorch.float64)
        w = formula(n, M if sym else M + 1).to(dtype=dtype, device=device)
    return w.requires_grad_(requires_grad)


def general_cosine(M, *, a, sym=True, dtype=None, layout=minitorch.strided, device=None,
                   requires_grad=False):
    """sum_k (-1)^k a_k cos(2 pi k n / (N - 1))."""
    def formula(n, N):
        w = minitorch.zeros(M, dtype=minitorch.float64)
        for k, ak in enumerate(a):
            w = w + ((-1) ** k) * float(ak) * minitorch.cos(2 * math.pi * k * n / (N - 1))
        return w
    return _window("general_cosine", M, sym, dtype, device, requires_grad, formula)


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
    return _window("bartlett", M, sym, dtype, device, requires_grad,
                   lambda n, N: 1 - (2 * n / (N - 1) - 1).abs())


def cosine(M, *, sym=True, dtype=None, layout=minitorch.strided, device=None,
           requires_grad=False):
    """sin(pi (n + 1/2) / N)."""
    return _window("cosine", M, sym, dtype, device, requires_grad,
                   lambda n, N: minitorch.sin(math.pi * (n + 0.5) / N))


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=minitorch.strided,
                device=None, requires_grad=False):
    """exp(-|n - center| / tau), centred by default."""
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    return _window("exponential", M, sym, dtype, device, requires_grad,
                   lambda n, N: minitorch.exp(-(n - ((N - 1) / 2 if center is None else center))
                                              .abs() / tau))


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=minitorch.strided, device=None,
             requires_grad=False):
    """exp(-(n - (N - 1)/2)^2 / (2 std^2))."""
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    return _window("gaussian", M, sym, dtype, device, requires_grad,
                   lambda n, N: minitorch.exp(-((n - (N - 1) / 2) ** 2) / (2 * std * std)))


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=minitorch.strided, device=None,
           requires_grad=False):
    """I0(beta sqrt(1 - (2 n / (N - 1) - 1)^2)) / I0(beta)."""
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    i0 = minitorch.special.i0
    return _window("kaiser", M, sym, dtype, device, requires_grad,
                   lambda n, N: i0(beta * (1 - (2 * n / (N - 1) - 1) ** 2).clamp(min=0).sqrt())
                   / i0(minitorch.tensor(float(beta), dtype=minitorch.float64)))
