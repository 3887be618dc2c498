"""Legacy typed constructors (FloatTensor, LongTensor, ...), minitorch.strided, the memory
formats and the numeric constants (inf, nan, e, pi, newaxis) of the namespace."""
import pickle

import numpy as np
import pytest

import minitorch as torch

LEGACY = [("FloatTensor", torch.float32), ("DoubleTensor", torch.float64),
          ("HalfTensor", torch.float16), ("BFloat16Tensor", torch.bfloat16),
          ("ByteTensor", torch.uint8), ("CharTensor", torch.int8), ("ShortTensor", torch.int16),
          ("IntTensor", torch.int32), ("LongTensor", torch.int64), ("BoolTensor", torch.bool)]


@pytest.mark.parametrize("name,dt", LEGACY)
def test_legacy_constructors(name, dt):
    cls = getattr(torch, name)
    assert cls.dtype == dt and repr(cls) == f"<class 'minitorch.{name}'>"
    t = cls([1, 0, 1])
    assert t.dtype == dt and t.tolist() == torch.tensor([1, 0, 1], dtype=dt).tolist()
    z = cls(2, 3)
    assert z.shape == (2, 3) and z.dtype == dt and not z.any()
    assert cls(torch.Size([4])).shape == (4,)
    assert cls().shape == (0,)
    assert cls(np.array([1, 1])).tolist() == torch.ones(2, dtype=dt).tolist()
    alias = cls(z)
    assert alias is not z and alias.data_ptr() == z.data_ptr()
    assert isinstance(t, cls) and isinstance(t, torch.Tensor)
    other = torch.float64 if dt != torch.float64 else torch.float32
    assert not isinstance(torch.zeros(1, dtype=other), cls)
    assert not isinstance([1], cls)
    assert torch.zeros(2, dtype=other).type(cls).dtype == dt
    assert t.type() == f"minitorch.{name}"


def test_legacy_bad_input():
    with pytest.raises(TypeError, match=r"expected Float \(got Long\)"):
        torch.FloatTensor(torch.tensor([1]))
    with pytest.raises(TypeError, match="sizes must be ints"):
        torch.FloatTensor(2, 2.5)
    with pytest.raises(TypeError):
        torch.LongTensor(1.5)
    with pytest.raises(TypeError):
        torch.FloatTensor("abc")
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.FloatTensor(-1)
    with pytest.raises(RuntimeError, match="CPU tensors only"):
        torch.FloatTensor(2, device="cuda")
    assert torch.FloatTensor(2, device="cpu").shape == (2,)


def test_layout_and_memory_format_objects():
    assert repr(torch.strided) == "minitorch.strided"
    assert isinstance(torch.strided, torch.layout)
    for mf in (torch.contiguous_format, torch.preserve_format, torch.channels_last,
               torch.channels_last_3d):
        assert isinstance(mf, torch.memory_format)
        assert pickle.loads(pickle.dumps(mf)) is mf
    assert torch.ones(2).layout is torch.strided
    assert pickle.loads(pickle.dumps(torch.strided)) is torch.strided


def test_factories_accept_strided_and_row_major_formats():
    for t in (torch.zeros(2, layout=torch.strided), torch.ones(2, layout=None),
              torch.full((2,), 1.0, layout=torch.strided), torch.arange(2, layout=torch.strided),
              torch.eye(2, layout=torch.strided), torch.linspace(0, 1, 2, layout=torch.strided),
              torch.empty_strided((2,), (1,), layout=torch.strided),
              torch.rand(2, layout=torch.strided), torch.randperm(2, layout=torch.strided),
              torch.tril_indices(2, 2, layout=torch.strided),
              torch.empty(2, memory_format=torch.contiguous_format),
              torch.zeros_like(torch.ones(2), memory_format=torch.preserve_format),
              torch.rand_like(torch.ones(2), memory_format=torch.contiguous_format)):
        assert t.layout is torch.strided
    x = torch.ones(2, 3).t()
    for mf in (torch.contiguous_format, torch.preserve_format):
        assert x.clone(memory_format=mf).shape == (3, 2)
        assert x.to(torch.float64, memory_format=mf).dtype == torch.float64
        assert x.float(memory_format=mf).shape == (3, 2)
    assert x.contiguous(memory_format=torch.contiguous_format).is_contiguous()
    # as torch: contiguous() cannot preserve a layout (channels-last formats: test_channels_last)
    with pytest.raises(RuntimeError, match="preserve memory format is unsupported"):
        x.contiguous(memory_format=torch.preserve_format)


def test_bad_layouts_raise():
    x = torch.ones(1, 2, 3, 4)
    for fn in (lambda: torch.zeros(2, layout="strided"), lambda: torch.arange(3, layout=1),
               lambda: torch.rand(2, layout=torch.contiguous_format),
               lambda: x.contiguous(memory_format="channels_last"),
               lambda: torch.empty_like(x, layout=torch.preserve_format)):
        with pytest.raises(TypeError, match="layout|memory_format"):
            fn()


def test_is_contiguous_channels_last():
    x = torch.zeros(2, 3, 4, 5)
    assert x.is_contiguous() and not x.is_contiguous(memory_format=torch.channels_last)
    cl = x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    assert cl.is_contiguous(memory_format=torch.channels_last) and not cl.is_contiguous()
    assert cl.stride() == (60, 1, 15, 3)
    one_c = torch.zeros(2, 1, 4, 5)  # C == 1: both orders hold
    assert one_c.is_contiguous(memory_format=torch.channels_last)
    v = torch.zeros(2, 3, 4, 5, 6)
    cl3 = v.permute(0, 2, 3, 4, 1).contiguous().permute(0, 4, 1, 2, 3)
    assert cl3.is_contiguous(memory_format=torch.channels_last_3d)
    assert not cl3.is_contiguous(memory_format=torch.channels_last)  # wrong rank
    assert not torch.zeros(3, 4).is_contiguous(memory_format=torch.channels_last)
    assert x.is_contiguous(memory_format=torch.contiguous_format)
    with pytest.raises(TypeError, match="memory_format"):
        x.is_contiguous(memory_format="x")


def test_numeric_constants_as_torch():
    import math
    assert (torch.inf, torch.e, torch.pi) == (math.inf, math.e, math.pi)
    assert math.isnan(torch.nan) and torch.newaxis is None
    assert torch.ones(2)[torch.newaxis].shape == (1, 2)
