"""pickle / copy.deepcopy / minitorch.save and load: tensors round-trip by value."""
import copy
import io
import math
import pickle

import numpy as np
import pytest

import minitorch as torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]


def sample(dt, shape=(3, 4)):
    n = int(np.prod(shape))
    if dt is torch.bool:
        vals = [bool(i % 3) for i in range(n)]
    elif dt.is_floating_point:
        vals = [(i - 5) * 0.75 for i in range(n)]
    else:
        vals = [(i * 7) % 100 - (0 if dt is torch.uint8 else 50) for i in range(n)]
    return torch.tensor(vals, dtype=dt).view(*shape) if shape else torch.tensor(vals[0], dtype=dt)


def same(a, b):
    assert type(b) is torch.Tensor
    assert a.dtype is b.dtype and a.shape == b.shape and a.device == b.device
    assert a.tolist() == b.tolist()
    assert a.numel() == 0 or a.data_ptr() != b.data_ptr()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("proto", [2, 4, pickle.HIGHEST_PROTOCOL])
def test_pickle_every_dtype(dt, proto):
    t = sample(dt)
    same(t, pickle.loads(pickle.dumps(t, protocol=proto)))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_deepcopy_every_dtype(dt):
    t = sample(dt)
    c = copy.deepcopy(t)
    same(t, c)
    c.zero_()
    assert t.tolist() == sample(dt).tolist()


@pytest.mark.parametrize("make", [
    lambda t: t.t(), lambda t: t[1:, ::2], lambda t: t[:, 1], lambda t: t[0:1].expand(5, 4),
    lambda t: t.view(2, 2, 3).permute(2, 0, 1), lambda t: t[2, 3], lambda t: t[:0],
], ids=["t", "slice", "col", "expand", "permute", "scalar", "empty"])
def test_pickle_non_contiguous(make):
    v = make(sample(torch.float32))
    r = pickle.loads(pickle.dumps(v))
    same(v, r)
    c = copy.deepcopy(v)
    same(v, c)


def test_pickle_stores_only_the_view():
    big = torch.zeros(100000)
    small = big[10:12]
    assert len(pickle.dumps(small)) < 1000
    assert len(pickle.dumps(big)) > 400000


def test_pickle_special_values():
    t = torch.tensor([float("nan"), float("inf"), -float("inf"), -0.0, 1e-45], dtype=torch.float32)
    r = pickle.loads(pickle.dumps(t))
    assert math.isnan(r[0].item()) and r[1:3].tolist() == [float("inf"), -float("inf")]
    assert math.copysign(1.0, r[3].item()) == -1.0
    assert r[4].item() == t[4].item() != 0.0
    ext = torch.tensor([2**63 - 1, -(2**63)])
    assert pickle.loads(pickle.dumps(ext)).tolist() == [2**63 - 1, -(2**63)]


def test_pickle_zero_dim_and_empty():
    for t in (torch.tensor(3.5), torch.tensor(7), torch.zeros(0, 3), torch.zeros(2, 0, dtype=torch.int8)):
        same(t, pickle.loads(pickle.dumps(t)))


def test_pickle_from_numpy_tensor_is_independent():
    a = np.arange(6.0)
    t = torch.from_numpy(a)
    r = pickle.loads(pickle.dumps(t))
    a[0] = 99.0
    assert r[0].item() == 0.0 and t[0].item() == 99.0


def test_deepcopy_memo_keeps_identity():
    t = torch.ones(2)
    obj = {"a": t, "b": [t, t]}
    c = copy.deepcopy(obj)
    assert c["a"] is c["b"][0] is c["b"][1]
    assert c["a"] is not t


def test_pickle_metadata_objects():
    assert pickle.loads(pickle.dumps(torch.Size([2, 3]))) == torch.Size([2, 3])
    assert type(pickle.loads(pickle.dumps(torch.Size([2, 3])))) is torch.Size
    assert pickle.loads(pickle.dumps(torch.float16)) is torch.float16
    assert pickle.loads(pickle.dumps(torch.device("cuda:1"))) == torch.device("cuda:1")


# ---- save / load ---------------------------------------------------------------------------

def test_save_load_file(tmp_path):
    obj = {"w": sample(torch.float32), "b": sample(torch.int64, (4,)), "meta": [1, "x", torch.float16],
           "nested": {"h": sample(torch.bfloat16).t(), "m": sample(torch.bool)}}
    path = tmp_path / "ckpt.pt"
    torch.save(obj, path)
    assert path.stat().st_size > 0
    r = torch.load(path)
    same(obj["w"], r["w"])
    same(obj["b"], r["b"])
    same(obj["nested"]["h"], r["nested"]["h"])
    same(obj["nested"]["m"], r["nested"]["m"])
    assert r["meta"] == [1, "x", torch.float16]
    r2 = torch.load(str(path), map_location="cpu")
    same(obj["w"], r2["w"])


def test_save_load_file_object():
    buf = io.BytesIO()
    t = sample(torch.float64)
    torch.save(t, buf)
    buf.seek(0)
    same(t, torch.load(buf))
    buf.seek(0)
    same(t, torch.load(buf, weights_only=True))


def test_save_load_many_dtypes(tmp_path):
    tensors = [sample(dt) for dt in DTYPES]
    torch.save(tensors, tmp_path / "all.pt")
    for a, b in zip(tensors, torch.load(tmp_path / "all.pt")):
        same(a, b)


def test_load_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        torch.load(tmp_path / "nope.pt")


def test_load_garbage(tmp_path):
    p = tmp_path / "bad.pt"
    p.write_bytes(b"not a pickle")
    with pytest.raises(Exception):
        torch.load(p)
