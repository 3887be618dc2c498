"""What minitorch reports about its build and process-wide settings: torch.version,
compiled_with_cxx11_abi, the has_* flags, the inter-op thread setting, OutOfMemoryError."""
import os
import subprocess
import sys

import pytest

import minitorch as torch
from helpers import PACKAGE_DIR


def test_version_and_flags():
    assert torch.version.__version__ == torch.__version__
    assert torch.version.cuda is None or isinstance(torch.version.cuda, str)
    assert (torch.version.cuda is None) == (not torch.backends.cuda.is_built())
    assert torch.compiled_with_cxx11_abi() and torch.has_lapack and not torch.has_mkl


def test_interop_threads_are_set_once():
    code = ("import minitorch as t\nassert t.get_num_interop_threads() == 1\n"
            "t.set_num_interop_threads(3)\nassert t.get_num_interop_threads() == 3\n"
            "try:\n    t.set_num_interop_threads(2)\nexcept RuntimeError as e:\n"
            "    assert 'cannot set number of interop threads' in str(e)\nelse:\n"
            "    raise SystemExit('no error')\n")
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)     # (the sanitizer job's preloads kept)
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    with pytest.raises(RuntimeError, match="positive number"):
        torch.set_num_interop_threads(0)


def test_out_of_memory_error():
    assert issubclass(torch.OutOfMemoryError, RuntimeError)
    assert issubclass(torch.OutOfMemoryError, MemoryError)
    assert torch.cuda.OutOfMemoryError is torch.OutOfMemoryError
