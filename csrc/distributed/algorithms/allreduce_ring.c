/* csrc/distributed/algorithms/allreduce_ring.c - ring reduce-scatter + all-gather, pipelined in pieces. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Ring all-reduce]
 * The buffer is cut into `size` chunks.  Reduce-scatter: in step s every rank
 * sends one chunk to its right neighbour and receives the next chunk from its
 * left one, combining it into its own copy; after size-1 steps each chunk is
 * fully reduced on exactly one rank.  All-gather: the reduced chunks travel
 * around the ring once more, copied, not combined.  Each element is thus
 * reduced once, in one fixed order, then copied everywhere: every rank ends
 * with bit-identical bytes.  Each rank sends 2(n-1)/n of the buffer, which
 * is bandwidth-optimal.  The order differs from chunk to chunk (each
 * chunk's partial result starts on another rank), so the ring serves only
 * reductions whose result does not depend on the order (Note [Fixed
 * reduction order]).
 *
 * Chunks are moved in pieces of MT_ALGO_PIECE_BYTES, each one exchange: while
 * a rank combines piece k, its left neighbour's piece k+1 is already flowing
 * into the socket buffers, so transfer and reduction overlap. */

/* Offsets (elements) of chunk i: off[i] .. off[i + 1]. */
static size_t *
mt__chunk_offsets(const size_t *counts, int n)
{
    size_t *off = malloc(((size_t)n + 1) * sizeof(*off));
    if (off == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory in a ring collective");
        return NULL;
    }
    off[0] = 0;
    for (int i = 0; i < n; i++) {
        off[i + 1] = off[i] + counts[i];
    }
    return off;
}

static int
mt__mod(int a, int n)
{
    return ((a % n) + n) % n;
}

/* One ring step: send chunk `si` to the right while receiving chunk `ri` from
 * the left, piece by piece; combine received pieces into buf when `reduce`
 * (straight from the transport when it takes sinks, else through scratch),
 * else receive them in place. */
static int
mt__ring_step(const mt_algo_ctx *c, char *buf, const size_t *off, size_t isz, int si, int ri,
              char *scratch, bool reduce, mt_dtype dt, mt_dist_op op)
{
    int right = (c->rank + 1) % c->size, left = mt__mod(c->rank - 1, c->size);
    size_t piece = MT_ALGO_PIECE_BYTES / isz;
    if (piece == 0) {
        piece = 1;
    }
    size_t slen = off[si + 1] - off[si], rlen = off[ri + 1] - off[ri];
    size_t np = ((slen > rlen ? slen : rlen) + piece - 1) / piece;
    for (size_t k = 0; k < np; k++) {
        mt_xfer s = {0}, r = {0};
        int ns = 0, nr = 0;
        size_t sb = k * piece, rb = k * piece;
        if (sb < slen) {
            size_t n = slen - sb < piece ? slen - sb : piece;
            s = (mt_xfer){.peer = right, .tag = c->tag, .buf = buf + (off[si] + sb) * isz,
                          .len = n * isz};
            ns = 1;
        }
        size_t rn = 0;
        bool sink = reduce && c->tp->sinks && isz <= 16;
        mt_algo_reduce_sink k = {.dst = buf + (off[ri] + rb) * isz, .dt = dt, .op = op, .isz = isz};
        if (rb < rlen) {
            rn = rlen - rb < piece ? rlen - rb : piece;
            char *dst = reduce && !sink ? scratch : buf + (off[ri] + rb) * isz;
            r = (mt_xfer){.peer = left, .tag = c->tag, .buf = dst, .len = rn * isz};
            if (sink) {
                r.sink = mt_algo_reduce_into_sink;
                r.sink_ctx = &k;
                r.sink_unit = isz;
            }
            nr = 1;
        }
        int rc = mt_transport_exchange(c->tp, &s, ns, &r, nr, c->deadline);
        if (rc < 0) {
            return rc;
        }
        if (reduce && nr && !sink) {
            mt_dist_reduce_into(buf + (off[ri] + rb) * isz, scratch, rn, dt, op);
        }
    }
    return 0;
}

int
mt__ring_reduce_scatter(const mt_algo_ctx *c, void *buf, const size_t *counts, mt_dtype dt,
                        mt_dist_op op, int shift)
{
    int n = c->size;
    size_t isz = mt_dtype_itemsize(dt);
    size_t *off = mt__chunk_offsets(counts, n);
    size_t maxpiece = MT_ALGO_PIECE_BYTES / isz ? MT_ALGO_PIECE_BYTES / isz : 1;
    char *scratch = malloc(maxpiece * isz);
    if (off == NULL || scratch == NULL) {
        free(off);
        free(scratch);
        return mt_error_set(MT_ENOMEM, "out of memory in ring reduce-scatter");
    }
    int rc = 0;
    for (int s = 0; s < n - 1 && rc == 0; s++) {
        int si = mt__mod(c->rank - s + shift, n), ri = mt__mod(c->rank - s - 1 + shift, n);
        rc = mt__ring_step(c, buf, off, isz, si, ri, scratch, true, dt, op);
    }
    free(off);
    free(scratch);
    return rc;
}

int
mt__ring_allgather(const mt_algo_ctx *c, void *buf, const size_t *counts, mt_dtype dt,
                   int shift)
{
    int n = c->size;
    size_t *off = mt__chunk_offsets(counts, n);
    if (off == NULL) {
        return MT_ENOMEM;
    }
    size_t isz = mt_dtype_itemsize(dt);
    int rc = 0;
    for (int s = 0; s < n - 1 && rc == 0; s++) {
        int si = mt__mod(c->rank + shift - s, n), ri = mt__mod(c->rank + shift - 1 - s, n);
        rc = mt__ring_step(c, buf, off, isz, si, ri, NULL, false, dt, MT_DIST_SUM);
    }
    free(off);
    return rc;
}

int
mt_algo_allreduce_ring(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
                       mt_dist_op op)
{
    int n = c->size;
    if (n == 1) {
        return 0;
    }
    size_t *counts = mt_algo_even_counts(count, n);
    if (counts == NULL) {
        return MT_ENOMEM;
    }
    int rc = mt__ring_reduce_scatter(c, buf, counts, dt, op, 0);
    /* All-gather: rank r starts with the complete chunk r + 1. */
    if (rc == 0) {
        rc = mt__ring_allgather(c, buf, counts, dt, 1);
    }
    free(counts);
    if (rc == 0 && op == MT_DIST_AVG) {
        mt_dist_avg_finish(buf, count, dt, n);
    }
    return rc;
}
