"""CUDA tensors: factories on a device, copies host<->device and device<->device, the first
elementwise kernels, printing and reading values back, and the errors torch gives (mixing
devices, ops without a CUDA kernel, numpy()).  Values on the device are compared with the same
computation on the CPU (bit-identical where the kernel computes the same expression).  Runs on
a GPU or on the emulated device (MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped without
one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

TWO = pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")

DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.int8, torch.uint8,
          torch.bool, torch.float16, torch.bfloat16, torch.complex64]


def _cpu_values(dtype, shape=(3, 4)):
    x = torch.arange(int(np.prod(shape)), dtype=torch.float64).reshape(shape) * 1.25 - 3
    return x.to(dtype)


# ---- factories and attributes -------------------------------------------------------------------

@pytest.mark.parametrize("fn,val", [(torch.zeros, 0), (torch.ones, 1)])
def test_factories(fn, val):
    t = fn(2, 3, device="cuda")
    assert t.is_cuda and t.device == torch.device("cuda:0") and t.get_device() == 0
    assert t.cpu().tolist() == [[val] * 3] * 2
    e = torch.empty(4, dtype=torch.int16, device="cuda:0")
    assert e.shape == (4,) and e.dtype == torch.int16 and e.is_cuda


def test_full_any_dtype():
    for dt, v in [(torch.float32, 2.5), (torch.int64, -7), (torch.bool, True),
                  (torch.complex128, 1 + 2j), (torch.bfloat16, 0.5), (torch.uint8, 200)]:
        t = torch.full((5,), v, dtype=dt, device="cuda")
        assert t.cpu().tolist() == torch.full((5,), v, dtype=dt).tolist()


@TWO
def test_factory_on_device_one():
    t = torch.ones(3, device="cuda:1")
    assert t.device == torch.device("cuda:1") and t.get_device() == 1
    assert t.tolist() == [1.0, 1.0, 1.0]


def test_cpu_tensor_attributes():
    x = torch.ones(2)
    assert not x.is_cuda and x.get_device() == -1


def test_bad_index():
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        torch.zeros(2, device=f"cuda:{torch.cuda.device_count()}")


# ---- copies --------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_round_trip(dtype):
    x = _cpu_values(dtype)
    c = x.cuda()
    assert c.is_cuda and c.dtype == dtype and c.shape == x.shape
    back = c.cpu()
    assert not back.is_cuda
    assert torch.equal(back, x)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.float16], ids=str)
def test_round_trip_non_contiguous(dtype):
    x = _cpu_values(dtype, (4, 6))
    for v in (x.t(), x[:, ::2], x[1:3, 1:], x[:, :1].expand(4, 5)):
        c = v.cuda()
        assert torch.equal(c.cpu(), v)
        # a non-contiguous view of a device tensor back to the host
        assert torch.equal(c.t().cpu(), v.t())
        assert torch.equal(x.cuda()[:, 1::2].cpu(), x[:, 1::2])


def test_copy_into_device_views():
    x = torch.zeros(4, 6, device="cuda")
    x[:, ::2] = torch.arange(12.0).reshape(4, 3)           # host -> strided device
    x[1] = 5.0                                              # fill of a row
    x.t()[0].copy_(torch.full((4,), -1.0, device="cuda"))   # device -> strided device
    ref = torch.zeros(4, 6)
    ref[:, ::2] = torch.arange(12.0).reshape(4, 3)
    ref[1] = 5.0
    ref.t()[0].copy_(torch.full((4,), -1.0))
    assert torch.equal(x.cpu(), ref)


def test_fill_strided():
    x = torch.zeros(3, 4, dtype=torch.int32, device="cuda")
    x[:, 1::2].fill_(7)
    ref = torch.zeros(3, 4, dtype=torch.int32)
    ref[:, 1::2] = 7
    assert torch.equal(x.cpu(), ref)


def test_to_with_dtype_and_casts():
    x = _cpu_values(torch.float64)
    c = x.to("cuda", torch.float32)
    assert c.is_cuda and c.dtype == torch.float32
    assert torch.equal(c.cpu(), x.float())
    assert torch.equal(c.to(torch.int32).cpu(), x.float().to(torch.int32))   # cast on the device
    assert torch.equal(c.double().cpu(), x.float().double())
    h = c.to("cpu", torch.float16)
    assert not h.is_cuda and torch.equal(h, x.half())
    assert torch.equal(c.t().to(torch.int64).cpu(), x.float().t().long())


def test_to_same_device_is_identity():
    c = torch.ones(3, device="cuda")
    assert c.to("cuda") is c and c.cuda() is c and c.to(0) is c
    h = torch.ones(3)
    assert h.cpu() is h


@TWO
def test_between_devices():
    x = _cpu_values(torch.float32, (3, 5))
    a = x.to("cuda:0")
    b = a.to("cuda:1")
    assert b.get_device() == 1 and torch.equal(b.cpu(), x)
    assert a.to(1).get_device() == 1 and a.cuda(1).get_device() == 1
    assert torch.equal(a.t().to("cuda:1").cpu(), x.t())
    assert torch.equal(b.to(0, torch.float64).cpu(), x.double())
    y = torch.zeros(5, 3, device="cuda:1")
    y.copy_(a.t())
    assert torch.equal(y.cpu(), x.t())


@TWO
def test_current_device_decides_cuda():
    with torch.cuda.device(1):
        t = torch.ones(2, device="cuda")
        assert t.get_device() == 1
        assert torch.ones(2).cuda().get_device() == 1
    assert torch.ones(2).cuda().get_device() == 0


# ---- reading values back ---------------------------------------------------------------------------

def test_item_tolist_bool_float():
    c = torch.tensor([[1.5, -2.0], [3.0, 4.25]]).cuda()
    assert c.tolist() == [[1.5, -2.0], [3.0, 4.25]]
    assert c[1, 1].item() == 4.25 and float(c[0, 1]) == -2.0 and int(c[1, 0]) == 3
    assert bool(c[0, 0]) is True
    assert c.t().tolist() == [[1.5, 3.0], [-2.0, 4.25]]


def test_repr():
    c = torch.tensor([1.5, 2.0]).cuda()
    assert repr(c) == "tensor([1.5000, 2.0000], device='cuda:0')"
    assert repr(torch.tensor([1, 2]).cuda()) == "tensor([1, 2], device='cuda:0')"


def test_numpy_refused():
    c = torch.ones(2, device="cuda")
    with pytest.raises(TypeError) as e:
        c.numpy()
    assert str(e.value) == ("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() "
                            "to copy the tensor to host memory first.")
    with pytest.raises(TypeError):
        np.asarray(c)
    assert np.array_equal(c.cpu().numpy(), np.ones(2, dtype=np.float32))


# ---- elementwise kernels -------------------------------------------------------------------------

def _pair(dtype, shape_a=(5, 7), shape_b=(5, 7)):
    g = np.random.default_rng(0)
    a = torch.tensor(g.standard_normal(shape_a)).to(dtype)
    b = torch.tensor(g.standard_normal(shape_b) + 3.0).to(dtype)
    return a, b


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_binary_bit_identical(dtype, op):
    a, b = _pair(dtype)
    r = getattr(torch, op)(a.cuda(), b.cuda())
    assert r.is_cuda and r.dtype == dtype
    assert torch.equal(r.cpu(), getattr(torch, op)(a, b))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_unary(dtype):
    a, _ = _pair(dtype)
    a[0, 0] = float("nan")
    c = a.cuda()
    for f in (torch.neg, torch.relu):
        assert np.array_equal(f(c).cpu().numpy(), f(a).numpy(), equal_nan=True)
    assert torch.isnan(torch.relu(c)[0, 0].cpu())
    e = torch.exp(c).cpu()
    assert torch.allclose(e[1:], torch.exp(a)[1:], rtol=1e-6 if dtype == torch.float32 else 1e-13)


def test_broadcasting_and_strides():
    a, b = _pair(torch.float32, (4, 1, 6), (3, 1))
    assert torch.equal((a.cuda() + b.cuda()).cpu(), a + b)
    x, y = _pair(torch.float32, (6, 8), (8, 6))
    assert torch.equal((x.cuda()[:, ::2] * y.cuda().t()[:, 1::2]).cpu(), x[:, ::2] * y.t()[:, 1::2])
    # a Python scalar and a 0-d cpu tensor are scalar operands on any device
    assert torch.equal((x.cuda() * 2.5).cpu(), x * 2.5)
    assert torch.equal((x.cuda() - torch.tensor(1.5)).cpu(), x - torch.tensor(1.5))


def test_in_place_and_out():
    x, y = _pair(torch.float64)
    c = x.cuda()
    c.add_(y.cuda())
    assert torch.equal(c.cpu(), x + y)
    o = torch.empty(5, 7, dtype=torch.float64, device="cuda")
    torch.mul(x.cuda(), y.cuda(), out=o)
    assert torch.equal(o.cpu(), x * y)


def test_mixing_devices():
    with pytest.raises(RuntimeError) as e:
        torch.ones(2, device="cuda") + torch.ones(2)
    assert str(e.value) == ("Expected all tensors to be on the same device, but found at least "
                            "two devices, cuda:0 and cpu!")


def test_op_without_kernel():
    # (ctc_loss has no CUDA kernel yet: when it has one, take another op that has none)
    lp = torch.randn(5, 2, 4, device="cuda").log_softmax(2)
    t = torch.tensor([[1, 2], [1, 1]], device="cuda")
    n = torch.tensor([5, 5], device="cuda")
    with pytest.raises(NotImplementedError, match="CUDA|cuda"):
        torch.nn.functional.ctc_loss(lp, t, n, n - 3)
    # lengths as lists or CPU tensors reach the same kernel (moved to the device, as torch)
    for lengths in (([5, 5], [2, 2]), (torch.tensor([5, 5]), torch.tensor([2, 2]))):
        with pytest.raises(NotImplementedError, match="CUDA|cuda"):
            torch.nn.functional.ctc_loss(lp, t, *lengths)


def test_dtype_without_kernel():
    c = torch.ones(3, dtype=torch.float32, device="cuda")
    with pytest.raises(NotImplementedError, match="bitwise_and_cuda.*Float"):
        c & c


# ---- modules, pickling, save/load ---------------------------------------------------------------

def test_module_cuda_and_to():
    m = torch.nn.Linear(3, 2)
    m.register_buffer("steps", torch.arange(4))
    w = m.weight.detach().clone()
    assert m.cuda() is m
    assert all(p.is_cuda for p in m.parameters()) and m.steps.is_cuda
    assert isinstance(m.weight, torch.nn.Parameter) and m.weight.requires_grad
    assert torch.equal(m.weight.cpu(), w)
    m.to("cpu")
    assert not m.weight.is_cuda and not m.steps.is_cuda
    m.to("cuda", torch.float64)
    assert m.weight.dtype == torch.float64 and m.weight.is_cuda and m.steps.dtype == torch.int64
    if torch.cuda.device_count() > 1:
        m.to(1)
        assert m.weight.get_device() == 1 and m.bias.get_device() == 1 and m.steps.get_device() == 1


def test_pickle_keeps_device():
    import pickle
    c = torch.arange(6.0).reshape(2, 3).cuda().t()
    r = pickle.loads(pickle.dumps(c))
    assert r.device == c.device and r.tolist() == c.tolist()


def test_save_load_map_location(tmp_path):
    last = torch.cuda.device_count() - 1
    a = torch.arange(6.0).reshape(2, 3).to(last)
    path = tmp_path / "ckpt.pt"
    torch.save({"a": a, "col": a[:, 1], "h": torch.ones(2)}, path)
    cases = [(None, f"cuda:{last}", "cpu"), ("cpu", "cpu", "cpu"),
             ("cuda:0", "cuda:0", "cuda:0"), (torch.device("cuda:0"), "cuda:0", "cuda:0"),
             ({f"cuda:{last}": "cuda:0"}, "cuda:0", "cpu"),
             (lambda s, loc: s, "cpu", "cpu")]
    for ml, dev, hdev in cases:
        r = torch.load(path, map_location=ml)
        assert str(r["a"].device) == dev and str(r["col"].device) == dev
        assert str(r["h"].device) == hdev
        assert r["a"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
        assert r["col"].tolist() == [1.0, 4.0]
        # the view still shares its base's storage
        assert r["col"].untyped_storage().data_ptr() == r["a"].untyped_storage().data_ptr()
    n = torch.cuda.device_count()
    with pytest.raises(RuntimeError, match=f"on CUDA device {n} but .*device_count\\(\\) is {n}"):
        torch.load(path, map_location=f"cuda:{n}")


def test_mixed_float_dtypes_and_reciprocal():
    x, y = _pair(torch.float32)
    yd = y.double()
    r = x.cuda() + yd.cuda()
    assert r.dtype == torch.float64 and torch.equal(r.cpu(), x + yd)
    assert torch.equal((yd.cuda() * x.cuda()[:, :1]).cpu(), yd * x[:, :1])
    assert torch.equal((2.0 / y.cuda()).cpu(), 2.0 / y)
    assert torch.equal(torch.reciprocal(yd.cuda()).cpu(), torch.reciprocal(yd))
    i = torch.ones(5, 7, dtype=torch.int32)
    assert torch.equal((x.cuda() + i.cuda()).cpu(), x + i)


def test_tensor_from_data_on_device():
    c = torch.tensor([[1, 2], [3, 4]], dtype=torch.float32, device="cuda")
    assert c.is_cuda and c.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    n = torch.tensor(np.arange(3), device="cuda")
    assert n.is_cuda and n.dtype == torch.int64 and n.tolist() == [0, 1, 2]
    with pytest.warns(UserWarning, match="clone"):
        t = torch.tensor(torch.ones(2), device="cuda")
    assert t.is_cuda and t.tolist() == [1.0, 1.0]
    assert torch.as_tensor([1.5], device="cuda").is_cuda


def test_device_values_as_arguments():
    """Values a binding reads from a device tensor (an int, a scalar, sizes, an index) are
    copied to the host first."""
    x = torch.arange(6.0).reshape(2, 3).cuda()
    i = torch.tensor(1, device="cuda")
    assert x[i].tolist() == [3.0, 4.0, 5.0]
    assert x.view(torch.tensor([3, 2], device="cuda")).shape == (3, 2)
    assert x.fill_(torch.tensor(2.5, device="cuda")).tolist() == [[2.5] * 3] * 2
    assert torch.full((2,), torch.tensor(4, device="cuda")).tolist() == [4, 4]
    with pytest.raises(TypeError, match="ByteTensor"):
        torch.default_generator.set_state(torch.default_generator.get_state().cuda())
