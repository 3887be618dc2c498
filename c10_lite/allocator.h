/* c10_lite/allocator.h - one allocator per device type: how bytes on that device are made, freed,
 * filled and copied (Note [Allocator registry]). */
#ifndef C10_LITE_ALLOCATOR_H
#define C10_LITE_ALLOCATOR_H

#include <stdbool.h>
#include <stddef.h>

#include "c10_lite/device.h"

/* Note [Allocator registry]
 * Code above the runtimes (storage.c, the copy and fill stubs) never calls a device's runtime
 * itself: it looks up the allocator of the device type and calls its vtable.
 *   - cpu: 64-byte aligned heap blocks (Notes [Huge pages] and [Heap reuse] in storage.c);
 *     fill and copies are memset/memcpy; streams are ignored and every call is synchronous.
 *   - cuda (cuda_hooks.c): blocks of the caching allocator (Note [Caching allocator]) for a
 *     stream; fills and copies are cudaMemsetAsync/cudaMemcpyAsync on the stream, followed by
 *     a cudaStreamSynchronize unless non_blocking.  Without CUDA built in, or with no device,
 *     resolve_device fails with the message torch gives (mt_cuda_unavailable_message), so a
 *     CUDA request is a RuntimeError, never a crash.
 * Both entries are in the table before main runs; mt_allocator_register adds a device type's
 * entry or replaces one (an emulated device, a test's fake device).  A storage made by an
 * allocator remembers it (its deleter context) and is freed by that one, so replacing an
 * entry never frees a block through the wrong allocator; a vtable must outlive the storages
 * it made (in practice: static).
 * "Host" below means memory the CPU can address (pageable or pinned); "device" means memory
 * of the entry's device type.  Device indices given to the vtable are resolved (>= 0; -1 for
 * the CPU).  A NULL stream is the device's default stream. */
typedef struct mt_allocator {
    const char *name; /* the device type's name, for messages */
    /* *out = the index `index` names: -1 means the calling thread's current device.  0, or
     * MT_ERUNTIME (no such device, or the type has no usable device: torch's messages) with
     * the error set and *out untouched. */
    int (*resolve_device)(void *ctx, int index, int *out);
    /* The calling thread's current stream on `device` (NULL: the default stream). */
    void *(*current_stream)(void *ctx, int device);
    /* nbytes on `device` for work on `stream`: 0 with *out owned by the caller (free it with
     * `free`; nbytes 0 may give NULL), or MT_ENOMEM / MT_ERUNTIME with *out untouched. */
    int (*alloc)(void *ctx, int device, void *stream, size_t nbytes, void **out);
    /* Gives back a block `alloc` returned (NULL: nothing).  Cannot fail; any thread. */
    void (*free)(void *ctx, void *ptr);
    /* dst[0, nbytes) = `pattern` (pattern_size bytes, 1 to 16, dividing nbytes; host memory,
     * read before the call returns) repeated, ordered on `stream`. */
    int (*fill)(void *ctx, int device, void *dst, size_t nbytes, const void *pattern,
                size_t pattern_size, void *stream, bool non_blocking);
    /* nbytes from host `src` to `dst` on `device`, ordered on `stream`.  With non_blocking the
     * call may return before the copy is done: `src` must then stay valid and unchanged
     * until the stream reaches it (pinned memory is needed for real asynchrony). */
    int (*copy_h2d)(void *ctx, int device, void *dst, const void *src, size_t nbytes,
                    void *stream, bool non_blocking);
    /* nbytes from `src` on `device` to host `dst`, ordered on `stream` (see copy_h2d). */
    int (*copy_d2h)(void *ctx, int device, void *dst, const void *src, size_t nbytes,
                    void *stream, bool non_blocking);
    /* nbytes between two devices of this type (the same device or peers), ordered on
     * `stream` (a stream of src_device). */
    int (*copy_d2d)(void *ctx, int dst_device, void *dst, int src_device, const void *src,
                    size_t nbytes, void *stream, bool non_blocking);
    void *ctx;
} mt_allocator;

/* The entry of a device type (borrowed, static), or NULL when none is registered (then
 * MT_ENOTIMPL is set, naming the type). */
const mt_allocator *mt_allocator_get(mt_device_type type);
/* Makes `a` (borrowed; must outlive every storage it makes) the entry of `type` and returns
 * the previous one (NULL: none).  a NULL removes the entry.  Call it before other threads use
 * the type. */
const mt_allocator *mt_allocator_register(mt_device_type type, const mt_allocator *a);

/* *d with its index resolved by its type's entry (CUDA "cuda" -> the current device): 0, or a
 * negative code (no entry: MT_ENOTIMPL; no such device or none at all: see resolve_device)
 * with *d untouched. */
int mt_device_resolve(mt_device *d);

/* Fills nbytes at dst on `device` (resolved: index >= 0, or the CPU) with `pattern` repeated
 * (see the vtable's fill), on the device's current stream: asynchronous on devices (later work
 * on that stream sees it), done on return on the CPU.  0 or a negative code. */
int mt_bytes_fill(mt_device device, void *dst, size_t nbytes, const void *pattern,
                  size_t pattern_size);
/* Copies nbytes from src on src_device to dst on dst_device (either may be the CPU; devices
 * resolved), ordered on the current stream of the non-CPU device (the source's for two
 * devices); synchronous unless non_blocking.  MT_ENOTIMPL between two different non-CPU
 * device types.  0 or a negative code. */
int mt_bytes_copy(void *dst, mt_device dst_device, const void *src, mt_device src_device,
                  size_t nbytes, bool non_blocking);

/* The CPU allocator's blocks, also for scratch buffers: mt_cpu_alloc returns 64-byte aligned
 * memory (caller owns it, give it back with mt_cpu_free) or NULL + MT_ENOMEM; size 0 is fine. */
void *mt_cpu_alloc(size_t nbytes);
void mt_cpu_free(void *p);
/* Sets the C heap's policy for tensor-sized blocks (see Note [Heap reuse]); once, at start. */
void mt_cpu_allocator_init(void);
/* Host memory dst[0, nbytes) = pattern (pattern_size bytes dividing nbytes) repeated. */
void mt_pattern_fill_host(void *dst, size_t nbytes, const void *pattern, size_t pattern_size);

#endif /* C10_LITE_ALLOCATOR_H */
