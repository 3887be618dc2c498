"""__torch_function__ and torch.overrides (Note [Torch function] in csrc/torch_function.h).
Expected names and types were checked against torch 2.15."""
import threading

import pytest

import minitorch as torch
import minitorch.nn.functional as F
from minitorch import overrides


class Plain(torch.Tensor):
    pass


class Logged(torch.Tensor):
    log = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.log.append(func.__name__)
        return super().__torch_function__(func, types, args, kwargs)


def test_default_protocol_gives_results_the_subclass_through_module_functions():
    m = torch.ones(2, 3).as_subclass(Plain)
    for r in (torch.add(m, 1), m + 1, F.relu(m), torch.cat([m, m]), m.sum(), m.T, m[0],
              torch.matmul(m, m.t()), 2 * m):
        assert type(r) is Plain
    a, b = torch.ones(4).as_subclass(Plain).split(2)
    assert type(a) is Plain and type(b) is Plain
    assert type(m.shape) is torch.Size and m.dim() == 2
    # results the protocol does not wrap
    x = torch.ones(2).as_subclass(Plain).requires_grad_()
    (x * 2).sum().backward()
    assert type(x.grad) is torch.Tensor and x.grad.tolist() == [2.0, 2.0]


def test_custom_handler_sees_functions_methods_operators_and_properties():
    Logged.log.clear()
    t = torch.ones(2, 3).as_subclass(Logged)
    r = [torch.add(t, 1), t.sum(), t + 1, t.shape, t[0], torch.cat([t, t]), torch.ones(3) * t]
    assert Logged.log == ["add", "sum", "__add__", "__get__", "__getitem__", "cat", "__rmul__"]
    assert [type(x).__name__ for x in r] == ["Logged", "Logged", "Logged", "Size", "Logged",
                                             "Logged", "Logged"]
    # inside the handler (subclass dispatch off) the calls it makes are not seen again
    Logged.log.clear()
    torch.nn.functional.softmax(t, dim=1)
    assert Logged.log == ["softmax"]


def test_gradients_flow_through_a_handler():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.as_subclass(Logged)
    (torch.mul(y, y).sum() + y.exp().sum()).backward()
    assert x.grad.tolist() == pytest.approx([2 + 2.718281828, 4 + 7.389056099])


def test_not_implemented_everywhere_is_a_type_error():
    class Refuses(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    t = torch.ones(1).as_subclass(Refuses)
    with pytest.raises(TypeError, match=r"Multiple dispatch failed for 'minitorch.add'; all "
                                        r"__torch_function__ handlers returned NotImplemented"):
        torch.add(t, 1)
    with pytest.raises(TypeError, match="no implementation found for 'minitorch.Tensor.sum'"):
        t.sum()


HANDLED = {}


class ScalarTensor:
    """torch's documentation example: a tensor-like that is no tensor."""

    def __init__(self, n, value):
        self._n, self._value = n, value

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func not in HANDLED:
            return NotImplemented
        return HANDLED[func](*args, **(kwargs or {}))


HANDLED[torch.mean] = lambda inp: float(inp._value) / inp._n
HANDLED[torch.add] = lambda a, b: "added"


def test_tensor_likes_that_are_no_tensors():
    s = ScalarTensor(5, 2)
    assert torch.mean(s) == 0.4
    assert torch.add(s, 1) == "added" and torch.add(torch.ones(1), s) == "added"
    with pytest.raises(TypeError, match="Multiple dispatch failed for 'minitorch.sum'"):
        torch.sum(s)
    with pytest.raises(TypeError, match="must be Tensor, not str"):
        torch.mean("x")                 # no tensor-like: the usual error
    assert overrides.has_torch_function((s,)) and overrides.is_tensor_like(s)
    assert not overrides.has_torch_function((torch.ones(1), 1))
    assert overrides.handle_torch_function(torch.mean, (s,), s) == 0.4


def test_overloaded_args_subclasses_first():
    class Sub(Logged):
        pass

    order = []

    class A(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            order.append((cls.__name__, [t.__name__ for t in types]))
            return NotImplemented

    class B(A):
        pass

    a, b = torch.ones(1).as_subclass(A), torch.ones(1).as_subclass(B)
    with pytest.raises(TypeError):
        torch.add(a, b)
    assert order == [("B", ["B", "A"]), ("A", ["B", "A"])]


def test_modes_see_plain_calls_on_their_thread_only():
    seen = []

    class Mode(overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    x = torch.ones(2)
    other = []
    with Mode() as mode:
        assert overrides._get_current_function_mode() is mode
        y = torch.add(x, 1)
        z = x.mul(2)
        thread = threading.Thread(target=lambda: other.append(torch.add(x, 1)))
        thread.start()
        thread.join()
    assert seen == ["add", "mul"]          # the handler's own calls are not seen (popped)
    assert y.tolist() == [2.0, 2.0] and z.tolist() == [2.0, 2.0] and len(other) == 1
    assert overrides._get_current_function_mode() is None
    torch.add(x, 1)
    assert seen == ["add", "mul"]


def test_disabling():
    m = torch.ones(2).as_subclass(Plain)
    with torch._C.DisableTorchFunctionSubclass():
        assert type(torch.add(m, 1)) is torch.Tensor and type(m + 1) is torch.Tensor
        assert not overrides.has_torch_function((m,))
    seen = []

    class Mode(overrides.BaseTorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return super().__torch_function__(func, types, args, kwargs)

    with Mode():
        with torch._C.DisableTorchFunctionSubclass():
            torch.add(torch.ones(1), 1)            # modes still see it
        with torch._C.DisableTorchFunction():
            torch.add(torch.ones(1), 1)            # nothing does
            assert not torch._C._is_torch_function_enabled()
    assert seen == ["ones", "add"]                 # factories too, as torch's modes
    assert torch._C._is_torch_function_enabled()


def test_opting_out_and_parameters():
    class Out(torch.Tensor):
        __torch_function__ = torch._C._disabled_torch_function_impl

    o = torch.ones(2).as_subclass(Out)
    assert type(o + 1) is torch.Tensor and type(torch.add(o, 1)) is torch.Tensor
    p = torch.nn.Parameter(torch.ones(2))
    assert type(p * 2) is torch.Tensor and not overrides.has_torch_function((p,))


def test_wrap_torch_function_and_introspection():
    @overrides.wrap_torch_function(lambda a, b=None: (a,))
    def scaled(a, b=None):
        return a * 3

    class Intercept(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if func is scaled:
                return "intercepted"
            return super().__torch_function__(func, types, args, kwargs)

    assert scaled(torch.ones(1)).tolist() == [3.0]
    assert scaled(torch.ones(1).as_subclass(Intercept)) == "intercepted"
    funcs = overrides.get_overridable_functions()
    assert torch.add in funcs[torch] and F.linear in funcs[F]
    assert torch.ones not in funcs[torch] and torch.ones in overrides.get_ignored_functions()
    assert overrides.get_testing_overrides()[torch.add](1, 2) == -1
    assert overrides.resolve_name(torch.add) == "minitorch.add"
    assert overrides.resolve_name(torch.Tensor.sum) == "minitorch.Tensor.sum"
    assert overrides.resolve_name(F.linear) == "minitorch.nn.functional.linear"
    assert overrides.is_tensor_method_or_property(torch.Tensor.add)
    assert not overrides.is_tensor_method_or_property(torch.add)
