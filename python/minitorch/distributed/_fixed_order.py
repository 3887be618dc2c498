"""The fixed reduction order as a schedule of exchanges, for backends that combine on a device
(the deterministic all-reduce of ProcessGroupNCCL).

Note [The fixed order over point-to-point]
Every element of a deterministic all-reduce is combined by the rule T of Note [Fixed reduction
order] (csrc/distributed/algorithms/reduce_tree.c).  The CPU backend computes T with recursive
halving and an all-gather (Note [Recursive halving], reduce_scatter_rh.c); a backend whose own
collective follows an order it does not control (NCCL's rings and trees change with the size
and the topology) runs the same algorithm from point-to-point sends and receives and
elementwise combines of its own.  allreduce_steps lists it for one rank, step by step, with the
CPU's split of the elements (mt_algo_even_counts: chunk r holds count / n elements, one more for
the first count % n ranks):
  1. fold: of the first 2*rem ranks (p the largest power of two <= n, rem = n - p), each even
     rank sends its whole buffer to the odd rank above it, which combines it into its own and
     stands for virtual rank v = rank / 2; the others are v = rank - rem;
  2. rounds m = 1, 2, 4, .. < p: v exchanges with v ^ m the blocks whose virtual owner u agrees
     with v in the bits below m: those with u's bit m unlike v's go out, the others come in and
     are combined into v's own (block u: the chunks of u's ranks);
  3. the odd ranks of step 1 hand chunk 2v back to rank 2v: rank r holds chunk r reduced;
  4. the all-gather: for a power-of-two n step 2's rounds in reverse (every block held goes to
     the partner), else the ring (step s: chunk (r - s) mod n to rank r + 1).
Which rank combines an element, and when, does not change a bit: each combination is one IEEE
operation of two operands (commutative), and the operands are T's.  16-bit floats are combined
in float32 and rounded once at the end, AVG is T's sum divided by n once, as on the CPU; so the
result equals the CPU backend's bit for bit, on the NCCL stand-in and on a GPU alike.
A step is (send peer or None, segments sent, receive peer or None, segments received, combine):
segments are (offset, count) in elements of the flat buffer, listed in the same order on both
sides of an exchange; combine says whether what arrives is added into the buffer (else it is
written in place).  Empty segments are left out.
"""

__all__ = []


def even_counts(count, n):
    """The CPU backend's split of `count` elements into n chunks (mt_algo_even_counts)."""
    return [count // n + (1 if i < count % n else 0) for i in range(n)]


def _segs(pairs):
    return [(o, c) for o, c in pairs if c > 0]


def allreduce_steps(n, rank, count):
    """Note [The fixed order over point-to-point]: rank's steps of the all-reduce of `count`
    elements over n ranks."""
    if n == 1:
        return []
    counts = even_counts(count, n)
    off = [0]
    for c in counts:
        off.append(off[-1] + c)
    p = 1
    while p * 2 <= n:
        p *= 2
    rem = n - p
    steps = []
    whole = _segs([(0, off[n])])

    def block(u):
        lo, hi = (2 * u, 2 * u + 2) if u < rem else (u + rem, u + rem + 1)
        return off[lo], off[hi] - off[lo]

    if rank < 2 * rem and rank % 2 == 0:            # 1. and 3.: out of the rounds
        steps.append((rank + 1, whole, None, [], False))
        steps.append((None, [], rank + 1, _segs([(off[rank], counts[rank])]), False))
    else:
        if rank < 2 * rem:                          # 1.
            steps.append((None, [], rank - 1, whole, True))
            v = rank // 2
        else:
            v = rank - rem
        m = 1
        while m < p:                                # 2.
            pv = v ^ m
            peer = 2 * pv + 1 if pv < rem else pv + rem
            out, into = [], []
            for u in range(p):
                if (u & (m - 1)) != (v & (m - 1)):
                    continue
                (into if (u & m) == (v & m) else out).append(block(u))
            steps.append((peer, _segs(out), peer, _segs(into), True))
            m <<= 1
        if v < rem:                                 # 3.
            steps.append((2 * v, _segs([(off[2 * v], counts[2 * v])]), None, [], False))
    if n & (n - 1) == 0:                            # 4., power of two
        m = n // 2
        while m >= 1:
            peer = rank ^ m
            mask = 2 * m - 1
            out = [(off[u], counts[u]) for u in range(n) if (u & mask) == (rank & mask)]
            into = [(off[u], counts[u]) for u in range(n) if (u & mask) == (peer & mask)]
            steps.append((peer, _segs(out), peer, _segs(into), False))
            m >>= 1
    else:                                           # 4., the ring
        nxt, prv = (rank + 1) % n, (rank - 1) % n
        for s in range(n - 1):
            c_out, c_in = (rank - s) % n, (rank - s - 1) % n
            steps.append((nxt, _segs([(off[c_out], counts[c_out])]), prv,
                          _segs([(off[c_in], counts[c_in])]), False))
    return steps

