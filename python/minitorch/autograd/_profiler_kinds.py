"""The profiler's vocabulary: the enums and configuration objects torch keeps in
torch._C._profiler / torch._C._autograd (DeviceType, ProfilerActivity, ProfilerState,
RecordScope, ProfilerConfig, _ExperimentalConfig), with torch's names and values."""
import enum


class DeviceType(enum.Enum):
    """Where an event ran (minitorch records CPU events only)."""
    CPU = 0
    CUDA = 1
    MKLDNN = 2
    OPENGL = 3
    OPENCL = 4
    IDEEP = 5
    HIP = 6
    FPGA = 7
    MAIA = 8
    XLA = 9
    Vulkan = 10
    Metal = 11
    XPU = 12
    MPS = 13
    Meta = 14
    HPU = 15
    VE = 16
    Lazy = 17
    IPU = 18
    MTIA = 19
    PrivateUse1 = 20

    def __int__(self):
        return self.value


class ProfilerActivity(enum.Enum):
    """Activity groups a profiler can trace; supported_activities() says which minitorch has
    (the CPU ops)."""
    CPU = 0
    XPU = 1
    CUDA = 2
    HPU = 3
    MTIA = 4
    PrivateUse1 = 5

    def __int__(self):
        return self.value


class ProfilerState(enum.Enum):
    Disabled = 0
    CPU = 1
    CUDA = 2
    NVTX = 3
    ITT = 4
    PRIVATEUSE1 = 5
    KINETO = 6
    KINETO_GPU_FALLBACK = 7
    KINETO_PRIVATEUSE1_FALLBACK = 8
    KINETO_PRIVATEUSE1 = 9

    def __int__(self):
        return self.value


class RecordScope(enum.Enum):
    """What opened an event: an op (FUNCTION), a node of the backward pass
    (BACKWARD_FUNCTION), record_function (USER_SCOPE), ..."""
    FUNCTION = 0
    BACKWARD_FUNCTION = 1
    TORCHSCRIPT_FUNCTION = 2
    KERNEL_FUNCTION_DTYPE = 3
    CUSTOM_CLASS = 4
    BUILD_FEATURE = 5
    LITE_INTERPRETER = 6
    USER_SCOPE = 7
    STATIC_RUNTIME_OP = 8
    STATIC_RUNTIME_MODEL = 9

    def __int__(self):
        return self.value


class _ExperimentalConfig:
    """Experimental options (torch passes them on to Kineto).  minitorch reads
    profile_all_threads (record the ops of every thread, not only the profiling one) and
    trace_only (skip building the events: only the Chrome trace can be exported); the others
    are accepted and kept."""

    def __init__(self, verbose=False, performance_events=(), enable_cuda_sync_events=False,
                 adjust_profiler_step=False, disable_external_correlation=False,
                 profile_all_threads=False, capture_overload_names=False,
                 record_python_gc_info=False, expose_kineto_event_metadata=False,
                 custom_profiler_config="", adjust_timestamps=False, trace_only=False):
        self.verbose = verbose
        self.performance_events = list(performance_events)
        self.enable_cuda_sync_events = enable_cuda_sync_events
        self.adjust_profiler_step = adjust_profiler_step
        self.disable_external_correlation = disable_external_correlation
        self.profile_all_threads = profile_all_threads
        self.capture_overload_names = capture_overload_names
        self.record_python_gc_info = record_python_gc_info
        self.expose_kineto_event_metadata = expose_kineto_event_metadata
        self.custom_profiler_config = custom_profiler_config
        self.adjust_timestamps = adjust_timestamps
        self.trace_only = trace_only

    def __repr__(self):
        return f"_ExperimentalConfig(profile_all_threads={self.profile_all_threads}, " \
               f"trace_only={self.trace_only})"


class ProfilerConfig:
    """What a profiling session records."""

    def __init__(self, state, report_input_shapes, profile_memory, with_stack, with_flops,
                 with_modules, experimental_config=None, trace_id=""):
        self.state = state
        self.report_input_shapes = bool(report_input_shapes)
        self.profile_memory = bool(profile_memory)
        self.with_stack = bool(with_stack)
        self.with_flops = bool(with_flops)
        self.with_modules = bool(with_modules)
        self.experimental_config = experimental_config if experimental_config is not None \
            else _ExperimentalConfig()
        self.trace_id = trace_id
