/* aten_lite/cuda/scan.cu - cumsum, cumprod, cummax, cummin and logcumsumexp along one dim. */
#include <math.h>
#include <stdint.h>

#include <type_traits>

#include "aten_lite/complex_math.h"
#include "aten_lite/cuda/dev_scalars.cuh"
#include "aten_lite/cuda/scan.h"

/* Note [CUDA scans]
 * The accumulators and rules are the cpu's (Note [Scans] in aten_lite/scan.c): integer sums
 * and products in int64, floats in double (rounded at each output), complex in complex double;
 * cummax/cummin keep the running extreme with the index of the latest element that ties it, a
 * NaN winning and staying (the latest NaN's index).  Two kernels:
 *  - short lines (n <= 64): a thread per line, scanning in order exactly as the cpu does (the
 *    same operations in the same order: the same values, logcumsumexp aside, whose exp and
 *    log1p are the device's);
 *  - longer lines: a block per line walks it in tiles of 256 x 8 elements: each thread scans
 *    its 8 consecutive elements, the block scans the 256 thread totals (Hillis-Steele in shared
 *    memory), and the carry of the tiles before is combined in front.  Combining is
 *    associative (the extreme's rule is a maximum over (NaN, value, index)), so the values
 *    are the sequential ones up to the rounding of the sums' regrouping (and, for complex
 *    logcumsumexp, the imaginary part's multiple of 2 pi, which follows the grouping). */

namespace {

using namespace mt_dev;

template <typename R>
__device__ __forceinline__ cplx<R>
cadd(cplx<R> a, cplx<R> b)
{
    return cplx<R>{a.re + b.re, a.im + b.im};
}
template <typename R>
__device__ __forceinline__ cplx<R>
cmul(cplx<R> a, cplx<R> b)
{
    return cplx<R>{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

/* sums/products: the accumulator, the stored type */
template <typename T> struct sp_types {
    typedef int64_t acc;
    typedef int64_t out;
};
#define MT__SP_FLOAT(T)                                                                            \
    template <> struct sp_types<T> {                                                               \
        typedef double acc;                                                                        \
        typedef T out;                                                                             \
    };
MT__SP_FLOAT(half_t)
MT__SP_FLOAT(bf16_t)
MT__SP_FLOAT(float)
MT__SP_FLOAT(double)
#undef MT__SP_FLOAT
template <typename R> struct sp_types<cplx<R>> {
    typedef c128_t acc;
    typedef cplx<R> out;
};

template <typename A, typename T>
__device__ __forceinline__ A
widen(T v)
{
    return (A)scalar<T>::load(v);
}
template <>
__device__ __forceinline__ c128_t
widen<c128_t, c64_t>(c64_t v)
{
    return c128_t{(double)v.re, (double)v.im};
}
template <>
__device__ __forceinline__ c128_t
widen<c128_t, c128_t>(c128_t v)
{
    return v;
}

template <typename O, typename A>
__device__ __forceinline__ O
narrow(A a)
{
    return store_as<O>(a);
}
template <>
__device__ __forceinline__ c64_t
narrow<c64_t, c128_t>(c128_t a)
{
    return c64_t{(float)a.re, (float)a.im};
}

template <typename T, bool PROD> struct SumProd {
    typedef typename sp_types<T>::acc acc_t;
    typedef typename sp_types<T>::out out_t;
    __device__ static acc_t identity() { return one(acc_t{}); }
    template <typename A> __device__ static A one(A) { return (A)(PROD ? 1 : 0); }
    __device__ static c128_t one(c128_t) { return c128_t{PROD ? 1.0 : 0.0, 0.0}; }
    __device__ static acc_t load(T v, int64_t) { return widen<acc_t>(v); }
    template <typename A> __device__ static A comb(A a, A b)
    {
        if constexpr (std::is_integral<A>::value && !std::is_same<A, bool>::value) {
            return PROD ? mt_cuda::wrap_mul(a, b) : mt_cuda::wrap_add(a, b);
        }
        else {
            return PROD ? a * b : a + b;
        }
    }
    __device__ static c128_t comb(c128_t a, c128_t b) { return PROD ? cmul(a, b) : cadd(a, b); }
    __device__ static acc_t combine(acc_t a, acc_t b) { return comb(a, b); }
    __device__ static void store(char *out, int64_t *, int64_t k, acc_t a)
    {
        reinterpret_cast<out_t *>(out)[k] = narrow<out_t>(a);
    }
};

template <typename C> struct ext_acc {
    C v;
    int64_t i; /* -1: nothing yet */
};

template <typename T, bool MAX> struct Extreme {
    typedef typename scalar<T>::compute C;
    typedef ext_acc<C> acc_t;
    __device__ static acc_t identity() { return acc_t{C{}, -1}; }
    __device__ static acc_t load(T v, int64_t i) { return acc_t{scalar<T>::load(v), i}; }
    /* a before b along the line */
    __device__ static acc_t combine(acc_t a, acc_t b)
    {
        if (a.i < 0) {
            return b;
        }
        if (b.i < 0) {
            return a;
        }
        if (b.v != b.v) {
            return b;
        }
        if (a.v != a.v) {
            return a;
        }
        return (MAX ? b.v >= a.v : b.v <= a.v) ? b : a;
    }
    __device__ static void store(char *out, int64_t *idx, int64_t k, acc_t a)
    {
        reinterpret_cast<T *>(out)[k] = store_as<T>(a.v);
        idx[k] = a.i;
    }
};

__device__ __forceinline__ double
log_add_exp(double a, double v)
{
    if (a != a || v != v) {
        return a + v;
    }
    const double lo = a < v ? a : v, hi = a < v ? v : a;
    if (lo != hi || (lo - lo == 0.0)) {
        return hi + log1p(exp(lo - hi));
    }
    return a;
}

template <typename T> struct LogSumExp {
    typedef double acc_t;
    __device__ static acc_t identity() { return -INFINITY; }
    __device__ static acc_t load(T v, int64_t) { return (double)scalar<T>::load(v); }
    __device__ static acc_t combine(acc_t a, acc_t b) { return log_add_exp(a, b); }
    __device__ static void store(char *out, int64_t *, int64_t k, acc_t a)
    {
        reinterpret_cast<T *>(out)[k] = store_as<T>(a);
    }
};

/* The complex form, as the cpu's (Note [Scans]): operands ordered by real part, a NaN anywhere
 * NaN, two equal infinite real parts combined directly; hi + log1p(exp(lo - hi)) by
 * complex_math.h's functions. */
__device__ __forceinline__ c128_t
log_add_exp_complex(c128_t a, c128_t v)
{
    if (a.re != a.re || a.im != a.im || v.re != v.re || v.im != v.im) {
        return c128_t{NAN, NAN};
    }
    const c128_t lo = v.re < a.re ? v : a, hi = v.re < a.re ? a : v;
    if (lo.re - lo.re != 0.0 && lo.re == hi.re) {
        if (lo.re < 0) {
            return lo;
        }
        const mt_cmd e1 = mt_cm_exp(mt_cm_make(lo.re, lo.im)), e2 = mt_cm_exp(mt_cm_make(hi.re, hi.im));
        const mt_cmd r = mt_cm_log(mt_cm_make(e1.re + e2.re, e1.im + e2.im));
        return c128_t{r.re, r.im};
    }
    const mt_cmd d = mt_cm_log1p(mt_cm_exp(mt_cm_make(lo.re - hi.re, lo.im - hi.im)));
    return c128_t{hi.re + d.re, hi.im + d.im};
}

template <typename T> struct LogSumExpComplex {
    typedef c128_t acc_t;
    __device__ static acc_t identity() { return c128_t{-INFINITY, 0.0}; }
    __device__ static acc_t load(T v, int64_t) { return widen<c128_t>(v); }
    __device__ static acc_t combine(acc_t a, acc_t b) { return log_add_exp_complex(a, b); }
    __device__ static void store(char *out, int64_t *, int64_t k, acc_t a)
    {
        reinterpret_cast<T *>(out)[k] = narrow<T>(a);
    }
};

__device__ __forceinline__ void
line_offsets(const mt_cuda_scan_geom &g, int64_t line, int64_t *in, int64_t *out)
{
    int64_t a = 0, b = 0;
    for (int d = g.nd - 1; d >= 0; d--) {
        const int64_t k = line % g.sz[d];
        line /= g.sz[d];
        a += k * g.stin[d];
        b += k * g.stout[d];
    }
    *in = a;
    *out = b;
}

template <typename T, typename Op>
__global__ void
scan_lines_kernel(mt_cuda_scan_geom g, const char *src, char *dst, int64_t *idx)
{
    for (int64_t line = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; line < g.lines;
         line += (int64_t)blockDim.x * gridDim.x) {
        int64_t ioff, ooff;
        line_offsets(g, line, &ioff, &ooff);
        const T *x = reinterpret_cast<const T *>(src) + ioff;
        typename Op::acc_t a = Op::identity();
        for (int64_t i = 0; i < g.n; i++) {
            a = Op::combine(a, Op::load(x[i * g.sin], i));
            Op::store(dst, idx, ooff + i * g.sout, a);
        }
    }
}

constexpr int kPer = 8; /* elements per thread per tile */

template <typename T, typename Op>
__global__ void
scan_block_kernel(mt_cuda_scan_geom g, const char *src, char *dst, int64_t *idx)
{
    typedef typename Op::acc_t A;
    __shared__ A sh[kThreads];
    __shared__ A carry_sh;
    const int t = (int)threadIdx.x;
    for (int64_t line = blockIdx.x; line < g.lines; line += gridDim.x) {
        int64_t ioff, ooff;
        line_offsets(g, line, &ioff, &ooff);
        const T *x = reinterpret_cast<const T *>(src) + ioff;
        A carry = Op::identity();
        for (int64_t base = 0; base < g.n; base += (int64_t)kThreads * kPer) {
            /* this thread's run: kPer consecutive elements */
            const int64_t first = base + (int64_t)t * kPer;
            A loc[kPer];
            A run = Op::identity();
            for (int k = 0; k < kPer; k++) {
                const int64_t i = first + k;
                if (i < g.n) {
                    run = Op::combine(run, Op::load(x[i * g.sin], i));
                }
                loc[k] = run;
            }
            sh[t] = run;
            __syncthreads();
            for (int off = 1; off < kThreads; off <<= 1) {
                A before = t >= off ? sh[t - off] : Op::identity();
                __syncthreads();
                sh[t] = Op::combine(before, sh[t]);
                __syncthreads();
            }
            /* the runs of the threads before, after the tiles before */
            const A prefix = Op::combine(carry, t > 0 ? sh[t - 1] : Op::identity());
            for (int k = 0; k < kPer; k++) {
                const int64_t i = first + k;
                if (i < g.n) {
                    Op::store(dst, idx, ooff + i * g.sout, Op::combine(prefix, loc[k]));
                }
            }
            if (t == kThreads - 1) {
                carry_sh = Op::combine(carry, sh[t]);
            }
            __syncthreads();
            carry = carry_sh;
            __syncthreads();
        }
    }
}

template <typename T, typename Op>
int
run(int device, void *stream, const mt_cuda_scan_geom *g, const char *src, char *dst,
    int64_t *idx)
{
    return on_device(device, [&] {
        if (g->n <= 64) {
            int64_t blocks = (g->lines + kThreads - 1) / kThreads;
            blocks = blocks > 65535 ? 65535 : blocks < 1 ? 1 : blocks;
            MT_CUDA_LAUNCH((scan_lines_kernel<T, Op>), (unsigned)blocks, kThreads, 0,
                           (cudaStream_t)stream, *g, src, dst, idx);
        }
        else {
            const int64_t blocks = g->lines > 65535 ? 65535 : g->lines;
            MT_CUDA_LAUNCH((scan_block_kernel<T, Op>), (unsigned)blocks, kThreads, 0,
                           (cudaStream_t)stream, *g, src, dst, idx);
        }
    });
}

template <typename T> struct kinds {
    static const bool ordered = true, floating = false;
};
#define MT__KIND(T, O, F)                                                                          \
    template <> struct kinds<T> {                                                                  \
        static const bool ordered = O, floating = F;                                               \
    };
MT__KIND(half_t, true, true)
MT__KIND(bf16_t, true, true)
MT__KIND(float, true, true)
MT__KIND(double, true, true)
MT__KIND(c64_t, false, false)
MT__KIND(c128_t, false, false)
MT__KIND(uint16_t, false, false)
MT__KIND(uint32_t, false, false)
MT__KIND(uint64_t, false, false)
#undef MT__KIND

struct scan_args {
    int device;
    void *stream;
    mt_cuda_scan_op op;
    const mt_cuda_scan_geom *g;
    const char *src;
    char *dst;
    int64_t *idx;
    bool probe; /* only whether the kernel exists */
};

template <typename T, bool ORD> struct ordered_ops {
    static int go(const scan_args &a)
    {
        if (a.op == MT_CUDA_SCAN_MAX) {
            return a.probe ? 1 : run<T, Extreme<T, true>>(a.device, a.stream, a.g, a.src, a.dst, a.idx);
        }
        return a.probe ? 1 : run<T, Extreme<T, false>>(a.device, a.stream, a.g, a.src, a.dst, a.idx);
    }
};
template <typename T> struct ordered_ops<T, false> {
    static int go(const scan_args &) { return 0; }
};
template <typename T, bool F> struct lse_ops {
    static int go(const scan_args &a)
    {
        return a.probe ? 1 : run<T, LogSumExp<T>>(a.device, a.stream, a.g, a.src, a.dst, a.idx);
    }
};
template <typename T> struct lse_ops<T, false> {
    static int go(const scan_args &) { return 0; }
};
template <typename R> struct lse_ops<cplx<R>, false> {
    static int go(const scan_args &a)
    {
        return a.probe ? 1
                       : run<cplx<R>, LogSumExpComplex<cplx<R>>>(a.device, a.stream, a.g, a.src,
                                                                 a.dst, a.idx);
    }
};

/* 1 / 0 when probing, else the launch's code; 0 also when (op, T) has no kernel */
template <typename T>
int
dispatch(const scan_args &a)
{
    switch (a.op) {
    case MT_CUDA_SCAN_SUM:
        return a.probe ? 1 : run<T, SumProd<T, false>>(a.device, a.stream, a.g, a.src, a.dst, a.idx);
    case MT_CUDA_SCAN_PROD:
        return a.probe ? 1 : run<T, SumProd<T, true>>(a.device, a.stream, a.g, a.src, a.dst, a.idx);
    case MT_CUDA_SCAN_MAX:
    case MT_CUDA_SCAN_MIN:
        return ordered_ops<T, kinds<T>::ordered>::go(a);
    case MT_CUDA_SCAN_LOGSUMEXP:
        return lse_ops<T, kinds<T>::floating>::go(a);
    }
    return 0;
}

int
dispatch_dtype(mt_cuda_dtype in, const scan_args &a)
{
    MT_DEV_DISPATCH_REAL(in, dispatch, a)
    MT_DEV_DISPATCH_EXTRA(in, dispatch, a)
    return 0;
}

} // namespace

extern "C" int
mt_cuda_scan_supported(mt_cuda_scan_op op, mt_cuda_dtype in)
{
    scan_args a = {0, nullptr, op, nullptr, nullptr, nullptr, nullptr, true};
    return dispatch_dtype(in, a) == 1;
}

extern "C" int
mt_cuda_scan(int device, void *stream, mt_cuda_scan_op op, mt_cuda_dtype in,
             const mt_cuda_scan_geom *g, const char *src, char *dst, int64_t *idx)
{
    if (!mt_cuda_scan_supported(op, in)) {
        return mt_error_set(MT_ENOTIMPL, "scan op %d has no CUDA kernel for this dtype", (int)op);
    }
    scan_args a = {device, stream, op, g, src, dst, idx, false};
    return dispatch_dtype(in, a);
}
