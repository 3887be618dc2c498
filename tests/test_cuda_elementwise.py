"""CUDA elementwise kernels: every pointwise op of the op list with a CUDA kernel, over the
dtypes the CPU has it for, compared with the same op on the CPU (bit-identical where both
compute the same expression, allclose for the transcendental functions, whose libm and CUDA
implementations round differently); broadcasting, strided and 0-d operands, empty tensors,
scalar operands, type promotion, out= and in-place forms, the composite pointwise ops made of
these kernels (where, clamp, lerp, masked_fill, addcmul, ...), and torch's errors.  Runs on a
GPU or on the emulated device (MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped without
one."""
import math

import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
REALS = FLOATS + INTS + [torch.bool]


def _values(dtype, shape=(5, 7), seed=0, low=-4.0, high=4.0, positive=False):
    g = np.random.default_rng(seed)
    if dtype == torch.bool:
        return torch.tensor(g.random(shape) > 0.5)
    if dtype in INTS:
        lo = 0 if (positive or dtype == torch.uint8) else -20
        return torch.tensor(g.integers(lo, 20, size=shape)).to(dtype)
    if dtype.is_complex:
        re, im = g.uniform(low, high, shape), g.uniform(low, high, shape)
        return torch.tensor(re + 1j * im).to(dtype)
    lo = 0.1 if positive else low
    return torch.tensor(g.uniform(lo, high, shape)).to(dtype)


def _same(r, expect, exact=True, rtol=None, atol=None):
    """r (a CUDA result) against expect (the CPU's)."""
    assert r.is_cuda
    assert r.dtype == expect.dtype and r.shape == expect.shape
    got = r.cpu()
    if exact or expect.dtype in (torch.bool,) or not (expect.dtype.is_floating_point or
                                                      expect.dtype.is_complex):
        assert torch.equal(got.isnan(), expect.isnan()) if expect.dtype.is_floating_point else True
        if expect.dtype.is_floating_point:
            m = ~expect.isnan()
            assert torch.equal(got[m], expect[m])
        else:
            assert torch.equal(got, expect)
        return
    wide = expect.dtype in (torch.float16, torch.bfloat16)
    if rtol is None:
        rtol = {torch.float32: 2e-5, torch.float64: 1e-12, torch.complex64: 2e-5,
                torch.complex128: 1e-12}.get(expect.dtype, 1e-2)
    if atol is None:
        atol = 1e-2 if wide else rtol
    a = got.double() if not expect.dtype.is_complex else got.to(torch.complex128)
    b = expect.double() if not expect.dtype.is_complex else expect.to(torch.complex128)
    assert torch.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True)


def _both(fn, *args, **kwargs):
    """fn on the CPU and on CUDA (tensor arguments moved): (cpu result, cuda result) or the
    CPU's exception type, which CUDA must raise too."""
    try:
        expect = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the CPU's error is the specification
        with pytest.raises(type(e)):
            fn(*[a.cuda() if isinstance(a, torch.Tensor) else a for a in args], **kwargs)
        return None, None
    got = fn(*[a.cuda() if isinstance(a, torch.Tensor) else a for a in args], **kwargs)
    return expect, got


# ---- binary ops ---------------------------------------------------------------------------------

EXACT_BINARY = ["add", "sub", "mul", "div", "remainder", "fmod", "maximum", "minimum", "fmax",
                "fmin", "copysign", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
                "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
                "bitwise_left_shift", "bitwise_right_shift"]
CLOSE_BINARY = ["pow", "atan2", "hypot", "logaddexp", "logaddexp2", "xlogy"]


@pytest.mark.parametrize("dtype", REALS, ids=str)
@pytest.mark.parametrize("op", EXACT_BINARY + CLOSE_BINARY)
def test_binary(op, dtype):
    a = _values(dtype, seed=1)
    b = _values(dtype, seed=2, positive=op in ("remainder", "fmod", "div", "pow"))
    if op.startswith("bitwise_") and "shift" in op and dtype in INTS:
        b = _values(dtype, seed=2, positive=True).remainder(8) if dtype != torch.bool else b
    if op in ("remainder", "fmod") and dtype in INTS:
        b = b.masked_fill(b == 0, 3)
    expect, got = _both(getattr(torch, op), a, b)
    if expect is not None:
        exact = op in EXACT_BINARY or not (dtype.is_floating_point)
        _same(got, expect, exact=exact)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int16,
                                   torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_div_rounding_modes(dtype, mode):
    a = _values(dtype, seed=3)
    b = _values(dtype, seed=4, positive=True)
    b = torch.where(_values(torch.bool, seed=5), b, -b) if dtype != torch.uint8 else b
    _same(torch.div(a.cuda(), b.cuda(), rounding_mode=mode), torch.div(a, b, rounding_mode=mode))
    _same(torch.floor_divide(a.cuda(), b.cuda()), torch.floor_divide(a, b))


@pytest.mark.parametrize("op", ["remainder", "fmod", "floor_divide"])
def test_integer_division_by_zero(op):
    a = torch.tensor([5, -3, 7], device="cuda")
    b = torch.tensor([2, 0, 1], device="cuda")
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        getattr(torch, op)(a, b)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.div(a, b, rounding_mode="trunc")
    # no zero: fine (the flag is per call)
    _same(getattr(torch, op)(a, b + 1), getattr(torch, op)(a.cpu(), b.cpu() + 1))


def test_alpha_and_complex():
    for dtype in [torch.float32, torch.float64, torch.int64, torch.int8]:
        a, b = _values(dtype, seed=6), _values(dtype, seed=7)
        alpha = 3 if dtype in INTS else 0.75
        _same(torch.add(a.cuda(), b.cuda(), alpha=alpha), torch.add(a, b, alpha=alpha),
              exact=dtype in INTS, rtol=1e-6 if dtype == torch.float32 else 1e-14, atol=1e-6)
        _same(torch.sub(a.cuda(), b.cuda(), alpha=alpha), torch.sub(a, b, alpha=alpha),
              exact=dtype in INTS, rtol=1e-6 if dtype == torch.float32 else 1e-14, atol=1e-6)
    bb = _values(torch.bool, seed=8)
    _same(torch.add(bb.cuda(), bb.cuda(), alpha=True), torch.add(bb, bb, alpha=True))
    for dtype in [torch.complex64, torch.complex128]:
        a, b = _values(dtype, seed=9), _values(dtype, seed=10)
        for op in ["add", "sub", "mul"]:
            _same(getattr(torch, op)(a.cuda(), b.cuda()), getattr(torch, op)(a, b))
        _same(torch.add(a.cuda(), b.cuda(), alpha=2 - 1j), torch.add(a, b, alpha=2 - 1j),
              exact=False)
        _same(a.cuda() / b.cuda(), a / b, exact=False)
        for op in ["eq", "ne", "logical_and", "logical_or", "logical_xor"]:
            _same(getattr(torch, op)(a.cuda(), b.cuda()), getattr(torch, op)(a, b))


# ---- unary ops ----------------------------------------------------------------------------------

EXACT_UNARY = ["neg", "abs", "sign", "sgn", "sqrt", "floor", "ceil", "round", "trunc", "frac",
               "reciprocal", "square", "logical_not", "bitwise_not", "isnan", "isinf",
               "isfinite", "signbit", "relu", "deg2rad", "rad2deg", "angle", "conj_physical",
               "rsqrt"]
CLOSE_UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
               "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
               "sigmoid", "erf", "erfc", "erfinv", "lgamma", "sinc"]
DOMAIN = {"sqrt": (0.1, 9), "rsqrt": (0.1, 9), "log": (0.1, 9), "log2": (0.1, 9),
          "log10": (0.1, 9), "log1p": (-0.9, 9), "asin": (-1, 1), "acos": (-1, 1),
          "atanh": (-0.99, 0.99), "acosh": (1, 9), "erfinv": (-0.99, 0.99), "lgamma": (0.1, 6)}


@pytest.mark.parametrize("dtype", REALS, ids=str)
@pytest.mark.parametrize("op", EXACT_UNARY + CLOSE_UNARY)
def test_unary(op, dtype):
    lo, hi = DOMAIN.get(op, (-4, 4))
    a = _values(dtype, seed=11, low=lo, high=hi)
    if dtype.is_floating_point:
        a[0, 0] = float("nan")
        a[0, 1] = float("inf")
        a[0, 2] = -0.0
    fn = getattr(torch, op)
    expect, got = _both(fn, a)
    if expect is None:
        return
    # rsqrt is 1 / sqrt (both correctly rounded); the rounding of the 16-bit floats is the
    # same either way
    exact = op in EXACT_UNARY or not expect.dtype.is_floating_point
    if exact:
        assert np.array_equal(got.cpu().double().numpy(), expect.double().numpy(),
                              equal_nan=True)
    else:
        _same(got, expect, exact=False)


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128], ids=str)
def test_unary_complex(dtype):
    a = _values(dtype, seed=12)
    for op in ["neg", "conj_physical", "square", "logical_not", "isnan", "isinf", "isfinite"]:
        _same(getattr(torch, op)(a.cuda()), getattr(torch, op)(a))
    for op in ["abs", "angle", "sgn", "reciprocal"]:
        _same(getattr(torch, op)(a.cuda()), getattr(torch, op)(a), exact=False)


def test_activations_and_backward_ops():
    x = _values(torch.float32, shape=(6, 9), seed=13)
    F = torch.nn.functional
    for f in [F.relu, F.gelu, lambda t: F.gelu(t, approximate="tanh"), F.silu, F.elu,
              F.leaky_relu, F.softplus, F.hardtanh, F.relu6, F.hardsigmoid, F.hardswish,
              F.mish, F.selu, F.celu, F.logsigmoid, F.softsign, F.tanhshrink,
              lambda t: F.threshold(t, 0.5, -1.0), F.hardshrink, F.softshrink]:
        # (the CPU's float32 GELU uses a vectorised erf within 1.5e-7 of libm's)
        _same(f(x.cuda()), f(x), exact=False, rtol=1e-4, atol=1e-5)
    # the derivatives (relu_backward, leaky_scale, gelu_backward) through autograd, with an
    # explicit output gradient
    g = _values(torch.float32, shape=(6, 9), seed=14)
    for f in [F.relu, F.gelu, lambda t: F.gelu(t, approximate="tanh"), F.leaky_relu,
              torch.sigmoid, torch.tanh, F.silu]:
        xc = x.cuda().requires_grad_()
        f(xc).backward(g.cuda())
        xr = x.clone().requires_grad_()
        f(xr).backward(g)
        assert xc.grad.is_cuda
        _same(xc.grad, xr.grad, exact=False, rtol=1e-4, atol=1e-5)


# ---- ternary and composite pointwise ops --------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16,
                                   torch.complex64, torch.uint8], ids=str)
def test_where_and_masked_fill(dtype):
    c = _values(torch.bool, shape=(4, 1, 5), seed=15)
    x = _values(dtype, shape=(3, 5), seed=16)
    y = _values(dtype, shape=(4, 3, 1), seed=17)
    _same(torch.where(c.cuda(), x.cuda(), y.cuda()), torch.where(c, x, y))
    _same(torch.where(c.cuda(), x.cuda(), 0), torch.where(c, x, 0))
    m = _values(torch.bool, shape=(3, 5), seed=18)
    _same(x.cuda().masked_fill(m.cuda(), 1), x.masked_fill(m, 1))
    _same(x.cuda().masked_fill(m.cuda(), torch.tensor(1)), x.masked_fill(m, torch.tensor(1)))


def test_composite_pointwise():
    x = _values(torch.float32, seed=19)
    y = _values(torch.float32, seed=20)
    z = _values(torch.float32, seed=21, positive=True)
    lo = _values(torch.float32, seed=22, low=-2, high=0)
    xc, yc, zc, loc = x.cuda(), y.cuda(), z.cuda(), lo.cuda()
    _same(torch.clamp(xc, -1, 2), torch.clamp(x, -1, 2))
    _same(torch.clamp(xc, min=loc), torch.clamp(x, min=lo))
    _same(torch.clamp_min(xc, 0.5), torch.clamp_min(x, 0.5))
    _same(torch.clamp_max(xc, 0.5), torch.clamp_max(x, 0.5))
    _same(torch.clamp(_values(torch.int64).cuda(), -3, 4), torch.clamp(_values(torch.int64), -3, 4))
    _same(torch.lerp(xc, yc, 0.3), torch.lerp(x, y, 0.3), exact=False, rtol=1e-6, atol=1e-6)
    _same(torch.lerp(xc, yc, zc / 5), torch.lerp(x, y, z / 5), exact=False, rtol=1e-6, atol=1e-6)
    _same(torch.addcmul(xc, yc, zc, value=0.5), torch.addcmul(x, y, z, value=0.5),
          exact=False, rtol=1e-6, atol=1e-6)
    _same(torch.addcdiv(xc, yc, zc, value=2), torch.addcdiv(x, y, z, value=2), exact=False,
          rtol=1e-6, atol=1e-6)
    w = x.clone()
    w[0, :3] = torch.tensor([float("nan"), float("inf"), -float("inf")])
    _same(torch.nan_to_num(w.cuda()), torch.nan_to_num(w))
    _same(torch.nan_to_num(w.cuda(), nan=1.0, posinf=2.0, neginf=-2.0),
          torch.nan_to_num(w, nan=1.0, posinf=2.0, neginf=-2.0))


# ---- layouts, scalars, promotion, out= ---------------------------------------------------------

def test_broadcast_strided_and_0d():
    a = _values(torch.float32, shape=(4, 1, 6), seed=23)
    b = _values(torch.float64, shape=(3, 1), seed=24)
    _same(a.cuda() * b.cuda(), a * b)
    x = _values(torch.int32, shape=(6, 8), seed=25)
    y = _values(torch.int32, shape=(8, 6), seed=26)
    _same(x.cuda()[:, ::2] - y.cuda().t()[:, 1::2], x[:, ::2] - y.t()[:, 1::2])
    # a 0-d CUDA tensor is an operand like any other; a 0-d cpu tensor is a scalar operand
    s = torch.tensor(2.5, dtype=torch.float64)
    _same(x.cuda() * s.cuda(), x * s)
    _same(x.cuda() * s, x * s)
    _same(s.cuda() + s.cuda(), s + s)
    h = _values(torch.float16, seed=27)
    _same(h.cuda() + torch.tensor(1.1, device="cuda"), h + torch.tensor(1.1))
    _same(h.cuda() * 0.1, h * 0.1)
    _same(h.cuda() - torch.tensor(3, device="cuda"), h - torch.tensor(3))
    _same(torch.tensor(7, device="cuda") // torch.tensor(2), torch.tensor(7) // torch.tensor(2))


def test_empty_and_many_blocks():
    e = torch.empty(0, 3, device="cuda")
    assert (e + 1).shape == (0, 3) and (e + 1).is_cuda
    assert torch.sin(e).shape == (0, 3)
    n = 100003  # several blocks, and a tail after the four-element vectors
    a = torch.arange(n, dtype=torch.float32) * 0.5
    b = torch.arange(n, dtype=torch.float32).flip(0)
    ac, bc = a.cuda(), b.cuda()
    _same(ac + bc, a + b)
    _same(ac[1:] * bc[:-1], a[1:] * b[:-1])  # misaligned: the element-wise path
    _same(ac[::3] - 1, a[::3] - 1)
    _same(torch.maximum(ac.double(), bc), torch.maximum(a.double(), b))
    _same(ac > bc, a > b)
    one = torch.tensor([2.0])  # a broadcast (stride 0) device operand beside contiguous ones
    _same(ac + one.cuda(), a + one)
    m = (a.long() % 3) == 0
    _same(torch.where(m.cuda(), ac, bc), torch.where(m, a, b))
    _same(torch.where(m.cuda(), ac, one.cuda()), torch.where(m, a, one))
    i = torch.arange(n, dtype=torch.int64)
    _same(i.cuda() // 7, i // 7)


def test_promotion_across_dtypes():
    pairs = [(torch.int8, torch.uint8), (torch.int64, torch.float16), (torch.bool, torch.int32),
             (torch.float16, torch.bfloat16), (torch.int32, torch.float64),
             (torch.uint8, torch.bool), (torch.float32, torch.complex64)]
    for da, db in pairs:
        a, b = _values(da, seed=28), _values(db, seed=29)
        for op in ["add", "mul", "eq", "lt", "maximum"]:
            expect, got = _both(getattr(torch, op), a, b)
            if expect is not None:
                _same(got, expect)
    x = _values(torch.int64, seed=30)
    _same(torch.sqrt(x.abs().cuda()), torch.sqrt(x.abs()))  # integer to the default dtype
    _same(x.cuda() / 3, x / 3)
    _same(x.cuda() * 1.5, x * 1.5)
    _same(x.cuda() + True, x + True)


def test_out_and_in_place():
    x, y = _values(torch.float32, seed=31), _values(torch.float32, seed=32)
    o = torch.empty(5, 7, dtype=torch.float64, device="cuda")
    torch.mul(x.cuda(), y.cuda(), out=o)
    _same(o, (x * y).double())
    ob = torch.empty(5, 7, dtype=torch.bool, device="cuda")
    torch.lt(x.cuda(), y.cuda(), out=ob)
    _same(ob, x < y)
    oi = torch.empty(5, 7, dtype=torch.int64, device="cuda")
    torch.bitwise_and(_values(torch.int32).cuda(), 6, out=oi)
    _same(oi, torch.bitwise_and(_values(torch.int32), 6).long())
    c = x.cuda()
    c.mul_(y.cuda()).sub_(1.5).clamp_(-1, 1)
    _same(c, (x * y - 1.5).clamp(-1, 1))
    t = x.cuda().t()
    t.add_(torch.ones(7, 1, device="cuda"))
    _same(t, x.t() + 1)
    i = _values(torch.int16, seed=33).cuda()
    i.bitwise_xor_(5).neg_()
    _same(i, -(_values(torch.int16, seed=33) ^ 5))
    with pytest.raises(RuntimeError, match="result type Float can't be cast"):
        _values(torch.int64).cuda().add_(1.5)
    # an out= of another shape is resized, as on the cpu
    o3 = torch.empty(0, device="cuda", dtype=torch.float64)
    torch.add(x.cuda(), y.cuda(), out=o3)
    _same(o3, (x + y).double())


def test_errors():
    f = _values(torch.float32).cuda()
    with pytest.raises(NotImplementedError, match="bitwise_and_cuda.*Float"):
        f & f
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        f + _values(torch.float32)
    b = _values(torch.bool).cuda()
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool"):
        b - b
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool"):
        -b
    with pytest.raises(RuntimeError, match="torch.sign is not intended to support complex"):
        torch.sign(_values(torch.complex64).cuda())
    with pytest.raises(RuntimeError, match="Integers to negative integer powers"):
        _values(torch.int64).cuda() ** -1
    with pytest.raises(RuntimeError, match="where expected condition to be a boolean"):
        torch.where(f, f, f)
