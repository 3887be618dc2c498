"""CUDA reductions (the generic reduction kernel, Note [CUDA reduction]): every op of the cpu's
table over dtypes, dims, layouts and sizes (one block per output, many outputs per block, the
split scheme for few outputs over a long range), compared with the same reduction on the CPU;
NaN propagation, first-index ties, identities of empty reductions and torch's errors.  Runs on
a GPU or on the emulated device (.ci/cuda_emulated); skipped without one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

ALL_REAL = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
            torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool]


def _values(shape, dtype, seed=0, low=-3, high=4):
    g = np.random.default_rng(seed)
    if dtype == torch.bool:
        return torch.from_numpy(g.integers(0, 2, size=shape).astype(np.bool_))
    if dtype.is_complex:
        re = g.standard_normal(shape)
        im = g.standard_normal(shape)
        return torch.from_numpy(re + 1j * im).to(dtype)
    if dtype.is_floating_point:
        return torch.from_numpy(g.uniform(low, high, size=shape)).to(dtype)
    return torch.from_numpy(g.integers(low, high, size=shape)).to(dtype)


def _tol(dtype, op):
    if dtype in (torch.float16, torch.bfloat16):
        return dict(rtol=1e-2, atol=1e-2)
    if dtype in (torch.float32, torch.complex64):
        return dict(rtol=2e-5, atol=1e-4)
    return dict(rtol=1e-12, atol=1e-9)


def _check(fn, x, exact=False, **kw):
    want = fn(x)
    got = fn(x.cuda())
    assert got.device.type == "cuda"
    got = got.cpu()
    assert got.dtype == want.dtype and got.shape == want.shape
    if not (want.dtype.is_floating_point or want.dtype.is_complex):
        assert torch.equal(got, want), (got, want)
    elif exact:
        ct = torch.complex128 if want.dtype.is_complex else torch.float64
        np.testing.assert_array_equal(got.to(ct).numpy(), want.to(ct).numpy())
    else:
        np.testing.assert_allclose(got.to(torch.complex128 if want.dtype.is_complex
                                          else torch.float64).numpy(),
                                   want.to(torch.complex128 if want.dtype.is_complex
                                           else torch.float64).numpy(), equal_nan=True, **kw)


OPS = ["sum", "prod", "amax", "amin", "all", "any", "argmax", "argmin"]


@pytest.mark.parametrize("dtype", ALL_REAL)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dim,keepdim", [(None, False), (0, False), (-1, True), ((0, 2), False),
                                         ((2, 0), True)])
def test_ops_dtypes_dims(op, dtype, dim, keepdim):
    if op in ("argmax", "argmin") and dtype == torch.bool:
        pytest.skip("torch has no argmax for bool")
    if op in ("argmax", "argmin") and isinstance(dim, tuple):
        pytest.skip("argmax takes one dim")
    x = _values((3, 5, 7), dtype, low=-2 if op == "prod" else -3, high=3 if op == "prod" else 4)
    if op == "prod" and dtype.is_floating_point:
        x = x / 2 + 1
    kwargs = {} if dim is None else {"dim": dim, "keepdim": keepdim}
    exact = op not in ("sum", "prod")
    _check(lambda t: getattr(t, op)(**kwargs), x, exact=exact, **_tol(dtype, op))


@pytest.mark.parametrize("op", ["sum", "prod", "all", "any"])
@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_complex(op, dtype):
    x = _values((4, 33), dtype)
    _check(lambda t: getattr(t, op)(dim=1), x, **_tol(dtype, op))
    _check(lambda t: getattr(t, op)(), x, **_tol(dtype, op))


@pytest.mark.parametrize("op", ["amax", "amin", "argmax", "argmin"])
def test_complex_ordering_error(op):
    x = torch.ones(3, dtype=torch.complex64, device="cuda")
    with pytest.raises(RuntimeError, match="does not support complex"):
        getattr(x, op)()


def test_sum_dtype_argument_and_integer_widening():
    x = _values((6, 50), torch.int8, low=-128, high=127)
    _check(lambda t: t.sum(1), x)
    _check(lambda t: t.sum(), x)
    _check(lambda t: t.sum(0, dtype=torch.float64), x)
    b = _values((300,), torch.bool)
    _check(lambda t: t.sum(), b)
    u = _values((5, 9), torch.uint8, low=0, high=255)
    _check(lambda t: t.all(1), u)
    _check(lambda t: t.any(0), u)


def test_zero_dim():
    for dtype in (torch.float32, torch.int64, torch.bool):
        x = torch.tensor(3, dtype=dtype)
        for op in ("sum", "prod", "amax", "amin", "all", "any"):
            _check(lambda t: getattr(t, op)(), x, exact=True)
        if dtype != torch.bool:
            _check(lambda t: t.argmax(), x)
            _check(lambda t: t.argmin(dim=0, keepdim=True), x)


def test_empty_reductions_identity():
    x = torch.zeros(3, 0, 4)
    for op in ("sum", "prod", "all", "any"):
        _check(lambda t: getattr(t, op)(dim=1), x, exact=True)
        _check(lambda t: getattr(t, op)(), x, exact=True)
    xi = torch.zeros(0, 5, dtype=torch.int32)
    _check(lambda t: t.sum(0), xi)
    _check(lambda t: t.prod(0), xi)
    # no output element: nothing to compute
    _check(lambda t: t.sum(1), xi)
    _check(lambda t: t.amax(1), xi)


@pytest.mark.parametrize("op", ["amax", "argmax", "argmin"])
def test_empty_ordering_errors(op):
    x = torch.zeros(3, 0, device="cuda")
    with pytest.raises(IndexError, match="Expected reduction dim 1 to have non-zero size"):
        getattr(x, op)(dim=1)
    with pytest.raises((RuntimeError, IndexError), match="Expected reduction dim to be specified"):
        getattr(x, op)()


def test_non_contiguous_inputs():
    base = _values((6, 8, 10), torch.float32)
    views = [base.transpose(0, 2), base[:, ::2, 1::3], base.permute(1, 2, 0)[2:, :, ::-1]
             if False else base.permute(1, 2, 0)[2:], base.transpose(0, 1)[::2]]
    for v in views:
        assert not v.is_contiguous()
        for dim in (None, 0, 1, (0, 2), (1, 2)):
            kw = {} if dim is None else {"dim": dim}
            _check(lambda t: t.sum(**kw), v, rtol=2e-5, atol=1e-4)
            _check(lambda t: t.amax(**kw), v, exact=True)
        _check(lambda t: t.argmax(dim=1), v)
        _check(lambda t: t.argmin(), v)


def test_large_range_few_outputs_uses_many_blocks():
    x = _values((100003,), torch.float32, seed=3)
    _check(lambda t: t.sum(), x, rtol=1e-5, atol=1e-3)
    _check(lambda t: t.amax(), x, exact=True)
    _check(lambda t: t.argmin(), x)
    d = x.double()
    _check(lambda t: t.sum(), d, rtol=1e-12, atol=1e-9)
    i = _values((3, 40000), torch.int64, low=-1000, high=1000)
    _check(lambda t: t.sum(1), i)
    _check(lambda t: t.amin(1), i)
    # a column reduction over a long range
    c = _values((20000, 5), torch.float64)
    _check(lambda t: t.sum(0), c, rtol=1e-12, atol=1e-9)
    _check(lambda t: t.argmax(0), c)
    # accuracy of a long float sum: close to the float64 sum
    ones = torch.full((100000,), 0.1, dtype=torch.float32, device="cuda").sum().item()
    assert abs(ones - 10000.0) < 0.01


def test_many_outputs_small_range():
    x = _values((3000, 3), torch.float32)
    _check(lambda t: t.sum(1), x, rtol=2e-5, atol=1e-5)
    _check(lambda t: t.amax(1), x, exact=True)
    _check(lambda t: t.argmax(1), x)
    y = _values((3, 3000), torch.int32)
    _check(lambda t: t.sum(0), y)
    _check(lambda t: t.prod(0), y)
    _check(lambda t: t.any(0), y)
    z = _values((40, 7, 33), torch.float64)
    _check(lambda t: t.sum((0, 2)), z, rtol=1e-12, atol=1e-9)
    _check(lambda t: t.amin(1, keepdim=True), z, exact=True)


def test_nan_propagation_and_first_index():
    x = torch.tensor([[1.0, float("nan"), 3.0, float("nan")],
                      [2.0, 5.0, 5.0, -1.0],
                      [float("-inf"), float("-inf"), 0.0, float("inf")]])
    for op in ("amax", "amin", "argmax", "argmin", "sum"):
        _check(lambda t: getattr(t, op)(dim=1), x, exact=True)
        _check(lambda t: getattr(t, op)(dim=0), x, exact=True)
    assert x.cuda().argmax(dim=1).tolist() == [1, 1, 3]
    assert x.cuda().argmin(dim=1).tolist() == [1, 3, 0]
    # ties over a long range: the first index, whichever block found it
    t = torch.zeros(50000)
    t[123] = 7
    t[40000] = 7
    assert t.cuda().argmax().item() == 123
    t[30000] = float("nan")
    t[45000] = float("nan")
    assert t.cuda().argmax().item() == 30000
    assert t.cuda().argmin().item() == 30000
    assert np.isnan(t.cuda().amax().item())
    h = torch.tensor([1.0, float("nan"), 2.0], dtype=torch.float16)
    _check(lambda v: v.amax(), h, exact=True)
    _check(lambda v: v.argmin(), h)


def test_max_min_with_indices_and_composites():
    x = _values((4, 6, 5), torch.float32)
    for dim in (0, 1, -1):
        got = x.cuda().max(dim=dim)
        want = x.max(dim=dim)
        assert torch.equal(got.values.cpu(), want.values)
        assert torch.equal(got.indices.cpu(), want.indices)
        got = x.cuda().min(dim=dim, keepdim=True)
        want = x.min(dim=dim, keepdim=True)
        assert torch.equal(got[0].cpu(), want[0]) and torch.equal(got[1].cpu(), want[1])
    assert x.cuda().max().cpu().item() == x.max().item()
    _check(lambda t: t.mean(), x, rtol=1e-5, atol=1e-6)
    _check(lambda t: t.mean(dim=(0, 2), keepdim=True), x, rtol=1e-5, atol=1e-6)


def test_out_and_devices():
    x = _values((5, 6), torch.float32)
    y = x.cuda()
    assert y.sum(0).device == y.device
    if torch.cuda.device_count() > 1:
        z = x.to("cuda:1")
        r = z.sum(1)
        assert r.device == torch.device("cuda:1")
        np.testing.assert_allclose(r.cpu().numpy(), x.sum(1).numpy(), rtol=1e-6)


def test_barebones_unsigned():
    x = torch.arange(12, dtype=torch.int64).reshape(3, 4).to(torch.uint32)
    _check(lambda t: t.sum(1), x)
    _check(lambda t: t.all(), x)
    with pytest.raises(NotImplementedError):
        x.cuda().amax()


def test_bool_argmax_error_names_the_device():
    with pytest.raises(NotImplementedError, match="\"argmax_cuda\" not implemented for 'Bool'"):
        torch.ones(3, dtype=torch.bool, device="cuda").argmax()
