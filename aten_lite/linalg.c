/* aten_lite/linalg.c - matrix products on one batched GEMM core: BLAS for float32/64, exact fallback otherwise. */
#include "aten_lite/linalg.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/blas.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [One GEMM core]
 * Every product here (dot, mv, mm, bmm, matmul, addmm, addmv, baddbmm) is phrased as
 *     C[b] = beta * C[b] + alpha * A[b] @ B[b]      (beta == 0: C is not read)
 * with A (batch, m, k) and B (batch, k, n) strided views of the operands (a
 * vector is a 1-row or 1-column matrix, a broadcast batch has stride 0, so
 * nothing is copied to get there) and C a fresh contiguous (batch, m, n)
 * result.  mt__gemm then picks the engine by dtype:
 *   float32/float64  the BLAS when loaded (gemm, or gemv/dot for a 1-row or
 *                    1-column product).  A matrix whose column stride is 1 is
 *                    passed as is, one whose row stride is 1 as a transposed
 *                    operand; only other layouts are copied.
 *   float16/bfloat16 converted to float32 and computed there (accumulation in
 *                    float32, one rounding at the end, as torch on CPU);
 *   integers         converted to int64 and accumulated with wrap-around
 *                    (-fwrapv): since wrapping arithmetic is exact modulo
 *                    2^64, truncating to the narrow type gives what
 *                    accumulating in that type would, i.e. torch's results;
 *   bool             has no kernel, as torch ("addmm_impl_cpu_", "addmm_cuda").
 *
 * Note [Complex GEMM]
 * complex64/complex128 go to cblas_cgemm/zgemm when the loaded BLAS has
 * them (one gemm call per batch entry, the same layout rules), else to the
 * fallback kernel instantiated for the C complex types.  vdot conjugates
 * its first operand before the product (mt_vdot).
 *
 * Note [Fallback GEMM]
 * Without a BLAS (and always for integers) a cache-blocked kernel runs:
 * tiles of MT__IB rows of C are spread over the thread pool; for each tile
 * and each block of MT__JB columns, an accumulator tile stays in L1 while
 * K is swept in blocks of MT__KB rows of B (a KB x JB panel, which stays in
 * L2).  The innermost loop is an axpy along a contiguous row of B, which
 * the compiler vectorises.  Each element of C is summed by one thread in
 * the same order whatever the thread count, so results are deterministic. */

#define MT__IB 16
#define MT__JB 256
#define MT__KB 128

/* torch's caffe2 type names, as in "float != double". */
static const char *const mt__meta_names[MT_NUM_DTYPES] = {
    [MT_BOOL] = "bool",         [MT_UINT8] = "unsigned char", [MT_INT8] = "signed char",
    [MT_INT16] = "short int",   [MT_INT32] = "int",           [MT_INT64] = "long int",
    [MT_FLOAT16] = "c10::Half", [MT_BFLOAT16] = "c10::BFloat16",
    [MT_FLOAT32] = "float",     [MT_FLOAT64] = "double",
    [MT_COMPLEX64] = "c10::complex<float>", [MT_COMPLEX128] = "c10::complex<double>",
    [MT_UINT16] = "unsigned short", [MT_UINT32] = "unsigned int", [MT_UINT64] = "unsigned long",
};

typedef struct mt__gemm_args {
    const char *a, *b;
    char *c;
    int64_t batch, m, n, k;
    int64_t sa[3], sb[3]; /* strides in elements: batch, row, column; sb[2] == 1 */
    double alpha, beta;   /* float kernels */
    int64_t ialpha, ibeta;
    mt_complex128 zalpha, zbeta; /* complex kernels */
    bool beta0;
} mt__gemm_args;

static int64_t
mt__min(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* One fallback kernel per accumulation type; see Note [Fallback GEMM]. */
#define MT__DEFINE_GEMM_TILES(name, T, ALPHA, BETA)                                              \
    static void mt__gemm_tiles_##name(void *ctx, int64_t begin, int64_t end)                      \
    {                                                                                             \
        const mt__gemm_args *g = ctx;                                                             \
        int64_t mtiles = (g->m + MT__IB - 1) / MT__IB;                                            \
        T acc[MT__IB * MT__JB];                                                                   \
        for (int64_t t = begin; t < end; t++) {                                                   \
            int64_t bi = t / mtiles, i0 = (t % mtiles) * MT__IB;                                  \
            int64_t i1 = mt__min(i0 + MT__IB, g->m);                                              \
            const T *A = (const T *)g->a + bi * g->sa[0];                                         \
            const T *B = (const T *)g->b + bi * g->sb[0];                                         \
            T *C = (T *)g->c + bi * g->m * g->n;                                                  \
            for (int64_t j0 = 0; j0 < g->n; j0 += MT__JB) {                                       \
                int64_t jn = mt__min(MT__JB, g->n - j0);                                          \
                for (int64_t i = 0; i < i1 - i0; i++) {                                           \
                    memset(acc + i * MT__JB, 0, sizeof(T) * (size_t)jn);                          \
                }                                                                                 \
                for (int64_t k0 = 0; k0 < g->k; k0 += MT__KB) {                                   \
                    int64_t k1 = mt__min(k0 + MT__KB, g->k);                                      \
                    for (int64_t i = i0; i < i1; i++) {                                           \
                        T *restrict ar = acc + (i - i0) * MT__JB;                                 \
                        const T *arow = A + i * g->sa[1];                                         \
                        for (int64_t kk = k0; kk < k1; kk++) {                                    \
                            T av = arow[kk * g->sa[2]];                                           \
                            const T *restrict br = B + kk * g->sb[1] + j0;                        \
                            for (int64_t j = 0; j < jn; j++) {                                    \
                                ar[j] += av * br[j];                                              \
                            }                                                                     \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
                for (int64_t i = i0; i < i1; i++) {                                               \
                    const T *ar = acc + (i - i0) * MT__JB;                                        \
                    T *cr = C + i * g->n + j0;                                                    \
                    T alpha = (T)g->ALPHA, beta = (T)g->BETA;                                     \
                    if (g->beta0) {                                                               \
                        for (int64_t j = 0; j < jn; j++) {                                        \
                            cr[j] = alpha * ar[j];                                                \
                        }                                                                         \
                    }                                                                             \
                    else {                                                                        \
                        for (int64_t j = 0; j < jn; j++) {                                        \
                            cr[j] = alpha * ar[j] + beta * cr[j];                                 \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }
MT__DEFINE_GEMM_TILES(float32, float, alpha, beta)
MT__DEFINE_GEMM_TILES(float64, double, alpha, beta)
MT__DEFINE_GEMM_TILES(int64, int64_t, ialpha, ibeta)
MT__DEFINE_GEMM_TILES(complex64, mt_complex64, zalpha, zbeta)
MT__DEFINE_GEMM_TILES(complex128, mt_complex128, zalpha, zbeta)

static bool
mt__scalar_is_zero(mt_scalar s)
{
    if (s.kind == MT_SCALAR_COMPLEX) {
        return s.v.z == 0;
    }
    return s.kind == MT_SCALAR_FLOAT ? s.v.f == 0.0 : s.kind == MT_SCALAR_INT ? s.v.i == 0 : !s.v.b;
}

static mt_tensor *
mt__view3(mt_tensor *t, int64_t b, int64_t r, int64_t c, int64_t sb, int64_t sr, int64_t sc)
{
    int64_t sizes[3] = {b, r, c}, strides[3] = {sb, sr, sc};
    return mt_tensor_view_of(t, 3, sizes, strides, t->offset);
}

/* How a (rows x cols) matrix with strides (sr, sc) can be handed to a
 * row-major BLAS: as is (trans false) or transposed, with its leading
 * dimension.  False when neither stride is usable (the caller copies). */
static bool
mt__blas_layout(int64_t rows, int64_t cols, int64_t sr, int64_t sc, bool *trans, int64_t *ld)
{
    int64_t minc = cols > 1 ? cols : 1, minr = rows > 1 ? rows : 1;
    if ((sc == 1 || cols == 1) && (rows == 1 || sr >= minc)) {
        *trans = false;
        *ld = rows == 1 ? minc : sr;
        return true;
    }
    if ((sr == 1 || rows == 1) && (cols == 1 || sc >= minr)) {
        *trans = true;
        *ld = cols == 1 ? minr : sc;
        return true;
    }
    return false;
}

/* The fallback engine over float32/float64/int64 tensors of one dtype. */
static int
mt__gemm_fallback(mt_tensor *a, mt_tensor *b, mt_tensor *c, mt_scalar alpha, mt_scalar beta)
{
    mt_tensor *bc = NULL;
    if (b->strides[2] != 1 && b->sizes[2] > 1) {
        b = bc = mt_contiguous(b);
        if (bc == NULL) {
            return mt_error_code();
        }
    }
    mt__gemm_args g = {
        .a = mt_tensor_data(a), .b = mt_tensor_data(b), .c = mt_tensor_data(c),
        .batch = a->sizes[0], .m = a->sizes[1], .n = b->sizes[2], .k = a->sizes[2],
        .sa = {a->strides[0], a->strides[1], a->strides[2]},
        .sb = {b->strides[0], b->strides[1], 1},
        .alpha = mt_scalar_to_double(alpha), .beta = mt_scalar_to_double(beta),
        .ialpha = mt_scalar_to_int64(alpha), .ibeta = mt_scalar_to_int64(beta),
        .zalpha = mt_scalar_to_complex(alpha), .zbeta = mt_scalar_to_complex(beta),
        .beta0 = mt__scalar_is_zero(beta),
    };
    int64_t tiles = g.batch * ((g.m + MT__IB - 1) / MT__IB);
    int64_t work = MT__IB * (g.n > 0 ? g.n : 1) * (g.k > 0 ? g.k : 1);
    int64_t grain = work >= 65536 ? 1 : 65536 / work;
    mt_parallel_fn fn = c->dtype == MT_FLOAT32      ? mt__gemm_tiles_float32
                        : c->dtype == MT_FLOAT64    ? mt__gemm_tiles_float64
                        : c->dtype == MT_COMPLEX64  ? mt__gemm_tiles_complex64
                        : c->dtype == MT_COMPLEX128 ? mt__gemm_tiles_complex128
                                                    : mt__gemm_tiles_int64;
    mt_parallel_for(0, tiles, grain, fn, &g);
    mt_tensor_decref(bc);
    return 0;
}

/* Note [One thread pool]
 * OpenBLAS's own threads spin for a while after each product; the pool's
 * threads running the next kernel (the bias add, the activation) then fight
 * them for the cores, and a 5 us add took 40 us after a product.  So the
 * BLAS always runs single-threaded (mt_blas_gemm, see Note [Run-time BLAS]),
 * and a large product is split over the pool instead: column blocks of C (or
 * row blocks when C is narrow), one single-threaded gemm per block, or whole
 * products of a batch per thread. */
typedef struct mt__gemm_split {
    bool dbl, ta, tb;
    int64_t m, n, k, lda, ldb, batch;
    double alpha, beta;
    const char *a, *b;
    char *c;
    int64_t sa, sb;     /* batch strides of a and b in bytes (c's: m * n * isz) */
    int64_t parts;      /* blocks per product (1: products whole) */
    bool by_rows;
    atomic_bool failed;
} mt__gemm_split;

static void
mt__gemm_split_run(void *ctx, int64_t begin, int64_t end)
{
    mt__gemm_split *g = ctx;
    size_t isz = g->dbl ? 8 : 4;
    for (int64_t t = begin; t < end; t++) {
        int64_t bi = t / g->parts, part = t % g->parts;
        int64_t len = g->by_rows ? g->m : g->n;
        int64_t lo = len * part / g->parts, hi = len * (part + 1) / g->parts;
        const char *a = g->a + bi * g->sa, *b = g->b + bi * g->sb;
        char *c = g->c + bi * g->m * g->n * (int64_t)isz;
        int64_t m = g->m, n = g->n;
        if (g->by_rows) { /* rows lo..hi of op(A) and of C */
            a += (g->ta ? lo : lo * g->lda) * (int64_t)isz;
            c += lo * g->n * (int64_t)isz;
            m = hi - lo;
        }
        else { /* columns lo..hi of op(B) and of C */
            b += (g->tb ? lo * g->ldb : lo) * (int64_t)isz;
            c += lo * (int64_t)isz;
            n = hi - lo;
        }
        if (m > 0 && n > 0 &&
            !mt_blas_gemm(g->dbl, g->ta, g->tb, m, n, g->k, g->alpha, a, g->lda, b, g->ldb,
                          g->beta, c, g->n)) {
            atomic_store(&g->failed, true);
        }
    }
}

/* The products of a batch through the BLAS, split over the pool when large
 * (Note [One thread pool]); false when the BLAS refused (nothing is lost: the
 * caller runs its fallback over the whole batch). */
static bool
mt__gemm_blas_batch(mt__gemm_split *g)
{
    int nt = mt_in_parallel_region() ? 1 : mt_get_num_threads();
    double flops = 2.0 * (double)g->m * (double)g->n * (double)g->k;
    g->parts = 1;
    g->by_rows = false;
    if (nt > 1 && flops >= 2e6 && g->batch < nt) {
        g->by_rows = g->n < 32 * nt;
        int64_t len = g->by_rows ? g->m : g->n;
        g->parts = len < nt ? len : nt;
        g->parts = g->parts > 0 ? g->parts : 1;
    }
    atomic_init(&g->failed, false);
    int64_t tasks = g->batch * g->parts;
    if (nt > 1 && flops * (double)g->batch >= 2e6 && tasks > 1) {
        mt_parallel_for(0, tasks, 1, mt__gemm_split_run, g);
    }
    else {
        mt__gemm_split_run(g, 0, tasks);
    }
    return !atomic_load(&g->failed);
}

/* y = alpha * op(A) x + beta * y (A: rows x cols, leading dimension lda),
 * its output split over the pool when A is large (Note [One thread pool]). */
typedef struct mt__gemv_split {
    bool dbl, trans;
    int64_t rows, cols, lda, incx, parts;
    double alpha, beta;
    const char *a, *x;
    char *y;
    atomic_bool failed;
} mt__gemv_split;

static void
mt__gemv_split_run(void *ctx, int64_t begin, int64_t end)
{
    mt__gemv_split *g = ctx;
    size_t isz = g->dbl ? 8 : 4;
    int64_t len = g->trans ? g->cols : g->rows;
    for (int64_t part = begin; part < end; part++) {
        int64_t lo = len * part / g->parts, hi = len * (part + 1) / g->parts;
        if (hi <= lo) {
            continue;
        }
        const char *a = g->a + (g->trans ? lo : lo * g->lda) * (int64_t)isz;
        if (!mt_blas_gemv(g->dbl, g->trans, g->trans ? g->rows : hi - lo,
                          g->trans ? hi - lo : g->cols, g->alpha, a, g->lda, g->x, g->incx,
                          g->beta, g->y + lo * (int64_t)isz, 1)) {
            atomic_store(&g->failed, true);
        }
    }
}

static bool
mt__gemv_blas(bool dbl, bool trans, int64_t rows, int64_t cols, double alpha, const void *a,
              int64_t lda, const void *x, int64_t incx, double beta, void *y)
{
    mt__gemv_split g = {
        .dbl = dbl, .trans = trans, .rows = rows, .cols = cols, .lda = lda, .incx = incx,
        .alpha = alpha, .beta = beta, .a = a, .x = x, .y = y, .parts = 1,
    };
    atomic_init(&g.failed, false);
    int nt = mt_in_parallel_region() ? 1 : mt_get_num_threads();
    int64_t len = trans ? cols : rows;
    if (nt > 1 && (double)rows * (double)cols >= 65536.0 && len >= 2 * nt) {
        g.parts = nt;
        mt_parallel_for(0, g.parts, 1, mt__gemv_split_run, &g);
    }
    else {
        mt__gemv_split_run(&g, 0, 1);
    }
    return !atomic_load(&g.failed);
}

int
mt_gemm_raw(mt_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha,
            const void *a, int64_t lda, const void *b, int64_t ldb, double beta, void *c)
{
    bool dbl = dt == MT_FLOAT64;
    size_t isz = dbl ? sizeof(double) : sizeof(float);
    if (m == 0 || n == 0) {
        return 0;
    }
    if (k == 0) {
        if (beta == 0.0) {
            memset(c, 0, (size_t)(m * n) * isz);
        }
        else if (beta != 1.0) {
            for (int64_t i = 0; i < m * n; i++) {
                if (dbl) {
                    ((double *)c)[i] *= beta;
                }
                else {
                    ((float *)c)[i] *= (float)beta;
                }
            }
        }
        return 0;
    }
    /* CBLAS does not read C when beta is 0 (the BLAS standard: "C need not be
     * set on input"), and neither does the fallback, so C is not cleared */
    mt__gemm_split sp = {
        .dbl = dbl, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb,
        .batch = 1, .alpha = alpha, .beta = beta, .a = a, .b = b, .c = c,
    };
    if (mt_blas_available() && mt__gemm_blas_batch(&sp)) {
        return 0;
    }
    /* the fallback reads B by rows: a transposed B is copied into k x n first */
    void *bt = NULL;
    if (tb) {
        bt = mt_malloc_array(k * n, isz);
        if (bt == NULL) {
            return mt_error_code();
        }
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = 0; j < k; j++) {
                if (dbl) {
                    ((double *)bt)[j * n + i] = ((const double *)b)[i * ldb + j];
                }
                else {
                    ((float *)bt)[j * n + i] = ((const float *)b)[i * ldb + j];
                }
            }
        }
        b = bt;
        ldb = n;
    }
    mt__gemm_args g = {
        .a = a, .b = b, .c = c, .batch = 1, .m = m, .n = n, .k = k,
        .sa = {0, ta ? 1 : lda, ta ? lda : 1},
        .sb = {0, ldb, 1},
        .alpha = alpha, .beta = beta, .beta0 = beta == 0.0,
    };
    int64_t work = MT__IB * n * k;
    int64_t grain = work >= 65536 ? 1 : 65536 / work;
    mt_parallel_for(0, (m + MT__IB - 1) / MT__IB, grain,
                    dbl ? mt__gemm_tiles_float64 : mt__gemm_tiles_float32, &g);
    free(bt);
    return 0;
}

/* Brings the (batch, m, k) and (batch, k, n) operands to layouts a BLAS takes
 * (each matrix row- or column-major with a leading dimension): *a / *b are
 * replaced by contiguous copies (*ac / *bc, the caller releases them) when
 * their strides are not such a layout.  0 or a negative MT_E* code (nothing
 * held then). */
static int
mt__blas_operands(mt_tensor **a, mt_tensor **b, bool *ta, int64_t *lda, bool *tb, int64_t *ldb,
                  mt_tensor **ac, mt_tensor **bc)
{
    const int64_t m = (*a)->sizes[1], k = (*a)->sizes[2], n = (*b)->sizes[2];
    if (!mt__blas_layout(m, k, (*a)->strides[1], (*a)->strides[2], ta, lda)) {
        *a = *ac = mt_contiguous(*a);
        if (*ac == NULL) {
            return mt_error_code();
        }
        mt__blas_layout(m, k, (*a)->strides[1], (*a)->strides[2], ta, lda);
    }
    if (!mt__blas_layout(k, n, (*b)->strides[1], (*b)->strides[2], tb, ldb)) {
        *b = *bc = mt_contiguous(*b);
        if (*bc == NULL) {
            mt_tensor_decref(*ac);
            *ac = NULL;
            return mt_error_code();
        }
        mt__blas_layout(k, n, (*b)->strides[1], (*b)->strides[2], tb, ldb);
    }
    return 0;
}

/* float32/float64 through the BLAS; false when it is not available. */
static int
mt__gemm_blas(mt_tensor *a, mt_tensor *b, mt_tensor *c, mt_scalar alpha_s, mt_scalar beta_s,
              bool *done)
{
    int64_t batch = a->sizes[0], m = a->sizes[1], k = a->sizes[2], n = b->sizes[2];
    *done = false;
    if (!mt_blas_available() || k == 0) {
        return 0;
    }
    bool ta = false, tb = false;
    int64_t lda = 1, ldb = 1;
    mt_tensor *ac = NULL, *bc = NULL;
    int rc = mt__blas_operands(&a, &b, &ta, &lda, &tb, &ldb, &ac, &bc);
    if (rc < 0) {
        return rc;
    }
    bool dbl = c->dtype == MT_FLOAT64;
    size_t isz = dbl ? 8 : 4;
    double alpha = mt_scalar_to_double(alpha_s);
    double beta = mt__scalar_is_zero(beta_s) ? 0.0 : mt_scalar_to_double(beta_s);
    const char *pa = mt_tensor_data(a), *pb = mt_tensor_data(b);
    char *pc = mt_tensor_data(c);
    /* C is uninitialised when beta is 0: GEMM does not read it then (the BLAS standard: "C
     * need not be set on input", as mt_gemm_raw relies on), but the GEMV and dot paths below
     * may compute beta * y (0 * NaN), so those get zeros first (O(mn) next to O(mnk)). */
    if (beta == 0.0 && !(m > 1 && n > 1)) {
        memset(pc, 0, (size_t)(batch * m * n) * isz);
    }
    bool ok = true;
    if (m > 1 && n > 1) {
        mt__gemm_split g = {
            .dbl = dbl, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb,
            .batch = batch, .alpha = alpha, .beta = beta, .a = pa, .b = pb, .c = pc,
            .sa = a->strides[0] * (int64_t)isz, .sb = b->strides[0] * (int64_t)isz,
        };
        ok = mt__gemm_blas_batch(&g);
        batch = 0; /* done */
    }
    for (int64_t i = 0; i < batch && ok; i++) {
        const char *ai = pa + i * a->strides[0] * (int64_t)isz;
        const char *bi = pb + i * b->strides[0] * (int64_t)isz;
        char *ci = pc + i * m * n * (int64_t)isz;
        if (m == 1 && n == 1) {
            double d;
            float f;
            ok = mt_blas_dot(dbl, k, ai, a->strides[2], bi, b->strides[1], dbl ? (void *)&d : &f);
            if (ok) {
                double v = alpha * (dbl ? d : f);
                if (beta != 0.0) {
                    v += beta * (dbl ? *(double *)ci : *(float *)ci);
                }
                if (dbl) {
                    *(double *)ci = v;
                }
                else {
                    *(float *)ci = (float)v;
                }
            }
            continue;
        }
        bool gv = false;
        if (n == 1) { /* y(m) = op(A) x, x a column of B */
            gv = mt__gemv_blas(dbl, ta, ta ? k : m, ta ? m : k, alpha, ai, lda, bi, b->strides[1],
                               beta, ci);
        }
        else if (m == 1) { /* y(n) = op(B)^T x, x the row of A */
            gv = mt__gemv_blas(dbl, !tb, tb ? n : k, tb ? k : n, alpha, bi, ldb, ai,
                               a->strides[2], beta, ci);
        }
        if (!gv) {
            ok = mt_blas_gemm(dbl, ta, tb, m, n, k, alpha, ai, lda, bi, ldb, beta, ci, n);
        }
    }
    mt_tensor_decref(ac);
    mt_tensor_decref(bc);
    *done = ok;
    return 0;
}

/* complex64/complex128 through cblas_cgemm/zgemm (one gemm per batch entry);
 * *done false when the BLAS lacks them.  See Note [Complex GEMM]. */
static int
mt__gemm_blas_complex(mt_tensor *a, mt_tensor *b, mt_tensor *c, mt_scalar alpha_s, mt_scalar beta_s,
                      bool *done)
{
    int64_t batch = a->sizes[0], m = a->sizes[1], k = a->sizes[2], n = b->sizes[2];
    *done = false;
    if (!mt_blas_available() || k == 0) {
        return 0;
    }
    bool ta = false, tb = false;
    int64_t lda = 1, ldb = 1;
    mt_tensor *ac = NULL, *bc = NULL;
    int rc = mt__blas_operands(&a, &b, &ta, &lda, &tb, &ldb, &ac, &bc);
    if (rc < 0) {
        return rc;
    }
    bool dbl = c->dtype == MT_COMPLEX128;
    int64_t isz = dbl ? 16 : 8;
    bool beta0 = mt__scalar_is_zero(beta_s);
    mt_complex128 za = mt_scalar_to_complex(alpha_s), zb = beta0 ? 0 : mt_scalar_to_complex(beta_s);
    mt_complex64 fa = (mt_complex64)za, fb = (mt_complex64)zb;
    const void *pal = dbl ? (const void *)&za : (const void *)&fa;
    const void *pbe = dbl ? (const void *)&zb : (const void *)&fb;
    const char *pa = mt_tensor_data(a), *pb = mt_tensor_data(b);
    char *pc = mt_tensor_data(c);
    if (beta0) { /* see mt__gemm_blas */
        memset(pc, 0, (size_t)(batch * m * n * isz));
    }
    bool ok = true;
    for (int64_t i = 0; i < batch && ok; i++) {
        ok = mt_blas_gemm_complex(dbl, ta, tb, m, n, k, pal, pa + i * a->strides[0] * isz, lda,
                                  pb + i * b->strides[0] * isz, ldb, pbe, pc + i * m * n * isz, n);
    }
    mt_tensor_decref(ac);
    mt_tensor_decref(bc);
    *done = ok;
    return 0;
}

/* See Note [One GEMM core].  a (batch, m, k), b (batch, k, n) and c (batch,
 * m, n, contiguous) share one dtype; c's values are read only when beta != 0. */
/* The cpu GEMM: BLAS for float32/float64 and complex when one is loaded, else (and for
 * int64) the portable kernel; float16/bfloat16 in float32, narrow integers in int64. */
static int
mt__cpu_gemm(mt_tensor *a, mt_tensor *b, mt_tensor *c, mt_scalar alpha, mt_scalar beta)
{
    if (c->numel == 0) {
        return 0;
    }
    mt_dtype dt = a->dtype;
    if (dt == MT_FLOAT32 || dt == MT_FLOAT64) {
        bool done;
        int rc = mt__gemm_blas(a, b, c, alpha, beta, &done);
        if (rc < 0 || done) {
            return rc;
        }
        return mt__gemm_fallback(a, b, c, alpha, beta);
    }
    if (dt == MT_INT64) {
        return mt__gemm_fallback(a, b, c, alpha, beta);
    }
    if (mt_dtype_is_complex(dt)) {
        bool done;
        int rc = mt__gemm_blas_complex(a, b, c, alpha, beta, &done);
        if (rc < 0 || done) {
            return rc;
        }
        return mt__gemm_fallback(a, b, c, alpha, beta);
    }
    /* float16/bfloat16 in float32, narrow integers in int64 */
    mt_dtype wide = mt_dtype_is_floating(dt) ? MT_FLOAT32 : MT_INT64;
    mt_tensor *aw = mt_to_dtype(a, wide, false);
    mt_tensor *bw = aw ? mt_to_dtype(b, wide, false) : NULL;
    mt_tensor *cw = NULL;
    if (bw != NULL) {
        cw = mt__scalar_is_zero(beta) ? mt_tensor_empty(wide, 3, c->sizes, mt_tensor_device(c))
                                      : mt_to_dtype(c, wide, true);
    }
    int rc = cw == NULL ? mt_error_code() : mt__cpu_gemm(aw, bw, cw, alpha, beta);
    if (rc == 0) {
        rc = mt_copy_(c, cw);
    }
    mt_tensor_decref(aw);
    mt_tensor_decref(bw);
    mt_tensor_decref(cw);
    return rc;
}

static const mt_gemm_kernels mt__cpu_gemm_kernels = {.gemm = mt__cpu_gemm,
                                                     .cdist = mt__cpu_cdist};

void
mt__cpu_gemm_register(void)
{
    MT_REGISTER_STUB(gemm, MT_CPU, &mt__cpu_gemm_kernels);
}

static int
mt__check_dtypes(const mt_tensor *a, const mt_tensor *b)
{
    if (a->dtype != b->dtype) {
        return mt_error_set(MT_ERUNTIME, "expected m1 and m2 to have the same dtype, but got: %s != %s",
                            mt__meta_names[a->dtype], mt__meta_names[b->dtype]);
    }
    if (a->dtype == MT_BOOL) {
        bool cuda = mt_tensor_device(a).type == MT_CUDA;
        return mt_error_set(MT_ENOTIMPL, "\"%s\" not implemented for 'Bool'",
                            cuda ? "addmm_cuda" : "addmm_impl_cpu_");
    }
    return 0;
}

/* Runs the core into a new tensor of shape (ndim, sizes), c3 being its (batch,
 * m, n) view; steals a3 and b3.  `init` (borrowed, may be NULL) is broadcast
 * into the result first when beta != 0. */
static mt_tensor *
mt__run(mt_tensor *a3, mt_tensor *b3, int ndim, const int64_t *sizes, mt_tensor *init,
        mt_scalar beta, mt_scalar alpha)
{
    mt_tensor *r = NULL, *c3 = NULL;
    if (a3 == NULL || b3 == NULL) {
        goto done;
    }
    const mt_tensor *ts[3] = {a3, b3, init};
    mt_device_type dev;
    int (*gemm)(mt_tensor *, mt_tensor *, mt_tensor *, mt_scalar, mt_scalar) =
        mt_check_same_device(3, ts, &dev) == MT_OK ? MT_STUB(gemm, gemm, dev, "mm") : NULL;
    if (gemm == NULL) {
        goto done;
    }
    r = mt_tensor_empty(a3->dtype, ndim, sizes, mt_tensor_device(a3));
    if (r == NULL) {
        goto done;
    }
    int64_t m = a3->sizes[1], n = b3->sizes[2];
    c3 = mt__view3(r, a3->sizes[0], m, n, m * n, n, 1);
    if (c3 == NULL) {
        goto fail;
    }
    bool beta0 = mt__scalar_is_zero(beta);
    if (init != NULL && !beta0) {
        mt_tensor *e = mt_expand(init, ndim, sizes);
        int rc = e == NULL ? -1 : mt_copy_(r, e);
        mt_tensor_decref(e);
        if (rc < 0) {
            goto fail;
        }
    }
    if (c3->numel > 0 && gemm(a3, b3, c3, alpha, init == NULL ? mt_scalar_int(0) : beta) < 0) {
        goto fail;
    }
    goto done;
fail:
    mt_tensor_decref(r);
    r = NULL;
done:
    mt_tensor_decref(a3);
    mt_tensor_decref(b3);
    mt_tensor_decref(c3);
    return r;
}

mt_tensor *
mt_dot(const mt_tensor *a, const mt_tensor *b, const char *fname)
{
    if (a->ndim != 1 || b->ndim != 1) {
        mt_error_set(MT_ERUNTIME, "1D tensors expected, but got %dD and %dD tensors", a->ndim,
                     b->ndim);
        return NULL;
    }
    if (a->dtype != b->dtype) {
        mt_error_set(MT_ERUNTIME, "%s : expected both vectors to have same dtype, but found %s and %s",
                     fname, mt_dtype_scalar_name(a->dtype), mt_dtype_scalar_name(b->dtype));
        return NULL;
    }
    if (a->sizes[0] != b->sizes[0]) {
        mt_error_set(MT_ERUNTIME, "inconsistent tensor size, expected tensor [%lld] and src [%lld] "
                     "to have the same number of elements, but got %lld and %lld elements "
                     "respectively", (long long)a->sizes[0], (long long)b->sizes[0],
                     (long long)a->sizes[0], (long long)b->sizes[0]);
        return NULL;
    }
    if (a->dtype == MT_BOOL) {
        mt_error_set(MT_ENOTIMPL, "\"%s\" not implemented for 'Bool'", fname);
        return NULL;
    }
    int64_t k = a->sizes[0];
    mt_tensor *conj = NULL;
    if (strcmp(fname, "vdot") == 0 && mt_dtype_is_complex(a->dtype)) {
        /* vdot(a, b) = sum conj(a[i]) * b[i] */
        conj = mt_unary(MT_OP_CONJ_PHYSICAL, (mt_tensor *)a, NULL);
        if (conj == NULL) {
            return NULL;
        }
        a = conj;
    }
    mt_tensor *a3 = mt__view3((mt_tensor *)a, 1, 1, k, 0, k, a->strides[0]);
    mt_tensor_decref(conj); /* a3 holds the storage */
    mt_tensor *b3 = mt__view3((mt_tensor *)b, 1, k, 1, 0, b->strides[0], 1);
    return mt__run(a3, b3, 0, NULL, NULL, mt_scalar_int(0), mt_scalar_int(1));
}

static int
mt__check_mv(const mt_tensor *input, const mt_tensor *mat, const mt_tensor *vec)
{
    if (mat->ndim != 2 || vec->ndim != 1 || (input != NULL && input->ndim > 1)) {
        return mt_error_set(MT_ERUNTIME, "vector + matrix @ vector expected, got %d, %d, %d",
                            input ? input->ndim : 1, mat->ndim, vec->ndim);
    }
    if (mat->sizes[1] != vec->sizes[0] ||
        (input != NULL && input->ndim == 1 && input->sizes[0] != mat->sizes[0] &&
         input->sizes[0] != 1)) {
        int64_t in = input == NULL ? mat->sizes[0] : input->ndim == 0 ? 1 : input->sizes[0];
        return mt_error_set(MT_ERUNTIME, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                            (long long)in, (long long)mat->sizes[0], (long long)mat->sizes[1],
                            (long long)vec->sizes[0]);
    }
    return mt__check_dtypes(mat, vec);
}

static mt_tensor *
mt__mv(mt_tensor *input, const mt_tensor *mat, const mt_tensor *vec, mt_scalar beta, mt_scalar alpha)
{
    int64_t m = mat->sizes[0], k = mat->sizes[1];
    mt_tensor *a3 = mt__view3((mt_tensor *)mat, 1, m, k, 0, mat->strides[0], mat->strides[1]);
    mt_tensor *b3 = mt__view3((mt_tensor *)vec, 1, k, 1, 0, vec->strides[0], 1);
    return mt__run(a3, b3, 1, &m, input, beta, alpha);
}

mt_tensor *
mt_mv(const mt_tensor *mat, const mt_tensor *vec)
{
    if (mt__check_mv(NULL, mat, vec) < 0) {
        return NULL;
    }
    return mt__mv(NULL, mat, vec, mt_scalar_int(0), mt_scalar_int(1));
}

static int
mt__check_mm_shapes(const mt_tensor *a, const mt_tensor *b)
{
    if (a->sizes[1] != b->sizes[0]) {
        return mt_error_set(MT_ERUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                            (long long)a->sizes[0], (long long)a->sizes[1], (long long)b->sizes[0],
                            (long long)b->sizes[1]);
    }
    return mt__check_dtypes(a, b);
}

static mt_tensor *
mt__mm(mt_tensor *input, const mt_tensor *a, const mt_tensor *b, mt_scalar beta, mt_scalar alpha)
{
    int64_t m = a->sizes[0], k = a->sizes[1], n = b->sizes[1];
    int64_t sizes[2] = {m, n};
    mt_tensor *a3 = mt__view3((mt_tensor *)a, 1, m, k, 0, a->strides[0], a->strides[1]);
    mt_tensor *b3 = mt__view3((mt_tensor *)b, 1, k, n, 0, b->strides[0], b->strides[1]);
    return mt__run(a3, b3, 2, sizes, input, beta, alpha);
}

mt_tensor *
mt_mm(const mt_tensor *a, const mt_tensor *b)
{
    if (a->ndim != 2) {
        mt_error_set(MT_ERUNTIME, "self must be a matrix");
        return NULL;
    }
    if (b->ndim != 2) {
        mt_error_set(MT_ERUNTIME, "mat2 must be a matrix");
        return NULL;
    }
    if (mt__check_mm_shapes(a, b) < 0) {
        return NULL;
    }
    return mt__mm(NULL, a, b, mt_scalar_int(0), mt_scalar_int(1));
}

static int
mt__check_alpha_beta(mt_dtype dt, mt_scalar beta, mt_scalar alpha)
{
    if (!mt_dtype_is_complex(dt) && (beta.kind == MT_SCALAR_COMPLEX || alpha.kind == MT_SCALAR_COMPLEX)) {
        return mt_error_set(MT_ERUNTIME, "For non-complex input tensors, argument %s must not be a "
                            "complex number.", beta.kind == MT_SCALAR_COMPLEX ? "beta" : "alpha");
    }
    if (mt_dtype_is_integral(dt, true)) {
        if (beta.kind == MT_SCALAR_FLOAT) {
            return mt_error_set(MT_ERUNTIME, "For integral input tensors, argument beta must not be "
                                "a floating point number.");
        }
        if (alpha.kind == MT_SCALAR_FLOAT) {
            return mt_error_set(MT_ERUNTIME, "For integral input tensors, argument alpha must not "
                                "be a floating point number.");
        }
    }
    return 0;
}

static int
mt__check_bmm(const mt_tensor *a, const mt_tensor *b)
{
    if (a->ndim != 3) {
        return mt_error_set(MT_ERUNTIME, "batch1 must be a 3D tensor");
    }
    if (b->ndim != 3) {
        return mt_error_set(MT_ERUNTIME, "batch2 must be a 3D tensor");
    }
    if (b->sizes[0] != a->sizes[0] || b->sizes[1] != a->sizes[2]) {
        return mt_error_set(MT_ERUNTIME, "Expected size for first two dimensions of batch2 tensor "
                            "to be: [%lld, %lld] but got: [%lld, %lld].", (long long)a->sizes[0],
                            (long long)a->sizes[2], (long long)b->sizes[0], (long long)b->sizes[1]);
    }
    return mt__check_dtypes(a, b);
}

mt_tensor *
mt_baddbmm(mt_tensor *input, const mt_tensor *batch1, const mt_tensor *batch2, mt_scalar beta,
           mt_scalar alpha)
{
    if (input->dtype != batch1->dtype || input->dtype != batch2->dtype) {
        mt_error_set(MT_ERUNTIME, "Input dtypes must be the same, got: input %s, batch1: %s, batch2: %s",
                     mt__meta_names[input->dtype], mt__meta_names[batch1->dtype],
                     mt__meta_names[batch2->dtype]);
        return NULL;
    }
    if (mt__check_bmm(batch1, batch2) < 0 || mt__check_alpha_beta(input->dtype, beta, alpha) < 0) {
        return NULL;
    }
    int64_t sizes[3] = {batch1->sizes[0], batch1->sizes[1], batch2->sizes[2]};
    mt_tensor *a3 = mt_alias(batch1), *b3 = mt_alias(batch2);
    return mt__run(a3, b3, 3, sizes, input, beta, alpha);
}

mt_tensor *
mt_bmm(const mt_tensor *a, const mt_tensor *b)
{
    if (mt__check_bmm(a, b) < 0) {
        return NULL;
    }
    int64_t sizes[3] = {a->sizes[0], a->sizes[1], b->sizes[2]};
    mt_tensor *a3 = mt_alias(a), *b3 = mt_alias(b);
    return mt__run(a3, b3, 3, sizes, NULL, mt_scalar_int(0), mt_scalar_int(1));
}

/* The batched case of matmul: leading dims broadcast, a 1-D operand becomes
 * a row (a) or column (b) matrix whose extra dim is dropped from the result. */
static mt_tensor *
mt__matmul_batched(mt_tensor *a, mt_tensor *b)
{
    int da = a->ndim, db = b->ndim;
    int64_t n = da > 1 ? a->sizes[da - 2] : 1, m1 = a->sizes[da - 1];
    int64_t m2 = db > 1 ? b->sizes[db - 2] : b->sizes[0], p = db > 1 ? b->sizes[db - 1] : 1;
    int nba = da > 2 ? da - 2 : 0, nbb = db > 2 ? db - 2 : 0;
    int nb = nba > nbb ? nba : nbb;
    int64_t bsz[MT_MAX_DIMS + 2], batch = 1;
    for (int i = 0; i < nb; i++) {
        int ia = i - (nb - nba), ib = i - (nb - nbb);
        int64_t sa = ia >= 0 ? a->sizes[ia] : 1, sb = ib >= 0 ? b->sizes[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            mt_error_set(MT_ERUNTIME, "The size of tensor a (%lld) must match the size of tensor b "
                         "(%lld) at non-singleton dimension %d", (long long)sa, (long long)sb, i);
            return NULL;
        }
        bsz[i] = sa == 1 ? sb : sa;
        batch *= bsz[i];
    }
    mt_tensor *ea = NULL, *eb = NULL, *a3 = NULL, *b3 = NULL, *r = NULL;
    int64_t shp[MT_MAX_DIMS + 2];
    memcpy(shp, bsz, sizeof(int64_t) * (size_t)nb);
    shp[nb] = n;
    shp[nb + 1] = m1;
    mt_tensor *a2 = da > 1 ? mt_alias(a) : mt_unsqueeze(a, 0);
    ea = a2 ? mt_expand(a2, nb + 2, shp) : NULL;
    mt_tensor_decref(a2);
    shp[nb] = m2;
    shp[nb + 1] = p;
    mt_tensor *b2 = db > 1 ? mt_alias(b) : mt_unsqueeze(b, 1);
    eb = b2 ? mt_expand(b2, nb + 2, shp) : NULL;
    mt_tensor_decref(b2);
    if (ea == NULL || eb == NULL) {
        goto done;
    }
    int64_t s3[3] = {batch, n, m1};
    a3 = mt_reshape(ea, 3, s3);
    s3[1] = m2;
    s3[2] = p;
    b3 = mt_reshape(eb, 3, s3);
    if (a3 == NULL || b3 == NULL) {
        goto done;
    }
    mt_tensor *r3 = mt_bmm(a3, b3);
    if (r3 == NULL) {
        goto done;
    }
    int nd = nb;
    if (da > 1) {
        shp[nd++] = n;
    }
    if (db > 1) {
        shp[nd++] = p;
    }
    memcpy(shp, bsz, sizeof(int64_t) * (size_t)nb);
    r = mt_view(r3, nd, shp);
    mt_tensor_decref(r3);
done:
    mt_tensor_decref(ea);
    mt_tensor_decref(eb);
    mt_tensor_decref(a3);
    mt_tensor_decref(b3);
    return r;
}

mt_tensor *
mt_matmul(mt_tensor *a, mt_tensor *b)
{
    int da = a->ndim, db = b->ndim;
    if (da == 0 || db == 0) {
        mt_error_set(MT_ERUNTIME, "both arguments to matmul need to be at least 1D, but they are "
                     "%dD and %dD", da, db);
        return NULL;
    }
    if (da == 1 && db == 1) {
        return mt_dot(a, b, "dot");
    }
    if (da == 2 && db == 1) {
        return mt_mv(a, b);
    }
    if (da == 1 && db == 2) {
        mt_tensor *a2 = mt_unsqueeze(a, 0);
        mt_tensor *r2 = a2 ? mt_mm(a2, b) : NULL;
        mt_tensor *r = r2 ? mt_squeeze(r2, 1, (int64_t[]){0}) : NULL;
        mt_tensor_decref(a2);
        mt_tensor_decref(r2);
        return r;
    }
    if (da == 2 && db == 2) {
        return mt_mm(a, b);
    }
    if (da >= 3 && db <= 2) {
        /* fold a's leading dims into its rows: one mm instead of a batch */
        int64_t s2[2] = {1, a->sizes[da - 1]};
        for (int i = 0; i < da - 1; i++) {
            s2[0] *= a->sizes[i];
        }
        mt_tensor *a2 = mt_reshape(a, 2, s2);
        mt_tensor *b2 = db == 2 ? mt_alias(b) : mt_unsqueeze(b, 1);
        mt_tensor *r2 = a2 && b2 ? mt_mm(a2, b2) : NULL;
        mt_tensor *r = NULL;
        if (r2 != NULL) {
            int64_t shp[MT_MAX_DIMS];
            memcpy(shp, a->sizes, sizeof(int64_t) * (size_t)(da - 1));
            int nd = da - 1;
            if (db == 2) {
                shp[nd++] = b->sizes[1];
            }
            r = mt_view(r2, nd, shp);
        }
        mt_tensor_decref(a2);
        mt_tensor_decref(b2);
        mt_tensor_decref(r2);
        return r;
    }
    return mt__matmul_batched(a, b);
}

static int
mt__check_input_dtype(const mt_tensor *input, const mt_tensor *mat2)
{
    if (input->dtype != mat2->dtype) {
        return mt_error_set(MT_ERUNTIME, "self and mat2 must have the same dtype, but got %s and %s",
                            mt_dtype_scalar_name(input->dtype), mt_dtype_scalar_name(mat2->dtype));
    }
    return 0;
}

mt_tensor *
mt_addmm(mt_tensor *input, const mt_tensor *mat1, const mt_tensor *mat2, mt_scalar beta,
         mt_scalar alpha)
{
    /* torch's order: dtypes, then dims, then shapes */
    if (mt__check_input_dtype(input, mat2) < 0) {
        return NULL;
    }
    if (mat1->dtype != mat2->dtype) {
        mt_error_set(MT_ERUNTIME, "mat1 and mat2 must have the same dtype, but got %s and %s",
                     mt_dtype_scalar_name(mat1->dtype), mt_dtype_scalar_name(mat2->dtype));
        return NULL;
    }
    if (mat1->ndim != 2) {
        mt_error_set(MT_ERUNTIME, "mat1 must be a matrix, got %d-D tensor", mat1->ndim);
        return NULL;
    }
    if (mat2->ndim != 2) {
        mt_error_set(MT_ERUNTIME, "mat2 must be a matrix, got %d-D tensor", mat2->ndim);
        return NULL;
    }
    if (mt__check_mm_shapes(mat1, mat2) < 0 || mt__check_alpha_beta(mat1->dtype, beta, alpha) < 0) {
        return NULL;
    }
    return mt__mm(input, mat1, mat2, beta, alpha);
}

mt_tensor *
mt_addmv(mt_tensor *input, const mt_tensor *mat, const mt_tensor *vec, mt_scalar beta,
         mt_scalar alpha)
{
    if (mt__check_mv(input, mat, vec) < 0 || mt__check_input_dtype(input, vec) < 0 ||
        mt__check_alpha_beta(mat->dtype, beta, alpha) < 0) {
        return NULL;
    }
    return mt__mv(input, mat, vec, beta, alpha);
}

/* ---- TF32 switch (linalg.h) ---- */
static atomic_bool mt__allow_tf32;

void
mt_set_matmul_allow_tf32(bool allow)
{
    atomic_store_explicit(&mt__allow_tf32, allow, memory_order_relaxed);
}

bool
mt_matmul_allow_tf32(void)
{
    return atomic_load_explicit(&mt__allow_tf32, memory_order_relaxed);
}
