"""torch's top-level window functions (hann_window, ...: minitorch.signal.windows' windows,
periodic by default) and the short-time Fourier transform and its inverse (stft / istft), made
of recorded ops and minitorch.fft's transforms.

stft cuts the signal
(padded by n_fft // 2 on each side when center) into frames of n_fft samples hop_length apart,
multiplies each by the window (zero-padded to n_fft, centred) and transforms it; istft
transforms back, overlaps and adds the frames and divides by the summed squared window."""
import warnings


def _mt():
    import minitorch
    return minitorch


def _window(name, window_length, periodic, dtype, device, requires_grad, make):
    """torch's top-level window functions: their checks, then minitorch.signal.windows' window
    (periodic = not sym) computed in float64 and cast."""
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={window_length}")
    mt = _mt()
    dtype = dtype or mt.get_default_dtype()
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {dtype}")
    w = make(mt.signal.windows)(window_length, sym=not periodic, dtype=mt.float64)
    return w.to(dtype=dtype, device=device).requires_grad_(requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                pin_memory=False, requires_grad=False):
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad,
                   lambda w: w.hann)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
                   layout=None, device=None, pin_memory=False, requires_grad=False):
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                   lambda w: lambda m, **kw: w.general_cosine(m, a=[alpha, beta], **kw))


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad,
                   lambda w: w.blackman)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad,
                   lambda w: w.bartlett)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None,
                  device=None, pin_memory=False, requires_grad=False):
    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad,
                   lambda w: lambda m, **kw: w.kaiser(m, beta=beta, **kw))


def _full_window(window, win_length, n_fft, like):
    mt = _mt()
    if window is None:
        window = mt.ones(win_length, dtype=like.real.dtype if like.dtype.is_complex else
                         like.dtype, device=like.device)
    if window.dim() != 1 or window.shape[0] != win_length:
        raise RuntimeError(f"stft: expected a 1D window tensor of size equal to win_length="
                           f"{win_length}, but got window with size {list(window.shape)}")
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = mt.nn.functional.pad(window, (left, n_fft - win_length - left))
    return window


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
         align_to_window=None):
    """The short-time Fourier transform: (freq, frames) per signal (see the module)."""
    mt = _mt()
    if window is None:
        warnings.warn("A window was not provided. A rectangular window will be applied,which is "
                      "known to cause spectral leakage. Other windows such as torch.hann_window "
                      "or torch.hamming_window are recommended to reduce spectral leakage.To "
                      "suppress this warning and use a rectangular window, explicitly set "
                      "`window=torch.ones(n_fft, device=<device>)`.", UserWarning, stacklevel=2)
    if return_complex is None:
        if not input.dtype.is_complex and (window is None or not window.dtype.is_complex):
            raise RuntimeError("stft requires the return_complex parameter be given for real "
                               "inputs, and will further require that return_complex=True in a "
                               "future PyTorch release.")
        return_complex = True
    elif not return_complex:
        warnings.warn("stft with return_complex=False is deprecated. In a future pytorch "
                      "release, stft will return complex tensors for all inputs, and "
                      "return_complex=False will raise an error.\nNote: you can still call "
                      "torch.view_as_real on the complex output to recover the old return "
                      "format.", UserWarning, stacklevel=2)
    if input.dim() not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got {input.dim()}D tensor")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    x = input if input.dim() == 2 else input.unsqueeze(0)
    if center:
        p = n_fft // 2
        x = mt.nn.functional.pad(x.unsqueeze(1), (p, p), mode=pad_mode).squeeze(1)
    length = x.shape[-1]
    if not 0 < n_fft <= length:
        raise RuntimeError(f"stft: expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop_length <= 0:
        raise RuntimeError(f"stft: expected hop_length > 0, but got hop_length={hop_length}")
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"stft: expected 0 < win_length <= n_fft, but got "
                           f"win_length={win_length}")
    w = _full_window(window, win_length, n_fft, x)
    frames = x.unfold(-1, n_fft, hop_length) * w          # (batch, frames, n_fft)
    if onesided is None:
        onesided = not (frames.dtype.is_complex or w.dtype.is_complex)
    if onesided and frames.dtype.is_complex:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    norm = "ortho" if normalized else "backward"
    spec = mt.fft.rfft(frames, dim=-1, norm=norm) if onesided else \
        mt.fft.fft(frames, dim=-1, norm=norm)
    spec = spec.transpose(-1, -2)                         # (batch, freq, frames)
    if input.dim() == 1:
        spec = spec.squeeze(0)
    return spec if return_complex else mt.view_as_real(spec)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    """The inverse of stft, by overlap-add of the inverse transforms of the frames divided by
    the summed squared window."""
    mt = _mt()
    if window is None:
        warnings.warn("A window was not provided. A rectangular window will be applied.Please "
                      "provide the same window used by stft to make the inversion lossless.To "
                      "suppress this warning and use a rectangular window, explicitly set "
                      "`window=torch.ones(n_fft, device=<device>)`.", UserWarning, stacklevel=2)
    if not input.dtype.is_complex:
        raise RuntimeError("istft requires a complex-valued input tensor.")
    if input.dim() not in (2, 3):
        raise RuntimeError(f"istft: expected a tensor with 2 or 3 dimensions of complex, "
                           f"but got {input.dim()}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    spec = input if input.dim() == 3 else input.unsqueeze(0)   # (batch, freq, frames)
    if onesided is None:
        onesided = spec.shape[-2] != n_fft
    want = n_fft // 2 + 1 if onesided else n_fft
    if spec.shape[-2] != want:
        raise RuntimeError(f"istft: expected the frequency dimension (3rd to the last) of the "
                           f"input tensor to match n_fft / 2 + 1 when onesided=True, but got "
                           f"{spec.shape[-2]}" if onesided else
                           f"istft: expected the frequency dimension (3rd to the last) of the "
                           f"input tensor to match n_fft when onesided=False, but got "
                           f"{spec.shape[-2]}")
    w = _full_window(window, win_length, n_fft, spec.real)
    norm = "ortho" if normalized else "backward"
    spec = spec.transpose(-1, -2)                          # (batch, frames, freq)
    if onesided:
        if return_complex:
            raise RuntimeError("cannot have onesided output if window or input is complex")
        frames = mt.fft.irfft(spec, n=n_fft, dim=-1, norm=norm)
    else:
        frames = mt.fft.ifft(spec, n=n_fft, dim=-1, norm=norm)
        if not return_complex:
            frames = frames.real
    frames = frames * w
    n_frames = frames.shape[-2]
    total = n_fft + hop_length * (n_frames - 1)
    fold = mt.nn.functional.fold

    def overlap_add(f):          # (batch, frames, n_fft) -> (batch, total)
        cols = f.transpose(-1, -2)                         # (batch, n_fft, frames)
        return fold(cols, (1, total), (1, n_fft), stride=(1, hop_length)).reshape(f.shape[0], total)
    if frames.dtype.is_complex:
        y = mt.complex(overlap_add(frames.real), overlap_add(frames.imag))
    else:
        y = overlap_add(frames)
    env = overlap_add((w.abs() ** 2).expand(1, n_frames, n_fft)).reshape(total)
    start = n_fft // 2 if center else 0
    end = total - (n_fft // 2 if center else 0)
    if length is not None:
        end = start + length
    y = y[..., start:min(end, total)]
    env = env[start:min(end, total)]
    if bool((env.abs() < 1e-11).any()):
        raise RuntimeError("istft: window overlap add min: the window's squares do not overlap "
                           "enough to invert (nonzero overlap add everywhere is required)")
    y = y / env
    if length is not None and y.shape[-1] < length:
        y = mt.nn.functional.pad(y, (0, length - y.shape[-1]))
    return y.squeeze(0) if input.dim() == 2 else y
