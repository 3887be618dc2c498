/* tools/nccl_standin/reduce.c - the reductions of the stand-in's collectives: every rank's data
 * combined in rank order (so each rank gets the same bits); half and bfloat16 accumulate in
 * float and round once, to nearest even. */
#include <math.h>
#include <string.h>

#include "standin.h"

size_t
si_dtype_size(ncclDataType_t t)
{
    switch (t) {
    case ncclInt8: case ncclUint8: return 1;
    case ncclFloat16: case ncclBfloat16: return 2;
    case ncclInt32: case ncclUint32: case ncclFloat32: return 4;
    case ncclInt64: case ncclUint64: case ncclFloat64: return 8;
    default: return 0;
    }
}

static float
si_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);
    }
    else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (man << 13);
    }
    else if (man == 0) {
        bits = sign;
    }
    else { /* subnormal: normalise */
        int e = -1;
        do {
            e++;
            man <<= 1;
        } while (!(man & 0x400));
        bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ff) << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint16_t
si_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) { /* inf, nan */
        return sign | 0x7c00 | (ax > 0x7f800000u ? 0x200 : 0);
    }
    if (ax >= 0x477ff000u) { /* rounds past the largest half */
        return sign | 0x7c00;
    }
    if (ax < 0x38800000u) { /* subnormal or zero: scale, let the FPU round */
        float a;
        memcpy(&a, &ax, 4);
        return sign | (uint16_t)lrintf(a * 16777216.0f);
    }
    uint32_t m = ax + 0xc8000fffu + ((ax >> 13) & 1); /* rebias, round to nearest even */
    return sign | (uint16_t)(m >> 13);
}

static float
si_bf16_to_float(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint16_t
si_float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
        return (uint16_t)((x >> 16) | 0x40);
    }
    return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

#define SI_COMBINE(a, b, op)                                                                   \
    ((op) == ncclSum || (op) == ncclAvg ? (a) + (b)                                          \
     : (op) == ncclProd               ? (a) * (b)                                            \
     : (op) == ncclMax                ? ((b) > (a) || (b) != (b) ? (b) : (a))                \
                                      : ((b) < (a) || (b) != (b) ? (b) : (a)))

/* the typed loop: T the element, A the accumulator, LOAD/STORE between them */
#define SI_REDUCE_LOOP(T, A, LOAD, STORE)                                                     \
    do {                                                                                     \
        T *d = dst;                                                                          \
        for (size_t i = 0; i < count; i++) {                                                 \
            A acc = LOAD(((const T *)srcs[0])[i]);                                           \
            for (int r = 1; r < n; r++) {                                                    \
                A v = LOAD(((const T *)srcs[r])[i]);                                         \
                acc = (A)SI_COMBINE(acc, v, op);                                             \
            }                                                                                \
            if (op == ncclAvg) {                                                             \
                acc = (A)(acc / (A)n);                                                       \
            }                                                                                \
            d[i] = STORE(acc);                                                               \
        }                                                                                    \
    } while (0)
#define SI_ID(x) (x)

void
si_reduce(void *dst, const void *const *srcs, int n, size_t count, ncclDataType_t t,
          ncclRedOp_t op)
{
    switch (t) {
    case ncclInt8: SI_REDUCE_LOOP(int8_t, int8_t, SI_ID, SI_ID); break;
    case ncclUint8: SI_REDUCE_LOOP(uint8_t, uint8_t, SI_ID, SI_ID); break;
    case ncclInt32: SI_REDUCE_LOOP(int32_t, int64_t, SI_ID, (int32_t)); break;
    case ncclUint32: SI_REDUCE_LOOP(uint32_t, uint32_t, SI_ID, SI_ID); break;
    case ncclInt64: SI_REDUCE_LOOP(int64_t, int64_t, SI_ID, SI_ID); break;
    case ncclUint64: SI_REDUCE_LOOP(uint64_t, uint64_t, SI_ID, SI_ID); break;
    case ncclFloat16: SI_REDUCE_LOOP(uint16_t, float, si_half_to_float, si_float_to_half); break;
    case ncclBfloat16: SI_REDUCE_LOOP(uint16_t, float, si_bf16_to_float, si_float_to_bf16); break;
    case ncclFloat32: SI_REDUCE_LOOP(float, float, SI_ID, SI_ID); break;
    case ncclFloat64: SI_REDUCE_LOOP(double, double, SI_ID, SI_ID); break;
    default: break;
    }
}

/* Note [Stand-in PreMulSum]
 * ncclRedOpCreatePreMulSum's operator is a slot of the communicator (op = ncclNumOps + slot),
 * holding the scalar (copied, ncclScalarHostImmediate) or where to read it (ncclScalarDevice,
 * read when the collective runs on the stream, as NCCL does).  Issuing an operation copies
 * that into the queued op and passes ncclSum on, so the operator may be destroyed as soon as
 * the call returns.  Each rank scales its own contribution as it puts it in its slot (in the
 * accumulation type, rounded to the element type), and the slots are then summed. */
#define SI_SCALE_LOOP(T, A, LOAD, STORE)                                                      \
    do {                                                                                     \
        T *d = dst;                                                                          \
        const T *s = src;                                                                    \
        A k = LOAD(*(const T *)scalar);                                                      \
        for (size_t i = 0; i < count; i++) {                                                 \
            d[i] = STORE((A)(k * LOAD(s[i])));                                               \
        }                                                                                    \
    } while (0)

void
si_scale(void *dst, const void *src, size_t count, ncclDataType_t t, const void *scalar)
{
    switch (t) {
    case ncclFloat16: SI_SCALE_LOOP(uint16_t, float, si_half_to_float, si_float_to_half); break;
    case ncclBfloat16: SI_SCALE_LOOP(uint16_t, float, si_bf16_to_float, si_float_to_bf16); break;
    case ncclFloat32: SI_SCALE_LOOP(float, float, SI_ID, SI_ID); break;
    case ncclFloat64: SI_SCALE_LOOP(double, double, SI_ID, SI_ID); break;
    default: break;
    }
}
