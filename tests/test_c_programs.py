"""Runs the plain-C test programs (tests/c/test_*.c).

The programs are built with CMake by this module: once per checkout into
pytest's cache directory (``.pytest_cache/d/c-test-build``, incremental after
the first build, guarded by a file lock; a temporary directory when the cache
plugin is off), configured with
``-DMINITORCH_CUDA=OFF -DMINITORCH_C_TESTS=ON`` and building only the test
targets.  Point MINITORCH_CTEST_DIR at a CMake build directory to run programs
built elsewhere instead (for example an AddressSanitizer build).  The tests are
skipped only when cmake is not installed.  Each program forks its own
processes, prints ``N passed, M failed`` and exits non-zero on failure.
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
SOURCES = sorted(p.stem for p in (Path(__file__).parent / "c").glob("test_*.c"))
BUILD_TIMEOUT = 600


def _run(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=BUILD_TIMEOUT)


def _build(build_dir):
    configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DMINITORCH_CUDA=OFF",
                 "-DMINITORCH_C_TESTS=ON", "-DCMAKE_BUILD_TYPE=Release",
                 f"-DPython3_EXECUTABLE={sys.executable}"]
    proc = _run(configure)
    if proc.returncode != 0:
        # a cache left by another checkout or another cmake: start again from nothing
        shutil.rmtree(build_dir, ignore_errors=True)
        proc = _run(configure)
        if proc.returncode != 0:
            pytest.fail(f"cmake configure failed:\n{(proc.stdout + proc.stderr)[-4000:]}")
    jobs = str(max(1, min(2, os.cpu_count() or 1)))
    proc = _run(["cmake", "--build", str(build_dir), "-j", jobs, "--target", *SOURCES])
    if proc.returncode != 0:
        pytest.fail(f"building the C test programs failed:\n{(proc.stdout + proc.stderr)[-4000:]}")


@pytest.fixture(scope="session")
def ctest_dir(request, tmp_path_factory):
    env_dir = os.environ.get("MINITORCH_CTEST_DIR")
    if env_dir:
        return Path(env_dir)
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed: the plain-C test programs cannot be built "
                    "(or set MINITORCH_CTEST_DIR to a build directory)")
    cache = getattr(request.config, "cache", None)  # None with -p no:cacheprovider
    build_dir = Path(cache.mkdir("c-test-build") if cache is not None
                     else tmp_path_factory.mktemp("c-test-build"))
    with open(build_dir.parent / "c-test-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # other test runs may build the same directory
        try:
            _build(build_dir)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return build_dir


def _executable(ctest_dir, name):
    path = Path(ctest_dir) / name
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(f"{name} is not built in {ctest_dir} (build it with cmake --build)")
    return path


@pytest.mark.parametrize("name", SOURCES)
def test_c_program(ctest_dir, name):
    exe = _executable(ctest_dir, name)
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    output = proc.stdout + proc.stderr
    summary = re.search(r"(\d+) passed, (\d+) failed", proc.stdout)
    assert summary is not None, f"{name} printed no summary:\n{output[-4000:]}"
    passed, failed = int(summary.group(1)), int(summary.group(2))
    assert proc.returncode == 0 and failed == 0 and passed > 0, (
        f"{name}: exit status {proc.returncode}, {passed} passed, {failed} failed\n"
        f"{output[-4000:]}"
    )
