"""Key/value stores used to rendezvous ranks (torch.distributed.Store and friends).

The stores are implemented in C (``csrc/distributed/rendezvous``); these classes
only translate torch's constructor signatures and timedeltas.  Keys are str,
values str or bytes; ``get`` returns bytes.
"""
import os
import struct
import time
import weakref
from datetime import timedelta

from .._C import _c10d
from . import _auth

__all__ = ["Store", "TCPStore", "FileStore", "HashStore", "PrefixStore", "QueueEmptyError"]


class QueueEmptyError(_c10d.DistStoreError):
    """queue_pop(block=False) of an empty queue."""

_DEFAULT_STORE_TIMEOUT = timedelta(seconds=300)


def _timeout_ms(timeout, what="timeout"):
    if not isinstance(timeout, timedelta):
        raise TypeError(f"{what} must be a datetime.timedelta, not {type(timeout).__name__}")
    ms = int(timeout.total_seconds() * 1000)
    if ms <= 0:
        raise ValueError(f"{what} must be positive, got {timeout}")
    return ms


class Store(_c10d.Store):
    """Base class of the stores: ``set/get/add/compare_set/wait/check/delete_key/num_keys``.

    A subclass written in Python implements those methods itself; the ones it
    leaves out raise RuntimeError ("Not implemented."), and the extended API
    (append, multi_get, multi_set) falls back on them as torch's does.
    """

    @property
    def timeout(self):
        if not self._is_initialised():
            return getattr(self, "_py_timeout", _DEFAULT_STORE_TIMEOUT)
        return timedelta(milliseconds=self._timeout_ms())

    def set_timeout(self, timeout):
        ms = _timeout_ms(timeout)
        if not self._is_initialised():
            self._py_timeout = timeout
            return
        self._set_timeout_ms(ms)

    def append(self, key, value):
        """Appends value (str or bytes) to the value of key (created if missing),
        atomically: compare_set until no other writer came in between."""
        value = _as_bytes(value, "append")
        cur = self.compare_set(key, b"", value)
        want = value
        while cur != want:
            want = cur + value
            cur = self.compare_set(key, cur, want)

    def multi_get(self, keys):
        """The values of keys (each waited for), as a list of bytes: one request on a TCPStore
        (and a PrefixStore over one), one get per key on stores written in Python."""
        if not isinstance(keys, (list, tuple)):
            raise TypeError(f"multi_get(): keys must be a list of str, not {type(keys).__name__}")
        if self._is_initialised():
            return self._multi_get(keys)
        return [self.get(k) for k in keys]

    def multi_set(self, keys, values):
        if not isinstance(keys, (list, tuple)) or not isinstance(values, (list, tuple)):
            raise TypeError("multi_set(): keys and values must be lists")
        if len(keys) != len(values):
            raise ValueError(f"multi_set(): {len(keys)} keys but {len(values)} values")
        for k, v in zip(keys, values):
            self.set(k, v)

    def has_extended_api(self):
        """Whether append/multi_get/multi_set are the store's own (not the fallbacks)."""
        return False

    # Note [Store queues]
    # A queue lives in the value of its key, which exists exactly while the queue is not
    # empty (check/wait see pushed items, as torch's).  The value is a 16-byte random
    # token followed by the items, each length-prefixed (8 bytes, little endian).  Every
    # change is a compare_set from the value read to a new value under a fresh token, so
    # compare_set's answer (the value after the operation) equals ours only when our write
    # went in - two clients racing with the same bytes cannot both think they won.
    # queue_push creates the key or appends; queue_pop reads without waiting (compare_set
    # with expected == desired == a sentinel no queue value equals) and takes the first
    # item, the last one by compare_delete.  A blocking pop of an empty queue polls (1 ms
    # growing to 50 ms) until the store's timeout.
    _SENTINEL = b"\x00minitorch-queue-peek\x00"

    def _queues_supported(self):
        if not self._is_initialised():
            raise NotImplementedError("queue support is not implemented.")

    def queue_push(self, key, value):
        self._queues_supported()
        item = _as_bytes(value, "queue_push")
        item = struct.pack("<Q", len(item)) + item
        want = os.urandom(16) + item
        cur = self.compare_set(key, b"", want)
        while cur != want:
            want = os.urandom(16) + cur[16:] + item
            cur = self.compare_set(key, cur, want)

    def _queue_value(self, key):
        v = self.compare_set(key, self._SENTINEL, self._SENTINEL)
        return b"" if v == self._SENTINEL else v

    def queue_pop(self, key, block=True):
        self._queues_supported()
        deadline = time.monotonic() + self.timeout.total_seconds()
        pause = 0.001
        while True:
            cur = self._queue_value(key)
            if len(cur) > 16:
                n = struct.unpack_from("<Q", cur, 16)[0]
                item = cur[24:24 + n]
                rest = cur[24 + n:]
                if rest:
                    want = os.urandom(16) + rest
                    if self.compare_set(key, cur, want) == want:
                        return item
                elif self._compare_delete(key, cur):
                    return item
                continue
            if not block:
                raise QueueEmptyError("queue is empty")
            if time.monotonic() >= deadline:
                ms = int(self.timeout.total_seconds() * 1000)
                raise _c10d.DistStoreError(f"Wait timeout after {ms}ms: queue_pop of key {key!r} "
                                           "found the queue empty (timeout)")
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def queue_len(self, key):
        self._queues_supported()
        cur, n, off = self._queue_value(key), 0, 16
        while off < len(cur):
            off += 8 + struct.unpack_from("<Q", cur, off)[0]
            n += 1
        return n


def _as_bytes(value, what):
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what}(): value must be str or bytes, not {type(value).__name__}")


# port -> the multi-tenant master store serving it in this process (while it lives)
_tenants = weakref.WeakValueDictionary()


class TCPStore(Store):
    """A store served by a thread of the master process over TCP.

    ``TCPStore(host_name, port, world_size=None, is_master=False,
    timeout=timedelta(seconds=300), wait_for_workers=True)``; ``port=0`` on the
    master picks a free port (see ``.port``).  minitorch adds ``token=`` (str or
    bytes; default the job's, ``MINITORCH_DIST_TOKEN``): the server then refuses
    every connection that does not prove it knows the token, and the client
    authenticates first (see minitorch.distributed._auth).
    """

    def __init__(self, host_name, port, world_size=None, is_master=False,
                 timeout=_DEFAULT_STORE_TIMEOUT, wait_for_workers=True, multi_tenant=False,
                 master_listen_fd=None, use_libuv=True, token=None):
        super().__init__()
        token = _auth.resolve(token)
        if world_size == 0:
            raise ValueError("TCPStore world size cannot be 0")
        if world_size is not None and (not isinstance(world_size, int) or world_size < -1):
            raise ValueError(f"TCPStore: invalid world_size {world_size!r}")
        if master_listen_fd is not None:
            if not is_master:
                raise ValueError("TCPStore: master_listen_fd is for the master (is_master=True)")
            if isinstance(master_listen_fd, bool) or not isinstance(master_listen_fd, int) or \
                    master_listen_fd < 0:
                raise ValueError(f"TCPStore: invalid master_listen_fd {master_listen_fd!r}")
        if not isinstance(port, int) or isinstance(port, bool):
            raise TypeError(f"TCPStore: port must be int, not {type(port).__name__}")
        owner = _tenants.get(port) if multi_tenant and is_master and port != 0 else None
        if owner is not None:
            # Note [Multi-tenant stores]: a second master on the port of a live multi-tenant
            # store of this process is a client of its server (kept alive by every tenant)
            self._server_owner = owner
            is_master = False
        self._init_tcp(host_name, port, -1 if world_size is None else world_size,
                       bool(is_master), _timeout_ms(timeout), bool(wait_for_workers),
                       master_listen_fd, token)
        self._job_token = token
        if multi_tenant and is_master:
            _tenants[self.port] = self

    @property
    def host(self):
        return self._tcp_host()

    @property
    def port(self):
        return self._tcp_port()

    @property
    def libuv_backend(self):
        return False

    @property
    def libuvBackend(self):  # torch's spelling: minitorch's server is its own, not libuv
        return False

    def has_extended_api(self):
        return True

    def clone(self):
        """A new client of the same server."""
        return TCPStore(self.host, self.port, is_master=False, timeout=self.timeout,
                        token=self._job_token)


class FileStore(Store):
    """A store in a file shared by the ranks: ``FileStore(file_name, world_size=-1)``."""

    def __init__(self, file_name, world_size=-1):
        super().__init__()
        self._path = file_name
        self._world_size = world_size
        self._init_file(file_name, world_size, _timeout_ms(_DEFAULT_STORE_TIMEOUT))

    @property
    def path(self):
        return self._path

    def clone(self):
        return FileStore(self._path, self._world_size)


class HashStore(Store):
    """An in-process store (threads of one process)."""

    def __init__(self):
        super().__init__()
        self._init_hash(_timeout_ms(_DEFAULT_STORE_TIMEOUT))

    def has_extended_api(self):
        return True

    def clone(self):
        """The same in-process store (its clones share the data, as torch's)."""
        return self


class PrefixStore(Store):
    """Prefixes every key with ``prefix + '/'`` and forwards to ``store``."""

    def __init__(self, prefix, store):
        super().__init__()
        if store is None:
            raise ValueError("store argument cannot be None")
        if not isinstance(store, _c10d.Store):
            raise TypeError(f"PrefixStore: store must be a Store, not {type(store).__name__}")
        self._prefix = prefix
        self._underlying = store
        self._forward = not store._is_initialised()
        if not self._forward:
            self._init_prefix(prefix, store)
        elif not isinstance(prefix, str):
            raise TypeError(f"PrefixStore(): prefix must be str, not {type(prefix).__name__}")

    # A store implemented in Python (a subclass of Store with its own methods) is wrapped by
    # calling its methods with prefixed keys; the stores of the C core are wrapped in C.
    def _key(self, key):
        return f"{self._prefix}/{key}"

    def set(self, key, value):
        if not self._forward:
            return super().set(key, value)
        return self._underlying.set(self._key(key), value)

    def get(self, key):
        if not self._forward:
            return super().get(key)
        return self._underlying.get(self._key(key))

    def add(self, key, value):
        if not self._forward:
            return super().add(key, value)
        return self._underlying.add(self._key(key), value)

    def compare_set(self, key, expected, desired):
        if not self._forward:
            return super().compare_set(key, expected, desired)
        return self._underlying.compare_set(self._key(key), expected, desired)

    def check(self, keys):
        if not self._forward:
            return super().check(keys)
        return self._underlying.check([self._key(k) for k in keys])

    def wait(self, keys, *timeout):
        if not self._forward:
            return super().wait(keys, *timeout)
        return self._underlying.wait([self._key(k) for k in keys], *timeout)

    def delete_key(self, key):
        if not self._forward:
            return super().delete_key(key)
        return self._underlying.delete_key(self._key(key))

    def num_keys(self):
        if not self._forward:
            return super().num_keys()
        return self._underlying.num_keys()

    # The extended API goes to the underlying store's own methods with prefixed keys (a
    # store written in Python may implement it itself); so do the queues of a Python store
    # (a store of the C core keeps them in its keys, under this store's timeout).
    def append(self, key, value):
        return self._underlying.append(self._key(key), _as_bytes(value, "append"))

    def multi_get(self, keys):
        if not isinstance(keys, (list, tuple)):
            raise TypeError(f"multi_get(): keys must be a list of str, not {type(keys).__name__}")
        return self._underlying.multi_get([self._key(k) for k in keys])

    def multi_set(self, keys, values):
        if not isinstance(keys, (list, tuple)) or not isinstance(values, (list, tuple)):
            raise TypeError("multi_set(): keys and values must be lists")
        return self._underlying.multi_set([self._key(k) for k in keys],
                                          [_as_bytes(v, "multi_set") for v in values])

    def has_extended_api(self):
        return self._underlying.has_extended_api()

    def queue_push(self, key, value):
        if not self._forward:
            return super().queue_push(key, value)
        return self._underlying.queue_push(self._key(key), value)

    def queue_pop(self, key, block=True):
        if not self._forward:
            return super().queue_pop(key, block)
        return self._underlying.queue_pop(self._key(key), block)

    def queue_len(self, key):
        if not self._forward:
            return super().queue_len(key)
        return self._underlying.queue_len(self._key(key))

    @property
    def underlying_store(self):
        return self._underlying

    @property
    def _underlying_non_prefix_store(self):
        """The first store under the chain of PrefixStores."""
        s = self._underlying
        while isinstance(s, PrefixStore):
            s = s._underlying
        return s

    def clone(self):
        return PrefixStore(self._prefix, self._underlying.clone())
