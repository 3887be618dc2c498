"""The backend registry as torch's: Backend.register_backend, plugins found through entry
points, BackendConfig, _parse_backend_string, is_backend_available."""
import copy
import unittest.mock
import warnings

import pytest

import minitorch.distributed as dist
from minitorch.distributed import _backend
from minitorch.distributed.distributed_c10d import _parse_backend_string


@pytest.fixture
def registry():
    """Restores the registry after a test that registers backends."""
    saved = (dict(dist.Backend._plugins), list(dist.Backend.backend_list),
             copy.deepcopy(dist.Backend.backend_capability), dict(dist.Backend.backend_type_map),
             dict(dist.Backend.default_device_backend_map))
    names = set(vars(dist.Backend))
    yield
    (dist.Backend._plugins, dist.Backend.backend_list, dist.Backend.backend_capability,
     dist.Backend.backend_type_map, dist.Backend.default_device_backend_map) = saved
    for n in set(vars(dist.Backend)) - names:
        delattr(dist.Backend, n)


def _creator(store, rank, size, timeout):
    return dist.ProcessGroup(rank, size)


def test_builtin_names():
    assert dist.Backend("GLOO") == "gloo" and dist.Backend.XCCL == "xccl"
    assert dist.Backend("somethingelse") == "somethingelse"
    assert dist.Backend.backend_capability["gloo"] == ["cpu", "cuda"]
    assert dist.Backend.default_device_backend_map["cpu"] == "gloo"
    assert dist.Backend.backend_type_map["gloo"] == dist.ProcessGroup.BackendType.GLOO
    from minitorch._C import _c10d
    mpi = _c10d._mpi_unavailable_reason() is None  # an Open MPI library loads here
    nccl = dist.is_nccl_available()                 # (tests/test_nccl_library.py checks it)
    assert [dist.is_backend_available(b) for b in ("gloo", "nccl", "xccl", "ucc", "mpi")] == \
        [True, nccl, False, False, mpi]
    with pytest.raises(ValueError, match="string-ish"):
        dist.Backend(3)


def test_register_backend(registry):
    dist.Backend.register_backend("dummy", _creator, devices="custom_device")
    assert dist.Backend.DUMMY == "dummy" and "dummy" in dist.Backend.backend_list
    plugin = dist.Backend._plugins["DUMMY"]
    assert plugin.creator_fn is _creator and plugin.extended_api is False
    assert dist.Backend.backend_capability["dummy"] == ["custom_device"]
    assert dist.Backend.default_device_backend_map["custom_device"] == "dummy"
    assert dist.Backend.default_device_backend_map["cpu"] == "gloo"   # cpu keeps its default
    assert dist.Backend.backend_type_map["dummy"] == dist.ProcessGroup.BackendType.CUSTOM
    assert dist.is_backend_available("dummy")
    # registering the name again replaces the creator, as torch's
    dist.Backend.register_backend("dummy", print, extended_api=True, devices=["cpu"])
    assert dist.Backend._plugins["DUMMY"] == (print, True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        dist.Backend.register_backend("nodevices", _creator)
    assert any("Device capability of nodevices unspecified" in str(x.message) for x in w)
    assert dist.Backend.backend_capability["nodevices"] == ["cpu"]


def test_backend_config(registry):
    dist.Backend.register_backend("dummy", _creator, devices=["cpu"])
    for spec, want in (("gloo", "cpu:gloo,cuda:gloo"), ("nccl", "cuda:nccl"),
                       (dist.Backend.DUMMY, "cpu:dummy"), ("DUMMY", "cpu:dummy"),
                       ("cpu:dummy,cuda:nccl", "cpu:dummy,cuda:nccl"),
                       ("CPU:Gloo,cuda:dummy", "cpu:gloo,cuda:dummy")):
        assert str(dist.BackendConfig(spec)) == want
    assert dist.BackendConfig("undefined").get_device_backend_map() == {"cpu": "gloo"}
    for bad in ("cpu:gloo,cuda:nccl,", "cpu:gloo,cuda:nccl,cpu:dummy", "cpu:gloo:x"):
        with pytest.raises(ValueError):
            dist.BackendConfig(bad)


def test_parse_backend_string(registry):
    devices = {"cpu", "cuda", "xpu", "mps"}
    assert _parse_backend_string("gloo", available_devices=devices) == {"cpu": "gloo", "mps": "gloo"}
    assert _parse_backend_string("NCCL", available_devices=devices) == {"cuda": "nccl"}
    assert _parse_backend_string("CPU:GLOO , CUDA:NCCL", available_devices=devices) == \
        {"cpu": "gloo", "cuda": "nccl"}
    with pytest.raises(ValueError, match="Unknown backend"):
        _parse_backend_string("definitely_not_a_backend", available_devices=devices)
    with pytest.raises(ValueError, match="Invalid device:backend pairing"):
        _parse_backend_string("cpu:gloo,bare", available_devices=devices)
    with pytest.raises(ValueError, match="Duplicate device type"):
        _parse_backend_string("cpu:gloo,cpu:x", available_devices=devices)


class _EntryPoint:
    def __init__(self, name, registrar):
        self.name = name
        self._registrar = registrar
        self.loads = 0

    def load(self):
        self.loads += 1
        return self._registrar


def test_plugins_register_through_entry_points(registry):
    ep = _EntryPoint("ep_backend", lambda: dist.Backend.register_backend("ep_backend", _creator,
                                                                          devices=["cpu"]))
    with unittest.mock.patch("importlib.metadata.entry_points", return_value=[ep]) as found:
        assert dist.is_backend_available("ep_backend")
        assert found.call_args.kwargs == {"group": _backend.ENTRY_POINT_GROUP}
        assert str(dist.BackendConfig("ep_backend")) == "cpu:ep_backend"
    assert ep.loads == 1 and dist.Backend._plugins["EP_BACKEND"].creator_fn is _creator
    # an entry point that registers nothing, or loads something not callable, is an error
    lazy = _EntryPoint("lazy", lambda: None)
    with unittest.mock.patch("importlib.metadata.entry_points", return_value=[lazy]):
        with pytest.raises(RuntimeError, match="did not register a backend"):
            dist.is_backend_available("lazy")
    with unittest.mock.patch("importlib.metadata.entry_points",
                             return_value=[_EntryPoint("odd", 5)]):
        with pytest.raises(TypeError, match="callable registrar"):
            dist.BackendConfig("odd")
    with unittest.mock.patch("importlib.metadata.entry_points", return_value=[]):
        assert not dist.is_backend_available("nobody")
