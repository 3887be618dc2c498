"""minitorch.fft: values against the DFT written out as a matrix product, shapes/dtypes/norms as
torch's, derivatives by gradcheck/gradgradcheck and against numbers from torch 2.15."""
import math

import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import gradcheck, gradgradcheck

F = torch.fft
rng = np.random.default_rng(0)
XR = rng.standard_normal((4, 6))
XC = rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))


def _dft(a, n, axis, inverse=False):
    """The DFT of a along axis (cut or zero-padded to n points) as a matrix product."""
    a = np.moveaxis(np.asarray(a, dtype=complex), axis, -1)
    m = a.shape[-1]
    a = a[..., :n] if n <= m else np.concatenate([a, np.zeros(a.shape[:-1] + (n - m,))], -1)
    k = np.arange(n)
    w = np.exp((2j if inverse else -2j) * math.pi * np.outer(k, k) / n)
    return np.moveaxis(a @ w.T, -1, axis)


def _np(t):
    return t.resolve_conj().numpy()


@pytest.mark.parametrize("norm,scale_f,scale_i", [(None, 1, "n"), ("backward", 1, "n"),
                                                   ("forward", "n", 1), ("ortho", "s", "s")])
def test_one_dimensional_transforms(norm, scale_f, scale_i):
    def sc(kind, n):
        return {1: 1.0, "n": 1.0 / n, "s": 1.0 / math.sqrt(n)}[kind]
    xc, xr = torch.from_numpy(XC), torch.from_numpy(XR)
    np.testing.assert_allclose(_np(F.fft(xc, norm=norm)), _dft(XC, 6, -1) * sc(scale_f, 6),
                               atol=1e-12)
    np.testing.assert_allclose(_np(F.fft(xr, n=8, norm=norm)), _dft(XR, 8, -1) * sc(scale_f, 8),
                               atol=1e-12)
    np.testing.assert_allclose(_np(F.ifft(xc, n=5, dim=0, norm=norm)),
                               _dft(XC, 5, 0, inverse=True) * sc(scale_i, 5), atol=1e-12)
    r = F.rfft(xr, n=7, norm=norm)
    assert r.shape == (4, 4) and r.dtype is torch.complex128
    np.testing.assert_allclose(_np(r), (_dft(XR, 7, -1) * sc(scale_f, 7))[:, :4], atol=1e-12)
    # irfft inverts rfft, for even and odd n
    for n in (6, 7):
        back = F.irfft(F.rfft(xr, n=n, norm=norm), n=n, norm=norm)
        np.testing.assert_allclose(back.numpy(), XR[:, :n] if n <= 6 else
                                   np.concatenate([XR, np.zeros((4, 1))], 1), atol=1e-12)
    # hfft of a Hermitian half-spectrum is the fft of the whole, real
    h = F.hfft(F.ihfft(xr, norm=norm), n=6, norm=norm)
    np.testing.assert_allclose(h.numpy(), XR, atol=1e-12)


def test_n_dimensional_transforms():
    xc, xr = torch.from_numpy(XC), torch.from_numpy(XR)
    want = _dft(_dft(XC, 6, 1), 4, 0)
    np.testing.assert_allclose(_np(F.fft2(xc)), want, atol=1e-11)
    np.testing.assert_allclose(_np(F.fftn(xc)), want, atol=1e-11)
    np.testing.assert_allclose(_np(F.ifftn(F.fftn(xc, s=(5, 8)), s=(5, 8))),
                               np.pad(XC, ((0, 1), (0, 2))), atol=1e-12)
    r2 = F.rfft2(xr)
    assert r2.shape == (4, 4)
    np.testing.assert_allclose(_np(r2), _dft(_dft(XR, 6, 1), 4, 0)[:, :4], atol=1e-11)
    np.testing.assert_allclose(F.irfft2(r2, s=(4, 6)).numpy(), XR, atol=1e-12)
    assert F.irfftn(xc, s=(5, 9)).shape == (5, 9) and F.hfft2(xc).shape == (4, 10)
    assert F.ihfft2(xr).shape == (4, 4) and F.ihfftn(xr, dim=(0,)).shape == (3, 6)


def test_dtypes_and_errors():
    assert F.fft(torch.ones(4)).dtype is torch.complex64
    assert F.fft(torch.arange(4)).dtype is torch.complex64
    assert F.rfft(torch.ones(4, dtype=torch.float64)).dtype is torch.complex128
    assert F.irfft(torch.ones(3, dtype=torch.complex64)).dtype is torch.float32
    with pytest.raises(NotImplementedError, match="Unsupported dtype Half"):
        F.fft(torch.ones(4, dtype=torch.float16))
    with pytest.raises(TypeError, match="rfft expects a real input tensor, but got ComplexDouble"):
        F.rfft(torch.from_numpy(XC))
    with pytest.raises(RuntimeError, match=r"Invalid number of data points \(0\) specified"):
        F.fft(torch.ones(4), n=0)
    with pytest.raises(RuntimeError, match=r"Invalid number of data points \(0\) specified"):
        F.irfft(torch.ones(4, dtype=torch.complex64), n=0)
    with pytest.raises(IndexError, match=r"expected to be in range of \[-1, 0\], but got 2"):
        F.fft(torch.ones(4), dim=2)
    with pytest.raises(RuntimeError, match='Invalid normalization mode: "bad"'):
        F.fft(torch.ones(4), norm="bad")
    with pytest.raises(RuntimeError, match="dim and shape arguments must have the same length"):
        F.fftn(torch.ones(4, 4), s=(2, 3), dim=(0,))


def test_frequencies_and_shifts():
    assert np.allclose(F.fftfreq(5).numpy(), [0.0, 0.2, 0.4, -0.4, -0.2])
    assert np.allclose(F.rfftfreq(6, d=0.5).numpy(), [0.0, 1 / 3, 2 / 3, 1.0])
    assert F.fftfreq(4, dtype=torch.float64).dtype is torch.float64
    assert F.fftshift(torch.arange(6)).tolist() == [3, 4, 5, 0, 1, 2]
    assert F.ifftshift(torch.arange(5)).tolist() == [2, 3, 4, 0, 1]
    assert F.fftshift(torch.arange(6).reshape(2, 3), dim=1).tolist() == [[2, 0, 1], [5, 3, 4]]
    x = torch.arange(7.0)
    assert torch.equal(F.ifftshift(F.fftshift(x)), x)


@pytest.mark.parametrize("name,fn,real", [
    ("fft", lambda x: F.fft(x, n=5), False),
    ("fft_real", lambda x: F.fft(x, norm="ortho"), True),
    ("ifft2", lambda x: F.ifft2(x, s=(3, 4)), False),
    ("rfft", lambda x: F.rfft(x, n=5), True),
    ("rfftn", lambda x: F.rfftn(x, norm="forward"), True),
    ("irfft", lambda x: F.irfft(x, n=7), False),
    ("irfft_even", lambda x: F.irfft(x), False),
    ("irfftn", lambda x: F.irfftn(x, s=(3, 5)), False),
    ("hfft", lambda x: F.hfft(x, n=5), False),
    ("ihfft", lambda x: F.ihfft(x), True),
])
def test_derivatives(name, fn, real):
    x = torch.from_numpy(XR[:3, :4].copy() if real else XC[:3, :4].copy()).requires_grad_()
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_gradients_match_torch():
    # from torch 2.15: x = XC; (F.hfft(x, n=7) ** 2).sum().backward(); x.grad.flatten()[:8]
    x = torch.from_numpy(XC.copy()).requires_grad_()
    (F.hfft(x, n=7) ** 2).sum().backward()
    want = [12.648583, 2.632344 + 36.822905j, -20.817979 + 10.006651j, -25.808311 - 33.832922j,
            0, 0, -14.134655, -5.856916 + 11.063418j]
    np.testing.assert_allclose(_np(x.grad).ravel()[:8], want, atol=2e-6)
    assert type(F.rfft(x.detach().real.requires_grad_()).grad_fn).__name__ == "FftR2CBackward0"
    assert type(F.fft(x).grad_fn).__name__ == "FftC2CBackward0"
    assert type(F.irfft(x).grad_fn).__name__ == "FftC2RBackward0"
