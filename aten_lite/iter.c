/* aten_lite/iter.c - TensorIterator construction and parallel traversal. See Note [TensorIterator]. */
#include "aten_lite/iter.h"

#include <string.h>

#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

int
mt_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out)
{
    int n = na > nb ? na : nb;
    int64_t tmp[MT_MAX_DIMS];
    /* from the last dimension to the first, as torch: a mismatch is reported at the last
     * dimension where the shapes disagree */
    for (int i = n - 1; i >= 0; i--) {
        int ia = na - n + i, ib = nb - n + i;
        int64_t sa = ia >= 0 ? a[ia] : 1;
        int64_t sb = ib >= 0 ? b[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            return mt_error_set(MT_ERUNTIME,
                                "The size of tensor a (%lld) must match the size of tensor b "
                                "(%lld) at non-singleton dimension %d",
                                (long long)sa, (long long)sb, i);
        }
        tmp[i] = sa == 1 ? sb : sa;
    }
    memcpy(out, tmp, (size_t)n * sizeof(int64_t));
    *nout = n;
    return MT_OK;
}

/* torch's reorder rule: -1 keep dim0 inner, 1 swap, 0 undecided. */
static int
mt__should_swap(const mt_iter *it, const int64_t (*est)[MT_ITER_MAX_OPERANDS], int d0, int d1)
{
    for (int op = 0; op < it->noperands; op++) {
        if (it->tensors[op] == NULL) {
            continue; /* output still to be allocated */
        }
        int64_t s0 = est[d0][op], s1 = est[d1][op];
        if (s0 == 0 || s1 == 0) {
            continue;
        }
        if (s0 < s1) {
            return -1;
        }
        if (s0 > s1) {
            return 1;
        }
        if (it->out_shape[d0] > it->out_shape[d1]) {
            return 1;
        }
    }
    return 0;
}

int
mt_iter_build(mt_iter *it, int noutputs, int ninputs, mt_tensor **operands, mt_dtype out_dtype)
{
    int nops = noutputs + ninputs;
    if (nops > MT_ITER_MAX_OPERANDS) {
        return mt_error_set(MT_ERUNTIME, "too many operands (%d) for one iterator", nops);
    }
    it->noperands = nops;
    it->noutputs = noutputs;
    for (int i = 0; i < nops; i++) {
        it->tensors[i] = operands[i];
        it->owned[i] = false;
    }

    /* 1. broadcast shape of the inputs (or of the outputs when there are none). */
    int nd = 0;
    int64_t *shape = it->out_shape;
    int first = ninputs > 0 ? noutputs : 0;
    for (int i = first; i < nops; i++) {
        const mt_tensor *t = operands[i];
        if (t == NULL) {
            continue;
        }
        if (mt_broadcast_shapes(nd, shape, t->ndim, t->sizes, &nd, shape) < 0) {
            return MT_ERUNTIME;
        }
    }
    it->out_ndim = nd;
    for (int i = 0; i < noutputs; i++) {
        const mt_tensor *t = operands[i];
        if (t == NULL) {
            continue;
        }
        bool same = t->ndim == nd && memcmp(t->sizes, shape, (size_t)nd * sizeof(int64_t)) == 0;
        if (!same) {
            char a[256], b[256];
            mt_format_sizes(a, sizeof(a), t->ndim, t->sizes);
            mt_format_sizes(b, sizeof(b), nd, shape);
            return mt_error_set(MT_ERUNTIME,
                                "output with shape %s doesn't match the broadcast shape %s", a, b);
        }
    }
    it->numel = 1;
    for (int d = 0; d < nd; d++) {
        it->numel *= shape[d];
    }

    /* element strides per natural dim, 0 where broadcast */
    int64_t est[MT_MAX_DIMS][MT_ITER_MAX_OPERANDS];
    for (int op = 0; op < nops; op++) {
        const mt_tensor *t = operands[op];
        for (int d = 0; d < nd; d++) {
            int td = t ? t->ndim - nd + d : -1;
            est[d][op] = (td >= 0 && t->sizes[td] != 1) ? t->strides[td] : 0;
        }
    }

    /* 2. order dims innermost first */
    int perm[MT_MAX_DIMS];
    for (int k = 0; k < nd; k++) {
        perm[k] = nd - 1 - k;
    }
    for (int i = 1; i < nd; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int c = mt__should_swap(it, (const int64_t(*)[MT_ITER_MAX_OPERANDS])est, perm[d0],
                                    perm[d1]);
            if (c > 0) {
                int tmp = perm[d0];
                perm[d0] = perm[d1];
                perm[d1] = tmp;
                d1 = d0;
            }
            else if (c < 0) {
                break;
            }
        }
    }

    /* allocate missing outputs, dense in iteration order */
    for (int op = 0; op < noutputs; op++) {
        if (operands[op] != NULL) {
            continue;
        }
        int64_t strides[MT_MAX_DIMS];
        int64_t s = 1;
        for (int k = 0; k < nd; k++) {
            strides[perm[k]] = s;
            s *= shape[perm[k]] > 1 ? shape[perm[k]] : 1;
        }
        /* on the inputs' device: the first input's that is not a 0-d cpu tensor (a scalar
         * operand of an op on another device, see Note [Kernel stubs]) */
        mt_device dev = MT_DEVICE_CPU;
        for (int i = noutputs; i < nops; i++) {
            if (operands[i] != NULL) {
                mt_device d = mt_tensor_device(operands[i]);
                if (d.type != MT_CPU || operands[i]->ndim != 0) {
                    dev = d;
                    break;
                }
            }
        }
        mt_storage *st = mt_storage_new((size_t)it->numel * mt_dtype_itemsize(out_dtype), dev);
        mt_tensor *t = st ? mt_tensor_new(st, out_dtype, nd, shape, strides, 0) : NULL;
        mt_storage_decref(st);
        if (t == NULL) {
            mt_iter_release(it);
            return mt_error_code();
        }
        it->tensors[op] = t;
        it->owned[op] = true;
        for (int d = 0; d < nd; d++) {
            est[d][op] = shape[d] != 1 ? t->strides[d] : 0;
        }
    }

    /* 3. coalesce in iteration order */
    int ndim = 0;
    for (int k = 0; k < nd; k++) {
        int d = perm[k];
        int64_t sz = shape[d];
        if (ndim > 0) {
            int p = ndim - 1;
            bool can = true;
            for (int op = 0; op < nops && can; op++) {
                can = it->shape[p] == 1 || sz == 1 || est[d][op] == it->strides[p][op] * it->shape[p];
            }
            if (can) {
                if (it->shape[p] == 1) {
                    for (int op = 0; op < nops; op++) {
                        it->strides[p][op] = est[d][op];
                    }
                }
                it->shape[p] *= sz;
                continue;
            }
        }
        it->shape[ndim] = sz;
        for (int op = 0; op < nops; op++) {
            it->strides[ndim][op] = est[d][op];
        }
        ndim++;
    }
    if (ndim == 0) {
        ndim = 1;
        it->shape[0] = 1;
        for (int op = 0; op < nops; op++) {
            it->strides[0][op] = 0;
        }
    }
    it->ndim = ndim;
    for (int op = 0; op < nops; op++) {
        int64_t isz = (int64_t)mt_tensor_itemsize(it->tensors[op]);
        for (int k = 0; k < ndim; k++) {
            it->strides[k][op] *= isz;
        }
        it->data[op] = mt_tensor_data(it->tensors[op]);
    }
    return MT_OK;
}

void
mt_iter_serial_for_each(const mt_iter *it, mt_loop_fn loop, void *ctx, int64_t begin, int64_t end)
{
    int nops = it->noperands;
    int64_t idx[MT_MAX_DIMS];
    char *ptrs[MT_ITER_MAX_OPERANDS];
    int64_t rem = begin;
    for (int k = 0; k < it->ndim; k++) {
        idx[k] = rem % it->shape[k];
        rem /= it->shape[k];
    }
    int64_t pos = begin;
    while (pos < end) {
        for (int op = 0; op < nops; op++) {
            char *p = it->data[op];
            for (int k = 0; k < it->ndim; k++) {
                p += idx[k] * it->strides[k][op];
            }
            ptrs[op] = p;
        }
        int64_t count = it->shape[0] - idx[0];
        if (count > end - pos) {
            count = end - pos;
        }
        loop(ptrs, &count, it->strides[0], ctx);
        pos += count;
        idx[0] += count;
        for (int k = 0; k < it->ndim - 1 && idx[k] == it->shape[k]; k++) {
            idx[k] = 0;
            idx[k + 1]++;
        }
    }
}

typedef struct {
    const mt_iter *it;
    mt_loop_fn loop;
    void *ctx;
} mt__iter_job;

static void
mt__iter_chunk(void *p, int64_t b, int64_t e)
{
    mt__iter_job *job = p;
    mt_iter_serial_for_each(job->it, job->loop, job->ctx, b, e);
}

void
mt_iter_for_each(const mt_iter *it, mt_loop_fn loop, void *ctx)
{
    if (it->numel == 0) {
        return;
    }
    if (it->numel < MT_GRAIN_SIZE) {
        mt_iter_serial_for_each(it, loop, ctx, 0, it->numel);
        return;
    }
    mt__iter_job job = {it, loop, ctx};
    mt_parallel_for(0, it->numel, MT_GRAIN_SIZE, mt__iter_chunk, &job);
}

mt_tensor *
mt_iter_output(const mt_iter *it, int i)
{
    mt_tensor_incref(it->tensors[i]);
    return it->tensors[i];
}

void
mt_iter_release(mt_iter *it)
{
    for (int i = 0; i < it->noperands; i++) {
        if (it->owned[i]) {
            mt_tensor_decref(it->tensors[i]);
            it->owned[i] = false;
        }
    }
}
