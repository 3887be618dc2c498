"""Runs the plain-C test programs (tests/c/test_*.c) built by CMake.

The programs are not built here: point MINITORCH_CTEST_DIR at a CMake build
directory configured with -DMINITORCH_C_TESTS=ON (for example
``cmake -S . -B build -DMINITORCH_C_TESTS=ON && cmake --build build``).
Each program forks its own processes, prints ``N passed, M failed`` and exits
non-zero on failure.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

CTEST_DIR = os.environ.get("MINITORCH_CTEST_DIR")
SOURCES = sorted(p.stem for p in (Path(__file__).parent / "c").glob("test_*.c"))


def _executable(name):
    path = Path(CTEST_DIR) / name
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(f"{name} is not built in {CTEST_DIR} (build it with cmake --build)")
    return path


@pytest.mark.skipif(not CTEST_DIR, reason="MINITORCH_CTEST_DIR is not set (no C test build)")
@pytest.mark.parametrize("name", SOURCES)
def test_c_program(name):
    exe = _executable(name)
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    output = proc.stdout + proc.stderr
    summary = re.search(r"(\d+) passed, (\d+) failed", proc.stdout)
    assert summary is not None, f"{name} printed no summary:\n{output[-4000:]}"
    passed, failed = int(summary.group(1)), int(summary.group(2))
    assert proc.returncode == 0 and failed == 0 and passed > 0, (
        f"{name}: exit status {proc.returncode}, {passed} passed, {failed} failed\n"
        f"{output[-4000:]}"
    )
