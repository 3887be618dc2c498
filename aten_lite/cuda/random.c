/* aten_lite/cuda/random.c - the CUDA entries of the random stub (Note [Kernel stubs]) over the
 * launchers of aten_lite/cuda/random.cu (Note [CUDA random fills]).  poisson and multinomial
 * are drawn by the cpu kernels on a host copy of their input, from the device's generator
 * (the same numbers as the cpu's for one seed), and the result copied to the device: one
 * synchronisation each, as randperm's. */
#include <stdatomic.h>

#include "aten_lite/cuda/random.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/allocator.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

_Static_assert(MT_RAND_UNIFORM == 0 && MT_RAND_NORMAL == 1 && MT_RAND_BERNOULLI == 2 &&
               MT_RAND_EXPONENTIAL == 3 && MT_RAND_GEOMETRIC == 4 && MT_RAND_CAUCHY == 5 &&
               MT_RAND_LOG_NORMAL == 6, "the kernel's distribution numbers");

static int
mt__cuda_random_fill(mt_tensor *t, const mt_random_job *job)
{
    const mt_cuda_random_job j = {
        .dist = (int)job->dist,
        .integral = job->integral,
        .wide = job->wide,
        .ints = job->ints,
        .mbits = job->mbits,
        .key = job->key,
        .base = job->base,
        .a = job->a,
        .b = job->b,
        .log_q = job->log_q,
        .from = job->from,
        .range = job->range,
        .p = job->p,
    };
    const int device = mt_tensor_device(t).index;
    return mt_cuda_random_fill(device, mt_cuda_current_stream(device), (mt_cuda_dtype)t->dtype, &j,
                               mt_tensor_data(t), t->numel);
}

/* bernoulli_(p): p as float64 in t's shape on the device, its values checked there (one flag
 * read back), then one fill reading them. */
static int
mt__cuda_bernoulli_tensor(mt_tensor *t, mt_generator *g, const mt_tensor *p)
{
    const mt_device dev = mt_tensor_device(t);
    mt_tensor *e = mt_expand(p, t->ndim, t->sizes);
    mt_tensor *pd = e ? mt_to_dtype(e, MT_FLOAT64, false) : NULL;
    mt_tensor_decref(e);
    mt_tensor *pc = pd ? mt_contiguous(pd) : NULL;
    mt_tensor_decref(pd);
    if (pc == NULL) {
        return mt_error_code();
    }
    int rc = MT_OK;
    if (pc->numel > 0) {
        const int64_t one = 1;
        mt_tensor *flag = mt_tensor_empty(MT_INT32, 1, &one, dev);
        const int zero = 0;
        int bad = 0;
        rc = flag == NULL ? mt_error_code()
                          : mt_bytes_fill(dev, mt_tensor_data(flag), sizeof(int), &zero, sizeof(int));
        if (rc == MT_OK) {
            rc = mt_cuda_check_probabilities(dev.index, mt_cuda_current_stream(dev.index),
                                             (const double *)mt_tensor_data(pc), pc->numel,
                                             (int *)mt_tensor_data(flag));
        }
        if (rc == MT_OK) {
            rc = mt_bytes_copy(&bad, MT_DEVICE_CPU, mt_tensor_data(flag), dev, sizeof(int), false);
        }
        mt_tensor_decref(flag);
        if (rc == MT_OK && bad) {
            rc = mt_error_set(MT_ERUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.");
        }
    }
    if (rc == MT_OK) {
        mt_random_job j = {.dist = MT_RAND_BERNOULLI, .wide = true,
                           .p = (const double *)mt_tensor_data(pc)};
        rc = mt_random_run_fill(t, g, &j);
    }
    mt_tensor_decref(pc);
    return rc;
}

/* t (on a device) copied to a new host tensor; NULL with the error set */
static mt_tensor *
mt__to_host(const mt_tensor *t)
{
    mt_tensor *h = mt_tensor_empty(t->dtype, t->ndim, t->sizes, MT_DEVICE_CPU);
    if (h != NULL && mt_copy_(h, t) < 0) {
        mt_tensor_decref(h);
        return NULL;
    }
    return h;
}

/* h (a host result, stolen) copied to `device`; NULL with the error set */
static mt_tensor *
mt__to_device(mt_tensor *h, mt_device device)
{
    if (h == NULL) {
        return NULL;
    }
    mt_tensor *d = mt_tensor_empty(h->dtype, h->ndim, h->sizes, device);
    if (d != NULL && mt_copy_(d, h) < 0) {
        mt_tensor_decref(d);
        d = NULL;
    }
    mt_tensor_decref(h);
    return d;
}

static mt_tensor *
mt__cuda_poisson(const mt_tensor *rates, mt_generator *g)
{
    mt_tensor *h = mt__to_host(rates);
    if (h == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_random_stub[MT_CPU]->poisson(h, g);
    mt_tensor_decref(h);
    return mt__to_device(r, mt_tensor_device(rates));
}

static mt_tensor *
mt__cuda_multinomial(const mt_tensor *probs, int64_t ncat, int64_t rows, int64_t n,
                     bool replacement, mt_generator *g)
{
    mt_tensor *h = mt__to_host(probs);
    if (h == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_random_stub[MT_CPU]->multinomial(h, ncat, rows, n, replacement, g);
    mt_tensor_decref(h);
    return mt__to_device(r, mt_tensor_device(probs));
}

static const mt_random_kernels mt__cuda_random_kernels = {
    .fill = mt__cuda_random_fill,
    .bernoulli_tensor = mt__cuda_bernoulli_tensor,
    .poisson = mt__cuda_poisson,
    .multinomial = mt__cuda_multinomial,
};

void
mt__cuda_random_register(void)
{
    MT_REGISTER_STUB(random, MT_CUDA, &mt__cuda_random_kernels);
}
