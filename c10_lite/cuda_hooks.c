/* c10_lite/cuda_hooks.c - what the core needs from the CUDA runtime, with or without it built in:
 * the device count, the caching allocator of device memory and its registry entry (Note
 * [Allocator registry]), pooled streams and events (Note [CUDA streams]). */
#include "c10_lite/cuda_hooks.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

/* "cuda" (-1: the current device) or "cuda:i" checked against the devices there are. */
static int
mt__cuda_resolve(void *ctx, int index, int *out)
{
    (void)ctx;
    if (index < 0) {
        return mt_cuda_current_device(out);
    }
    int n = mt_cuda_device_count();
    if (n == 0) {
        return mt_error_set(MT_ERUNTIME, "%s", mt_cuda_unavailable_message());
    }
    if (index >= n) {
        return mt_error_set(MT_ERUNTIME, "CUDA error: invalid device ordinal (device %d; %d %s)",
                            index, n, n == 1 ? "device is visible" : "devices are visible");
    }
    *out = index;
    return 0;
}

static void *
mt__cuda_current_stream(void *ctx, int device)
{
    (void)ctx;
    return mt_cuda_current_stream(device);
}

#ifdef MT_WITH_CUDA
#include <cuda_runtime_api.h>

static pthread_once_t mt__count_once = PTHREAD_ONCE_INIT;
static int mt__count;
static char mt__unavailable[512];

static void
mt__count_init(void)
{
    /* No driver, an old driver or no GPU all mean "zero devices", never an error. */
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    (void)cudaGetLastError();
    if (e == cudaSuccess && n > 0) {
        mt__count = n < MT_CUDA_MAX_DEVICES ? n : MT_CUDA_MAX_DEVICES;
        return;
    }
    int driver = 0;
    if (e == cudaSuccess || e == cudaErrorNoDevice) {
        snprintf(mt__unavailable, sizeof(mt__unavailable), "No CUDA GPUs are available");
    }
    else if (e == cudaErrorInsufficientDriver &&
             (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0)) {
        (void)cudaGetLastError();
        snprintf(mt__unavailable, sizeof(mt__unavailable),
                 "Found no NVIDIA driver on your system. Please check that you have an NVIDIA "
                 "GPU and installed a driver from http://www.nvidia.com/Download/index.aspx");
    }
    else if (e == cudaErrorInsufficientDriver) {
        snprintf(mt__unavailable, sizeof(mt__unavailable),
                 "The NVIDIA driver on your system is too old (found version %d). Please update "
                 "your GPU driver by downloading and installing a new version from the URL: "
                 "http://www.nvidia.com/Download/index.aspx",
                 driver);
    }
    else {
        snprintf(mt__unavailable, sizeof(mt__unavailable),
                 "CUDA driver initialization failed, you might not have a CUDA gpu. (%s)",
                 cudaGetErrorString(e));
    }
}

int
mt_cuda_device_count(void)
{
    pthread_once(&mt__count_once, mt__count_init);
    return mt__count;
}

const char *
mt_cuda_unavailable_message(void)
{
    return mt_cuda_device_count() > 0 ? NULL : mt__unavailable;
}

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

/* 0 for a device of the process, else the error set */
static int
mt__check(int device)
{
    int index;
    return mt__cuda_resolve(NULL, device < 0 ? MT_CUDA_MAX_DEVICES : device, &index);
}

/* ---- the caching allocator's backend over the runtime (Note [Caching allocator]) ---- */

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
        const char *why = mt_cuda_unavailable_message();
        if (why != NULL) {
            mt_error_set(MT_ERUNTIME, "%s", why);
        }
        else {
            mt_error_set(MT_ENOMEM, "out of host memory making the CUDA caching allocator");
        }
    }
    return mt__allocator;
}

mt_cuda_alloc *
mt_cuda_allocator_if_created(void)
{
    return mt__allocator; /* set once, before pthread_once returns to its creator */
}

/* ---- the registry entry (Note [Allocator registry]) ---- */

static int
mt__cuda_alloc(void *ctx, int device, void *stream, size_t nbytes, void **out)
{
    (void)ctx;
    mt_cuda_alloc *a = mt_cuda_allocator();
    if (a == NULL) {
        return mt_error_code();
    }
    return mt_cuda_alloc_malloc(a, device, stream, nbytes, out);
}

static void
mt__cuda_free(void *ctx, void *ptr)
{
    (void)ctx;
    mt_cuda_alloc *a = mt_cuda_allocator_if_created();
    if (ptr != NULL && a != NULL) {
        (void)mt_cuda_alloc_free(a, ptr);
    }
}

/* The end of a copy or fill on stream: waits for it unless non_blocking. */
static int
mt__finish(int device, void *stream, bool non_blocking, cudaError_t e, const char *what)
{
    if (e == cudaSuccess && !non_blocking) {
        MT__ON_DEVICE(device, cudaStreamSynchronize((cudaStream_t)stream), e);
    }
    return e == cudaSuccess ? 0 : mt__cuda_error(e, what);
}

static int
mt__cuda_fill(void *ctx, int device, void *dst, size_t nbytes, const void *pattern,
              size_t pattern_size, void *stream, bool non_blocking)
{
    (void)ctx;
    cudaStream_t s = (cudaStream_t)stream;
    const unsigned char *p = pattern;
    size_t same = 1;
    while (same < pattern_size && p[same] == p[0]) {
        same++;
    }
    cudaError_t e;
    if (same == pattern_size) {
        MT__ON_DEVICE(device, cudaMemsetAsync(dst, p[0], nbytes, s), e);
        return mt__finish(device, stream, non_blocking, e, "cudaMemsetAsync");
    }
    /* A chunk of the pattern from the host (staged by the runtime before the call returns),
     * then doubling copies on the device of what is written so far. */
    unsigned char chunk[4096];
    size_t done = sizeof(chunk) / pattern_size * pattern_size;
    done = done < nbytes ? done : nbytes;
    mt_pattern_fill_host(chunk, done, pattern, pattern_size);
    MT__ON_DEVICE(device, cudaMemcpyAsync(dst, chunk, done, cudaMemcpyHostToDevice, s), e);
    while (e == cudaSuccess && done < nbytes) {
        size_t n = nbytes - done < done ? nbytes - done : done;
        MT__ON_DEVICE(device,
                      cudaMemcpyAsync((char *)dst + done, dst, n, cudaMemcpyDeviceToDevice, s), e);
        done += n;
    }
    return mt__finish(device, stream, non_blocking, e, "cudaMemcpyAsync");
}

static int
mt__cuda_copy_h2d(void *ctx, int device, void *dst, const void *src, size_t nbytes,
                  void *stream, bool non_blocking)
{
    (void)ctx;
    cudaError_t e;
    MT__ON_DEVICE(device,
                  cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, (cudaStream_t)stream),
                  e);
    return mt__finish(device, stream, non_blocking, e, "cudaMemcpyAsync");
}

static int
mt__cuda_copy_d2h(void *ctx, int device, void *dst, const void *src, size_t nbytes,
                  void *stream, bool non_blocking)
{
    (void)ctx;
    cudaError_t e;
    MT__ON_DEVICE(device,
                  cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, (cudaStream_t)stream),
                  e);
    return mt__finish(device, stream, non_blocking, e, "cudaMemcpyAsync");
}

static int
mt__cuda_copy_d2d(void *ctx, int dst_device, void *dst, int src_device, const void *src,
                  size_t nbytes, void *stream, bool non_blocking)
{
    (void)ctx;
    cudaError_t e;
    cudaStream_t s = (cudaStream_t)stream;
    if (dst_device == src_device) {
        MT__ON_DEVICE(src_device, cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, s),
                      e);
    }
    else {
        MT__ON_DEVICE(src_device, cudaMemcpyPeerAsync(dst, dst_device, src, src_device, nbytes, s),
                      e);
    }
    return mt__finish(src_device, stream, non_blocking, e, "cudaMemcpyAsync");
}

/* ---- streams and events (Note [CUDA streams]) ---- */

#define MT__POOL_SIZE 32

typedef struct {
    _Atomic bool made;
    _Atomic unsigned next;
    cudaStream_t streams[MT__POOL_SIZE];
} mt__pool;

static mt__pool mt__pools[MT_CUDA_MAX_DEVICES][2];
static pthread_mutex_t mt__pool_mu = PTHREAD_MUTEX_INITIALIZER;

int
mt_cuda_stream_priority_range(int *least, int *greatest)
{
    if (mt_cuda_device_count() == 0) {
        return mt_error_set(MT_ERUNTIME, "%s", mt_cuda_unavailable_message());
    }
    cudaError_t e = cudaDeviceGetStreamPriorityRange(least, greatest);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaDeviceGetStreamPriorityRange");
}

int
mt_cuda_stream_acquire(int device, int priority, void **stream)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    mt__pool *pool = &mt__pools[device][priority < 0 ? 1 : 0];
    if (!atomic_load_explicit(&pool->made, memory_order_acquire)) {
        pthread_mutex_lock(&mt__pool_mu);
        if (!atomic_load_explicit(&pool->made, memory_order_relaxed)) {
            int least = 0, greatest = 0;
            cudaError_t e = cudaDeviceGetStreamPriorityRange(&least, &greatest);
            int prio = priority < 0 ? greatest : least;
            for (int i = 0; e == cudaSuccess && i < MT__POOL_SIZE; i++) {
                MT__ON_DEVICE(device,
                              cudaStreamCreateWithPriority(&pool->streams[i],
                                                           cudaStreamNonBlocking, prio),
                              e);
                if (e != cudaSuccess) {
                    while (i-- > 0) {
                        (void)cudaStreamDestroy(pool->streams[i]);
                    }
                }
            }
            if (e != cudaSuccess) {
                pthread_mutex_unlock(&mt__pool_mu);
                return mt__cuda_error(e, "cudaStreamCreateWithPriority");
            }
            atomic_store_explicit(&pool->made, true, memory_order_release);
        }
        pthread_mutex_unlock(&mt__pool_mu);
    }
    unsigned i = atomic_fetch_add_explicit(&pool->next, 1, memory_order_relaxed);
    *stream = pool->streams[i % MT__POOL_SIZE];
    return 0;
}

int
mt_cuda_stream_priority(void *stream, int device, int *priority)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaStreamGetPriority((cudaStream_t)stream, priority), e);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaStreamGetPriority");
}

int
mt_cuda_stream_query(void *stream, int device)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaStreamQuery((cudaStream_t)stream), e);
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return 0;
    }
    return e == cudaSuccess ? 1 : mt__cuda_error(e, "cudaStreamQuery");
}

int
mt_cuda_stream_synchronize(void *stream, int device)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaStreamSynchronize((cudaStream_t)stream), e);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaStreamSynchronize");
}

int
mt_cuda_stream_wait_event(void *stream, int device, void *event)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaStreamWaitEvent((cudaStream_t)stream, (cudaEvent_t)event, 0), e);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaStreamWaitEvent");
}

int
mt_cuda_device_properties(int device, mt_cuda_device_props *out)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess) {
        return mt__cuda_error(e, "cudaGetDeviceProperties");
    }
    mt_cuda_device_props r;
    memset(&r, 0, sizeof(r));
    snprintf(r.name, sizeof(r.name), "%s", p.name);
    r.major = p.major;
    r.minor = p.minor;
    r.total_memory = (int64_t)p.totalGlobalMem;
    r.multi_processor_count = p.multiProcessorCount;
    r.max_threads_per_multi_processor = p.maxThreadsPerMultiProcessor;
    r.regs_per_multiprocessor = p.regsPerMultiprocessor;
    r.warp_size = p.warpSize;
    r.l2_cache_size = p.l2CacheSize;
    r.shared_memory_per_block = (int64_t)p.sharedMemPerBlock;
    r.shared_memory_per_block_optin = (int64_t)p.sharedMemPerBlockOptin;
    r.shared_memory_per_multiprocessor = (int64_t)p.sharedMemPerMultiprocessor;
    r.is_integrated = p.integrated;
    r.is_multi_gpu_board = p.isMultiGpuBoard;
    r.pci_bus_id = p.pciBusID;
    r.pci_device_id = p.pciDeviceID;
    r.pci_domain_id = p.pciDomainID;
    memcpy(r.uuid, &p.uuid, sizeof(r.uuid));
    *out = r;
    return 0;
}

int
mt_cuda_device_synchronize(int device)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaDeviceSynchronize(), e);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaDeviceSynchronize");
}

int
mt_cuda_event_create(int device, unsigned flags, void **event)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    unsigned f = cudaEventDefault;
    if (!(flags & MT_CUDA_EVENT_TIMING)) {
        f |= cudaEventDisableTiming;
    }
    if (flags & MT_CUDA_EVENT_BLOCKING) {
        f |= cudaEventBlockingSync;
    }
    if (flags & MT_CUDA_EVENT_INTERPROCESS) {
        f |= cudaEventInterprocess | cudaEventDisableTiming;
    }
    cudaEvent_t ev = NULL;
    cudaError_t e;
    MT__ON_DEVICE(device, cudaEventCreateWithFlags(&ev, f), e);
    if (e != cudaSuccess) {
        return mt__cuda_error(e, "cudaEventCreateWithFlags");
    }
    *event = ev;
    return 0;
}

void
mt_cuda_event_destroy(void *event, int device)
{
    if (event == NULL || device < 0 || device >= mt_cuda_device_count()) {
        return;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaEventDestroy((cudaEvent_t)event), e);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* at exit the context may be gone already */
    }
}

int
mt_cuda_event_record(void *event, void *stream, int device)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaEventRecord((cudaEvent_t)event, (cudaStream_t)stream), e);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaEventRecord");
}

int
mt_cuda_event_query(void *event, int device)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaEventQuery((cudaEvent_t)event), e);
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return 0;
    }
    return e == cudaSuccess ? 1 : mt__cuda_error(e, "cudaEventQuery");
}

int
mt_cuda_event_synchronize(void *event, int device)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaEventSynchronize((cudaEvent_t)event), e);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaEventSynchronize");
}

int
mt_cuda_event_elapsed_ms(void *start, void *end, int device, float *ms)
{
    int rc = mt__check(device);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e;
    MT__ON_DEVICE(device, cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)end), e);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaEventElapsedTime");
}

/* ---- page-locked host memory (the backend of cuda_host_alloc.c) ---- */

int
mt_cuda_host_malloc(size_t nbytes, void **out)
{
    int rc = mt__check(0); /* any device: the error without one */
    if (rc < 0) {
        return rc;
    }
    void *p = NULL;
    cudaError_t e = cudaHostAlloc(&p, nbytes, cudaHostAllocDefault);
    if (e != cudaSuccess) {
        return mt__cuda_error(e, "cudaHostAlloc");
    }
    *out = p;
    return 0;
}

void
mt_cuda_host_release(void *ptr)
{
    if (ptr != NULL && cudaFreeHost(ptr) != cudaSuccess) {
        (void)cudaGetLastError(); /* nothing to report to: the block is gone either way */
    }
}

int
mt_cuda_host_register(void *ptr, size_t nbytes)
{
    int rc = mt__check(0);
    if (rc < 0) {
        return rc;
    }
    cudaError_t e = cudaHostRegister(ptr, nbytes, cudaHostRegisterDefault);
    return e == cudaSuccess ? 0 : mt__cuda_error(e, "cudaHostRegister");
}

void
mt_cuda_host_unregister(void *ptr)
{
    if (ptr != NULL && cudaHostUnregister(ptr) != cudaSuccess) {
        (void)cudaGetLastError(); /* not registered (any more): nothing to undo */
    }
}

bool
mt_cuda_host_is_pinned(const void *ptr)
{
    if (ptr == NULL || mt_cuda_device_count() == 0) {
        return false;
    }
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return a.type == cudaMemoryTypeHost;
}

#else /* no CUDA built in: no device, and every request says so */

int
mt_cuda_device_count(void)
{
    return 0;
}

const char *
mt_cuda_unavailable_message(void)
{
    return "Torch not compiled with CUDA enabled";
}

static int
mt__unavailable(void)
{
    return mt_error_set(MT_ERUNTIME, "%s", mt_cuda_unavailable_message());
}

mt_cuda_alloc *
mt_cuda_allocator(void)
{
    mt__unavailable();
    return NULL;
}

mt_cuda_alloc *
mt_cuda_allocator_if_created(void)
{
    return NULL;
}

static int
mt__cuda_alloc(void *ctx, int device, void *stream, size_t nbytes, void **out)
{
    return mt__unavailable();
}

static void
mt__cuda_free(void *ctx, void *ptr)
{
}

static int
mt__cuda_fill(void *ctx, int device, void *dst, size_t nbytes, const void *pattern,
              size_t pattern_size, void *stream, bool non_blocking)
{
    return mt__unavailable();
}

static int
mt__cuda_copy_h2d(void *ctx, int device, void *dst, const void *src, size_t nbytes,
                  void *stream, bool non_blocking)
{
    return mt__unavailable();
}

static int
mt__cuda_copy_d2h(void *ctx, int device, void *dst, const void *src, size_t nbytes,
                  void *stream, bool non_blocking)
{
    return mt__unavailable();
}

static int
mt__cuda_copy_d2d(void *ctx, int dst_device, void *dst, int src_device, const void *src,
                  size_t nbytes, void *stream, bool non_blocking)
{
    return mt__unavailable();
}

int
mt_cuda_stream_acquire(int device, int priority, void **stream)
{
    return mt__unavailable();
}

int
mt_cuda_stream_priority_range(int *least, int *greatest)
{
    return mt__unavailable();
}

int
mt_cuda_stream_priority(void *stream, int device, int *priority)
{
    return mt__unavailable();
}

int
mt_cuda_stream_query(void *stream, int device)
{
    return mt__unavailable();
}

int
mt_cuda_stream_synchronize(void *stream, int device)
{
    return mt__unavailable();
}

int
mt_cuda_stream_wait_event(void *stream, int device, void *event)
{
    return mt__unavailable();
}

int
mt_cuda_device_properties(int device, mt_cuda_device_props *out)
{
    (void)device;
    (void)out;
    return mt__unavailable();
}

int
mt_cuda_device_synchronize(int device)
{
    return mt__unavailable();
}

int
mt_cuda_event_create(int device, unsigned flags, void **event)
{
    return mt__unavailable();
}

void
mt_cuda_event_destroy(void *event, int device)
{
}

int
mt_cuda_event_record(void *event, void *stream, int device)
{
    return mt__unavailable();
}

int
mt_cuda_event_query(void *event, int device)
{
    return mt__unavailable();
}

int
mt_cuda_event_synchronize(void *event, int device)
{
    return mt__unavailable();
}

int
mt_cuda_event_elapsed_ms(void *start, void *end, int device, float *ms)
{
    return mt__unavailable();
}
int
mt_cuda_host_malloc(size_t nbytes, void **out)
{
    return mt__unavailable();
}

void
mt_cuda_host_release(void *ptr)
{
}

int
mt_cuda_host_register(void *ptr, size_t nbytes)
{
    return mt__unavailable();
}

void
mt_cuda_host_unregister(void *ptr)
{
}

bool
mt_cuda_host_is_pinned(const void *ptr)
{
    return false;
}
#endif

const mt_allocator mt_cuda_device_allocator = {
    .name = "cuda",
    .resolve_device = mt__cuda_resolve,
    .current_stream = mt__cuda_current_stream,
    .alloc = mt__cuda_alloc,
    .free = mt__cuda_free,
    .fill = mt__cuda_fill,
    .copy_h2d = mt__cuda_copy_h2d,
    .copy_d2h = mt__cuda_copy_d2h,
    .copy_d2d = mt__cuda_copy_d2d,
    .ctx = NULL,
};
