"""The suite's markers, applied in one place:
  multiprocess  tests that start processes (distributed ranks through
                test_distributed_support.run_ranks, launchers, DataLoader and multiprocessing
                workers, programs run as subprocesses): `-m "not multiprocess"` skips them;
  slow          the longest tests (tens of seconds each on two cores): `-m "not slow"`.
Shared helper functions are in helpers.py."""
import pytest

# files whose tests start processes without run_ranks
_MULTIPROCESS_FILES = {
    "test_launchers.py", "test_multiprocessing.py", "test_seeds.py", "test_store_fuzz.py",
    "test_distributed_shm.py", "test_dataloader.py", "test_examples_training.py",
    "test_shared_memory.py", "test_shared_list.py", "test_c_programs.py", "test_cuda_emulator.py",
    # launchers: elastic options; hosts in network namespaces
    "test_distributed_run_elastic.py", "test_distributed_netns.py",
}
# files whose every test is long
_SLOW_FILES = {"test_store_fuzz.py", "test_examples_training.py", "test_seeds.py",
               "test_distributed_netns.py"}


def pytest_configure(config):
    config.addinivalue_line("markers", "multiprocess: the test starts processes")
    config.addinivalue_line("markers", "slow: a long test (tens of seconds)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.path.name
        module = getattr(item, "module", None)
        if name in _MULTIPROCESS_FILES or (module is not None and hasattr(module, "run_ranks")):
            item.add_marker(pytest.mark.multiprocess)
        if name in _SLOW_FILES:
            item.add_marker(pytest.mark.slow)
