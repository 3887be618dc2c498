"""Key/value stores used to rendezvous ranks (torch.distributed.Store and friends).

The stores are implemented in C (``csrc/distributed/rendezvous``); these classes
only translate torch's constructor signatures and timedeltas.  Keys are str,
values str or bytes; ``get`` returns bytes.
"""
import struct
import time
import weakref
from datetime import timedelta

from .._C import _c10d

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
    """Base class of the stores: ``set/get/add/compare_set/wait/check/delete_key/num_keys``."""

    @property
    def timeout(self):
        return timedelta(milliseconds=self._timeout_ms())

    def set_timeout(self, timeout):
        self._set_timeout_ms(_timeout_ms(timeout))

    def append(self, key, value):
        """Appends value (str or bytes) to the value of key (created if missing), atomically."""
        if isinstance(value, str):
            value = value.encode()
        if not isinstance(value, (bytes, bytearray)):
            raise TypeError(f"append(): value must be str or bytes, not {type(value).__name__}")
        while True:
            cur = self.get(key) if self.check([key]) else b""
            want = cur + bytes(value)
            if self.compare_set(key, cur, want) == want:
                return

    def multi_get(self, keys):
        """The values of keys (each waited for), as a list of bytes."""
        if not isinstance(keys, (list, tuple)):
            raise TypeError(f"multi_get(): keys must be a list of str, not {type(keys).__name__}")
        return [self.get(k) for k in keys]

    def has_extended_api(self):
        return True

    # Note [Store queues]
    # A queue is the value of its key: items length-prefixed (8 bytes, little endian) one after
    # another.  queue_push appends atomically (append); queue_pop takes the first item with
    # compare_set, retrying when another client got there first; a blocking pop of an empty
    # queue polls (1 ms growing to 50 ms) until the store's timeout.
    def queue_push(self, key, value):
        if isinstance(value, str):
            value = value.encode()
        if not isinstance(value, (bytes, bytearray)):
            raise TypeError(f"queue_push(): value must be str or bytes, not {type(value).__name__}")
        self.append(key, struct.pack("<Q", len(value)) + bytes(value))

    def _queue_items(self, key):
        return self.get(key) if self.check([key]) else b""

    def queue_pop(self, key, block=True):
        deadline = time.monotonic() + self.timeout.total_seconds()
        pause = 0.001
        while True:
            cur = self._queue_items(key)
            if cur:
                n = struct.unpack_from("<Q", cur)[0]
                if self.compare_set(key, cur, cur[8 + n:]) == cur[8 + n:]:
                    return cur[8:8 + n]
                continue
            if not block:
                raise QueueEmptyError("queue is empty")
            if time.monotonic() >= deadline:
                raise _c10d.DistStoreError("Wait timeout")
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def queue_len(self, key):
        cur, n = self._queue_items(key), 0
        off = 0
        while off < len(cur):
            off += 8 + struct.unpack_from("<Q", cur, off)[0]
            n += 1
        return n

    def multi_set(self, keys, values):
        if not isinstance(keys, (list, tuple)) or not isinstance(values, (list, tuple)):
            raise TypeError("multi_set(): keys and values must be lists")
        if len(keys) != len(values):
            raise ValueError(f"multi_set(): {len(keys)} keys but {len(values)} values")
        for k, v in zip(keys, values):
            self.set(k, v)


# port -> the multi-tenant master store serving it in this process (while it lives)
_tenants = weakref.WeakValueDictionary()


class TCPStore(Store):
    """A store served by a thread of the master process over TCP.

    ``TCPStore(host_name, port, world_size=None, is_master=False,
    timeout=timedelta(seconds=300), wait_for_workers=True)``; ``port=0`` on the
    master picks a free port (see ``.port``).
    """

    def __init__(self, host_name, port, world_size=None, is_master=False,
                 timeout=_DEFAULT_STORE_TIMEOUT, wait_for_workers=True, multi_tenant=False,
                 master_listen_fd=None, use_libuv=True):
        super().__init__()
        if master_listen_fd is not None:
            raise NotImplementedError("TCPStore: master_listen_fd is not supported")
        if world_size is not None and (not isinstance(world_size, int) or world_size < -1):
            raise ValueError(f"TCPStore: invalid world_size {world_size!r}")
        if not isinstance(port, int) or isinstance(port, bool):
            raise TypeError(f"TCPStore: port must be int, not {type(port).__name__}")
        owner = _tenants.get(port) if multi_tenant and is_master and port != 0 else None
        if owner is not None:
            # Note [Multi-tenant stores]: a second master on the port of a live multi-tenant
            # store of this process is a client of its server (kept alive by every tenant)
            self._server_owner = owner
            is_master = False
        self._init_tcp(host_name, port, -1 if world_size is None else world_size,
                       bool(is_master), _timeout_ms(timeout), bool(wait_for_workers))
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

    def clone(self):
        """A new client of the same server."""
        return TCPStore(self.host, self.port, is_master=False, timeout=self.timeout)


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

    @property
    def underlying_store(self):
        return self._underlying

    def clone(self):
        return PrefixStore(self._prefix, self._underlying.clone())
