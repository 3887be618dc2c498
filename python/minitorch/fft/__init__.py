"""minitorch.fft: discrete Fourier transforms, as torch.fft.

Every transform is made of the three primitives of Note [FFT primitives] (minitorch._fft_c2c,
_fft_r2c, _fft_c2r, which carry the derivatives), after the input is cut or zero-padded to the
requested sizes with recorded ops.  norm: "backward" (default) scales the inverse transforms
by 1/n, "forward" the forward ones, "ortho" both by 1/sqrt(n).  Integer and bool inputs are
transformed as the default float dtype; real inputs of the complex transforms as complex."""
import minitorch
from minitorch import _C

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]


def _normalization(norm, forward):
    """torch's norm string -> the primitives' scaling (0 none, 1 1/sqrt(n), 2 1/n)."""
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "forward":
        return 2 if forward else 0
    if norm == "ortho":
        return 1
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _dual(norm):
    return {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}.get(
        norm, norm)


def _float_input(x):
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"fft: expected a Tensor, got {type(x).__name__}")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        x = x.to(minitorch.get_default_dtype())
    return x


def _as_complex(x):
    x = _float_input(x)
    if x.dtype.is_complex:
        return x
    if x.dtype in (_C.float16, _C.bfloat16):
        name = "Half" if x.dtype is _C.float16 else "BFloat16"
        raise NotImplementedError(f"Unsupported dtype {name}")
    return x.to(_C.complex128 if x.dtype is _C.float64 else _C.complex64)


def _wrap(d, nd):
    if not -max(nd, 1) <= d < max(nd, 1) or nd == 0:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(nd, 1)}, "
                         f"{max(nd, 1) - 1}], but got {d})")
    return d % nd


def _resize(x, dim, n):
    """x cut or zero-padded to n points along dim."""
    size = x.shape[dim]
    if n == size:
        return x
    if n < size:
        return x.narrow(dim, 0, n)
    pad = list(x.shape)
    pad[dim] = n - size
    return minitorch.cat([x, x.new_zeros(pad)], dim=dim)


def _check_n(n):
    if n is not None and n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _dims_and_sizes(x, s, dim, default_all=True):
    """(dims, sizes) of an n-dimensional transform, as torch resolves s and dim."""
    nd = x.dim()
    if dim is not None and not isinstance(dim, (list, tuple)):
        dim = [dim]
    if s is not None and not isinstance(s, (list, tuple)):
        s = [s]
    if s is not None and dim is not None and len(s) != len(dim):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    if dim is None:
        if s is not None:
            if len(s) > nd:
                raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has "
                                   f"{nd} dimensions.")
            dim = list(range(nd - len(s), nd))
        else:
            dim = list(range(nd)) if default_all else [nd - 1]
    dim = [_wrap(d, nd) for d in dim]
    if len(set(dim)) != len(dim):
        raise RuntimeError("FFT dims must be unique")
    sizes = [x.shape[d] if s is None or s[i] == -1 else s[i] for i, d in enumerate(dim)]
    for n in sizes:
        _check_n(n)
    return dim, sizes


def _c2c_n(x, s, dim, norm, forward, default_all=True):
    x = _as_complex(x)
    dims, sizes = _dims_and_sizes(x, s, dim, default_all)
    for d, n in zip(dims, sizes):
        x = _resize(x, d, n)
    return minitorch._fft_c2c(x, dims, _normalization(norm, forward), forward)


def _r2c_n(x, s, dim, norm, forward, what, default_all=True):
    x = _float_input(x)
    if x.dtype.is_complex:
        raise TypeError(f"{what} expects a real input tensor, but got {_type_name(x.dtype)}")
    dims, sizes = _dims_and_sizes(x, s, dim, default_all)
    for d, n in zip(dims, sizes):
        x = _resize(x, d, n)
    return minitorch._fft_r2c(x, dims, _normalization(norm, forward), True)


def _c2r_n(x, s, dim, norm, forward, default_all=True):
    x = _as_complex(x)
    dims, sizes = _dims_and_sizes(x, s, dim, default_all)
    if s is None or s[-1] == -1:
        sizes[-1] = 2 * (x.shape[dims[-1]] - 1)
    last = sizes[-1]
    _check_n(last)
    for d, n in zip(dims[:-1], sizes[:-1]):
        x = _resize(x, d, n)
    x = _resize(x, dims[-1], last // 2 + 1)
    return minitorch._fft_c2r(x, dims, _normalization(norm, forward), last)


def _type_name(dtype):
    from .._reductions import _scalar_type_name
    return _scalar_type_name(dtype)


# ---- one dimension -----------------------------------------------------------------------

def fft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-dimensional discrete Fourier transform along dim (n points)."""
    return _out(_c2c_n(input, None if n is None else [n], [dim], norm, True), out)


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of fft."""
    return _out(_c2c_n(input, None if n is None else [n], [dim], norm, False), out)


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    """fft of a real input, its n // 2 + 1 non-redundant outputs."""
    return _out(_r2c_n(input, None if n is None else [n], [dim], norm, True, "rfft"), out)


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of rfft: n real points (default 2 (m - 1)) from m outputs of rfft."""
    return _out(_c2r_n(input, None if n is None else [n], [dim], norm, False), out)


def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The fft of a Hermitian-symmetric signal given by its first half: real output."""
    return _out(irfft(_as_complex(input).conj(), n, dim, _dual(norm)), out)


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of hfft: the first half of the ifft of a real signal."""
    return _out(rfft(input, n, dim, _dual(norm)).conj(), out)


# ---- two and n dimensions -----------------------------------------------------------------

def fftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_c2c_n(input, s, dim, norm, True), out)


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_c2c_n(input, s, dim, norm, False), out)


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_r2c_n(input, s, dim, norm, True, "rfftn"), out)


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_c2r_n(input, s, dim, norm, False), out)


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(irfftn(_as_complex(input).conj(), s, dim, _dual(norm)), out)


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(rfftn(input, s, dim, _dual(norm)).conj(), out)


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return fftn(input, s, dim, norm, out=out)


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return ifftn(input, s, dim, norm, out=out)


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return rfftn(input, s, dim, norm, out=out)


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return irfftn(input, s, dim, norm, out=out)


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return hfftn(input, s, dim, norm, out=out)


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return ihfftn(input, s, dim, norm, out=out)


def _out(result, out):
    if out is None:
        return result
    if out.dtype != result.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {result.dtype}, but got "
                           f"{out.dtype} instead")
    out.resize_(result.shape)
    out.copy_(result)
    return out


# ---- frequencies and shifts -----------------------------------------------------------------

def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an n-point fft: [0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1]
    / (d n)."""
    k = minitorch.arange(n, dtype=minitorch.int64)
    k = minitorch.where(k <= (n - 1) // 2, k, k - n)
    r = (k.to(dtype or minitorch.get_default_dtype()) / (d * n)).to(device=device)
    return _out(r.requires_grad_(requires_grad), out)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of rfft: [0, 1, ..., n // 2] / (d n)."""
    r = (minitorch.arange(n // 2 + 1, dtype=dtype or minitorch.get_default_dtype()) / (d * n))
    return _out(r.to(device=device).requires_grad_(requires_grad), out)


def _shift(input, dim, back):
    nd = input.dim()
    dims = list(range(nd)) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    dims = [_wrap(d, nd) for d in dims]
    shifts = [(-(input.shape[d] // 2) if back else input.shape[d] // 2) for d in dims]
    return minitorch.roll(input, shifts, dims)


def fftshift(input, dim=None):
    """Moves the zero frequency to the middle (roll by n // 2 along dim, default all)."""
    return _shift(input, dim, False)


def ifftshift(input, dim=None):
    """The inverse of fftshift."""
    return _shift(input, dim, True)
