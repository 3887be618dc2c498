"""NCCL opened at run time (Note [Loading NCCL]): version, unique ids, error strings, and the
errors of init_process_group("nccl") on a machine without a GPU."""
import os
import subprocess
import sys

import pytest

import minitorch as torch
import minitorch.distributed as dist
from minitorch import _C

_why = torch.cuda.nccl._unavailable_reason() if _C._c10d._nccl_built else None
built = pytest.mark.skipif(
    not _C._c10d._nccl_built or (_why is not None and "emulated CUDA device" in _why),
    reason="built without NCCL's header, or the emulated build without the stand-in "
           "(tests/test_cuda_nccl.py builds it)")


@built
def test_version_and_library():
    major, minor, patch = torch.cuda.nccl.version()
    assert major == 2 and minor >= 0 and patch >= 0
    assert _C._c10d._nccl_version() == major * 10000 + minor * 100 + patch
    path = torch.cuda.nccl.library_path()
    assert os.path.exists(path) and "nccl" in os.path.basename(path)


@built
def test_unique_ids():
    a, b = torch.cuda.nccl.unique_id(), torch.cuda.nccl.unique_id()
    assert isinstance(a, bytes) and len(a) == _C._c10d._nccl_unique_id_bytes == 128
    assert a != b


@built
def test_error_codes_become_runtime_errors_with_ncclGetErrorString():
    assert _C._c10d._nccl_check(0, "ncclAllReduce") is None
    with pytest.raises(RuntimeError, match=r"NCCL error in ncclAllReduce: .*internal error.*"
                                           r"\(ncclResult_t 3\)"):
        _C._c10d._nccl_check(3, "ncclAllReduce")
    with pytest.raises(RuntimeError, match="invalid argument"):
        _C._c10d._nccl_check(4, "ncclBroadcast")


def _run(code, **env):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, **env})
    assert r.returncode == 0, r.stderr
    return r.stdout


@built
def test_a_missing_library_is_a_clear_error_not_an_import_failure():
    out = _run("import minitorch as torch, minitorch.distributed as dist\n"
               "for f in (torch.cuda.nccl.version, lambda: dist.init_process_group("
               "'nccl', store=dist.HashStore(), rank=0, world_size=1)):\n"
               "    try:\n        f()\n    except RuntimeError as e:\n        print(e)\n",
               MINITORCH_NCCL_LIBRARY="/nonexistent/libnccl.so.2")
    lines = out.strip().splitlines()
    assert len(lines) == 2
    assert "NCCL library was not found (tried /nonexistent/libnccl.so.2" in lines[0]
    assert lines[1].startswith("Distributed package doesn't have NCCL available: the NCCL library")


@pytest.mark.skipif(torch.cuda.device_count() > 0, reason="checks the machine without a GPU")
def test_init_process_group_nccl_names_the_missing_gpu():
    store = dist.HashStore()
    want = "needs a CUDA device" if _C._c10d._nccl_built else "NCCL"
    with pytest.raises(RuntimeError, match=want):
        dist.init_process_group("nccl", store=store, rank=0, world_size=1)
    assert not dist.is_initialized()
    # as torch's: whether the library loads, GPU or not
    assert dist.is_nccl_available() == (torch.cuda.nccl._unavailable_reason() is None)
