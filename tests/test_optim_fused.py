"""Note [Fused Adam]: the one-pass Adam/AdamW step gives the same bits as the op-by-op update
(every flag, both float dtypes, dense and strided parameters), and bad arguments raise."""
import pytest

import minitorch as torch
from minitorch.optim import Adam, AdamW
from minitorch.optim import adam as adam_module


def _run(cls, kwargs, dtype, strided, fused, monkeypatch, steps=6):
    monkeypatch.setattr(adam_module, "_fusable",
                        adam_module._fusable if fused else (lambda *a: False))
    g = torch.Generator().manual_seed(7)
    base = torch.randn(9, 14, generator=g, dtype=dtype)
    p = base.t() if strided else base.clone()       # a transposed parameter: the strided loop
    p.requires_grad_()
    b = torch.randn(5, generator=g, dtype=dtype).requires_grad_()
    opt = cls([p, b], **kwargs)
    for i in range(steps):
        p.grad = torch.randn(p.shape, generator=g, dtype=dtype) * (i + 1)
        b.grad = torch.randn(5, generator=g, dtype=dtype)
        opt.step()
    return [p.detach().clone(), b.detach().clone()] + \
        [t.clone() for s in opt.state.values() for k, t in sorted(s.items()) if k != "step"]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("strided", [False, True])
@pytest.mark.parametrize("cls,kwargs", [
    (Adam, {}),
    (Adam, {"weight_decay": 0.1, "amsgrad": True}),
    (Adam, {"maximize": True, "lr": 0.05, "betas": (0.3, 0.9)}),  # lerp's other branch
    (AdamW, {}),
    (AdamW, {"weight_decay": 0.3, "amsgrad": True, "maximize": True, "eps": 1e-3}),
])
def test_fused_step_is_the_op_by_op_step(cls, kwargs, dtype, strided, monkeypatch):
    want = _run(cls, kwargs, dtype, strided, False, monkeypatch)
    got = _run(cls, kwargs, dtype, strided, True, monkeypatch)
    assert len(got) == len(want)
    for a, e in zip(got, want):
        assert torch.equal(a, e), (a - e).abs().max()


def test_fused_step_bumps_versions_and_refuses_bad_arguments():
    p = torch.ones(4)
    g, m, v = torch.ones(4), torch.zeros(4), torch.zeros(4)
    before = p._version
    torch._C._adam_step_(p, g, m, v, None, 0.9, 0.999, 0.1, 0.0, 1e-8, 1.0, 1.0, False, False)
    assert p._version > before and m._version > 0
    assert p.tolist() != [1.0] * 4
    with pytest.raises(TypeError, match="takes 14 arguments"):
        torch._C._adam_step_(p, g, m, v)
    with pytest.raises(TypeError, match="grad must be a Tensor"):
        torch._C._adam_step_(p, 1, m, v, None, 0.9, 0.999, 0.1, 0.0, 1e-8, 1.0, 1.0, False, False)
    with pytest.raises(ValueError, match="shape"):
        torch._C._adam_step_(p, torch.ones(5), m, v, None, 0.9, 0.999, 0.1, 0.0, 1e-8, 1.0, 1.0,
                             False, False)
    with pytest.raises(ValueError, match="float32 or float64"):
        torch._C._adam_step_(torch.ones(4, dtype=torch.int64), g, m, v, None, 0.9, 0.999, 0.1,
                             0.0, 1e-8, 1.0, 1.0, False, False)
