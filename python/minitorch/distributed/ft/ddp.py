"""ft.DistributedDataParallel: a module whose gradients are averaged over the Manager's quorum.

As nn.parallel's (Note [Gradient buckets] in nn/parallel/_reducer.py): the parameters are put
in buckets (reverse registration order, by dtype, the first bucket up to 1 MiB, the others up
to 25 MiB), each with one flat buffer; when autograd has accumulated a parameter's gradient it
is copied into its bucket, and a full bucket's sum over the quorum is started
(Manager.allreduce), in bucket order, while backward goes on.  The last bucket carries one
more element, the commit vote (Note [Fault-tolerant steps] in manager.py).  When backward
ends, the buckets not started yet (parameters that got no gradient contribute zeros) are
started, all are waited for, divided by the number of participants and copied into .grad
(every parameter that requires a gradient gets the average).  When an all-reduce fails (a
peer died), the gradients are left as they are and the step does not commit (Optimizer.step
skips the update); the next zero_grad re-forms the quorum.
"""
import minitorch as _mt

from ... import _C
from ...nn.modules.module import Module
from ...nn.parallel._reducer import group_into_buckets

__all__ = ["DistributedDataParallel"]

_BUCKET_BYTES = 25 << 20


class _Bucket:
    __slots__ = ("params", "offsets", "buffer", "pending", "work", "index", "marked")


class DistributedDataParallel(Module):
    """``DistributedDataParallel(manager, module)``: forward is the module's; backward ends
    with the gradients averaged over the quorum of `manager`.  State comes from the
    manager's healing (Note [Fault-tolerant steps]), not from a broadcast at construction."""

    def __init__(self, manager, module, **kwargs):
        super().__init__()
        if kwargs:
            raise NotImplementedError(
                "ft.DistributedDataParallel takes only (manager, module); options of "
                f"nn.parallel.DistributedDataParallel ({', '.join(sorted(kwargs))}) are not "
                "implemented here")
        self.module = module
        object.__setattr__(self, "_manager", manager)
        params = [p for p in module.parameters() if p.requires_grad]
        if not params:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't "
                               "have any parameter that requires a gradient.")
        object.__setattr__(self, "_ft_buckets", _make_buckets(params))
        object.__setattr__(self, "_ft_where", {id(p): (b, i) for b in self._ft_buckets
                                               for i, p in enumerate(b.params)})
        self._ft_queued = False
        self._ft_next = 0
        self._ft_handles = [p.register_post_accumulate_grad_hook(self._ft_hook) for p in params]

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def no_sync(self):
        raise NotImplementedError("ft.DistributedDataParallel.no_sync: gradient accumulation "
                                  "across backward calls is not implemented (each backward "
                                  "averages its gradients over the quorum)")

    # ---- backward ---------------------------------------------------------------------
    def _ft_hook(self, p):
        if not self._ft_queued:
            self._ft_queued = True
            self._ft_next = 0
            for b in self._ft_buckets:
                b.pending = len(b.params)
                b.work = None
                b.marked = [False] * len(b.params)
            _C._queue_callback(self._ft_finish)
        b, i = self._ft_where[id(p)]
        if b.marked[i]:
            return
        prev = _C._set_grad_enabled(False)
        try:
            b.buffer.narrow(0, b.offsets[i], p.numel()).copy_(p.grad.reshape(-1))
        finally:
            _C._set_grad_enabled(prev)
        b.marked[i] = True
        b.pending -= 1
        self._ft_launch_ready()

    def _ft_launch_ready(self, force=False):
        bs = self._ft_buckets
        while self._ft_next < len(bs) and (force or bs[self._ft_next].pending == 0):
            b = bs[self._ft_next]
            if b.pending:
                prev = _C._set_grad_enabled(False)
                try:
                    for i, p in enumerate(b.params):
                        if not b.marked[i]:
                            b.buffer.narrow(0, b.offsets[i], p.numel()).zero_()
                finally:
                    _C._set_grad_enabled(prev)
            voted = b.index == len(bs) - 1
            if voted:
                b.buffer[-1] = self._manager._local_vote()
            b.work = self._manager.allreduce(b.buffer, _on_done=self._ft_writer(b, voted))
            self._ft_next += 1

    def _ft_finish(self):
        self._ft_queued = False
        self._ft_launch_ready(force=True)
        for b in self._ft_buckets:
            b.work.wait()

    def _ft_writer(self, b, voted):
        m = self._manager

        def write(flat):
            n = m.num_participants()
            if voted:
                m._record_vote(float(flat[-1].item()))
            prev = _C._set_grad_enabled(False)
            try:
                flat.div_(n)
                for p, off in zip(b.params, b.offsets):
                    avg = flat.narrow(0, off, p.numel()).view(p.shape)
                    if p.grad is None:
                        p.grad = avg.clone()
                    else:
                        p.grad.copy_(avg)
            finally:
                _C._set_grad_enabled(prev)
        return write

    def __getstate__(self):
        raise RuntimeError("DistributedDataParallel is not picklable: save .module instead")


def _make_buckets(params):
    groups = group_into_buckets(params, _BUCKET_BYTES)   # nn.parallel's bucketing
    out = []
    for i, ((dtype, device), ps) in enumerate(groups):
        b = _Bucket()
        b.index, b.params, b.offsets, n = i, ps, [], 0
        for p in ps:
            b.offsets.append(n)
            n += p.numel()
        last = i == len(groups) - 1
        b.buffer = _mt.zeros(n + (1 if last else 0), dtype=dtype, device=device)
        b.pending, b.work, b.marked = len(ps), None, [False] * len(ps)
        out.append(b)
    return out
