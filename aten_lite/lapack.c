/* aten_lite/lapack.c - dlopen'ed LAPACK (Fortran interface) and the batched drivers over it. */
#include "aten_lite/lapack.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* ---- the library (See Note [Run-time LAPACK]) ------------------------------------------- */

typedef void (*mt__fn)(void);

/* X(field, real routine, complex routine): resolved as s/d + real, c/z + complex. */
#define MT__ROUTINES(X)        \
    X(getrf, "getrf", "getrf") \
    X(getrs, "getrs", "getrs") \
    X(potrf, "potrf", "potrf") \
    X(potri, "potri", "potri") \
    X(trsm, "trsm", "trsm")    \
    X(geqrf, "geqrf", "geqrf") \
    X(orgqr, "orgqr", "ungqr") \
    X(gesdd, "gesdd", "gesdd") \
    X(syevd, "syevd", "heevd") \
    X(geev, "geev", "geev")    \
    X(gels, "gels", "gels")    \
    X(gelsy, "gelsy", "gelsy") \
    X(gelsd, "gelsd", "gelsd") \
    X(gelss, "gelss", "gelss")

typedef struct mt__lapack {
#define MT__FIELD(f, r, c) mt__fn f[4]; /* indexed by mt__letter: s d c z */
    MT__ROUTINES(MT__FIELD)
#undef MT__FIELD
    char path[4096];
} mt__lapack;

/* Published once complete; never freed (a thread may be using it). */
static _Atomic(mt__lapack *) mt__lib;
static pthread_mutex_t mt__lock = PTHREAD_MUTEX_INITIALIZER;
static char mt__want[4096]; /* guarded by mt__lock */

void
mt_lapack_set_path(const char *path)
{
    pthread_mutex_lock(&mt__lock);
    snprintf(mt__want, sizeof(mt__want), "%s", path ? path : "");
    pthread_mutex_unlock(&mt__lock);
}

const char *
mt_lapack_path(void)
{
    mt__lapack *lib = atomic_load(&mt__lib);
    return lib ? lib->path : "";
}

static void *
mt__sym(void *h, const char *name)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "scipy_%s", name);
    void *p = dlsym(h, buf);
    return p != NULL ? p : dlsym(h, name);
}

/* Opens mt__want and resolves everything; called with mt__lock held. */
static int
mt__open(void)
{
    if (mt__want[0] == '\0') {
        return mt_error_set(MT_ERUNTIME,
                            "minitorch.linalg needs LAPACK: install scipy-openblas32 (pip install "
                            "scipy-openblas32) or set MINITORCH_LAPACK to a library that provides "
                            "it");
    }
    void *h = dlopen(mt__want, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *msg = dlerror();
        return mt_error_set(MT_ERUNTIME, "cannot load LAPACK library %s: %s", mt__want,
                            msg ? msg : "unknown error");
    }
    mt__lapack *lib = calloc(1, sizeof(*lib));
    if (lib == NULL) {
        dlclose(h);
        return mt_error_set(MT_ENOMEM, "out of memory");
    }
    static const char letters[4] = {'s', 'd', 'c', 'z'};
    char missing[256] = "";
    for (int t = 0; t < 4; t++) {
        char name[32];
#define MT__RESOLVE(f, r, c)                                                               \
    snprintf(name, sizeof(name), "%c%s_", letters[t], t < 2 ? r : c);                      \
    *(void **)(&lib->f[t]) = mt__sym(h, name);                                             \
    if (lib->f[t] == NULL && strlen(missing) + strlen(name) + 3 < sizeof(missing)) {       \
        strcat(missing, missing[0] ? ", " : "");                                           \
        strcat(missing, name);                                                             \
    }
        MT__ROUTINES(MT__RESOLVE)
#undef MT__RESOLVE
    }
    if (missing[0] != '\0') {
        free(lib);
        dlclose(h);
        return mt_error_set(MT_ERUNTIME, "%s does not provide the LAPACK routines minitorch.linalg "
                            "uses (missing: %s); set MINITORCH_LAPACK to a library that does",
                            mt__want, missing);
    }
    /* one thread per LAPACK call: the pool spreads the batch (Note [Run-time LAPACK]) */
    void (*set_threads)(int);
    *(void **)(&set_threads) = mt__sym(h, "openblas_set_num_threads");
    if (set_threads != NULL) {
        set_threads(1);
    }
    snprintf(lib->path, sizeof(lib->path), "%s", mt__want);
    atomic_store(&mt__lib, lib);
    return 0;
}

int
mt_lapack_ensure(void)
{
    if (atomic_load(&mt__lib) != NULL) {
        return 0;
    }
    pthread_mutex_lock(&mt__lock);
    int rc = atomic_load(&mt__lib) != NULL ? 0 : mt__open();
    pthread_mutex_unlock(&mt__lock);
    return rc;
}

/* ---- Fortran signatures (every argument by address; hidden character lengths last) ---- */

typedef void (*mt__getrf_t)(const int *, const int *, void *, const int *, int *, int *);
typedef void (*mt__getrs_t)(const char *, const int *, const int *, const void *, const int *,
                            const int *, void *, const int *, int *, size_t);
typedef void (*mt__potrf_t)(const char *, const int *, void *, const int *, int *, size_t);
typedef void (*mt__trsm_t)(const char *, const char *, const char *, const char *, const int *,
                           const int *, const void *, const void *, const int *, void *,
                           const int *, size_t, size_t, size_t, size_t);
typedef void (*mt__geqrf_t)(const int *, const int *, void *, const int *, void *, void *,
                            const int *, int *);
typedef void (*mt__orgqr_t)(const int *, const int *, const int *, void *, const int *,
                            const void *, void *, const int *, int *);
typedef void (*mt__gesdd_r)(const char *, const int *, const int *, void *, const int *, void *,
                            void *, const int *, void *, const int *, void *, const int *, int *,
                            int *, size_t);
typedef void (*mt__gesdd_c)(const char *, const int *, const int *, void *, const int *, void *,
                            void *, const int *, void *, const int *, void *, const int *, void *,
                            int *, int *, size_t);
typedef void (*mt__syevd_r)(const char *, const char *, const int *, void *, const int *, void *,
                            void *, const int *, int *, const int *, int *, size_t, size_t);
typedef void (*mt__syevd_c)(const char *, const char *, const int *, void *, const int *, void *,
                            void *, const int *, void *, const int *, int *, const int *, int *,
                            size_t, size_t);
typedef void (*mt__geev_r)(const char *, const char *, const int *, void *, const int *, void *,
                           void *, void *, const int *, void *, const int *, void *, const int *,
                           int *, size_t, size_t);
typedef void (*mt__geev_c)(const char *, const char *, const int *, void *, const int *, void *,
                           void *, const int *, void *, const int *, void *, const int *, void *,
                           int *, size_t, size_t);
typedef void (*mt__gels_t)(const char *, const int *, const int *, const int *, void *,
                           const int *, void *, const int *, void *, const int *, int *, size_t);
typedef void (*mt__gelsy_r)(const int *, const int *, const int *, void *, const int *, void *,
                            const int *, int *, const void *, int *, void *, const int *, int *);
typedef void (*mt__gelsy_c)(const int *, const int *, const int *, void *, const int *, void *,
                            const int *, int *, const void *, int *, void *, const int *, void *,
                            int *);
typedef void (*mt__gelsd_r)(const int *, const int *, const int *, void *, const int *, void *,
                            const int *, void *, const void *, int *, void *, const int *, int *,
                            int *);
typedef void (*mt__gelsd_c)(const int *, const int *, const int *, void *, const int *, void *,
                            const int *, void *, const void *, int *, void *, const int *, void *,
                            int *, int *);
typedef void (*mt__gelss_r)(const int *, const int *, const int *, void *, const int *, void *,
                            const int *, void *, const void *, int *, void *, const int *, int *);
typedef void (*mt__gelss_c)(const int *, const int *, const int *, void *, const int *, void *,
                            const int *, void *, const void *, int *, void *, const int *, void *,
                            int *);

/* ---- operands (See Note [Batched column-major operands]) -------------------------------- */

static int
mt__letter(mt_dtype dt)
{
    switch (dt) {
    case MT_FLOAT32:
        return 0;
    case MT_FLOAT64:
        return 1;
    case MT_COMPLEX64:
        return 2;
    case MT_COMPLEX128:
        return 3;
    default:
        return -1;
    }
}

static const mt_dtype mt__real_of[4] = {MT_FLOAT32, MT_FLOAT64, MT_FLOAT32, MT_FLOAT64};
static const mt_dtype mt__complex_of[4] = {MT_COMPLEX64, MT_COMPLEX128, MT_COMPLEX64,
                                           MT_COMPLEX128};

static int
mt__bad(const char *what)
{
    return mt_error_set(MT_ERUNTIME, "LAPACK driver: %s has the wrong dtype, shape or layout",
                        what);
}

/* The product of t's sizes before the last `tail` ones. */
static int64_t
mt__lead(const mt_tensor *t, int tail)
{
    int64_t b = 1;
    for (int i = 0; i < t->ndim - tail; i++) {
        b *= t->sizes[i];
    }
    return b;
}

/* A matrix operand rows x cols of dtype dt with `batch` matrices. */
static int
mt__check_mat(const mt_tensor *t, mt_dtype dt, int64_t batch, int64_t rows, int64_t cols,
              const char *what)
{
    if (t == NULL || t->dtype != dt || t->ndim < 2 || mt_tensor_device(t).type != MT_CPU ||
        t->sizes[t->ndim - 2] != rows || t->sizes[t->ndim - 1] != cols || mt__lead(t, 2) != batch) {
        return mt__bad(what);
    }
    int64_t sz[MT_MAX_DIMS], st[MT_MAX_DIMS];
    memcpy(sz, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(st, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sz[t->ndim - 2] = cols;
    sz[t->ndim - 1] = rows;
    st[t->ndim - 2] = t->strides[t->ndim - 1];
    st[t->ndim - 1] = t->strides[t->ndim - 2];
    return mt_is_contiguous(t->ndim, sz, st) ? 0 : mt__bad(what);
}

/* A vector operand of length len (ndim >= 1) or, len < 0, one value per matrix (any shape
 * with `batch` elements), contiguous. */
static int
mt__check_vec(const mt_tensor *t, mt_dtype dt, int64_t batch, int64_t len, const char *what)
{
    if (t == NULL || t->dtype != dt || mt_tensor_device(t).type != MT_CPU || !t->contiguous) {
        return mt__bad(what);
    }
    if (len < 0) {
        return t->numel == batch ? 0 : mt__bad(what);
    }
    if (t->ndim < 1 || t->sizes[t->ndim - 1] != len || mt__lead(t, 1) != batch) {
        return mt__bad(what);
    }
    return 0;
}

/* Dimensions a, b, c of a job that calls LAPACK (empty: it calls nothing, any size goes). */
static int
mt__check_dims(bool empty, int64_t a, int64_t b, int64_t c)
{
    if (empty) {
        return 0;
    }
    if (a < 0 || a > INT_MAX || b < 0 || b > INT_MAX || c < 0 || c > INT_MAX) {
        return mt_error_set(MT_ERUNTIME, "linalg: matrices with more than %d rows or columns "
                            "exceed LAPACK's 32-bit interface", INT_MAX);
    }
    return 0;
}

static int
mt__max1(int v)
{
    return v > 1 ? v : 1;
}

/* ---- one job over a batch --------------------------------------------------------------- */

typedef struct mt__job mt__job;
typedef int (*mt__run_fn)(mt__job *j, int64_t lo, int64_t hi);

struct mt__job {
    const mt__lapack *lib;
    mt__run_fn run;
    int t;         /* mt__letter of the operands' dtype */
    int m, n, k;   /* the routine's dimensions */
    char c1, c2;   /* character options */
    bool f1, f2;   /* flags */
    double rcond;
    char *p[5];    /* each operand's first element (NULL: absent) */
    int64_t st[5]; /* bytes from one matrix of an operand to the next */
    int32_t *info; /* one per matrix, may be NULL */
    int64_t *rank; /* one per matrix, may be NULL */
    atomic_int failed;
};

static void
mt__chunk(void *ctx, int64_t lo, int64_t hi)
{
    mt__job *j = ctx;
    int rc = j->run(j, lo, hi);
    if (rc < 0) {
        atomic_store(&j->failed, rc);
    }
}

/* Runs j over `batch` matrices of about `flops` each, split over the pool when the batch is
 * worth it. */
static int
mt__dispatch(mt__job *j, int64_t batch, double flops)
{
    if (batch <= 0) {
        return 0;
    }
    atomic_init(&j->failed, 0);
    double per = flops > 1.0 ? flops : 1.0;
    int64_t grain = per >= 1e5 ? 1 : (int64_t)(1e5 / per) + 1;
    mt_parallel_for(0, batch, grain, mt__chunk, j);
    int rc = atomic_load(&j->failed);
    if (rc == MT_ENOMEM) {
        return mt_error_set(MT_ENOMEM, "out of memory allocating LAPACK's workspace");
    }
    if (rc < 0) {
        return mt_error_set(MT_ERUNTIME, "linalg: the LAPACK workspace for matrices of this size "
                            "exceeds its 32-bit interface");
    }
    return 0;
}

static size_t
mt__isz(int t)
{
    static const size_t sizes[4] = {4, 8, 8, 16};
    return sizes[t];
}

/* The workspace size a query wrote to w[0] (a real value of the routine's precision), rounded
 * up; -1 when it exceeds the 32-bit interface. */
static int
mt__lwork(const void *w, int t)
{
    double v = (t == 0 || t == 2) ? (double)*(const float *)w : *(const double *)w;
    v = v * (1.0 + 1e-6) + 1.0;
    return v < (double)INT_MAX ? (int)v : -1;
}

/* Byte buffer of n elements of size isz (at least one element). */
static void *
mt__alloc(int64_t n, size_t isz)
{
    if (n < 1) {
        n = 1;
    }
    if ((uint64_t)n > SIZE_MAX / isz) {
        return NULL;
    }
    return malloc((size_t)n * isz);
}

#define MT__AT(j, op, i) ((j)->p[op] + (i) * (j)->st[op])

/* ---- LU ----------------------------------------------------------------------------------- */

static int
mt__run_getrf(mt__job *j, int64_t lo, int64_t hi)
{
    mt__getrf_t f = (mt__getrf_t)j->lib->getrf[j->t];
    int lda = mt__max1(j->m);
    for (int64_t i = lo; i < hi; i++) {
        int info = 0;
        f(&j->m, &j->n, MT__AT(j, 0, i), &lda, (int *)MT__AT(j, 1, i), &info);
        j->info[i] = info;
    }
    return 0;
}

int
mt_lapack_getrf(mt_tensor *a, mt_tensor *ipiv, mt_tensor *info)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || a->ndim < 2) {
        return mt__bad("the matrix");
    }
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], b = mt__lead(a, 2);
    int64_t k = m < n ? m : n;
    if ((rc = mt__check_mat(a, a->dtype, b, m, n, "the matrix")) < 0 ||
        (rc = mt__check_vec(ipiv, MT_INT32, b, k, "the pivots")) < 0 ||
        (rc = mt__check_vec(info, MT_INT32, b, -1, "info")) < 0 ||
        (rc = mt__check_dims(m == 0 || n == 0, m, n, 0)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_getrf, .t = t, .m = (int)m,
                 .n = (int)n, .info = (int32_t *)mt_tensor_data(info)};
    j.p[0] = mt_tensor_data(a);
    j.st[0] = m * n * (int64_t)mt__isz(t);
    j.p[1] = mt_tensor_data(ipiv);
    j.st[1] = k * 4;
    if (m == 0 || n == 0) {
        memset(j.info, 0, (size_t)b * 4);
        return 0;
    }
    return mt__dispatch(&j, b, (double)m * (double)n * (double)k);
}

static int
mt__run_getrs(mt__job *j, int64_t lo, int64_t hi)
{
    mt__getrs_t f = (mt__getrs_t)j->lib->getrs[j->t];
    int ld = mt__max1(j->n);
    for (int64_t i = lo; i < hi; i++) {
        int info = 0;
        f(&j->c1, &j->n, &j->k, MT__AT(j, 0, i), &ld, (const int *)MT__AT(j, 1, i),
          MT__AT(j, 2, i), &ld, &info, 1);
    }
    return 0;
}

int
mt_lapack_getrs(mt_tensor *a, mt_tensor *ipiv, mt_tensor *b, char trans)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || a->ndim < 2 || b->ndim < 2 || (trans != 'N' && trans != 'T' && trans != 'C')) {
        return mt__bad("the factors");
    }
    int64_t n = a->sizes[a->ndim - 1], k = b->sizes[b->ndim - 1], bt = mt__lead(a, 2);
    if ((rc = mt__check_mat(a, a->dtype, bt, n, n, "the factors")) < 0 ||
        (rc = mt__check_vec(ipiv, MT_INT32, bt, n, "the pivots")) < 0 ||
        (rc = mt__check_mat(b, a->dtype, bt, n, k, "the right-hand side")) < 0 ||
        (rc = mt__check_dims(n == 0 || k == 0, n, k, 0)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_getrs, .t = t, .n = (int)n,
                 .k = (int)k, .c1 = trans};
    j.p[0] = mt_tensor_data(a);
    j.st[0] = n * n * (int64_t)mt__isz(t);
    j.p[1] = mt_tensor_data(ipiv);
    j.st[1] = n * 4;
    j.p[2] = mt_tensor_data(b);
    j.st[2] = n * k * (int64_t)mt__isz(t);
    if (n == 0 || k == 0) {
        return 0;
    }
    return mt__dispatch(&j, bt, 2.0 * (double)n * (double)n * (double)k);
}

/* ---- Cholesky ------------------------------------------------------------------------------ */

/* Zeroes the triangle of an n x n column-major matrix below (upper: the factor is above) or
 * above its diagonal. */
static void
mt__zero_other(char *a, int n, size_t isz, bool upper)
{
    for (int c = 0; c < n; c++) {
        char *col = a + (size_t)c * (size_t)n * isz;
        if (upper) {
            memset(col + (size_t)(c + 1) * isz, 0, (size_t)(n - c - 1) * isz);
        }
        else {
            memset(col, 0, (size_t)c * isz);
        }
    }
}

static int
mt__run_potrf(mt__job *j, int64_t lo, int64_t hi)
{
    mt__potrf_t f = (mt__potrf_t)(j->f1 ? j->lib->potri[j->t] : j->lib->potrf[j->t]);
    char uplo = j->f2 ? 'U' : 'L';
    int ld = mt__max1(j->n);
    size_t isz = mt__isz(j->t);
    for (int64_t i = lo; i < hi; i++) {
        int info = 0;
        char *a = MT__AT(j, 0, i);
        f(&uplo, &j->n, a, &ld, &info, 1);
        j->info[i] = info;
        int n = j->n;
        if (!j->f1) {
            mt__zero_other(a, n, isz, j->f2);
            continue;
        }
        /* potri: mirror the computed triangle into the other one (conjugated) */
        for (int c = 0; c < n; c++) {
            for (int r = c + 1; r < n; r++) {
                size_t lower = ((size_t)r + (size_t)c * (size_t)n) * isz;
                size_t upper = ((size_t)c + (size_t)r * (size_t)n) * isz;
                char *dst = a + (j->f2 ? lower : upper);
                const char *src = a + (j->f2 ? upper : lower);
                memcpy(dst, src, isz);
                if (j->t == 2) {
                    ((float *)dst)[1] = -((float *)dst)[1];
                }
                else if (j->t == 3) {
                    ((double *)dst)[1] = -((double *)dst)[1];
                }
            }
        }
    }
    return 0;
}

static int
mt__potrf_like(mt_tensor *a, bool upper, mt_tensor *info, bool inverse)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || a->ndim < 2) {
        return mt__bad("the matrix");
    }
    int64_t n = a->sizes[a->ndim - 1], b = mt__lead(a, 2);
    if ((rc = mt__check_mat(a, a->dtype, b, n, n, "the matrix")) < 0 ||
        (rc = mt__check_vec(info, MT_INT32, b, -1, "info")) < 0 ||
        (rc = mt__check_dims(n == 0, n, 0, 0)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_potrf, .t = t, .n = (int)n,
                 .f1 = inverse, .f2 = upper, .info = (int32_t *)mt_tensor_data(info)};
    j.p[0] = mt_tensor_data(a);
    j.st[0] = n * n * (int64_t)mt__isz(t);
    if (n == 0) {
        memset(j.info, 0, (size_t)b * 4);
        return 0;
    }
    return mt__dispatch(&j, b, (double)n * (double)n * (double)n / 3.0);
}

int
mt_lapack_potrf(mt_tensor *a, bool upper, mt_tensor *info)
{
    return mt__potrf_like(a, upper, info, false);
}

int
mt_lapack_potri(mt_tensor *a, bool upper, mt_tensor *info)
{
    return mt__potrf_like(a, upper, info, true);
}

/* ---- triangular solves --------------------------------------------------------------------- */

static int
mt__run_trsm(mt__job *j, int64_t lo, int64_t hi)
{
    mt__trsm_t f = (mt__trsm_t)j->lib->trsm[j->t];
    static const float one_s[2] = {1.0f, 0.0f};
    static const double one_d[2] = {1.0, 0.0};
    const void *one = (j->t == 0 || j->t == 2) ? (const void *)one_s : (const void *)one_d;
    char side = j->f1 ? 'L' : 'R', uplo = j->f2 ? 'U' : 'L', diag = j->c2 == 'U' ? 'U' : 'N';
    int na = j->f1 ? j->m : j->k; /* A's order: B's rows (left) or columns */
    int lda = mt__max1(na), ldb = mt__max1(j->m);
    for (int64_t i = lo; i < hi; i++) {
        f(&side, &uplo, &j->c1, &diag, &j->m, &j->k, one, MT__AT(j, 0, i), &lda, MT__AT(j, 1, i),
          &ldb, 1, 1, 1, 1);
    }
    return 0;
}

int
mt_lapack_trsm(mt_tensor *a, mt_tensor *b, bool left, bool upper, char trans, bool unit)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || b->ndim < 2 || (trans != 'N' && trans != 'T' && trans != 'C')) {
        return mt__bad("the triangular matrix");
    }
    int64_t m = b->sizes[b->ndim - 2], k = b->sizes[b->ndim - 1], bt = mt__lead(b, 2);
    int64_t na = left ? m : k;
    if ((rc = mt__check_mat(a, a->dtype, bt, na, na, "the triangular matrix")) < 0 ||
        (rc = mt__check_mat(b, a->dtype, bt, m, k, "the right-hand side")) < 0 ||
        (rc = mt__check_dims(m == 0 || k == 0, m, k, 0)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_trsm, .t = t, .m = (int)m,
                 .k = (int)k, .c1 = trans, .c2 = unit ? 'U' : 'N', .f1 = left, .f2 = upper};
    j.p[0] = mt_tensor_data(a);
    j.st[0] = na * na * (int64_t)mt__isz(t);
    j.p[1] = mt_tensor_data(b);
    j.st[1] = m * k * (int64_t)mt__isz(t);
    if (m == 0 || k == 0) {
        return 0;
    }
    return mt__dispatch(&j, bt, (double)na * (double)m * (double)k);
}

/* ---- QR --------------------------------------------------------------------------------------- */

static int
mt__run_geqrf(mt__job *j, int64_t lo, int64_t hi)
{
    mt__geqrf_t f = (mt__geqrf_t)j->lib->geqrf[j->t];
    int lda = mt__max1(j->m), lwork = -1, info = 0;
    char q[32];
    f(&j->m, &j->n, MT__AT(j, 0, lo), &lda, MT__AT(j, 1, lo), q, &lwork, &info);
    if ((lwork = mt__lwork(q, j->t)) < 0) {
        return MT_ERUNTIME;
    }
    void *work = mt__alloc(lwork, mt__isz(j->t));
    if (work == NULL) {
        return MT_ENOMEM;
    }
    for (int64_t i = lo; i < hi; i++) {
        f(&j->m, &j->n, MT__AT(j, 0, i), &lda, MT__AT(j, 1, i), work, &lwork, &info);
    }
    free(work);
    return 0;
}

int
mt_lapack_geqrf(mt_tensor *a, mt_tensor *tau)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || a->ndim < 2) {
        return mt__bad("the matrix");
    }
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], b = mt__lead(a, 2);
    int64_t k = m < n ? m : n;
    if ((rc = mt__check_mat(a, a->dtype, b, m, n, "the matrix")) < 0 ||
        (rc = mt__check_vec(tau, a->dtype, b, k, "tau")) < 0 ||
        (rc = mt__check_dims(k == 0, m, n, 0)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_geqrf, .t = t, .m = (int)m,
                 .n = (int)n};
    j.p[0] = mt_tensor_data(a);
    j.st[0] = m * n * (int64_t)mt__isz(t);
    j.p[1] = mt_tensor_data(tau);
    j.st[1] = k * (int64_t)mt__isz(t);
    if (k == 0) {
        return 0;
    }
    return mt__dispatch(&j, b, 2.0 * (double)m * (double)n * (double)k);
}

static int
mt__run_orgqr(mt__job *j, int64_t lo, int64_t hi)
{
    mt__orgqr_t f = (mt__orgqr_t)j->lib->orgqr[j->t];
    int lda = mt__max1(j->m), lwork = -1, info = 0;
    char q[32];
    f(&j->m, &j->n, &j->k, MT__AT(j, 0, lo), &lda, MT__AT(j, 1, lo), q, &lwork, &info);
    if ((lwork = mt__lwork(q, j->t)) < 0) {
        return MT_ERUNTIME;
    }
    void *work = mt__alloc(lwork, mt__isz(j->t));
    if (work == NULL) {
        return MT_ENOMEM;
    }
    for (int64_t i = lo; i < hi; i++) {
        f(&j->m, &j->n, &j->k, MT__AT(j, 0, i), &lda, MT__AT(j, 1, i), work, &lwork, &info);
    }
    free(work);
    return 0;
}

int
mt_lapack_orgqr(mt_tensor *q, mt_tensor *tau)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(q->dtype);
    if (t < 0 || q->ndim < 2 || tau->ndim < 1) {
        return mt__bad("the reflectors");
    }
    int64_t m = q->sizes[q->ndim - 2], n = q->sizes[q->ndim - 1], b = mt__lead(q, 2);
    int64_t k = tau->sizes[tau->ndim - 1];
    if (!(k <= n && n <= m)) {
        return mt__bad("the reflectors");
    }
    if ((rc = mt__check_mat(q, q->dtype, b, m, n, "the reflectors")) < 0 ||
        (rc = mt__check_vec(tau, q->dtype, b, k, "tau")) < 0 ||
        (rc = mt__check_dims(n == 0, m, n, k)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_orgqr, .t = t, .m = (int)m,
                 .n = (int)n, .k = (int)k};
    j.p[0] = mt_tensor_data(q);
    j.st[0] = m * n * (int64_t)mt__isz(t);
    j.p[1] = mt_tensor_data(tau);
    j.st[1] = k * (int64_t)mt__isz(t);
    if (n == 0) {
        return 0;
    }
    return mt__dispatch(&j, b, 2.0 * (double)m * (double)n * (double)(k > 0 ? k : 1));
}

/* ---- SVD ------------------------------------------------------------------------------------- */

static int
mt__run_gesdd(mt__job *j, int64_t lo, int64_t hi)
{
    int m = j->m, n = j->n, mn = m < n ? m : n, mx = m < n ? n : m;
    char jobz = j->c1;
    int lda = mt__max1(m), ldu = mt__max1(m);
    int ldvt = jobz == 'A' ? mt__max1(n) : jobz == 'S' ? mt__max1(mn) : 1;
    bool cplx = j->t >= 2;
    int info = 0, lwork = -1;
    char q[32], dummy[32];
    int *iwork = mt__alloc(8 * (int64_t)mn, sizeof(int));
    void *rwork = NULL;
    if (iwork == NULL) {
        return MT_ENOMEM;
    }
    if (cplx) {
        int64_t lr = jobz == 'N' ? 7 * (int64_t)mn
                                 : (int64_t)mn * (5 * (int64_t)mn + 7 > 2 * (int64_t)mx + 2 * (int64_t)mn + 1
                                                      ? 5 * (int64_t)mn + 7
                                                      : 2 * (int64_t)mx + 2 * (int64_t)mn + 1);
        rwork = mt__alloc(lr, mt__isz(j->t) / 2);
        if (rwork == NULL) {
            free(iwork);
            return MT_ENOMEM;
        }
    }
#define MT__SVD_CALL(i, work)                                                                     \
    do {                                                                                        \
        void *u_ = j->p[2] ? MT__AT(j, 2, i) : dummy, *vt_ = j->p[3] ? MT__AT(j, 3, i) : dummy; \
        if (cplx) {                                                                             \
            ((mt__gesdd_c)j->lib->gesdd[j->t])(&jobz, &m, &n, MT__AT(j, 0, i), &lda,            \
                                               MT__AT(j, 1, i), u_, &ldu, vt_, &ldvt, work,      \
                                               &lwork, rwork, iwork, &info, 1);                  \
        }                                                                                       \
        else {                                                                                  \
            ((mt__gesdd_r)j->lib->gesdd[j->t])(&jobz, &m, &n, MT__AT(j, 0, i), &lda,            \
                                               MT__AT(j, 1, i), u_, &ldu, vt_, &ldvt, work,      \
                                               &lwork, iwork, &info, 1);                         \
        }                                                                                       \
    } while (0)
    MT__SVD_CALL(lo, q);
    lwork = mt__lwork(q, j->t);
    void *work = lwork < 0 ? NULL : mt__alloc(lwork, mt__isz(j->t));
    if (work == NULL) {
        free(iwork);
        free(rwork);
        return lwork < 0 ? MT_ERUNTIME : MT_ENOMEM;
    }
    for (int64_t i = lo; i < hi; i++) {
        info = 0;
        MT__SVD_CALL(i, work);
        j->info[i] = info;
    }
#undef MT__SVD_CALL
    free(work);
    free(iwork);
    free(rwork);
    return 0;
}

int
mt_lapack_gesdd(mt_tensor *a, mt_tensor *s, mt_tensor *u, mt_tensor *vt, char jobz,
                mt_tensor *info)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || a->ndim < 2 || (jobz != 'N' && jobz != 'S' && jobz != 'A') ||
        ((u == NULL || vt == NULL) != (jobz == 'N'))) {
        return mt__bad("the matrix");
    }
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], b = mt__lead(a, 2);
    int64_t k = m < n ? m : n;
    int64_t uc = jobz == 'A' ? m : k, vr = jobz == 'A' ? n : k;
    if ((rc = mt__check_mat(a, a->dtype, b, m, n, "the matrix")) < 0 ||
        (rc = mt__check_vec(s, mt__real_of[t], b, k, "the singular values")) < 0 ||
        (u != NULL && (rc = mt__check_mat(u, a->dtype, b, m, uc, "U")) < 0) ||
        (vt != NULL && (rc = mt__check_mat(vt, a->dtype, b, vr, n, "Vh")) < 0) ||
        (rc = mt__check_vec(info, MT_INT32, b, -1, "info")) < 0 ||
        (rc = mt__check_dims(k == 0, m, n, 0)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_gesdd, .t = t, .m = (int)m,
                 .n = (int)n, .c1 = jobz, .info = (int32_t *)mt_tensor_data(info)};
    size_t isz = mt__isz(t);
    j.p[0] = mt_tensor_data(a);
    j.st[0] = m * n * (int64_t)isz;
    j.p[1] = mt_tensor_data(s);
    j.st[1] = k * (int64_t)(isz / (t >= 2 ? 2 : 1));
    if (u != NULL) {
        j.p[2] = mt_tensor_data(u);
        j.st[2] = m * uc * (int64_t)isz;
        j.p[3] = mt_tensor_data(vt);
        j.st[3] = vr * n * (int64_t)isz;
    }
    if (k == 0) {
        memset(j.info, 0, (size_t)b * 4);
        return 0;
    }
    return mt__dispatch(&j, b, 4.0 * (double)m * (double)n * (double)k);
}

/* ---- Hermitian eigenproblems ------------------------------------------------------------------ */

static int
mt__run_syevd(mt__job *j, int64_t lo, int64_t hi)
{
    char jobz = j->f1 ? 'V' : 'N', uplo = j->f2 ? 'U' : 'L';
    int n = j->n, lda = mt__max1(n), info = 0;
    bool cplx = j->t >= 2;
    int lwork = -1, lrwork = -1, liwork = -1, qi = 0;
    char q[32], qr[32];
#define MT__EVD_CALL(i, work, rwork, iwork)                                                         \
    do {                                                                                          \
        if (cplx) {                                                                               \
            ((mt__syevd_c)j->lib->syevd[j->t])(&jobz, &uplo, &n, MT__AT(j, 0, i), &lda,           \
                                               MT__AT(j, 1, i), work, &lwork, rwork, &lrwork,      \
                                               iwork, &liwork, &info, 1, 1);                       \
        }                                                                                         \
        else {                                                                                    \
            ((mt__syevd_r)j->lib->syevd[j->t])(&jobz, &uplo, &n, MT__AT(j, 0, i), &lda,           \
                                               MT__AT(j, 1, i), work, &lwork, iwork, &liwork,      \
                                               &info, 1, 1);                                       \
        }                                                                                         \
    } while (0)
    MT__EVD_CALL(lo, q, qr, &qi);
    lwork = mt__lwork(q, j->t);
    lrwork = cplx ? mt__lwork(qr, j->t - 2) : 1;
    liwork = qi > 0 ? qi : 1;
    if (lwork < 0 || lrwork < 0) {
        return MT_ERUNTIME;
    }
    void *work = mt__alloc(lwork, mt__isz(j->t));
    void *rwork = mt__alloc(lrwork, mt__isz(j->t));
    int *iwork = mt__alloc(liwork, sizeof(int));
    int rc = 0;
    if (work == NULL || rwork == NULL || iwork == NULL) {
        rc = MT_ENOMEM;
    }
    for (int64_t i = lo; rc == 0 && i < hi; i++) {
        info = 0;
        MT__EVD_CALL(i, work, rwork, iwork);
        j->info[i] = info;
    }
#undef MT__EVD_CALL
    free(work);
    free(rwork);
    free(iwork);
    return rc;
}

int
mt_lapack_syevd(mt_tensor *a, mt_tensor *w, bool vectors, bool upper, mt_tensor *info)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || a->ndim < 2) {
        return mt__bad("the matrix");
    }
    int64_t n = a->sizes[a->ndim - 1], b = mt__lead(a, 2);
    if ((rc = mt__check_mat(a, a->dtype, b, n, n, "the matrix")) < 0 ||
        (rc = mt__check_vec(w, mt__real_of[t], b, n, "the eigenvalues")) < 0 ||
        (rc = mt__check_vec(info, MT_INT32, b, -1, "info")) < 0 ||
        (rc = mt__check_dims(n == 0, n, 0, 0)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_syevd, .t = t, .n = (int)n,
                 .f1 = vectors, .f2 = upper, .info = (int32_t *)mt_tensor_data(info)};
    size_t isz = mt__isz(t);
    j.p[0] = mt_tensor_data(a);
    j.st[0] = n * n * (int64_t)isz;
    j.p[1] = mt_tensor_data(w);
    j.st[1] = n * (int64_t)(isz / (t >= 2 ? 2 : 1));
    if (n == 0) {
        memset(j.info, 0, (size_t)b * 4);
        return 0;
    }
    return mt__dispatch(&j, b, 4.0 * (double)n * (double)n * (double)n);
}

/* ---- general eigenproblems ------------------------------------------------------------------- */

/* Spreads the real routine's results into complex ones: eigenvalue k is wr[k] + i wi[k]; a
 * conjugate pair (wi[k] > 0, then wi[k + 1] < 0) keeps its vectors as the real and imaginary
 * parts of columns k and k + 1 of vr. */
#define MT__SPREAD_EIG(T)                                                                       \
    static void mt__spread_##T(int n, const T *wr, const T *wi, const T *vr, T *w, T *v)        \
    {                                                                                           \
        for (int k = 0; k < n; k++) {                                                           \
            w[2 * k] = wr[k];                                                                   \
            w[2 * k + 1] = wi[k];                                                               \
        }                                                                                       \
        if (v == NULL) {                                                                        \
            return;                                                                             \
        }                                                                                       \
        for (int k = 0; k < n; k++) {                                                           \
            const T *re = vr + (size_t)k * (size_t)n;                                           \
            T *col = v + 2 * (size_t)k * (size_t)n;                                             \
            if (wi[k] != 0 && k + 1 < n) {                                                      \
                const T *im = re + n;                                                           \
                T *next = col + 2 * (size_t)n;                                                  \
                for (int r = 0; r < n; r++) {                                                   \
                    col[2 * r] = re[r];                                                         \
                    col[2 * r + 1] = im[r];                                                     \
                    next[2 * r] = re[r];                                                        \
                    next[2 * r + 1] = -im[r];                                                   \
                }                                                                               \
                k++;                                                                            \
                continue;                                                                       \
            }                                                                                   \
            for (int r = 0; r < n; r++) {                                                       \
                col[2 * r] = re[r];                                                             \
                col[2 * r + 1] = 0;                                                             \
            }                                                                                   \
        }                                                                                       \
    }
MT__SPREAD_EIG(float)
MT__SPREAD_EIG(double)
#undef MT__SPREAD_EIG

static int
mt__run_geev(mt__job *j, int64_t lo, int64_t hi)
{
    int n = j->n, lda = mt__max1(n), info = 0, lwork = -1, one = 1;
    bool cplx = j->t >= 2, vectors = j->p[2] != NULL;
    char jobvl = 'N', jobvr = vectors ? 'V' : 'N';
    int ldvr = vectors ? lda : 1;
    size_t isz = mt__isz(j->t);
    /* real: wr, wi, vr (n x n) of the real type; complex: rwork (2n reals) */
    size_t rsz = cplx ? isz / 2 : isz;
    char *scratch = mt__alloc(cplx ? 2 * (int64_t)n : 2 * (int64_t)n + (int64_t)n * n, rsz);
    if (scratch == NULL) {
        return MT_ENOMEM;
    }
    char *wr = scratch, *wi = scratch + (size_t)n * rsz, *vr = scratch + 2 * (size_t)n * rsz;
    char q[32], dummy[32];
#define MT__GEEV_CALL(i, work)                                                                    \
    do {                                                                                        \
        if (cplx) {                                                                             \
            ((mt__geev_c)j->lib->geev[j->t])(&jobvl, &jobvr, &n, MT__AT(j, 0, i), &lda,         \
                                             MT__AT(j, 1, i), dummy, &one,                      \
                                             vectors ? MT__AT(j, 2, i) : dummy, &ldvr, work,     \
                                             &lwork, scratch, &info, 1, 1);                     \
        }                                                                                       \
        else {                                                                                  \
            ((mt__geev_r)j->lib->geev[j->t])(&jobvl, &jobvr, &n, MT__AT(j, 0, i), &lda, wr, wi, \
                                             dummy, &one, vectors ? vr : dummy, &ldvr, work,    \
                                             &lwork, &info, 1, 1);                              \
        }                                                                                       \
    } while (0)
    MT__GEEV_CALL(lo, q);
    lwork = mt__lwork(q, j->t);
    void *work = lwork < 0 ? NULL : mt__alloc(lwork, isz);
    if (work == NULL) {
        free(scratch);
        return lwork < 0 ? MT_ERUNTIME : MT_ENOMEM;
    }
    for (int64_t i = lo; i < hi; i++) {
        info = 0;
        MT__GEEV_CALL(i, work);
        j->info[i] = info;
        if (cplx) {
            continue;
        }
        void *v = vectors ? MT__AT(j, 2, i) : NULL;
        if (j->t == 0) {
            mt__spread_float(n, (float *)wr, (float *)wi, (float *)vr, (float *)MT__AT(j, 1, i),
                             v);
        }
        else {
            mt__spread_double(n, (double *)wr, (double *)wi, (double *)vr,
                              (double *)MT__AT(j, 1, i), v);
        }
    }
#undef MT__GEEV_CALL
    free(work);
    free(scratch);
    return 0;
}

int
mt_lapack_geev(mt_tensor *a, mt_tensor *w, mt_tensor *v, mt_tensor *info)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || a->ndim < 2) {
        return mt__bad("the matrix");
    }
    int64_t n = a->sizes[a->ndim - 1], b = mt__lead(a, 2);
    mt_dtype cdt = mt__complex_of[t];
    if ((rc = mt__check_mat(a, a->dtype, b, n, n, "the matrix")) < 0 ||
        (rc = mt__check_vec(w, cdt, b, n, "the eigenvalues")) < 0 ||
        (v != NULL && (rc = mt__check_mat(v, cdt, b, n, n, "the eigenvectors")) < 0) ||
        (rc = mt__check_vec(info, MT_INT32, b, -1, "info")) < 0 ||
        (rc = mt__check_dims(n == 0, n, 0, 0)) < 0) {
        return rc;
    }
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_geev, .t = t, .n = (int)n,
                 .info = (int32_t *)mt_tensor_data(info)};
    size_t isz = mt__isz(t), csz = mt_dtype_itemsize(cdt);
    j.p[0] = mt_tensor_data(a);
    j.st[0] = n * n * (int64_t)isz;
    j.p[1] = mt_tensor_data(w);
    j.st[1] = n * (int64_t)csz;
    if (v != NULL) {
        j.p[2] = mt_tensor_data(v);
        j.st[2] = n * n * (int64_t)csz;
    }
    if (n == 0) {
        memset(j.info, 0, (size_t)b * 4);
        return 0;
    }
    return mt__dispatch(&j, b, 10.0 * (double)n * (double)n * (double)n);
}

/* ---- least squares ---------------------------------------------------------------------------- */

static int
mt__run_gels(mt__job *j, int64_t lo, int64_t hi)
{
    int m = j->m, n = j->n, nrhs = j->k, mn = m < n ? m : n, mx = m < n ? n : m;
    int lda = mt__max1(m), ldb = mt__max1(mx), info = 0, lwork = -1, rank = 0, qi = 0;
    bool cplx = j->t >= 2;
    char drv = j->c1;
    size_t isz = mt__isz(j->t), rsz = cplx ? isz / 2 : isz;
    float rc_s = (float)j->rcond;
    double rc_d = j->rcond;
    const void *rcond = rsz == 4 ? (const void *)&rc_s : (const void *)&rc_d;
    char q[32], qr[32];
    /* jpvt (gelsy), the complex routines' rwork (queried by gelsd), iwork (gelsd) */
    int *jpvt = mt__alloc(n, sizeof(int));
    if (jpvt == NULL) {
        return MT_ENOMEM;
    }
    int64_t lrwork = drv == 'y' ? 2 * (int64_t)n : drv == 's' ? 5 * (int64_t)mn : 1;
    void *rwork = NULL, *work = NULL;
    int *iwork = NULL;
    int rc = 0;
#define MT__S_AT(i) MT__AT(j, 2, i)
#define MT__GELS_CALL(i, work_, rwork_, iwork_)                                                 \
    do {                                                                                      \
        void *a_ = MT__AT(j, 0, i), *b_ = MT__AT(j, 1, i);                                    \
        switch (drv) {                                                                        \
        case 'l': {                                                                           \
            char tr = 'N';                                                                    \
            ((mt__gels_t)j->lib->gels[j->t])(&tr, &m, &n, &nrhs, a_, &lda, b_, &ldb, work_,   \
                                             &lwork, &info, 1);                               \
            break;                                                                            \
        }                                                                                     \
        case 'y':                                                                             \
            memset(jpvt, 0, sizeof(int) * (size_t)(n > 0 ? n : 1));                           \
            if (cplx) {                                                                       \
                ((mt__gelsy_c)j->lib->gelsy[j->t])(&m, &n, &nrhs, a_, &lda, b_, &ldb, jpvt,   \
                                                   rcond, &rank, work_, &lwork, rwork_,       \
                                                   &info);                                    \
            }                                                                                 \
            else {                                                                            \
                ((mt__gelsy_r)j->lib->gelsy[j->t])(&m, &n, &nrhs, a_, &lda, b_, &ldb, jpvt,   \
                                                   rcond, &rank, work_, &lwork, &info);       \
            }                                                                                 \
            break;                                                                            \
        case 'd':                                                                             \
            if (cplx) {                                                                       \
                ((mt__gelsd_c)j->lib->gelsd[j->t])(&m, &n, &nrhs, a_, &lda, b_, &ldb,         \
                                                   MT__S_AT(i), rcond, &rank, work_, &lwork,  \
                                                   rwork_, iwork_, &info);                    \
            }                                                                                 \
            else {                                                                            \
                ((mt__gelsd_r)j->lib->gelsd[j->t])(&m, &n, &nrhs, a_, &lda, b_, &ldb,         \
                                                   MT__S_AT(i), rcond, &rank, work_, &lwork,  \
                                                   iwork_, &info);                            \
            }                                                                                 \
            break;                                                                            \
        default:                                                                              \
            if (cplx) {                                                                       \
                ((mt__gelss_c)j->lib->gelss[j->t])(&m, &n, &nrhs, a_, &lda, b_, &ldb,         \
                                                   MT__S_AT(i), rcond, &rank, work_, &lwork,  \
                                                   rwork_, &info);                            \
            }                                                                                 \
            else {                                                                            \
                ((mt__gelss_r)j->lib->gelss[j->t])(&m, &n, &nrhs, a_, &lda, b_, &ldb,         \
                                                   MT__S_AT(i), rcond, &rank, work_, &lwork,  \
                                                   &info);                                    \
            }                                                                                 \
        }                                                                                     \
    } while (0)
    MT__GELS_CALL(lo, q, qr, &qi);
    lwork = mt__lwork(q, j->t);
    if (drv == 'd') {
        lrwork = cplx ? mt__lwork(qr, j->t - 2) : 1;
        if (lrwork < 0) {
            rc = MT_ERUNTIME;
        }
    }
    int liwork = drv == 'd' && qi > 0 ? qi : 1;
    if (lwork < 0) {
        rc = MT_ERUNTIME;
    }
    if (rc == 0) {
        work = mt__alloc(lwork, isz);
        rwork = mt__alloc(lrwork, rsz);
        iwork = mt__alloc(liwork, sizeof(int));
        if (work == NULL || rwork == NULL || iwork == NULL) {
            rc = MT_ENOMEM;
        }
    }
    for (int64_t i = lo; rc == 0 && i < hi; i++) {
        info = 0;
        rank = 0;
        MT__GELS_CALL(i, work, rwork, iwork);
        j->info[i] = info;
        if (j->rank != NULL) {
            j->rank[i] = rank;
        }
    }
#undef MT__GELS_CALL
#undef MT__S_AT
    free(work);
    free(rwork);
    free(iwork);
    free(jpvt);
    return rc;
}

int
mt_lapack_gels(mt_tensor *a, mt_tensor *b, char driver, double rcond, mt_tensor *rank,
               mt_tensor *s, mt_tensor *info)
{
    int rc = mt_lapack_ensure();
    if (rc < 0) {
        return rc;
    }
    int t = mt__letter(a->dtype);
    if (t < 0 || a->ndim < 2 || b->ndim < 2 ||
        (driver != 'l' && driver != 'y' && driver != 'd' && driver != 's')) {
        return mt__bad("the matrix");
    }
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], bt = mt__lead(a, 2);
    int64_t mn = m < n ? m : n, mx = m < n ? n : m, k = b->sizes[b->ndim - 1];
    if ((rc = mt__check_mat(a, a->dtype, bt, m, n, "the matrix")) < 0 ||
        (rc = mt__check_mat(b, a->dtype, bt, mx, k, "the right-hand side")) < 0 ||
        (rank != NULL && (rc = mt__check_vec(rank, MT_INT64, bt, -1, "rank")) < 0) ||
        (s != NULL && (rc = mt__check_vec(s, mt__real_of[t], bt, mn, "the singular values")) < 0) ||
        (rc = mt__check_vec(info, MT_INT32, bt, -1, "info")) < 0 ||
        (rc = mt__check_dims(mn == 0 || k == 0, m, n, k)) < 0) {
        return rc;
    }
    if (s == NULL && (driver == 'd' || driver == 's')) {
        return mt__bad("the singular values");
    }
    size_t isz = mt__isz(t), rsz = t >= 2 ? isz / 2 : isz;
    mt__job j = {.lib = atomic_load(&mt__lib), .run = mt__run_gels, .t = t, .m = (int)m,
                 .n = (int)n, .k = (int)k, .c1 = driver, .rcond = rcond,
                 .info = (int32_t *)mt_tensor_data(info),
                 .rank = rank ? (int64_t *)mt_tensor_data(rank) : NULL};
    j.p[0] = mt_tensor_data(a);
    j.st[0] = m * n * (int64_t)isz;
    j.p[1] = mt_tensor_data(b);
    j.st[1] = mx * k * (int64_t)isz;
    if (s != NULL) {
        j.p[2] = mt_tensor_data(s);
        j.st[2] = mn * (int64_t)rsz;
    }
    if (mn == 0 || k == 0) {
        memset(j.info, 0, (size_t)bt * 4);
        if (j.rank != NULL) {
            memset(j.rank, 0, (size_t)bt * 8);
        }
        return 0;
    }
    return mt__dispatch(&j, bt, 2.0 * (double)m * (double)n * (double)(mx + k));
}

/* ---- pivots ------------------------------------------------------------------------------------ */

int
mt_lapack_permutation(const mt_tensor *ipiv, mt_tensor *perm)
{
    int rc = 0;
    if (ipiv->ndim < 1 || perm->ndim < 1) {
        return mt__bad("the pivots");
    }
    int64_t k = ipiv->sizes[ipiv->ndim - 1], m = perm->sizes[perm->ndim - 1];
    int64_t b = mt__lead(ipiv, 1);
    if (k > m || (rc = mt__check_vec(ipiv, MT_INT32, b, k, "the pivots")) < 0 ||
        (rc = mt__check_vec(perm, MT_INT64, b, m, "the permutation")) < 0) {
        return rc < 0 ? rc : mt__bad("the pivots");
    }
    const int32_t *pv = (const int32_t *)mt_tensor_data(ipiv);
    int64_t *out = (int64_t *)mt_tensor_data(perm);
    for (int64_t i = 0; i < b; i++) {
        int64_t *p = out + i * m;
        const int32_t *piv = pv + i * k;
        for (int64_t r = 0; r < m; r++) {
            p[r] = r;
        }
        for (int64_t r = 0; r < k; r++) {
            int64_t s = (int64_t)piv[r] - 1;
            if (s < 0 || s >= m) {
                return mt_error_set(MT_EINDEX, "pivots must be between 1 and LU.size(-2) inclusive");
            }
            int64_t tmp = p[r];
            p[r] = p[s];
            p[s] = tmp;
        }
    }
    return 0;
}
