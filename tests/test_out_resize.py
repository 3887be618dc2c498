"""out= tensors of another shape are resized as torch resizes them (silently when empty, with
a deprecation warning when they had elements), for every family of ops; and Tensor.resize_."""
import warnings

import numpy as np
import pytest

import minitorch as torch

RESIZED = "was resized since it had shape"


def _ops():
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    ix = torch.tensor([[2, 0, 1, 1]])
    return [
        ("add", lambda out: torch.add(x, torch.ones(4), out=out), x + 1),
        ("mul broadcast", lambda out: torch.mul(x[:, :1], torch.ones(4), out=out), x[:, :1].expand(3, 4)),
        ("exp", lambda out: torch.exp(x, out=out), torch.exp(x)),
        ("eq", lambda out: torch.eq(x, 5, out=out), x == 5),
        ("where", lambda out: torch.where(x > 5, x, 0.0, out=out), torch.where(x > 5, x, 0.0)),
        ("clamp", lambda out: torch.clamp(x, 2, 7, out=out), x.clamp(2, 7)),
        ("sum dim", lambda out: torch.sum(x, 1, out=out), x.sum(1)),
        ("mean dim", lambda out: torch.mean(x, 0, out=out), x.mean(0)),
        ("var", lambda out: torch.var(x, 1, out=out), x.var(1)),
        ("cumsum", lambda out: torch.cumsum(x, 0, out=out), x.cumsum(0)),
        ("cat", lambda out: torch.cat([x, x], out=out), torch.cat([x, x])),
        ("stack", lambda out: torch.stack([x, x], out=out), torch.stack([x, x])),
        ("gather", lambda out: torch.gather(x, 0, ix, out=out), torch.gather(x, 0, ix)),
        ("index_select", lambda out: torch.index_select(x, 1, torch.tensor([0, 3]), out=out),
         x[:, [0, 3]]),
        ("tril", lambda out: torch.tril(x, out=out), torch.tril(x)),
        ("masked_select", lambda out: torch.masked_select(x, x > 8, out=out), x[x > 8]),
        ("mm", lambda out: torch.mm(x, x.t(), out=out), x @ x.t()),
        ("matmul", lambda out: torch.matmul(x, torch.ones(4), out=out), x @ torch.ones(4)),
        ("outer", lambda out: torch.outer(x[0], x[1], out=out), torch.outer(x[0], x[1])),
        ("tensordot", lambda out: torch.tensordot(x, x, dims=([1], [1]), out=out), x @ x.t()),
        ("addmm", lambda out: torch.addmm(x[:, :3], x, x.t(), out=out), x[:, :3] + x @ x.t()),
    ]


@pytest.mark.parametrize("name,fn,want", _ops(), ids=[o[0] for o in _ops()])
def test_empty_out_is_resized_silently(name, fn, want):
    out = torch.empty(0, dtype=want.dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = fn(out)
    assert r is out
    assert out.shape == want.shape
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-6)


@pytest.mark.parametrize("name,fn,want", _ops(), ids=[o[0] for o in _ops()])
def test_out_with_elements_is_resized_with_a_warning(name, fn, want):
    out = torch.full((7, 7, 7), -1.0).to(want.dtype)  # larger: keeps its storage
    storage_ptr = out.data_ptr()
    with pytest.warns(UserWarning, match=RESIZED + r" \[7, 7, 7\], which does not match the "
                      r"required output shape \[" + ", ".join(map(str, want.shape))):
        r = fn(out)
    assert r is out and out.shape == want.shape and out.is_contiguous()
    assert out.data_ptr() == storage_ptr
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-6)


def test_matching_out_keeps_strides_and_memory():
    out = torch.zeros(4, 3).t()  # non-contiguous, right shape: written in place, no warning
    ptr = out.data_ptr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.add(torch.ones(3, 4), 1, out=out)
    assert out.stride() == (1, 3) and out.data_ptr() == ptr
    assert out.tolist() == [[2.0] * 4] * 3


def test_tuple_outs_and_random_factories():
    x = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    v, i = torch.empty(0), torch.empty(0, dtype=torch.int64)
    r = torch.sort(x, 1, out=(v, i))
    assert r.values is v and r.indices is i and v.tolist() == [[1, 2, 3], [0, 4, 5]]
    v, i = torch.empty(0), torch.empty(0, dtype=torch.int64)
    torch.max(x, 1, out=(v, i))
    assert v.tolist() == [3.0, 5.0] and i.tolist() == [0, 1]
    v, i = torch.empty(0), torch.empty(0, dtype=torch.int64)
    torch.topk(x, 2, out=(v, i))
    assert v.shape == (2, 2)
    with pytest.raises(TypeError, match="tuple of two Tensors"):
        torch.sort(x, out=v)
    for fn in (lambda o: torch.rand(2, 5, out=o), lambda o: torch.randn(10, out=o),
               lambda o: torch.randperm(10, out=o.long())):
        o = torch.empty(0)
        assert fn(o).numel() == 10


def test_out_dtype_and_type_errors_still_raise():
    x = torch.ones(3)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output "
                       "type Long"):
        torch.add(x, 0.5, out=torch.empty(0, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        torch.sum(torch.ones(2, 3), 0, out=torch.empty(0, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype"):
        torch.mm(torch.ones(2, 2), torch.ones(2, 2), out=torch.empty(0, dtype=torch.float64))
    with pytest.raises(TypeError, match="'out' must be Tensor"):
        torch.cat([x, x], out=[1, 2])
    # in-place ops never resize self
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast "
                       r"shape \[2, 3\]"):
        x.add_(torch.ones(2, 3))


def test_out_borrowing_numpy_memory_cannot_grow():
    a = np.zeros(2, dtype=np.float32)
    out = torch.from_numpy(a)
    with pytest.raises(RuntimeError, match="not resizable"):
        with pytest.warns(UserWarning):
            torch.add(torch.ones(3), 1, out=out)
    assert out.shape == (2,)
    # shrinking stays inside the borrowed memory, which still sees the result
    with pytest.warns(UserWarning, match=RESIZED):
        torch.add(torch.ones(1), 1, out=out)
    assert a.tolist() == [2.0, 0.0]


def test_resize_():
    t = torch.arange(6, dtype=torch.float32)
    base_ptr = t.data_ptr()
    assert t.resize_(2, 3) is t and t.shape == (2, 3) and t.data_ptr() == base_ptr
    assert t.tolist() == [[0, 1, 2], [3, 4, 5]]
    t.resize_((4,))
    assert t.tolist() == [0, 1, 2, 3] and t.data_ptr() == base_ptr
    t.resize_(3, 3)  # grows: the old elements stay first
    assert t.shape == (3, 3) and t.view(-1)[:6].tolist() == [0, 1, 2, 3, 4, 5]
    t.resize_(0)
    assert t.shape == (0,) and t.numel() == 0
    s = torch.arange(10)[4:]
    s.resize_(2)
    assert s.tolist() == [4, 5] and s.storage_offset() == 4
    v = torch.zeros(2, 3).t()
    v.resize_(3, 2)  # same shape: nothing changes, not even the strides
    assert v.stride() == (1, 3)
    u = torch.empty(0, dtype=torch.int32)
    assert u.resize_as_(torch.ones(2, 5)).shape == (2, 5) and u.dtype == torch.int32
    with pytest.raises(RuntimeError, match="negative dimension"):
        t.resize_(-1)
    with pytest.raises(TypeError):
        t.resize_("a")
    with pytest.raises(TypeError, match="must be Tensor"):
        t.resize_as_([1, 2])
    with pytest.raises(RuntimeError, match="not resizable"):
        torch.from_numpy(np.zeros(2)).resize_(5)


def test_resize_rss_flat():
    import resource
    t = torch.empty(0)
    for _ in range(2000):
        t.resize_(1 << 12)
        t.resize_(0)
        torch.add(torch.ones(64), 1, out=torch.empty(0))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(20000):
        t = torch.empty(0)
        t.resize_(1 << 12)
        torch.add(torch.ones(64), 1, out=torch.empty(0))
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert after - before < 20_000, (before, after)  # KiB


def test_factories_write_into_out():
    o = torch.empty(0)
    assert torch.zeros(2, 3, out=o) is o and o.shape == (2, 3) and not o.any()
    with pytest.warns(UserWarning, match=RESIZED):
        assert torch.ones((4,), out=o).tolist() == [1.0] * 4
    i = torch.empty(0, dtype=torch.int64)
    assert torch.arange(5, out=i).tolist() == [0, 1, 2, 3, 4] and i.dtype == torch.int64
    assert torch.arange(0, 1, 0.5, out=torch.empty(0)).tolist() == [0.0, 0.5]
    assert torch.full((2,), 7, out=torch.empty(0, dtype=torch.int32)).tolist() == [7, 7]
    assert torch.eye(2, out=torch.empty(0, dtype=torch.float64)).tolist() == [[1, 0], [0, 1]]
    assert torch.linspace(0, 4, 3, out=torch.empty(0)).tolist() == [0.0, 2.0, 4.0]
    assert torch.logspace(0, 2, 3, out=torch.empty(0, dtype=torch.float64)).tolist() == \
        [1.0, 10.0, 100.0]
    keep = torch.tensor([1.0, 2.0])
    ptr = keep.data_ptr()
    assert torch.empty(2, out=keep) is keep and keep.tolist() == [1.0, 2.0]  # untouched
    assert keep.data_ptr() == ptr
    with pytest.warns(UserWarning, match=RESIZED):
        torch.zeros(3, out=torch.ones(2))
    with pytest.raises(RuntimeError, match="does not match dtype of out"):
        torch.eye(2, dtype=torch.float32, out=torch.empty(0, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="does not match dtype of out"):
        torch.full((2,), 1.0, dtype=torch.float64, out=torch.empty(0))


def test_resize_channels_last_not_supported():
    t = torch.randn(2 * 3 * 4 * 5)
    with pytest.raises(NotImplementedError, match="memory_format=minitorch.channels_last is not supported"):
        t.resize_((2, 3, 4, 5), memory_format=torch.channels_last)
    with pytest.raises(NotImplementedError, match="channels_last_3d"):
        t.resize_as_(torch.empty(1, 2, 3, 4, 5), memory_format=torch.channels_last_3d)
    t.resize_((2, 3, 4, 5), memory_format=torch.contiguous_format)
    assert t.shape == (2, 3, 4, 5) and t.is_contiguous()
    t.resize_as_(torch.empty(6), memory_format=torch.preserve_format)
    assert t.shape == (6,)


def test_resize_memory_format_bad_type():
    with pytest.raises(TypeError, match="memory_format"):
        torch.empty(2).resize_((2,), memory_format="channels_last")


@pytest.mark.parametrize("make", [
    lambda: torch.empty([0, 4, 2 ** 61]),
    lambda: torch.zeros(0, 4, 2 ** 62),
    lambda: torch.empty(0).view(0, 4, 2 ** 61),
    lambda: torch.empty(0).reshape(0, 4, 2 ** 61),
    lambda: torch.empty((), dtype=torch.float64).resize_([0, 4, 2 ** 61]),
])
def test_stride_overflow_of_empty_shapes(make):
    with pytest.raises(RuntimeError, match="Stride calculation overflowed"):
        make()


def test_large_empty_shapes_whose_strides_fit():
    assert torch.empty(2 ** 62, 0).stride() == (1, 1)
    assert torch.empty(0, 2 ** 62).stride() == (2 ** 62, 1)
