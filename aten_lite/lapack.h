/* aten_lite/lapack.h - a LAPACK loaded at run time, and batched drivers over its routines. */
#ifndef ATEN_LITE_LAPACK_H
#define ATEN_LITE_LAPACK_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Note [Run-time LAPACK]
 * The build never depends on a LAPACK, as it never depends on a BLAS (Note
 * [Run-time BLAS]).  At import the Python package names the library to take
 * LAPACK from (mt_lapack_set_path): $MINITORCH_LAPACK, else the BLAS that
 * $MINITORCH_BLAS names, else scipy-openblas32, which ships LAPACK next to
 * its CBLAS (LP64, the Fortran symbols prefixed `scipy_`: scipy_dgetrf_).
 * With MINITORCH_BLAS=0 the products use the built-in GEMM, but LAPACK is
 * still opened from scipy-openblas32: there is no built-in LAPACK.
 * Nothing is opened before the first decomposition: the first driver call
 * dlopens the library and resolves every routine below (prefixed name, then
 * the plain Fortran name); a library without them, or no library at all,
 * makes that call (and each later one) fail with MT_ERUNTIME naming the
 * library and what is missing.
 *
 * The routines are called through the Fortran interface: every argument by
 * address, matrices column-major, the hidden lengths of character arguments
 * passed explicitly (1).  OpenBLAS is set to one thread when the library is
 * opened: batches are spread over minitorch's pool instead, one matrix per
 * LAPACK call per thread (Note [One thread pool] in linalg.c). */

/* The library to open at the first use (borrowed; copied).  NULL or "" means
 * none: the drivers then fail with a message saying how to get one.  A later
 * call before the first use replaces the path; after it, it has no effect. */
void mt_lapack_set_path(const char *path);
/* Opens the library now if it is not open yet.  0, or MT_ERUNTIME. */
int mt_lapack_ensure(void);
/* The path of the open library ("" before the first use); borrowed. */
const char *mt_lapack_path(void);

/* Note [Batched column-major operands]
 * Every driver works in place on operands the caller allocated: a matrix
 * operand of `rows x cols` is a tensor of shape (*batch, rows, cols) whose
 * transpose of the last two dims is contiguous (each matrix column-major,
 * the matrices one after another), a vector operand of length k a
 * contiguous (*batch, k) tensor, and `info` a contiguous int32 tensor of
 * the batch's shape (one LAPACK info per matrix).  The drivers check the
 * dtypes, layouts and element counts (MT_ERUNTIME, nothing done), and that
 * every dimension fits LAPACK's 32-bit integers.  The batch is split over
 * the pool when it is large.  Returns 0, or a negative code: MT_ERUNTIME (no
 * LAPACK, bad operands, sizes over the 32-bit interface), MT_ENOMEM
 * (workspace); outputs are unspecified after an error.  Nothing here touches
 * Python: the bindings call these without the GIL.  The dtype of `a` picks
 * the routine: float32, float64, complex64, complex128 (s, d, c, z). */

/* LU with partial pivoting: a (m x n) is overwritten by L\U, ipiv (int32,
 * min(m, n)) gets the 1-based row interchanges (getrf). */
int mt_lapack_getrf(mt_tensor *a, mt_tensor *ipiv, mt_tensor *info);
/* Solves op(A) X = B given getrf's a (n x n) and ipiv; b (n x k) becomes X.
 * trans: 'N', 'T' or 'C' (getrs). */
int mt_lapack_getrs(mt_tensor *a, mt_tensor *ipiv, mt_tensor *b, char trans);
/* Cholesky factor of the `upper`/lower triangle of a (n x n), in place; the
 * other triangle is zeroed (potrf). */
int mt_lapack_potrf(mt_tensor *a, bool upper, mt_tensor *info);
/* The inverse of A = L L^H (or U^H U) from its factor a, in place, both
 * triangles filled (potri). */
int mt_lapack_potri(mt_tensor *a, bool upper, mt_tensor *info);
/* op(A) X = B (left) or X op(A) = B, A triangular (n x n), b (m x k) becomes
 * X; trans 'N', 'T' or 'C'; unit: A's diagonal is taken as ones (trsm). */
int mt_lapack_trsm(mt_tensor *a, mt_tensor *b, bool left, bool upper, char trans, bool unit);
/* QR: a (m x n) becomes R above its diagonal and the reflectors below,
 * tau (min(m, n)) their scales (geqrf). */
int mt_lapack_geqrf(mt_tensor *a, mt_tensor *tau);
/* The first q->cols columns of Q from the reflectors in q (m x ncols, their
 * k = tau's length first columns) and tau, in place (orgqr / ungqr). */
int mt_lapack_orgqr(mt_tensor *q, mt_tensor *tau);
/* SVD by divide and conquer: a (m x n) is destroyed, s (min(m, n), real)
 * gets the singular values; jobz 'N': no vectors (u, vt NULL), 'S': u m x k
 * and vt k x n, 'A': u m x m and vt n x n (gesdd). */
int mt_lapack_gesdd(mt_tensor *a, mt_tensor *s, mt_tensor *u, mt_tensor *vt, char jobz,
                    mt_tensor *info);
/* Eigenvalues (w, n, real, ascending) of the Hermitian matrix whose `upper`
 * or lower triangle a holds; with vectors a becomes the eigenvectors
 * (syevd / heevd). */
int mt_lapack_syevd(mt_tensor *a, mt_tensor *w, bool vectors, bool upper, mt_tensor *info);
/* Eigenvalues of a general matrix a (n x n, destroyed) into w (n, the
 * complex dtype of a's precision), and, when v is not NULL, the right
 * eigenvectors (n x n, complex, unit norm) (geev; the real routines'
 * conjugate pairs are spread into complex columns). */
int mt_lapack_geev(mt_tensor *a, mt_tensor *w, mt_tensor *v, mt_tensor *info);
/* Least squares min ||A X - B||: a (m x n) is destroyed, b (max(m, n) x k)
 * holds B in its first m rows and gets X in its first n rows.  driver 'l'
 * gels (full rank), 'y' gelsy, 'd' gelsd, 's' gelss; rank (int64, one per
 * matrix, may be NULL) for the last three, s (min(m, n), real, may be NULL)
 * for gelsd / gelss; rcond as LAPACK's (negative: machine precision). */
int mt_lapack_gels(mt_tensor *a, mt_tensor *b, char driver, double rcond, mt_tensor *rank,
                   mt_tensor *s, mt_tensor *info);

/* The row order getrf's interchanges make: perm (int64, (*batch, m), contiguous) gets, for
 * each matrix, 0..m-1 with ipiv's 1-based swaps (int32, (*batch, k), contiguous, k <= m)
 * applied in order, so that row i of P^T A is row perm[i] of A.  No LAPACK call.  0, or
 * MT_EINDEX when a pivot lies outside [1, m] (perm is then unspecified). */
int mt_lapack_permutation(const mt_tensor *ipiv, mt_tensor *perm);

#endif /* ATEN_LITE_LAPACK_H */
