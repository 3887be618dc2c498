"""The registry of communication backends, as torch's: Backend names, Backend.register_backend,
backend plugins found through entry points, BackendConfig ("cpu:gloo,cuda:nccl") and
is_backend_available.

minitorch builds "gloo" (its CPU backend, _process_group_gloo.py over csrc/distributed) and
"nccl" (_process_group_nccl.py, where NCCL's library loads), "mpi" (_process_group_mpi.py, where an
MPI library loads); the other names torch knows (xccl, ucc) are known here and reported
unavailable.  A user-defined backend is registered with
Backend.register_backend(name, creator, devices=...) and made by init_process_group(backend=name)
or as one device's backend ("cpu:name"); see Note [User-defined backends] in
distributed_c10d.py.
"""
import enum
import warnings
from typing import Callable, NamedTuple

__all__ = ["Backend", "BackendConfig", "is_backend_available", "is_gloo_available",
           "is_nccl_available", "is_xccl_available", "is_mpi_available", "is_ucc_available"]

# Plugins announce themselves in this entry-point group: the entry point loads a callable that
# calls Backend.register_backend.
ENTRY_POINT_GROUP = "minitorch.distributed.backends"


class BackendType(enum.IntEnum):
    """ProcessGroup.BackendType: what kind of backend serves a device."""
    UNDEFINED = 0
    GLOO = 1
    NCCL = 2
    UCC = 3
    MPI = 4
    XCCL = 5
    CUSTOM = 6

    def __repr__(self):
        return f"<BackendType.{self.name}: {int(self)}>"


def is_gloo_available():
    return True


def is_nccl_available():
    """Whether NCCL's library loads (Note [Loading NCCL]), GPU or not, as torch's."""
    from ..cuda import nccl
    return nccl._unavailable_reason() is None


def is_xccl_available():
    return False


def is_mpi_available():
    """Whether the MPI backend can be used here: an MPI library of a supported ABI (Open MPI)
    loads (Note [Loading MPI]; MINITORCH_MPI_LIBRARY chooses it)."""
    from ._process_group_mpi import unavailable_reason
    return unavailable_reason() is None


def is_ucc_available():
    return False


class Backend(str):
    """Backend names: ``Backend.GLOO == "gloo"``, ``Backend("GLOO") == "gloo"``; registered
    backends become attributes (``Backend.DUMMY == "dummy"``)."""

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"
    XCCL = "xccl"

    class _BackendPlugin(NamedTuple):
        creator_fn: Callable
        extended_api: bool

    _plugins = {}  # NAME (upper case) -> _BackendPlugin

    backend_list = [UNDEFINED, GLOO, NCCL, XCCL, UCC, MPI]
    # the backend a device uses when none is named for it
    default_device_backend_map = {"cpu": GLOO, "cuda": NCCL, "xpu": XCCL, "mps": GLOO}
    # the devices each backend serves
    backend_capability = {GLOO: ["cpu", "cuda"], NCCL: ["cuda"], XCCL: ["xpu"], UCC: ["cpu", "cuda"],
                          MPI: ["cpu", "cuda"]}
    backend_type_map = {UNDEFINED: BackendType.UNDEFINED, GLOO: BackendType.GLOO,
                        NCCL: BackendType.NCCL, XCCL: BackendType.XCCL, UCC: BackendType.UCC,
                        MPI: BackendType.MPI}

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, but got: {type(name)}")
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED or not isinstance(value, str):
            value = name.lower()
        return super().__new__(cls, value)

    @classmethod
    def _ensure_backend_registered(cls, name):
        """Registers the backend `name` from its entry point (group ENTRY_POINT_GROUP) when it
        is not registered yet and a plugin offers it."""
        normalized = name.lower()
        if normalized.upper() in cls._plugins:
            return
        from importlib.metadata import entry_points

        found = None
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if ep.name.lower() == normalized:
                found = ep
                break
        if found is None:
            return
        try:
            registrar = found.load()
        except Exception as e:
            raise RuntimeError(f"Failed to load the c10d backend entry point: {normalized}") from e
        if not callable(registrar):
            raise TypeError("backend entry point must load a callable registrar")
        registrar()
        if normalized.upper() not in cls._plugins:
            raise RuntimeError(f"c10d backend entry point {normalized} did not register a backend")

    @classmethod
    def register_backend(cls, name, func, extended_api=False, devices=None):
        """init_process_group(backend=name) will call `func` to make the group:
        func(store, rank, world_size, timeout), or with extended_api
        func(dist_backend_opts, backend_options).  `devices` (a device type or a list) are
        the devices it serves; it becomes their default backend where they have none.
        Registering a name again replaces its creator."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"Backend name must be a non-empty str, got {name!r}")
        if not callable(func):
            raise TypeError(f"register_backend(): func must be callable, not {type(func).__name__}")
        if isinstance(devices, str):
            devices = [devices]
        normalized = name.lower()
        if normalized in (cls.GLOO, cls.UNDEFINED):
            raise ValueError(f"{normalized.upper()} c10d backend is built in and cannot be replaced")
        if not hasattr(Backend, normalized.upper()):
            setattr(Backend, normalized.upper(), normalized)
        if normalized not in cls.backend_list:
            cls.backend_list.append(normalized)
        cls.backend_type_map[normalized] = BackendType.CUSTOM
        if devices is None:
            warnings.warn(f"Device capability of {name} unspecified, assuming `cpu` and the current "
                          "accelerator. Please specify it via the `devices` argument of "
                          "`register_backend`.", stacklevel=2)
            device_list = ["cpu"] + (["cuda"] if _accelerator_available() else [])
        else:
            device_list = list(devices)
        cls.backend_capability[normalized] = device_list
        if devices is not None:
            for d in device_list:
                cls.default_device_backend_map.setdefault(d, normalized)
        cls._plugins[normalized.upper()] = cls._BackendPlugin(func, bool(extended_api))


class _DistributedBackendOptions:
    """What an extended-API backend creator gets (torch's _DistributedBackendOptions)."""

    def __init__(self, store=None, group_rank=0, group_size=1, timeout=None, group_id="",
                 global_ranks_in_group=None):
        self.store = store
        self.group_rank = group_rank
        self.group_size = group_size
        self.timeout = timeout
        self.group_id = group_id
        self.global_ranks_in_group = list(global_ranks_in_group or [])


def _accelerator_available():
    import minitorch
    return minitorch.cuda.is_available()


def is_backend_available(backend):
    """Whether `backend` can make process groups here: the built-in ones by their
    is_<name>_available(), others once registered (an entry point may register them now)."""
    fn = globals().get(f"is_{backend.lower()}_available")
    if fn is not None:
        return fn()
    Backend._ensure_backend_registered(backend)
    return backend.lower() in Backend.backend_list


class BackendConfig:
    """The backend of each device type: BackendConfig("gloo") -> cpu:gloo,cuda:gloo;
    BackendConfig("cpu:gloo,cuda:nccl") as written."""

    _FORMAT = ("Custom backend string is an experimental feature where the backend string must "
               "be in the format: \"<device_type1>:<backend1>,<device_type2>:<backend2>...\". "
               "e.g. 'cpu:gloo,cuda:nccl,xpu:xccl'")

    def __init__(self, backend):
        self.device_backend_map = {}
        backend = str(backend)
        norm = backend.lower()
        if backend == Backend.UNDEFINED:
            device = "cuda" if _accelerator_available() else "cpu"
            if device not in Backend.default_device_backend_map:
                raise ValueError(f"We detected accelerator {device} on your machine. But we don't "
                                 "know which communication backend to use for this accelerator. "
                                 "Please specify the `backend` argument in the "
                                 "`init_process_group` call.")
            self.device_backend_map[device] = Backend(Backend.default_device_backend_map[device])
            return
        if ":" not in norm:
            Backend._ensure_backend_registered(backend)
            if norm in Backend.backend_list:
                devices = Backend.backend_capability.get(norm, ["cpu"])
                self.device_backend_map = dict.fromkeys(devices, Backend(backend))
            else:
                warnings.warn(f"Device capability of {backend} unknown, assuming `cpu` and the "
                              "current accelerator. You can specify it in `device:backend` format "
                              "in `init_process_group` call.", stacklevel=2)
                devices = ["cpu"] + (["cuda"] if _accelerator_available() else [])
                self.device_backend_map = dict.fromkeys(devices, Backend(backend))
            return
        for pair in norm.split(","):
            parts = pair.split(":")
            if len(parts) != 2:
                raise ValueError(f"Invalid device:backend pairing: {pair}. The custom backend "
                                 f"string argument is invalid: {backend}. {self._FORMAT}")
            device, name = parts
            if device in self.device_backend_map:
                raise ValueError(f"Duplicate device type {device} in backend string: {backend}. "
                                 f"{self._FORMAT}")
            Backend._ensure_backend_registered(name)
            self.device_backend_map[device] = Backend(name)

    def __repr__(self):
        return ",".join(f"{d}:{b}" for d, b in self.device_backend_map.items())

    def get_device_backend_map(self):
        return self.device_backend_map


def _parse_backend_string(backend, available_devices):
    """{device type: backend name}: the "device:backend,..." form as written (checked for
    pairs and duplicates), a bare name for the devices (among `available_devices`) whose
    default it is."""
    backend = backend.lower()
    if ":" in backend:
        out = {}
        for part in backend.split(","):
            pieces = part.split(":")
            if len(pieces) != 2:
                raise ValueError(f"Invalid device:backend pairing '{part}' in '{backend}'. Expected "
                                 "format: '<device_type1>:<backend1>,<device_type2>:<backend2>...'")
            device, name = pieces[0].strip(), pieces[1].strip()
            if device in out:
                raise ValueError(f"Duplicate device type '{device}' in backend string '{backend}'")
            Backend._ensure_backend_registered(name)
            out[device] = name
        return out
    Backend._ensure_backend_registered(backend)
    devices = [d for d, b in Backend.default_device_backend_map.items()
               if b == backend and d in available_devices]
    if not devices:
        raise ValueError(f"Unknown backend '{backend}'. Specify a 'device:backend' string or use "
                         f"one of: {sorted(Backend.default_device_backend_map.values())}")
    return dict.fromkeys(devices, backend)
