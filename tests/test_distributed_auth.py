"""Authenticated jobs: the job token's HMAC challenge-response on the TCPStore and the TCP
transport (Note [Job token] in csrc/distributed/common/auth.h).

The client side of the handshake is also written here in Python with hashlib/hmac, so a
server that accepts it shows the C SHA-256/HMAC agrees with Python's."""
import hashlib
import hmac
import os
import socket
import struct
import subprocess
import sys
import textwrap
import time
from datetime import timedelta

import pytest

import minitorch.distributed as dist
from helpers import free_port

TOKEN = "job-token-3f9a"
# the ranks import the minitorch this test runs (a sanitizer build too)
PYPATH = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(dist.__file__))))


def _frame(payload):
    return struct.pack(">Q", len(payload)) + payload


def _key(k):
    return struct.pack(">Q", len(k)) + k


# Note [TCPStore protocol] requests, as a foreign client would send them
HELLO = _frame(b"\x01" + struct.pack(">Q", 0x6d74636431303031))
SET_EVIL = _frame(b"\x02" + _key(b"evil") + _key(b"pickle"))
GET_KEY = _frame(b"\x03" + _key(b"key") + struct.pack(">q", 1000))
WAIT_KEY = _frame(b"\x06" + struct.pack(">Q", 1) + _key(b"never") + struct.pack(">q", 60000))


def _recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


def _handshake(s, token):
    """Client side of the handshake; returns whether the server's proof was right."""
    token = token.encode() if isinstance(token, str) else token
    cn = os.urandom(32)
    s.sendall(b"MTAU" + cn)
    reply = _recv_exact(s, 64)
    sn, proof = reply[:32], reply[32:]
    ok = hmac.compare_digest(
        proof, hmac.new(token, b"minitorch-auth-server" + cn + sn, hashlib.sha256).digest())
    s.sendall(hmac.new(token, b"minitorch-auth-client" + sn + cn, hashlib.sha256).digest())
    return ok


def _closed_without_answer(s, timeout=10):
    """True when the server closes the connection having sent nothing."""
    s.settimeout(timeout)
    try:
        return s.recv(1 << 16) == b""
    except ConnectionResetError:
        return True


def _connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=10)


@pytest.fixture
def no_env_token(monkeypatch):
    monkeypatch.delenv("MINITORCH_DIST_TOKEN", raising=False)


@pytest.fixture
def master(no_env_token):
    m = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False,
                      timeout=timedelta(seconds=10), token=TOKEN)
    m.set("key", "value")
    yield m


def test_store_refuses_a_client_without_the_token(master, capfd):
    with pytest.raises(dist.DistNetworkError, match="job token"):
        dist.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=5))
    # raw requests, each on a fresh connection: nothing is answered, nothing is stored
    for req in (SET_EVIL, GET_KEY, WAIT_KEY, HELLO):
        with _connect(master.port) as s:
            s.sendall(req)
            assert _closed_without_answer(s)
    assert not master.check(["evil"])
    assert master.get("key") == b"value"
    err = capfd.readouterr().err
    line = f"TCPStore server on port {master.port}: refused a connection from 127.0.0.1:"
    assert err.count(line) == 5, err
    assert "it did not authenticate (no job token)" in err


def test_store_refuses_a_wrong_token(master, capfd):
    # our client gives up when the server's proof does not match its token
    with pytest.raises(dist.DistNetworkError, match="proof is wrong"):
        dist.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=5), token="guess")
    # a client that ignores the server's proof and answers anyway is refused for its own
    with _connect(master.port) as s:
        assert not _handshake(s, "guess")
        s.sendall(SET_EVIL)
        assert _closed_without_answer(s)
    assert not master.check(["evil"])
    err = capfd.readouterr().err
    assert "refused a connection from 127.0.0.1:" in err
    assert "wrong job token" in err
    assert "closed the connection during the handshake" in err


def test_store_serves_clients_with_the_token(master, monkeypatch):
    c = dist.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=5), token=TOKEN)
    c.set("a", "1")
    assert c.get("key") == b"value"
    assert c.add("n", 2) == 2
    c.wait(["a"])
    # the token from the environment, and clone() keeping it
    monkeypatch.setenv("MINITORCH_DIST_TOKEN", TOKEN)
    e = dist.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=5))
    assert e.get("a") == b"1"
    assert c.clone().get("n") == b"2"
    # the handshake written with Python's hmac, then the usual protocol
    with _connect(master.port) as s:
        assert _handshake(s, TOKEN)
        s.sendall(HELLO)
        assert _recv_exact(s, 9) == _frame(b"\x00")
        s.sendall(GET_KEY)
        assert _recv_exact(s, 9 + 8 + 5) == _frame(b"\x00" + _key(b"value"))


def test_long_and_binary_tokens(no_env_token):
    token = bytes(range(256)) * 2  # longer than a SHA-256 block: hashed first, as HMAC says
    m = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False,
                      timeout=timedelta(seconds=10), token=token)
    m.set("k", "v")
    with _connect(m.port) as s:
        assert _handshake(s, token)
        s.sendall(HELLO)
        assert _recv_exact(s, 9) == _frame(b"\x00")
    with pytest.raises(ValueError, match="at most 1024"):
        dist.TCPStore("127.0.0.1", m.port, timeout=timedelta(seconds=5), token=b"x" * 2000)
    with pytest.raises(TypeError, match="str or bytes"):
        dist.TCPStore("127.0.0.1", m.port, timeout=timedelta(seconds=5), token=123)


def test_without_a_token_the_protocol_is_unchanged(no_env_token):
    m = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False,
                      timeout=timedelta(seconds=10))
    m.set("key", "value")
    with _connect(m.port) as s:  # the first bytes are a request, answered at once
        s.sendall(HELLO)
        assert _recv_exact(s, 9) == _frame(b"\x00")
        s.sendall(GET_KEY)
        assert _recv_exact(s, 9 + 8 + 5) == _frame(b"\x00" + _key(b"value"))
    # a client with a token does not talk to a server that cannot prove it has the token
    with pytest.raises(dist.DistNetworkError, match="job token"):
        dist.TCPStore("127.0.0.1", m.port, timeout=timedelta(seconds=5), token=TOKEN)


def test_a_silent_client_is_dropped_and_others_are_served(master, capfd):
    with _connect(master.port) as silent:
        silent.sendall(b"MTAU" + os.urandom(10))  # a handshake begun and never finished
        c = dist.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=5), token=TOKEN)
        assert c.get("key") == b"value"  # served meanwhile
        assert _closed_without_answer(silent, timeout=30)  # the handshake's own timeout
    assert "no authentication within the handshake's timeout" in capfd.readouterr().err


def test_a_silent_server_times_the_handshake_out(no_env_token):
    with socket.socket() as ls:  # accepts (the kernel does) and never answers
        ls.bind(("127.0.0.1", 0))
        ls.listen(4)
        with pytest.raises(dist.DistError):
            dist.TCPStore("127.0.0.1", ls.getsockname()[1], timeout=timedelta(seconds=2),
                          token=TOKEN)


# ---- a job of two ranks ------------------------------------------------------------------

_RANK = textwrap.dedent("""
    import os, sys
    from datetime import timedelta
    import minitorch as torch
    import minitorch.distributed as dist

    rank, port = int(sys.argv[1]), int(sys.argv[2])
    tcp = dist.TCPStore("127.0.0.1", port, timeout=timedelta(seconds=30), token=sys.argv[3])

    class Gated(dist.Store):
        # rank 1 reads rank 0's transport address only once the test says "go", so that a
        # foreign peer reaches rank 0's listener first
        def __init__(self, inner):
            super().__init__()
            self.inner = inner
        def set(self, key, value):
            self.inner.set(key, value)
        def get(self, key):
            if key.endswith("tcp/0"):
                self.inner.set("gate", key)
                self.inner.wait(["go"])
            return self.inner.get(key)
        def add(self, key, value):
            return self.inner.add(key, value)
        def wait(self, keys, timeout=None):
            return self.inner.wait(keys) if timeout is None else self.inner.wait(keys, timeout)
        def check(self, keys):
            return self.inner.check(keys)

    class Options:  # any pg_options with a token attribute
        token = sys.argv[3]

    if rank == 0:  # the token of the store given to init_process_group
        dist.init_process_group("gloo", store=tcp, rank=0, world_size=2)
    else:
        dist.init_process_group("gloo", store=Gated(tcp), rank=1, world_size=2,
                                pg_options=Options())
    t = torch.tensor([1.0, 2.0]) * (rank + 1)
    dist.all_reduce(t)
    objs = [None, None]
    dist.all_gather_object(objs, {"rank": rank})
    lst = [("from", 0)] if rank == 0 else [None]
    dist.broadcast_object_list(lst, src=0)
    print("RESULT", t.tolist(), objs, lst, flush=True)
    dist.destroy_process_group()
""")


def _spawn(args, env):
    return subprocess.Popen([sys.executable, "-c", _RANK, *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.multiprocess
def test_job_runs_while_foreign_peers_are_refused(no_env_token, capfd):
    store = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False,
                          timeout=timedelta(seconds=30), token=TOKEN)
    env = dict(os.environ, PYTHONPATH=PYPATH, MINITORCH_TRANSPORT="tcp")
    env.pop("MINITORCH_DIST_TOKEN", None)
    procs = [_spawn([r, store.port, TOKEN], env) for r in range(2)]
    try:
        # rank 1 is held before it connects to rank 0; rank 0 listens for it
        store.wait(["gate"], timedelta(seconds=30))
        port, host = store.get(store.get("gate").decode()).decode().split()
        # foreign peers: a forged hello (rank 1 of 2), the handshake with a wrong token
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(struct.pack("<III", 0x4d54484c, 1, 2))
            assert _closed_without_answer(s)
        with socket.create_connection((host, int(port)), timeout=10) as s:
            assert not _handshake(s, "guess")
            s.sendall(struct.pack("<III", 0x4d54484c, 1, 2))
            assert _closed_without_answer(s)
        # nor can a foreign client of the job's store join or read
        for tok in ("", "guess"):
            with pytest.raises(dist.DistNetworkError):
                dist.TCPStore("127.0.0.1", store.port, timeout=timedelta(seconds=5), token=tok)
        store.set("go", "1")
        outs = [p.communicate(timeout=60) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert "RESULT [3.0, 6.0] [{'rank': 0}, {'rank': 1}] [('from', 0)]" in out, out + err
    log = outs[0][1]
    assert log.count("rank 0 (TCP transport): refused a connection from 127.0.0.1:") == 2, log
    assert "no job token" in log and "wrong job token" in log
    assert "refused a connection from 127.0.0.1:" in capfd.readouterr().err


_ENV_JOB = textwrap.dedent("""
    import os
    from datetime import timedelta
    import minitorch as torch
    import minitorch.distributed as dist

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    # a client of the job's store without the token, or with another, is refused
    for tok in ("", "guess"):
        try:
            dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                          timeout=timedelta(seconds=5), token=tok)
            raise SystemExit("a client without the token was served")
        except dist.DistNetworkError:
            pass
    dist.barrier()
    out = [None, None]
    dist.all_gather_object(out, rank * 10)
    t = torch.ones(3) * (rank + 1)
    dist.all_reduce(t)
    print("RESULT", out, t.tolist(), flush=True)
    dist.destroy_process_group()
""")


@pytest.mark.multiprocess
def test_job_token_from_the_environment(no_env_token):
    env = dict(os.environ, PYTHONPATH=PYPATH, MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(free_port()), WORLD_SIZE="2", MINITORCH_DIST_TOKEN=TOKEN)
    procs = [subprocess.Popen([sys.executable, "-c", _ENV_JOB], env=dict(env, RANK=str(r)),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for r in range(2)]
    try:
        outs = [p.communicate(timeout=60) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert "RESULT [0, 10] [3.0, 3.0, 3.0]" in out, out + err
    assert "no job token" in outs[0][1] and "another job token" in outs[0][1]
