"""The short, deterministic fuzz pass CI runs: a few thousand calls of every public function and
Tensor method with hostile arguments, each in a worker process, so a crash, a hang or a
SystemError fails this test with the command that replays it.  The long pass is
`python -m tests.fuzz.run --calls 200000` (see run.py)."""
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runner  # noqa: E402
import targets  # noqa: E402

CALLS = int(os.environ.get("MINITORCH_FUZZ_CALLS", "20000"))


def test_every_target_exists_and_exclusions_have_reasons():
    names = [n for n, _ in targets.all_targets()]
    assert len(names) > 500, len(names)
    assert all(reason for reason in targets.EXCLUDED.values())
    assert not set(names) & set(targets.EXCLUDED)


# hypothesis picks the seeds, derandomized: the same calls on every run
@settings(derandomize=True, database=None, max_examples=2, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_short_fuzz_pass(seed):
    counts, failures = runner.run(seed, CALLS // 2, jobs=2, timeout=10.0)
    assert sum(counts.values()) == CALLS // 2
    report = "\n".join(f"{f.kind}: {f.target} (case {f.seed}:{f.index}); replay: "
                       f"{runner.reproducer(f)}\n{f.detail[-1500:]}" for f in failures)
    assert not failures, f"{len(failures)} failing fuzz cases:\n{report}"
