"""Reductions against NumPy: sum/prod/mean, amax/amin, max/min with dim, argmax/argmin (NaN,
ties), all/any, var/std, norm, logsumexp, cumsum/cumprod -- over all dims, an int dim, tuples,
negative dims, keepdim, non-contiguous inputs, every dtype, chunked sizes -- and bad inputs.

Tolerances: integer, bool, max/min/arg results are exact.  Float results are compared with a
float64 NumPy reference, relative tolerance RTOL[dtype] and an absolute tolerance scaled by the
reference's magnitude (sum of |x|), which bounds the rounding error of any summation order."""
import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import array_shapes

import minitorch as torch

B, U8, I8, I16, I32, I64 = torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64
F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
DTYPES = [B, U8, I8, I16, I32, I64, F16, BF16, F32, F64]
INTS = [U8, I8, I16, I32, I64]
FLOATS = [F16, BF16, F32, F64]
NP = {B: np.bool_, U8: np.uint8, I8: np.int8, I16: np.int16, I32: np.int32, I64: np.int64,
      F16: np.float16, BF16: np.float32, F32: np.float32, F64: np.float64}
RTOL = {F16: 2e-3, BF16: 1.6e-2, F32: 2e-6, F64: 1e-13}
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None)
LAYOUTS = ["contig", "transposed", "strided", "expanded"]


def to_np(t):
    return t.float().numpy() if t.dtype == BF16 else t.numpy()


def rand_values(rng, shape, dt, nan=False):
    shape = tuple(shape)
    if dt == B:
        return rng.random(shape) < 0.6
    if dt in INTS:
        lo = 0 if dt == U8 else -9
        return rng.integers(lo, 10, shape).astype(NP[dt])
    v = rng.uniform(-3, 3, shape)
    if nan and v.size:
        v.reshape(-1)[rng.integers(0, v.size, max(1, v.size // 5))] = np.nan
    return v


def make(values, dt, layout="contig"):
    """minitorch tensor of dtype dt with `values` (rounded to dt) in a layout; returns
    (tensor, the float64/int values it holds)."""
    a = np.asarray(values)
    if layout == "transposed" and a.ndim >= 2:
        perm = tuple(range(a.ndim))[::-1]
        t, _ = make(np.ascontiguousarray(a.transpose(perm)), dt)
        t = t.permute(*perm)
    elif layout == "strided" and a.ndim >= 1:
        big = np.zeros((2 * a.shape[0] + 1,) + a.shape[1:], dtype=a.dtype)
        big[1::2] = a
        t, _ = make(big, dt)
        t = t[1::2]
    elif layout == "expanded" and a.ndim >= 1:
        t, _ = make(a[..., :1], dt)
        t = t.expand(*a.shape)
    elif dt == BF16:
        t = torch.tensor(a.astype(np.float32)).to(BF16)
    else:
        t = torch.from_numpy(np.array(a, dtype=NP[dt]))
    return t, to_np(t)


def check_float(got, want, dt, scale=None):
    assert got.dtype == dt, (got.dtype, dt)
    g = to_np(got).astype(np.float64)
    want = np.asarray(want, dtype=np.float64)
    assert g.shape == want.shape, (g.shape, want.shape)
    scale = np.abs(want) if scale is None else np.asarray(scale, dtype=np.float64)
    tol = RTOL[dt] * (scale + 1e-30) + (1e-300 if dt == F64 else 1e-6)
    with np.errstate(invalid="ignore"):  # inf - inf where both are inf
        bad = ~((np.abs(g - want) <= tol) | (np.isnan(g) & np.isnan(want)) | (g == want))
    assert not bad.any(), (g[bad][:5], want[bad][:5])


def check_exact(got, want, dt):
    assert got.dtype == dt, (got.dtype, dt)
    g = to_np(got)
    want = np.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    np.testing.assert_array_equal(g, want)


def np_dims(dim, ndim):
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    return tuple(d % ndim for d in dim) if ndim else ()


def np_reduce(fn, a, dim, keepdim):
    axes = np_dims(dim, a.ndim)
    return fn(a, axis=axes, keepdims=keepdim) if a.ndim else fn(a)


def sum_out_dtype(dt):
    return dt if dt in FLOATS else I64


# ---- sum / prod / mean / amax / amin / all / any: property tests -----------------------

def dims_strategy():
    @st.composite
    def s(draw):
        shape = draw(array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
        nd = len(shape)
        kind = draw(st.sampled_from(["none", "int", "tuple", "list"]))
        if kind == "none" or nd == 0:
            dim = None if kind != "int" or nd != 0 else draw(st.sampled_from([0, -1]))
        elif kind == "int":
            dim = draw(st.integers(-nd, nd - 1))
        else:
            k = draw(st.integers(1, nd))
            ds = draw(st.permutations(range(nd)))[:k]
            ds = [d - nd if draw(st.booleans()) else d for d in ds]
            dim = tuple(ds) if kind == "tuple" else list(ds)
        return shape, dim, draw(st.booleans())
    return s()


@pytest.mark.parametrize("op", ["sum", "prod", "mean", "amax", "amin", "all", "any"])
def test_reduce_property(op):
    @SETTINGS
    @given(sd=dims_strategy(), dt=st.sampled_from(DTYPES), layout=st.sampled_from(LAYOUTS),
           seed=st.integers(0, 2 ** 31))
    def run(sd, dt, layout, seed):
        shape, dim, keepdim = sd
        if op == "mean" and dt not in FLOATS:
            return
        rng = np.random.default_rng(seed)
        x, xv = make(rand_values(rng, shape, dt, nan=op in ("amax", "amin")), dt, layout)
        args = () if dim is None else (dim,)
        if op in ("amax", "amin") and xv.size == 0:
            empty_dims = [d for d in np_dims(dim, xv.ndim) if xv.shape[d] == 0]
            if dim is None or (isinstance(dim, (list, tuple)) and not dim):
                with pytest.raises(RuntimeError, match="Expected reduction dim to be specified"):
                    getattr(torch, op)(x, *args, keepdim=keepdim)
                return
            if empty_dims:
                with pytest.raises(IndexError, match="to have non-zero size"):
                    getattr(torch, op)(x, *args, keepdim=keepdim)
                return
        got = getattr(torch, op)(x, *args, keepdim=keepdim)
        got_m = getattr(x, op)(*args, keepdim=keepdim)
        if op == "sum":
            want = np_reduce(np.sum, xv.astype(np.float64 if dt in FLOATS else np.int64), dim, keepdim)
            scale = np_reduce(np.sum, np.abs(xv.astype(np.float64)), dim, keepdim)
            if dt in FLOATS:
                check_float(got, want, dt, scale)
            else:
                check_exact(got, want, I64)
        elif op == "prod":
            want = np_reduce(np.prod, xv.astype(np.float64 if dt in FLOATS else np.int64), dim, keepdim)
            if dt in FLOATS:
                check_float(got, want, dt, np.abs(want) * 4)
            else:
                check_exact(got, want, I64)
        elif op == "mean":
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Mean of empty slice"
                want = np_reduce(np.mean, xv.astype(np.float64), dim, keepdim)
                scale = np_reduce(np.mean, np.abs(xv.astype(np.float64)), dim, keepdim)
            check_float(got, want, dt, scale)
        elif op in ("amax", "amin"):
            want = np_reduce(np.max if op == "amax" else np.min, xv, dim, keepdim)
            check_exact(got, want, dt)
        else:
            want = np_reduce(np.all if op == "all" else np.any, xv, dim, keepdim)
            check_exact(got, want, U8 if dt == U8 else B)
        np.testing.assert_array_equal(to_np(got_m), to_np(got))

    run()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_every_dtype_fixed_shapes(dt):
    rng = np.random.default_rng(5)
    for layout in LAYOUTS:
        x, xv = make(rand_values(rng, (6, 5, 4), dt), dt, layout)
        for dim in [None, 0, 1, 2, -1, (0, 2), (2, 0), (-1, -3, 1), [1]]:
            for keepdim in (False, True):
                args = () if dim is None else (dim,)
                s = x.sum(*args, keepdim=keepdim)
                want = np_reduce(np.sum, xv.astype(np.float64 if dt in FLOATS else np.int64), dim, keepdim)
                if dt in FLOATS:
                    check_float(s, want, dt, np_reduce(np.sum, np.abs(xv.astype(np.float64)), dim, keepdim))
                else:
                    check_exact(s, want, I64)
                check_exact(x.amax(*args, keepdim=keepdim), np_reduce(np.max, xv, dim, keepdim), dt)
                check_exact(x.amin(*args, keepdim=keepdim), np_reduce(np.min, xv, dim, keepdim), dt)


def test_sum_prod_dtype_keyword_and_out():
    x = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=I8)
    assert x.sum().dtype == I64 and x.sum().item() == 21
    assert torch.tensor([True, True, False]).sum().item() == 2
    s = x.sum(1, dtype=F64)
    assert s.dtype == F64 and s.tolist() == [6.0, 15.0]
    assert x.prod(0, dtype=F32).tolist() == [4.0, 10.0, 18.0]
    assert torch.sum(x, dim=0, dtype=I16).dtype == I16
    out = torch.empty(2, dtype=I64)
    assert torch.sum(x, 1, out=out) is out and out.tolist() == [6, 15]
    f = torch.empty(())
    torch.sum(x, out=f)
    assert f.item() == 21.0
    big = torch.tensor([100] * 10, dtype=I8)
    assert big.sum().item() == 1000  # accumulates in int64, no int8 overflow
    assert torch.tensor([3] * 41, dtype=I64).prod().item() == int(np.prod(np.full(41, 3, np.int64)))
    with pytest.raises(TypeError):
        x.amax(0, dtype=F32)


def test_empty_reductions():
    e = torch.zeros(0, 3)
    assert e.sum().item() == 0.0 and e.prod().item() == 1.0
    assert e.sum(0).tolist() == [0.0] * 3 and e.prod(0).tolist() == [1.0] * 3
    assert e.sum(1).shape == (0,)
    assert math.isnan(e.mean().item())
    assert all(math.isnan(v) for v in e.mean(0).tolist())
    assert torch.zeros(0, dtype=B).all().item() is True
    assert torch.zeros(0, dtype=B).any().item() is False
    assert e.amax(1).shape == (0,)
    assert e.max(1).values.shape == (0,) and e.max(1).indices.dtype == I64
    assert e.argmin(1).shape == (0,)


# ---- max/min with dim, argmax/argmin ---------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_max_min_with_dim(dt, layout):
    rng = np.random.default_rng(9)
    x, xv = make(rand_values(rng, (5, 6, 3), dt, nan=True), dt, layout)
    for dim in [0, 1, 2, -1, -3]:
        for keepdim in (False, True):
            for name, vf, af in [("max", np.max, np.argmax), ("min", np.min, np.argmin)]:
                r = getattr(torch, name)(x, dim, keepdim)
                values, indices = r
                assert r.values is values and r.indices is indices
                check_exact(values, vf(xv, axis=dim, keepdims=keepdim), dt)
                want_i = af(xv, axis=dim)
                if keepdim:
                    want_i = np.expand_dims(want_i, dim)
                check_exact(indices, want_i, I64)
                if dt == B:
                    with pytest.raises(RuntimeError, match=f'"arg{name}_cpu" not implemented for \'Bool\''):
                        getattr(x, "arg" + name)(dim, keepdim)
                else:
                    check_exact(getattr(x, "arg" + name)(dim, keepdim), want_i, I64)
                check_exact(getattr(x, name)(dim=dim, keepdim=keepdim).indices, want_i, I64)
    # full reductions
    check_exact(x.max(), np.max(xv), dt)
    check_exact(x.min(), np.min(xv), dt)
    if dt != B:
        check_exact(x.argmax(), np.argmax(xv), I64)  # flat index of the row-major order
        check_exact(x.argmin(), np.argmin(xv), I64)


def test_argmax_nan_and_ties():
    n = math.nan
    x = torch.tensor([1.0, n, 3.0, n, 3.0])
    assert x.argmax().item() == 1 and x.argmin().item() == 1
    assert math.isnan(x.max().item()) and math.isnan(x.min().item())
    v, i = x.max(0)
    assert math.isnan(v.item()) and i.item() == 1
    t = torch.tensor([[3, 1, 3], [0, 0, -1]])
    assert t.argmax().item() == 0
    assert t.argmax(1).tolist() == [0, 0]
    assert t.argmin(1).tolist() == [1, 2]
    assert t.argmin(0).tolist() == [1, 1, 1]
    assert t.max(1).indices.tolist() == [0, 0]
    assert torch.tensor([-math.inf, -math.inf]).argmax().item() == 0
    assert torch.tensor([True, True, False]).min(0).indices.item() == 2
    with pytest.raises(RuntimeError, match="\"argmin_cpu\" not implemented for 'Bool'"):
        torch.tensor([True, True, False]).argmin()
    assert t.argmax(keepdim=True).shape == (1, 1)
    assert torch.tensor(5.0).argmax(0).item() == 0
    vals, idx = torch.tensor(5.0).max(0)
    assert vals.item() == 5.0 and idx.item() == 0


def test_max_min_other_and_out():
    a, b = torch.tensor([1.0, 5.0]), torch.tensor([3.0, 2.0])
    assert torch.max(a, b).tolist() == [3.0, 5.0]
    assert torch.min(a, b).tolist() == [1.0, 2.0]
    assert a.max(b).tolist() == [3.0, 5.0]
    vals, idx = torch.empty(2), torch.empty(2, dtype=I64)
    r = torch.max(torch.tensor([[1.0, 4.0], [3.0, 2.0]]), 1, out=(vals, idx))
    assert r.values is vals and vals.tolist() == [4.0, 3.0] and idx.tolist() == [1, 0]


# ---- var / std / norm / logsumexp ---------------------------------------------------------------

@pytest.mark.parametrize("dt", FLOATS, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS[:3])
def test_var_std(dt, layout):
    rng = np.random.default_rng(2)
    x, xv = make(rand_values(rng, (7, 4, 5), dt) + 10, dt, layout)  # offset: tests the two-pass form
    xv = xv.astype(np.float64)
    for dim in [None, 0, -1, (0, 2), [1, 2]]:
        for keepdim in (False, True):
            args = () if dim is None else (dim,)
            axes = np_dims(dim, 3)
            cases = [({}, 1), ({"unbiased": False}, 0), ({"unbiased": True}, 1),
                     ({"correction": 0}, 0), ({"correction": 2}, 2)]
            for kw, ddof in cases:
                want = np.var(xv, axis=axes, ddof=ddof, keepdims=keepdim)
                check_float(torch.var(x, *args, keepdim=keepdim, **kw), want, dt, want * 8)
                check_float(x.std(*args, keepdim=keepdim, **kw), np.sqrt(want), dt, np.sqrt(want) * 8)
    assert torch.var(x, False).shape == ()  # legacy var(input, unbiased)
    v, m = torch.var_mean(x, 1)
    check_float(v, np.var(xv, axis=1, ddof=1), dt, np.var(xv, axis=1) * 8)
    check_float(m, np.mean(xv, axis=1), dt)
    s, m = torch.std_mean(x, 1, correction=0)
    check_float(s, np.std(xv, axis=1), dt, np.std(xv, axis=1) * 8)


def test_var_degenerate_cases():
    assert math.isnan(torch.tensor([1.0]).var().item())
    assert torch.tensor([1.0]).var(unbiased=False).item() == 0.0
    assert math.isinf(torch.tensor([1.0, 2.0]).var(correction=2).item())
    assert math.isnan(torch.zeros(0).var().item())
    with pytest.raises(RuntimeError, match="std and var only support floating point and complex dtypes"):
        torch.tensor([1, 2]).var()
    with pytest.raises(RuntimeError, match="std and var only support floating point and complex dtypes"):
        torch.std(torch.tensor([True]), 0)


NORM_P = [1, 2, math.inf, -math.inf, 0, 3, "fro", 0.5]


def np_norm(a, p, axes, keepdim):
    a = np.abs(a.astype(np.float64))
    if p == "fro":
        p = 2
    if p == math.inf:
        return np.max(a, axis=axes, keepdims=keepdim)
    if p == -math.inf:
        return np.min(a, axis=axes, keepdims=keepdim)
    if p == 0:
        return np.sum(a != 0, axis=axes, keepdims=keepdim).astype(np.float64)
    return np.sum(a ** p, axis=axes, keepdims=keepdim) ** (1.0 / p)


@pytest.mark.parametrize("p", NORM_P, ids=str)
@pytest.mark.parametrize("dt", [F16, F32, F64], ids=str)
def test_norm(p, dt):
    rng = np.random.default_rng(4)
    vals = rand_values(rng, (4, 6), dt)
    vals[0, 0] = 0.0
    for layout in LAYOUTS[:3]:
        x, xv = make(vals, dt, layout)
        for dim in [None, 0, -1, (0, 1)]:
            for keepdim in (False, True):
                if p == "fro" and dim is not None and not isinstance(dim, tuple):
                    got = torch.norm(x, p, dim, keepdim)
                else:
                    got = torch.norm(x, p=p, dim=dim, keepdim=keepdim)
                want = np_norm(xv, p, np_dims(dim, 2), keepdim)
                check_float(got, want, dt, want * 4)
    assert x.norm().item() == pytest.approx(float(np.sqrt((xv.astype(np.float64) ** 2).sum())), rel=RTOL[dt] * 4)


def test_norm_bad_inputs():
    with pytest.raises(NotImplementedError, match="linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"):
        torch.norm(torch.tensor([1, 2]))
    assert abs(torch.norm(torch.ones(2, 2), p="nuc").item() - 2.0) < 1e-6   # through linalg.svdvals
    with pytest.raises(NotImplementedError, match="Got Long"):       # as torch: dtype= does not help
        torch.norm(torch.tensor([3, 4]), dtype=F32)
    with pytest.raises(RuntimeError, match="cannot compute the inf norm on an empty tensor"):
        torch.zeros(0).norm(math.inf)
    with pytest.raises(RuntimeError, match="cannot compute the -inf norm on an empty tensor"):
        torch.zeros(0, 3).norm(-math.inf, dim=0)
    assert torch.zeros(0, 3).norm(math.inf, dim=1).shape == (0,)
    assert torch.zeros(0).norm().item() == 0.0 and torch.zeros(0).norm(1).item() == 0.0


@pytest.mark.parametrize("dt", [F16, BF16, F32, F64], ids=str)
def test_logsumexp(dt):
    rng = np.random.default_rng(8)
    vals = rng.uniform(-50, 50, (4, 5, 3))
    vals[0, :, 0] = -np.inf  # an all -inf row: -inf, not nan
    vals[1, 2, 1] = np.inf
    for layout in LAYOUTS[:3]:
        x, xv = make(vals, dt, layout)
        xv = xv.astype(np.float64)
        for dim in [0, 1, -1, (0, 2), [1, 2]]:
            for keepdim in (False, True):
                axes = np_dims(dim, 3)
                m = np.max(xv, axis=axes, keepdims=True)
                m = np.where(np.isinf(m), 0, m)
                with np.errstate(divide="ignore", invalid="ignore"):
                    want = np.log(np.sum(np.exp(xv - m), axis=axes, keepdims=True)) + m
                if not keepdim:
                    want = np.squeeze(want, axis=axes)
                got = torch.logsumexp(x, dim, keepdim)
                check_float(got, want, dt, np.abs(want) + 1)
                np.testing.assert_array_equal(to_np(x.logsumexp(dim, keepdim=keepdim)), to_np(got))
    r = torch.logsumexp(torch.tensor([[-math.inf, -math.inf], [0.0, 0.0]]), 1)
    assert r[0].item() == -math.inf and r[1].item() == pytest.approx(math.log(2))
    assert torch.logsumexp(torch.tensor([1, 2]), 0).dtype == F32  # integers: default dtype
    assert torch.logsumexp(torch.tensor([1000.0, 1000.0]), 0).item() == pytest.approx(1000 + math.log(2))


# ---- mean --------------------------------------------------------------------------------------

def test_mean_dtypes_and_bad_inputs():
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"):
        torch.tensor([1, 2]).mean()
    with pytest.raises(RuntimeError, match="Got: Bool"):
        torch.tensor([True]).mean()
    with pytest.raises(RuntimeError, match="Got: Byte"):
        torch.mean(torch.tensor([1], dtype=U8), 0)
    m = torch.tensor([1, 2]).mean(dtype=F64)
    assert m.dtype == F64 and m.item() == 1.5
    for dt in (F16, BF16):
        h = torch.full((100000,), 1.5, dtype=dt)
        assert h.mean().item() == 1.5 and h.mean().dtype == dt  # the sum exceeds float16's range
        assert h.var().item() == 0.0 and h.var().dtype == dt
        assert h.norm(1).item() == (math.inf if dt == F16 else 149504.0)  # 150000 rounded
        assert h.norm(2).item() == pytest.approx(1.5 * math.sqrt(100000), rel=1e-2)
        assert h.logsumexp(0).item() == pytest.approx(1.5 + math.log(100000), rel=1e-2)


# ---- cumsum / cumprod -----------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_cumsum_cumprod(dt):
    rng = np.random.default_rng(6)
    for layout in LAYOUTS[:3]:
        vals = rand_values(rng, (4, 5, 3), dt)
        if dt in FLOATS:
            vals = rng.uniform(0.5, 1.5, (4, 5, 3))
        x, xv = make(vals, dt, layout)
        for dim in [0, 1, 2, -1]:
            for name, fn in [("cumsum", np.cumsum), ("cumprod", np.cumprod)]:
                got = getattr(torch, name)(x, dim)
                assert getattr(x, name)(dim=dim).tolist() == got.tolist()
                if dt in FLOATS:
                    want = fn(xv.astype(np.float64), axis=dim)
                    check_float(got, want, dt, np.abs(want) * 2)
                else:
                    check_exact(got, fn(xv.astype(np.int64), axis=dim), I64)
    x0, _ = make(np.array(3), dt) if dt != B else make(np.array(True), dt)
    assert torch.cumsum(x0, 0).shape == ()
    assert torch.cumsum(torch.zeros(0, 3, dtype=dt), 0).shape == (0, 3)


def test_cumsum_dtype_and_bad_inputs():
    x = torch.tensor([1, 2, 3], dtype=I8)
    assert x.cumsum(0).dtype == I64
    assert x.cumsum(0, dtype=F32).tolist() == [1.0, 3.0, 6.0]
    assert torch.tensor([True, True]).cumsum(0).tolist() == [1, 2]
    assert torch.tensor([100] * 3, dtype=I8).cumsum(0).tolist() == [100, 200, 300]
    out = torch.empty(3, dtype=I64)
    assert torch.cumsum(x, 0, out=out) is out and out.tolist() == [1, 3, 6]
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)"):
        x.cumsum(1)
    with pytest.raises(TypeError):
        x.cumsum()
    with pytest.raises(TypeError):
        x.cumsum("a")
    big = torch.ones(100000)
    assert big.cumsum(0)[-1].item() == 100000.0


# ---- large sizes: chunking, columns, accuracy -----------------------------------------------

@pytest.mark.parametrize("dt", [I32, F16, F32, F64], ids=str)
def test_large_reductions_chunked(dt):
    rng = np.random.default_rng(12)
    vals = rand_values(rng, (50000, 3), dt)
    x, xv = make(vals, dt)
    acc = np.float64 if dt in FLOATS else np.int64
    scale0 = np.abs(xv.astype(np.float64)).sum(0)
    for got, want, scale in [
        (x.sum(0), xv.astype(acc).sum(0), scale0),  # reduce over dim 0 (columns kernel)
        (x.t().sum(1), xv.astype(acc).sum(0), scale0),
        (x.sum(), xv.astype(acc).sum(), np.abs(xv.astype(np.float64)).sum()),
        (x[::3].sum(0), xv[::3].astype(acc).sum(0), np.abs(xv[::3].astype(np.float64)).sum(0)),
    ]:
        if dt in FLOATS:
            check_float(got, want, dt, scale)
        else:
            check_exact(got, want, I64)
    check_exact(x.amax(0), xv.max(0), dt)
    check_exact(x.argmin(0), xv.argmin(0), I64)
    check_exact(x.t().argmax(1), xv.argmax(0), I64)
    check_exact(x.argmax(), np.argmax(xv), I64)
    if dt in FLOATS:
        want = np.var(xv.astype(np.float64), axis=0, ddof=1)
        check_float(x.var(0), want, dt, want * 4)
    # a single long row (> one chunk of 32768)
    row, rv = make(rand_values(rng, (3, 100003), dt), dt)
    if dt in FLOATS:
        check_float(row.sum(1), rv.astype(np.float64).sum(1), dt, np.abs(rv.astype(np.float64)).sum(1))
    else:
        check_exact(row.sum(1), rv.astype(np.int64).sum(1), I64)
    check_exact(row.amax(1), rv.max(1), dt)
    check_exact(row.argmax(1), rv.argmax(1), I64)


def test_float32_sum_accuracy_10m():
    rng = np.random.default_rng(0)
    v = rng.random(10 ** 7, dtype=np.float32)
    ref = v.astype(np.float64).sum()
    got = torch.from_numpy(v).sum().item()
    assert abs(got - ref) / ref < 1e-6
    m = torch.from_numpy(v.reshape(1000, 10000))
    rows = m.sum(1).numpy().astype(np.float64)
    ref_rows = v.reshape(1000, 10000).astype(np.float64).sum(1)
    assert np.max(np.abs(rows - ref_rows) / ref_rows) < 1e-6
    cols = m.sum(0).numpy().astype(np.float64)
    ref_cols = v.reshape(1000, 10000).astype(np.float64).sum(0)
    assert np.max(np.abs(cols - ref_cols) / ref_cols) < 1e-6
    assert abs(torch.from_numpy(v).mean().item() - ref / 1e7) < 1e-6


# ---- bad inputs ---------------------------------------------------------------------------

def test_invalid_and_duplicate_dims():
    x = torch.ones(2, 3)
    for op in ["sum", "prod", "amax", "amin", "all", "any", "mean", "argmax", "logsumexp"]:
        with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
            getattr(x, op)(2)
        with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got -3\)"):
            getattr(x, op)(-3)
    for op in ["sum", "prod", "amax", "amin", "mean", "var", "std", "norm"]:
        with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
            getattr(torch, op)(x, dim=(0, -2))
    with pytest.raises(RuntimeError, match="dim 1 appears multiple times in the list of dims"):
        x.sum([1, 1])
    with pytest.raises(IndexError):
        torch.ones(()).sum(1)
    with pytest.raises(IndexError):
        x.max(2)


def test_wrong_argument_types():
    x = torch.ones(2, 3)
    with pytest.raises(TypeError, match="sum\\(\\): argument 'dim' must be int, not str"):
        x.sum("a")
    with pytest.raises(TypeError):
        x.sum(1.5)
    with pytest.raises(TypeError):
        x.sum((0, "a"))
    with pytest.raises(TypeError, match="argument 'input' must be Tensor"):
        torch.sum([1, 2])
    with pytest.raises(TypeError, match="argument 'input' must be Tensor"):
        torch.mean(3.0)
    with pytest.raises(TypeError, match="argmax\\(\\): argument 'dim' must be int, not tuple"):
        x.argmax((0, 1))
    with pytest.raises(TypeError, match="max\\(\\): argument 'dim' must be int, not tuple"):
        x.max((0, 1))
    with pytest.raises(TypeError):
        x.sum(0, False, None, None, 1)
    with pytest.raises(TypeError):
        x.amax(0, bogus=True)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        torch.sum(x.float(), 0, out=torch.empty(0, dtype=torch.int64))


def test_max_of_empty():
    with pytest.raises(RuntimeError, match=r"max\(\): Expected reduction dim to be specified for input.numel\(\) == 0. Specify the reduction dim with the 'dim' argument."):
        torch.tensor([]).max()
    with pytest.raises(RuntimeError, match=r"min\(\): Expected reduction dim to be specified"):
        torch.zeros(0, 3).min()
    with pytest.raises(IndexError, match=r"argmax\(\): Expected reduction dim to be specified"):
        torch.tensor([]).argmax()
    with pytest.raises(RuntimeError, match=r"amax\(\): Expected reduction dim to be specified"):
        torch.tensor([]).amax()
    with pytest.raises(IndexError, match=r"max\(\): Expected reduction dim 0 to have non-zero size."):
        torch.zeros(0, 3).max(0)
    with pytest.raises(IndexError, match=r"argmin\(\): Expected reduction dim 1 to have non-zero size."):
        torch.zeros(3, 0).argmin(1)
    with pytest.raises(IndexError, match=r"amin\(\): Expected reduction dim 0 to have non-zero size."):
        torch.zeros(0, 3).amin((0, 1))


def test_full_reduction_is_every_dim_in_any_order():
    rng = np.random.default_rng(1)
    x, xv = make(rng.uniform(-1, 1, (3, 4, 5)), F64, "transposed")
    for perm in itertools.permutations(range(3)):
        np.testing.assert_allclose(x.sum(perm).item(), xv.sum(), rtol=1e-12)
    assert x.sum(()).item() == pytest.approx(xv.sum(), rel=1e-12)


def test_logsumexp_of_complex_keeps_the_complex_dtype():
    a = np.array([[1 + 2j, 0.5 - 1j], [3 + 0j, -2 + 0.25j]])
    for dt, tol in ((torch.complex64, 1e-5), (torch.complex128, 1e-12)):
        r = torch.logsumexp(torch.tensor(a, dtype=dt), 1)
        assert r.dtype == dt
        np.testing.assert_allclose(r.numpy(), np.log(np.exp(a).sum(1)), rtol=tol)


@pytest.mark.parametrize("f", [lambda t: t.mean(), lambda t: t.var(), lambda t: t.std(), lambda t: t.nanmean()])
def test_floating_only_reductions_of_integers_are_not_implemented(f):
    # as torch: NotImplementedError (a RuntimeError subclass)
    with pytest.raises(NotImplementedError):
        f(torch.tensor([1, 2]))


@pytest.mark.parametrize("op", ["amax", "amin"])
def test_max_min_of_long_vectors_keep_nan(op):
    """The pairwise max/min over long vectors and rows: numpy's values, and a NaN anywhere
    wins (the recursion combines each half once)."""
    n = 1 << 22
    x = torch.randn(n)
    assert getattr(x, op)().item() == getattr(np, op)(x.numpy())
    x[n // 3] = float("nan")
    assert math.isnan(getattr(x, op)().item())
    rows = x.view(64, -1)
    r = getattr(rows, op)(-1)
    assert math.isnan(r[21].item()) and not math.isnan(r[0].item())
    np.testing.assert_array_equal(r.numpy()[22:], getattr(np, op)(rows.numpy()[22:], axis=-1))


@pytest.mark.parametrize("rows,cols", [(1, 1), (17, 3), (33, 7), (768, 9), (100, 64), (768, 130)])
def test_column_reductions_against_numpy(rows, cols):
    """Reductions over the leading dimension (the pairwise column kernel, vectorised across
    columns): every width, rows past the pairwise leaf, strided input."""
    rng = np.random.RandomState(rows + cols)
    a = rng.randn(rows, cols).astype(np.float32)
    t = torch.tensor(a)
    np.testing.assert_allclose(t.sum(0).numpy(), a.astype(np.float64).sum(0), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(t.amax(0).numpy(), a.max(0))
    np.testing.assert_allclose((t / 4).exp().prod(0).numpy(),
                               np.exp(a.astype(np.float64) / 4).prod(0), rtol=1e-4)
    tt = torch.tensor(a.T.copy()).t()  # the same values through a transposed view
    np.testing.assert_allclose(tt.sum(0).numpy(), a.astype(np.float64).sum(0), rtol=1e-5, atol=1e-4)
    d = torch.tensor(a.astype(np.float64))
    np.testing.assert_allclose(d.sum(0).numpy(), a.astype(np.float64).sum(0), rtol=1e-12, atol=1e-12)
    i = torch.tensor((a * 100).astype(np.int64))
    assert np.array_equal(i.sum(0).numpy(), (a * 100).astype(np.int64).sum(0))


def test_sum_to_size():
    # values from torch 2.15
    assert torch.ones(2, 3, 4).sum_to_size(3, 1).tolist() == [[8.0], [8.0], [8.0]]
    assert torch.ones(2, 3).sum_to_size((1, 3)).tolist() == [[2.0, 2.0, 2.0]]
    x = torch.ones(2, 3)
    assert x.sum_to_size(2, 3) is x
    with pytest.raises(RuntimeError, match=r"size \{\[4\]\} is not expandable to size \{\[2, 3\]\}"):
        x.sum_to_size(4)
