/* aten_lite/cpu/tri_gemm.c - small float32 products for fused attention (Note [Triangular small
 * products]). */
#include "aten_lite/cpu/tri_gemm.h"

#include <string.h>

#include "aten_lite/cpu/loops.h"

#define MT__TG_MR 4

typedef float mt__tg_v8 __attribute__((vector_size(32)));

/* One tile of MR rows by NV vectors of 8 columns over p in [k0, k1). */
#define MT__TG_TILE(MR, NV)                                                                       \
    do {                                                                                          \
        mt__tg_v8 acc[MR][NV];                                                                    \
        for (int r = 0; r < (MR); r++) {                                                          \
            for (int v = 0; v < (NV); v++) {                                                      \
                acc[r][v] = (mt__tg_v8){0};                                                       \
            }                                                                                     \
        }                                                                                         \
        for (int64_t p = k0; p < k1; p++) {                                                       \
            const float *bp = g->b + p * g->ldb + c0;                                             \
            const float *ap = a + p * g->a_cs;                                                    \
            mt__tg_v8 bv[NV];                                                                     \
            for (int v = 0; v < (NV); v++) {                                                      \
                memcpy(&bv[v], bp + 8 * v, sizeof(bv[v]));                                        \
            }                                                                                     \
            for (int r = 0; r < (MR); r++) {                                                      \
                float as = ap[r * g->a_rs];                                                       \
                mt__tg_v8 av = {as, as, as, as, as, as, as, as};                                  \
                for (int v = 0; v < (NV); v++) {                                                  \
                    acc[r][v] += av * bv[v];                                                      \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        for (int r = 0; r < (MR); r++) {                                                          \
            float *cp = crow + r * g->ldc + c0;                                                   \
            for (int v = 0; v < (NV); v++) {                                                      \
                mt__tg_v8 out = acc[r][v] * g->alpha;                                             \
                if (g->accumulate) {                                                              \
                    mt__tg_v8 old;                                                                \
                    memcpy(&old, cp + 8 * v, sizeof(old));                                        \
                    out += old;                                                                   \
                }                                                                                 \
                memcpy(cp + 8 * v, &out, sizeof(out));                                            \
            }                                                                                     \
        }                                                                                         \
    } while (0)

MT_WIDE_CLONES void
mt_tri_gemm_f32(const mt_tri_gemm *g)
{
    for (int64_t r0 = 0; r0 < g->m; r0 += MT__TG_MR) {
        int64_t mr = g->m - r0 < MT__TG_MR ? g->m - r0 : MT__TG_MR;
        int64_t n = g->n, k0 = 0, k1 = g->k;
        if (g->tri == MT_TRI_N) {
            int64_t lim = (g->diag + r0 + mr + 7) / 8 * 8;
            n = lim < n ? lim : n;
        }
        else if (g->tri == MT_TRI_KHI) {
            int64_t lim = g->diag + r0 + mr;
            k1 = lim < k1 ? lim : k1;
        }
        else if (g->tri == MT_TRI_KLO) {
            k0 = r0 - g->diag > 0 ? r0 - g->diag : 0;
        }
        if (k1 < k0) {
            k1 = k0;
        }
        const float *a = g->a + r0 * g->a_rs;
        float *crow = g->c + r0 * g->ldc;
        for (int64_t c0 = 0; c0 < n;) {
            int64_t left = n - c0;
            int nv = left >= 32 ? 4 : left >= 16 ? 2 : 1;
            if (mr == MT__TG_MR) {
                if (nv == 4) {
                    MT__TG_TILE(MT__TG_MR, 4);
                }
                else if (nv == 2) {
                    MT__TG_TILE(MT__TG_MR, 2);
                }
                else {
                    MT__TG_TILE(MT__TG_MR, 1);
                }
            }
            else {
                /* the last rows, one at a time */
                for (int64_t r = 0; r < mr; r++) {
                    const float *a1 = a;
                    float *crow1 = crow;
                    a = a1 + r * g->a_rs;
                    crow = crow1 + r * g->ldc;
                    if (nv == 4) {
                        MT__TG_TILE(1, 4);
                    }
                    else if (nv == 2) {
                        MT__TG_TILE(1, 2);
                    }
                    else {
                        MT__TG_TILE(1, 1);
                    }
                    a = a1;
                    crow = crow1;
                }
            }
            c0 += 8 * nv;
        }
    }
}
