"""DistributedDataParallel: data parallel training over minitorch.distributed."""
import contextlib

import minitorch as _mt

from ... import _C
from ...distributed import distributed_c10d as _c10d
from ..modules.module import Module
from ._reducer import Reducer

__all__ = ["DistributedDataParallel"]


class DistributedDataParallel(Module):
    """Wraps a module so that, after backward, every rank's gradients are the average over
    ranks (see Note [Gradient buckets] in _reducer.py).  Parameters and buffers are broadcast
    from rank 0 at construction, so ranks that initialised differently agree.

    ``deterministic=True`` (a minitorch extension): gradients accumulated with ``no_sync()`` and
    averaged over ranks are combined by one pairwise tree over the micro-batch index, so W ranks
    x A accumulation steps give bit-identical results to W' x A' when W*A = W'*A' (powers of
    two); see Note [Deterministic DDP] in _reducer.py for the rules (loss scaling by powers of
    two; .grad under no_sync holds the micro-batch's own gradient)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 init_sync=True, process_group=None, bucket_cap_mb=None,
                 find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False, delay_all_reduce_named_params=None,
                 param_to_hook_all_reduce=None, mixed_precision=None, device_mesh=None, *,
                 deterministic=False):
        super().__init__()
        if not _c10d.is_initialized():
            raise RuntimeError("Default process group has not been initialized, please make sure "
                               "to call init_process_group.")
        params = [p for p in module.parameters() if p.requires_grad]
        if not params and not any(True for _ in module.parameters()):
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have "
                               "any parameter that requires a gradient.")
        if device_ids is not None and len(device_ids) > 1:
            raise ValueError("device_ids can only be None or contain a single element.")
        devices = {p.device for p in module.parameters()}
        self.device_type = next(iter(devices)).type if devices else "cpu"
        if device_ids is not None and (len(devices) > 1 or self.device_type == "cpu"):
            raise ValueError(
                "DistributedDataParallel device_ids and output_device arguments only work with "
                "single-device/multiple-device GPU modules or CPU modules, but got device_ids "
                f"{device_ids}, output_device {output_device}, and module parameters {devices}.")
        self.module = module
        self.device_ids = ([_device_index(d) for d in device_ids] if device_ids is not None
                           else None)
        # inputs are moved to the one device of device_ids before forward, as torch's
        self.device = (_mt.device(self.device_type, self.device_ids[0]) if self.device_ids
                       else (next(iter(devices)) if len(devices) == 1 else None))
        self.output_device = output_device
        self.dim = dim
        self.broadcast_buffers = broadcast_buffers
        self.process_group = process_group if process_group is not None else _c10d._get_default_group()
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        cap = 25 if bucket_cap_mb is None else bucket_cap_mb
        self.bucket_bytes_cap = int(cap * 1024 * 1024)
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        if init_sync:
            self._sync_module_states()
        self.deterministic = bool(deterministic)
        self.reducer = Reducer(params, self.process_group, self.bucket_bytes_cap,
                               find_unused_parameters, self.deterministic)

    # ---- state sync ------------------------------------------------------------------------
    def _coalesced_broadcast(self, tensors):
        """Broadcasts the tensors from rank 0 in one message per dtype."""
        by_dtype = {}
        for t in tensors:
            by_dtype.setdefault(t.dtype, []).append(t)
        with _C_no_grad():
            for dtype, ts in by_dtype.items():
                flat = _C.cat([t.detach().reshape(-1) for t in ts]) if len(ts) > 1 \
                    else ts[0].detach().reshape(-1).clone()
                _c10d.broadcast(flat, src=_c10d.get_global_rank(self.process_group, 0),
                                group=self.process_group)
                off = 0
                for t in ts:
                    n = t.numel()
                    t.detach().copy_(flat.narrow(0, off, n).view(t.shape))
                    off += n

    def _sync_module_states(self):
        states = [p for p in self.module.parameters()] + [b for b in self.module.buffers()]
        if states:
            self._coalesced_broadcast(states)

    # ---- forward / backward ---------------------------------------------------------------
    def forward(self, *inputs, **kwargs):
        if self.broadcast_buffers and self.require_forward_param_sync:
            buffers = list(self.module.buffers())
            if buffers:
                self._coalesced_broadcast(buffers)
        if self.device_ids:
            inputs, kwargs = _to_device(inputs, self.device), _to_device(kwargs, self.device)
        out = self.module(*inputs, **kwargs)
        if _C.is_grad_enabled() and self.require_backward_grad_sync:
            self.reducer.sync = True
            self.reducer.prepare_for_backward(out)
        elif _C.is_grad_enabled() and self.deterministic:
            # under no_sync: the reducer still collects the micro-batch (Note [Deterministic DDP])
            self.reducer.sync = False
            self.reducer.prepare_for_backward(out)
        else:
            self.reducer.sync = False
            self.reducer.expect_backward = False
        return out

    @contextlib.contextmanager
    def no_sync(self):
        """Inside, backward only accumulates local gradients; the first backward outside
        all-reduces the accumulated sum."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old

    def register_comm_hook(self, state, hook):
        """Hands each ready bucket of gradients to ``hook(state, bucket)`` (a
        ``dist.GradBucket``) instead of averaging it; the hook returns a
        ``minitorch.futures.Future`` of the bucket's new gradients (Note [Communication hooks]
        in _reducer.py).  Once per model, as torch."""
        if not callable(hook):
            raise TypeError(f"register_comm_hook: hook must be callable, not {type(hook).__name__}")
        if self.reducer.comm_hook is not None:
            raise RuntimeError("register_comm_hook or register_builtin_comm_hook can only be "
                               "called once.")
        self.reducer.comm_hook = (state, hook)

    def register_builtin_comm_hook(self, comm_hook_type):
        """``dist.BuiltinCommHookType.ALLREDUCE`` or ``FP16_COMPRESS`` on the model's group."""
        from ...distributed._grad_bucket import BuiltinCommHookType
        from ...distributed.algorithms.ddp_comm_hooks import default_hooks
        hooks = {BuiltinCommHookType.ALLREDUCE: default_hooks.allreduce_hook,
                 BuiltinCommHookType.FP16_COMPRESS: default_hooks.fp16_compress_hook}
        if comm_hook_type not in hooks:
            raise ValueError(f"register_builtin_comm_hook: unknown hook type {comm_hook_type!r}")
        self.register_comm_hook(self.process_group, hooks[comm_hook_type])

    def _get_ddp_logging_data(self):
        return {"bucket_sizes": self.reducer.bucket_sizes(), "world_size": self.reducer.world,
                "find_unused_parameters": self.find_unused_parameters}

    def __getstate__(self):
        raise RuntimeError("DistributedDataParallel is not picklable: save .module instead")


def _device_index(d):
    """An entry of device_ids: an int, or a device (its index)."""
    if isinstance(d, int):
        return d
    return _mt.device(d).index if not isinstance(d, _mt.device) else d.index


def _to_device(obj, device):
    """obj with every tensor in it (tuples, lists, dicts, namedtuples) moved to device."""
    if isinstance(obj, _C.TensorBase):
        return obj.to(device)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(_to_device(o, device) for o in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_device(v, device) for k, v in obj.items()}
    return obj


@contextlib.contextmanager
def _C_no_grad():
    prev = _C._set_grad_enabled(False)
    try:
        yield
    finally:
        _C._set_grad_enabled(prev)
