"""minitorch.jit: TorchScript's API runs eagerly (script/trace return what they are given)."""
import warnings
from typing import Dict, List, Optional, Tuple, Union

import pytest

import minitorch as torch


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        yield


def test_script_and_trace_return_what_they_are_given():
    m = torch.nn.Linear(2, 2)
    x = torch.ones(1, 2)
    assert torch.jit.script(m) is m
    assert torch.jit.trace(m, x) is m
    assert torch.jit.trace_module(m, {"forward": x}) is m

    @torch.jit.script
    def f(x: torch.Tensor) -> torch.Tensor:
        return x * 2 + 1
    assert f(torch.ones(2)).tolist() == [3.0, 3.0]
    with pytest.warns(FutureWarning, match=r"`torch.jit.script` is deprecated"):
        torch.jit.script(f)
    with pytest.raises(TypeError, match="<class 'int'> is a built-in class"):
        torch.jit.script(3)
    with pytest.raises(RuntimeError, match="example_kwarg_inputs or example_inputs"):
        torch.jit.trace(m)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        torch.jit.trace_module(m, {"nope": x})


def test_decorators_and_type_helpers():
    def g(x):
        return x
    assert torch.jit.ignore(g) is g and torch.jit.ignore(drop=True)(g) is g
    assert torch.jit.unused(g) is g and torch.jit.export(g) is g
    assert torch.jit.script_if_tracing(g) is g
    assert not torch.jit.is_scripting() and not torch.jit.is_tracing()
    assert torch.jit.annotate(List[int], []) == []
    assert torch.jit.Attribute(3, int) == 3
    assert torch.jit.isinstance([1, 2], List[int])
    assert not torch.jit.isinstance([1, "a"], List[int])
    assert torch.jit.isinstance({"a": torch.ones(1)}, Dict[str, torch.Tensor])
    assert torch.jit.isinstance(None, Optional[int]) and torch.jit.isinstance(1, Optional[int])
    assert torch.jit.isinstance((1, "a"), Tuple[int, str])
    assert not torch.jit.isinstance((1, 2), Tuple[int, str])
    assert torch.jit.isinstance(2.0, Union[int, float])
    assert issubclass(torch.jit.Error, Exception) and not issubclass(torch.jit.Error, RuntimeError)


def test_old_style_script_modules_run_as_modules():
    class M(torch.jit.ScriptModule):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(2, 1)

        @torch.jit.script_method
        def forward(self, x):
            return self.lin(x)
    m = M()
    assert isinstance(m, torch.nn.Module) and isinstance(m, torch.jit.ScriptModule)
    assert m(torch.ones(3, 2)).shape == (3, 1)
    assert not isinstance(torch.nn.Linear(1, 1), torch.jit.ScriptModule)


def test_fork_wait_freeze_and_archives(tmp_path):
    fut = torch.jit.fork(lambda a, b: a + b, 1, b=2)
    assert torch.jit.wait(fut) == 3
    bad = torch.jit.fork(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        torch.jit.wait(bad)
    m = torch.nn.Linear(1, 1)
    with pytest.raises(RuntimeError, match="only implemented for modules in eval mode"):
        torch.jit.freeze(m)
    assert torch.jit.freeze(m.eval()) is m
    assert torch.jit.optimize_for_inference(m) is m
    with pytest.raises(NotImplementedError, match="TorchScript archives are not supported"):
        torch.jit.save(m, str(tmp_path / "m.pt"))
    with pytest.raises(ValueError, match="does not exist"):
        torch.jit.load(str(tmp_path / "missing.pt"))
    (tmp_path / "m.pt").write_bytes(b"PK")
    with pytest.raises(NotImplementedError, match="TorchScript archives are not supported"):
        torch.jit.load(str(tmp_path / "m.pt"))
    with pytest.raises(NotImplementedError):
        torch.jit.CompilationUnit("def f(x): return x")
    with torch.jit.optimized_execution(False), torch.jit.fuser("fuser1"), torch.jit.strict_fusion():
        pass
    old = torch.jit.set_fusion_strategy([("DYNAMIC", 3)])
    assert torch.jit.set_fusion_strategy(old) == [("DYNAMIC", 3)]


def test_private_fork_and_wait_are_the_public_ones():
    # (torch.jit._fork is torch.jit.fork, as in torch)
    assert torch.jit._fork is torch.jit.fork and torch.jit._wait is torch.jit.wait
    from minitorch.autograd.profiler import profile, record_function

    def inner(x):
        with record_function("in_inner"):
            return x * 2

    with profile() as p:
        with record_function("outer"):
            y = torch.jit._wait(torch.jit._fork(inner, torch.ones(2)))
    assert y.tolist() == [2.0, 2.0]
    names = [e.name for e in p.function_events]
    assert names.count("in_inner") == 1 and names.count("outer") == 1
