/* aten_lite/cuda/sort.cu - the CUDA sort kernels: order keys, a bitonic sort of tiles in shared
 * memory, merge passes between tiles, the gather of values and indices, searchsorted.  See Note
 * [CUDA sort] in aten_lite/cuda/sort.c. */
#include "aten_lite/cuda/ix_common.cuh"
#include "aten_lite/cuda/sort.h"

using namespace mt_ix;

namespace {

constexpr uint64_t kSentinelKey = ~0ull;
constexpr int64_t kSentinelIdx = INT64_MAX;

/* ---- order keys: unsigned 64-bit integers ordered as the values (NaN largest) ---- */

__device__ __forceinline__ uint64_t
key_of_double(double v)
{
    if (v != v) {
        return kSentinelKey; /* every NaN alike, above +inf */
    }
    if (v == 0.0) {
        v = 0.0; /* -0.0 equals 0.0 */
    }
    const uint64_t b = bit_cast<uint64_t>(v);
    return (b >> 63) ? ~b : (b | (1ull << 63));
}

template <typename S>
__device__ __forceinline__ uint64_t
key_of(S v)
{
    if constexpr (std::is_same<S, float>::value || std::is_same<S, double>::value) {
        return key_of_double((double)v);
    }
    else if constexpr (std::is_same<S, f16>::value || std::is_same<S, bf16>::value) {
        return key_of_double((double)elem<S>::ld(v));
    }
    else if constexpr (std::is_signed<S>::value) {
        return (uint64_t)(int64_t)v ^ (1ull << 63);
    }
    else {
        return (uint64_t)v;
    }
}

/* element offset of (line l, entry j) with the given strides */
__device__ __forceinline__ int64_t
line_offset(const mt_cuda_lines &g, const int64_t *str, int64_t l, int64_t j)
{
    int64_t off = j * str[g.ndim - 1];
    for (int d = g.ndim - 2; d >= 0; d--) {
        off += (l % g.sizes[d]) * str[d];
        l /= g.sizes[d];
    }
    return off;
}

template <typename S>
__global__ void
keys_kernel(mt_cuda_lines g, int64_t total, const S *src, int desc, uint64_t *keys, int64_t *idx)
{
    const int64_t n = g.sizes[g.ndim - 1];
    MT_IX_LOOP(e, total)
    {
        const int64_t l = e / n, i = e - l * n;
        const uint64_t k = key_of<S>(src[line_offset(g, g.sstr, l, i)]);
        keys[e] = desc ? ~k : k;
        idx[e] = i;
    }
}

/* ---- the tile sort ---- */

__device__ __forceinline__ bool
pair_less(uint64_t ka, int64_t ia, uint64_t kb, int64_t ib)
{
    return ka < kb || (ka == kb && ia < ib);
}

__device__ __forceinline__ void
compare_swap(uint64_t *k, int64_t *x, int a, int b)
{
    if (pair_less(k[b], x[b], k[a], x[a])) {
        const uint64_t tk = k[a];
        k[a] = k[b];
        k[b] = tk;
        const int64_t tx = x[a];
        x[a] = x[b];
        x[b] = tx;
    }
}

/* Note [Tile sort]
 * A block loads MT_CUDA_SORT_TILE entries: tile / P segments of P entries (P = `tile`, a power of
 * two), each a run of one line padded with sentinels (the largest pair), and sorts every segment
 * ascending with the bitonic network whose first step of each stage compares mirrored entries (so
 * every segment ends ascending, none descending); stages stop at P, so segments never mix.  The
 * pairs (key, position) are all distinct, which makes the unstable network give the stable order. */
__global__ void
tile_sort_kernel(uint64_t *keys, int64_t *idx, int64_t lines, int64_t n, int64_t P)
{
    __shared__ uint64_t sk[MT_CUDA_SORT_TILE];
    __shared__ int64_t sx[MT_CUDA_SORT_TILE];
    const int64_t tiles_per_line = (n + P - 1) / P;
    const int64_t segments = lines * tiles_per_line;
    const int64_t per_block = MT_CUDA_SORT_TILE / P;
    const int64_t nblocks = (segments + per_block - 1) / per_block;
    for (int64_t blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
        for (int l = threadIdx.x; l < MT_CUDA_SORT_TILE; l += blockDim.x) {
            const int64_t seg = blk * per_block + l / P, j = l % P;
            const int64_t line = seg / tiles_per_line, pos = (seg % tiles_per_line) * P + j;
            if (seg < segments && pos < n) {
                sk[l] = keys[line * n + pos];
                sx[l] = idx[line * n + pos];
            }
            else {
                sk[l] = kSentinelKey;
                sx[l] = kSentinelIdx;
            }
        }
        __syncthreads();
        for (int k = 2; k <= P; k <<= 1) {
            const int half = k >> 1;
            for (int t = threadIdx.x; t < MT_CUDA_SORT_TILE / 2; t += blockDim.x) {
                const int a = (t / half) * k + t % half;
                compare_swap(sk, sx, a, (t / half) * k + k - 1 - t % half);
            }
            __syncthreads();
            for (int s = k >> 2; s >= 1; s >>= 1) {
                for (int t = threadIdx.x; t < MT_CUDA_SORT_TILE / 2; t += blockDim.x) {
                    const int a = (t / s) * 2 * s + t % s;
                    compare_swap(sk, sx, a, a + s);
                }
                __syncthreads();
            }
        }
        for (int l = threadIdx.x; l < MT_CUDA_SORT_TILE; l += blockDim.x) {
            const int64_t seg = blk * per_block + l / P, j = l % P;
            const int64_t line = seg / tiles_per_line, pos = (seg % tiles_per_line) * P + j;
            if (seg < segments && pos < n) {
                keys[line * n + pos] = sk[l];
                idx[line * n + pos] = sx[l];
            }
        }
        __syncthreads();
    }
}

/* ---- merge passes: each entry finds its place by a binary search in the other run ---- */

__global__ void
merge_kernel(const uint64_t *kin, const int64_t *iin, uint64_t *kout, int64_t *iout,
             int64_t total, int64_t n, int64_t width)
{
    MT_IX_LOOP(e, total)
    {
        const int64_t l = e / n, i = e - l * n;
        const int64_t run = i / width, start = run * width, pstart = (run ^ 1) * width;
        const uint64_t k = kin[e];
        const int64_t x = iin[e];
        int64_t dest = i;
        if (pstart < n) {
            const int64_t plen = pstart + width < n ? width : n - pstart;
            const uint64_t *pk = kin + l * n + pstart;
            const int64_t *px = iin + l * n + pstart;
            int64_t lo = 0, hi = plen; /* partner entries below (k, x) */
            while (lo < hi) {
                const int64_t mid = lo + ((hi - lo) >> 1);
                if (pair_less(pk[mid], px[mid], k, x)) {
                    lo = mid + 1;
                }
                else {
                    hi = mid;
                }
            }
            dest = (start < pstart ? start : pstart) + (i - start) + lo;
        }
        kout[l * n + dest] = k;
        iout[l * n + dest] = x;
    }
}

/* ---- results ---- */

template <typename E>
__global__ void
write_kernel(mt_cuda_lines g, int64_t total, int64_t k, const E *src, const int64_t *idx, E *v,
             int64_t *ix)
{
    const int64_t n = g.sizes[g.ndim - 1];
    MT_IX_LOOP(e, total)
    {
        const int64_t l = e / k, j = e - l * k;
        const int64_t i = idx[l * n + j];
        v[line_offset(g, g.vstr, l, j)] = src[line_offset(g, g.sstr, l, i)];
        ix[line_offset(g, g.istr, l, j)] = i;
    }
}

/* ---- searchsorted ---- */

template <typename S>
__global__ void
search_kernel(const S *bd, const S *vals, const int64_t *sorter, int64_t n, int64_t vlast,
              int per_line, int64_t count, int right, int64_t *o)
{
    using A = typename elem<S>::A;
    MT_IX_LOOP(e, count)
    {
        const int64_t line = per_line ? e / vlast : 0;
        const S *b = bd + line * n;
        const int64_t *sr = sorter ? sorter + line * n : nullptr;
        const A v = elem<S>::ld(vals[e]);
        int64_t lo = 0, hi = n;
        while (lo < hi) {
            const int64_t mid = lo + ((hi - lo) >> 1);
            const A m = elem<S>::ld(b[sr ? sr[mid] : mid]);
            if (right ? !(m > v) : !(m >= v)) {
                lo = mid + 1;
            }
            else {
                hi = mid;
            }
        }
        o[e] = lo;
    }
}

template <typename S>
int
launch_keys(int device, void *stream, const mt_cuda_lines *g, int64_t lines, const char *src,
            int desc, uint64_t *keys, int64_t *idx)
{
    const int64_t total = lines * g->sizes[g->ndim - 1];
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(keys_kernel<S>, blocks_for(total), kThreads, 0, (cudaStream_t)stream, *g,
                       total, reinterpret_cast<const S *>(src), desc, keys, idx);
    });
}

template <typename E>
int
launch_write(int device, void *stream, const mt_cuda_lines *g, int64_t lines, int64_t k,
             const char *src, const int64_t *idx, char *v, int64_t *ix)
{
    const int64_t total = lines * k;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(write_kernel<E>, blocks_for(total), kThreads, 0, (cudaStream_t)stream, *g,
                       total, k, reinterpret_cast<const E *>(src), idx, reinterpret_cast<E *>(v),
                       ix);
    });
}

template <typename S>
int
launch_search(int device, void *stream, const char *bd, const char *vals, const int64_t *sorter,
              int64_t n, int64_t vlast, int per_line, int64_t count, int right, int64_t *o)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(search_kernel<S>, blocks_for(count), kThreads, 0, (cudaStream_t)stream,
                       reinterpret_cast<const S *>(bd), reinterpret_cast<const S *>(vals), sorter,
                       n, vlast, per_line, count, right, o);
    });
}

} // namespace

/* X(dt, S): the real dtypes */
#define MT_SORT_REAL(X)                                                                            \
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

extern "C" int
mt_cuda_sort_keys(int device, void *stream, const mt_cuda_lines *g, int64_t lines,
                  const char *src, mt_cuda_dt dt, int descending, uint64_t *keys, int64_t *idx)
{
    switch (dt) {
#define MT_SORT_CASE(E, S)                                                                         \
    case E:                                                                                        \
        return launch_keys<S>(device, stream, g, lines, src, descending, keys, idx);
        MT_SORT_REAL(MT_SORT_CASE)
        MT_SORT_CASE(MT_CUDA_DT_U16, uint16_t)
        MT_SORT_CASE(MT_CUDA_DT_U32, uint32_t)
        MT_SORT_CASE(MT_CUDA_DT_U64, uint64_t)
#undef MT_SORT_CASE
    default:
        break;
    }
    return mt_error_set(MT_ENOTIMPL, "\"sort_cuda\" not implemented for complex dtypes");
}

extern "C" int
mt_cuda_sort_tiles(int device, void *stream, uint64_t *keys, int64_t *idx, int64_t lines,
                   int64_t n, int64_t tile)
{
    const int64_t segments = lines * ((n + tile - 1) / tile);
    const int64_t per_block = MT_CUDA_SORT_TILE / tile;
    int64_t blocks = (segments + per_block - 1) / per_block;
    blocks = blocks > kMaxBlocks ? kMaxBlocks : blocks;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(tile_sort_kernel, (unsigned int)blocks, kThreads, 0, (cudaStream_t)stream,
                       keys, idx, lines, n, tile);
    });
}

extern "C" int
mt_cuda_sort_merge(int device, void *stream, const uint64_t *kin, const int64_t *iin,
                   uint64_t *kout, int64_t *iout, int64_t lines, int64_t n, int64_t width)
{
    const int64_t total = lines * n;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(merge_kernel, blocks_for(total), kThreads, 0, (cudaStream_t)stream, kin,
                       iin, kout, iout, total, n, width);
    });
}

extern "C" int
mt_cuda_sort_write(int device, void *stream, const mt_cuda_lines *g, int64_t lines, int64_t k,
                   const char *src, const int64_t *idx, char *v, int64_t *ix, int itemsize)
{
    switch (itemsize) {
    case 1:
        return launch_write<raw<1>>(device, stream, g, lines, k, src, idx, v, ix);
    case 2:
        return launch_write<raw<2>>(device, stream, g, lines, k, src, idx, v, ix);
    case 4:
        return launch_write<raw<4>>(device, stream, g, lines, k, src, idx, v, ix);
    case 8:
        return launch_write<raw<8>>(device, stream, g, lines, k, src, idx, v, ix);
    }
    return mt_error_set(MT_EINVAL, "mt_cuda_sort_write: bad element size %d", itemsize);
}

extern "C" int
mt_cuda_searchsorted(int device, void *stream, const char *bd, const char *vals,
                     const int64_t *sorter, int64_t n, int64_t vlast, int per_line, int64_t count,
                     mt_cuda_dt dt, int right, int64_t *o)
{
    switch (dt) {
#define MT_SORT_CASE(E, S)                                                                         \
    case E:                                                                                        \
        return launch_search<S>(device, stream, bd, vals, sorter, n, vlast, per_line, count,       \
                                right, o);
        MT_SORT_REAL(MT_SORT_CASE)
#undef MT_SORT_CASE
    default:
        break;
    }
    return mt_error_set(MT_ENOTIMPL, "\"searchsorted_cuda\" not implemented for this dtype");
}
