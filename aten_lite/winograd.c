/* aten_lite/winograd.c - 3x3 stride-1 convolution by Winograd's F(2x2, 3x3): transforms around 16 GEMMs. */
#include "aten_lite/winograd.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/linalg.h"
#include "aten_lite/parallel.h"
#include "c10_lite/checked.h"
#include "c10_lite/error.h"

/* Note [Winograd convolution]
 * F(2x2, 3x3) (Lavin and Gray, "Fast Algorithms for Convolutional Neural
 * Networks", 2015) computes each 2x2 block of a 3x3 correlation's output
 * from the 4x4 block d of input it reads and the kernel g as
 *     Y = A^T [(G g G^T) .* (B^T d B)] A,
 *     B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1],
 *     G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1],  A^T = [1 1 1 0; 0 1 -1 -1].
 * Summed over input channels, the elementwise product is, for each of the
 * 16 entries xi of a transformed block, one matrix product
 *     M[xi] (C_out x T) = U[xi] (C_out x C_in) @ V[xi] (C_in x T)
 * over T tiles at once: U = G g G^T are the weights, transformed once per
 * call, V = B^T d B the inputs.  That is 16 multiplications per 2x2 outputs
 * and channel pair instead of 36; the transforms only add.  The rounding
 * error stays that of a few more additions (the 1/2 in G is exact).
 *
 * The output is cut into tiles of 2x2 (those past an odd edge are computed
 * and dropped), tiles into rows, and rows of all images into units of about
 * MT__WINO_TILES tiles: a unit is one piece of work for the pool (its own
 * V and M buffers, single-threaded GEMMs, as Note [Convolution as GEMM]).
 * The transforms work a row of tiles at a time, one 4x4 stage per pass over
 * arrays of the row's tiles, so the compiler vectorises them. */

#define MT__WINO_TILES 384
#define MT__WINO_MAX_BYTES ((int64_t)48 << 20) /* V + M of one unit */

typedef struct mt__wino_job {
    const mt_winograd_conv *a;
    int64_t oh, ow, th, tw; /* output size; tile rows and tiles per row of one image */
    int64_t cg, coutg;      /* channels per group */
    int64_t rows, per;      /* tile rows of all images; tile rows per unit */
    int64_t nslots;         /* weight gradient: chunks of units summed separately */
    char *u;                /* forward: transformed weights, groups x 16 x cg x coutg;
                               weight gradient: nslots sums of groups x 16 x coutg x cg */
    atomic_int err;
} mt__wino_job;

bool
mt__winograd_pays(int64_t cin_per_group, int64_t cout_per_group)
{
    /* below this, K = C_in of the 16 products is too short for the GEMM to
     * run near its peak, and im2col's K = 9 C_in wins */
    return cin_per_group >= 16 && cout_per_group >= 16;
}

/* The transforms work on vectors of channels (GCC/Clang vector types: the
 * compiler emits whatever the target has: 2 SSE registers, or 1 AVX one). */
typedef float mt__vfloat __attribute__((vector_size(32)));
typedef double mt__vdouble __attribute__((vector_size(32)));
#define MT__LANES(T) ((int)(32 / sizeof(T)))

/* *v = the first nb (<= lanes) values at p (the rest zero); and back.  By
 * pointer: a 32-byte vector passed by value would change the SSE ABI. */
#define MT__DEFINE_VLOAD(name, T, V)                                                              \
    static inline void mt__vld_##name(V *v, const T *p, int nb)                                   \
    {                                                                                             \
        if (nb == MT__LANES(T)) {                                                                 \
            memcpy(v, p, sizeof(V)); /* one vector load */                                        \
            return;                                                                               \
        }                                                                                         \
        *v = (V){0};                                                                              \
        memcpy(v, p, sizeof(T) * (size_t)nb);                                                     \
    }                                                                                             \
    static inline void mt__vst_##name(T *p, const V *v, int nb)                                   \
    {                                                                                             \
        if (nb == MT__LANES(T)) {                                                                 \
            memcpy(p, v, sizeof(V));                                                              \
            return;                                                                               \
        }                                                                                         \
        memcpy(p, v, sizeof(T) * (size_t)nb);                                                     \
    }
#define MT__VST(name, p, expr, nb)                                                                \
    do {                                                                                          \
        const __typeof__(expr) vst_ = (expr);                                                     \
        mt__vst_##name((p), &vst_, (nb));                                                         \
    } while (0)
MT__DEFINE_VLOAD(float32, float, mt__vfloat)
MT__DEFINE_VLOAD(float64, double, mt__vdouble)

#define MT__DEFINE_WINOGRAD(name, T, V, DT)                                                       \
    /* U[g][xi][ci][co] = (G w[g co, ci] G^T)[xi] */                                              \
    static void mt__wino_weights_##name(const mt__wino_job *j)                                    \
    {                                                                                             \
        const T *w = j->a->weight;                                                                \
        T *u = (T *)j->u;                                                                         \
        for (int64_t g = 0; g < j->a->groups; g++) {                                              \
            for (int64_t co = 0; co < j->coutg; co++) {                                           \
                for (int64_t ci = 0; ci < j->cg; ci++) {                                          \
                    const T *k = w + ((g * j->coutg + co) * j->cg + ci) * 9;                      \
                    T gk[4][3]; /* G k */                                                         \
                    for (int c = 0; c < 3; c++) {                                                 \
                        gk[0][c] = k[c];                                                          \
                        gk[1][c] = (k[c] + k[3 + c] + k[6 + c]) / 2;                              \
                        gk[2][c] = (k[c] - k[3 + c] + k[6 + c]) / 2;                              \
                        gk[3][c] = k[6 + c];                                                      \
                    }                                                                             \
                    for (int r = 0; r < 4; r++) {                                                 \
                        const T *q = gk[r];                                                       \
                        const T v[4] = {q[0], (q[0] + q[1] + q[2]) / 2, (q[0] - q[1] + q[2]) / 2, \
                                        q[2]};                                                    \
                        for (int c = 0; c < 4; c++) {                                             \
                            u[((g * 16 + r * 4 + c) * j->cg + ci) * j->coutg + co] = v[c];        \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* p[row][col][ci] (rows x (2 TW + 2) x cg) = the input of group g of image                   \
     * img from row `first` on, zero-padded: channels last, for the transform                     \
     * (the inner loop runs over channels: contiguous writes). */                                 \
    static void mt__wino_gather_##name(const mt__wino_job *j, const T *x, int64_t first,          \
                                       int64_t rows, T *p)                                        \
    {                                                                                             \
        const int64_t H = j->a->h, W = j->a->w, L = 2 * j->tw + 2, cg = j->cg, pw = j->a->pw;     \
        const int64_t lo = pw < L ? pw : L, hi = pw + W < L ? pw + W : L, plane = H * W;          \
        for (int64_t r = 0; r < rows; r++) {                                                      \
            const int64_t ih = first + r;                                                         \
            T *dst = p + r * L * cg;                                                              \
            if (ih < 0 || ih >= H) {                                                              \
                memset(dst, 0, sizeof(T) * (size_t)(L * cg));                                     \
                continue;                                                                         \
            }                                                                                     \
            memset(dst, 0, sizeof(T) * (size_t)(lo * cg));                                        \
            for (int64_t c = lo; c < hi; c++) {                                                   \
                const T *src = x + (ih * W + (c - pw));                                           \
                T *d = dst + c * cg;                                                              \
                for (int64_t ci = 0; ci < cg; ci++) {                                             \
                    d[ci] = src[ci * plane];                                                      \
                }                                                                                 \
            }                                                                                     \
            memset(dst + hi * cg, 0, sizeof(T) * (size_t)((L - hi) * cg));                        \
        }                                                                                         \
    }                                                                                             \
    /* V[xi][t][ci] = (B^T d B)[xi] for one tile, whose 4x4 block of inputs                       \
     * starts at p (rows rstride apart, columns cg apart); v points at xi = 0,                    \
     * entries vstride apart.  Channels go a vector at a time. */                                 \
    MT_SIMD_CLONES static void mt__wino_input_##name(const T *restrict p, int64_t rstride,        \
                                                     int64_t cg, T *restrict v, int64_t vstride)  \
    {                                                                                             \
        for (int64_t ci = 0; ci < cg; ci += MT__LANES(T)) {                                       \
            const int nb = cg - ci < MT__LANES(T) ? (int)(cg - ci) : MT__LANES(T);                \
            V h[4][4];                                                                            \
            for (int r = 0; r < 4; r++) { /* d B along each row */                                \
                const T *q = p + r * rstride + ci;                                                \
                V d0, d1;                                                                         \
                mt__vld_##name(&d0, q, nb);                                                       \
                mt__vld_##name(&d1, q + cg, nb);                                                  \
                V d2;                                                                             \
                mt__vld_##name(&d2, q + 2 * cg, nb);                                              \
                V d3;                                                                             \
                mt__vld_##name(&d3, q + 3 * cg, nb);                                              \
                h[r][0] = d0 - d2;                                                                \
                h[r][1] = d1 + d2;                                                                \
                h[r][2] = d2 - d1;                                                                \
                h[r][3] = d1 - d3;                                                                \
            }                                                                                     \
            for (int k = 0; k < 4; k++) { /* B^T (d B) down each column */                        \
                MT__VST(name, v + k * vstride + ci, h[0][k] - h[2][k], nb);                       \
                MT__VST(name, v + (4 + k) * vstride + ci, h[1][k] + h[2][k], nb);                 \
                MT__VST(name, v + (8 + k) * vstride + ci, h[2][k] - h[1][k], nb);                 \
                MT__VST(name, v + (12 + k) * vstride + ci, h[1][k] - h[3][k], nb);                \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* The 2x2 outputs of one tile for every output channel, from M[xi][t][co]                    \
     * (m points at xi = 0, entries mstride apart), plus bias: o[i][j][co],                       \
     * rows ostride apart, columns coutg apart. */                                                \
    MT_SIMD_CLONES static void mt__wino_output_##name(const T *restrict m, int64_t mstride,       \
                                                      int64_t coutg, const T *bias,               \
                                                      T *restrict o, int64_t ostride)             \
    {                                                                                             \
        for (int64_t co = 0; co < coutg; co += MT__LANES(T)) {                                    \
            const int nb = coutg - co < MT__LANES(T) ? (int)(coutg - co) : MT__LANES(T);          \
            V s0[4], s1[4]; /* A^T M down each column */                                          \
            for (int k = 0; k < 4; k++) {                                                         \
                V m0;                                                                             \
                mt__vld_##name(&m0, m + k * mstride + co, nb);                                    \
                V m1;                                                                             \
                mt__vld_##name(&m1, m + (4 + k) * mstride + co, nb);                              \
                V m2;                                                                             \
                mt__vld_##name(&m2, m + (8 + k) * mstride + co, nb);                              \
                V m3;                                                                             \
                mt__vld_##name(&m3, m + (12 + k) * mstride + co, nb);                             \
                s0[k] = m0 + m1 + m2;                                                             \
                s1[k] = m1 - m2 - m3;                                                             \
            }                                                                                     \
            V b = {0};                                                                            \
            if (bias != NULL) {                                                                   \
                mt__vld_##name(&b, bias + co, nb);                                                \
            }                                                                                     \
            MT__VST(name, o + co, s0[0] + s0[1] + s0[2] + b, nb);                                 \
            MT__VST(name, o + coutg + co, s0[1] - s0[2] - s0[3] + b, nb);                         \
            MT__VST(name, o + ostride + co, s1[0] + s1[1] + s1[2] + b, nb);                       \
            MT__VST(name, o + ostride + coutg + co, s1[1] - s1[2] - s1[3] + b, nb);               \
        }                                                                                         \
    }                                                                                             \
    /* Output rows 2 tr0 .. 2 (tr0 + n) - 1 of each channel (planes oplane                        \
     * apart; rows past oh are dropped) from o[row][col][co] (rows 2 TW coutg                     \
     * apart): the inner loop runs over channels, reading contiguously. */                        \
    static void mt__wino_scatter_##name(const mt__wino_job *j, const T *o, int64_t tr0,           \
                                        int64_t n, T *out, int64_t oplane)                        \
    {                                                                                             \
        const int64_t OW = j->ow, coutg = j->coutg, TW = j->tw;                                   \
        const int64_t rend = 2 * (tr0 + n) < j->oh ? 2 * (tr0 + n) : j->oh;                       \
        for (int64_t co = 0; co < coutg; co++) {                                                  \
            for (int64_t row = 2 * tr0; row < rend; row++) {                                      \
                const T *src = o + (row - 2 * tr0) * 2 * TW * coutg + co;                         \
                T *dst = out + co * oplane + row * OW;                                            \
                for (int64_t c = 0; c < OW; c++) {                                                \
                    dst[c] = src[c * coutg];                                                      \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* q[row][col][co] (2 n x 2 TW x coutg) = grad_output rows 2 tr0 .. of                        \
     * group g of one image (planes oplane apart), zero past oh/ow: channels                      \
     * last, for the transform. */                                                                \
    static void mt__wino_gather_gy_##name(const mt__wino_job *j, const T *gy, int64_t tr0,        \
                                          int64_t n, T *q)                                        \
    {                                                                                             \
        const int64_t OW = j->ow, TW = j->tw, coutg = j->coutg, oplane = j->oh * j->ow;           \
        for (int64_t row = 0; row < 2 * n; row++) {                                               \
            const int64_t oh = 2 * tr0 + row;                                                     \
            T *dst = q + row * 2 * TW * coutg;                                                    \
            if (oh >= j->oh) {                                                                    \
                memset(dst, 0, sizeof(T) * (size_t)(2 * TW * coutg));                             \
                continue;                                                                         \
            }                                                                                     \
            for (int64_t c = 0; c < OW; c++) {                                                    \
                const T *src = gy + oh * OW + c;                                                  \
                for (int64_t co = 0; co < coutg; co++) {                                          \
                    dst[c * coutg + co] = src[co * oplane];                                       \
                }                                                                                 \
            }                                                                                     \
            memset(dst + OW * coutg, 0, sizeof(T) * (size_t)((2 * TW - OW) * coutg));             \
        }                                                                                         \
    }                                                                                             \
    /* Y[xi][t][co] = (A g A^T)[xi] for one tile's 2x2 block g of grad_output                     \
     * (at q: rows qstride apart, columns coutg apart); y points at xi = 0,                       \
     * entries ystride apart.  A = [1 0; 1 1; 1 -1; 0 -1]. */                                     \
    MT_SIMD_CLONES static void mt__wino_gy_##name(const T *restrict q, int64_t qstride,           \
                                                  int64_t coutg, T *restrict y, int64_t ystride)  \
    {                                                                                             \
        for (int64_t co = 0; co < coutg; co += MT__LANES(T)) {                                    \
            const int nb = coutg - co < MT__LANES(T) ? (int)(coutg - co) : MT__LANES(T);          \
            V g00;                                                                                \
            mt__vld_##name(&g00, q + co, nb);                                                     \
            V g01;                                                                                \
            mt__vld_##name(&g01, q + coutg + co, nb);                                             \
            V g10;                                                                                \
            mt__vld_##name(&g10, q + qstride + co, nb);                                           \
            V g11;                                                                                \
            mt__vld_##name(&g11, q + qstride + coutg + co, nb);                                   \
            const V r[4][2] = {{g00, g01}, {g00 + g10, g01 + g11}, {g00 - g10, g01 - g11},        \
                               {-g10, -g11}};                                                     \
            for (int i = 0; i < 4; i++) {                                                         \
                T *yi = y + 4 * i * ystride + co;                                                 \
                MT__VST(name, yi, r[i][0], nb);                                                   \
                MT__VST(name, yi + ystride, r[i][0] + r[i][1], nb);                               \
                MT__VST(name, yi + 2 * ystride, r[i][0] - r[i][1], nb);                           \
                MT__VST(name, yi + 3 * ystride, -r[i][1], nb);                                    \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* V[xi][t][ci] for the tiles of rows [r0, r1) of group g (t counted from r0) */              \
    static void mt__wino_input_rows_##name(const mt__wino_job *j, int64_t r0, int64_t r1,         \
                                           int64_t g, T *v, T *p)                                 \
    {                                                                                             \
        const mt_winograd_conv *a = j->a;                                                         \
        const int64_t TW = j->tw, L = 2 * TW + 2, cg = j->cg, nt = (r1 - r0) * TW;                \
        for (int64_t r = r0; r < r1;) {                                                           \
            const int64_t img = r / j->th, tr0 = r % j->th;                                       \
            const int64_t n = r1 - r < j->th - tr0 ? r1 - r : j->th - tr0;                        \
            const T *x = (const T *)a->x + (img * a->c + g * cg) * a->h * a->w;                   \
            mt__wino_gather_##name(j, x, 2 * tr0 - a->ph, 2 * n + 2, p);                          \
            for (int64_t tr = 0; tr < n; tr++) {                                                  \
                for (int64_t tw = 0; tw < TW; tw++) {                                             \
                    const int64_t t = (r - r0 + tr) * TW + tw;                                    \
                    mt__wino_input_##name(p + (2 * tr * L + 2 * tw) * cg, L * cg, cg, v + t * cg, \
                                          nt * cg);                                               \
                }                                                                                 \
            }                                                                                     \
            r += n;                                                                               \
        }                                                                                         \
    }                                                                                             \
    /* Buffers of one worker: V (16 tmax cg), M or Y (16 tmax coutg), p ((2 per                   \
     * + 2) L cg) and o or q (4 tmax coutg).  NULL (recorded) on failure. */                      \
    static T *mt__wino_buffers_##name(mt__wino_job *j, T **m, T **p, T **o)                       \
    {                                                                                             \
        const int64_t tmax = j->per * j->tw, L = 2 * j->tw + 2;                                   \
        T *v = mt_malloc_array(16 * (j->cg + j->coutg) * tmax + (2 * j->per + 2) * L * j->cg +    \
                               4 * tmax * j->coutg, sizeof(T));                                   \
        if (v == NULL) {                                                                          \
            atomic_store(&j->err, MT_ENOMEM);                                                     \
            return NULL;                                                                          \
        }                                                                                         \
        *m = v + 16 * j->cg * tmax;                                                               \
        *p = *m + 16 * j->coutg * tmax;                                                           \
        *o = *p + (2 * j->per + 2) * L * j->cg;                                                   \
        return v;                                                                                 \
    }                                                                                             \
    /* Forward: units [begin, end) of tile rows. */                                               \
    static void mt__wino_units_##name(void *ctx, int64_t begin, int64_t end)                      \
    {                                                                                             \
        mt__wino_job *j = ctx;                                                                    \
        const mt_winograd_conv *a = j->a;                                                         \
        const int64_t TW = j->tw, cg = j->cg, coutg = j->coutg, oplane = j->oh * j->ow;           \
        T *m, *p, *o, *v = mt__wino_buffers_##name(j, &m, &p, &o);                                \
        if (v == NULL) {                                                                          \
            return;                                                                               \
        }                                                                                         \
        for (int64_t unit = begin; unit < end; unit++) {                                          \
            const int64_t r0 = unit * j->per;                                                     \
            const int64_t r1 = r0 + j->per < j->rows ? r0 + j->per : j->rows;                     \
            const int64_t nt = (r1 - r0) * TW;                                                    \
            for (int64_t g = 0; g < a->groups; g++) {                                             \
                mt__wino_input_rows_##name(j, r0, r1, g, v, p);                                   \
                for (int xi = 0; xi < 16; xi++) {                                                 \
                    const T *u = (const T *)j->u + (g * 16 + xi) * cg * coutg;                    \
                    if (mt_gemm_raw(DT, false, false, nt, coutg, cg, 1.0, v + xi * nt * cg, cg,   \
                                    u, coutg, 0.0, m + xi * nt * coutg) < 0) {                    \
                        atomic_store(&j->err, MT_ENOMEM);                                         \
                    }                                                                             \
                }                                                                                 \
                const T *bias = a->bias != NULL ? (const T *)a->bias + g * coutg : NULL;          \
                for (int64_t r = r0; r < r1;) {                                                   \
                    const int64_t img = r / j->th, tr0 = r % j->th;                               \
                    const int64_t n = r1 - r < j->th - tr0 ? r1 - r : j->th - tr0;                \
                    for (int64_t tr = 0; tr < n; tr++) {                                          \
                        for (int64_t tw = 0; tw < TW; tw++) {                                     \
                            const int64_t t = (r - r0 + tr) * TW + tw;                            \
                            mt__wino_output_##name(m + t * coutg, nt * coutg, coutg, bias,        \
                                                   o + (2 * tr * 2 * TW + 2 * tw) * coutg,        \
                                                   2 * TW * coutg);                               \
                        }                                                                         \
                    }                                                                             \
                    mt__wino_scatter_##name(j, o, tr0, n,                                         \
                                            (T *)a->y + (img * a->cout + g * coutg) * oplane,     \
                                            oplane);                                              \
                    r += n;                                                                       \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        free(v);                                                                                  \
    }                                                                                             \
    /* Weight gradient: slot s sums its units' 16 products Y[xi]^T V[xi] (see                     \
     * Note [Winograd weight gradient]) into j->u + s * (groups 16 coutg cg). */                  \
    static void mt__wino_wgrad_slots_##name(void *ctx, int64_t begin, int64_t end)                \
    {                                                                                             \
        mt__wino_job *j = ctx;                                                                    \
        const mt_winograd_conv *a = j->a;                                                         \
        const int64_t TW = j->tw, cg = j->cg, coutg = j->coutg, oplane = j->oh * j->ow;           \
        const int64_t units = (j->rows + j->per - 1) / j->per, slot = a->groups * 16 * coutg * cg; \
        T *y, *p, *q, *v = mt__wino_buffers_##name(j, &y, &p, &q);                                \
        if (v == NULL) {                                                                          \
            return;                                                                               \
        }                                                                                         \
        for (int64_t s = begin; s < end; s++) {                                                   \
            T *acc = (T *)j->u + s * slot;                                                        \
            memset(acc, 0, sizeof(T) * (size_t)slot);                                             \
            for (int64_t unit = units * s / j->nslots; unit < units * (s + 1) / j->nslots;        \
                 unit++) {                                                                        \
                const int64_t r0 = unit * j->per;                                                 \
                const int64_t r1 = r0 + j->per < j->rows ? r0 + j->per : j->rows;                 \
                const int64_t nt = (r1 - r0) * TW;                                                \
                for (int64_t g = 0; g < a->groups; g++) {                                         \
                    mt__wino_input_rows_##name(j, r0, r1, g, v, p);                               \
                    for (int64_t r = r0; r < r1;) {                                               \
                        const int64_t img = r / j->th, tr0 = r % j->th;                           \
                        const int64_t n = r1 - r < j->th - tr0 ? r1 - r : j->th - tr0;            \
                        const T *gy = (const T *)a->grad_output + (img * a->cout + g * coutg) *   \
                                                                      oplane;                     \
                        mt__wino_gather_gy_##name(j, gy, tr0, n, q);                              \
                        for (int64_t tr = 0; tr < n; tr++) {                                      \
                            for (int64_t tw = 0; tw < TW; tw++) {                                 \
                                const int64_t t = (r - r0 + tr) * TW + tw;                        \
                                mt__wino_gy_##name(q + (2 * tr * 2 * TW + 2 * tw) * coutg,        \
                                                   2 * TW * coutg, coutg, y + t * coutg,          \
                                                   nt * coutg);                                   \
                            }                                                                     \
                        }                                                                         \
                        r += n;                                                                   \
                    }                                                                             \
                    for (int xi = 0; xi < 16; xi++) {                                             \
                        if (mt_gemm_raw(DT, true, false, coutg, cg, nt, 1.0, y + xi * nt * coutg, \
                                        coutg, v + xi * nt * cg, cg, 1.0,                         \
                                        acc + (g * 16 + xi) * coutg * cg) < 0) {                  \
                            atomic_store(&j->err, MT_ENOMEM);                                     \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        free(v);                                                                                  \
    }                                                                                             \
    /* gw[g co, ci] = G^T (sum over slots)[g][.][co][ci] G */                                     \
    static void mt__wino_wgrad_finish_##name(const mt__wino_job *j)                               \
    {                                                                                             \
        const int64_t cg = j->cg, coutg = j->coutg, slot = j->a->groups * 16 * coutg * cg;        \
        T *acc = (T *)j->u;                                                                       \
        T *gw = j->a->grad_weight;                                                                \
        for (int64_t s = 1; s < j->nslots; s++) { /* in order: deterministic */                   \
            for (int64_t i = 0; i < slot; i++) {                                                  \
                acc[i] += acc[s * slot + i];                                                      \
            }                                                                                     \
        }                                                                                         \
        for (int64_t g = 0; g < j->a->groups; g++) {                                              \
            for (int64_t co = 0; co < coutg; co++) {                                              \
                for (int64_t ci = 0; ci < cg; ci++) {                                             \
                    T mw[4][4];                                                                   \
                    for (int xi = 0; xi < 16; xi++) {                                             \
                        mw[xi / 4][xi % 4] = acc[((g * 16 + xi) * coutg + co) * cg + ci];         \
                    }                                                                             \
                    T z[3][4]; /* G^T mw */                                                       \
                    for (int c = 0; c < 4; c++) {                                                 \
                        z[0][c] = mw[0][c] + (mw[1][c] + mw[2][c]) / 2;                           \
                        z[1][c] = (mw[1][c] - mw[2][c]) / 2;                                      \
                        z[2][c] = (mw[1][c] + mw[2][c]) / 2 + mw[3][c];                           \
                    }                                                                             \
                    T *dst = gw + ((g * coutg + co) * cg + ci) * 9;                               \
                    for (int r = 0; r < 3; r++) { /* (G^T mw) G */                                \
                        dst[r * 3] = z[r][0] + (z[r][1] + z[r][2]) / 2;                           \
                        dst[r * 3 + 1] = (z[r][1] - z[r][2]) / 2;                                 \
                        dst[r * 3 + 2] = (z[r][1] + z[r][2]) / 2 + z[r][3];                       \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }
MT__DEFINE_WINOGRAD(float32, float, mt__vfloat, MT_FLOAT32)
MT__DEFINE_WINOGRAD(float64, double, mt__vdouble, MT_FLOAT64)

/* The job's geometry and unit size; 0 or an error. */
static int
mt__wino_plan(const mt_winograd_conv *a, mt__wino_job *j)
{
    *j = (mt__wino_job){
        .a = a, .oh = a->h + 2 * a->ph - 2, .ow = a->w + 2 * a->pw - 2,
        .cg = a->c / a->groups, .coutg = a->cout / a->groups,
    };
    j->th = (j->oh + 1) / 2;
    j->tw = (j->ow + 1) / 2;
    size_t isz = a->dbl ? sizeof(double) : sizeof(float);
    int64_t per_bytes;
    if (mt_ckd_mul(&j->rows, a->n, j->th) ||
        mt_ckd_mul(&per_bytes, 20 * (j->cg + j->coutg), j->tw) ||
        mt_ckd_mul(&per_bytes, per_bytes, (int64_t)isz)) {
        return mt_error_set(MT_ENOMEM, "conv2d: the Winograd buffers of %lld x %lld tiles are too "
                            "large", (long long)j->th, (long long)j->tw);
    }
    /* tile rows per unit: about MT__WINO_TILES tiles, within the byte budget */
    j->per = (MT__WINO_TILES + j->tw - 1) / j->tw;
    if (j->per * per_bytes > MT__WINO_MAX_BYTES) {
        j->per = MT__WINO_MAX_BYTES / per_bytes > 1 ? MT__WINO_MAX_BYTES / per_bytes : 1;
    }
    if (j->per > j->rows) {
        j->per = j->rows > 0 ? j->rows : 1;
    }
    return 0;
}

/* Runs fn over nchunks on the pool (serial GEMMs), or on the caller one
 * after another when there are fewer chunks than threads (threaded GEMMs). */
static int
mt__wino_run(mt__wino_job *j, mt_parallel_fn fn, int64_t nchunks)
{
    int nthreads = mt_get_num_threads();
    if (nthreads > 1 && nchunks >= nthreads) {
        mt_parallel_chunks(nchunks, fn, j);
    }
    else {
        fn(j, 0, nchunks);
    }
    int err = atomic_load(&j->err);
    if (err < 0) {
        return mt_error_set(err, "conv2d: out of memory for the Winograd buffers (%lld tiles of "
                            "%lld + %lld channels per thread)", (long long)(j->per * j->tw),
                            (long long)j->cg, (long long)j->coutg);
    }
    return 0;
}

int
mt__winograd_conv2d(const mt_winograd_conv *a)
{
    mt__wino_job j;
    if (mt__wino_plan(a, &j) < 0) {
        return mt_error_code();
    }
    if (j.rows == 0) {
        return 0;
    }
    j.u = mt_malloc_array(a->groups * 16 * j.coutg * j.cg, a->dbl ? sizeof(double) : sizeof(float));
    if (j.u == NULL) {
        return mt_error_code();
    }
    if (a->dbl) {
        mt__wino_weights_float64(&j);
    }
    else {
        mt__wino_weights_float32(&j);
    }
    int rc = mt__wino_run(&j, a->dbl ? mt__wino_units_float64 : mt__wino_units_float32,
                          (j.rows + j.per - 1) / j.per);
    free(j.u);
    return rc;
}

/* Note [Winograd weight gradient]
 * With U = G g G^T and Y = A^T (U .* V) A for each tile, the gradient of
 * sum(gy .* Y) with respect to U is (A gy A^T) .* V, and with respect to g
 * it is G^T [(A gy A^T) .* V] G.  Summed over the tiles of every image and
 * per channel pair this is 16 products
 *     Mw[xi] (C_out x C_in) = Y[xi]^T (C_out x T) @ V[xi] (T x C_in)
 * (Y = A gy A^T, gy zero past the output's edge) with the long tile axis as
 * their inner dimension, then gw = G^T Mw G: 2.25 times fewer
 * multiplications than im2col's grad_output @ columns^T.  Units are summed
 * in MT__WINO_SLOTS chunks fixed by the shapes and the chunks added in
 * order, so the result does not depend on the thread count. */
#define MT__WINO_SLOTS 16

int
mt__winograd_conv2d_weight_grad(const mt_winograd_conv *a)
{
    mt__wino_job j;
    if (mt__wino_plan(a, &j) < 0) {
        return mt_error_code();
    }
    size_t isz = a->dbl ? sizeof(double) : sizeof(float);
    int64_t units = (j.rows + j.per - 1) / j.per, slot = a->groups * 16 * j.coutg * j.cg;
    j.nslots = units < MT__WINO_SLOTS ? units : MT__WINO_SLOTS;
    if (j.nslots * slot * (int64_t)isz > MT__WINO_MAX_BYTES) {
        j.nslots = MT__WINO_MAX_BYTES / (slot * (int64_t)isz);
    }
    if (j.nslots < 1) {
        j.nslots = 1;
    }
    j.u = mt_malloc_array(j.nslots * slot, isz);
    if (j.u == NULL) {
        return mt_error_code();
    }
    if (units == 0) {
        memset(j.u, 0, (size_t)slot * isz);
    }
    int rc = units == 0 ? 0
                        : mt__wino_run(&j, a->dbl ? mt__wino_wgrad_slots_float64
                                                  : mt__wino_wgrad_slots_float32,
                                       j.nslots);
    if (rc == 0) {
        if (a->dbl) {
            mt__wino_wgrad_finish_float64(&j);
        }
        else {
            mt__wino_wgrad_finish_float32(&j);
        }
    }
    free(j.u);
    return rc;
}
