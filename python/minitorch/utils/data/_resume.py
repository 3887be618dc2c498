"""The resumable state of a DataLoader's epoch: what `DataLoader.state_dict()` saves and how an
iterator starts from it (the semantics of torchdata's StatefulDataLoader).

Note [Loader state]
`loader.state_dict()` describes the latest iterator after the batches it has delivered (not
those prefetched by workers); `loader.load_state_dict(sd)` makes the next `iter(loader)` start
there (`{}`: from the start).  A state saved at the end of an epoch starts a new epoch.  The
state is a dict of plain Python values (picklable, `minitorch.save`-able):

    _num_yielded            batches delivered in the epoch
    _sampler_iter_yielded   draws from the index sampler that those batches used
    _index_sampler_state    index_sampler.state_dict() after them, when it has one
    _sampler_iter_state     the index sampler iterator's state_dict() after them, when it has one
                            (BatchSampler's iterator nests its sampler's state): O(1) resumes
                            (Note [Resumable samplers]); a sampler without state is
                            fast-forwarded by _sampler_iter_yielded draws (indices only: no
                            sample is loaded)
    _base_seed              the epoch's base seed (worker seeds, per-sample seeds)
    _dataset_state          the main process's dataset.state_dict(), when it has one
    _fetcher_state          (iterable dataset in the main process) its iterator's state
    _num_workers, _worker_snapshots, _last_yielded_worker_id
                            each worker's dataset state after the last batch it delivered
                            (iterable datasets: that worker's iterator too), and which worker
                            delivered last (the next batch comes from the one after it)
    _IterableDataset_len_called, _iterator_finished

A map-style dataset resumes with any num_workers (the order lives in the main process); the
copies of an iterable dataset live in the workers, so its state needs the same num_workers.
Workers send their dataset's state with every batch only when the dataset (or, for an
iterable dataset, its iterator) has state_dict/load_state_dict; an iterable dataset without
state is fast-forwarded item by item."""
from .sampler import _skip, _stateful

__all__ = ["Progress", "fetcher_state", "restore_fetcher", "restore_sampler", "sampler_snapshot"]


def sampler_snapshot(index_sampler, sampler_iter):
    """(index sampler state, sampler iterator state), each None without the protocol."""
    return (index_sampler.state_dict() if _stateful(index_sampler) else None,
            sampler_iter.state_dict() if _stateful(sampler_iter) else None)


def snapshot_fn(index_sampler, sampler_iter):
    """A function returning sampler_snapshot(index_sampler, sampler_iter), the protocol
    checks done once."""
    a = index_sampler.state_dict if _stateful(index_sampler) else None
    b = sampler_iter.state_dict if _stateful(sampler_iter) else None
    if a is None:
        return lambda: (None, b())
    if b is None:
        return lambda: (a(), None)
    return lambda: (a(), b())


def snapshots_needed(index_sampler, sampler_iter):
    return _stateful(index_sampler) or _stateful(sampler_iter)


def restore_sampler(index_sampler, state, infinite):
    """A new iterator of index_sampler at the position the state records."""
    sampler_state = state.get("_index_sampler_state")
    if sampler_state is not None and _stateful(index_sampler):
        index_sampler.load_state_dict(sampler_state)
    it = iter(index_sampler)
    iter_state = state.get("_sampler_iter_state")
    if iter_state is not None and _stateful(it):
        it.load_state_dict(iter_state)
    elif not (_stateful(index_sampler) and sampler_state is not None) and not infinite:
        _skip(it, state.get("_sampler_iter_yielded", 0))
    return it


def fetcher_state(fetcher, kind, dataset, items=None):
    """A worker's (or the main process's) dataset state: {"dataset_state", "fetcher_state"}."""
    out = {"dataset_state": None, "fetcher_state": None}
    if fetcher is None:
        # nothing fetched yet (or a new epoch): the dataset as it is
        if _stateful(dataset):
            out["dataset_state"] = dataset.state_dict()
        return out
    if kind == "iterable":
        it = fetcher.it
        out["fetcher_state"] = {
            "dataset_iter_state": it.state_dict() if it is not dataset and _stateful(it) else None,
            "fetcher_ended": fetcher.ended,
            "items": fetcher.items if items is None else items,
        }
    if _stateful(dataset):
        out["dataset_state"] = dataset.state_dict()
    return out


def load_dataset_state(dataset, state):
    """Before the fetcher exists: the dataset's own state."""
    if state and state.get("dataset_state") is not None and _stateful(dataset):
        dataset.load_state_dict(state["dataset_state"])


def restore_fetcher(fetcher, kind, dataset, state):
    """After the fetcher was made (and its iterator taken): the iterator's state, or a fast
    forward of the items already fetched when neither it nor the dataset has state."""
    if not state or kind != "iterable" or state.get("fetcher_state") is None:
        return
    fs = state["fetcher_state"]
    it = fetcher.it
    if fs.get("dataset_iter_state") is not None and it is not dataset and _stateful(it):
        it.load_state_dict(fs["dataset_iter_state"])
    elif not _stateful(dataset) and not _stateful(it):
        _skip(it, fs.get("items", 0))
    fetcher.items = fs.get("items", 0)
    if fs.get("fetcher_ended"):
        fetcher.ended = True


class Progress:
    """What an iterator has delivered, kept by its loader (the iterator may be gone when
    state_dict() is asked): see Note [Loader state]."""

    def __init__(self, kind, num_workers, index_sampler, dataset, base_seed, len_called):
        self.kind = kind
        self.num_workers = num_workers
        self.index_sampler = index_sampler
        self.dataset = dataset
        self.base_seed = base_seed
        self.len_called = len_called
        self.num_yielded = 0
        self.sampler_iter_yielded = 0
        self.sampler_iter = None        # single process: read live
        self.snapshot = None            # workers: (sampler state, iterator state) when delivered
        self.fetcher = None             # single process, for the dataset / iterator state
        self.worker_states = {}
        self.worker_batches = [0] * num_workers
        self.worker_items = [0] * num_workers   # iterable dataset: items per worker
        self.worker_ended = set()
        self.last_worker = None
        self.finished = False

    def state_dict(self):
        if self.num_workers == 0:
            if self.sampler_iter is not None:
                snap = sampler_snapshot(self.index_sampler, self.sampler_iter)
            else:
                snap = (None, None)
            ds = fetcher_state(self.fetcher, self.kind, self.dataset)
            workers = {}
        else:
            snap = self.snapshot or (None, None)
            ds = fetcher_state(None, "map", self.dataset) if self.kind == "map" else \
                {"dataset_state": None, "fetcher_state": None}
            workers = {}
            for w in range(self.num_workers):
                st = dict(self.worker_states.get(w) or {"dataset_state": None,
                                                        "fetcher_state": None})
                if self.kind == "iterable" and st.get("fetcher_state") is None:
                    st["fetcher_state"] = {"dataset_iter_state": None,
                                           "fetcher_ended": w in self.worker_ended,
                                           "items": self.worker_items[w]}
                workers[w] = st
        return {
            "_num_yielded": self.num_yielded,
            "_sampler_iter_yielded": self.sampler_iter_yielded,
            "_index_sampler_state": snap[0],
            "_sampler_iter_state": snap[1],
            "_base_seed": self.base_seed,
            "_dataset_state": ds["dataset_state"],
            "_fetcher_state": ds["fetcher_state"],
            "_num_workers": self.num_workers,
            "_worker_snapshots": workers,
            "_last_yielded_worker_id": self.last_worker,
            "_IterableDataset_len_called": self.len_called,
            "_iterator_finished": self.finished,
        }
