/* aten_lite/cuda/gemm.cu - matrix products on CUDA: cuBLAS (opened on first use) for the float
 * and complex types, a plain kernel for integers and empty inner dimensions (Note [CUDA GEMM
 * descriptor]). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>

#include <cublas_v2.h>

#include "aten_lite/cuda/cuda_compat.h"
#include "aten_lite/cuda/launch.cuh"
#include "aten_lite/cuda/gemm.h"

#ifndef MT_CUDA_EMULATED
#include <dlfcn.h>
#endif

extern "C" {
#include "c10_lite/error.h"
}

/* Note [Loading cuBLAS]
 * The real build needs only cuBLAS's header: the library (hundreds of MB with cublasLt) is
 * opened with dlopen the first time a product runs on a device, so `import minitorch` never
 * pays for it.  Where it looks, in order: $MINITORCH_CUBLAS_LIBRARY (a path: only that one),
 * then "libcublas.so.<the toolkit's major>" through the dynamic loader, then the library the
 * build found (MT_CUBLAS_DEFAULT_PATH), then "libcublas.so".  Every function used is resolved
 * then, so a library lacking one is reported with its name.  The emulated build's table points
 * at the emulated cuBLAS (aten_lite/cuda/emu/cublas.cpp).  Loading happens once per process;
 * its outcome is kept.
 *
 * Note [cuBLAS handles]
 * One handle per (thread, device), created on first use with the device current, as torch
 * keeps them: a handle is not meant to be shared by threads.  Each call sets the handle's stream
 * to the current stream it is given, so the products are ordered with the kernels and copies
 * of that stream.  Handles live until the process ends (destroying them at thread exit could
 * run after the driver is gone). */

namespace {

using mt_cuda::blocks_for;
using mt_cuda::kMaxBlocks;
using mt_cuda::kThreads;
using mt_cuda::on_device;
constexpr int kMaxDevices = 64;

struct cublas_api {
    cublasStatus_t (*Create)(cublasHandle_t *);
    cublasStatus_t (*SetStream)(cublasHandle_t, cudaStream_t);
    const char *(*GetStatusName)(cublasStatus_t);
    cublasStatus_t (*Sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const float *, const float *, int, const float *, int, const float *,
                            float *, int);
    cublasStatus_t (*Dgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const double *, const double *, int, const double *, int,
                            const double *, double *, int);
    cublasStatus_t (*SgemmStridedBatched)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                          int, int, int, const float *, const float *, int,
                                          long long, const float *, int, long long,
                                          const float *, float *, int, long long, int);
    cublasStatus_t (*DgemmStridedBatched)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                          int, int, int, const double *, const double *, int,
                                          long long, const double *, int, long long,
                                          const double *, double *, int, long long, int);
    cublasStatus_t (*Cgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const cuComplex *, const cuComplex *, int, const cuComplex *, int,
                            const cuComplex *, cuComplex *, int);
    cublasStatus_t (*Zgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const cuDoubleComplex *, const cuDoubleComplex *, int,
                            const cuDoubleComplex *, int, const cuDoubleComplex *,
                            cuDoubleComplex *, int);
    cublasStatus_t (*CgemmStridedBatched)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                          int, int, int, const cuComplex *, const cuComplex *,
                                          int, long long, const cuComplex *, int, long long,
                                          const cuComplex *, cuComplex *, int, long long, int);
    cublasStatus_t (*ZgemmStridedBatched)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                          int, int, int, const cuDoubleComplex *,
                                          const cuDoubleComplex *, int, long long,
                                          const cuDoubleComplex *, int, long long,
                                          const cuDoubleComplex *, cuDoubleComplex *, int,
                                          long long, int);
    cublasStatus_t (*GemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                             const void *, const void *, cudaDataType, int, const void *,
                             cudaDataType, int, const void *, void *, cudaDataType, int,
                             cublasComputeType_t, cublasGemmAlgo_t);
    cublasStatus_t (*GemmStridedBatchedEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                           int, int, int, const void *, const void *,
                                           cudaDataType, int, long long, const void *,
                                           cudaDataType, int, long long, const void *, void *,
                                           cudaDataType, int, long long, int,
                                           cublasComputeType_t, cublasGemmAlgo_t);
};

std::once_flag g_once;
cublas_api g_api;
bool g_loaded;
char g_why[1024];

#ifdef MT_CUDA_EMULATED
void
load_api()
{
    g_api.Create = cublasCreate;
    g_api.SetStream = cublasSetStream;
    g_api.GetStatusName = cublasGetStatusName;
    g_api.Sgemm = cublasSgemm;
    g_api.Dgemm = cublasDgemm;
    g_api.SgemmStridedBatched = cublasSgemmStridedBatched;
    g_api.DgemmStridedBatched = cublasDgemmStridedBatched;
    g_api.Cgemm = cublasCgemm;
    g_api.Zgemm = cublasZgemm;
    g_api.CgemmStridedBatched = cublasCgemmStridedBatched;
    g_api.ZgemmStridedBatched = cublasZgemmStridedBatched;
    g_api.GemmEx = cublasGemmEx;
    g_api.GemmStridedBatchedEx = cublasGemmStridedBatchedEx;
    g_loaded = true;
}
#else
#ifndef MT_CUBLAS_DEFAULT_PATH
#define MT_CUBLAS_DEFAULT_PATH ""
#endif
#define MT__STR2(x) #x
#define MT__STR(x) MT__STR2(x)

/* every function into g_api; false with the missing name in g_why */
bool
resolve(void *h, const char *path)
{
#define MT__SYM(field, name)                                                                   \
    do {                                                                                       \
        *(void **)&g_api.field = dlsym(h, name);                                               \
        if (g_api.field == nullptr) {                                                          \
            snprintf(g_why, sizeof(g_why), "the cuBLAS library %s lacks %s", path, name);      \
            return false;                                                                      \
        }                                                                                      \
    } while (0)
    MT__SYM(Create, "cublasCreate_v2");
    MT__SYM(SetStream, "cublasSetStream_v2");
    MT__SYM(GetStatusName, "cublasGetStatusName");
    MT__SYM(Sgemm, "cublasSgemm_v2");
    MT__SYM(Dgemm, "cublasDgemm_v2");
    MT__SYM(SgemmStridedBatched, "cublasSgemmStridedBatched");
    MT__SYM(DgemmStridedBatched, "cublasDgemmStridedBatched");
    MT__SYM(Cgemm, "cublasCgemm_v2");
    MT__SYM(Zgemm, "cublasZgemm_v2");
    MT__SYM(CgemmStridedBatched, "cublasCgemmStridedBatched");
    MT__SYM(ZgemmStridedBatched, "cublasZgemmStridedBatched");
    MT__SYM(GemmEx, "cublasGemmEx");
    MT__SYM(GemmStridedBatchedEx, "cublasGemmStridedBatchedEx");
#undef MT__SYM
    return true;
}

void
load_api()
{
    const char *env = getenv("MINITORCH_CUBLAS_LIBRARY");
    const char *candidates[3];
    int n = 0;
    if (env != nullptr && env[0] != '\0') {
        candidates[n++] = env;
    } else {
        candidates[n++] = "libcublas.so." MT__STR(CUBLAS_VER_MAJOR);
        if (MT_CUBLAS_DEFAULT_PATH[0] != '\0') {
            candidates[n++] = MT_CUBLAS_DEFAULT_PATH;
        }
        candidates[n++] = "libcublas.so";
    }
    char tried[768] = "";
    for (int i = 0; i < n; i++) {
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (h == nullptr) {
            size_t len = strlen(tried);
            snprintf(tried + len, sizeof(tried) - len, "%s%s", len ? ", " : "", candidates[i]);
            continue;
        }
        if (!resolve(h, candidates[i])) {
            dlclose(h);
            return;
        }
        g_loaded = true;
        return;
    }
    snprintf(g_why, sizeof(g_why),
             "cuBLAS could not be loaded (tried %s; set MINITORCH_CUBLAS_LIBRARY to its path)",
             tried);
}
#endif

const cublas_api *
api()
{
    std::call_once(g_once, load_api);
    return g_loaded ? &g_api : nullptr;
}

thread_local cublasHandle_t tls_handles[kMaxDevices];


/* ---- the plain kernel: integers (wrapping, in uint64) and k == 0 ---- */

template <typename T> struct acc_of {
    typedef uint64_t type; /* the unsigned integer types */
};
template <> struct acc_of<float> {
    typedef float type;
};
template <> struct acc_of<double> {
    typedef double type;
};
template <> struct acc_of<__half> {
    typedef float type;
};
template <> struct acc_of<__nv_bfloat16> {
    typedef float type;
};

template <typename T>
__device__ __forceinline__ typename acc_of<T>::type
widen(T v)
{
    return (typename acc_of<T>::type)v;
}
template <>
__device__ __forceinline__ float
widen<__half>(__half v)
{
    return __half2float(v);
}
template <>
__device__ __forceinline__ float
widen<__nv_bfloat16>(__nv_bfloat16 v)
{
    return __bfloat162float(v);
}

template <typename T>
__device__ __forceinline__ T
narrow(typename acc_of<T>::type v)
{
    return (T)v;
}
template <>
__device__ __forceinline__ __half
narrow<__half>(float v)
{
    return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16
narrow<__nv_bfloat16>(float v)
{
    return __float2bfloat16_rn(v);
}

/* one thread per element of C (grid-stride), summing over k in order */
template <typename T>
__global__ void
plain_gemm_kernel(mt_cuda_gemm_desc d, typename acc_of<T>::type alpha,
                  typename acc_of<T>::type beta)
{
    typedef typename acc_of<T>::type A;
    const int64_t total = d.batch * d.m * d.n;
    for (int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; idx < total;
         idx += (int64_t)blockDim.x * gridDim.x) {
        const int64_t i = idx % d.m;
        const int64_t j = (idx / d.m) % d.n;
        const int64_t b = idx / (d.m * d.n);
        T *pc = (T *)d.c + b * d.sc + i + j * d.ldc;
        A s = A(0);
        if (d.k > 0) { /* (with k == 0, A and B may be empty: no address into them) */
            const T *pa = (const T *)d.a + b * d.sa;
            const T *pb = (const T *)d.b + b * d.sb;
            for (int64_t l = 0; l < d.k; l++) {
                const A x = widen<T>(d.ta ? pa[l + i * d.lda] : pa[i + l * d.lda]);
                const A y = widen<T>(d.tb ? pb[j + l * d.ldb] : pb[l + j * d.ldb]);
                s += x * y;
            }
        }
        A r = alpha * s;
        if (beta != A(0)) {
            r += beta * widen<T>(*pc);
        }
        *pc = narrow<T>(r);
    }
}

template <typename T>
void
launch_plain(cudaStream_t stream, const mt_cuda_gemm_desc &d)
{
    typedef typename acc_of<T>::type A;
    A alpha, beta;
    if (d.type >= MT_CUDA_GEMM_INT8) {
        alpha = (A)(uint64_t)d.alpha_i;
        beta = (A)(uint64_t)d.beta_i;
    } else {
        alpha = (A)d.alpha;
        beta = (A)d.beta;
    }
    MT_CUDA_LAUNCH(plain_gemm_kernel<T>, blocks_for(d.batch * d.m * d.n), kThreads, 0, stream, d,
                   alpha, beta);
}

/* complex (R: float or double; elements are (re, im) pairs), one thread per element of C,
 * summing over k in order: the products of an empty inner dimension (k == 0) */
template <typename R>
__global__ void
plain_complex_gemm_kernel(mt_cuda_gemm_desc d, R ar, R ai, R br, R bi)
{
    const int64_t total = d.batch * d.m * d.n;
    for (int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; idx < total;
         idx += (int64_t)blockDim.x * gridDim.x) {
        const int64_t i = idx % d.m;
        const int64_t j = (idx / d.m) % d.n;
        const int64_t b = idx / (d.m * d.n);
        const R *pa = (const R *)d.a + 2 * b * d.sa;
        const R *pb = (const R *)d.b + 2 * b * d.sb;
        R *pc = (R *)d.c + 2 * (b * d.sc + i + j * d.ldc);
        R sr = 0, si = 0;
        for (int64_t l = 0; l < d.k; l++) {
            const R *x = pa + 2 * (d.ta ? l + i * d.lda : i + l * d.lda);
            const R *y = pb + 2 * (d.tb ? j + l * d.ldb : l + j * d.ldb);
            sr += x[0] * y[0] - x[1] * y[1];
            si += x[0] * y[1] + x[1] * y[0];
        }
        R rr = ar * sr - ai * si, ri = ar * si + ai * sr;
        if (br != 0 || bi != 0) {
            rr += br * pc[0] - bi * pc[1];
            ri += br * pc[1] + bi * pc[0];
        }
        pc[0] = rr;
        pc[1] = ri;
    }
}

template <typename R>
void
launch_plain_complex(cudaStream_t stream, const mt_cuda_gemm_desc &d)
{
    MT_CUDA_LAUNCH(plain_complex_gemm_kernel<R>, blocks_for(d.batch * d.m * d.n), kThreads, 0,
                   stream, d, (R)d.alpha, (R)d.alpha_im, (R)d.beta, (R)d.beta_im);
}

int
cublas_failed(const cublas_api *a, cublasStatus_t s, const char *call)
{
    return mt_error_set(MT_ERUNTIME, "CUDA error: %s when calling `%s`", a->GetStatusName(s),
                        call);
}

/* the product through cuBLAS on the current device */
int
run_cublas(int device, cudaStream_t stream, const mt_cuda_gemm_desc &d)
{
    const cublas_api *a = api();
    if (a == nullptr) {
        return mt_error_set(MT_ERUNTIME, "%s", g_why);
    }
    if (device < 0 || device >= kMaxDevices) {
        return mt_error_set(MT_ERUNTIME, "cuBLAS: device %d is out of range", device);
    }
    cublasHandle_t &h = tls_handles[device];
    cublasStatus_t s;
    if (h == nullptr && (s = a->Create(&h)) != CUBLAS_STATUS_SUCCESS) {
        h = nullptr;
        return cublas_failed(a, s, "cublasCreate(handle)");
    }
    if ((s = a->SetStream(h, stream)) != CUBLAS_STATUS_SUCCESS) {
        return cublas_failed(a, s, "cublasSetStream(handle, stream)");
    }
    const cublasOperation_t ta = d.ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t tb = d.tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int m = (int)d.m, n = (int)d.n, k = (int)d.k, batch = (int)d.batch;
    const int lda = (int)d.lda, ldb = (int)d.ldb, ldc = (int)d.ldc;
    const bool one = batch == 1;
    if (d.type == MT_CUDA_GEMM_FLOAT64) {
        const double alpha = d.alpha, beta = d.beta;
        const double *pa = (const double *)d.a, *pb = (const double *)d.b;
        double *pc = (double *)d.c;
        s = one ? a->Dgemm(h, ta, tb, m, n, k, &alpha, pa, lda, pb, ldb, &beta, pc, ldc)
                : a->DgemmStridedBatched(h, ta, tb, m, n, k, &alpha, pa, lda, d.sa, pb, ldb, d.sb,
                                         &beta, pc, ldc, d.sc, batch);
        return s == CUBLAS_STATUS_SUCCESS
                   ? MT_OK
                   : cublas_failed(a, s, one ? "cublasDgemm( handle, opa, opb, m, n, k, &alpha, "
                                               "a, lda, b, ldb, &beta, c, ldc)"
                                             : "cublasDgemmStridedBatched( handle, opa, opb, m, "
                                               "n, k, &alpha, a, lda, stridea, b, ldb, strideb, "
                                               "&beta, c, ldc, stridec, num_batches)");
    }
    if (d.type == MT_CUDA_GEMM_COMPLEX128) {
        const cuDoubleComplex alpha = make_cuDoubleComplex(d.alpha, d.alpha_im);
        const cuDoubleComplex beta = make_cuDoubleComplex(d.beta, d.beta_im);
        const cuDoubleComplex *pa = (const cuDoubleComplex *)d.a, *pb = (const cuDoubleComplex *)d.b;
        cuDoubleComplex *pc = (cuDoubleComplex *)d.c;
        s = one ? a->Zgemm(h, ta, tb, m, n, k, &alpha, pa, lda, pb, ldb, &beta, pc, ldc)
                : a->ZgemmStridedBatched(h, ta, tb, m, n, k, &alpha, pa, lda, d.sa, pb, ldb, d.sb,
                                         &beta, pc, ldc, d.sc, batch);
        return s == CUBLAS_STATUS_SUCCESS
                   ? MT_OK
                   : cublas_failed(a, s, one ? "cublasZgemm( handle, opa, opb, m, n, k, &alpha, "
                                               "a, lda, b, ldb, &beta, c, ldc)"
                                             : "cublasZgemmStridedBatched( handle, opa, opb, m, "
                                               "n, k, &alpha, a, lda, stridea, b, ldb, strideb, "
                                               "&beta, c, ldc, stridec, num_batches)");
    }
    if (d.type == MT_CUDA_GEMM_COMPLEX64) {
        const cuComplex alpha = make_cuComplex((float)d.alpha, (float)d.alpha_im);
        const cuComplex beta = make_cuComplex((float)d.beta, (float)d.beta_im);
        const cuComplex *pa = (const cuComplex *)d.a, *pb = (const cuComplex *)d.b;
        cuComplex *pc = (cuComplex *)d.c;
        s = one ? a->Cgemm(h, ta, tb, m, n, k, &alpha, pa, lda, pb, ldb, &beta, pc, ldc)
                : a->CgemmStridedBatched(h, ta, tb, m, n, k, &alpha, pa, lda, d.sa, pb, ldb, d.sb,
                                         &beta, pc, ldc, d.sc, batch);
        return s == CUBLAS_STATUS_SUCCESS
                   ? MT_OK
                   : cublas_failed(a, s, one ? "cublasCgemm( handle, opa, opb, m, n, k, &alpha, "
                                               "a, lda, b, ldb, &beta, c, ldc)"
                                             : "cublasCgemmStridedBatched( handle, opa, opb, m, "
                                               "n, k, &alpha, a, lda, stridea, b, ldb, strideb, "
                                               "&beta, c, ldc, stridec, num_batches)");
    }
    const float alpha = (float)d.alpha, beta = (float)d.beta;
    if (d.type == MT_CUDA_GEMM_FLOAT32 && !d.tf32) {
        const float *pa = (const float *)d.a, *pb = (const float *)d.b;
        float *pc = (float *)d.c;
        s = one ? a->Sgemm(h, ta, tb, m, n, k, &alpha, pa, lda, pb, ldb, &beta, pc, ldc)
                : a->SgemmStridedBatched(h, ta, tb, m, n, k, &alpha, pa, lda, d.sa, pb, ldb, d.sb,
                                         &beta, pc, ldc, d.sc, batch);
        return s == CUBLAS_STATUS_SUCCESS
                   ? MT_OK
                   : cublas_failed(a, s, one ? "cublasSgemm( handle, opa, opb, m, n, k, &alpha, "
                                               "a, lda, b, ldb, &beta, c, ldc)"
                                             : "cublasSgemmStridedBatched( handle, opa, opb, m, "
                                               "n, k, &alpha, a, lda, stridea, b, ldb, strideb, "
                                               "&beta, c, ldc, stridec, num_batches)");
    }
    /* float32 with TF32, float16 and bfloat16: the Ex forms, computed in float32 */
    const cudaDataType t = d.type == MT_CUDA_GEMM_FLOAT32   ? CUDA_R_32F
                           : d.type == MT_CUDA_GEMM_FLOAT16 ? CUDA_R_16F
                                                            : CUDA_R_16BF;
    const cublasComputeType_t ct =
        d.type == MT_CUDA_GEMM_FLOAT32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    s = one ? a->GemmEx(h, ta, tb, m, n, k, &alpha, d.a, t, lda, d.b, t, ldb, &beta, d.c, t, ldc,
                        ct, CUBLAS_GEMM_DEFAULT)
            : a->GemmStridedBatchedEx(h, ta, tb, m, n, k, &alpha, d.a, t, lda, d.sa, d.b, t, ldb,
                                      d.sb, &beta, d.c, t, ldc, d.sc, batch, ct,
                                      CUBLAS_GEMM_DEFAULT);
    return s == CUBLAS_STATUS_SUCCESS
               ? MT_OK
               : cublas_failed(a, s, one ? "cublasGemmEx( handle, opa, opb, m, n, k, &alpha, a, "
                                           "atype, lda, b, btype, ldb, &beta, c, ctype, ldc, "
                                           "compute_type, CUBLAS_GEMM_DEFAULT)"
                                         : "cublasGemmStridedBatchedEx( handle, opa, opb, m, n, "
                                           "k, &alpha, a, atype, lda, stridea, b, btype, ldb, "
                                           "strideb, &beta, c, ctype, ldc, stridec, num_batches, "
                                           "compute_type, CUBLAS_GEMM_DEFAULT)");
}

/* ---- cdist (Note [cdist kernel] in distance.c): one thread per distance ---- */

__device__ __forceinline__ float
pow_of(float a, float b)
{
    return powf(a, b);
}
__device__ __forceinline__ double
pow_of(double a, double b)
{
    return pow(a, b);
}

template <typename T>
__global__ void
cdist_kernel(const T *x1, const T *x2, T *out, int64_t total, int64_t n1, int64_t n2, int64_t m,
             double pd, int kind)
{
    const T p = (T)pd, inv = (T)(1.0 / pd);
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total;
         e += (int64_t)blockDim.x * gridDim.x) {
        const int64_t c = e % n2, r = e / n2, b = r / n1;
        const T *a = x1 + r * m, *v = x2 + (b * n2 + c) * m;
        T acc = T(0);
        switch (kind) {
        case MT_CUDA_CDIST_ZERO:
            for (int64_t k = 0; k < m; k++) {
                acc += a[k] != v[k] ? T(1) : T(0);
            }
            break;
        case MT_CUDA_CDIST_ONE:
            for (int64_t k = 0; k < m; k++) {
                acc += fabs(a[k] - v[k]);
            }
            break;
        case MT_CUDA_CDIST_TWO:
            for (int64_t k = 0; k < m; k++) {
                const T d = a[k] - v[k];
                acc += d * d;
            }
            acc = sqrt(acc);
            break;
        case MT_CUDA_CDIST_INF:
            for (int64_t k = 0; k < m; k++) {
                const T d = fabs(a[k] - v[k]);
                acc = (d > acc || d != d) ? d : acc;
            }
            break;
        default:
            for (int64_t k = 0; k < m; k++) {
                acc += pow_of(fabs(a[k] - v[k]), p);
            }
            acc = pow_of(acc, inv);
            break;
        }
        out[e] = acc;
    }
}

} /* namespace */

extern "C" int
mt_cuda_cdist(int device, void *stream, int dbl, const void *x1, const void *x2, void *out,
              int64_t batch, int64_t n1, int64_t n2, int64_t m, double p, int kind)
{
    int prev = 0;
    cudaError_t e = cudaGetDevice(&prev);
    if (e == cudaSuccess && prev != device) {
        e = cudaSetDevice(device);
    }
    const int64_t total = batch * n1 * n2;
    if (e == cudaSuccess) {
        cudaStream_t s = (cudaStream_t)stream;
        if (dbl) {
            MT_CUDA_LAUNCH(cdist_kernel<double>, blocks_for(total), kThreads, 0, s,
                           (const double *)x1, (const double *)x2, (double *)out, total, n1, n2,
                           m, p, kind);
        } else {
            MT_CUDA_LAUNCH(cdist_kernel<float>, blocks_for(total), kThreads, 0, s,
                           (const float *)x1, (const float *)x2, (float *)out, total, n1, n2, m,
                           p, kind);
        }
        e = cudaGetLastError();
    }
    if (prev != device) {
        cudaSetDevice(prev);
    }
    return e == cudaSuccess ? MT_OK
                            : mt_error_set(MT_ERUNTIME, "CUDA error: %s", cudaGetErrorString(e));
}

extern "C" int
mt_cuda_gemm(int device, void *stream, const mt_cuda_gemm_desc *d)
{
    int prev = 0;
    cudaError_t e = cudaGetDevice(&prev);
    if (e == cudaSuccess && prev != device) {
        e = cudaSetDevice(device);
    }
    int rc = MT_OK;
    if (e == cudaSuccess) {
        cudaStream_t s = (cudaStream_t)stream;
        bool plain = d->k == 0 || d->type >= MT_CUDA_GEMM_INT8;
        if (!plain) {
            rc = run_cublas(device, s, *d);
        } else {
            switch (d->type) {
            case MT_CUDA_GEMM_FLOAT32: launch_plain<float>(s, *d); break;
            case MT_CUDA_GEMM_FLOAT64: launch_plain<double>(s, *d); break;
            case MT_CUDA_GEMM_FLOAT16: launch_plain<__half>(s, *d); break;
            case MT_CUDA_GEMM_BFLOAT16: launch_plain<__nv_bfloat16>(s, *d); break;
            case MT_CUDA_GEMM_COMPLEX64: launch_plain_complex<float>(s, *d); break;
            case MT_CUDA_GEMM_COMPLEX128: launch_plain_complex<double>(s, *d); break;
            case MT_CUDA_GEMM_INT8: launch_plain<uint8_t>(s, *d); break;
            case MT_CUDA_GEMM_INT16: launch_plain<uint16_t>(s, *d); break;
            case MT_CUDA_GEMM_INT32: launch_plain<uint32_t>(s, *d); break;
            case MT_CUDA_GEMM_INT64: launch_plain<uint64_t>(s, *d); break;
            }
            e = cudaGetLastError();
        }
    }
    if (prev != device) {
        cudaSetDevice(prev);
    }
    if (rc == MT_OK && e != cudaSuccess) {
        rc = mt_error_set(MT_ERUNTIME, "CUDA error: %s", cudaGetErrorString(e));
    }
    return rc;
}
