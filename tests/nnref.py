"""Shared helpers of the nn tests whose expected values were computed with PyTorch 2.15 and
written into the test files (their REF dicts): deterministic float64 inputs, a case's output
and gradients, and the comparison with a REF entry.

A test file defines CASES = {name: fn(T, F, N)} written for any torch-compatible library
(T the package, F its nn.functional, N its nn) returning a tuple of tensors and plain values;
REF[name] holds what PyTorch returned, as flatten() writes it.  (The same functions run under
PyTorch produced REF.)"""
import numpy as np

import minitorch


def inp(shape, seed=0, lo=-1.0, hi=1.0):
    """A float64 array of `shape` with values spread over [lo, hi], fixed by seed."""
    n = int(np.prod(shape)) if len(shape) else 1
    v = np.sin(np.arange(n) * 0.7371 + seed * 1.3 + 0.1) * (hi - lo) / 2 + (hi + lo) / 2
    return v.reshape(shape)


def t64(T, a):
    return T.from_numpy(np.array(a, dtype=np.float64))


def grads(T, f, *arrays, seed=7):
    """(f(*xs), d<f, g>/dx for each x): xs float64 tensors of the arrays that require grad, g
    an inp of f's output shape; f may return a tuple (its first item is differentiated)."""
    xs = [t64(T, a).requires_grad_() for a in arrays]
    out = f(*xs)
    first = out[0] if isinstance(out, tuple) else out
    g = t64(T, inp(tuple(first.shape), seed))
    gs = T.autograd.grad(first, xs, g, allow_unused=True)
    return (first,) + tuple(gs)


def flatten(outs):
    """A case's results as plain Python values: a tensor as ("tensor", dtype name, shape,
    flat values), other values as they are (tuples and lists item by item)."""
    if isinstance(outs, (tuple, list)):
        return [flatten(o) for o in outs]
    if hasattr(outs, "detach") and hasattr(outs, "shape"):
        t = outs.detach()
        name = str(t.dtype).rsplit(".", 1)[-1]
        vals = t.double().reshape(-1).tolist() if t.dtype.is_floating_point else t.reshape(-1).tolist()
        return ["tensor", name, list(t.shape), vals]
    if outs is None:
        return None
    return outs


def check(outs, ref, rtol=1e-9, atol=1e-11, path="result"):
    """Asserts that a case's results (minitorch) equal the REF entry."""
    got = flatten(outs) if path == "result" else outs
    if isinstance(ref, list) and len(ref) == 4 and ref[0] == "tensor":
        assert isinstance(got, list) and len(got) == 4 and got[0] == "tensor", f"{path}: {got!r}"
        assert got[1] == ref[1], f"{path}: dtype {got[1]} != {ref[1]}"
        assert got[2] == ref[2], f"{path}: shape {got[2]} != {ref[2]}"
        np.testing.assert_allclose(np.array(got[3], dtype=np.float64),
                                   np.array(ref[3], dtype=np.float64), rtol=rtol, atol=atol,
                                   err_msg=path)
        return
    if isinstance(ref, list):
        assert isinstance(got, list) and len(got) == len(ref), f"{path}: {got!r} != {ref!r}"
        for i, (g, r) in enumerate(zip(got, ref)):
            check(g, r, rtol, atol, f"{path}[{i}]")
        return
    if isinstance(ref, float) and isinstance(got, float):
        assert got == ref or abs(got - ref) <= atol + rtol * abs(ref) or (got != got and ref != ref), \
            f"{path}: {got} != {ref}"
        return
    assert got == ref, f"{path}: {got!r} != {ref!r}"


def run_case(cases, ref, name, **tol):
    check(cases[name](minitorch, minitorch.nn.functional, minitorch.nn), ref[name], **tol)
