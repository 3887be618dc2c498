/* csrc/distributed/algorithms/reduce_scatter_rh.c - recursive-halving reduce-scatter in the fixed reduction order, and the all-reduce made of it and the ring all-gather. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Recursive halving]
 * The bandwidth algorithm for reductions whose order matters (Note [Fixed
 * reduction order]): the all-reduce of large buffers (with the ring
 * all-gather after it) and every reduce-scatter.  Chunk r of the buffer
 * (counts[r] elements, chunks in rank order) ends on rank r reduced by T.
 *
 * 1. Fold: of the first 2*rem ranks, each even rank sends its whole buffer
 *    to the odd rank above it, which combines it into its own (T's y_v) and
 *    stands for virtual rank v = rank / 2; the other ranks are v = rank - rem.
 *    Virtual rank v's block is the chunks of its ranks ({2v, 2v+1} or
 *    {v + rem}): the blocks are contiguous and in v order.
 * 2. Round k (k = 0 .. log2 p - 1): v exchanges with v ^ 2^k.  Before it, v
 *    holds, for the blocks u with the same k low bits as v, the combination
 *    of the 2^k virtual ranks that share v's bits above k - 1 (a level-k
 *    node of T); it sends the partner those blocks whose bit k is the
 *    partner's and combines what the partner sends for the others into its
 *    own, making level k + 1.  After log2 p rounds v holds block v reduced.
 * 3. The odd ranks of step 1 hand chunk 2v to rank 2v.
 *
 * All-reduce then all-gathers the chunks: over the ring, or, when the size
 * is a power of two, by step 2's rounds in reverse (mt__rd_allgather).
 *
 * Each rank sends (p - 1) / p of the buffer in step 2, as in the ring's
 * reduce-scatter, in log2 p rounds instead of n - 1; a group whose size is
 * not a power of two pays one more whole buffer on its first 2 * rem ranks.
 * Transfers are cut into pieces of MT_ALGO_PIECE_BYTES and combined as they
 * arrive, straight from the transport where it takes sinks (Note [Sinks]),
 * as in the ring. */

typedef struct {
    size_t off, n; /* elements */
} mt__seg;

/* Sends the segments ss of buf to rank `to` while receiving the segments rs
 * from rank `from` (the peers run this with the lists swapped), piece by
 * piece; received pieces are combined into buf when `reduce`, else written
 * in place. */
static int
mt__rh_move(const mt_algo_ctx *c, char *buf, int to, const mt__seg *ss, int nss, int from,
            const mt__seg *rs, int nrs, char *scratch, bool reduce, mt_dtype dt, mt_dist_op op)
{
    size_t isz = mt_dtype_itemsize(dt);
    size_t piece = MT_ALGO_PIECE_BYTES / isz ? MT_ALGO_PIECE_BYTES / isz : 1;
    bool sink = reduce && c->tp->sinks && isz <= 16;
    int si = 0, ri = 0;
    size_t sdone = 0, rdone = 0;
    for (;;) {
        while (si < nss && sdone >= ss[si].n) {
            si++;
            sdone = 0;
        }
        while (ri < nrs && rdone >= rs[ri].n) {
            ri++;
            rdone = 0;
        }
        if (si >= nss && ri >= nrs) {
            return 0;
        }
        mt_xfer s = {0}, r = {0};
        int ns = 0, nr = 0;
        if (si < nss) {
            size_t m = ss[si].n - sdone < piece ? ss[si].n - sdone : piece;
            s = (mt_xfer){.peer = to, .tag = c->tag, .buf = buf + (ss[si].off + sdone) * isz,
                          .len = m * isz};
            ns = 1;
            sdone += m;
        }
        size_t rn = 0;
        char *dst = NULL;
        mt_algo_reduce_sink k = {.dt = dt, .op = op, .isz = isz};
        if (ri < nrs) {
            rn = rs[ri].n - rdone < piece ? rs[ri].n - rdone : piece;
            dst = buf + (rs[ri].off + rdone) * isz;
            k.dst = dst;
            r = (mt_xfer){.peer = from, .tag = c->tag, .buf = reduce && !sink ? scratch : dst,
                          .len = rn * isz};
            if (sink) {
                r.sink = mt_algo_reduce_into_sink;
                r.sink_ctx = &k;
                r.sink_unit = isz;
            }
            nr = 1;
            rdone += rn;
        }
        int rc = mt_transport_exchange(c->tp, &s, ns, &r, nr, c->deadline);
        if (rc < 0) {
            return rc;
        }
        if (reduce && nr && !sink) {
            mt_dist_reduce_into(dst, scratch, rn, dt, op);
        }
    }
}

int
mt__rh_reduce_scatter(const mt_algo_ctx *c, void *buf_, const size_t *counts, mt_dtype dt,
                      mt_dist_op op)
{
    int n = c->size, rank = c->rank;
    if (n == 1) {
        return 0;
    }
    char *buf = buf_;
    size_t isz = mt_dtype_itemsize(dt);
    int p = 1;
    while (p * 2 <= n) {
        p *= 2;
    }
    int rem = n - p;
    size_t *off = malloc(((size_t)n + 1) * sizeof(*off));
    mt__seg *ss = malloc((size_t)p * sizeof(*ss)), *rs = malloc((size_t)p * sizeof(*rs));
    char *scratch = malloc((MT_ALGO_PIECE_BYTES / isz ? MT_ALGO_PIECE_BYTES / isz : 1) * isz);
    int rc = 0;
    if (off == NULL || ss == NULL || rs == NULL || scratch == NULL) {
        rc = mt_error_set(MT_ENOMEM, "out of memory in reduce-scatter");
        goto done;
    }
    off[0] = 0;
    for (int i = 0; i < n; i++) {
        off[i + 1] = off[i] + counts[i];
    }
    mt__seg all = {0, off[n]};
    int v;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) { /* 1. and 3.: out of the rounds */
            rc = mt__rh_move(c, buf, rank + 1, &all, 1, -1, NULL, 0, scratch, false, dt, op);
            mt__seg mine = {off[rank], counts[rank]};
            if (rc == 0) {
                rc = mt__rh_move(c, buf, -1, NULL, 0, rank + 1, &mine, 1, scratch, false, dt, op);
            }
            goto done;
        }
        rc = mt__rh_move(c, buf, -1, NULL, 0, rank - 1, &all, 1, scratch, true, dt, op);
        v = rank / 2;
    }
    else {
        v = rank - rem;
    }
    for (int m = 1; m < p && rc == 0; m <<= 1) { /* 2. */
        int pv = v ^ m, peer = pv < rem ? 2 * pv + 1 : pv + rem;
        int nss = 0, nrs = 0;
        for (int u = 0; u < p; u++) {
            if ((u & (m - 1)) != (v & (m - 1))) {
                continue;
            }
            size_t b = off[u < rem ? 2 * u : u + rem], e = off[u < rem ? 2 * u + 2 : u + rem + 1];
            mt__seg g = {b, e - b};
            if ((u & m) == (v & m)) {
                rs[nrs++] = g;
            }
            else {
                ss[nss++] = g;
            }
        }
        rc = mt__rh_move(c, buf, peer, ss, nss, peer, rs, nrs, scratch, true, dt, op);
    }
    if (rc == 0 && v < rem) { /* 3. */
        mt__seg g = {off[2 * v], counts[2 * v]};
        rc = mt__rh_move(c, buf, 2 * v, &g, 1, -1, NULL, 0, scratch, false, dt, op);
    }
done:
    free(off);
    free(ss);
    free(rs);
    free(scratch);
    return rc;
}

/* All-gather after mt__rh_reduce_scatter when the group size is a power of
 * two: the rounds in reverse (masks p/2 .. 1), each rank sending every block
 * it holds to its partner, so log2 p exchanges instead of the ring's n - 1
 * (same bytes). */
static int
mt__rd_allgather(const mt_algo_ctx *c, void *buf, const size_t *counts, mt_dtype dt)
{
    int p = c->size, v = c->rank, rc = 0;
    size_t *off = malloc(((size_t)p + 1) * sizeof(*off));
    mt__seg *ss = malloc((size_t)p * sizeof(*ss)), *rs = malloc((size_t)p * sizeof(*rs));
    if (off == NULL || ss == NULL || rs == NULL) {
        rc = mt_error_set(MT_ENOMEM, "out of memory in all-reduce");
        goto done;
    }
    off[0] = 0;
    for (int i = 0; i < p; i++) {
        off[i + 1] = off[i] + counts[i];
    }
    for (int m = p / 2; m >= 1 && rc == 0; m >>= 1) {
        int peer = v ^ m, nss = 0, nrs = 0;
        for (int u = 0; u < p; u++) {
            mt__seg g = {off[u], counts[u]};
            if ((u & (2 * m - 1)) == (v & (2 * m - 1))) {
                ss[nss++] = g;
            }
            else if ((u & (2 * m - 1)) == (peer & (2 * m - 1))) {
                rs[nrs++] = g;
            }
        }
        rc = mt__rh_move(c, buf, peer, ss, nss, peer, rs, nrs, NULL, false, dt, MT_DIST_SUM);
    }
done:
    free(off);
    free(ss);
    free(rs);
    return rc;
}

int
mt_algo_allreduce_rh(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
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
    int rc = mt__rh_reduce_scatter(c, buf, counts, dt, op);
    if (rc == 0) {
        rc = (n & (n - 1)) == 0 ? mt__rd_allgather(c, buf, counts, dt)
                                : mt__ring_allgather(c, buf, counts, dt, 0);
    }
    free(counts);
    if (rc == 0 && op == MT_DIST_AVG) {
        mt_dist_avg_finish(buf, count, dt, n);
    }
    return rc;
}
