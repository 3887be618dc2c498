/* aten_lite/blas.h - an optional CBLAS (OpenBLAS) loaded at run time, and the GEMM entry points. */
#ifndef ATEN_LITE_BLAS_H
#define ATEN_LITE_BLAS_H

#include <stdbool.h>
#include <stdint.h>

/* Note [Run-time BLAS]
 * The build never depends on a BLAS.  At import, the Python package passes
 * the path of a CBLAS shared library (scipy-openblas32 when installed:
 * LP64, symbols prefixed `scipy_`) to mt_blas_load, which dlopens it and
 * looks the few routines we need up (prefixed first, then plain names).
 * float32/float64 matrix products go to it; without one (or with it
 * disabled) they run the portable cache-blocked GEMM of linalg.c.
 * The BLAS's own thread pool is set to one thread: large products are split
 * over minitorch's pool instead (Note [One thread pool] in linalg.c), so the
 * two pools never compete for the cores, and set_num_threads governs both.
 * The Python package also asks OpenBLAS (OPENBLAS_THREAD_TIMEOUT, unless the
 * user set it) to put idle threads to sleep after ~0.3 ms instead of ~0.1 s,
 * for whatever else in the process calls the same library. */

/* dlopens `path` (borrowed) and resolves sgemm/dgemm/sgemv/dgemv/sdot/ddot.
 * Returns 0, or MT_ERUNTIME with the loader's message (nothing is loaded
 * then).  Loading again replaces the previous library (never unloaded). */
int mt_blas_load(const char *path);
/* Whether a BLAS is loaded and enabled. */
bool mt_blas_available(void);
/* Turns the loaded BLAS off/on (tests use it to exercise the fallback). */
void mt_blas_set_enabled(bool on);
/* The loaded library's path and OpenBLAS config string ("" when none);
 * borrowed, valid until the next mt_blas_load. */
const char *mt_blas_path(void);
const char *mt_blas_config(void);

/* Row-major C = alpha * op(A) @ op(B) + beta * C through the BLAS (transX:
 * op is the transpose).  Returns false (and does nothing) when no BLAS is
 * available or an argument exceeds the 32-bit BLAS interface; the caller
 * then runs its fallback.  double == false: float32 pointers, else float64. */
bool mt_blas_gemm(bool dbl, bool transa, bool transb, int64_t m, int64_t n, int64_t k,
                  double alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                  double beta, void *c, int64_t ldc);
/* y = alpha * op(A) @ x + beta * y, A row-major m x n.  Same return rule. */
bool mt_blas_gemv(bool dbl, bool trans, int64_t m, int64_t n, double alpha, const void *a,
                  int64_t lda, const void *x, int64_t incx, double beta, void *y, int64_t incy);
/* *out = sum x[i] * y[i] (float32 result stored as float).  Same return rule. */
bool mt_blas_dot(bool dbl, int64_t n, const void *x, int64_t incx, const void *y, int64_t incy,
                 void *out);
/* mt_blas_gemm for complex64 (dbl false) / complex128 matrices through
 * cblas_cgemm/zgemm; alpha and beta point to complex values of that type.
 * False (nothing done) when the library has no such routine, as above. */
bool mt_blas_gemm_complex(bool dbl, bool transa, bool transb, int64_t m, int64_t n, int64_t k,
                          const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                          const void *beta, void *c, int64_t ldc);

#endif /* ATEN_LITE_BLAS_H */
