/* aten_lite/cuda/index.cu - the CUDA index kernels: index checks, advanced indexing's offsets,
 * gathers and puts, index_select, gather/scatter with their reductions, nonzero.  See Note
 * [CUDA index kernels] in aten_lite/cuda/index.c for how the op code drives them. */
#include "aten_lite/cuda/ix_common.cuh"

using namespace mt_ix;

namespace {

/* ---- index checks and offsets ---- */

__global__ void
check_kernel(mt_cuda_walk w, const char *idx, int idt, int64_t lo, int64_t hi, long long *bad)
{
    const int isz = index_itemsize(idt);
    MT_IX_LOOP(i, w.numel)
    {
        const int64_t v = read_index(idx + walk_offset(w, i) * isz, idt);
        if (v < lo || v >= hi) {
            atomicMin(bad, (long long)i);
        }
    }
}

__global__ void
offsets_kernel(mt_cuda_walk w, const char *idx, int idt, int64_t size, int64_t vstride,
               int first, int64_t *offs, long long *bad)
{
    const int isz = index_itemsize(idt);
    MT_IX_LOOP(p, w.numel)
    {
        int64_t v = read_index(idx + walk_offset(w, p) * isz, idt);
        if (v < -size || v >= size) {
            atomicMin(bad, (long long)p);
            continue;
        }
        v = v < 0 ? v + size : v;
        offs[p] = (first ? 0 : offs[p]) + v * vstride;
    }
}

/* ---- advanced indexing: gather and put ---- */

template <typename E>
__global__ void
index_gather_kernel(int64_t n, int64_t nrest, const int64_t *offs, mt_cuda_walk rest,
                    const E *src, E *out)
{
    MT_IX_LOOP(i, n)
    {
        const int64_t p = i / nrest, r = i - p * nrest;
        out[i] = src[offs[p] + walk_offset(rest, r)];
    }
}

template <typename E>
__global__ void
index_put_kernel(int64_t n, int64_t nrest, const int64_t *offs, mt_cuda_walk rest, E *dst,
                 const E *vals)
{
    MT_IX_LOOP(i, n)
    {
        const int64_t p = i / nrest, r = i - p * nrest;
        dst[offs[p] + walk_offset(rest, r)] = vals[i];
    }
}

/* *p += v, atomically, in the dtype's arithmetic type (bool: or) */
template <typename S>
__device__ __forceinline__ void
atomic_add_elem(S *p, S v)
{
    using A = typename elem<S>::A;
    atomic_update(p, [v](S cur) {
        return elem<S>::st((A)(elem<S>::ld(cur) + elem<S>::ld(v)));
    });
}
template <>
__device__ __forceinline__ void
atomic_add_elem<bool>(bool *p, bool v)
{
    if (v) {
        atomic_update(p, [](bool) { return true; });
    }
}
template <>
__device__ __forceinline__ void
atomic_add_elem<float>(float *p, float v)
{
    atomicAdd(p, v);
}
template <>
__device__ __forceinline__ void
atomic_add_elem<double>(double *p, double v)
{
    atomicAdd(p, v);
}
template <>
__device__ __forceinline__ void
atomic_add_elem<int32_t>(int32_t *p, int32_t v)
{
    atomicAdd(reinterpret_cast<int *>(p), (int)v);
}
template <>
__device__ __forceinline__ void
atomic_add_elem<int64_t>(int64_t *p, int64_t v)
{
    atomicAdd(reinterpret_cast<unsigned long long *>(p), (unsigned long long)v);
}
template <>
__device__ __forceinline__ void
atomic_add_elem<c64>(c64 *p, c64 v)
{
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
}
template <>
__device__ __forceinline__ void
atomic_add_elem<c128>(c128 *p, c128 v)
{
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
}

template <typename S>
__global__ void
index_accumulate_kernel(int64_t n, int64_t nrest, const int64_t *offs, mt_cuda_walk rest,
                        S *dst, const S *vals)
{
    MT_IX_LOOP(i, n)
    {
        const int64_t p = i / nrest, r = i - p * nrest;
        atomic_add_elem<S>(dst + offs[p] + walk_offset(rest, r), vals[i]);
    }
}

/* ---- index_select ---- */

template <typename E>
__global__ void
index_select_kernel(mt_cuda_walk w, int d, const char *idx, int idx_is64, int64_t istride,
                    int64_t nsel, const E *self, E *out, int64_t n)
{
    MT_IX_LOOP(i, n)
    {
        /* i walks out (self's sizes with nsel at d), row-major */
        int64_t rem = i, off = 0;
        for (int k = w.ndim - 1; k >= 0; k--) {
            const int64_t s = k == d ? nsel : w.sizes[k];
            int64_t c = rem % s;
            rem /= s;
            if (k == d) {
                const char *ip = idx + c * istride * (idx_is64 ? 8 : 4);
                c = idx_is64 ? *reinterpret_cast<const int64_t *>(ip)
                             : (int64_t) * reinterpret_cast<const int32_t *>(ip);
                c = c < 0 ? c + w.sizes[d] : c;
            }
            off += c * w.strides[k];
        }
        out[i] = self[off];
    }
}

/* ---- gather / scatter ---- */

/* self's and other's element offsets for position e of g */
__device__ __forceinline__ void
gs_offsets(const mt_cuda_gs_geom &g, int64_t e, const int64_t *index, int64_t *soff,
           int64_t *ooff)
{
    int64_t ioff = 0, s = 0, o = 0;
    for (int d = g.nd - 1; d >= 0; d--) {
        const int64_t c = e % g.sizes[d];
        e /= g.sizes[d];
        ioff += c * g.istr[d];
        s += d == g.dim ? 0 : c * g.sstr[d];
        o += c * g.ostr[d];
    }
    *soff = s + index[ioff] * g.sstr[g.dim];
    *ooff = o;
}

template <typename E>
__global__ void
gather_kernel(mt_cuda_gs_geom g, E *self, const int64_t *index, E *other, int scatter)
{
    MT_IX_LOOP(e, g.numel)
    {
        int64_t s, o;
        gs_offsets(g, e, index, &s, &o);
        if (scatter) {
            self[s] = other[o];
        }
        else {
            other[o] = self[s];
        }
    }
}

/* the reductions of the cpu's mt__mul_elem / mt__minmax_elem (NaN wins in amax / amin) */
template <typename S> struct mul_op {
    S v;
    __device__ S operator()(S cur) const
    {
        using A = typename elem<S>::A;
        return elem<S>::st((A)(elem<S>::ld(cur) * elem<S>::ld(v)));
    }
};
template <> struct mul_op<bool> {
    bool v;
    __device__ bool operator()(bool cur) const { return cur && v; }
};
template <> struct mul_op<c64> {
    c64 v;
    __device__ c64 operator()(c64 a) const
    {
        return c64{a.re * v.re - a.im * v.im, a.re * v.im + a.im * v.re};
    }
};
template <typename S> struct minmax_op {
    S v;
    bool amax;
    __device__ S operator()(S cur) const
    {
        using A = typename elem<S>::A;
        const A a = elem<S>::ld(cur), b = elem<S>::ld(v);
        return (a == a && (b != b || (amax ? b > a : b < a))) ? v : cur;
    }
};
template <> struct minmax_op<bool> {
    bool v;
    bool amax;
    __device__ bool operator()(bool cur) const { return amax ? (cur || v) : (cur && v); }
};

template <typename S>
__global__ void
scatter_reduce_kernel(mt_cuda_gs_geom g, S *self, const int64_t *index, const S *other, int mode)
{
    MT_IX_LOOP(e, g.numel)
    {
        int64_t s, o;
        gs_offsets(g, e, index, &s, &o);
        const S v = other[o];
        if (mode == MT_CUDA_SCATTER_ADD) {
            atomic_add_elem<S>(self + s, v);
        }
        else if constexpr (sizeof(S) <= 8) {
            if (mode == MT_CUDA_SCATTER_MUL) {
                atomic_update(self + s, mul_op<S>{v});
            }
            else if constexpr (!std::is_same<S, c64>::value) {
                atomic_update(self + s, minmax_op<S>{v, mode == MT_CUDA_SCATTER_AMAX});
            }
        }
    }
}

/* ---- nonzero ---- */

__global__ void
nonzero_count_kernel(const unsigned char *m, int64_t numel, int64_t chunk, int64_t *counts)
{
    __shared__ int64_t part[kThreads];
    const int64_t b = (int64_t)blockIdx.x * chunk;
    const int64_t e = b + chunk < numel ? b + chunk : numel;
    int64_t n = 0;
    for (int64_t i = b + threadIdx.x; i < e; i += blockDim.x) {
        n += m[i] != 0;
    }
    part[threadIdx.x] = n;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            part[threadIdx.x] += part[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        counts[blockIdx.x] = part[0];
    }
}

/* Block c compacts its chunk in tiles of blockDim.x elements: a ballot per warp, the warps'
 * counts in shared memory, so the true elements keep their order. */
__global__ void
nonzero_write_kernel(const unsigned char *m, int64_t numel, int64_t chunk, const int64_t *starts,
                     mt_cuda_walk shape, int64_t *out)
{
    __shared__ int warp_counts[kThreads / 32];
    const int64_t b = (int64_t)blockIdx.x * chunk;
    const int64_t e = b + chunk < numel ? b + chunk : numel;
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const int nwarps = (int)(blockDim.x >> 5);
    int64_t base = starts[blockIdx.x];
    for (int64_t t = b; t < e; t += blockDim.x) {
        const int64_t i = t + threadIdx.x;
        const int flag = i < e && m[i] != 0;
        const unsigned int ballot = __ballot_sync(0xffffffffu, flag);
        if (lane == 0) {
            warp_counts[warp] = __popc(ballot);
        }
        __syncthreads();
        int64_t before = 0, total = 0;
        for (int k = 0; k < nwarps; k++) {
            before += k < (int)warp ? warp_counts[k] : 0;
            total += warp_counts[k];
        }
        if (flag) {
            int64_t row = base + before + __popc(ballot & ((1u << lane) - 1u));
            int64_t rem = i;
            for (int d = shape.ndim - 1; d >= 0; d--) {
                out[row * shape.ndim + d] = rem % shape.sizes[d];
                rem /= shape.sizes[d];
            }
        }
        base += total;
        __syncthreads();
    }
}

template <typename E>
int
launch_gather(int device, void *stream, int64_t npos, const int64_t *offs,
              const mt_cuda_walk *rest, const char *src, char *out)
{
    const int64_t n = npos * rest->numel;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(index_gather_kernel<E>, blocks_for(n), kThreads, 0, (cudaStream_t)stream,
                       n, rest->numel, offs, *rest, reinterpret_cast<const E *>(src),
                       reinterpret_cast<E *>(out));
    });
}

template <typename E>
int
launch_put(int device, void *stream, int64_t npos, const int64_t *offs, const mt_cuda_walk *rest,
           char *dst, const char *vals)
{
    const int64_t n = npos * rest->numel;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(index_put_kernel<E>, blocks_for(n), kThreads, 0, (cudaStream_t)stream, n,
                       rest->numel, offs, *rest, reinterpret_cast<E *>(dst),
                       reinterpret_cast<const E *>(vals));
    });
}

template <typename S>
int
launch_accumulate(int device, void *stream, int64_t npos, const int64_t *offs,
                  const mt_cuda_walk *rest, char *dst, const char *vals)
{
    const int64_t n = npos * rest->numel;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(index_accumulate_kernel<S>, blocks_for(n), kThreads, 0,
                       (cudaStream_t)stream, n, rest->numel, offs, *rest,
                       reinterpret_cast<S *>(dst), reinterpret_cast<const S *>(vals));
    });
}

template <typename E>
int
launch_select(int device, void *stream, const mt_cuda_walk *w, int d, const char *idx,
              int idx_is64, int64_t istride, int64_t nsel, const char *self, char *out)
{
    const int64_t n = w->numel / w->sizes[d] * nsel;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(index_select_kernel<E>, blocks_for(n), kThreads, 0, (cudaStream_t)stream,
                       *w, d, idx, idx_is64, istride, nsel, reinterpret_cast<const E *>(self),
                       reinterpret_cast<E *>(out), n);
    });
}

template <typename E>
int
launch_gather_scatter(int device, void *stream, const mt_cuda_gs_geom *g, char *self,
                      const int64_t *index, char *other, int scatter)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(gather_kernel<E>, blocks_for(g->numel), kThreads, 0, (cudaStream_t)stream,
                       *g, reinterpret_cast<E *>(self), index, reinterpret_cast<E *>(other),
                       scatter);
    });
}

template <typename S>
int
launch_scatter_reduce(int device, void *stream, const mt_cuda_gs_geom *g, char *self,
                      const int64_t *index, const char *other, int mode)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(scatter_reduce_kernel<S>, blocks_for(g->numel), kThreads, 0,
                       (cudaStream_t)stream, *g, reinterpret_cast<S *>(self), index,
                       reinterpret_cast<const S *>(other), mode);
    });
}

/* X(dt, S): the arithmetic dtypes */
#define MT_IX_ARITH(X)                                                                             \
    X(MT_CUDA_DT_BOOL, bool)                                                                       \
    X(MT_CUDA_DT_U8, uint8_t)                                                                      \
    X(MT_CUDA_DT_I8, int8_t)                                                                       \
    X(MT_CUDA_DT_I16, int16_t)                                                                     \
    X(MT_CUDA_DT_I32, int32_t)                                                                     \
    X(MT_CUDA_DT_I64, int64_t)                                                                     \
    X(MT_CUDA_DT_F16, f16)                                                                         \
    X(MT_CUDA_DT_BF16, bf16)                                                                       \
    X(MT_CUDA_DT_F32, float)                                                                       \
    X(MT_CUDA_DT_F64, double)

/* the name torch's "not implemented" messages give a dtype */
const char *
dt_name(mt_cuda_dt dt)
{
    switch (dt) {
    case MT_CUDA_DT_C64:
        return "ComplexFloat";
    case MT_CUDA_DT_C128:
        return "ComplexDouble";
    case MT_CUDA_DT_U16:
        return "UInt16";
    case MT_CUDA_DT_U32:
        return "UInt32";
    case MT_CUDA_DT_U64:
        return "UInt64";
    default:
        return "this dtype";
    }
}

} // namespace

extern "C" int
mt_cuda_index_check(int device, void *stream, const mt_cuda_walk *w, const char *idx,
                    mt_cuda_dt idt, int64_t lo, int64_t hi, int64_t *bad)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(check_kernel, blocks_for(w->numel), kThreads, 0, (cudaStream_t)stream, *w,
                       idx, (int)idt, lo, hi, reinterpret_cast<long long *>(bad));
    });
}

extern "C" int
mt_cuda_index_offsets(int device, void *stream, const mt_cuda_walk *w, const char *idx,
                      mt_cuda_dt idt, int64_t size, int64_t vstride, int first, int64_t *offs,
                      int64_t *bad)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(offsets_kernel, blocks_for(w->numel), kThreads, 0, (cudaStream_t)stream,
                       *w, idx, (int)idt, size, vstride, first, offs,
                       reinterpret_cast<long long *>(bad));
    });
}

#define MT_IX_BY_SIZE(itemsize, call, ...)                                                         \
    switch (itemsize) {                                                                            \
    case 1:                                                                                        \
        return call<raw<1>>(__VA_ARGS__);                                                          \
    case 2:                                                                                        \
        return call<raw<2>>(__VA_ARGS__);                                                          \
    case 4:                                                                                        \
        return call<raw<4>>(__VA_ARGS__);                                                          \
    case 8:                                                                                        \
        return call<raw<8>>(__VA_ARGS__);                                                          \
    case 16:                                                                                       \
        return call<raw<16>>(__VA_ARGS__);                                                         \
    }                                                                                              \
    return mt_error_set(MT_EINVAL, "CUDA index kernels: bad element size %d", itemsize)

extern "C" int
mt_cuda_index_gather(int device, void *stream, int64_t npos, const int64_t *offs,
                     const mt_cuda_walk *rest, const char *src, char *out, int itemsize)
{
    MT_IX_BY_SIZE(itemsize, launch_gather, device, stream, npos, offs, rest, src, out);
}

extern "C" int
mt_cuda_index_put(int device, void *stream, int64_t npos, const int64_t *offs,
                  const mt_cuda_walk *rest, char *dst, const char *vals, mt_cuda_dt dt,
                  int itemsize, int accumulate)
{
    if (!accumulate) {
        MT_IX_BY_SIZE(itemsize, launch_put, device, stream, npos, offs, rest, dst, vals);
    }
    switch (dt) {
#define MT_IX_CASE(E, S)                                                                           \
    case E:                                                                                        \
        return launch_accumulate<S>(device, stream, npos, offs, rest, dst, vals);
        MT_IX_ARITH(MT_IX_CASE)
        MT_IX_CASE(MT_CUDA_DT_C64, c64)
        MT_IX_CASE(MT_CUDA_DT_C128, c128)
#undef MT_IX_CASE
    default:
        break;
    }
    return mt_error_set(MT_ENOTIMPL, "\"index_put_with_sort_kernel\" not implemented for '%s'",
                        dt_name(dt));
}

extern "C" int
mt_cuda_index_select(int device, void *stream, const mt_cuda_walk *w, int d, const char *idx,
                     int idx_is64, int64_t istride, int64_t n, const char *self, char *out,
                     int itemsize)
{
    MT_IX_BY_SIZE(itemsize, launch_select, device, stream, w, d, idx, idx_is64, istride, n, self,
                  out);
}

extern "C" int
mt_cuda_gather_scatter(int device, void *stream, const mt_cuda_gs_geom *g, char *self,
                       const int64_t *index, char *other, mt_cuda_dt dt, int itemsize, int mode)
{
    if (mode == MT_CUDA_GATHER || mode == MT_CUDA_SCATTER_NONE) {
        MT_IX_BY_SIZE(itemsize, launch_gather_scatter, device, stream, g, self, index, other,
                      mode == MT_CUDA_SCATTER_NONE);
    }
    const bool complex = dt == MT_CUDA_DT_C64 || dt == MT_CUDA_DT_C128;
    if (complex && (mode == MT_CUDA_SCATTER_AMAX || mode == MT_CUDA_SCATTER_AMIN ||
                    (mode == MT_CUDA_SCATTER_MUL && dt == MT_CUDA_DT_C128))) {
        return mt_error_set(MT_ENOTIMPL, "\"scatter_%s_cuda\" not implemented for '%s'",
                            mode == MT_CUDA_SCATTER_MUL ? "mul" : "reduce", dt_name(dt));
    }
    switch (dt) {
#define MT_IX_CASE(E, S)                                                                           \
    case E:                                                                                        \
        return launch_scatter_reduce<S>(device, stream, g, self, index, other, mode);
        MT_IX_ARITH(MT_IX_CASE)
        MT_IX_CASE(MT_CUDA_DT_C64, c64)
        MT_IX_CASE(MT_CUDA_DT_C128, c128)
#undef MT_IX_CASE
    default:
        break;
    }
    return mt_error_set(MT_ENOTIMPL, "\"scatter_cuda\" not implemented for '%s'", dt_name(dt));
}

extern "C" int
mt_cuda_nonzero_count(int device, void *stream, const unsigned char *m, int64_t numel,
                      int64_t chunk, int64_t nchunks, int64_t *counts)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(nonzero_count_kernel, (unsigned int)nchunks, kThreads, 0,
                       (cudaStream_t)stream, m, numel, chunk, counts);
    });
}

extern "C" int
mt_cuda_nonzero_write(int device, void *stream, const unsigned char *m, int64_t numel,
                      int64_t chunk, int64_t nchunks, const int64_t *starts,
                      const mt_cuda_walk *shape, int64_t *out)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(nonzero_write_kernel, (unsigned int)nchunks, kThreads, 0,
                       (cudaStream_t)stream, m, numel, chunk, starts, *shape, out);
    });
}
