"""The Chrome trace of a profiling session in the JSON layout torch's (Kineto's) profiler
saves: an object with the trace's metadata and "traceEvents", where each range is a complete
event ("ph": "X", microseconds) of category cpu_op or user_annotation with torch's "args"
(External id, Sequence number, Fwd thread id, Input Dims, Input type, ...), forward ops are
linked to the backward nodes they made by "fwdbwd" flow events, and process and thread
metadata events name the lanes.  chrome://tracing, Perfetto, TensorBoard's profiler plugin
and the trace analysis tools built for torch's traces read it."""
import json
import os
import socket
import uuid


def _concrete(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return repr(value).rstrip("0") if "e" not in repr(value) else repr(value)
    return str(value)


def write_trace(session, ranges, path):
    pid = os.getpid()
    base_ns = session.wall_start_ns - session.wall_start_ns % 1_000_000_000
    offset = session.wall_start_ns - base_ns - session.start_ns   # perf ns -> ns since base

    def us(perf_ns):
        return round((perf_ns + offset) / 1000.0, 3)

    events = []
    start = us(session.start_ns)
    meta = lambda name, tid, args: {"ph": "M", "name": name, "ts": start, "pid": pid,
                                    "tid": tid, "args": args}
    events.append(meta("process_name", 0, {"name": "python"}))
    events.append(meta("process_labels", 0, {"labels": "CPU"}))
    events.append(meta("process_sort_index", 0, {"sort_index": pid}))
    for tid in sorted({r._os_tid for r in ranges}):
        events.append(meta("thread_name", tid, {"name": f"thread {tid} (python)"}))
        events.append(meta("thread_sort_index", tid, {"sort_index": tid}))

    # a flow from the op that made each backward node (Note [Profiler collection]) to the
    # node's range
    recorded = {r._id for r in ranges}
    flows_from = {}
    flows_to = {}
    next_flow = 1
    for r in ranges:
        if r._scope == 1 and r._seq >= 0:
            op = session.node_makers.get(r._seq)
            if op is not None and op._id in recorded:
                flows_from.setdefault(op._id, []).append(next_flow)
                flows_to[r._id] = next_flow
                next_flow += 1

    index = 0
    for r in ranges:
        if r._cat == "cpu_instant_event":       # a [memory] record
            events.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": r._name,
                           "pid": pid, "tid": r._os_tid, "ts": us(r._start),
                           "args": {"Device Type": 0, "Device Id": -1, "Bytes": r._memory}})
            continue
        args = {"External id": r._id}
        if r._seq >= 0:
            args["Sequence number"] = r._seq
            args["Fwd thread id"] = r._fwd_thread
        args["Record function id"] = 0
        if r._inputs is not None:
            shapes, dtypes, strides, concrete, structured = r._inputs
            args["Concrete Inputs"] = [_concrete(v) for v in concrete]
            args["Input type"] = list(dtypes)
            args["Input Strides"] = list(strides)
            args["Input Dims"] = list(structured)
        if r._flops:
            args["flops"] = r._flops
        if r._stack:
            args["Call stack"] = ";".join(r._stack)
        args["Ev Idx"] = index
        index += 1
        ts = us(r._start)
        events.append({"ph": "X", "cat": r._cat, "name": r._name, "pid": pid,
                       "tid": r._os_tid, "ts": ts, "dur": round((r._end - r._start) / 1000.0, 3),
                       "args": args})
        for flow in flows_from.get(r._id, ()):
            events.append({"ph": "s", "id": flow, "pid": pid, "tid": r._os_tid, "ts": ts,
                           "cat": "fwdbwd", "name": "fwdbwd"})
        if r._id in flows_to:
            events.append({"ph": "f", "id": flows_to[r._id], "pid": pid, "tid": r._os_tid,
                           "ts": ts, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"})

    end_ns = session.end_ns if session.end_ns is not None else max(
        [r._end for r in ranges], default=session.start_ns)
    events.append({"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans",
                   "tid": "PyTorch Profiler", "ts": start,
                   "dur": round((end_ns - session.start_ns) / 1000.0, 3),
                   "args": {"Op count": 0}})
    events.append({"ph": "M", "name": "process_sort_index", "ts": start, "pid": "Spans",
                   "tid": 0, "args": {"sort_index": 536870912}})
    events.append({"ph": "i", "s": "g", "name": "Iteration Start: PyTorch Profiler",
                   "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": start})
    events.append({"ph": "i", "s": "g", "name": "Record Window End", "pid": "", "tid": "",
                   "ts": us(end_ns)})

    trace_id = session.config.trace_id or uuid.uuid4().hex.upper()
    head = {"schemaVersion": 1, "deviceProperties": [], "trace_id": trace_id,
            "host_name": socket.gethostname(), "displayTimeUnit": "ms",
            "baseTimeNanoseconds": base_ns}
    with open(path, "w") as f:
        f.write("{\n")
        for key, value in head.items():
            f.write(f"  {json.dumps(key)}: {json.dumps(value)},\n")
        for key, value in session.metadata.items():
            json.loads(value)                       # the metadata is JSON text: check it
            f.write(f"  {json.dumps(key)}: {value},\n")
        f.write('  "traceEvents": [\n')
        f.write(",\n".join("  " + json.dumps(e) for e in events))
        f.write("\n  ],\n")
        f.write(f'  "traceName": {json.dumps(str(path))}\n}}\n')
