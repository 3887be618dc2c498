"""cov (correction, fweights, aweights), corrcoef and histogram (bins, range, weight, density):
against NumPy, torch's errors and warnings, derivatives."""
import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import gradcheck, gradgradcheck


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, **kw):
    return torch.tensor(a, dtype=torch.float64, **kw)


def test_cov_against_numpy():
    x = _rand(3, 7)
    fw = np.array([1, 2, 1, 0, 3, 1, 2])
    aw = np.abs(_rand(7, seed=1)) + 0.1
    np.testing.assert_allclose(torch.cov(_t(x)).numpy(), np.cov(x), rtol=1e-13)
    np.testing.assert_allclose(torch.cov(_t(x), correction=0).numpy(), np.cov(x, ddof=0), rtol=1e-13)
    np.testing.assert_allclose(torch.cov(_t(x), correction=3).numpy(), np.cov(x, ddof=3), rtol=1e-13)
    np.testing.assert_allclose(torch.cov(_t(x), fweights=torch.tensor(fw)).numpy(), np.cov(x, fweights=fw), rtol=1e-13)
    np.testing.assert_allclose(torch.cov(_t(x), aweights=_t(aw)).numpy(), np.cov(x, aweights=aw), rtol=1e-13)
    np.testing.assert_allclose(torch.cov(_t(x), correction=0, fweights=torch.tensor(fw), aweights=_t(aw)).numpy(),
                               np.cov(x, ddof=0, fweights=fw, aweights=aw), rtol=1e-13)
    np.testing.assert_allclose(torch.cov(_t(x), fweights=torch.tensor(fw), aweights=_t(aw)).numpy(),
                               np.cov(x, fweights=fw, aweights=aw), rtol=1e-13)
    one = torch.cov(_t(x[0]))
    assert one.shape == () and abs(one.item() - np.cov(x[0])) < 1e-14
    assert torch.cov(torch.tensor([[0, 1, 2], [2, 1, 0]])).dtype == torch.float32
    assert torch.equal(_t(x).cov(), torch.cov(_t(x)))
    c = _rand(2, 5) + 1j * _rand(2, 5, seed=3)
    np.testing.assert_allclose(torch.cov(torch.tensor(c)).numpy(), np.cov(c), rtol=1e-13)


def test_cov_errors_and_warnings():
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="expected input to have two or fewer dimensions but got an input with 3 dimensions"):
        torch.cov(torch.ones(2, 2, 2))
    with pytest.raises(RuntimeError, match="expected fweights to have integral dtype but got fweights with Float dtype"):
        torch.cov(x, fweights=torch.ones(3))
    with pytest.raises(RuntimeError, match="fweights cannot be negative"):
        torch.cov(x, fweights=torch.tensor([1, -2, 1]))
    with pytest.raises(RuntimeError, match="expected aweights to have floating point dtype but got aweights with Long dtype"):
        torch.cov(x, aweights=torch.ones(3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="aweights cannot be negative"):
        torch.cov(x, aweights=torch.tensor([1.0, -2.0, 1.0]))
    with pytest.raises(RuntimeError, match=r"expected fweights to have the same numel as there are observations in the input but got 2 != 3"):
        torch.cov(x, fweights=torch.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="expected aweights to have one or fewer dimensions"):
        torch.cov(x, aweights=torch.ones(1, 3))
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        r = torch.cov(torch.ones(2, 1))
    assert r.isnan().all()


def test_corrcoef():
    x = _rand(4, 9)
    np.testing.assert_allclose(torch.corrcoef(_t(x)).numpy(), np.corrcoef(x), rtol=1e-13)
    assert torch.corrcoef(_t(x[0])).item() == 1.0
    r = torch.corrcoef(torch.tensor([[0.0, 1, 2], [2, 1, 0]]))
    assert (r <= 1).all() and (r >= -1).all() and r[0, 1].item() == -1.0
    c = _rand(2, 6) + 1j * _rand(2, 6, seed=1)
    np.testing.assert_allclose(torch.corrcoef(torch.tensor(c)).numpy(), np.corrcoef(c), rtol=1e-12)


def test_cov_corrcoef_derivatives():
    x = _t(_rand(3, 5), requires_grad=True)
    w = _t(np.abs(_rand(5, seed=1)))
    assert gradcheck(lambda a: torch.cov(a, aweights=w), (x,))
    assert gradgradcheck(lambda a: torch.cov(a, correction=0), (x,))
    assert gradcheck(torch.corrcoef, (x,)) and gradgradcheck(torch.corrcoef, (x,))


@pytest.mark.parametrize("bins", [1, 3, 10])
def test_histogram_against_numpy(bins):
    x = _rand(200)
    h, e = torch.histogram(_t(x), bins)
    hn, en = np.histogram(x, bins)
    np.testing.assert_array_equal(h.numpy(), hn)
    np.testing.assert_allclose(e.numpy(), en, rtol=1e-15, atol=1e-14)
    h, e = torch.histogram(_t(x), bins, range=(-1.0, 2.0))
    hn, en = np.histogram(x, bins, range=(-1.0, 2.0))
    np.testing.assert_array_equal(h.numpy(), hn)
    w = np.abs(_rand(200, seed=1))
    h, e = torch.histogram(_t(x), bins, weight=_t(w), density=True)
    hn, en = np.histogram(x, bins, weights=w, density=True)
    np.testing.assert_allclose(h.numpy(), hn, rtol=1e-13)
    edges = np.array([-3.0, -0.5, 0.0, 0.1, 2.0])
    h, e = torch.histogram(_t(x), _t(edges))
    np.testing.assert_array_equal(h.numpy(), np.histogram(x, edges)[0])
    assert torch.equal(e, _t(edges))


def test_histogram_edge_cases():
    r = torch.histogram(torch.tensor([1.0, 2, 1, 4, 2.5]), 3)
    assert r.hist.tolist() == [2, 2, 1] and r.bin_edges.tolist() == [1, 2, 3, 4]
    h, e = torch.histogram(torch.ones(3), 3)                # equal values: a unit range around them
    assert h.tolist() == [0, 3, 0] and e[0].item() == 0.5 and e[-1].item() == 1.5
    h, e = torch.histogram(torch.ones(0), 3)
    assert h.tolist() == [0, 0, 0] and e.tolist()[0] == 0 and e.tolist()[-1] == 1
    h, e = torch.histogram(torch.arange(6.0).reshape(2, 3), bins=2)
    assert h.tolist() == [3, 3] and h.dtype == torch.float32
    assert torch.histogram(torch.ones(2, dtype=torch.float64), 2).hist.dtype == torch.float64
    out = (torch.empty(0), torch.empty(0))
    r = torch.histogram(torch.tensor([0.5, 1.5]), 2, range=(0.0, 2.0), out=out)
    assert r.hist is out[0] and out[0].tolist() == [1, 1]
    assert torch.tensor([0.0, 3.0]).histogram(3).hist.tolist() == [1, 0, 1]
    with pytest.raises(NotImplementedError, match="\"histogramdd\" not implemented for 'Long'"):
        torch.histogram(torch.tensor([1, 2]), 2)
    with pytest.raises(RuntimeError, match="bins must be > 0, but got 0 for dimension 0"):
        torch.histogram(torch.ones(2), 0)
    with pytest.raises(RuntimeError, match="min should not exceed max, but got min 3 max 1"):
        torch.histogram(torch.ones(2), 3, range=(3.0, 1.0))
    with pytest.raises(RuntimeError, match=r"range \[1, inf\] is not finite"):
        torch.histogram(torch.tensor([1.0, float("inf")]), 2)
    with pytest.raises(RuntimeError, match="should have the same dtype"):
        torch.histogram(torch.ones(2), 2, weight=torch.ones(2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="bins tensor should have one dimension"):
        torch.histogram(torch.ones(2), torch.ones(1, 2))


def test_histogram_weight_gradient():
    w = _t(np.abs(_rand(6)), requires_grad=True)
    x = _t([0.1, 0.4, 0.5, 0.9, 0.2, 0.7])
    assert gradcheck(lambda v: torch.histogram(x, 3, range=(0.0, 1.0), weight=v).hist, (w,))
