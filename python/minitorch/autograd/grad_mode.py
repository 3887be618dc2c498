"""Grad mode: no_grad, enable_grad, set_grad_enabled, inference_mode (per thread, as torch)."""
import functools
import inspect
import warnings

from .. import _C

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled", "is_view_replay_enabled"]

is_grad_enabled = _C.is_grad_enabled


class _Mode:
    """A context manager that is also a decorator (a fresh mode per call)."""
    _enabled = None

    def __enter__(self):
        self._prev = _C._set_grad_enabled(self._enabled)
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        if inspect.isclass(fn):
            # as torch: the class's construction runs in the mode, with a deprecation warning
            warnings.warn("Decorating classes is deprecated and will be disabled in future "
                          "versions. You should only decorate functions or methods. To preserve "
                          "the current behavior of class decoration, you can directly decorate "
                          "the `__init__` method and nothing else.", FutureWarning, stacklevel=2)
            cls, mode = fn, self
            return lambda *args, **kwargs: mode._call_in_mode(cls, args, kwargs)
        if inspect.isgeneratorfunction(fn):
            return self._wrap_generator(fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def _wrap_generator(self, fn):
        """A generator function runs in the mode each time it is resumed (next, send, throw,
        close), and its caller in its own mode in between, as torch's decorators do."""
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            gen = fn(*args, **kwargs)
            step, value = gen.send, None
            while True:
                try:
                    with self.clone():
                        out = step(value)
                except StopIteration as stop:
                    return stop.value
                try:
                    value, step = (yield out), gen.send
                except GeneratorExit:
                    with self.clone():
                        gen.close()
                    raise
                except BaseException as e:  # thrown in by the caller: into the generator
                    value, step = e, gen.throw
        return wrapper

    def _call_in_mode(self, fn, args, kwargs):
        with self.clone():
            return fn(*args, **kwargs)

    def clone(self):
        return type(self)()


class _NoParamMode(_Mode):
    """A mode that takes no argument, so that it also decorates without parentheses:
    `@no_grad` and `no_grad(fn)` are `no_grad()(fn)`, as torch's."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamMode):
    """Ops inside record nothing: results do not require grad."""
    _enabled = False


class enable_grad(_NoParamMode):
    """Ops inside are recorded again (inside a no_grad block)."""
    _enabled = True


class set_grad_enabled(_Mode):
    """set_grad_enabled(mode): as a function sets the mode at once; as a context manager
    restores the previous mode on exit."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'mode' (position 1) must be bool, not "
                            f"{type(mode).__name__}")
        self._enabled = mode
        self._prev = _C._set_grad_enabled(mode)

    def __call__(self, fn):
        # used as a decorator, the call made at construction is undone (as torch's)
        _C._set_grad_enabled(self._prev)
        return super().__call__(fn)

    def __enter__(self):
        return self

    def clone(self):
        return set_grad_enabled(self._enabled)


class inference_mode(_Mode):
    """inference_mode(mode=True): no op inside is recorded (as no_grad), and the tensors made
    inside are inference tensors (is_inference(): no version counter, not usable where
    autograd would save them; Note [Inference storages] in c10_lite/storage.h).  Per thread."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)              # @inference_mode, inference_mode(fn)

    def __init__(self, mode=True):
        if not isinstance(mode, bool):
            return                      # (made by __new__ with the default mode)
        self._enabled = not mode
        self.mode = mode

    def __enter__(self):
        self._prev_inf = _C._set_inference_mode(self.mode)
        return super().__enter__()

    def __exit__(self, *exc):
        _C._set_inference_mode(self._prev_inf)
        return super().__exit__(*exc)

    def clone(self):
        return inference_mode(self.mode)


is_inference_mode_enabled = _C._is_inference_mode_enabled


class _force_original_view_tracking:
    """_force_original_view_tracking(mode): as a function, a context manager or a decorator,
    whether a view modified in place gets its new history by replaying the op that made it
    (torch's view replay, mode True) or as an as_strided of its base (AsStridedBackward0, mode
    False: the default and the only mode minitorch has)."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"_force_original_view_tracking(): argument 'mode' must be bool, not "
                            f"{type(mode).__name__}")
        if mode:
            raise NotImplementedError("view replay is not implemented: a view modified in place "
                                      "gets the history of an as_strided of its base")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper


def is_view_replay_enabled():
    """Whether views modified in place replay their view op (never: see
    _force_original_view_tracking)."""
    return False


class set_multithreading_enabled(_Mode):
    """set_multithreading_enabled(mode): as a context manager or a decorator, whether backward
    passes may run on threads of their own (recorded: minitorch's engine runs every pass on the
    calling thread, in one order)."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_multithreading_enabled(): argument 'mode' (position 1) must "
                            f"be bool, not {type(mode).__name__}")
        self.mode = mode
        self._prev_mt = _multithreading[0]
        _multithreading[0] = mode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _multithreading[0] = self._prev_mt
        return False

    def __call__(self, fn):
        _multithreading[0] = self._prev_mt    # (as a decorator: the call above is undone)
        return super().__call__(fn)

    def clone(self):
        return set_multithreading_enabled(self.mode)


_multithreading = [True]


def _is_multithreading_enabled():
    return _multithreading[0]
