"""ProcessGroupNCCL, the backend of CUDA tensors over NCCL (torch's "nccl"), loaded at run time
(Note [Loading NCCL]); on the emulated CUDA build it runs over the test stand-in (Note [The NCCL
stand-in] in tools/nccl_standin/standin.h).

Note [The NCCL backend]
- Communicators: one per device of this process, made on the device's first operation (or at
  once for the device bound by init_process_group(device_id=...)): rank 0 of the group makes an
  ncclUniqueId and the store carries it (key "nccl_uid/<n>", n counting the backend's
  communicators, the same on every rank).  new_group(backend="nccl") of a default group bound
  to a device splits the default communicator instead (ncclCommSplit, where NCCL has it; every
  rank takes part, the non-members with no colour), as torch does.
- Streams: each operation runs on the backend's internal stream of the device, which first waits
  for the caller's current stream (so it reads what kernels queued before wrote); the Work's
  event follows it (Note [NCCL works and the watchdog] in _work_nccl.py).  Local steps of an
  operation (packing a list into one buffer, unpacking after) are queued on the internal stream
  too, in order.
- Operations as torch's NCCL backend does them: all_reduce (SUM, AVG, PRODUCT, MIN, MAX; bool
  SUM as MAX and PRODUCT as MIN), broadcast, reduce, all_gather (into one tensor, or a list
  through a flat buffer), reduce_scatter (likewise), all_to_all(_single), gather and scatter
  through grouped sends and receives, send/recv, barrier (an all_reduce of one element, waited
  for on the host), and the coalesced forms as one NCCL group.  Tensors must be contiguous CUDA
  tensors of this process's device; CPU tensors never reach it (the group has no CPU backend, or
  sends them to its CPU backend).
- Deterministic all-reduce (beyond torch): an AllreduceOptions with ``deterministic = True``
  (DistributedDataParallel(..., deterministic=True) passes one) makes a floating SUM, AVG or
  PRODUCT combine every element by the CPU backend's fixed rule (Note [Fixed reduction order]),
  from grouped ncclSend/ncclRecv and elementwise combines on the internal stream (Note [The
  fixed order over point-to-point] in _fixed_order.py): bit for bit the CPU backend's result,
  whatever NCCL's own algorithms would do.  Without it all_reduce is NCCL's.
"""
import hashlib
from datetime import timedelta

import minitorch as _mt

from .. import _C
from .._C import _c10d
from . import _fixed_order
from ._process_group import _Backend
from ._reduce_op import ReduceOp, _RedOpType, _op_value
from ._store import PrefixStore
from ._work_nccl import WorkNCCL, _Watchdog

__all__ = ["ProcessGroupNCCL"]

# the operations of _c10d._nccl_op
_ALLREDUCE, _BROADCAST, _REDUCE, _ALLGATHER, _REDUCESCATTER, _SEND, _RECV = range(7)
# ncclRedOp_t of each ReduceOp NCCL has
_NCCL_OPS = {_RedOpType.SUM: 0, _RedOpType.PRODUCT: 1, _RedOpType.MAX: 2, _RedOpType.MIN: 3,
             _RedOpType.AVG: 4}
_BOOL_OPS = {_RedOpType.SUM: 2, _RedOpType.PRODUCT: 3, _RedOpType.MAX: 2, _RedOpType.MIN: 3}


class _NCCLOptions:
    """ProcessGroupNCCL.Options: the group's timeout, high-priority streams, and (torch's) the
    communicator configuration, recorded."""

    def __init__(self, is_high_priority_stream=False):
        self._timeout = timedelta(minutes=10)
        self.is_high_priority_stream = bool(is_high_priority_stream)
        self.group_name = ""
        self.global_ranks_in_group = []
        self.split_from = None
        self.split_color = 0
        self.config = None
        self.backend = "nccl"

    def __repr__(self):
        return f"ProcessGroupNCCL.Options(timeout={self._timeout})"


def _contiguous_cuda(t, name):
    if not isinstance(t, _mt.Tensor):
        raise TypeError(f"ProcessGroupNCCL::{name}: expected a Tensor, got {type(t).__name__}")
    if not t.is_cuda:
        raise ValueError("Tensors must be CUDA and dense")
    if not t.is_contiguous():
        raise ValueError("Tensors must be contiguous")
    return t


def _single(tensors, name):
    ts = [tensors] if isinstance(tensors, _mt.Tensor) else list(tensors)
    if len(ts) != 1:
        raise ValueError("Expecting exactly one tensor per device (one device per process)")
    return _contiguous_cuda(ts[0], name)


class _PreMul:
    """A PreMulSum reduction for tensors like `t`: its factor as a one-element tensor of t's
    (real) dtype, on the CPU for a float factor, on t's device for a tensor factor (Note
    [PreMulSum operators] in csrc/distributed/nccl_comm_binding.c)."""
    __slots__ = ("factor",)

    def __init__(self, factor, t):
        dt = t.dtype
        dt = {_mt.complex64: _mt.float32, _mt.complex128: _mt.float64}.get(dt, dt)
        if dt not in (_mt.float16, _mt.bfloat16, _mt.float32, _mt.float64):
            raise TypeError("PreMulSum Data type must be half, float, bfloat16 or double")
        if isinstance(factor, _mt.Tensor):
            self.factor = factor.detach().reshape(1).to(device=t.device, dtype=dt)
        else:
            self.factor = _mt.tensor([factor], dtype=dt)


class ProcessGroupNCCL(_Backend):
    """``ProcessGroupNCCL(store, rank, size, options=None)`` (see Note [The NCCL backend])."""

    Options = _NCCLOptions
    _Options = _NCCLOptions

    def __init__(self, store, rank, size, options=None, device_id=None, comm=None):
        super().__init__(rank, size)
        if isinstance(options, timedelta):
            o = _NCCLOptions()
            o._timeout = options
            options = o
        self._options = options if options is not None else _NCCLOptions()
        self._store = store
        self._timeout = self._options._timeout
        self._comms = {}     # device index -> communicator (a capsule)
        self._streams = {}   # device index -> internal cuda.Stream
        self._sync_events = {}  # device index -> the event its stream waits on
        self._ncomms = 0     # communicators made (the store key of the next one)
        self._error = None   # set once the backend failed (aborted)
        self._seq = 0
        self._watchdog = _Watchdog(self)
        self._bound = None
        self._aborted = False
        if comm is not None:  # (device, communicator) split from a parent's (_split)
            self._comms[comm[0]] = comm[1]
            self._bound = _mt.device("cuda", comm[0])
        elif device_id is not None:
            self._bound = _mt.device(device_id)
            self._comm(self._bound.index if self._bound.index is not None else
                       _mt.cuda.current_device())

    # -------------------------------------------------------------- the backend

    def getBackendName(self):
        return "nccl"

    @property
    def options(self):
        return self._options

    @property
    def bound_device_id(self):
        return self._bound

    def _get_sequence_number_for_group(self):
        return self._seq

    def _alive(self):
        """False once abort() was called (a failed operation leaves the group to raise its
        error on every later call instead)."""
        return not self._aborted

    def set_timeout(self, timeout):
        self._timeout = timeout
        self._options._timeout = timeout

    _set_default_timeout = set_timeout

    def __repr__(self):
        return f"<ProcessGroupNCCL rank={self._rank} size={self._size}>"

    def _comm(self, device):
        c = self._comms.get(device)
        if c is not None:
            return c
        key = f"nccl_uid/{self._ncomms}"
        self._ncomms += 1
        if self._rank == 0:
            uid = _c10d._nccl_unique_id()
            self._store.set(key, uid)
        else:
            uid = bytes(self._store.get(key))
        c = self._comms[device] = _c10d._nccl_comm_init(uid, self._size, self._rank, device)
        return c

    def _split(self, color, key):
        """ncclCommSplit of the bound device's communicator (every rank of this group calls it;
        color -1: not a member): (device, communicator), or None for a non-member."""
        device = self._bound.index
        c = _c10d._nccl_comm_split(self._comm(device), color, key)
        return None if c is None else (device, c)

    def split_group(self, ranks, timeout=None, opts=None, group_name=None, group_desc=None):
        """A backend of `ranks` (ranks of this group, this rank among them; only they call it)
        with communicators of its own, through this group's store; None for other ranks."""
        ranks = [int(r) for r in ranks]
        if self._rank not in ranks:
            return None
        o = _NCCLOptions(self._options.is_high_priority_stream)
        o._timeout = timeout if timeout is not None else self._timeout
        o.group_name = group_name or "split_" + hashlib.sha1(
            ",".join(map(str, ranks)).encode()).hexdigest()
        store = PrefixStore(f"split/{o.group_name}", self._store)
        return ProcessGroupNCCL(store, ranks.index(self._rank), len(ranks), o)

    def _can_split(self):
        return self._bound is not None and self._error is None and \
            _c10d._nccl_can_split()

    def _stream(self, device):
        s = self._streams.get(device)
        if s is None:
            prio = -1 if self._options.is_high_priority_stream else 0
            s = self._streams[device] = _mt.cuda.Stream(device=device, priority=prio)
            self._sync_events[device] = _C._cuda_eventNew(device, 2)  # no timing
        return s

    def _async_error(self):
        for c in list(self._comms.values()):
            try:
                code = _c10d._nccl_comm_async_error(c)
            except ValueError:  # finished meanwhile
                continue
            if code:
                return code
        return 0

    @staticmethod
    def _error_string(code):
        try:
            _c10d._nccl_check(code, "an NCCL operation")
        except RuntimeError as e:
            return str(e)
        return "no error"

    def _fail(self, exc):
        """Records the backend's error, aborts its communicators and fails its pending works."""
        if self._error is None:
            self._error = exc
        for c in list(self._comms.values()):
            _c10d._nccl_comm_finish(c, True)
        self._watchdog.fail_all(self._error)

    def abort(self):
        self._aborted = True
        self._fail(_c10d.DistBackendError(f"[Rank {self._rank}] the NCCL process group was "
                                          "aborted"))

    def shutdown(self):
        """Destroys the communicators after their queued operations."""
        for c in list(self._comms.values()):
            _c10d._nccl_comm_finish(c, False)
        self._comms.clear()
        if self._error is None:
            self._error = _c10d.DistBackendError(f"[Rank {self._rank}] the NCCL process group "
                                                 "was destroyed")

    # -------------------------------------------------------------- issuing

    def _enter(self, device):
        """(communicator, internal stream, its handle) of `device`, the internal stream made to
        wait for the caller's current stream (one reusable event: a wait takes the event's
        state when it is queued); the group's error, if it has one, raised first."""
        if self._error is not None:
            raise self._error
        comm = self._comm(device)
        stream = self._stream(device)
        handle = stream.cuda_stream
        sync = self._sync_events[device]
        _C._cuda_eventRecord(sync, _C._cuda_getCurrentStream(device)[0])
        _C._cuda_eventWait(sync, handle, device)
        return comm, stream, handle

    def _run(self, op_type, device, calls, keep, outputs, numel, opts=None, pre=None,
             post=None):
        """Queues `calls` ((kind, send, recv, red_op, root) tuples, grouped when several) on
        the internal stream of `device` after the current stream, with `pre` and `post`
        (functions of no arguments) queued before and after them there; the WorkNCCL."""
        comm, stream, handle = self._enter(device)
        factors = [c[3].factor for c in calls if type(c[3]) is _PreMul and c[3].factor.is_cuda]
        if factors:  # a device factor is read by the collective: kept until it is done
            keep = list(keep) + factors
        for t in keep:
            _C._cuda_record_stream(t, handle)
        ctx = _mt.cuda.stream(stream) if pre is not None or post is not None else None
        if ctx is not None:
            ctx.__enter__()
        try:
            if pre is not None:
                pre()
            try:
                if len(calls) > 1:
                    _c10d._nccl_group(True)
                made = []  # PreMulSum operators (Note [PreMulSum operators])
                try:
                    for kind, send, recv, red, root in calls:
                        if type(red) is _PreMul:
                            made.append(_c10d._nccl_premul_create(comm, red.factor))
                            red = made[-1]
                        _c10d._nccl_op(comm, kind, send, recv, red, root, handle)
                finally:
                    if len(calls) > 1:
                        _c10d._nccl_group(False)
                    for code in made:
                        _c10d._nccl_redop_destroy(comm, code)
            except _c10d.DistBackendError as e:
                raise _c10d.DistBackendError(f"[Rank {self._rank}] {e}") from None
            if post is not None:
                post()
        finally:
            if ctx is not None:
                ctx.__exit__(None, None, None)
        event = _mt.cuda.Event()
        event.record(stream)
        self._seq += 1
        t = getattr(opts, "timeout", None) if opts is not None else None
        timeout = t if isinstance(t, timedelta) and t.total_seconds() > 0 else self._timeout
        w = WorkNCCL(self, op_type, event, keep, outputs, numel[0], numel[1],
                     timeout.total_seconds())
        self._watchdog.add(w)
        return w

    def _red(self, opts, t, default=ReduceOp.SUM):
        op = getattr(opts, "reduceOp", default) if opts is not None else default
        opv = _op_value(op)
        if opv == _RedOpType.PREMUL_SUM:
            return _PreMul(op._factor, t)
        if t.dtype == _mt.bool:
            if opv == _RedOpType.AVG:
                raise TypeError("Cannot use ReduceOp.AVG with boolean inputs")
            table = _BOOL_OPS
        else:
            table = _NCCL_OPS
        code = table.get(opv)
        if code is None:
            raise ValueError(f"Cannot use ReduceOp.{opv.name} with NCCL")
        return code

    # -------------------------------------------------------------- collectives

    def allreduce(self, tensors, opts=None):
        t = _single(tensors, "allreduce")
        if isinstance(opts, (ReduceOp, _RedOpType)):  # pg.allreduce(tensors, op)
            red, opts = self._red(None, t, opts), None
        else:
            red = self._red(opts, t)
        if getattr(opts, "deterministic", False) and self._size > 1 and \
                (t.is_floating_point() or t.is_complex()):
            return self._fixed_order_allreduce(t, red, opts)
        return self._run("ALLREDUCE", t.device.index, [(_ALLREDUCE, t, t, red, 0)], [t], [t],
                         (t.numel(), t.numel()), opts)

    def _fixed_order_allreduce(self, t, red, opts):
        """The deterministic all-reduce (Note [The NCCL backend]): rule T of Note [Fixed
        reduction order] over rank index, by the schedule of Note [The fixed order over
        point-to-point] (grouped sends and receives, and combines on the internal stream)."""
        kind = {v: k for k, v in _NCCL_OPS.items()}.get(red) if type(red) is not _PreMul \
            else _RedOpType.PREMUL_SUM
        if kind in (_RedOpType.MIN, _RedOpType.MAX):
            # any order gives the same bits: NCCL's own algorithm
            return self._run("ALLREDUCE", t.device.index, [(_ALLREDUCE, t, t, red, 0)], [t],
                             [t], (t.numel(), t.numel()), opts)
        if kind not in (_RedOpType.SUM, _RedOpType.AVG, _RedOpType.PRODUCT) or t.is_complex():
            raise NotImplementedError(
                "ProcessGroupNCCL: the deterministic all-reduce is implemented for SUM, AVG, "
                f"PRODUCT, MIN and MAX of real floating tensors, not {kind.name} of {t.dtype}")
        device = t.device.index
        comm, stream, handle = self._enter(device)
        _C._cuda_record_stream(t, handle)
        keep = [t]
        n = self._size
        steps = _fixed_order.allreduce_steps(n, self._rank, t.numel())
        with _mt.cuda.stream(stream):
            flat = t.reshape(-1)
            # 16-bit floats combine in float32 and are rounded once (as the CPU backend does)
            wide = t.dtype in (_mt.float16, _mt.bfloat16)
            buf = flat.float() if wide else flat
            keep.append(buf)
            try:
                for to, out, frm, into, comb in steps:
                    calls = [(_SEND, buf.narrow(0, o, c), None, to) for o, c in out]
                    dsts = [buf.narrow(0, o, c) for o, c in into]
                    srcs = [_mt.empty(c, dtype=buf.dtype, device=buf.device) if comb else d
                            for (o, c), d in zip(into, dsts)]
                    calls += [(_RECV, None, r, frm) for r in srcs]
                    keep.extend(srcs)
                    if not calls:
                        continue
                    _c10d._nccl_group(True)
                    try:
                        for k, send, recv, peer in calls:
                            _c10d._nccl_op(comm, k, send, recv, 0, peer, handle)
                    finally:
                        _c10d._nccl_group(False)
                    if comb:
                        for d, r in zip(dsts, srcs):
                            if kind == _RedOpType.PRODUCT:
                                d.mul_(r)
                            else:
                                d.add_(r)
            except _c10d.DistBackendError as e:
                raise _c10d.DistBackendError(f"[Rank {self._rank}] {e}") from None
            if kind == _RedOpType.AVG:
                buf.div_(n)
            if wide:
                flat.copy_(buf)
        event = _mt.cuda.Event()
        event.record(stream)
        self._seq += 1
        to = getattr(opts, "timeout", None)
        timeout = to if isinstance(to, timedelta) and to.total_seconds() > 0 else self._timeout
        w = WorkNCCL(self, "ALLREDUCE", event, keep, [t], t.numel(), t.numel(),
                     timeout.total_seconds())
        self._watchdog.add(w)
        return w

    def allreduce_coalesced(self, tensors, opts=None):
        ts = [_contiguous_cuda(t, "allreduce_coalesced") for t in tensors]
        if not ts:
            raise ValueError("ProcessGroupNCCL::allreduce_coalesced: requires non-empty tensor "
                             "list")
        red = self._red(opts, ts[0])
        n = sum(t.numel() for t in ts)
        return self._run("COALESCED", ts[0].device.index,
                         [(_ALLREDUCE, t, t, red, 0) for t in ts], ts, ts, (n, n), opts)

    def broadcast(self, tensors, opts=None):
        t = _single(tensors, "broadcast")
        root = getattr(opts, "rootRank", 0)
        self._check_root(root)
        return self._run("BROADCAST", t.device.index, [(_BROADCAST, t, t, 0, root)], [t], [t],
                         (t.numel(), t.numel()), opts)

    def reduce(self, tensors, opts=None):
        t = _single(tensors, "reduce")
        root = getattr(opts, "rootRank", 0)
        self._check_root(root)
        red = self._red(opts, t)
        return self._run("REDUCE", t.device.index, [(_REDUCE, t, t, red, root)], [t], [t],
                         (t.numel(), t.numel()), opts)

    def allgather(self, output_tensors, input_tensors, opts=None):
        t = _single(input_tensors, "allgather")
        outs = list(output_tensors[0]) if output_tensors else []
        if len(outs) != self._size:
            raise ValueError(f"ProcessGroupNCCL::allgather: expected {self._size} output "
                             f"tensors, got {len(outs)}")
        for o in outs:
            if not o.is_cuda:
                raise ValueError("Tensors must be CUDA and dense")
            if o.numel() != t.numel() or o.dtype != t.dtype:
                raise ValueError("All tensor operands to scatter/gather must have the same "
                                 "number of elements and dtype")
        flat = _mt.empty((self._size * t.numel(),), dtype=t.dtype, device=t.device)

        def unpack():
            for i, o in enumerate(outs):
                o.copy_(flat[i * t.numel():(i + 1) * t.numel()].view(o.shape))
        return self._run("ALLGATHER", t.device.index, [(_ALLGATHER, t, flat, 0, 0)],
                         [t, flat] + outs, [outs], (t.numel(), flat.numel()), opts, post=unpack)

    def all_gather_single(self, output, input, opts=None):
        o, i = _contiguous_cuda(output, "_allgather_base"), _contiguous_cuda(input, "_allgather_base")
        if o.numel() != i.numel() * self._size:
            raise ValueError("output tensor size must be equal to world_size times input tensor "
                             "size")
        return self._run("_ALLGATHER_BASE", i.device.index, [(_ALLGATHER, i, o, 0, 0)], [i, o],
                         [o], (i.numel(), o.numel()), opts)

    _allgather_base = all_gather_single

    def allgather_into_tensor_coalesced(self, outputs, inputs, opts=None):
        outs = [_contiguous_cuda(t, "allgather_into_tensor_coalesced") for t in outputs]
        ins = [_contiguous_cuda(t, "allgather_into_tensor_coalesced") for t in inputs]
        self._check_pairs(outs, ins, self._size, 1, "allgather_into_tensor_coalesced")
        n = sum(t.numel() for t in ins)
        return self._run("COALESCED", ins[0].device.index,
                         [(_ALLGATHER, i, o, 0, 0) for i, o in zip(ins, outs)], ins + outs, outs,
                         (n, n * self._size), opts)

    def allgather_coalesced(self, output_lists, input_list, opts=None):
        raise NotImplementedError("ProcessGroupNCCL does not support allgather_coalesced")

    def reduce_scatter(self, output_tensors, input_tensors, opts=None):
        o = _single(output_tensors, "reduce_scatter")
        ins = list(input_tensors[0]) if input_tensors else []
        if len(ins) != self._size:
            raise ValueError(f"ProcessGroupNCCL::reduce_scatter: expected {self._size} input "
                             f"tensors, got {len(ins)}")
        red = self._red(opts, o)
        flat = _mt.empty((self._size * o.numel(),), dtype=o.dtype, device=o.device)

        def pack():
            for i, t in enumerate(ins):
                flat[i * o.numel():(i + 1) * o.numel()].copy_(t.reshape(-1))
        return self._run("REDUCE_SCATTER", o.device.index, [(_REDUCESCATTER, flat, o, red, 0)],
                         [o, flat] + ins, [o], (flat.numel(), o.numel()), opts, pre=pack)

    def reduce_scatter_single(self, output, input, opts=None):
        o = _contiguous_cuda(output, "_reduce_scatter_base")
        i = _contiguous_cuda(input, "_reduce_scatter_base")
        if i.numel() != o.numel() * self._size:
            raise ValueError("input tensor must be the same size as output size times world size")
        red = self._red(opts, o)
        return self._run("_REDUCE_SCATTER_BASE", o.device.index,
                         [(_REDUCESCATTER, i, o, red, 0)], [i, o], [o], (i.numel(), o.numel()),
                         opts)

    _reduce_scatter_base = reduce_scatter_single

    def reduce_scatter_tensor_coalesced(self, outputs, inputs, opts=None):
        outs = [_contiguous_cuda(t, "reduce_scatter_tensor_coalesced") for t in outputs]
        ins = [_contiguous_cuda(t, "reduce_scatter_tensor_coalesced") for t in inputs]
        self._check_pairs(outs, ins, 1, self._size, "reduce_scatter_tensor_coalesced")
        red = self._red(opts, outs[0])
        n = sum(t.numel() for t in outs)
        return self._run("COALESCED", outs[0].device.index,
                         [(_REDUCESCATTER, i, o, red, 0) for i, o in zip(ins, outs)], ins + outs,
                         outs, (n * self._size, n), opts)

    def alltoall_base(self, output, input, output_split_sizes, input_split_sizes, opts=None):
        o = _contiguous_cuda(output, "alltoall_base")
        i = _contiguous_cuda(input, "alltoall_base")
        n = self._size
        osz = [int(s) for s in output_split_sizes] or None
        isz = [int(s) for s in input_split_sizes] or None
        for t, sz, what in ((o, osz, "output"), (i, isz, "input")):
            if sz is None and (t.dim() == 0 or t.shape[0] % n):
                raise ValueError("Tensor's dim 0 does not divide equally across group size")
            if sz is not None and (len(sz) != n or sum(sz) != t.shape[0]):
                raise ValueError("Split sizes doesn't match total dim 0 size")
        osz = osz or [o.shape[0] // n] * n
        isz = isz or [i.shape[0] // n] * n
        calls = []
        ooff = ioff = 0
        for r in range(n):
            calls.append((_SEND, i.narrow(0, ioff, isz[r]), None, 0, r))
            calls.append((_RECV, None, o.narrow(0, ooff, osz[r]), 0, r))
            ioff += isz[r]
            ooff += osz[r]
        calls = [c for c in calls if (c[1] if c[1] is not None else c[2]).numel() > 0]
        return self._run("ALLTOALL_BASE", i.device.index, calls, [i, o], [o],
                         (i.numel(), o.numel()), opts)

    def alltoall(self, output_tensors, input_tensors, opts=None):
        outs = [_contiguous_cuda(t, "alltoall") for t in output_tensors]
        ins = [_contiguous_cuda(t, "alltoall") for t in input_tensors]
        if len(outs) != self._size or len(ins) != self._size:
            raise ValueError(f"ProcessGroupNCCL::alltoall: expected {self._size} tensors")
        calls = []
        for r in range(self._size):
            if ins[r].numel():
                calls.append((_SEND, ins[r], None, 0, r))
            if outs[r].numel():
                calls.append((_RECV, None, outs[r], 0, r))
        n = sum(t.numel() for t in ins)
        return self._run("ALLTOALL", ins[0].device.index, calls, ins + outs, outs,
                         (n, sum(t.numel() for t in outs)), opts)

    def gather(self, output_tensors, input_tensors, opts=None):
        t = _single(input_tensors, "gather")
        root = getattr(opts, "rootRank", 0)
        self._check_root(root)
        if self._rank == root:
            outs = [_contiguous_cuda(o, "gather") for o in output_tensors[0]]
            calls = [(_RECV, None, outs[r], 0, r) for r in range(self._size) if r != root]

            def own():
                outs[root].copy_(t)
            return self._run("GATHER", t.device.index, calls, [t] + outs, [outs],
                             (t.numel(), t.numel() * self._size), opts, post=own)
        return self._run("GATHER", t.device.index, [(_SEND, t, None, 0, root)], [t], [],
                         (t.numel(), 0), opts)

    def scatter(self, output_tensors, input_tensors, opts=None):
        t = _single(output_tensors, "scatter")
        root = getattr(opts, "rootRank", 0)
        self._check_root(root)
        if self._rank == root:
            ins = [_contiguous_cuda(i, "scatter") for i in input_tensors[0]]
            calls = [(_SEND, ins[r], None, 0, r) for r in range(self._size) if r != root]

            def own():
                t.copy_(ins[root])
            return self._run("SCATTER", t.device.index, calls, [t] + ins, [t],
                             (t.numel() * self._size, t.numel()), opts, post=own)
        return self._run("SCATTER", t.device.index, [(_RECV, None, t, 0, root)], [t], [t],
                         (0, t.numel()), opts)

    def barrier(self, opts=None):
        """An all_reduce of one element on this rank's device, waited for on the host."""
        ids = list(getattr(opts, "device_ids", []) or [])
        if ids:
            device = int(ids[0])
        elif self._bound is not None and self._bound.index is not None:
            device = self._bound.index
        elif self._comms:
            device = next(iter(self._comms))
        else:
            device = self._rank % max(1, _mt.cuda.device_count())
        t = _mt.zeros((1,), device=_mt.device("cuda", device))
        w = self._run("BARRIER", device, [(_ALLREDUCE, t, t, 0, 0)], [t], [], (1, 1), opts)
        w.synchronize()
        return w

    # -------------------------------------------------------------- point to point

    def send(self, tensors, dstRank, tag=0):
        t = _single(tensors, "send")
        return self._run("SEND", t.device.index, [(_SEND, t, None, 0, int(dstRank))], [t], [t],
                         (t.numel(), t.numel()))

    def recv(self, tensors, srcRank, tag=0):
        t = _single(tensors, "recv")
        return self._run("RECV", t.device.index, [(_RECV, None, t, 0, int(srcRank))], [t], [t],
                         (t.numel(), t.numel()))

    def recv_anysource(self, tensors, tag=0):
        raise RuntimeError("ProcessGroupNCCL does not support recvAnysource")

    def _batch_p2p(self, ops):
        """batch_isend_irecv's operations ((is_send, tensor, group peer), ...) as one NCCL
        group; one Work per operation (the same completion)."""
        calls, keep = [], []
        for is_send, t, peer in ops:
            t = _contiguous_cuda(t, "batch_isend_irecv")
            calls.append((_SEND, t, None, 0, peer) if is_send else (_RECV, None, t, 0, peer))
            keep.append(t)
        w = self._run("COALESCED", keep[0].device.index, calls, keep, keep,
                      (sum(t.numel() for t in keep),) * 2)
        return [w] * len(ops)

    @staticmethod
    def _check_pairs(outs, ins, out_factor, in_factor, name):
        """outs[i] holds out_factor / in_factor times ins[i]'s elements, of its dtype."""
        if not outs or len(outs) != len(ins):
            raise ValueError(f"ProcessGroupNCCL::{name}: expected as many outputs as inputs "
                             f"(and at least one), got {len(outs)} and {len(ins)}")
        for o, i in zip(outs, ins):
            if o.dtype != i.dtype or o.numel() * in_factor != i.numel() * out_factor:
                raise ValueError(f"ProcessGroupNCCL::{name}: an output of {o.numel()} elements "
                                 f"({o.dtype}) does not match its input of {i.numel()} "
                                 f"({i.dtype})")

    def _check_root(self, root):
        if not isinstance(root, int) or not 0 <= root < self._size:
            raise ValueError(f"ProcessGroupNCCL: invalid root rank {root}")

    def monitored_barrier(self, timeout=None, wait_all_ranks=False):
        raise RuntimeError("monitored_barrier is only implemented for the gloo backend")
