/* c10_lite/cuda_host_alloc.h - cached page-locked host memory for asynchronous copies. */
#ifndef C10_LITE_CUDA_HOST_ALLOC_H
#define C10_LITE_CUDA_HOST_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "c10_lite/storage.h"

/* Note [Pinned host memory]
 * Page-locked ("pinned") host memory is what lets cudaMemcpyAsync run without the host:
 * Tensor.pin_memory() and the DataLoader's pin_memory=True put tensors there, and a
 * non_blocking copy between such a tensor and a device returns at once.  cudaHostAlloc and
 * cudaFreeHost are slow (pages are mapped, and cudaFreeHost waits for every device), so the
 * blocks are cached, as torch's CachingHostAllocator does:
 *  - sizes are rounded up to a power of two (4 KiB at least); a freed block goes back to the
 *    cache and the next request of its size takes it;
 *  - but not while a copy may still use it: every non_blocking copy from or to pinned memory
 *    records an event on its stream against the block (mt_cuda_host_record_use), and a cached
 *    block is handed out again only once all its events have completed (queried, never
 *    waited for), so freeing a tensor whose asynchronous copy is in flight is safe;
 *  - blocks go back to the runtime only through mt_cuda_host_empty_cache (torch's
 *    _host_emptyCache), which keeps the ones in use or still awaited.
 *  - host memory that is not the cache's can be page-locked in place (mt_cuda_host_register:
 *    the DataLoader registers each batch slab it maps, Note [Batch slabs]); such a range is
 *    entered as a block that is never handed out, so copies record their events against it
 *    as against any pinned block, and mt_cuda_host_wait_uses lets its owner wait for them
 *    before the memory is written again (a slab region going back to its worker) or
 *    unregistered.
 * Ownership: the cache owns every block and its events; a storage over a block holds it
 * through mt_storage_new_pinned (its deleter is mt__cuda_host_free).  One mutex guards the
 * cache; lookups are a scan of the blocks (a process holds tens of them). */

/* A new CPU storage of nbytes in pinned memory (resizable: no; shareable with workers: no).
 * Caller owns it; NULL with MT_ERUNTIME (no device: torch's message) or MT_ENOMEM. */
mt_storage *mt_storage_new_pinned(size_t nbytes);
/* Whether ptr lies in pinned memory (ours or any the runtime knows); false without a device. */
bool mt_cuda_host_is_pinned_ptr(const void *ptr);
/* After queueing an asynchronous copy that reads or writes [ptr, ...) on `stream` of `device`:
 * records an event there against the cached block holding ptr, so the block is not handed out
 * again before the copy is done.  0 (nothing to do when ptr is not in a cached block), or a
 * negative code (the event could not be recorded: the caller must then synchronise). */
int mt_cuda_host_record_use(const void *ptr, void *stream, int device);
/* Page-locks [ptr, ptr + nbytes) in place and enters it as a registered block (0 when ptr
 * starts one already), or a negative code (no device; the runtime refused).  The caller keeps
 * the memory mapped until mt_cuda_host_unregister_range(ptr). */
int mt_cuda_host_register_range(void *ptr, size_t nbytes);
/* Waits for the copies recorded against the registered block that starts at ptr, then
 * unregisters it (nothing when ptr starts none).  Cannot fail. */
void mt_cuda_host_unregister_range(void *ptr);
/* Blocks until every copy recorded against the block holding ptr has completed (at once when
 * none is pending or ptr is in no block).  Cannot fail: an event that cannot be waited for
 * counts as done. */
void mt_cuda_host_wait_uses(const void *ptr);
/* Gives the cached blocks that are free and no longer awaited back to the runtime. */
void mt_cuda_host_empty_cache(void);
/* Bytes of pinned blocks held by the cache (in use or cached), and of those in use
 * (registered ranges are not the cache's and do not count). */
void mt_cuda_host_stats(size_t *reserved, size_t *allocated);

#endif /* C10_LITE_CUDA_HOST_ALLOC_H */
