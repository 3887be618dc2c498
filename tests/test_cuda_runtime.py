"""The CUDA runtime state as Python sees it: current device and stream (per thread, kept in C),
Stream and Event objects, the device/stream context managers, and what every CUDA request does
without a device (torch's RuntimeError, never a crash).  Messages were captured from torch 2.15
(a CUDA build) on a machine without a driver.  Tests that need a device (a GPU or an emulated
one) skip without it."""
import re
import threading

import numpy as np
import pytest

import minitorch as torch
from minitorch import _C

NO_DEVICE = torch.cuda.device_count() == 0
needs_device = pytest.mark.skipif(NO_DEVICE, reason="needs a CUDA device (a GPU or an emulated one)")
without_device = pytest.mark.skipif(not NO_DEVICE, reason="checks the behaviour without a device")

# torch's messages for a CUDA request without a usable device, by cause
REF_NO_DRIVER = ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
                 "and installed a driver from http://www.nvidia.com/Download/index.aspx")
REF_NO_GPU = "No CUDA GPUs are available"
REF_NOT_COMPILED = "Torch not compiled with CUDA enabled"


def _unavailable():
    """A regex matching the whole message this build and machine must give."""
    if not _C._has_cuda:
        return "^" + re.escape(REF_NOT_COMPILED) + "$"
    causes = [REF_NO_DRIVER, REF_NO_GPU, "The NVIDIA driver on your system is too old",
              "CUDA driver initialization failed"]
    return "^(" + "|".join(re.escape(c) for c in causes) + ")"


# ---- without a device -------------------------------------------------------------------------

@without_device
def test_not_available():
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    assert re.match(_unavailable(), _C._cuda_unavailableMessage())


@without_device
@pytest.mark.parametrize("request_", [
    lambda: torch.empty(1, device="cuda"),
    lambda: torch.zeros(2, 3, device="cuda:1"),
    lambda: torch.tensor([1.0], device="cuda"),
    lambda: torch.ones(2).cuda(),
    lambda: torch.ones(2).to("cuda"),
    lambda: torch.empty_strided((2,), (1,), device="cuda"),
    lambda: torch.UntypedStorage(4, device="cuda"),
], ids=["empty", "zeros-cuda:1", "tensor", ".cuda()", ".to", "empty_strided", "UntypedStorage"])
def test_cuda_memory_request_raises(request_):
    with pytest.raises(RuntimeError, match=_unavailable()):
        request_()


@without_device
@pytest.mark.parametrize("call", [
    torch.cuda.current_device,
    lambda: torch.cuda.set_device(0),
    lambda: torch.cuda.set_device("cuda:1"),
    lambda: torch.cuda.set_device(torch.device("cuda", 0)),
    torch.cuda.current_stream,
    lambda: torch.cuda.current_stream(0),
    torch.cuda.default_stream,
    torch.cuda.synchronize,
    lambda: torch.cuda.device(0).__enter__(),
    lambda: torch.cuda.device("cuda:0").__enter__(),
], ids=["current_device", "set_device", "set_device-str", "set_device-device", "current_stream",
        "current_stream-0", "default_stream", "synchronize", "device(0)", "device(cuda:0)"])
def test_runtime_calls_raise(call):
    with pytest.raises(RuntimeError, match=_unavailable()):
        call()


@without_device
def test_no_ops_without_device():
    assert torch.cuda.set_device(-1) is None  # a negative index does nothing (torch)
    with torch.cuda.device(None):
        pass
    with torch.cuda.device(-1):
        pass
    with torch.cuda.device("cuda"):  # no index: the current device, nothing to change
        pass
    with torch.cuda.stream(None):
        pass
    assert torch.cuda.set_stream(None) is None
    with torch.cuda.device_of(torch.ones(1)):
        pass
    assert torch.cuda.memory_stats() == {}
    assert torch.cuda.memory_allocated() == 0 and torch.cuda.max_memory_reserved(0) == 0


@without_device
def test_other_threads_raise_too():
    seen = []

    def run():
        try:
            torch.cuda.current_device()
        except RuntimeError as e:
            seen.append(str(e))

    th = threading.Thread(target=run)
    th.start()
    th.join()
    assert len(seen) == 1 and re.match(_unavailable(), seen[0])


@without_device
def test_stream_without_device():
    if not _C._has_cuda:
        msg = "^torch.cuda.Stream requires CUDA support$"
    else:
        msg = _unavailable()
    with pytest.raises(RuntimeError, match=msg):
        torch.cuda.Stream()
    with pytest.raises(RuntimeError, match=msg):
        torch.cuda.Stream(priority=-1)


@without_device
def test_event_without_device():
    if not _C._has_cuda:
        with pytest.raises(RuntimeError, match="^torch.cuda.Event requires CUDA support$"):
            torch.cuda.Event()
        return
    # as torch: an event is made lazily, so a fresh one works until it is recorded
    e = torch.cuda.Event(enable_timing=True, blocking=True)
    assert repr(e) == "<torch.cuda.Event uninitialized>"
    assert e.query() is True and e.synchronize() is None
    with pytest.raises(ValueError, match="^Both events must be recorded before calculating "
                                         "elapsed time.$"):
        e.elapsed_time(torch.cuda.Event(enable_timing=True))
    with pytest.raises(RuntimeError, match=_unavailable()):
        e.record()
    with pytest.raises(RuntimeError, match=_unavailable()):
        e.wait()


# ---- argument checks (the same with or without a device) -------------------------------------

@pytest.mark.parametrize("arg, msg", [
    ("cpu", "Expected a cuda device, but got: cpu"),
    (torch.device("cpu"), "Expected a cuda device, but got: cpu"),
    ("cuda", "Expected a torch.device with a specified index or an integer, but got:cuda"),
    (None, "Expected a torch.device with a specified index or an integer, but got:None"),
    (1.5, "Expected a torch.device with a specified index or an integer, but got:1.5"),
])
def test_set_device_bad_argument(arg, msg):
    with pytest.raises(ValueError, match="^" + re.escape(msg) + "$"):
        torch.cuda.set_device(arg)


def test_device_context_bad_argument():
    with pytest.raises(ValueError, match="^Expected a cuda device, but got: cpu$"):
        torch.cuda.device("cpu")
    if _C._has_cuda:
        with pytest.raises(ValueError, match="^Expected a cuda device, but got: cpu$"):
            torch.cuda.Stream(device="cpu")


# ---- storage resizability (the explicit flag of c10_lite/storage.h) ---------------------------

def test_resizable_only_when_ours():
    t = torch.zeros(2)
    assert t.resize_(10).shape == (10,)
    b = torch.zeros(2)
    b.numpy()
    with pytest.raises(RuntimeError, match="^Trying to resize storage that is not resizable$"):
        b.resize_(10)
    s = torch.zeros(2)
    s.share_memory_()
    with pytest.raises(RuntimeError, match="^Trying to resize storage that is not resizable$"):
        s.resize_(10)
    f = torch.from_numpy(np.zeros(2))
    with pytest.raises(RuntimeError, match="^Trying to resize storage that is not resizable$"):
        f.resize_(10)
    g = torch.arange(4.0)
    g.resize_(2)
    assert g.resize_(100).shape == (100,) and g[:4].tolist() == [0.0, 1.0, 2.0, 3.0]


# ---- with a device (a GPU, or the emulated device) --------------------------------------------

@needs_device
def test_current_device_per_thread():
    n = torch.cuda.device_count()
    assert torch.cuda.current_device() == 0
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        torch.cuda.set_device(n)
    torch.cuda.set_device(n - 1)
    try:
        seen = []
        th = threading.Thread(target=lambda: seen.append(torch.cuda.current_device()))
        th.start()
        th.join()
        assert seen == [0] and torch.cuda.current_device() == n - 1
    finally:
        torch.cuda.set_device(0)


@needs_device
def test_device_context_restores():
    n = torch.cuda.device_count()
    with torch.cuda.device(n - 1):
        assert torch.cuda.current_device() == n - 1
    assert torch.cuda.current_device() == 0
    with pytest.raises(KeyError):
        with torch.cuda.device(n - 1):
            raise KeyError
    assert torch.cuda.current_device() == 0


@needs_device
def test_streams():
    d = torch.cuda.default_stream()
    assert d.cuda_stream == 0 and d == torch.cuda.current_stream() and d.device_index == 0
    s = torch.cuda.Stream()
    assert s != d and s.device == torch.device("cuda", 0) and s.query() is True
    with torch.cuda.stream(s):
        assert torch.cuda.current_stream() == s
        seen = []
        th = threading.Thread(target=lambda: seen.append(torch.cuda.current_stream()))
        th.start()
        th.join()
        assert seen == [d]  # another thread keeps its own
    assert torch.cuda.current_stream() == d
    least, greatest = torch.cuda.Stream.priority_range()
    assert torch.cuda.Stream(priority=-1).priority == greatest
    assert torch.cuda.Stream(priority=0).priority == least
    s.synchronize()
    w = torch.cuda.Stream()
    w.wait_stream(s)
    torch.cuda.synchronize()
    assert {s: 1}[torch.cuda.Stream(stream_id=s.cuda_stream, device_index=0, device_type=1)] == 1


@needs_device
def test_stream_on_other_device_restores_both():
    n = torch.cuda.device_count()
    if n < 2:
        pytest.skip("needs two devices")
    s1 = torch.cuda.Stream(device=1)
    with torch.cuda.stream(s1):
        assert torch.cuda.current_device() == 1 and torch.cuda.current_stream() == s1
    assert torch.cuda.current_device() == 0
    assert torch.cuda.current_stream(1) == torch.cuda.default_stream(1)


@needs_device
def test_events():
    s = torch.cuda.Stream()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record(s)
    end.record(s)
    end.synchronize()
    assert start.query() and end.query()
    assert start.elapsed_time(end) >= 0
    e = s.record_event()
    torch.cuda.current_stream().wait_event(e)
    e.synchronize()
    assert e.query() is True and e.device == torch.device("cuda", 0)


# ---- device properties ------------------------------------------------------------------------

@without_device
@pytest.mark.parametrize("fn", ["get_device_name", "get_device_properties",
                                "get_device_capability"])
def test_device_properties_without_a_device(fn):
    with pytest.raises(RuntimeError, match=_unavailable()):
        getattr(torch.cuda, fn)()


@needs_device
def test_device_properties():
    n = torch.cuda.device_count()
    for i in range(n):
        p = torch.cuda.get_device_properties(i)
        assert isinstance(p.name, str) and p.name
        assert torch.cuda.get_device_name(i) == p.name
        assert torch.cuda.get_device_name(f"cuda:{i}") == p.name
        assert torch.cuda.get_device_capability(torch.device("cuda", i)) == (p.major, p.minor)
        assert p.major >= 1 and p.total_memory > 0 and p.multi_processor_count > 0
        assert p.warp_size == 32 and p.L2_cache_size >= 0
        assert isinstance(p.is_integrated, bool) and isinstance(p.is_multi_gpu_board, bool)
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", p.uuid)
        assert repr(p).startswith(f"_CudaDeviceProperties(name='{p.name}', major={p.major}, ")
    if "emulated" in torch.cuda.get_device_name(0):
        assert "emulated" in torch.cuda.get_device_name(n - 1)
    with torch.cuda.device(n - 1):
        assert torch.cuda.get_device_name() == torch.cuda.get_device_name(n - 1)
    for bad in (n, -1):
        with pytest.raises(AssertionError, match="Invalid device id"):
            torch.cuda.get_device_properties(bad)
