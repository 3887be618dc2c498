/* aten_lite/optim.c - optimizer updates fused into one pass over a parameter (Note [Fused Adam]). */
#include "aten_lite/optim.h"

#include <math.h>

#include "aten_lite/iter.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/optim_math.h"
#include "c10_lite/error.h"

/* A contiguous loop (X: amsgrad's maximum, unused without AMS). */
#define MT__ADAM_DENSE(T, SQRT, K, L2, LOW, AMS)                                                 \
    for (int64_t i = 0; i < n; i++) {                                                             \
        T p = P[i], m = M[i], v = V[i], x = (AMS) ? X[i] : 0, g = G[i];                           \
        MT_ADAM_ELEM(T, SQRT, K, p, m, v, x, g, L2, LOW, AMS);                                   \
        P[i] = p;                                                                                 \
        M[i] = m;                                                                                 \
        V[i] = v;                                                                                 \
        if (AMS) {                                                                                \
            X[i] = x;                                                                             \
        }                                                                                         \
    }

/* The loops of one element type: eight contiguous ones (L2 x LOW x AMS) and a strided one. */
#define MT__ADAM_LOOP(T, SQRT, NAME)                                                              \
    typedef struct {                                                                              \
        MT_ADAM_CONSTANTS_FIELDS(T)                                                               \
    } NAME##_k;                                                                                   \
    static void NAME##_dense(const NAME##_k *kp, int64_t n, T *restrict P, T *restrict M,         \
                             T *restrict V, T *restrict X, const T *restrict G)                   \
    {                                                                                             \
        const NAME##_k kl = *kp, *k = &kl; /* a local: no store in the loop can change it */     \
        switch ((k->l2 ? 4 : 0) | (k->lerp_low ? 2 : 0) | (X != NULL ? 1 : 0)) {                 \
        case 0: MT__ADAM_DENSE(T, SQRT, k, 0, 0, 0) break;                                        \
        case 1: MT__ADAM_DENSE(T, SQRT, k, 0, 0, 1) break;                                        \
        case 2: MT__ADAM_DENSE(T, SQRT, k, 0, 1, 0) break;                                        \
        case 3: MT__ADAM_DENSE(T, SQRT, k, 0, 1, 1) break;                                        \
        case 4: MT__ADAM_DENSE(T, SQRT, k, 1, 0, 0) break;                                        \
        case 5: MT__ADAM_DENSE(T, SQRT, k, 1, 0, 1) break;                                        \
        case 6: MT__ADAM_DENSE(T, SQRT, k, 1, 1, 0) break;                                        \
        default: MT__ADAM_DENSE(T, SQRT, k, 1, 1, 1) break;                                       \
        }                                                                                         \
    }                                                                                             \
    static void NAME##_loop(char **data, const int64_t *n, const int64_t *strides, void *ctx)     \
    {                                                                                             \
        const NAME##_k *k = ctx;                                                                  \
        int nop = k->amsgrad ? 5 : 4, gi = nop - 1;                                               \
        bool dense = true;                                                                        \
        for (int i = 0; i < nop; i++) {                                                           \
            dense &= strides[i] == (int64_t)sizeof(T);                                            \
        }                                                                                         \
        if (dense) {                                                                              \
            NAME##_dense(k, n[0], (T *)data[0], (T *)data[1], (T *)data[2],                       \
                         k->amsgrad ? (T *)data[3] : NULL, (const T *)data[gi]);                  \
            return;                                                                               \
        }                                                                                         \
        char *pp = data[0], *pm = data[1], *pv = data[2], *px = k->amsgrad ? data[3] : NULL;      \
        const char *pg = data[gi];                                                                \
        for (int64_t i = 0; i < n[0]; i++) {                                                      \
            T p = *(T *)pp, m = *(T *)pm, v = *(T *)pv, g = *(const T *)pg;                       \
            T x = px != NULL ? *(T *)px : 0;                                                      \
            MT_ADAM_ELEM(T, SQRT, k, p, m, v, x, g, k->l2, k->lerp_low, px != NULL);             \
            *(T *)pp = p;                                                                         \
            *(T *)pm = m;                                                                         \
            *(T *)pv = v;                                                                         \
            if (px != NULL) {                                                                     \
                *(T *)px = x;                                                                     \
                px += strides[3];                                                                 \
            }                                                                                     \
            pp += strides[0];                                                                     \
            pm += strides[1];                                                                     \
            pv += strides[2];                                                                     \
            pg += strides[gi];                                                                    \
        }                                                                                         \
    }                                                                                             \
    static void NAME##_run(mt_iter *it, const mt_adam_hyper *h)                                   \
    {                                                                                             \
        NAME##_k k;                                                                               \
        MT_ADAM_CONSTANTS_SET(T, &k, h);                                                          \
        mt_iter_for_each(it, NAME##_loop, &k);                                                    \
    }

MT__ADAM_LOOP(float, __builtin_sqrtf, mt__adam_f32)
MT__ADAM_LOOP(double, __builtin_sqrt, mt__adam_f64)

/* The cpu Adam step: the iterator's runs through the loops above. */
static int
mt__cpu_adam_step(mt_iter *it, const mt_adam_hyper *h)
{
    if (it->tensors[0]->dtype == MT_FLOAT32) {
        mt__adam_f32_run(it, h);
    }
    else {
        mt__adam_f64_run(it, h);
    }
    return MT_OK;
}

static const mt_optim_kernels mt__cpu_optim_kernels = {.adam_step = mt__cpu_adam_step};

void
mt__cpu_optim_register(void)
{
    MT_REGISTER_STUB(optim, MT_CPU, &mt__cpu_optim_kernels);
}

int
mt_adam_step_(mt_tensor *param, const mt_tensor *grad, mt_tensor *exp_avg,
              mt_tensor *exp_avg_sq, mt_tensor *max_exp_avg_sq, const mt_adam_hyper *h)
{
    mt_dtype dt = param->dtype;
    if (dt != MT_FLOAT32 && dt != MT_FLOAT64) {
        return mt_error_set(MT_EINVAL, "fused Adam step: float32 or float64 parameters only");
    }
    int (*kernel)(mt_iter *, const mt_adam_hyper *) =
        MT_STUB_TRY(optim, adam_step, mt_tensor_device(param).type);
    if (kernel == NULL) {
        return mt_error_set(MT_EINVAL, "fused Adam step: no kernel for the parameter's device");
    }
    const mt_tensor *all[] = {grad, exp_avg, exp_avg_sq, max_exp_avg_sq};
    int nall = h->amsgrad ? 4 : 3;
    if (h->amsgrad && max_exp_avg_sq == NULL) {
        return mt_error_set(MT_EINVAL, "fused Adam step: amsgrad needs max_exp_avg_sq");
    }
    for (int i = 0; i < nall; i++) {
        const mt_tensor *t = all[i];
        if (t->dtype != dt || t->ndim != param->ndim ||
            !mt_device_eq(mt_tensor_device(t), mt_tensor_device(param))) {
            return mt_error_set(MT_EINVAL, "fused Adam step: the state and gradient must have "
                                "the parameter's dtype, shape and device");
        }
        for (int d = 0; d < t->ndim; d++) {
            if (t->sizes[d] != param->sizes[d]) {
                return mt_error_set(MT_EINVAL, "fused Adam step: the state and gradient must "
                                    "have the parameter's dtype, shape and device");
            }
        }
    }
    mt_tensor *ops[5] = {param, exp_avg, exp_avg_sq, NULL, NULL};
    int nout = 3;
    if (h->amsgrad) {
        ops[nout++] = max_exp_avg_sq;
    }
    ops[nout] = (mt_tensor *)grad;
    mt_iter it;
    int rc = mt_iter_build(&it, nout, 1, ops, dt);
    if (rc < 0) {
        return rc;
    }
    rc = kernel(&it, h);
    mt_iter_release(&it);
    return rc;
}
