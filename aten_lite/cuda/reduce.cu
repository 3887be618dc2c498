/* aten_lite/cuda/reduce.cu - the generic CUDA reduction: every (op, dtype) of the cpu's table
 * through one kernel over mt_reduce_geometry. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include <type_traits>

#include "aten_lite/cuda/dev_scalars.cuh"
#include "aten_lite/cuda/reduce.h"

/* Note [CUDA reduction]
 * The input is (M outputs) x (R reduced elements, stride sr).  A block of 256 threads is
 * (lanes along R) x (outputs per block):
 *  - ROW: the lanes are threadIdx.x, consecutive threads reading consecutive reduced
 *    elements (the reduced range contiguous, or a general layout); lanes is the power of two
 *    covering R up to 256, so a small R packs 256 / lanes outputs into a block;
 *  - COL: the innermost kept dim is contiguous in the input and the reduced stride is not 1
 *    (x.sum(0) of a row-major matrix): 32 consecutive outputs are threadIdx.x, so a warp reads
 *    32 consecutive elements, with 8 lanes along R as threadIdx.y.
 * Each thread folds its lanes-strided share of the range, then the block combines the lanes
 * by a tree in shared memory (the last 32 by warp shuffles in ROW).  When the outputs give
 * few blocks and R is large, R is also cut into `splits` chunks (blockIdx.y): each block
 * writes its accumulator to a workspace, and a second kernel combines the chunks of each
 * output by the same tree, in chunk order.  No block waits for another.  The grouping depends
 * only on the shape, so results are deterministic; float sums are a fold of a few dozen
 * elements per thread under trees of partials (error growing like log R, as the cpu's
 * pairwise sums, though not in the same order: equal to the cpu within rounding).
 * The accumulators and rules are the cpu's (cpu/reduce_kernels.c): integer sums and products
 * in int64, 16-bit floats in float32, NaN wins max/min, argmax/argmin take the first index
 * of the extreme (of the first NaN). */

namespace {

using namespace mt_dev;

template <typename R>
__host__ __device__ __forceinline__ cplx<R>
operator+(cplx<R> a, cplx<R> b)
{
    return cplx<R>{a.re + b.re, a.im + b.im};
}
template <typename R>
__host__ __device__ __forceinline__ cplx<R>
operator*(cplx<R> a, cplx<R> b)
{
    return cplx<R>{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

/* the accumulator of sums and products */
template <typename T> struct sum_acc {
    typedef int64_t type;
};
template <> struct sum_acc<half_t> {
    typedef float type;
};
template <> struct sum_acc<bf16_t> {
    typedef float type;
};
template <> struct sum_acc<float> {
    typedef float type;
};
template <> struct sum_acc<double> {
    typedef double type;
};
template <> struct sum_acc<c64_t> {
    typedef c64_t type;
};
template <> struct sum_acc<c128_t> {
    typedef c128_t type;
};

/* the element as its accumulator (uint64 wraps into int64, as the cpu's) */
template <typename A, typename T>
__device__ __forceinline__ A
to_acc(T v)
{
    return (A)scalar<T>::load(v);
}
template <>
__device__ __forceinline__ c64_t
to_acc<c64_t, c64_t>(c64_t v)
{
    return v;
}
template <>
__device__ __forceinline__ c128_t
to_acc<c128_t, c128_t>(c128_t v)
{
    return v;
}

/* the result of sums and products: int64 for integers, else the input's dtype */
template <typename T, typename A>
__device__ __forceinline__ void
store_sum(char *p, A a)
{
    *reinterpret_cast<int64_t *>(p) = (int64_t)a;
}
#define MT__STORE_SAME(T, A)                                                                       \
    template <> __device__ __forceinline__ void store_sum<T, A>(char *p, A a)                      \
    {                                                                                              \
        *reinterpret_cast<T *>(p) = store_as<T>(a);                                                \
    }
MT__STORE_SAME(half_t, float)
MT__STORE_SAME(bf16_t, float)
MT__STORE_SAME(float, float)
MT__STORE_SAME(double, double)
MT__STORE_SAME(c64_t, c64_t)
MT__STORE_SAME(c128_t, c128_t)
#undef MT__STORE_SAME

template <typename T> struct SumOp {
    typedef typename sum_acc<T>::type acc_t;
    __device__ static acc_t init() { return acc_t{}; }
    __device__ static acc_t load(T v, int64_t) { return to_acc<acc_t>(v); }
    __device__ static acc_t combine(acc_t a, acc_t b)
    {
        if constexpr (std::is_integral<acc_t>::value && !std::is_same<acc_t, bool>::value) {
            return mt_cuda::wrap_add(a, b);
        }
        else {
            return a + b;
        }
    }
    __device__ static void store(char *p, acc_t a) { store_sum<T>(p, a); }
};
template <typename T> struct ProdOp {
    typedef typename sum_acc<T>::type acc_t;
    __device__ static acc_t init() { return one(acc_t{}); }
    __device__ static acc_t load(T v, int64_t) { return to_acc<acc_t>(v); }
    __device__ static acc_t combine(acc_t a, acc_t b)
    {
        if constexpr (std::is_integral<acc_t>::value && !std::is_same<acc_t, bool>::value) {
            return mt_cuda::wrap_mul(a, b);
        }
        else {
            return a * b;
        }
    }
    __device__ static void store(char *p, acc_t a) { store_sum<T>(p, a); }
    template <typename A> __device__ static A one(A) { return (A)1; }
    template <typename R> __device__ static cplx<R> one(cplx<R>) { return cplx<R>{1, 0}; }
};

/* the extremes of the compute type: the identities of max/min */
template <typename C> struct limits;
#define MT__LIMITS(C, LO, HI)                                                                      \
    template <> struct limits<C> {                                                                 \
        __device__ static C lowest() { return LO; }                                                \
        __device__ static C highest() { return HI; }                                               \
    };
MT__LIMITS(bool, false, true)
MT__LIMITS(uint8_t, 0, UINT8_MAX)
MT__LIMITS(int8_t, INT8_MIN, INT8_MAX)
MT__LIMITS(int16_t, INT16_MIN, INT16_MAX)
MT__LIMITS(int32_t, INT32_MIN, INT32_MAX)
MT__LIMITS(int64_t, INT64_MIN, INT64_MAX)
MT__LIMITS(float, -INFINITY, INFINITY)
MT__LIMITS(double, -INFINITY, INFINITY)
#undef MT__LIMITS

/* max/min: NaN wins (x != x is never true for integers) */
template <typename T, bool MAX> struct ExtremeOp {
    typedef typename scalar<T>::compute acc_t;
    __device__ static acc_t init() { return MAX ? limits<acc_t>::lowest() : limits<acc_t>::highest(); }
    __device__ static acc_t load(T v, int64_t) { return scalar<T>::load(v); }
    __device__ static acc_t combine(acc_t a, acc_t b)
    {
        return (a != a || (MAX ? a > b : a < b)) ? a : b;
    }
    __device__ static void store(char *p, acc_t a) { *reinterpret_cast<T *>(p) = store_as<T>(a); }
};

template <typename C>
__device__ __forceinline__ bool
truthy(C v)
{
    return v != (C)0;
}
template <typename R>
__device__ __forceinline__ bool
truthy(cplx<R> v)
{
    return v.re != 0 || v.im != 0;
}

/* all/any: one byte out (bool, or uint8 for uint8 inputs: the same 0/1) */
template <typename T, bool ALL> struct TruthOp {
    typedef bool acc_t;
    __device__ static acc_t init() { return ALL; }
    __device__ static acc_t load(T v, int64_t) { return truthy(scalar<T>::load(v)); }
    __device__ static acc_t combine(acc_t a, acc_t b) { return ALL ? (a && b) : (a || b); }
    __device__ static void store(char *p, acc_t a) { *reinterpret_cast<uint8_t *>(p) = a ? 1 : 0; }
};
template <typename C> struct arg_acc {
    C v;
    int64_t i; /* -1: empty */
};

/* argmax/argmin: a wins over b when it is NaN (b is not, or a comes first) or it is more
 * extreme, or equal and first */
template <typename T, bool MAX> struct ArgOp {
    typedef typename scalar<T>::compute C;
    typedef arg_acc<C> acc_t;
    __device__ static acc_t init() { return acc_t{C{}, -1}; }
    __device__ static acc_t load(T v, int64_t i) { return acc_t{scalar<T>::load(v), i}; }
    __device__ static bool better(acc_t a, acc_t b)
    {
        if (a.v != a.v) {
            return b.v == b.v || a.i < b.i;
        }
        return b.v == b.v && ((MAX ? a.v > b.v : a.v < b.v) || (a.v == b.v && a.i < b.i));
    }
    __device__ static acc_t combine(acc_t a, acc_t b)
    {
        if (a.i < 0) {
            return b;
        }
        if (b.i < 0) {
            return a;
        }
        return better(b, a) ? b : a;
    }
    __device__ static void store(char *p, acc_t a) { *reinterpret_cast<int64_t *>(p) = a.i; }
};

/* a plain value of any size through a warp shuffle, 32 bits at a time */
template <typename A>
__device__ __forceinline__ A
shfl_down_any(A v, unsigned int delta)
{
    constexpr int W = (int)((sizeof(A) + 3) / 4);
    uint32_t w[W];
    memset(w, 0, sizeof(w));
    memcpy(w, &v, sizeof(A));
    for (int k = 0; k < W; k++) {
        w[k] = __shfl_down_sync(0xffffffffu, w[k], delta);
    }
    A r;
    memcpy(&r, w, sizeof(A));
    return r;
}

struct plan {
    int col;                  /* COL layout (Note [CUDA reduction]) */
    int lanes, opb;           /* threads along R, outputs per block */
    int64_t chunk;            /* reduced elements per split */
    int splits;
};

/* byte-free element offsets of output o in the input and the output */
__device__ __forceinline__ void
output_offsets(const mt_cuda_reduce_geom &g, int64_t o, int64_t *in, int64_t *out)
{
    int64_t a = 0, b = 0;
    for (int d = g.nk - 1; d >= 0; d--) {
        const int64_t k = o % g.ksz[d];
        o /= g.ksz[d];
        a += k * g.kin[d];
        b += k * g.kout[d];
    }
    *in = a;
    *out = b;
}

/* Combines the lanes of each output of the block (acc: this thread's), returning the result in
 * the thread of lane 0.  Every thread of the block calls it. */
template <typename Op>
__device__ __forceinline__ typename Op::acc_t
block_combine(typename Op::acc_t acc, int lane, int ol, const plan &p)
{
    typedef typename Op::acc_t A;
    MT_DYNAMIC_SHARED(A, sh);
    const int i = ol * p.lanes + lane;
    sh[i] = acc;
    const bool warp_tail = !p.col && p.lanes >= 32;
    const int stop = warp_tail ? 32 : 1;
    for (int st = p.lanes / 2; st >= stop; st >>= 1) {
        __syncthreads();
        if (lane < st) {
            sh[i] = Op::combine(sh[i], sh[i + st]);
        }
    }
    __syncthreads();
    if (warp_tail && lane < 32) {
        /* the first warp of the row: lanes 0..31 are one whole warp */
        A v = sh[i];
        for (int off = 16; off > 0; off >>= 1) {
            v = Op::combine(v, shfl_down_any(v, (unsigned int)off));
        }
        return v;
    }
    return sh[i];
}

template <typename T, typename Op>
__global__ void
reduce_kernel(mt_cuda_reduce_geom g, plan p, const char *src, char *dst, char *partial,
              int64_t out_size)
{
    typedef typename Op::acc_t A;
    const int lane = p.col ? (int)threadIdx.y : (int)threadIdx.x;
    const int ol = p.col ? (int)threadIdx.x : (int)threadIdx.y;
    const int64_t o = (int64_t)blockIdx.x * p.opb + ol;
    const int64_t s = blockIdx.y;
    A acc = Op::init();
    int64_t ioff = 0, ooff = 0;
    if (o < g.M) {
        output_offsets(g, o, &ioff, &ooff);
        const T *x = reinterpret_cast<const T *>(src) + ioff;
        const int64_t begin = s * p.chunk;
        const int64_t end = begin + p.chunk < g.R ? begin + p.chunk : g.R;
        for (int64_t r = begin + lane; r < end; r += p.lanes) {
            acc = Op::combine(acc, Op::load(x[r * g.sr], r));
        }
    }
    acc = block_combine<Op>(acc, lane, ol, p);
    if (lane == 0 && o < g.M) {
        if (p.splits > 1) {
            reinterpret_cast<A *>(partial)[s * g.M + o] = acc;
        }
        else {
            Op::store(dst + ooff * out_size, acc);
        }
    }
}

/* the chunks' accumulators of each output (one block each) combined in chunk order */
template <typename T, typename Op>
__global__ void
finish_kernel(mt_cuda_reduce_geom g, plan p, char *dst, const char *partial, int64_t out_size)
{
    typedef typename Op::acc_t A;
    const int64_t o = blockIdx.x;
    const int lane = (int)threadIdx.x;
    const A *part = reinterpret_cast<const A *>(partial);
    A acc = Op::init();
    for (int s = lane; s < p.splits; s += (int)blockDim.x) {
        acc = Op::combine(acc, part[(int64_t)s * g.M + o]);
    }
    plan q = p;
    q.col = 0;
    q.lanes = (int)blockDim.x;
    acc = block_combine<Op>(acc, lane, 0, q);
    if (lane == 0) {
        int64_t ioff, ooff;
        output_offsets(g, o, &ioff, &ooff);
        Op::store(dst + ooff * out_size, acc);
    }
}

int
pow2_at_least(int64_t n, int cap)
{
    int p = 1;
    while (p < n && p < cap) {
        p <<= 1;
    }
    return p;
}

plan
make_plan(const mt_cuda_reduce_geom &g)
{
    plan p;
    p.col = g.sr != 1 && g.nk > 0 && g.kin[g.nk - 1] == 1 && g.ksz[g.nk - 1] > 1 && g.R > 1;
    if (p.col) {
        p.opb = 32;
        p.lanes = pow2_at_least(g.R, 8);
    }
    else {
        p.lanes = pow2_at_least(g.R, kThreads);
        p.opb = kThreads / p.lanes;
    }
    const int64_t gridm = (g.M + p.opb - 1) / p.opb;
    int64_t splits = 1;
    if (gridm < 256 && g.R > (int64_t)p.lanes * 64) {
        /* few blocks and a long range: at least 32 elements per thread, about 512 blocks */
        const int64_t by_work = (g.R + (int64_t)p.lanes * 32 - 1) / ((int64_t)p.lanes * 32);
        const int64_t by_grid = (512 + gridm - 1) / gridm;
        splits = by_work < by_grid ? by_work : by_grid;
        splits = splits > 65535 ? 65535 : splits < 1 ? 1 : splits;
    }
    p.chunk = (g.R + splits - 1) / splits;
    if (p.chunk < 1) {
        p.chunk = 1;
    }
    p.splits = (int)(g.R > 0 ? (g.R + p.chunk - 1) / p.chunk : 1);
    return p;
}

template <typename T, typename Op>
int64_t
workspace_of(const mt_cuda_reduce_geom *g)
{
    const plan p = make_plan(*g);
    return p.splits > 1 ? (int64_t)p.splits * g->M * (int64_t)sizeof(typename Op::acc_t) : 0;
}

template <typename T, typename Op>
int
run(int device, void *stream, const mt_cuda_reduce_geom *g, const char *src, char *dst,
    char *workspace, int64_t out_size)
{
    typedef typename Op::acc_t A;
    const plan p = make_plan(*g);
    const int64_t gridm = (g->M + p.opb - 1) / p.opb;
    if (gridm > 0x7fffffff) {
        return mt_error_set(MT_ERUNTIME, "reduction: too many outputs for one launch");
    }
    if (p.splits > 1 && workspace == nullptr) {
        return mt_error_set(MT_EINVAL, "reduction: no workspace");
    }
    const dim3 block = p.col ? dim3((unsigned)p.opb, (unsigned)p.lanes) : dim3((unsigned)p.lanes, (unsigned)p.opb);
    const dim3 grid((unsigned)gridm, (unsigned)p.splits);
    const size_t shmem = sizeof(A) * (size_t)p.lanes * (size_t)p.opb;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH((reduce_kernel<T, Op>), grid, block, shmem, (cudaStream_t)stream, *g, p,
                       src, dst, workspace, out_size);
        if (p.splits > 1) {
            MT_CUDA_LAUNCH((finish_kernel<T, Op>), dim3((unsigned)g->M), dim3(kThreads),
                           sizeof(A) * kThreads, (cudaStream_t)stream, *g, p, dst, workspace,
                           out_size);
        }
    });
}

/* per op: which dtypes have it (the cpu's table) */
template <typename T> struct is_ordered {
    static const bool value = true;
};
template <typename R> struct is_ordered<cplx<R>> {
    static const bool value = false;
};
template <> struct is_ordered<uint16_t> {
    static const bool value = false;
};
template <> struct is_ordered<uint32_t> {
    static const bool value = false;
};
template <> struct is_ordered<uint64_t> {
    static const bool value = false;
};

/* the output's element size */
template <typename T>
int64_t
out_size_of(mt_cuda_reduce_op op)
{
    switch (op) {
    case MT_CUDA_RED_SUM:
    case MT_CUDA_RED_PROD:
        return std::is_same<typename sum_acc<T>::type, int64_t>::value ? 8 : (int64_t)sizeof(T);
    case MT_CUDA_RED_ALL:
    case MT_CUDA_RED_ANY:
        return 1;
    case MT_CUDA_RED_ARGMAX:
    case MT_CUDA_RED_ARGMIN:
        return 8;
    default:
        return (int64_t)sizeof(T);
    }
}

template <typename T, bool ORDERED> struct by_op;
template <typename T> struct by_op<T, true> {
    template <typename F> static int go(mt_cuda_reduce_op op, F f)
    {
        switch (op) {
        case MT_CUDA_RED_SUM: return f(SumOp<T>());
        case MT_CUDA_RED_PROD: return f(ProdOp<T>());
        case MT_CUDA_RED_MAX: return f(ExtremeOp<T, true>());
        case MT_CUDA_RED_MIN: return f(ExtremeOp<T, false>());
        case MT_CUDA_RED_ALL: return f(TruthOp<T, true>());
        case MT_CUDA_RED_ANY: return f(TruthOp<T, false>());
        case MT_CUDA_RED_ARGMAX: return f(ArgOp<T, true>());
        case MT_CUDA_RED_ARGMIN: return f(ArgOp<T, false>());
        }
        return -1;
    }
};
template <typename T> struct by_op<T, false> {
    template <typename F> static int go(mt_cuda_reduce_op op, F f)
    {
        switch (op) {
        case MT_CUDA_RED_SUM: return f(SumOp<T>());
        case MT_CUDA_RED_PROD: return f(ProdOp<T>());
        case MT_CUDA_RED_ALL: return f(TruthOp<T, true>());
        case MT_CUDA_RED_ANY: return f(TruthOp<T, false>());
        default: return -1;
        }
    }
};

struct run_args {
    int device;
    void *stream;
    mt_cuda_reduce_op op;
    const mt_cuda_reduce_geom *g;
    const char *src;
    char *dst, *workspace;
    int64_t *bytes; /* non-NULL: only the workspace size is asked */
};

template <typename T>
int
dispatch(const run_args &a)
{
    const int64_t osz = out_size_of<T>(a.op);
    const int rc = by_op<T, is_ordered<T>::value>::go(a.op, [&](auto op) {
        typedef decltype(op) Op;
        if (a.bytes != nullptr) {
            *a.bytes = workspace_of<T, Op>(a.g);
            return 0;
        }
        return run<T, Op>(a.device, a.stream, a.g, a.src, a.dst, a.workspace, osz);
    });
    if (rc == -1) {
        return mt_error_set(MT_ENOTIMPL, "reduction op %d has no CUDA kernel for this dtype", (int)a.op);
    }
    return rc;
}

int
dispatch_dtype(mt_cuda_dtype in, const run_args &a)
{
    MT_DEV_DISPATCH_REAL(in, dispatch, a)
    MT_DEV_DISPATCH_EXTRA(in, dispatch, a)
    return mt_error_set(MT_ENOTIMPL, "reduction: unknown dtype %d", (int)in);
}

} // namespace

extern "C" int64_t
mt_cuda_reduce_workspace(mt_cuda_reduce_op op, mt_cuda_dtype in, const mt_cuda_reduce_geom *g)
{
    int64_t bytes = 0;
    run_args a = {0, nullptr, op, g, nullptr, nullptr, nullptr, &bytes};
    if (dispatch_dtype(in, a) < 0) {
        return -1;
    }
    return bytes;
}

extern "C" int
mt_cuda_reduce(int device, void *stream, mt_cuda_reduce_op op, mt_cuda_dtype in,
               const mt_cuda_reduce_geom *g, const char *src, char *dst, char *workspace)
{
    run_args a = {device, stream, op, g, src, dst, workspace, nullptr};
    return dispatch_dtype(in, a);
}
