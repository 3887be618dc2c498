"""Random numbers: seeding and Generator objects, state save/restore, determinism across thread
counts, the distributions' statistics and the bad-input errors.

Statistics use fixed seeds and tests whose false-failure probability is below about 1e-6:
Kolmogorov-Smirnov with the critical value 2.5 / sqrt(n) for continuous distributions, and
chi-square with the threshold df + 7 * sqrt(2 * df) (about 5 standard deviations) for discrete
ones; means and variances within 6 standard errors.  The streams are not PyTorch's
(counter-based Philox, see aten_lite/random.h): only the distributions are compared."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import minitorch as torch

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None)
F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
FLOATS = [F16, BF16, F32, F64]
INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
N = 200_000  # large enough to be split across threads


def to_np(t):
    return t.double().numpy() if t.dtype in (F16, BF16) else t.numpy()


def ks_stat(x, cdf):
    """Kolmogorov-Smirnov distance between the sample x and the CDF `cdf` (vectorised)."""
    x = np.sort(np.asarray(x, dtype=np.float64))
    n = len(x)
    f = cdf(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


def assert_ks(x, cdf):
    assert ks_stat(x, cdf) < 2.5 / math.sqrt(len(x))


def assert_chi2(counts, expected):
    counts, expected = np.asarray(counts, np.float64), np.asarray(expected, np.float64)
    df = len(counts) - 1
    stat = np.sum((counts - expected) ** 2 / expected)
    assert stat < df + 7 * math.sqrt(2 * df), (stat, df)


_erf = np.vectorize(math.erf)


def normal_cdf(x, m=0.0, s=1.0):
    return 0.5 * (1 + _erf((x - m) / (s * math.sqrt(2))))


@pytest.fixture(autouse=True)
def _restore_threads():
    n = torch.get_num_threads()
    yield
    torch.set_num_threads(n)


# ---- seeding, generators, state ----------------------------------------------------------------
def test_manual_seed_returns_default_generator_and_repeats():
    g = torch.manual_seed(123)
    assert g is torch.default_generator and isinstance(g, torch.Generator)
    assert torch.initial_seed() == 123
    a = torch.rand(100)
    torch.manual_seed(123)
    assert np.array_equal(a.numpy(), torch.rand(100).numpy())
    b = torch.rand(100)
    assert not np.array_equal(a.numpy(), b.numpy())  # the stream moves on


def test_seed_values():
    torch.manual_seed(-1)
    assert torch.initial_seed() == 2 ** 64 - 1
    torch.manual_seed(2 ** 64 - 1)
    a = torch.rand(5)
    torch.manual_seed(-1)
    assert np.array_equal(a.numpy(), torch.rand(5).numpy())
    with pytest.raises(RuntimeError, match="Overflow"):
        torch.manual_seed(2 ** 64)
    with pytest.raises(TypeError):
        torch.Generator().manual_seed("3")
    s = torch.seed()
    assert isinstance(s, int) and 0 <= s < 2 ** 64 and torch.initial_seed() == s
    assert torch.default_generator.seed() != s  # 64 random bits


def test_default_initial_seed_of_new_generator():
    assert torch.Generator().initial_seed() == 67280421310721


def test_generators_are_independent():
    g1 = torch.Generator().manual_seed(7)
    g2 = torch.Generator(device="cpu")
    assert g2.manual_seed(7) is g2 and g2.device == torch.device("cpu")
    torch.manual_seed(0)
    before = torch.get_rng_state()
    a = torch.randn(1000, generator=g1)
    b = torch.randn(1000, generator=g2)
    assert np.array_equal(a.numpy(), b.numpy())
    assert np.array_equal(before.numpy(), torch.get_rng_state().numpy())  # default not advanced
    torch.manual_seed(7)
    assert np.array_equal(torch.randn(1000).numpy(), a.numpy())


def test_generator_bad_arguments():
    if torch.cuda.device_count() == 0:
        with pytest.raises(RuntimeError):  # no CUDA device to make a generator for
            torch.Generator(device="cuda")
    with pytest.raises(TypeError, match="generator"):
        torch.rand(3, generator=5)
    with pytest.raises(TypeError, match="generator"):
        torch.randperm(3, generator="x")


def test_state_round_trip():
    torch.manual_seed(5)
    torch.rand(10)
    state = torch.get_rng_state()
    assert state.dtype == torch.uint8 and state.dim() == 1
    a = torch.randn(50)
    b = torch.randint(0, 100, (50,))
    torch.set_rng_state(state)
    assert np.array_equal(torch.randn(50).numpy(), a.numpy())
    assert np.array_equal(torch.randint(0, 100, (50,)).numpy(), b.numpy())
    g = torch.Generator()
    assert g.set_state(state) is g
    assert np.array_equal(torch.randn(50, generator=g).numpy(), a.numpy())
    assert torch.get_rng_state().numpy().tolist() != state.numpy().tolist()
    # the state is a copy, not a view of the generator
    st = g.get_state()
    torch.rand(3, generator=g)
    assert not np.array_equal(st.numpy(), g.get_state().numpy())


def test_random_module_and_fork_rng():
    assert torch.random.manual_seed(9) is torch.default_generator
    assert torch.random.initial_seed() == 9
    before = torch.rand(3)
    torch.random.manual_seed(9)
    with torch.random.fork_rng():
        torch.rand(100)
    assert np.array_equal(torch.rand(3).numpy(), before.numpy())
    with pytest.raises(NotImplementedError):
        with torch.random.fork_rng(devices=[0]):
            pass


def test_generator_pickle_and_copy():
    import copy
    import pickle
    g = torch.Generator().manual_seed(31)
    torch.rand(5, generator=g)
    for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), copy.copy(g)):
        assert h is not g and h.initial_seed() == 31
        assert np.array_equal(torch.rand(9, generator=h).numpy(), torch.rand(9, generator=copy.copy(g)).numpy())
    a = torch.rand(4, generator=copy.deepcopy(g))
    assert np.array_equal(a.numpy(), torch.rand(4, generator=g).numpy())


def test_state_bad_inputs():
    with pytest.raises(RuntimeError, match="wrong size"):
        torch.set_rng_state(torch.zeros(5, dtype=torch.uint8))
    with pytest.raises(RuntimeError):
        torch.set_rng_state(torch.zeros(24, dtype=torch.uint8))  # no version tag
    with pytest.raises(TypeError, match="ByteTensor"):
        torch.set_rng_state(torch.zeros(24))
    with pytest.raises(TypeError, match="ByteTensor"):
        torch.set_rng_state([0] * 24)


# ---- determinism across thread counts ---------------------------------------------------------
DRAWS = [
    ("rand", lambda: torch.rand(N)),
    ("rand16", lambda: torch.rand(N + 3, dtype=F16)),
    ("randn", lambda: torch.randn(N + 1)),
    ("randn64", lambda: torch.randn(N + 1, dtype=F64)),
    ("randint", lambda: torch.randint(-5, 1000, (N,))),
    ("randperm", lambda: torch.randperm(N)),
    ("bernoulli", lambda: torch.bernoulli(torch.full((N,), 0.3))),
    ("bernoulli_t", lambda: torch.empty(N + 7).bernoulli_(torch.linspace(0, 1, N + 7))),
    ("randint8", lambda: torch.randint(0, 7, (N + 5,), dtype=torch.int8)),
    ("cauchy64", lambda: torch.empty(N + 3, dtype=F64).cauchy_()),
    ("exponential", lambda: torch.empty(N).exponential_(2.0)),
    ("geometric", lambda: torch.empty(N, dtype=torch.int32).geometric_(0.2)),
    ("normal_nc", lambda: torch.empty(500, 400).t().normal_(1.0, 2.0)),
    ("multinomial", lambda: torch.multinomial(torch.rand(64, 5000), 100)),
    ("poisson", lambda: torch.poisson(torch.rand(N // 4) * 30)),
    ("multinomial_r", lambda: torch.multinomial(torch.rand(64, 500), 1000, replacement=True)),
]


@pytest.mark.parametrize("name,draw", DRAWS, ids=[d[0] for d in DRAWS])
def test_same_numbers_for_any_thread_count(name, draw):
    res = []
    for n in (1, 2, 3):
        torch.set_num_threads(n)
        torch.manual_seed(2024)
        res.append(to_np(draw()))
    assert np.array_equal(res[0], res[1]) and np.array_equal(res[0], res[2])


def test_philox_known_answer():
    # Philox4x32-10 of counter 0 under key 0 (the Random123 known-answer vector) is
    # 0x6627e8d5 0xe169c58d 0xbc57ac4c 0x9b00dbd8; a float32 draw keeps the top 24 bits
    torch.manual_seed(0)
    words = [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert torch.rand(4).numpy().tolist() == [(w >> 8) / 2 ** 24 for w in words]
    torch.manual_seed(0)
    hi_lo = [(words[0] << 32 | words[1]) >> 11, (words[2] << 32 | words[3]) >> 11]
    assert torch.rand(2, dtype=F64).numpy().tolist() == [v / 2 ** 53 for v in hi_lo]


def test_concurrent_draws_from_one_generator_are_disjoint():
    import threading
    g = torch.Generator().manual_seed(4)
    start = int.from_bytes(bytes(g.get_state().numpy()[16:24].tolist()), "little")
    results = []

    def work():
        for _ in range(5):
            results.append(torch.rand(100_000, dtype=F64, generator=g).numpy())  # the GIL is released

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    allv = np.concatenate(results)
    assert len(np.unique(allv)) == len(allv)  # 53-bit draws: repeats only if blocks were shared
    end = int.from_bytes(bytes(g.get_state().numpy()[16:24].tolist()), "little")
    assert end - start == 15 * (100_000 // 2)  # every call reserved its own blocks


def test_offset_advances_so_calls_do_not_overlap():
    torch.manual_seed(1)
    a = torch.rand(7)
    b = torch.rand(7)
    torch.manual_seed(1)
    c = torch.rand(14)
    assert len(set(a.numpy().tolist()) & set(b.numpy().tolist())) == 0
    # draws are laid out by element index: a prefix of a longer fill matches a shorter fill
    assert np.array_equal(c.numpy()[:7], a.numpy())


# ---- uniform -----------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
def test_rand_range_and_distribution(dt):
    torch.manual_seed(11)
    x = torch.rand(N, dtype=dt)
    assert x.dtype == dt and x.shape == (N,)
    v = to_np(x)
    assert v.min() >= 0 and v.max() < 1
    if dt in (F32, F64):
        assert_ks(v, lambda q: np.clip(q, 0, 1))
    else:  # 11 / 8 mantissa bits: a discrete uniform on the grid
        bits = 11 if dt == F16 else 8
        counts = np.bincount(np.floor(v * 2 ** 6).astype(int), minlength=64)
        assert_chi2(counts, np.full(64, N / 64))
        assert len(np.unique(v)) <= 2 ** bits
    assert abs(v.mean() - 0.5) < 6 * math.sqrt(1 / 12 / N)


def test_rand_float64_uses_53_bits():
    torch.manual_seed(3)
    v = torch.rand(10000, dtype=F64).numpy()
    # values are multiples of 2**-53 that are not all multiples of 2**-24
    assert np.all(v * 2 ** 53 == np.floor(v * 2 ** 53))
    assert np.any(v * 2 ** 24 != np.floor(v * 2 ** 24))


@pytest.mark.parametrize("dt", [F32, F64])
def test_uniform_(dt):
    torch.manual_seed(12)
    x = torch.empty(N, dtype=dt).uniform_(-3, 5)
    v = x.numpy()
    assert v.min() >= -3 and v.max() < 5
    assert_ks(v, lambda q: np.clip((q + 3) / 8, 0, 1))
    assert torch.empty(3).uniform_(2, 2).numpy().tolist() == [2, 2, 2]
    y = torch.empty(4, dtype=dt).uniform_(**{"from": 1.0, "to": 2.0})
    assert ((y >= 1) & (y < 2)).all()


@pytest.mark.parametrize("dt", [torch.complex64, torch.complex128])
def test_rand_and_uniform_complex(dt):
    # as torch: real and imaginary parts are each uniform on [from, to), drawn from one stream
    torch.manual_seed(5)
    x = torch.rand(N // 2, dtype=dt)
    assert x.dtype == dt
    for part in (x.real.numpy(), x.imag.numpy()):
        assert part.min() >= 0 and part.max() < 1
        assert_ks(part, lambda q: np.clip(q, 0, 1))
    torch.manual_seed(5)
    assert torch.equal(torch.rand(N // 2, dtype=dt), x)
    y = torch.zeros(6, dtype=dt)
    y[::2].uniform_(2, 3)
    v = torch.view_as_real(y).numpy()
    assert ((v[::2] >= 2) & (v[::2] < 3)).all() and (v[1::2] == 0).all()


def test_uniform_bad_inputs():
    with pytest.raises(RuntimeError, match=r"uniform_ expects to return a \[from, to\) range, but found from=2 > to=1"):
        torch.empty(3).uniform_(2, 1)
    with pytest.raises(RuntimeError, match="\"check_uniform_bounds\" not implemented for 'Long'"):
        torch.empty(3, dtype=torch.int64).uniform_()
    with pytest.raises(RuntimeError, match="\"check_uniform_bounds\" not implemented for 'Int'"):
        torch.rand(3, dtype=torch.int32)
    with pytest.raises(TypeError):
        torch.empty(3).uniform_("a", 1)


# ---- normal ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
def test_randn_distribution(dt):
    torch.manual_seed(13)
    v = to_np(torch.randn(N, dtype=dt))
    assert np.all(np.isfinite(v))
    assert abs(v.mean()) < 6 / math.sqrt(N)
    assert abs(v.var() - 1) < 6 * math.sqrt(2 / N) + (0.01 if dt in (F16, BF16) else 0)
    if dt in (F32, F64):
        assert_ks(v, normal_cdf)


def test_normal_overloads():
    torch.manual_seed(14)
    x = torch.normal(2.0, 3.0, (N,))
    assert x.dtype == F32
    assert_ks(x.numpy(), lambda q: normal_cdf(q, 2, 3))
    m = torch.arange(4.0).reshape(4, 1)
    s = torch.tensor([0.0, 1.0, 2.0])
    y = torch.normal(m, s)
    assert y.shape == (4, 3)
    assert np.array_equal(y.numpy()[:, 0], m.numpy()[:, 0])  # std 0 gives the mean
    z = torch.normal(torch.full((N,), -1.0, dtype=F64), 0.5)
    assert z.dtype == F64
    assert_ks(z.numpy(), lambda q: normal_cdf(q, -1, 0.5))
    w = torch.normal(1.0, torch.full((N,), 2.0))
    assert_ks(w.numpy(), lambda q: normal_cdf(q, 1, 2))
    out = torch.empty(5)
    assert torch.normal(0.0, 1.0, (5,), out=out) is out
    g = torch.Generator().manual_seed(1)
    a = torch.normal(torch.zeros(5), 1.0, generator=g)
    assert np.array_equal(a.numpy(), torch.randn(5, generator=torch.Generator().manual_seed(1)).numpy())


def test_normal_inplace_and_log_normal():
    torch.manual_seed(15)
    v = torch.empty(N, dtype=F64).normal_(5, 0.5).numpy()
    assert_ks(v, lambda q: normal_cdf(q, 5, 0.5))
    ln = torch.empty(N).log_normal_(0.5, 0.25).numpy()
    assert ln.min() > 0
    assert_ks(np.log(ln), lambda q: normal_cdf(q, 0.5, 0.25))


def test_normal_bad_inputs():
    with pytest.raises(RuntimeError, match="normal expects std >= 0.0, but found std -1"):
        torch.empty(3).normal_(0, -1)
    with pytest.raises(RuntimeError, match="normal expects std >= 0.0"):
        torch.normal(0.0, -1.0, (3,))
    with pytest.raises(RuntimeError, match="normal expects all elements of std >= 0.0"):
        torch.normal(torch.zeros(3), torch.tensor([1.0, -1.0, 1.0]))
    with pytest.raises(RuntimeError, match="\"normal_kernel_cpu\" not implemented for 'Long'"):
        torch.randn(3, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="\"normal_kernel_cpu\" not implemented for 'Long'"):
        torch.normal(torch.zeros(3, dtype=torch.int64), 1.0)
    with pytest.raises(TypeError):
        torch.normal(torch.zeros(3), 1.0, (3,))
    with pytest.raises(TypeError):
        torch.normal(0.0, 1.0)
    with pytest.raises(RuntimeError, match="log_normal_ expects std > 0.0"):
        torch.empty(3).log_normal_(0, 0)


# ---- exponential, cauchy, geometric ------------------------------------------------------------
@pytest.mark.parametrize("dt", [F32, F64])
def test_exponential_(dt):
    torch.manual_seed(16)
    v = torch.empty(N, dtype=dt).exponential_(2.5).numpy()
    assert v.min() > 0  # never 0, as torch
    assert_ks(v, lambda q: 1 - np.exp(-2.5 * q))


def test_cauchy_():
    torch.manual_seed(17)
    v = torch.empty(N, dtype=F64).cauchy_(1.0, 2.0).numpy()
    assert_ks(v, lambda q: 0.5 + np.arctan((q - 1.0) / 2.0) / math.pi)


@pytest.mark.parametrize("dt", [torch.int64, torch.int16, F32])
def test_geometric_(dt):
    torch.manual_seed(18)
    p = 0.3
    v = to_np(torch.empty(N, dtype=dt).geometric_(p)).astype(np.int64)
    assert v.min() >= 1
    k = np.arange(1, 16)
    counts = [np.sum(v == i) for i in k] + [np.sum(v >= 16)]
    expected = list(N * p * (1 - p) ** (k - 1)) + [N * (1 - p) ** 15]
    assert_chi2(counts, expected)


def test_geometric_small_p_into_narrow_types():
    torch.manual_seed(28)
    v = torch.empty(1000, dtype=torch.uint8).geometric_(1e-3)  # values past 255 wrap, as a cast
    assert v.dtype == torch.uint8
    w = torch.empty(1000, dtype=torch.int64).geometric_(1e-300)
    assert w.numpy().min() >= 1
    assert torch.empty(10, dtype=torch.bool).geometric_(0.5).numpy().all()


def test_exponential_cauchy_geometric_bad_inputs():
    with pytest.raises(RuntimeError, match="exponential_ expects lambda > 0.0, but found lambda=0"):
        torch.empty(3).exponential_(0)
    with pytest.raises(RuntimeError, match="\"exponential_cpu\" not implemented for 'Long'"):
        torch.empty(3, dtype=torch.int64).exponential_()
    with pytest.raises(RuntimeError, match="cauchy_ expects sigma > 0.0"):
        torch.empty(3).cauchy_(0, -1)
    with pytest.raises(RuntimeError, match=r"geometric_ expects p to be in \(0, 1\), but got p=1"):
        torch.empty(3).geometric_(1)
    with pytest.raises(RuntimeError, match="geometric_ expects p"):
        torch.empty(3).geometric_(0)


# ---- integers --------------------------------------------------------------------------------
def test_randint_overloads_and_distribution():
    torch.manual_seed(19)
    x = torch.randint(10, (N,))
    assert x.dtype == torch.int64
    v = x.numpy()
    assert v.min() == 0 and v.max() == 9
    assert_chi2(np.bincount(v, minlength=10), np.full(10, N / 10))
    y = torch.randint(-3, 4, (2, 3, 5))
    assert y.shape == (2, 3, 5) and y.numpy().min() >= -3 and y.numpy().max() <= 3
    assert torch.randint(low=2, high=3, size=(4,)).numpy().tolist() == [2] * 4
    assert torch.randint(3, size=[2]).shape == (2,)
    assert torch.randint(5, 6, torch.Size([3])).numpy().tolist() == [5, 5, 5]
    assert torch.randint(0, 2 ** 62, (1000,)).numpy().max() > 2 ** 60
    assert torch.randint(-2 ** 63, 2 ** 63 - 1, (10,)).dtype == torch.int64
    assert torch.randint(5, (0,)).shape == (0,)
    assert torch.randint(5, ()).shape == ()
    out = torch.empty(3, dtype=torch.int32)
    assert torch.randint(0, 4, (3,), out=out) is out


@pytest.mark.parametrize("dt", INTS + FLOATS + [torch.bool])
def test_randint_dtypes(dt):
    torch.manual_seed(20)
    hi = 2 if dt == torch.bool else 7
    x = torch.randint(0, hi, (5000,), dtype=dt)
    assert x.dtype == dt
    v = to_np(x).astype(np.int64)
    assert sorted(set(v.tolist())) == list(range(hi))


def test_randint_bad_inputs():
    with pytest.raises(RuntimeError, match="random_ expects 'from' to be less than 'to', but got from=5 >= to=5"):
        torch.randint(5, 5, (3,))
    with pytest.raises(RuntimeError, match="from=0 >= to=0"):
        torch.randint(0, (3,))
    with pytest.raises(RuntimeError, match="to - 1 is out of bounds for Char"):
        torch.randint(0, 200, (3,), dtype=torch.int8)
    with pytest.raises(RuntimeError, match="from is out of bounds for Byte"):
        torch.randint(-1, 5, (3,), dtype=torch.uint8)
    with pytest.raises(RuntimeError, match="to - 1 is out of bounds for Float"):
        torch.randint(0, 2 ** 25, (3,), dtype=F32)
    with pytest.raises(TypeError, match="must be int, not float"):
        torch.randint(0, 5.5, (3,))
    with pytest.raises(TypeError, match="size"):
        torch.randint(0, 5, 3)
    with pytest.raises(TypeError, match="size"):
        torch.randint(5)
    with pytest.raises(TypeError):
        torch.randint(0, 5, (3,), dtype="int64")
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.randint(0, 5, (-1, 2))


def test_random_():
    torch.manual_seed(21)
    v = torch.empty(N, dtype=torch.int64).random_(3, 8).numpy()
    assert_chi2(np.bincount(v - 3, minlength=5), np.full(5, N / 5))
    assert set(torch.empty(1000, dtype=torch.int8).random_(4).numpy().tolist()) == {0, 1, 2, 3}
    assert set(torch.empty(1000).random_(to=3).numpy().tolist()) == {0, 1, 2}
    u8 = torch.empty(N, dtype=torch.uint8).random_().numpy()
    assert u8.min() == 0 and u8.max() == 255
    i8 = torch.empty(N, dtype=torch.int8).random_(-128, None).numpy()
    assert i8.min() == -128 and i8.max() == 127
    b = torch.empty(1000, dtype=torch.bool).random_().numpy()
    assert b.any() and not b.all()
    f = torch.empty(N).random_().numpy()
    assert f.min() >= 0 and f.max() <= 2 ** 24 and f.max() > 2 ** 23 and np.all(f == np.floor(f))
    h = torch.empty(N, dtype=F16).random_()
    assert to_np(h).max() <= 2 ** 11
    i64 = torch.empty(1000, dtype=torch.int64).random_().numpy()
    assert i64.min() >= 0 and i64.max() > 2 ** 60
    with pytest.raises(RuntimeError, match="random_ expects 'from' to be less than 'to', but got from=3 >= to=2"):
        torch.empty(3).random_(3, 2)
    with pytest.raises(RuntimeError, match="to - 1 is out of bounds for Short"):
        torch.empty(3, dtype=torch.int16).random_(0, 2 ** 16)
    with pytest.raises(TypeError):
        torch.empty(3).random_(1, 2, 3)


def test_randperm():
    torch.manual_seed(22)
    p = torch.randperm(N)
    assert p.dtype == torch.int64
    assert np.array_equal(np.sort(p.numpy()), np.arange(N))
    assert torch.randperm(0).shape == (0,)
    assert torch.randperm(1).numpy().tolist() == [0]
    for dt in (torch.int32, torch.int16, F32, F64, torch.uint8):
        q = to_np(torch.randperm(200, dtype=dt))
        assert sorted(q.tolist()) == list(range(200))
    # every position is uniform: where 0 lands over many permutations of 6
    pos = [int(np.argmax(torch.randperm(6).numpy() == 0)) for _ in range(3000)]
    assert_chi2(np.bincount(pos, minlength=6), np.full(6, 500))
    out = torch.empty(5, dtype=torch.int64)
    assert torch.randperm(5, out=out) is out and sorted(out.numpy().tolist()) == list(range(5))
    with pytest.raises(RuntimeError, match="n must be non-negative"):
        torch.randperm(-1)
    with pytest.raises(RuntimeError, match="n is too large for result tensor type: 'Byte'"):
        torch.randperm(300, dtype=torch.uint8)
    with pytest.raises(TypeError):
        torch.randperm(3.0)


# ---- bernoulli -----------------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
def test_bernoulli_tensor_probabilities(dt):
    torch.manual_seed(23)
    p = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0], dtype=dt).repeat(N // 5)
    x = torch.bernoulli(p)
    assert x.dtype == dt and x.shape == p.shape
    v = to_np(x).reshape(-1, 5)
    assert set(np.unique(v).tolist()) <= {0.0, 1.0}
    means = v.mean(axis=0)
    ref = np.array([0.0, 0.1, 0.5, 0.9, 1.0])
    assert means[0] == 0 and means[4] == 1
    assert np.all(np.abs(means - ref) < 6 * np.sqrt(ref * (1 - ref) / (N // 5)) + 1e-12)
    assert to_np(p.bernoulli()).shape == (N,)


def test_bernoulli_scalar_and_inplace():
    torch.manual_seed(24)
    x = torch.bernoulli(torch.zeros(N, dtype=torch.int32), 0.25)
    assert x.dtype == torch.int32
    assert abs(x.numpy().mean() - 0.25) < 6 * math.sqrt(0.25 * 0.75 / N)
    y = torch.empty(400, 500, dtype=torch.bool).t().bernoulli_(0.5)
    assert abs(y.numpy().mean() - 0.5) < 0.02
    z = torch.empty(N // 1000, 1000).bernoulli_(torch.linspace(0, 1, 1000))  # broadcast p
    col = z.numpy().mean(axis=0)
    assert col[0] == 0 and col[-1] == 1 and abs(col[:500].mean() - 0.25) < 0.02
    assert torch.empty(10).bernoulli_().numpy().tolist() != [0.0] * 10
    out = torch.empty(5)
    assert torch.bernoulli(torch.ones(5), out=out) is out and out.numpy().tolist() == [1.0] * 5


def test_bernoulli_bad_inputs():
    with pytest.raises(RuntimeError, match=r"bernoulli_ expects p to be in \[0, 1\], but got p=1.5"):
        torch.empty(3).bernoulli_(1.5)
    with pytest.raises(RuntimeError, match="p_in >= 0 && p_in <= 1"):
        torch.bernoulli(torch.tensor([0.5, 1.5]))
    with pytest.raises(RuntimeError, match="p_in >= 0 && p_in <= 1"):
        torch.bernoulli(torch.tensor([float("nan")]))
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch.bernoulli(torch.ones(3, dtype=torch.int64))
    with pytest.raises(RuntimeError):
        torch.empty(3).bernoulli_(torch.rand(4))  # p must broadcast to self
    with pytest.raises(TypeError):
        torch.bernoulli([0.5])


# ---- poisson ---------------------------------------------------------------------------------
@pytest.mark.parametrize("lam", [0.5, 3.0, 9.9, 10.0, 25.0, 1e4])
def test_poisson_distribution(lam):
    torch.manual_seed(29)
    n = 50_000
    x = torch.poisson(torch.full((n,), lam, dtype=F64))
    assert x.dtype == F64
    v = x.numpy()
    assert np.all(v == np.floor(v)) and v.min() >= 0
    assert abs(v.mean() - lam) < 6 * math.sqrt(lam / n)
    assert abs(v.var() / lam - 1) < 6 * math.sqrt(2 / n) + 0.01
    if lam <= 25:
        ks = np.arange(int(lam + 6 * math.sqrt(lam)) + 2)
        pmf = np.exp(-lam + ks * math.log(lam) - np.array([math.lgamma(k + 1) for k in ks]))
        keep = pmf * n >= 5  # pool the sparse tails
        lo, hi = ks[keep][0], ks[keep][-1]
        counts = [np.sum(v <= lo)] + [np.sum(v == k) for k in range(lo + 1, hi)] + [np.sum(v >= hi)]
        cdf_lo = pmf[: lo + 1].sum()
        expected = [cdf_lo] + list(pmf[lo + 1:hi]) + [1 - cdf_lo - pmf[lo + 1:hi].sum()]
        assert_chi2(counts, n * np.array(expected))


def test_poisson_shapes_and_errors():
    torch.manual_seed(30)
    r = torch.tensor([[0.0, 1.0], [100.0, 2.5]], dtype=F32).t()  # non-contiguous
    x = torch.poisson(r)
    assert x.dtype == F32 and x.shape == (2, 2) and x.numpy()[0, 0] == 0
    assert torch.poisson(torch.zeros(0)).shape == (0,)
    assert torch.poisson(torch.tensor(4.0, dtype=F16)).dtype == F16
    g = torch.Generator().manual_seed(1)
    a = torch.poisson(torch.full((100,), 7.0), g)
    assert np.array_equal(a.numpy(), torch.poisson(torch.full((100,), 7.0), torch.Generator().manual_seed(1)).numpy())
    with pytest.raises(RuntimeError, match="invalid Poisson rate"):
        torch.poisson(torch.tensor([1.0, -1.0]))
    with pytest.raises(RuntimeError, match="invalid Poisson rate"):
        torch.poisson(torch.tensor([float("nan")]))
    with pytest.raises(RuntimeError, match="\"poisson_cpu\" not implemented for 'Long'"):
        torch.poisson(torch.ones(2, dtype=torch.int64))
    with pytest.raises(TypeError):
        torch.poisson([1.0])


# ---- multinomial --------------------------------------------------------------------------------
def test_multinomial_with_replacement():
    torch.manual_seed(25)
    w = torch.tensor([1.0, 0.0, 2.0, 3.0, 0.0, 4.0])
    x = torch.multinomial(w, N, replacement=True)
    assert x.dtype == torch.int64 and x.shape == (N,)
    counts = np.bincount(x.numpy(), minlength=6)
    assert counts[1] == 0 and counts[4] == 0
    nz = [0, 2, 3, 5]
    assert_chi2(counts[nz], N * np.array([1, 2, 3, 4]) / 10)
    rows = torch.tensor([[0.0, 0.0, 1.0], [1.0, 1.0, 0.0]], dtype=F64)
    y = torch.multinomial(rows, 1000, True).numpy()
    assert y.shape == (2, 1000) and np.all(y[0] == 2) and set(y[1].tolist()) == {0, 1}


def test_multinomial_without_replacement():
    torch.manual_seed(26)
    w = torch.tensor([0.0, 1.0, 0.0, 5.0, 2.0, 0.0])
    for _ in range(50):
        s = torch.multinomial(w, 3).numpy().tolist()
        assert sorted(s) == [1, 3, 4]  # every nonzero entry, never a zero one
    first = torch.multinomial(w.expand(20000, 6), 2).numpy()
    assert np.all(first[:, 0] != first[:, 1])
    assert_chi2(np.bincount(first[:, 0], minlength=6)[[1, 3, 4]], 20000 * np.array([1, 5, 2]) / 8)
    # second draw given the first: P(second = 4 | first = 3) = 2 / 3
    sel = first[first[:, 0] == 3, 1]
    assert abs(np.mean(sel == 4) - 2 / 3) < 6 * math.sqrt(2 / 9 / len(sel))
    for dt in (F16, BF16, F32):
        assert torch.multinomial(torch.tensor([0.0, 1.0], dtype=dt), 1).numpy().tolist() == [1]
    perm = torch.multinomial(torch.ones(50), 50).numpy()
    assert sorted(perm.tolist()) == list(range(50))
    nc = torch.rand(6, 4).t()  # non-contiguous rows
    assert torch.multinomial(nc, 2).shape == (4, 2)
    assert torch.rand(3, 5).multinomial(5).shape == (3, 5)
    assert torch.multinomial(torch.ones(0, 3), 2).shape == (0, 2)


def test_multinomial_bad_inputs():
    with pytest.raises(RuntimeError, match="probability tensor contains either `inf`, `nan` or element < 0"):
        torch.multinomial(torch.tensor([0.5, -0.1]), 1)
    with pytest.raises(RuntimeError, match="probability tensor contains"):
        torch.multinomial(torch.tensor([0.5, float("nan")]), 1)
    with pytest.raises(RuntimeError, match="probability tensor contains"):
        torch.multinomial(torch.tensor([[0.5, float("inf")]]), 1, True)
    with pytest.raises(RuntimeError, match=r"invalid multinomial distribution \(sum of probabilities <= 0\)"):
        torch.multinomial(torch.tensor([[1.0, 1.0], [0.0, 0.0]]), 1)
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size"):
        torch.multinomial(torch.ones(3), 4)
    with pytest.raises(RuntimeError, match="not enough non-negative category to sample"):
        torch.multinomial(torch.tensor([1.0, 0.0, 1.0]), 3)
    with pytest.raises(RuntimeError, match="cannot sample n_sample <= 0 samples"):
        torch.multinomial(torch.ones(3), 0)
    with pytest.raises(RuntimeError, match="prob_dist must be 1 or 2 dim"):
        torch.multinomial(torch.ones(2, 2, 2), 1)
    with pytest.raises(RuntimeError, match="prob_dist must be 1 or 2 dim"):
        torch.multinomial(torch.tensor(1.0), 1)
    with pytest.raises(RuntimeError, match="floating-point dtypes"):
        torch.multinomial(torch.ones(3, dtype=torch.int64), 1)
    with pytest.raises(TypeError, match="num_samples"):
        torch.multinomial(torch.ones(3), 1.5)


# ---- shapes, layouts, factories --------------------------------------------------------------
@pytest.mark.parametrize("fn", [torch.rand, torch.randn])
def test_factory_sizes(fn):
    assert fn(2, 3).shape == (2, 3)
    assert fn((2, 3)).shape == (2, 3)
    assert fn([4]).shape == (4,)
    assert fn(size=(1, 2)).shape == (1, 2)
    assert fn(()).shape == ()
    assert fn(0, 3).shape == (0, 3)
    assert fn(2, dtype=F64).dtype == F64
    t = fn(3, requires_grad=True)
    assert t.requires_grad and t.is_leaf
    out = torch.empty(2, 2)
    assert fn(2, 2, out=out) is out
    with pytest.raises(RuntimeError, match="negative dimension"):
        fn(-1, 2)
    with pytest.raises(TypeError):
        fn(2.5)
    with pytest.warns(UserWarning, match="was resized"):
        assert fn(3, out=torch.empty(2)).shape == (3,)
    with pytest.raises(RuntimeError, match="does not match dtype of out"):
        fn(3, out=torch.empty(3), dtype=F64)
    with pytest.raises(TypeError):
        fn(2, bogus=1)
    with pytest.raises(TypeError, match="multiple values"):
        fn(2, size=(2,))


def test_default_dtype_is_used():
    torch.set_default_dtype(F64)
    try:
        assert torch.rand(2).dtype == F64 and torch.randn(2).dtype == F64
        assert torch.randint(3, (2,)).dtype == torch.int64
    finally:
        torch.set_default_dtype(F32)


def test_like_functions():
    base = torch.zeros(3, 4, dtype=F64)
    assert torch.rand_like(base).dtype == F64 and torch.rand_like(base).shape == (3, 4)
    assert torch.randn_like(base, dtype=F16).dtype == F16
    r = torch.randint_like(torch.zeros(2, 5, dtype=torch.int32), 3)
    assert r.dtype == torch.int32 and set(r.numpy().ravel().tolist()) <= {0, 1, 2}
    r = torch.randint_like(base, 10, 12)
    assert set(r.numpy().ravel().tolist()) <= {10.0, 11.0}
    with pytest.raises(TypeError, match="must be Tensor"):
        torch.rand_like([1, 2])
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch.randn_like(torch.zeros(2, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="from=3 >= to=1"):
        torch.randint_like(base, 3, 1)


def test_inplace_fills_on_views():
    torch.manual_seed(27)
    base = torch.zeros(6, 8)
    v = base[::2, 1::3]  # non-contiguous view
    v.uniform_(1, 2)
    b = base.numpy()
    assert np.all((b[::2, 1::3] >= 1) & (b[::2, 1::3] < 2))
    mask = np.ones_like(b, dtype=bool)
    mask[::2, 1::3] = False
    assert np.all(b[mask] == 0)
    # the values are those a contiguous fill of the same shape would get
    torch.manual_seed(27)
    assert np.array_equal(torch.empty(3, 3).uniform_(1, 2).numpy(), b[::2, 1::3])
    e = torch.zeros(1).expand(4)
    with pytest.raises(RuntimeError, match="more than one element"):
        e.normal_()
    assert torch.empty(0).normal_().shape == (0,)
    s = torch.zeros(())
    s.exponential_()
    assert s.item() > 0


def test_methods_return_self():
    x = torch.empty(4)
    for name, args in [("uniform_", ()), ("normal_", ()), ("random_", (5,)), ("bernoulli_", (0.5,)),
                       ("exponential_", ()), ("geometric_", (0.5,)), ("cauchy_", ()),
                       ("log_normal_", ())]:
        assert getattr(x, name)(*args) is x
        assert getattr(x, name)(*args, generator=torch.Generator()) is x


# ---- properties -----------------------------------------------------------------------------
@SETTINGS
@given(n=st.integers(0, 3000), extra=st.integers(1, 100), seed=st.integers(0, 2 ** 64 - 1),
       dt=st.sampled_from([F16, F32, F64]), normal=st.booleans())
def test_a_fill_is_a_prefix_of_a_longer_fill(n, extra, seed, dt, normal):
    fn = torch.randn if normal else torch.rand
    torch.manual_seed(seed)
    a = to_np(fn(n, dtype=dt))
    torch.manual_seed(seed)
    b = to_np(fn(n + extra, dtype=dt))
    assert np.array_equal(a, b[:n])


@SETTINGS
@given(low=st.integers(-2 ** 63, 2 ** 63 - 2), width=st.integers(1, 2 ** 64 - 1), seed=st.integers(0, 2 ** 32))
def test_randint_stays_in_range(low, width, seed):
    high = min(low + width, 2 ** 63 - 1)
    torch.manual_seed(seed)
    v = torch.randint(low, high, (257,)).numpy().tolist()
    assert all(low <= x < high for x in v)


@SETTINGS
@given(shape=st.lists(st.integers(1, 7), min_size=1, max_size=3), seed=st.integers(0, 2 ** 32))
def test_non_contiguous_fill_matches_contiguous(shape, seed):
    torch.manual_seed(seed)
    base = torch.empty(*shape[::-1], dtype=F64)
    view = base.permute(*range(len(shape) - 1, -1, -1))  # shape `shape`, transposed strides
    view.normal_()
    torch.manual_seed(seed)
    assert np.array_equal(view.numpy(), torch.empty(*shape, dtype=F64).normal_().numpy())


def test_rand_like_of_a_complex_tensor():
    # torch 2.15: real and imaginary parts each uniform on [0, 1), the same draws as rand
    z = torch.zeros(4, 3, dtype=torch.complex128)
    torch.manual_seed(5)
    a = torch.rand_like(z)
    torch.manual_seed(5)
    b = torch.rand(4, 3, dtype=torch.complex128)
    assert a.dtype == torch.complex128 and a.shape == (4, 3)
    assert torch.equal(a, b)
    parts = torch.view_as_real(a)
    assert bool((parts >= 0).all()) and bool((parts < 1).all())
    assert torch.rand_like(z.to(torch.complex64)).dtype == torch.complex64
