"""Fractional max pooling: windows, values, indices and gradients as torch 2.15's for the same
_random_samples (Note [Fractional windows])."""
import numpy as np
import pytest

import minitorch as torch

F = torch.nn.functional


def _x2():
    return torch.arange(2 * 2 * 7 * 9, dtype=torch.float32).reshape(2, 2, 7, 9).sin()


S2 = [[[0.1, 0.7], [0.5, 0.3]], [[0.9, 0.2], [0.0, 0.99]]]


def test_2d_matches_torch():
    s = torch.tensor(S2)
    o, i = F.fractional_max_pool2d(_x2(), 2, output_size=(4, 5), return_indices=True,
                                   _random_samples=s)
    assert i[0, 0].tolist() == [[1, 2, 13, 14, 8], [9, 20, 21, 14, 26], [27, 38, 39, 33, 34],
                                [46, 46, 58, 51, 52]]
    assert i[1, 1].tolist() == [[1, 1, 13, 14, 7], [27, 20, 21, 32, 26], [27, 38, 39, 32, 44],
                                [45, 46, 58, 51, 52]]
    np.testing.assert_allclose(o[0, 0, 0].numpy(), [0.84147, 0.9093, 0.42017, 0.99061, 0.98936],
                               atol=1e-4)
    assert torch.equal(o.flatten(2), _x2().flatten(2).gather(2, i.flatten(2)))
    o2 = F.fractional_max_pool2d(_x2(), (3, 2), output_ratio=(0.5, 0.5), _random_samples=s)
    assert o2.shape == (2, 2, 3, 4)
    np.testing.assert_allclose(o2[1, 0, 0].numpy(), [0.97263, 0.99647, 0.98024, 0.93332],
                               atol=1e-4)
    x = _x2().requires_grad_()
    F.fractional_max_pool2d(x, 2, output_size=(4, 5), _random_samples=s).sum().backward()
    assert x.grad[0, 0, 1].tolist() == [1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0]
    assert F.fractional_max_pool2d(_x2()[0], 2, output_size=3).shape == (2, 3, 3)


def test_3d_matches_torch():
    x = torch.arange(1 * 2 * 5 * 6 * 7, dtype=torch.float64).reshape(1, 2, 5, 6, 7).cos()
    s = torch.tensor([[[0.1, 0.7, 0.4], [0.5, 0.3, 0.8]]], dtype=torch.float64)
    o, i = F.fractional_max_pool3d(x, 2, output_size=(3, 4, 3), return_indices=True,
                                   _random_samples=s)
    assert o.shape == (1, 2, 3, 4, 3)
    assert i[0, 1].flatten().tolist() == [
        42, 10, 54, 15, 10, 54, 29, 73, 34, 35, 79, 41, 85, 129, 97, 98, 142, 104, 148, 149, 117,
        161, 122, 167, 168, 129, 173, 141, 142, 180, 148, 192, 160, 161, 205, 167]
    xx = x.clone().requires_grad_()
    assert torch.autograd.gradcheck(
        lambda t: F.fractional_max_pool3d(t, 2, output_size=(3, 4, 3), _random_samples=s), (xx,))


def test_modules_and_errors():
    m = torch.nn.FractionalMaxPool2d(2, output_ratio=0.5)
    assert m(_x2()).shape == (2, 2, 3, 4)
    assert torch.nn.FractionalMaxPool3d(2, output_size=2)(torch.randn(1, 1, 4, 4, 4)).shape == \
        (1, 1, 2, 2, 2)
    o1 = torch.nn.FractionalMaxPool2d(2, output_size=3, _random_samples=torch.tensor(S2))(_x2())
    o2 = F.fractional_max_pool2d(_x2(), 2, output_size=3, _random_samples=torch.tensor(S2))
    assert torch.equal(o1, o2)
    with pytest.raises(ValueError, match="requires specifying either an output_size or an "
                                         "output_ratio"):
        F.fractional_max_pool2d(_x2(), 2)
    with pytest.raises(RuntimeError, match="pool height 2 too large relative to input height 7"):
        F.fractional_max_pool2d(_x2(), 2, output_size=(8, 9))
    with pytest.raises(ValueError, match="output_ratio must be between 0 and 1"):
        torch.nn.FractionalMaxPool2d(2, output_ratio=1.5)
    with pytest.raises(ValueError, match="only one of output_size and output_ratio"):
        torch.nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5)
