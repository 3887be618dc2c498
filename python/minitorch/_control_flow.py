"""torch.cond and torch.while_loop, run eagerly (what torch does outside its compiler): the
branch or the loop body is called as Python, so gradients flow through the one taken."""
from . import _C


def _pred_value(pred, what):
    if isinstance(pred, _C.TensorBase):
        if pred.numel() != 1:
            raise RuntimeError(f"Expected {what} to be bool or single-element tensor, but got "
                               f"{pred}.")
        return bool(pred.item())
    if isinstance(pred, (bool, int)):
        return bool(pred)
    raise RuntimeError(f"Expected {what} to be bool or tensor, but got {type(pred).__name__}")


def cond(pred, true_fn, false_fn, operands=(), *args):
    """true_fn(*operands) if pred else false_fn(*operands); pred a bool or a one-element
    tensor."""
    if args:
        raise TypeError("cond() takes from 3 to 4 positional arguments")
    if not isinstance(operands, (tuple, list)):
        raise RuntimeError(f"Expect operands to be a tuple of tensors, but got {operands}")
    if not callable(true_fn) or not callable(false_fn):
        raise RuntimeError("Expect both branches to be callable.")
    fn = true_fn if _pred_value(pred, "pred") else false_fn
    return fn(*operands)


def while_loop(cond_fn, body_fn, carried_inputs):
    """Runs carried = body_fn(*carried) while cond_fn(*carried) holds; returns the carried
    values (a tuple)."""
    if not isinstance(carried_inputs, (tuple, list)):
        raise RuntimeError(f"carried_inputs must be a tuple or list, got "
                           f"{type(carried_inputs).__name__}")
    carried = tuple(carried_inputs)
    while _pred_value(cond_fn(*carried), "cond_fn's output"):
        out = body_fn(*carried)
        carried = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        if len(carried) != len(carried_inputs):
            raise RuntimeError(f"body_fn should return as many values as carried_inputs "
                               f"({len(carried_inputs)}), got {len(carried)}")
    return carried
