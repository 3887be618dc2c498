"""minitorch.special: torch.special's functions.  The special functions themselves are C
kernels (aten_lite/special_math.h, declared by the '_special_<name>' rows and the digamma,
i0, polygamma, igamma, igammac rows of the op table); the others are the top-level ops under
their special names (expit is sigmoid, gammaln is lgamma, psi is digamma, ...)."""
from . import _C

__all__ = [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
    "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma",
    "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc",
    "gammaln", "hermite_polynomial_h", "hermite_polynomial_he", "i0", "i0e", "i1", "i1e",
    "laguerre_polynomial_l", "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax",
    "logit", "logsumexp", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
    "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round",
    "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "sinc", "softmax",
    "spherical_bessel_j0", "xlog1py", "xlogy", "zeta",
]


def _mt():
    import minitorch
    return minitorch


# ---- the special functions' own kernels ----------------------------------------------------
airy_ai = _C._special_airy_ai
bessel_j0 = _C._special_bessel_j0
bessel_j1 = _C._special_bessel_j1
bessel_y0 = _C._special_bessel_y0
bessel_y1 = _C._special_bessel_y1
modified_bessel_i0 = _C._special_modified_bessel_i0
modified_bessel_i1 = _C._special_modified_bessel_i1
modified_bessel_k0 = _C._special_modified_bessel_k0
modified_bessel_k1 = _C._special_modified_bessel_k1
scaled_modified_bessel_k0 = _C._special_scaled_modified_bessel_k0
scaled_modified_bessel_k1 = _C._special_scaled_modified_bessel_k1
spherical_bessel_j0 = _C._special_spherical_bessel_j0
i0e = _C._special_i0e
i1 = _C._special_i1
i1e = _C._special_i1e
erfcx = _C._special_erfcx
ndtr = _C._special_ndtr
ndtri = _C._special_ndtri
log_ndtr = _C._special_log_ndtr
entr = _C._special_entr
zeta = _C._special_zeta
xlog1py = _C._special_xlog1py
chebyshev_polynomial_t = _C._special_chebyshev_polynomial_t
chebyshev_polynomial_u = _C._special_chebyshev_polynomial_u
chebyshev_polynomial_v = _C._special_chebyshev_polynomial_v
chebyshev_polynomial_w = _C._special_chebyshev_polynomial_w
shifted_chebyshev_polynomial_t = _C._special_shifted_chebyshev_polynomial_t
shifted_chebyshev_polynomial_u = _C._special_shifted_chebyshev_polynomial_u
shifted_chebyshev_polynomial_v = _C._special_shifted_chebyshev_polynomial_v
shifted_chebyshev_polynomial_w = _C._special_shifted_chebyshev_polynomial_w
hermite_polynomial_h = _C._special_hermite_polynomial_h
hermite_polynomial_he = _C._special_hermite_polynomial_he
laguerre_polynomial_l = _C._special_laguerre_polynomial_l
legendre_polynomial_p = _C._special_legendre_polynomial_p


# ---- the top-level ops under their special names (the recorded forms of minitorch.<op>) ----
def digamma(input, *, out=None):
    return _mt().digamma(input, out=out)


psi = digamma


def polygamma(n, input, *, out=None):
    return _mt().polygamma(n, input, out=out)


def multigammaln(input, p, *, out=None):
    return _mt().mvlgamma(input, p, out=out)


def gammaln(input, *, out=None):
    return _mt().lgamma(input, out=out)


def gammainc(input, other, *, out=None):
    return _mt().igamma(input, other, out=out)


def gammaincc(input, other, *, out=None):
    return _mt().igammac(input, other, out=out)


def i0(input, *, out=None):
    return _mt().i0(input, out=out)


def erf(input, *, out=None):
    return _mt().erf(input, out=out)


def erfc(input, *, out=None):
    return _mt().erfc(input, out=out)


def erfinv(input, *, out=None):
    return _mt().erfinv(input, out=out)


def exp2(input, *, out=None):
    return _mt().exp2(input, out=out)


def expm1(input, *, out=None):
    return _mt().expm1(input, out=out)


def log1p(input, *, out=None):
    return _mt().log1p(input, out=out)


def expit(input, *, out=None):
    return _mt().sigmoid(input, out=out)


def sinc(input, *, out=None):
    return _mt().sinc(input, out=out)


def xlogy(input, other, *, out=None):
    return _mt().xlogy(input, other, out=out)


def _not_for_complex(input, kernel):
    if isinstance(input, _C.TensorBase) and input.dtype.is_complex:
        from ._reductions import _scalar_type_name
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{_scalar_type_name(input.dtype)}'")


def logit(input, eps=None, *, out=None):
    _not_for_complex(input, "logit_cpu")
    return _mt().logit(input, eps, out=out)


def round(input, *, decimals=0, out=None):
    """torch.special.round: floating inputs only (torch.round also copies integers)."""
    if isinstance(input, _C.TensorBase) and not input.dtype.is_floating_point:
        from ._reductions import _scalar_type_name
        raise NotImplementedError(f"\"round_vml_cpu\" not implemented for "
                                  f"'{_scalar_type_name(input.dtype)}'")
    return _mt().round(input, decimals=decimals, out=out)


def logsumexp(input, dim, keepdim=False, *, out=None):
    r = _mt().logsumexp(input, dim, keepdim)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def softmax(input, dim, *, dtype=None):
    return _mt().softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return _mt().log_softmax(input, dim, dtype=dtype)
