"""The intra-op thread pool: thread-count control, fork safety, GIL release."""
import os
import sys
import threading

import pytest

import minitorch as torch


@pytest.fixture
def threads():
    n = torch.get_num_threads()
    yield
    torch.set_num_threads(n)


def test_set_get_num_threads(threads):
    torch.set_num_threads(1)
    assert torch.get_num_threads() == 1
    torch.set_num_threads(3)
    assert torch.get_num_threads() == 3
    a = torch.arange(1 << 20, dtype=torch.float64)
    assert (a + 1).sum().item() == float((1 << 20) * ((1 << 20) + 1) // 2)


@pytest.mark.parametrize("bad", [0, -2])
def test_set_num_threads_rejects_non_positive(bad, threads):
    with pytest.raises(RuntimeError, match="positive"):
        torch.set_num_threads(bad)


def test_set_num_threads_rejects_non_int(threads):
    with pytest.raises(TypeError):
        torch.set_num_threads("2")


def test_omp_num_threads_sets_default():
    import subprocess
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("MINITORCH_NUM_THREADS", None)
    out = subprocess.run([sys.executable, "-c", "import minitorch; print(minitorch.get_num_threads())"],
                         env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "1", out.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_pool_survives_fork(threads):
    torch.set_num_threads(2)
    a = torch.ones(1 << 20)
    assert (a + a).sum().item() == 2.0 * (1 << 20)  # starts the workers
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child has no worker threads: the pool must rebuild itself
        try:
            v = (a * 3).sum().item()
            os.write(w, str(v).encode())
        finally:
            os._exit(0)
    os.close(w)
    _, status = os.waitpid(pid, 0)
    assert os.read(r, 100).decode() == str(3.0 * (1 << 20))
    assert status == 0
    assert (a * 2).sum().item() == 2.0 * (1 << 20)


def test_threads_run_ops_concurrently(threads):
    """Python threads may run kernels at the same time (the GIL is released and
    a busy pool runs the second job inline); results stay exact."""
    torch.set_num_threads(2)
    a = torch.arange(1 << 20, dtype=torch.float64)
    expected = (a * 2).sum().item()
    results, errors = [], []

    def work():
        try:
            for _ in range(20):
                results.append((a * 2).sum().item())
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=60)
    assert not errors
    assert results == [expected] * 80
