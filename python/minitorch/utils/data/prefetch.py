"""prefetch_to: batches moved to a device one step ahead, on a side stream.

Note [Prefetching to a device]
`for x, y in prefetch_to(loader, "cuda")` yields the loader's batches with every tensor on the
device.  On a CUDA device the copy of batch n+1 is queued on a stream of its own as soon as
batch n is handed out, so it runs while the model works on batch n (with non_blocking copies,
which run without the host when the batch is pinned: DataLoader(pin_memory=True)).  Handing out
a batch makes the consumer's current stream wait for the side stream (the host does not wait)
and records that stream on each of its tensors (Tensor.record_stream), so their memory, which
the side stream allocated, is not handed out again before the consumer's work on them is done.
Elsewhere (the CPU, a device without streams) it is a plain .to(device) per batch.  The batch
structure is kept as the pin-memory step keeps it (tuples become lists)."""
import minitorch as _mt

from ._utils.pin_memory import map_batch

__all__ = ["prefetch_to"]

_END = object()


class prefetch_to:
    """Iterates over `iterable` with each batch's tensors moved to `device`, the next batch's
    copy overlapping the current batch's use (Note [Prefetching to a device])."""

    def __init__(self, iterable, device, non_blocking=True):
        self.device = _mt.device(device)
        self.non_blocking = non_blocking
        self._cuda = self.device.type == "cuda"
        if self._cuda:
            from minitorch import cuda
            if self.device.index is None:
                self.device = _mt.device("cuda", cuda.current_device())
            self._stream = cuda.Stream(device=self.device)
        self._it = iter(iterable)
        self._next = self._load()

    def _move(self, batch):
        return map_batch(batch, lambda t: t.to(self.device, non_blocking=self.non_blocking))

    def _load(self):
        try:
            batch = next(self._it)
        except StopIteration:
            return _END
        if not self._cuda:
            return self._move(batch)
        from minitorch import cuda
        with cuda.stream(self._stream):
            return self._move(batch)

    def __iter__(self):
        return self

    def __next__(self):
        batch = self._next
        if batch is _END:
            raise StopIteration
        if self._cuda:
            from minitorch import cuda
            current = cuda.current_stream(self.device)
            current.wait_stream(self._stream)
            map_batch(batch, lambda t: t.record_stream(current))
        self._next = self._load()
        return batch
