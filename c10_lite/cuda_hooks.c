/* c10_lite/cuda_hooks.c - what the core needs to know about CUDA, with or without it built in. */
#include "c10_lite/storage.h"

#ifdef MT_WITH_CUDA
#include <cuda_runtime_api.h>

int
mt_cuda_device_count(void)
{
    /* No driver, an old driver or no GPU all mean "zero devices", never an error. */
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}
#else
int
mt_cuda_device_count(void)
{
    return 0;
}
#endif
