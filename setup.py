"""Builds minitorch: setuptools drives CMake, which builds the C libraries and minitorch._C."""
import os
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _flag(name):
    return "ON" if os.environ.get(name, "0") not in ("", "0", "OFF") else "OFF"


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures and builds the CMake project, placing _C next to the package.

    Environment knobs: MINITORCH_CUDA=ON|OFF|AUTO|EMULATE (EMULATE: the CUDA code built against
    the host emulator of the CUDA runtime, a test build), MINITORCH_ASAN=1, MINITORCH_UBSAN=1,
    MINITORCH_BUILD_TYPE=Release|Debug|RelWithDebInfo, MINITORCH_BUILD_DIR."""

    def build_extension(self, ext):
        out_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        build_dir = Path(os.environ.get("MINITORCH_BUILD_DIR", Path(self.build_temp) / "cmake")).resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        args = [
            f"-DPython3_EXECUTABLE={sys.executable}",
            f"-DMINITORCH_OUTPUT_DIR={out_dir}",
            f"-DCMAKE_BUILD_TYPE={os.environ.get('MINITORCH_BUILD_TYPE', 'Release')}",
            f"-DMINITORCH_CUDA={os.environ.get('MINITORCH_CUDA', 'AUTO')}",
            f"-DMINITORCH_ASAN={_flag('MINITORCH_ASAN')}",
            f"-DMINITORCH_UBSAN={_flag('MINITORCH_UBSAN')}",
            "-DMINITORCH_C_TESTS=OFF",
        ]
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build_dir)] + args)
        jobs = os.environ.get("MINITORCH_JOBS", str(os.cpu_count() or 2))
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "_C", "-j", jobs])


setup(
    packages=find_packages("python"),
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("minitorch._C")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
