"""dtypes, the default dtype, devices and the CUDA queries."""
import copy
import os
import pickle

import numpy as np
import pytest

import minitorch as torch

ALL_DTYPES = [
    # name, itemsize, is_floating_point, is_signed, numpy equivalent (None: no numpy type)
    ("bool", 1, False, False, np.bool_),
    ("uint8", 1, False, False, np.uint8),
    ("int8", 1, False, True, np.int8),
    ("int16", 2, False, True, np.int16),
    ("int32", 4, False, True, np.int32),
    ("int64", 8, False, True, np.int64),
    ("float16", 2, True, True, np.float16),
    ("bfloat16", 2, True, True, None),
    ("float32", 4, True, True, np.float32),
    ("float64", 8, True, True, np.float64),
]


@pytest.fixture
def default_dtype():
    """Restores the default dtype however the test ends."""
    saved = torch.get_default_dtype()
    yield
    torch.set_default_dtype(saved)


# ---- dtypes ----------------------------------------------------------------

@pytest.mark.parametrize("name,itemsize,floating,signed,np_type", ALL_DTYPES)
def test_dtype_attributes(name, itemsize, floating, signed, np_type):
    dt = getattr(torch, name)
    assert isinstance(dt, torch.dtype)
    assert dt.itemsize == itemsize
    assert dt.is_floating_point is floating
    assert dt.is_signed is signed
    assert dt.is_complex is False
    assert repr(dt) == f"minitorch.{name}"
    assert str(dt) == f"minitorch.{name}"
    if np_type is not None:
        assert np.dtype(np_type).itemsize == itemsize


@pytest.mark.parametrize("alias,target", [
    ("float", "float32"), ("double", "float64"), ("half", "float16"),
    ("long", "int64"), ("int", "int32"), ("short", "int16"),
])
def test_dtype_aliases_are_the_same_object(alias, target):
    assert getattr(torch, alias) is getattr(torch, target)


def test_dtypes_are_distinct_singletons():
    dts = [getattr(torch, d[0]) for d in ALL_DTYPES]
    assert len(set(dts)) == len(dts)
    assert len({hash(d) for d in dts}) == len(dts)
    assert torch.float32 == torch.float
    assert torch.float32 != torch.float64
    assert torch.int32 != torch.int64


@pytest.mark.parametrize("name", [d[0] for d in ALL_DTYPES])
def test_dtype_pickles_to_the_same_singleton(name):
    dt = getattr(torch, name)
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(dt, protocol=proto)) is dt
    assert copy.deepcopy(dt) is dt
    assert copy.copy(dt) is dt


def test_dtype_cannot_be_instantiated_or_mutated():
    with pytest.raises(TypeError):
        torch.dtype()
    with pytest.raises(AttributeError):
        torch.float32.itemsize = 3


@pytest.mark.parametrize("name", [d[0] for d in ALL_DTYPES])
def test_tensor_dtype_and_element_size(name):
    dt = getattr(torch, name)
    t = torch.zeros(3, dtype=dt)
    assert t.dtype is dt
    assert t.element_size() == dt.itemsize
    assert t.is_floating_point() is dt.is_floating_point


def test_python_types_as_dtypes():
    # torch maps the Python scalar types to their widest dtype
    assert torch.zeros(2, dtype=float).dtype is torch.float64
    assert torch.zeros(2, dtype=int).dtype is torch.int64
    assert torch.zeros(2, dtype=bool).dtype is torch.bool


@pytest.mark.parametrize("bad", ["float32", "minitorch.float32", 4, None.__class__, np.float32, object()])
def test_bad_dtype_argument(bad):
    with pytest.raises(TypeError, match="dtype"):
        torch.zeros(2, dtype=bad)


# ---- default dtype ------------------------------------------------------------

def test_default_dtype_is_float32():
    assert torch.get_default_dtype() is torch.float32
    assert torch.tensor([1.5]).dtype is torch.float32
    assert torch.zeros(2).dtype is torch.float32
    assert torch.arange(2.0).dtype is torch.float32


@pytest.mark.parametrize("dt", [torch.float64, torch.float16, torch.bfloat16, torch.float32])
def test_set_default_dtype_changes_float_factories(default_dtype, dt):
    torch.set_default_dtype(dt)
    assert torch.get_default_dtype() is dt
    assert torch.tensor([1.5]).dtype is dt
    assert torch.tensor(2.5).dtype is dt
    assert torch.zeros(2).dtype is dt
    assert torch.ones(2).dtype is dt
    assert torch.empty(2).dtype is dt
    assert torch.arange(3.0).dtype is dt
    assert torch.linspace(0, 1, 3).dtype is dt
    # integers and bools are not affected
    assert torch.tensor([1, 2]).dtype is torch.int64
    assert torch.arange(3).dtype is torch.int64
    assert torch.tensor([True]).dtype is torch.bool


def test_default_dtype_controls_repr_suffix(default_dtype):
    torch.set_default_dtype(torch.float64)
    assert repr(torch.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(torch.tensor([1.0, 2.0], dtype=torch.float32)) == "tensor([1., 2.], dtype=minitorch.float32)"


@pytest.mark.parametrize("dt", [torch.int64, torch.int32, torch.uint8, torch.bool])
def test_set_default_dtype_rejects_non_float(default_dtype, dt):
    with pytest.raises(TypeError, match="floating"):
        torch.set_default_dtype(dt)
    assert torch.get_default_dtype() is torch.float32


@pytest.mark.parametrize("bad", ["float64", None, 3])
def test_set_default_dtype_rejects_non_dtype(default_dtype, bad):
    with pytest.raises(TypeError):
        torch.set_default_dtype(bad)
    assert torch.get_default_dtype() is torch.float32


# ---- devices -----------------------------------------------------------------

@pytest.mark.parametrize("args,type_,index,s,r", [
    (("cpu",), "cpu", None, "cpu", "device(type='cpu')"),
    (("cpu:0",), "cpu", 0, "cpu:0", "device(type='cpu', index=0)"),
    (("cpu", 0), "cpu", 0, "cpu:0", "device(type='cpu', index=0)"),
    (("cuda",), "cuda", None, "cuda", "device(type='cuda')"),
    (("cuda:1",), "cuda", 1, "cuda:1", "device(type='cuda', index=1)"),
    (("cuda", 1), "cuda", 1, "cuda:1", "device(type='cuda', index=1)"),
    (("cuda:12",), "cuda", 12, "cuda:12", "device(type='cuda', index=12)"),
    ((3,), "cuda", 3, "cuda:3", "device(type='cuda', index=3)"),
])
def test_device_parsing(args, type_, index, s, r):
    d = torch.device(*args)
    assert d.type == type_
    assert d.index == index
    assert str(d) == s
    assert repr(d) == r
    assert torch.device(d) == d
    assert torch.device(str(d)) == d


def test_device_keywords():
    assert torch.device(type="cuda", index=2) == torch.device("cuda:2")


def test_device_equality_and_hash():
    assert torch.device("cuda:1") == torch.device("cuda", 1)
    assert hash(torch.device("cuda:1")) == hash(torch.device("cuda", 1))
    assert torch.device("cuda") != torch.device("cuda:0")
    assert torch.device("cuda:0") != torch.device("cuda:1")
    assert torch.device("cpu") != torch.device("cuda")
    assert torch.device("cpu") == torch.device("cpu")
    assert not (torch.device("cpu") != torch.device("cpu"))
    assert len({torch.device("cpu"), torch.device("cpu"), torch.device("cuda:0"),
                torch.device("cuda", 0)}) == 2
    assert torch.device("cpu") != "cpu"  # as torch: a device never equals a string


@pytest.mark.parametrize("d", [torch.device("cpu"), torch.device("cuda:1"), torch.device("cuda"),
                               torch.device("cpu", 0)])
def test_device_pickle(d):
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        r = pickle.loads(pickle.dumps(d, protocol=proto))
        assert r == d and r.index == d.index and r.type == d.type
    assert copy.deepcopy(d) == d


@pytest.mark.parametrize("bad", ["gpu", "", "CUDA", "cuda:", "cuda:x", "cuda:-1", "cpu:1:2",
                                 "cuda:1 ", " cpu", "cuda:1.5", "cuda0", "cuda:99999999999"])
def test_bad_device_strings(bad):
    with pytest.raises(RuntimeError) as ei:
        torch.device(bad)
    assert "device" in str(ei.value).lower() or "Device" in str(ei.value)


def test_bad_device_type_message_names_the_string():
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda device type at start of device string: gpu"):
        torch.device("gpu")


@pytest.mark.parametrize("args,exc,match", [
    ((None,), TypeError, "str"),
    ((1.5,), TypeError, "str"),
    (("cuda:0", 1), RuntimeError, "must not include an index"),
    (("cuda", -1), RuntimeError, "must not be negative"),
    ((-1,), RuntimeError, "must not be negative"),
    (("cuda", 1.5), TypeError, "index"),
    (("cuda", "1"), TypeError, "index"),
    (("cuda", 2**40), RuntimeError, "out of range"),   # must not wrap to cuda:0
    ((2**40,), RuntimeError, "out of range"),
    (("cuda", 2**70), OverflowError, None),
])
def test_bad_device_arguments(args, exc, match):
    with pytest.raises(exc, match=match):
        torch.device(*args)


def test_tensor_device_is_cpu():
    t = torch.zeros(2)
    assert t.device == torch.device("cpu")
    assert t.device.type == "cpu"
    assert str(t.device) == "cpu"
    assert t.is_cuda is False and t.is_cpu is True
    assert torch.zeros(2, device="cpu").device == torch.device("cpu")
    assert torch.zeros(2, device=torch.device("cpu")).device.type == "cpu"


def test_strings_accepted_where_a_device_is():
    t = torch.ones(2)
    assert t.to("cpu") is t
    assert t.to(torch.device("cpu")) is t
    assert torch.tensor([1], device="cpu").device.type == "cpu"
    assert torch.arange(3, device="cpu").device.type == "cpu"
    assert torch.empty(2, device="cpu:0").device.type == "cpu"


@pytest.mark.parametrize("bad", ["tpu", "cuda:x", 3.0])
def test_factories_reject_bad_devices(bad):
    with pytest.raises((RuntimeError, TypeError)):
        torch.zeros(2, device=bad)


# ---- CUDA queries ------------------------------------------------------------

_HAS_GPU = os.path.exists("/dev/nvidiactl") and torch.cuda.is_compiled()


def test_cuda_queries():
    assert isinstance(torch.cuda.device_count(), int)
    assert torch.cuda.device_count() >= 0
    assert torch.cuda.is_available() is (torch.cuda.device_count() > 0)
    if not _HAS_GPU:
        assert torch.cuda.device_count() == 0


@pytest.mark.skipif(_HAS_GPU, reason="checks the no-GPU behaviour")
def test_cuda_current_device_without_gpu():
    with pytest.raises(RuntimeError):
        torch.cuda.current_device()
    with pytest.raises(RuntimeError):
        torch.cuda.set_device(0)


@pytest.mark.parametrize("make", [
    lambda: torch.zeros(2, device="cuda"),
    lambda: torch.ones(2, device="cuda:0"),
    lambda: torch.empty(2, device=torch.device("cuda")),
    lambda: torch.full((2,), 1.0, device="cuda"),
    lambda: torch.arange(3, device="cuda"),
    lambda: torch.linspace(0, 1, 3, device="cuda"),
    lambda: torch.eye(2, device="cuda"),
    lambda: torch.tensor([1.0], device="cuda"),
    lambda: torch.zeros_like(torch.ones(2), device="cuda"),
    lambda: torch.ones(2).to("cuda"),
    lambda: torch.ones(2).cuda(),
    lambda: torch.UntypedStorage(4, device="cuda"),
], ids=["zeros", "ones", "empty", "full", "arange", "linspace", "eye", "tensor", "zeros_like",
        "to", "cuda", "storage"])
def test_cuda_factories_raise(make):
    # RuntimeError without a GPU (as torch); NotImplementedError (a RuntimeError) with one
    with pytest.raises(RuntimeError):
        make()


def test_backends_cuda_is_built():
    assert torch.backends.cuda.is_built() is bool(torch._C._has_cuda)
    assert torch.backends.cuda.is_built() == torch.cuda.is_compiled()


def test_cuda_memory_statistics_before_any_cuda_memory():
    # as torch before CUDA is initialised: empty statistics, zeros, and no-ops
    assert torch.cuda.memory_stats() == {}
    for fn in (torch.cuda.memory_allocated, torch.cuda.max_memory_allocated,
               torch.cuda.memory_reserved, torch.cuda.max_memory_reserved):
        assert fn() == 0
        assert fn(0) == 0
        assert fn("cuda:0") == 0
        assert fn(torch.device("cuda", 0)) == 0
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    with pytest.raises(ValueError, match="Expected a cuda device"):
        torch.cuda.memory_allocated("cpu")


def test_tensor_device_kind_flags_false_on_cpu():
    # programs test these to pick a code path (dcgan: `input.is_cuda or input.is_xpu`)
    t = torch.zeros(2)
    for name in ("is_xpu", "is_mps", "is_mkldnn", "is_vulkan", "is_ipu", "is_mtia", "is_maia",
                 "is_xla", "is_nested", "is_sparse_csr", "is_meta"):
        assert getattr(t, name) is False, name
