"""ReduceOp, torch's reduction operations of the collectives (SUM ... BXOR, AVG), its enum
RedOpType and the deprecated ``reduce_op`` alias."""
import enum
import warnings

__all__ = ["ReduceOp", "reduce_op"]


class _RedOpType(enum.IntEnum):
    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4
    BAND = 5
    BOR = 6
    BXOR = 7
    PREMUL_SUM = 8

    def __repr__(self):
        return f"<RedOpType.{self.name}: {int(self)}>"

    def __str__(self):
        return f"RedOpType.{self.name}"

    # As torch's enum: equal to its int, not to a ReduceOp object wrapping it (the ReduceOp
    # compares equal to the RedOpType, from its side).
    def __eq__(self, other):
        if type.__instancecheck__(ReduceOp, other):
            return False
        return int.__eq__(self, other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = enum.IntEnum.__hash__


_SUM = _RedOpType.SUM  # the common op, compared by identity on the hot path
_OP_EXTRA = tuple(f"op={o.name}" for o in _RedOpType)  # a reduction's log words, by value


class _ReduceOpMeta(type):
    def __instancecheck__(cls, obj):
        # ReduceOp.SUM is a RedOpType member, and an instance of ReduceOp, as in torch
        return isinstance(obj, _RedOpType) or type.__instancecheck__(cls, obj)


class ReduceOp(metaclass=_ReduceOpMeta):
    """Reduction operations (``ReduceOp.SUM`` ... ``ReduceOp.BXOR``, ``AVG``).

    ``AVG`` works on floating dtypes here (torch's gloo backend rejects it).
    """

    RedOpType = _RedOpType
    SUM = _RedOpType.SUM
    AVG = _RedOpType.AVG
    PRODUCT = _RedOpType.PRODUCT
    MIN = _RedOpType.MIN
    MAX = _RedOpType.MAX
    BAND = _RedOpType.BAND
    BOR = _RedOpType.BOR
    BXOR = _RedOpType.BXOR
    PREMUL_SUM = _RedOpType.PREMUL_SUM

    def __init__(self, op=_RedOpType.SUM):
        self.op = _op_value(op)

    def __eq__(self, other):
        if isinstance(other, _RedOpType) or type.__instancecheck__(ReduceOp, other):
            return int(self.op) == int(other.op if type.__instancecheck__(ReduceOp, other)
                                       else other)
        try:
            return self.op == _op_value(other)
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self):
        return hash(self.op)

    def __int__(self):
        return int(self.op)

    def __repr__(self):
        return f"<ReduceOp.{_RedOpType(self.op).name}>"


class _ReduceOpAlias:
    """The deprecated ``reduce_op`` (use ReduceOp)."""

    def __getattr__(self, name):
        if name in ("SUM", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"):
            warnings.warn("torch.distributed.reduce_op is deprecated, please use "
                          "torch.distributed.ReduceOp instead", FutureWarning, stacklevel=2)
            return getattr(ReduceOp, name)
        raise AttributeError(name)


reduce_op = _ReduceOpAlias()


def _op_value(op):
    if op is _SUM:
        return op
    if isinstance(op, _RedOpType):
        v = op
    elif type.__instancecheck__(ReduceOp, op):
        return op.op
    elif isinstance(op, int) and not isinstance(op, bool):
        try:
            v = _RedOpType(op)
        except ValueError:
            raise ValueError(f"Invalid reduce op {op!r}") from None
    else:
        raise TypeError(f"op must be a torch.distributed.ReduceOp, not {type(op).__name__}")
    if v is _RedOpType.PREMUL_SUM:  # enum members are singletons (and == is a Python call)
        # a PreMulSum needs its factor: only _make_nccl_premul_sum's ReduceOp has one
        raise RuntimeError("ReduceOp.PREMUL_SUM needs a factor: use "
                           "torch.distributed._make_nccl_premul_sum to create an instance of "
                           "ReduceOp with PREMUL_SUM")
    return v


def _as_reduce_op(op, opv):
    """The ReduceOp an options object carries for the user's `op` (value opv): a PreMulSum
    keeps its factor."""
    return op if opv is _RedOpType.PREMUL_SUM else ReduceOp(opv)


def _make_nccl_premul_sum(factor):
    """ReduceOp.PREMUL_SUM with `factor` (a float, or a one-element tensor on the group's
    device): each rank's input is multiplied by the factor before the sum.  NCCL only."""
    from .._tensor import Tensor
    if isinstance(factor, Tensor):
        if factor.numel() != 1:
            raise ValueError(f"the PreMulSum factor must have one element, not {factor.numel()}")
    elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
        factor = float(factor)
    else:
        raise TypeError("_make_nccl_premul_sum(): incompatible function arguments: factor must "
                        f"be a float or a Tensor, not {type(factor).__name__}")
    r = object.__new__(ReduceOp)
    r.op = _RedOpType.PREMUL_SUM
    r._factor = factor
    return r
