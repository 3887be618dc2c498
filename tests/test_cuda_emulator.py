"""Runs the CUDA test program (tests/cuda/test_cuda_kernels.cu) against the host emulator of
the CUDA runtime (Note [CUDA emulator] in aten_lite/cuda/emu/runtime.cpp).

The program is built with CMake by this module, in pytest's cache directory
(``.pytest_cache/d/cuda-emu-build``, incremental, guarded by a file lock; a temporary
directory when the cache plugin is off), configured as the emulated variant
(``-DMINITORCH_CUDA=EMULATE -DMINITORCH_C_TESTS=ON``): its kernels are compiled as C++ against
the emulator, and the target needs only c10_lite (whose caching allocator then runs over the
emulated runtime) and the emulator, not the whole operator library.  Under the
sanitizer job (libasan preloaded) it is built with AddressSanitizer + UndefinedBehaviorSanitizer
instead, so the emulator's fibers and threads are checked too.  Skipped only when cmake or a
C++ compiler is missing.  The same program, built by nvcc in the real build, runs on a GPU.
"""

import fcntl
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TARGET = "test_cuda_kernels"
SANITIZED = "asan" in os.environ.get("LD_PRELOAD", "")
BUILD_TIMEOUT = 600


def _run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_TIMEOUT)


def _build(build_dir):
    configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DMINITORCH_CUDA=EMULATE",
                 "-DMINITORCH_C_TESTS=ON", f"-DPython3_EXECUTABLE={sys.executable}"]
    if SANITIZED:
        configure += ["-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DMINITORCH_ASAN=ON",
                      "-DMINITORCH_UBSAN=ON"]
    else:
        configure += ["-DCMAKE_BUILD_TYPE=Release"]
    proc = _run(configure)
    if proc.returncode != 0:
        shutil.rmtree(build_dir, ignore_errors=True)  # a cache from another checkout: start over
        proc = _run(configure)
        if proc.returncode != 0:
            pytest.fail(f"cmake configure failed:\n{(proc.stdout + proc.stderr)[-4000:]}")
    jobs = str(max(1, min(2, os.cpu_count() or 1)))
    proc = _run(["cmake", "--build", str(build_dir), "-j", jobs, "--target", TARGET])
    if proc.returncode != 0:
        out = proc.stdout + proc.stderr
        if f"No rule to make target '{TARGET}'" in out or "unknown target" in out:
            pytest.skip("no C++ compiler: the CUDA emulator cannot be built")
        pytest.fail(f"building {TARGET} failed:\n{out[-4000:]}")


@pytest.fixture(scope="module")
def program(request, tmp_path_factory):
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed: the CUDA emulator test program cannot be built")
    name = "cuda-emu-build-sanitize" if SANITIZED else "cuda-emu-build"
    cache = getattr(request.config, "cache", None)  # None with -p no:cacheprovider
    build_dir = Path(cache.mkdir(name) if cache is not None else tmp_path_factory.mktemp(name))
    with open(build_dir.parent / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            _build(build_dir)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return build_dir / TARGET


def _blas_path():
    try:
        import scipy_openblas32
    except ImportError:
        return ""
    return os.path.join(scipy_openblas32.get_lib_dir(), scipy_openblas32.get_library(fullname=True))


def _execute(program, **env):
    full = dict(os.environ, **env)
    proc = subprocess.run([str(program)], capture_output=True, text=True, timeout=300, env=full)
    out = proc.stdout + proc.stderr
    m = re.search(r"(\d+) passed, (\d+) failed", proc.stdout)
    assert m is not None, f"{program.name} printed no summary:\n{out[-4000:]}"
    return proc.returncode, int(m.group(1)), int(m.group(2)), out


@pytest.mark.parametrize("devices", ["2", "3"])
def test_cuda_kernels_emulated(program, devices):
    rc, passed, failed, out = _execute(program, MINITORCH_EMULATED_DEVICES=devices,
                                       MINITORCH_TEST_BLAS=_blas_path())
    assert rc == 0 and failed == 0 and passed > 200, (
        f"exit status {rc}, {passed} passed, {failed} failed\n{out[-6000:]}")
    # the failures the program provokes are reported by the emulator, not hung on
    assert "deadlock in block" in out and "Assertion `x[threadIdx.x] < 3` failed" in out


def test_cuda_kernels_one_pool_thread(program):
    # every block on the launching stream's thread: no parallelism between blocks, same results
    rc, passed, failed, out = _execute(program, MINITORCH_EMULATOR_THREADS="1")
    assert rc == 0 and failed == 0 and passed > 200, out[-6000:]


def test_no_emulated_device(program):
    rc, passed, failed, out = _execute(program, MINITORCH_EMULATED_DEVICES="0")
    assert rc == 0 and "no CUDA device" in out, out[-2000:]
