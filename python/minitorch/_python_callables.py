"""Tensor.apply_, map_ and map2_: a Python callable applied to each element, in place, on the
CPU (as torch's, for debugging and small tensors: one Python call per element)."""
from . import _C


def _check_cpu(t, fname):
    if t.device.type != "cpu":
        raise TypeError(f"{fname} is only implemented on CPU tensors")
    if t.requires_grad:
        raise RuntimeError(f"Can't call {fname}() on Variable that requires grad. Use "
                           f"var.detach().{fname}() instead.")


def _write(self, values):
    self.copy_(_C.tensor(values, dtype=self.dtype).reshape(self.shape))
    return self


def apply_(self, callable):
    """self[i] = callable(self[i]) for every element (CPU only)."""
    _check_cpu(self, "apply_")
    if self.numel() == 0:
        return self
    return _write(self, [callable(v) for v in self.reshape(-1).tolist()])


def map_(self, tensor, callable):
    """self[i] = callable(self[i], tensor[i]) with tensor broadcast to self's shape."""
    _check_cpu(self, "map_")
    other = tensor.expand(self.shape)
    if self.numel() == 0:
        return self
    return _write(self, [callable(a, b) for a, b in zip(self.reshape(-1).tolist(),
                                                       other.reshape(-1).tolist())])


def map2_(self, x, y, callable):
    """self[i] = callable(self[i], x[i], y[i]) with x and y broadcast to self's shape."""
    _check_cpu(self, "map2_")
    xs, ys = x.expand(self.shape), y.expand(self.shape)
    if self.numel() == 0:
        return self
    return _write(self, [callable(a, b, c) for a, b, c in zip(
        self.reshape(-1).tolist(), xs.reshape(-1).tolist(), ys.reshape(-1).tolist())])
