"""ft.DistributedDataParallel: a module whose gradients are averaged over the Manager's quorum.

After backward (a callback queued on the engine when the first gradient is accumulated), the
gradients of the parameters that require one are copied into one flat buffer per dtype (a
parameter without a gradient contributes zeros and gets the average too), the first buffer
carrying the commit vote as one more element (Note [Fault-tolerant steps] in manager.py), and
the buffers are summed over the quorum and divided by the number of participants.  When the
all-reduce fails (a peer died), the gradients are left as they are and the step does not
commit (Optimizer.step skips the update); the next zero_grad re-forms the quorum.
"""
import minitorch as _mt

from ... import _C
from ...nn.modules.module import Module

__all__ = ["DistributedDataParallel"]


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
        self._ft_params = [p for p in module.parameters() if p.requires_grad]
        if not self._ft_params:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't "
                               "have any parameter that requires a gradient.")
        self._ft_queued = False
        self._ft_handles = [p.register_post_accumulate_grad_hook(self._ft_hook)
                            for p in self._ft_params]

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def _ft_hook(self, p):
        if not self._ft_queued:
            self._ft_queued = True
            _C._queue_callback(self._ft_reduce)

    def _ft_reduce(self):
        self._ft_queued = False
        m = self._manager
        by_dtype = {}
        for p in self._ft_params:
            by_dtype.setdefault(p.dtype, []).append(p)
        prev = _C._set_grad_enabled(False)
        try:
            works = []
            for i, (dtype, ps) in enumerate(by_dtype.items()):
                parts = [p.grad.reshape(-1) if p.grad is not None
                         else _mt.zeros(p.numel(), dtype=dtype) for p in ps]
                if i == 0:
                    parts.append(_mt.tensor([m._local_vote()], dtype=dtype))
                flat = _C.cat(parts)
                works.append(m.allreduce(flat, _on_done=self._ft_writer(ps, i == 0)))
            for w in works:
                w.wait()
        finally:
            _C._set_grad_enabled(prev)

    def _ft_writer(self, ps, voted):
        m = self._manager

        def write(flat):
            n = m.num_participants()
            if voted:
                m._record_vote(float(flat[-1].item()))
            prev = _C._set_grad_enabled(False)
            try:
                flat.div_(n)
                off = 0
                for p in ps:
                    k = p.numel()
                    avg = flat.narrow(0, off, k).view(p.shape)
                    if p.grad is None:
                        p.grad = avg.clone()
                    else:
                        p.grad.copy_(avg)
                    off += k
            finally:
                _C._set_grad_enabled(prev)
        return write

    def __getstate__(self):
        raise RuntimeError("DistributedDataParallel is not picklable: save .module instead")
