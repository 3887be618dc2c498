"""Matrix products against NumPy: matmul/@ (every rank mix, batch broadcasting), mm, bmm, mv, dot,
vdot, addmm, addmv, outer/ger and einsum -- every dtype, 0-size and 0-d operands, transposed,
strided and expanded (stride-0) layouts, with the BLAS and with the portable fallback GEMM --
and bad inputs with torch's messages.

Tolerances: integer results are exact (NumPy's int64 products wrap like ours, then truncate).
Float results are compared with a float64 reference computed from the operands' rounded values:
|ours - ref| <= RTOL[dtype] * (|A| @ |B|), which bounds the rounding of any summation order
(float16/bfloat16 accumulate in float32 and round once, so their bound is the output rounding)."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import minitorch as torch

B, U8, I8, I16, I32, I64 = torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64
F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
INTS = [U8, I8, I16, I32, I64]
FLOATS = [F16, BF16, F32, F64]
NUMERIC = INTS + FLOATS
NP = {U8: np.uint8, I8: np.int8, I16: np.int16, I32: np.int32, I64: np.int64,
      F16: np.float16, F32: np.float32, F64: np.float64}
RTOL = {F16: 2e-3, BF16: 1.6e-2, F32: 1e-5, F64: 1e-12}
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None)
HAS_BLAS = torch._C._blas_info() is not None


@pytest.fixture(params=["blas", "fallback"])
def engine(request):
    """Runs a test with the BLAS (skipped when none is loaded) and with the fallback GEMM."""
    if request.param == "blas" and not HAS_BLAS:
        pytest.skip("no BLAS loaded (scipy-openblas32 not installed)")
    torch._C._blas_set_enabled(request.param == "blas")
    yield request.param
    torch._C._blas_set_enabled(True)


def rand(rng, shape, dt):
    """(tensor, float64/int64 NumPy values it holds)."""
    shape = tuple(shape)
    if dt in INTS:
        lo = 0 if dt == U8 else -20
        v = rng.integers(lo, 20, shape).astype(NP[dt])
        return torch.from_numpy(v.copy()), v.astype(np.int64)
    t = torch.from_numpy(rng.uniform(-2, 2, shape)).to(dt)
    return t, t.double().numpy()


def layout(t, kind):
    """The same values as t in another memory layout."""
    if kind == "contig" or t.dim() == 0:
        return t
    if kind == "transposed" and t.dim() >= 2:  # last two dims swapped in memory
        return t.transpose(-1, -2).contiguous().transpose(-1, -2)
    if kind == "strided":  # every dim strided, no unit stride
        big = torch.zeros([2 * s for s in t.shape], dtype=t.dtype)
        idx = tuple(slice(None, None, 2) for _ in t.shape)
        big[idx] = t
        return big[idx]
    if kind == "expanded" and t.dim() >= 1:  # leading dim broadcast (stride 0) when size 1
        if t.shape[0] == 1:
            return t[0:1].expand(t.shape)
        return t
    return t


def ref_matmul(a, b, dt):
    if dt in INTS:
        return np.matmul(a, b).astype(NP[dt])
    return np.matmul(a, b)


def check(got, ref, a_abs_b, dt):
    """Compares a minitorch result with the reference (a_abs_b = |A| @ |B| bounds the error)."""
    assert got.dtype == dt
    g = got.double().numpy() if dt in FLOATS else got.numpy()
    assert g.shape == np.shape(ref), (g.shape, np.shape(ref))
    if dt in INTS:
        np.testing.assert_array_equal(g, ref)
    else:
        err = np.abs(g - ref)
        bound = RTOL[dt] * np.asarray(a_abs_b) + 1e-300
        assert np.all(err <= bound), float(np.max(err - bound))


MATMUL_SHAPES = [
    ((3,), (3,)), ((0,), (0,)), ((4, 3), (3,)), ((3,), (3, 5)), ((4, 3), (3, 5)),
    ((2, 4, 3), (3,)), ((3,), (2, 3, 5)), ((2, 4, 3), (3, 5)), ((4, 3), (2, 3, 5)),
    ((2, 4, 3), (2, 3, 5)), ((2, 1, 4, 3), (5, 3, 2)), ((1, 4, 3), (6, 3, 2)),
    ((0, 3), (3, 4)), ((3, 0), (0, 4)), ((2, 0, 3), (3, 4)), ((0, 4, 3), (3,)),
    ((1, 1), (1, 1)), ((1, 7), (7, 1)), ((7,), (7, 1)), ((1, 7), (7,)),
    ((3, 2, 1, 4), (1, 4, 5)), ((2, 3, 4, 5), (5,)), ((5,), (2, 3, 5, 4)),
]


@pytest.mark.parametrize("dt", NUMERIC)
@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul_shapes_dtypes(sa, sb, dt):
    rng = np.random.default_rng(len(sa) * 10 + len(sb))
    a, na = rand(rng, sa, dt)
    b, nb = rand(rng, sb, dt)
    r = torch.matmul(a, b)
    check(r, ref_matmul(na, nb, dt), np.matmul(np.abs(na), np.abs(nb)), dt)
    check(a @ b, ref_matmul(na, nb, dt), np.matmul(np.abs(na), np.abs(nb)), dt)
    check(a.matmul(b), ref_matmul(na, nb, dt), np.matmul(np.abs(na), np.abs(nb)), dt)


@pytest.mark.parametrize("dt", [F32, F64])
@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul_fallback(sa, sb, dt):
    torch._C._blas_set_enabled(False)
    try:
        test_matmul_shapes_dtypes(sa, sb, dt)
    finally:
        torch._C._blas_set_enabled(True)


@pytest.mark.parametrize("dt", [F32, F64, F16, I64, I8])
@pytest.mark.parametrize("la", ["contig", "transposed", "strided", "expanded"])
@pytest.mark.parametrize("lb", ["contig", "transposed", "strided", "expanded"])
def test_layouts(engine, la, lb, dt):
    rng = np.random.default_rng(7)
    for sa, sb in [((5, 7), (7, 6)), ((1, 7), (7, 6)), ((5, 7), (7, 1)), ((1, 4, 3), (3, 3, 5)),
                   ((3, 1, 6), (3, 6, 1)), ((1, 6), (6, 1))]:
        a, na = rand(rng, sa, dt)
        b, nb = rand(rng, sb, dt)
        a, b = layout(a, la), layout(b, lb)
        check(torch.matmul(a, b), ref_matmul(na, nb, dt), np.matmul(np.abs(na), np.abs(nb)), dt)
    # vectors with stride 2 and stride 0
    v, nv = rand(rng, (7,), dt)
    m, nm = rand(rng, (5, 7), dt)
    m = layout(m, la)
    vs = layout(v, "strided")
    check(torch.mv(m, vs), ref_matmul(nm, nv, dt), np.abs(nm) @ np.abs(nv), dt)
    e = v[2:3].expand(7)
    ne = np.full(7, nv[2])
    check(torch.mv(m, e), ref_matmul(nm, ne, dt), np.abs(nm) @ np.abs(ne), dt)
    check(torch.dot(vs, e), ref_matmul(nv, ne, dt), np.abs(nv) @ np.abs(ne), dt)


@pytest.mark.parametrize("dt", [F32, F64, I32])
def test_blocked_sizes(engine, dt):
    """Sizes straddling the fallback's 16-row, 256-column and 128-deep blocks."""
    rng = np.random.default_rng(3)
    for m, k, n in [(37, 300, 270), (16, 128, 256), (17, 129, 257), (1, 513, 3), (33, 1, 300)]:
        a, na = rand(rng, (m, k), dt)
        b, nb = rand(rng, (k, n), dt)
        check(torch.mm(a, b), ref_matmul(na, nb, dt), np.abs(na) @ np.abs(nb), dt)


def test_bmm_broadcast_batch_and_threads(engine):
    rng = np.random.default_rng(5)
    a, na = rand(rng, (6, 20, 30), F32)
    b, nb = rand(rng, (1, 30, 10), F32)
    be = b.expand(6, 30, 10)  # batch stride 0
    r = torch.bmm(a, be)
    check(r, np.matmul(na, nb), np.matmul(np.abs(na), np.abs(nb)), F32)
    n = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        r1 = torch.bmm(a, be)
    finally:
        torch.set_num_threads(n)
    if engine == "fallback":  # deterministic for any thread count
        assert np.array_equal(r.numpy(), r1.numpy())


def test_integer_wraparound():
    a = torch.full((3, 40), 100, dtype=I8)
    b = torch.full((40, 2), 90, dtype=I8)
    ref = (np.full((3, 40), 100, np.int64) @ np.full((40, 2), 90, np.int64)).astype(np.int8)
    assert np.array_equal((a @ b).numpy(), ref)
    big = torch.tensor([[2 ** 62, 2 ** 62]], dtype=I64)
    r = big @ torch.tensor([[4], [1]], dtype=I64)
    assert r.item() == 2 ** 62  # 5 * 2**62 wraps modulo 2**64
    u = torch.full((1, 3), 200, dtype=U8)
    assert (u @ torch.full((3,), 2, dtype=U8)).item() == (1200 % 256)


def test_half_accumulates_in_float32():
    # 4096 ones * 1: a float16 accumulator would stop at 2048
    a = torch.ones(1, 4096, dtype=F16)
    b = torch.ones(4096, 1, dtype=F16)
    assert (a @ b).item() == 4096.0
    assert torch.dot(torch.ones(4096, dtype=BF16), torch.ones(4096, dtype=BF16)).item() == 4096.0


def test_mm_bmm_mv_dot_methods(engine):
    rng = np.random.default_rng(11)
    a, na = rand(rng, (4, 3), F64)
    b, nb = rand(rng, (3, 5), F64)
    v, nv = rand(rng, (3,), F64)
    check(a.mm(b), na @ nb, np.abs(na) @ np.abs(nb), F64)
    check(torch.mm(a, b), na @ nb, np.abs(na) @ np.abs(nb), F64)
    check(a.mv(v), na @ nv, np.abs(na) @ np.abs(nv), F64)
    check(v.dot(v), nv @ nv, np.abs(nv) @ np.abs(nv), F64)
    check(torch.vdot(v, v), nv @ nv, np.abs(nv) @ np.abs(nv), F64)
    assert torch.dot(v, v).dim() == 0
    x, nx = rand(rng, (2, 4, 3), F64)
    y, ny = rand(rng, (2, 3, 5), F64)
    check(x.bmm(y), nx @ ny, np.abs(nx) @ np.abs(ny), F64)
    check(torch.bmm(x, y), nx @ ny, np.abs(nx) @ np.abs(ny), F64)
    # empty contraction gives zeros
    z = torch.mm(torch.ones(3, 0), torch.ones(0, 2))
    assert z.shape == (3, 2) and np.all(z.numpy() == 0)
    assert torch.dot(torch.ones(0), torch.ones(0)).item() == 0.0


@pytest.mark.parametrize("dt", [F32, F64, F16, BF16, I64, I16])
def test_addmm_addmv(engine, dt):
    rng = np.random.default_rng(13)
    m1, n1 = rand(rng, (4, 6), dt)
    m2, n2 = rand(rng, (6, 5), dt)
    v, nv = rand(rng, (6,), dt)
    prod = n1 @ n2
    bound = np.abs(n1) @ np.abs(n2)
    for inp_shape in [(4, 5), (5,), (1, 5), (4, 1), ()]:
        inp, ni = rand(rng, inp_shape, dt)
        for beta, alpha in [(1, 1), (2, 3), (0, 1), (-1, 2)]:
            r = torch.addmm(inp, m1, m2, beta=beta, alpha=alpha)
            ref = (beta * ni + alpha * prod) if beta else alpha * prod + 0 * ni
            if dt in INTS:
                ref = ref.astype(NP[dt])
            check(r, np.broadcast_to(ref, (4, 5)), (abs(beta) * np.abs(ni) + abs(alpha) * bound) * 2, dt)
        r = inp.addmm(m1, m2)
        check(r, np.broadcast_to((ni + prod).astype(NP[dt]) if dt in INTS else ni + prod, (4, 5)),
              (np.abs(ni) + bound) * 2, dt)
    mvp = n1 @ nv
    for inp_shape in [(4,), (1,), ()]:
        inp, ni = rand(rng, inp_shape, dt)
        r = torch.addmv(inp, m1, v, beta=2, alpha=-1)
        ref = 2 * ni - mvp
        check(r, np.broadcast_to(ref.astype(NP[dt]) if dt in INTS else ref, (4,)),
              (2 * np.abs(ni) + np.abs(n1) @ np.abs(nv)) * 2, dt)


@pytest.mark.parametrize("dt", [F32, F64, F16, I64, I8])
def test_baddbmm_addbmm_addr(engine, dt):
    rng = np.random.default_rng(19)
    b1, n1 = rand(rng, (3, 4, 5), dt)
    b2, n2 = rand(rng, (3, 5, 2), dt)
    prod = n1 @ n2
    bound = np.abs(n1) @ np.abs(n2)
    for shape in [(3, 4, 2), (4, 2), (2,), ()]:
        inp, ni = rand(rng, shape, dt)
        r = torch.baddbmm(inp, layout(b1, "transposed"), b2, beta=2, alpha=3)
        ref = 2 * ni + 3 * prod
        check(r, ref.astype(NP[dt]) if dt in INTS else ref, (2 * np.abs(ni) + 3 * bound) * 2, dt)
        if len(shape) <= 2:
            r = torch.addbmm(inp, b1, b2, beta=-1, alpha=2)
            ref = -ni + 2 * prod.sum(0)
            check(r, np.broadcast_to(ref.astype(NP[dt]) if dt in INTS else ref, (4, 2)),
                  (np.abs(ni) + 2 * bound.sum(0)) * 2, dt)
    v1, nv1 = rand(rng, (4,), dt)
    v2, nv2 = rand(rng, (3,), dt)
    inp, ni = rand(rng, (4, 3), dt)
    ref = 2 * ni + np.outer(nv1, nv2)
    check(torch.addr(inp, v1, v2, beta=2), ref.astype(NP[dt]) if dt in INTS else ref,
          (2 * np.abs(ni) + np.outer(np.abs(nv1), np.abs(nv2))) * 2, dt)
    x = torch.zeros(3, 4, 2, dtype=dt)
    assert x.baddbmm_(b1, b2) is x
    check(x, prod.astype(NP[dt]) if dt in INTS else prod, bound * 2, dt)
    y = torch.zeros(4, 2, dtype=dt)
    assert y.addbmm_(b1, b2) is y and inp.addr_(v1, v2) is inp


def test_baddbmm_errors():
    with pytest.raises(RuntimeError, match="Input dtypes must be the same, got: input float, batch1: double, batch2: float"):
        torch.baddbmm(torch.ones(1), torch.ones(1, 2, 2, dtype=F64), torch.ones(1, 2, 2))
    with pytest.raises(RuntimeError, match="batch1 must be a 3D tensor"):
        torch.baddbmm(torch.ones(1), torch.ones(2, 2), torch.ones(1, 2, 2))
    with pytest.raises(RuntimeError, match=r"Expected size for first two dimensions of batch2 tensor to be: \[1, 2\] but got: \[1, 3\]\."):
        torch.baddbmm(torch.ones(1), torch.ones(1, 2, 2), torch.ones(1, 3, 2))
    with pytest.raises(RuntimeError, match="expand|must match"):
        torch.baddbmm(torch.ones(3), torch.ones(1, 2, 2), torch.ones(1, 2, 2))
    with pytest.raises(RuntimeError, match="batch2 must be a 3D tensor"):
        torch.addbmm(torch.ones(1), torch.ones(1, 2, 2), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match=r"Expected size for first two dimensions of batch2 tensor to be: \[1, 2\] but got: \[2, 2\]\."):
        torch.addbmm(torch.ones(1), torch.ones(1, 2, 2), torch.ones(2, 2, 2))
    with pytest.raises(RuntimeError, match="addr: Expected 1-D argument vec1, but got 2-D"):
        torch.addr(torch.ones(1), torch.ones(2, 2), torch.ones(2))
    with pytest.raises(RuntimeError, match="addr: Expected 1-D argument vec2, but got 0-D"):
        torch.addr(torch.ones(1), torch.ones(2), torch.tensor(1.0))
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point number."):
        torch.baddbmm(torch.ones(1, dtype=I32), torch.ones(1, 2, 2, dtype=I32), torch.ones(1, 2, 2, dtype=I32), alpha=1.5)


def test_addmm_beta_zero_ignores_nan(engine):
    inp = torch.full((2, 2), float("nan"))
    r = torch.addmm(inp, torch.eye(2), torch.ones(2, 2), beta=0)
    assert np.array_equal(r.numpy(), np.ones((2, 2), np.float32))
    r = torch.addmv(torch.full((2,), float("nan")), torch.eye(2), torch.ones(2), beta=0.0, alpha=2)
    assert np.array_equal(r.numpy(), np.full(2, 2, np.float32))
    # beta != 0 propagates NaN
    assert np.isnan(torch.addmm(inp, torch.eye(2), torch.ones(2, 2)).numpy()).all()


def test_inplace_addmm_addmv():
    x = torch.ones(2, 3)
    assert x.addmm_(torch.ones(2, 4), torch.ones(4, 3), beta=2, alpha=0.5) is x
    assert np.all(x.numpy() == 4)
    v = torch.ones(2, dtype=I64)
    assert v.addmv_(torch.ones(2, 3, dtype=I64), torch.ones(3, dtype=I64)) is v
    assert np.all(v.numpy() == 4)
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        torch.ones(3).addmm_(torch.ones(2, 4), torch.ones(4, 3))


@pytest.mark.parametrize("value,expect", [("0", "None"), ("/nonexistent/libblas.so", "None")])
def test_blas_environment_choice(value, expect):
    """MINITORCH_BLAS=0 keeps the portable GEMM; a library that cannot load warns, never fails."""
    import os
    import subprocess
    import sys
    code = ("import warnings; warnings.simplefilter('error', RuntimeWarning)\n"
            "try:\n    import minitorch\nexcept RuntimeWarning as e:\n    print('warned', e)\n"
            "else:\n    print(minitorch._C._blas_info())")
    env = dict(os.environ, MINITORCH_BLAS=value)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    if value == "0":
        assert out.stdout.strip() == expect
    else:
        assert out.stdout.startswith("warned MINITORCH_BLAS: cannot load BLAS library /nonexistent/libblas.so")
    code = "import minitorch as t; print((t.ones(3, 4) @ t.ones(4, 2)).sum().item())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "24.0", out.stderr


def test_fresh_outputs_never_read(engine):
    """Results land in fresh (uninitialised) memory: recycled NaN bytes must not leak into them."""
    for shape_a, shape_b in [((300, 40), (40,)), ((1, 40), (40, 300)), ((60, 40), (40, 50))]:
        for _ in range(3):
            junk = torch.full((20000,), float("nan"))
            del junk
            r = torch.matmul(torch.ones(shape_a), torch.ones(shape_b))
            assert np.all(r.numpy() == 40)


def test_outer_ger():
    a = torch.tensor([1, 2, 3])
    b = torch.tensor([0.5, -1.0])
    r = torch.outer(a, b)
    assert r.dtype == F32 and np.allclose(r.numpy(), np.outer([1, 2, 3], [0.5, -1.0]))
    assert np.array_equal(torch.ger(a, a).numpy(), np.outer([1, 2, 3], [1, 2, 3]))
    assert np.array_equal(a.outer(a).numpy(), np.outer([1, 2, 3], [1, 2, 3]))
    assert torch.outer(torch.ones(0), torch.ones(3)).shape == (0, 3)
    out = torch.empty(3, 2)
    assert torch.outer(a, b, out=out) is out and np.allclose(out.numpy(), r.numpy())
    with pytest.raises(RuntimeError, match=r"outer: Expected 1-D argument self, but got 2-D"):
        torch.outer(torch.ones(2, 2), b)
    with pytest.raises(RuntimeError, match=r"outer: Expected 1-D argument vec2, but got 0-D"):
        torch.outer(b, torch.tensor(1.0))


def test_out_argument():
    a, b = torch.ones(2, 3), torch.ones(3, 4)
    out = torch.empty(2, 4)
    assert torch.mm(a, b, out=out) is out and np.all(out.numpy() == 3)
    out = torch.empty(0)
    assert torch.matmul(a, b, out=out) is out and out.shape == (2, 4)
    out = torch.empty(5)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        torch.mm(a, b, out=out)
    assert out.shape == (2, 4) and any("resized" in str(x.message) for x in w)
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype float32, but got float64 instead"):
        torch.mm(a, b, out=torch.empty(2, 4, dtype=F64))
    with pytest.raises(TypeError, match=r"mm\(\): argument 'out' must be Tensor, not int"):
        torch.mm(a, b, out=3)
    out = torch.empty(2, 4)
    assert torch.addmm(torch.zeros(4), a, b, alpha=2, out=out) is out and np.all(out.numpy() == 6)


def test_matmul_operator_rules():
    a = torch.ones(2, 2)
    orig = a
    a @= torch.full((2, 2), 2.0)  # torch has no in-place @: a is rebound
    assert a is not orig and np.all(a.numpy() == 4) and np.all(orig.numpy() == 1)
    with pytest.raises(TypeError, match="unsupported operand"):
        a @ 2
    with pytest.raises(TypeError, match="unsupported operand"):
        2 @ a
    with pytest.raises(TypeError, match=r"matmul\(\): argument 'other' \(position 2\) must be Tensor, not list"):
        torch.matmul(a, [[1.0]])


# ---- bad inputs -------------------------------------------------------------------------------
def test_shape_errors():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"):
        torch.ones(2, 3) @ torch.ones(4, 5)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(1x3 and 4x5\)"):
        torch.ones(3) @ torch.ones(4, 5)
    with pytest.raises(RuntimeError, match=r"size mismatch, got input \(2\), mat \(2x3\), vec \(4\)"):
        torch.ones(2, 3) @ torch.ones(4)
    with pytest.raises(RuntimeError, match=r"inconsistent tensor size, expected tensor \[3\] and src \[4\] "
                       "to have the same number of elements, but got 3 and 4 elements respectively"):
        torch.ones(3) @ torch.ones(4)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(8x3 and 4x5\)"):
        torch.ones(2, 4, 3) @ torch.ones(4, 5)
    with pytest.raises(RuntimeError, match=r"Expected size for first two dimensions of batch2 tensor to be: "
                       r"\[2, 3\] but got: \[2, 4\]\."):
        torch.ones(2, 4, 3) @ torch.ones(2, 4, 5)
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(3\) "
                       "at non-singleton dimension 0"):
        torch.ones(2, 4, 3) @ torch.ones(3, 3, 5)
    with pytest.raises(RuntimeError, match="both arguments to matmul need to be at least 1D, but they are 0D and 2D"):
        torch.matmul(torch.tensor(1.0), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="self must be a matrix"):
        torch.mm(torch.ones(3), torch.ones(3, 3))
    with pytest.raises(RuntimeError, match="mat2 must be a matrix"):
        torch.mm(torch.ones(3, 3), torch.ones(3))
    with pytest.raises(RuntimeError, match="batch1 must be a 3D tensor"):
        torch.bmm(torch.ones(3, 3), torch.ones(1, 3, 3))
    with pytest.raises(RuntimeError, match="batch2 must be a 3D tensor"):
        torch.bmm(torch.ones(1, 3, 3), torch.ones(3, 3))
    with pytest.raises(RuntimeError, match=r"Expected size for first two dimensions of batch2 tensor to be: "
                       r"\[2, 3\] but got: \[3, 3\]\."):
        torch.bmm(torch.ones(2, 4, 3), torch.ones(3, 3, 5))
    with pytest.raises(RuntimeError, match="vector \\+ matrix @ vector expected, got 1, 2, 2"):
        torch.mv(torch.ones(2, 3), torch.ones(3, 1))
    with pytest.raises(RuntimeError, match="1D tensors expected, but got 2D and 1D tensors"):
        torch.dot(torch.ones(2, 2), torch.ones(2))
    with pytest.raises(RuntimeError, match="mat1 must be a matrix, got 1-D tensor"):
        torch.addmm(torch.ones(2), torch.ones(2), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="mat2 must be a matrix, got 3-D tensor"):
        torch.addmm(torch.ones(2), torch.ones(2, 2), torch.ones(1, 2, 2))
    with pytest.raises(RuntimeError, match="expand|must match"):
        torch.addmm(torch.ones(3), torch.ones(2, 2), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match=r"size mismatch, got input \(3\), mat \(2x2\), vec \(2\)"):
        torch.addmv(torch.ones(3), torch.ones(2, 2), torch.ones(2))


def test_dtype_errors():
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: float != double"):
        torch.ones(2, 2) @ torch.ones(2, 2, dtype=F64)
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: long int != float"):
        torch.mm(torch.ones(2, 2, dtype=I64), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype"):
        torch.bmm(torch.ones(1, 2, 2), torch.ones(1, 2, 2, dtype=F16))
    with pytest.raises(RuntimeError, match="dot : expected both vectors to have same dtype, but found Float and Double"):
        torch.dot(torch.ones(2), torch.ones(2, dtype=F64))
    with pytest.raises(RuntimeError, match="vdot : expected both vectors to have same dtype, but found Int and Long"):
        torch.vdot(torch.ones(2, dtype=I32), torch.ones(2, dtype=I64))
    with pytest.raises(RuntimeError, match="\"addmm_impl_cpu_\" not implemented for 'Bool'"):
        torch.ones(2, 2, dtype=B) @ torch.ones(2, 2, dtype=B)
    with pytest.raises(RuntimeError, match="\"dot\" not implemented for 'Bool'"):
        torch.dot(torch.ones(2, dtype=B), torch.ones(2, dtype=B))
    with pytest.raises(RuntimeError, match="self and mat2 must have the same dtype, but got Double and Float"):
        torch.addmm(torch.ones(2, 2, dtype=F64), torch.ones(2, 2), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="mat1 and mat2 must have the same dtype, but got Half and Float"):
        torch.addmm(torch.ones(2, 2), torch.ones(2, 2, dtype=F16), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="self and mat2 must have the same dtype, but got Float and Double"):
        torch.addmm(torch.ones(2, 2), torch.ones(3), torch.ones(2, 2, dtype=F64))  # dtypes first
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point number."):
        torch.addmm(torch.ones(2, 2, dtype=I64), torch.ones(2, 2, dtype=I64), torch.ones(2, 2, dtype=I64), alpha=0.5)
    with pytest.raises(RuntimeError, match="For integral input tensors, argument beta must not be a floating point number."):
        torch.addmv(torch.ones(2, dtype=I32), torch.ones(2, 2, dtype=I32), torch.ones(2, dtype=I32), beta=1.5)
    with pytest.raises(TypeError, match=r"addmm\(\): argument 'beta' must be Number, not str"):
        torch.addmm(torch.ones(2, 2), torch.ones(2, 2), torch.ones(2, 2), beta="x")
    with pytest.raises(TypeError, match=r"mm\(\) missing required argument 'mat2'"):
        torch.mm(torch.ones(2, 2))


@pytest.mark.parametrize("dt", [F64, F32, I64, F16])
def test_tensordot(dt):
    rng = np.random.default_rng(17)
    cases = [((2, 3, 4), (3, 4, 5), 2), ((2, 3), (3, 4), 1), ((2, 3), (4, 5), 0), ((3,), (3,), 1),
             ((2, 3, 4), (4, 3, 2), ([1, 2], [1, 0])), ((2, 3, 4), (5, 2), ([0], [1])),
             ((2, 3), (3, 2), ([-1, 0], [0, -1])), ((0, 3), (3, 4), 1), ((2, 3), (3, 2), (1, 0))]
    for sa, sb, dims in cases:
        a, na = rand(rng, sa, dt)
        b, nb = rand(rng, sb, dt)
        a = layout(a, "transposed")
        r = torch.tensordot(a, b, dims=dims)
        ref = np.tensordot(na, nb, axes=dims)
        bound = np.tensordot(np.abs(na), np.abs(nb), axes=dims)
        check(r, ref.astype(NP[dt]) if dt in INTS else ref, bound * 2 + 1e-300, dt)
    out = torch.empty(2, 5, dtype=dt)
    assert torch.tensordot(torch.ones(2, 3, 4, dtype=dt), torch.ones(3, 4, 5, dtype=dt), out=out) is out
    assert np.all(out.double().numpy() == 12)


def test_tensordot_errors():
    a, b = torch.ones(2, 3), torch.ones(4, 5)
    with pytest.raises(RuntimeError, match="tensordot expects dims >= 0, but got dims=-1"):
        torch.tensordot(a, b, dims=-1)
    with pytest.raises(RuntimeError, match="tensordot expects dims < ndim_a or ndim_b, but got dims=3"):
        torch.tensordot(a, b, dims=3)
    with pytest.raises(RuntimeError, match="both dimension lists should have same length"):
        torch.tensordot(a, b, dims=([0, 1], [0]))
    with pytest.raises(RuntimeError, match="contracted dimensions need to match, but first has size 3 in dim 1 "
                       "and second has size 4 in dim 0"):
        torch.tensordot(a, b, dims=1)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        torch.tensordot(a, b, dims=([2], [0]))
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype"):
        torch.tensordot(a, torch.ones(3, 2, dtype=F64), dims=1)
    with pytest.raises(TypeError, match=r"tensordot\(\): argument 'b' must be Tensor, not int"):
        torch.tensordot(a, 1)


# ---- einsum -----------------------------------------------------------------------------------
EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij->ji", [(3, 4)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,i->", [(5,), (5,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...i,i->...", [(2, 3, 4), (4,)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 5)]),
    ("iij->ij", [(3, 3, 2)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ba", [(3, 4)]),
    ("ij,kl->ikjl", [(2, 3), (4, 5)]),
    ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 5)]),
    ("i,i,i->i", [(4,), (4,), (4,)]),
    (" i j , j k -> i k ", [(3, 4), (4, 5)]),
    ("ij,j->i", [(3, 1), (5,)]),
    ("i->", [(0,)]),
    ("ij,jk->ik", [(3, 0), (0, 5)]),
    (",i->i", [(), (3,)]),
    ("Ab,bA->A", [(3, 4), (4, 3)]),
]


@pytest.mark.parametrize("dt", [F64, F32, I64, I32])
@pytest.mark.parametrize("eq,shapes", EINSUM_CASES)
def test_einsum(eq, shapes, dt):
    rng = np.random.default_rng(len(eq))
    ts, ns = zip(*[rand(rng, s, dt) for s in shapes])
    ts = [layout(t, "transposed") if i % 2 else t for i, t in enumerate(ts)]
    r = torch.einsum(eq, *ts)
    npeq = eq.replace(" ", "")
    ref = np.einsum(npeq, *ns)
    bound = np.einsum(npeq, *[np.abs(n) for n in ns])
    check(r, ref.astype(NP[dt]) if dt in INTS else ref, bound * 2 + 1e-300, dt)
    r2 = torch.einsum(eq, ts)  # operands as one list
    assert np.array_equal(r2.numpy(), r.numpy())


def test_einsum_sublist_and_errors():
    a, b = torch.ones(2, 3), torch.ones(3, 4)
    assert np.array_equal(torch.einsum(a, [0, 1], b, [1, 2], [0, 2]).numpy(), np.full((2, 4), 3.0))
    assert torch.einsum(a, [0, 1], b, [1, 2]).shape == (2, 4)
    cases = [
        (("ij,jk->ik", a), "fewer operands were provided than specified in the equation"),
        (("ij->ij", a, b), "more operands were provided than specified in the equation"),
        (("i1", a), "invalid subscript given at index 1 in the equation string, subscripts must be in \\[a-zA-Z\\]"),
        (("ijk", a), "the number of subscripts in the equation \\(3\\) does not match the number of dimensions \\(2\\) for operand 0 and no ellipsis was given"),
        (("ijk...", a), "the number of subscripts in the equation \\(3\\) is more than the number of dimensions \\(2\\) for operand 0"),
        (("ij->k", a), "output subscript k does not appear in the equation for any input operand"),
        (("ij->ii", a), "output subscript i appears more than once in the output"),
        (("i.j", a), "found '.' for operand 0 that is not part of any ellipsis"),
        (("ii", a), "subscript i is repeated for operand 0 but the sizes don't match, 2 != 3"),
        (("ij,jk", a, torch.ones(4, 4)), "operands do not broadcast"),
        (("ij,jk", a, torch.ones(3, 4, dtype=F64)), "expected m1 and m2 to have the same dtype"),
    ]
    for args, msg in cases:
        with pytest.raises(RuntimeError, match="einsum\\(\\): " + msg if "m1" not in msg else msg):
            torch.einsum(*args)
    with pytest.raises(TypeError, match="einsum\\(\\): argument 'operands' must be tuple of Tensors"):
        torch.einsum("i", [1, 2])


# ---- properties -------------------------------------------------------------------------------
@st.composite
def matmul_shapes(draw):
    n, k, p = (draw(st.integers(0, 6)) for _ in range(3))
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    ba = [draw(st.sampled_from([1, s])) for s in batch]
    bb = [draw(st.sampled_from([1, s])) for s in batch]
    ba = ba[draw(st.integers(0, len(ba))):]
    ra, rb = draw(st.sampled_from(["vec", "mat"])), draw(st.sampled_from(["vec", "mat"]))
    sa = (k,) if ra == "vec" else tuple(ba) + (n, k)
    sb = (k,) if rb == "vec" else tuple(bb) + (k, p)
    return sa, sb


@SETTINGS
@given(shapes=matmul_shapes(), dt=st.sampled_from([F32, F64, I64, F16]),
       la=st.sampled_from(["contig", "transposed", "strided"]), blas=st.booleans())
def test_matmul_property(shapes, dt, la, blas):
    sa, sb = shapes
    rng = np.random.default_rng(0)
    a, na = rand(rng, sa, dt)
    b, nb = rand(rng, sb, dt)
    torch._C._blas_set_enabled(blas)
    try:
        r = torch.matmul(layout(a, la), layout(b, la))
    finally:
        torch._C._blas_set_enabled(True)
    check(r, ref_matmul(na, nb, dt), np.matmul(np.abs(na), np.abs(nb)), dt)


@st.composite
def einsum_problems(draw):
    sizes = {c: draw(st.integers(0, 3)) for c in "abcd"}
    nops = draw(st.integers(1, 3))
    terms = [draw(st.lists(st.sampled_from("abcd"), max_size=4)) for _ in range(nops)]
    used = sorted({c for t in terms for c in t})
    if draw(st.booleans()):
        out = draw(st.permutations(used))[:draw(st.integers(0, len(used)))]
        eq = ",".join("".join(t) for t in terms) + "->" + "".join(out)
    else:
        eq = ",".join("".join(t) for t in terms)
    return eq, [tuple(sizes[c] for c in t) for t in terms]


@SETTINGS
@given(problem=einsum_problems(), dt=st.sampled_from([F64, I64]))
def test_einsum_property(problem, dt):
    eq, shapes = problem
    rng = np.random.default_rng(1)
    ts, ns = zip(*[rand(rng, s, dt) for s in shapes])
    r = torch.einsum(eq, *ts)
    ref = np.einsum(eq, *ns)
    bound = np.einsum(eq, *[np.abs(n) for n in ns])
    check(r, ref, bound * 4 + 1e-300, dt)


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("m,k,n", [(130, 150, 257), (700, 90, 7), (3, 2000, 900), (257, 64, 33)])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_large_products_split_over_the_pool(threads, m, k, n, ta, tb):
    """Note [One thread pool]: products large enough are split into column (or, when C is
    narrow, row) blocks, one single-threaded BLAS call each; every layout and an uneven split
    give numpy's result, with and without beta."""
    rng = np.random.default_rng(m * n + k)
    a = rng.standard_normal((k, m) if ta else (m, k))
    b = rng.standard_normal((n, k) if tb else (k, n))
    c = rng.standard_normal((m, n))
    prev = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for dt, tol in ((torch.float64, 1e-10), (torch.float32, 1e-3)):
            A = torch.from_numpy(a).to(dt)
            B = torch.from_numpy(b).to(dt)
            A, B = (A.t() if ta else A), (B.t() if tb else B)
            want = (a.T if ta else a) @ (b.T if tb else b)
            np.testing.assert_allclose(torch.mm(A, B).double().numpy(), want, rtol=tol, atol=tol)
            got = torch.addmm(torch.from_numpy(c).to(dt), A, B, beta=0.5, alpha=2.0)
            np.testing.assert_allclose(got.double().numpy(), 0.5 * c + 2 * want, rtol=tol,
                                       atol=tol * 10)
            batch = torch.stack([A, A * 2])
            np.testing.assert_allclose(torch.bmm(batch, torch.stack([B, B])).double().numpy(),
                                       np.stack([want, 2 * want]), rtol=tol, atol=tol * 10)
            x = torch.from_numpy(rng.standard_normal(k)).to(dt)
            np.testing.assert_allclose(torch.mv(A, x).double().numpy(),
                                       (a.T if ta else a) @ x.double().numpy(), rtol=tol,
                                       atol=tol * 10)
    finally:
        torch.set_num_threads(prev)


@pytest.mark.parametrize("dt", [F32, torch.float64])
@pytest.mark.parametrize("m,k,n", [(2, 3, 2), (5, 7, 9), (64, 32, 64), (200, 300, 150)])
def test_gemm_into_nan_output_overwrites(engine, dt, m, k, n):
    """The GEMM path writes a beta = 0 product without clearing C first: NaN already in the
    output (an out= tensor, recycled memory) must never show in the result."""
    rng = np.random.RandomState(m + n)
    a = rng.randn(m, k)
    b = rng.randn(k, n)
    ref = a @ b
    tol = dict(rtol=1e-4, atol=1e-4) if dt == F32 else dict(rtol=1e-10, atol=1e-10)
    ta, tb = torch.tensor(a, dtype=dt), torch.tensor(b, dtype=dt)
    out = torch.full((m, n), float("nan"), dtype=dt)
    torch.mm(ta, tb, out=out)
    np.testing.assert_allclose(out.numpy(), ref, **tol)
    # transposed operands (the BLAS's transpose flags)
    out = torch.full((m, n), float("nan"), dtype=dt)
    torch.mm(torch.tensor(a.T.copy(), dtype=dt).t(), torch.tensor(b.T.copy(), dtype=dt).t(), out=out)
    np.testing.assert_allclose(out.numpy(), ref, **tol)
    # batched, into recycled NaN memory
    for _ in range(2):
        junk = torch.full((3 * m * n + 64,), float("nan"), dtype=dt)
        del junk
        r = torch.bmm(torch.stack([ta, 2 * ta, -ta]), torch.stack([tb, tb, tb]))
        np.testing.assert_allclose(r.numpy(), np.stack([ref, 2 * ref, -ref]), **tol)
