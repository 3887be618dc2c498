"""Deterministic generation of fuzz calls: case (seed, index) -> (target, args, kwargs).

Every value is drawn from random.Random(seed, index), so a case is reproducible by its two
numbers alone.  Arguments mix ordinary values with hostile ones: huge, negative and overflowing
ints, non-finite floats, wrong types, tensors of every dtype that are 0-d, empty,
non-contiguous, expanded (stride 0) or enormous views, sequences whose items change the
sequence while it is read, objects whose __index__/__float__/__len__ misbehave, and out=
arguments that alias an input."""
import random

import numpy as np

import minitorch as torch

INTS = [0, 1, -1, 2, 3, 7, 64, 65, 2**31 - 1, 2**31, -2**31, 2**32, 2**62, 2**63 - 1, -2**63,
        2**63, 2**64, -2**64, 10**30]
FLOATS = [0.0, -0.0, 1.5, -2.5, 1e308, -1e308, float("inf"), float("-inf"), float("nan"), 5e-324]
STRINGS = ["", "a", "cpu", "cuda", "cuda:0", "meta", "float32", "sum", "mean", "none", "floor",
           "trunc", "linear", "nearest", "fro", "nuc", "ij", "ii->i", "\x00", "é" * 3]
DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]


class EvilIndex:
    """An int whose __index__ empties the list holding it (and returns a small number)."""

    def __init__(self, holder=None, value=1):
        self.holder, self.value = holder, value

    def __index__(self):
        if self.holder is not None:
            self.holder.clear()
        return self.value

    def __repr__(self):
        return f"EvilIndex({self.value})"


class EvilNumber:
    """__float__/__int__/__index__/__bool__ that raise."""

    def __float__(self):
        raise ArithmeticError("fuzz __float__")

    __int__ = __index__ = __bool__ = __float__

    def __repr__(self):
        return "EvilNumber()"


class LyingSeq:
    """A sequence whose __len__ disagrees with __getitem__, and whose items clear `holder`."""

    def __init__(self, n, holder=None):
        self.n, self.holder = n, holder

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.holder is not None:
            self.holder.clear()
        if i >= 2:
            raise IndexError(i)
        return 1.0

    def __repr__(self):
        return f"LyingSeq({self.n})"


class Gen:
    def __init__(self, seed, index):
        self.r = random.Random(seed * 1_000_003 + index)
        self.tensors = []          # tensors made for this case: candidates for aliased out=

    # ---- tensors
    def shape(self, maxd=4):
        return [self.r.choice([0, 1, 1, 2, 3, 4]) for _ in range(self.r.randint(0, maxd))]

    def tensor(self):
        r = self.r
        dt = r.choice(DTYPES)
        k = r.random()
        shape = self.shape()
        base = torch.zeros(shape, dtype=dt)
        if base.numel():
            base.copy_(torch.arange(base.numel()).reshape(shape).to(dt))
        if k < 0.45:
            t = base
        elif k < 0.55:
            t = torch.tensor(r.choice([0, 1, 3, True]), dtype=dt)
        elif k < 0.65 and base.dim() >= 2:
            t = base.transpose(0, 1)
        elif k < 0.72:
            t = torch.zeros(1, dtype=dt).expand(r.choice([3, 5, 2**20, 3, 5, 2**20, 2**62]))
        elif k < 0.78 and base.dim() >= 1:
            t = base.flip(0)
        elif k < 0.84 and base.numel() >= 2:
            t = base.reshape(-1)[::2]
        elif k < 0.90:
            t = torch.zeros(0, dtype=dt).reshape(r.choice([[0], [0, 3], [2, 0, 1]]))
        else:
            n, size, stride = r.randint(1, 8), r.randint(0, 3), r.randint(0, 2)
            room = n - 1 - max(size - 1, 0) * stride
            if room < 0:
                size, room = 1, n - 1
            t = torch.zeros(n, dtype=dt).as_strided([size], [stride], r.randint(0, room))
        self.tensors.append(t)
        return t

    def seq(self):
        r = self.r
        k = r.random()
        n = r.randint(0, 4)
        if k < 0.4:
            return [r.choice(INTS[:8]) for _ in range(n)]
        if k < 0.55:
            return tuple(r.choice(INTS) for _ in range(n))
        if k < 0.65:
            holder = [r.choice([1, 2, 3]) for _ in range(n)]
            holder.insert(r.randint(0, n), EvilIndex(holder, r.choice([0, 1, 2])))
            return holder
        if k < 0.72:
            holder = []
            holder.extend([LyingSeq(r.choice([0, 2, 3, 2**40]), holder) for _ in range(2)])
            return holder
        if k < 0.80:
            return [[1, 2], [3]] if r.random() < 0.5 else [[1.0, 2.0], [3.0, 4.0]]
        if k < 0.88:
            return [self.tensor() for _ in range(n)]
        return [self.value(depth=1) for _ in range(n)]

    def value(self, depth=0):
        r = self.r
        k = r.random()
        if k < 0.30:
            return self.tensor()
        if k < 0.50:
            return r.choice(INTS)
        if k < 0.58:
            return r.choice(FLOATS)
        if k < 0.63:
            return r.choice([True, False, None])
        if k < 0.68:
            return r.choice(STRINGS)
        if k < 0.74:
            return r.choice(DTYPES)
        if k < 0.84 and depth == 0:
            return self.seq()
        if k < 0.88:
            return np.zeros(self.shape(3), dtype=r.choice([np.float32, np.int64, np.bool_,
                                                           np.float64, np.uint16]))
        if k < 0.91:
            return slice(r.choice([None, 0, 1, -1, 2**63]), r.choice([None, 2, -2**63]),
                         r.choice([None, 1, 2, 2**62]))
        if k < 0.93:
            return Ellipsis
        if k < 0.96:
            return EvilIndex(None, r.choice([0, 1, 2**63 - 1]))
        if k < 0.98:
            return EvilNumber()
        return r.choice([torch.device("cpu"), object(), b"bytes", 1j, {}])

    def kwargs(self, args):
        r = self.r
        kw = {}
        for name, p in (("out", 0.12), ("dim", 0.12), ("dtype", 0.08), ("keepdim", 0.05)):
            if r.random() < p:
                if name == "out" and self.tensors and r.random() < 0.5:
                    kw[name] = r.choice(self.tensors)       # aliases an input
                elif name == "out" and r.random() < 0.3:
                    t = self.tensor()
                    kw[name] = (t, t)                       # one tensor for both outputs
                else:
                    kw[name] = self.value()
        return kw


def make_case(targets, seed, index):
    """(name, callable, args, kwargs) of case (seed, index)."""
    g = Gen(seed, index)
    name, kind = targets[g.r.randrange(len(targets))]
    fn = resolve(name)
    args = []
    if kind == "method":
        args.append(g.tensor())
    elif kind == "storage":
        args.append(g.tensor().untyped_storage())
    for _ in range(g.r.choice([0, 1, 1, 2, 2, 3, 4])):
        args.append(g.value())
    kwargs = g.kwargs(args) if g.r.random() < 0.35 else {}
    return name, fn, args, kwargs


def resolve(name):
    import minitorch.distributed as dist  # noqa: F401 (resolves names under it)
    obj = torch
    parts = name.split(".")
    if parts[0] == "distributed":
        obj, parts = dist, parts[1:]
    for p in parts:
        obj = getattr(obj, p)
    return obj


def describe(v, depth=0):
    """A short, unambiguous text of a generated value for reproducer reports."""
    if isinstance(v, torch.Tensor):
        return (f"<tensor shape={tuple(v.shape)} stride={v.stride()} offset={v.storage_offset()} "
                f"dtype={v.dtype}>")
    if isinstance(v, (list, tuple)) and depth < 2:
        inner = ", ".join(describe(x, depth + 1) for x in v)
        return f"[{inner}]" if isinstance(v, list) else f"({inner},)"
    if isinstance(v, np.ndarray):
        return f"<ndarray shape={v.shape} dtype={v.dtype}>"
    return repr(v)[:200]
