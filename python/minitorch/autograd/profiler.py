"""torch.autograd.profiler: the profiler's context manager (profile), user ranges
(record_function), the NVTX/ITT annotators (which need CUDA / Intel's ITT, absent here) and
the step tracker of torch.profiler.

profile() records what _profiler_collection records (Note [Profiler collection]) and turns
it into FunctionEvents, lazily, on first use of the results."""
import functools
import uuid
import warnings
from collections import defaultdict
from time import perf_counter_ns

from . import _profiler_collection as _collection
from ._profiler_kinds import (DeviceType, ProfilerActivity, ProfilerConfig, ProfilerState,
                              _ExperimentalConfig)
from .profiler_util import (EventList, FunctionEvent, MemRecordsAcc, MEMORY_EVENT_NAME,
                            OUT_OF_MEMORY_EVENT_NAME, _filter_name, _filter_stack_entry,
                            _rewrite_name)

__all__ = ["profile", "record_function", "emit_itt", "emit_nvtx", "load_nvprof",
           "EnforceUnique", "parse_nvprof_trace", "KinetoStepTracker", "EventList",
           "FunctionEvent", "MemRecordsAcc"]

# whether a profiler is recording (a fast check for Python code)
_is_profiler_enabled = False


def _set_is_profiler_enabled(enable):
    global _is_profiler_enabled
    _is_profiler_enabled = enable


def _run_on_profiler_start():
    _set_is_profiler_enabled(True)


def _run_on_profiler_stop():
    _set_is_profiler_enabled(False)


def kineto_available():
    """True: minitorch's profiler gives what torch's Kineto-based one gives on a CPU (its
    events, the torch.profiler schedules and Kineto's Chrome trace layout)."""
    return True


def _supported_activities():
    return {ProfilerActivity.CPU}


def _prepare_profiler(config, activities, activity_filter=None, profiler_extensions=None):
    """Nothing to prepare: recording starts with _enable_profiler."""


def _enable_profiler(config, activities):
    _collection.enable(config, activities)


def _disable_profiler():
    return _collection.disable()


def _profiler_enabled():
    """Whether the profiler records this thread's ops."""
    return _collection.profiler_enabled()


def _toggle_collection_dynamic(enabled, activities):
    _collection.toggle_collection(enabled, activities)


def _add_metadata_json(key, value):
    _collection.add_metadata_json(key, value)


def _kineto_step():
    """A step of the global step count (Kineto's on-demand tracing uses it; nothing here)."""


def _is_kineto_stopped():
    return False


class _ProfilerStats:
    """Timings of the profiler's own work."""

    def __init__(self):
        self.profiling_window_duration_sec = 0
        self.number_of_events = 0
        self.profiler_prepare_call_duration_us = 0
        self.profiler_enable_call_duration_us = 0
        self.profiler_disable_call_duration_us = 0
        self.parse_kineto_call_duration_us = 0
        self.function_events_build_tree_call_duration_us = 0


class profile:
    """Profiles the ops run inside it (a context manager): afterwards function_events lists
    every op call, backward node and record_function block as a FunctionEvent, and
    key_averages / table / export_chrome_trace summarise them.

    enabled=False makes it do nothing.  use_device names a device to profile too ("cuda",
    ...): without one, as torch on a CPU, it warns and profiles the CPU only.  record_shapes:
    keep the ops' input shapes (and dtypes, strides, values); profile_memory: the bytes each op
    allocated less those it freed; with_stack: each op's Python stack; with_flops: the FLOPs
    of matrix products, 2-D convolutions, add and mul (implies record_shapes).  use_kineto and
    use_cpu are torch's (the results are the same); acc_events keeps the events of earlier
    cycles.  Only the thread that enters it is profiled, unless
    experimental_config=_ExperimentalConfig(profile_all_threads=True)."""

    def __init__(self, enabled=True, *, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False,
                 use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None, post_processing_timeout_s=None,
                 activity_filters=None, _profiler_extensions=None):
        self.enabled = enabled
        if not self.enabled:
            return
        self.use_device = use_device
        self._function_events = None
        self._old_function_events = None
        self._needs_processing = False
        self.entered = False
        self.record_shapes = record_shapes or with_flops
        self.with_flops = with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        self.use_cpu = use_cpu
        self.acc_events = acc_events
        if experimental_config is None:
            experimental_config = _ExperimentalConfig()
        if experimental_config.trace_only and with_stack:
            warnings.warn("trace_only=True is incompatible with with_stack=True (stack traces "
                          "require event post-processing). Disabling trace_only.")
            experimental_config = _ExperimentalConfig(
                profile_all_threads=experimental_config.profile_all_threads)
        if experimental_config.adjust_profiler_step:
            warnings.warn("adjust_profiler_step is deprecated and ignored. It will be removed "
                          "in a future release.", FutureWarning, stacklevel=2)
        if with_modules:
            warnings.warn("with_modules is deprecated and will be removed in a future release. "
                          "It only collects data for TorchScript models, which are themselves "
                          "deprecated, and does nothing in eager mode. Use with_stack=True, "
                          "which records nn.Module events for eager models.", FutureWarning,
                          stacklevel=2)
        self.experimental_config = experimental_config
        self.kineto_results = None
        self.profiling_start_time_ns = 0
        self.profiling_end_time_ns = 0
        self._stats = _ProfilerStats()
        self.custom_trace_id_callback = custom_trace_id_callback
        self.post_processing_timeout_s = post_processing_timeout_s
        self.activity_filters = activity_filters or {}
        self._profiler_extensions = _profiler_extensions or {}
        self.trace_id = ""
        if not self.use_cpu and not use_kineto:
            raise AssertionError("Device-only events supported only with Kineto "
                                 "(use_kineto=True)")
        if self.use_device is not None:
            if self.use_device not in ("cuda", "xpu", "mtia", "hpu"):
                warnings.warn(f"The {self.use_device} is not a valid device option.",
                              stacklevel=2)
                self.use_device = None
            else:
                # no device's activity can be traced here: torch on a machine without one
                label = {"cuda": "CUDA", "xpu": "XPU", "hpu": "HPU", "mtia": "MTIA"}
                if self.use_device in ("cuda", "xpu", "hpu"):
                    warnings.warn(f"{label[self.use_device]} is not available, disabling "
                                  f"{label[self.use_device]} profiling", stacklevel=2)
                    self.use_device = None
                else:
                    raise AssertionError("Legacy MTIA profiling is not supported. Requires "
                                         "use_kineto=True on MTIA devices.")
        self.kineto_activities = set()
        if self.use_cpu:
            self.kineto_activities.add(ProfilerActivity.CPU)
        self.profiler_kind = ProfilerState.KINETO
        if not self.kineto_activities:
            raise AssertionError("No activities specified for the profiler")
        if self.post_processing_timeout_s is not None and self.post_processing_timeout_s < 0:
            raise ValueError("post_processing_timeout_s must be non-negative")

    def default_trace_id(self):
        return f"{uuid.uuid4().int:032X}"

    def create_trace_id(self):
        if self.custom_trace_id_callback:
            return self.custom_trace_id_callback()
        return self.default_trace_id()

    def config(self, create_trace_id=False):
        if create_trace_id:
            self.trace_id = self.create_trace_id()
        return ProfilerConfig(self.profiler_kind, self.record_shapes, self.profile_memory,
                              self.with_stack, self.with_flops, self.with_modules,
                              self.experimental_config, self.trace_id)

    def __enter__(self):
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self._prepare_trace()
        self._start_trace()
        return self

    def _prepare_trace(self):
        self.entered = True
        t0 = perf_counter_ns()
        _prepare_profiler(self.config(create_trace_id=True), self.kineto_activities)
        self._stats.profiler_prepare_call_duration_us = (perf_counter_ns() - t0) // 1000

    def _start_trace(self):
        self.entered = True
        t0 = perf_counter_ns()
        _enable_profiler(self.config(create_trace_id=False), self.kineto_activities)
        _run_on_profiler_start()
        t1 = perf_counter_ns()
        self._stats.profiler_enable_call_duration_us = (t1 - t0) // 1000
        self.profiling_start_time_ns = t1

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.enabled:
            return None
        if self._function_events and self.acc_events:
            self._old_function_events = self._function_events
        self._function_events = None
        self._needs_processing = True
        t0 = perf_counter_ns()
        self.kineto_results = _disable_profiler()
        self._stats.profiler_disable_call_duration_us = (perf_counter_ns() - t0) // 1000
        self.profiling_end_time_ns = t0
        _run_on_profiler_stop()
        self._stats.profiling_window_duration_sec = \
            (self.profiling_end_time_ns - self.profiling_start_time_ns) / 1e9
        if self.acc_events and not self.experimental_config.trace_only:
            self._ensure_function_events()
        return False

    def __repr__(self):
        if self._needs_processing:
            self._ensure_function_events()
        if self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return repr(self._function_events)

    def __str__(self):
        if self._needs_processing:
            self._ensure_function_events()
        if self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return str(self._function_events)

    def _ensure_function_events(self):
        """Builds the FunctionEvents of the results once."""
        if self.experimental_config.trace_only:
            raise RuntimeError("events() is not available when trace_only=True in "
                               "ExperimentalConfig. Use export_chrome_trace() instead.")
        if self._function_events is not None:
            return
        self._needs_processing = False
        t0 = perf_counter_ns()
        parsed = self._parse_kineto_results(self.kineto_results) if self.kineto_results else []
        self._stats.parse_kineto_call_duration_us = (perf_counter_ns() - t0) // 1000
        self._function_events = EventList(parsed, use_device=self.use_device,
                                          profile_memory=self.profile_memory,
                                          with_flops=self.with_flops)
        t0 = perf_counter_ns()
        self._function_events._build_tree()
        self._stats.function_events_build_tree_call_duration_us = \
            (perf_counter_ns() - t0) // 1000
        self._stats.number_of_events = len(self._function_events)
        if self._old_function_events and self.acc_events:
            self._function_events.extend(self._old_function_events)
            self._old_function_events = None

    @property
    def function_events(self):
        if self._function_events is None or self._needs_processing:
            self._ensure_function_events()
        return self._function_events

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False):
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events.table(
            sort_by=sort_by, row_limit=row_limit, max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width, header=header,
            top_level_events_only=top_level_events_only)

    table.__doc__ = EventList.table.__doc__

    def export_chrome_trace(self, path, metadata=None, use_python_export=False,
                            cuda_graph_annotations=None, graph_lanes="none", default_stream=7):
        """Writes the Chrome trace of the last profiling cycle to path (Kineto's JSON
        layout); metadata: extra top-level entries (key -> JSON text)."""
        if graph_lanes not in ("none", "all"):
            raise ValueError(f"graph_lanes must be 'none' or 'all', got {graph_lanes!r}")
        if graph_lanes == "all" and not cuda_graph_annotations:
            raise ValueError("graph_lanes='all' requires cuda_graph_annotations")
        if self.kineto_results is None:
            raise AssertionError("Expected profiling results")
        if metadata:
            self.kineto_results._session.metadata.update(metadata)
        self.kineto_results.save(path)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        return self._function_events.export_stacks(path, metric)

    def toggle_collection_dynamic(self, enabled, activities):
        """Pauses (enabled=False) or resumes the recording of the given activities."""
        return _toggle_collection_dynamic(enabled, set(activities))

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False, include_python_functions=False):
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events.key_averages(group_by_input_shape, group_by_stack_n,
                                                  group_by_overload_name,
                                                  include_python_functions)

    key_averages.__doc__ = EventList.key_averages.__doc__

    def total_average(self):
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events.total_average()

    total_average.__doc__ = EventList.total_average.__doc__

    @property
    def self_cpu_time_total(self):
        """The sum of every event's self CPU time (microseconds)."""
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events.self_cpu_time_total

    def _parse_kineto_results(self, result, timeout_s=None):
        """The FunctionEvents of a session's ranges, in the order they began."""
        start = result.trace_start_ns()
        events = []
        for r in result.events():
            name = r.name()
            if name == MEMORY_EVENT_NAME:       # memory changed outside every range
                at = (r.start_ns() - start) / 1000
                events.append(FunctionEvent(
                    id=r.correlation_id(), name=name, overload_name="", trace_name=None,
                    thread=r.start_thread_id(), start_us=at, end_us=at,
                    fwd_thread=r.start_thread_id(), input_shapes=[], stack=[], scope=0,
                    use_device=self.use_device, cpu_memory_usage=r.nbytes(),
                    device_resource_id=r.device_resource_id()))
                continue
            if _filter_name(name):
                continue
            stack = [e for e in r.stack() if _filter_stack_entry(e)] if self.with_stack else []
            events.append(FunctionEvent(
                id=r.correlation_id(), name=_rewrite_name(name, with_wildcard=True),
                overload_name="", trace_name=_rewrite_name(name, with_wildcard=False),
                thread=r.start_thread_id(), start_us=(r.start_ns() - start) / 1000,
                end_us=(r.end_ns() - start) / 1000, fwd_thread=r.fwd_thread_id(),
                input_shapes=r.shapes(), concrete_inputs=r.concrete_inputs(),
                kwinputs=r.kwinputs(), stack=stack, scope=r.scope(),
                use_device=self.use_device, cpu_memory_usage=r.nbytes(),
                is_async=r.is_async(), sequence_nr=r.sequence_nr(),
                device_type=DeviceType.CPU, device_index=0,
                device_resource_id=r.device_resource_id(), flops=r.flops(),
                is_user_annotation=r.is_user_annotation(), activity_type=r.activity_type(),
                external_id=r.correlation_id(),
                structured_input_shapes=r.structured_input_shapes(),
                structured_input_strides=r.strides(), input_dtypes=r.dtypes()))
        events.sort(key=lambda e: [e.time_range.start, -e.time_range.end])
        return events


class record_function:
    """Labels a block of code (a context manager) or every call of a function (a decorator)
    in the profiler's results: a range named `name`, its children the ops run inside it.
    Does nothing while no profiler records.  args: a string kept as the range's input."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self.run_callbacks_on_exit = True
        self.record = None

    def __enter__(self):
        self.record = _collection.record_function_enter(self.name, self.args)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if not self.run_callbacks_on_exit:
            return None
        if self.record is None:
            raise AssertionError("Expected record to be set")
        _collection.record_function_exit(self.record)
        return None

    def __call__(self, func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            with self._recreate_cm():
                return func(*args, **kwargs)
        return wrapped

    def _recreate_cm(self):
        # a range per call (recursive and concurrent calls each close their own)
        return record_function(self.name, self.args)

    def _call_end_callbacks_on_future(self, fut):
        """Ends the range when the future `fut` completes instead of on exit; returns a
        future with fut's value that completes after that."""
        if not self.run_callbacks_on_exit:
            raise RuntimeError("_call_end_callbacks_on_future can only be called once.")
        self.run_callbacks_on_exit = False
        if self.record is None:
            raise AssertionError("Expected record to be set")
        record = self.record

        def end(f):
            _collection.record_function_exit(record)
            return f.wait()
        return fut.then(end)


class _EmitRanges:
    """A context emitting a range per op to an external profiler that minitorch does not have:
    entering it raises torch's error for a build without that profiler (enabled=False:
    nothing)."""
    _KIND = ""        # the annotation kind in torch's messages
    _MISSING = ""     # torch's message when the library is missing

    def __init__(self, enabled=True, record_shapes=False):
        self.enabled = enabled
        self.entered = False
        self.record_shapes = record_shapes

    def __enter__(self):
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError(f"{self._KIND} annotation context manager is not reentrant")
        raise RuntimeError(self._MISSING)

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False


class emit_itt(_EmitRanges):
    """Emits an ITT range for every op (for Intel VTune); minitorch has no ITT."""
    _KIND = "ITT"
    _MISSING = "ITT functions not installed. Are you sure you have a ITT build?"


class emit_nvtx(_EmitRanges):
    """Emits an NVTX range for every op (for NVIDIA's profilers); minitorch's profiler does not
    emit NVTX ranges."""
    _KIND = "NVTX"
    _MISSING = "NVTX functions not installed. Are you sure you have a CUDA build?"


# ---- nvprof traces (deprecated in torch) -----------------------------------------------------

class _EnforceUnique:
    """Raises RuntimeError when a key is seen twice."""

    def __init__(self):
        self.seen = set()

    def see(self, *key):
        if key in self.seen:
            raise RuntimeError("duplicate key: " + str(key))
        self.seen.add(key)


class EnforceUnique(_EnforceUnique):
    def __init__(self):
        warnings.warn("`torch.autograd.profiler.EnforceUnique` is deprecated and will be "
                      "removed in PyTorch 2.17.", FutureWarning, stacklevel=2)
        super().__init__()


def _parse_nvprof_trace(path):
    """The NVTX ranges of an nvprof database (SQLite) as FunctionEvents, with the kernels
    launched inside each."""
    import sqlite3
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    strings = {r["id"]: r["value"] for r in conn.execute("SELECT _id_ AS id, value FROM StringTable")}
    ranges = conn.execute(
        "SELECT a.id AS marker_id, a.name AS name, a.timestamp AS start_time, "
        "b.timestamp AS end_time FROM CUPTI_ACTIVITY_KIND_MARKER AS a "
        "JOIN CUPTI_ACTIVITY_KIND_MARKER AS b ON a.id = b.id WHERE a.name != 0 AND b.name = 0")
    events, by_id, unique = [], {}, _EnforceUnique()
    for row in ranges:
        unique.see(row["marker_id"])
        evt = FunctionEvent(id=row["marker_id"], node_id=0, name=strings[row["name"]],
                            start_us=row["start_time"], end_us=row["end_time"], thread=0)
        events.append(evt)
        by_id[evt.id] = evt
    kernels = conn.execute(
        "SELECT a.id AS marker_id, r._id_ AS runtime_id, r.cbid AS cbid, "
        "k.start AS kernel_start, k.end AS kernel_end, k.name AS kernel_name "
        "FROM CUPTI_ACTIVITY_KIND_MARKER AS a JOIN CUPTI_ACTIVITY_KIND_MARKER AS b "
        "ON a.id = b.id JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r "
        "ON (a.timestamp < r.start AND r.end < b.timestamp) "
        "JOIN CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL AS k ON k.correlationId = r.correlationId")
    unique = _EnforceUnique()
    for row in kernels:
        unique.see(row["marker_id"], row["runtime_id"])
        if row["cbid"] != 211:          # cudaKernelLaunch
            raise AssertionError(f"Expected cbid to be 211, but got {row['cbid']}")
        by_id[row["marker_id"]].append_kernel(row["kernel_name"], 0,
                                              row["kernel_end"] - row["kernel_start"])
    events.sort(key=lambda e: e.time_range.start)
    return events


def load_nvprof(path):
    """The annotated ranges of an nvprof trace file as an EventList (deprecated in torch)."""
    warnings.warn("`torch.autograd.profiler.load_nvprof` is deprecated and will be removed "
                  "in PyTorch 2.17.", FutureWarning, stacklevel=2)
    return EventList(_parse_nvprof_trace(path))


def parse_nvprof_trace(path):
    warnings.warn("`torch.autograd.profiler.parse_nvprof_trace` is deprecated and will be "
                  "removed in PyTorch 2.17.", FutureWarning, stacklevel=2)
    return _parse_nvprof_trace(path)


class KinetoStepTracker:
    """The global step count of the profiler and the optimizers: each requester ("ProfilerStep",
    an optimizer) counts its own steps; the global step is the largest count."""

    _current_step = 0
    _step_dict = defaultdict(int)

    @classmethod
    def init_step_count(cls, requester):
        cls._step_dict[requester] = cls._current_step

    @classmethod
    def erase_step_count(cls, requester):
        return cls._step_dict.pop(requester, None) is not None

    @classmethod
    def increment_step(cls, requester):
        """Counts a step of requester; returns the global step."""
        if requester not in cls._step_dict:
            cls.init_step_count(requester)
        cls._step_dict[requester] += 1
        new_step = max(cls._step_dict.values())
        if new_step > cls._current_step:
            delta = new_step - cls._current_step
            if delta > 1:
                warnings.warn("Profiler step count has increased more than 1 - current_step = "
                              f"{cls._current_step} step dict =  {cls._step_dict}",
                              stacklevel=2)
            for _ in range(delta):
                _kineto_step()
            cls._current_step = new_step
        return cls._current_step

    @classmethod
    def current_step(cls):
        return cls._current_step
