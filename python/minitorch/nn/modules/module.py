"""nn.Module: the base class of layers and models.

A module keeps its parameters, buffers and submodules in three ordered dicts
(``_parameters``, ``_buffers``, ``_modules``); attribute assignment sorts values into them
(a Parameter, a Module) and attribute reads fall back to them.  Everything that walks a model
(``parameters()``, ``state_dict()``, ``to()``, ``train()``, ``repr``) walks those dicts in
registration order, so names and order match torch's."""
import functools
import itertools
import warnings
import weakref
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import minitorch as _mt

from ... import _C
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ...utils.hooks import RemovableHandle
from ..parameter import Buffer, Parameter

__all__ = ["Module", "register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_hook", "register_module_full_backward_pre_hook",
           "register_module_buffer_registration_hook",
           "register_module_module_registration_hook",
           "register_module_parameter_registration_hook"]


def _typename(obj):
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(type(obj), "__module__", "")
    qualname = type(obj).__qualname__
    if module in ("builtins", "", None):
        return qualname
    return f"{module}.{qualname}"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict returns: the keys the module expected and did not get, and the
    keys it got and does not know."""
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(text, spaces):
    """Indents every line of text but the first by `spaces` (blank lines stay empty)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return "\n".join([lines[0]] + [pad + line if line.strip() else "" for line in lines[1:]])


# hooks every module runs (register_module_forward_hook & co.)
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_always_called = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_backward_pre_hooks = OrderedDict()
_global_buffer_registration_hooks = OrderedDict()
_global_module_registration_hooks = OrderedDict()
_global_parameter_registration_hooks = OrderedDict()


def _add_hook(hooks, hook, prepend=False, extra=None):
    handle = RemovableHandle(hooks, extra_dict=extra)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def register_module_forward_pre_hook(hook):
    """Registers hook(module, args) to run before every module's forward."""
    return _add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, always_call=False):
    """Registers hook(module, args, output) to run after every module's forward."""
    handle = _add_hook(_global_forward_hooks, hook, extra=_global_forward_hooks_always_called)
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_full_backward_hook(hook):
    """hook(module, grad_input, grad_output) for every module (Note [Module backward hooks])."""
    return _add_hook(_global_backward_hooks, hook)


def register_module_full_backward_pre_hook(hook):
    """hook(module, grad_output) for every module (Note [Module backward hooks])."""
    return _add_hook(_global_backward_pre_hooks, hook)


def register_module_buffer_registration_hook(hook):
    return _add_hook(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook):
    return _add_hook(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook):
    return _add_hook(_global_parameter_registration_hooks, hook)


def _forward_unimplemented(self, *input):
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')


def _parse_to(args, kwargs):
    """(device, dtype, non_blocking, memory_format) from the arguments of Module.to:
    to(device=None, dtype=None, non_blocking=False), to(dtype, non_blocking=False),
    to(tensor, non_blocking=False), to(memory_format=...)."""
    kwargs = dict(kwargs)
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    memory_format = kwargs.pop("memory_format", None)
    kwargs.pop("copy", None)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    args = list(args)
    if args:
        first = args.pop(0)
        if isinstance(first, _C.TensorBase):
            device, dtype = first.device, first.dtype
        elif isinstance(first, _C.dtype):
            dtype = first
        elif first is None or isinstance(first, (str, int, _C.device)):
            device = first
            if args and (args[0] is None or isinstance(args[0], _C.dtype)):
                dtype = args.pop(0)
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({type(first).__name__}, ...)")
        if args:
            non_blocking = args.pop(0)
        if args:
            args.pop(0)                         # copy
        if args:
            raise TypeError("to() received too many positional arguments")
    if device is not None:
        device = _C.device(device) if not isinstance(device, int) else _C.device("cuda", device)
    return device, dtype, non_blocking, memory_format


class Module:
    """Base class of every layer and model.  Subclasses call ``super().__init__()`` and then
    assign parameters, buffers and submodules as attributes; ``forward`` computes the output
    and calling the module runs it (with its hooks)."""

    dump_patches = False
    _version = 1
    training: bool
    call_super_init = False
    _compiled_call_impl = None

    def __init__(self, *args, **kwargs):
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if self.call_super_init is False and bool(args):
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        setattr_ = object.__setattr__
        setattr_(self, "training", True)
        setattr_(self, "_parameters", OrderedDict())
        setattr_(self, "_buffers", OrderedDict())
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_backward_pre_hooks", OrderedDict())
        setattr_(self, "_backward_hooks", OrderedDict())
        setattr_(self, "_is_full_backward_hook", None)
        setattr_(self, "_forward_hooks", OrderedDict())
        setattr_(self, "_forward_hooks_with_kwargs", OrderedDict())
        setattr_(self, "_forward_hooks_always_called", OrderedDict())
        setattr_(self, "_forward_pre_hooks", OrderedDict())
        setattr_(self, "_forward_pre_hooks_with_kwargs", OrderedDict())
        setattr_(self, "_state_dict_hooks", OrderedDict())
        setattr_(self, "_state_dict_pre_hooks", OrderedDict())
        setattr_(self, "_load_state_dict_pre_hooks", OrderedDict())
        setattr_(self, "_load_state_dict_post_hooks", OrderedDict())
        setattr_(self, "_modules", OrderedDict())
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward = _forward_unimplemented

    # ---- registration ----
    def register_buffer(self, name, tensor, persistent=True):
        """Adds a buffer: a tensor that is part of the module's state but not a parameter
        (BatchNorm's running statistics).  persistent=False keeps it out of state_dict()."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, _C.TensorBase):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        if isinstance(tensor, Buffer):
            persistent = tensor.persistent
            tensor = tensor.as_subclass(Tensor)
        for hook in _global_buffer_registration_hooks.values():
            out = hook(self, name, tensor)
            if out is not None:
                tensor = out
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        """Adds a parameter (a Parameter, or None for an absent one such as a disabled bias)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, compute "
                "the value in the forward() method.")
        for hook in _global_parameter_registration_hooks.values():
            out = hook(self, name, param)
            if out is not None:
                param = out
        self._parameters[name] = param

    def add_module(self, name, module):
        """Adds a child module (or None), reachable as the attribute `name`."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        for hook in _global_module_registration_hooks.values():
            out = hook(self, name, module)
            if out is not None:
                module = out
        self._modules[name] = module

    def register_module(self, name, module):
        """Alias of add_module."""
        self.add_module(name, module)

    def get_submodule(self, target):
        """The submodule at the dotted path `target` ("" is the module itself)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target, module, strict=False):
        """Replaces (or, strict=False, adds) the submodule at the dotted path `target`."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        *path, last = target.split(".")
        parent = self.get_submodule(".".join(path))
        if strict and not hasattr(parent, last):
            raise AttributeError(parent._get_name() + " has no attribute `" + last + "`")
        if hasattr(parent, last) and not isinstance(getattr(parent, last), Module):
            raise AttributeError("`" + last + "` is not an nn.Module")
        setattr(parent, last, module)

    def get_parameter(self, target):
        """The parameter at the dotted path `target` ("block.0.weight")."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        """The buffer at the dotted path `target`."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        if name not in mod._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(mod, name)

    def get_extra_state(self):
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called.")

    def set_extra_state(self, state):
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called.")

    # ---- attributes ----
    def __getattr__(self, name):
        d = self.__dict__
        for where in ("_parameters", "_buffers", "_modules"):
            members = d.get(where)
            if members is not None and name in members:
                return members[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        d = self.__dict__

        def remove_from(*dicts_or_sets):
            for store in dicts_or_sets:
                if name in store:
                    if isinstance(store, dict):
                        del store[name]
                    else:
                        store.discard(name)

        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = d.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(d, self._parameters, self._buffers, self._non_persistent_buffers_set)
                for hook in _global_module_registration_hooks.values():
                    out = hook(self, name, value)
                    if out is not None:
                        value = out
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                    "(torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = d.get("_buffers")
                if isinstance(value, Buffer) or (buffers is not None and name in buffers):
                    if value is not None and not isinstance(value, _C.TensorBase):
                        raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                        "(torch.nn.Buffer, torch.Tensor or None expected)")
                    if isinstance(value, Buffer):
                        persistent = value.persistent
                    else:
                        persistent = name not in self._non_persistent_buffers_set
                    if buffers is None:
                        raise AttributeError("cannot assign buffer before Module.__init__() call")
                    remove_from(d, self._parameters, self._modules)
                    self.register_buffer(name, value, persistent)
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        d = self.__dict__
        if name in d.get("_parameters", ()):
            del self._parameters[name]
        elif name in d.get("_buffers", ()):
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in d.get("_modules", ()):
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = list(dir(type(self))) + list(self.__dict__) + list(self._parameters) + \
            list(self._modules) + list(self._buffers)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks",
                     "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
                     "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
                     "_load_state_dict_post_hooks", "_backward_pre_hooks", "_backward_hooks"):
            if name not in self.__dict__:
                self.__dict__[name] = OrderedDict()
        self.__dict__.setdefault("_non_persistent_buffers_set", set())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    # ---- walking the module tree ----
    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        seen = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for module_prefix, module in modules:
            for key, value in get_members(module):
                if value is None or id(value) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield (module_prefix + "." + key if module_prefix else key), value

    def parameters(self, recurse=True):
        """The parameters of this module (and, recurse=True, of every submodule), each once."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(dotted name, parameter) pairs, in registration order."""
        return self._named_members(lambda m: m._parameters.items(), prefix=prefix,
                                   recurse=recurse, remove_duplicate=remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members(lambda m: m._buffers.items(), prefix=prefix,
                                   recurse=recurse, remove_duplicate=remove_duplicate)

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(dotted name, module) for this module and every submodule, depth first."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub_prefix, remove_duplicate)

    __hash__ = object.__hash__

    # ---- modes ----
    def train(self, mode=True):
        """Sets training mode (mode=True) or evaluation mode on this module and every
        submodule; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Sets requires_grad of every parameter; returns self."""
        for p in self.parameters():
            p.requires_grad = requires_grad
        return self

    def zero_grad(self, set_to_none=True):
        """Resets the gradients of all parameters: to None (default) or to zeros."""
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                g = p.grad
                if g.grad_fn is not None:
                    g.detach_()
                else:
                    g.requires_grad_(False)
                g.zero_()

    # ---- conversions ----
    def _apply(self, fn, recurse=True):
        """Applies fn to every parameter (in place: the Parameter objects stay, their data
        changes), gradient and buffer, of this module and (recurse) its submodules."""
        if recurse:
            for module in self.children():
                module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            with no_grad():
                applied = fn(param)
            if applied is not param:
                param.data = applied
            grad = param.grad
            if grad is not None:
                with no_grad():
                    grad_applied = fn(grad)
                if grad_applied is not grad:
                    grad.data = grad_applied
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn):
        """Calls fn on every submodule (children first) and then on self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs):
        """Moves and/or casts parameters and buffers: to(device), to(dtype), to(device,
        dtype), to(tensor).  Only floating and complex tensors change dtype."""
        device, dtype, non_blocking, memory_format = _parse_to(args, kwargs)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")

        def convert(t):
            if memory_format is not None and t.dim() in (4, 5):
                # as torch: the 4-D and 5-D parameters and buffers take the memory format
                return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None,
                            non_blocking, memory_format=memory_format)
            if dtype is not None and (t.is_floating_point() or t.is_complex()):
                if dtype.is_complex or not t.is_complex():
                    return t.to(device, dtype, non_blocking)
            return t.to(device, None, non_blocking) if device is not None else t

        return self._apply(convert)

    def to_empty(self, *, device=None, recurse=True):
        return self._apply(lambda t: _mt.empty_like(t, device=device), recurse=recurse)

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def share_memory(self):
        return self._apply(lambda t: t.share_memory_())

    # ---- hooks and calling ----
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args) -> None or new args (with_kwargs=True: hook(module, args,
        kwargs) -> None or (args, kwargs)) runs before forward."""
        handle = _add_hook(self._forward_pre_hooks, hook, prepend,
                           extra=self._forward_pre_hooks_with_kwargs)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """hook(module, args, output) -> None or a new output (with_kwargs=True: hook(module,
        args, kwargs, output)) runs after forward."""
        handle = _add_hook(self._forward_hooks, hook, prepend,
                           extra=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) -> None or a new grad_input, when the
        gradients of the module's inputs are computed (Note [Module backward hooks])."""
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a "
                               "single Module. Please use only one of them.")
        self._is_full_backward_hook = True
        return _add_hook(self._backward_hooks, hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) -> None or a new grad_output, when the gradients of the
        module's outputs are computed (Note [Module backward hooks])."""
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """hook(module, grad_input, grad_output) -> None or a new grad_input: torch's deprecated
        form, a hook of the node that made the module's output (the last op of forward), whose
        grad_input are the gradients of that node's inputs (Note [Non-full backward hooks])."""
        if self._is_full_backward_hook is True:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a "
                               "single Module. Please use only one of them.")
        self._is_full_backward_hook = False
        return _add_hook(self._backward_hooks, hook, False)

    def _call_impl(self, *args, **kwargs):
        full = self._backward_hooks if self._is_full_backward_hook is not False else None
        if full or self._backward_pre_hooks or _global_backward_hooks or \
                _global_backward_pre_hooks:
            if _C.is_grad_enabled():
                from ._backward_hooks import call_with_backward_hooks
                result = call_with_backward_hooks(
                    self, args, lambda *a: self._call_forward(a, kwargs),
                    [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()],
                    [*_global_backward_hooks.values(), *(full or {}).values()])
                if full is None and self._backward_hooks:
                    from ._backward_hooks import attach_non_full_hooks
                    attach_non_full_hooks(self, args, result, list(self._backward_hooks.values()))
                return result
        result = self._call_forward(args, kwargs)
        if full is None and self._backward_hooks:
            from ._backward_hooks import attach_non_full_hooks
            attach_non_full_hooks(self, args, result, list(self._backward_hooks.values()))
        return result

    def _call_forward(self, args, kwargs):
        if not (self._forward_hooks or self._forward_pre_hooks or _global_forward_hooks
                or _global_forward_pre_hooks):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    __call__ = _call_impl

    def _call_with_hooks(self, args, kwargs):
        for hook_id, hook in itertools.chain(_global_forward_pre_hooks.items(),
                                             self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        called = False
        try:
            output = self.forward(*args, **kwargs)
            for hook_id, hook in itertools.chain(_global_forward_hooks.items(),
                                                 self._forward_hooks.items()):
                if hook_id in _global_forward_hooks_always_called or \
                        hook_id in self._forward_hooks_always_called:
                    called = True
                if hook_id in self._forward_hooks_with_kwargs:
                    result = hook(self, args, kwargs, output)
                else:
                    result = hook(self, args, output)
                if result is not None:
                    output = result
            return output
        except Exception:
            if called:
                raise
            for hook_id, hook in itertools.chain(_global_forward_hooks.items(),
                                                 self._forward_hooks.items()):
                if hook_id in _global_forward_hooks_always_called or \
                        hook_id in self._forward_hooks_always_called:
                    try:
                        if hook_id in self._forward_hooks_with_kwargs:
                            hook(self, args, kwargs, None)
                        else:
                            hook(self, args, None)
                    except Exception as e:
                        warnings.warn(f"forward hook with always_call=True raised an exception "
                                      f"that was ignored: {e!r}")
            raise

    # ---- state dict ----
    def _register_state_dict_hook(self, hook):
        return _add_hook(self._state_dict_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata) runs after the module's entries
        are in state_dict (it may change it in place)."""
        return _add_hook(self._state_dict_hooks, hook)

    def register_state_dict_pre_hook(self, hook):
        """hook(module, prefix, keep_vars) runs before the module writes its entries."""
        return _add_hook(self._state_dict_pre_hooks, hook)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        if with_module:
            hook = functools.partial(hook, self)
        return _add_hook(self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs) runs before the module loads its entries."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook):
        """hook(module, incompatible_keys) runs after load_state_dict (it may edit the key
        lists in place)."""
        return _add_hook(self._load_state_dict_post_hooks, hook)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and persistent buffer by dotted name (detached,
        sharing memory with the module unless keep_vars=True, which keeps them as they are)."""
        if args:
            warnings.warn("Positional args are being deprecated, use kwargs instead.",
                          FutureWarning, stacklevel=2)
            if len(args) > 3:
                raise TypeError(f"state_dict() takes at most 3 positional arguments ({len(args)} given)")
            destination = args[0] if destination is None else destination
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if result is not None:
                destination = result
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """Copies this module's own entries (not its children's) from state_dict, adding what
        is missing, unexpected or wrong to the three lists."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent = {k: v for k, v in self._buffers.items()
                      if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent.items())
                       if v is not None}
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, _C.TensorBase):
                error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor '
                                  f"or Tensor-like object from checkpoint but received {type(input_param)}")
                continue
            if param.dim() == 0 and input_param.dim() == 1 and input_param.numel() == 1:
                input_param = input_param[0]         # old checkpoints kept scalars as 1-element
            if tuple(input_param.shape) != tuple(param.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{input_param.shape} from checkpoint, the shape in current "
                                  f"model is {param.shape}.")
                continue
            try:
                with no_grad():
                    if assign:
                        if isinstance(param, Parameter):
                            if not isinstance(input_param, Parameter):
                                input_param = Parameter(input_param, requires_grad=param.requires_grad)
                            else:
                                input_param.requires_grad_(param.requires_grad)
                        setattr(self, name, input_param)
                    else:
                        param.copy_(input_param)
            except Exception as ex:
                error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in '
                                  f"the model are {param.size()} and whose dimensions in the "
                                  f"checkpoint are {input_param.size()}, an exception occurred : {ex.args}.")
        extra_key = prefix + "_extra_state"
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    first = key[len(prefix):].split(".", 1)[0]
                    if first not in self._modules and first not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies parameters and buffers from state_dict into the module (under no_grad;
        assign=True makes the given tensors the module's instead).  strict=True: keys that
        are missing or unexpected are an error; returns (missing_keys, unexpected_keys)."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True,
                                         missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state, child_prefix)
            result = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                out = hook(module, result)
                if out is not None:
                    raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` "
                                       "are not expected to return new values, if incompatible_keys "
                                       "need to be modified, it should be done inplace.")

        load(self, state_dict)
        del load
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- repr ----
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The module's own settings, shown inside the parentheses of its repr."""
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = ["(" + key + "): " + _addindent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def compile(self, *args, **kwargs):
        """minitorch has no compiler: the module runs as it is."""
        return None
