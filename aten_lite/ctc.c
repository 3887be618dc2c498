/* aten_lite/ctc.c - connectionist temporal classification loss: the alpha recursion and its gradient. */
#include "aten_lite/ctc.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/checked.h"
#include "c10_lite/error.h"

/* Note [CTC in log space]
 * A target l of length L is extended with blanks, l' = (blank, l1, blank, l2, ..., lL, blank),
 * S = 2L + 1 states.  alpha_t(s) is the log probability of the paths through the first t + 1
 * inputs that end in state s:
 *     alpha_0(0) = lp_0(blank), alpha_0(1) = lp_0(l1), alpha_0(s > 1) = -inf
 *     alpha_t(s) = logsumexp(alpha_{t-1}(s), alpha_{t-1}(s - 1), alpha_{t-1}(s - 2)) + lp_t(l'_s)
 * where the s - 2 term is taken only when l'_s is a label different from l'_{s-2} (a path
 * may skip a blank between two different labels only).  The likelihood of l sums the paths
 * ending in the last label or the last blank: logsumexp(alpha_{T-1}(S - 1), alpha_{T-1}(S - 2))
 * (the one state of an empty target).  beta runs the same recursion backwards from the end,
 * beta_{T-1}(S - 1) = lp(blank), beta_{T-1}(S - 2) = lp(lL), and alpha_t(s) + beta_t(s) - lp_t(l'_s)
 * is the log probability of the paths through state s at time t.  Each logsumexp subtracts
 * its largest term first (0 when every term is -inf), in the element type.  Items of the batch
 * are independent and spread over the thread pool; each walks its own input length only.
 *
 * Note [CTC gradient]
 * d(-log p)/d lp_t(c) = -exp(log(sum over the states s of label c of alpha_t(s) beta_t(s)) +
 * nll - 2 lp_t(c))... times lp's own derivative; torch's ctc_loss returns instead
 *     exp(lp_t(c)) - exp(log(sum_s alpha_t(s) beta_t(s)) + nll - lp_t(c))
 * which is the gradient with respect to the logits when log_probs is their log_softmax (the
 * first term is then what log_softmax's backward adds): the rows sum to zero, and a
 * log_softmax in front leaves it unchanged.  minitorch returns the same, as its results must
 * equal torch's. */

typedef struct {
    const char *lp;         /* (T, N, C) contiguous */
    const int64_t *targets; /* contiguous */
    const int64_t *offset;  /* per item: where its target starts in targets */
    const int64_t *in_len;
    const int64_t *tg_len;
    int64_t T, N, C, blank;
    int64_t width;          /* 2 * max target length + 1: log_alpha's last dim */
    char *nll;              /* (N,) */
    char *alpha;            /* (N, T, width), -inf filled */
    const char *grad_out;   /* (N,), backward only */
    const char *nll_in;
    char *grad;             /* (T, N, C) */
    bool zero_infinity;
    atomic_int err;
} mt__ctc_job;

static inline int64_t
mt__ctc_label(const int64_t *tg, int64_t s, int64_t blank)
{
    return (s & 1) ? tg[s >> 1] : blank;
}

#define MT__CTC_KERNELS(T_, EXP, LOG, FWD, BWD)                                                   \
    static inline T_ FWD##_lse3(T_ a, T_ b, T_ c)                                                 \
    {                                                                                             \
        T_ m = a;                                                                                 \
        if (b > m) {                                                                              \
            m = b;                                                                                \
        }                                                                                         \
        if (c > m) {                                                                              \
            m = c;                                                                                \
        }                                                                                         \
        if (m == -INFINITY) {                                                                     \
            m = 0;                                                                                \
        }                                                                                         \
        return LOG(EXP(a - m) + EXP(b - m) + EXP(c - m)) + m;                                     \
    }                                                                                             \
                                                                                                  \
    static void FWD(void *ctx, int64_t begin, int64_t end)                                        \
    {                                                                                             \
        mt__ctc_job *j = ctx;                                                                     \
        const T_ *lp = (const T_ *)j->lp;                                                         \
        int64_t N = j->N, C = j->C, W = j->width, blank = j->blank;                               \
        for (int64_t b = begin; b < end; b++) {                                                   \
            int64_t tb = j->in_len[b], L = j->tg_len[b], S = 2 * L + 1;                           \
            const int64_t *tg = j->targets + j->offset[b];                                        \
            T_ *la = (T_ *)j->alpha + b * j->T * W;                                               \
            T_ *out = (T_ *)j->nll + b;                                                           \
            if (tb == 0) {                                                                        \
                *out = L == 0 ? -(T_)0 : (T_)INFINITY;                                            \
                continue;                                                                         \
            }                                                                                     \
            la[0] = lp[b * C + blank];                                                            \
            if (L > 0) {                                                                          \
                la[1] = lp[b * C + tg[0]];                                                        \
            }                                                                                     \
            for (int64_t t = 1; t < tb; t++) {                                                    \
                const T_ *prev = la + (t - 1) * W;                                                \
                T_ *cur = la + t * W;                                                             \
                const T_ *row = lp + (t * N + b) * C;                                             \
                for (int64_t s = 0; s < S; s++) {                                                 \
                    int64_t lab = mt__ctc_label(tg, s, blank);                                    \
                    T_ a2 = s > 0 ? prev[s - 1] : (T_)-INFINITY;                                  \
                    T_ a3 = (s & 1) && s > 1 && tg[(s >> 1) - 1] != lab ? prev[s - 2]             \
                                                                        : (T_)-INFINITY;          \
                    cur[s] = FWD##_lse3(prev[s], a2, a3) + row[lab];                              \
                }                                                                                 \
            }                                                                                     \
            const T_ *last = la + (tb - 1) * W;                                                   \
            *out = -(L == 0 ? last[0] : FWD##_lse3(last[S - 1], last[S - 2], (T_)-INFINITY));     \
        }                                                                                         \
    }                                                                                             \
                                                                                                  \
    /* acc = log(exp(acc) + exp(v)) */                                                            \
    static inline void BWD##_logadd(T_ *acc, T_ v)                                                \
    {                                                                                             \
        if (v == -INFINITY) {                                                                     \
            return;                                                                               \
        }                                                                                         \
        if (*acc == -INFINITY) {                                                                  \
            *acc = v;                                                                             \
            return;                                                                               \
        }                                                                                         \
        T_ m = *acc > v ? *acc : v;                                                               \
        *acc = LOG(EXP(*acc - m) + EXP(v - m)) + m;                                               \
    }                                                                                             \
                                                                                                  \
    static void BWD(void *ctx, int64_t begin, int64_t end)                                        \
    {                                                                                             \
        mt__ctc_job *j = ctx;                                                                     \
        const T_ *lp = (const T_ *)j->lp;                                                         \
        int64_t N = j->N, C = j->C, W = j->width, blank = j->blank;                               \
        T_ *beta = mt_malloc_array(2 * W, sizeof(T_));                                            \
        if (beta == NULL) {                                                                       \
            atomic_store(&j->err, MT_ENOMEM);                                                     \
            return;                                                                               \
        }                                                                                         \
        for (int64_t b = begin; b < end; b++) {                                                   \
            int64_t tb = j->in_len[b], L = j->tg_len[b], S = 2 * L + 1;                           \
            const int64_t *tg = j->targets + j->offset[b];                                        \
            const T_ *la = (const T_ *)j->alpha + b * j->T * W;                                   \
            T_ nll = ((const T_ *)j->nll_in)[b], gr = ((const T_ *)j->grad_out)[b];               \
            T_ *g = (T_ *)j->grad;                                                                \
            if (j->zero_infinity && nll == (T_)INFINITY) {                                        \
                tb = 0; /* no gradient: every row zeroed below */                                 \
            }                                                                                     \
            for (int64_t t = 0; t < tb; t++) {                                                    \
                T_ *row = g + (t * N + b) * C;                                                    \
                for (int64_t c = 0; c < C; c++) {                                                 \
                    row[c] = (T_)-INFINITY;                                                       \
                }                                                                                 \
            }                                                                                     \
            T_ *next = beta, *cur = beta + W;                                                     \
            for (int64_t t = tb - 1; t >= 0; t--) {                                               \
                const T_ *lrow = lp + (t * N + b) * C;                                            \
                T_ *row = g + (t * N + b) * C;                                                    \
                for (int64_t s = S - 1; s >= 0; s--) {                                            \
                    int64_t lab = mt__ctc_label(tg, s, blank);                                    \
                    if (t == tb - 1) {                                                            \
                        cur[s] = s >= S - 2 ? lrow[lab] : (T_)-INFINITY;                          \
                    }                                                                             \
                    else {                                                                        \
                        T_ b2 = s < S - 1 ? next[s + 1] : (T_)-INFINITY;                          \
                        T_ b3 = (s & 1) && s < S - 2 && tg[(s >> 1) + 1] != lab ? next[s + 2]     \
                                                                                : (T_)-INFINITY;  \
                        cur[s] = FWD##_lse3(next[s], b2, b3) + lrow[lab];                         \
                    }                                                                             \
                    BWD##_logadd(&row[lab], la[t * W + s] + cur[s]);                              \
                }                                                                                 \
                T_ *swap = next;                                                                  \
                next = cur;                                                                       \
                cur = swap;                                                                       \
            }                                                                                     \
            for (int64_t t = 0; t < j->T; t++) {                                                  \
                const T_ *lrow = lp + (t * N + b) * C;                                            \
                T_ *row = g + (t * N + b) * C;                                                    \
                for (int64_t c = 0; c < C; c++) {                                                 \
                    row[c] = t < tb ? (EXP(lrow[c]) - EXP(row[c] + nll - lrow[c])) * gr : (T_)0;  \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        free(beta);                                                                               \
    }

MT__CTC_KERNELS(float, expf, logf, mt__ctc_forward_f32, mt__ctc_backward_f32)
MT__CTC_KERNELS(double, exp, log, mt__ctc_forward_f64, mt__ctc_backward_f64)

/* The checked arguments of both directions: contiguous operands (new references, released
 * by mt__ctc_release) and each item's target offset (malloc'd). */
typedef struct {
    mt_tensor *lp, *targets, *in_len, *tg_len;
    int64_t *offset;
    int64_t max_target;
} mt__ctc_args;

static void
mt__ctc_release(mt__ctc_args *a)
{
    mt_tensor_decref(a->lp);
    mt_tensor_decref(a->targets);
    mt_tensor_decref(a->in_len);
    mt_tensor_decref(a->tg_len);
    free(a->offset);
}

static int
mt__ctc_prepare(const mt_tensor *log_probs, const mt_tensor *targets,
                const mt_tensor *input_lengths, const mt_tensor *target_lengths, int64_t blank,
                mt__ctc_args *a)
{
    *a = (mt__ctc_args){0};
    if (log_probs->ndim != 3 || (log_probs->dtype != MT_FLOAT32 && log_probs->dtype != MT_FLOAT64)) {
        return mt_error_set(MT_ERUNTIME, "ctc_loss: log_probs must be a 3-d float32 or float64 "
                                         "tensor (T, N, C)");
    }
    if (targets->dtype != MT_INT64 || targets->ndim < 1 || targets->ndim > 2 ||
        input_lengths->dtype != MT_INT64 || input_lengths->ndim != 1 ||
        target_lengths->dtype != MT_INT64 || target_lengths->ndim != 1) {
        return mt_error_set(MT_ERUNTIME, "ctc_loss: targets and lengths must be int64 tensors "
                                         "(targets 1-d or 2-d, lengths 1-d)");
    }
    int64_t T = log_probs->sizes[0], N = log_probs->sizes[1], C = log_probs->sizes[2];
    if (blank < 0 || blank >= C) {
        return mt_error_set(MT_ERUNTIME, "blank must be in label range");
    }
    if (input_lengths->sizes[0] != N) {
        return mt_error_set(MT_ERUNTIME, "input_lengths must be of size batch_size");
    }
    if (target_lengths->sizes[0] != N) {
        return mt_error_set(MT_ERUNTIME, "target_lengths must be of size batch_size");
    }
    a->lp = mt_contiguous((mt_tensor *)log_probs);
    a->targets = a->lp ? mt_contiguous((mt_tensor *)targets) : NULL;
    a->in_len = a->targets ? mt_contiguous((mt_tensor *)input_lengths) : NULL;
    a->tg_len = a->in_len ? mt_contiguous((mt_tensor *)target_lengths) : NULL;
    a->offset = a->tg_len ? mt_malloc_array(N > 0 ? N : 1, sizeof(int64_t)) : NULL;
    if (a->offset == NULL) {
        mt__ctc_release(a);
        return mt_error_code() ? mt_error_code() : MT_ENOMEM;
    }
    const int64_t *il = (const int64_t *)mt_tensor_data(a->in_len);
    const int64_t *tl = (const int64_t *)mt_tensor_data(a->tg_len);
    const int64_t *tg = (const int64_t *)mt_tensor_data(a->targets);
    int64_t pos = 0, row = targets->ndim == 2 ? targets->sizes[1] : 0;
    int rc = MT_OK;
    for (int64_t b = 0; b < N && rc == MT_OK; b++) {
        if (il[b] < 0 || il[b] > T) {
            rc = mt_error_set(MT_ERUNTIME, "ctc_loss: input_lengths[%lld] = %lld is not in [0, %lld]",
                              (long long)b, (long long)il[b], (long long)T);
        }
        else if (tl[b] < 0 || (targets->ndim == 2 && tl[b] > row) ||
                 (targets->ndim == 1 && tl[b] > targets->sizes[0] - pos)) {
            rc = mt_error_set(MT_ERUNTIME, "ctc_loss: target_lengths[%lld] = %lld does not fit the "
                              "targets", (long long)b, (long long)tl[b]);
        }
        else {
            a->offset[b] = targets->ndim == 2 ? b * row : pos;
            pos += tl[b];
            a->max_target = tl[b] > a->max_target ? tl[b] : a->max_target;
            for (int64_t i = 0; i < tl[b]; i++) {
                int64_t v = tg[a->offset[b] + i];
                if (v < 0 || v >= C) {
                    rc = mt_error_set(MT_ERUNTIME, "ctc_loss: target label %lld of item %lld is "
                                      "not in [0, %lld)", (long long)v, (long long)b, (long long)C);
                    break;
                }
            }
        }
    }
    if (rc == MT_OK && targets->ndim == 2 && targets->sizes[0] != N) {
        rc = mt_error_set(MT_ERUNTIME, "ctc_loss: padded targets must have one row per item");
    }
    if (rc == MT_OK && targets->ndim == 1 && pos != targets->sizes[0]) {
        rc = mt_error_set(MT_ERUNTIME, "ctc_loss: the target lengths sum to %lld, but targets has "
                          "%lld labels", (long long)pos, (long long)targets->sizes[0]);
    }
    if (rc != MT_OK) {
        mt__ctc_release(a);
    }
    return rc;
}

static mt__ctc_job
mt__ctc_job_of(const mt__ctc_args *a, int64_t blank)
{
    return (mt__ctc_job){
        .lp = mt_tensor_data(a->lp),
        .targets = (const int64_t *)mt_tensor_data(a->targets),
        .offset = a->offset,
        .in_len = (const int64_t *)mt_tensor_data(a->in_len),
        .tg_len = (const int64_t *)mt_tensor_data(a->tg_len),
        .T = a->lp->sizes[0],
        .N = a->lp->sizes[1],
        .C = a->lp->sizes[2],
        .blank = blank,
        .width = 2 * a->max_target + 1,
    };
}

static int
mt__cpu_ctc_loss(const mt_tensor *log_probs, const mt_tensor *targets,
                 const mt_tensor *input_lengths, const mt_tensor *target_lengths, int64_t blank,
                 mt_tensor **neg_log_likelihood, mt_tensor **log_alpha)
{
    mt__ctc_args a;
    int rc = mt__ctc_prepare(log_probs, targets, input_lengths, target_lengths, blank, &a);
    if (rc < 0) {
        return rc;
    }
    mt__ctc_job j = mt__ctc_job_of(&a, blank);
    mt_device dev = mt_tensor_device(log_probs);
    int64_t nsz[1] = {j.N}, asz[3] = {j.N, j.T, j.width};
    mt_tensor *nll = mt_tensor_empty(log_probs->dtype, 1, nsz, dev);
    mt_tensor *alpha = nll ? mt_tensor_empty(log_probs->dtype, 3, asz, dev) : NULL;
    if (alpha == NULL || mt_fill_(alpha, mt_scalar_float(-INFINITY)) < 0) {
        mt_tensor_decref(nll);
        mt_tensor_decref(alpha);
        mt__ctc_release(&a);
        return mt_error_code();
    }
    j.nll = mt_tensor_data(nll);
    j.alpha = mt_tensor_data(alpha);
    mt_parallel_for(0, j.N, 1, log_probs->dtype == MT_FLOAT32 ? mt__ctc_forward_f32
                                                               : mt__ctc_forward_f64, &j);
    mt__ctc_release(&a);
    *neg_log_likelihood = nll;
    *log_alpha = alpha;
    return MT_OK;
}

static mt_tensor *
mt__cpu_ctc_loss_backward(const mt_tensor *grad, const mt_tensor *log_probs,
                          const mt_tensor *targets, const mt_tensor *input_lengths,
                          const mt_tensor *target_lengths, const mt_tensor *neg_log_likelihood,
                          const mt_tensor *log_alpha, int64_t blank, bool zero_infinity)
{
    mt__ctc_args a;
    if (mt__ctc_prepare(log_probs, targets, input_lengths, target_lengths, blank, &a) < 0) {
        return NULL;
    }
    mt__ctc_job j = mt__ctc_job_of(&a, blank);
    mt_dtype dt = log_probs->dtype;
    mt_tensor *g = NULL, *nll = NULL, *alpha = NULL, *out = NULL;
    if (grad->dtype != dt || neg_log_likelihood->dtype != dt || log_alpha->dtype != dt ||
        grad->ndim > 1 || grad->numel != j.N || neg_log_likelihood->numel != j.N ||
        log_alpha->ndim != 3 || log_alpha->sizes[0] != j.N || log_alpha->sizes[1] != j.T ||
        log_alpha->sizes[2] != j.width) {
        mt_error_set(MT_ERUNTIME, "_ctc_loss_backward: grad, neg_log_likelihood and log_alpha must "
                     "be those of the forward call (dtype %s, %lld items)", mt_dtype_name(dt),
                     (long long)j.N);
        goto done;
    }
    g = mt_contiguous((mt_tensor *)grad);
    nll = g ? mt_contiguous((mt_tensor *)neg_log_likelihood) : NULL;
    alpha = nll ? mt_contiguous((mt_tensor *)log_alpha) : NULL;
    out = alpha ? mt_tensor_empty(dt, 3, a.lp->sizes, mt_tensor_device(log_probs)) : NULL;
    if (out == NULL) {
        goto done;
    }
    j.grad_out = mt_tensor_data(g);
    j.nll_in = mt_tensor_data(nll);
    j.alpha = mt_tensor_data(alpha);
    j.grad = mt_tensor_data(out);
    j.zero_infinity = zero_infinity;
    atomic_init(&j.err, MT_OK);
    mt_parallel_for(0, j.N, 1, dt == MT_FLOAT32 ? mt__ctc_backward_f32 : mt__ctc_backward_f64, &j);
    if (atomic_load(&j.err) != MT_OK) {
        mt_error_set(atomic_load(&j.err), "_ctc_loss_backward: out of memory");
        mt_tensor_decref(out);
        out = NULL;
    }
done:
    mt_tensor_decref(g);
    mt_tensor_decref(nll);
    mt_tensor_decref(alpha);
    mt__ctc_release(&a);
    return out;
}

/* ---- the device-neutral entry points and the cpu table (see Note [Kernel stubs]) ---- */

static const mt_loss_kernels mt__cpu_loss_kernels = {
    .ctc_loss = mt__cpu_ctc_loss,
    .ctc_loss_backward = mt__cpu_ctc_loss_backward,
};

void
mt__cpu_loss_register(void)
{
    MT_REGISTER_STUB(loss, MT_CPU, &mt__cpu_loss_kernels);
}

int
mt_ctc_loss(const mt_tensor *log_probs, const mt_tensor *targets,
            const mt_tensor *input_lengths, const mt_tensor *target_lengths, int64_t blank,
            mt_tensor **neg_log_likelihood, mt_tensor **log_alpha)
{
    const mt_tensor *ts[4] = {log_probs, targets, input_lengths, target_lengths};
    mt_device_type dev;
    if (mt_check_same_device(4, ts, &dev) < 0) {
        return MT_ERUNTIME;
    }
    int (*kernel)(const mt_tensor *, const mt_tensor *, const mt_tensor *, const mt_tensor *,
                  int64_t, mt_tensor **, mt_tensor **) = MT_STUB(loss, ctc_loss, dev, "_ctc_loss");
    return kernel == NULL ? MT_ENOTIMPL
                          : kernel(log_probs, targets, input_lengths, target_lengths, blank,
                                   neg_log_likelihood, log_alpha);
}

mt_tensor *
mt_ctc_loss_backward(const mt_tensor *grad, const mt_tensor *log_probs,
                     const mt_tensor *targets, const mt_tensor *input_lengths,
                     const mt_tensor *target_lengths, const mt_tensor *neg_log_likelihood,
                     const mt_tensor *log_alpha, int64_t blank, bool zero_infinity)
{
    const mt_tensor *ts[7] = {grad, log_probs, targets, input_lengths, target_lengths,
                              neg_log_likelihood, log_alpha};
    mt_device_type dev;
    if (mt_check_same_device(7, ts, &dev) < 0) {
        return NULL;
    }
    mt_tensor *(*kernel)(const mt_tensor *, const mt_tensor *, const mt_tensor *,
                         const mt_tensor *, const mt_tensor *, const mt_tensor *,
                         const mt_tensor *, int64_t, bool) =
        MT_STUB(loss, ctc_loss_backward, dev, "_ctc_loss_backward");
    return kernel == NULL ? NULL
                          : kernel(grad, log_probs, targets, input_lengths, target_lengths,
                                   neg_log_likelihood, log_alpha, blank, zero_infinity);
}
