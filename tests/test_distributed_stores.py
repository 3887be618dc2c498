"""Stores as torch's: error words, TCPStore on a given listening socket, FileStore cleanup,
stores written in Python (fallbacks of the extended API, PrefixStore round trips)."""
import os
import socket
import tempfile
from datetime import timedelta

import pytest

import minitorch.distributed as dist


# ---------------------------------------------------------------- timeouts in torch's words


def test_wait_timeouts_use_torch_words(tmp_path):
    fs = dist.FileStore(str(tmp_path / "fs"), 1)
    hs = dist.HashStore()
    ts = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=timedelta(seconds=10))
    short = timedelta(milliseconds=120)
    for s in (fs, hs):
        with pytest.raises(dist.DistStoreError, match="^Wait timeout"):
            s.wait(["bad_key"], short)
    with pytest.raises(dist.DistStoreError, match=r"^wait timeout after 120ms, keys: /bad_key"):
        ts.wait(["bad_key"], short)
    # every key waited for, with the "/" torch's server puts before its keys
    with pytest.raises(dist.DistStoreError, match=r"keys: /a, /b"):
        ts.wait(["a", "b"], short)
    with pytest.raises(dist.DistStoreError, match=r"keys: /pre/k"):
        dist.PrefixStore("pre", ts).wait(["k"], short)
    for s in (fs, hs, ts):
        s.set_timeout(short)
    with pytest.raises(dist.DistStoreError, match="^Timeout waiting for key: bad after 120 ms"):
        fs.get("bad")
    with pytest.raises(dist.DistStoreError, match="^Wait timeout"):
        hs.get("bad")
    with pytest.raises(dist.DistStoreError, match=r"^wait timeout after 120ms, keys: /bad"):
        ts.get("bad")
    # still usable after a timeout
    ts.set("bad", "now")
    assert ts.get("bad") == b"now"


def test_tcp_store_waiting_for_clients_times_out_in_torch_words():
    with pytest.raises(dist.DistStoreError,
                       match=r"^Timed out after \d+ seconds waiting for clients. 1/2 clients joined."):
        dist.TCPStore("127.0.0.1", 0, 2, True, timeout=timedelta(seconds=1))
    # without waiting for the workers it returns at once
    dist.TCPStore("127.0.0.1", 0, 2, True, timeout=timedelta(seconds=1), wait_for_workers=False)


def test_tcp_store_argument_errors():
    with pytest.raises(ValueError, match="TCPStore world size cannot be 0"):
        dist.TCPStore("localhost", 0, world_size=0, is_master=False)
    with pytest.raises(ValueError, match="master_listen_fd"):
        dist.TCPStore("localhost", 0, 1, is_master=True, master_listen_fd=-3)
    with pytest.raises(ValueError, match="master_listen_fd"):
        dist.TCPStore("localhost", 1234, 1, is_master=False, master_listen_fd=5)


# ---------------------------------------------------------------- master_listen_fd


def test_tcp_store_serves_on_a_given_socket():
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))          # bound, not listening: the store listens on it
    port = sock.getsockname()[1]
    fd = sock.detach()
    store = dist.TCPStore("127.0.0.1", port, 1, is_master=True, master_listen_fd=fd,
                          timeout=timedelta(seconds=10))
    assert store.port == port
    store.set("key", "value")
    client = dist.TCPStore("127.0.0.1", port, 1, is_master=False, timeout=timedelta(seconds=10))
    assert client.get("key") == b"value"


def test_tcp_store_refuses_a_descriptor_that_is_not_a_socket(tmp_path):
    fd = os.open(str(tmp_path / "plain"), os.O_CREAT | os.O_RDWR)
    with pytest.raises(ValueError, match="cannot serve on the given listening socket"):
        dist.TCPStore("127.0.0.1", 0, 1, is_master=True, master_listen_fd=fd,
                      timeout=timedelta(seconds=2))
    with pytest.raises(OSError):
        os.close(fd)                      # the store took the descriptor (and closed it)


# ---------------------------------------------------------------- FileStore cleanup


def test_file_store_file_removed_when_last_user_closes():
    path = tempfile.NamedTemporaryFile(delete=False).name
    a = dist.FileStore(path, 1)
    b = dist.FileStore(path, 1)
    del a
    assert os.path.exists(path)           # b still uses it
    del b
    assert not os.path.exists(path)


def test_file_store_file_kept_until_world_size_users_closed(tmp_path):
    path = str(tmp_path / "ws2")
    a = dist.FileStore(path, 2)
    del a                                 # one of two users closed: the other may come
    assert os.path.exists(path)
    b = dist.FileStore(path, 2)
    del b
    assert not os.path.exists(path)
    c = dist.FileStore(str(tmp_path / "forever"))   # world_size -1: never removed
    del c
    assert os.path.exists(tmp_path / "forever")


# ---------------------------------------------------------------- stores written in Python


class _DictStore(dist.Store):
    """Implements the basic API only; the extended API is the base class's fallbacks."""

    def __init__(self):
        super().__init__()
        self.kv = {}

    def set(self, key, value):
        self.kv[key] = value if isinstance(value, bytes) else value.encode()

    def get(self, key):
        return self.kv[key]

    def compare_set(self, key, expected, desired):
        cur = self.kv.get(key)
        if cur is None and expected == b"" or cur == expected:
            self.kv[key] = desired
            return desired
        return expected if cur is None else cur


class _ExtendedStore(dist.Store):
    def __init__(self):
        self.calls = []
        super().__init__()

    def append(self, key, value):
        self.calls.append(("append", key, value))

    def multi_get(self, keys):
        self.calls.append(("multi_get", keys))
        return [b"x"] * len(keys)

    def multi_set(self, keys, values):
        self.calls.append(("multi_set", keys, values))

    def has_extended_api(self):
        return True


def test_python_store_missing_methods_are_not_implemented():
    class Empty(dist.Store):
        pass

    s = Empty()
    assert s.has_extended_api() is False
    for call in (lambda: s.set("k", "v"), lambda: s.get("k"), lambda: s.append("k", "v"),
                 lambda: s.multi_get(["a"]), lambda: s.multi_set(["a"], [b"v"]),
                 lambda: s.check(["a"]), lambda: s.num_keys()):
        with pytest.raises(RuntimeError, match="Not implemented."):
            call()
    with pytest.raises(NotImplementedError, match="queue support is not implemented"):
        s.queue_push("q", "1")
    # so are the calls through a PrefixStore
    p = dist.PrefixStore("p", s)
    assert p.has_extended_api() is False
    with pytest.raises(RuntimeError, match="Not implemented."):
        p.append("k", "v")


def test_python_store_extended_api_falls_back_on_compare_set():
    s = _DictStore()
    p = dist.PrefixStore("p", s)
    p.append("foo", b"po")
    p.append("foo", "tato")
    assert s.kv["p/foo"] == b"potato" and p.get("foo") == b"potato"
    p.multi_set(["a", "b"], [b"c", "d"])
    assert p.multi_get(["a", "b", "foo"]) == [b"c", b"d", b"potato"]
    assert p.has_extended_api() is False


def test_prefix_store_hands_the_extended_api_to_the_python_store():
    s = _ExtendedStore()
    p = dist.PrefixStore("p", s)
    assert p.has_extended_api() is True
    p.append("foo", "bar")
    assert p.multi_get(["foo", "bar"]) == [b"x", b"x"]
    p.multi_set(["foo", "bar"], ["1", b"2"])
    assert s.calls == [("append", "p/foo", b"bar"), ("multi_get", ["p/foo", "p/bar"]),
                       ("multi_set", ["p/foo", "p/bar"], [b"1", b"2"])]


def test_extended_api_flags_follow_torch(tmp_path):
    ts = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=timedelta(seconds=10))
    fs = dist.FileStore(str(tmp_path / "f"), 1)
    hs = dist.HashStore()
    assert (ts.has_extended_api(), fs.has_extended_api(), hs.has_extended_api()) == (True, False, True)
    assert dist.PrefixStore("a", dist.PrefixStore("b", fs)).has_extended_api() is False
    wrapped = dist.PrefixStore("a", dist.PrefixStore("b", ts))
    assert wrapped._underlying_non_prefix_store is ts


def test_queue_key_exists_only_while_items_wait():
    s = dist.HashStore()
    other = s.clone()
    s.queue_push("q", "1")
    other.queue_push("q", "2")
    assert s.check(["q"]) and s.queue_len("q") == 2
    s.wait(["q"])
    assert other.queue_pop("q") == b"1" and s.queue_pop("q") == b"2"
    assert not s.check(["q"])
    s.set_timeout(timedelta(milliseconds=50))
    with pytest.raises(dist.DistStoreError, match="timeout"):
        s.queue_pop("q")


def test_tcp_store_multi_get_is_one_request_that_waits():
    import threading
    import time
    ts = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=timedelta(seconds=10))
    client = dist.TCPStore("127.0.0.1", ts.port, 1, False, timeout=timedelta(seconds=10))
    keys = [f"rank/{i}" for i in range(300)]
    for i, k in enumerate(keys[:-1]):
        client.set(k, bytes([i % 256]) * (i % 7))
    late = threading.Timer(0.2, lambda: ts.set(keys[-1], b"\x00last"))
    late.start()
    t0 = time.monotonic()
    vals = client.multi_get(keys)          # parked on the server until the last key is set
    assert time.monotonic() - t0 >= 0.15
    late.join()
    assert vals[:-1] == [bytes([i % 256]) * (i % 7) for i in range(299)]
    assert vals[-1] == b"\x00last"
    assert client.multi_get([]) == []
    # through a PrefixStore, and the torch words of a timeout (every key named)
    p = dist.PrefixStore("pre", client)
    p.set("x", "1")
    assert p.multi_get(["x", "x"]) == [b"1", b"1"]
    client.set_timeout(timedelta(milliseconds=150))
    with pytest.raises(dist.DistStoreError, match=r"^wait timeout after 150ms, keys: /rank/0, /zz"):
        client.multi_get(["rank/0", "zz"])
    assert client.multi_get(["rank/1"]) == [b"\x01"]    # still usable
    with pytest.raises(TypeError):
        client.multi_get("rank/1")


def test_tcp_store_client_of_a_silent_server_times_out_and_recovers():
    """A server that stops answering (stopped, or its host gone) fails a request within its
    timeout plus a second; once it answers again the connection still works, and the late
    answer to the abandoned request is not mistaken for the next one's."""
    import signal
    import subprocess
    import sys
    import time
    code = ("import sys, time, minitorch.distributed as d\n"
            "s = d.TCPStore('127.0.0.1', 0, is_master=True, wait_for_workers=False)\n"
            "print(s.port, flush=True)\n"
            "time.sleep(120)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env)
    try:
        port = int(server.stdout.readline())
        client = dist.TCPStore("127.0.0.1", port, is_master=False,
                               timeout=timedelta(seconds=1))
        client.set("a", "1")
        os.kill(server.pid, signal.SIGSTOP)
        t0 = time.monotonic()
        with pytest.raises(dist.DistStoreError, match="did not answer within the timeout"):
            client.get("missing")
        assert time.monotonic() - t0 < 1 + 1 + 1.5
        os.kill(server.pid, signal.SIGCONT)
        client.set("b", "2")                 # the server's late timeout answer is dropped first
        assert client.get("a") == b"1" and client.get("b") == b"2"
        assert client.add("n", 5) == 5
    finally:
        server.kill()
        server.wait()
