"""Random numbers on a CUDA device (Note [CUDA random fills], Note [One random stream on every
device]): for one seed, every fill gives the CPU's numbers bit for bit (beyond torch, whose CUDA
and CPU streams differ); the per-device default generators seed, save and restore as torch's.
Runs on a GPU or on the emulated device (.ci/cuda_emulated); skipped without one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]


def _both(make, seed=1234):
    """make(device) on the cpu and on cuda after the same seed."""
    torch.manual_seed(seed)
    want = make("cpu")
    torch.manual_seed(seed)
    got = make("cuda")
    assert got.device.type == "cuda"
    return got.cpu(), want


def _identical(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.is_floating_point:
        # bit for bit (NaN-free draws)
        a = got.view(torch.int16 if got.element_size() == 2 else
                     torch.int32 if got.element_size() == 4 else torch.int64)
        b = want.view(a.dtype)
        assert torch.equal(a, b), (got, want)
    else:
        assert torch.equal(got, want), (got, want)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 7, 4099])
def test_rand_randn_same_numbers(dtype, n):
    _identical(*_both(lambda d: torch.rand(n, dtype=dtype, device=d)))
    _identical(*_both(lambda d: torch.randn(n, dtype=dtype, device=d)))
    _identical(*_both(lambda d: torch.rand(3, n, dtype=dtype, device=d)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("fill", [
    lambda t: t.uniform_(-2.5, 4.0),
    lambda t: t.normal_(1.5, 0.25),
    lambda t: t.exponential_(2.0),
    lambda t: t.cauchy_(0.5, 2.0),
    lambda t: t.log_normal_(0.1, 0.5),
    lambda t: t.geometric_(0.3),
    lambda t: t.bernoulli_(0.3),
    lambda t: t.random_(0, 100),
    lambda t: t.random_(),
], ids=["uniform", "normal", "exponential", "cauchy", "log_normal", "geometric", "bernoulli",
        "random_range", "random"])
def test_every_fill_same_numbers(dtype, fill):
    _identical(*_both(lambda d: fill(torch.empty(1001, dtype=dtype, device=d))))


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8,
                                   torch.bool])
def test_integer_fills(dtype):
    hi = 2 if dtype == torch.bool else 100
    _identical(*_both(lambda d: torch.randint(0, hi, (999,), dtype=dtype, device=d)))
    _identical(*_both(lambda d: torch.empty(513, dtype=dtype, device=d).random_()))
    _identical(*_both(lambda d: torch.empty(513, dtype=dtype, device=d).bernoulli_(0.7)))
    if dtype != torch.bool:
        _identical(*_both(lambda d: torch.empty(257, dtype=dtype, device=d).geometric_(0.2)))
        _identical(*_both(lambda d: torch.randint(-5 if dtype != torch.uint8 else 0, 7, (3, 50),
                                                  dtype=dtype, device=d)))


def test_wide_ranges_and_64bit_ints():
    _identical(*_both(lambda d: torch.randint(-2 ** 63, 2 ** 63 - 1, (301,), device=d)))
    _identical(*_both(lambda d: torch.empty(301, dtype=torch.int64, device=d).random_(-2 ** 40, 2 ** 41)))
    _identical(*_both(lambda d: torch.empty(301, dtype=torch.float64, device=d).random_()))


def test_sequences_of_calls_and_large_fill():
    def make(d):
        a = torch.rand(5, device=d)
        b = torch.randn(100001, device=d)
        c = torch.randint(0, 10, (9,), device=d)
        return torch.cat([a, b, c.float()])
    _identical(*_both(make))


def test_non_contiguous_and_like():
    def make(d):
        t = torch.zeros(40, 30, device=d).t()
        t.normal_()
        return t
    _identical(*_both(make))
    _identical(*_both(lambda d: torch.zeros(6, 10, device=d)[:, ::3].uniform_()))
    _identical(*_both(lambda d: torch.rand_like(torch.zeros(4, 5, device=d))))
    _identical(*_both(lambda d: torch.randn_like(torch.zeros(4, 5, dtype=torch.float64, device=d))))
    _identical(*_both(lambda d: torch.normal(2.0, 3.0, size=(17,), device=d)))


def test_bernoulli_tensor_p():
    p = torch.linspace(0, 1, 1003).reshape(17, 59)
    _identical(*_both(lambda d: torch.bernoulli(p.to(d))))
    _identical(*_both(lambda d: torch.empty(17, 59, device=d).bernoulli_(p[0].to(d))))
    _identical(*_both(lambda d: torch.empty(17, 59, dtype=torch.int32, device=d)
                      .bernoulli_(p.to(d).half())))
    bad = torch.tensor([0.5, 1.5], device="cuda")
    with pytest.raises(RuntimeError, match="p_in >= 0 && p_in <= 1"):
        torch.bernoulli(bad)
    with pytest.raises(RuntimeError, match="p_in >= 0 && p_in <= 1"):
        torch.bernoulli(torch.tensor([float("nan")], device="cuda"))


def test_distribution_statistics_on_device():
    torch.manual_seed(0)
    x = torch.randn(200000, device="cuda", dtype=torch.float64).cpu().numpy()
    assert abs(x.mean()) < 0.01 and abs(x.std() - 1) < 0.01
    u = torch.rand(200000, device="cuda").cpu().numpy()
    assert u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    e = torch.empty(200000, device="cuda").exponential_(4.0).cpu().numpy()
    assert e.min() > 0 and abs(e.mean() - 0.25) < 0.005
    c = torch.empty(200000, device="cuda").cauchy_().cpu().numpy()
    assert np.isfinite(c).all() and abs(np.median(c)) < 0.02
    # log-normal draws are exp of the normal draws of the same counters
    torch.manual_seed(5)
    ln = torch.empty(5000, dtype=torch.float64, device="cuda").log_normal_(0.0, 1.0).cpu().numpy()
    torch.manual_seed(5)
    nn = torch.empty(5000, dtype=torch.float64, device="cuda").normal_(0.0, 1.0).cpu().numpy()
    np.testing.assert_allclose(ln, np.exp(nn), rtol=4e-16)


def test_generators_per_device():
    torch.cuda.manual_seed(7)
    a = torch.rand(10, device="cuda")
    torch.cuda.manual_seed(7)
    b = torch.rand(10, device="cuda")
    assert torch.equal(a.cpu(), b.cpu())
    assert torch.cuda.initial_seed() == 7
    # the cuda generators are not the cpu's
    torch.manual_seed(3)
    torch.cuda.manual_seed(11)
    c = torch.rand(10)
    torch.manual_seed(3)
    torch.cuda.manual_seed(12)
    d = torch.rand(10)
    assert torch.equal(c, d)
    # get/set_rng_state replays a device's stream
    torch.cuda.manual_seed_all(21)
    state = torch.cuda.get_rng_state()
    assert state.device.type == "cpu" and state.dtype == torch.uint8
    x = torch.randn(33, device="cuda")
    torch.cuda.set_rng_state(state)
    y = torch.randn(33, device="cuda")
    assert torch.equal(x.cpu(), y.cpu())
    states = torch.cuda.get_rng_state_all()
    assert len(states) == torch.cuda.device_count()
    torch.cuda.set_rng_state_all(states)


def test_generator_objects():
    g = torch.Generator(device="cuda")
    assert g.device.type == "cuda"
    g.manual_seed(99)
    a = torch.rand(50, device="cuda", generator=g)
    h = torch.Generator()
    h.manual_seed(99)
    b = torch.rand(50, generator=h)
    _identical(a.cpu(), b)
    with pytest.raises(RuntimeError, match="Expected a 'cuda' device type for generator but found 'cpu'"):
        torch.rand(3, device="cuda", generator=h)
    with pytest.raises(RuntimeError, match="Expected a 'cpu' device type for generator but found 'cuda'"):
        torch.rand(3, generator=g)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_second_device_generator():
    torch.cuda.manual_seed_all(4)
    with torch.cuda.device(1):
        torch.cuda.manual_seed(5)
    assert torch.cuda.get_rng_state(1).tolist() != torch.cuda.get_rng_state(0).tolist()
    a = torch.rand(8, device="cuda:0")
    b = torch.rand(8, device="cuda:1")
    torch.manual_seed(4)
    assert torch.equal(a.cpu(), torch.rand(8))
    torch.manual_seed(5)
    assert torch.equal(b.cpu(), torch.rand(8))
    # torch.manual_seed seeds every device
    assert torch.cuda.get_rng_state(1).tolist() == torch.cuda.get_rng_state(0).tolist()


def test_poisson_and_multinomial_give_the_cpu_numbers():
    rates = torch.tensor([0.5, 3.0, 40.0, 0.0] * 5)
    probs = torch.tensor([[0.1, 0.2, 0.7, 0.0], [1.0, 1.0, 1.0, 1.0]])
    torch.manual_seed(11)
    ref = (torch.poisson(rates), torch.multinomial(probs, 3), torch.multinomial(probs, 6, True))
    torch.manual_seed(11)
    got = (torch.poisson(rates.cuda()), torch.multinomial(probs.cuda(), 3),
           torch.multinomial(probs.cuda(), 6, True))
    for g, r in zip(got, ref):
        assert g.is_cuda and g.dtype == r.dtype and torch.equal(g.cpu(), r)
    with pytest.raises(RuntimeError, match="element < 0"):
        torch.multinomial(torch.tensor([-1.0, 2.0], device="cuda"), 1)


def test_missing_kernels_raise():
    with pytest.raises(NotImplementedError):
        torch.empty(3, dtype=torch.int64, device="cuda").normal_()


def test_randperm_on_device():
    got, want = _both(lambda d: torch.randperm(1000, device=d))
    assert torch.equal(got, want)
    r = torch.randperm(10, device="cuda")
    assert r.device.type == "cuda" and sorted(r.cpu().tolist()) == list(range(10))
    with pytest.raises(RuntimeError, match="Expected a 'cuda' device type for generator"):
        torch.randperm(5, device="cuda", generator=torch.Generator())
