"""Helpers shared by the test files (one copy each): `from helpers import free_port`.
Multi-process distributed tests run their ranks through test_distributed_support.run_ranks."""
import socket
from pathlib import Path

import minitorch

# The directory minitorch was imported from (the source tree's python/ or site-packages): what
# a child process's PYTHONPATH names so that it imports the same build.
PACKAGE_DIR = str(Path(minitorch.__file__).resolve().parents[1])


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (the OS picked it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
