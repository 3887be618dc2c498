"""Results do not depend on the thread count: reductions, scans and elementwise ops give
bit-identical results with 1 and 2 (and 3) threads, and ops running concurrently from several
Python threads (with the GIL released) give the same results as run alone."""
import threading

import numpy as np
import pytest

import minitorch as torch


@pytest.fixture
def restore_threads():
    n = torch.get_num_threads()
    yield
    torch.set_num_threads(n)


def _bits(t):
    """The result's bytes, so that -0.0/0.0 and NaN payloads count too."""
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.contiguous().numpy().tobytes()


def _inputs():
    rng = np.random.default_rng(123)
    f32 = torch.from_numpy(rng.standard_normal((300, 700)).astype(np.float32))
    return {
        "f32": f32,
        "f64": torch.from_numpy(rng.standard_normal((50000, 3))),
        "f16": f32.to(torch.float16),
        "bf16": f32.to(torch.bfloat16),
        "i32": torch.from_numpy(rng.integers(-1000, 1000, (200, 1000)).astype(np.int32)),
        "long_row": torch.from_numpy(rng.random(10 ** 6).astype(np.float32)),
        "t": f32.t(),
        "sliced": f32[::3, 1::2],
    }


def _reductions(x):
    all_dims = tuple(range(x.dim()))
    out = [x.sum(), x.sum(0), x.sum(-1), x.sum(all_dims, keepdim=True), x.amax(0), x.amin(-1),
           x.argmax(), x.argmin(0), x.prod(0) if x.dim() > 1 else x[:50].prod()]
    if x.dtype.is_floating_point:
        out += [x.mean(), x.mean(0), x.var(0), x.std(), x.norm(), x.norm(3, dim=-1),
                torch.logsumexp(x, 0), x.cumsum(0), x.cumprod(-1)]
    return out


def _elementwise(x):
    y = x.flip(0) if x.dim() else x
    out = [x + y, x * 2, x - y, x / 3, torch.maximum(x, y), x > 0]
    if x.dtype.is_floating_point:
        out += [torch.exp(x), torch.sigmoid(x), torch.sqrt(torch.abs(x)), torch.atan2(x, y)]
    return out


def _run_all(fn):
    return {k: [_bits(r) for r in fn(x)] for k, x in _inputs().items()}


@pytest.mark.parametrize("fn", [_reductions, _elementwise], ids=["reductions", "elementwise"])
def test_bit_identical_for_any_thread_count(fn, restore_threads):
    torch.set_num_threads(1)
    one = _run_all(fn)
    torch.set_num_threads(2)
    two = _run_all(fn)
    torch.set_num_threads(3)
    three = _run_all(fn)
    for k in one:
        for i, (a, b, c) in enumerate(zip(one[k], two[k], three[k])):
            assert a == b == c, (k, i)


def test_thread_count_restored(restore_threads):
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    assert torch.get_num_threads() == 1
    torch.set_num_threads(n)
    assert torch.get_num_threads() == n


def test_float32_sum_same_for_any_thread_count(restore_threads):
    v = torch.from_numpy(np.random.default_rng(1).random(3 * 10 ** 6, dtype=np.float32))
    sums = []
    for n in (1, 2, 4):
        torch.set_num_threads(n)
        sums.append((v.sum().item(), v.view(1000, 3000).sum(0).numpy().tobytes(),
                     v.view(3000, 1000).sum(1).numpy().tobytes()))
    assert sums[0] == sums[1] == sums[2]


def test_concurrent_python_threads(restore_threads):
    torch.set_num_threads(2)
    rng = np.random.default_rng(5)
    data = [torch.from_numpy(rng.standard_normal((256, 512)).astype(np.float32)) for _ in range(4)]
    want = [(_bits(d.sum(0)), _bits(d * d + 1), _bits(d.amax(1))) for d in data]
    errors = []

    def work(i):
        try:
            for _ in range(10):
                d = data[i]
                got = (_bits(d.sum(0)), _bits(d * d + 1), _bits(d.amax(1)))
                if got != want[i]:
                    errors.append(i)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_inplace_large_op_any_thread_count(restore_threads):
    base = torch.from_numpy(np.random.default_rng(2).standard_normal(1 << 20).astype(np.float32))
    results = []
    for n in (1, 2):
        torch.set_num_threads(n)
        x = base.clone()
        x.mul_(1.5).add_(base, alpha=-0.25).exp_()
        results.append(_bits(x))
    assert results[0] == results[1]
