/* aten_lite/cuda/dev_dtype.h - the dtypes as the launchers of the reduce, scan, sequence and
 * random kernels take them (plain C, no C-only types: the kernels' side is C++). */
#ifndef ATEN_LITE_CUDA_DEV_DTYPE_H
#define ATEN_LITE_CUDA_DEV_DTYPE_H

/* The values of mt_dtype (c10_lite/dtype.h); the C side asserts they agree. */
typedef enum mt_cuda_dtype {
    MT_CUDA_DT_BOOL = 0,
    MT_CUDA_DT_UINT8,
    MT_CUDA_DT_INT8,
    MT_CUDA_DT_INT16,
    MT_CUDA_DT_INT32,
    MT_CUDA_DT_INT64,
    MT_CUDA_DT_FLOAT16,
    MT_CUDA_DT_BFLOAT16,
    MT_CUDA_DT_FLOAT32,
    MT_CUDA_DT_FLOAT64,
    MT_CUDA_DT_COMPLEX64,
    MT_CUDA_DT_COMPLEX128,
    MT_CUDA_DT_UINT16,
    MT_CUDA_DT_UINT32,
    MT_CUDA_DT_UINT64,
} mt_cuda_dtype;

#define MT_CUDA_DT_CHECK(X)                                                                        \
    X(BOOL) X(UINT8) X(INT8) X(INT16) X(INT32) X(INT64) X(FLOAT16) X(BFLOAT16) X(FLOAT32)         \
    X(FLOAT64) X(COMPLEX64) X(COMPLEX128) X(UINT16) X(UINT32) X(UINT64)

#endif /* ATEN_LITE_CUDA_DEV_DTYPE_H */
