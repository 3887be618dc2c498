/* aten_lite/cpu/elementwise.c - the cpu elementwise kernels: table loops over the iterator. */
#include "aten_lite/cast_loop.h"
#include "aten_lite/cpu/kernels.h"
#include "aten_lite/kernel_stubs.h"
#include "c10_lite/error.h"

static int
mt__cpu_elementwise_check(mt_op op, mt_dtype dt)
{
    if (mt_dispatch[MT_CPU][op][dt] != NULL) {
        return MT_OK;
    }
    return mt_dispatch_lookup(MT_CPU, op, dt) != NULL ? MT_OK : MT_ENOTIMPL; /* the message */
}

/* The inner loop of Note [Dispatch table], wrapped to convert inputs of other dtypes block
 * by block (Note [Casting in blocks]), run over the pool by the iterator. */
static int
mt__cpu_elementwise_run(const mt_iter *it, const mt_elementwise_call *call)
{
    mt_loop_fn loop = mt_dispatch[MT_CPU][call->op][call->dtype];
    if (loop == NULL) { /* the op code checks first: only for callers that did not */
        return mt_dispatch_lookup(MT_CPU, call->op, call->dtype) ? MT_OK : MT_ENOTIMPL;
    }
    mt_cast_ctx cast;
    mt_dtype have[MT_CAST_MAX_OPERANDS], want[MT_CAST_MAX_OPERANDS];
    bool mixed = false;
    for (int i = 0; i < it->noutputs; i++) {
        have[i] = want[i] = it->tensors[i]->dtype;
    }
    for (int i = it->noutputs; call->compute != NULL && i < it->noperands; i++) {
        have[i] = it->tensors[i]->dtype;
        want[i] = call->compute[i - it->noutputs];
        mixed |= have[i] != want[i];
    }
    if (mixed && mt_cast_ctx_init(&cast, loop, call->ctx, it->noutputs, it->noperands, have, want)) {
        mt_iter_for_each(it, mt_cast_loop, &cast);
    }
    else {
        mt_iter_for_each(it, loop, call->ctx);
    }
    return MT_OK;
}

static const mt_elementwise_kernels mt__cpu_elementwise = {
    .check = mt__cpu_elementwise_check,
    .run = mt__cpu_elementwise_run,
};

void
mt__cpu_elementwise_register(void)
{
    for (int dt = 0; dt < MT_NUM_DTYPES; dt++) {
        mt_dispatch[MT_CPU][MT_OP_WHERE][dt] = mt_cpu_where_loop((mt_dtype)dt);
    }
    MT_REGISTER_STUB(elementwise, MT_CPU, &mt__cpu_elementwise);
}
