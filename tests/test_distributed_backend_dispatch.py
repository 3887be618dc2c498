"""A ProcessGroup holds one backend per device type, as torch's: _register_backend /
_get_backend / _set_default_backend, operations handed to the backend of their tensors' device,
torch's error for a device no backend serves, user backends registered for a device, and
"cpu:gloo,cuda:nccl" (the CUDA device refusing every call while NCCL groups are not built)."""
import copy
import pathlib
import re

import pytest

import minitorch as torch
import minitorch.distributed as dist
from minitorch.distributed._process_group import _Backend

BT = dist.ProcessGroup.BackendType


class Recording(_Backend):
    """A backend that records the calls it gets."""

    def __init__(self, rank, size, name="rec"):
        super().__init__(rank, size)
        self.calls = []
        self._name = name

    def getBackendName(self):
        return self._name

    def allreduce(self, tensors, opts=None):
        self.calls.append(("allreduce", [t.tolist() for t in tensors], opts.reduceOp,
                           opts.asyncOp))
        for t in tensors:
            t.add_(1)
        return dist.Work()

    def barrier(self, opts=None):
        self.calls.append(("barrier", opts.asyncOp))
        return dist.Work()


@pytest.fixture
def registry():
    saved = (dict(dist.Backend._plugins), list(dist.Backend.backend_list),
             copy.deepcopy(dist.Backend.backend_capability), dict(dist.Backend.backend_type_map),
             dict(dist.Backend.default_device_backend_map))
    names = set(vars(dist.Backend))
    yield
    (dist.Backend._plugins, dist.Backend.backend_list, dist.Backend.backend_capability,
     dist.Backend.backend_type_map, dist.Backend.default_device_backend_map) = saved
    for n in set(vars(dist.Backend)) - names:
        delattr(dist.Backend, n)


@pytest.fixture
def clean():
    yield
    if dist.is_initialized():
        dist.destroy_process_group()


def test_a_group_without_backends_raises_torchs_error():
    pg = dist.ProcessGroup(0, 1)
    assert pg._device_types == [] and pg.name() == "undefined"
    with pytest.raises(RuntimeError, match="No backend type associated with device type cpu"):
        pg._get_backend(torch.device("cpu"))
    with pytest.raises(RuntimeError, match="No backend type associated with device type cpu"):
        pg.allreduce([torch.ones(1)])
    with pytest.raises(TypeError):
        dist.ProcessGroup(0)


def test_operations_go_to_the_backend_of_their_device():
    pg = dist.ProcessGroup(dist.HashStore(), 0, 2)
    rec = Recording(0, 2)
    pg._register_backend(torch.device("cpu"), BT.CUSTOM, rec)
    assert pg._get_backend(torch.device("cpu")) is rec and pg._get_backend("cpu") is rec
    assert pg._device_types == [torch.device("cpu")] and pg.name() == "rec"
    with pytest.raises(RuntimeError, match="No backend type associated with device type cuda"):
        pg._get_backend("cuda")
    o = dist.AllreduceOptions()
    o.reduceOp = dist.ReduceOp.MAX
    t = torch.ones(2)
    assert pg.allreduce([t], o).wait()
    assert t.tolist() == [2.0, 2.0]
    assert rec.calls == [("allreduce", [[1.0, 1.0]], dist.ReduceOp.MAX, True)]
    pg.barrier(dist.BarrierOptions())  # no tensors: the default backend
    assert rec.calls[-1] == ("barrier", True)
    assert pg._get_sequence_number_for_group() == 2
    # an operation the backend lacks
    with pytest.raises(NotImplementedError, match="rec backend does not implement broadcast"):
        pg.broadcast([t])
    # the default backend is the registered one of that type
    other = Recording(0, 2, "other")
    pg._register_backend("cuda", BT.GLOO, other)
    assert pg.name() == "rec"
    pg._set_default_backend(BT.GLOO)
    assert pg.name() == "other"


def test_gloo_serves_cpu_and_cuda_tensors(tmp_path, clean):
    dist.init_process_group("gloo", init_method=f"file://{tmp_path}/s", rank=0, world_size=1)
    pg = dist.distributed_c10d._get_default_group()
    b = pg._get_backend(torch.device("cpu"))
    assert isinstance(b, dist.ProcessGroupGloo) and not isinstance(b, dist.ProcessGroup)
    assert dist.distributed_c10d.get_backend_impl() is b and b.name() == "gloo"
    # as torch's: one gloo backend for both (CUDA tensors through host copies)
    assert set(pg._device_types) == {torch.device("cpu"), torch.device("cuda")}
    assert pg._get_backend("cuda") is b
    assert dist.get_backend_config() == "cpu:gloo,cuda:gloo" and dist.get_backend() == "gloo"
    # the module functions and the group's methods share one path
    t = torch.arange(4.0).reshape(2, 2).t()
    seq = pg._get_sequence_number_for_group()
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    w = pg.allreduce([t])
    assert w.wait() and t.tolist() == [[0.0, 2.0], [1.0, 3.0]]
    assert pg._get_sequence_number_for_group() == seq + 2


def test_nccl_pairs_build_a_cuda_backend_that_refuses(clean):
    dist.init_process_group("cpu:gloo,cuda:nccl", store=dist.HashStore(), rank=0, world_size=1)
    pg = dist.distributed_c10d._get_default_group()
    assert dist.get_backend() == "gloo" and dist.get_backend_config() == "cpu:gloo,cuda:nccl"
    cuda = pg._get_backend("cuda")
    assert cuda.name() == "nccl"
    with pytest.raises((RuntimeError, NotImplementedError), match="NCCL"):
        cuda.allreduce([torch.ones(1)])
    t = torch.ones(3)
    dist.all_reduce(t)
    assert t.tolist() == [1.0] * 3
    dist.destroy_process_group()
    with pytest.raises((RuntimeError, NotImplementedError), match="NCCL"):
        dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)


@pytest.mark.parametrize("spec", ["rec", "cpu:rec"])
def test_a_user_backend_serves_its_device(registry, clean, spec):
    made = []

    def create(store, rank, size, timeout):
        made.append(Recording(rank, size))
        return made[-1]

    dist.Backend.register_backend("rec", create, devices=["cpu"])
    dist.init_process_group(spec, store=dist.HashStore(), rank=0, world_size=1)
    pg = dist.distributed_c10d._get_default_group()
    assert type(pg) is dist.ProcessGroup and pg._get_backend("cpu") is made[0]
    assert dist.get_backend() == "rec" and dist.get_backend_config() == "cpu:rec"
    t = torch.zeros(2)
    assert dist.all_reduce(t) is None
    w = dist.all_reduce(t, op=dist.ReduceOp.MIN, async_op=True)
    assert isinstance(w, dist.Work) and w.wait()
    dist.barrier()
    assert made[0].calls == [("allreduce", [[0.0, 0.0]], dist.ReduceOp.SUM, False),
                             ("allreduce", [[1.0, 1.0]], dist.ReduceOp.MIN, True),
                             ("barrier", False)]
    assert t.tolist() == [2.0, 2.0]


def test_the_layers_import_one_way():
    # ReduceOp, the options, Work, the registry, the front end and the CPU backend sit below
    # distributed_c10d.py: none imports it (nor imports lazily to dodge a cycle)
    root = pathlib.Path(dist.__file__).parent
    for name in ("_reduce_op", "_options", "_work", "_backend", "_process_group",
                 "_process_group_gloo", "_monitored_barrier", "_debug"):
        src = (root / f"{name}.py").read_text()
        assert not re.search(r"(import|from)\s+\S*distributed_c10d|from \. import distributed_c10d|"
                             r"def _c\(\)", src), name
