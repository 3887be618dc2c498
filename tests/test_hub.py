"""minitorch.hub: local hubconf repositories, downloads (file:// URLs) with hash checks, the
checkpoint cache."""
import hashlib
import os

import pytest

import minitorch as torch
from minitorch import hub

HUBCONF = '''dependencies = ["numpy"]


def linear(n=2, bias=True):
    """A linear layer of n features."""
    import minitorch
    return minitorch.nn.Linear(n, n, bias=bias)


def _private():
    pass


VALUE = 3
'''


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "hubconf.py").write_text(HUBCONF)
    return str(tmp_path)


def test_local_entry_points(repo):
    m = hub.load(repo, "linear", 3, source="local", bias=False)
    assert isinstance(m, torch.nn.Linear) and m.in_features == 3 and m.bias is None
    assert hub.list(repo) == ["linear"]
    assert hub.help(repo, "linear") == "A linear layer of n features."
    for name in ("nope", "VALUE"):
        with pytest.raises(RuntimeError, match=f"Cannot find callable {name} in hubconf"):
            hub.load(repo, name, source="local")
    with pytest.raises(ValueError, match='Unknown source: "bad". Allowed values: "github" | '
                                         '"local".'):
        hub.load(repo, "linear", source="bad")


def test_missing_dependencies(tmp_path):
    (tmp_path / "hubconf.py").write_text('dependencies = ["numpy", "no_such_package_x"]\n'
                                         'def f():\n    return 1\n')
    with pytest.raises(RuntimeError, match="Missing dependencies: no_such_package_x"):
        hub.load(str(tmp_path), "f", source="local")


def test_download_and_hash(tmp_path):
    src = tmp_path / "w.bin"
    src.write_bytes(b"abc")
    dst = tmp_path / "o.bin"
    hub.download_url_to_file(src.as_uri(), str(dst), progress=False)
    assert dst.read_bytes() == b"abc"
    digest = hashlib.sha256(b"abc").hexdigest()
    with pytest.raises(RuntimeError, match=f'invalid hash value \\(expected "00", got "{digest}"\\)'):
        hub.download_url_to_file(src.as_uri(), str(tmp_path / "p.bin"), hash_prefix="00")
    assert not (tmp_path / "p.bin").exists()
    assert [p for p in os.listdir(tmp_path) if p.endswith(".partial")] == []


def test_checkpoints_are_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(hub, "_hub_dir", None)
    assert hub.get_dir() == str(tmp_path / "home" / "hub")
    hub.set_dir(tmp_path / "h")
    assert hub.get_dir() == str(tmp_path / "h")
    payload = hashlib.sha256()
    ck = tmp_path / "weights.pt"
    torch.save({"w": torch.arange(3.0)}, str(ck))
    payload.update(ck.read_bytes())
    prefix = payload.hexdigest()[:8]
    named = tmp_path / f"weights-{prefix}.pt"
    named.write_bytes(ck.read_bytes())
    sd = hub.load_state_dict_from_url(named.as_uri(), progress=False, check_hash=True)
    assert sd["w"].tolist() == [0.0, 1.0, 2.0]
    cached = tmp_path / "h" / "checkpoints" / named.name
    assert cached.exists()
    named.unlink()                          # the cache answers from now on
    assert hub.load_state_dict_from_url(named.as_uri())["w"].tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(RuntimeError, match="invalid hash value"):
        hub.load_state_dict_from_url(ck.as_uri(), check_hash=True, file_name="other-0000.pt")
