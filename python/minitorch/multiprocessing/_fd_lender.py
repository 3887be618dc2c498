"""Lends the descriptors of shared-memory segments to other processes of this machine.

Note [Descriptor lending]
A tensor pickled for another process under the file_descriptor strategy carries a handle:
(the address of this process's lender, the segment's inode, its size).  The lender is a Unix
socket in the abstract namespace served by one daemon thread per process, started at the
first handle.  Each handle made counts one loan of the segment's descriptor (the lender keeps
a duplicate, so the segment outlives the sender's tensors); the receiver either borrows it
(GET: the descriptor comes back over SCM_RIGHTS) or, when it already maps that segment, returns
the loan unused (REL).  The duplicate is closed when the last loan comes back.  So views of
one storage share one mapping on the other side, and no descriptor travels through
multiprocessing's `fds_to_keep` (which is what breaks torch when views are passed to a
spawned Process).  Only processes of the same user may connect (SO_PEERCRED).

Limits, as with torch's strategy: the sending process must still run when the receiver
unpickles; a handle that is never unpickled keeps its loan until the sender exits."""
import os
import socket
import struct
import threading

_REQUEST = struct.Struct("<cQ")     # b"G" (lend) or b"R" (return unused), inode
_TIMEOUT = float(os.environ.get("MINITORCH_SHARING_TIMEOUT", "60"))


class _Lender:
    def __init__(self):
        self.lock = threading.Lock()
        self.loans = {}              # inode -> [duplicate descriptor, loans outstanding]
        self.address = None
        self.listener = None

    def _start(self):
        name = f"\0minitorch-fd-{os.getpid()}-{os.urandom(6).hex()}"
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(name)
        listener.listen(64)
        self.listener, self.address = listener, name
        threading.Thread(target=self._serve, args=(listener,), name="minitorch-fd-lender",
                         daemon=True).start()

    def lend(self, fd, inode):
        """Counts one more loan of segment `inode` (descriptor fd, borrowed) and returns the
        lender's address for the handle."""
        with self.lock:
            if self.address is None:
                self._start()
            loan = self.loans.get(inode)
            if loan is None:
                self.loans[inode] = [os.dup(fd), 1]
            else:
                loan[1] += 1
            return self.address

    def _give_back(self, inode):
        """Ends one loan; returns the descriptor to send (None: unknown inode).  The caller
        closes what it gets when it was the last loan (second item)."""
        with self.lock:
            loan = self.loans.get(inode)
            if loan is None:
                return None, False
            loan[1] -= 1
            if loan[1] == 0:
                del self.loans[inode]
                return loan[0], True
            return loan[0], False

    def _serve(self, listener):
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return                  # closed (after a fork, in the child)
            threading.Thread(target=self._client, args=(conn,), daemon=True).start()

    def _client(self, conn):
        with conn:
            creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            if struct.unpack("3i", creds)[1] != os.getuid():
                return
            while True:
                try:
                    req = _recv_exact(conn, _REQUEST.size)
                except OSError:
                    return
                if req is None:
                    return
                kind, inode = _REQUEST.unpack(req)
                fd, last = self._give_back(inode)
                try:
                    if kind == b"G" and fd is not None:
                        socket.send_fds(conn, [b"\x00"], [fd])
                    elif kind == b"G":
                        conn.sendall(b"\x01")
                finally:
                    if last:
                        os.close(fd)

    def reset_after_fork(self):
        """The child of a fork has no lender thread: it starts its own when it lends."""
        if self.listener is not None:
            self.listener.close()
        for fd, _ in self.loans.values():
            os.close(fd)
        self.__init__()


def _recv_exact(conn, n):
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            return None if not buf else _short()
        buf += chunk
    return buf


def _short():
    raise OSError("connection closed in the middle of a request")


_lender = _Lender()
os.register_at_fork(after_in_child=_lender.reset_after_fork)


def lend(fd, inode):
    """See _Lender.lend."""
    return _lender.lend(fd, inode)


class _Borrower:
    """One connection per lender, kept for the next handle from the same process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.conns = {}

    def _conn(self, address):
        conn = self.conns.get(address)
        if conn is None:
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            conn.settimeout(_TIMEOUT)
            try:
                conn.connect(address)
            except OSError as e:
                conn.close()
                raise RuntimeError(
                    "a shared tensor could not be received: the process that sent it has exited "
                    "or closed its descriptor lender (with the file_descriptor sharing strategy "
                    "the sender must run until its tensors are received)") from e
            self.conns[address] = conn
        return conn

    def borrow(self, address, inode):
        """The descriptor of segment `inode` from the lender at `address` (caller owns it)."""
        with self.lock:
            conn = self._conn(address)
            try:
                conn.sendall(_REQUEST.pack(b"G", inode))
                msg, fds, _, _ = socket.recv_fds(conn, 1, 1)
            except OSError as e:
                self.conns.pop(address, None)
                conn.close()
                raise RuntimeError("receiving a shared tensor's descriptor failed: "
                                   f"{e}") from e
        if msg != b"\x00" or not fds:
            for fd in fds:
                os.close(fd)
            raise RuntimeError("the sending process no longer lends this shared tensor "
                               "(was the same handle unpickled twice?)")
        return fds[0]

    def give_back(self, address, inode):
        """Returns a loan unused (this process maps the segment already)."""
        with self.lock:
            try:
                self._conn(address).sendall(_REQUEST.pack(b"R", inode))
            except (OSError, RuntimeError):
                self.conns.pop(address, None)       # the lender is gone: nothing to return

    def reset_after_fork(self):
        for conn in self.conns.values():
            conn.close()
        self.__init__()


_borrower = _Borrower()
os.register_at_fork(after_in_child=_borrower.reset_after_fork)


def borrow(address, inode):
    return _borrower.borrow(address, inode)


def give_back(address, inode):
    _borrower.give_back(address, inode)
