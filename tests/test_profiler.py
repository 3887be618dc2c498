"""The profiler (minitorch.autograd.profiler, minitorch.autograd.profiler_util,
minitorch.profiler): the events of real programs (names, nesting, sequence numbers, input
shapes, memory, FLOPs, threads), record_function, the summary tables and key averages, Chrome
traces, schedules.  REF (at the end of this file) holds what torch 2.15 prints and computes for
the same inputs: tables of a fixed set of events (built by _synthetic_events, which the capture
ran with torch's profiler_util), the top-level op names of small programs, FLOPs, op memory and
schedules.  Times are never compared: they are measured."""
import gzip
import json
import os
import threading
import warnings

import pytest

import minitorch as torch
from minitorch.autograd import _watch
from minitorch.autograd import profiler_util as pu
from minitorch.autograd.profiler import (emit_itt, emit_nvtx, profile, record_function,
                                         KinetoStepTracker)
from minitorch.autograd.profiler_util import EventList, FunctionEvent, FunctionEventAvg
import minitorch.profiler as tprof


def _table(name):
    v = REF[name]
    return "\n".join(v) if isinstance(v, tuple) else v


# ---- events with fixed times: torch's tables, averages and summaries -------------------------

def _synthetic_events(pu, with_flops=False, with_stack=True, **kw):
    """A small tree of events with fixed times: two threads, nesting, a backward node (REF's
    tables were printed by torch's profiler_util for these)."""
    FE = pu.FunctionEvent
    evts = pu.EventList([
        FE(id=1, name="outer", thread=1, start_us=0.0, end_us=100.0, input_shapes=[[]],
           stack=["train.py(10): step", "train.py(40): <module>"], cpu_memory_usage=4096,
           scope=7, is_user_annotation=True, **kw),
        FE(id=2, name="aten::mm", thread=1, start_us=5.0, end_us=45.5,
           input_shapes=[[8, 16], [16, 32]], stack=["model.py(3): forward"],
           cpu_memory_usage=1024, sequence_nr=0, fwd_thread=0, flops=8192, **kw),
        FE(id=3, name="aten::empty", thread=1, start_us=6.0, end_us=7.25, input_shapes=[[], []],
           stack=[], cpu_memory_usage=1024, **kw),
        FE(id=4, name="aten::add", thread=1, start_us=50.0, end_us=60.0,
           input_shapes=[[8, 32], [32], []], stack=["model.py(4): forward"],
           cpu_memory_usage=1024, flops=256, sequence_nr=1, fwd_thread=0, **kw),
        FE(id=5, name="aten::mm", thread=1, start_us=61.0, end_us=1061.0,
           input_shapes=[[8, 16], [16, 32]], stack=["model.py(3): forward"],
           cpu_memory_usage=-512, flops=8192, **kw),
        FE(id=6, name="MmBackward0", thread=1, start_us=2000.0, end_us=2500.0,
           input_shapes=[[8, 32]], stack=[], scope=1, sequence_nr=0, fwd_thread=1, **kw),
        FE(id=7, name="aten::mm", thread=1, start_us=2100.0, end_us=2300.0,
           input_shapes=[[8, 32], [32, 16]], stack=[], flops=8192, **kw),
        FE(id=8, name="aten::mul", thread=2, start_us=3.0, end_us=2000003.0,
           input_shapes=[[8, 32], []], stack=[], flops=256, **kw),
    ], profile_memory=True, with_flops=with_flops)
    for x in evts:
        if x.flops is None:
            x.flops = 0
        if not with_stack:
            x.stack = []
    evts._build_tree()
    return evts


def _table_cases(pu):
    """{label: string} of the tables and summaries of the synthetic events."""
    out = {}
    e = _synthetic_events(pu)
    out["plain"] = e.table()
    out["sort_self"] = e.table(sort_by="self_cpu_time_total", row_limit=3, header="HEAD")
    out["top_level"] = e.table(sort_by="cpu_time_total", top_level_events_only=True)
    out["time_unit_ms"] = e.table(time_unit="ms", max_name_column_width=8,
                                  max_shapes_column_width=10)
    out["src_width"] = e.table(max_src_column_width=12)
    f = _synthetic_events(pu, with_flops=True, with_stack=False)
    out["flops"] = f.table(sort_by="flops")
    out["flops_avg"] = f.key_averages().table()
    out["avg"] = e.key_averages().table(sort_by="count")
    out["avg_shapes"] = e.key_averages(group_by_input_shapes=True).table(sort_by="cpu_time_total")
    out["avg_stack"] = e.key_averages(group_by_stack_n=1).table(sort_by="cpu_time_total")
    out["total"] = repr(e.total_average())
    out["avg_repr"] = repr(sorted(e.key_averages(), key=lambda a: a.key)[0])
    out["event_repr"] = repr(e[1])
    out["children"] = repr([[c.id for c in x.cpu_children] for x in e])
    out["self_total"] = repr(e.self_cpu_time_total)
    out["times"] = repr([(x.self_cpu_time_total, x.cpu_time_total, x.cpu_time,
                          x.self_cpu_memory_usage, x.cpu_time_str, x.self_cpu_time_total_str)
                         for x in e])
    out["formats"] = repr([pu._format_time(v) for v in (0, 0.5, 999.9994, 1000, 1234567, 2.5e6)] +
                          [pu._format_memory(v) for v in (0, 1023, 1024, -2048, 5 << 20, 3 << 30)] +
                          [pu._format_time_share(v, t) for v, t in ((1, 3), (0, 0), (50, 100))])
    nodes = _synthetic_events(pu)
    for x in nodes:
        x.node_id = 0 if x.id % 2 else 1
    out["node_ids"] = nodes.table(row_limit=-1)
    return out


@pytest.mark.parametrize("name", ["plain", "sort_self", "top_level", "time_unit_ms", "src_width",
                                  "flops", "flops_avg", "avg", "avg_shapes", "avg_stack",
                                  "total", "avg_repr", "event_repr", "children", "self_total",
                                  "times", "formats", "node_ids"])
def test_tables_and_summaries_as_torch(name):
    assert _table_cases(pu)[name] == _table(name)


def test_empty_table():
    assert EventList().table() == ""
    assert str(EventList()) == ""


def test_stack_with_flops_keeps_columns():
    # torch 2.15 swaps the FLOPs and source values when both are shown; here each value is in
    # its column
    e = _synthetic_events(pu, with_flops=True)
    lines = e.table(row_limit=1).splitlines()
    header, row = lines[1], lines[3]
    assert header.index("Source Location") < header.index("Total FLOPs")
    assert row.index("train.py(10): step") < len(header) - 12
    assert row.rstrip().endswith("--")
    assert lines[4].strip() == "train.py(40): <module>"


def test_legacy_chrome_trace_as_torch(tmp_path):
    e = _synthetic_events(pu)
    for x in e:
        x.trace_name = x.name
    path = tmp_path / "t.json"
    e.export_chrome_trace(str(path))
    assert path.read_text() == _table("legacy_trace")
    assert len(json.loads(path.read_text())) == len(e)


def test_populate_cpu_children():
    # ranges of two threads: [1, 3) pushes [0, 2) out, then [1, 2) is inside [1, 3)
    events = EventList()
    ranges = [(1, [(0, 1, 1), (1, 2, 2)]), (0, [(0, 2, 3), (1, 2, 4), (1, 3, 5)])]
    for thread, rs in ranges:
        for start, end, rid in rs:
            events.append(FunctionEvent(id=rid, node_id=0, name="", thread=thread,
                                        start_us=start, end_us=end))
    events._populate_cpu_children()
    assert [[c.id for c in e.cpu_children] for e in events] == [[], [], [], [], [4]]
    assert events[3].cpu_parent is events[4]


def test_function_event_avg():
    avg = FunctionEventAvg()
    avg.add(FunctionEvent(id=0, node_id=0, name="foo", thread=0, start_us=10, end_us=15))
    avg.add(FunctionEvent(id=1, node_id=0, name="foo", thread=0, start_us=20, end_us=30))
    avg.add(avg)
    assert avg.key == "foo"
    assert (avg.count, avg.cpu_time_total, avg.self_cpu_time_total) == (4, 30, 30)
    assert avg.device_time_total == 0
    assert avg.cpu_time == 7.5
    with pytest.raises(AssertionError, match="Expected keys to match"):
        avg.add(FunctionEvent(id=2, name="bar", thread=0, start_us=0, end_us=1))


def test_remove_dup_nodes_and_backward_stacks():
    FE = FunctionEvent
    e = EventList([FE(id=1, name="aten::sum", thread=1, start_us=0, end_us=10, stack=["a.py(1): f"],
                      sequence_nr=3),
                   FE(id=2, name="aten::sum", thread=1, start_us=1, end_us=9, stack=[]),
                   FE(id=3, name="aten::fill_", thread=1, start_us=2, end_us=3, stack=[]),
                   FE(id=4, name="SumBackward0", thread=1, start_us=20, end_us=30, scope=1,
                      sequence_nr=3, fwd_thread=1, stack=[]),
                   FE(id=5, name="aten::expand", thread=1, start_us=21, end_us=22, stack=[])])
    e._build_tree()
    assert [x.id for x in e] == [1, 3, 4, 5]           # the inner aten::sum folded in
    assert [c.id for c in e[0].cpu_children] == [3]
    assert e[2].stack == ["a.py(1): f"] and e[3].stack == ["a.py(1): f"]


def test_export_stacks(tmp_path):
    e = _synthetic_events(pu)
    path = tmp_path / "stacks.txt"
    e.export_stacks(str(path), "self_cpu_time_total")
    lines = path.read_text().splitlines()
    assert "train.py(40):_<module>;train.py(10):_step 49" in lines
    assert "model.py(3):_forward 1000" in lines
    with pytest.raises(ValueError, match="metric should be one of"):
        e.export_stacks(str(path), "cpu_time")


def test_deprecated_cuda_names_warn():
    e = FunctionEvent(id=1, name="a", thread=0, start_us=0, end_us=1)
    with pytest.warns(FutureWarning):
        assert e.cuda_time_total == 0
    with pytest.warns(FutureWarning):
        assert e.self_cuda_time_total == 0


# ---- profiling programs ---------------------------------------------------------------------

def _top(p):
    return [e.name for e in p.function_events if e.cpu_parent is None]


def test_profiler_records_ops_and_state():
    x = torch.randn(10, 10)
    assert not torch.autograd._profiler_enabled()
    with profile(use_kineto=torch.autograd.kineto_available()) as p:
        assert torch.autograd._profiler_enabled()
        x * 2 + 4
    assert not torch.autograd._profiler_enabled()
    assert _top(p) == ["aten::mul", "aten::add"]
    # nothing is watched once it is over (no overhead when not profiling)
    assert not _watch.active()
    assert torch._C._set_node_event_hook(None) is None


PROGRAMS = {
    "mul_add": lambda x, y, w, b, i, m: x * 2 + 4,
    "linear": lambda x, y, w, b, i, m: torch.nn.functional.linear(x, w, b),
    "sum": lambda x, y, w, b, i, m: x.sum(),
    "sum_dim": lambda x, y, w, b, i, m: x.sum(1, keepdim=True),
    "cat": lambda x, y, w, b, i, m: torch.cat([x, y]),
    "view": lambda x, y, w, b, i, m: x.view(16),
    "select": lambda x, y, w, b, i, m: x[0],
    "slice": lambda x, y, w, b, i, m: x[1:],
    "index": lambda x, y, w, b, i, m: x[i],
    "T": lambda x, y, w, b, i, m: x.T,
    "float": lambda x, y, w, b, i, m: x.double(),
    "matmul": lambda x, y, w, b, i, m: x @ y,
    "rsub": lambda x, y, w, b, i, m: 1 - x,
    "neg": lambda x, y, w, b, i, m: -x,
    "iadd": lambda x, y, w, b, i, m: x.clone().__iadd__(1),
    "relu": lambda x, y, w, b, i, m: torch.relu(x),
    "softmax": lambda x, y, w, b, i, m: torch.softmax(x, -1),
    "einsum": lambda x, y, w, b, i, m: torch.einsum("ij->j", x),
    "zeros": lambda x, y, w, b, i, m: torch.zeros(3),
    "ones": lambda x, y, w, b, i, m: torch.ones(2, 2),
    "clone": lambda x, y, w, b, i, m: x.clone(),
    "mm": lambda x, y, w, b, i, m: torch.mm(x, y),
    "stack": lambda x, y, w, b, i, m: torch.stack([x, y]),
    "and": lambda x, y, w, b, i, m: m & m,
    "setitem": lambda x, y, w, b, i, m: x.clone().__setitem__(m, 0.0),
    "where": lambda x, y, w, b, i, m: torch.where(m, x, y),
    "transpose": lambda x, y, w, b, i, m: x.transpose(0, 1),
    "exp": lambda x, y, w, b, i, m: x.exp(),
    "mean": lambda x, y, w, b, i, m: x.mean(),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_op_names_as_torch(name):
    args = (torch.randn(4, 4), torch.randn(4, 4), torch.randn(3, 4), torch.randn(3),
            torch.tensor([0, 2]), torch.ones(4, 4, dtype=torch.bool))
    with profile() as p:
        PROGRAMS[name](*args)
    assert _top(p) == REF["op_names"][name]


def test_sequence_numbers_and_backward_events():
    with profile() as p:
        x = torch.randn(10, 10, requires_grad=True)
        y = torch.randn(10, 10, requires_grad=True)
        z = x + y
        s = z.sum()
        s.backward()
    ev = p.function_events
    add = [e for e in ev if e.name == "aten::add"]
    bwd_add = [e for e in ev if "AddBackward0" in e.name]
    assert len(add) == 1 and [e.name for e in bwd_add] == [
        "autograd::engine::evaluate_function: AddBackward0", "AddBackward0"]
    assert add[0].sequence_nr >= 0 and add[0].fwd_thread == 0
    for e in bwd_add:
        assert e.sequence_nr == add[0].sequence_nr
        assert e.fwd_thread == add[0].thread
    assert bwd_add[1].cpu_parent is bwd_add[0] and bwd_add[1].scope == 1
    summ = [e for e in ev if e.name == "aten::sum"]
    sum_node = [e for e in ev if e.name == "SumBackward0"]
    assert sum_node[0].sequence_nr == summ[0].sequence_nr == add[0].sequence_nr + 1
    # factories and ops nested in them have none (torch's ops outside autograd)
    empties = [e for e in ev if e.name == "aten::empty"]
    assert empties and all(e.sequence_nr == -1 for e in empties)
    assert all(e.cpu_parent.name == "aten::randn" for e in empties)
    acc = [e for e in ev if "AccumulateGrad" in e.name]
    assert [e.name for e in acc][:2] == [
        "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
        "torch::autograd::AccumulateGrad"]
    assert all(e.sequence_nr == -1 and e.fwd_thread == 0 for e in acc)
    # the ops a node runs are its children
    assert [c.name for c in sum_node[0].cpu_children] == ["aten::expand"]   # as torch
    assert [e.name for e in ev].index("aten::add") < [e.name for e in ev].index("AddBackward0")


def test_custom_function_event():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = torch.randn(3, requires_grad=True)
    with profile() as p:
        Double.apply(a).sum().backward()
    fwd = [e for e in p.function_events if e.name == "Double"]
    bwd = [e for e in p.function_events if e.name == "DoubleBackward"]
    assert len(fwd) == 1 and len(bwd) == 1
    assert fwd[0].sequence_nr == bwd[0].sequence_nr >= 0
    assert [c.name for c in fwd[0].cpu_children] == ["aten::mul"]
    assert fwd[0].cpu_children[0].sequence_nr == -1     # run without grad


def test_record_shapes():
    layer1, layer2 = torch.nn.Linear(20, 30), torch.nn.Linear(30, 40)
    inp = torch.randn(128, 20)
    with profile(record_shapes=True) as p:
        layer2(layer1(inp))
    linear = [e.input_shapes for e in p.function_events if e.name == "aten::linear"]
    assert linear == [[[128, 20], [30, 20], [30]], [[128, 30], [40, 30], [40]]]
    ev = [e for e in p.function_events if e.name == "aten::linear"][0]
    assert ev.input_dtypes == ["float", "float", "float"]
    assert ev.structured_input_strides == [[20, 1], [20, 1], [1]]
    with profile() as p:
        layer1(inp)
    assert all(e.input_shapes == [] for e in p.function_events)
    table = p.key_averages(group_by_input_shape=True).table()
    assert "Input Shapes" not in table


def test_record_shapes_of_lists_and_values():
    x = torch.randn(2, 3)
    with profile(record_shapes=True) as p:
        torch.cat([x, x], dim=1)
        x.sum(1, keepdim=True)
    cat, summ = p.function_events
    assert cat.input_shapes == [[], []]
    assert cat.structured_input_shapes == [[[2, 3], [2, 3]], []]
    assert cat.input_dtypes == ["TensorList", "Scalar"] and cat.concrete_inputs == [None, 1]
    assert summ.concrete_inputs[1:3] == [1, True]


def test_record_function_nesting_and_order():
    x = torch.randn(10, 10)

    def forward(x):
        with record_function("outer"):
            y = x * 2 + 4
            with record_function("inner"):
                y = y - 1
        return y / 1

    with profile() as p:
        forward(x)
    names = [e.name for e in p.function_events]
    assert names == ["outer", "aten::mul", "aten::add", "inner", "aten::sub", "aten::div"]
    outer = p.function_events[0]
    assert [c.name for c in outer.cpu_children] == ["aten::mul", "aten::add", "inner"]
    assert outer.is_user_annotation and outer.scope == 7 and outer.count == 1

    @record_function("my_func")
    def f(x, y):
        return x + y

    with profile() as p:
        f(1, 2)
        f(3, 4)
    assert "my_func" in str(p)
    assert [e.name for e in p.function_events] == ["my_func", "my_func"]

    @record_function("depth")
    def depth(t, n):
        t = t * 2
        return t if n <= 1 else depth(t, n - 1)

    with profile() as p:
        depth(x, 3)
    ranges = [e for e in p.function_events if e.name == "depth"]
    assert len(ranges) == 3          # each call closes its own range
    assert [[c.name for c in e.cpu_children] for e in ranges] == [
        ["aten::mul", "depth"], ["aten::mul", "depth"], ["aten::mul"]]


def test_record_function_out_of_order_and_unprofiled():
    rf = record_function("outer")
    rf.__enter__()
    with record_function("inner"):
        rf.__exit__(None, None, None)
    with record_function("inner"):
        rf.__enter__()
    rf.__exit__(None, None, None)
    with profile() as p:
        a = record_function("a")
        a.__enter__()
        b = record_function("b")
        b.__enter__()
        a.__exit__(None, None, None)       # not nested: the ranges only overlap
        b.__exit__(None, None, None)
        c = record_function("never_closed")
        c.__enter__()
    assert sorted(e.name for e in p.function_events) == ["a", "b"]
    assert all(e.cpu_parent is None for e in p.function_events)


def test_record_function_ops_and_future():
    x = torch.randn(3)
    with profile() as p:
        h = torch.ops.profiler._record_function_enter("bar", None)
        x * 2
        torch.ops.profiler._record_function_exit(h)
        h = torch.ops.profiler._record_function_enter_new("baz", None)
        torch.ops.profiler._record_function_exit._RecordFunction(h)
        fut = torch.futures.Future()
        rf = record_function("async")
        rf.__enter__()
        done = rf._call_end_callbacks_on_future(fut)
        rf.__exit__(None, None, None)        # does not end it: the future does
        fut.set_result(5)
        assert done.wait() == 5
    bar = next(e for e in p.function_events if e.name == "bar")
    assert bar.count == 1 and [c.name for c in bar.cpu_children] == ["aten::mul"]
    assert {"baz", "async"} <= {e.name for e in p.function_events}
    with pytest.raises(RuntimeError, match="only be called once"):
        rf._call_end_callbacks_on_future(fut)
    with pytest.raises(AttributeError):
        torch.ops.profiler.no_such_op
    with pytest.raises(AttributeError):
        torch.ops.aten.no_such_op_here


def test_record_function_bad_arguments():
    with pytest.raises(RuntimeError, match="Expected a value of type 'str' for argument 'name'"):
        with record_function(123):
            pass
    with pytest.raises(RuntimeError, match="argument 'handle'"):
        torch.ops.profiler._record_function_exit(5)


def test_other_threads_are_not_profiled_by_default():
    x = torch.randn(4)

    def work():
        with record_function("in_thread"):
            x * 3

    with profile() as p:
        x + 1
        t = threading.Thread(target=work)
        t.start()
        t.join()
    assert [e.name for e in p.function_events] == ["aten::add"]


def test_profile_all_threads():
    x = torch.randn(4)
    cfg = torch.autograd._ExperimentalConfig(profile_all_threads=True)

    def work():
        with record_function("in_thread"):
            x * 3

    with profile(experimental_config=cfg) as p:
        x + 1
        t = threading.Thread(target=work)
        t.start()
        t.join()
    ev = {e.name: e for e in p.function_events}
    assert set(ev) == {"aten::add", "in_thread", "aten::mul"}
    assert ev["in_thread"].thread != ev["aten::add"].thread
    assert ev["aten::mul"].cpu_parent is ev["in_thread"]
    # a range ended on another thread is async: no children, no self time
    with profile(experimental_config=cfg) as p:
        rf = record_function("crosses")
        rf.__enter__()
        x * 2
        t = threading.Thread(target=rf.__exit__, args=(None, None, None))
        t.start()
        t.join()
    crosses = next(e for e in p.function_events if e.name == "crosses")
    assert crosses.is_async and crosses.cpu_children == [] and crosses.self_cpu_time_total == 0


def test_profile_memory():
    x = torch.randn(8, 16)
    calls = {"empty100": lambda: torch.empty(100), "add": lambda: x + 1,
             "cat": lambda: torch.cat([x, x])}
    for name, call in calls.items():
        with profile(profile_memory=True) as p:
            call()
        got = [[e.name, e.cpu_memory_usage] for e in p.function_events if e.name != "[memory]"]
        assert got == REF["op_memory"][name]
        # the result, freed after the op: a [memory] event outside every op, as torch's
        freed = [e for e in p.function_events if e.name == "[memory]"]
        assert [e.cpu_memory_usage for e in freed] == [-got[0][1]]
        assert freed[0].cpu_parent is None and freed[0].trace_name is None
    assert "CPU Mem" in p.key_averages().table()


def test_profile_memory_self_and_children():
    with profile(profile_memory=True) as p:
        with record_function("block"):
            a = torch.ones(64)
            b = a * 2
    block = next(e for e in p.function_events if e.name == "block")
    assert block.cpu_memory_usage == 512 and block.self_cpu_memory_usage == 0
    del a, b


@pytest.mark.parametrize("name", ["mm", "addmm", "bmm", "conv2d", "conv2d_s2", "mul", "add"])
def test_flops_as_torch(name):
    xs, ws, bs = torch.randn(8, 16), torch.randn(32, 16), torch.randn(32)
    im, k = torch.randn(2, 3, 10, 10), torch.randn(4, 3, 3, 3)
    calls = {"mm": lambda: torch.mm(xs, ws.t()), "addmm": lambda: torch.addmm(bs, xs, ws.t()),
             "bmm": lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 4, 5)),
             "conv2d": lambda: torch.nn.functional.conv2d(im, k, padding=1),
             "conv2d_s2": lambda: torch.nn.functional.conv2d(im, k, stride=2),
             "mul": lambda: xs * xs, "add": lambda: xs + xs}
    with profile(with_flops=True) as p:
        calls[name]()
    assert sorted([e.name, e.flops] for e in p.function_events if e.flops) == REF["op_flops"][name]
    assert "FLOPs" in p.key_averages().table()


def test_with_stack(tmp_path):
    def layer(x):
        return x.exp()

    with profile(with_stack=True) as p:
        layer(torch.randn(3))
    exp = next(e for e in p.function_events if e.name == "aten::exp")
    assert exp.stack[0].endswith(": layer") and "test_profiler.py(" in exp.stack[0]
    assert any(": test_with_stack" in s for s in exp.stack)
    assert not any("_profiler_collection" in s or "_record.py" in s for s in exp.stack)
    avg = p.key_averages(group_by_stack_n=1)
    assert next(a for a in avg if a.key == "aten::exp").stack == exp.stack[:1]
    assert "Source Location" in avg.table()
    path = tmp_path / "stacks.txt"
    p.export_stacks(str(path))
    want = ["".join(";".join(f.replace(" ", "_") for f in reversed(e.stack)) +
                    f" {int(e.self_cpu_time_total)}")
            for e in p.function_events if e.stack and int(e.self_cpu_time_total) > 0]
    assert path.read_text().splitlines() == want
    with profile() as q:
        torch.randn(2).exp()
    with pytest.raises(AssertionError, match="with_stack=True"):
        q.export_stacks(str(path))


def test_chrome_trace_is_kineto_json(tmp_path):
    with profile(record_shapes=True) as p:
        x = torch.randn(4, 4, requires_grad=True)
        with record_function("step"):
            (x * 2).sum().backward()
    path = tmp_path / "trace.json"
    p.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    assert trace["schemaVersion"] == 1 and trace["traceName"] == str(path)
    ops = [e for e in trace["traceEvents"] if e.get("ph") == "X" and e.get("cat") != "Trace"]
    assert sorted(e["name"] for e in ops) == sorted(e.trace_name for e in p.function_events)
    assert [e["args"]["External id"] for e in ops] == [e.id for e in p.function_events]
    step = next(e for e in ops if e["name"] == "step")
    assert step["cat"] == "user_annotation"
    mul = next(e for e in ops if e["name"] == "aten::mul")
    assert mul["cat"] == "cpu_op" and mul["args"]["Input Dims"] == [[4, 4], []]
    assert mul["args"]["Input type"] == ["float", "Scalar"]
    assert "Sequence number" in mul["args"] and mul["dur"] >= 0
    # a flow from the op to the node it made
    starts = {e["id"]: e for e in trace["traceEvents"] if e.get("ph") == "s"}
    ends = {e["id"]: e for e in trace["traceEvents"] if e.get("ph") == "f"}
    assert starts and set(starts) == set(ends)
    node = next(e for e in ops if e["name"] == "MulBackward0")
    flow = next(i for i, e in ends.items() if e["ts"] == node["ts"])
    assert starts[flow]["ts"] == mul["ts"]
    assert any(e["name"] == "thread_name" for e in trace["traceEvents"] if e["ph"] == "M")


def test_profile_cannot_nest_or_reenter():
    with profile() as p:
        with pytest.raises(RuntimeError, match="already enabled"):
            with profile():
                pass
        with pytest.raises(RuntimeError, match="not reentrant"):
            p.__enter__()
    assert not _watch.active()


def test_profile_exits_on_errors():
    with pytest.raises(ValueError):
        with profile() as p:
            torch.ones(2) + 1
            raise ValueError("stop")
    assert [e.name for e in p.function_events] == ["aten::ones", "aten::add"]
    assert not _watch.active() and not torch.autograd._profiler_enabled()
    with profile() as p:
        with pytest.raises(RuntimeError):
            torch.ones(2) + torch.ones(3)
    assert "aten::add" in [e.name for e in p.function_events]


def test_disabled_profile_and_devices():
    with profile(enabled=False) as p:
        assert p is None and not torch.autograd._profiler_enabled()
    with pytest.warns(UserWarning, match="CUDA is not available, disabling CUDA profiling"):
        q = profile(use_device="cuda")
    assert q.use_device is None
    with pytest.warns(UserWarning, match="not a valid device option"):
        profile(use_device="tpu")
    with pytest.raises(TypeError):
        profile(use_cuda=True)
    assert torch.autograd.kineto_available()
    assert tprof.supported_activities() == {tprof.ProfilerActivity.CPU}
    assert str(tprof.ProfilerActivity.CUDA) == "ProfilerActivity.CUDA"
    assert str(pu.DeviceType.CPU) == "DeviceType.CPU"


def test_emit_nvtx_itt_need_their_libraries():
    with pytest.raises(RuntimeError, match="ITT functions not installed"):
        with emit_itt():
            pass
    with pytest.raises(RuntimeError, match="NVTX functions not installed"):
        with emit_nvtx():
            pass
    with emit_itt(enabled=False), emit_nvtx(enabled=False):
        torch.ones(1) + 1
    assert tprof.itt.is_available() is False
    with pytest.raises(RuntimeError, match="ITT functions not installed"):
        tprof.itt.range_push("a")


def test_key_averages_and_total_of_a_run():
    x = torch.randn(5, 5)
    with profile() as p:
        for _ in range(3):
            x * 2
    avg = p.key_averages()
    assert [(a.key, a.count) for a in avg] == [("aten::mul", 3)]
    assert p.total_average().count == 3 and p.total_average().key == "Total"
    assert p.self_cpu_time_total == pytest.approx(sum(e.self_cpu_time_total
                                                      for e in p.function_events))
    assert str(p) == p.table()


def test_lstm_tables_and_trace(tmp_path):
    rnn = torch.nn.LSTM(10, 20, 2)
    with profile(record_shapes=True) as prof:
        for _ in range(2):
            rnn(torch.randn(5, 3, 10), (torch.randn(2, 3, 20), torch.randn(2, 3, 20)))
    t = prof.table(sort_by="self_cpu_time_total", row_limit=10, header="TEST")
    assert t.splitlines()[1] == "TEST" and "aten::lstm" in t
    t = prof.table(sort_by="self_cpu_time_total", row_limit=10, top_level_events_only=True)
    assert "This report only display top-level ops statistics" in t
    assert len(prof.key_averages(group_by_input_shape=True)) >= len(prof.key_averages())
    prof.export_chrome_trace(str(tmp_path / "t.json"))
    json.loads((tmp_path / "t.json").read_text())


def test_training_loop_ranges_as_torch():
    from minitorch.utils.data import DataLoader, TensorDataset
    ds = TensorDataset(torch.randn(8, 4), torch.randn(8, 1))
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with tprof.profile() as p:
        for xb, yb in DataLoader(ds, batch_size=4):
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(xb), yb).backward()
            opt.step()
    names = [e.name for e in p.events() if e.cpu_parent is None]
    labels = sorted({n for n in names if not n.startswith(("aten::", "autograd::"))})
    assert labels == ["Optimizer.step#SGD.step", "Optimizer.zero_grad#SGD.zero_grad",
                      "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"]
    assert names.count("Optimizer.step#SGD.step") == 2
    step = next(e for e in p.events() if e.name == "Optimizer.step#SGD.step")
    assert step.cpu_children     # the update's ops


def test_composite_ops_seen_with_their_children():
    x = torch.randn(8)
    with profile() as p:
        torch.einsum("i->", x)
    einsum = p.function_events[0]
    assert einsum.name == "aten::einsum"
    assert "aten::sum" in [c.name for c in einsum.cpu_children]


def test_watchers_without_sees_inside_see_each_op_once():
    seen = []

    def watcher(key, self, args, kwargs, proceed):
        seen.append(key)
        return proceed(args, kwargs)

    _watch.add(watcher)
    try:
        torch.einsum("i->", torch.ones(3))
        torch.nn.functional.linear(torch.ones(2, 3), torch.ones(4, 3))
    finally:
        _watch.remove(watcher)
    assert "c.einsum" not in seen and "m.sum" in seen        # the ops inside a composite
    assert seen.count("p.linear") == 1 and "m.t" not in seen  # not those inside a form


# ---- torch.profiler ---------------------------------------------------------------------------

@pytest.mark.parametrize("case", range(4))
def test_schedule_as_torch(case):
    args = sorted(REF["schedules"])[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = tprof.schedule(**json.loads(args))
    assert [f(i).name for i in range(16)] == REF["schedules"][args]


def test_schedule_checks():
    with pytest.raises(AssertionError, match="Invalid profiler schedule arguments"):
        tprof.schedule(wait=0, warmup=0, active=0)
    with pytest.warns(UserWarning, match="won't be using warmup"):
        tprof.schedule(wait=0, warmup=0, active=1)


def test_profiler_schedule_steps_and_trace_handler(tmp_path):
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ready = []
    handler = tprof.tensorboard_trace_handler(str(tmp_path / "tb"), worker_name="w0")

    def on_ready(p):
        ready.append((p.step_num, sorted({e.name for e in p.events()
                                          if e.name.startswith("ProfilerStep")})))
        handler(p)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tprof.profile(activities=[tprof.ProfilerActivity.CPU],
                           schedule=tprof.schedule(wait=1, warmup=1, active=2, repeat=2),
                           on_trace_ready=on_ready) as p:
            for _ in range(10):
                loss = model(torch.randn(4, 8)).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
                p.step()
    assert ready == [(4, ["ProfilerStep*"]), (8, ["ProfilerStep*"])]
    files = sorted(os.listdir(tmp_path / "tb"))
    assert len(files) == 2 and all(f.startswith("w0.") and f.endswith(".pt.trace.json")
                                   for f in files)
    for f in files:
        trace = json.loads((tmp_path / "tb" / f).read_text())
        steps = [e["name"] for e in trace["traceEvents"] if e["name"].startswith("ProfilerStep#")]
        assert len(steps) == 2


def test_profiler_without_schedule_and_gzip(tmp_path):
    with tprof.profile(record_shapes=True) as p:
        torch.ones(3) * 2
    assert [e.name for e in p.events()] == ["aten::ones", "aten::mul"]
    assert "aten::mul" in p.key_averages().table()
    path = tmp_path / "t.json.gz"
    p.export_chrome_trace(str(path))
    trace = json.loads(gzip.open(path).read())
    assert trace["record_shapes"] == 1
    p.add_metadata("note", 'say "hi"')
    p.add_metadata_json("numbers", "[1, 2]")
    p.export_chrome_trace(str(tmp_path / "m.json"))
    trace = json.loads((tmp_path / "m.json").read_text())
    assert trace["note"] == 'say "hi"' and trace["numbers"] == [1, 2]


def test_profiler_acc_events_and_toggle():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = tprof.profile(schedule=tprof.schedule(wait=0, warmup=0, active=1), acc_events=True)
    p.start()
    for i in range(3):
        torch.ones(2) + i
        p.step()
    p.stop()
    assert sum(e.name == "aten::add" for e in p.events()) == 3
    with tprof.profile() as q:
        torch.ones(1) * 2
        q.toggle_collection_dynamic(False, [tprof.ProfilerActivity.CPU])
        torch.ones(1) - 2
        q.toggle_collection_dynamic(True, [tprof.ProfilerActivity.CPU])
        torch.ones(1) / 2
    names = [e.name for e in q.events()]
    assert "aten::sub" not in names and "aten::mul" in names and "aten::div" in names


def test_kineto_step_tracker():
    KinetoStepTracker.init_step_count("TestStep")
    start = KinetoStepTracker.current_step()
    assert KinetoStepTracker.increment_step("TestStep") == start + 1
    assert KinetoStepTracker.erase_step_count("TestStep")
    assert not KinetoStepTracker.erase_step_count("TestStep")


def test_profiler_utils_traversal():
    from minitorch.profiler._utils import traverse_bfs, traverse_dfs, index_of_first_match

    class N:
        def __init__(self, name, children=()):
            self.name, self.children = name, list(children)

    tree = [N("a", [N("b", [N("d")]), N("c")])]
    assert [n.name for n in traverse_dfs(tree)] == ["a", "b", "d", "c"]
    assert [n.name for n in traverse_bfs(tree)] == ["a", "b", "c", "d"]
    assert index_of_first_match([1, 3, 4, 6], lambda v: v % 2 == 0) == 2
    assert index_of_first_match([1, 3], lambda v: v > 5) is None


# ---- values captured from torch 2.15 (tables of _synthetic_events through torch's profiler_util; programs profiled by torch) ----
REF = {
    'avg': (
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ',
        '       aten::mm         0.06%       1.239ms         0.06%       1.240ms     413.500us         512 B        -512 B             3  ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1  ',
        '    aten::empty         0.00%       1.250us         0.00%       1.250us       1.250us       1.00 KB       1.00 KB             1  ',
        '      aten::add         0.00%      10.000us         0.00%      10.000us      10.000us       1.00 KB       1.00 KB             1  ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1  ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'avg_repr': ('<FunctionEventAvg key=MmBackward0 self_cpu_time=300.000us cpu_time=500.000us  '
     'self_cuda_time=0.000us cuda_time=0.000us input_shapes= cpu_memory_usage=0 '
     'cuda_memory_usage=0>'),
    'avg_shapes': (
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls             Input Shapes  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1            [[8, 32], []]  ',
        '       aten::mm         0.05%       1.039ms         0.05%       1.040ms     520.250us         512 B        -512 B             2      [[8, 16], [16, 32]]  ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1                [[8, 32]]  ',
        '       aten::mm         0.01%     200.000us         0.01%     200.000us     200.000us           0 B           0 B             1      [[8, 32], [32, 16]]  ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1                     [[]]  ',
        '      aten::add         0.00%      10.000us         0.00%      10.000us      10.000us       1.00 KB       1.00 KB             1      [[8, 32], [32], []]  ',
        '    aten::empty         0.00%       1.250us         0.00%       1.250us       1.250us       1.00 KB       1.00 KB             1                 [[], []]  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'avg_stack': (
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls  Source Location           ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------------------  ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1                            ',
        '                                                                                                                                                           ',
        '       aten::mm         0.06%       1.239ms         0.06%       1.240ms     413.500us         512 B        -512 B             3  model.py(3): forward      ',
        '                                                                                                                                                           ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1  model.py(3): forward      ',
        '                                                                                                                                                           ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1  train.py(10): step        ',
        '                                                                                                                                                           ',
        '      aten::add         0.00%      10.000us         0.00%      10.000us      10.000us       1.00 KB       1.00 KB             1  model.py(4): forward      ',
        '                                                                                                                                                           ',
        '    aten::empty         0.00%       1.250us         0.00%       1.250us       1.250us       1.00 KB       1.00 KB             1                            ',
        '                                                                                                                                                           ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'children': '[[2, 4], [3], [], [], [], [7], [], []]',
    'event_repr': ('<FunctionEvent id=2 name=aten::mm overload_name=None device_type=DeviceType.CPU '
     'node_id=-1 cpu_time=40.500us start_us=5.0 end_us=45.5 cpu_children=[3] None_time=0.000us '
     'name=aten::mm thread=1 input_shapes=[[8, 16], [16, 32]] cpu_memory_usage=1024 '
     'None_memory_usage=0 is_async=False is_remote=False seq_nr=0 is_legacy=False>'),
    'flops': (
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls             Input Shapes   Total FLOPs  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ------------  ',
        '       aten::mm         0.00%      39.250us         0.00%      40.500us      40.500us       1.00 KB           0 B             1      [[8, 16], [16, 32]]      8192.000  ',
        '       aten::mm         0.05%       1.000ms         0.05%       1.000ms       1.000ms        -512 B        -512 B             1      [[8, 16], [16, 32]]      8192.000  ',
        '       aten::mm         0.01%     200.000us         0.01%     200.000us     200.000us           0 B           0 B             1      [[8, 32], [32, 16]]      8192.000  ',
        '      aten::add         0.00%      10.000us         0.00%      10.000us      10.000us       1.00 KB       1.00 KB             1      [[8, 32], [32], []]       256.000  ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1            [[8, 32], []]       256.000  ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1                     [[]]            --  ',
        '    aten::empty         0.00%       1.250us         0.00%       1.250us       1.250us       1.00 KB       1.00 KB             1                 [[], []]            --  ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1                [[8, 32]]            --  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'flops_avg': (
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls   Total FLOPs  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1            --  ',
        '       aten::mm         0.06%       1.239ms         0.06%       1.240ms     413.500us         512 B        -512 B             3     24576.000  ',
        '    aten::empty         0.00%       1.250us         0.00%       1.250us       1.250us       1.00 KB       1.00 KB             1            --  ',
        '      aten::add         0.00%      10.000us         0.00%      10.000us      10.000us       1.00 KB       1.00 KB             1       256.000  ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1            --  ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1       256.000  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'formats': ("['0.000us', '0.500us', '999.999us', '1.000ms', '1.235s', '2.500s', '0 B', '1023 B', "
     "'1.00 KB', '-2.00 KB', '5.00 MB', '3.00 GB', '33.33%', 'NaN', '50.00%']"),
    'legacy_trace': ('[{"name": "outer", "ph": "X", "ts": 0.0, "dur": 100.0, "tid": 1, "pid": "CPU functions", '
     '"args": {}}, {"name": "aten::mm", "ph": "X", "ts": 5.0, "dur": 40.5, "tid": 1, "pid": '
     '"CPU functions", "args": {}}, {"name": "aten::empty", "ph": "X", "ts": 6.0, "dur": 1.25, '
     '"tid": 1, "pid": "CPU functions", "args": {}}, {"name": "aten::add", "ph": "X", "ts": '
     '50.0, "dur": 10.0, "tid": 1, "pid": "CPU functions", "args": {}}, {"name": "aten::mm", '
     '"ph": "X", "ts": 61.0, "dur": 1000.0, "tid": 1, "pid": "CPU functions", "args": {}}, '
     '{"name": "MmBackward0", "ph": "X", "ts": 2000.0, "dur": 500.0, "tid": 1, "pid": "CPU '
     'functions", "args": {}}, {"name": "aten::mm", "ph": "X", "ts": 2100.0, "dur": 200.0, '
     '"tid": 1, "pid": "CPU functions", "args": {}}, {"name": "aten::mul", "ph": "X", "ts": '
     '3.0, "dur": 2000000.0, "tid": 2, "pid": "CPU functions", "args": {}}]'),
    'node_ids': (
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls       Node ID             Input Shapes  Source Location             ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1             0                     [[]]  train.py(10): step          ',
        '                                                                                                                                                                        train.py(40): <module>      ',
        '                                                                                                                                                                                                    ',
        '       aten::mm         0.00%      39.250us         0.00%      40.500us      40.500us       1.00 KB           0 B             1             1      [[8, 16], [16, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                                    ',
        '    aten::empty         0.00%       1.250us         0.00%       1.250us       1.250us       1.00 KB       1.00 KB             1             0                 [[], []]                              ',
        '                                                                                                                                                                                                    ',
        '      aten::add         0.00%      10.000us         0.00%      10.000us      10.000us       1.00 KB       1.00 KB             1             1      [[8, 32], [32], []]  model.py(4): forward        ',
        '                                                                                                                                                                                                    ',
        '       aten::mm         0.05%       1.000ms         0.05%       1.000ms       1.000ms        -512 B        -512 B             1             0      [[8, 16], [16, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                                    ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1             1                [[8, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                                    ',
        '       aten::mm         0.01%     200.000us         0.01%     200.000us     200.000us           0 B           0 B             1             0      [[8, 32], [32, 16]]  model.py(3): forward        ',
        '                                                                                                                                                                                                    ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1             1            [[8, 32], []]                              ',
        '                                                                                                                                                                                                    ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'op_flops': {'add': [['aten::add', 128]],
     'addmm': [['aten::addmm', 8192]],
     'bmm': [['aten::bmm', 240]],
     'conv2d': [['aten::conv2d', 43200]],
     'conv2d_s2': [['aten::conv2d', 6912]],
     'mm': [['aten::mm', 8192]],
     'mul': [['aten::mul', 128]]},
    'op_memory': {'add': [['aten::add', 512]],
     'cat': [['aten::cat', 1024]],
     'empty100': [['aten::empty', 400]]},
    'op_names': {'T': ['aten::numpy_T'],
     'and': ['aten::__and__'],
     'cat': ['aten::cat'],
     'clone': ['aten::clone'],
     'einsum': ['aten::einsum'],
     'exp': ['aten::exp'],
     'float': ['aten::to'],
     'iadd': ['aten::clone', 'aten::add_'],
     'index': ['aten::index'],
     'linear': ['aten::linear'],
     'matmul': ['aten::matmul'],
     'mean': ['aten::mean'],
     'mm': ['aten::mm'],
     'mul_add': ['aten::mul', 'aten::add'],
     'neg': ['aten::neg'],
     'ones': ['aten::ones'],
     'relu': ['aten::relu'],
     'rsub': ['aten::rsub'],
     'select': ['aten::select'],
     'setitem': ['aten::clone', 'aten::masked_fill_'],
     'slice': ['aten::slice'],
     'softmax': ['aten::softmax'],
     'stack': ['aten::stack'],
     'sum': ['aten::sum'],
     'sum_dim': ['aten::sum'],
     'transpose': ['aten::transpose'],
     'view': ['aten::view'],
     'where': ['aten::where'],
     'zeros': ['aten::zeros']},
    'plain': (
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls             Input Shapes  Source Location             ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1                     [[]]  train.py(10): step          ',
        '                                                                                                                                                          train.py(40): <module>      ',
        '                                                                                                                                                                                      ',
        '       aten::mm         0.00%      39.250us         0.00%      40.500us      40.500us       1.00 KB           0 B             1      [[8, 16], [16, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                      ',
        '    aten::empty         0.00%       1.250us         0.00%       1.250us       1.250us       1.00 KB       1.00 KB             1                 [[], []]                              ',
        '                                                                                                                                                                                      ',
        '      aten::add         0.00%      10.000us         0.00%      10.000us      10.000us       1.00 KB       1.00 KB             1      [[8, 32], [32], []]  model.py(4): forward        ',
        '                                                                                                                                                                                      ',
        '       aten::mm         0.05%       1.000ms         0.05%       1.000ms       1.000ms        -512 B        -512 B             1      [[8, 16], [16, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                      ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1                [[8, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                      ',
        '       aten::mm         0.01%     200.000us         0.01%     200.000us     200.000us           0 B           0 B             1      [[8, 32], [32, 16]]  model.py(3): forward        ',
        '                                                                                                                                                                                      ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1            [[8, 32], []]                              ',
        '                                                                                                                                                                                      ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'schedules': {'{"active": 1, "repeat": 3, "skip_first": 2, "wait": 0, "warmup": 0}': ['NONE',
                                                                             'NONE',
                                                                             'RECORD_AND_SAVE',
                                                                             'RECORD_AND_SAVE',
                                                                             'RECORD_AND_SAVE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE',
                                                                             'NONE'],
     '{"active": 2, "repeat": 2, "wait": 1, "warmup": 1}': ['NONE',
                                                            'WARMUP',
                                                            'RECORD',
                                                            'RECORD_AND_SAVE',
                                                            'NONE',
                                                            'WARMUP',
                                                            'RECORD',
                                                            'RECORD_AND_SAVE',
                                                            'NONE',
                                                            'NONE',
                                                            'NONE',
                                                            'NONE',
                                                            'NONE',
                                                            'NONE',
                                                            'NONE',
                                                            'NONE'],
     '{"active": 2, "wait": 1, "warmup": 1}': ['NONE',
                                               'WARMUP',
                                               'RECORD',
                                               'RECORD_AND_SAVE',
                                               'NONE',
                                               'WARMUP',
                                               'RECORD',
                                               'RECORD_AND_SAVE',
                                               'NONE',
                                               'WARMUP',
                                               'RECORD',
                                               'RECORD_AND_SAVE',
                                               'NONE',
                                               'WARMUP',
                                               'RECORD',
                                               'RECORD_AND_SAVE'],
     '{"active": 3, "skip_first": 3, "skip_first_wait": 1, "wait": 2, "warmup": 1}': ['NONE',
                                                                                      'NONE',
                                                                                      'NONE',
                                                                                      'WARMUP',
                                                                                      'RECORD',
                                                                                      'RECORD',
                                                                                      'RECORD_AND_SAVE',
                                                                                      'NONE',
                                                                                      'NONE',
                                                                                      'WARMUP',
                                                                                      'RECORD',
                                                                                      'RECORD',
                                                                                      'RECORD_AND_SAVE',
                                                                                      'NONE',
                                                                                      'NONE',
                                                                                      'WARMUP']},
    'self_total': '2001600.0',
    'sort_self': (
        '====================================================================================================================================================================================',
        'HEAD',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls             Input Shapes  Source Location             ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1            [[8, 32], []]                              ',
        '                                                                                                                                                                                      ',
        '       aten::mm         0.05%       1.000ms         0.05%       1.000ms       1.000ms        -512 B        -512 B             1      [[8, 16], [16, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                      ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1                [[8, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                      ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'src_width': (
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls             Input Shapes  Source Location  ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ------------  ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1                     [[]]  ...10): step  ',
        '                                                                                                                                                          ... <module>  ',
        '                                                                                                                                                                        ',
        '       aten::mm         0.00%      39.250us         0.00%      40.500us      40.500us       1.00 KB           0 B             1      [[8, 16], [16, 32]]  ...: forward  ',
        '                                                                                                                                                                        ',
        '    aten::empty         0.00%       1.250us         0.00%       1.250us       1.250us       1.00 KB       1.00 KB             1                 [[], []]                ',
        '                                                                                                                                                                        ',
        '      aten::add         0.00%      10.000us         0.00%      10.000us      10.000us       1.00 KB       1.00 KB             1      [[8, 32], [32], []]  ...: forward  ',
        '                                                                                                                                                                        ',
        '       aten::mm         0.05%       1.000ms         0.05%       1.000ms       1.000ms        -512 B        -512 B             1      [[8, 16], [16, 32]]  ...: forward  ',
        '                                                                                                                                                                        ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1                [[8, 32]]  ...: forward  ',
        '                                                                                                                                                                        ',
        '       aten::mm         0.01%     200.000us         0.01%     200.000us     200.000us           0 B           0 B             1      [[8, 32], [32, 16]]  ...: forward  ',
        '                                                                                                                                                                        ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1            [[8, 32], []]                ',
        '                                                                                                                                                                        ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  ------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'time_unit_ms': (
        '--------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ----------  --------------------------  ',
        '    Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls  Input Shapes  Source Location             ',
        '--------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ----------  --------------------------  ',
        'outer...         0.00%       0.050ms         0.00%       0.100ms       0.100ms       4.00 KB       2.00 KB             1        [[]]  train.py(10): step          ',
        '                                                                                                                                      train.py(40): <module>      ',
        '                                                                                                                                                                  ',
        'aten:...         0.00%       0.039ms         0.00%       0.041ms       0.041ms       1.00 KB           0 B             1  [[8, 16],   model.py(3): forward        ',
        '                                                                                                                                                                  ',
        'aten:...         0.00%       0.001ms         0.00%       0.001ms       0.001ms       1.00 KB       1.00 KB             1    [[], []]                              ',
        '                                                                                                                                                                  ',
        'aten:...         0.00%       0.010ms         0.00%       0.010ms       0.010ms       1.00 KB       1.00 KB             1  [[8, 32],   model.py(4): forward        ',
        '                                                                                                                                                                  ',
        'aten:...         0.05%       1.000ms         0.05%       1.000ms       1.000ms        -512 B        -512 B             1  [[8, 16],   model.py(3): forward        ',
        '                                                                                                                                                                  ',
        'MmBac...         0.01%       0.300ms         0.02%       0.500ms       0.500ms           0 B           0 B             1   [[8, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                  ',
        'aten:...         0.01%       0.200ms         0.01%       0.200ms       0.200ms           0 B           0 B             1  [[8, 32],   model.py(3): forward        ',
        '                                                                                                                                                                  ',
        'aten:...        99.92%    2000.000ms        99.92%    2000.000ms    2000.000ms           0 B           0 B             1  [[8, 32],                               ',
        '                                                                                                                                                                  ',
        '--------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ----------  --------------------------  ',
        'Self CPU time total: 2001.600ms',
        '',
    ),
    'times': ("[(49.5, 100.0, 100.0, 2048, '100.000us', '49.500us'), (39.25, 40.5, 40.5, 0, '40.500us', "
     "'39.250us'), (1.25, 1.25, 1.25, 1024, '1.250us', '1.250us'), (10.0, 10.0, 10.0, 1024, "
     "'10.000us', '10.000us'), (1000.0, 1000.0, 1000.0, -512, '1.000ms', '1.000ms'), (300.0, "
     "500.0, 500.0, 0, '500.000us', '300.000us'), (200.0, 200.0, 200.0, 0, '200.000us', "
     "'200.000us'), (2000000.0, 2000000.0, 2000000.0, 0, '2.000s', '2.000s')]"),
    'top_level': (
        '====================================================================================================================================================================================',
        'This report only display top-level ops statistics',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        '           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg       CPU Mem  Self CPU Mem    # of Calls             Input Shapes  Source Location             ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        '      aten::mul        99.92%        2.000s        99.92%        2.000s        2.000s           0 B           0 B             1            [[8, 32], []]                              ',
        '                                                                                                                                                                                      ',
        '       aten::mm         0.05%       1.000ms         0.05%       1.000ms       1.000ms        -512 B        -512 B             1      [[8, 16], [16, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                      ',
        '    MmBackward0         0.01%     300.000us         0.02%     500.000us     500.000us           0 B           0 B             1                [[8, 32]]  model.py(3): forward        ',
        '                                                                                                                                                                                      ',
        '          outer         0.00%      49.500us         0.00%     100.000us     100.000us       4.00 KB       2.00 KB             1                     [[]]  train.py(10): step          ',
        '                                                                                                                                                          train.py(40): <module>      ',
        '                                                                                                                                                                                      ',
        '---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  -----------------------  --------------------------  ',
        'Self CPU time total: 2.002s',
        '',
    ),
    'total': ('<FunctionEventAvg key=Total self_cpu_time=2.002s cpu_time=250.231ms  '
     'self_cuda_time=0.000us cuda_time=0.000us input_shapes=[[8, 32], []] '
     'cpu_memory_usage=6656 cuda_memory_usage=0>'),
}
