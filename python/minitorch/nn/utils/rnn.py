"""Sequence utilities: pad_sequence; packed sequences are not implemented (minitorch has no
recurrent layers), and their functions raise NotImplementedError."""
import minitorch as _mt

from ... import _C

__all__ = ["PackedSequence", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "pack_sequence", "unpad_sequence", "unpack_sequence"]

_MESSAGE = ("packed sequences ({}) are not implemented in minitorch (it has no recurrent "
            "layers); pad the sequences with nn.utils.rnn.pad_sequence and use a mask instead")


class PackedSequence:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(_MESSAGE.format("PackedSequence"))


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    raise NotImplementedError(_MESSAGE.format("pack_padded_sequence"))


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    raise NotImplementedError(_MESSAGE.format("pad_packed_sequence"))


def pack_sequence(sequences, enforce_sorted=True):
    raise NotImplementedError(_MESSAGE.format("pack_sequence"))


def unpack_sequence(packed_sequences):
    raise NotImplementedError(_MESSAGE.format("unpack_sequence"))


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
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)] for seq, n in zip(padded_sequences, lengths)]
