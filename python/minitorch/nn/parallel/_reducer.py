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
on every rank, while backward runs; the reducer waits for their futures when backward ends.

Note [Deterministic DDP]
DistributedDataParallel(..., deterministic=True) (beyond torch) makes the gradients of a step a
function of the global batch and of how it is cut into micro-batches only, not of how the
micro-batches are spread over ranks: W ranks x A accumulation steps (rank r holding micro-batches
r*A .. r*A + A - 1, the ones before the last under no_sync()) give bit-identical gradients, hence
weights, to W' x A' whenever W*A = W'*A', W, A, W', A' powers of two.  Every gradient element is
the balanced pairwise tree over the micro-batch index i = r*A + a of the micro-batches'
gradients g_i: inside a rank the tree over its A micro-batches, across ranks the all-reduce's
tree over rank index (Note [Fixed reduction order] in csrc/distributed/algorithms/reduce_tree.c,
a balanced tree when W is a power of two); the tree over W subtrees of A leaves is the tree over
W*A leaves.  The CPU backend always reduces in that order; a bucket on a CUDA device goes to the
device backend's deterministic all-reduce (NCCL's: Note [The NCCL backend]), which combines in
the same order, so the weights equal the CPU backend's bit for bit.
- Inside a rank, autograd's own accumulation (.grad += g, a left fold) is not used: the forward
  of each micro-batch after the first sets .grad to None, so backward produces g_i alone, and
  the reducer pushes it on the parameter's binary-counter stack (level j holds the sum of 2^j
  consecutive micro-batches; pushing micro-batch k combines it with the levels of k's trailing
  one bits, older + newer, like incrementing a counter).  The stack holds the gradient tensors
  themselves (no copy; sums are new tensors, never written into a gradient autograd made).
  The last micro-batch's backward (outside no_sync) combines each gradient with the stack as
  it becomes ready and puts the rank's sum in the bucket, whose all-reduce starts at once, as
  without determinism.  So after a backward under no_sync, .grad holds that micro-batch's
  gradient, not the running sum.
  A parameter a micro-batch did not reach contributes zeros.  With A not a power of two the
  levels left on the stack are combined lowest first (still deterministic, but not the same
  tree as another split).
- Scaling: the all-reduce averages (divides the tree's sum by W); scale each micro-batch's
  loss by 1/A (or any power of two) so that the step's gradient is the mean over the W*A
  micro-batches.  Multiplying by a power of two is exact in binary floating point (barring
  overflow or results below the smallest normal number), so it commutes with every rounding:
  where the 1/A and 1/W are applied does not change a bit.  Other factors (1/3, a loss scaler's
  non-power-of-two scale) break the equality across splits, not the determinism of one split.
The cost: A - 1 adds per element per step, as autograd's accumulation, and up to log2(A) + 1
gradients held per parameter; with A = 1 the path is plain DDP's."""
from ...futures import Future as _Future
from ... import _C
from ...distributed import distributed_c10d as _c10d

_FIRST_BUCKET_BYTES = 1024 * 1024



def group_into_buckets(params, cap):
    """DDP's bucketing: ((dtype, device), parameters) groups in reverse registration order (the
    order backward produces gradients), a small first bucket (min(cap, 1 MiB)) then buckets of
    at most `cap` bytes, one parameter alone when it is larger; a bucket's buffer lives on its
    parameters' device and has their dtype."""
    buckets, current = [], {}
    limit = min(cap, _FIRST_BUCKET_BYTES)
    for p in reversed(params):
        key = (p.dtype, p.device)
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
    return buckets

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
    def __init__(self, params, process_group, bucket_cap_bytes, find_unused, deterministic=False):
        self.params = list(params)
        self.deterministic = deterministic  # Note [Deterministic DDP]
        self.micro = 0                      # micro-batches on the stacks
        self.stacks = {}                    # id(param) -> [sum of 2^j micro-batches, or None]
        self.pushed = set()
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
        out = []
        for i, ((dtype, device), ps) in enumerate(group_into_buckets(self.params, cap)):
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
        if self.deterministic and self.micro:
            for p in self.params:      # backward makes this micro-batch's gradient alone
                p.grad = None
        self.expect_backward = True
        self.unused = set()
        if self.find_unused:
            reached = _reachable_leaves(outputs)
            self.unused = {id(p) for p in self.params if p.requires_grad and id(p) not in reached}

    def _hook(self, p):
        if not self.expect_backward:
            return
        if not self.sync:
            if self.deterministic:      # Note [Deterministic DDP]
                if not self.queued:
                    _C._queue_callback(self._finalize_local)
                    self.queued = True
                self._push(p, p.grad)
            return
        if not self.queued:
            _C._queue_callback(self._finalize)
            self.queued = True
            for q in self.params:       # unused ones are ready now (see Note [Gradient buckets])
                if id(q) in self.unused:
                    self._mark(q, None)
        self.used.add(id(p))
        self._mark(p, p.grad)

    def _push(self, p, grad, final=False):
        """Note [Deterministic DDP]: micro-batch self.micro's gradient of p (None: zeros) onto
        p's stack; with final, returns the rank's sum of every micro-batch (None: zeros)."""
        st = self.stacks.setdefault(id(p), [])
        k, cur, j = self.micro, grad, 0
        while k >> j & 1:               # carry: the older partial sum + the newer one
            cur = _add(st[j], cur)
            st[j] = None
            j += 1
        if final:
            for jj in range(j + 1, k.bit_length()):  # left over when k + 1 is no power of two
                if k >> jj & 1:
                    cur = _add(st[jj], cur)
            return cur
        while len(st) <= j:
            st.append(None)
        st[j] = cur                     # a reference: .grad is set to None before the next backward
        self.pushed.add(id(p))
        return None

    def _finalize_local(self):
        """End of a backward under no_sync (deterministic): parameters it did not reach push
        zeros; one more micro-batch is on the stack."""
        self.expect_backward = False
        self.queued = False
        prev = _C._set_grad_enabled(False)
        try:
            for p in self.params:
                if id(p) not in self.pushed:
                    self._push(p, None)
        finally:
            _C._set_grad_enabled(prev)
        self.pushed = set()
        self.micro += 1

    def _mark(self, p, grad):
        b, i = self.where[id(p)]
        n = p.numel()
        dst = b.buffer.narrow(0, b.offsets[i], n)
        if self.deterministic and self.micro:
            grad = self._push(p, grad, final=True)
        if grad is None:
            dst.zero_()
        else:
            dst.copy_(grad.reshape(-1))
        b.pending -= 1
        if b.pending == 0:
            self.ready[b.index] = True
            while self.next_launch < len(self.buckets) and self.ready[self.next_launch]:
                bk = self.buckets[self.next_launch]
                if self.comm_hook is not None:
                    bk.work = self._run_hook(bk)
                elif self.deterministic and bk.buffer.is_cuda:
                    bk.work = self._fixed_order_allreduce(bk.buffer)
                else:
                    bk.work = _c10d.all_reduce(bk.buffer, op=_c10d.ReduceOp.AVG,
                                               group=self.group, async_op=True)
                self.next_launch += 1

    def _fixed_order_allreduce(self, buffer):
        """The bucket's AVG all-reduce in the CPU backend's fixed order on a device backend
        (NCCL's deterministic all-reduce, Note [The NCCL backend]): the CPU backend always
        reduces in that order."""
        from ...distributed._options import AllreduceOptions
        pg = self.group if self.group is not None else _c10d._get_default_group()
        o = AllreduceOptions()
        o.reduceOp = _c10d.ReduceOp(_c10d.ReduceOp.AVG)
        o.deterministic = True
        return pg.allreduce([buffer], o)

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
        self.micro = 0
        self.stacks = {}
        self._reset()

    def remove(self):
        for h in self.handles:
            h.remove()


def _add(older, newer):
    """older + newer (None: zeros), a new tensor: the operands may be gradients autograd made."""
    if older is None:
        return newer
    if newer is None:
        return older
    return older + newer


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
