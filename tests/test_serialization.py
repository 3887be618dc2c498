"""minitorch.save / load: weights-only loading by default (Note [Weights-only loading]):
checkpoints of tensors and containers load; a file that names any other global raises
UnpicklingError naming it, and nothing in it runs."""
import collections
import io
import os
import pickle
import pickletools
import re
import struct
import subprocess
import zipfile
import zlib

import numpy as np
import pytest

import minitorch as torch
from minitorch import serialization


def roundtrip(obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **kw)


def test_state_dict_like_objects_load_by_default():
    sd = collections.OrderedDict()
    for i, dt in enumerate([torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32,
                            torch.int64, torch.float16, torch.bfloat16, torch.float32,
                            torch.float64]):
        sd[f"w{i}"] = torch.arange(6).reshape(2, 3).to(dt)
    sd["view"] = torch.arange(12.0).reshape(3, 4).t()[1:]
    sd["zero_d"] = torch.tensor(3.5)
    sd["empty"] = torch.zeros(0, 3)
    obj = {"model": sd, "meta": [1, 2.5, "s", None, True, (1, 2), {3, 4}, frozenset([5]), 1j,
                                 b"raw", bytearray(b"xy")],
           "dtype": torch.float16, "device": torch.device("cpu"), "size": torch.Size([2, 3]),
           "layout": torch.strided, "format": torch.contiguous_format,
           "gen": torch.Generator().manual_seed(7), "cls": torch.FloatTensor}
    back = roundtrip(obj)
    assert isinstance(back["model"], collections.OrderedDict)
    for k, v in sd.items():
        assert back["model"][k].dtype == v.dtype and back["model"][k].tolist() == v.tolist()
    assert back["meta"] == obj["meta"]
    assert back["dtype"] is torch.float16 and back["size"] == torch.Size([2, 3])
    assert back["device"] == torch.device("cpu") and back["cls"] is torch.FloatTensor
    assert back["gen"].initial_seed() == 7


def test_paths_and_protocols(tmp_path):
    p = tmp_path / "ckpt.pt"
    torch.save({"a": torch.ones(3)}, p)
    assert torch.load(p)["a"].tolist() == [1.0, 1.0, 1.0]
    torch.save({"a": torch.ones(2)}, str(p), pickle_protocol=pickle.HIGHEST_PROTOCOL)
    assert torch.load(str(p), map_location="cpu")["a"].tolist() == [1.0, 1.0]


class Payload:
    """Runs `cmd` when unpickled with full pickle."""

    def __init__(self, cmd):
        self.cmd = cmd

    def __reduce__(self):
        return (os.system, (self.cmd,))


def evil_pickles(marker):
    cmd = f"touch {marker}"
    yield "system", pickle.dumps(Payload(cmd), protocol=2)   # posix.system
    yield "system", pickle.dumps({"state": [1, Payload(cmd)]}, protocol=4)
    yield "builtins.eval", (b"cbuiltins\neval\n(V__import__('os').system('" + cmd.encode()
                            + b"')\ntR.")
    yield "subprocess.Popen", pickle.dumps(_Reduce(subprocess.Popen, (["touch", str(marker)],)))
    # protocol 0 INST: instantiates a class by name
    yield "os.system", b"(V" + cmd.encode() + b"\nios\nsystem\n."
    # BUILD on an instance of an arbitrary class
    yield "tests_serialization_helper.Anything", (b"ctests_serialization_helper\nAnything\n)"
                                                  b"\x81}b.")


class _Reduce:
    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


def test_malicious_files_raise_naming_the_global_and_run_nothing(tmp_path):
    marker = tmp_path / "pwned"
    for name, data in evil_pickles(marker):
        with pytest.raises(pickle.UnpicklingError, match=name.replace(".", r"\.")):
            torch.load(io.BytesIO(data))
        assert not marker.exists(), f"{name} ran"
    # the message says how to load it anyway
    with pytest.raises(pickle.UnpicklingError, match="(?s)weights_only=False.*add_safe_globals"):
        torch.load(io.BytesIO(pickle.dumps(Payload("true"), protocol=2)))


def test_persistent_ids_are_refused():
    class P(pickle.Pickler):
        def persistent_id(self, obj):
            return "x" if obj == "secret" else None
    buf = io.BytesIO()
    P(buf, protocol=2).dump({"k": "secret"})
    with pytest.raises(pickle.UnpicklingError, match="persistent id"):
        torch.load(io.BytesIO(buf.getvalue()))


def test_codecs_encode_only_for_latin1_bytes():
    data = b"c_codecs\nencode\n(Vabc\nVrot13\ntR."
    with pytest.raises(pickle.UnpicklingError, match="rot13"):
        torch.load(io.BytesIO(data))
    assert roundtrip(b"\x00\xff") == b"\x00\xff"


class Point:
    def __init__(self, x):
        self.x = x


def test_add_safe_globals_and_the_context_manager():
    data = pickle.dumps(Point(3), protocol=2)
    with pytest.raises(pickle.UnpicklingError, match="Point"):
        torch.load(io.BytesIO(data))
    with serialization.safe_globals([Point]):
        assert torch.load(io.BytesIO(data)).x == 3
    assert Point not in serialization.get_safe_globals()
    serialization.add_safe_globals([Point])
    try:
        assert Point in serialization.get_safe_globals()
        assert torch.load(io.BytesIO(data)).x == 3
    finally:
        serialization.clear_safe_globals()
    assert serialization.get_safe_globals() == []


def test_weights_only_false_is_plain_pickle(tmp_path):
    marker = tmp_path / "ran"
    data = pickle.dumps(Payload(f"touch {marker}"), protocol=2)
    torch.load(io.BytesIO(data), weights_only=False)
    assert marker.exists()
    assert torch.load(io.BytesIO(pickle.dumps(Point(1))), pickle_module=pickle).x == 1


def test_explicit_pickle_module_with_weights_only_raises():
    with pytest.raises(RuntimeError, match="pickle_module"):
        torch.load(io.BytesIO(pickle.dumps(1)), pickle_module=pickle, weights_only=True)


def test_environment_overrides(monkeypatch):
    data = pickle.dumps(Point(5), protocol=2)
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    with pytest.warns(UserWarning, match="TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"):
        assert torch.load(io.BytesIO(data)).x == 5
    # it overrides only the default, not an explicit weights_only=True (as torch)
    with pytest.raises(pickle.UnpicklingError, match="Point"):
        torch.load(io.BytesIO(data), weights_only=True)
    monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "1")
    with pytest.raises(RuntimeError, match="Only one of"):
        torch.load(io.BytesIO(data))
    monkeypatch.delenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD")
    with pytest.raises(pickle.UnpicklingError, match="Point"):
        torch.load(io.BytesIO(data), weights_only=False)
    monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "on")   # not one of torch's true values
    assert torch.load(io.BytesIO(data), weights_only=False).x == 5


def test_truncated_and_corrupted_files_raise():
    good = io.BytesIO()
    torch.save({"a": torch.arange(100.0)}, good)
    data = good.getvalue()
    for bad in (data[: len(data) // 2], data[:1], b"", b"garbage" * 10,
                data.replace(b"_rebuild_tensor", b"_rebuild_tensox")):
        with pytest.raises(Exception) as info:
            torch.load(io.BytesIO(bad))
        assert not isinstance(info.value, SystemError)


def test_allowed_reconstructors_with_hostile_arguments_raise():
    # a tensor of 2**40 elements from 4 bytes of data; a bad generator state
    from minitorch._random import _generator_from_state
    from minitorch._tensor import _rebuild_tensor
    # refused before anything is allocated: the byte count must match shape and dtype
    with pytest.raises(pickle.UnpicklingError, match="needs 4398046511104 bytes"):
        torch.load(io.BytesIO(pickle.dumps(_Reduce(_rebuild_tensor,
                                                   (b"\0" * 4, torch.float32, (2**40,))))))
    with pytest.raises(pickle.UnpicklingError):
        torch.load(io.BytesIO(pickle.dumps(_Reduce(_rebuild_tensor,
                                                   (b"\0" * 3, torch.float32, (2,))))))
    with pytest.raises(RuntimeError):
        torch.load(io.BytesIO(pickle.dumps(_Reduce(_generator_from_state, (b"\1",)))))


def test_mmap_needs_a_path_to_a_checkpoint(tmp_path):
    with pytest.raises(ValueError, match="file path"):
        torch.load(io.BytesIO(pickle.dumps(1)), mmap=True)
    p = tmp_path / "old.pt"
    p.write_bytes(pickle.dumps({"a": torch.ones(2)}, protocol=2))
    with pytest.raises(RuntimeError, match="mmap can only be used"):
        torch.load(p, mmap=True)


# ---- the opcodes that call code or change an object (Note [Weights-only loading]) ----------

def test_build_cannot_change_allowed_classes_functions_or_tensors():
    size_repr = torch.Size.__repr__
    evil = [
        # BUILD with a slot state is setattr: on the class Size it would rewrite Size.__repr__
        b"\x80\x02cminitorch\nSize\nN}X\x08\x00\x00\x00__repr__cminitorch\ndevice\ns\x86b.",
        # on an allowed function
        b"\x80\x02cminitorch._tensor\n_rebuild_tensor\nN}X\x0c\x00\x00\x00__defaults__)s\x86b.",
        # on a tensor that an allowed reconstructor made
        pickle.dumps(torch.ones(2), protocol=2)[:-1] + b"}X\x01\x00\x00\x00aK\x01sb.",
    ]
    for data in evil:
        with pytest.raises(pickle.UnpicklingError, match="Can only build"):
            torch.load(io.BytesIO(data))
    assert torch.Size.__repr__ is size_repr and repr(torch.Size([1])) == "minitorch.Size([1])"
    from minitorch._tensor import _rebuild_tensor
    assert _rebuild_tensor.__defaults__ == (False, None)  # not the file's ()


def test_length_fields_are_not_allocations(tmp_path):
    # BYTEARRAY8 / BINBYTES8 / BINUNICODE8 / LONG4 / FRAME claiming 2**40 bytes, from a few
    for body in (b"\x96" + struct.pack("<Q", 2**40), b"\x8e" + struct.pack("<Q", 2**40),
                 b"\x8d" + struct.pack("<Q", 2**40), b"\x8b" + struct.pack("<i", 2**30),
                 b"\x95" + struct.pack("<Q", 2**40)):
        data = b"\x80\x05" + body + b"abc."
        p = tmp_path / "f.pt"
        p.write_bytes(data)
        for f in (io.BytesIO(data), p):
            with pytest.raises(pickle.UnpicklingError):
                torch.load(f)


def test_container_opcodes_only_on_containers():
    t = pickle.dumps(torch.zeros(3), protocol=2)[:-1]
    for data, what in [
        (t + b"K\x00K\x07s.", "SETITEM"),                       # t[0] = 7
        (t + b"(K\x00K\x07u.", "SETITEMS"),
        (t + b"K\x01a.", "append"),
        (b"\x80\x02cminitorch\nSize\n(K\x01e.", "append"),      # Size.extend / append
        (b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00cminitorch\nSize\n(K\x01\x90.",
         "ADDITEMS"),
    ]:
        with pytest.raises(pickle.UnpicklingError, match=what):
            torch.load(io.BytesIO(data))


def test_newobj_only_for_added_classes():
    for data in (b"\x80\x02cminitorch\nTensor\n)\x81.",
                 b"\x80\x02ccollections\nOrderedDict\n)\x81.",
                 b"\x80\x04cminitorch\nSize\n)}\x92."):
        with pytest.raises(pickle.UnpicklingError, match="Can only create new object"):
            torch.load(io.BytesIO(data))


@pytest.mark.parametrize("fn,args", [
    (torch.Size, (range(10**12),)), (set, (range(10**12),)), (frozenset, (iter([1]),)),
    (bytes, (10**12,)), (bytearray, (10**12,)), (collections.OrderedDict, (range(10**12),)),
], ids=["Size", "set", "frozenset", "bytes", "bytearray", "OrderedDict"])
def test_allowed_callables_refuse_lazy_or_size_arguments(fn, args):
    # a few bytes of file must not stand for 10**12 items
    try:
        data = pickle.dumps(_Reduce(fn, args), protocol=4)
    except TypeError:        # an iterator cannot be pickled: write the opcodes by hand
        data = b"\x80\x04cbuiltins\nfrozenset\ncbuiltins\niter\n"
    with pytest.raises(pickle.UnpicklingError, match="does not write|not an allowed"):
        torch.load(io.BytesIO(data))


def test_blocked_modules_even_when_added(tmp_path):
    marker = tmp_path / "ran"
    data = pickle.dumps(Payload(f"touch {marker}"), protocol=2)
    with serialization.safe_globals([os.system]):
        with pytest.raises(pickle.UnpicklingError, match=r"GLOBAL posix\.system whose module "
                                                         r"posix is blocked"):
            torch.load(io.BytesIO(data))
    assert not marker.exists()


def test_refused_opcodes():
    for data, what in [
        (b"(cminitorch\nSize\no.", "OBJ"),
        (b"\x80\x02\x82\x01.", "EXT1"),
        (b"\x80\x05\x97.", "NEXT_BUFFER"),
        (b"(Vcpu\nicollections\nOrderedDict\n.", "INST"),     # an allowed class, still INST
        (b"Pfoo\n.", "persistent id"),
    ]:
        with pytest.raises(pickle.UnpicklingError, match=what):
            torch.load(io.BytesIO(data))


def test_corrupted_streams_are_unpickling_errors():
    # APPEND on an empty stack, a missing memo entry, STOP on an empty stack, bad UTF-8
    for data in (b"\x80\x02a.", b"\x80\x02h\x05.", b"\x80\x02(t0.",
                 b"\x80\x02X\x02\x00\x00\x00\xff\xfe."):
        with pytest.raises(pickle.UnpicklingError):
            torch.load(io.BytesIO(data))


# ---- what loads ------------------------------------------------------------------------------

def checkpoint():
    sd = collections.OrderedDict(w=torch.arange(6.0).reshape(2, 3).t(),
                                 b=torch.ones(2, dtype=torch.int8))
    sd._metadata = {"": {"version": 1}}
    return {"model": sd, "opt": {"state": {0: {"step": torch.tensor(3)}}, "groups": [{"lr": 0.1}]},
            "rng": torch.Generator().manual_seed(3).get_state(), "gen": torch.Generator(),
            "counts": collections.Counter("aab"), "types": [torch.float64, torch.bool, torch.Tensor,
                                                           torch.Size, torch.device, torch.dtype],
            "misc": (range(3), slice(1, None), 2**70, -0.0, "é", b"", bytearray(), {1.5}),
            "size": torch.Size([]), "devices": [torch.device("cpu"), torch.device("cuda", 1)],
            "formats": [torch.strided, torch.channels_last], "legacy": torch.LongTensor}


@pytest.mark.parametrize("fmt", ["archive", "legacy torch", "by value"])
@pytest.mark.parametrize("proto", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_protocol_loads_under_the_default(proto, fmt):
    obj = checkpoint()
    buf = io.BytesIO()
    if fmt == "by value":            # what minitorch.save wrote before it wrote torch's format
        pickle.dump(obj, buf, protocol=proto)
    elif proto == 0:                 # cannot write persistent ids
        with pytest.raises(ValueError, match="protocol 0"):
            torch.save(obj, buf, pickle_protocol=proto,
                       _use_new_zipfile_serialization=fmt == "archive")
        return
    else:
        torch.save(obj, buf, pickle_protocol=proto, _use_new_zipfile_serialization=fmt == "archive")
    assert buf.getvalue().startswith(b"PK\x03\x04") == (fmt == "archive")
    buf.seek(0)
    back = torch.load(buf)
    assert type(back["model"]) is collections.OrderedDict
    assert back["model"]._metadata == {"": {"version": 1}}
    assert back["model"]["w"].tolist() == obj["model"]["w"].tolist()
    assert back["model"]["b"].dtype is torch.int8
    assert back["opt"]["state"][0]["step"].item() == 3 and back["opt"]["groups"] == [{"lr": 0.1}]
    assert back["rng"].tolist() == obj["rng"].tolist()
    assert back["gen"].get_state().tolist() == obj["gen"].get_state().tolist()
    for k in ("counts", "types", "misc", "size", "devices", "formats"):
        assert back[k] == obj[k], k
    assert back["legacy"] is torch.LongTensor


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a, self.b = 1, torch.ones(1)


class Record(dict):
    pass


@pytest.mark.parametrize("proto", range(pickle.HIGHEST_PROTOCOL + 1))
def test_added_classes_load_under_every_protocol(proto):
    r = Record(k=[Point(2)])
    r.note = "n"
    data = pickle.dumps([Point(1), r, Slotted()] if proto >= 2 else [Point(1), r], protocol=proto)
    with pytest.raises(pickle.UnpicklingError, match="Point|copyreg"):
        torch.load(io.BytesIO(data))
    with serialization.safe_globals([Point, Record, Slotted]):
        back = torch.load(io.BytesIO(data))
    assert back[0].x == 1 and back[1]["k"][0].x == 2 and back[1].note == "n"
    assert type(back[1]) is Record
    if proto >= 2:
        assert back[2].a == 1 and back[2].b.tolist() == [1.0]


def test_safe_global_under_another_name():
    data = b"\x80\x02cnot_a_module\nPt\nK\x07\x85R."
    with serialization.safe_globals([(Point, "not_a_module.Pt")]):
        assert torch.load(io.BytesIO(data)).x == 7


def test_add_safe_globals_checks_its_entries():
    with pytest.raises(ValueError, match="length 2"):
        serialization.add_safe_globals([(Point,)])
    with pytest.raises(TypeError, match="str"):
        serialization.add_safe_globals([(Point, 3)])
    with pytest.raises(TypeError, match="__qualname__"):
        serialization.add_safe_globals([torch.float16])
    with pytest.raises(TypeError, match="list"):
        serialization.add_safe_globals(Point)
    assert serialization.get_safe_globals() == []


def test_numpy_arrays_need_allowlisting():
    np = pytest.importorskip("numpy")
    data = pickle.dumps({"a": np.arange(3.0)}, protocol=2)
    with pytest.raises(pickle.UnpicklingError, match="numpy"):
        torch.load(io.BytesIO(data))
    core = getattr(np, "_core", None) or np.core          # numpy 2 / numpy 1
    with serialization.safe_globals([core.multiarray._reconstruct, np.ndarray, np.dtype,
                                     type(np.dtype(np.float64))]):
        assert torch.load(io.BytesIO(data))["a"].tolist() == [0.0, 1.0, 2.0]
    assert torch.load(io.BytesIO(data), weights_only=False)["a"].tolist() == [0.0, 1.0, 2.0]


def test_weights_only_false_runs_the_callable():
    data = pickle.dumps({"x": _Reduce(_record_call, ("ran",))}, protocol=2)
    _CALLS.clear()
    with pytest.raises(pickle.UnpicklingError, match="_record_call"):
        torch.load(io.BytesIO(data))
    assert _CALLS == []
    assert torch.load(io.BytesIO(data), weights_only=False) == {"x": "ran"}
    assert _CALLS == ["ran"]


_CALLS = []


def _record_call(v):
    _CALLS.append(v)
    return v


# ---- torch's checkpoint format (Note [Checkpoint pickle], Note [Checkpoint archive layout]) --

DATA = os.path.join(os.path.dirname(__file__), "data")

# dtypes minitorch has tensors of
TENSOR_DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                 torch.uint16, torch.uint32, torch.uint64, torch.float16, torch.bfloat16,
                 torch.float32, torch.float64, torch.complex64, torch.complex128]


def sample(dt, n=6):
    if dt is torch.bool:
        return torch.tensor([i % 3 == 0 for i in range(n)])
    if dt.is_complex:
        return torch.tensor([complex(i, -i / 2) for i in range(n)], dtype=dt)
    return torch.tensor([(i * 37) % 100 for i in range(n)], dtype=dt)


def save_bytes(obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf, **kw)
    return buf.getvalue()


def records(data):
    """name -> bytes of the records of an archive, in order."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return collections.OrderedDict((i.filename, z.read(i)) for i in z.infolist())


def rezip(recs):
    """An archive of these records, written by Python's zipfile (unaligned, no data
    descriptors): load does not depend on torch's layout."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, data in recs.items():
            z.writestr(name, data)
    return buf.getvalue()


def pickle_names(data_pkl):
    """The globals a pickle names and the persistent ids it holds."""
    class Name(str):                      # a global: calling it gives a stand-in object
        def __call__(self, *args):
            return Stub()

    class Stub(dict):
        def __setstate__(self, state):
            pass

    class Reader(pickle.Unpickler):
        def find_class(self, module, name):
            return Name(f"{module}.{name}")

        def persistent_load(self, pid):
            pids.append(pid)
            return pid
    pids = []
    Reader(io.BytesIO(data_pkl), encoding="utf-8").load()
    return {arg.replace(" ", ".") for op, arg, _ in pickletools.genops(data_pkl)
            if op.name == "GLOBAL"}, pids


def state_dict():
    w = torch.arange(12.0).reshape(3, 4)
    sd = collections.OrderedDict(weight=w, bias=torch.tensor([0.5, -1.0, 2.0]),
                                 steps=torch.tensor([1, 2, 2**40], dtype=torch.int64),
                                 mask=torch.tensor([True, False]),
                                 half=torch.tensor([1.5, -2.0], dtype=torch.float16),
                                 bf=torch.tensor([0.25, 3.0], dtype=torch.bfloat16),
                                 row=w[1], wt=w.t(), scalar=torch.tensor(2.5),
                                 empty=torch.zeros(0, 3))
    sd._metadata = {"": {"version": 1}}
    return {"model": sd, "epoch": 3, "lr": 0.1, "name": "fc", "nested": {"a": [1, 2.5, "x"]}}


def check_state_dict(back, like, views=True):
    assert type(back["model"]) is collections.OrderedDict
    assert list(back["model"]) == list(like["model"])
    assert back["model"]._metadata == {"": {"version": 1}}
    for k, v in like["model"].items():
        b = back["model"][k]
        assert type(b) is torch.Tensor and b.dtype is v.dtype and b.shape == v.shape, k
        if views:
            assert b.stride() == v.stride() and b.storage_offset() == v.storage_offset(), k
        assert b.tolist() == v.tolist(), k
    for k in ("epoch", "lr", "name", "nested"):
        assert back[k] == like[k]


def test_archive_layout_is_torchs(tmp_path):
    obj = state_dict()
    path = tmp_path / "ckpt.pt"
    torch.save(obj, path)
    data = path.read_bytes()
    recs = records(data)
    n_storages = 7          # weight (with row and wt), bias, steps, mask, half, bf, scalar, empty
    assert list(recs) == (["ckpt/data.pkl", "ckpt/.format_version", "ckpt/.storage_alignment",
                           "ckpt/byteorder"] + [f"ckpt/data/{i}" for i in range(n_storages + 1)]
                          + ["ckpt/version", "ckpt/.data/serialization_id"])
    assert recs["ckpt/byteorder"] == b"little" and recs["ckpt/version"] == b"3\n"
    assert recs["ckpt/.format_version"] == b"1" and recs["ckpt/.storage_alignment"] == b"64"
    assert re.fullmatch(rb"\d{40}", recs["ckpt/.data/serialization_id"])
    assert recs["ckpt/data/0"] == bytes(memoryview(obj["model"]["weight"].numpy()))
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None                      # crcs are right
        for info in z.infolist():                       # every record's bytes 64-aligned
            assert info.compress_type == zipfile.ZIP_STORED
            n, m = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
            assert (info.header_offset + 30 + n + m) % 64 == 0, info.filename
    names, pids = pickle_names(recs["ckpt/data.pkl"])
    assert names == {"collections.OrderedDict", "torch._utils._rebuild_tensor_v2",
                     "torch.FloatStorage", "torch.LongStorage", "torch.BoolStorage",
                     "torch.HalfStorage", "torch.BFloat16Storage"}
    assert pids[0] == ("storage", "torch.FloatStorage", "0", "cpu", 12)
    assert {pid[2] for pid in pids} == {str(i) for i in range(n_storages + 1)}
    # a file object: the records sit in "archive/"
    assert list(records(save_bytes(obj)))[0] == "archive/data.pkl"


def test_torch_names_for_minitorch_objects():
    obj = {"dtype": torch.bfloat16, "device": torch.device("cuda", 1), "size": torch.Size([2]),
           "layout": torch.strided, "cls": torch.FloatTensor,
           "u": torch.tensor([1], dtype=torch.uint16)}
    names, pids = pickle_names(records(save_bytes(obj))["archive/data.pkl"])
    assert names == {"torch.bfloat16", "torch.device", "torch.Size",
                     "torch.serialization._get_layout", "torch.FloatTensor",
                     "torch._utils._rebuild_tensor_v3",
                     "torch.storage.UntypedStorage", "torch.uint16", "collections.OrderedDict"}
    assert pids == [("storage", "torch.storage.UntypedStorage", "0", "cpu", 2)]
    back = roundtrip(obj)
    assert back["dtype"] is torch.bfloat16 and back["device"] == torch.device("cuda:1")
    assert back["size"] == torch.Size([2]) and type(back["size"]) is torch.Size
    assert back["layout"] is torch.strided and back["cls"] is torch.FloatTensor
    assert back["u"].dtype is torch.uint16 and back["u"].tolist() == [1]


@pytest.mark.parametrize("fmt", [True, False], ids=["archive", "legacy torch"])
@pytest.mark.parametrize("dt", TENSOR_DTYPES, ids=str)
def test_every_dtype_round_trips(dt, fmt):
    t = sample(dt)
    obj = {"t": t, "view": t[2:5], "strided": t[::2], "zero_d": t[3], "empty": t[:0]}
    buf = io.BytesIO()
    torch.save(obj, buf, _use_new_zipfile_serialization=fmt)
    buf.seek(0)
    back = torch.load(buf)
    for k, v in obj.items():
        assert back[k].dtype is dt and back[k].shape == v.shape and back[k].tolist() == v.tolist()
        assert back[k].stride() == v.stride() and back[k].storage_offset() == v.storage_offset()
    assert back["view"].untyped_storage().data_ptr() == back["t"].untyped_storage().data_ptr()


@pytest.mark.parametrize("fmt", [True, False], ids=["archive", "legacy torch"])
def test_views_load_as_views_of_one_storage(fmt):
    a = torch.arange(12.0).reshape(3, 4)
    obj = {"a": a, "tail": a[1:], "t": a.t(), "col": a[:, 2], "again": a}
    buf = io.BytesIO()
    torch.save(obj, buf, _use_new_zipfile_serialization=fmt)
    if fmt:
        assert [n for n in records(buf.getvalue()) if "/data/" in n] == ["archive/data/0"]
    buf.seek(0)
    back = torch.load(buf)
    ptr = back["a"].untyped_storage().data_ptr()
    assert all(back[k].untyped_storage().data_ptr() == ptr for k in obj)
    assert back["again"] is back["a"]
    assert back["tail"].storage_offset() == 4 and back["t"].stride() == (1, 4)
    back["tail"][0, 0] = 100.0                  # a change through one view shows in the others
    assert back["a"][1, 0].item() == 100.0 and back["t"][0, 1].item() == 100.0
    back["a"].add_(1)
    assert back["col"].tolist() == [3.0, 7.0, 11.0]


def test_a_view_alone_saves_its_whole_storage():
    a = torch.arange(10.0)
    back = roundtrip({"v": a[7:9]})["v"]
    assert back.tolist() == [7.0, 8.0] and back.storage_offset() == 7
    assert back.untyped_storage().nbytes() == 40


def test_state_dicts_paths_and_file_objects(tmp_path):
    obj = state_dict()
    check_state_dict(roundtrip(obj), obj)
    for path in (tmp_path / "a.pt", str(tmp_path / "b.pth"), os.fsencode(tmp_path / "c")):
        torch.save(obj, path)
        check_state_dict(torch.load(path), obj)
    assert list(records((tmp_path / "b.pth").read_bytes()))[0] == "b/data.pkl"
    assert list(records((tmp_path / "c").read_bytes()))[0] == "c/data.pkl"
    with open(tmp_path / "d.pt", "wb") as f:        # a real file object
        f.write(b"")
        torch.save(obj, f)
    with open(tmp_path / "d.pt", "rb") as f:
        check_state_dict(torch.load(f), obj)

    class WriteOnly:                                 # a stream that cannot seek or tell
        def __init__(self):
            self.parts = []

        def write(self, b):
            self.parts.append(bytes(b))
            return len(b)

    class ReadOnly(io.RawIOBase):
        def __init__(self, data):
            self._f = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            return self._f.readinto(b)
    w = WriteOnly()
    torch.save(obj, w)
    check_state_dict(torch.load(ReadOnly(b"".join(w.parts))), obj)


def test_weights_only_false_and_pickle_module():
    obj = state_dict()
    check_state_dict(torch.load(io.BytesIO(save_bytes(obj)), weights_only=False), obj)
    check_state_dict(torch.load(io.BytesIO(save_bytes(obj)), pickle_module=pickle), obj)
    with pytest.raises(ValueError, match="pickle_module"):
        torch.save(obj, io.BytesIO(), pickle_module=type(pickle)("not_pickle"))


def test_storages_saved_for_themselves():
    t = torch.arange(4.0)
    back = roundtrip({"typed": t.storage(), "t": t})
    assert type(back["typed"]) is torch.TypedStorage and back["typed"].dtype is torch.float32
    assert back["typed"].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert back["typed"].untyped().data_ptr() == back["t"].untyped_storage().data_ptr()
    u = roundtrip(torch.arange(3, dtype=torch.uint8).untyped_storage())
    assert type(u) is torch.UntypedStorage and u.tolist() == [0, 1, 2]


def test_one_storage_as_two_dtypes_is_refused():
    a = torch.arange(4, dtype=torch.int32)
    with pytest.raises(RuntimeError, match="different types"):
        torch.save([a, a.view(torch.float32)], io.BytesIO())


def test_pickle_of_a_tensor_stays_by_value():
    t = torch.arange(3.0)
    data = pickle.dumps(t, protocol=2)
    assert b"minitorch._tensor\n_rebuild_tensor\n" in data and b"torch._utils" not in data
    assert pickle.loads(data).tolist() == [0.0, 1.0, 2.0]


def test_files_minitorch_wrote_before_still_load(tmp_path):
    obj = state_dict()
    p = tmp_path / "old.pt"
    with open(p, "wb") as f:                 # what minitorch.save wrote: a pickle by value
        pickle.dump(obj, f, protocol=2)
    check_state_dict(torch.load(p), obj, views=False)          # tensors were copied
    check_state_dict(torch.load(p, weights_only=False), obj, views=False)


# ---- checkpoints written by torch (tests/data, no torch needed) ------------------------------
# Written with torch 2.15:
#   w = torch.tensor([[1.5, -2.0, 3.25], [0.0, 4.0, -0.5]])
#   sd = collections.OrderedDict(weight=w, row=w[1], steps=torch.tensor([1, -2, 3, 2**40]),
#                                half=torch.tensor([1.0, -0.5, 3.0], dtype=torch.bfloat16),
#                                extra={'lr': 0.1, 'sizes': [2, 3], 'name': 'fc'})
#   torch.save(sd, 'torch_checkpoint.pt')
#   torch.save(sd, 'torch_checkpoint_legacy.pt', _use_new_zipfile_serialization=False)

def check_torch_fixture(sd):
    assert type(sd) is collections.OrderedDict
    assert list(sd) == ["weight", "row", "steps", "half", "extra"]
    assert sd["weight"].dtype is torch.float32
    assert sd["weight"].tolist() == [[1.5, -2.0, 3.25], [0.0, 4.0, -0.5]]
    assert sd["row"].tolist() == [0.0, 4.0, -0.5] and sd["row"].storage_offset() == 3
    assert sd["row"].untyped_storage().data_ptr() == sd["weight"].untyped_storage().data_ptr()
    assert sd["steps"].dtype is torch.int64 and sd["steps"].tolist() == [1, -2, 3, 2**40]
    assert sd["half"].dtype is torch.bfloat16 and sd["half"].tolist() == [1.0, -0.5, 3.0]
    assert sd["extra"] == {"lr": 0.1, "sizes": [2, 3], "name": "fc"}
    sd["row"][1] = 9.0
    assert sd["weight"][1, 1].item() == 9.0


@pytest.mark.parametrize("name", ["torch_checkpoint.pt", "torch_checkpoint_legacy.pt"])
def test_checkpoints_written_by_torch_load(name):
    path = os.path.join(DATA, name)
    check_torch_fixture(torch.load(path))
    check_torch_fixture(torch.load(path, weights_only=False, map_location="cpu"))
    with open(path, "rb") as f:
        check_torch_fixture(torch.load(f))
    if name == "torch_checkpoint.pt":
        check_torch_fixture(torch.load(path, mmap=True))


def test_mmap_maps_the_records(tmp_path):
    obj = state_dict()
    p = tmp_path / "m.pt"
    torch.save(obj, p)
    back = torch.load(p, mmap=True)
    check_state_dict(back, obj)
    back["model"]["weight"][0, 0] = -1.0         # private: the file does not change
    assert torch.load(p)["model"]["weight"][0, 0].item() == 0.0
    assert back["model"]["row"].untyped_storage().data_ptr() == \
        back["model"]["weight"].untyped_storage().data_ptr()


def test_big_endian_checkpoints_are_swapped():
    obj = {"f": torch.tensor([1.5, -2.0]), "i": torch.tensor([1, 2**40]),
           "c": torch.tensor([1 + 2j], dtype=torch.complex64), "b": torch.tensor([True])}
    recs = records(save_bytes(obj))
    recs["archive/byteorder"] = b"big"
    for name, data in recs.items():
        if "/data/" in name:
            dt = {"0": "f4", "1": "i8", "2": "f4", "3": "u1"}[name[-1]]
            recs[name] = np.frombuffer(data, "<" + dt).astype(">" + dt).tobytes()
    back = torch.load(io.BytesIO(rezip(recs)))
    assert back["f"].tolist() == [1.5, -2.0] and back["i"].tolist() == [1, 2**40]
    assert back["c"].tolist() == [1 + 2j] and back["b"].tolist() == [True]


# ---- map_location --------------------------------------------------------------------------

def on_cuda(obj, device="cuda:0"):
    """A checkpoint of obj whose storages say they were saved on device."""
    recs = records(save_bytes(obj))
    loc = device.encode()
    recs["archive/data.pkl"] = recs["archive/data.pkl"].replace(
        b"X\x03\x00\x00\x00cpu", b"X" + struct.pack("<I", len(loc)) + loc)
    return rezip(recs)


CUDA_MESSAGE = r"CUDA device but minitorch.cuda.is_available\(\) is False"


def test_map_location_of_a_cpu_checkpoint():
    data = save_bytes(state_dict())
    seen = []

    def fn(storage, location):
        seen.append((type(storage), location))
        return storage
    for ml in (None, "cpu", torch.device("cpu"), {"cuda:0": "cuda:1"}, fn,
               lambda s, loc: None):
        check_state_dict(torch.load(io.BytesIO(data), map_location=ml), state_dict())
    assert seen and all(s == (torch.UntypedStorage, "cpu") for s in seen)
    for ml in ("cuda:1", "cuda", torch.device("cuda", 0), {"cpu": "cuda:0"}):
        with pytest.raises(RuntimeError, match=CUDA_MESSAGE):
            torch.load(io.BytesIO(data), map_location=ml)
    with pytest.raises(TypeError, match="map_location"):
        torch.load(io.BytesIO(data), map_location=3)
    with pytest.raises(TypeError, match="not a storage"):
        torch.load(io.BytesIO(data), map_location=lambda s, loc: "x")


def test_map_location_of_a_cuda_checkpoint():
    obj = state_dict()
    data = on_cuda(obj)
    assert b"cuda:0" in records(data)["archive/data.pkl"]
    for ml in (None, "cuda:1", {"cuda:1": "cpu"}):
        with pytest.raises(RuntimeError, match=CUDA_MESSAGE):
            torch.load(io.BytesIO(data), map_location=ml)
    seen = set()

    def fn(storage, location):
        seen.add(location)
        return storage
    rank = 0
    for ml in ("cpu", torch.device("cpu"), {"cuda:0": "cpu"}, {f"cuda:{rank}": "cpu"}, fn,
               lambda storage, loc: storage):
        back = torch.load(io.BytesIO(data), map_location=ml)
        check_state_dict(back, obj)
        assert back["model"]["row"].untyped_storage().data_ptr() == \
            back["model"]["weight"].untyped_storage().data_ptr()
    assert seen == {"cuda:0"}
    with pytest.raises(RuntimeError, match="don't know how to restore"):
        torch.load(io.BytesIO(on_cuda(obj, "xla:0")))


# ---- hostile checkpoints --------------------------------------------------------------------
# data.pkl assembled opcode by opcode (protocol 2), so each test says what the file holds

def G(module, name):
    return b"c" + f"{module}\n{name}\n".encode()


def S(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def N(n):
    return b"\x8a" + bytes([8]) + n.to_bytes(8, "little", signed=True)   # LONG1


def T(*items):
    return b"(" + b"".join(items) + b"t"


def PID(cls="FloatStorage", key="0", location="cpu", numel=6, module="torch"):
    return T(S("storage"), G(module, cls), S(key), S(location), N(numel)) + b"Q"


def TENSOR(pid=None, offset=0, size=(2, 3), stride=(3, 1), hooks=None):
    hooks = G("collections", "OrderedDict") + b")R" if hooks is None else hooks
    return (G("torch._utils", "_rebuild_tensor_v2")
            + T(PID() if pid is None else pid, N(offset), T(*map(N, size)), T(*map(N, stride)),
                b"\x89", hooks) + b"R")


def archive(pkl_body, data=None, extra=None):
    recs = {"archive/data.pkl": b"\x80\x02" + pkl_body + b".",
            "archive/byteorder": b"little", "archive/version": b"3\n",
            "archive/data/0": struct.pack("<6f", *range(6)) if data is None else data}
    recs.update(extra or {})
    return rezip(recs)


def load_pkl(pkl_body, data=None, extra=None):
    return torch.load(io.BytesIO(archive(pkl_body, data, extra)))


def load_bytes(data):
    return torch.load(io.BytesIO(data))


def test_hand_written_archive_loads():
    t = load_pkl(TENSOR())
    assert t.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    pair = load_pkl(T(TENSOR(), TENSOR(offset=1, size=(5,), stride=(1,))))
    assert pair[1].tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert pair[0].untyped_storage().data_ptr() == pair[1].untyped_storage().data_ptr()


def legacy_stream(pkl_body, storages):
    """torch's pre-zip format: headers, the pickle, the keys, then each storage."""
    out = b"".join(pickle.dumps(h, protocol=2) for h in (
        0x1950A86A20F9469CFC6C, 1001, {"protocol_version": 1001, "little_endian": True,
                                       "type_sizes": {"short": 2, "int": 4, "long": 4}}))
    out += b"\x80\x02" + pkl_body + b"." + pickle.dumps(list(storages), protocol=2)
    for numel, data in storages.values():
        out += struct.pack("<q", numel) + data
    return out


@pytest.mark.parametrize("fmt", ["archive", "legacy torch"])
def test_parameters_and_lazily_negated_or_conjugated_tensors(fmt):
    hooks = G("collections", "OrderedDict") + b")R"
    pid = PID(cls="ComplexFloatStorage", numel=2)
    body = T(
        # _rebuild_tensor_v2(..., requires_grad=True, hooks, {"conj": True})
        G("torch._utils", "_rebuild_tensor_v2") + T(pid, N(0), T(N(2)), T(N(1)), b"\x88", hooks,
                                                     b"}" + S("conj") + b"\x88s") + b"R",
        G("torch._utils", "_rebuild_tensor_v2") + T(pid, N(0), T(N(2)), T(N(1)), b"\x89", hooks,
                                                     b"}" + S("neg") + b"\x88s") + b"R",
        # torch.nn.Parameter of a plain tensor
        G("torch._utils", "_rebuild_parameter") + T(
            G("torch._utils", "_rebuild_tensor_v2") + T(pid, N(1), T(), T(), b"\x89", hooks)
            + b"R", b"\x88", hooks) + b"R")
    data = struct.pack("<4f", 1, 2, 3, -4)
    if fmt == "archive":
        conj, neg, param = load_pkl(body, data=data)
    else:
        body = body.replace(b"\x8a\x08\x02" + bytes(7) + b"tQ", b"\x8a\x08\x02" + bytes(7) + b"NtQ")
        conj, neg, param = load_bytes(legacy_stream(body, {"0": (2, data)}))
    assert conj.tolist() == [1 - 2j, 3 + 4j] and neg.tolist() == [-1 - 2j, -3 + 4j]
    assert param.tolist() == 3 - 4j and param.requires_grad is True
    assert type(param).__name__ == "Parameter" and conj.requires_grad and not neg.requires_grad
    with pytest.raises(pickle.UnpicklingError, match="metadata"):
        load_pkl(G("torch._utils", "_rebuild_tensor_v2") + T(PID(), N(0), T(), T(), b"\x89",
                                                             hooks, b"}" + S("x") + b"\x88s")
                 + b"R")


def test_malicious_archives_run_nothing(tmp_path):
    marker = tmp_path / "pwned"
    for name, data in evil_pickles(marker):
        recs = records(save_bytes({"a": torch.ones(2)}))
        recs["archive/data.pkl"] = data
        for weights_only in (True, None):
            with pytest.raises(pickle.UnpicklingError, match=name.replace(".", r"\.")):
                torch.load(io.BytesIO(rezip(recs)), weights_only=weights_only)
        assert not marker.exists(), f"{name} ran"
    # a global in the persistent id, or as the reconstructor
    for body in (TENSOR(pid=T(S("storage"), G("os", "system"), S("0"), S("cpu"), N(6)) + b"Q"),
                 G("builtins", "eval") + T(S("1")) + b"R",
                 TENSOR().replace(b"_rebuild_tensor_v2", b"_rebuild_tensor_v9")):
        with pytest.raises(pickle.UnpicklingError, match="system|eval|_v9"):
            load_pkl(body)


@pytest.mark.parametrize("pid", [
    T(S("storage"), G("torch", "FloatStorage"), S("0"), S("cpu")) + b"Q",             # 4 items
    T(S("storage"), G("torch", "FloatStorage"), S("0"), S("cpu"), N(6), N(0)) + b"Q",  # 6 items
    T(S("module"), G("torch", "FloatStorage"), S("0"), S("cpu"), N(6)) + b"Q",
    T(S("storage"), S("torch.FloatStorage"), S("0"), S("cpu"), N(6)) + b"Q",          # no class
    T(S("storage"), G("torch", "Size"), S("0"), S("cpu"), N(6)) + b"Q",               # not storage
    T(S("storage"), G("torch", "FloatStorage"), N(0), S("cpu"), N(6)) + b"Q",          # int key
    T(S("storage"), G("torch", "FloatStorage"), S("0"), N(0), N(6)) + b"Q",
    T(S("storage"), G("torch", "FloatStorage"), S("0"), S("cpu"), N(-1)) + b"Q",
    T(S("storage"), G("torch", "FloatStorage"), S("0"), S("cpu"), S("6")) + b"Q",
    S("storage") + b"Q",
], ids=["short", "long", "typename", "str-class", "Size", "int-key", "int-location",
        "negative", "str-numel", "str"])
def test_malformed_persistent_ids_are_refused(pid):
    with pytest.raises(pickle.UnpicklingError, match="persistent id"):
        load_pkl(TENSOR(pid=pid))


def test_storage_classes_outside_the_allow_list_are_refused():
    with pytest.raises(pickle.UnpicklingError, match="QInt8Storage"):
        load_pkl(TENSOR(pid=PID(cls="QInt8Storage")))


def test_records_shorter_than_their_storage_are_refused():
    with pytest.raises(pickle.UnpicklingError, match="needs 24 bytes, record data/0 holds 20"):
        load_pkl(TENSOR(), data=b"\0" * 20)
    # a small file cannot ask for a large storage: refused before anything is allocated
    with pytest.raises(pickle.UnpicklingError, match="needs 4398046511104 bytes"):
        load_pkl(TENSOR(pid=PID(numel=2**40)))
    # one key named twice with different sizes
    with pytest.raises(pickle.UnpicklingError, match="named with"):
        load_pkl(T(TENSOR(pid=PID(numel=2), size=(2,), stride=(1,)),
                       TENSOR(pid=PID(numel=6))))


@pytest.mark.parametrize("offset,size,stride", [
    (1, (2, 3), (3, 1)),           # one element past the end
    (0, (2, 4), (3, 1)),
    (0, (7,), (1,)),
    (0, (2, 3), (4, 1)),
    (6, (1,), (1,)),
    (0, (2, 2**61), (3, 2**61)),   # overflows int64 in C, not in Python
    (0, (2, 3), (-3, 1)),
    (-1, (2,), (1,)),
    (0, (2, 3), (3,)),             # sizes and strides disagree in length
], ids=lambda v: str(v))
def test_tensors_outside_their_storage_are_refused(offset, size, stride):
    with pytest.raises(pickle.UnpicklingError, match="tensor record"):
        load_pkl(TENSOR(offset=offset, size=size, stride=stride))


def test_tensor_records_with_hooks_or_odd_arguments_are_refused():
    hooks = G("collections", "OrderedDict") + b")R" + N(1) + S("hook") + b"s"
    with pytest.raises(pickle.UnpicklingError, match="backward hooks"):
        load_pkl(TENSOR(hooks=hooks))
    with pytest.raises(pickle.UnpicklingError, match="tensor record"):
        load_pkl(G("torch._utils", "_rebuild_tensor_v2") + T(S("x"), N(0), T(), T(), b"\x89",
                                                                  b"}") + b"R")


def test_missing_and_odd_records_are_clean_errors():
    cases = [
        ("file not found", archive(TENSOR(pid=PID(key="7")))),
        ("file not found", archive(TENSOR(pid=PID(key="../../etc/passwd")))),
        ("not in a subdirectory", rezip({"data.pkl": b"\x80\x02K\x01."})),
        ("no data.pkl", rezip({"archive/version": b"3\n"})),
        ("TorchScript", rezip({"archive/constants.pkl": b"", "archive/code/x.py": b""})),
        ("does not contain any files", rezip({})),
        ("Unknown endianness", archive(TENSOR(), extra={"archive/byteorder": b"middle"})),
    ]
    for what, data in cases:
        with pytest.raises(RuntimeError, match=re.escape(what)):
            load_bytes(data)


def odd_zip(names):
    """A stored archive whose records have exactly these names (zipfile would refuse some)."""
    out, central = io.BytesIO(), []
    for name, data in names:
        raw = name.encode()
        central.append((raw, zlib.crc32(data), len(data), out.tell()))
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, zlib.crc32(data),
                              len(data), len(data), len(raw), 0) + raw + data)
    cd = out.tell()
    for raw, crc, n, off in central:
        out.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, crc, n, n,
                              len(raw), 0, 0, 0, 0, 0, off) + raw)
    end = out.tell()
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), end - cd,
                          cd, 0))
    return out.getvalue()


def test_odd_record_names_are_refused():
    pkl = b"\x80\x02K\x01."
    assert load_bytes(odd_zip([("a/data.pkl", pkl)])) == 1
    for names, what in [
        ([("a/data.pkl", pkl), ("a/data.pkl", b"\x80\x02K\x02.")], "two records named"),
        ([("a/data.pkl\0x", pkl)], "not allowed"),
        ([("/data.pkl", pkl)], "not in a subdirectory"),
        ([("data.pkl", pkl)], "not in a subdirectory"),
    ]:
        with pytest.raises(RuntimeError, match=what):
            load_bytes(odd_zip(names))


def test_damaged_archives_are_clean_errors():
    good = save_bytes(state_dict())
    with zipfile.ZipFile(io.BytesIO(good)) as z:
        info = z.getinfo("archive/data/0")
    start = info.header_offset + 30 + len(info.filename)
    start += struct.unpack("<H", good[info.header_offset + 28:info.header_offset + 30])[0]
    flipped = bytearray(good)
    flipped[start] ^= 1
    overlapping = bytearray(good)         # the central directory's offset of data/1 -> data/0
    cd = good.rindex(b"PK\x01\x02\x00\x00\x00\x00\x08\x08", 0, good.rindex(b"archive/data/1"))
    for bad, what in [
        (bytes(flipped), "crc of record data/0"),
        (good[:len(good) // 2], "zip archive"),
        (good[:start + 10] + good[-200:], "zip archive|past the end|overlaps|local header"),
        (good[:info.header_offset] + b"PK\x03\x05" + good[info.header_offset + 4:],
         "local header"),
    ]:
        with pytest.raises(RuntimeError, match=what):
            load_bytes(bad)
    struct.pack_into("<I", overlapping, cd + 42, info.header_offset)
    with pytest.raises(RuntimeError, match="overlaps"):
        load_bytes(bytes(overlapping))


def test_compressed_records_are_refused():
    recs = records(save_bytes({"a": torch.ones(4)}))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in recs.items():
            z.writestr(name, data)
    with pytest.raises(RuntimeError, match="compressed"):
        load_bytes(buf.getvalue())


def test_hostile_legacy_streams():
    good = io.BytesIO()
    torch.save({"a": torch.arange(4.0)}, good, _use_new_zipfile_serialization=False)
    data = good.getvalue()
    head = b"".join(pickle.dumps(h, protocol=2) for h in (
        0x1950A86A20F9469CFC6C, 1001, {"protocol_version": 1001, "little_endian": True,
                                       "type_sizes": {"short": 2, "int": 4, "long": 4}}))
    assert data.startswith(head)
    big = head + b"\x80\x02" + TENSOR(pid=T(S("storage"), G("torch", "FloatStorage"), S("k"),
                                            S("cpu"), N(2**40), b"N") + b"Q") + b"."
    with pytest.raises(pickle.UnpicklingError, match="larger than the rest of the file"):
        torch.load(io.BytesIO(big))
    for bad in (data[:-3], data.replace(b"]q\x00X", b"]q\x00Y"),
                data[:len(head)] + data[len(head):].replace(b"\x04\x00\x00\x00\x00\x00\x00\x00",
                                                            b"\x05\x00\x00\x00\x00\x00\x00\x00")):
        with pytest.raises((RuntimeError, pickle.UnpicklingError)):
            torch.load(io.BytesIO(bad))
    with pytest.raises(pickle.UnpicklingError, match="system"):
        torch.load(io.BytesIO(head + pickle.dumps(Payload("true"), protocol=2)))


# ---- interop with torch itself, where it is installed ------------------------------------------

def test_torch_loads_what_minitorch_saves(tmp_path):
    real = pytest.importorskip("torch")
    obj = state_dict()
    for fmt in (True, False):
        p = tmp_path / f"m{fmt}.pt"
        torch.save(obj, p, _use_new_zipfile_serialization=fmt)
        back = real.load(p, weights_only=True)
        sd = back["model"]
        for k, v in obj["model"].items():
            assert str(sd[k].dtype) == str(v.dtype).replace("minitorch", "torch"), k
            assert sd[k].tolist() == v.tolist() and sd[k].stride() == v.stride(), k
        assert sd["row"].untyped_storage().data_ptr() == sd["weight"].untyped_storage().data_ptr()
        assert back["nested"] == obj["nested"] and sd._metadata == {"": {"version": 1}}
        if fmt:
            assert real.load(p, weights_only=True, mmap=True)["model"]["wt"].tolist() == \
                obj["model"]["wt"].tolist()


def test_minitorch_loads_what_torch_saves(tmp_path):
    real = pytest.importorskip("torch")
    w = real.arange(12.0).reshape(3, 4)
    sd = collections.OrderedDict(w=w, row=w[1], t=w.t(), i=real.tensor([1, 2**40]),
                                 bf=real.tensor([0.5], dtype=real.bfloat16),
                                 u=real.tensor([7], dtype=real.uint16), s=real.tensor(2.0))
    for fmt in (True, False):
        p = tmp_path / f"t{fmt}.pt"
        real.save({"sd": sd, "dtype": real.float16, "size": real.Size([2])}, p,
                  _use_new_zipfile_serialization=fmt)
        back = torch.load(p)
        for k, v in sd.items():
            if k == "u" and not fmt:          # torch cannot write uint16 in its older format
                continue
            assert str(back["sd"][k].dtype) == str(v.dtype).replace("torch", "minitorch")
            assert back["sd"][k].tolist() == v.tolist() and back["sd"][k].stride() == v.stride()
        assert back["sd"]["row"].untyped_storage().data_ptr() == \
            back["sd"]["w"].untyped_storage().data_ptr()
        assert back["dtype"] is torch.float16 and back["size"] == torch.Size([2])


def _as_torch_wrote_it(obj):
    """minitorch.save's bytes of obj with its classes named as torch.save names them
    (GLOBAL 'torch.nn.modules.linear Linear' ...)."""
    buf = io.BytesIO()
    torch.save(obj, buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith("data.pkl"):
                assert b"minitorch.nn.modules" in data
                data = data.replace(b"minitorch.nn.modules", b"torch.nn.modules")
            dst.writestr(info, data)
    out.seek(0)
    return out


def test_whole_modules_saved_by_torch_load_as_minitorch_modules():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU())
    x = torch.randn(2, 3)
    # weights-only: torch's names reach the minitorch classes the user allows
    with pytest.raises(pickle.UnpicklingError, match="torch.nn.modules.container.Sequential"):
        torch.load(_as_torch_wrote_it(model))
    with serialization.safe_globals([torch.nn.Sequential, torch.nn.Linear, torch.nn.ReLU,
                                     torch.nn.Parameter, set, collections.OrderedDict]):
        loaded = torch.load(_as_torch_wrote_it(model))
    assert type(loaded) is torch.nn.Sequential and type(loaded[1]) is torch.nn.ReLU
    assert torch.equal(loaded(x), model(x))
    # weights_only=False imports minitorch's twin of each torch path
    loaded = torch.load(_as_torch_wrote_it(model), weights_only=False)
    assert type(loaded[0]) is torch.nn.Linear
    assert torch.equal(loaded(x), model(x))


# ---- tensor subclasses and tensors with attributes of their own -----------------------------
# tests/data/torch_subclass.pt, written with torch 2.15 (Tagged's module named
# "test_serialization"):
#   t = torch.tensor([1.0, 2.0, 3.0]).as_subclass(Tagged); t.tag = "a"; t.scale = 2
#   plain = torch.tensor([4, 5]); plain.note = "n"
#   torch.save({"t": t, "plain": plain}, "torch_subclass.pt")

class Tagged(torch.Tensor):
    pass


class WithSetstate(torch.Tensor):
    def __setstate__(self, state):
        self.restored = state


def check_subclass_fixture(d):
    assert type(d["t"]) is Tagged and d["t"].tolist() == [1.0, 2.0, 3.0]
    assert (d["t"].tag, d["t"].scale) == ("a", 2)
    assert type(d["plain"]) is torch.Tensor and d["plain"].note == "n"


def test_subclass_checkpoint_written_by_torch_loads_with_its_class_and_attributes():
    path = os.path.join(DATA, "torch_subclass.pt")
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL test_serialization.Tagged"):
        torch.load(path)                  # a user class: only when allowed, as torch
    with torch.serialization.safe_globals([Tagged]):
        check_subclass_fixture(torch.load(path))
    check_subclass_fixture(torch.load(path, weights_only=False))


def test_subclass_and_attributes_survive_save_and_pickle(tmp_path):
    t = torch.tensor([1.0, 2.0, 3.0]).as_subclass(Tagged)
    t.tag, t.scale = "a", 2
    plain = torch.tensor([4, 5])
    plain.note = "n"
    torch.save({"t": t, "plain": plain}, tmp_path / "s.pt")
    with zipfile.ZipFile(tmp_path / "s.pt") as z:
        pkl = z.read(next(n for n in z.namelist() if n.endswith("data.pkl")))
    assert b"torch._tensor" in pkl and b"_rebuild_from_type_v2" in pkl     # torch's record
    with torch.serialization.safe_globals([Tagged]):
        check_subclass_fixture(torch.load(tmp_path / "s.pt"))
    check_subclass_fixture(pickle.loads(pickle.dumps({"t": t, "plain": plain})))
    w = torch.ones(2).as_subclass(WithSetstate)
    w.a = 1
    back = pickle.loads(pickle.dumps(w))
    assert type(back) is WithSetstate and back.restored == {"a": 1}
    # a plain tensor without attributes keeps the short record
    assert b"_rebuild_from_type_v2" not in pickle.dumps(torch.ones(2))


def test_rebuild_from_type_refuses_what_save_does_not_write():
    import collections as c
    from minitorch.serialization import _rebuild_from_type_checked, _rebuild_tensor_v2
    with pytest.raises(pickle.UnpicklingError, match="_rebuild_from_type_v2"):
        _rebuild_from_type_checked(c.OrderedDict, Tagged, (), None)
    with pytest.raises(pickle.UnpicklingError, match="_rebuild_from_type_v2"):
        _rebuild_from_type_checked(_rebuild_tensor_v2, dict, (), None)
    with pytest.raises(pickle.UnpicklingError, match="_rebuild_from_type_v2"):
        _rebuild_from_type_checked(_rebuild_tensor_v2, Tagged, (), {1: 2})
