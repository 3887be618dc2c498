/* c10_lite/cuda_hooks.c - what the core needs from the CUDA runtime, with or without it built in:
 * the device count and the process's caching allocator of device memory over the runtime. */
#include "c10_lite/cuda_hooks.h"

#include <pthread.h>

#include "c10_lite/error.h"

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

/* ---- the caching allocator's backend over the runtime (Note [Caching allocator]) ---- */

/* Runs on `device`, restoring the caller's current device after. */
#define MT__ON_DEVICE(device, call, result)                                                 \
    do {                                                                                    \
        int prev_ = -1;                                                                     \
        if (cudaGetDevice(&prev_) != cudaSuccess || (prev_ != (device) &&                   \
                                                     cudaSetDevice(device) != cudaSuccess)) { \
            (result) = cudaGetLastError();                                                  \
            break;                                                                          \
        }                                                                                   \
        (result) = (call);                                                                  \
        if (prev_ != (device)) {                                                            \
            (void)cudaSetDevice(prev_);                                                     \
        }                                                                                   \
    } while (0)

static int
mt__cuda_error(cudaError_t e, const char *what)
{
    (void)cudaGetLastError(); /* clear the runtime's record of it */
    return mt_error_set(e == cudaErrorMemoryAllocation ? MT_ENOMEM : MT_ERUNTIME,
                        "CUDA error: %s (%s)", cudaGetErrorString(e), what);
}

static int
mt__rt_malloc(void *ctx, int device, size_t nbytes, void **ptr)
{
    (void)ctx;
    cudaError_t e;
    MT__ON_DEVICE(device, cudaMalloc(ptr, nbytes), e);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaMalloc");
}

static void
mt__rt_free(void *ctx, int device, void *ptr)
{
    (void)ctx;
    cudaError_t e;
    MT__ON_DEVICE(device, cudaFree(ptr), e);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* at exit the context may be gone already */
    }
}

static int
mt__rt_record_event(void *ctx, int device, void *stream, void **event)
{
    (void)ctx;
    cudaEvent_t ev = NULL;
    cudaError_t e;
    MT__ON_DEVICE(device, cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), e);
    if (e == cudaSuccess) {
        MT__ON_DEVICE(device, cudaEventRecord(ev, (cudaStream_t)stream), e);
        if (e != cudaSuccess) {
            (void)cudaEventDestroy(ev);
        }
    }
    if (e != cudaSuccess) {
        return mt__cuda_error(e, "cudaEventRecord");
    }
    *event = ev;
    return 0;
}

static int
mt__rt_event_done(void *ctx, void *event)
{
    (void)ctx;
    cudaError_t e = cudaEventQuery((cudaEvent_t)event);
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return 0;
    }
    return e == cudaSuccess ? 1 : mt__cuda_error(e, "cudaEventQuery");
}

static void
mt__rt_free_event(void *ctx, void *event)
{
    (void)ctx;
    (void)cudaEventDestroy((cudaEvent_t)event);
}

static const mt_cuda_backend mt__runtime_backend = {
    mt__rt_malloc, mt__rt_free, mt__rt_record_event, mt__rt_event_done, mt__rt_free_event, NULL,
};

static pthread_once_t mt__alloc_once = PTHREAD_ONCE_INIT;
static mt_cuda_alloc *mt__allocator;

static void
mt__alloc_create(void)
{
    int n = mt_cuda_device_count();
    if (n > 0) {
        mt__allocator = mt_cuda_alloc_new(&mt__runtime_backend, n);
    }
}

mt_cuda_alloc *
mt_cuda_allocator(void)
{
    pthread_once(&mt__alloc_once, mt__alloc_create);
    if (mt__allocator == NULL) {
        mt_error_set(MT_ERUNTIME, "Found no NVIDIA driver on your system or no CUDA device is "
                                  "available (minitorch.cuda.is_available() is False)");
    }
    return mt__allocator;
}

mt_cuda_alloc *
mt_cuda_allocator_if_created(void)
{
    return mt__allocator; /* set once, before pthread_once returns to its creator */
}
#else
int
mt_cuda_device_count(void)
{
    return 0;
}

mt_cuda_alloc *
mt_cuda_allocator(void)
{
    mt_error_set(MT_ERUNTIME, "minitorch was built without CUDA");
    return NULL;
}

mt_cuda_alloc *
mt_cuda_allocator_if_created(void)
{
    return NULL;
}
#endif
