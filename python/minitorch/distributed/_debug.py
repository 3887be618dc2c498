"""MINITORCH_DISTRIBUTED_DEBUG (or TORCH_DISTRIBUTED_DEBUG) = OFF | INFO | DETAIL.

INFO logs every operation (name, bytes, group, time) on the
``minitorch.distributed`` logger.  DETAIL also checks, before each collective,
that every rank of the group calls the same collective with the same
arguments: the ranks all-gather a fixed-size fingerprint (operation, reduce op,
root, dtypes and, where they must agree, shapes) and raise a RuntimeError
naming the ranks that disagree instead of exchanging mismatched data or
waiting for a collective the others never start.
"""
import enum
import hashlib
import logging
import os
import time

import minitorch as _mt

__all__ = ["DebugLevel", "get_debug_level", "set_debug_level", "set_debug_level_from_env"]

_logger = logging.getLogger("minitorch.distributed")

# operations whose tensors may legitimately differ in shape between ranks
_SHAPE_FREE = {"all_to_all", "all_to_all_single", "barrier", "gather", "scatter"}
_FP_BYTES = 256


class DebugLevel(enum.IntEnum):
    """torch.distributed.DebugLevel."""
    OFF = 0
    INFO = 1
    DETAIL = 2

    def __repr__(self):
        return f"<DebugLevel.{self.name}: {int(self)}>"

    def __str__(self):
        return f"DebugLevel.{self.name}"


_level = None


def read_level():
    """Reads the environment (init_process_group calls it once, as torch does)."""
    global _level
    v = os.environ.get("MINITORCH_DISTRIBUTED_DEBUG") or os.environ.get("TORCH_DISTRIBUTED_DEBUG")
    v = (v or "OFF").strip().upper()
    if v not in ("OFF", "INFO", "DETAIL"):
        # torch's words first
        raise ValueError(f"The value of TORCH_DISTRIBUTED_DEBUG must be OFF, INFO, or DETAIL, got "
                         f"{v!r} (MINITORCH_DISTRIBUTED_DEBUG, when set, is read instead).")
    _level = v
    return v


def level():
    return _level if _level is not None else read_level()


def get_debug_level():
    """The debug level (DebugLevel), as torch.distributed.get_debug_level."""
    return DebugLevel[level()]


def set_debug_level(lvl):
    global _level
    if not isinstance(lvl, DebugLevel):
        raise TypeError("set_debug_level(): incompatible function arguments: expected a "
                        f"DebugLevel, got {type(lvl).__name__}")
    _level = lvl.name


def set_debug_level_from_env():
    """Sets the debug level from MINITORCH_DISTRIBUTED_DEBUG (or TORCH_DISTRIBUTED_DEBUG)."""
    read_level()


def _describe(tensors):
    return ", ".join(f"{str(t.dtype).split('.')[-1]}{list(t.shape)}" for t in tensors)


def _fingerprint(op, tensors, extra):
    dtypes = ",".join(str(t.dtype).split(".")[-1] for t in tensors)
    fp = f"{op}({extra}) dtypes=[{dtypes}]"
    if op not in _SHAPE_FREE:
        fp += " shapes=" + ",".join(str(list(t.shape)) for t in tensors)
    return fp


def _check(op, pg, tensors, extra):
    # through the group's CPU backend itself: the check is no operation of the group's own
    # (it is not counted); a group that is its own backend (a user-defined one) has none
    backend = getattr(pg, "_backends", {}).get("cpu")
    if backend is None:
        return
    fp = _fingerprint(op, tensors, extra)
    raw = fp.encode()
    if len(raw) > _FP_BYTES:
        digest = hashlib.sha1(raw).hexdigest()
        raw = raw[:_FP_BYTES - 44] + b"...#" + digest.encode()
    buf = _mt.zeros(_FP_BYTES, dtype=_mt.uint8)
    if raw:
        buf[:len(raw)] = _mt.tensor(list(raw), dtype=_mt.uint8)
    outs = [_mt.zeros(_FP_BYTES, dtype=_mt.uint8) for _ in range(pg.size())]
    backend.allgather([outs], [buf]).wait()
    fps = [o.numpy().tobytes().rstrip(b"\0").decode(errors="replace") for o in outs]
    bad = [r for r in range(pg.size()) if fps[r] != fps[0]]
    if bad:
        me = pg.rank()
        lines = [f"Detected mismatch between collectives on ranks of group {pg._name!r}: "
                 f"rank {pg._ranks[0]} is running collective {fps[0]}"]
        for r in bad:
            lines.append(f"but rank {pg._ranks[r]} is running collective {fps[r]}")
        raise RuntimeError(", ".join(lines) + f" (seen on rank {pg._ranks[me]}; "
                           "MINITORCH_DISTRIBUTED_DEBUG=DETAIL)")


def before(op, pg, tensors, extra="", collective=True):
    """Runs the DETAIL check and returns what log_done needs (None when OFF)."""
    lvl = level()
    if lvl == "OFF":
        return None
    if callable(extra):
        extra = extra()
    if lvl == "DETAIL" and collective:
        _check(op, pg, tensors, extra)
    nbytes = sum(t.numel() * t.element_size() for t in tensors)
    return (op, pg._name, pg.rank(), nbytes, _describe(tensors), extra, time.perf_counter())


def log_done(info):
    op, gname, rank, nbytes, desc, extra, t0 = info
    ms = (time.perf_counter() - t0) * 1e3
    _logger.info("[rank %d] %s group=%s %s bytes=%d tensors=[%s] took %.3f ms", rank, op, gname,
                 extra, nbytes, desc, ms)


def log_event(what, pg, detail):
    if level() != "OFF":
        _logger.info("[rank %d] %s group=%s %s", pg.rank(), what, pg._name, detail)
