/* c10_lite/cuda_alloc.h - the caching allocator for device memory: blocks freed by tensors are
 * kept for reuse instead of going back to the driver. */
#ifndef C10_LITE_CUDA_ALLOC_H
#define C10_LITE_CUDA_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* Note [Caching allocator]
 * cudaMalloc and cudaFree synchronise the device and cost tens of microseconds, so, as torch
 * does, freed device memory stays with the allocator and the next request of a similar size
 * takes it back without calling the driver: in a training loop, allocation in the steady state
 * never reaches cudaMalloc.
 *  - Sizes are rounded up: to 512 bytes below 1 MiB (the small pool), to 2 MiB above (the
 *    large pool); a request takes the smallest cached block of its pool that fits and is at
 *    most twice its rounded size (blocks are not split).
 *  - Blocks are per device and per stream: a block freed after use on stream S is only handed
 *    out again for work on S, where the kernels that used it are already queued before any
 *    new one, so no synchronisation is needed.  A block also used on other streams
 *    (record_stream, e.g. a tensor an NCCL stream reads) is not reused until an event recorded
 *    on each of those streams at free time has completed; such blocks wait in a pending list
 *    that every allocation polls.
 *  - When the driver is out of memory, the cached blocks of that device go back to it and the
 *    request is retried once; then it fails with torch's "CUDA out of memory" message.
 *  - memory_allocated counts the blocks in use (rounded sizes), memory_reserved every block
 *    the allocator holds from the driver; both keep a peak, reset by reset_peak.
 * The driver calls go through a backend (cuda_hooks.c: the CUDA runtime), so the caching
 * logic is plain C, tested without a GPU against a host-memory backend.  One mutex guards an
 * allocator: any thread may allocate and free. */

typedef struct mt_cuda_backend {
    /* device memory: 0, or a negative MT_E* code with the C error set (MT_ENOMEM when out
     * of memory) */
    int (*malloc)(void *ctx, int device, size_t nbytes, void **ptr);
    void (*free)(void *ctx, int device, void *ptr);
    /* an event recorded on `stream` of `device` now (*event owned by the caller) */
    int (*record_event)(void *ctx, int device, void *stream, void **event);
    /* 1 once the work before the event has completed, 0 while pending, < 0 on errors */
    int (*event_done)(void *ctx, void *event);
    void (*free_event)(void *ctx, void *event);
    void *ctx;
} mt_cuda_backend;

typedef struct mt_cuda_alloc mt_cuda_alloc;

typedef struct mt_cuda_alloc_stats {
    int64_t allocated, max_allocated; /* bytes in blocks in use */
    int64_t reserved, max_reserved;   /* bytes held from the driver */
    int64_t driver_mallocs;           /* calls to the backend's malloc that succeeded */
    int64_t driver_frees;
    int64_t cache_hits;               /* requests served from the cache */
    int64_t ooms;                     /* requests that failed for lack of memory */
} mt_cuda_alloc_stats;

/* An allocator for devices 0..num_devices-1 over `backend` (copied).  NULL + MT_ENOMEM. */
mt_cuda_alloc *mt_cuda_alloc_new(const mt_cuda_backend *backend, int num_devices);
/* Gives every block back to the driver (blocks still in use are leaked to it: their
 * tensors outlived the allocator) and frees the allocator. */
void mt_cuda_alloc_destroy(mt_cuda_alloc *a);
/* A block of at least nbytes on `device` for work on `stream` (NULL: the default stream).
 * nbytes 0 gives NULL and succeeds.  0 or a negative code (MT_EINVAL: bad device;
 * MT_ENOMEM: out of memory, with torch's message). */
int mt_cuda_alloc_malloc(mt_cuda_alloc *a, int device, void *stream, size_t nbytes, void **ptr);
/* Returns a block from mt_cuda_alloc_malloc to the cache (NULL: nothing).  MT_EINVAL for a
 * pointer the allocator did not hand out. */
int mt_cuda_alloc_free(mt_cuda_alloc *a, void *ptr);
/* The block holding ptr is also used by work on `stream`: when freed, it is not reused before
 * that work (queued up to the free) has completed.  MT_EINVAL for an unknown pointer. */
int mt_cuda_alloc_record_stream(mt_cuda_alloc *a, void *ptr, void *stream);
/* Gives the cached blocks that are not in use back to the driver (all devices). */
void mt_cuda_alloc_empty_cache(mt_cuda_alloc *a);
/* The device's counters (zeros for a bad device). */
void mt_cuda_alloc_get_stats(mt_cuda_alloc *a, int device, mt_cuda_alloc_stats *out);
/* max_allocated = allocated and max_reserved = reserved for the device. */
void mt_cuda_alloc_reset_peak(mt_cuda_alloc *a, int device);
/* The size a request of nbytes is rounded to (Note [Caching allocator]). */
size_t mt_cuda_alloc_round(size_t nbytes);

#endif /* C10_LITE_CUDA_ALLOC_H */
