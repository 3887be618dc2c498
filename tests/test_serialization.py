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
    assert torch.load(io.BytesIO(data)).x == 5
    monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "1")
    with pytest.raises(pickle.UnpicklingError):
        torch.load(io.BytesIO(data), weights_only=False)


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
    with pytest.raises((MemoryError, RuntimeError, ValueError)):
        torch.load(io.BytesIO(pickle.dumps(_Reduce(_rebuild_tensor,
                                                   (b"\0" * 4, torch.float32, (2**40,))))))
    with pytest.raises((RuntimeError, ValueError)):
        torch.load(io.BytesIO(pickle.dumps(_Reduce(_rebuild_tensor,
                                                   (b"\0" * 3, torch.float32, (2,))))))
    with pytest.raises(RuntimeError):
        torch.load(io.BytesIO(pickle.dumps(_Reduce(_generator_from_state, (b"\1",)))))


def test_mmap_is_not_supported():
    with pytest.raises(NotImplementedError):
        torch.load(io.BytesIO(pickle.dumps(1)), mmap=True)
