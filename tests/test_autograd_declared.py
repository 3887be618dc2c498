"""Derivative declarations (Note [Derivative declarations] in minitorch/autograd/_dsl.py): the
language, its two compilations (C at build time, Python at import) and the nodes recorded in C
(Note [Declared nodes] in csrc/autograd/derivatives.h).  Every declared row's gradients and
second derivatives are checked in test_autograd_ops.py (gradcheck, gradgradcheck, and the C and
Python forms against each other)."""
import importlib.util
import os

import pytest

import minitorch as torch
from minitorch import _C
from minitorch._op_table import OPS, d
from minitorch.autograd import _declared, _dsl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _generator():
    spec = importlib.util.spec_from_file_location(
        "gen_derivatives", os.path.join(ROOT, "tools", "gen_derivatives.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_vocabulary_has_a_c_and_a_python_form():
    gen = _generator()
    assert set(gen.VOCAB) | {"shape", "dtype", "ndim", "dim", "numel", "size"} == \
        set(_dsl.VOCAB_NAMES)
    # has_grad is bound per node (it reads which gradients arrived)
    py = set(_declared.VOCAB) - {"pi", "e", "inf", "nan"} | {"has_grad"}
    for name in _dsl.VOCAB_NAMES - py:
        assert hasattr(torch.Tensor, name), name          # a tensor method in Python


def test_every_declared_row_is_recorded_in_c():
    declared = {r["name"] for r in OPS if isinstance(r["grad"], dict)}
    assert declared and declared == set(_C._declared_ops())


def _emit(spec, gen=None):
    gen = gen or _generator()
    out = []
    gen.emit_declaration(gen._load_dsl(os.path.join(ROOT, "python", "minitorch", "_op_table.py")),
                         "probe", spec, out)
    return "\n".join(out)


def test_the_generator_rejects_bad_declarations():
    gen = _generator()
    with pytest.raises(ValueError, match="unknown names"):
        _emit(d("Tensor self", self="grad * bogus(self)"))
    with pytest.raises(ValueError, match="not a tensor parameter"):
        _emit(d("Tensor self, int dim", dim="grad"))
    with pytest.raises(gen.CompileError, match="not in the vocabulary"):
        _emit(d("Tensor self", self="grad.bogus_method()"), gen)
    with pytest.raises(ValueError, match="bad parameter"):
        _emit(d("Tensr self", self="grad"))
    code = _emit(d("Tensor self, Tensor|Scalar other", self="grad * conj(other)",
                   other="grad * conj(self)"))
    assert "mt__dform_probe_self" in code and "mt__dform_probe_other" in code


def test_a_formula_keeps_only_what_a_needed_gradient_reads():
    # y = x * c with c not requiring grad: only x's gradient is needed, which reads c, not x;
    # so x may be written in place afterwards
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    c = torch.randn(3, dtype=torch.float64)
    a = x * 1
    y = a * c
    a.mul_(5)
    y.sum().backward()
    assert torch.allclose(x.grad, c)
    # but when c requires grad too, a is read by c's gradient: the in-place write is an error
    c.requires_grad_()
    a = x * 1
    y = a * c
    a.mul_(5)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_shapes_are_read_without_keeping_the_tensor():
    x = torch.randn(2, 3, requires_grad=True)
    a = x * 2
    y = a.sum(1)                      # sum's formula reads a.shape only
    a.add_(1)
    y.sum().backward()
    assert torch.equal(x.grad, torch.full((2, 3), 2.0))


def test_the_nodes_run_in_c_and_their_python_form_agrees():
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, dtype=torch.float64, requires_grad=True)
    y = ((x * w + 1).tanh() / (w.exp() + 2)).sum()
    assert y.grad_fn._cformula == "sum"
    g_c = torch.autograd.grad(y, [x, w], retain_graph=True)
    assert _C._last_backward_c_nodes() >= 5
    g_py = torch.autograd.grad(y, [x, w], create_graph=True)
    assert all(g.grad_fn is not None for g in g_py)
    for a, b in zip(g_c, g_py):
        assert torch.allclose(a, b.detach(), rtol=1e-14, atol=0)


def test_a_node_with_hooks_runs_the_python_form():
    x = torch.randn(3, requires_grad=True)
    y = x.exp()
    seen = []
    y.grad_fn.register_hook(lambda gi, go: seen.append((gi, go)))
    y.sum().backward()
    assert len(seen) == 1 and torch.allclose(seen[0][0][0], x.exp().detach())


def test_calls_the_declaration_does_not_cover_go_to_the_python_recorder():
    x = torch.randn(2, 3, requires_grad=True)
    out = torch.empty(2, 3)
    with pytest.raises(RuntimeError, match="out=... arguments don't support automatic"):
        torch.add(x, 1, out=out)
    y = x.view(torch.int32)                            # view(dtype): not int[]
    assert not y.requires_grad
    z = torch.sum(input=x)                             # the first parameter by keyword
    z.backward()
    assert torch.equal(x.grad, torch.ones(2, 3))


def test_second_backward_through_a_released_node_raises():
    x = torch.randn(3, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()
    z = (x + 1).sum()                                  # keeps nothing: may run again
    z.backward()
    z.backward()
    assert torch.allclose(x.grad, 2 * x.detach() * 1 + 2)


def test_varargs_and_keywords_bind_as_the_op_reads_them():
    x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
    for f in (lambda t: t.permute(2, 0, 1), lambda t: t.permute((2, 0, 1)),
              lambda t: t.view(4, 6), lambda t: t.view([24]), lambda t: t.reshape(-1, 2),
              lambda t: t.expand(2, 2, 3, 4), lambda t: t.sum(dim=(0, 2), keepdim=True),
              lambda t: t.mean(-1), lambda t: torch.flip(t, [0, 2]), lambda t: t.flip(1)):
        y = f(x)
        assert y.grad_fn._cformula is not None
        assert torch.autograd.gradcheck(f, [x])
