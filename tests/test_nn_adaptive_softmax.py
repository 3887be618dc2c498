"""nn.AdaptiveLogSoftmaxWithLoss: values and gradients as torch 2.15's for the same weights."""
import numpy as np
import pytest

import minitorch as torch


def _model():
    m = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 10], div_value=2.0)
    rng = np.random.default_rng(0)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32)) * 0.3)
    x = torch.from_numpy(rng.standard_normal((6, 8)).astype(np.float32)).requires_grad_()
    return m, x


def test_values_and_gradients_match_torch():
    m, x = _model()
    t = torch.tensor([0, 3, 5, 12, 19, 9])
    out, loss = m(x, t)
    loss.backward()
    np.testing.assert_allclose(out.detach().numpy(), [-2.5476, -1.7794, -4.7434, -5.0217,
                                                      -6.9795, -4.4547], atol=1e-4)
    assert abs(loss.item() - 4.25437) < 1e-4
    np.testing.assert_allclose(x.grad.numpy()[0], [-0.0149, 0.0006, -0.0335, 0.0012, -0.0105,
                                                   -0.0029, -0.0828, -0.0322], atol=1e-4)
    np.testing.assert_allclose(m.tail[1][0].weight.grad.numpy()[0],
                               [0.0603, 0.0461, 0.0715, 0.0228, -0.2233, 0.0987, -0.2628,
                                -0.0302], atol=1e-4)
    lp = m.log_prob(x.detach())
    assert lp.shape == (6, 20)
    np.testing.assert_allclose(lp.exp().sum(1).detach().numpy(), np.ones(6), atol=1e-5)
    np.testing.assert_allclose(lp.detach().numpy()[np.arange(6), t.numpy()],
                               out.detach().numpy(), atol=1e-5)
    assert m.predict(x.detach()).tolist() == lp.argmax(1).tolist()
    assert m(x[0], t[0]).output.shape == ()
    assert m.log_prob(x[0].detach()).shape == (20,)


def test_structure_and_errors():
    m, x = _model()
    assert [tuple(p.shape) for p in m.parameters()] == [(6, 8), (4, 8), (6, 4), (2, 8), (10, 2)]
    with pytest.raises(RuntimeError, match=r"Target values should be in \[0, 19\], but values in "
                                           r"range \[0, 20\] were found"):
        m(x, torch.tensor([0, 1, 2, 3, 4, 20]))
    with pytest.raises(RuntimeError, match="same size in the batch dimension"):
        m(x, torch.tensor([0, 1, 2]))
    for cutoffs in ([4, 4], [0, 3], [3, 20]):
        with pytest.raises(ValueError, match="cutoffs should be a sequence of unique"):
            torch.nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs)
    with pytest.raises(ValueError, match="length larger than 0"):
        torch.nn.AdaptiveLogSoftmaxWithLoss(8, 20, [])
