/* aten_lite/cuda/reduce.c - the CUDA entries of the reduce stub (Note [Kernel stubs]) over the
 * launcher of aten_lite/cuda/reduce.cu (Note [CUDA reduction]). */
#include "aten_lite/cuda/reduce.h"
#include "aten_lite/cpu/reduce_kernels.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

#define MT__SAME_DT(N) _Static_assert((int)MT_CUDA_DT_##N == (int)MT_##N, "dtype values");
MT_CUDA_DT_CHECK(MT__SAME_DT)
#undef MT__SAME_DT
_Static_assert((int)MT_CUDA_RED_SUM == (int)MT_REDUCE_SUM && (int)MT_CUDA_RED_PROD == (int)MT_REDUCE_PROD &&
               (int)MT_CUDA_RED_MAX == (int)MT_REDUCE_MAX && (int)MT_CUDA_RED_MIN == (int)MT_REDUCE_MIN &&
               (int)MT_CUDA_RED_ALL == (int)MT_REDUCE_ALL && (int)MT_CUDA_RED_ANY == (int)MT_REDUCE_ANY &&
               (int)MT_CUDA_RED_ARGMAX == (int)MT_REDUCE_ARGMAX &&
               (int)MT_CUDA_RED_ARGMIN == (int)MT_REDUCE_ARGMIN && MT_NUM_REDUCE_OPS == 8,
               "reduce op values");
_Static_assert(MT_CUDA_REDUCE_DIMS >= MT_MAX_DIMS, "the geometry holds every dim");

static bool
mt__ordering(mt_reduce_op op)
{
    return op == MT_REDUCE_MAX || op == MT_REDUCE_MIN || op == MT_REDUCE_ARGMAX ||
           op == MT_REDUCE_ARGMIN;
}

/* The dtypes of the cpu's table: every op for the real dtypes; sum, prod, all, any also for
 * complex and the barebones unsigned dtypes. */
static int
mt__cuda_reduce_check(mt_reduce_op op, mt_dtype dt)
{
    if (!mt__ordering(op) || (!mt_dtype_is_complex(dt) && dt != MT_UINT16 && dt != MT_UINT32 &&
                              dt != MT_UINT64)) {
        return MT_OK;
    }
    int rc = mt_reject_barebones(dt, mt_reduce_op_name(op));
    if (rc < 0) {
        return rc;
    }
    return mt_error_set(MT_ERUNTIME, "%s(): does not support complex input", mt_reduce_op_name(op));
}

static int
mt__cuda_reduce(mt_reduce_op op, mt_tensor *res, const mt_tensor *src, const mt_reduce_geometry *g)
{
    int rc = mt__cuda_reduce_check(op, src->dtype);
    if (rc < 0) {
        return rc;
    }
    mt_cuda_reduce_geom cg;
    cg.R = g->R;
    cg.sr = g->sr;
    if (g->R == 0) {
        /* every output the identity: one output dim over res's elements */
        cg.nk = 1;
        cg.M = res->numel;
        cg.ksz[0] = res->numel;
        cg.kin[0] = 0;
        cg.kout[0] = 1;
    }
    else {
        cg.nk = g->nk;
        cg.M = 1;
        for (int i = 0; i < g->nk; i++) {
            cg.ksz[i] = g->ksz[i];
            cg.kin[i] = g->kin[i];
            cg.kout[i] = g->kout[i];
            cg.M *= g->ksz[i];
        }
    }
    const int device = mt_tensor_device(res).index;
    const mt_cuda_dtype dt = (mt_cuda_dtype)src->dtype;
    int64_t bytes = mt_cuda_reduce_workspace((mt_cuda_reduce_op)op, dt, &cg);
    if (bytes < 0) {
        return mt_error_code();
    }
    mt_tensor *ws = NULL;
    if (bytes > 0) {
        ws = mt_tensor_empty(MT_UINT8, 1, &bytes, mt_tensor_device(res));
        if (ws == NULL) {
            return mt_error_code();
        }
    }
    /* the workspace returns to the caching allocator after the launches, ordered on the stream */
    rc = mt_cuda_reduce(device, mt_cuda_current_stream(device), (mt_cuda_reduce_op)op, dt, &cg,
                        mt_tensor_data(src), mt_tensor_data(res),
                        ws != NULL ? mt_tensor_data(ws) : NULL);
    mt_tensor_decref(ws);
    return rc;
}

static const mt_reduce_kernels mt__cuda_reduce_kernels = {
    .check = mt__cuda_reduce_check,
    .reduce = mt__cuda_reduce,
};

void
mt__cuda_reduce_register(void)
{
    MT_REGISTER_STUB(reduce, MT_CUDA, &mt__cuda_reduce_kernels);
}
