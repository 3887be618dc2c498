/* aten_lite/optim_math.h - the element math of the fused optimizer steps, once, for the cpu loops
 * (optim.c) and the CUDA kernels (aten_lite/cuda/optim.cu): plain expressions, valid C and C++. */
#ifndef ATEN_LITE_OPTIM_MATH_H
#define ATEN_LITE_OPTIM_MATH_H

#include <math.h>
#include <stdbool.h>

/* The scalars of one Adam/AdamW step (the optimizer computes the bias corrections). */
typedef struct mt_adam_hyper {
    double beta1, beta2, lr, weight_decay, eps;
    double step_size;     /* lr / (1 - beta1^step) */
    double bc2_sqrt;      /* sqrt(1 - beta2^step) */
    bool maximize, decoupled, amsgrad;
} mt_adam_hyper;

/* The constants of one Adam step in the element type T, as the op-by-op update takes them
 * (the members of a struct: MT_ADAM_CONSTANTS_FIELDS(T) declares them). */
#define MT_ADAM_CONSTANTS_FIELDS(T)                                                               \
    T beta2, w1, one_m_w1, one_m_beta2, wd, decay, eps, neg_step, bc2_sqrt, sign;                 \
    bool l2, amsgrad, lerp_low;

/* *K = the constants of the step h (a const mt_adam_hyper *). */
#define MT_ADAM_CONSTANTS_SET(T, K, h)                                                            \
    do {                                                                                          \
        double w1_ = 1.0 - (h)->beta1;                                                            \
        bool decoupled_ = (h)->decoupled && (h)->weight_decay != 0.0;                             \
        (K)->beta2 = (T)(h)->beta2;                                                               \
        (K)->w1 = (T)w1_;                                                                         \
        (K)->one_m_w1 = (T)(1.0 - w1_);                                                           \
        (K)->one_m_beta2 = (T)(1.0 - (h)->beta2);                                                 \
        (K)->wd = (T)(h)->weight_decay;                                                           \
        (K)->decay = decoupled_ ? (T)(1.0 - (h)->lr * (h)->weight_decay) : (T)1;                  \
        (K)->eps = (T)(h)->eps;                                                                   \
        (K)->neg_step = (T)(-(h)->step_size);                                                     \
        (K)->bc2_sqrt = (T)(h)->bc2_sqrt;                                                         \
        (K)->sign = (h)->maximize ? (T)-1 : (T)1;                                                 \
        (K)->amsgrad = (h)->amsgrad;                                                              \
        (K)->lerp_low = fabs(w1_) < 0.5;                                                          \
        (K)->l2 = !(h)->decoupled && (h)->weight_decay != 0.0;                                    \
    } while (0)

/* One element of the update (Note [Fused Adam]); K the loop's constants.  maximize and
 * decoupled weight decay are exact multiplications (by -1 or 1, by the decay or 1); the L2
 * term, lerp's branch and amsgrad are the compile-time L2, LOW and AMS, so that every loop
 * has a body without branches, which the compiler vectorises (an L2 term is added only when
 * there is one: 0 * inf would be NaN). */
#define MT_ADAM_ELEM(T, SQRT, K, p, m, v, x, g, L2, LOW, AMS)                                   \
    do {                                                                                          \
        g = g * (K)->sign;                                                                        \
        p = p * (K)->decay;                                                                       \
        if (L2) {                                                                                 \
            g = g + (K)->wd * p;                                                                  \
        }                                                                                         \
        m = (LOW) ? m + (K)->w1 * (g - m) : g - (g - m) * (K)->one_m_w1;                          \
        v = v * (K)->beta2;                                                                       \
        v = v + (g * g) * (K)->one_m_beta2;                                                       \
        T s_ = v;                                                                                 \
        if (AMS) {                                                                                \
            T hi_ = x > v ? x : v;                                                                \
            x = x != x ? x : hi_; /* torch.maximum: NaN wins (v's NaN: x > v is false) */         \
            s_ = x;                                                                               \
        }                                                                                         \
        p = p + (m / (SQRT(s_) / (K)->bc2_sqrt + (K)->eps)) * (K)->neg_step;                     \
    } while (0)

#endif /* ATEN_LITE_OPTIM_MATH_H */
