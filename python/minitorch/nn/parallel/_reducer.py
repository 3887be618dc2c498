"""The reducer of DistributedDataParallel: buckets of gradients all-reduced while backward runs.

Note [Gradient buckets]
Parameters are put in buckets in reverse registration order (backward meets the last layers
first), split by dtype, each bucket up to bucket_cap bytes (the first one smaller, so that
communication starts early).  Each bucket has one flat buffer.  When autograd has accumulated
a parameter's gradient (a post-accumulate-grad hook), the gradient is copied into its slice of
the bucket; when every parameter of a bucket is in, the bucket's all-reduce (AVG) is started
asynchronously — in bucket order on every rank, so ranks never disagree on which collective
comes next — and backward goes on computing the next gradients while the bytes travel.  When
backward ends (a callback queued on the engine), the reducer waits for the outstanding
all-reduces and copies the averages back into the parameters' .grad.  With
find_unused_parameters, parameters that the forward did not reach are marked ready at once
(contributing zeros), and a bitmap all-reduce tells which of them another rank did use: those
get the averaged gradient, the others keep grad None, as torch.

Note [Communication hooks]
With a hook registered (DistributedDataParallel.register_comm_hook), a ready bucket is handed
to hook(state, GradBucket) instead of the AVG all-reduce: the bucket's buffer holds this rank's
gradients, and the hook returns a Future whose value (a tensor, or a list of one, of the
buffer's size) is what the gradients become; averaging is the hook's business, as in torch
(default_hooks.allreduce_hook divides by the group size, then sums).  Hooks run in bucket order
on every rank, while backward runs; the reducer waits for their futures when backward ends."""
from ...futures import Future as _Future
from ... import _C
from ...distributed import distributed_c10d as _c10d

_FIRST_BUCKET_BYTES = 1024 * 1024


class _Bucket:
    __slots__ = ("params", "offsets", "buffer", "pending", "work", "index")


def _hook_result(bucket, value):
    """The tensor a hook's future gave for a bucket, checked."""
    if isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    if not isinstance(value, _C.TensorBase) or value.numel() != bucket.buffer.numel():
        raise RuntimeError(f"the communication hook's future for bucket {bucket.index} gave "
                           f"{type(value).__name__}"
                           + (f" of {value.numel()} elements" if isinstance(value, _C.TensorBase)
                              else "")
                           + f"; expected a tensor of the bucket's {bucket.buffer.numel()} "
                           "elements (or a list of one)")
    return value


class Reducer:
    def __init__(self, params, process_group, bucket_cap_bytes, find_unused):
        self.params = list(params)
        self.group = process_group
        self.find_unused = find_unused
        self.world = _c10d.get_world_size(process_group)
        self.buckets = self._make_buckets(bucket_cap_bytes)
        self.where = {}                  # id(param) -> (bucket, its index in the bucket)
        for b in self.buckets:
            for i, p in enumerate(b.params):
                self.where[id(p)] = (b, i)
        self.index = {id(p): i for i, p in enumerate(self.params)}
        self.handles = [p.register_post_accumulate_grad_hook(self._hook) for p in self.params]
        self.expect_backward = False
        self.sync = True
        self.unused = set()
        self.error = None
        self.comm_hook = None            # (state, hook): Note [Communication hooks]
        self._reset()

    def _make_buckets(self, cap):
        buckets, current = [], {}
        limit = min(cap, _FIRST_BUCKET_BYTES)
        for p in reversed(self.params):
            key = (p.dtype, p.device)      # a bucket's buffer lives on its parameters' device
            b = current.get(key)
            nbytes = p.numel() * p.element_size()
            if b is None or (b[1] + nbytes > limit and b[0]):
                if b is not None and b[0]:
                    buckets.append((key, b[0]))
                    limit = cap
                b = current[key] = [[], 0]
            b[0].append(p)
            b[1] += nbytes
        for key, b in current.items():
            if b[0]:
                buckets.append((key, b[0]))
        out = []
        for i, ((dtype, device), ps) in enumerate(buckets):
            bk = _Bucket()
            bk.index = i
            bk.params = ps
            bk.offsets, n = [], 0
            for p in ps:
                bk.offsets.append(n)
                n += p.numel()
            bk.buffer = _C.zeros((n,), dtype=dtype, device=device)
            out.append(bk)
        return out

    def bucket_sizes(self):
        return [b.buffer.numel() * b.buffer.element_size() for b in self.buckets]

    def _reset(self):
        for b in self.buckets:
            b.pending = len(b.params)
            b.work = None
        self.next_launch = 0
        self.ready = [False] * len(self.buckets)
        self.used = set()
        self.queued = False

    def prepare_for_backward(self, outputs):
        """Called by forward when a backward will follow: resets the buckets and, with
        find_unused_parameters, finds the parameters the outputs do not depend on."""
        if self.expect_backward and self.error is None and any(
                b.pending != len(b.params) for b in self.buckets):
            self.error = ("Expected to have finished reduction in the prior iteration before "
                          "starting a new one. This error indicates that your module has "
                          "parameters that were not used in producing loss. You can enable "
                          "unused parameter detection by passing the keyword argument "
                          "`find_unused_parameters=True` to "
                          "`torch.nn.parallel.DistributedDataParallel`, and by making sure all "
                          "`forward` function outputs participate in calculating loss.")
        if self.error is not None:
            raise RuntimeError(self.error)
        self._reset()
        self.expect_backward = True
        self.unused = set()
        if self.find_unused:
            reached = _reachable_leaves(outputs)
            self.unused = {id(p) for p in self.params if p.requires_grad and id(p) not in reached}

    def _hook(self, p):
        if not self.sync or not self.expect_backward:
            return
        if not self.queued:
            _C._queue_callback(self._finalize)
            self.queued = True
            for q in self.params:       # unused ones are ready now (see Note [Gradient buckets])
                if id(q) in self.unused:
                    self._mark(q, None)
        self.used.add(id(p))
        self._mark(p, p.grad)

    def _mark(self, p, grad):
        b, i = self.where[id(p)]
        n = p.numel()
        dst = b.buffer.narrow(0, b.offsets[i], n)
        if grad is None:
            dst.zero_()
        else:
            dst.copy_(grad.reshape(-1))
        b.pending -= 1
        if b.pending == 0:
            self.ready[b.index] = True
            while self.next_launch < len(self.buckets) and self.ready[self.next_launch]:
                bk = self.buckets[self.next_launch]
                bk.work = self._run_hook(bk) if self.comm_hook is not None else \
                    _c10d.all_reduce(bk.buffer, op=_c10d.ReduceOp.AVG, group=self.group,
                                     async_op=True)
                self.next_launch += 1

    def _run_hook(self, bk):
        from ...distributed._grad_bucket import GradBucket
        state, hook = self.comm_hook
        fut = hook(state, GradBucket(bk.index, bk.buffer, bk.params, bk.offsets,
                                     bk.index == len(self.buckets) - 1))
        if not isinstance(fut, _Future):
            raise TypeError("a communication hook must return a minitorch.futures.Future "
                            f"(of the bucket's tensor), not {type(fut).__name__}")
        return fut

    def _finalize(self):
        """End of backward: wait for the all-reduces, write the averages into .grad."""
        self.expect_backward = False
        if self.next_launch < len(self.buckets):
            missing = [i for i, p in enumerate(self.params)
                       if p.requires_grad and id(p) not in self.used and id(p) not in self.unused]
            self.error = (
                "Expected to have finished reduction in the prior iteration before starting a "
                "new one. This error indicates that your module has parameters that were not "
                "used in producing loss. You can enable unused parameter detection by passing "
                "the keyword argument `find_unused_parameters=True` to "
                "`torch.nn.parallel.DistributedDataParallel`, and by making sure all `forward` "
                "function outputs participate in calculating loss. Parameter indices which did "
                f"not receive grad for rank {_c10d.get_rank(self.group)}: "
                + " ".join(map(str, missing)))
            self._reset()
            return
        globally_used = None
        if self.unused:
            # on the parameters' device: a group of CUDA tensors may have no CPU backend (NCCL)
            bitmap = _C.tensor([0.0 if id(p) in self.unused else 1.0 for p in self.params],
                               device=self.params[0].device)
            _c10d.all_reduce(bitmap, group=self.group)
            globally_used = bitmap.tolist()
        results = {}
        for b in self.buckets:
            r = b.work.wait()
            if self.comm_hook is not None:
                results[b.index] = _hook_result(b, r)
        prev = _C._set_grad_enabled(False)
        try:
            for b in self.buckets:
                r = results.get(b.index)
                if r is not None and r is not b.buffer:
                    b.buffer.copy_(r.reshape(-1))
                for p, off in zip(b.params, b.offsets):
                    avg = b.buffer.narrow(0, off, p.numel()).view(p.shape)
                    if p.grad is not None:
                        p.grad.copy_(avg)
                    elif globally_used is not None and globally_used[self.index[id(p)]] > 0:
                        p.grad = avg.clone()
        finally:
            _C._set_grad_enabled(prev)
        self._reset()

    def remove(self):
        for h in self.handles:
            h.remove()


def _reachable_leaves(outputs):
    """ids of the leaf tensors the outputs' graphs reach."""
    seen, leaves, stack = set(), set(), []
    for o in _tensors_in(outputs):
        if o.grad_fn is not None:
            stack.append(o.grad_fn)
        elif o.requires_grad:
            leaves.add(id(o))
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        for nxt, _ in n.next_functions:
            if nxt is None:
                continue
            if type(nxt).__name__ == "AccumulateGrad":
                leaves.add(id(nxt.variable))
            else:
                stack.append(nxt)
    return leaves


def _tensors_in(obj):
    if isinstance(obj, _C.TensorBase):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from _tensors_in(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from _tensors_in(x)
