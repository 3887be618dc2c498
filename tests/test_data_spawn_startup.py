"""Start-up of spawned DataLoader workers: the dataset is pickled once into shared memory and
every worker maps and unpickles that one copy (Note [One pickle for all workers]); its tensors
travel as shared memory, one object per tensor however often the dataset names it."""
import gc
import pickle
import warnings

import pytest

import minitorch as torch
from minitorch.utils.data import DataLoader, Dataset, SharedList
from minitorch.utils.data._shared_spec import SharedSpec

PICKLED = {"count": 0}


class Counted(Dataset):
    """Counts how often it is pickled (in this, the main, process)."""

    def __init__(self, n=12):
        self.n = n
        self.t = torch.arange(float(n))
        self.alias = self.t
        self.names = SharedList([f"item {i}" for i in range(n)])

    def __getstate__(self):
        PICKLED["count"] += 1
        return self.__dict__

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([float(self.t[i]), float(self.t.is_shared()),
                             float(self.alias is self.t), float(self.names[i] == f"item {i}")])


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="This DataLoader will create")
        yield


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_dataset_is_pickled_once_for_all_workers(method):
    PICKLED["count"] = 0
    out = torch.cat(list(DataLoader(Counted(), batch_size=2, num_workers=3,
                                    multiprocessing_context=method)))
    assert PICKLED["count"] == 1
    assert out[:, 0].tolist() == [float(i) for i in range(12)]
    assert out[:, 1:].eq(1).all()            # shared tensor, one object per tensor, SharedList


def test_persistent_spawned_workers_keep_their_copy():
    PICKLED["count"] = 0
    loader = DataLoader(Counted(), batch_size=4, num_workers=2, multiprocessing_context="spawn",
                        persistent_workers=True)
    first = [b.tolist() for b in loader]
    assert [b.tolist() for b in loader] == first and PICKLED["count"] == 1
    del loader
    gc.collect()


def test_unpicklable_dataset_fails_in_the_main_process():
    class Local(Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return i

    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        next(iter(DataLoader(Local(), num_workers=2, multiprocessing_context="spawn")))


def test_shared_spec_round_trip_in_one_process():
    t = torch.arange(6.0).reshape(2, 3)
    obj = {"t": t, "view": t[1], "words": ["a", "b"] * 3}
    spec = SharedSpec(obj)
    again = spec.load()
    assert again["t"] is t and again["view"].tolist() == [3.0, 4.0, 5.0]
    assert again["words"] == obj["words"] and spec.blob.is_shared()
