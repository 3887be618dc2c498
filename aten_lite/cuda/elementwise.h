/* aten_lite/cuda/elementwise.h - the CUDA elementwise and cast launchers (elementwise_*.cu,
 * cast.cu) as the C side (elementwise.c, register.c) calls them: plain structs, no runtime
 * types. */
#ifndef ATEN_LITE_CUDA_ELEMENTWISE_H
#define ATEN_LITE_CUDA_ELEMENTWISE_H

#include <stdint.h>

#include "aten_lite/cuda/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Note [CUDA elementwise launcher]
 * One call of an elementwise kernel (an mt_op of aten_lite/op_list.h) over a launch geometry
 * (Note [Launch geometry]): operand 0 is the output, then up to 3 inputs.  The kernel of
 * (op, dtype) is a functor of the op's scalar math (op_math.h where it is more than an
 * operator) instantiated for dtype's compute type: bool, the integers, float (float16,
 * bfloat16 and float32 all compute in float32, as the cpu loops), double, complex.  Inputs
 * whose dtype is not the one they are computed in (`want`) are converted on the fly, as the
 * cpu's cast loops would (through `want`: a float32 input computed in float16 is rounded to
 * float16 first); the output is written in its own dtype.  When every operand already holds
 * the compute type and the output the functor's result type, the kernel reads them with plain
 * typed loads (vectorised when contiguous and aligned); otherwise it converts per element.
 * A scalar input (a 0-d cpu tensor or a Python number) has data NULL: its value, read on the
 * host, travels with the launch, already in the compute type of its `want` (scalar[k] holds
 * the bytes of a bool, an integer of want's width, a float for float16/bfloat16/float32, a
 * double, or a (re, im) pair). */
typedef struct mt_cuda_ew_launch {
    int device;
    void *stream;
    const mt_cuda_geom *g;
    int op;       /* mt_op */
    int dtype;    /* the dtype the kernel computes in (mt_dtype) */
    int ninputs;  /* 1 .. MT_CUDA_MAX_OPERANDS - 1 */
    int query;    /* nonzero: only say whether the kernel exists (1) or not (0); runs nothing */
    char *data[MT_CUDA_MAX_OPERANDS];  /* device pointers; an input's NULL: a scalar */
    int dtypes[MT_CUDA_MAX_OPERANDS];  /* each operand's dtype in memory */
    int want[MT_CUDA_MAX_OPERANDS];    /* each input's compute dtype (index 0 unused) */
    uint64_t scalar[MT_CUDA_MAX_OPERANDS][2]; /* 16 bytes per input, 8-aligned */
    double alpha_f;  /* add/sub's alpha, leaky_scale's slope */
    int64_t alpha_i; /* alpha of integer add/sub */
    double alpha_re, alpha_im; /* alpha of complex add/sub */
    int *flag;       /* device int set to 1 by an integer division by zero (or NULL) */
} mt_cuda_ew_launch;

/* The groups of kernels, one .cu file each.  Each returns, for a query, 1 or 0; else MT_OK,
 * MT_ERUNTIME ("CUDA error: ...") or MT_CUDA_EW_NO_KERNEL when it has no kernel for
 * (op, dtype) (the caller raises torch's "not implemented" error). */
#define MT_CUDA_EW_NO_KERNEL 1
int mt__cuda_ew_binary(const mt_cuda_ew_launch *l);  /* arithmetic binary ops */
int mt__cuda_ew_compare(const mt_cuda_ew_launch *l); /* comparisons, logical, bitwise, where */
int mt__cuda_ew_unary(const mt_cuda_ew_launch *l);   /* unary ops and activations */
int mt__cuda_ew_special(const mt_cuda_ew_launch *l); /* the special functions */
int mt__cuda_ew_complex(const mt_cuda_ew_launch *l); /* complex elementary functions */

/* Note [CUDA casts]
 * dst (operand 0, dtype dst_dtype) <- src (operand 1, src_dtype) converted with the cpu cast
 * loops' rules (Note [Cast loops] in cpu/copy.c): C's conversions, float16/bfloat16 through
 * float32 with round to nearest even, complex to real keeps the real part, anything to bool
 * is "non-zero".  Every pair of the 15 dtypes. */
int mt_cuda_cast(int device, void *stream, const mt_cuda_geom *g, char *dst, int dst_dtype,
                 const char *src, int src_dtype);

#ifndef __cplusplus
struct mt_iter;
/* The launch geometry of the first n operands of it (Note [Launch geometry]). */
void mt__cuda_geom(const struct mt_iter *it, int n, mt_cuda_geom *g);
#endif

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_ELEMENTWISE_H */
