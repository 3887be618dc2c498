"""The nn operators of torch's top-level namespace under ATen's signatures (_nn_aliases.py).
Values captured from torch 2.15 (the first six values of each result)."""
import pytest

import minitorch as torch


def r(t):
    return [round(v, 5) for v in t.reshape(-1).tolist()][:6]


@pytest.fixture
def x():
    return torch.arange(24.0).reshape(2, 3, 4) / 10


def test_norms(x):
    w, b = torch.linspace(0.5, 1.5, 4), torch.linspace(-1, 1, 4)
    assert r(torch.layer_norm(x, (4,), w, b)) == pytest.approx(
        [-1.67055, -0.70586, 0.85487, 3.01166, -1.67055, -0.70586], abs=1e-4)
    assert r(torch.group_norm(x, 3, torch.ones(3), torch.zeros(3))) == pytest.approx(
        [-1.3411, -0.44703, 0.44703, 1.3411, -1.3411, -0.44703], abs=1e-4)
    rm, rv = torch.zeros(3), torch.ones(3)
    out = torch.batch_norm(x, torch.ones(3), torch.zeros(3), rm, rv, True, 0.1, 1e-5, False)
    assert r(out) == pytest.approx([-1.22883, -1.06499, -0.90114, -0.7373, -1.22883, -1.06499],
                                   abs=1e-4)
    assert rm.tolist() == pytest.approx([0.075, 0.115, 0.155])        # weight first, as ATen
    assert r(torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False)) == \
        pytest.approx([-1.3411, -0.44703, 0.44703, 1.3411, -1.3411, -0.44703], abs=1e-4)
    assert r(torch.rms_norm(x, (4,), w)) == pytest.approx(
        [0.0, 0.44543, 1.24722, 2.40535, 0.35635, 0.74239], abs=1e-4)


def test_embedding_and_activations(x):
    e = torch.arange(12.0).reshape(4, 3)
    assert r(torch.embedding(e, torch.tensor([1, 3]))) == [3.0, 4.0, 5.0, 9.0, 10.0, 11.0]
    w = torch.arange(12.0).reshape(4, 3).requires_grad_()
    torch.embedding(w, torch.tensor([1, 3, 1]), padding_idx=1).sum().backward()
    assert w.grad[1].tolist() == [0.0, 0.0, 0.0] and w.grad[3].tolist() == [1.0, 1.0, 1.0]
    assert r(torch.prelu(x - 1, torch.tensor([0.25]))) == pytest.approx(
        [-0.25, -0.225, -0.2, -0.175, -0.15, -0.125])
    assert r(torch.hardshrink(x - 1, 0.5)) == pytest.approx([-1.0, -0.9, -0.8, -0.7, -0.6, 0.0])
    assert r(torch.threshold(x, 0.5, -1.0)) == [-1.0] * 6
    assert r(torch.bilinear(x[0], x[1], torch.ones(2, 4, 4), None)) == pytest.approx(
        [3.24, 3.24, 15.4, 15.4, 32.68, 32.68], abs=1e-4)


def test_pools(x):
    assert r(torch.max_pool1d(x, 2)) == pytest.approx([0.1, 0.3, 0.5, 0.7, 0.9, 1.1])
    assert r(torch.max_pool1d_with_indices(x, 2)[1]) == [1, 3, 1, 3, 1, 3]
    assert r(torch.max_pool2d(x, 2, [1])) == pytest.approx([0.5, 0.6, 0.7, 0.9, 1.0, 1.1])
    assert r(torch.avg_pool1d(x, 2)) == pytest.approx([0.05, 0.25, 0.45, 0.65, 0.85, 1.05])
    assert r(torch.adaptive_avg_pool1d(x, 3)) == pytest.approx([0.05, 0.15, 0.25, 0.45, 0.55,
                                                                0.65])


def test_losses_take_int_reductions(x):
    lp, t = torch.log_softmax(x, -1), torch.softmax(x.flip(-1), -1)
    assert torch.kl_div(lp, t, 1).item() == pytest.approx(0.006232, abs=1e-6)
    assert r(torch.kl_div(lp, t, 0)) == pytest.approx([0.0866, 0.02612, -0.02363, -0.06415,
                                                       0.0866, 0.02612], abs=1e-4)
    assert torch.kl_div(lp, t, 2).item() == pytest.approx(0.149577, abs=1e-5)
    y = torch.ones_like(x) * 0.3
    assert torch.binary_cross_entropy_with_logits(x, y, None, None, 1).item() == \
        pytest.approx(1.123496, abs=1e-5)
    # without a reduction argument the result is unreduced, as torch's
    assert torch.binary_cross_entropy_with_logits(x, y).shape == x.shape
    assert torch.kl_div(x, x).shape == x.shape
    assert torch.kl_div(lp, t, 3).shape == x.shape      # an unknown reduction: none, as ATen


def test_methods():
    x = torch.tensor([[-1.0, 0.2, 2.0], [0.3, -0.7, 1.5]])
    assert x.hardshrink().reshape(-1).tolist() == pytest.approx([-1.0, 0.0, 2.0, 0.0, -0.7, 1.5])
    assert x.prelu(torch.tensor([0.25])).tolist()[0] == pytest.approx([-0.25, 0.2, 2.0])
    w = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
    y = torch.tensor([[-1.0, -2.0, -3.0]]).prelu(w)          # one weight per channel
    assert y.reshape(-1).tolist() == pytest.approx([-0.1, -0.4, -0.9])
    y.sum().backward()
    assert w.grad.tolist() == [-1.0, -2.0, -3.0]
