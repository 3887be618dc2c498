"""Shared helpers of the minitorch.linalg tests: the dtypes LAPACK serves, random (tensor,
ndarray) matrices of them, tolerances, and a finite-difference check of complex gradients
(minitorch's gradcheck perturbs real inputs only)."""
import numpy as np

import minitorch as torch

LA_DTYPES = [torch.float32, torch.float64, torch.complex64, torch.complex128]
NP_OF = {torch.float32: np.float32, torch.float64: np.float64, torch.complex64: np.complex64,
         torch.complex128: np.complex128}


def tol(dt):
    """A relative tolerance for results of well-conditioned problems in dtype dt."""
    return 2e-4 if dt in (torch.float32, torch.complex64) else 1e-10


def rand(rng, shape, dt):
    """(tensor, ndarray) with the same standard normal values (complex: both parts)."""
    a = rng.standard_normal(shape)
    if dt.is_complex:
        a = a + 1j * rng.standard_normal(shape)
    a = np.asarray(a, dtype=NP_OF[dt])
    return torch.from_numpy(a.copy()), a


def wellcond(rng, shape, dt):
    """Random matrices plus n times the identity (far from singular)."""
    a = rng.standard_normal(shape) + shape[-1] * np.eye(shape[-1])
    if dt.is_complex:
        a = a + 1j * rng.standard_normal(shape)
    a = np.asarray(a, dtype=NP_OF[dt])
    return torch.from_numpy(a.copy()), a


def hpd(rng, shape, dt):
    """Random Hermitian positive-definite matrices A A^H + n I."""
    _, a = rand(rng, shape, dt)
    h = a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])
    h = np.asarray(h, dtype=NP_OF[dt])
    return torch.from_numpy(h.copy()), h


def close(t, ref, dt, scale=1.0):
    """t (a tensor) equals ref (an array) to dt's tolerance, relative to ref's size."""
    x = t.resolve_conj().numpy() if isinstance(t, torch.Tensor) else np.asarray(t)
    ref = np.asarray(ref)
    assert x.shape == ref.shape, (x.shape, ref.shape)
    if ref.size == 0:
        return
    bound = tol(dt) * scale * max(1.0, float(np.abs(ref).max()))
    err = float(np.abs(x - ref).max())
    assert err <= bound, f"max error {err} > {bound}"


def complex_gradcheck(f, inputs, eps=1e-6, rtol=1e-5, atol=1e-7, seed=0):
    """The gradient autograd gives of L = sum(Re(conj(W) * f(inputs))) (W random, one per
    output) matches central differences along the real and the imaginary part of every input
    element (torch's convention: grad = dL/dRe + i dL/dIm).  f must be gauge-invariant."""
    rng = np.random.default_rng(seed)
    xs = [x.detach().clone().requires_grad_() for x in inputs]
    outs = f(*xs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    ws = []
    for o in outs:
        w = rng.standard_normal(tuple(o.shape))
        if o.dtype.is_complex:
            w = w + 1j * rng.standard_normal(tuple(o.shape))
        ws.append(torch.tensor(w, dtype=o.dtype))

    def loss(*args):
        os_ = f(*args)
        os_ = os_ if isinstance(os_, tuple) else (os_,)
        total = 0
        for o, w in zip(os_, ws):
            total = total + ((w.conj() * o).real.sum() if o.dtype.is_complex else (w * o).sum())
        return total

    grads = torch.autograd.grad(loss(*xs), xs, allow_unused=True)
    for i, x in enumerate(inputs):
        base = x.detach().numpy().copy()
        num = np.zeros(base.shape, dtype=np.complex128 if x.dtype.is_complex else np.float64)
        for k in np.ndindex(base.shape):
            parts = [1, 1j] if x.dtype.is_complex else [1]
            for d in parts:
                vals = []
                for sgn in (1, -1):
                    b = base.copy()
                    b[k] += sgn * eps * d
                    args = [torch.from_numpy(b) if j == i else inputs[j].detach()
                            for j in range(len(inputs))]
                    with torch.no_grad():
                        vals.append(float(loss(*args)))
                num[k] += d * (vals[0] - vals[1]) / (2 * eps)
        got = grads[i].numpy() if grads[i] is not None else np.zeros_like(num)
        err = np.abs(got - num).max() if num.size else 0.0
        assert err <= atol + rtol * max(1.0, np.abs(num).max()), \
            f"input {i}: analytical\n{got}\nnumerical\n{num}"
    return True
