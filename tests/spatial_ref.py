"""Shared helpers of the spatial-op tests (convolution, pooling, resampling, memory formats):
deterministic float64 inputs, and fingerprints of results that the tests compare with the
fingerprints torch 2.15 gave for the same inputs (each test file keeps them in REF, at its end).

A case is a function case(lib) -> {name: tensor} that builds its inputs with det() (through the
library it is given, minitorch or torch) and returns the tensors to compare: outputs and input
gradients.  fingerprint() reduces a tensor to (shape, weighted sum, sum of squares, first values):
the weights come from det() too, so any wrong element changes the weighted sum.  Running a test
file as a script with torch importable prints its REF again (capture())."""
import math

import numpy as np

TOL = 1e-9


def det(shape, seed=0):
    """A deterministic float64 array of `shape`, values in about [-2, 2], no simple pattern."""
    n = int(np.prod(shape)) if len(shape) else 1
    i = np.arange(n, dtype=np.float64)
    a = np.sin(0.7 * i + 1.3 * seed + 0.1) * 1.5 + np.cos(0.113 * i * (seed % 7 + 1) + seed) * 0.5
    return a.reshape(shape)


def tensor(lib, shape, seed=0, requires_grad=True):
    t = lib.from_numpy(det(shape, seed).copy())
    return t.requires_grad_() if requires_grad else t


def backward(lib, y, seed=7):
    """y.backward() with a deterministic output gradient (same in both libraries)."""
    y.backward(lib.from_numpy(det(tuple(y.shape), seed).copy()))


def fingerprint(t):
    """(shape, sum(t * det), sum(t ** 2), the first 4 values) of a float64 tensor."""
    a = t.detach().numpy().astype(np.float64)
    w = det(a.shape, 99) if a.size else a
    flat = a.reshape(-1)[:4]
    return [list(a.shape), float((a * w).sum()), float((a * a).sum()), [float(v) for v in flat]]


def run(case, lib):
    return {k: fingerprint(v) for k, v in case(lib).items()}


def assert_matches(got, want, tol=TOL, name=""):
    assert set(got) == set(want), (name, sorted(got), sorted(want))
    for k in want:
        g, w = got[k], want[k]
        assert g[0] == w[0], (name, k, "shape", g[0], w[0])
        scale = max(1.0, math.sqrt(abs(w[2])))
        for a, b in zip(g[1:3], w[1:3]):
            assert abs(a - b) <= tol * scale * max(1.0, math.sqrt(abs(b))), (name, k, g, w)
        for a, b in zip(g[3], w[3]):
            assert abs(a - b) <= tol * max(1.0, abs(b)), (name, k, g[3], w[3])


def capture(cases, varname="REF"):
    """Prints `varname = {...}` with torch's fingerprints of the cases (run with torch)."""
    import torch
    torch.set_default_dtype(torch.float64)
    out = {name: run(case, torch) for name, case in cases.items()}
    lines = [f"{varname} = {{"]
    for name, fp in out.items():
        lines.append(f"    {name!r}: {{")
        for k, v in fp.items():
            lines.append(f"        {k!r}: {v!r},")
        lines.append("    },")
    lines.append("}")
    print("\n".join(lines))
