"""DataLoader workers under a small /dev/shm (containers default to 64 MB): batch slabs and the
spawn start-up's shared pickle live in memfd segments, not in /dev/shm, so far more than
64 MB of batches can be in flight and held without SIGBUS.  Run in a private mount namespace
with a 64 MB tmpfs on /dev/shm (skipped where user namespaces are not allowed)."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from helpers import PACKAGE_DIR


SCRIPT = textwrap.dedent("""
    import os, sys
    import minitorch as torch
    from minitorch.utils.data import DataLoader, Dataset

    class Images(Dataset):
        def __len__(self):
            return 40

        def __getitem__(self, i):
            return torch.full((3, 1024, 1024), i, dtype=torch.uint8)

    if __name__ == "__main__":
        st = os.statvfs("/dev/shm")
        assert st.f_blocks * st.f_frsize <= 64 * 2 ** 20, st.f_blocks * st.f_frsize
        for method in ("fork", "spawn"):
            held = list(DataLoader(Images(), batch_size=8, num_workers=2,
                                   multiprocessing_context=method))
            total = sum(b.numel() for b in held)
            assert total > 100 * 2 ** 20, total         # well beyond what /dev/shm holds
            assert [int(b[0, 0, 0, 0]) for b in held] == [0, 8, 16, 24, 32]
            del held
        print("ok")
""")


def _namespace_cmd():
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run([unshare, "--user", "--map-root-user", "--mount", "true"],
                           capture_output=True)
    if probe.returncode != 0:
        return None
    return [unshare, "--user", "--map-root-user", "--mount", "sh", "-c",
            'mount -t tmpfs -o size=64m tmpfs /dev/shm && exec "$0" "$@"']


def test_loader_with_a_64mb_dev_shm(tmp_path):
    cmd = _namespace_cmd()
    if cmd is None:
        pytest.skip("no private mount namespace here (unshare --user --mount)")
    script = tmp_path / "small_shm.py"          # a file: spawned workers import its classes
    script.write_text(SCRIPT)
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    out = subprocess.run(cmd + [sys.executable, str(script)], capture_output=True, text=True,
                         env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")
