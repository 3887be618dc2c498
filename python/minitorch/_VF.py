"""minitorch._VF: the op functions by their internal names, as torch._VF (the variable
functions, including those torch's namespace does not show, such as unique_dim)."""
import sys as _sys
import types as _types


class _VFModule(_types.ModuleType):
    _INTERNAL = {"unique_dim": "_unique_dim"}

    def __getattr__(self, name):
        import minitorch
        try:
            return getattr(minitorch, self._INTERNAL.get(name, name))
        except AttributeError:
            raise AttributeError(f"module 'minitorch._VF' has no attribute '{name}'") from None


_sys.modules[__name__].__class__ = _VFModule
