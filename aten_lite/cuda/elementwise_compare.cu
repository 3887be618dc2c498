/* aten_lite/cuda/elementwise_compare.cu - the CUDA kernels of comparisons, logical and bitwise
 * ops, shifts and where (Note [CUDA elementwise launcher] in elementwise.h). */
#include "aten_lite/cuda/elementwise.cuh"

namespace mt_ew {
namespace {

template <typename T>
__device__ __forceinline__ bool
nz(T a)
{
    if constexpr (is_cplx<T>::value) {
        return a.re != 0 || a.im != 0;
    }
    else {
        return a != 0;
    }
}

#define MT__CMP(name, expr)                                                                        \
    template <typename T> struct name : fn<T, bool> {                                              \
        __device__ __forceinline__ bool operator()(const params &, T a, T b) const { return expr; } \
    };
MT__CMP(eq_f, a == b)
MT__CMP(ne_f, a != b)
MT__CMP(lt_f, a < b)
MT__CMP(le_f, a <= b)
MT__CMP(gt_f, a > b)
MT__CMP(ge_f, a >= b)
MT__CMP(logical_and_f, nz(a) && nz(b))
MT__CMP(logical_or_f, nz(a) || nz(b))
MT__CMP(logical_xor_f, nz(a) != nz(b))
#undef MT__CMP

#define MT__BIT(name, expr)                                                                        \
    template <typename T> struct name : fn<T> {                                                    \
        __device__ __forceinline__ T operator()(const params &, T a, T b) const { return expr; }    \
    };
MT__BIT(bitwise_and_f, (T)(a & b))
MT__BIT(bitwise_or_f, (T)(a | b))
MT__BIT(bitwise_xor_f, (T)(a ^ b))
MT__BIT(lshift_f, (T)mt_math_ishl(a, b, (int)sizeof(T) * 8))
MT__BIT(rshift_f, (T)mt_math_ishr(a, b, (int)sizeof(T) * 8))
#undef MT__BIT

/* where(cond, x, y) */
template <typename T> struct where_f : fn<T> {
    using in0_t = bool;
    __device__ __forceinline__ T operator()(const params &, bool c, T x, T y) const
    {
        return c ? x : y;
    }
};

} // namespace
} // namespace mt_ew

extern "C" int
mt__cuda_ew_compare(const mt_cuda_ew_launch *l)
{
    using namespace mt_ew;
    switch (l->op) {
    case MT_OP_EQ:
        return dispatch<K_REAL | K_COMPLEX | K_UNSIGNED, eq_f, 2>(l);
    case MT_OP_NE:
        return dispatch<K_REAL | K_COMPLEX | K_UNSIGNED, ne_f, 2>(l);
    case MT_OP_LT:
        return dispatch<K_REAL | K_UNSIGNED, lt_f, 2>(l);
    case MT_OP_LE:
        return dispatch<K_REAL | K_UNSIGNED, le_f, 2>(l);
    case MT_OP_GT:
        return dispatch<K_REAL | K_UNSIGNED, gt_f, 2>(l);
    case MT_OP_GE:
        return dispatch<K_REAL | K_UNSIGNED, ge_f, 2>(l);
    case MT_OP_LOGICAL_AND:
        return dispatch<K_REAL | K_COMPLEX, logical_and_f, 2>(l);
    case MT_OP_LOGICAL_OR:
        return dispatch<K_REAL | K_COMPLEX, logical_or_f, 2>(l);
    case MT_OP_LOGICAL_XOR:
        return dispatch<K_REAL | K_COMPLEX, logical_xor_f, 2>(l);
    case MT_OP_BITWISE_AND:
        return dispatch<K_INTBOOL, bitwise_and_f, 2>(l);
    case MT_OP_BITWISE_OR:
        return dispatch<K_INTBOOL, bitwise_or_f, 2>(l);
    case MT_OP_BITWISE_XOR:
        return dispatch<K_INTBOOL, bitwise_xor_f, 2>(l);
    case MT_OP_LSHIFT:
        return dispatch<K_INT, lshift_f, 2>(l);
    case MT_OP_RSHIFT:
        return dispatch<K_INT, rshift_f, 2>(l);
    case MT_OP_WHERE:
        return dispatch<K_REAL | K_COMPLEX | K_UNSIGNED, where_f, 3>(l);
    default:
        return l->query ? 0 : MT_CUDA_EW_NO_KERNEL;
    }
}
