"""init_process_group (env://, tcp://, file://, store=), argument errors, backends, stores."""
import os
import socket
import time
import tempfile
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import free_port, run_ranks


# ---------------------------------------------------------------- rank jobs


def _job_env(rank, world_size, init_method, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE=str(world_size))
    dist.init_process_group("gloo")  # env:// is the default
    assert dist.is_initialized()
    t = torch.tensor([rank + 1.0])
    dist.all_reduce(t)
    out = (dist.get_rank(), dist.get_world_size(), dist.get_backend(), t.item())
    try:
        dist.init_process_group("gloo")
        raise AssertionError("second init did not raise")
    except RuntimeError as e:
        assert "twice" in str(e)
    dist.destroy_process_group()
    assert not dist.is_initialized()
    return out


def test_env_init_and_double_init():
    res = run_ranks(_job_env, 2, free_port())
    assert res == [(0, 2, "gloo", 3.0), (1, 2, "gloo", 3.0)]


def _job_tcp_then_file(rank, world_size, init_method, port, path):
    dist.init_process_group(backend="gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world_size, timeout=timedelta(seconds=20))
    a = torch.tensor([rank])
    dist.all_reduce(a, op=dist.ReduceOp.MAX)
    dist.destroy_process_group()
    dist.init_process_group("gloo", init_method=f"file://{path}", rank=rank,
                            world_size=world_size)
    b = torch.tensor([1])
    dist.all_reduce(b)
    dist.destroy_process_group()
    return a.item(), b.item()


def test_tcp_and_file_init():
    with tempfile.TemporaryDirectory() as d:
        res = run_ranks(_job_tcp_then_file, 3, free_port(), os.path.join(d, "f"))
    assert res == [(2, 3)] * 3


def _job_store(rank, world_size, init_method, port):
    store = dist.TCPStore("127.0.0.1", port, world_size, rank == 0,
                          timeout=timedelta(seconds=20))
    dist.init_process_group("gloo", store=store, rank=rank, world_size=world_size)
    t = torch.ones(3, dtype=torch.int32)
    dist.all_reduce(t)
    g = dist.group.WORLD
    assert g is dist.GroupMember.WORLD and dist.get_world_size(g) == world_size
    dist.destroy_process_group()
    # the store is still usable by the user after destroy
    store.set(f"k{rank}", f"v{rank}")
    store.wait([f"k{r}" for r in range(world_size)], timedelta(seconds=10))
    got = store.get(f"k{(rank + 1) % world_size}")
    store.set(f"done{rank}", "1")
    if rank == 0:  # the master serves the store: it leaves last
        store.wait([f"done{r}" for r in range(world_size)], timedelta(seconds=10))
    return t.tolist(), got


def test_explicit_store_init():
    res = run_ranks(_job_store, 2, free_port())
    assert res == [([2, 2, 2], b"v1"), ([2, 2, 2], b"v0")]


def _job_init_queries(rank, world_size, init_method, port):
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}?rank={rank}&world_size={world_size}")
    r = dist.get_rank()
    dist.destroy_process_group()
    return r


def test_tcp_init_rank_in_query():
    assert run_ranks(_job_init_queries, 2, free_port()) == [0, 1]


# ---------------------------------------------------------------- single process errors


@pytest.fixture
def clean_env(monkeypatch):
    for k in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE"):
        monkeypatch.delenv(k, raising=False)
    yield monkeypatch
    if dist.is_initialized():
        dist.destroy_process_group()


@pytest.mark.parametrize("missing", ["RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"])
def test_env_missing_variable(clean_env, missing):
    env = {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(free_port()), "RANK": "0",
           "WORLD_SIZE": "1"}
    del env[missing]
    for k, v in env.items():
        clean_env.setenv(k, v)
    with pytest.raises(ValueError, match=f"environment variable {missing} expected, but not set"):
        dist.init_process_group("gloo")
    assert not dist.is_initialized()


def test_env_bad_values(clean_env):
    clean_env.setenv("MASTER_ADDR", "127.0.0.1")
    clean_env.setenv("MASTER_PORT", "notaport")
    with pytest.raises(ValueError, match="MASTER_PORT must be an integer"):
        dist.init_process_group("gloo", rank=0, world_size=1)
    clean_env.setenv("MASTER_PORT", str(free_port()))
    with pytest.raises(ValueError, match="rank 2 is out of range for world_size 2"):
        dist.init_process_group("gloo", rank=2, world_size=2)
    with pytest.raises(ValueError, match="world_size must be positive"):
        dist.init_process_group("gloo", rank=0, world_size=0)


def test_contradictory_arguments(clean_env, tmp_path):
    store = dist.HashStore()
    with pytest.raises(ValueError, match="Cannot specify both init_method and store"):
        dist.init_process_group("gloo", init_method="env://", store=store, rank=0, world_size=1)
    with pytest.raises(ValueError, match="world_size must be positive if using store"):
        dist.init_process_group("gloo", store=store, rank=0)
    with pytest.raises(ValueError, match="rank must be non-negative if using store"):
        dist.init_process_group("gloo", store=store, world_size=1)
    with pytest.raises(ValueError, match="out of range"):
        dist.init_process_group("gloo", store=store, rank=1, world_size=1)
    # as torch: rank/world_size in the URL and as arguments too is an AssertionError
    for q, kw in (("?rank=1", dict(rank=0, world_size=2)), ("?rank=0&world_size=1", dict(rank=0)),
                  ("?world_size=1", dict(rank=0))):
        with pytest.raises(AssertionError, match="has node-specific arguments"):
            dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{free_port()}{q}", **kw)
    with pytest.raises(ValueError, match="rank parameter missing"):
        dist.init_process_group("gloo", init_method=f"file://{tmp_path}/f", world_size=1)
    with pytest.raises(ValueError, match="world_size parameter missing"):
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{free_port()}", rank=0)
    with pytest.raises(ValueError, match="port number missing"):
        dist.init_process_group("gloo", init_method="tcp://127.0.0.1", rank=0, world_size=1)
    with pytest.raises(RuntimeError, match="No rendezvous handler for foo://"):
        dist.init_process_group("gloo", init_method="foo://x", rank=0, world_size=1)
    with pytest.raises(TypeError, match="timedelta"):
        dist.init_process_group("gloo", store=store, rank=0, world_size=1, timeout=30)
    with pytest.raises(TypeError):
        dist.init_process_group("gloo", store="store", rank=0, world_size=1)
    with pytest.raises(TypeError):
        dist.init_process_group("gloo", store=store, rank="0", world_size=1)
    assert not dist.is_initialized()


def test_backend_names(clean_env):
    assert dist.Backend.GLOO == "gloo" and dist.Backend("GLOO") == "gloo"
    assert dist.Backend("NCCL") == dist.Backend.NCCL == "nccl"
    assert isinstance(dist.Backend("gloo"), str)
    with pytest.raises(ValueError):
        dist.Backend(3)
    store = dist.HashStore()
    with pytest.raises(ValueError, match='did you mean "nccl"'):
        dist.init_process_group("ncll", store=store, rank=0, world_size=1)
    with pytest.raises(ValueError, match='did you mean "gloo"'):
        dist.init_process_group("glo", store=store, rank=0, world_size=1)
    with pytest.raises(ValueError, match="Invalid backend"):
        dist.init_process_group("zzzzzz", store=store, rank=0, world_size=1)
    with pytest.raises(RuntimeError, match="NCCL"):
        dist.init_process_group("nccl", store=store, rank=0, world_size=1)
    if not dist.is_mpi_available():  # (where it is: tests/test_distributed_mpi.py)
        with pytest.raises(RuntimeError, match="MPI"):
            dist.init_process_group("mpi", store=store, rank=0, world_size=1)
    assert dist.is_available() and dist.is_gloo_available()
    assert dist.is_torchelastic_launched() is (os.getenv("TORCHELASTIC_RUN_ID") is not None)
    # "cpu:gloo,cuda:nccl" selects gloo for CPU tensors; None defaults to gloo
    dist.init_process_group("cpu:gloo,cuda:nccl", store=store, rank=0, world_size=1)
    assert dist.get_backend() == "gloo"
    dist.destroy_process_group()
    dist.init_process_group(store=dist.HashStore(), rank=0, world_size=1)
    assert dist.get_backend() == "gloo"
    dist.destroy_process_group()


def test_uninitialized_and_destroyed(clean_env):
    assert not dist.is_initialized()
    with pytest.raises(ValueError, match="has not been initialized"):
        dist.get_rank()
    with pytest.raises(ValueError, match="has not been initialized"):
        dist.all_reduce(torch.ones(1))
    with pytest.raises(ValueError, match="has not been initialized"):
        dist.destroy_process_group()
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    g = dist.new_group([0])
    dist.destroy_process_group(g)
    with pytest.raises(ValueError, match="Invalid process group specified"):
        dist.destroy_process_group(g)
    dist.destroy_process_group()
    with pytest.raises(ValueError, match="has not been initialized"):
        dist.barrier()


def test_reduce_op_enum():
    R = dist.ReduceOp
    assert [int(o) for o in (R.SUM, R.AVG, R.PRODUCT, R.MIN, R.MAX, R.BAND, R.BOR, R.BXOR)] == \
        list(range(8))
    assert R(R.MAX) == R.MAX and R.SUM != R.MAX
    with pytest.warns(FutureWarning):
        assert dist.reduce_op.SUM == R.SUM
    with pytest.raises(AttributeError):
        dist.reduce_op.AVG  # noqa: B018 - the old enum had no AVG


def test_error_hierarchy():
    for e in (dist.DistBackendError, dist.DistStoreError, dist.DistNetworkError):
        assert issubclass(e, dist.DistError)
    assert issubclass(dist.DistError, RuntimeError)


# ---------------------------------------------------------------- stores


def _check_store_api(s):
    s.set("a", "1")
    s.set("b", b"\x00\xffbin")
    assert s.get("a") == b"1" and s.get("b") == b"\x00\xffbin"
    assert s.add("n", 5) == 5 and s.add("n", -2) == 3 and s.get("n") == b"3"
    assert s.compare_set("c", "", "x") == b"x"          # missing key, empty expected: set
    assert s.compare_set("c", "wrong", "y") == b"x"     # mismatch: current value
    assert s.compare_set("c", "x", "y") == b"y"
    assert s.compare_set("missing", "e", "d") == b"e"   # torch: expected for a missing key
    assert s.check(["a", "b"]) and not s.check(["a", "nope"])
    s.append("ap", "x")
    s.append("ap", b"\x00y")
    assert s.get("ap") == b"x\x00y"
    s.multi_set(["m1", "m2"], ["1", b"2"])
    assert s.multi_get(["m1", "m2"]) == [b"1", b"2"]
    with pytest.raises(ValueError):
        s.multi_set(["m1"], [])
    with pytest.raises(TypeError):
        s.append("ap", 3)
    # queues (Note [Store queues]) and the extended API (torch's FileStore has only the fallbacks)
    base = s._underlying_non_prefix_store if isinstance(s, dist.PrefixStore) else s
    assert s.has_extended_api() is (not isinstance(base, dist.FileStore))
    assert s.queue_len("q") == 0 and not s.check(["q"])
    s.queue_push("q", "first")
    s.queue_push("q", b"\x00second")
    s.queue_push("q", b"")
    assert s.queue_len("q") == 3
    assert s.queue_pop("q") == b"first" and s.queue_pop("q", block=False) == b"\x00second"
    assert s.check(["q"])                              # the key exists while items wait
    assert s.queue_pop("q") == b"" and s.queue_len("q") == 0
    assert not s.check(["q"])                          # an emptied queue's key is gone
    with pytest.raises(dist.QueueEmptyError, match="queue is empty"):
        s.queue_pop("q", block=False)
    assert issubclass(dist.QueueEmptyError, dist.DistStoreError)
    with pytest.raises(TypeError):
        s.queue_push("q", 3)
    c = s.clone()
    c.set("from_clone", "1")
    assert s.get("from_clone") == b"1" and c.get("a") == b"1"
    n = s.num_keys()
    assert s.delete_key("a") is True and s.delete_key("a") is False
    assert s.num_keys() == n - 1
    s.wait(["b", "n"])
    s.wait(["b"], timedelta(seconds=1))
    with pytest.raises(dist.DistStoreError):
        s.wait(["never"], timedelta(milliseconds=100))
    s.set_timeout(timedelta(milliseconds=150))
    assert s.timeout == timedelta(milliseconds=150)
    with pytest.raises(dist.DistStoreError):
        s.get("never")
    with pytest.raises(dist.DistStoreError, match="timeout"):
        s.queue_pop("empty queue")                    # blocks until the store's timeout
    with pytest.raises(TypeError):
        s.set(1, "x")
    with pytest.raises(TypeError):
        s.set("k", 1.5)
    with pytest.raises(TypeError):
        s.add("n", "1")
    with pytest.raises(TypeError):
        s.wait("b")
    with pytest.raises(TypeError):
        s.wait(["b"], 5)
    with pytest.raises(TypeError):
        s.set_timeout(5)
    with pytest.raises(ValueError):
        s.set_timeout(timedelta(0))


def test_hash_store():
    _check_store_api(dist.HashStore())


def test_file_store(tmp_path):
    s = dist.FileStore(str(tmp_path / "fs"), 1)
    _check_store_api(s)
    s2 = dist.FileStore(str(tmp_path / "fs2"))
    s2.set("x", "1")
    assert s2.get("x") == b"1"


def test_tcp_store():
    s = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=timedelta(seconds=10))
    assert s.port > 0 and s.host == "127.0.0.1"
    assert s.libuvBackend is False           # the server is minitorch's own, not libuv
    _check_store_api(s)
    c = dist.TCPStore("127.0.0.1", s.port, is_master=False, timeout=timedelta(seconds=5))
    c.set("from_client", "hi")
    s.set_timeout(timedelta(seconds=5))
    assert s.get("from_client") == b"hi"
    assert c.add("cnt", 2) == 2 and s.add("cnt", 1) == 3


def test_prefix_store():
    base = dist.HashStore()
    p = dist.PrefixStore("pre", base)
    assert p.underlying_store is base
    _check_store_api(p)
    p.set("k", "v")
    assert base.get("pre/k") == b"v"
    with pytest.raises(ValueError, match="store argument cannot be None"):
        dist.PrefixStore("x", None)

    class DictStore(dist.Store):                    # a store written in Python, as torch allows
        def __init__(self):
            super().__init__()
            self.kv = {}

        def set(self, key, value):
            self.kv[key] = value.encode() if isinstance(value, str) else value

        def get(self, key):
            return self.kv[key]

        def check(self, keys):
            return all(k in self.kv for k in keys)

    inner = DictStore()
    wrapped = dist.PrefixStore("job", inner)
    wrapped.set("k", "v")
    assert inner.kv == {"job/k": b"v"} and wrapped.get("k") == b"v"
    assert wrapped.check(["k"]) and not wrapped.check(["other"])
    dist.PrefixStore("outer", wrapped).set("x", "1")
    assert inner.kv["job/outer/x"] == b"1"
    assert isinstance(p.clone(), dist.PrefixStore) and p.clone().get("k") == b"v"
    with pytest.raises(TypeError):
        dist.PrefixStore("x", "not a store")
    with pytest.raises(TypeError):
        dist.PrefixStore(1, base)


def test_store_bad_construction():
    with pytest.raises(ValueError):
        dist.TCPStore("127.0.0.1", 70000, 1, True)
    with pytest.raises(TypeError):
        dist.TCPStore("127.0.0.1", "80", 1, True)
    with pytest.raises(TypeError):
        dist.TCPStore(None, 0, 1, True)
    with pytest.raises(TypeError):
        dist.TCPStore("127.0.0.1", 0, 1, True, timeout=5)
    # nobody listens there: the client gives up after its timeout
    with pytest.raises(dist.DistNetworkError, match="The client socket has timed out after"):
        dist.TCPStore("127.0.0.1", free_port(), is_master=False,
                      timeout=timedelta(milliseconds=300))
    # a name that does not resolve is retried until the timeout, then a DistNetworkError (torch)
    t0 = time.monotonic()
    with pytest.raises(dist.DistNetworkError, match=r"while trying to connect to \(no.such.host.invalid, 29500\)"):
        dist.TCPStore("no.such.host.invalid", 29500, is_master=False,
                      timeout=timedelta(milliseconds=400))
    assert time.monotonic() - t0 >= 0.35
    with pytest.raises(RuntimeError, match="Not implemented."):   # torch's words
        dist.Store().get("x")


def test_tcp_store_port_in_use():
    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        sock.listen()
        port = sock.getsockname()[1]
        # torch's words (its libuv server's), at the start of the message
        with pytest.raises(dist.DistNetworkError,
                           match=f"^The server socket has failed to listen on any local network "
                                 f"address. port: {port}, .*EADDRINUSE"):
            dist.TCPStore("127.0.0.1", port, 1, True, timeout=timedelta(seconds=2))


def test_tcp_store_multi_tenant():
    s1 = dist.TCPStore("127.0.0.1", 0, 1, True, multi_tenant=True, timeout=timedelta(seconds=5))
    s2 = dist.TCPStore("127.0.0.1", s1.port, 1, True, multi_tenant=True,
                       timeout=timedelta(seconds=5))        # shares s1's server
    s2.set("a", "1")
    assert s1.get("a") == b"1"
    del s1                                                  # the server lives while s2 does
    s2.set("b", "2")
    assert s2.get("b") == b"2"
    with pytest.raises(dist.DistNetworkError, match="address already in use"):
        dist.TCPStore("127.0.0.1", s2.port, 1, True, timeout=timedelta(seconds=2))


def test_blocking_store_calls_release_the_gil():
    import threading

    h = dist.HashStore()
    master = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=timedelta(seconds=10))
    # a TCPStore client serves one request at a time: the setter uses its own
    setter = dist.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=10))
    for s, other in ((h, h), (master, setter)):
        s.set_timeout(timedelta(seconds=10))
        threading.Timer(0.2, lambda: other.set("late", "v")).start()
        assert s.get("late") == b"v"  # the setter thread ran while get waited
        threading.Timer(0.2, lambda: other.set("late2", "w")).start()
        s.wait(["late2"])


def _job_ifname(rank, world_size, init_method, port, seconds):
    try:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                                world_size=world_size, timeout=timedelta(seconds=seconds))
    except Exception as e:  # noqa: BLE001 - the message is the result
        return type(e).__name__, str(e)
    t = torch.tensor([rank + 1.0])
    dist.all_reduce(t)
    dist.destroy_process_group()
    return t.item()


@pytest.mark.parametrize("var", ["MINITORCH_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME"])
def test_socket_ifname_selects_the_interface(var):
    assert run_ranks(_job_ifname, 2, free_port(), 10, env={var: "lo"}) == [3.0, 3.0]
    (kind0, msg0), (kind1, msg1) = run_ranks(_job_ifname, 2, free_port(), 3, env={var: "nosuchif0"})
    # the rank that hits it first names the variable, the interface and the ones that exist;
    # the other fails in time too (its peer is gone)
    assert f"{var}=nosuchif0" in msg0 + msg1 and "no interface of that name" in msg0 + msg1
    assert "lo" in msg0 + msg1


@pytest.mark.parametrize("name", ["all_reduce_multigpu", "broadcast_multigpu", "reduce_multigpu",
                                  "all_gather_multigpu", "reduce_scatter_multigpu"])
def test_multigpu_collectives_say_what_to_use(name):
    fn = getattr(dist, name)
    base = name[:-len("_multigpu")]
    with pytest.raises(NotImplementedError, match=rf"{name}\(\) is not supported.*call {base}\(\)"):
        fn([torch.ones(1)])


@pytest.mark.skipif(not os.path.exists("/proc/self/statm") or
                    "asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="needs /proc/self/statm; ASan's quarantine hides frees")
def test_store_calls_keep_rss_flat():
    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    master = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=timedelta(seconds=10))
    client = dist.TCPStore("127.0.0.1", master.port, is_master=False,
                           timeout=timedelta(seconds=10))
    prefixed = dist.PrefixStore("p", client)
    hashed = dist.HashStore()
    value = b"v" * 1000

    def burst(n):
        for i in range(n):
            for s in (client, prefixed, hashed):
                s.set("k", value)
                assert s.get("k") == value
                s.add("n", 1)
                s.compare_set("k", value, value)
                s.wait(["k"])
                s.delete_key("gone")
                s.check(["k"])

    burst(500)
    before = rss()
    burst(4000)  # 84,000 store calls
    assert rss() - before < 2 << 20


def test_rendezvous_is_an_iterator(tmp_path):
    it = dist.rendezvous(f"file://{tmp_path}/rdv?rank=0&world_size=1")
    store, rank, ws = next(it)
    assert isinstance(store, dist.FileStore) and (rank, ws) == (0, 1)
    with pytest.raises(RuntimeError, match="Unable to perform re-rendezvous using file:// method"):
        next(it)
    # as torch: an unknown scheme and rank/world_size given twice are refused at once,
    # the handler's own errors come with the first next()
    with pytest.raises(RuntimeError, match="No rendezvous handler for nosuch://"):
        dist.rendezvous("nosuch://x")
    with pytest.raises(AssertionError, match="has node-specific arguments"):
        dist.rendezvous("file://foo?rank=12&world_size=16", 12, 16)
    it = dist.rendezvous("file://?rank=0&world_size=1")
    with pytest.raises(ValueError, match="path missing"):
        next(it)
    with pytest.raises(RuntimeError, match="`url` must be a string"):
        dist.rendezvous(5)
    with pytest.raises(RuntimeError, match="`rank` must be an integer"):
        dist.rendezvous("env://", rank="0")

    seen = {}

    def handler(url, **kwargs):                     # torch's protocol: a generator
        seen["url"], seen["kwargs"] = url, kwargs
        yield dist.HashStore(), 3, 4

    dist.register_rendezvous_handler("mine", handler)
    store, rank, ws = next(dist.rendezvous("mine://host/path?x=1", 3, 4, timeout=timedelta(seconds=9)))
    assert isinstance(store, dist.HashStore) and (rank, ws) == (3, 4)
    # rank and world_size travel in the URL's query, the keyword arguments as they are
    assert seen["url"] == "mine://host/path?x=1&rank=3&world_size=4"
    assert seen["kwargs"] == {"timeout": timedelta(seconds=9)}


def test_num_keys_counts_as_torch(tmp_path):
    # torch's TCPStore and FileStore count one bookkeeping key; HashStore none
    t = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=timedelta(seconds=5))
    f = dist.FileStore(str(tmp_path / "nk"), 1)
    h = dist.HashStore()
    assert (t.num_keys(), f.num_keys(), h.num_keys()) == (1, 1, 0)
    for s in (t, f, h):
        s.set("a", "1")
    assert (t.num_keys(), f.num_keys(), h.num_keys()) == (2, 2, 1)
    assert dist.PrefixStore("p", t).num_keys() == 2      # the underlying store's count
