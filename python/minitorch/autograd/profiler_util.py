"""The profiler's results, as torch.autograd.profiler_util: FunctionEvent (one recorded range
of time: an op, a node of the backward pass, a record_function block), FunctionEventAvg (the
events of one key added up) and EventList (a list of either, with the tree of nested events,
key averages, torch's summary table and the Chrome trace).

Times are microseconds (floats).  An event's children are the events of the same thread (and
node) whose ranges lie inside its own (_populate_cpu_children); its self time is its time
less its children's."""
import bisect
import itertools
import json
import math
import os
import warnings
from collections import defaultdict, namedtuple

from ._profiler_kinds import DeviceType

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "FormattedTimesMixin", "Interval",
           "Kernel", "MemRecordsAcc", "StringTable"]

MEMORY_EVENT_NAME = "[memory]"
OUT_OF_MEMORY_EVENT_NAME = "[OutOfMemory]"

_DEVICE_TYPES = (DeviceType.CUDA, DeviceType.PrivateUse1, DeviceType.MTIA, DeviceType.HPU,
                 DeviceType.XPU)


def _deprecated(what, instead):
    warnings.warn(f"`{what}` is deprecated. Use `{instead}` instead.", FutureWarning,
                  stacklevel=3)


# ---- formatting ---------------------------------------------------------------------------

def _format_time(time_us):
    """A time in microseconds as torch prints it: 1.235s, 12.300ms or 4.000us."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us, total_time_us):
    """time_us as a percentage of total_time_us ("NaN" for a total of 0)."""
    if total_time_us == 0:
        if time_us != 0:
            raise AssertionError(f"Expected time_us == 0 but got {time_us}")
        return "NaN"
    return f"{time_us * 100.0 / total_time_us:.2f}%"


def _format_memory(nbytes):
    """A byte count as torch prints it: 2.00 GB, 1.50 MB, 3.00 KB or 12 B."""
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if abs(nbytes) >= size:
            return f"{nbytes * 1.0 / size:.2f} {unit}"
    return f"{nbytes} B"


def _attr_formatter(name):
    return property(lambda self: _format_time(getattr(self, name)))


class FormattedTimesMixin:
    """The averages and the *_str forms of the times of FunctionEvent and FunctionEventAvg
    (which define cpu_time_total, device_time_total, self_* and count)."""

    cpu_time_str = _attr_formatter("cpu_time")
    device_time_str = _attr_formatter("device_time")
    cpu_time_total_str = _attr_formatter("cpu_time_total")
    device_time_total_str = _attr_formatter("device_time_total")
    self_cpu_time_total_str = _attr_formatter("self_cpu_time_total")
    self_device_time_total_str = _attr_formatter("self_device_time_total")

    @property
    def cpu_time(self):
        return 0.0 if self.count == 0 else 1.0 * self.cpu_time_total / self.count

    @property
    def device_time(self):
        return 0.0 if self.count == 0 else 1.0 * self.device_time_total / self.count

    @property
    def cuda_time(self):
        _deprecated("cuda_time", "device_time")
        return self.device_time


class Interval:
    """[start, end) in microseconds."""

    def __init__(self, start, end):
        self.start = start
        self.end = end

    def elapsed_us(self):
        return self.end - self.start

    def __repr__(self):
        return f"Interval(start={self.start}, end={self.end})"


Kernel = namedtuple("Kernel", ["name", "device", "duration"])


# ---- one event ------------------------------------------------------------------------------

class FunctionEvent(FormattedTimesMixin):
    """One recorded range: its name, thread, time range, the input shapes of an op (with
    record_shapes), its sequence number (ops that can record an autograd node, and the nodes of
    the backward pass, which carry their forward op's number), its children and parent."""

    def __init__(self, id, name, thread, start_us, end_us, overload_name=None, fwd_thread=None,
                 input_shapes=None, stack=None, scope=0, use_device=None, cpu_memory_usage=0,
                 device_memory_usage=0, is_async=False, is_remote=False, sequence_nr=-1,
                 node_id=-1, device_type=DeviceType.CPU, device_index=0,
                 device_resource_id=None, is_legacy=False, flops=None, trace_name=None,
                 concrete_inputs=None, kwinputs=None, is_user_annotation=False,
                 is_python_function=False, activity_type=None, flow_id=None, flow_type=None,
                 flow_start=None, external_id=0, linked_correlation_id=0, extra_meta=None,
                 structured_input_shapes=None, structured_input_strides=None,
                 input_dtypes=None, python_id=-1, python_parent_id=-1, python_module_id=-1,
                 typed_metadata=None):
        self.id = id
        self.node_id = node_id
        self.name = name
        self.overload_name = overload_name
        self.trace_name = trace_name
        self.time_range = Interval(start_us, end_us)
        self.thread = thread
        self.fwd_thread = fwd_thread
        self.kernels = []
        self.count = 1
        self.cpu_children = []
        self.cpu_parent = None
        self.input_shapes = input_shapes
        self.concrete_inputs = concrete_inputs
        self.kwinputs = kwinputs
        self.stack = stack
        self.scope = scope
        self.use_device = use_device
        self.cpu_memory_usage = cpu_memory_usage
        self.device_memory_usage = device_memory_usage
        self.is_async = is_async
        self.is_remote = is_remote
        self.sequence_nr = sequence_nr
        self.device_type = device_type
        self.device_index = device_index
        self.device_resource_id = thread if device_resource_id is None else device_resource_id
        self.is_legacy = is_legacy
        self.flops = flops
        self.is_user_annotation = is_user_annotation
        self.is_python_function = is_python_function
        self.activity_type = activity_type
        self.self_cpu_percent = -1
        self.total_cpu_percent = -1
        self.total_device_percent = -1
        self.flow_id = flow_id
        self.flow_type = flow_type
        self.flow_start = flow_start
        self.external_id = external_id
        self.linked_correlation_id = linked_correlation_id
        self.metadata = typed_metadata
        self._extra_meta = extra_meta
        self.structured_input_shapes = structured_input_shapes
        self.structured_input_strides = structured_input_strides
        self.input_dtypes = input_dtypes
        self.python_id = python_id
        self.python_parent_id = python_parent_id
        self.python_module_id = python_module_id

    def append_kernel(self, name, device, duration):
        if self.device_type != DeviceType.CPU:
            raise AssertionError("Expected device_type to be CPU")
        self.kernels.append(Kernel(name, device, duration))

    def append_cpu_child(self, child):
        """Adds a direct child (its range inside this one, on the same thread)."""
        if self.device_type != DeviceType.CPU:
            raise AssertionError("Expected device_type to be CPU")
        if not isinstance(child, FunctionEvent):
            raise AssertionError("Expected child to be a FunctionEvent")
        if child.device_type != DeviceType.CPU:
            raise AssertionError("Expected child device_type to be CPU")
        self.cpu_children.append(child)

    def set_cpu_parent(self, parent):
        """Sets the direct parent: the innermost event whose range holds this one."""
        if self.device_type != DeviceType.CPU:
            raise AssertionError("Expected device_type to be CPU")
        if not isinstance(parent, FunctionEvent):
            raise AssertionError("Expected parent to be a FunctionEvent")
        if parent.device_type != DeviceType.CPU:
            raise AssertionError("Expected parent device_type to be CPU")
        self.cpu_parent = parent

    # async events (begun and ended on different threads) have no children and no self time
    @property
    def self_cpu_memory_usage(self):
        if self.is_async or self.device_type != DeviceType.CPU:
            return 0
        return self.cpu_memory_usage - sum(c.cpu_memory_usage for c in self.cpu_children)

    @property
    def self_device_memory_usage(self):
        if self.is_async or self.device_type != DeviceType.CPU:
            return 0
        return self.device_memory_usage - sum(c.device_memory_usage for c in self.cpu_children)

    @property
    def self_cuda_memory_usage(self):
        _deprecated("self_cuda_memory_usage", "self_device_memory_usage")
        return self.self_device_memory_usage

    @property
    def cpu_time_total(self):
        return self.time_range.elapsed_us() if self.device_type == DeviceType.CPU else 0

    @property
    def self_cpu_time_total(self):
        if self.is_async or self.device_type != DeviceType.CPU:
            return 0
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def device_time_total(self):
        if self.is_async or not self.use_device:
            return 0
        if self.device_type == DeviceType.CPU:
            own = sum(k.duration for k in self.kernels)
            if self.is_legacy:
                return own
            return own + sum(c.device_time_total for c in self.cpu_children)
        if self.device_type not in _DEVICE_TYPES:
            raise AssertionError(f"Expected device_type to be CUDA, PrivateUse1, MTIA, HPU or "
                                 f"XPU, but got {self.device_type}")
        return self.time_range.elapsed_us()

    @property
    def cuda_time_total(self):
        _deprecated("cuda_time_total", "device_time_total")
        return self.device_time_total

    @property
    def self_device_time_total(self):
        if self.is_async or not self.use_device:
            return 0
        if self.device_type == DeviceType.CPU:
            return self.device_time_total - sum(c.device_time_total for c in self.cpu_children)
        if self.device_type not in _DEVICE_TYPES:
            raise AssertionError(f"Expected device_type to be CUDA, PrivateUse1, MTIA, HPU or "
                                 f"XPU, but got {self.device_type}")
        return self.device_time_total

    @property
    def self_cuda_time_total(self):
        _deprecated("self_cuda_time_total", "self_device_time_total")
        return self.self_device_time_total

    @property
    def key(self):
        return self.name

    def __repr__(self):
        dev = self.use_device
        return (f"<FunctionEvent id={self.id} name={self.name} overload_name={self.overload_name} "
                f"device_type={self.device_type} node_id={self.node_id} "
                f"cpu_time={self.cpu_time_str} start_us={self.time_range.start} "
                f"end_us={self.time_range.end} "
                f"cpu_children={str([c.id for c in self.cpu_children])} "
                f"{dev}_time={self.device_time_str} name={self.name} thread={self.thread} "
                f"input_shapes={str(self.input_shapes)} "
                f"cpu_memory_usage={self.cpu_memory_usage} "
                f"{dev}_memory_usage={self.device_memory_usage} is_async={self.is_async} "
                f"is_remote={self.is_remote} seq_nr={self.sequence_nr} "
                f"is_legacy={self.is_legacy}>")


class FunctionEventAvg(FormattedTimesMixin):
    """Events of one key added up: totals (times, memory, flops, count) and, through
    FormattedTimesMixin, averages per call.  The descriptive fields (key, input shapes, stack,
    parent and children, ...) are those of the first event added."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.node_id = 0
        self.is_async = False
        self.is_remote = False
        self.use_device = None
        self.cpu_time_total = 0
        self.device_time_total = 0
        self.self_cpu_time_total = 0
        self.self_device_time_total = 0
        self.input_shapes = None
        self.overload_name = None
        self.stack = None
        self.scope = None
        self.cpu_memory_usage = 0
        self.device_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.self_device_memory_usage = 0
        self.cpu_children = None
        self.cpu_parent = None
        self.device_type = DeviceType.CPU
        self.is_legacy = False
        self.is_user_annotation = False
        self.flops = 0

    def add(self, other):
        if self.key is None:    # the first one: its descriptive fields
            for name in ("key", "node_id", "is_async", "is_remote", "cpu_parent",
                         "cpu_children", "overload_name", "input_shapes", "stack", "scope",
                         "device_type", "is_legacy", "use_device", "is_user_annotation"):
                setattr(self, name, getattr(other, name, None))
        if not isinstance(other, (FunctionEvent, FunctionEventAvg)):
            raise AssertionError("Expected other to be a FunctionEvent or FunctionEventAvg")
        if other.key != self.key:
            raise AssertionError(f"Expected keys to match, but got {other.key} vs {self.key}")
        for name in ("cpu_time_total", "device_time_total", "self_cpu_time_total",
                     "self_device_time_total", "cpu_memory_usage", "device_memory_usage",
                     "self_cpu_memory_usage", "self_device_memory_usage", "count"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        if self.flops is None:
            self.flops = other.flops
        elif other.flops is not None:
            self.flops += other.flops
        return self

    def __iadd__(self, other):
        return self.add(other)

    def __repr__(self):
        dev = self.use_device or "cuda"
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str}  self_{dev}_time={self.self_device_time_total_str} "
                f"{dev}_time={self.device_time_str} input_shapes={str(self.input_shapes)} "
                f"cpu_memory_usage={self.cpu_memory_usage} "
                f"{dev}_memory_usage={self.device_memory_usage}>")


class StringTable(defaultdict):
    """Event names as shown: torch demangles C++ symbols here; minitorch's names are plain."""

    def __missing__(self, key):
        self[key] = key
        return key


class MemRecordsAcc:
    """Memory records ((record, seen) pairs whose record has start_ns()) found by time."""

    def __init__(self, mem_records):
        self._mem_records = mem_records
        order = sorted((r[0].start_ns(), i) for i, r in enumerate(mem_records))
        self._start_nses = [t for t, _ in order]
        self._indices = [i for _, i in order]

    def in_interval(self, start_ns, end_ns):
        lo = bisect.bisect_left(self._start_nses, start_ns)
        hi = bisect.bisect_right(self._start_nses, end_ns)
        for i in range(lo, hi):
            yield self._mem_records[self._indices[i]]


# frames of the machinery around a backward call, left out of recorded stacks
_STACK_NOISE = (("autograd/__init__", "_make_grads"), ("autograd/__init__", "backward"),
                ("torch/tensor", "backward"), ("minitorch/_tensor", "backward"),
                ("_internal/common_utils", "prof_callable"),
                ("_internal/common_utils", "prof_func_call"),
                ("_internal/common_utils", "prof_meth_call"))


def _filter_stack_entry(entry):
    return not any(a in entry and b in entry for a, b in _STACK_NOISE)


# utility ranges never reported as events
_HIDDEN_NAMES = frozenset({MEMORY_EVENT_NAME, OUT_OF_MEMORY_EVENT_NAME,
                           "profiler::_record_function_enter",
                           "profiler::_record_function_enter_new",
                           "profiler::_record_function_exit", "aten::is_leaf",
                           "aten::output_nr", "aten::_version"})


def _filter_name(name):
    return name in _HIDDEN_NAMES


def _rewrite_name(name, with_wildcard=False):
    """The name shown; with_wildcard folds the numbered profiler steps into ProfilerStep*."""
    if with_wildcard and name.startswith("ProfilerStep#"):
        return "ProfilerStep*"
    return name


# ---- lists of events ------------------------------------------------------------------------

class EventList(list):
    """A list of FunctionEvent (or FunctionEventAvg) with the analyses torch offers: the tree
    of nested events, key_averages, total_average, table, export_chrome_trace and
    export_stacks."""

    def __init__(self, *args, **kwargs):
        use_device = kwargs.pop("use_device", None)
        profile_memory = kwargs.pop("profile_memory", False)
        with_flops = kwargs.pop("with_flops", False)
        super().__init__(*args, **kwargs)
        self._use_device = use_device
        self._profile_memory = profile_memory
        self._tree_built = False
        self._with_flops = with_flops

    def _build_tree(self):
        self._populate_cpu_children()
        self._remove_dup_nodes()
        self._set_backward_stacktraces()
        self._tree_built = True

    def __str__(self):
        return self.table()

    def _remove_dup_nodes(self):
        """Folds an event into its parent when it is the parent's only child and has its
        name (an op calling an overload of itself: aten::sum in aten::sum)."""
        while True:
            gone = set()
            for i, evt in enumerate(self):
                parent = evt.cpu_parent
                if parent is not None and parent.name == evt.name and \
                        len(parent.cpu_children) == 1:
                    parent.cpu_children = evt.cpu_children
                    parent.kernels = evt.kernels
                    for child in evt.cpu_children:
                        child.cpu_parent = parent
                    gone.add(i)
            if not gone:
                return
            kept = [e for i, e in enumerate(self) if i not in gone]
            self.clear()
            self.extend(kept)

    def _populate_cpu_children(self):
        """Links each event to the events nested in it: B is a child of A when [B.start, B.end)
        lies inside [A.start, A.end) on the same thread and node, and no event between them
        holds B.  Ranges that overlap only in part are not nested.  Async events (begun and
        ended on different threads) take no part."""
        sync = [e for e in self if not e.is_async and e.device_type == DeviceType.CPU]
        sync.sort(key=lambda e: e.thread)
        for _, group in itertools.groupby(sync, key=lambda e: (e.thread, e.node_id)):
            ordered = sorted(group, key=lambda e: [e.time_range.start, -e.time_range.end])
            open_ranges = []    # each one inside the one below it
            for evt in ordered:
                while open_ranges:
                    top = open_ranges[-1]
                    if evt.time_range.start >= top.time_range.end or \
                            evt.time_range.end > top.time_range.end:
                        open_ranges.pop()       # evt is not inside top
                        continue
                    top.append_cpu_child(evt)
                    if evt.cpu_parent is not None:
                        raise AssertionError(
                            f"There is already a CPU parent event for {evt.key}")
                    evt.set_cpu_parent(top)
                    break
                open_ranges.append(evt)

    def _set_backward_stacktraces(self):
        """Events of the backward pass take the stack of the forward op whose node they run
        (matched by sequence number and forward thread)."""
        def backward_node(evt):
            while evt is not None and evt.scope != 1:       # RecordScope.BACKWARD_FUNCTION
                evt = evt.cpu_parent
            return evt

        forward = {}
        for evt in self:
            if evt.stack is not None and backward_node(evt) is None:
                forward.setdefault((evt.sequence_nr, evt.thread), evt.stack)
        for evt in self:
            node = backward_node(evt)
            if node is not None:
                if node.fwd_thread is None:
                    raise AssertionError("Expected fwd_thread to be set for backward parent")
                evt.stack = forward.get((node.sequence_nr, node.fwd_thread), [])

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False, time_unit=None):
        """The events as torch's summary table (a string).

        sort_by: an attribute to sort by, descending ("cpu_time_total",
        "self_cpu_time_total", "cpu_memory_usage", "count", ...; cuda/xpu/privateuse1 read as
        device); else the list's order.  row_limit: rows shown (-1: all).
        top_level_events_only: only events without a parent.  time_unit: "s", "ms" or "us" for
        every time (else each is scaled)."""
        return _build_table(self, sort_by=sort_by, row_limit=row_limit,
                            max_src_column_width=max_src_column_width,
                            max_name_column_width=max_name_column_width,
                            max_shapes_column_width=max_shapes_column_width, header=header,
                            profile_memory=self._profile_memory, with_flops=self._with_flops,
                            top_level_events_only=top_level_events_only, time_unit=time_unit)

    def export_chrome_trace(self, path):
        """Writes the events to `path` as a Chrome trace (a JSON array of complete events, the
        format of torch's EventList; chrome://tracing and Perfetto read it)."""
        device = self._use_device or "cuda"
        parts = []
        next_id = 0
        for evt in self:
            if evt.trace_name is None:
                continue
            name = json.dumps(evt.trace_name)
            tid = evt.thread if not evt.is_remote else \
                f'" node_id:{evt.node_id}, thread_id:{evt.thread} "'
            parts.append(f'{{"name": {name}, "ph": "X", "ts": {evt.time_range.start}, '
                         f'"dur": {evt.time_range.elapsed_us()}, "tid": {tid}, '
                         f'"pid": "CPU functions", "args": {{}}}}')
            for _ in evt.kernels:
                parts.append(f'{{"name": {name}, "ph": "s", "ts": {evt.time_range.start}, '
                             f'"tid": {evt.thread}, "pid": "CPU functions", "id": {next_id}, '
                             f'"cat": "cpu_to_{device}", "args": {{}}}}')
                next_id += 1
        with open(path, "w") as f:
            f.write("[" + ", ".join(parts) + "]")

    def supported_export_stacks_metrics(self):
        return ["self_cpu_time_total", "self_cuda_time_total", "self_xpu_time_total",
                "self_privateuse1_time_total"]

    def export_stacks(self, path, metric):
        """Writes one line per event with a stack, "outer;...;inner <metric value>" (the
        collapsed-stack format of flame graph tools), for events whose metric is positive."""
        if metric not in self.supported_export_stacks_metrics():
            raise ValueError("metric should be one of: " +
                             str(self.supported_export_stacks_metrics()))
        attr = metric.replace("cuda", "device").replace("xpu", "device") \
            .replace("privateuse1", "device")
        clean = str.maketrans(" ;\t\n", "____")
        with open(path, "w") as f:
            for evt in self:
                if not evt.stack:
                    continue
                value = int(getattr(evt, attr))
                if value > 0:
                    frames = ";".join(entry.translate(clean) for entry in reversed(evt.stack))
                    f.write(f"{frames} {value}\n")

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0,
                     group_by_overload_name=False, include_python_functions=False):
        """An EventList of FunctionEventAvg, one per key: the event's name (with node, device
        and kind), and its input shapes, its first group_by_stack_n stack frames or its
        overload name when asked; Python function events only when include_python_functions."""
        if not self._tree_built:
            raise AssertionError("Expected tree to be built before calling key_averages")
        stats = defaultdict(FunctionEventAvg)
        for evt in self:
            if getattr(evt, "is_python_function", False) and not include_python_functions:
                continue
            key = [str(evt.key), str(evt.node_id), str(evt.device_type), str(evt.is_legacy),
                   str(evt.is_user_annotation)]
            if group_by_overload_name:
                key.append(str(evt.overload_name))
            if group_by_input_shapes:
                key.append(str(evt.input_shapes))
            if group_by_stack_n > 0:
                key += list(evt.stack or ())[:group_by_stack_n]
            stats[tuple(key)].add(evt)
        averages = EventList(stats.values(), use_device=self._use_device,
                             profile_memory=self._profile_memory, with_flops=self._with_flops)
        for avg in averages:
            avg.stack = (avg.stack or [])[:group_by_stack_n]
            if not group_by_input_shapes:
                avg.input_shapes = ""
            if not group_by_overload_name:
                avg.overload_name = ""
        return averages

    def total_average(self):
        """One FunctionEventAvg (key "Total") adding up every event (of every key)."""
        total = FunctionEventAvg()
        for evt in self:
            total += evt
            total.key = None     # the next event, whatever its key, is added too
        total.key = "Total"
        return total


# ---- the summary table ----------------------------------------------------------------------

def _device_attr(name):
    return name.replace("cuda", "device").replace("xpu", "device").replace("privateuse1", "device")


def _in_unit(time_us, default, unit):
    if unit == "s":
        return f"{time_us / 1e6:.3f}s"
    if unit == "ms":
        return f"{time_us / 1e3:.3f}ms"
    if unit == "us":
        return f"{time_us:.3f}us"
    return default


def _flops_scale(flops):
    """(factor, header) of the FLOP column: the unit of the smallest count."""
    names = ["FLOPs", "KFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs"]
    if flops <= 0:
        raise AssertionError(f"Expected flops to be positive, but got {flops}")
    level = max(0, min(math.log10(flops) / 3, float(len(names) - 1)))
    return pow(10, math.floor(level) * -3.0), names[int(level)]


def _trim_path(path, width):
    if len(path) > width:
        path = path[len(path) - width:]
        if len(path) > 3:
            path = "..." + path[3:]
    return path


def _build_table(events, sort_by=None, header=None, row_limit=100, max_src_column_width=75,
                 max_name_column_width=55, max_shapes_column_width=80, with_flops=False,
                 profile_memory=False, top_level_events_only=False, time_unit=None):
    """torch's summary table of events (FunctionEvent or FunctionEventAvg): one row per event
    with its self and total CPU time (and their shares of the total self time), average time,
    memory (profile_memory), call count, input shapes and source location when any event has
    them, FLOPs (with_flops)."""
    if len(events) == 0:
        return ""
    has_device_time = any(e.self_device_time_total > 0 for e in events)
    has_device_mem = any(e.self_device_memory_usage > 0 for e in events)
    use_device = events[0].use_device
    if not use_device and has_device_time:
        raise RuntimeError("use_device is None, but there is device performance data.")
    has_shapes = any(e.input_shapes is not None and len(e.input_shapes) > 0 for e in events)
    has_overloads = any(e.overload_name is not None and len(e.overload_name) > 0
                        for e in events)
    if sort_by is not None:
        attr = _device_attr(sort_by)
        events = EventList(sorted(events, key=lambda e: getattr(e, attr), reverse=True),
                           use_device=use_device, profile_memory=profile_memory,
                           with_flops=with_flops)

    name_width = max(len(e.key) for e in events) + 4
    if max_name_column_width is not None:
        name_width = min(name_width, max_name_column_width)
    shapes_width = max(len(str(e.input_shapes)) for e in events) + 4
    if max_shapes_column_width is not None:
        shapes_width = min(shapes_width, max_shapes_column_width)
    stacks = [e.stack for e in events if e.stack is not None and len(e.stack) > 0]
    has_stack = len(stacks) > 0
    src_width = None
    if has_stack:
        src_width = max(len(entry) for stack in stacks for entry in stack) + 4
        if max_src_column_width is not None:
            src_width = min(src_width, max_src_column_width)

    device = use_device.upper() if use_device is not None else "None"
    headers = ["Name"] + (["Overload Name"] if has_overloads else []) + \
        ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if has_device_time:
        headers += [f"Self {device}", f"Self {device} %", f"{device} total",
                    f"{device} time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
        if use_device and has_device_mem:
            headers += [f"{device} Mem", f"Self {device} Mem"]
    headers.append("# of Calls")
    with_node_id = any(e.node_id != -1 for e in events)
    if with_node_id:
        headers.append("Node ID")

    spacing = 2
    widths = [name_width] + ([name_width] if has_overloads else []) + \
        [12] * (len(headers) - 1 - has_overloads)
    aligns = [">"] * len(widths)
    if has_shapes:
        headers.append("Input Shapes")
        widths.append(shapes_width)
        aligns.append(">")
    if has_stack:
        headers.append("Source Location")
        widths.append(src_width)
        aligns.append("<")
    if with_flops:
        counts = [e.flops for e in events if e.flops > 0]
        if counts:
            flops_factor, flops_name = _flops_scale(min(counts))
            headers.append(f"Total {flops_name}")
            widths.append(12)
            aligns.append(">")
        else:
            with_flops = False
    row_format = "".join("{: " + a + str(w) + "}" + " " * spacing for a, w in zip(aligns, widths))
    separator = "".join("-" * w + " " * spacing for w in widths)
    line_length = sum(w + spacing for w in widths) - spacing

    total_self_cpu = 0
    total_self_device = 0
    for e in events:
        total_self_cpu += e.self_cpu_time_total
        if e.device_type == DeviceType.CPU and e.is_legacy:
            total_self_device += e.self_device_time_total
        elif e.device_type in (DeviceType.CUDA, DeviceType.PrivateUse1, DeviceType.MTIA,
                               DeviceType.XPU) and not e.is_user_annotation:
            total_self_device += e.self_device_time_total

    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_events_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [separator, row_format.format(*headers), separator]

    shown = 0
    for e in events:
        if shown == row_limit:
            break
        if top_level_events_only and e.cpu_parent is not None:
            continue
        shown += 1
        name = e.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[:max_name_column_width - 3] + "..."
        e.self_cpu_percent = _format_time_share(e.self_cpu_time_total, total_self_cpu)
        e.total_cpu_percent = _format_time_share(e.cpu_time_total, total_self_cpu) \
            if not e.is_async else 0
        row = [name]
        if has_overloads:
            overload = e.overload_name
            if max_name_column_width is not None and len(overload) >= max_name_column_width - 3:
                overload = overload[:max_name_column_width - 3] + "..."
            row.append(overload)
        row += [e.self_cpu_percent,
                _in_unit(e.self_cpu_time_total, e.self_cpu_time_total_str, time_unit),
                e.total_cpu_percent,
                _in_unit(e.cpu_time_total, e.cpu_time_total_str, time_unit),
                _in_unit(e.cpu_time, e.cpu_time_str, time_unit)]
        if has_device_time:
            e.total_device_percent = _format_time_share(e.self_device_time_total,
                                                        total_self_device)
            row += [_in_unit(e.self_device_time_total, e.self_device_time_total_str, time_unit),
                    e.total_device_percent,
                    _in_unit(e.device_time_total, e.device_time_total_str, time_unit),
                    _in_unit(e.device_time, e.device_time_str, time_unit)]
        if profile_memory:
            row += [_format_memory(e.cpu_memory_usage), _format_memory(e.self_cpu_memory_usage)]
            if use_device and has_device_mem:
                row += [_format_memory(e.device_memory_usage),
                        _format_memory(e.self_device_memory_usage)]
        row.append(e.count)
        if with_node_id:
            row.append(e.node_id)
        if has_shapes:
            row.append(str(e.input_shapes)[:shapes_width])
        if has_stack:
            row.append(_trim_path(e.stack[0], src_width) if len(e.stack) > 0 else "")
        if with_flops:
            row.append("--" if e.flops <= 0 else f"{e.flops * flops_factor:8.3f}")
        lines.append(row_format.format(*row))
        if has_stack:
            # the other frames under the first, in the source column (torch 2.15 puts the
            # FLOPs and the source in each other's columns when both are shown)
            before = [""] * (len(headers) - 1 - with_flops)
            after = [""] * with_flops
            for entry in e.stack[1:]:
                lines.append(row_format.format(*(before + [_trim_path(entry, src_width)] +
                                                 after)))
            lines.append(row_format.format(*(before + [""] + after)))

    lines.append(separator)
    lines.append("Self CPU time total: " +
                 _in_unit(total_self_cpu, _format_time(total_self_cpu), time_unit))
    if has_device_time:
        lines.append(f"Self {device} time total: " +
                     _in_unit(total_self_device, _format_time(total_self_device), time_unit))
    return "".join(line + "\n" for line in lines)
