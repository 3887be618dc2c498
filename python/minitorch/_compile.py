"""minitorch.compile: torch.compile's signature and argument checks; the model runs eagerly.

minitorch has no graph compiler: compile returns the function or module it is given, so a
compiled model runs exactly as torch's backend="eager" would run it (and a module keeps its
own state_dict keys: torch's wrapper would add an "_orig_mod." prefix).  It works as a
decorator with or without arguments."""

__all__ = ["compile"]

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
# the backends torch ships (torch._dynamo.list_backends(exclude_tags=()))
_BACKENDS = ("inductor", "eager", "aot_eager", "aot_eager_decomp_partition", "cudagraphs",
             "openxla", "tvm", "onnxrt", "aot_ts", "aot_ts_nvfuser")


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, disable=False, **kwargs):
    """Returns model itself (see the module's docstring); model=None gives a decorator."""
    if model is None:
        def decorator(fn):
            return compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, disable=disable, **kwargs)
        return decorator
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified "
                           "at the same time.")
    if backend is None:
        backend = "inductor"
    if isinstance(backend, str):
        if backend not in _BACKENDS:
            from ._dynamo.exc import InvalidBackend
            raise InvalidBackend(f"Invalid backend: {backend!r}. See "
                                 "`torch._dynamo.list_backends()` for available backends.")
        if backend == "inductor" and mode is not None and mode not in _MODES:
            raise RuntimeError(f"Unrecognized mode={mode}, should be one of: " + ", ".join(_MODES))
    elif not callable(backend):
        from ._dynamo.exc import InvalidBackend
        raise InvalidBackend(f"Invalid backend: {backend!r}. See "
                             "`torch._dynamo.list_backends()` for available backends.")
    return model
