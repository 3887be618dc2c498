/* aten_lite/cuda/gemm.c - the CUDA entry of the GEMM family (kernel_stubs.h): row-major strided
 * operands mapped onto cuBLAS's column-major calls (aten_lite/cuda/gemm.cu). */
#include <complex.h>
#include <limits.h>
#include <math.h>

#include "aten_lite/cuda/gemm.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/linalg.h"
#include "aten_lite/ops.h"
#include "aten_lite/scalar.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

/* Note [Row-major products on cuBLAS]
 * cuBLAS reads matrices column-major.  A row-major (r x c) matrix X with element strides
 * (s0, s1) is, read column-major, either
 *   - the (c x r) matrix X^T with leading dimension s0, when s1 == 1 (op N on X^T), or
 *   - the (r x c) matrix X with leading dimension s1, when s0 == 1 (op T gives X^T back),
 * and a size-1 dimension may have any stride.  So the row-major C = A @ B is computed as the
 * column-major C^T = B^T A^T: cuBLAS's "A" is our B, its "B" our A, its m, n our n, m.  A
 * leading dimension must also be at least the rows it spans (cuBLAS's rule): an operand
 * whose strides cannot be said so (both strides > 1, overlapping rows of an expanded tensor)
 * is copied to a contiguous tensor on the device first; a result that cannot is computed into
 * a contiguous one and copied back.  Batch strides are free (0 for a broadcast batch). */

/* (trans, ld) reading the row-major (r x c) matrix with strides (s0, s1) as column-major X^T
 * (op N) or X (op T); false when neither fits. */
static bool
mt__colmajor(int64_t r, int64_t c, int64_t s0, int64_t s1, int *trans, int64_t *ld)
{
    const int64_t c1 = c > 1 ? c : 1, r1 = r > 1 ? r : 1;
    if (c <= 1 || s1 == 1) {
        int64_t l = r <= 1 ? c1 : s0;
        if (l >= c1 && l <= INT_MAX) {
            *trans = 0;
            *ld = l;
            return true;
        }
    }
    if (r <= 1 || s0 == 1) {
        int64_t l = c <= 1 ? r1 : s1;
        if (l >= r1 && l <= INT_MAX) {
            *trans = 1;
            *ld = l;
            return true;
        }
    }
    return false;
}

/* a contiguous operand that still cannot be given to cuBLAS (a leading dimension past int) */
static int
mt__unexpressible(void)
{
    return mt_error_set(MT_ENOTIMPL, "matrix products on CUDA with a leading dimension above "
                        "2^31 - 1 are not supported");
}

static bool
mt__gemm_type(mt_dtype dt, mt_cuda_gemm_type *t)
{
    switch (dt) {
    case MT_FLOAT32: *t = MT_CUDA_GEMM_FLOAT32; return true;
    case MT_FLOAT64: *t = MT_CUDA_GEMM_FLOAT64; return true;
    case MT_FLOAT16: *t = MT_CUDA_GEMM_FLOAT16; return true;
    case MT_BFLOAT16: *t = MT_CUDA_GEMM_BFLOAT16; return true;
    case MT_COMPLEX64: *t = MT_CUDA_GEMM_COMPLEX64; return true;
    case MT_COMPLEX128: *t = MT_CUDA_GEMM_COMPLEX128; return true;
    case MT_UINT8:
    case MT_INT8: *t = MT_CUDA_GEMM_INT8; return true;
    case MT_INT16:
    case MT_UINT16: *t = MT_CUDA_GEMM_INT16; return true;
    case MT_INT32:
    case MT_UINT32: *t = MT_CUDA_GEMM_INT32; return true;
    case MT_INT64:
    case MT_UINT64: *t = MT_CUDA_GEMM_INT64; return true;
    default: return false;
    }
}

int
mt__cuda_gemm_rowmajor(const mt_cuda_rm_gemm *r, int device)
{
    if (r->batch > INT_MAX || r->m > INT_MAX || r->n > INT_MAX || r->k > INT_MAX) {
        return mt_error_set(MT_ENOTIMPL, "matrix products on CUDA with a dimension above "
                            "2^31 - 1 are not supported");
    }
    mt_cuda_gemm_desc d = {.type = r->type, .m = r->n, .n = r->m, .k = r->k, .batch = r->batch,
                           .a = r->b, .b = r->a, .c = r->c, .alpha = r->alpha, .beta = r->beta,
                           .sa = r->batch > 1 ? r->sb : 0, .sb = r->batch > 1 ? r->sa : 0,
                           .sc = r->batch > 1 ? r->sc : 0};
    if (r->type >= MT_CUDA_GEMM_INT8) {
        d.alpha_i = (int64_t)r->alpha;
        d.beta_i = (int64_t)r->beta;
    }
    int ct;
    if (!mt__colmajor(r->k, r->n, r->b0, r->b1, &d.ta, &d.lda) ||
        !mt__colmajor(r->m, r->k, r->a0, r->a1, &d.tb, &d.ldb) ||
        !mt__colmajor(r->m, r->n, r->c0, r->c1, &ct, &d.ldc) || ct != 0) {
        return mt__unexpressible();
    }
    d.tf32 = r->type == MT_CUDA_GEMM_FLOAT32 && r->tf32;
    return mt_cuda_gemm(device, mt_cuda_current_stream(device), &d);
}

/* c (batch, m, n) = alpha a (batch, m, k) @ b (batch, k, n) + beta c; see Note [Row-major
 * products on cuBLAS]. */
static int
mt__cuda_gemm(mt_tensor *a, mt_tensor *b, mt_tensor *c, mt_scalar alpha, mt_scalar beta)
{
    if (c->numel == 0) {
        return MT_OK;
    }
    mt_cuda_gemm_type type;
    if (!mt__gemm_type(a->dtype, &type)) {
        return mt_error_set(MT_ENOTIMPL, "\"addmm_cuda\" not implemented for '%s'",
                            mt_dtype_scalar_name(a->dtype));
    }
    const int64_t batch = c->sizes[0], m = c->sizes[1], n = c->sizes[2], k = a->sizes[2];
    if (batch > INT_MAX || m > INT_MAX || n > INT_MAX || k > INT_MAX) {
        return mt_error_set(MT_ENOTIMPL, "matrix products on CUDA with a dimension above "
                            "2^31 - 1 are not supported");
    }
    mt_tensor *ac = NULL, *bc = NULL, *cc = NULL;
    int rc = MT_OK;
    mt_cuda_gemm_desc d = {.type = type, .m = n, .n = m, .k = k, .batch = batch};
    /* cuBLAS's A is our b (rows k, columns n), its B our a (rows m, columns k) */
    if (!mt__colmajor(k, n, b->strides[1], b->strides[2], &d.ta, &d.lda)) {
        bc = mt_contiguous(b);
        if (bc == NULL) {
            rc = mt_error_code();
            goto done;
        }
        b = bc;
        if (!mt__colmajor(k, n, b->strides[1], b->strides[2], &d.ta, &d.lda)) {
            rc = mt__unexpressible();
            goto done;
        }
    }
    if (!mt__colmajor(m, k, a->strides[1], a->strides[2], &d.tb, &d.ldb)) {
        ac = mt_contiguous(a);
        if (ac == NULL) {
            rc = mt_error_code();
            goto done;
        }
        a = ac;
        if (!mt__colmajor(m, k, a->strides[1], a->strides[2], &d.tb, &d.ldb)) {
            rc = mt__unexpressible();
            goto done;
        }
    }
    int ct;
    mt_tensor *out = c;
    if (!mt__colmajor(m, n, c->strides[1], c->strides[2], &ct, &d.ldc) || ct != 0 ||
        (batch > 1 && c->strides[0] == 0)) {
        const bool beta0 = mt_scalar_to_double(beta) == 0 && mt_scalar_to_int64(beta) == 0 &&
                           cimag(mt_scalar_to_complex(beta)) == 0;
        cc = beta0 ? mt_tensor_empty(c->dtype, 3, c->sizes, mt_tensor_device(c)) : mt_contiguous(c);
        if (cc == NULL) {
            rc = mt_error_code();
            goto done;
        }
        out = cc;
        if (!mt__colmajor(m, n, out->strides[1], out->strides[2], &ct, &d.ldc) || ct != 0) {
            rc = mt__unexpressible();
            goto done;
        }
    }
    d.a = mt_tensor_data(b);
    d.b = mt_tensor_data(a);
    d.c = mt_tensor_data(out);
    d.sa = batch > 1 ? b->strides[0] : 0;
    d.sb = batch > 1 ? a->strides[0] : 0;
    d.sc = batch > 1 ? out->strides[0] : 0;
    d.alpha = mt_scalar_to_double(alpha);
    d.beta = mt_scalar_to_double(beta);
    if (type == MT_CUDA_GEMM_COMPLEX64 || type == MT_CUDA_GEMM_COMPLEX128) {
        const mt_complex128 za = mt_scalar_to_complex(alpha), zb = mt_scalar_to_complex(beta);
        d.alpha = creal(za);
        d.alpha_im = cimag(za);
        d.beta = creal(zb);
        d.beta_im = cimag(zb);
    }
    if (type >= MT_CUDA_GEMM_INT8) { /* integer operands: integer scalars (torch's rule) */
        d.alpha_i = mt_scalar_to_int64(alpha);
        d.beta_i = mt_scalar_to_int64(beta);
    }
    d.tf32 = type == MT_CUDA_GEMM_FLOAT32 && mt_matmul_allow_tf32();
    {
        const int dev = mt_tensor_device(c).index;
        rc = mt_cuda_gemm(dev, mt_cuda_current_stream(dev), &d);
    }
    if (rc == MT_OK && out != c) {
        rc = mt_copy_(c, out);
    }
done:
    mt_tensor_decref(ac);
    mt_tensor_decref(bc);
    mt_tensor_decref(cc);
    return rc;
}

static int
mt__cuda_cdist(const mt_tensor *a, const mt_tensor *b, double p, mt_tensor *out)
{
    const int dev = mt_tensor_device(out).index;
    const int kind = p == 0   ? MT_CUDA_CDIST_ZERO
                     : p == 1 ? MT_CUDA_CDIST_ONE
                     : p == 2 ? MT_CUDA_CDIST_TWO
                     : isinf(p) ? MT_CUDA_CDIST_INF
                                : MT_CUDA_CDIST_P;
    return mt_cuda_cdist(dev, mt_cuda_current_stream(dev), a->dtype == MT_FLOAT64,
                         mt_tensor_data(a), mt_tensor_data(b), mt_tensor_data(out), a->sizes[0],
                         a->sizes[1], b->sizes[1], a->sizes[2], p, kind);
}

static const mt_gemm_kernels mt__cuda_gemm_kernels = {.gemm = mt__cuda_gemm,
                                                      .cdist = mt__cuda_cdist};

void
mt__cuda_gemm_register(void)
{
    MT_REGISTER_STUB(gemm, MT_CUDA, &mt__cuda_gemm_kernels);
}
