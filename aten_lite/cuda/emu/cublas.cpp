/* aten_lite/cuda/emu/cublas.cpp - the cuBLAS calls minitorch uses, for the emulated build:
 * column-major GEMMs on the CPU BLAS (aten_lite/blas.h), queued on the handle's stream. */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "internal.h"

extern "C" {
#include "aten_lite/blas.h"
}

/* Note [Emulated cuBLAS]
 * The GEMMs take cuBLAS's column-major view: C = alpha op(A) op(B) + beta C with op one of N,
 * T (C is T for real matrices), leading dimensions and batch strides, checked as cuBLAS checks
 * them (CUBLAS_STATUS_INVALID_VALUE for m, n, k < 0 or a leading dimension below its rows).
 * A column-major product is the row-major product of the transposes, C^T = op(B)^T op(A)^T,
 * which goes to the BLAS minitorch loaded (mt_blas_gemm) or, without one, to a plain loop
 * accumulating in double.  The work runs on the handle's stream thread, in order with the
 * kernels and copies queued there; alpha and beta are read when the call is made (pointer mode
 * host) or when the work runs (pointer mode device).  Types: float and double; __half and
 * __nv_bfloat16 operands (cublasGemmEx) are widened to float, multiplied in float, and the
 * result rounded to C's type.  Complex (cublasCgemm/Zgemm and their strided batches, ops N, T
 * and C, the conjugate transpose) goes to the BLAS's cgemm/zgemm when neither operand is
 * conjugated, else to a plain loop accumulating in complex double.  TF32 (compute type
 * CUBLAS_COMPUTE_32F_FAST_TF32, or float32
 * operands under the math mode CUBLAS_TF32_TENSOR_OP_MATH) rounds each float32 operand to 10
 * mantissa bits (nearest, ties to even) before the float32 product, as tensor cores read them;
 * reduced-precision reductions are not emulated. */

struct cublasContext {
    cudaStream_t stream = nullptr;
    cublasMath_t math = CUBLAS_DEFAULT_MATH;
    cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
};

namespace {

struct Gemm {
    bool ta, tb;
    int m, n, k;
    const void *alpha_p, *beta_p; /* device pointer mode: read when run */
    double alpha, beta;
    const void *A, *B;
    void *C;
    cudaDataType at, bt, ct;
    int lda, ldb, ldc;
    long long sa, sb, sc;
    int batch;
    bool dbl;   /* computed in double */
    bool tf32;  /* float32 operands rounded to TF32 */
    bool half_scalars; /* alpha/beta are __half (CUBLAS_COMPUTE_16F) */
};

size_t
type_size(cudaDataType t)
{
    switch (t) {
    case CUDA_R_64F: return 8;
    case CUDA_R_32F: return 4;
    case CUDA_R_16F:
    case CUDA_R_16BF: return 2;
    default: return 0;
    }
}

double
load(const void *p, cudaDataType t, size_t i)
{
    switch (t) {
    case CUDA_R_64F: return ((const double *)p)[i];
    case CUDA_R_32F: return ((const float *)p)[i];
    case CUDA_R_16F: return (float)((const __half *)p)[i];
    default: return (float)((const __nv_bfloat16 *)p)[i];
    }
}

void
store(void *p, cudaDataType t, size_t i, double v)
{
    switch (t) {
    case CUDA_R_64F: ((double *)p)[i] = v; break;
    case CUDA_R_32F: ((float *)p)[i] = (float)v; break;
    case CUDA_R_16F: ((__half *)p)[i] = __half((float)v); break;
    default: ((__nv_bfloat16 *)p)[i] = __nv_bfloat16((float)v); break;
    }
}

/* column-major C = alpha op(A) op(B) + beta C over T (float or double) */
template <class T>
void
gemm_colmajor(bool ta, bool tb, int m, int n, int k, double alpha, const T *A, int lda,
              const T *B, int ldb, double beta, T *C, int ldc)
{
    constexpr bool dbl = sizeof(T) == 8;
    if (mt_blas_gemm(dbl, tb, ta, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc)) {
        return;
    }
    std::vector<double> col((size_t)m);
    for (int j = 0; j < n; j++) {
        std::fill(col.begin(), col.end(), 0.0);
        for (int l = 0; l < k; l++) {
            double b = tb ? B[j + (size_t)l * ldb] : B[l + (size_t)j * ldb];
            if (ta) {
                for (int i = 0; i < m; i++) {
                    col[(size_t)i] += (double)A[l + (size_t)i * lda] * b;
                }
            } else {
                const T *a = A + (size_t)l * lda;
                for (int i = 0; i < m; i++) {
                    col[(size_t)i] += (double)a[i] * b;
                }
            }
        }
        T *c = C + (size_t)j * ldc;
        for (int i = 0; i < m; i++) {
            c[i] = (T)(alpha * col[(size_t)i] + (beta == 0.0 ? 0.0 : beta * (double)c[i]));
        }
    }
}

/* copies a column-major rows x cols matrix of type t into a float/double one of the same ld */
template <class T>
std::vector<T>
widen(const void *p, cudaDataType t, int rows, int cols, int ld)
{
    std::vector<T> out((size_t)ld * (cols > 0 ? cols - 1 : 0) + (size_t)rows);
    for (int j = 0; j < cols; j++) {
        for (int i = 0; i < rows; i++) {
            size_t idx = (size_t)j * ld + i;
            out[idx] = (T)load(p, t, idx);
        }
    }
    return out;
}

/* x rounded to TF32's 10 mantissa bits (nearest, ties to even); inf and NaN kept */
float
to_tf32(float x)
{
    uint32_t b;
    std::memcpy(&b, &x, 4);
    if ((b & 0x7F800000u) != 0x7F800000u) {
        b += 0xFFFu + ((b >> 13) & 1u);
        b &= ~0x1FFFu;
    }
    std::memcpy(&x, &b, 4);
    return x;
}

template <class T>
void
round_tf32(std::vector<T> &v)
{
    for (T &x : v) {
        x = (T)to_tf32((float)x);
    }
}

template <class T>
void
run_typed(const Gemm &g)
{
    int arows = g.ta ? g.k : g.m, acols = g.ta ? g.m : g.k;
    int brows = g.tb ? g.n : g.k, bcols = g.tb ? g.k : g.n;
    constexpr cudaDataType native = sizeof(T) == 8 ? CUDA_R_64F : CUDA_R_32F;
    for (int b = 0; b < g.batch; b++) {
        const char *A = (const char *)g.A + (size_t)(b * g.sa) * type_size(g.at);
        const char *B = (const char *)g.B + (size_t)(b * g.sb) * type_size(g.bt);
        char *C = (char *)g.C + (size_t)(b * g.sc) * type_size(g.ct);
        if (g.at == native && g.bt == native && g.ct == native && !g.tf32) {
            gemm_colmajor<T>(g.ta, g.tb, g.m, g.n, g.k, g.alpha, (const T *)A, g.lda,
                             (const T *)B, g.ldb, g.beta, (T *)C, g.ldc);
            continue;
        }
        std::vector<T> a = widen<T>(A, g.at, arows, acols, g.lda);
        std::vector<T> bb = widen<T>(B, g.bt, brows, bcols, g.ldb);
        if (g.tf32) {
            round_tf32(a);
            round_tf32(bb);
        }
        std::vector<T> c = g.beta == 0.0 ? std::vector<T>((size_t)g.ldc * (g.n - 1) + g.m, T(0))
                                         : widen<T>(C, g.ct, g.m, g.n, g.ldc);
        gemm_colmajor<T>(g.ta, g.tb, g.m, g.n, g.k, g.alpha, a.data(), g.lda, bb.data(), g.ldb,
                         g.beta, c.data(), g.ldc);
        for (int j = 0; j < g.n; j++) {
            for (int i = 0; i < g.m; i++) {
                size_t idx = (size_t)j * g.ldc + i;
                store(C, g.ct, idx, (double)c[idx]);
            }
        }
    }
}

double
scalar(const void *p, bool dbl, bool half)
{
    if (dbl) {
        return *(const double *)p;
    }
    if (half) {
        return (float)*(const __half *)p;
    }
    return *(const float *)p;
}

cublasStatus_t
submit(cublasHandle_t h, int ta, int tb, int m, int n, int k, const void *alpha,
       const void *A, cudaDataType at, int lda, long long sa, const void *B, cudaDataType bt,
       int ldb, long long sb, const void *beta, void *C, cudaDataType ct, int ldc, long long sc,
       int batch, cublasComputeType_t compute)
{
    if (h == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if (ta < 0 || ta > 2 || tb < 0 || tb > 2 || m < 0 || n < 0 || k < 0 || batch < 0 ||
        lda < std::max(1, ta != CUBLAS_OP_N ? k : m) ||
        ldb < std::max(1, tb != CUBLAS_OP_N ? n : k) || ldc < std::max(1, m) ||
        alpha == nullptr || beta == nullptr) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    bool dbl = false, half = false;
    switch (compute) {
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
        if (at != CUDA_R_64F || bt != CUDA_R_64F || ct != CUDA_R_64F) {
            return CUBLAS_STATUS_NOT_SUPPORTED;
        }
        dbl = true;
        break;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32:
        if (at != bt || (at != CUDA_R_32F && at != CUDA_R_16F && at != CUDA_R_16BF) ||
            (ct != at && ct != CUDA_R_32F)) {
            return CUBLAS_STATUS_NOT_SUPPORTED;
        }
        break;
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
        if (at != CUDA_R_16F || bt != CUDA_R_16F || ct != CUDA_R_16F) {
            return CUBLAS_STATUS_NOT_SUPPORTED;
        }
        half = true;
        break;
    default:
        return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    if (m == 0 || n == 0 || batch == 0) {
        return CUBLAS_STATUS_SUCCESS;
    }
    Gemm g;
    g.ta = ta != CUBLAS_OP_N;
    g.tb = tb != CUBLAS_OP_N;
    g.m = m;
    g.n = n;
    g.k = k;
    g.A = A;
    g.B = B;
    g.C = C;
    g.at = at;
    g.bt = bt;
    g.ct = ct;
    g.lda = lda;
    g.ldb = ldb;
    g.ldc = ldc;
    g.sa = sa;
    g.sb = sb;
    g.sc = sc;
    g.batch = batch;
    g.dbl = dbl;
    g.half_scalars = half;
    g.tf32 = at == CUDA_R_32F && bt == CUDA_R_32F &&
             (compute == CUBLAS_COMPUTE_32F_FAST_TF32 ||
              (compute == CUBLAS_COMPUTE_32F &&
               ((unsigned int)h->math & 15u) == (unsigned int)CUBLAS_TF32_TENSOR_OP_MATH));
    bool device_scalars = h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    g.alpha_p = device_scalars ? alpha : nullptr;
    g.beta_p = device_scalars ? beta : nullptr;
    g.alpha = device_scalars ? 0.0 : scalar(alpha, dbl, half);
    g.beta = device_scalars ? 0.0 : scalar(beta, dbl, half);
    cudaError_t e = mt_emu::enqueue_host(h->stream, [g]() mutable {
        if (g.alpha_p != nullptr) {
            g.alpha = scalar(g.alpha_p, g.dbl, g.half_scalars);
            g.beta = scalar(g.beta_p, g.dbl, g.half_scalars);
        }
        if (g.dbl) {
            run_typed<double>(g);
        } else {
            run_typed<float>(g);
        }
    });
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

/* column-major C = alpha op(A) op(B) + beta C over std::complex<R> (op 0 N, 1 T, 2 C) */
template <class R>
void
gemm_colmajor_complex(int ta, int tb, int m, int n, int k, std::complex<R> alpha,
                      const std::complex<R> *A, int lda, const std::complex<R> *B, int ldb,
                      std::complex<R> beta, std::complex<R> *C, int ldc)
{
    constexpr bool dbl = sizeof(R) == 8;
    if (ta != CUBLAS_OP_C && tb != CUBLAS_OP_C &&
        mt_blas_gemm_complex(dbl, tb != CUBLAS_OP_N, ta != CUBLAS_OP_N, n, m, k, &alpha, B, ldb,
                             A, lda, &beta, C, ldc)) {
        return;
    }
    using Z = std::complex<double>;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            Z acc = 0;
            for (int l = 0; l < k; l++) {
                Z a = ta == CUBLAS_OP_N ? Z(A[i + (size_t)l * lda]) : Z(A[l + (size_t)i * lda]);
                Z b = tb == CUBLAS_OP_N ? Z(B[l + (size_t)j * ldb]) : Z(B[j + (size_t)l * ldb]);
                acc += (ta == CUBLAS_OP_C ? std::conj(a) : a) * (tb == CUBLAS_OP_C ? std::conj(b) : b);
            }
            std::complex<R> &c = C[i + (size_t)j * ldc];
            Z r = Z(alpha) * acc;
            if (beta != std::complex<R>(0)) {
                r += Z(beta) * Z(c);
            }
            c = std::complex<R>(r);
        }
    }
}

/* cublasCgemm / Zgemm (R float / double), batched with element strides */
template <class R>
cublasStatus_t
submit_complex(cublasHandle_t h, int ta, int tb, int m, int n, int k, const void *alpha,
               const void *A, int lda, long long sa, const void *B, int ldb, long long sb,
               const void *beta, void *C, int ldc, long long sc, int batch)
{
    using Z = std::complex<R>;
    if (h == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if (ta < 0 || ta > 2 || tb < 0 || tb > 2 || m < 0 || n < 0 || k < 0 || batch < 0 ||
        lda < std::max(1, ta != CUBLAS_OP_N ? k : m) ||
        ldb < std::max(1, tb != CUBLAS_OP_N ? n : k) || ldc < std::max(1, m) ||
        alpha == nullptr || beta == nullptr) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (m == 0 || n == 0 || batch == 0) {
        return CUBLAS_STATUS_SUCCESS;
    }
    const bool device_scalars = h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    Z al = device_scalars ? Z(0) : *(const Z *)alpha, be = device_scalars ? Z(0) : *(const Z *)beta;
    const Z *ap = device_scalars ? (const Z *)alpha : nullptr;
    const Z *bp = device_scalars ? (const Z *)beta : nullptr;
    cudaError_t e = mt_emu::enqueue_host(h->stream, [=]() {
        const Z a = ap != nullptr ? *ap : al, b = bp != nullptr ? *bp : be;
        for (int i = 0; i < batch; i++) {
            gemm_colmajor_complex<R>(ta, tb, m, n, k, a, (const Z *)A + i * sa, lda,
                                     (const Z *)B + i * sb, ldb, b, (Z *)C + i * sc, ldc);
        }
    });
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

} /* namespace */

extern "C" {

cublasStatus_t
cublasCgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
            int n, int k, const cuComplex *alpha, const cuComplex *A, int lda, const cuComplex *B,
            int ldb, const cuComplex *beta, cuComplex *C, int ldc)
{
    return submit_complex<float>(handle, transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0,
                                 beta, C, ldc, 0, 1);
}

cublasStatus_t
cublasZgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
            int n, int k, const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
            const cuDoubleComplex *B, int ldb, const cuDoubleComplex *beta, cuDoubleComplex *C,
            int ldc)
{
    return submit_complex<double>(handle, transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0,
                                  beta, C, ldc, 0, 1);
}

cublasStatus_t
cublasCgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                          cublasOperation_t transb, int m, int n, int k, const cuComplex *alpha,
                          const cuComplex *A, int lda, long long int strideA, const cuComplex *B,
                          int ldb, long long int strideB, const cuComplex *beta, cuComplex *C,
                          int ldc, long long int strideC, int batchCount)
{
    return submit_complex<float>(handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb,
                                 strideB, beta, C, ldc, strideC, batchCount);
}

cublasStatus_t
cublasZgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                          cublasOperation_t transb, int m, int n, int k,
                          const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
                          long long int strideA, const cuDoubleComplex *B, int ldb,
                          long long int strideB, const cuDoubleComplex *beta, cuDoubleComplex *C,
                          int ldc, long long int strideC, int batchCount)
{
    return submit_complex<double>(handle, transa, transb, m, n, k, alpha, A, lda, strideA, B,
                                  ldb, strideB, beta, C, ldc, strideC, batchCount);
}

cublasStatus_t
cublasCreate(cublasHandle_t *handle)
{
    if (handle == nullptr) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        (void)cudaGetLastError();
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    *handle = new cublasContext;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasDestroy(cublasHandle_t handle)
{
    if (handle == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasSetStream(cublasHandle_t handle, cudaStream_t streamId)
{
    if (handle == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    handle->stream = streamId;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasGetStream(cublasHandle_t handle, cudaStream_t *streamId)
{
    if (handle == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if (streamId == nullptr) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
    if (handle == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    unsigned int base = (unsigned int)mode & ~16u;
    if (base > 3) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    handle->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode)
{
    if (handle == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if (mode == nullptr) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    *mode = handle->math;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode)
{
    if (handle == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    handle->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t *mode)
{
    if (handle == nullptr) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if (mode == nullptr) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    *mode = handle->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasSetWorkspace(cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes)
{
    (void)workspace;
    (void)workspaceSizeInBytes;
    return handle == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : CUBLAS_STATUS_SUCCESS;
}

const char *
cublasGetStatusName(cublasStatus_t status)
{
    switch (status) {
#define MT__S(x) case x: return #x;
        MT__S(CUBLAS_STATUS_SUCCESS)
        MT__S(CUBLAS_STATUS_NOT_INITIALIZED)
        MT__S(CUBLAS_STATUS_ALLOC_FAILED)
        MT__S(CUBLAS_STATUS_INVALID_VALUE)
        MT__S(CUBLAS_STATUS_ARCH_MISMATCH)
        MT__S(CUBLAS_STATUS_MAPPING_ERROR)
        MT__S(CUBLAS_STATUS_EXECUTION_FAILED)
        MT__S(CUBLAS_STATUS_INTERNAL_ERROR)
        MT__S(CUBLAS_STATUS_NOT_SUPPORTED)
        MT__S(CUBLAS_STATUS_LICENSE_ERROR)
#undef MT__S
    }
    return "CUBLAS_STATUS_UNKNOWN";
}

const char *
cublasGetStatusString(cublasStatus_t status)
{
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "the operation completed successfully";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
    }
    return "unknown error";
}

cublasStatus_t
cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
            int n, int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
            const float *beta, float *C, int ldc)
{
    return submit(handle, transa, transb, m, n, k, alpha, A, CUDA_R_32F, lda, 0, B, CUDA_R_32F,
                  ldb, 0, beta, C, CUDA_R_32F, ldc, 0, 1, CUBLAS_COMPUTE_32F);
}

cublasStatus_t
cublasDgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
            int n, int k, const double *alpha, const double *A, int lda, const double *B, int ldb,
            const double *beta, double *C, int ldc)
{
    return submit(handle, transa, transb, m, n, k, alpha, A, CUDA_R_64F, lda, 0, B, CUDA_R_64F,
                  ldb, 0, beta, C, CUDA_R_64F, ldc, 0, 1, CUBLAS_COMPUTE_64F);
}

cublasStatus_t
cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                          cublasOperation_t transb, int m, int n, int k, const float *alpha,
                          const float *A, int lda, long long int strideA, const float *B, int ldb,
                          long long int strideB, const float *beta, float *C, int ldc,
                          long long int strideC, int batchCount)
{
    return submit(handle, transa, transb, m, n, k, alpha, A, CUDA_R_32F, lda, strideA, B,
                  CUDA_R_32F, ldb, strideB, beta, C, CUDA_R_32F, ldc, strideC, batchCount,
                  CUBLAS_COMPUTE_32F);
}

cublasStatus_t
cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                          cublasOperation_t transb, int m, int n, int k, const double *alpha,
                          const double *A, int lda, long long int strideA, const double *B,
                          int ldb, long long int strideB, const double *beta, double *C, int ldc,
                          long long int strideC, int batchCount)
{
    return submit(handle, transa, transb, m, n, k, alpha, A, CUDA_R_64F, lda, strideA, B,
                  CUDA_R_64F, ldb, strideB, beta, C, CUDA_R_64F, ldc, strideC, batchCount,
                  CUBLAS_COMPUTE_64F);
}

cublasStatus_t
cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
             int n, int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
             const void *B, cudaDataType Btype, int ldb, const void *beta, void *C,
             cudaDataType Ctype, int ldc, cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    return submit(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0,
                  beta, C, Ctype, ldc, 0, 1, computeType);
}

cublasStatus_t
cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n, int k, const void *alpha,
                           const void *A, cudaDataType Atype, int lda, long long int strideA,
                           const void *B, cudaDataType Btype, int ldb, long long int strideB,
                           const void *beta, void *C, cudaDataType Ctype, int ldc,
                           long long int strideC, int batchCount, cublasComputeType_t computeType,
                           cublasGemmAlgo_t algo)
{
    (void)algo;
    return submit(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb,
                  strideB, beta, C, Ctype, ldc, strideC, batchCount, computeType);
}

} /* extern "C" */
