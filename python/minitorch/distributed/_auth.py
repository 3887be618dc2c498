"""The job token: authenticated stores and transports (Note [Job token] in
csrc/distributed/common/auth.h).

A token comes from, in order: ``TCPStore(token=...)`` for that store; the ``token``
attribute of the ``pg_options`` given to ``init_process_group`` (it then serves the
job's stores and groups in this process); the ``MINITORCH_DIST_TOKEN`` environment
variable.  None or an empty token means no authentication (torch's protocol).
"""
import os

from .._C import _c10d

ENV = "MINITORCH_DIST_TOKEN"
_job_token = None  # set by init_process_group from pg_options.token


def as_bytes(token):
    """The token as bytes, or None for no token."""
    if token is None:
        return None
    if isinstance(token, str):
        token = token.encode()
    elif isinstance(token, (bytes, bytearray, memoryview)):
        token = bytes(token)
    else:
        raise TypeError(f"the job token must be str or bytes, not {type(token).__name__}")
    return token or None


def resolve(token=None):
    """The token a store or group of this process uses when given `token` (None: the job's)."""
    if token is not None:
        return as_bytes(token)
    if _job_token is not None:
        return _job_token
    return as_bytes(os.environ.get(ENV))


def set_job_token(token):
    """Makes `token` (None: back to MINITORCH_DIST_TOKEN) the token of this process's
    transports and of the stores it creates without a token of their own."""
    global _job_token
    _job_token = as_bytes(token) if token is not None else None
    _c10d._set_job_token(_job_token if token is not None else None)


def store_token(store):
    """The token of a TCPStore (or of the TCPStore under PrefixStores), or None."""
    seen = 0
    while store is not None and seen < 64:
        tok = getattr(store, "_job_token", None)
        if tok is not None:
            return tok
        try:
            store = getattr(store, "underlying_store", None)
        except Exception:  # a user store whose property fails: no token known
            return None
        seen += 1
    return None
