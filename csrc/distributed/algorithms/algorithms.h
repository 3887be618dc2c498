/* csrc/distributed/algorithms/algorithms.h - collective algorithms over the transport interface, and reduction kernels. */
#ifndef CSRC_DISTRIBUTED_ALGORITHMS_ALGORITHMS_H
#define CSRC_DISTRIBUTED_ALGORITHMS_ALGORITHMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "c10_lite/dtype.h"
#include "c10_lite/error.h"
#include "csrc/distributed/transport/transport.h"

/* torch.distributed.ReduceOp, in torch's order. */
typedef enum mt_dist_op {
    MT_DIST_SUM = 0,
    MT_DIST_AVG = 1,
    MT_DIST_PRODUCT = 2,
    MT_DIST_MIN = 3,
    MT_DIST_MAX = 4,
    MT_DIST_BAND = 5,
    MT_DIST_BOR = 6,
    MT_DIST_BXOR = 7,
    MT_DIST_NUM_OPS
} mt_dist_op;

/* Note [Reduction semantics]
 * Reductions follow torch: bool SUM is logical or, PRODUCT logical and (MIN
 * and, MAX or); integer arithmetic wraps; 16-bit floats are combined in float
 * and rounded after every step; MIN/MAX propagate NaN.  Bitwise ops on
 * floating dtypes are a TypeError-like MT_ETYPE.  AVG = SUM, then division by
 * the group size (in the accumulation type); torch's gloo rejects AVG, we
 * support it for floating dtypes and reject it for bool and integer dtypes
 * (integer division would silently truncate).  Every combine is
 * commutative, and every algorithm makes all ranks end with bit-identical
 * results (see each algorithm's note); floating SUM, AVG and PRODUCT, which
 * are not associative, combine the ranks in one fixed order whatever the
 * algorithm, size or transport (Note [Fixed reduction order]). */

/* "SUM", "AVG", ... ("invalid" otherwise; static). */
const char *mt_dist_op_name(mt_dist_op op);
/* 0, or MT_EINVAL (unknown op) / MT_ETYPE (op not defined for dt) with a message. */
int mt_dist_op_check(mt_dtype dt, mt_dist_op op);
/* dst[i] = dst[i] op src[i] for count elements (AVG combines like SUM).  The
 * pair (dt, op) must have passed mt_dist_op_check. */
void mt_dist_reduce_into(void *dst, const void *src, size_t count, mt_dtype dt, mt_dist_op op);
/* out[i] = a[i] op b[i]; out may be a (not b). */
void mt_dist_combine(void *out, const void *a, const void *b, size_t count, mt_dtype dt,
                     mt_dist_op op);
/* Whether the result of (dt, op) depends on the order of the combines (floating SUM, AVG,
 * PRODUCT); other pairs give the same bits in any order. */
bool mt_dist_order_matters(mt_dtype dt, mt_dist_op op);
/* out = T(x[0], ..., x[n-1]) (Note [Fixed reduction order]), count elements each; out
 * distinct from every x[r].  AVG combines like SUM (no division).  0, or MT_ENOMEM (more
 * than 128 ranks only) with a message. */
int mt_dist_reduce_tree(void *out, const void *const *x, int n, size_t count, mt_dtype dt,
                        mt_dist_op op);
/* buf[i] /= n (floating dtypes only; AVG's last step). */
void mt_dist_avg_finish(void *buf, size_t count, mt_dtype dt, int n);

/* What every algorithm gets: the transport, the tag of this operation (all
 * its messages carry it) and the operation's absolute deadline. */
typedef struct mt_algo_ctx {
    mt_transport *tp;
    int rank;
    int size;
    uint32_t tag;
    int64_t deadline;
    bool any_order; /* the group opted out of Note [Fixed reduction order] */
} mt_algo_ctx;

/* Whether (dt, op) on this group combines by Note [Fixed reduction order]. */
static inline bool
mt_algo_fixed_order(const mt_algo_ctx *c, mt_dtype dt, mt_dist_op op)
{
    return !c->any_order && mt_dist_order_matters(dt, op);
}

/* All algorithms return 0 or a negative MT_E* code with the message set.
 * Counts are in elements of `dt`, lengths in bytes. */

/* In-place all-reduce of buf; picks slots, recursive doubling for small buffers and
 * recursive halving (or, for order-agnostic ops, the pipelined ring) for large ones.
 * AVG finishes with the division. */
int mt_algo_allreduce(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
                      mt_dist_op op);
int mt_algo_allreduce_ring(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
                           mt_dist_op op);
int mt_algo_allreduce_rd(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
                         mt_dist_op op);
/* Ring reduce-scatter of buf (the sum of counts[] elements, in rank order);
 * the chunk of rank r ends reduced in place in buf at its offset on the rank
 * `(r + 1 + shift) mod size`; other chunks hold partial results.  Used by
 * all-reduce (shift 0) and reduce-scatter (shift -1). */
int mt__ring_reduce_scatter(const mt_algo_ctx *c, void *buf, const size_t *counts, mt_dtype dt,
                            mt_dist_op op, int shift);

/* Recursive-halving reduce-scatter (Note [Recursive halving]): chunk r of buf (counts as
 * above) ends reduced by Note [Fixed reduction order] on rank r; other chunks are clobbered. */
int mt__rh_reduce_scatter(const mt_algo_ctx *c, void *buf, const size_t *counts, mt_dtype dt,
                          mt_dist_op op);
/* Ring all-gather of the chunks of buf (counts as above): rank r holds chunk
 * (r + shift) mod size complete, at the end every rank holds them all. */
int mt__ring_allgather(const mt_algo_ctx *c, void *buf, const size_t *counts, mt_dtype dt,
                       int shift);
int mt_algo_allreduce_rh(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
                         mt_dist_op op);

/* Where received bytes are combined into (Note [Sinks]): the sink context of a receive whose
 * pieces are reduced into dst (op, elements of dt of isz bytes) as the transport hands them
 * over; mt_algo_reduce_into_sink is the sink function. */
typedef struct mt_algo_reduce_sink {
    char *dst;
    mt_dtype dt;
    mt_dist_op op;
    size_t isz;
} mt_algo_reduce_sink;
void mt_algo_reduce_into_sink(void *ctx, size_t off, const void *bytes, size_t n);

/* `count` elements cut into `n` chunks of sizes differing by at most one, the larger first
 * (malloc'd; NULL with MT_ENOMEM set): the chunks of the ring's and recursive halving's
 * reduce-scatter inside an all-reduce. */
static inline size_t *
mt_algo_even_counts(size_t count, int n)
{
    size_t *counts = malloc((size_t)n * sizeof(*counts));
    if (counts == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory in all-reduce");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        counts[i] = count / (size_t)n + ((size_t)i < count % (size_t)n ? 1 : 0);
    }
    return counts;
}

/* root's len bytes to every rank. */
int mt_algo_broadcast(const mt_algo_ctx *c, void *buf, size_t len, int root);
/* The reduction of every rank's buf into root's buf (others' bufs unchanged). */
int mt_algo_reduce(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt, mt_dist_op op,
                   int root);
/* outs[r] (len bytes each, size of them) receives rank r's `in`; outs[rank]
 * may be `in` itself. */
int mt_algo_allgather(const mt_algo_ctx *c, const void *in, size_t len, void *const *outs);
/* Like allgather but only root has outs (others pass NULL). */
int mt_algo_gather(const mt_algo_ctx *c, const void *in, size_t len, void *const *outs,
                   int root);
/* Rank r's `out` receives root's ins[r] (len bytes each); ins is NULL off root. */
int mt_algo_scatter(const mt_algo_ctx *c, void *out, size_t len, const void *const *ins,
                    int root);
/* out (counts[rank] elements) = reduction over ranks of their chunk `rank`
 * of `in` (sum(counts) elements, in rank order; left unchanged). */
int mt_algo_reduce_scatter(const mt_algo_ctx *c, const void *in, const size_t *counts, void *out,
                           mt_dtype dt, mt_dist_op op);
/* sends[r] (slens[r] bytes) goes to rank r, recvs[r] (rlens[r] bytes) comes
 * from rank r; sends[rank] is copied to recvs[rank]. */
int mt_algo_alltoall(const mt_algo_ctx *c, const void *const *sends, const size_t *slens,
                     void *const *recvs, const size_t *rlens);
/* Returns once every rank has entered. */
int mt_algo_barrier(const mt_algo_ctx *c);

/* One-round forms over the transport's slots (Note [Slot collectives]), for
 * transports that have them, buffers that fit a slot and groups of at most
 * MT_ALGO_MAX_SLOT_RANKS ranks (mt_algo_use_slots says when). */
#define MT_ALGO_MAX_SLOT_RANKS 64
static inline bool
mt_algo_use_slots(const mt_algo_ctx *c, size_t len)
{
    return c->size > 1 && c->size <= MT_ALGO_MAX_SLOT_RANKS && mt_transport_has_slots(c->tp, len);
}
int mt_algo_allreduce_slots(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
                            mt_dist_op op);
int mt_algo_broadcast_slots(const mt_algo_ctx *c, void *buf, size_t len, int root);
int mt_algo_barrier_slots(const mt_algo_ctx *c);

/* Pipelining granularity of the ring and chain algorithms (bytes), and the
 * all-reduce size (bytes) from which the ring is used. */
#define MT_ALGO_PIECE_BYTES ((size_t)256 * 1024)
#define MT_ALGO_RING_THRESHOLD ((size_t)256 * 1024)
#define MT_ALGO_CHAIN_THRESHOLD ((size_t)1024 * 1024)

#endif /* CSRC_DISTRIBUTED_ALGORITHMS_ALGORITHMS_H */
