"""``torch.utils.data._utils.fetch``: the fetchers that turn sampler indices into batches,
defined in ../_fetch.py (the same classes in the main process and in workers)."""
from .._fetch import IterableFetcher as _IterableDatasetFetcher
from .._fetch import MapFetcher as _MapDatasetFetcher

__all__ = ["_IterableDatasetFetcher", "_MapDatasetFetcher"]
