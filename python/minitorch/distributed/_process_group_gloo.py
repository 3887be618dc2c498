"""ProcessGroupGloo, minitorch's CPU backend (torch's "gloo"): a backend over the C process group
of csrc/distributed (a TCP or shared-memory mesh and a worker thread), with torch's per-group API.

Note [ProcessGroup methods]
Each method takes the group's own ranks and torch's option objects (AllreduceOptions, ...) or
the plain arguments of its other overloads, checks its arguments the way torch's gloo backend
does (RuntimeError in gloo's words: "invalid root rank", "invalid tensor type", ...), and
returns a Work at once: the operation runs on the group's worker thread.  As gloo's:
  - a list of several tensors takes part as one: allreduce reduces them all (across ranks and
    within the list) into each; broadcast sends tensors[rootTensor] into every tensor;
    allgather with n inputs fills each output list with every rank's n inputs in rank order;
  - the future of a Work (get_future) completes with the outputs (allgather/gather: the one
    output list, or the list of lists);
  - opts.timeout (when set) bounds that operation instead of the group's timeout;
  - opts.asyncOp False (what the module functions pass for a blocking call) runs the operation
    before the method returns, on the calling thread when nothing else is queued (Note
    [Issuing an operation] in csrc/distributed/backend/process_group.h); the Work it returns
    is complete, its local steps left to wait().
Local steps (reducing the list before, copying into the other tensors after) run in the caller's
thread and when the Work finishes (wait, is_completed, get_future, or a later barrier).
"""
import hashlib
from datetime import timedelta

import minitorch as _mt

from .._C import _c10d
from . import _monitored_barrier
from . import _options
from ._process_group import _Backend
from ._reduce_op import ReduceOp, _RedOpType, _op_value
from ._store import PrefixStore, _timeout_ms
from ._work import Work, _DoneCWork, _MultiCWork, _WorkList

__all__ = ["ProcessGroupGloo"]

default_pg_timeout = timedelta(minutes=30)


def _err(msg):
    return RuntimeError(msg)


def _sizes(shape):
    return "(" + ", ".join(str(int(d)) for d in shape) + ")"


def _tensors(x, what="tensors"):
    if isinstance(x, _mt.Tensor):
        return [x]
    if not isinstance(x, (list, tuple)) or not all(isinstance(t, _mt.Tensor) for t in x):
        raise TypeError(f"{what} must be a Tensor or a list of Tensors, not {type(x).__name__}")
    for t in x:
        _check_device(t)
    return list(x)


def _tensor_lists(x, what):
    if not isinstance(x, (list, tuple)) or not all(isinstance(lst, (list, tuple)) for lst in x):
        raise TypeError(f"{what} must be a list of lists of Tensors")
    return [_tensors(lst, what) for lst in x]


def _check_type_size(ts, dtype, shape, at_index=False):
    for i, t in enumerate(ts):
        where = f" at index {i}" if at_index else ""
        if t.dtype != dtype:
            raise _err(f"invalid tensor type{where} (expected {dtype}, got {t.dtype})")
        if tuple(t.shape) != tuple(shape):
            raise _err(f"invalid tensor size{where} (expected {list(shape)}, got {list(t.shape)})")


def _check_root_rank(pg, root):
    if not isinstance(root, int) or not 0 <= root < pg.size():
        raise _err(f"invalid root rank: {root}")


def _check_root_tensor(root_tensor, n):
    if not isinstance(root_tensor, int) or not 0 <= root_tensor < n:
        raise _err(f"invalid root tensor: {root_tensor}")


def _opts(opts, cls, **plain):
    """`opts` itself when it is a `cls`, else a `cls` made from the plain arguments."""
    if isinstance(opts, cls):
        return opts
    o = cls()
    for k, v in plain.items():
        if v is not None:
            setattr(o, k, v)
    return o


def _op_timeout_ms(opts):
    t = getattr(opts, "timeout", None)
    if isinstance(t, timedelta) and t.total_seconds() > 0:
        return max(1, int(t.total_seconds() * 1000))
    return 0


def _check_device(t):
    if t.device.type not in ("cpu", "cuda"):
        raise RuntimeError(f"No backend type associated with device type {t.device.type}: the "
                           "gloo backend serves CPU and CUDA tensors")


def _as_reals(t):
    return _mt.view_as_real(t) if t.is_complex() else t


class _Stage:
    """Contiguous host stand-ins for non-contiguous tensors and for CUDA tensors (outputs copied
    back when the operation completes): the C group moves host memory, so CUDA tensors travel
    through host copies, as torch's gloo stages them."""

    def __init__(self):
        self.copies = []

    def input(self, t):
        if not t.is_cpu:
            return t.cpu().contiguous()
        return t if t.is_contiguous() else t.contiguous()

    def output(self, t):
        if t.is_cpu and t.is_contiguous():
            return t
        c = t.cpu().contiguous() if not t.is_cpu else t.contiguous()
        self.copies.append((t, c))
        return c

    def inputs(self, ts):
        return [self.input(t) for t in ts]

    def outputs(self, ts):
        return [self.output(t) for t in ts]


def _local_reduce(tensors, opv):
    """The elementwise reduction of same-shaped tensors (a new tensor)."""
    R = _RedOpType
    fns = {R.SUM: _mt.add, R.AVG: _mt.add, R.PRODUCT: _mt.mul, R.MIN: _mt.minimum,
           R.MAX: _mt.maximum, R.BAND: _mt.bitwise_and, R.BOR: _mt.bitwise_or,
           R.BXOR: _mt.bitwise_xor}
    out = tensors[0].clone()
    for t in tensors[1:]:
        out = fns[opv](out, t)
    return out.contiguous()


class _GlooOptions:
    """ProcessGroupGloo._Options: the group's timeout (a timedelta; seconds as a number are
    accepted), devices, worker threads, name and global ranks."""

    def __init__(self):
        self._t = default_pg_timeout
        self._devices = []
        self._threads = 2
        self.group_name = ""
        self.global_ranks_in_group = []
        self.backend = "gloo"
        self.enable_reconfigure = False

    @property
    def _timeout(self):
        return self._t

    @_timeout.setter
    def _timeout(self, value):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = timedelta(seconds=value)
        if not isinstance(value, timedelta):
            raise TypeError(f"_timeout must be a timedelta or seconds, not {type(value).__name__}")
        self._t = value

    def __repr__(self):
        return (f"ProcessGroupGloo._Options(timeout={self._t}, group_name={self.group_name!r}, "
                f"global_ranks_in_group={self.global_ranks_in_group})")


class _GlooDevice:
    """ProcessGroupGloo.Device (what create_device returns): the TCP backend picks its interface
    from MINITORCH_SOCKET_IFNAME / GLOO_SOCKET_IFNAME; a device only records the request."""

    def __init__(self, hostname="", interface="", lazy_init=None):
        self.hostname = hostname
        self.interface = interface
        self.lazy_init = bool(lazy_init)

    def __repr__(self):
        return f"Device(hostname={self.hostname!r}, interface={self.interface!r})"


class _Call:
    """Issues the parts of one operation on the C group with its timeout, queued or (opts.asyncOp
    False) run before the call returns; the Work."""

    def __init__(self, backend, opts=None):
        self.backend = backend
        self.ms = _op_timeout_ms(opts) if opts is not None else 0
        self.now = opts is not None and getattr(opts, "asyncOp", True) is False
        self.works = []
        self.stage = _Stage()

    def __call__(self, method, *args):
        # now=True: the C method runs the operation and returns None (recv: the sender's rank)
        r = getattr(self.backend._cgroup, method)(*args, self.now, self.ms)
        self.works.append(_DoneCWork(r if isinstance(r, int) else -1) if self.now else r)

    def work(self, outputs, post=None):
        self.backend._seq += 1
        cw = self.works[0] if len(self.works) == 1 else _MultiCWork(self.works)
        pending = self.backend._pending
        w = Work(cw, pending, outputs, self.stage.copies, post)
        if self.stage.copies or post is not None:
            pending.append(w)
        return w


class ProcessGroupGloo(_Backend):
    """``ProcessGroupGloo(store, rank, size, timeout_or_options=timedelta(minutes=30))``: the
    CPU backend of `size` ranks built over `store` (see Note [ProcessGroup methods])."""

    _Options = _GlooOptions
    Options = _GlooOptions
    Device = _GlooDevice
    _count = 0  # groups made in this process (their default names)

    @staticmethod
    def create_device(hostname="", interface="", lazy_init=None):
        return _GlooDevice(hostname, interface, lazy_init)

    @staticmethod
    def create_default_device(lazy_init=None):
        return _GlooDevice("", "", lazy_init)

    def __init__(self, store, rank, size, timeout=None):
        opts = timeout if isinstance(timeout, _GlooOptions) else None
        if opts is not None:
            timeout = opts._timeout
        timeout = _check_timeout(timeout)
        if not isinstance(store, _c10d.Store):
            raise TypeError(f"ProcessGroupGloo: store must be a Store, not {type(store).__name__}")
        for v, what in ((rank, "rank"), (size, "size")):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"ProcessGroupGloo: {what} must be an int, not {type(v).__name__}")
        if size < 1 or not 0 <= rank < size:
            raise ValueError(f"ProcessGroupGloo: invalid rank {rank} for size {size}")
        super().__init__(rank, size)
        cgroup = _c10d._new_process_group(store, rank, size, _timeout_ms(timeout))
        try:
            # Every member has finished building its transport (and is done with the store's
            # keys) before any returns: a master that returns and exits at once cannot strand
            # a peer that is still connecting.  The TCP transport waits so itself, through the
            # store, and opens connections only when used (Note [Lazy connections]).
            if cgroup.transport() != "tcp":
                cgroup.barrier(True)
        except BaseException:
            cgroup.abort()
            raise
        ProcessGroupGloo._count += 1
        self._cgroup = cgroup   # the C group (minitorch._C._c10d.ProcessGroupGloo)
        self._store = store
        self._timeout = timeout
        self._pending = []      # works with local steps left
        self._mb_seq = 0        # monitored barriers run
        self._seq = 0           # operations issued (_get_sequence_number_for_group)
        self._options = _GlooOptions()
        self._options._timeout = timeout
        if opts is not None:
            self._options.group_name = opts.group_name
            self._options.global_ranks_in_group = list(opts.global_ranks_in_group)
            self._options._devices = list(opts._devices)
            self._options._threads = opts._threads
        if not self._options.group_name:
            self._options.group_name = f"gloo_{ProcessGroupGloo._count}"

    def getBackendName(self):
        return "gloo"

    def _get_sequence_number_for_group(self):
        """The operations this backend has issued."""
        return self._seq

    def _alive(self):
        return self._cgroup.is_alive()

    def abort(self):
        """Fails the queued operations and closes the connections at once."""
        self._cgroup.abort()

    def __repr__(self):
        return f"<ProcessGroupGloo rank={self._rank} size={self._size}>"

    # -------------------------------------------------------------- reductions

    def _opv(self, o):
        """The reduction of options `o`; torch's error for a PreMulSum, which only NCCL has."""
        v = _op_value(o.reduceOp)
        if v is _RedOpType.PREMUL_SUM:
            name = "MPI" if self.name() == "mpi" else "Gloo"
            raise RuntimeError(f"Cannot use ReduceOp.PREMUL_SUM with {name}")
        return v

    def allreduce(self, tensors, opts=None):
        op = opts if opts is not None and not isinstance(opts, _options.AllreduceOptions) else None
        o = _opts(opts if op is None else None, _options.AllreduceOptions,
                  reduceOp=ReduceOp(op) if op is not None else None)
        ts = _tensors(tensors)
        if not ts:
            raise _err("ProcessGroupGloo::allreduce: requires non-empty tensor list")
        _check_type_size(ts, ts[0].dtype, ts[0].shape)
        opv = self._opv(o)
        call = _Call(self, o)
        if len(ts) == 1:
            t = call.stage.output(ts[0])
            call("allreduce", [t], int(opv))
            return call.work(ts)
        R = _RedOpType
        flat = _local_reduce(ts, R.SUM if opv == R.AVG else opv)
        call("allreduce", [call.stage.output(flat)], int(opv))

        def post():
            for t in ts:
                t.copy_(flat)
        return call.work(ts, post)

    def allreduce_coalesced(self, tensors, opts=None):
        o = _opts(opts, _options.AllreduceCoalescedOptions)
        ts = _tensors(tensors)
        if not ts:
            raise _err("ProcessGroupGloo::allreduce_coalesced: requires non-empty tensor list")
        for i, t in enumerate(ts):  # a complex tensor reduces as its real parts
            if _as_reals(t).dtype != _as_reals(ts[0]).dtype:
                raise _err(f"ProcessGroupGloo::allreduce_coalesced: tensors must all have the same "
                           f"type (index {i}: {t.dtype}, index 0: {ts[0].dtype})")
        opv = self._opv(o)
        flat = _mt.cat([_as_reals(t).reshape(-1) for t in ts])
        call = _Call(self, o)
        call("allreduce", [call.stage.output(flat)], int(opv))

        def post():
            off = 0
            for t in ts:
                r = _as_reals(t)
                r.copy_(flat[off:off + r.numel()].view(r.shape))
                off += r.numel()
        return call.work(ts, post)

    def reduce(self, tensors, opts=None, op=None):
        root = opts if isinstance(opts, int) and not isinstance(opts, bool) else None
        o = _opts(opts if root is None else None, _options.ReduceOptions, rootRank=root,
                  reduceOp=ReduceOp(op) if op is not None else None)
        ts = _tensors(tensors)
        _check_root_rank(self, o.rootRank)
        _check_root_tensor(o.rootTensor, len(ts))
        if len(ts) != 1:
            raise _err("ProcessGroupGloo::reduce: requires a single-element tensor list")
        opv = self._opv(o)
        call = _Call(self, o)
        t = call.stage.output(ts[0])
        call("reduce", t, o.rootRank, int(opv))
        return call.work(ts)

    def reduce_scatter(self, output_tensors, input_tensors, opts=None):
        op = opts if opts is not None and not isinstance(opts, _options.ReduceScatterOptions) else None
        o = _opts(opts if op is None else None, _options.ReduceScatterOptions,
                  reduceOp=ReduceOp(op) if op is not None else None)
        outs = _tensors(output_tensors)
        ins = [input_tensors] if input_tensors and isinstance(input_tensors[0], _mt.Tensor) \
            else _tensor_lists(input_tensors, "input_tensors")
        if len(outs) != 1 or len(ins) != 1:
            raise _err("ProcessGroupGloo::reduce_scatter: requires a single-element output and "
                       "input list")
        if len(ins[0]) != self.size():
            raise _err(f"ProcessGroupGloo::reduce_scatter: input list size {len(ins[0])} does not "
                       f"match world size {self.size()}")
        _check_type_size(ins[0], outs[0].dtype, outs[0].shape)
        opv = self._opv(o)
        call = _Call(self, o)
        out = call.stage.output(outs[0])
        call("reduce_scatter", out, call.stage.inputs(ins[0]), int(opv))
        return call.work(outs)

    def reduce_scatter_single(self, output, input, opts=None):
        o = _opts(opts, _options.ReduceScatterOptions)
        n = self.size()
        if output.dtype != input.dtype:
            raise _err("ProcessGroupGloo::reduce_scatter_single: input and output tensors must "
                       "have the same type")
        if input.numel() != n * output.numel():
            raise _err(f"ProcessGroupGloo::reduce_scatter_single: input tensor size "
                       f"{input.numel()} must be the world size ({n}) times the output's "
                       f"{output.numel()}")
        opv = self._opv(o)
        call = _Call(self, o)
        flat = call.stage.input(input).reshape(-1)
        k = output.numel()
        out = call.stage.output(output)
        call("reduce_scatter", out, [flat[i * k:(i + 1) * k] for i in range(n)], int(opv))
        return call.work([output])

    _reduce_scatter_base = reduce_scatter_single

    def reduce_scatter_tensor_coalesced(self, outputs, inputs, opts=None):
        o = _opts(opts, _options.ReduceScatterOptions)
        outs, ins = _tensors(outputs), _tensors(inputs)
        if len(outs) != len(ins):
            raise _err("ProcessGroupGloo::reduce_scatter_tensor_coalesced: requires as many "
                       "outputs as inputs")
        works = [self.reduce_scatter_single(out, inp, o) for out, inp in zip(outs, ins)]
        return _WorkList(works, outs)

    reduce_scatter_single_coalesced = reduce_scatter_tensor_coalesced

    # -------------------------------------------------------------- broadcast / gather

    def broadcast(self, tensors, opts=None, root=None):
        if isinstance(opts, int) and not isinstance(opts, bool):
            opts, root = None, opts
        o = _opts(opts, _options.BroadcastOptions, rootRank=root)
        ts = _tensors(tensors)
        _check_root_rank(self, o.rootRank)
        _check_root_tensor(o.rootTensor, len(ts))
        _check_type_size(ts, ts[0].dtype, ts[0].shape)
        call = _Call(self, o)
        src = call.stage.output(ts[o.rootTensor])
        call("broadcast", [src], o.rootRank)
        if len(ts) == 1:
            return call.work(ts)
        rt = ts[o.rootTensor]

        def post():
            for t in ts:
                if t is not rt:
                    t.copy_(rt)
        return call.work(ts, post)

    def allgather(self, output_tensors, input_tensors, opts=None):
        ins = _tensors(input_tensors, "input_tensors")
        if output_tensors and isinstance(output_tensors[0], _mt.Tensor):
            output_tensors = [output_tensors]  # the (list of tensors, tensor) overload
        outs = _tensor_lists(output_tensors, "output_tensors")
        name = "ProcessGroupGloo::allgather"
        if not ins:
            raise _err(f"{name}: requires non-empty input tensor list")
        if len(ins) != len(outs):
            raise _err(f"{name}: requires input/output tensor lists to have the same length")
        want = len(ins) * self.size()
        for i, lst in enumerate(outs):
            if len(lst) != want:
                raise _err(f"{name}: invalid output tensor list at index {i} (expected length "
                           f"{want}, got {len(lst)})")
        _check_type_size(ins, ins[0].dtype, ins[0].shape)
        for lst in outs:
            _check_type_size(lst, ins[0].dtype, ins[0].shape)
        call = _Call(self, opts)
        n = len(ins)
        first = call.stage.outputs(outs[0])
        for m in range(n):
            call("allgather", [first[r * n + m] for r in range(self.size())],
                 call.stage.input(ins[m]))
        post = None
        if len(outs) > 1:
            def post():
                for lst in outs[1:]:
                    for a, b in zip(lst, outs[0]):
                        a.copy_(b)
        return call.work(outs[0] if len(outs) == 1 else outs, post)

    def allgather_coalesced(self, output_lists, input_list, opts=None):
        ins = _tensors(input_list, "input_list")
        outs = _tensor_lists(output_lists, "output_lists")
        name = "ProcessGroupGloo::allgather_coalesced"
        if not ins:
            raise _err(f"{name}: requires non-empty input tensor list")
        if len(outs) != self.size():
            raise _err(f"{name}: output lists should be equal to world size")
        for lst in outs:
            if len(lst) != len(ins):
                raise _err(f"{name}: invalid output size: (expected length {len(ins)}, got "
                           f"{len(lst)})")
            for j, (o_, i_) in enumerate(zip(lst, ins)):
                if tuple(o_.shape) != tuple(i_.shape):
                    raise _err(f"{name}: invalid size of output tensor at index {j} (expected "
                               f"length {_sizes(i_.shape)}, got {_sizes(o_.shape)})")
                if o_.dtype != i_.dtype:
                    raise _err(f"{name}: invalid tensor type at index {j}")
        reals = [_as_reals(t) for t in ins]
        dt = reals[0].dtype
        flat_in = _mt.cat([t.reshape(-1) for t in reals])
        k = flat_in.numel()
        flat_out = _mt.empty(self.size() * k, dtype=dt)
        call = _Call(self, opts)
        call("allgather", [flat_out[r * k:(r + 1) * k] for r in range(self.size())],
             call.stage.input(flat_in))

        def post():
            for r, lst in enumerate(outs):
                off = r * k
                for t in lst:
                    t_r = _as_reals(t)
                    t_r.copy_(flat_out[off:off + t_r.numel()].view(t_r.shape))
                    off += t_r.numel()
        return call.work(outs, post)

    def all_gather_single(self, output, input, opts=None):
        n = self.size()
        if output.dtype != input.dtype:
            raise _err("ProcessGroupGloo::all_gather_single: input and output tensors must have "
                       "the same type")
        if output.numel() != n * input.numel():
            raise _err(f"ProcessGroupGloo::all_gather_single: output tensor size "
                       f"{output.numel()} must be the world size ({n}) times the input's "
                       f"{input.numel()}")
        call = _Call(self, opts)
        out = call.stage.output(output).view(-1)
        k = input.numel()
        call("allgather", [out[i * k:(i + 1) * k] for i in range(n)],
             call.stage.input(input).reshape(-1))
        return call.work([output])

    _allgather_base = all_gather_single

    def allgather_into_tensor_coalesced(self, outputs, inputs, opts=None):
        outs, ins = _tensors(outputs), _tensors(inputs)
        if len(outs) != len(ins):
            raise _err("ProcessGroupGloo::allgather_into_tensor_coalesced: requires as many "
                       "outputs as inputs")
        works = [self.all_gather_single(out, inp, opts) for out, inp in zip(outs, ins)]
        return _WorkList(works, outs)

    all_gather_single_coalesced = allgather_into_tensor_coalesced

    def gather(self, output_tensors, input_tensors, opts=None, root=None):
        if isinstance(opts, int) and not isinstance(opts, bool):
            opts, root = None, opts
        o = _opts(opts, _options.GatherOptions, rootRank=root)
        if isinstance(input_tensors, _mt.Tensor):  # the (list, tensor, root) overload
            output_tensors = [output_tensors] if self.rank() == o.rootRank else []
        ins = _tensors(input_tensors, "input_tensors")
        name = "ProcessGroupGloo::gather"
        _check_root_rank(self, o.rootRank)
        if len(ins) != 1:
            raise _err(f"{name}: requires a single-element input tensor list")
        me = self.rank()
        outs = None
        if me == o.rootRank:
            lists = _tensor_lists(output_tensors, "output_tensors")
            if len(lists) != 1:
                raise _err(f"{name}: requires a single-element output list")
            if len(lists[0]) != self.size():
                raise _err(f"{name}: Incorrect output list size {len(lists[0])}. Output list "
                           f"size should be {self.size()}")
            _check_type_size(lists[0], ins[0].dtype, ins[0].shape)
            outs = lists[0]
        elif output_tensors:
            raise _err(f"{name}: requires empty output on non-root")
        call = _Call(self, o)
        call("gather", call.stage.outputs(outs) if outs is not None else None,
             call.stage.input(ins[0]), o.rootRank)
        return call.work(outs if outs is not None else [])

    def scatter(self, output_tensors, input_tensors, opts=None, root=None):
        if isinstance(opts, int) and not isinstance(opts, bool):
            opts, root = None, opts
        o = _opts(opts, _options.ScatterOptions, rootRank=root)
        if isinstance(output_tensors, _mt.Tensor):  # the (tensor, list, root) overload
            input_tensors = [input_tensors] if self.rank() == o.rootRank else []
        outs = _tensors(output_tensors, "output_tensors")
        name = "ProcessGroupGloo::scatter"
        _check_root_rank(self, o.rootRank)
        if len(outs) != 1:
            raise _err(f"{name}: requires a single-element output tensor list")
        ins = None
        if self.rank() == o.rootRank:
            lists = _tensor_lists(input_tensors, "input_tensors")
            if len(lists) != 1:
                raise _err(f"{name}: requires a single-element input list")
            if len(lists[0]) != self.size():
                raise _err(f"{name}: Incorrect input list size {len(lists[0])}. Input list size "
                           f"should be {self.size()}")
            _check_type_size(lists[0], outs[0].dtype, outs[0].shape)
            ins = lists[0]
        elif input_tensors:
            raise _err(f"{name}: requires empty input on non-root")
        call = _Call(self, o)
        out = call.stage.output(outs[0])
        call("scatter", out, call.stage.inputs(ins) if ins is not None else None, o.rootRank)
        return call.work(outs)

    def alltoall(self, output_tensors, input_tensors, opts=None):
        outs = _tensors(output_tensors, "output_tensors")
        ins = _tensors(input_tensors, "input_tensors")
        name = "ProcessGroupGloo::alltoall"
        n = self.size()
        if len(ins) != n:
            raise _err(f"{name}: input tensor list size {len(ins)} does not match world size {n}")
        if len(outs) != n:
            raise _err(f"{name}: output tensor list size {len(outs)} does not match world size {n}")
        # one dtype; the sizes may differ from pair to pair (each pair of ranks must agree)
        for i, t in enumerate(ins + outs):
            if t.dtype != ins[0].dtype:
                raise _err(f"{name}: invalid tensor type at index {i % n} (expected "
                           f"{ins[0].dtype}, got {t.dtype})")
        call = _Call(self, opts)
        call("alltoall", call.stage.outputs(outs), call.stage.inputs(ins))
        return call.work(outs)

    def alltoall_base(self, output, input, output_split_sizes, input_split_sizes, opts=None):
        _check_alltoall_input(input)
        call = _Call(self, opts)
        osz = [int(s) for s in output_split_sizes] or None
        isz = [int(s) for s in input_split_sizes] or None
        out = call.stage.output(output)
        call("alltoall_single", out, call.stage.input(input), osz, isz)
        return call.work([output])

    # -------------------------------------------------------------- barrier / p2p

    def barrier(self, opts=None):
        pending = list(self._pending)
        call = _Call(self, opts)
        call("barrier")

        def post():
            # the operations issued before the barrier have run: finish their local steps
            for w in pending:
                w._finish()
        return call.work([], post if pending else None)

    def monitored_barrier(self, timeout=None, wait_all_ranks=False):
        """A barrier through the group's store that names the ranks that did not reach it
        within `timeout` (Note [monitored_barrier] in _monitored_barrier.py)."""
        seq = self._mb_seq
        self._mb_seq += 1
        _monitored_barrier.run(self._store, self.rank(), self.size(), seq,
                               _monitored_barrier.timeout_arg(timeout, self._timeout),
                               self._timeout, wait_all_ranks)

    def send(self, tensors, dstRank, tag=0):
        t = _single(tensors, "send")
        call = _Call(self)
        call("send", call.stage.input(t), dstRank, tag)
        return call.work([t])

    def recv(self, tensors, srcRank, tag=0):
        t = _single(tensors, "recv")
        call = _Call(self)
        call("recv", call.stage.output(t), srcRank, tag)
        return call.work([t])

    def recv_anysource(self, tensors, tag=0):
        return self.recv(tensors, _c10d.ANY_SOURCE, tag)

    # -------------------------------------------------------------- configuration

    def set_timeout(self, timeout):
        """The time each later operation may take (a timedelta)."""
        self._cgroup.set_timeout_ms(_timeout_ms(timeout, "timeout"))
        self._timeout = timeout
        self._options._timeout = timeout

    _set_default_timeout = set_timeout

    @property
    def options(self):
        return self._options

    def split(self, store, ranks, opts=None):
        """A group of the members `ranks` (ranks of this group) over `store`; None for the
        others.  Every member calls it with the same ranks."""
        ranks = [int(r) for r in ranks]
        me = self.rank()
        if me not in ranks:
            return None
        o = _GlooOptions()
        if opts is not None:
            o._timeout = opts._timeout
            o.group_name = opts.group_name
            o._devices = list(opts._devices)
        else:
            o._timeout = self._timeout
        o.global_ranks_in_group = [self._options.global_ranks_in_group[r]
                                   if r < len(self._options.global_ranks_in_group) else r
                                   for r in ranks]
        return ProcessGroupGloo(store, ranks.index(me), len(ranks), o)

    def split_group(self, ranks, timeout=None, opts=None, group_name=None, group_desc=None):
        """A group of `ranks` (ranks of this group, this rank among them) over this group's
        store; None when this rank is not in `ranks`.  The other members call it with the same
        ranks and group_name."""
        ranks = [int(r) for r in ranks]
        if self.rank() not in ranks:
            return None
        if timeout is None and opts is not None:
            timeout = opts._timeout
        o = _GlooOptions()
        o._timeout = _check_timeout(timeout) if timeout is not None else self._timeout
        name = group_name or "split_" + _hashed(ranks)
        o.group_name = name
        return self.split(PrefixStore(f"split/{name}", self._store), ranks, o)


def _hashed(ranks):
    return hashlib.sha1(",".join(map(str, ranks)).encode()).hexdigest()


def _check_timeout(timeout):
    if timeout is None:
        return default_pg_timeout
    if not isinstance(timeout, timedelta):
        raise TypeError("Expected timeout argument to be of type datetime.timedelta, got "
                        f"{type(timeout).__name__}")
    if timeout.total_seconds() <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    return timeout


def _check_alltoall_input(t):
    """gloo's all-to-all reads its input in place: a non-contiguous one is refused (torch's
    ValueError); the output may be any tensor."""
    if not t.is_contiguous():
        raise ValueError("Tensors must be contiguous")


def _single(tensors, what):
    ts = _tensors(tensors)
    if len(ts) != 1:
        raise _err(f"ProcessGroupGloo::{what}: takes a single tensor")
    return ts[0]


