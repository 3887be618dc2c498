"""minitorch.save / load: weights-only loading by default (Note [Weights-only loading]):
checkpoints of tensors and containers load; a file that names any other global raises
UnpicklingError naming it, and nothing in it runs."""
import collections
import io
import os
import pickle
import subprocess

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


def test_mmap_is_not_supported():
    with pytest.raises(NotImplementedError):
        torch.load(io.BytesIO(pickle.dumps(1)), mmap=True)


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
    assert _rebuild_tensor.__defaults__ is None


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


@pytest.mark.parametrize("proto", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_protocol_loads_under_the_default(proto):
    obj = checkpoint()
    buf = io.BytesIO()
    torch.save(obj, buf, pickle_protocol=proto)
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
