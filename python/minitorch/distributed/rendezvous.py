"""Rendezvous handlers of init_process_group: env://, tcp://host:port and file:///path.

As torch's: rendezvous(url, rank, world_size, **kwargs) puts rank/world_size into the URL's
query (both there already is an AssertionError), finds the handler of the URL's scheme (none is
a RuntimeError, at once) and returns handler(url, **kwargs), an iterator over (store, rank,
world_size) whose first next() runs the rendezvous.  A handler is called as
handler(url, timeout=...) and reads rank/world_size from the query (env:// falls back on
RANK/WORLD_SIZE, then on mpirun's, srun's and PMI's variables: Note [Launcher environments] in
_launcher_env.py).
"""
import numbers
import os
from datetime import timedelta
from urllib.parse import parse_qs, urlparse, urlunparse

from . import _launcher_env
from ._store import FileStore, TCPStore

__all__ = ["rendezvous", "register_rendezvous_handler"]

_handlers = {}


def register_rendezvous_handler(scheme, handler):
    if scheme in _handlers:
        raise RuntimeError(f"Rendezvous handler for {scheme}:// already registered")
    _handlers[scheme] = handler


def _error(scheme, msg):
    return ValueError(f"Error initializing torch.distributed using {scheme}:// rendezvous: {msg}")


def _int_param(scheme, name, value):
    try:
        return int(value)
    except (TypeError, ValueError):
        raise _error(scheme, f"{name} must be an integer, got {value!r}") from None


def _merge(scheme, name, query, env_name=None):
    """The value of rank/world_size from the query or the environment."""
    qv = query.get(name)
    v = _int_param(scheme, name, qv[-1]) if qv else None
    if v is None and env_name is not None:
        ev, var = _launcher_env.lookup(env_name)
        if ev is None:
            raise _error(scheme, f"environment variable {env_name} expected, but not set")
        v = _int_param(scheme, var, ev)
    if v is None:
        raise _error(scheme, f"{name} parameter missing")
    return v


def _check_ranks(scheme, rank, world_size):
    if world_size <= 0:
        raise _error(scheme, f"world_size must be positive, got {world_size}")
    if not 0 <= rank < world_size:
        raise _error(scheme, f"rank {rank} is out of range for world_size {world_size} "
                     "(expected 0 <= rank < world_size)")


def _tcp_store(scheme, host, port, rank, world_size, timeout):
    """The job's TCPStore, as torch's: rank 0 serves it (multi-tenant: other users of the port in
    this process share the server) and waits until all world_size ranks have connected."""
    if not 0 <= port < 65536:
        raise _error(scheme, f"invalid port {port}")
    agent = os.environ.get("TORCHELASTIC_USE_AGENT_STORE", "").lower() == "true"
    return TCPStore(host, port, world_size, is_master=(rank == 0 and not agent),
                    timeout=timeout, wait_for_workers=True, multi_tenant=True)


_DEFAULT_TIMEOUT = timedelta(minutes=30)


def _env_handler(url, timeout=_DEFAULT_TIMEOUT, **kwargs):
    q = parse_qs(urlparse(url).query)
    rank = _merge("env", "rank", q, "RANK")
    world_size = _merge("env", "world_size", q, "WORLD_SIZE")
    _check_ranks("env", rank, world_size)
    host, _ = _launcher_env.lookup("MASTER_ADDR")
    if host is None:
        raise _error("env", "environment variable MASTER_ADDR expected, but not set")
    port_s = os.environ.get("MASTER_PORT")
    if port_s is None:
        raise _error("env", "environment variable MASTER_PORT expected, but not set")
    port = _int_param("env", "MASTER_PORT", port_s)
    yield _tcp_store("env", host, port, rank, world_size, timeout), rank, world_size
    raise RuntimeError("Unable to perform re-rendezvous using env:// method")


def _tcp_handler(url, timeout=_DEFAULT_TIMEOUT, **kwargs):
    u = urlparse(url)
    q = parse_qs(u.query)
    if not u.hostname:
        raise _error("tcp", "host name missing")
    try:
        port = u.port
    except ValueError:
        raise _error("tcp", f"invalid port in {url!r}") from None
    if port is None:
        raise _error("tcp", "port number missing")
    rank = _merge("tcp", "rank", q)
    world_size = _merge("tcp", "world_size", q)
    _check_ranks("tcp", rank, world_size)
    yield _tcp_store("tcp", u.hostname, port, rank, world_size, timeout), rank, world_size
    raise RuntimeError("Unable to perform re-rendezvous using tcp:// method")


def _file_handler(url, timeout=None, **kwargs):
    u = urlparse(url)
    q = parse_qs(u.query)
    path = u.path or u.netloc
    if u.netloc and u.path:
        path = u.netloc + u.path
    if not path:
        raise _error("file", "path missing")
    rank = _merge("file", "rank", q)
    world_size = _merge("file", "world_size", q)
    _check_ranks("file", rank, world_size)
    store = FileStore(path, world_size)
    if timeout is not None:
        store.set_timeout(timeout)
    yield store, rank, world_size
    raise RuntimeError("Unable to perform re-rendezvous using file:// method")


register_rendezvous_handler("env", _env_handler)
register_rendezvous_handler("tcp", _tcp_handler)
register_rendezvous_handler("file", _file_handler)


def rendezvous(url, rank=-1, world_size=-1, **kwargs):
    """The handler of url's scheme called with the URL (rank and world_size added to its query)
    and kwargs (e.g. timeout): an iterator over (store, rank, world_size)."""
    if not isinstance(url, str):
        raise RuntimeError(f"`url` must be a string. {type(url)}: {url}")
    if isinstance(rank, bool) or not isinstance(rank, numbers.Integral):
        raise RuntimeError(f"`rank` must be an integer. {rank}")
    if isinstance(world_size, bool) or not isinstance(world_size, numbers.Integral):
        raise RuntimeError(f"`world_size` must be an integer. {world_size}")
    u = urlparse(url)
    if rank != -1 or world_size != -1 or world_size == 1:
        query = dict(pair.split("=", 1) for pair in filter(None, u.query.split("&")) if "=" in pair)
        if "rank" in query or "world_size" in query:
            raise _NodeArgumentsTwice(f"The url: {url} has node-specific arguments(rank, world_size) "
                                      "already.")
        if rank != -1:
            query["rank"] = str(int(rank))
        if world_size != -1:
            query["world_size"] = str(int(world_size))
        u = u._replace(query="&".join(f"{k}={v}" for k, v in query.items()))
        url = urlunparse(u)
    if u.scheme not in _handlers:
        raise RuntimeError(f"No rendezvous handler for {u.scheme}://")
    return _handlers[u.scheme](url, **kwargs)


class _NodeArgumentsTwice(AssertionError, ValueError):
    """rank/world_size both in the URL and as arguments (torch raises AssertionError)."""
