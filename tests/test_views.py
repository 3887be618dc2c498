"""View operations: new shapes and strides over the same storage (checked against NumPy)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import minitorch as torch

VIEW_MSG = ("view size is not compatible with input tensor's size and stride (at least one dimension "
            "spans across two contiguous subspaces). Use .reshape(...) instead.")


def base(*shape, dtype=torch.float32):
    n = int(np.prod(shape)) if shape else 1
    return torch.arange(n, dtype=dtype).view(*shape) if shape else torch.tensor(0, dtype=dtype)


def npy(t):
    return np.array(t.tolist())


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def dim_msg(lo, hi, got):
    return rf"Dimension out of range \(expected to be in range of \[{lo}, {hi}\], but got {got}\)"


# ---- view ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(12,), (3, 4), (4, 3), (2, 2, 3), (1, 12, 1), (-1,), (3, -1),
                                   (-1, 2, 2), (2, 1, -1, 1)])
def test_view_contiguous(shape):
    t = base(12)
    v = t.view(*shape)
    expected = np.arange(12.0).reshape(shape)
    assert v.shape == expected.shape
    assert v.tolist() == expected.tolist()
    assert v.is_contiguous()
    assert shares(v, t) and v.data_ptr() == t.data_ptr()
    assert t.view(shape).shape == expected.shape           # a tuple
    assert t.view(list(shape)).shape == expected.shape     # a list


def test_view_writes_through():
    t = torch.zeros(2, 3)
    t.view(6)[4] = 7.0
    assert t.tolist() == [[0.0, 0.0, 0.0], [0.0, 7.0, 0.0]]


def test_view_of_zero_dim_and_empty():
    s = torch.tensor(5.0)
    assert s.view(1, 1).shape == (1, 1) and s.view(-1).shape == (1,) and s.view([]).shape == ()
    assert torch.ones(1, 1).view(()).shape == ()
    e = torch.zeros(0, 3)
    assert e.view(-1).shape == (0,) and e.view(3, 0).shape == (3, 0) and e.view(5, -1, 3).shape == (5, 0, 3)
    assert e.view(3, 0, 5).shape == (3, 0, 5)


@pytest.mark.parametrize("make,shape,ok", [
    (lambda t: t.t(), (12,), False),
    (lambda t: t.t(), (4, 3, 1), True),
    (lambda t: t.t(), (2, 2, 3), True),       # splitting a dim is always possible
    (lambda t: t.t(), (4, 3), True),
    (lambda t: t[:, :2], (6,), False),
    (lambda t: t[:, :2], (3, 2, 1), True),
    (lambda t: t[:, :2], (3, 1, 2), True),
    (lambda t: t[:2], (8,), True),            # leading rows stay contiguous
    (lambda t: t[:, ::2], (6,), True),         # 0, 2, 4, ... are evenly spaced
    (lambda t: t[:, ::3], (6,), False),
    (lambda t: t[:, ::3], (3, 2), True),
    (lambda t: t.unsqueeze(0).expand(2, 3, 4), (6, 4), False),
    (lambda t: t.unsqueeze(0).expand(2, 3, 4), (2, 12), True),
    (lambda t: t[:, :1], (3,), True),
    (lambda t: t[:1].expand(5, 4), (20,), False),
    (lambda t: t[:1].expand(5, 4), (5, 2, 2), True),
])
def test_view_stride_check(make, shape, ok):
    t = make(base(3, 4))
    if ok:
        v = t.view(shape)
        assert v.tolist() == npy(t).reshape(shape).tolist()
        assert shares(v, t)
        # numpy can do it without a copy too
        np.reshape(t.numpy(), shape, copy=False)
    else:
        with pytest.raises(RuntimeError) as ei:
            t.view(shape)
        assert str(ei.value) == VIEW_MSG
        with pytest.raises(ValueError):
            np.reshape(t.numpy(), shape, copy=False)
        # reshape copies instead
        r = t.reshape(shape)
        assert r.tolist() == npy(t).reshape(shape).tolist()
        assert not shares(r, t)


@pytest.mark.parametrize("shape,msg", [
    ((5, -1), r"shape '\[5, -1\]' is invalid for input of size 12"),
    ((5,), r"shape '\[5\]' is invalid for input of size 12"),
    ((13,), r"shape '\[13\]' is invalid for input of size 12"),
    ((0, -1), r"shape '\[0, -1\]' is invalid for input of size 12"),
    ((-1, -1), "only one dimension can be inferred"),
    ((-2, 6), "invalid shape dimension -2"),
    ((2**40, 2**40), "is invalid for input of size 12"),
])
def test_view_bad_shapes(shape, msg):
    t = base(12)
    with pytest.raises(RuntimeError, match=msg):
        t.view(shape)
    with pytest.raises(RuntimeError, match=msg):
        t.reshape(shape)


def test_view_ambiguous_minus_one_on_empty():
    msg = (r"cannot reshape tensor of 0 elements into shape \[0, -1\] because the unspecified "
           r"dimension size -1 can be any value and is ambiguous")
    with pytest.raises(RuntimeError, match=msg):
        torch.zeros(0, 3).view(0, -1)


@pytest.mark.parametrize("args", [(2.0, 6), ("12",), (None,), ([2, 6.0],), ((2, "6"),)])
def test_view_wrong_types(args):
    with pytest.raises(TypeError):
        base(12).view(*args)


def test_view_dtype():
    t = torch.tensor([1.0, -2.0])
    v = t.view(torch.int32)
    assert v.dtype is torch.int32 and v.shape == (2,) and shares(v, t)
    assert v.tolist() == np.array([1.0, -2.0], dtype=np.float32).view(np.int32).tolist()
    assert t.view(dtype=torch.int32).tolist() == v.tolist()
    with pytest.raises(RuntimeError, match="element sizes"):
        torch.tensor([1.0, 2.0, 3.0]).view(torch.float64)
    with pytest.raises(TypeError):
        t.view(dtype="int32")


def test_view_as():
    t = base(12)
    assert t.view_as(torch.zeros(3, 4)).shape == (3, 4)
    assert t.reshape_as(torch.zeros(4, 3)).shape == (4, 3)


# Keyword forms, kept apart: under AddressSanitizer these report a stack-use-after-scope in
# csrc/tensor_methods.c (the parsed keyword array lives in a block that ends before it is read).
@pytest.mark.parametrize("call,shape", [
    (lambda t: t.view(size=(2, 6)), (2, 6)),
    (lambda t: t.reshape(shape=(6, 2)), (6, 2)),
    (lambda t: t.view(3, 4).permute(dims=(1, 0)), (4, 3)),
    (lambda t: t.view(1, 12).expand(size=(3, 12)), (3, 12)),
], ids=["view", "reshape", "permute", "expand"])
def test_keyword_form(call, shape):
    t = base(12)
    r = call(t)
    assert r.shape == shape and shares(r, t)


# ---- view / reshape against numpy on random layouts ----------------------------------------

@st.composite
def strided_case(draw):
    ndim = draw(st.integers(1, 4))
    shape = draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim))
    perm = draw(st.permutations(range(ndim)))
    steps = draw(st.lists(st.integers(1, 2), min_size=ndim, max_size=ndim))
    n = int(np.prod(shape))
    # a target shape: factor n into up to 4 dims
    target = []
    rest = n
    for _ in range(draw(st.integers(0, 3))):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = draw(st.sampled_from(divisors))
        target.append(d)
        rest //= d
    target.append(rest)
    target = draw(st.permutations(target))
    return shape, perm, steps, list(target)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(strided_case())
def test_view_matches_numpy_nocopy_reshape(case):
    shape, perm, steps, target = case
    big = [s * st_ for s, st_ in zip(shape, steps)]
    t = base(*big)
    a = np.arange(float(np.prod(big)), dtype=np.float32).reshape(big)
    idx = tuple(slice(None, None, s) for s in steps)
    t = t[idx].permute(*perm)
    a = a[idx].transpose(perm)
    # the sliced view's element count is a permutation of `shape`, which target factors
    target_n = int(np.prod(target))
    assert target_n == a.size
    try:
        expected = np.reshape(a, target, copy=False)
    except ValueError:
        expected = None
    if expected is None:
        with pytest.raises(RuntimeError, match="Use .reshape"):
            t.view(target)
    else:
        v = t.view(target)
        assert v.tolist() == expected.tolist()
        assert shares(v, t)
    r = t.reshape(target)
    assert r.tolist() == a.reshape(target).tolist()
    assert shares(r, t) == (expected is not None)


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(0, 4), min_size=0, max_size=4), st.data())
def test_permute_transpose_match_numpy(shape, data):
    a = np.arange(float(np.prod(shape)) if shape else 1.0).reshape(shape)
    t = torch.tensor(a)
    perm = data.draw(st.permutations(range(len(shape))))
    p = t.permute(*perm) if shape else t.permute(())
    assert p.tolist() == np.transpose(a, perm).tolist()
    assert p.shape == np.transpose(a, perm).shape
    assert shares(p, t)
    if len(shape) >= 2:
        d0 = data.draw(st.integers(-len(shape), len(shape) - 1))
        d1 = data.draw(st.integers(-len(shape), len(shape) - 1))
        assert t.transpose(d0, d1).tolist() == np.swapaxes(a, d0, d1).tolist()
        assert t.swapaxes(d0, d1).shape == np.swapaxes(a, d0, d1).shape
        if a.size:  # numpy and torch pick different strides for empty arrays
            assert t.swapdims(d0, d1).stride() == tuple(s // 8 for s in np.swapaxes(a, d0, d1).strides)


# ---- reshape ----------------------------------------------------------------------------

def test_reshape_views_when_possible():
    t = base(3, 4)
    r = t.reshape(4, 3)
    assert shares(r, t) and r.data_ptr() == t.data_ptr()
    r = t.reshape(-1)
    assert shares(r, t)
    c = t.t().reshape(12)
    assert not shares(c, t)
    assert c.tolist() == np.arange(12.0).reshape(3, 4).T.reshape(12).tolist()
    assert c.is_contiguous()
    assert t.reshape((2, 6)).shape == (2, 6)
    assert torch.reshape(t, (12,)).shape == (12,)


# ---- permute / transpose / t / T / mT ----------------------------------------------------------

def test_permute_forms():
    t = base(2, 3, 4)
    assert t.permute(2, 0, 1).shape == (4, 2, 3)
    assert t.permute((2, 0, 1)).stride() == (1, 12, 4)
    assert t.permute([-1, 0, 1]).shape == (4, 2, 3)
    assert torch.permute(t, (1, 2, 0)).shape == (3, 4, 2)


@pytest.mark.parametrize("dims,exc,msg", [
    ((0, 1), RuntimeError, "number of dimensions in the tensor input does not match"),
    ((0, 1, 1), RuntimeError, "duplicate dims"),
    ((0, 1, -3), RuntimeError, "duplicate dims"),
    ((0, 1, 3), IndexError, dim_msg(-3, 2, 3)),
    ((0, 1, 2.0), TypeError, "int"),
])
def test_permute_errors(dims, exc, msg):
    with pytest.raises(exc, match=msg):
        base(2, 3, 4).permute(*dims)


def test_transpose_t_T_mT():
    t = base(2, 3)
    assert t.t().shape == (3, 2) and t.t().stride() == (1, 3) and shares(t.t(), t)
    assert t.T.tolist() == npy(t).T.tolist()
    assert t.mT.tolist() == npy(t).T.tolist()
    v = base(4)
    assert v.t().shape == (4,) and shares(v.t(), v)
    assert torch.tensor(2.0).t().shape == ()
    b = base(2, 3, 4)
    assert b.T.shape == (4, 3, 2) and b.T.tolist() == npy(b).T.tolist()
    assert b.mT.shape == (2, 4, 3) and b.mT.tolist() == np.swapaxes(npy(b), -1, -2).tolist()
    assert b.transpose(0, 2).tolist() == np.swapaxes(npy(b), 0, 2).tolist()
    assert b.transpose(dim0=1, dim1=2).shape == (2, 4, 3)
    assert b.transpose(1, 1).stride() == b.stride()
    assert torch.transpose(b, 0, 1).shape == (3, 2, 4)


def test_transpose_errors():
    with pytest.raises(RuntimeError, match="t\\(\\) expects a tensor with <= 2 dimensions, but self is 3D"):
        base(2, 3, 4).t()
    with pytest.raises(RuntimeError, match="mT is only supported on matrices"):
        base(3).mT
    with pytest.raises(IndexError, match=dim_msg(-2, 1, 5)):
        base(2, 3).transpose(0, 5)
    with pytest.raises(IndexError, match=dim_msg(-2, 1, -3)):
        base(2, 3).transpose(-3, 0)
    with pytest.raises(TypeError):
        base(2, 3).transpose(0)
    with pytest.raises(TypeError):
        base(2, 3).transpose(0, "1")


def test_in_place_metadata_ops():
    t = base(2, 3)
    ptr = t.data_ptr()
    assert t.t_() is t and t.shape == (3, 2)
    assert t.transpose_(0, 1) is t and t.shape == (2, 3)
    assert t.unsqueeze_(0) is t and t.shape == (1, 2, 3)
    assert t.squeeze_() is t and t.shape == (2, 3)
    assert t.as_strided_((3,), (2,)) is t and t.tolist() == [0.0, 2.0, 4.0]
    assert t.data_ptr() == ptr


# ---- squeeze / unsqueeze ---------------------------------------------------------------

def test_squeeze():
    t = base(1, 3, 1, 2)
    assert t.squeeze().shape == (3, 2)
    assert t.squeeze(0).shape == (3, 1, 2)
    assert t.squeeze(-2).shape == (1, 3, 2)
    assert t.squeeze(1).shape == (1, 3, 1, 2)   # not size 1: unchanged
    assert t.squeeze((0, 2)).shape == (3, 2)
    assert t.squeeze(dim=[0, 1]).shape == (3, 1, 2)
    assert shares(t.squeeze(), t)
    assert t.squeeze().tolist() == np.squeeze(npy(t)).tolist()
    assert torch.tensor(1.0).squeeze().shape == ()
    assert torch.tensor(1.0).squeeze(0).shape == ()
    assert torch.zeros(1, 0, 1).squeeze().shape == (0,)
    with pytest.raises(IndexError, match=dim_msg(-4, 3, 4)):
        t.squeeze(4)
    with pytest.raises(TypeError):
        t.squeeze(1.0)


@pytest.mark.parametrize("dim", [-4, -3, -1, 0, 1, 2, 3])
def test_unsqueeze(dim):
    t = base(2, 3, 4)
    u = t.unsqueeze(dim)
    assert u.shape == np.expand_dims(npy(t), dim).shape
    assert u.tolist() == np.expand_dims(npy(t), dim).tolist()
    assert shares(u, t)
    assert u.squeeze(dim).shape == t.shape


def test_unsqueeze_errors_and_scalars():
    assert torch.tensor(1.0).unsqueeze(0).shape == (1,)
    assert torch.tensor(1.0).unsqueeze(-1).shape == (1,)
    with pytest.raises(IndexError, match=dim_msg(-4, 3, 4)):
        base(2, 3, 4).unsqueeze(4)
    with pytest.raises(IndexError, match=dim_msg(-4, 3, -5)):
        base(2, 3, 4).unsqueeze(-5)
    with pytest.raises(TypeError):
        base(2).unsqueeze()


# ---- expand ------------------------------------------------------------------------------

def test_expand():
    t = torch.tensor([[1.0], [2.0], [3.0]])
    e = t.expand(3, 4)
    assert e.shape == (3, 4) and e.stride() == (1, 0)
    assert e.tolist() == np.broadcast_to(npy(t), (3, 4)).tolist()
    assert shares(e, t)
    assert t.expand(2, 3, 4).stride() == (0, 1, 0)
    assert t.expand(-1, 5).shape == (3, 5)
    assert t.expand((3, 2)).shape == (3, 2)
    assert t.expand(torch.Size([3, 2])).shape == (3, 2)
    assert t.expand_as(torch.zeros(2, 3, 6)).shape == (2, 3, 6)
    assert torch.tensor(7).expand(2, 2).tolist() == [[7, 7], [7, 7]]
    assert t.expand(0, 3, 1).shape == (0, 3, 1)
    t[1, 0] = 9.0
    assert e[1].tolist() == [9.0] * 4   # a view, not a copy


@pytest.mark.parametrize("sizes,msg", [
    ((3, 5, 2), "must match the existing size"),
    ((2,), "the number of sizes provided \\(1\\) must be greater or equal to the number of dimensions in the tensor \\(2\\)"),
    ((-1, 3, 4), "isn't allowed in a leading, non-existing dimension 0"),
    ((3, -2), "negative dimension"),
])
def test_expand_errors(sizes, msg):
    t = torch.zeros(3, 1)
    with pytest.raises(RuntimeError, match=msg):
        t.expand(*sizes)


def test_expand_fewer_sizes_message_names_the_type():
    with pytest.raises(RuntimeError) as ei:
        torch.zeros(2, 3, dtype=torch.int64).expand(3)
    assert str(ei.value) == ("expand(minitorch.LongTensor{[2, 3]}, size=[3]): the number of sizes provided (1) "
                             "must be greater or equal to the number of dimensions in the tensor (2)")


def test_expand_exact_message():
    with pytest.raises(RuntimeError) as ei:
        torch.zeros(3, 4).expand(2, 3)
    assert str(ei.value) == ("The expanded size of the tensor (3) must match the existing size (4) at "
                             "non-singleton dimension 1.  Target sizes: [2, 3].  Tensor sizes: [3, 4]")


def test_expand_as_wrong_type():
    with pytest.raises(TypeError, match="Tensor"):
        torch.zeros(3, 1).expand_as((3, 4))


# ---- narrow / select / unfold ---------------------------------------------------------------

@pytest.mark.parametrize("dim,start,length", [(0, 0, 3), (0, 1, 2), (1, 2, 2), (-1, 0, 0), (0, -2, 2), (1, -4, 1)])
def test_narrow(dim, start, length):
    t = base(3, 4)
    n = t.narrow(dim, start, length)
    a = npy(t)
    s = start % a.shape[dim] if start < 0 else start
    assert n.tolist() == np.take(a, range(s, s + length), axis=dim).tolist()
    assert shares(n, t)
    assert torch.narrow(t, dim, start, length).shape == n.shape


@pytest.mark.parametrize("args,exc,msg", [
    ((0, 2, 2), RuntimeError, r"start \(2\) \+ length \(2\) exceeds dimension size \(3\)"),
    ((0, 4, 0), IndexError, r"start out of range \(expected to be in range of \[-3, 3\], but got 4\)"),
    ((0, -4, 1), IndexError, "start out of range"),
    ((0, 0, -1), RuntimeError, "exceeds dimension size"),
    ((2, 0, 1), IndexError, dim_msg(-2, 1, 2)),
    ((0, 0.0, 1), TypeError, "int"),
])
def test_narrow_errors(args, exc, msg):
    with pytest.raises(exc, match=msg):
        base(3, 4).narrow(*args)
    with pytest.raises(RuntimeError, match="0-dim"):
        torch.tensor(1.0).narrow(0, 0, 1)


def test_select():
    t = base(2, 3, 4)
    for dim in range(-3, 3):
        for i in range(-t.size(dim), t.size(dim)):
            s = t.select(dim, i)
            assert s.tolist() == np.take(npy(t), i, axis=dim).tolist()
            assert shares(s, t)
    assert t.select(2, 1).stride() == (12, 4)
    assert t.select(dim=0, index=1).storage_offset() == 12
    with pytest.raises(IndexError, match="out of"):
        t.select(0, 2)
    with pytest.raises(IndexError, match="out of"):
        t.select(1, -4)
    with pytest.raises(IndexError, match=dim_msg(-3, 2, 3)):
        t.select(3, 0)
    with pytest.raises(IndexError):
        torch.tensor(1.0).select(0, 0)


@pytest.mark.parametrize("dim,size,step", [(0, 2, 1), (0, 3, 2), (1, 2, 2), (1, 4, 1), (-1, 1, 3), (1, 0, 1)])
def test_unfold(dim, size, step):
    t = base(5, 4)
    u = t.unfold(dim, size, step)
    a = npy(t)
    windows = np.lib.stride_tricks.sliding_window_view(a, size, axis=dim)
    idx = [slice(None)] * 2
    idx[dim] = slice(None, None, step)
    expected = windows[tuple(idx)]
    assert u.shape == expected.shape
    assert u.tolist() == expected.tolist()
    assert shares(u, t)


def test_unfold_errors_and_scalar():
    t = base(5, 4)
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 1 is 4 but size is 5"):
        t.unfold(1, 5, 1)
    with pytest.raises(RuntimeError, match="step is 0 but must be > 0"):
        t.unfold(1, 2, 0)
    with pytest.raises(RuntimeError, match="must be >= 0"):
        t.unfold(1, -1, 1)
    with pytest.raises(IndexError, match=dim_msg(-2, 1, 2)):
        t.unfold(2, 1, 1)
    s = torch.tensor(3.0).unfold(0, 1, 1)
    assert s.shape == (1,) and s.tolist() == [3.0]


# ---- flatten / unflatten ---------------------------------------------------------------------

@pytest.mark.parametrize("start,end", [(0, -1), (1, 2), (0, 1), (2, 3), (-2, -1), (1, 1), (0, 3)])
def test_flatten(start, end):
    t = base(2, 3, 4, 5)
    f = t.flatten(start, end)
    s, e = start % 4, end % 4
    expected = npy(t).reshape(t.shape[:s] + (-1,) + t.shape[e + 1:])
    assert f.tolist() == expected.tolist()
    assert shares(f, t)
    assert torch.flatten(t, start, end).shape == f.shape
    assert t.flatten(start_dim=start, end_dim=end).shape == f.shape


def test_flatten_special_cases():
    assert torch.tensor(3.0).flatten().shape == (1,)
    t = base(3, 4).t()
    f = t.flatten()
    assert f.tolist() == npy(base(3, 4)).T.flatten().tolist()
    assert not shares(f, t)  # non-viewable layout: a copy, as reshape
    with pytest.raises(RuntimeError, match="start_dim cannot come after end_dim"):
        base(2, 3, 4).flatten(2, 1)
    with pytest.raises(IndexError, match=dim_msg(-3, 2, 3)):
        base(2, 3, 4).flatten(0, 3)


def test_unflatten():
    t = base(2, 12)
    u = t.unflatten(1, (3, 4))
    assert u.shape == (2, 3, 4) and shares(u, t)
    assert u.tolist() == npy(t).reshape(2, 3, 4).tolist()
    assert t.unflatten(-1, (2, -1, 3)).shape == (2, 2, 2, 3)
    assert t.unflatten(0, [1, 2]).shape == (1, 2, 12)
    assert torch.unflatten(t, 1, (12,)).shape == (2, 12)
    with pytest.raises(RuntimeError, match=r"unflatten: Provided sizes \[5, -1\] don't multiply up to the size of dim 1 \(12\)"):
        t.unflatten(1, (5, -1))
    with pytest.raises(RuntimeError, match="non-empty"):
        t.unflatten(1, ())
    with pytest.raises(IndexError, match=dim_msg(-2, 1, 2)):
        t.unflatten(2, (1, 1))
    with pytest.raises(TypeError):
        t.unflatten(1, 12)


# ---- as_strided --------------------------------------------------------------------------

@pytest.mark.parametrize("size,stride,offset", [
    ((2, 2), (1, 2), 0), ((3, 3), (1, 1), 2), ((4,), (3,), 0), ((2, 3), (0, 1), 5), ((), (), 7), ((0, 5), (1, 1), 0),
])
def test_as_strided(size, stride, offset):
    t = base(12)
    a = npy(t)
    v = t.as_strided(size, stride, offset)
    expected = np.lib.stride_tricks.as_strided(a[offset:], shape=size, strides=[s * 8 for s in stride])
    assert v.shape == size and v.stride() == stride and v.storage_offset() == offset
    assert v.tolist() == expected.tolist()
    assert shares(v, t)
    assert torch.as_strided(t, size, stride, offset).tolist() == v.tolist()


def test_as_strided_offset_defaults_to_own_offset():
    t = base(12)[3:]
    v = t.as_strided((2,), (1,))
    assert v.storage_offset() == 3 and v.tolist() == [3.0, 4.0]
    assert t.as_strided((2,), (1,), storage_offset=0).tolist() == [0.0, 1.0]


@pytest.mark.parametrize("args,exc,msg", [
    (((20,), (1,)), RuntimeError, "storage"),
    (((2,), (1,), 11), RuntimeError, "storage"),
    (((2,), (-1,)), RuntimeError, "Negative strides"),
    (((2, 2), (1,)), RuntimeError, "mismatch in length of strides and shape"),
    (((2,), (1,), -1), RuntimeError, "offset"),
    ((2, (1,)), TypeError, "tuple of ints"),
])
def test_as_strided_errors(args, exc, msg):
    with pytest.raises(exc, match=msg):
        base(12).as_strided(*args)


# ---- chunk / split / unbind ------------------------------------------------------------------

@pytest.mark.parametrize("n,chunks,expected", [
    (6, 3, [2, 2, 2]), (6, 4, [2, 2, 2]), (5, 3, [2, 2, 1]), (5, 5, [1] * 5), (3, 5, [1, 1, 1]),
    (7, 2, [4, 3]), (0, 3, [0, 0, 0]), (1, 1, [1]),
])
def test_chunk_sizes_follow_torch(n, chunks, expected):
    t = base(n) if n else torch.zeros(0)
    parts = t.chunk(chunks)
    assert [p.numel() for p in parts] == expected
    assert isinstance(parts, tuple)
    if n:
        assert sum((p.tolist() for p in parts), []) == t.tolist()
        assert all(shares(p, t) for p in parts)


def test_chunk_dims_and_errors():
    t = base(4, 6)
    parts = t.chunk(4, dim=1)
    assert [p.shape for p in parts] == [(4, 2)] * 3
    assert torch.chunk(t, 2, -1)[1].tolist() == npy(t)[:, 3:].tolist()
    with pytest.raises(RuntimeError, match="chunk expects `chunks` to be greater than 0, got: 0"):
        t.chunk(0)
    with pytest.raises(IndexError, match=dim_msg(-2, 1, 2)):
        t.chunk(2, 2)


def test_split():
    t = base(7, 2)
    parts = t.split(3)
    assert [p.shape[0] for p in parts] == [3, 3, 1]
    assert parts[2].tolist() == npy(t)[6:].tolist()
    assert all(shares(p, t) for p in parts)
    assert [p.shape[0] for p in t.split(10)] == [7]
    assert [p.shape[0] for p in t.split([1, 0, 6])] == [1, 0, 6]
    assert [p.shape[1] for p in t.split((1, 1), dim=1)] == [1, 1]
    assert [p.shape[0] for p in torch.split(t, 4)] == [4, 3]
    assert [p.shape[0] for p in torch.zeros(0, 2).split(2)] == [0]
    with pytest.raises(RuntimeError, match="split_size can only be 0 if dimension size is 0, but got dimension size of 7"):
        t.split(0)
    with pytest.raises(RuntimeError, match="non-negative"):
        t.split(-1)
    with pytest.raises(RuntimeError, match=r"split_with_sizes expects split_sizes to sum exactly to 7 .* but got split_sizes=\[1, 1\]"):
        t.split([1, 1])
    with pytest.raises(IndexError, match=dim_msg(-2, 1, 2)):
        t.split(1, dim=2)


def test_unbind():
    t = base(2, 3)
    rows = t.unbind()
    cols = t.unbind(1)
    assert isinstance(rows, tuple) and len(rows) == 2 and len(cols) == 3
    assert [c.tolist() for c in cols] == npy(t).T.tolist()
    assert all(shares(c, t) for c in cols)
    assert torch.unbind(t, -1)[2].tolist() == [2.0, 5.0]
    assert torch.zeros(0, 3).unbind() == ()
    with pytest.raises(IndexError, match=dim_msg(-2, 1, 2)):
        t.unbind(2)


# ---- contiguous / clone / detach ---------------------------------------------------------------

def test_contiguous_no_copy_when_contiguous():
    t = base(3, 4)
    assert t.contiguous() is t
    assert t.contiguous().data_ptr() == t.data_ptr()
    r = t[1:]
    assert r.contiguous().data_ptr() == r.data_ptr()
    assert t[:1].t().contiguous().data_ptr() == t.data_ptr()  # size-1 dims don't matter


@pytest.mark.parametrize("make", [lambda t: t.t(), lambda t: t[:, ::2], lambda t: t[:1].expand(4, 4),
                                  lambda t: t.view(2, 2, 4).permute(2, 1, 0)])
def test_contiguous_copies_when_needed(make):
    v = make(base(4, 4))
    c = v.contiguous()
    assert c.is_contiguous() and not shares(c, v)
    assert c.tolist() == v.tolist()
    assert c.stride() == tuple(s // 4 for s in np.ascontiguousarray(v.numpy()).strides)


def test_clone_is_new_memory():
    t = base(3, 4)
    c = t.clone()
    assert not shares(c, t) and c.tolist() == t.tolist() and c.dtype is t.dtype
    c[0, 0] = 100.0
    assert t[0, 0].item() == 0.0
    v = t[:, 1:3].clone()
    assert v.tolist() == npy(t)[:, 1:3].tolist() and v.is_contiguous()
    assert torch.clone(t).tolist() == t.tolist()
    e = torch.tensor([1, 2]).expand(3, 2).clone()
    e[0, 0] = 5
    assert e.tolist() == [[5, 2], [1, 2], [1, 2]]  # the clone owns its elements


def test_clone_preserves_dense_strides():
    # torch's default memory_format=preserve_format keeps a dense layout's strides
    t = base(3, 4).t()
    c = t.clone()
    assert c.stride() == (1, 4) and not shares(c, t) and c.tolist() == t.tolist()


def test_detach_shares():
    t = base(3, 4)[1:]
    d = t.detach()
    assert d is not t and shares(d, t) and d.data_ptr() == t.data_ptr()
    assert d.stride() == t.stride() and d.shape == t.shape
    d[0, 0] = -1.0
    assert t[0, 0].item() == -1.0
    assert t.detach_() is t
    assert torch.detach(t).data_ptr() == t.data_ptr()


# ---- every view shares storage and writes through ----------------------------------------

VIEWS = {
    "view": lambda t: t.view(4, 6),
    "reshape": lambda t: t.reshape(6, 4),
    "permute": lambda t: t.permute(1, 0),
    "transpose": lambda t: t.transpose(0, 1),
    "t": lambda t: t.t(),
    "T": lambda t: t.T,
    "mT": lambda t: t.mT,
    "squeeze": lambda t: t.unsqueeze(0).squeeze(),
    "unsqueeze": lambda t: t.unsqueeze(1),
    "expand": lambda t: t.unsqueeze(0).expand(2, 3, 8),
    "narrow": lambda t: t.narrow(1, 2, 3),
    "select": lambda t: t.select(1, 5),
    "unfold": lambda t: t.unfold(1, 2, 2),
    "flatten": lambda t: t.flatten(),
    "unflatten": lambda t: t.unflatten(1, (2, 4)),
    "as_strided": lambda t: t.as_strided((2, 2), (8, 1), 1),
    "chunk": lambda t: t.chunk(2, 1)[1],
    "split": lambda t: t.split(1)[2],
    "unbind": lambda t: t.unbind(1)[3],
    "detach": lambda t: t.detach(),
    "getitem": lambda t: t[1:, ::3],
    "view_dtype": lambda t: t.view(torch.int32),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_every_view_shares_storage(name):
    t = base(3, 8)
    v = VIEWS[name](t)
    assert shares(v, t)
    assert t.view(4, 6).storage().data_ptr() == t.storage().data_ptr()
    before = npy(t)
    if name == "expand":  # writing to overlapping elements is refused (as torch)
        with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
            v.fill_(-1)
        v = v[0]
    if name == "view_dtype":
        v.fill_(0x3F800000)  # the bits of float 1.0
        assert npy(t).tolist() == np.ones((3, 8)).tolist()
        return
    v.fill_(-1)  # writes through to the base
    after = npy(t)
    assert (after != before).any()
    assert set(after[after != before].tolist()) == {-1.0}


@pytest.mark.parametrize("name", list(VIEWS))
def test_views_are_metadata_only(name):
    # no view op may copy: the storage's byte count is that of the base
    t = base(3, 8)
    v = VIEWS[name](t)
    assert v.untyped_storage().nbytes() == 96
