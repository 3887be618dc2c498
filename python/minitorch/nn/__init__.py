"""minitorch.nn: modules, parameters, losses, nn.functional and nn.init, as torch.nn.

Pure Python over minitorch's tensor ops.  ``import minitorch`` does not import it: it loads
on first use of ``minitorch.nn`` (or ``import minitorch.nn``)."""
import importlib

from .parameter import Parameter, Buffer, UninitializedParameter, UninitializedBuffer  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from .modules.module import (register_module_forward_pre_hook, register_module_forward_hook,  # noqa: F401
                             register_module_full_backward_hook,
                             register_module_buffer_registration_hook,
                             register_module_module_registration_hook,
                             register_module_parameter_registration_hook)
from . import functional, init, modules, parameter, utils  # noqa: F401

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "functional",
           "init", "utils",
           "parallel"] + list(_modules_all)

# attributes that load their submodule on first use: name -> (submodule, attribute or None)
_LAZY = {
    "parallel": (".parallel", None),
    "DataParallel": (".parallel", "DataParallel"),
}


def __getattr__(name):
    entry = _LAZY.get(name)
    if entry is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(entry[0], __name__)
    return module if entry[1] is None else getattr(module, entry[1])

# torch.nn.attention (sdpa_kernel, SDPBackend), loaded on first use
_LAZY["attention"] = (".attention", None)
