"""Sequence utilities: padding (pad_sequence, unpad_sequence) and packed sequences.

A PackedSequence holds a batch of sequences of different lengths time step by time step:
``data`` stacks, for t = 0, 1, ..., the step-t elements of the batch_sizes[t] sequences that
are at least t + 1 long (the sequences sorted longest first), so no padding is stored.
``sorted_indices`` maps that order back to the batch as given (None when the batch was
already sorted).  RNN, LSTM and GRU take and return PackedSequences."""
from collections import namedtuple

import minitorch as _mt

from ... import _C

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


def invert_permutation(permutation):
    """The inverse of a permutation tensor (None for None)."""
    if permutation is None:
        return None
    output = _mt.empty_like(permutation)
    output.scatter_(0, permutation, _mt.arange(permutation.numel(), device=permutation.device))
    return output


class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices",
                                                    "unsorted_indices"])):
    """(data, batch_sizes, sorted_indices, unsorted_indices): data (sum(batch_sizes), *) holds
    the time steps one after the other, batch_sizes (an int64 CPU tensor) the number of
    sequences at each step, sorted_indices the batch position of each packed sequence and
    unsorted_indices its inverse (both None when the batch was sorted).  Made by
    pack_padded_sequence and pack_sequence; ``PackedSequence(data, batch_sizes)`` or
    ``PackedSequence((data, batch_sizes))`` also work."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def _with_data(self, data):
        """A PackedSequence of data (self when data is self.data), the indices moved to its
        device."""
        if data is self.data:
            return self
        sorted_indices = self.sorted_indices
        unsorted_indices = self.unsorted_indices
        if sorted_indices is not None:
            sorted_indices = sorted_indices.to(data.device)
            unsorted_indices = unsorted_indices.to(data.device)
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """data.to(*args, **kwargs), the indices following it to its device; self when
        nothing changes."""
        return self._with_data(self.data.to(*args, **kwargs))

    def cuda(self, *args, **kwargs):
        return self._with_data(self.data.cuda(*args, **kwargs))

    def cpu(self, *args, **kwargs):
        return self._with_data(self.data.cpu(*args, **kwargs))

    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes, self.sorted_indices,
                          self.unsorted_indices)

    def double(self):
        return self.to(dtype=_C.float64)

    def float(self):
        return self.to(dtype=_C.float32)

    def half(self):
        return self.to(dtype=_C.float16)

    def long(self):
        return self.to(dtype=_C.int64)

    def int(self):
        return self.to(dtype=_C.int32)

    def short(self):
        return self.to(dtype=_C.int16)

    def char(self):
        return self.to(dtype=_C.int8)

    def byte(self):
        return self.to(dtype=_C.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def _pack_padded(input, lengths, batch_first):
    """(data, batch_sizes) of the (L, B, *) input (batch_first: (B, L, *)) whose sequences
    have the given lengths (a 1-D int64 tensor, longest first)."""
    if lengths.dim() != 1:
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D cpu Long tensor")
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if batch_first:
        input = input.transpose(0, 1)
    batch = input.size(1)
    lens = lengths.tolist()
    if len(lens) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(lens)} "
                           f"(batch_size={batch})")
    if lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element "
                           "in 'lengths' that is <= 0")
    if any(a < b for a, b in zip(lens, lens[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                           "pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    if lens[0] > input.size(0):
        raise RuntimeError(f"Expected all lengths to be at most the padded sequence length "
                           f"{input.size(0)}, but got a length of {lens[0]}")
    batch_sizes = [sum(1 for n in lens if n > t) for t in range(lens[0])]
    data = _mt.cat([input[t, :rows] for t, rows in enumerate(batch_sizes)], 0)
    return data, _mt.tensor(batch_sizes, dtype=_C.int64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs the padded batch input, (L, B, *) (batch_first: (B, L, *)), whose sequences have
    the given lengths (a list or a CPU tensor).  With enforce_sorted (the default) the lengths
    must decrease; enforce_sorted=False sorts the batch first (sorted_indices records how)."""
    if not isinstance(lengths, _C.TensorBase):
        lengths = _mt.as_tensor(lengths, dtype=_C.int64, device="cpu")
    else:
        lengths = lengths.to(dtype=_C.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = _mt.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack_padded(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: (padded, lengths), padded (T, B, *) (batch_first:
    (B, T, *)) filled with padding_value past each sequence's end, T the longest length or
    total_length, and lengths an int64 tensor, both in the batch's original order."""
    sizes = sequence.batch_sizes.tolist()
    max_length = len(sizes)
    if total_length is not None:
        if total_length < max_length:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {max_length}")
        max_length = total_length
    data = sequence.data
    batch = sizes[0]
    trailing = tuple(data.shape[1:])
    steps = []
    for step in data.split(sizes, 0):
        if step.size(0) < batch:
            fill = _C.full((batch - step.size(0),) + trailing, padding_value, dtype=data.dtype,
                           device=data.device)
            step = _mt.cat([step, fill], 0)
        steps.append(step)
    if max_length > len(sizes):
        steps.extend(_C.full((max_length - len(sizes), batch) + trailing, padding_value,
                             dtype=data.dtype, device=data.device).unbind(0))
    padded = _mt.stack(steps, 0)
    lengths = _mt.tensor([sum(1 for rows in sizes if rows > b) for b in range(batch)], dtype=_C.int64)
    if batch_first:
        padded = padded.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(0 if batch_first else 1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices.cpu()]
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stacks tensors of shape (L_i, *) into (max L, B, *) (batch_first: (B, max L, *)),
    padding the shorter ones with padding_value (on the right, or padding_side='left')."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(s.size(0) for s in sequences)
    padded = []
    for s in sequences:
        extra = longest - s.size(0)
        if extra:
            fill = _C.full((extra,) + tuple(s.shape[1:]), padding_value, dtype=s.dtype, device=s.device)
            s = _mt.cat([s, fill] if padding_side == "right" else [fill, s], 0)
        padded.append(s)
    out = _mt.stack(padded, 0)
    return out if batch_first else out.transpose(0, 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The sequences of a padded batch, (L, B, *) (batch_first: (B, L, *)), cut to their
    lengths: a list of B tensors (L_i, *)."""
    if not isinstance(lengths, _C.TensorBase):
        raise AttributeError(f"'{type(lengths).__name__}' object has no attribute 'device'")
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)].clone() for seq, n in zip(padded_sequences, lengths)]  # copies, as torch


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of tensors (L_i, *); with enforce_sorted (the default) they must come
    longest first."""
    lengths = _mt.as_tensor([s.size(0) for s in sequences], dtype=_C.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of tensors (L_i, *) that a PackedSequence holds, in the batch's order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
