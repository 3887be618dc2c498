"""Rendezvous handlers of init_process_group: env://, tcp://host:port and file:///path.

Each returns (store, rank, world_size); rendezvous() hands it out as torch's iterator.  Arguments win over the URL query and
the environment, but two sources that disagree are a ValueError.
"""
import numbers
import os
from datetime import timedelta
from urllib.parse import parse_qs, urlparse

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


def _merge(scheme, name, arg, query, env_name=None):
    """The value of rank/world_size from the argument, the query or the environment."""
    qv = query.get(name)
    q = _int_param(scheme, name, qv[-1]) if qv else None
    if arg != -1 and q is not None and arg != q:
        raise _error(scheme, f"{name} argument ({arg}) contradicts the init_method URL ({q})")
    v = arg if arg != -1 else q
    if v is None and env_name is not None:
        ev = os.environ.get(env_name)
        if ev is None:
            raise _error(scheme, f"environment variable {env_name} expected, but not set")
        v = _int_param(scheme, env_name, ev)
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
    if not 0 < port < 65536:
        raise _error(scheme, f"invalid port {port}")
    agent = os.environ.get("TORCHELASTIC_USE_AGENT_STORE", "").lower() == "true"
    return TCPStore(host, port, world_size, is_master=(rank == 0 and not agent),
                    timeout=timeout, wait_for_workers=False)


def _env_handler(url, rank, world_size, timeout):
    q = parse_qs(urlparse(url).query)
    rank = _merge("env", "rank", rank, q, "RANK")
    world_size = _merge("env", "world_size", world_size, q, "WORLD_SIZE")
    _check_ranks("env", rank, world_size)
    host = os.environ.get("MASTER_ADDR")
    if host is None:
        raise _error("env", "environment variable MASTER_ADDR expected, but not set")
    port_s = os.environ.get("MASTER_PORT")
    if port_s is None:
        raise _error("env", "environment variable MASTER_PORT expected, but not set")
    port = _int_param("env", "MASTER_PORT", port_s)
    return _tcp_store("env", host, port, rank, world_size, timeout), rank, world_size


def _tcp_handler(url, rank, world_size, timeout):
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
    rank = _merge("tcp", "rank", rank, q)
    world_size = _merge("tcp", "world_size", world_size, q)
    _check_ranks("tcp", rank, world_size)
    return _tcp_store("tcp", u.hostname, port, rank, world_size, timeout), rank, world_size


def _file_handler(url, rank, world_size, timeout):
    u = urlparse(url)
    q = parse_qs(u.query)
    path = u.path or u.netloc
    if u.netloc and u.path:
        path = u.netloc + u.path
    if not path:
        raise _error("file", "path missing")
    rank = _merge("file", "rank", rank, q)
    world_size = _merge("file", "world_size", world_size, q)
    _check_ranks("file", rank, world_size)
    store = FileStore(path, world_size)
    store.set_timeout(timeout)
    return store, rank, world_size


register_rendezvous_handler("env", _env_handler)
register_rendezvous_handler("tcp", _tcp_handler)
register_rendezvous_handler("file", _file_handler)


def rendezvous(url, rank=-1, world_size=-1, timeout=timedelta(minutes=30)):
    """An iterator over (store, rank, world_size), as torch's: the first next() runs the
    handler; a handler registered by the user may be a generator (torch's protocol) or
    return the tuple."""
    if not isinstance(url, str):
        raise RuntimeError(f"`url` must be a string. {type(url)}: {url}")
    if isinstance(rank, bool) or not isinstance(rank, numbers.Integral):
        raise RuntimeError(f"`rank` must be an integer. {rank}")
    if isinstance(world_size, bool) or not isinstance(world_size, numbers.Integral):
        raise RuntimeError(f"`world_size` must be an integer. {world_size}")
    return _rendezvous_iter(url, int(rank), int(world_size), timeout)


class _NodeArgumentsTwice(AssertionError, ValueError):
    """rank/world_size both in the URL and as arguments (torch raises AssertionError)."""


def _rendezvous_iter(url, rank, world_size, timeout):
    u = urlparse(url)
    scheme = u.scheme
    if scheme not in _handlers:
        raise RuntimeError(f"No rendezvous handler for {scheme}://")
    if (rank != -1 or world_size != -1) and ({"rank", "world_size"} & parse_qs(u.query).keys()):
        raise _NodeArgumentsTwice(f"The url: {url} has node-specific arguments(rank, world_size) "
                                  "already.")
    result = _handlers[scheme](url, rank, world_size, timeout)
    if isinstance(result, tuple):
        yield result
        raise RuntimeError(f"Unable to perform re-rendezvous using {scheme}:// method")
    yield from result
