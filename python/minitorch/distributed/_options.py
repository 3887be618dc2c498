"""torch's collective option objects (AllreduceOptions, BroadcastOptions, ...), taken by the
ProcessGroup methods (``pg.allreduce(tensors, opts)``)."""
from datetime import timedelta

from ._reduce_op import ReduceOp

__all__ = ["AllreduceOptions", "AllreduceCoalescedOptions", "BroadcastOptions", "AllgatherOptions",
           "GatherOptions", "ScatterOptions", "ReduceOptions", "ReduceScatterOptions",
           "AllToAllOptions", "BarrierOptions"]

# torch's "no timeout given" value: the group's own timeout applies
_UNSET_TIMEOUT = timedelta(milliseconds=-1)


class _Options:
    _fields = {}

    def __init__(self):
        self.asyncOp = True
        self.timeout = _UNSET_TIMEOUT
        for name, default in self._fields.items():
            if default == "reduceOp":
                default = ReduceOp(ReduceOp.SUM)
            setattr(self, name, list(default) if isinstance(default, list) else default)

    def __repr__(self):
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in ("asyncOp", "timeout", *self._fields))
        return f"{type(self).__name__}({fields})"


class AllreduceOptions(_Options):
    _fields = {"reduceOp": "reduceOp"}


class AllreduceCoalescedOptions(AllreduceOptions):
    pass


class BroadcastOptions(_Options):
    _fields = {"rootRank": 0, "rootTensor": 0}


class AllgatherOptions(_Options):
    pass


class GatherOptions(_Options):
    _fields = {"rootRank": 0}


class ScatterOptions(_Options):
    _fields = {"rootRank": 0}


class ReduceOptions(_Options):
    _fields = {"reduceOp": "reduceOp", "rootRank": 0, "rootTensor": 0}


class ReduceScatterOptions(_Options):
    _fields = {"reduceOp": "reduceOp"}


class AllToAllOptions(_Options):
    pass


class BarrierOptions(_Options):
    _fields = {"device_ids": [], "device": None}
