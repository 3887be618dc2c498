"""torch.profiler.profile: the profiler of training loops.  A schedule says, step by step
(profile.step()), whether to wait, warm up or record; each cycle that ends with
RECORD_AND_SAVE hands the profiler to on_trace_ready (tensorboard_trace_handler writes the
cycle's Chrome trace).  The events are those of minitorch.autograd.profiler.profile."""
import enum
import gzip
import json
import os
import shutil
import socket
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from functools import partial

from ..autograd import profiler as prof
from ..autograd._profiler_kinds import ProfilerActivity, _ExperimentalConfig

__all__ = ["supported_activities", "ProfilerAction", "ProfilerActivityConfig", "schedule",
           "tensorboard_trace_handler", "profile", "ExecutionTraceObserver"]

PROFILER_STEP_NAME = "ProfilerStep"
_warned = set()


def _warn_once(msg, category=UserWarning, stacklevel=2):
    if msg not in _warned:
        _warned.add(msg)
        warnings.warn(msg, category, stacklevel=stacklevel + 1)


def supported_activities():
    """The activity groups the profiler can trace: the CPU (no device is traced here)."""
    return prof._supported_activities()


@dataclass
class ProfilerActivityConfig:
    """Which activity types of a group to collect (None: the defaults, []: none) and the
    group's extension configs."""
    activity_types: list = None
    profiler_configs: list = field(default_factory=list)


def _parse_activities(activities):
    """({activity groups}, {group: ProfilerActivityConfig}) of the `activities` argument:
    ProfilerActivity values, or dicts from a group to its activity types or config."""
    groups, configs = set(), {}
    for item in activities:
        if isinstance(item, ProfilerActivity):
            if item in groups:
                raise ValueError(f"Activity {item} specified more than once")
            groups.add(item)
        elif isinstance(item, dict):
            for key, value in item.items():
                if key in groups:
                    raise ValueError(f"Activity {key} specified more than once")
                groups.add(key)
                if not isinstance(value, ProfilerActivityConfig):
                    value = ProfilerActivityConfig(activity_types=value)
                configs[key] = value
        else:
            raise TypeError(f"Expected ProfilerActivity or dict, got {type(item)}")
    return groups, configs


class _KinetoProfile:
    """The profiler without a schedule: start() / stop() one profiling cycle and read its
    results (key_averages, events, export_chrome_trace, export_stacks).  See profile."""

    def __init__(self, *, activities=None, record_shapes=False, profile_memory=False,
                 with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False,
                 custom_trace_id_callback=None, post_processing_timeout_s=None):
        if activities is not None:
            self.activities, self.activity_configs = _parse_activities(activities)
        else:
            self.activities, self.activity_configs = supported_activities(), {}
        self.record_shapes = record_shapes
        self.with_flops = with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        if experimental_config is not None and experimental_config.trace_only and with_stack:
            warnings.warn("trace_only=True is incompatible with with_stack=True (stack traces "
                          "require event post-processing). Disabling trace_only.")
            experimental_config = _ExperimentalConfig(
                profile_all_threads=experimental_config.profile_all_threads)
        self.experimental_config = experimental_config
        self.execution_trace_observer = execution_trace_observer
        self.acc_events = acc_events
        self.custom_trace_id_callback = custom_trace_id_callback
        self.post_processing_timeout_s = post_processing_timeout_s
        self.profiler = None
        self.has_cudagraphs = False
        self.mem_tl = None
        self.use_device = None
        for activity, device in ((ProfilerActivity.CUDA, "cuda"), (ProfilerActivity.XPU, "xpu"),
                                 (ProfilerActivity.MTIA, "mtia"), (ProfilerActivity.HPU, "hpu")):
            if activity in self.activities:
                self.use_device = device
                break
        self.preset_metadata = {}
        self._trace_metadata = {}

    def start(self):
        self.prepare_trace()
        self.start_trace()

    def stop(self):
        self.stop_trace()

    def prepare_trace(self):
        if self.profiler is not None and not self.acc_events:
            _warn_once("Warning: Profiler clears events at the end of each cycle. Only events "
                       "from the current cycle will be reported. To keep events across cycles, "
                       "set acc_events=True.")
        if self.profiler is None or not self.acc_events:
            with warnings.catch_warnings():
                if self.use_device == "mtia":
                    raise RuntimeError("MTIA profiling needs an MTIA device, which minitorch "
                                       "does not have")
                self.profiler = prof.profile(
                    use_cpu=ProfilerActivity.CPU in self.activities, use_device=self.use_device,
                    record_shapes=self.record_shapes, with_flops=self.with_flops,
                    profile_memory=self.profile_memory, with_stack=self.with_stack,
                    with_modules=self.with_modules, use_kineto=True,
                    experimental_config=self.experimental_config, acc_events=self.acc_events,
                    custom_trace_id_callback=self.custom_trace_id_callback,
                    post_processing_timeout_s=self.post_processing_timeout_s)
        self.profiler._prepare_trace()

    def start_trace(self):
        if self.execution_trace_observer:
            self.execution_trace_observer.start()
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before starting trace")
        self.profiler._start_trace()
        for flag in ("profile_memory", "with_stack", "record_shapes", "with_modules",
                     "with_flops"):
            if getattr(self, flag):
                self.add_metadata_json(flag, "1")
        dist_info = self._get_distributed_info()
        if dist_info:
            self.add_metadata_json("distributedInfo", json.dumps(dist_info))
        for key, value in self.preset_metadata.items():
            self.add_metadata_json(key, value)

    def stop_trace(self):
        if self.execution_trace_observer:
            self.execution_trace_observer.stop()
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before stopping trace")
        self.profiler.__exit__(None, None, None)

    def export_chrome_trace(self, path, use_python_export=False, cuda_graph_annotations=None,
                            graph_lanes="none", default_stream=7):
        """Writes the Chrome trace of the last cycle to path (gzip-compressed when path ends
        with .gz)."""
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before exporting chrome trace")
        path = os.fspath(path)
        if path.endswith(".gz"):
            with tempfile.NamedTemporaryFile("w+b", suffix=".json", delete=False) as fp:
                tmp = fp.name
            try:
                self.profiler.export_chrome_trace(tmp, self._trace_metadata,
                                                  cuda_graph_annotations=cuda_graph_annotations,
                                                  graph_lanes=graph_lanes)
                with open(tmp, "rb") as fin, gzip.open(path, "wb") as fout:
                    shutil.copyfileobj(fin, fout)
            finally:
                os.unlink(tmp)
        else:
            self.profiler.export_chrome_trace(path, self._trace_metadata,
                                              cuda_graph_annotations=cuda_graph_annotations,
                                              graph_lanes=graph_lanes)

    def wait_for_exports(self):
        """Exports are written at once here: nothing to wait for."""

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """Writes the events' stacks with their metric (flame graph input; needs
        with_stack=True)."""
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before exporting stacks")
        return self.profiler.export_stacks(path, metric)

    def toggle_collection_dynamic(self, enable, activities):
        """Pauses (enable=False) or resumes the collection of the given activity groups."""
        if self.profiler is None:
            return
        self.profiler.toggle_collection_dynamic(enable, activities)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False, include_python_functions=False):
        """The events averaged by name (and input shapes, stack, overload name when asked):
        an EventList of FunctionEventAvg."""
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before getting key averages")
        return self.profiler.key_averages(group_by_input_shape, group_by_stack_n,
                                          group_by_overload_name, include_python_functions)

    def events(self):
        """The events of the last cycle (an EventList of FunctionEvent)."""
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before accessing events")
        if self.experimental_config is not None and self.experimental_config.trace_only:
            raise RuntimeError("events() is not available when trace_only=True in "
                               "ExperimentalConfig. Use export_chrome_trace() instead.")
        return self.profiler.function_events

    def add_metadata(self, key, value):
        """Adds key: value (a string) to the trace."""
        wrapped = '"' + value.replace('"', '\\"') + '"'
        self._trace_metadata[key] = wrapped
        prof._add_metadata_json(key, wrapped)

    def add_metadata_json(self, key, value):
        """Adds key: value (JSON text) to the trace."""
        self._trace_metadata[key] = value
        prof._add_metadata_json(key, value)

    def preset_metadata_json(self, key, value):
        """Metadata added to the trace of every cycle when it starts."""
        self.preset_metadata[key] = value

    def _get_distributed_info(self):
        from .. import distributed as dist
        if not dist.is_available() or not dist.is_initialized():
            return None
        return {"backend": dist.get_backend(), "rank": dist.get_rank(),
                "world_size": dist.get_world_size()}

    def _memory_profile(self):
        raise NotImplementedError("minitorch's profiler has no memory profile (the "
                                  "categorised tensor lifetimes of torch's); profile_memory "
                                  "gives each event's allocated bytes")

    def export_memory_timeline(self, path, device=None):
        warnings.warn("`export_memory_timeline` is deprecated and will be removed in a future "
                      "version. Please use `torch.cuda.memory._record_memory_history` and "
                      "`torch.cuda.memory._export_memory_snapshot` instead.", FutureWarning,
                      stacklevel=2)
        self._memory_profile()


class ProfilerAction(enum.Enum):
    """What the profiler does at a step: nothing, warm up (run without recording), record, or
    record and then hand the cycle to on_trace_ready.  DEVICE_STOPPED is the profiler's own
    state (a schedule must not return it)."""
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3
    DEVICE_STOPPED = 4


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """A schedule for profile: skip the first skip_first steps, then cycles of `wait` idle
    steps, `warmup` steps and `active` recorded steps (the last one RECORD_AND_SAVE), `repeat`
    times (0: until the end).  skip_first_wait: the first cycle starts without its wait."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} "
            f"(need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results",
                      stacklevel=2)
    cycle = wait + warmup + active

    def schedule_fn(step):
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        at = step % cycle
        if at < wait:
            return ProfilerAction.NONE
        if at < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if at < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def _default_schedule_fn(_):
    """Without a schedule every step records."""
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False,
                              use_python_export=False):
    """An on_trace_ready handler writing each cycle's Chrome trace to
    dir_name/<worker_name>.<time in ns>.pt.trace.json[.gz] (worker_name defaults to
    "<host>_<pid>"), the layout TensorBoard's profiler plugin reads."""

    def handler_fn(p):
        nonlocal worker_name
        if not os.path.isdir(dir_name):
            try:
                os.makedirs(dir_name, exist_ok=True)
            except Exception as e:
                raise RuntimeError("Can't create directory: " + dir_name) from e
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{worker_name}.{time.time_ns()}.pt.trace.json"
        if use_gzip:
            file_name += ".gz"
        p.export_chrome_trace(os.path.join(dir_name, file_name),
                              use_python_export=use_python_export)

    return handler_fn


class profile(_KinetoProfile):
    """The profiler (a context manager, or start()/stop()): records the ops, backward nodes
    and record_function blocks run on this thread, step by step as `schedule` says (default:
    every step), calling on_trace_ready(self) at the end of each cycle; step() marks the end of
    a step (each step is a range "ProfilerStep#<n>" when there is a schedule).

    activities: the groups to trace (ProfilerActivity.CPU; a device group is accepted and, as
    torch on a machine without the device, not traced).  record_shapes, profile_memory,
    with_stack, with_flops: as minitorch.autograd.profiler.profile.  acc_events keeps the
    events of earlier cycles."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False, with_flops=False,
                 with_modules=False, experimental_config=None, execution_trace_observer=None,
                 acc_events=False, custom_trace_id_callback=None,
                 post_processing_timeout_s=None):
        groups = _parse_activities(activities)[0] if activities is not None \
            else supported_activities()
        if len(groups) == 0:
            raise AssertionError("No valid profiler activities found")
        super().__init__(activities=activities, record_shapes=record_shapes,
                         profile_memory=profile_memory, with_stack=with_stack,
                         with_flops=with_flops, with_modules=with_modules,
                         experimental_config=experimental_config,
                         execution_trace_observer=execution_trace_observer or
                         ExecutionTraceObserver.build_execution_trace_obs_from_env(),
                         acc_events=acc_events,
                         custom_trace_id_callback=custom_trace_id_callback,
                         post_processing_timeout_s=post_processing_timeout_s)
        if schedule:
            self.schedule = schedule
            self.record_steps = True        # steps as ranges in the trace and the table
        else:
            self.schedule = _default_schedule_fn
            self.record_steps = False
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.step_rec_fn = None
        action = self.schedule(self.step_num)
        _check_action(action)
        self.current_action = action
        self._prev_schedule_action = action
        A = ProfilerAction
        prepare, start, stop, ready = (self.prepare_trace, self.start_trace, self.stop_trace,
                                       self._trace_ready)
        # (previous action, next action) -> what to do; None: the profiler stops
        self.action_map = {
            (A.NONE, A.NONE): [],
            (A.NONE, A.WARMUP): [prepare],
            (A.NONE, A.RECORD): [prepare, start],
            (A.NONE, A.RECORD_AND_SAVE): [prepare, start],
            (A.WARMUP, A.NONE): [partial(warnings.warn, "Incorrect schedule: WARMUP followed "
                                         "by NONE"), start, stop],
            (A.WARMUP, A.WARMUP): [],
            (A.WARMUP, A.RECORD): [start],
            (A.WARMUP, A.RECORD_AND_SAVE): [start],
            (A.RECORD, A.NONE): [partial(warnings.warn, "Incorrect schedule: RECORD followed "
                                         "by NONE"), stop],
            (A.RECORD, A.WARMUP): [partial(warnings.warn, "Incorrect schedule: RECORD "
                                           "followed by WARMUP"), stop],
            (A.RECORD, A.RECORD): [],
            (A.RECORD, A.RECORD_AND_SAVE): [],
            (A.RECORD_AND_SAVE, A.NONE): [stop, ready],
            (A.RECORD_AND_SAVE, A.WARMUP): [stop, ready, prepare],
            (A.RECORD_AND_SAVE, A.RECORD): [stop, ready, prepare, start],
            (A.RECORD_AND_SAVE, A.RECORD_AND_SAVE): [stop, ready, prepare, start],
            (A.WARMUP, None): [start, stop],
            (A.RECORD, None): [stop, ready],
            (A.RECORD_AND_SAVE, None): [stop, ready],
        }
        prof.KinetoStepTracker.init_step_count(PROFILER_STEP_NAME)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.stop()
        prof.KinetoStepTracker.erase_step_count(PROFILER_STEP_NAME)
        if self.execution_trace_observer:
            self.execution_trace_observer.cleanup()

    def start(self):
        self._transit_action(ProfilerAction.NONE, self.current_action)
        if self.record_steps:
            self.step_rec_fn = prof.record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def stop(self):
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
        self._transit_action(self.current_action, None)
        self.current_action = self._prev_schedule_action

    def step(self):
        """Marks the end of a profiling step: the schedule's action for the next step
        starts, stops or saves a cycle."""
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
        prev = self.current_action
        action = self.schedule(self.step_num + 1)
        _check_action(action)
        self.step_num += 1
        self.current_action = action
        self._prev_schedule_action = action
        self._transit_action(prev, action)
        if os.environ.get("KINETO_USE_DAEMON", ""):
            prof.KinetoStepTracker.increment_step(PROFILER_STEP_NAME)
        if self.record_steps:
            self.step_rec_fn = prof.record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def set_custom_trace_id_callback(self, callback):
        """The function that makes each cycle's trace id."""
        self.custom_trace_id_callback = callback

    def get_trace_id(self):
        """The current cycle's trace id (None before the first cycle)."""
        if self.profiler is None:
            return None
        return self.profiler.trace_id

    def _trace_ready(self):
        if self.on_trace_ready:
            self.on_trace_ready(self)

    def _transit_action(self, prev_action, current_action):
        for action in self.action_map.get((prev_action, current_action)) or ():
            action()

    def _stats(self):
        return None if self.profiler is None else self.profiler._stats


def _check_action(action):
    if action == ProfilerAction.DEVICE_STOPPED:
        raise ValueError("ProfilerAction.DEVICE_STOPPED is set internally by the profiler and "
                         "must not be returned by a user-provided schedule")


class ExecutionTraceObserver:
    """torch's execution trace observer (the operator graph in Chakra's execution-trace
    format).  minitorch does not record execution traces: registering one raises
    NotImplementedError; build_execution_trace_obs_from_env() gives None unless
    ENABLE_PYTORCH_EXECUTION_TRACE=1 asks for one (then it raises)."""

    def __init__(self):
        self._registered = False
        self._execution_trace_running = False
        self.extra_resources_collection = False
        self.output_file_path = ""

    @staticmethod
    def build_execution_trace_obs_from_env():
        if os.environ.get("ENABLE_PYTORCH_EXECUTION_TRACE", "0") == "1":
            return ExecutionTraceObserver().register_callback("")
        return None

    def register_callback(self, output_file_path):
        raise NotImplementedError("minitorch has no execution trace observer (torch's "
                                  "execution traces of the operator graph)")

    def is_registered(self):
        return self._registered

    def is_running(self):
        return self._execution_trace_running

    def start(self):
        pass

    def stop(self):
        pass

    def cleanup(self):
        pass

    def unregister_callback(self):
        pass

    def get_output_file_path(self):
        return None
