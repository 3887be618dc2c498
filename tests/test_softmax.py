"""softmax / log_softmax (Note [Fused softmax]): the one-pass-per-row kernel along the last
dimension against numpy in float64 and against the op-by-op form, NaN and infinite rows as
torch, every other layout through the op-by-op form, gradients."""
import math

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F


def _np_log_softmax(a, axis):
    m = a.max(axis=axis, keepdims=True)
    return (a - m) - np.log(np.exp(a - m).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("dtype,tol", [(torch.float32, 2e-6), (torch.float64, 1e-14)])
@pytest.mark.parametrize("shape", [(7,), (3, 5), (4, 3, 1000), (2, 2049), (5, 1)])
def test_last_dim_against_numpy(dtype, tol, shape):
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape) * 10
    x = torch.from_numpy(a).to(dtype)
    want = _np_log_softmax(a.astype(np.float64), -1)
    for dim in (-1, len(shape) - 1):
        np.testing.assert_allclose(torch.log_softmax(x, dim).double().numpy(), want,
                                   rtol=tol * 10, atol=tol * 10)
        np.testing.assert_allclose(torch.softmax(x, dim).double().numpy(), np.exp(want),
                                   rtol=tol * 10, atol=tol)
        assert torch.softmax(x, dim).dtype == dtype


def test_other_layouts_agree_with_the_last_dim_kernel():
    x = torch.randn(6, 40, 30)
    for dim in (0, 1):
        moved = x.movedim(dim, -1).contiguous()
        np.testing.assert_allclose(torch.softmax(x, dim).movedim(dim, -1).numpy(),
                                   torch.softmax(moved, -1).numpy(), rtol=1e-6, atol=1e-7)
    t = x.transpose(1, 2)                            # last dim not contiguous: op by op
    np.testing.assert_allclose(torch.log_softmax(t, -1).numpy(),
                               torch.log_softmax(t.contiguous(), -1).numpy(), rtol=1e-6,
                               atol=1e-6)


def test_nan_and_infinite_rows_as_torch():
    x = torch.tensor([[1.0, float("nan"), 2.0],        # a NaN: the whole row is NaN
                      [float("-inf"), 0.0, 1.0],       # -inf: probability 0
                      [float("-inf")] * 3,             # all -inf: NaN (0/0), as torch
                      [float("inf"), 0.0, 1.0],        # +inf: NaN (inf - inf)
                      [1000.0, 0.0, -1000.0]])         # no overflow: the max is subtracted
    s = torch.softmax(x, -1).tolist()
    assert all(math.isnan(v) for v in s[0])
    assert s[1][0] == 0.0 and abs(sum(s[1]) - 1) < 1e-6
    assert all(math.isnan(v) for v in s[2])
    assert math.isnan(s[3][0])
    assert s[4] == [1.0, 0.0, 0.0]
    ls = torch.log_softmax(x, -1).tolist()
    assert ls[1][0] == float("-inf") and ls[4][0] == 0.0 and ls[4][2] == -2000.0
    # inputs of float32's whole range: exp underflows to subnormals and zero exactly as libm's
    y = torch.tensor([[0.0, -87.5, -100.0, -104.0]])
    np.testing.assert_allclose(torch.softmax(y, -1).numpy(),
                               np.exp(np.array([[0.0, -87.5, -100.0, -104.0]], np.float32)) /
                               np.float32(1.0), rtol=1e-6, atol=0)


def test_gradients_through_the_kernel():
    x = torch.randn(3, 17, dtype=torch.float64).requires_grad_()
    assert torch.autograd.gradcheck(lambda t: torch.log_softmax(t, -1), (x,))
    assert torch.autograd.gradcheck(lambda t: torch.softmax(t, -1), (x,))
    logits = torch.randn(8, 50, requires_grad=True)
    target = torch.randint(0, 50, (8,))
    F.cross_entropy(logits, target).backward()
    p = torch.softmax(logits.detach(), -1)
    p[torch.arange(8), target] -= 1
    np.testing.assert_allclose(logits.grad.numpy(), (p / 8).numpy(), rtol=1e-5, atol=1e-7)


def test_private_entry_refuses_what_it_does_not_compute():
    assert torch._C._softmax_lastdim(torch.ones(3, dtype=torch.int64), False) is NotImplemented
    assert torch._C._softmax_lastdim(torch.ones(3, 0), True) is NotImplemented
    assert torch._C._softmax_lastdim(torch.ones(4, 3).t(), True) is NotImplemented
    assert torch._C._softmax_lastdim(5, True) is NotImplemented
    with pytest.raises(TypeError, match="takes 2 arguments"):
        torch._C._softmax_lastdim(torch.ones(3))
