"""The ``Optimizer`` base class, as ``torch.optim.Optimizer``.

An optimizer holds its parameters in ``param_groups`` (a list of dicts: ``"params"`` plus the
group's options, filled from ``defaults``) and its per-parameter buffers in ``state`` (a
``defaultdict(dict)`` keyed by the parameter tensor).  ``state_dict()`` writes both in torch's
layout, with the parameters replaced by their index in group order, so checkpoints move between
minitorch and torch scripts unchanged."""
import functools
import warnings
from collections import OrderedDict, defaultdict
from copy import deepcopy
from itertools import chain

import minitorch
from minitorch import Tensor
from minitorch.autograd import _profiler_collection as _profiling
from minitorch.autograd.profiler import record_function as _record_function
from minitorch.utils.hooks import RemovableHandle

__all__ = ["Optimizer", "required", "register_optimizer_step_pre_hook",
           "register_optimizer_step_post_hook"]


class _NotImplementedAttribute(AttributeError, NotImplementedError):
    """What asking ``minitorch.optim`` for one of torch's optimizers that minitorch lacks raises:
    an AttributeError (``hasattr`` is False) that is also a NotImplementedError."""


class _RequiredParameter:
    """The default of an option every param group has to give itself (``lr`` of old SGD)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


_global_step_pre_hooks = OrderedDict()
_global_step_post_hooks = OrderedDict()


def register_optimizer_step_pre_hook(hook):
    """A hook ``hook(optimizer, args, kwargs)`` run before every optimizer's ``step``."""
    handle = RemovableHandle(_global_step_pre_hooks)
    _global_step_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook):
    """A hook ``hook(optimizer, args, kwargs)`` run after every optimizer's ``step``."""
    handle = RemovableHandle(_global_step_post_hooks)
    _global_step_post_hooks[handle.id] = hook
    return handle


def _with_step_hooks(step):
    """Wraps a class's ``step`` so that the global and per-instance step hooks run around it,
    once per call: a subclass's ``step`` calling ``super().step()`` does not run them again."""

    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        if self.__dict__.get("_running_step_hooks", False):
            return step(self, *args, **kwargs)
        self._running_step_hooks = True
        try:
            if _profiling.active() is None:
                return _run_with_hooks(self, step, args, kwargs)
            # the profiler shows each step, as torch's
            with _record_function(f"Optimizer.step#{type(self).__name__}.step"):
                return _run_with_hooks(self, step, args, kwargs)
        finally:
            self._running_step_hooks = False

    wrapper.hooked = True
    return wrapper


def _run_with_hooks(self, step, args, kwargs):
    for hook in chain(_global_step_pre_hooks.values(),
                      self._optimizer_step_pre_hooks.values()):
        result = hook(self, args, kwargs)
        if result is not None:
            if isinstance(result, tuple) and len(result) == 2:
                args, kwargs = result
            else:
                raise RuntimeError(f"{hook} must return None or a tuple of "
                                   f"(new_args, new_kwargs), but got {result}.")
    out = step(self, *args, **kwargs)
    for hook in chain(self._optimizer_step_post_hooks.values(),
                      _global_step_post_hooks.values()):
        hook(self, args, kwargs)
    return out


def _use_grad_for_differentiable(step):
    """Runs an optimizer's update under ``no_grad`` (the in-place updates of leaf parameters are
    not recorded); with ``differentiable=True`` it runs with grad mode on, as torch's."""

    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        if self.defaults.get("differentiable", False):
            mode = minitorch.enable_grad()
        else:
            mode = minitorch.no_grad()
        with mode:
            return step(self, *args, **kwargs)

    return wrapper


def _check_fused(fused, differentiable, foreach):
    """torch's refusals of fused= together with differentiable= or foreach=."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _scalar_value(x):
    """A hyperparameter given as a 1-element tensor, as a Python number (others unchanged)."""
    if isinstance(x, Tensor):
        return x.item()
    return x


def _get_scalar_dtype():
    """The dtype of Adam's ``step`` counter: float64 under a float64 default dtype, else float32."""
    return minitorch.float64 if minitorch.get_default_dtype() == minitorch.float64 else minitorch.float32


def _check_lr(lr):
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_hyper(**values):
    """torch's checks of an optimizer's hyper-parameters, in the order given: lr, each beta
    in [0, 1), rho in [0, 1], everything else >= 0; the messages are torch's."""
    for name, v in values.items():
        if name == "lr":
            _check_lr(v)
        elif name == "betas":
            for i, b in enumerate(v):
                if not 0.0 <= b < 1.0:
                    raise ValueError(f"Invalid beta parameter at index {i}: {b}")
        elif name == "rho":
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"Invalid rho value: {v}")
        elif not 0.0 <= v:
            raise ValueError(f"Invalid {'epsilon' if name == 'eps' else name} value: {v}")


_CAPTURABLE_DEVICES = ["cuda", "xpu", "hpu", "privateuseone", "xla"]


def _refuse_capturable(tensors="params and state_steps", supports_xla=True):
    """torch's error for ``capturable=True`` with tensors off its supported devices, which is
    what a capturable step meets in minitorch (tensors live on the CPU)."""
    devices = _CAPTURABLE_DEVICES if supports_xla else _CAPTURABLE_DEVICES[:-1]
    raise AssertionError(f"If capturable=True, {tensors} must be on supported devices: {devices}.")


def _check_singleton_tensors(values, name="state_steps"):
    """The functional updates take their counters as scalar tensors, as torch's."""
    if not all(isinstance(t, Tensor) for t in values):
        raise RuntimeError(f"API has changed, `{name}` argument must contain a list of "
                           "singleton tensors")


def _counters_to_tensors(optimizer, keys=("step",)):
    """For ``__setstate__``: per-parameter counters saved as numbers (by old torch releases)
    become scalar tensors of ``_get_scalar_dtype()`` (float32 in fused groups)."""
    for group in optimizer.param_groups:
        dtype = minitorch.float32 if group.get("fused") else _get_scalar_dtype()
        for p in group["params"]:
            p_state = optimizer.state.get(p, {})
            for key in keys:
                if key in p_state and not isinstance(p_state[key], Tensor):
                    p_state[key] = minitorch.tensor(float(p_state[key]), dtype=dtype)


def _as_real(*tensors):
    """The tensors as real views (view_as_real; None stays None): a complex parameter and its
    state are updated as pairs of reals, as torch does."""
    return tuple(None if t is None else minitorch.view_as_real(t) for t in tensors)


def _zeros_like_param(p):
    """A state tensor of zeros shaped and laid out as parameter p."""
    return minitorch.zeros_like(p, memory_format=minitorch.preserve_format)


def _new_counter(group, value=0.0):
    """A per-parameter scalar counter (a step count): a tensor of _get_scalar_dtype(), float32
    in fused groups, as torch keeps them."""
    return minitorch.tensor(value, dtype=minitorch.float32 if group.get("fused")
                            else _get_scalar_dtype())


class Optimizer:
    """Base class of all optimizers.

    ``params``: an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts (param groups,
    each with a ``"params"`` entry and any options that override ``defaults``).  Use ordered
    collections (lists), not sets: the order is what ``state_dict`` records."""

    # what __setstate__ fills into groups pickled before an option existed, and the per-
    # parameter step counters it turns back into tensors (subclasses name theirs)
    _group_defaults = {}
    _counters = ()

    def _new_state(self, p, group):
        """The state of parameter p before its first step (a dict, in torch's key order)."""
        raise NotImplementedError(f"{type(self).__name__} does not keep per-parameter state")

    def _gather(self, group, *keys):
        """What one step of a group works on: the parameters that have a gradient, their
        gradients, for each state entry named in keys the list of its tensors (None where a
        parameter's state has no such entry, as a momentum buffer without momentum), and
        whether any of the parameters is complex.  A parameter's state is made by _new_state
        the first time."""
        params, grads, lists, has_complex = [], [], [[] for _ in keys], False
        for p in group["params"]:
            if p.grad is None:
                continue
            has_complex |= p.is_complex()
            params.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state.update(self._new_state(p, group))
            for lst, k in zip(lists, keys):
                lst.append(state.get(k))
        return params, grads, lists, has_complex

    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        self._patch_step_function()

        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + minitorch.typename(params))
        if isinstance(params, set):
            warnings.warn("optimizer parameters need to be organized in ordered collections, but "
                          "the ordering of tensors in sets will change between runs. Please use a "
                          "list instead. This will be an error in a future release.",
                          FutureWarning, stacklevel=2)

        self.state = defaultdict(dict)
        self.param_groups = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    # ---- pickling ------------------------------------------------------------------------
    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                     "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)
        # groups pickled by an older version lack the options added since (torch's defaults)
        for group in self.param_groups:
            for k, v in self._group_defaults.items():
                group.setdefault(k, v)
        if self._counters:
            _counters_to_tensors(self, self._counters)

    def __repr__(self):
        lines = [self.__class__.__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(group.keys()):
                if key != "params":
                    lines.append(f"    {key}: {group[key]}")
        return "\n".join(lines) + "\n)"

    def _patch_step_function(self):
        # The most derived class's step gets the hooks once, so that a subclass's step that
        # calls super().step() still runs them once.
        cls = self.__class__
        if not getattr(cls.step, "hooked", False):
            cls.step = _with_step_hooks(cls.step)

    # ---- hooks ------------------------------------------------------------------------------
    @staticmethod
    def _register(hooks_dict, hook, prepend=False):
        handle = RemovableHandle(hooks_dict)
        hooks_dict[handle.id] = hook
        if prepend:
            hooks_dict.move_to_end(handle.id, last=False)
        return handle

    def register_step_pre_hook(self, hook):
        """``hook(optimizer, args, kwargs) -> None or (new_args, new_kwargs)`` before ``step``."""
        return self._register(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """``hook(optimizer, args, kwargs) -> None`` after ``step``."""
        return self._register(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        """``hook(optimizer) -> None`` before ``state_dict`` builds its result."""
        return self._register(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        """``hook(optimizer, state_dict) -> state_dict or None`` on ``state_dict``'s result."""
        return self._register(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        """``hook(optimizer, state_dict) -> state_dict or None`` before loading."""
        return self._register(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        """``hook(optimizer) -> None`` after loading."""
        return self._register(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ---- state_dict -------------------------------------------------------------------------
    def state_dict(self):
        """The optimizer's state as ``{"state": {index: {...}}, "param_groups": [...]}``.

        Parameters are numbered in group order; each group's ``"params"`` lists its indices.
        The per-parameter state holds the optimizer's own tensors (not copies), as torch's."""
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)

        # a parameter's index is its position counted over all groups (its first position
        # when it is listed twice), as torch's
        index_of = {}
        start = 0
        packed_groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index_of.setdefault(id(p), i)
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            start += len(packed["params"])
            packed_groups.append(packed)

        packed_state = {(index_of[id(k)] if isinstance(k, Tensor) else k): v
                        for k, v in self.state.items()}
        state_dict = {"state": packed_state, "param_groups": packed_groups}

        for hook in self._optimizer_state_dict_post_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    @staticmethod
    def _cast_state_value(param, value, group, key=None):
        """A loaded state value made ready for ``param``: tensors go to its device and, when it is
        floating point, to its dtype; ``step`` counters keep their dtype (float32 for
        capturable/fused groups); containers are rebuilt around their cast contents."""
        if isinstance(value, Tensor):
            if key == "step":
                if group is not None and (group.get("capturable", False) or group.get("fused", False)):
                    return value.to(dtype=minitorch.float32, device=param.device)
                return value
            if param.is_floating_point():
                return value.to(dtype=param.dtype, device=param.device)
            return value.to(device=param.device)
        if isinstance(value, dict):
            return {k: Optimizer._cast_state_value(param, v, group, key=k)
                    for k, v in value.items()}
        if isinstance(value, (list, tuple)) and not isinstance(value, (str, bytes)):
            items = (Optimizer._cast_state_value(param, v, group) for v in value)
            if isinstance(value, tuple) and hasattr(value, "_fields"):  # namedtuple
                return type(value)(*items)
            return type(value)(items)
        return value

    def load_state_dict(self, state_dict):
        """Loads a ``state_dict()`` (of this optimizer class, same group sizes) into this
        optimizer: parameters are matched by position, options come from the saved groups."""
        state_dict = state_dict.copy()
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result

        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group "
                             "that doesn't match the size of optimizer's group")

        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))
        saved_group_of = {}
        for g in state_dict["param_groups"]:
            for i in g["params"]:
                saved_group_of.setdefault(i, g)

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = self._cast_state_value(param, v, saved_group_of.get(k))
            else:
                state[k] = v

        new_groups = []
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
            new_groups.append(saved)
        self.__setstate__({"state": state, "param_groups": new_groups})

        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)

    # ---- gradients and steps ----------------------------------------------------------------
    def zero_grad(self, set_to_none=True):
        """Clears the gradients of every parameter: sets them to ``None`` (default), or with
        ``set_to_none=False`` detaches them and fills them with zeros in place."""
        if _profiling.active() is not None:    # a range in the profiler's results, as torch's
            with _record_function(f"Optimizer.zero_grad#{type(self).__name__}.zero_grad"):
                return self._zero_grads(set_to_none)
        return self._zero_grads(set_to_none)

    def _zero_grads(self, set_to_none):
        for group in self.param_groups:
            for p in group["params"]:
                grad = p.grad
                if grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if grad.grad_fn is not None:
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    grad.zero_()

    def step(self, closure=None):
        """Performs one optimization step (and returns ``closure()``'s loss when given one)."""
        raise NotImplementedError

    @staticmethod
    def _run_closure(closure):
        if closure is None:
            return None
        with minitorch.enable_grad():
            return closure()

    def add_param_group(self, param_group):
        """Adds a group of parameters (a dict with ``"params"`` and optional options)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")

        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but "
                            "the ordering of tensors in sets will change between runs. Please use "
                            "a list instead.")
        else:
            param_group["params"] = list(params)

        tensors, names = [], []
        for item in param_group["params"]:
            if isinstance(item, tuple):
                names.append(item[0])
                tensors.append(item[1])
            else:
                tensors.append(item)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError("all optimizer params should be with/without names. "
                                 "Some param names are missing")
            param_group["param_names"] = names

        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, "
                                "but one of the params is " + minitorch.typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or getattr(param, "retains_grad", False)):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; "
                          "see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)

        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not seen.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)
