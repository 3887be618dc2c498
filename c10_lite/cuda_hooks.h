/* c10_lite/cuda_hooks.h - what the core needs from the CUDA runtime (with or without CUDA built in). */
#ifndef C10_LITE_CUDA_HOOKS_H
#define C10_LITE_CUDA_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "c10_lite/allocator.h"
#include <stdint.h>

#include "c10_lite/cuda_alloc.h"

/* Number of usable CUDA devices, asked of the runtime once; 0 when CUDA is not built in, there
 * is no driver (or an old one), or no GPU.  Never an error. */
int mt_cuda_device_count(void);
/* Why there is no device (borrowed, static), in torch's words: "Torch not compiled with CUDA
 * enabled", "Found no NVIDIA driver on your system. ...", "No CUDA GPUs are available", ...;
 * NULL when there are devices.  Every CUDA request without a device fails with it
 * (MT_ERUNTIME). */
const char *mt_cuda_unavailable_message(void);
/* The process's caching allocator over the CUDA runtime (Note [Caching allocator]), made on
 * first use; NULL with MT_ERUNTIME when CUDA is not built in or there is no device. */
mt_cuda_alloc *mt_cuda_allocator(void);
/* The allocator when some call made it, else NULL (memory statistics before any CUDA use are
 * zeros, as torch's). */
mt_cuda_alloc *mt_cuda_allocator_if_created(void);
/* The registry's entry for CUDA memory (Note [Allocator registry]): blocks of
 * mt_cuda_allocator(), fills and copies through the runtime on a stream. */
extern const mt_allocator mt_cuda_device_allocator;

/* ---- streams, events, devices (Note [CUDA streams]) -------------------------------------------
 * Streams and events are the runtime's handles (cudaStream_t, cudaEvent_t) as void *; NULL is
 * the default stream.  `device` is an index from 0 to mt_cuda_device_count() - 1; the calls
 * run on it and restore the calling thread's runtime device.  Every call returns 0 (or what it
 * says) or a negative code with the error set: MT_ERUNTIME with mt_cuda_unavailable_message()
 * without a device, MT_EINVAL for a bad device, MT_ERUNTIME ("CUDA error: ...") when the runtime
 * fails. */

/* Note [CUDA streams]
 * As torch, streams are not made per Stream object: each device has a pool of 32 streams per
 * priority (low: 0, high: the device's greatest priority), made on first use, handed out round
 * robin and never destroyed, so a stream handle stays valid for the life of the process (the
 * per-thread current stream of cuda_state.h may hold one with no owner). */
/* *stream = the next stream of `device`'s pool for `priority` (0 or above: low; negative:
 * high). */
int mt_cuda_stream_acquire(int device, int priority, void **stream);
/* The least and greatest stream priorities of the runtime (greatest is the smallest number). */
int mt_cuda_stream_priority_range(int *least, int *greatest);
/* The priority a stream was made with. */
int mt_cuda_stream_priority(void *stream, int device, int *priority);
/* 1 when all work queued on stream has completed, 0 while some is pending, or a negative code. */
int mt_cuda_stream_query(void *stream, int device);
/* Waits for all work queued on stream (the GIL must be released by the caller). */
int mt_cuda_stream_synchronize(void *stream, int device);
/* Work queued on stream after this call waits for event's last record. */
int mt_cuda_stream_wait_event(void *stream, int device, void *event);
/* Waits for all work on device. */
int mt_cuda_device_synchronize(int device);

/* What torch.cuda.get_device_properties reports of a device. */
typedef struct mt_cuda_device_props {
    char name[256];
    int major, minor;                 /* compute capability */
    int64_t total_memory;             /* bytes */
    int multi_processor_count;
    int max_threads_per_multi_processor;
    int regs_per_multiprocessor;
    int warp_size;
    int64_t l2_cache_size;            /* bytes */
    int64_t shared_memory_per_block, shared_memory_per_block_optin,
        shared_memory_per_multiprocessor;
    int is_integrated, is_multi_gpu_board;
    int pci_bus_id, pci_device_id, pci_domain_id;
    unsigned char uuid[16];
} mt_cuda_device_props;
/* Fills *out for device (0 .. count - 1); on error (a bad index, no device) nothing is written. */
int mt_cuda_device_properties(int device, mt_cuda_device_props *out);

enum { MT_CUDA_EVENT_TIMING = 1, MT_CUDA_EVENT_BLOCKING = 2, MT_CUDA_EVENT_INTERPROCESS = 4 };
/* A new event on device with MT_CUDA_EVENT_* flags; *event owned by the caller
 * (mt_cuda_event_destroy). */
int mt_cuda_event_create(int device, unsigned flags, void **event);
/* Destroys an event of mt_cuda_event_create (NULL: nothing); cannot fail. */
void mt_cuda_event_destroy(void *event, int device);
/* Records event on stream (both of device). */
int mt_cuda_event_record(void *event, void *stream, int device);
/* 1 when the work before the event's record has completed, 0 while pending, or < 0. */
int mt_cuda_event_query(void *event, int device);
int mt_cuda_event_synchronize(void *event, int device);
/* *ms = milliseconds between two recorded timing events. */
int mt_cuda_event_elapsed_ms(void *start, void *end, int device, float *ms);

/* ---- page-locked ("pinned") host memory: the runtime's side of cuda_host_alloc.h ---- */
/* nbytes of page-locked host memory (cudaHostAlloc): 0 with *out owned by the caller (give it
 * back with mt_cuda_host_release), or a negative code (no device: torch's message). */
int mt_cuda_host_malloc(size_t nbytes, void **out);
/* Gives back a block of mt_cuda_host_malloc (NULL: nothing); waits for the devices' work, as
 * cudaFreeHost does.  Cannot fail. */
void mt_cuda_host_release(void *ptr);
/* Whether ptr lies in page-locked host memory the runtime knows (cudaPointerGetAttributes);
 * false without a device.  Never an error. */
bool mt_cuda_host_is_pinned(const void *ptr);
/* Page-locks [ptr, ptr + nbytes) of existing host memory (cudaHostRegister): 0, or a negative
 * code (no device: torch's message; the runtime's refusal, e.g. RLIMIT_MEMLOCK). */
int mt_cuda_host_register(void *ptr, size_t nbytes);
/* Undoes mt_cuda_host_register (cudaHostUnregister).  Cannot fail. */
void mt_cuda_host_unregister(void *ptr);

#endif /* C10_LITE_CUDA_HOOKS_H */
