/* aten_lite/random.c - Philox4x32-10 generators, random fills, randperm and multinomial. */
#include "aten_lite/random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "aten_lite/random_math.h"
#include "c10_lite/error.h"

/* See Note [Counter-based random numbers] in random.h. */

static const uint8_t mt__state_magic[8] = {'M', 'T', 'P', 'H', 'X', '1', '0', 0};

void
mt_generator_manual_seed(mt_generator *g, uint64_t seed)
{
    atomic_store(&g->seed, seed);
    atomic_store(&g->offset, 0);
}

uint64_t
mt_generator_reserve(mt_generator *g, uint64_t blocks)
{
    return atomic_fetch_add(&g->offset, blocks);
}

static void
mt__put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint64_t
mt__get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

void
mt_generator_get_state(const mt_generator *g, uint8_t *out)
{
    memcpy(out, mt__state_magic, 8);
    mt__put_u64(out + 8, atomic_load(&((mt_generator *)g)->seed));
    mt__put_u64(out + 16, atomic_load(&((mt_generator *)g)->offset));
}

int
mt_generator_set_state(mt_generator *g, const uint8_t *state, int64_t nbytes)
{
    if (nbytes != MT_GENERATOR_STATE_SIZE) {
        return mt_error_set(MT_EINVAL, "RNG state is wrong size: expected %d bytes, got %lld",
                            MT_GENERATOR_STATE_SIZE, (long long)nbytes);
    }
    if (memcmp(state, mt__state_magic, 8) != 0) {
        return mt_error_set(MT_EINVAL, "RNG state is not a state of this generator "
                                       "(it does not start with its version tag)");
    }
    atomic_store(&g->seed, mt__get_u64(state + 8));
    atomic_store(&g->offset, mt__get_u64(state + 16));
    return 0;
}

/* ---- Philox4x32-10: mt_philox_block (random_math.h) ---- */

void
mt_philox4x32(uint64_t key, uint64_t counter, uint64_t counter_hi, uint32_t out[4])
{
    mt_philox_block(key, counter, counter_hi, out);
}

/* Philox of MT__LANES consecutive counters at once, written lane-parallel so
 * the compiler can vectorise the 32x32->64 multiplies: mt_philox_block's rounds, giving the
 * same words as the CUDA kernels' one block at a time (tests/test_cuda_random.py compares the
 * two).  words[4 * l + k] is word k of block ctr + l. */
#define MT__LANES 8

MT_SIMD_CLONES static void
mt__philox_batch(uint64_t key, uint64_t ctr, uint32_t words[4 * MT__LANES])
{
    uint32_t c0[MT__LANES], c1[MT__LANES], c2[MT__LANES], c3[MT__LANES];
    for (int l = 0; l < MT__LANES; l++) {
        c0[l] = (uint32_t)(ctr + (uint64_t)l);
        c1[l] = (uint32_t)((ctr + (uint64_t)l) >> 32);
        c2[l] = 0;
        c3[l] = 0;
    }
    uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    for (int r = 0; r < 10; r++) {
        for (int l = 0; l < MT__LANES; l++) {
            uint64_t p0 = (uint64_t)UINT32_C(0xD2511F53) * c0[l];
            uint64_t p1 = (uint64_t)UINT32_C(0xCD9E8D57) * c2[l];
            uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1[l] ^ k0;
            uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3[l] ^ k1;
            c1[l] = (uint32_t)p1;
            c3[l] = (uint32_t)p0;
            c0[l] = n0;
            c2[l] = n2;
        }
        k0 += UINT32_C(0x9E3779B9);
        k1 += UINT32_C(0xBB67AE85);
    }
    for (int l = 0; l < MT__LANES; l++) {
        words[4 * l] = c0[l];
        words[4 * l + 1] = c1[l];
        words[4 * l + 2] = c2[l];
        words[4 * l + 3] = c3[l];
    }
}

/* mt__store_doubles / _floats / _ints: store v[0, n) into elements
 * [i0, i0 + n) of a contiguous buffer of dtype dt, converting each value. */
#define MT__DEFINE_STORE(name, vt)                                          \
    static void name(char *data, mt_dtype dt, int64_t i0, const vt *v, int n) \
    {                                                                       \
        switch (dt) {                                                       \
            MT_FORALL_DTYPES(MT__STORE_CASE)                                \
            MT__STORE_CASE(MT_UINT16, uint16, uint16_t, uint64_t)          \
            MT__STORE_CASE(MT_UINT32, uint32, uint32_t, uint64_t)          \
            MT__STORE_CASE(MT_UINT64, uint64, uint64_t, uint64_t)          \
        default:                                                            \
            break;                                                          \
        }                                                                   \
    }
#define MT__STORE_CASE(E, tn, ct, acc)                          \
    case E:                                                     \
        for (int e = 0; e < n; e++) {                           \
            ((ct *)data)[i0 + e] = MT_STORE_##tn((acc)v[e]);    \
        }                                                       \
        break;
MT__DEFINE_STORE(mt__store_doubles, double)
MT__DEFINE_STORE(mt__store_floats, float)
MT__DEFINE_STORE(mt__store_ints, int64_t)
#undef MT__STORE_CASE
#undef MT__DEFINE_STORE

/* Note [Random fill kernels]
 * A chunk [begin, end) is walked in batches of MT__LANES blocks: one batched
 * Philox call, then the batch's values are computed in a small buffer (one
 * switch on the distribution per batch) and the part inside the chunk is
 * stored with one switch on the dtype.  A chunk boundary inside a batch just
 * computes that batch twice; the values never depend on the chunking.
 * Element e of a batch reads words[e] (32-bit draws: 4 per block) or
 * words[2e], words[2e + 1] (64-bit draws: 2 per block); a float normal uses
 * the pair words[e & ~1], words[e | 1] (cos for even e, sin for odd), a
 * double normal its whole block.  16-bit floats draw as many uniform mantissa
 * bits as they hold (11 and 8), so rand() stays below 1 in every dtype. */

#define MT__NARROW (4 * MT__LANES) /* values per batch */
#define MT__WIDE (2 * MT__LANES)

/* The values of one batch (random_math.h's draws, Note [One random stream on every device]). */
static void
mt__narrow_values(const mt_random_job *j, const uint32_t *w, float *v)
{
    float scale = 1.0f / (float)(UINT32_C(1) << j->mbits);
    int shift = 32 - j->mbits;
    float a = (float)j->a, b = (float)j->b;
    switch (j->dist) {
    case MT_RAND_UNIFORM:
        for (int e = 0; e < MT__NARROW; e++) {
            v[e] = mt_rng_uniform_f(w[e], shift, scale, a, b);
        }
        break;
    case MT_RAND_EXPONENTIAL:
        for (int e = 0; e < MT__NARROW; e++) {
            v[e] = mt_rng_exponential_f(w[e], a);
        }
        break;
    case MT_RAND_CAUCHY:
        for (int e = 0; e < MT__NARROW; e++) {
            v[e] = mt_rng_cauchy_f(w[e], a, b);
        }
        break;
    case MT_RAND_NORMAL:
    case MT_RAND_LOG_NORMAL:
        for (int e = 0; e < MT__NARROW; e += 2) {
            mt_rng_normal2_f(w[e], w[e + 1], a, b, &v[e], &v[e + 1]);
        }
        if (j->dist == MT_RAND_LOG_NORMAL) {
            for (int e = 0; e < MT__NARROW; e++) {
                v[e] = mt_rng_exp_f(v[e]);
            }
        }
        break;
    default:
        break;
    }
}

/* pb: the batch's probabilities (mt_bernoulli_tensor_) or NULL. */
static void
mt__wide_values(const mt_random_job *j, const uint32_t *w, const double *pb, double *v)
{
    double a = j->a, b = j->b;
    switch (j->dist) {
    case MT_RAND_UNIFORM:
        for (int e = 0; e < MT__WIDE; e++) {
            v[e] = mt_rng_uniform_d(w[2 * e], w[2 * e + 1], a, b);
        }
        break;
    case MT_RAND_EXPONENTIAL:
        for (int e = 0; e < MT__WIDE; e++) {
            v[e] = mt_rng_exponential_d(w[2 * e], w[2 * e + 1], a);
        }
        break;
    case MT_RAND_CAUCHY:
        for (int e = 0; e < MT__WIDE; e++) {
            v[e] = mt_rng_cauchy_d(w[2 * e], w[2 * e + 1], a, b);
        }
        break;
    case MT_RAND_NORMAL:
    case MT_RAND_LOG_NORMAL:
        for (int e = 0; e < MT__WIDE; e += 2) {
            mt_rng_normal2_d(w + 2 * e, a, b, &v[e], &v[e + 1]);
        }
        if (j->dist == MT_RAND_LOG_NORMAL) {
            for (int e = 0; e < MT__WIDE; e++) {
                v[e] = mt_rng_exp_d(v[e]);
            }
        }
        break;
    case MT_RAND_BERNOULLI:
        for (int e = 0; e < MT__WIDE; e++) {
            v[e] = mt_rng_bernoulli_d(w[2 * e], w[2 * e + 1], pb ? pb[e] : a);
        }
        break;
    case MT_RAND_GEOMETRIC:
        for (int e = 0; e < MT__WIDE; e++) {
            v[e] = mt_rng_geometric_d(w[2 * e], w[2 * e + 1], j->log_q);
        }
        break;
    default:
        break;
    }
}

static void
mt__fill_chunk(void *ctx, int64_t begin, int64_t end)
{
    const mt_random_job *j = ctx;
    int per = j->wide ? MT__WIDE : MT__NARROW; /* values per batch */
    uint32_t w[4 * MT__LANES];
    float fv[MT__NARROW];
    double dv[MT__WIDE];
    for (int64_t b0 = begin / per * per; b0 < end; b0 += per) {
        mt__philox_batch(j->key, j->base + (uint64_t)(b0 / per) * MT__LANES, w);
        int64_t lo = b0 < begin ? begin : b0;
        int64_t hi = b0 + per < end ? b0 + per : end;
        if (j->wide) {
            const double *pb = j->p != NULL ? j->p + b0 : NULL;
            double pv[MT__WIDE];
            if (pb != NULL && (lo != b0 || hi != b0 + per)) {
                /* a partial batch: read only the probabilities inside the chunk */
                for (int e = 0; e < MT__WIDE; e++) {
                    pv[e] = (b0 + e >= lo && b0 + e < hi) ? j->p[b0 + e] : 0.0;
                }
                pb = pv;
            }
            mt__wide_values(j, w, pb, dv);
            if (j->integral) {
                /* integer results (Bernoulli, geometric) convert through int64:
                 * narrowing then wraps instead of being undefined */
                int64_t iv[MT__WIDE];
                for (int e = 0; e < MT__WIDE; e++) {
                    iv[e] = (int64_t)dv[e];
                }
                mt__store_ints(j->data, j->dt, lo, iv + (lo - b0), (int)(hi - lo));
            }
            else {
                mt__store_doubles(j->data, j->dt, lo, dv + (lo - b0), (int)(hi - lo));
            }
        }
        else {
            mt__narrow_values(j, w, fv);
            mt__store_floats(j->data, j->dt, lo, fv + (lo - b0), (int)(hi - lo));
        }
    }
}

static void
mt__int_chunk(void *ctx, int64_t begin, int64_t end)
{
    const mt_random_job *j = ctx;
    uint32_t w[4 * MT__LANES];
    int64_t iv[MT__WIDE];
    for (int64_t b0 = begin / MT__WIDE * MT__WIDE; b0 < end; b0 += MT__WIDE) {
        mt__philox_batch(j->key, j->base + (uint64_t)(b0 / MT__WIDE) * MT__LANES, w);
        for (int e = 0; e < MT__WIDE; e++) {
            iv[e] = mt_rng_int(w[2 * e], w[2 * e + 1], j->from, j->range);
        }
        int64_t lo = b0 < begin ? begin : b0;
        int64_t hi = b0 + MT__WIDE < end ? b0 + MT__WIDE : end;
        mt__store_ints(j->data, j->dt, lo, iv + (lo - b0), (int)(hi - lo));
    }
}

/* torch's name of the op a fill job serves ("normal_"), for the missing-kernel error. */
static const char *
mt__random_op_name(const mt_random_job *j)
{
    static const char *const names[] = {
        [MT_RAND_UNIFORM] = "uniform_",         [MT_RAND_NORMAL] = "normal_",
        [MT_RAND_BERNOULLI] = "bernoulli_",     [MT_RAND_EXPONENTIAL] = "exponential_",
        [MT_RAND_GEOMETRIC] = "geometric_",     [MT_RAND_CAUCHY] = "cauchy_",
        [MT_RAND_LOG_NORMAL] = "log_normal_",
    };
    return j->ints ? "random_" : names[j->dist];
}

/* Runs the job over t: directly when t is contiguous, else through a
 * contiguous buffer copied into t.  Reserves the generator's blocks first. */
int
mt_random_run_fill(mt_tensor *t, mt_generator *g, mt_random_job *j)
{
    int (*fill)(mt_tensor *, const mt_random_job *) =
        MT_STUB(random, fill, mt_tensor_device(t).type, mt__random_op_name(j));
    if (fill == NULL) {
        return MT_ENOTIMPL;
    }
    int rc = mt_check_no_internal_overlap(t);
    if (rc < 0) {
        return rc;
    }
    int per = j->wide ? MT__WIDE : MT__NARROW;
    j->dt = t->dtype;
    j->integral = mt_dtype_is_integral(t->dtype, true);
    j->key = atomic_load(&g->seed);
    j->base = mt_generator_reserve(g, (uint64_t)((t->numel + per - 1) / per) * MT__LANES);
    if (t->numel == 0) {
        return 0;
    }
    mt_tensor *buf = t;
    if (!t->contiguous) {
        buf = mt_tensor_empty(t->dtype, t->ndim, t->sizes, mt_tensor_device(t));
        if (buf == NULL) {
            return mt_error_code();
        }
    }
    rc = fill(buf, j);
    if (rc == MT_OK && buf != t) {
        rc = mt_copy_(t, buf);
    }
    if (buf != t) {
        mt_tensor_decref(buf);
    }
    return rc;
}


int
mt_random_fill_(mt_tensor *t, mt_generator *g, mt_rand_dist dist, double a, double b)
{
    static const char *const kernel[] = {
        [MT_RAND_UNIFORM] = "check_uniform_bounds", [MT_RAND_NORMAL] = "normal_kernel_cpu",
        [MT_RAND_EXPONENTIAL] = "exponential_cpu",  [MT_RAND_CAUCHY] = "cauchy_cpu",
        [MT_RAND_LOG_NORMAL] = "log_normal_cpu",
    };
    bool needs_float = dist != MT_RAND_BERNOULLI && dist != MT_RAND_GEOMETRIC;
    if (needs_float && !mt_dtype_is_floating(t->dtype)) {
        return mt_error_set(MT_ENOTIMPL, "\"%s\" not implemented for '%s'", kernel[dist],
                            mt_dtype_scalar_name(t->dtype));
    }
    mt_random_job j = {.dist = dist, .a = a, .b = b};
    j.log_q = dist == MT_RAND_GEOMETRIC ? log1p(-a) : 0.0;
    j.wide = t->dtype == MT_FLOAT64 || !needs_float;
    j.mbits = t->dtype == MT_FLOAT16 ? 11 : t->dtype == MT_BFLOAT16 ? 8 : 24;
    return mt_random_run_fill(t, g, &j);
}

int
mt_random_int_(mt_tensor *t, mt_generator *g, int64_t from, uint64_t range)
{
    mt_random_job j = {.wide = true, .ints = true, .from = from, .range = range};
    return mt_random_run_fill(t, g, &j);
}

int
mt_bernoulli_tensor_(mt_tensor *t, mt_generator *g, const mt_tensor *p)
{
    mt_device_type dev;
    if (mt_check_same_device2(t, p, &dev) < 0) {
        return MT_ERUNTIME;
    }
    int (*bernoulli)(mt_tensor *, mt_generator *, const mt_tensor *) =
        MT_STUB(random, bernoulli_tensor, dev, "bernoulli_");
    if (bernoulli == NULL) {
        return MT_ENOTIMPL;
    }
    if (!mt_dtype_is_floating(p->dtype)) {
        return mt_error_set(MT_ENOTIMPL, "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'",
                            mt_dtype_scalar_name(p->dtype));
    }
    return bernoulli(t, g, p);
}

/* The cpu bernoulli_(p): p's values checked, then one fill reading them. */
static int
mt__cpu_bernoulli_tensor(mt_tensor *t, mt_generator *g, const mt_tensor *p)
{
    int rc;
    mt_tensor *e = mt_expand(p, t->ndim, t->sizes);
    if (e == NULL) {
        return mt_error_code();
    }
    mt_tensor *pd = mt_to_dtype(e, MT_FLOAT64, false);
    mt_tensor_decref(e);
    mt_tensor *pc = pd ? mt_contiguous(pd) : NULL;
    mt_tensor_decref(pd);
    if (pc == NULL) {
        return mt_error_code();
    }
    const double *pv = (const double *)mt_tensor_data(pc);
    for (int64_t i = 0; i < pc->numel; i++) {
        if (!(pv[i] >= 0.0 && pv[i] <= 1.0)) {
            mt_tensor_decref(pc);
            return mt_error_set(MT_ERUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.");
        }
    }
    mt_random_job j = {.dist = MT_RAND_BERNOULLI, .wide = true, .p = pv};
    rc = mt_random_run_fill(t, g, &j);
    mt_tensor_decref(pc);
    return rc;
}

/* The 64-bit draws of logical elements [begin, end) of a fill whose first
 * block is `base` (the layout of 64-bit fills): out[i - begin]. */
static void
mt__words_range(uint64_t key, uint64_t base, int64_t begin, int64_t end, uint64_t *out)
{
    uint32_t w[4 * MT__LANES];
    for (int64_t b0 = begin / MT__WIDE * MT__WIDE; b0 < end; b0 += MT__WIDE) {
        mt__philox_batch(key, base + (uint64_t)(b0 / MT__WIDE) * MT__LANES, w);
        int64_t lo = b0 < begin ? begin : b0;
        int64_t hi = b0 + MT__WIDE < end ? b0 + MT__WIDE : end;
        for (int64_t i = lo; i < hi; i++) {
            int e = (int)(i - b0);
            out[i - begin] = ((uint64_t)w[2 * e] << 32) | w[2 * e + 1];
        }
    }
}

/* Blocks to reserve for n 64-bit draws. */
static uint64_t
mt__wide_blocks(uint64_t n)
{
    return (n + MT__WIDE - 1) / MT__WIDE * MT__LANES;
}

typedef struct {
    uint64_t key, base;
    int64_t *k; /* randperm: k[i] uniform in [0, i] */
    const int64_t *perm;
    char *data;
    mt_dtype dt;
} mt__perm_job;

static void
mt__perm_draws(void *ctx, int64_t begin, int64_t end)
{
    mt__perm_job *j = ctx;
    uint64_t *w = (uint64_t *)(j->k + begin); /* same size: the draws are scaled in place */
    mt__words_range(j->key, j->base, begin, end, w);
    for (int64_t i = begin; i < end; i++) {
        j->k[i] = (int64_t)mt_rng_scale64(w[i - begin], (uint64_t)i + 1);
    }
}

static void
mt__perm_store(void *ctx, int64_t begin, int64_t end)
{
    mt__perm_job *j = ctx;
    for (int64_t i = begin; i < end; i += 4096) {
        int n = (int)(end - i < 4096 ? end - i : 4096);
        mt__store_ints(j->data, j->dt, i, j->perm + i, n);
    }
}

/* Note [Randperm]
 * Fisher-Yates from the top: step i swaps i with k[i], uniform in [0, i].
 * The draws k (64-bit, element i of the fill) are made in parallel first;
 * the swaps are sequential, so the permutation is a function of the draws
 * alone, whatever the thread count. */
mt_tensor *
mt_randperm(int64_t n, mt_dtype dt, mt_generator *g)
{
    if (n < 0) {
        mt_error_set(MT_ERUNTIME, "n must be non-negative, got%lld", (long long)n);
        return NULL;
    }
    if (n > 0 && dt != MT_INT64) {
        /* the largest value n - 1 must be representable (exactly, for floats) */
        double maxv = dt == MT_BOOL ? 1.0 : dt == MT_UINT8 ? 255.0 : dt == MT_INT8 ? 127.0
                    : dt == MT_INT16 ? 32767.0 : dt == MT_INT32 ? 2147483647.0
                    : dt == MT_FLOAT16 ? 2048.0 : dt == MT_BFLOAT16 ? 256.0
                    : dt == MT_FLOAT32 ? 16777216.0 : 9007199254740992.0;
        if ((double)(n - 1) > maxv) {
            mt_error_set(MT_ERUNTIME, "n is too large for result tensor type: '%s'",
                         mt_dtype_scalar_name(dt));
            return NULL;
        }
    }
    int64_t size = n;
    mt_tensor *r = mt_tensor_empty(dt, 1, &size, MT_DEVICE_CPU);
    int64_t *perm = r ? mt_malloc_array(n, sizeof(int64_t)) : NULL;
    int64_t *k = perm ? mt_malloc_array(n, sizeof(int64_t)) : NULL;
    if (k == NULL) {
        mt_tensor_decref(r);
        free(perm);
        return NULL;
    }
    mt__perm_job j = {.key = atomic_load(&g->seed), .k = k, .perm = perm,
                      .data = mt_tensor_data(r), .dt = dt};
    j.base = mt_generator_reserve(g, mt__wide_blocks((uint64_t)n));
    mt_parallel_for(0, n, MT_GRAIN_SIZE / 4, mt__perm_draws, &j);
    for (int64_t i = 0; i < n; i++) {
        perm[i] = i;
    }
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t tmp = perm[i];
        perm[i] = perm[k[i]];
        perm[k[i]] = tmp;
    }
    mt_parallel_for(0, n, MT_GRAIN_SIZE, mt__perm_store, &j);
    free(perm);
    free(k);
    return r;
}

/* Note [Poisson]
 * A Poisson draw takes a variable number of uniforms, so element i owns the
 * stream of blocks (counter = offset + i, counter_hi = 0, 1, 2, ...): two
 * 53-bit uniforms per block, as many blocks as it needs, while the offset
 * advances by one block per element.  Rates below 10 use Knuth's product of
 * uniforms (about rate + 1 of them); larger rates Hormann's transformed
 * rejection with squeeze (PTRS, 1993), about 1.2 blocks per draw. */
typedef struct {
    uint64_t key, base, hi;
    uint32_t w[4];
    int used; /* uniforms taken from w */
    int64_t i;
} mt__stream;

static double
mt__stream_u(mt__stream *s)
{
    if (s->used == 2) {
        mt_philox4x32(s->key, s->base + (uint64_t)s->i, s->hi++, s->w);
        s->used = 0;
    }
    int k = s->used++;
    return mt_rng_u53(s->w[2 * k], s->w[2 * k + 1]);
}

static double
mt__poisson_one(mt__stream *s, double lam)
{
    if (lam <= 0.0) {
        return 0.0;
    }
    if (lam < 10.0) {
        double limit = exp(-lam), p = 1.0;
        int64_t k = 0;
        for (;;) {
            p *= mt__stream_u(s);
            if (p <= limit) {
                return (double)k;
            }
            k++;
        }
    }
    double slam = sqrt(lam), loglam = log(lam);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
    for (;;) {
        double u = mt__stream_u(s) - 0.5, v = mt__stream_u(s);
        double us = 0.5 - fabs(u);
        double k = floor((2.0 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) {
            return k;
        }
        if (k < 0.0 || (us < 0.013 && v > us)) {
            continue;
        }
        int sign;
        if (log(v) + log(inv_alpha) - log(a / (us * us) + b) <=
            -lam + k * loglam - lgamma_r(k + 1.0, &sign)) {
            return k;
        }
    }
}

typedef struct {
    uint64_t key, base;
    const double *rate;
    char *data;
    mt_dtype dt;
} mt__poisson_job;

static void
mt__poisson_chunk(void *ctx, int64_t begin, int64_t end)
{
    const mt__poisson_job *j = ctx;
    double v[64];
    for (int64_t i0 = begin; i0 < end; i0 += 64) {
        int n = (int)(end - i0 < 64 ? end - i0 : 64);
        for (int e = 0; e < n; e++) {
            mt__stream s = {.key = j->key, .base = j->base, .used = 2, .i = i0 + e};
            v[e] = mt__poisson_one(&s, j->rate[i0 + e]);
        }
        mt__store_doubles(j->data, j->dt, i0, v, n);
    }
}

mt_tensor *
mt_poisson(const mt_tensor *rates, mt_generator *g)
{
    mt_tensor *(*poisson)(const mt_tensor *, mt_generator *) =
        MT_STUB(random, poisson, mt_tensor_device(rates).type, "poisson");
    if (poisson == NULL) {
        return NULL;
    }
    if (!mt_dtype_is_floating(rates->dtype)) {
        mt_error_set(MT_ENOTIMPL, "\"poisson_cpu\" not implemented for '%s'",
                     mt_dtype_scalar_name(rates->dtype));
        return NULL;
    }
    return poisson(rates, g);
}

/* The cpu poisson: rates checked, one stream of blocks per element (Note [Poisson]). */
static mt_tensor *
mt__cpu_poisson(const mt_tensor *rates, mt_generator *g)
{
    mt_tensor *rd = mt_to_dtype((mt_tensor *)rates, MT_FLOAT64, false);
    mt_tensor *rc = rd ? mt_contiguous(rd) : NULL;
    mt_tensor_decref(rd);
    if (rc == NULL) {
        return NULL;
    }
    const double *rate = (const double *)mt_tensor_data(rc);
    for (int64_t i = 0; i < rc->numel; i++) {
        if (!(rate[i] >= 0.0) || isinf(rate[i])) {
            mt_tensor_decref(rc);
            mt_error_set(MT_ERUNTIME, "invalid Poisson rate, expected rate to be non-negative and finite");
            return NULL;
        }
    }
    mt_tensor *out = mt_tensor_empty(rates->dtype, rates->ndim, rates->sizes, MT_DEVICE_CPU);
    if (out == NULL) {
        mt_tensor_decref(rc);
        return NULL;
    }
    mt__poisson_job j = {.key = atomic_load(&g->seed), .rate = rate, .data = mt_tensor_data(out),
                         .dt = rates->dtype};
    j.base = mt_generator_reserve(g, (uint64_t)rc->numel);
    mt_parallel_for(0, rc->numel, MT_GRAIN_SIZE / 32, mt__poisson_chunk, &j);
    mt_tensor_decref(rc);
    return out;
}

/* Note [Multinomial]
 * Weights are read as doubles.  With replacement, each draw is an inverse-CDF
 * lookup: the first category whose running sum exceeds u * total; a category
 * of weight zero adds nothing to the running sum, so it is never the first to
 * exceed it.  Without replacement, each category gets the key w / E with E ~
 * Exp(1) (the exponential form of the Gumbel-top-k trick, as torch) and the n
 * largest keys win, ties to the lower index; zero weights have key 0 and only
 * lose, and asking for more draws than there are positive weights is an
 * error.  Draw s of row r reads logical element r * n + s (with replacement)
 * or r * categories + c (without), so rows run in parallel with the same
 * result for any thread count. */
typedef struct {
    const double *w;
    int64_t ncat, n;
    bool replacement;
    uint64_t key, base;
    int64_t *out;
    _Atomic int err; /* a row failed to allocate */
} mt__mn_job;

typedef struct {
    double k;
    int64_t i;
} mt__keyed;

static int
mt__keyed_cmp(const void *pa, const void *pb)
{
    const mt__keyed *a = pa, *b = pb;
    if (a->k != b->k) {
        return a->k > b->k ? -1 : 1;
    }
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Whether a ranks before b: larger key first, then lower index. */
static inline bool
mt__keyed_before(mt__keyed a, mt__keyed b)
{
    return a.k > b.k || (a.k == b.k && a.i < b.i);
}

/* The n first of keys[0, c) in rank order into top[0, n): insertion into a
 * sorted buffer when n is small next to c, else a full sort of keys. */
static void
mt__top_n(mt__keyed *keys, int64_t c, int64_t n, mt__keyed *top)
{
    if (n * 16 > c) {
        qsort(keys, (size_t)c, sizeof(mt__keyed), mt__keyed_cmp);
        memcpy(top, keys, sizeof(mt__keyed) * (size_t)n);
        return;
    }
    int64_t len = 0;
    for (int64_t k = 0; k < c; k++) {
        if (len == n && !mt__keyed_before(keys[k], top[n - 1])) {
            continue;
        }
        int64_t pos = len < n ? len++ : n - 1;
        while (pos > 0 && mt__keyed_before(keys[k], top[pos - 1])) {
            top[pos] = top[pos - 1];
            pos--;
        }
        top[pos] = keys[k];
    }
}

static void
mt__mn_rows(void *ctx, int64_t begin, int64_t end)
{
    mt__mn_job *j = ctx;
    int64_t c = j->ncat, n = j->n;
    int64_t per_row = j->replacement ? n : c;
    uint64_t *bits = mt_malloc_array(per_row, sizeof(uint64_t));
    double *cdf = j->replacement ? mt_malloc_array(c, sizeof(double)) : NULL;
    mt__keyed *keys = j->replacement ? NULL : mt_malloc_array(c + n, sizeof(mt__keyed));
    if (bits == NULL || (cdf == NULL && keys == NULL)) {
        free(bits);
        free(cdf);
        free(keys);
        j->err = 1;
        return;
    }
    for (int64_t r = begin; r < end; r++) {
        const double *w = j->w + r * c;
        int64_t *out = j->out + r * n;
        mt__words_range(j->key, j->base, r * per_row, (r + 1) * per_row, bits);
        if (j->replacement) {
            double acc = 0.0;
            int64_t last = 0;
            for (int64_t k = 0; k < c; k++) {
                acc += w[k];
                cdf[k] = acc;
                if (w[k] > 0.0) {
                    last = k;
                }
            }
            for (int64_t s = 0; s < n; s++) {
                double target = (double)(bits[s] >> 11) * 0x1.0p-53 * acc;
                int64_t lo = 0, hi = last; /* first k with cdf[k] > target, at most last */
                while (lo < hi) {
                    int64_t mid = lo + (hi - lo) / 2;
                    if (cdf[mid] > target) {
                        hi = mid;
                    }
                    else {
                        lo = mid + 1;
                    }
                }
                out[s] = lo;
            }
        }
        else {
            for (int64_t k = 0; k < c; k++) {
                double e = -log((double)((bits[k] >> 11) + 1) * 0x1.0p-53); /* Exp(1), >= 0 */
                keys[k].k = w[k] > 0.0 ? w[k] / (e > 0.0 ? e : 0x1.0p-60) : 0.0;
                keys[k].i = k;
            }
            mt__keyed *top = keys + c;
            mt__top_n(keys, c, n, top);
            for (int64_t s = 0; s < n; s++) {
                out[s] = top[s].i;
            }
        }
    }
    free(bits);
    free(cdf);
    free(keys);
}

static mt_tensor *mt__cpu_multinomial(const mt_tensor *probs, int64_t ncat, int64_t rows,
                                      int64_t n, bool replacement, mt_generator *g);

mt_tensor *
mt_multinomial(const mt_tensor *probs, int64_t n, bool replacement, mt_generator *g)
{
    mt_tensor *(*multinomial)(const mt_tensor *, int64_t, int64_t, int64_t, bool, mt_generator *) =
        MT_STUB(random, multinomial, mt_tensor_device(probs).type, "multinomial");
    if (multinomial == NULL) {
        return NULL;
    }
    if (probs->ndim != 1 && probs->ndim != 2) {
        mt_error_set(MT_ERUNTIME, "prob_dist must be 1 or 2 dim");
        return NULL;
    }
    if (!mt_dtype_is_floating(probs->dtype)) {
        mt_error_set(MT_ERUNTIME, "multinomial only supports floating-point dtypes for input, got: %s",
                     mt_dtype_scalar_name(probs->dtype));
        return NULL;
    }
    int64_t ncat = probs->sizes[probs->ndim - 1];
    int64_t rows = probs->ndim == 2 ? probs->sizes[0] : 1;
    if (n <= 0) {
        mt_error_set(MT_ERUNTIME, "cannot sample n_sample <= 0 samples");
        return NULL;
    }
    if (!replacement && n > ncat) {
        mt_error_set(MT_ERUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
        return NULL;
    }
    if (ncat > (INT64_C(1) << 24)) {
        mt_error_set(MT_ERUNTIME, "number of categories cannot exceed 2^24");
        return NULL;
    }
    return multinomial(probs, ncat, rows, n, replacement, g);
}

/* The cpu multinomial: weights checked row by row, then the rows drawn in parallel. */
static mt_tensor *
mt__cpu_multinomial(const mt_tensor *probs, int64_t ncat, int64_t rows, int64_t n,
                    bool replacement, mt_generator *g)
{
    mt_tensor *pd = mt_to_dtype((mt_tensor *)probs, MT_FLOAT64, false);
    mt_tensor *pc = pd ? mt_contiguous(pd) : NULL;
    mt_tensor_decref(pd);
    if (pc == NULL) {
        return NULL;
    }
    const double *w = (const double *)mt_tensor_data(pc);
    for (int64_t r = 0; r < rows; r++) {
        double sum = 0.0;
        int64_t positive = 0;
        for (int64_t k = 0; k < ncat; k++) {
            double v = w[r * ncat + k];
            if (!(v >= 0.0) || isinf(v)) {
                mt_tensor_decref(pc);
                mt_error_set(MT_ERUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
                return NULL;
            }
            sum += v;
            positive += v > 0.0;
        }
        if (!(sum > 0.0)) {
            mt_tensor_decref(pc);
            mt_error_set(MT_ERUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
            return NULL;
        }
        if (!replacement && positive < n) {
            mt_tensor_decref(pc);
            mt_error_set(MT_ERUNTIME, "invalid multinomial distribution (with replacement=False, "
                                      "not enough non-negative category to sample)");
            return NULL;
        }
    }
    int64_t osizes[2] = {rows, n};
    mt_tensor *out = mt_tensor_empty(MT_INT64, probs->ndim, probs->ndim == 2 ? osizes : osizes + 1,
                                     MT_DEVICE_CPU);
    if (out == NULL) {
        mt_tensor_decref(pc);
        return NULL;
    }
    uint64_t per_row = (uint64_t)(replacement ? n : ncat);
    mt__mn_job j = {.w = w, .ncat = ncat, .n = n, .replacement = replacement,
                    .key = atomic_load(&g->seed), .out = (int64_t *)mt_tensor_data(out)};
    j.base = mt_generator_reserve(g, mt__wide_blocks((uint64_t)rows * per_row));
    int64_t work = ncat + n;
    mt_parallel_for(0, rows, work >= MT_GRAIN_SIZE ? 1 : MT_GRAIN_SIZE / work, mt__mn_rows, &j);
    mt_tensor_decref(pc);
    if (j.err) {
        mt_tensor_decref(out);
        mt_error_set(MT_ENOMEM, "multinomial: out of memory");
        return NULL;
    }
    return out;
}

/* ---- the cpu random kernels (see Note [Kernel stubs]) ---- */

static int
mt__cpu_random_fill(mt_tensor *t, const mt_random_job *job)
{
    mt_random_job j = *job;
    j.data = mt_tensor_data(t);
    mt_parallel_for(0, t->numel, MT_GRAIN_SIZE / 8, j.ints ? mt__int_chunk : mt__fill_chunk, &j);
    return MT_OK;
}

static const mt_random_kernels mt__cpu_random_kernels = {
    .fill = mt__cpu_random_fill,
    .bernoulli_tensor = mt__cpu_bernoulli_tensor,
    .poisson = mt__cpu_poisson,
    .multinomial = mt__cpu_multinomial,
};

void
mt__cpu_random_register(void)
{
    MT_REGISTER_STUB(random, MT_CPU, &mt__cpu_random_kernels);
}
