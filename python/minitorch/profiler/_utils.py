"""Helpers of torch.profiler._utils: walking event trees."""
import collections
import functools

__all__ = ["traverse_dfs", "traverse_bfs", "index_of_first_match"]


def _traverse(tree, next_fn, children_fn=lambda x: x.children, reverse=False):
    """Yields the events of `tree` (a list of roots) and their descendants: next_fn takes the
    next one from the pending deque (pop: depth first; popleft: breadth first)."""
    order = reversed if reverse else (lambda x: x)
    pending = collections.deque(order(tree))
    while pending:
        event = next_fn(pending)
        yield event
        pending.extend(order(children_fn(event)))


traverse_dfs = functools.partial(_traverse, next_fn=lambda x: x.pop(), reverse=True)
traverse_bfs = functools.partial(_traverse, next_fn=lambda x: x.popleft(), reverse=False)


def index_of_first_match(seq, predicate, start=0, end=None):
    """The first index in seq[start:end] whose item satisfies predicate, or None."""
    if end is None or end >= len(seq):
        end = len(seq)
    for i in range(start, end):
        if predicate(seq[i]):
            return i
    return None


def _init_for_cuda_graphs():
    """torch's workaround for CUDA graphs under CUPTI: one empty profiling session."""
    from ..autograd.profiler import profile
    with profile():
        pass
