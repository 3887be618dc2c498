"""Window functions, stft and istft: values from torch 2.15, inversion, gradients, errors."""
import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import gradcheck


def _close(t, want, atol=1e-4):
    np.testing.assert_allclose(t.detach().resolve_conj().numpy(), np.asarray(want), atol=atol)


def test_windows_match_torch():
    _close(torch.hann_window(5), [0.0, 0.3455, 0.9045, 0.9045, 0.3455])
    _close(torch.hann_window(5, periodic=False), [0.0, 0.5, 1.0, 0.5, 0.0])
    _close(torch.hamming_window(4), [0.08, 0.54, 1.0, 0.54])
    _close(torch.blackman_window(5), [0.0, 0.20077, 0.84923, 0.84923, 0.20077])
    _close(torch.bartlett_window(5), [0.0, 0.4, 0.8, 0.8, 0.4])
    _close(torch.kaiser_window(5), [5.2773e-05, 0.10172, 0.79294, 0.79294, 0.10172])
    _close(torch.kaiser_window(4, periodic=False, beta=5.0), [0.0367, 0.7753, 0.7753, 0.0367])
    for f in (torch.hann_window, torch.bartlett_window, torch.kaiser_window):
        assert f(1).tolist() == [1.0] and f(0).shape == (0,)
    w = torch.hann_window(3, dtype=torch.float64, requires_grad=True)
    assert w.dtype is torch.float64 and w.requires_grad and w.is_leaf
    with pytest.raises(RuntimeError, match="hann_window expects floating point dtypes"):
        torch.hann_window(5, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="requires non-negative window_length, got "
                                           "window_length=-1"):
        torch.hann_window(-1)


def test_stft_matches_torch():
    x = torch.arange(20.0)
    s = torch.stft(x, 8, hop_length=3, window=torch.hann_window(8), return_complex=True)
    assert s.shape == (5, 7) and s.dtype is torch.complex64
    _close(s[:3, :3], [[4.5858, 12.0, 24.0], [-0.5858, -6.0 + 3.8284j, -12.0 + 3.8284j],
                       [-2.0, -0.82843j, -0.82843j]])
    s = torch.stft(x, 8, hop_length=3, win_length=6, window=torch.hann_window(6), center=False,
                   normalized=True, return_complex=True)
    _close(s[:3, :3], [[4.2426, 7.4246, 10.6066], [-2.9142 + 0.7286j, -5.0999 + 0.7286j,
                                                   -7.2855 + 0.7286j],
                       [0.7071 - 0.5303j, 1.2374 - 0.5303j, 1.7678 - 0.5303j]])
    assert torch.stft(x.to(torch.complex64), 8, return_complex=True,
                      window=torch.ones(8)).shape == (8, 11)
    assert torch.stft(x, 8, pad_mode="constant", return_complex=True, window=torch.ones(8),
                      onesided=False).shape == (8, 11)
    b = torch.stft(torch.randn(2, 50), 16, hop_length=5, win_length=10,
                   window=torch.hann_window(10), return_complex=True)
    assert b.shape == (2, 9, 11)
    with pytest.warns(UserWarning, match="return_complex=False is deprecated"):
        assert x.stft(8, window=torch.ones(8), return_complex=False).shape == (5, 11, 2)


@pytest.mark.parametrize("n_fft,hop,win,center", [(16, 4, 16, True), (16, 5, 12, True),
                                                   (15, 3, 15, False), (8, 2, 8, True)])
def test_istft_inverts_stft(n_fft, hop, win, center):
    torch.manual_seed(0)
    y = torch.randn(2, 90, dtype=torch.float64)
    window = torch.hann_window if center else torch.hamming_window
    w = window(win, dtype=torch.float64)
    s = torch.stft(y, n_fft, hop, win, w, center=center, return_complex=True)
    back = torch.istft(s, n_fft, hop, win, w, center=center, length=y.shape[-1])
    _close(back, y.numpy(), atol=1e-10)
    if not center:      # a Hann window's zero first point leaves the first sample uncovered
        w = torch.hann_window(win, dtype=torch.float64)
        s = torch.stft(y, n_fft, hop, win, w, center=False, return_complex=True)
        with pytest.raises(RuntimeError, match="window overlap add min"):
            torch.istft(s, n_fft, hop, win, w, center=False)


def test_stft_gradients():
    x = torch.randn(24, dtype=torch.float64, requires_grad=True)
    w = torch.hann_window(8, dtype=torch.float64)
    assert gradcheck(lambda t: torch.stft(t, 8, 3, window=w, return_complex=True), (x,))
    s = torch.stft(x.detach(), 8, 2, window=w, return_complex=True).requires_grad_()
    assert gradcheck(lambda z: torch.istft(z, 8, 2, window=w, length=24), (s,))


def test_errors():
    x = torch.arange(20.0)
    with pytest.raises(RuntimeError, match="stft requires the return_complex parameter"):
        torch.stft(x, 8, window=torch.ones(8))
    with pytest.warns(UserWarning, match="A window was not provided"):
        torch.stft(x, 8, return_complex=True)
    with pytest.raises(RuntimeError, match=r"expected 0 < n_fft < 20, but got n_fft=40"):
        torch.stft(x, 40, return_complex=True, window=torch.ones(40), center=False)
    with pytest.raises(RuntimeError, match="istft requires a complex-valued input tensor"):
        torch.istft(torch.ones(5, 3), 8, window=torch.ones(8))


def test_signal_windows_match_torch():
    w = torch.signal.windows
    _close(w.hann(5), [0.0, 0.5, 1.0, 0.5, 0.0])
    _close(w.hann(5, sym=False), [0.0, 0.3455, 0.9045, 0.9045, 0.3455])
    _close(w.cosine(5), [0.3090, 0.8090, 1.0, 0.8090, 0.3090])
    _close(w.exponential(5), [0.1353, 0.3679, 1.0, 0.3679, 0.1353])
    _close(w.exponential(5, tau=2.0, center=1.0, sym=False), [0.6065, 1.0, 0.6065, 0.3679, 0.2231])
    _close(w.gaussian(5, std=2.0), [0.6065, 0.8825, 1.0, 0.8825, 0.6065])
    _close(w.general_hamming(5), [0.08, 0.54, 1.0, 0.54, 0.08])
    _close(w.nuttall(5), [3.6280e-04, 0.22698, 1.0, 0.22698, 3.6280e-04])
    _close(w.kaiser(5, beta=3.0, sym=False), [0.2049, 0.6247, 0.9522, 0.9522, 0.6247])
    _close(w.blackman(5), [0.0, 0.34, 1.0, 0.34, 0.0])
    assert w.gaussian(1).tolist() == [1.0] and w.hann(0).shape == (0,)
    assert w.hann(4, dtype=torch.float64).dtype is torch.float64
    for call, msg in [(lambda: w.gaussian(5, std=0), "Standard deviation must be positive"),
                      (lambda: w.hann(-1), "requires non-negative window length, got M=-1"),
                      (lambda: w.exponential(5, center=1.0), "Center must be None for symmetric"),
                      (lambda: w.hann(3, dtype=torch.int64), "expects float32 or float64 dtypes"),
                      (lambda: w.kaiser(3, beta=-1.0), "beta must be non-negative")]:
        with pytest.raises(ValueError, match=msg):
            call()
