"""minitorch.cuda: devices, the current device and streams, events, memory statistics (CUDA
tensors: see README)."""
from .. import _C
from . import nccl  # noqa: F401  (the library loads on first use)

OutOfMemoryError = _C.OutOfMemoryError      # torch.cuda.OutOfMemoryError is torch's


def device_count():
    """Number of CUDA devices visible (0 without a GPU, a driver, or CUDA support)."""
    return _C._cuda_device_count()


def is_available():
    """Whether CUDA tensors can be used: the build has CUDA (a GPU build, or the emulated test
    build) and a device is visible."""
    return device_count() > 0


def is_compiled():
    return bool(_C._has_cuda)


def _unavailable():
    """torch's RuntimeError for a CUDA request without a device (no CUDA built in, no driver,
    no GPU)."""
    return RuntimeError(_C._cuda_unavailableMessage())


def _get_device_index(device, optional=False):
    """The CUDA device index `device` names (an int, a string, a minitorch.device); -1 means
    the calling thread's current device, which optional=True allows for None and "cuda"."""
    if isinstance(device, int):
        return int(device)
    if isinstance(device, str):
        from .. import device as _device
        device = _device(device)
    from .. import device as _device
    if isinstance(device, _device):
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        if device.index is not None:
            return device.index
    if optional:
        return -1
    raise ValueError("Expected a torch.device with a specified index or an integer, but "
                     f"got:{device}")


# ---- the current device (Note [Current device and stream] in c10_lite/cuda_state.h) ----------

def current_device():
    """The calling thread's current CUDA device (each thread has its own, 0 at first)."""
    return _C._cuda_getDevice()


def set_device(device):
    """Makes `device` the calling thread's current CUDA device; a negative index does nothing."""
    idx = _get_device_index(device)
    if idx >= 0:
        _C._cuda_setDevice(idx)


class device:
    """Context manager that makes `device` the current CUDA device inside it (None or a negative
    index: no change)."""

    def __init__(self, device):
        self.idx = _get_device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self):
        if self.idx >= 0:
            self.prev_idx = _C._cuda_getDevice()
            if self.prev_idx != self.idx:
                _C._cuda_setDevice(self.idx)

    def __exit__(self, *exc_info):
        if self.prev_idx >= 0 and self.prev_idx != self.idx:
            _C._cuda_setDevice(self.prev_idx)
        return False


class device_of(device):
    """device(...) of a tensor's or storage's CUDA device (no change for other devices)."""

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


def synchronize(device=None):
    """Waits for all work queued on the device (None: the current device)."""
    _C._cuda_synchronize(_get_device_index(device, optional=True))


# ---- streams and events (Note [CUDA streams] in c10_lite/cuda_hooks.h) ----------------------

_CUDA_DEVICE_TYPE = 1  # the device type code torch gives CUDA streams


class Stream:
    """A CUDA stream of a device: work queued on it runs in order, independently of other
    streams.  Streams come from a per-device pool (32 per priority) and are never destroyed, so
    two Stream objects may share one.  priority < 0 takes a high-priority stream."""

    def __new__(cls, device=None, priority=0, **kwargs):
        if not _C._has_cuda:
            raise RuntimeError("torch.cuda.Stream requires CUDA support")
        self = super().__new__(cls)
        if "stream_id" in kwargs and "device_index" in kwargs:
            self.cuda_stream = int(kwargs["stream_id"])
            self.device_index = int(kwargs["device_index"])
            _C._cuda_getDefaultStream(self.device_index)  # checks the device
        else:
            idx = _get_device_index(device, optional=True)
            if idx < 0:
                idx = _C._cuda_getDevice()
            self.cuda_stream = _C._cuda_streamAcquire(idx, int(priority))
            self.device_index = idx
        return self

    @classmethod
    def _wrap(cls, handle, device_index):
        self = super().__new__(cls)
        self.cuda_stream, self.device_index = handle, device_index
        return self

    @property
    def stream_id(self):
        return self.cuda_stream

    @property
    def device_type(self):
        return _CUDA_DEVICE_TYPE

    @property
    def device(self):
        from .. import device as _device
        return _device("cuda", self.device_index)

    @property
    def priority(self):
        return _C._cuda_streamPriority(self.cuda_stream, self.device_index)

    @staticmethod
    def priority_range():
        return _C._cuda_streamPriorityRange()

    def query(self):
        """Whether all work queued on the stream has completed."""
        return _C._cuda_streamQuery(self.cuda_stream, self.device_index)

    def synchronize(self):
        """Waits for all work queued on the stream."""
        _C._cuda_streamSynchronize(self.cuda_stream, self.device_index)

    def wait_event(self, event):
        """Work queued on this stream from now on waits for the event."""
        event.wait(self)

    def wait_stream(self, stream):
        """Work queued on this stream from now on waits for the work queued on `stream` so far."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        """Records `event` (a new one when None) on the stream and returns it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def __enter__(self):
        self._ctx = StreamContext(self)
        return self._ctx.__enter__()

    def __exit__(self, *exc_info):
        return self._ctx.__exit__(*exc_info)

    def __eq__(self, other):
        if not isinstance(other, Stream):
            return False
        return self.cuda_stream == other.cuda_stream and self.device_index == other.device_index

    def __hash__(self):
        return hash((self.cuda_stream, self.device_index))

    def __repr__(self):
        return f"<torch.cuda.Stream device={self.device} cuda_stream={self.cuda_stream:#x}>"


class Event:
    """A CUDA event: a marker in a stream's work, to wait for, query or time.  The runtime's
    event is made when the event is first recorded, on the recording stream's device."""

    def __new__(cls, enable_timing=False, blocking=False, interprocess=False, external=False):
        if not _C._has_cuda:
            raise RuntimeError("torch.cuda.Event requires CUDA support")
        self = super().__new__(cls)
        self.enable_timing, self.blocking, self.interprocess = enable_timing, blocking, interprocess
        self._flags = (1 if enable_timing else 0) | (2 if blocking else 0) | \
            (4 if interprocess else 0)
        self._handle = None  # a capsule that destroys the runtime's event
        self._device = None
        return self

    def record(self, stream=None):
        """Records the event on `stream` (None: the current stream)."""
        if stream is None:
            stream = current_stream()
        if self._handle is None:
            self._handle = _C._cuda_eventNew(stream.device_index, self._flags)
            self._device = stream.device_index
        elif stream.device_index != self._device:
            raise RuntimeError(f"Event device {self._device} does not match recording stream's "
                               f"device {stream.device_index}.")
        _C._cuda_eventRecord(self._handle, stream.cuda_stream)

    def wait(self, stream=None):
        """Work queued on `stream` (None: the current stream) from now on waits for the event."""
        if stream is None:
            stream = current_stream()
        if self._handle is not None:
            _C._cuda_eventWait(self._handle, stream.cuda_stream, stream.device_index)

    def query(self):
        """Whether the work before the event's record has completed (True if never recorded)."""
        return True if self._handle is None else _C._cuda_eventQuery(self._handle)

    def synchronize(self):
        """Waits for the work before the event's record (nothing if never recorded)."""
        if self._handle is not None:
            _C._cuda_eventSynchronize(self._handle)

    def elapsed_time(self, end_event):
        """Milliseconds from this event's record to end_event's."""
        if self._handle is None or end_event._handle is None:
            raise ValueError("Both events must be recorded before calculating elapsed time.")
        return _C._cuda_eventElapsedTime(self._handle, end_event._handle)

    @property
    def device(self):
        from .. import device as _device
        return None if self._device is None else _device("cuda", self._device)

    def __repr__(self):
        if self._handle is None:
            return "<torch.cuda.Event uninitialized>"
        return f"<torch.cuda.Event device={self.device}>"


def current_stream(device=None):
    """The calling thread's current stream on the device (None: the current device)."""
    handle, idx = _C._cuda_getCurrentStream(_get_device_index(device, optional=True))
    return Stream._wrap(handle, idx)


def default_stream(device=None):
    """The default stream of the device (None: the current device)."""
    handle, idx = _C._cuda_getDefaultStream(_get_device_index(device, optional=True))
    return Stream._wrap(handle, idx)


def set_stream(stream):
    """Makes `stream` the current stream of its device, and its device the current device, for
    the calling thread (None: nothing)."""
    if stream is None:
        return
    _C._cuda_setStream(stream.cuda_stream, stream.device_index)
    if _C._cuda_getDevice() != stream.device_index:
        _C._cuda_setDevice(stream.device_index)


class StreamContext:
    """Context manager that makes `stream` current inside it (None: no change), restoring the
    current streams of both the current device and the stream's device after."""

    def __init__(self, stream):
        self.stream = stream
        self.idx = _C._cuda_getDevice() if device_count() > 0 else -1
        self.src_prev_stream = self.dst_prev_stream = None

    def __enter__(self):
        cur = self.stream
        if cur is None or self.idx == -1:
            return
        self.src_prev_stream = current_stream(None)
        if self.src_prev_stream.device != cur.device:
            with device(cur.device):
                self.dst_prev_stream = current_stream(cur.device)
        set_stream(cur)

    def __exit__(self, *exc_info):
        cur = self.stream
        if cur is None or self.idx == -1:
            return False
        if self.src_prev_stream.device != cur.device:
            set_stream(self.dst_prev_stream)
        set_stream(self.src_prev_stream)
        return False


def stream(stream):
    """with minitorch.cuda.stream(s): makes s the current stream inside (None: no change)."""
    return StreamContext(stream)


# ---- memory: the caching allocator's statistics (Note [Caching allocator]) -----------------

def _device_index(device):
    """The index of a CUDA device argument: None means the current device (0 without one: the
    statistics of a process without CUDA memory are empty anyway)."""
    idx = _get_device_index(device, optional=True)
    if idx < 0:
        idx = _C._cuda_getDevice() if device_count() > 0 else 0
    return idx


def memory_stats(device=None):
    """The caching allocator's counters for the device: an empty dict before any CUDA memory
    was allocated (as torch before CUDA is initialised)."""
    return _C._cuda_memory_stats(_device_index(device))


def memory_allocated(device=None):
    """Bytes in blocks that tensors hold on the device (rounded block sizes)."""
    return memory_stats(device).get("allocated_bytes.all.current", 0)


def max_memory_allocated(device=None):
    return memory_stats(device).get("allocated_bytes.all.peak", 0)


def memory_reserved(device=None):
    """Bytes the caching allocator holds from the driver (in use or cached)."""
    return memory_stats(device).get("reserved_bytes.all.current", 0)


def max_memory_reserved(device=None):
    return memory_stats(device).get("reserved_bytes.all.peak", 0)


def reset_peak_memory_stats(device=None):
    _C._cuda_reset_peak_memory_stats(_device_index(device))


def empty_cache():
    """Gives the cached blocks no tensor uses back to the driver."""
    _C._cuda_empty_cache()


# ---- random seeds (cuda/random.py), bfloat16 support, amp (what training scripts call
# unconditionally) -------
from .random import (manual_seed, manual_seed_all, seed, seed_all, initial_seed,  # noqa: E402
                     get_rng_state, get_rng_state_all, set_rng_state, set_rng_state_all)


# ---- device properties ----------------------------------------------------------------------

class _CudaDeviceProperties:
    """What get_device_properties reports of a device (torch's attribute names)."""

    def __init__(self, props):
        self.__dict__.update(props)

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, "
                f"minor={self.minor}, total_memory={self.total_memory // (1024 * 1024)}MB, "
                f"multi_processor_count={self.multi_processor_count}, uuid={self.uuid}, "
                f"pci_bus_id={self.pci_bus_id}, pci_device_id={self.pci_device_id}, "
                f"pci_domain_id={self.pci_domain_id}, "
                f"L2_cache_size={self.L2_cache_size // (1024 * 1024)}MB)")


def get_device_properties(device=None):
    """The properties of a CUDA device (None: the current one)."""
    if device_count() == 0:
        raise _unavailable()
    idx = _get_device_index(device, optional=True)
    if idx == -1 and (device is None or not isinstance(device, int)):
        idx = current_device()
    if idx < 0 or idx >= device_count():
        raise AssertionError("Invalid device id")
    return _CudaDeviceProperties(_C._cuda_getDeviceProperties(idx))


def get_device_name(device=None):
    """The name of a CUDA device (None: the current one)."""
    return get_device_properties(device).name


def get_device_capability(device=None):
    """The (major, minor) compute capability of a CUDA device (None: the current one)."""
    prop = get_device_properties(device)
    return prop.major, prop.minor


def is_bf16_supported(including_emulation=True):
    """Whether CUDA bfloat16 tensors can be used: False without CUDA."""
    return False


def __getattr__(name):
    if name == "amp":
        import importlib
        return importlib.import_module(".amp", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
