/* aten_lite/conv_grad_input.c - a convolution's input gradient (and so a transposed convolution) as one gather + GEMM per stride phase. */
#include "aten_lite/conv_geom.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/linalg.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [grad_input by phases]
 * grad_input[c, i] sums W[co, c, t] * grad_output[co, o] over the taps t and
 * outputs o with o * s - p + t * d = i (on each axis).  Computing W^T @
 * grad_output into columns and adding them back with col2im writes every
 * input position up to k times through strided additions.  Instead, split
 * the input positions by phase: along an axis, position i = q * s + r - p
 * (residue r = (i + p) mod s) is reached exactly by the taps t with t * d
 * = r (mod s), from output o = q - m_t where m_t = (t * d - r) / s.  So on
 * the positions of one phase (one residue per axis, a grid indexed by q)
 * grad_input is a stride-1 correlation of grad_output with that phase's
 * taps: gather grad_output into columns (rows: output channel x phase tap;
 * along the last axis o runs with q, so each row is a contiguous run), one
 * GEMM with the phase's weights (cg x K, K = C_out / groups x the phase's
 * taps), and each input position written once, with no accumulation.  The
 * phases partition both the positions and the taps, so the work is the
 * convolution's own, in products whose inner dimension K is as large as
 * possible.  Only the residues that some input position has are visited (at
 * most min(s, size) per axis), so a huge stride costs nothing.  Columns are
 * built a tile of q-rows at a time (Note [Column tiles] in conv.c). */

typedef struct mt__phases {
    int64_t nres;  /* residues with positions */
    int64_t *q0;   /* per residue: the first q and the number of positions */
    int64_t *nq;
    int64_t *qoff; /* per residue: -p + r (the position of q is q * s + qoff) */
    int64_t *toff; /* per residue: its taps are tap/m[toff[j] .. toff[j + 1]) */
    int64_t *tap;
    int64_t *m;
} mt__phases;

static void
mt__phases_free(mt__phases *ph)
{
    free(ph->q0);
    *ph = (mt__phases){0};
}

/* The phases of one axis (size positions, kernel k, stride s, padding p,
 * dilation d).  One allocation.  0 or MT_ENOMEM. */
static int
mt__phases_build(mt__phases *ph, int64_t size, int64_t k, int64_t s, int64_t p, int64_t d)
{
    int64_t nres = size < s ? size : s;
    *ph = (mt__phases){.nres = nres};
    int64_t *mem = mt_malloc_array(4 * nres + 1 + 2 * k, sizeof(int64_t));
    if (mem == NULL) {
        return mt_error_code();
    }
    ph->q0 = mem;
    ph->nq = mem + nres;
    ph->qoff = mem + 2 * nres;
    ph->toff = mem + 3 * nres;          /* nres + 1 entries */
    ph->tap = mem + 4 * nres + 1;
    ph->m = ph->tap + k;
    int64_t at = 0;
    for (int64_t j = 0; j < nres; j++) {
        /* positions i0 = j, j + s, ... (i0 < min(size, s): one per residue) */
        int64_t r = (j + p) % s;
        ph->q0[j] = (j + p - r) / s;
        ph->nq[j] = (size - 1 - j) / s + 1;
        ph->qoff[j] = r - p;
        ph->toff[j] = at;
        for (int64_t t = 0; t < k; t++) {
            int64_t td = t * d; /* fits: (k - 1) * d was checked */
            if (td % s == r) {
                ph->tap[at] = t;
                ph->m[at] = (td - r) / s;
                at++;
            }
        }
    }
    ph->toff[nres] = at;
    return 0;
}

/* One call's shared state (Note [grad_input by phases]). */
typedef struct mt__phase_job {
    const mt__conv_geom *g;
    const mt__phases *ax; /* three axes */
    bool dbl;
    const char *gy, *bias;
    char *gx;
    const char *wp;       /* per phase, per group: the cg x K weights */
    const int64_t *wpoff; /* per phase: its weights' offset (elements) */
    int64_t nphases, kmax, ptcap, colcap;
    int64_t nchunks;
    atomic_int err;
} mt__phase_job;

/* The phase index ph as residue indices per axis. */
static void
mt__phase_res(const mt__phase_job *j, int64_t ph, int64_t *ja, int64_t *jb, int64_t *jc)
{
    *jc = ph % j->ax[2].nres;
    ph /= j->ax[2].nres;
    *jb = ph % j->ax[1].nres;
    *ja = ph / j->ax[1].nres;
}

#define MT__DEFINE_PHASES(name, T, DT)                                                            \
    /* col (K x pt) of one tile of q-rows [r0, r1) of phase (ja, jb, jc), group channels of gy */ \
    MT_SIMD_CLONES static void mt__phase_gather_##name(const mt__phase_job *j, const T *gyg,     \
                                                       int64_t ja, int64_t jb, int64_t jc,        \
                                                       int64_t r0, int64_t r1, T *col)            \
    {                                                                                             \
        const mt__conv_geom *g = j->g;                                                            \
        const mt__phases *A = &j->ax[0], *B = &j->ax[1], *C = &j->ax[2];                          \
        const int64_t nqb = B->nq[jb], nqc = C->nq[jc], pt = (r1 - r0) * nqc;                     \
        const int64_t O0 = g->out[0], O1 = g->out[1], O2 = g->out[2];                             \
        int64_t row = 0;                                                                          \
        for (int64_t co = 0; co < g->coutg; co++) {                                               \
            const T *src = gyg + co * g->p;                                                       \
            for (int64_t ta = A->toff[ja]; ta < A->toff[ja + 1]; ta++) {                          \
                for (int64_t tb = B->toff[jb]; tb < B->toff[jb + 1]; tb++) {                      \
                    for (int64_t tc = C->toff[jc]; tc < C->toff[jc + 1]; tc++, row++) {           \
                        T *dst = col + row * pt;                                                  \
                        /* o2 = q2 - m for q2 = q0c + u: valid u in [lo, hi) */                   \
                        int64_t base = C->q0[jc] - C->m[tc];                                      \
                        int64_t lo = base >= 0 ? 0 : -base;                                       \
                        int64_t hi = O2 - base < nqc ? O2 - base : nqc;                           \
                        lo = lo < nqc ? lo : nqc;                                                 \
                        hi = hi > lo ? hi : lo;                                                   \
                        int64_t qa = r0 / nqb, qb = r0 % nqb;                                     \
                        for (int64_t qr = r0; qr < r1; qr++, dst += nqc) {                        \
                            int64_t o0 = A->q0[ja] + qa - A->m[ta];                               \
                            int64_t o1 = B->q0[jb] + qb - B->m[tb];                               \
                            if (++qb == nqb) { /* the next q-row, no division */                  \
                                qb = 0;                                                           \
                                qa++;                                                             \
                            }                                                                     \
                            if (o0 < 0 || o0 >= O0 || o1 < 0 || o1 >= O1 || lo == hi) {          \
                                memset(dst, 0, sizeof(T) * (size_t)nqc);                          \
                                continue;                                                         \
                            }                                                                     \
                            const T *s = src + (o0 * O1 + o1) * O2 + base;                        \
                            for (int64_t u = 0; u < lo; u++) {                                    \
                                dst[u] = 0;                                                       \
                            }                                                                     \
                            for (int64_t u = lo; u < hi; u++) { /* short: no memcpy call */  \
                                dst[u] = s[u];                                                    \
                            }                                                                     \
                            for (int64_t u = hi; u < nqc; u++) {                                  \
                                dst[u] = 0;                                                       \
                            }                                                                     \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* gx positions of one tile: res (cg x pt) written at q * s + qoff */                         \
    MT_SIMD_CLONES static void mt__phase_scatter_##name(const mt__phase_job *j, const T *res,    \
                                                        int64_t ja, int64_t jb, int64_t jc,       \
                                                        int64_t r0, int64_t r1, T *gxg)           \
    {                                                                                             \
        const mt__conv_geom *g = j->g;                                                            \
        const mt__phases *A = &j->ax[0], *B = &j->ax[1], *C = &j->ax[2];                          \
        const int64_t nqb = B->nq[jb], nqc = C->nq[jc], pt = (r1 - r0) * nqc, sc = g->s[2];       \
        const int64_t c0 = C->q0[jc] * sc + C->qoff[jc];                                          \
        for (int64_t c = 0; c < g->cg; c++) {                                                     \
            const T *src = res + c * pt;                                                          \
            T *plane = gxg + c * g->inplane;                                                      \
            int64_t qa = r0 / nqb, qb = r0 % nqb;                                                 \
            for (int64_t qr = r0; qr < r1; qr++, src += nqc) {                                    \
                int64_t i0 = (A->q0[ja] + qa) * g->s[0] + A->qoff[ja];                            \
                int64_t i1 = (B->q0[jb] + qb) * g->s[1] + B->qoff[jb];                            \
                if (++qb == nqb) {                                                                \
                    qb = 0;                                                                       \
                    qa++;                                                                         \
                }                                                                                 \
                T *dst = plane + (i0 * g->in[1] + i1) * g->in[2] + c0;                            \
                if (sc == 1) {                                                                    \
                    for (int64_t u = 0; u < nqc; u++) {                                           \
                        dst[u] = src[u];                                                          \
                    }                                                                             \
                }                                                                                 \
                else {                                                                            \
                    for (int64_t u = 0; u < nqc; u++) {                                           \
                        dst[u * sc] = src[u];                                                     \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    static void mt__phase_chunks_##name(void *ctx, int64_t begin, int64_t end)                    \
    {                                                                                             \
        mt__phase_job *j = ctx;                                                                   \
        const mt__conv_geom *g = j->g;                                                            \
        T *col = mt_malloc_array(j->colcap + g->cg * j->ptcap, sizeof(T));                        \
        if (col == NULL) {                                                                        \
            atomic_store(&j->err, MT_ENOMEM);                                                     \
            return;                                                                               \
        }                                                                                         \
        T *res = col + j->colcap;                                                                 \
        for (int64_t ci = begin; ci < end; ci++) {                                                \
            int64_t n0 = g->n * ci / j->nchunks, n1 = g->n * (ci + 1) / j->nchunks;               \
            for (int64_t n = n0; n < n1; n++) {                                                   \
                T *gxn = (T *)j->gx + n * g->c * g->inplane;                                      \
                memset(gxn, 0, sizeof(T) * (size_t)(g->c * g->inplane));                          \
                for (int64_t ph = 0; ph < j->nphases; ph++) {                                     \
                    int64_t ja, jb, jc;                                                           \
                    mt__phase_res(j, ph, &ja, &jb, &jc);                                          \
                    int64_t K = (j->wpoff[ph + 1] - j->wpoff[ph]) / (g->groups * g->cg);          \
                    int64_t rows = j->ax[0].nq[ja] * j->ax[1].nq[jb], nqc = j->ax[2].nq[jc];      \
                    if (K == 0 || rows == 0 || nqc == 0) {                                        \
                        continue; /* no taps reach these positions: they stay 0 */               \
                    }                                                                             \
                    int64_t tr = j->ptcap / nqc;                                                  \
                    tr = tr < 1 ? 1 : (tr > rows ? rows : tr);                                    \
                    for (int64_t gr = 0; gr < g->groups; gr++) {                                  \
                        const T *gyg = (const T *)j->gy + (n * g->cout + gr * g->coutg) * g->p;   \
                        const T *wpg = (const T *)j->wp + j->wpoff[ph] + gr * g->cg * K;          \
                        T *gxg = gxn + gr * g->cg * g->inplane;                                   \
                        for (int64_t r0 = 0; r0 < rows; r0 += tr) {                               \
                            int64_t r1 = r0 + tr < rows ? r0 + tr : rows, pt = (r1 - r0) * nqc;   \
                            mt__phase_gather_##name(j, gyg, ja, jb, jc, r0, r1, col);             \
                            if (mt_gemm_raw(DT, false, false, g->cg, pt, K, 1.0, wpg, K, col, pt, \
                                            0.0, res) < 0) {                                      \
                                atomic_store(&j->err, MT_ENOMEM);                                 \
                                continue;                                                         \
                            }                                                                     \
                            mt__phase_scatter_##name(j, res, ja, jb, jc, r0, r1, gxg);            \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
                if (j->bias != NULL) {                                                            \
                    const T *b = (const T *)j->bias;                                              \
                    for (int64_t c = 0; c < g->c; c++) {                                          \
                        T *pl = gxn + c * g->inplane;                                             \
                        for (int64_t i = 0; i < g->inplane; i++) {                                \
                            pl[i] += b[c];                                                        \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        free(col);                                                                                \
    }                                                                                             \
    /* The phases' weights: per phase, per group, cg x K with K's rows (co, taps) */              \
    static void mt__phase_weights_##name(const mt__phase_job *j, const T *w, T *wp)               \
    {                                                                                             \
        const mt__conv_geom *g = j->g;                                                            \
        const mt__phases *A = &j->ax[0], *B = &j->ax[1], *C = &j->ax[2];                          \
        const int64_t kvol = g->k[0] * g->k[1] * g->k[2];                                         \
        for (int64_t ph = 0; ph < j->nphases; ph++) {                                             \
            int64_t ja, jb, jc;                                                                   \
            mt__phase_res(j, ph, &ja, &jb, &jc);                                                  \
            int64_t K = (j->wpoff[ph + 1] - j->wpoff[ph]) / (g->groups * g->cg);                  \
            T *dst = wp + j->wpoff[ph];                                                           \
            for (int64_t gr = 0; gr < g->groups; gr++) {                                          \
                for (int64_t c = 0; c < g->cg; c++) {                                             \
                    T *row = dst + (gr * g->cg + c) * K;                                          \
                    int64_t col = 0;                                                              \
                    for (int64_t co = 0; co < g->coutg; co++) {                                   \
                        const T *wk = w + ((gr * g->coutg + co) * g->cg + c) * kvol;              \
                        for (int64_t ta = A->toff[ja]; ta < A->toff[ja + 1]; ta++) {              \
                            for (int64_t tb = B->toff[jb]; tb < B->toff[jb + 1]; tb++) {          \
                                for (int64_t tc = C->toff[jc]; tc < C->toff[jc + 1]; tc++) {      \
                                    row[col++] = wk[(A->tap[ta] * g->k[1] + B->tap[tb]) *         \
                                                       g->k[2] + C->tap[tc]];                     \
                                }                                                                 \
                            }                                                                     \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }
MT__DEFINE_PHASES(float32, float, MT_FLOAT32)
MT__DEFINE_PHASES(float64, double, MT_FLOAT64)

int
mt__conv_grad_input_phases(const mt__conv_geom *g, const mt_tensor *gy, const mt_tensor *w,
                           const mt_tensor *bias, mt_tensor *gx)
{
    mt__phases ax[3] = {{0}, {0}, {0}};
    int rc = 0;
    int64_t *wpoff = NULL;
    void *wp = NULL;
    for (int a = 0; a < 3 && rc == 0; a++) {
        rc = mt__phases_build(&ax[a], g->in[a], g->k[a], g->s[a], g->pad[a], g->dil[a]);
    }
    int64_t nphases = ax[0].nres * ax[1].nres * ax[2].nres; /* at most in's positions */
    bool dbl = gx->dtype == MT_FLOAT64;
    size_t isz = dbl ? sizeof(double) : sizeof(float);
    mt__phase_job j = {.g = g, .ax = ax, .dbl = dbl, .gy = mt_tensor_data(gy),
                       .bias = bias ? mt_tensor_data(bias) : NULL, .gx = mt_tensor_data(gx),
                       .nphases = nphases};
    if (rc == 0) {
        wpoff = mt_malloc_array(nphases + 1, sizeof(int64_t));
        rc = wpoff == NULL ? mt_error_code() : 0;
    }
    if (rc == 0) {
        /* per phase: groups * cg * K weights; their sum is at most the weight's size */
        int64_t at = 0, maxrow = 1;
        for (int64_t ph = 0; ph < nphases; ph++) {
            int64_t ja, jb, jc;
            mt__phase_res(&j, ph, &ja, &jb, &jc);
            int64_t taps = (ax[0].toff[ja + 1] - ax[0].toff[ja]) *
                           (ax[1].toff[jb + 1] - ax[1].toff[jb]) *
                           (ax[2].toff[jc + 1] - ax[2].toff[jc]);
            int64_t K = g->coutg * taps;
            wpoff[ph] = at;
            at += g->groups * g->cg * K;
            j.kmax = K > j.kmax ? K : j.kmax;
            maxrow = ax[2].nq[jc] > maxrow ? ax[2].nq[jc] : maxrow;
        }
        wpoff[nphases] = at;
        int64_t per = j.kmax * (int64_t)isz;
        j.ptcap = per > 0 ? MT__CONV_TILE_BYTES / per : MT__CONV_TILE_MIN;
        j.ptcap = j.ptcap < MT__CONV_TILE_MIN ? MT__CONV_TILE_MIN : j.ptcap;
        j.ptcap = j.ptcap > maxrow ? j.ptcap : maxrow; /* a tile holds at least one q-row */
        int64_t cap;
        if (mt_ckd_mul(&j.colcap, j.kmax, j.ptcap) || mt_ckd_mul(&cap, g->cg, j.ptcap) ||
            mt_ckd_add(&cap, cap, j.colcap)) {
            rc = mt_error_set(MT_ERUNTIME, "convolution: a column tile of %lld x %lld values is "
                              "too large", (long long)j.kmax, (long long)j.ptcap);
        }
        wp = rc == 0 ? mt_malloc_array(at, isz) : NULL;
        if (rc == 0 && wp == NULL) {
            rc = mt_error_code();
        }
    }
    if (rc == 0) {
        j.wp = wp;
        j.wpoff = wpoff;
        if (dbl) {
            mt__phase_weights_float64(&j, (const double *)mt_tensor_data(w), wp);
        }
        else {
            mt__phase_weights_float32(&j, (const float *)mt_tensor_data(w), wp);
        }
        j.nchunks = g->n < 64 ? g->n : 64;
        mt_parallel_fn fn = dbl ? mt__phase_chunks_float64 : mt__phase_chunks_float32;
        int nthreads = mt_get_num_threads();
        atomic_init(&j.err, 0);
        if (nthreads > 1 && g->n >= nthreads && j.nchunks > 1) {
            mt_parallel_chunks(j.nchunks, fn, &j);
        }
        else if (j.nchunks > 0) {
            fn(&j, 0, j.nchunks);
        }
        int err = atomic_load(&j.err);
        if (err < 0) {
            rc = mt_error_set(err, "convolution: out of memory for the column buffers (%lld x "
                              "%lld values per thread)", (long long)j.kmax, (long long)j.ptcap);
        }
    }
    free(wp);
    free(wpoff);
    for (int a = 0; a < 3; a++) {
        mt__phases_free(&ax[a]);
    }
    return rc;
}
