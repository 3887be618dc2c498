/* c10_lite/cuda_state.c - per-thread current CUDA device and streams (Note [Current device and stream]). */
#include "c10_lite/cuda_state.h"

#include <stddef.h>

#include "c10_lite/cuda_hooks.h"
#include "c10_lite/error.h"

#ifdef MT_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

static _Thread_local int mt__device;
static _Thread_local void *mt__streams[MT_CUDA_MAX_DEVICES];

/* 0 when `device` names one of the process's devices, else the error (see the header). */
static int
mt__check_device(int device)
{
    int n = mt_cuda_device_count();
    if (n == 0) {
        return mt_error_set(MT_ERUNTIME, "%s", mt_cuda_unavailable_message());
    }
    if (device < 0 || device >= n) {
        return mt_error_set(MT_ERUNTIME, "CUDA error: invalid device ordinal (device %d; %d %s)",
                            device, n, n == 1 ? "device is visible" : "devices are visible");
    }
    return 0;
}

int
mt_cuda_current_device(int *device)
{
    int rc = mt__check_device(mt__device);
    if (rc < 0) {
        return rc;
    }
    *device = mt__device;
    return 0;
}

int
mt_cuda_set_device(int device)
{
    int rc = mt__check_device(device);
    if (rc < 0) {
        return rc;
    }
#ifdef MT_WITH_CUDA
    int prev = -1;
    cudaError_t e = cudaGetDevice(&prev);
    if (e == cudaSuccess && prev != device) {
        e = cudaSetDevice(device);
    }
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return mt_error_set(MT_ERUNTIME, "CUDA error: %s (cudaSetDevice)", cudaGetErrorString(e));
    }
#endif
    mt__device = device;
    return 0;
}

void *
mt_cuda_current_stream(int device)
{
    if (device < 0 || device >= MT_CUDA_MAX_DEVICES) {
        return NULL;
    }
    return mt__streams[device];
}

int
mt_cuda_set_stream(int device, void *stream)
{
    int rc = mt__check_device(device);
    if (rc < 0) {
        return rc;
    }
    mt__streams[device] = stream;
    return 0;
}
