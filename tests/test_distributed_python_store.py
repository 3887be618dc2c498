"""Stores written in Python (Store subclasses) seen by the C core: _test_python_store drives one
from C, and a process group can rendezvous over one (Note [Stores written in Python])."""
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import free_port, run_ranks


class DictStore(dist.Store):
    """torch's test_store.MyPythonStore: set/get/add/compare_set over a dict, checking types."""

    def __init__(self):
        super().__init__()
        self.store = {}
        self.calls = []

    def set(self, key, value):
        self.calls.append("set")
        if not isinstance(key, str) or type(value) is not bytes:
            raise AssertionError("set takes a str key and a bytes value")
        self.store[key] = value

    def get(self, key):
        self.calls.append("get")
        return self.store.get(key, b"")

    def add(self, key, value):
        self.calls.append("add")
        new = int(self.store.get(key, 0)) + value
        self.set(key, str(new).encode())
        return new


def test_test_python_store_drives_a_python_store():
    s = DictStore()
    assert dist._test_python_store(s) is None
    assert s.store["key"] == b"6" and s.store["key3"] == b"15"
    assert {"set", "get", "add"} <= set(s.calls)


def test_python_store_errors_come_back_as_runtime_error():
    class Failing(DictStore):
        def add(self, key, value):
            raise KeyError("no adding here")

    with pytest.raises(RuntimeError, match="add: KeyError: 'no adding here'"):
        dist._test_python_store(Failing())

    class Lying(DictStore):
        def get(self, key):
            return b"wrong"

    with pytest.raises(RuntimeError, match="assertion failed"):
        dist._test_python_store(Lying())
    with pytest.raises(TypeError):
        dist._test_python_store("not a store")


class Forwarding(dist.Store):
    """A store written in Python over a TCPStore: what the ranks share."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def set(self, key, value):
        self.inner.set(key, value)

    def get(self, key):
        return self.inner.get(key)

    def add(self, key, value):
        return self.inner.add(key, value)

    def wait(self, keys, timeout=None):
        return self.inner.wait(keys) if timeout is None else self.inner.wait(keys, timeout)

    def check(self, keys):
        return self.inner.check(keys)


def _job(rank, ws, init_method):
    port = int(init_method.rsplit(":", 1)[1])
    tcp = dist.TCPStore("127.0.0.1", port, ws, rank == 0, timeout=timedelta(seconds=20))
    pg = dist.ProcessGroupGloo(Forwarding(tcp), rank, ws, timedelta(seconds=20))
    t = torch.tensor([float(rank + 1)])
    pg.allreduce([t]).wait()
    dist.init_process_group("gloo", store=Forwarding(dist.PrefixStore("default", tcp)),
                            rank=rank, world_size=ws)
    u = torch.tensor([rank])
    dist.all_reduce(u, op=dist.ReduceOp.MAX)
    return t.item(), u.item()


def test_process_groups_rendezvous_over_a_python_store():
    res = run_ranks(_job, 3, timeout=60, init_method=f"tcp://127.0.0.1:{free_port()}")
    assert res == [(6.0, 2)] * 3
