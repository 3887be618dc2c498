"""Parametrizations built on ``nn.utils.parametrize``, as ``torch.nn.utils.parametrizations``:
``orthogonal`` (a matrix kept orthogonal or unitary), ``weight_norm`` (weight = g v / ||v||)
and ``spectral_norm`` (weight divided by its largest singular value, estimated by power
iteration)."""
from enum import Enum, auto

import minitorch
from minitorch import Tensor

from ... import _dense_linalg
from .. import functional as F
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


# ---- orthogonal -------------------------------------------------------------------------------

def _is_orthogonal(Q, eps=None):
    n, k = Q.size(-2), Q.size(-1)
    eye = minitorch.eye(k, dtype=Q.dtype, device=Q.device)
    eps = 10.0 * n * minitorch.finfo(Q.dtype).eps
    return minitorch.allclose(Q.mH @ Q, eye, atol=eps)


def _make_orthogonal(A):
    """The Q of A's QR decomposition with R's diagonal made nonnegative."""
    if A.is_complex():
        raise NotImplementedError("orthogonal: complex weights need a complex QR decomposition "
                                  "(geqrf, linalg.householder_product), which minitorch.linalg "
                                  "does not have yet")
    return _dense_linalg.orthonormal_q(A)


def _cayley(A):
    """(I - A/2)^-1 (I + A/2) for skew-symmetric A: solved through the normal equations, as
    M = I - A/2 has singular values >= 1 (minitorch.linalg.solve should replace this)."""
    n = A.size(-1)
    eye = minitorch.eye(n, dtype=A.dtype, device=A.device)
    M = minitorch.add(eye, A, alpha=-0.5)
    B = minitorch.add(eye, A, alpha=0.5)
    return _dense_linalg.spd_solve(M.mT @ M, M.mT @ B)


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """Maps unconstrained matrices to orthogonal ones by the matrix exponential or the Cayley
    map of their skew-symmetric part, or by a product of Householder reflections; with the
    trivialization the result is multiplied onto an orthogonal ``base`` (so that the
    unconstrained parameter starts at a known point)."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        # here n >= k and X is tall
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:
                # embed the tall matrix in a square one
                X = minitorch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)],
                                  dim=-1)
            A = X - X.mH
            if A.is_complex():
                raise NotImplementedError("orthogonal: complex weights need a complex matrix "
                                          "exponential / solve, which minitorch.linalg does "
                                          "not have yet")
            Q = _dense_linalg.matrix_exp(A) if self.orthogonal_map == _OrthMaps.matrix_exp \
                else _cayley(A)
            if n != k:
                Q = Q[..., :k]
        else:
            # the Householder vectors of the strictly lower part, tau making each H_i a
            # reflection; the signs of the diagonal choose the orientation
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _dense_linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)

        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q):
        with minitorch.no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n

        if not hasattr(self, "base"):
            # without the trivialization only the Householder map can be assigned to: its
            # unconstrained matrix is the one geqrf returns, with the signs on the diagonal
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError("It is not possible to assign to the matrix "
                                          "exponential or the Cayley parametrizations when "
                                          "use_trivialization=False.")
            A, tau = _dense_linalg.geqrf(Q)
            diag = A.diagonal(dim1=-2, dim2=-1)
            signs = diag.sign()
            diag.copy_(minitorch.where(tau == 0.0, -signs, signs))
            return A.mT if transpose else A

        # the base: Q itself when orthogonal, else the Q of its QR decomposition (completed to
        # a square matrix with random columns when Q is tall)
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:
            N = minitorch.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(minitorch.cat([Q, N], dim=-1))
        self.base = Q
        # the unconstrained matrix that maps to the identity: -I (for all three maps)
        neg_Id = minitorch.zeros_like(Q_init)
        neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_Id


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Keeps module.<name> (a matrix or batch of matrices) orthogonal (unitary): ``matrix_exp``
    (default for square and complex matrices), ``cayley`` or ``householder`` (default for
    other real matrices).  Complex weights raise NotImplementedError (they need complex QR,
    matrix exponential and solve, which minitorch.linalg lacks)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. Got a tensor of "
                         f"{weight.ndim} dimensions.")
    if weight.is_complex():
        raise NotImplementedError("orthogonal: complex (unitary) weights need complex QR, matrix "
                                  "exponential and solve (geqrf, linalg.householder_product, "
                                  "linalg.matrix_exp, linalg.solve), which minitorch.linalg "
                                  "does not have yet")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1) or weight.is_complex()
                          else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


# ---- weight_norm --------------------------------------------------------------------------------

class _WeightNorm(Module):
    """(g, v) -> g v / ||v|| (the norm over every dimension but dim)."""

    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return minitorch._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        weight_g = minitorch.norm_except_dim(weight, 2, self.dim)
        return weight_g, weight


def weight_norm(module, name="weight", dim=0):
    """Reparametrizes module.<name> as g v / ||v|| with ``parametrizations.<name>.original0``
    = g (the norms) and ``original1`` = v; state dicts of the old ``nn.utils.weight_norm``
    (``<name>_g``, ``<name>_v``) load into it."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def _weight_norm_compat_hook(state_dict, prefix, local_metadata, strict, missing_keys,
                                 unexpected_keys, error_msgs):
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


# ---- spectral_norm ------------------------------------------------------------------------------

class _SpectralNorm(Module):
    """weight -> weight / sigma, sigma the largest singular value of weight (as a matrix of
    its `dim` against the rest), estimated with the vectors ``_u`` and ``_v`` that one step of
    power iteration refines on each training-mode call."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, "
                             f"{ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            # start from a good estimate
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if weight.ndim <= 1:
            raise AssertionError(f"Expected weight to have more than 1 dimension, got "
                                 f"{weight.ndim}")
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        # updates _u and _v in place (no gradient flows through them)
        with minitorch.no_grad():
            for _ in range(n_power_iterations):
                self._u = F.normalize(minitorch.mv(weight_mat, self._v), dim=0, eps=self.eps,
                                      out=self._u)
                self._v = F.normalize(minitorch.mv(weight_mat.H, self._u), dim=0, eps=self.eps,
                                      out=self._v)

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        # copies, so that a later power iteration does not change what backward reads
        u = self._u.clone(memory_format=minitorch.contiguous_format)
        v = self._v.clone(memory_format=minitorch.contiguous_format)
        sigma = minitorch.vdot(u, minitorch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def _conv_transpose_classes():
    from minitorch import nn
    return tuple(getattr(nn, name) for name in
                 ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d") if hasattr(nn, name))


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Reparametrizes module.<name> as weight / sigma(weight) (see _SpectralNorm); dim
    defaults to 1 for transposed convolutions, else 0."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, _conv_transpose_classes()) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
