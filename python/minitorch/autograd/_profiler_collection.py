"""The profiler's collection (Note [Profiler collection]): what records the ranges of time
that become the profiler's events, and the session that holds them.

Note [Profiler collection]
A session (_enable_profiler ... _disable_profiler, one at a time) records, on the thread that
started it (every thread with _ExperimentalConfig(profile_all_threads=True)), as torch's
profiler does:
  - every op call, through an op watcher that sees inside ops (Note [Op watchers], Note
    [Watching inside ops]: also the composite Python forms and the ops Python forms call),
    named as torch's (Note [Profiled ops]), with its sequence number: while grad mode is on,
    the number the next autograd node will take (_C._peek_sequence_nr), so that an op that
    records a node shows the node's number;
  - every node the backward pass runs, through the engine's node hook (Note [Node events]):
    "autograd::engine::evaluate_function: <node>" around the node's own range, both with the
    node's sequence number and, as "forward thread", the thread whose op made the node;
  - every record_function block (_record_function_enter_new / _record_function_exit) and
    custom autograd.Function forward (its class name).
With record_shapes an op range keeps its inputs' shapes, dtypes, strides and non-tensor
values; with profile_memory the bytes of CPU storages its thread allocated less those it
freed while it ran (Note [CPU memory counter]); with with_stack the Python stack of the call;
with with_flops its FLOPs.  Ranges are kept as recorded (perf_counter_ns times); the nesting
of events is worked out from the times later (EventList._populate_cpu_children).  Nothing is
watched while no session is active."""
import itertools
import os
import sys
import threading
import time

from .. import _C
from . import _profiler_ops as _ops
from . import _watch
from ._profiler_kinds import DeviceType, ProfilerActivity, ProfilerState, RecordScope
from .profiler_util import MEMORY_EVENT_NAME

_session = None                 # the active _Session
_tls = threading.local()        # tid: this thread's profiler id; nodes: open node ranges
_thread_ids = itertools.count(1)
_enable_lock = threading.Lock()

# node types torch names with their C++ namespace
_TORCH_NODES = frozenset({"AccumulateGrad", "GraphRoot", "CopySlices", "Error",
                          "DelayedError", "Identity"})
_NO_SEQ = 1 << 63               # a node's number at or above this: none (AccumulateGrad)


def thread_id():
    """This thread's id in the profiler's events: 1 for the first thread that asks, 2 for
    the next, ... (torch's RecordFunction thread ids)."""
    tid = getattr(_tls, "tid", None)
    if tid is None:
        tid = _tls.tid = next(_thread_ids)
    return tid


class _Range:
    """One recorded range; the accessors are those of torch's _KinetoEvent."""
    __slots__ = ("_name", "_cat", "_scope", "_start", "_end", "_thread", "_end_thread",
                 "_os_tid", "_seq", "_fwd_thread", "_inputs", "_stack", "_memory", "_flops",
                 "_id", "_user")

    def __init__(self, rid, name, cat, scope, seq, fwd_thread):
        self._id = rid
        self._name = name
        self._cat = cat
        self._scope = scope
        self._seq = seq
        self._fwd_thread = fwd_thread
        self._thread = thread_id()
        self._end_thread = self._thread
        self._os_tid = threading.get_native_id()
        self._inputs = None
        self._stack = None
        self._memory = 0
        self._flops = 0
        self._user = cat == "user_annotation"
        self._start = self._end = None

    def name(self):
        return self._name

    def start_ns(self):
        return self._start

    def end_ns(self):
        return self._end

    def duration_ns(self):
        return self._end - self._start

    def start_thread_id(self):
        return self._thread

    def end_thread_id(self):
        return self._end_thread

    def fwd_thread_id(self):
        return self._fwd_thread

    def device_resource_id(self):
        return self._os_tid

    def sequence_nr(self):
        return self._seq

    def correlation_id(self):
        return self._id

    def scope(self):
        return self._scope

    def shapes(self):
        return self._inputs[0] if self._inputs else []

    def dtypes(self):
        return self._inputs[1] if self._inputs else []

    def strides(self):
        return self._inputs[2] if self._inputs else []

    def concrete_inputs(self):
        return self._inputs[3] if self._inputs else []

    def structured_input_shapes(self):
        return self._inputs[4] if self._inputs else []

    def kwinputs(self):
        return {}

    def stack(self):
        return list(self._stack or ())

    def flops(self):
        return self._flops

    def nbytes(self):
        return self._memory

    def is_user_annotation(self):
        return self._user

    def is_async(self):
        return self._thread != self._end_thread

    def device_type(self):
        return DeviceType.CPU

    def device_index(self):
        return 0

    def activity_type(self):
        return self._cat

    def __repr__(self):
        return f"<profiler range {self._name!r} id={self._id}>"


class _Session:
    """An active profiling session: its configuration and the ranges recorded."""

    def __init__(self, config, activities):
        self.config = config
        self.activities = set(activities)
        self.shapes = config.report_input_shapes
        self.memory = config.profile_memory
        self.with_stack = config.with_stack
        self.with_flops = config.with_flops
        self.all_threads = config.experimental_config.profile_all_threads
        self.owner = threading.get_ident()
        self.collecting = ProfilerActivity.CPU in self.activities
        self.ranges = []
        self.ids = itertools.count(1)
        self.node_makers = {}           # sequence number -> range of the op that made it
        self.metadata = {}              # trace metadata: key -> JSON text
        self.start_ns = time.perf_counter_ns()
        self.wall_start_ns = time.time_ns()
        self.end_ns = None

    def records(self):
        """Whether this thread's calls are recorded now."""
        return self.collecting and (self.all_threads or threading.get_ident() == self.owner)

    def open(self, name, cat, scope=0, seq=-1, fwd_thread=0):
        r = _Range(next(self.ids), name, cat, scope, seq, fwd_thread)
        self.ranges.append(r)
        return r


def active():
    """The active session, or None."""
    return _session


def profiler_enabled():
    """Whether the profiler records this thread's calls (torch.autograd._profiler_enabled)."""
    s = _session
    return s is not None and (s.all_threads or threading.get_ident() == s.owner)


# ---- stacks ---------------------------------------------------------------------------------

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_MACHINERY = tuple(os.path.join(_PACKAGE, *p) for p in (
    ("autograd", "_record.py"), ("autograd", "_watch.py"), ("autograd", "_profiler_collection.py"),
    ("autograd", "profiler.py"), ("_op_forms.py",), ("profiler",)))
_short_paths = {}


def _short_path(filename):
    """filename relative to the longest sys.path entry holding it (torch's stack entries)."""
    short = _short_paths.get(filename)
    if short is None:
        best = ""
        for entry in sys.path:
            entry = os.path.abspath(entry or ".")
            if filename.startswith(entry + os.sep) and len(entry) > len(best):
                best = entry
        short = filename[len(best) + 1:] if best else filename
        _short_paths[filename] = short
    return short


def python_stack():
    """The Python frames of the current call, innermost first, as "file.py(line): function",
    without the profiler's and the recorder's own frames."""
    out = []
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_MACHINERY):
            out.append(f"{_short_path(filename)}({frame.f_lineno}): {frame.f_code.co_name}")
        frame = frame.f_back
    return out


# ---- what is recorded -----------------------------------------------------------------------

def _has_tensor(self, args, kwargs):
    if isinstance(self, _C.TensorBase):
        return True
    for a in itertools.chain(args, kwargs.values()):
        if isinstance(a, _C.TensorBase) or (type(a) in (list, tuple) and a and
                                            isinstance(a[0], _C.TensorBase)):
            return True
    return False


def _peek_seq():
    return _C._peek_sequence_nr() if _C.is_grad_enabled() else -1


def _memory_open(s):
    """The thread's count of CPU bytes as a range opens (profile_memory).  What changed while
    the thread was in no range (tensors freed or made between ops) becomes a "[memory]"
    event, as torch's memory records outside every op."""
    now = _C._cpu_net_bytes()
    depth = getattr(_tls, "mem_depth", 0)
    if depth == 0:
        mark = getattr(_tls, "mem_mark", None)
        if mark is not None and mark[0] is s and now != mark[1]:
            r = s.open(MEMORY_EVENT_NAME, "cpu_instant_event")
            r._start = r._end = time.perf_counter_ns()
            r._memory = now - mark[1]
    _tls.mem_depth = depth + 1
    return now


def _memory_close(s):
    now = _C._cpu_net_bytes()
    depth = max(getattr(_tls, "mem_depth", 1) - 1, 0)
    _tls.mem_depth = depth
    if depth == 0:
        _tls.mem_mark = (s, now)
    return now


def _watch_op(key, self, args, kwargs, proceed):
    """The op watcher (Note [Profiler collection]): one range per op call."""
    s = _session
    if s is None or not s.records():
        return proceed(args, kwargs)
    name = _ops.op_name(key, self, args)
    if name is None:
        return proceed(args, kwargs)
    # the number of the node the op may record: ops that can record one (grad mode on, a
    # tensor argument, as torch's autograd dispatch); factories and no-grad ops have none
    seq = _peek_seq() if _has_tensor(self, args, kwargs) else -1
    r = s.open(name, "cpu_op", 0, seq)
    if s.shapes:
        inputs = _ops.describe(_ops.call_arguments(key, self, args, kwargs))
        r._inputs = inputs
        if s.with_flops:
            r._flops = _ops.flops(name, inputs[0], inputs[3])
    if s.with_stack:
        r._stack = python_stack()
    memory = _memory_open(s) if s.memory else 0
    r._start = time.perf_counter_ns()
    try:
        return proceed(args, kwargs)
    finally:
        r._end = time.perf_counter_ns()
        if s.memory:
            r._memory = _memory_close(s) - memory
        if seq >= 0:
            makers = s.node_makers
            for n in range(seq, _C._peek_sequence_nr()):
                makers.setdefault(n, r)         # the innermost op that made node n


_watch_op.sees_inside = True


def node_name(node):
    """The name torch gives a node in its events (torch::autograd::AccumulateGrad, ...)."""
    name = type(node).__name__
    return "torch::autograd::" + name if name in _TORCH_NODES else name


def _node_event(node, phase, grads):
    """The engine's node hook (Note [Node events]): 0/1 open the evaluation's and the call's
    ranges, 2/3 close them."""
    s = _session
    if s is None or not s.records():
        return
    stack = getattr(_tls, "nodes", None)
    if stack is None:
        stack = _tls.nodes = []
    if phase < 2:
        name = node_name(node)
        seq = node._sequence_nr          # (a property here)
        if seq >= _NO_SEQ:
            seq, fwd = -1, 0
        else:
            maker = s.node_makers.get(seq)
            fwd = maker._thread if maker is not None else thread_id()
        if phase == 0:
            r = s.open("autograd::engine::evaluate_function: " + name, "cpu_op", 0, seq, fwd)
        else:
            r = s.open(name, "cpu_op", RecordScope.BACKWARD_FUNCTION.value, seq, fwd)
            if s.shapes and grads is not None:
                r._inputs = _ops.describe(list(grads))
        if s.memory:
            r._memory = -_memory_open(s)
        r._start = time.perf_counter_ns()
        stack.append((phase, r))
        return
    now = time.perf_counter_ns()
    want = 3 - phase                # 2 closes the call (1), 3 the evaluation (0)
    while stack:
        opened, r = stack.pop()
        if opened == want:
            r._end = now
            if s.memory:
                r._memory += _memory_close(s)
            return


def _install():
    _watch.add(_watch_op)
    _C._set_node_event_hook(_node_event)


def _uninstall():
    _C._set_node_event_hook(None)
    _watch.remove(_watch_op)


# ---- record_function ------------------------------------------------------------------------

class _RecordFunction:
    """The handle of a record_function block (torch.classes.profiler._RecordFunction)."""
    __slots__ = ("_range", "_session", "__weakref__")

    def __init__(self, rng, session):
        self._range = rng
        self._session = session


def record_function_enter(name, args=None):
    """Opens a user range named `name` on this thread when the profiler records it; returns
    its handle (which does nothing when nothing is recorded)."""
    if not isinstance(name, str) or not (args is None or isinstance(args, str)):
        bad, arg = (name, "name") if not isinstance(name, str) else (args, "args")
        raise RuntimeError("profiler::_record_function_enter_new() Expected a value of type "
                           f"'{'str' if arg == 'name' else 'Optional[str]'}' for argument "
                           f"'{arg}' but instead found type '{type(bad).__name__}'.")
    s = _session
    if s is None or not s.records():
        return _RecordFunction(None, None)
    r = s.open(name, "user_annotation", RecordScope.USER_SCOPE.value)
    if s.shapes:
        r._inputs = ([[]], [""], [[]], [args], [[]])
    if s.with_stack:
        r._stack = python_stack()
    if s.memory:
        r._memory = -_memory_open(s)
    r._start = time.perf_counter_ns()
    return _RecordFunction(r, s)


def record_function_exit(handle):
    """Closes the range of a handle (in any order, on any thread: a range closed on another
    thread than the one that opened it is async, as torch's)."""
    if not isinstance(handle, _RecordFunction):
        raise RuntimeError("profiler::_record_function_exit() Expected a value of type "
                           "'_RecordFunction' for argument 'handle' but instead found type "
                           f"'{type(handle).__name__}'.")
    r = handle._range
    if r is None or r._end is not None:
        return
    r._end = time.perf_counter_ns()
    r._end_thread = thread_id()
    if handle._session.memory:
        r._memory += _memory_close(handle._session)


def function_range(name):
    """A range for a custom autograd.Function's forward (its class name), or None."""
    s = _session
    if s is None or not s.records():
        return None
    r = s.open(name, "cpu_op", 0, _peek_seq())
    r._start = time.perf_counter_ns()
    return r


def close_function_range(r):
    r._end = time.perf_counter_ns()
    s = _session
    if s is not None and r._seq >= 0:
        for n in range(r._seq, _C._peek_sequence_nr()):
            s.node_makers.setdefault(n, r)


# ---- sessions -------------------------------------------------------------------------------

def enable(config, activities):
    """Starts a session (torch.autograd._enable_profiler)."""
    global _session
    if config.state not in (ProfilerState.KINETO, ProfilerState.KINETO_GPU_FALLBACK,
                            ProfilerState.CPU):
        raise RuntimeError(f"minitorch's profiler has no {config.state.name} mode")
    with _enable_lock:
        if _session is not None:
            raise RuntimeError("Profiler is already enabled on this thread")
        _session = _Session(config, activities)
        _tls.mem_depth = 0
        _tls.mem_mark = (_session, _C._cpu_net_bytes())
        _install()


def disable():
    """Stops the session and returns its result (torch.autograd._disable_profiler); ranges
    still open are dropped."""
    global _session
    with _enable_lock:
        s = _session
        if s is None:
            raise RuntimeError("Can't disable Kineto profiler when it's not running")
        _uninstall()
        _session = None
    if s.memory and threading.get_ident() == s.owner and getattr(_tls, "mem_depth", 0) == 0:
        _memory_open(s)                 # what changed since the last range: a [memory] event
    s.end_ns = time.perf_counter_ns()
    s.collecting = False
    return ProfilerResult(s)


def toggle_collection(enabled, activities):
    """Pauses or resumes the recording of CPU ops (torch's toggle_collection_dynamic)."""
    s = _session
    if s is not None and ProfilerActivity.CPU in set(activities):
        s.collecting = bool(enabled) and ProfilerActivity.CPU in s.activities


def add_metadata_json(key, value):
    """Adds key: value (JSON text) to the trace of the active session."""
    s = _session
    if s is not None:
        s.metadata[key] = value


class ProfilerResult:
    """What a session recorded (torch.autograd._ProfilerResult): the closed ranges in the
    order they began, and the Chrome trace (save)."""

    def __init__(self, session):
        self._session = session
        done = [r for r in session.ranges if r._end is not None and r._start is not None]
        done.sort(key=lambda r: (r._start, -r._end))
        self._ranges = done

    def events(self):
        return list(self._ranges)

    def trace_start_ns(self):
        return self._session.start_ns

    def save(self, path):
        """Writes the Chrome trace (Kineto's JSON) to path."""
        from ._profiler_trace import write_trace
        write_trace(self._session, self._ranges, path)

    def experimental_event_tree(self):
        raise NotImplementedError("minitorch's profiler results have no experimental event "
                                  "tree (use the FunctionEvents' cpu_children)")
