/* aten_lite/blas.c - dlopen'ed CBLAS: loading, thread-count sync, gemm/gemv/dot calls. */
#include "aten_lite/blas.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* See Note [Run-time BLAS]. CBLAS enum values are fixed by the standard. */
enum { MT_CBLAS_ROW_MAJOR = 101, MT_CBLAS_NO_TRANS = 111, MT_CBLAS_TRANS = 112 };

typedef void (*mt__sgemm_fn)(int, int, int, int, int, int, float, const float *, int,
                             const float *, int, float, float *, int);
typedef void (*mt__dgemm_fn)(int, int, int, int, int, int, double, const double *, int,
                             const double *, int, double, double *, int);
typedef void (*mt__sgemv_fn)(int, int, int, int, float, const float *, int, const float *, int,
                             float, float *, int);
typedef void (*mt__dgemv_fn)(int, int, int, int, double, const double *, int, const double *, int,
                             double, double *, int);
typedef float (*mt__sdot_fn)(int, const float *, int, const float *, int);
typedef double (*mt__ddot_fn)(int, const double *, int, const double *, int);
/* cblas_cgemm/zgemm: alpha and beta by pointer to a complex of the matrices' type */
typedef void (*mt__xgemm_fn)(int, int, int, int, int, int, const void *, const void *, int,
                             const void *, int, const void *, void *, int);
typedef void (*mt__set_threads_fn)(int);
typedef char *(*mt__get_config_fn)(void);

typedef struct mt__blas {
    mt__sgemm_fn sgemm;
    mt__dgemm_fn dgemm;
    mt__sgemv_fn sgemv;
    mt__dgemv_fn dgemv;
    mt__sdot_fn sdot;
    mt__ddot_fn ddot;
    mt__set_threads_fn set_threads; /* may be NULL (not OpenBLAS) */
    mt__xgemm_fn cgemm, zgemm;      /* may be NULL: complex products then use the fallback */
    char path[4096];
    char config[512];
} mt__blas;

/* Published once fully built; the previous table is leaked on purpose since
 * another thread may still be using it (loading happens once in practice). */
static _Atomic(mt__blas *) mt__lib;
static atomic_bool mt__enabled = true;
static atomic_int mt__threads_set; /* last count passed to set_threads, 0 = never */
static pthread_mutex_t mt__load_lock = PTHREAD_MUTEX_INITIALIZER;

static void *
mt__sym(void *h, const char *name)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "scipy_%s", name);
    void *p = dlsym(h, buf);
    return p != NULL ? p : dlsym(h, name);
}

int
mt_blas_load(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *msg = dlerror();
        return mt_error_set(MT_ERUNTIME, "cannot load BLAS library %s: %s", path,
                            msg ? msg : "unknown error");
    }
    mt__blas *lib = calloc(1, sizeof(*lib));
    if (lib == NULL) {
        dlclose(h);
        return mt_error_set(MT_ENOMEM, "out of memory");
    }
    /* POSIX makes dlsym's void * usable as a function pointer; storing it
     * through a void ** avoids ISO C's object-to-function cast. */
#define MT__GET(field, name)                                     \
    do {                                                         \
        void *p_ = mt__sym(h, name);                             \
        *(void **)(&lib->field) = p_;                            \
    } while (0)
    MT__GET(sgemm, "cblas_sgemm");
    MT__GET(dgemm, "cblas_dgemm");
    MT__GET(sgemv, "cblas_sgemv");
    MT__GET(dgemv, "cblas_dgemv");
    MT__GET(sdot, "cblas_sdot");
    MT__GET(ddot, "cblas_ddot");
    MT__GET(set_threads, "openblas_set_num_threads");
    MT__GET(cgemm, "cblas_cgemm");
    MT__GET(zgemm, "cblas_zgemm");
#undef MT__GET
    if (!lib->sgemm || !lib->dgemm || !lib->sgemv || !lib->dgemv || !lib->sdot || !lib->ddot) {
        free(lib);
        dlclose(h);
        return mt_error_set(MT_ERUNTIME, "%s does not provide the CBLAS routines "
                            "(cblas_sgemm, cblas_dgemm, cblas_sgemv, cblas_dgemv, cblas_sdot, "
                            "cblas_ddot)", path);
    }
    mt__get_config_fn get_config;
    *(void **)(&get_config) = mt__sym(h, "openblas_get_config");
    snprintf(lib->path, sizeof(lib->path), "%s", path);
    snprintf(lib->config, sizeof(lib->config), "%s", get_config ? get_config() : "");
    pthread_mutex_lock(&mt__load_lock);
    atomic_store(&mt__lib, lib);
    atomic_store(&mt__threads_set, 0);
    pthread_mutex_unlock(&mt__load_lock);
    return 0;
}

static mt__blas *
mt__get(void)
{
    if (!atomic_load_explicit(&mt__enabled, memory_order_relaxed)) {
        return NULL;
    }
    mt__blas *lib = atomic_load(&mt__lib);
    if (lib != NULL && lib->set_threads != NULL) {
        int n = 1; /* Note [One thread pool] (linalg.c): the pool splits large products */
        if (atomic_exchange(&mt__threads_set, n) != n) {
            lib->set_threads(n);
        }
    }
    return lib;
}

bool
mt_blas_available(void)
{
    return atomic_load(&mt__enabled) && atomic_load(&mt__lib) != NULL;
}

void
mt_blas_set_enabled(bool on)
{
    atomic_store(&mt__enabled, on);
}

const char *
mt_blas_path(void)
{
    mt__blas *lib = atomic_load(&mt__lib);
    return lib ? lib->path : "";
}

const char *
mt_blas_config(void)
{
    mt__blas *lib = atomic_load(&mt__lib);
    return lib ? lib->config : "";
}

static bool
mt__fits(int64_t v)
{
    return v >= 0 && v <= INT_MAX;
}

bool
mt_blas_gemm(bool dbl, bool transa, bool transb, int64_t m, int64_t n, int64_t k, double alpha,
             const void *a, int64_t lda, const void *b, int64_t ldb, double beta, void *c,
             int64_t ldc)
{
    if (!mt__fits(m) || !mt__fits(n) || !mt__fits(k) || !mt__fits(lda) || !mt__fits(ldb) ||
        !mt__fits(ldc)) {
        return false;
    }
    mt__blas *lib = mt__get();
    if (lib == NULL) {
        return false;
    }
    int ta = transa ? MT_CBLAS_TRANS : MT_CBLAS_NO_TRANS;
    int tb = transb ? MT_CBLAS_TRANS : MT_CBLAS_NO_TRANS;
    if (dbl) {
        lib->dgemm(MT_CBLAS_ROW_MAJOR, ta, tb, (int)m, (int)n, (int)k, alpha, a, (int)lda, b,
                   (int)ldb, beta, c, (int)ldc);
    }
    else {
        lib->sgemm(MT_CBLAS_ROW_MAJOR, ta, tb, (int)m, (int)n, (int)k, (float)alpha, a, (int)lda,
                   b, (int)ldb, (float)beta, c, (int)ldc);
    }
    return true;
}

bool
mt_blas_gemv(bool dbl, bool trans, int64_t m, int64_t n, double alpha, const void *a, int64_t lda,
             const void *x, int64_t incx, double beta, void *y, int64_t incy)
{
    if (!mt__fits(m) || !mt__fits(n) || !mt__fits(lda) || incx == 0 || incy == 0 ||
        incx < INT_MIN || incx > INT_MAX || incy < INT_MIN || incy > INT_MAX) {
        return false;
    }
    mt__blas *lib = mt__get();
    if (lib == NULL) {
        return false;
    }
    int t = trans ? MT_CBLAS_TRANS : MT_CBLAS_NO_TRANS;
    if (dbl) {
        lib->dgemv(MT_CBLAS_ROW_MAJOR, t, (int)m, (int)n, alpha, a, (int)lda, x, (int)incx, beta,
                   y, (int)incy);
    }
    else {
        lib->sgemv(MT_CBLAS_ROW_MAJOR, t, (int)m, (int)n, (float)alpha, a, (int)lda, x, (int)incx,
                   (float)beta, y, (int)incy);
    }
    return true;
}

bool
mt_blas_dot(bool dbl, int64_t n, const void *x, int64_t incx, const void *y, int64_t incy,
            void *out)
{
    if (!mt__fits(n) || incx == 0 || incy == 0 || incx < INT_MIN || incx > INT_MAX || incy < INT_MIN || incy > INT_MAX) {
        return false;
    }
    mt__blas *lib = mt__get();
    if (lib == NULL) {
        return false;
    }
    if (dbl) {
        *(double *)out = lib->ddot((int)n, x, (int)incx, y, (int)incy);
    }
    else {
        *(float *)out = lib->sdot((int)n, x, (int)incx, y, (int)incy);
    }
    return true;
}

bool
mt_blas_gemm_complex(bool dbl, bool transa, bool transb, int64_t m, int64_t n, int64_t k,
                     const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                     const void *beta, void *c, int64_t ldc)
{
    if (!mt__fits(m) || !mt__fits(n) || !mt__fits(k) || !mt__fits(lda) || !mt__fits(ldb) ||
        !mt__fits(ldc)) {
        return false;
    }
    mt__blas *lib = mt__get();
    mt__xgemm_fn fn = lib == NULL ? NULL : dbl ? lib->zgemm : lib->cgemm;
    if (fn == NULL) {
        return false;
    }
    fn(MT_CBLAS_ROW_MAJOR, transa ? MT_CBLAS_TRANS : MT_CBLAS_NO_TRANS,
       transb ? MT_CBLAS_TRANS : MT_CBLAS_NO_TRANS, (int)m, (int)n, (int)k, alpha, a, (int)lda, b,
       (int)ldb, beta, c, (int)ldc);
    return true;
}
