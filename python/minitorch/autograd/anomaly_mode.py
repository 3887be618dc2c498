"""Anomaly detection for the backward pass: detect_anomaly, set_detect_anomaly (as
torch.autograd.anomaly_mode).

While anomaly mode is on (a process-wide switch, as torch's), every node the forward pass
records keeps the traceback of the call that made it in node.metadata["traceback_"]; in the
backward pass a node that fails is reported with a warning that shows that traceback before
its error propagates, and with check_nan a node whose gradients contain NaN raises.  The C side
(Note [Anomaly mode and node hooks] in csrc/autograd/autograd.h) calls the three functions below;
with anomaly mode off it costs one compare per recorded op."""
import os
import sys
import traceback
import warnings

from .. import _C

__all__ = ["detect_anomaly", "set_detect_anomaly"]

_TRACE_KEY = "traceback_"
_PARENT_KEY = "parent_"
_AUTOGRAD_DIR = os.path.dirname(os.path.abspath(__file__))


def is_anomaly_enabled():
    """Whether anomaly detection is on."""
    return _C._is_anomaly_enabled()


def is_anomaly_check_nan_enabled():
    """Whether anomaly detection looks for NaN in the gradients (True unless turned off)."""
    return _C._is_anomaly_check_nan_enabled()


def set_anomaly_enabled(enabled, check_nan=True):
    """Turns anomaly detection on or off (torch.set_anomaly_enabled)."""
    from . import graph
    enabled, check_nan = bool(enabled), bool(check_nan)
    _C._set_anomaly_enabled(enabled, check_nan)
    graph._remove_node_hook(_store_stack)
    if enabled:
        graph._add_node_hook(_store_stack)


def _store_stack(node):
    """The node hook while anomaly mode is on: the traceback of the forward call, without the
    recorder's own frames (the innermost frames inside minitorch.autograd)."""
    frames = traceback.extract_stack()
    end = len(frames)
    while end > 0 and os.path.dirname(os.path.abspath(frames[end - 1].filename)) == _AUTOGRAD_DIR:
        end -= 1
    node.metadata[_TRACE_KEY] = traceback.format_list(frames[:end])
    # a node recorded while the engine runs another one (a backward with create_graph): that
    # node's name and metadata, so a failure is traced back through the node that made it
    parent = _C._current_autograd_node()
    if parent is not None:
        node.metadata[_PARENT_KEY] = (parent.name(), parent.metadata)


def _report(node, exc):
    """A node failed in a backward pass while anomaly mode is on: warn with the traceback of
    the forward call that made it (the engine raises the error itself)."""
    meta = node.metadata
    stack = meta.get(_TRACE_KEY) if isinstance(meta, dict) else None
    name = node.name()
    if stack is None:
        msg = (f"Error detected in {name}. No forward pass information available. Enable detect "
               "anomaly during forward pass for more information.")
    else:
        msg = (f"Error detected in {name}. Traceback of forward call that caused the error:\n"
               + "".join(stack))
    _warn(msg)
    parent = meta.get(_PARENT_KEY) if isinstance(meta, dict) else None
    while parent is not None:
        name, meta = parent
        stack = meta.get(_TRACE_KEY) if isinstance(meta, dict) else None
        if stack is None:
            break
        _warn(f"\n\nPrevious calculation was induced by {name}. Traceback of forward call that "
              "induced the previous calculation:\n" + "".join(stack))
        parent = meta.get(_PARENT_KEY)


def _warn(msg):
    try:
        # stacklevel 3: the caller of the engine (_report is called from C)
        warnings.warn(msg, UserWarning, stacklevel=3)
    except Warning:
        # a warning filter made it an error: the node's own error propagates and the warning
        # goes to stderr instead (as torch)
        sys.stderr.write(f"UserWarning: {msg}\n")


def _check_nan(node, grads):
    """Raises torch's error when one of the gradients a node computed holds a NaN."""
    prev = _C._set_grad_enabled(False)
    try:
        for i, g in enumerate(grads):
            if isinstance(g, _C.TensorBase) and g.numel() and bool(g.isnan().any()):
                raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                                   "output.")
    finally:
        _C._set_grad_enabled(prev)


_C._set_anomaly_hooks(_report, _check_nan)


class detect_anomaly:
    """Context manager that turns anomaly detection on (see the module's docstring):
    check_nan=True also raises for NaN gradients.  It warns when made, as debugging aid that
    slows every op down."""

    def __init__(self, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """set_detect_anomaly(mode, check_nan=True): turns anomaly detection on or off at once; as a
    context manager, restores the previous setting on exit."""

    def __init__(self, mode, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)
