"""Random-access random orders for the samplers: position k of an epoch's order is computed
directly, so a sampler resumes at position k without walking the first k indices.

Note [Random-access permutations]
`Permutation(n, seed)` is a bijection of [0, n) keyed by a 64-bit seed.  A position x is
split into a high half L (ceil(b/2) bits) and a low half R (floor(b/2) bits), b the bit length
of n - 1; six Feistel rounds alternately replace L by L ^ F(R) and R by R ^ F(L) (F a
multiply-xorshift-multiply mixer of the half and the round's key, whose top bits, as many as
the other half has, are used: they depend on every input bit).  Each round is
invertible, so the rounds permute [0, 2**b); a result >= n is put through the rounds again
(cycle walking) until it lands in [0, n), which keeps it a permutation of [0, n) and needs
fewer than two passes on average (2**b < 2n).  Everything is vectorised with NumPy over a
range of positions, so a sampler produces its order a chunk at a time, and `perm[k]` costs a
few microseconds for any k.  `uniform(n, seed, start, stop)` is the with-replacement
counterpart: draw k is a hash of (seed, k) reduced to [0, n).

The orders are not torch's (nor those of minitorch.randperm): a sampler's order is a function
of its seed only, documented as such."""
import numpy as np

__all__ = ["Permutation", "mix64", "uniform"]

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = 0x9E3779B97F4A7C15
_S29 = np.uint64(29)
_MASK64 = (1 << 64) - 1
_ROUNDS = 6


def _mix(x):
    """The splitmix64 finalizer, elementwise over a uint64 array (wrapping arithmetic)."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


def mix64(*words):
    """A 64-bit hash of a few integers (Python ints): sub-seeds of a seed."""
    h = 0x6A09E667F3BCC909
    for w in words:
        h = (h ^ (int(w) & _MASK64)) * 0xBF58476D1CE4E5B9 & _MASK64
        h = (h + _GOLDEN) & _MASK64
        h ^= h >> 29
        h = h * 0x94D049BB133111EB & _MASK64
        h ^= h >> 32
    return h


class Permutation:
    """A seeded permutation of [0, n) with random access (Note [Random-access
    permutations]): `perm[k]`, `perm.take(start, stop)` (an int64 array)."""

    __slots__ = ("n", "seed", "_lo_bits", "_lo_mask", "_shifts", "_keys")

    def __init__(self, n, seed):
        self.n = int(n)
        self.seed = int(seed) & _MASK64
        bits = max(0, (self.n - 1).bit_length())
        lo = bits // 2
        self._lo_bits = np.uint64(lo)
        self._lo_mask = np.uint64((1 << lo) - 1)
        # a half of w bits takes the top w bits of F; a half of 0 bits (n <= 2) is never
        # updated (None)
        self._shifts = (np.uint64(64 - (bits - lo)) if bits - lo else None,
                        np.uint64(64 - lo) if lo else None)
        self._keys = [np.uint64(mix64(self.seed, r)) for r in range(_ROUNDS)]

    def _rounds(self, x):
        lo_bits = self._lo_bits
        hi_shift, lo_shift = self._shifts
        hi = x >> lo_bits
        lo = x & self._lo_mask
        for r, key in enumerate(self._keys):
            if (lo_shift if r & 1 else hi_shift) is None:
                continue
            f = ((hi if r & 1 else lo) ^ key) * _M1
            f = (f ^ (f >> _S29)) * _M2
            if r & 1:
                lo = lo ^ (f >> lo_shift)
            else:
                hi = hi ^ (f >> hi_shift)
        return (hi << lo_bits) | lo

    def take(self, start, stop):
        """The permutation's values at positions start .. stop - 1 (int64 array)."""
        start, stop = max(0, int(start)), min(self.n, int(stop))
        if stop <= start:
            return np.empty(0, dtype=np.int64)
        return self.at(np.arange(start, stop, dtype=np.uint64))

    def at(self, positions):
        """The permutation's values at an array of positions in [0, n) (int64 array)."""
        y = np.asarray(positions, dtype=np.uint64)
        if self.n <= 1:
            return np.zeros(y.shape, dtype=np.int64)
        n = np.uint64(self.n)
        y = self._rounds(y)
        out = y >= n
        while out.any():                      # cycle walking
            where = np.flatnonzero(out)
            z = self._rounds(y[where])
            y[where] = z
            out[where] = z >= n
        return y.astype(np.int64)

    def __getitem__(self, k):
        k = int(k)
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("permutation index out of range")
        return int(self.take(k, k + 1)[0])

    def __len__(self):
        return self.n


def uniform(n, seed, start, stop):
    """Draws start .. stop - 1 of a seeded sequence of independent uniform indices in [0, n)
    (int64 array): draw k depends on (seed, k) only."""
    k = np.arange(int(start), int(stop), dtype=np.uint64)
    h = _mix(k * np.uint64(_GOLDEN) + np.uint64(int(seed) & _MASK64))
    h = _mix(h ^ np.uint64(0xD1B54A32D192ED03))
    # 53 random bits scaled to [0, n): bias below n / 2**53
    idx = ((h >> np.uint64(11)).astype(np.float64) * (float(n) * 2.0 ** -53)).astype(np.int64)
    return np.minimum(idx, n - 1)
