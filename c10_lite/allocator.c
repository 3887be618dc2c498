/* c10_lite/allocator.c - the registry of allocators per device type (Note [Allocator registry])
 * and the CPU allocator. */
#include "c10_lite/allocator.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "c10_lite/cuda_hooks.h"
#include "c10_lite/error.h"

/* ---- the CPU allocator ------------------------------------------------------------------------ */

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MT__HAS_ASAN 1
#endif
#endif
#ifndef MT__HAS_ASAN
#define MT__HAS_ASAN 0
#endif

#define MT__CPU_ALIGN 64
/* Note [Huge pages]
 * Buffers of 32 MiB and more are 2 MiB aligned and marked MADV_HUGEPAGE:
 * glibc maps (and unmaps on free) every block above its largest mmap
 * threshold, so each new 64 MiB result would otherwise take 16384 page
 * faults, which dominate elementwise ops on big tensors.  Smaller blocks come
 * from malloc's reused heap, where huge pages only add compaction stalls. */
#define MT__HUGE_THRESHOLD (32u << 20)
#define MT__HUGE_ALIGN (2u << 20)

/* Note [Block cache]
 * glibc gives each thread that allocates an arena of its own, grown by heaps of 64 MiB; a block
 * that does not fit the arena's current heap opens a new heap, and when that block is freed
 * (by whichever thread) the emptied heap is unmapped at once.  So a thread that builds a block of
 * a few MiB again and again, such as a DataLoader worker thread stacking 24 MiB batches that the
 * main thread frees, maps every block anew and faults it in page by page: 4,400 page faults per
 * batch, 15% of the worker's time.  Freed blocks from 1 MiB up to the huge-page size
 * (Note [Huge pages]) therefore wait in a small cache, at most 4 blocks and 64 MiB in all
 * (the oldest go back to malloc first), and are handed out again to a
 * request they fit without wasting more than a quarter of the block.  The cache is global and
 * guarded by a mutex, held across fork so that a child never inherits it locked.  Under
 * AddressSanitizer there is no cache, so that a use after free is still caught. */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !MT__HAS_ASAN
#define MT__BLOCK_CACHE 1
#endif

#ifdef MT__BLOCK_CACHE
#define MT__CACHE_MIN (1u << 20)
#define MT__CACHE_SLOTS 4
#define MT__CACHE_BYTES ((size_t)64 << 20)

typedef struct {
    void *p;
    size_t size; /* malloc_usable_size of the block */
} mt__cached_block;

static pthread_mutex_t mt__cache_lock = PTHREAD_MUTEX_INITIALIZER;
static mt__cached_block mt__cache[MT__CACHE_SLOTS]; /* oldest first */
static int mt__cache_count;
static size_t mt__cache_total;
static pthread_once_t mt__cache_atfork_once = PTHREAD_ONCE_INIT;

static void
mt__cache_lock_for_fork(void)
{
    pthread_mutex_lock(&mt__cache_lock);
}

static void
mt__cache_unlock_after_fork(void)
{
    pthread_mutex_unlock(&mt__cache_lock);
}

static void
mt__cache_register_atfork(void)
{
    pthread_atfork(mt__cache_lock_for_fork, mt__cache_unlock_after_fork,
                   mt__cache_unlock_after_fork);
}

static void
mt__cache_remove(int i)
{
    mt__cache_total -= mt__cache[i].size;
    memmove(&mt__cache[i], &mt__cache[i + 1], (size_t)(mt__cache_count - i - 1) * sizeof *mt__cache);
    mt__cache_count--;
}

/* a cached block of at least nbytes and at most a third more (the smallest such), or NULL */
static void *
mt__cache_take(size_t nbytes)
{
    if (nbytes < MT__CACHE_MIN || nbytes >= MT__HUGE_THRESHOLD) {
        return NULL;
    }
    void *p = NULL;
    pthread_mutex_lock(&mt__cache_lock);
    int best = -1;
    for (int i = 0; i < mt__cache_count; i++) {
        size_t size = mt__cache[i].size;
        if (size >= nbytes && size - nbytes <= size / 4 &&
            (best < 0 || size < mt__cache[best].size)) {
            best = i;
        }
    }
    if (best >= 0) {
        p = mt__cache[best].p;
        mt__cache_remove(best);
    }
    pthread_mutex_unlock(&mt__cache_lock);
    return p;
}

/* keeps p (returns true), giving the oldest blocks back to make room, or leaves it (false) */
static bool
mt__cache_put(void *p)
{
    size_t size = malloc_usable_size(p);
    if (size < MT__CACHE_MIN || size >= MT__HUGE_THRESHOLD) {
        return false;
    }
    pthread_once(&mt__cache_atfork_once, mt__cache_register_atfork);
    void *evicted[MT__CACHE_SLOTS];
    int n_evicted = 0;
    pthread_mutex_lock(&mt__cache_lock);
    while (mt__cache_count > 0 &&
           (mt__cache_count == MT__CACHE_SLOTS || mt__cache_total + size > MT__CACHE_BYTES)) {
        evicted[n_evicted++] = mt__cache[0].p;
        mt__cache_remove(0);
    }
    mt__cache[mt__cache_count++] = (mt__cached_block){p, size};
    mt__cache_total += size;
    pthread_mutex_unlock(&mt__cache_lock);
    for (int i = 0; i < n_evicted; i++) {
        free(evicted[i]);
    }
    return true;
}
#endif

void *
mt_cpu_alloc(size_t nbytes)
{
    size_t align = nbytes >= MT__HUGE_THRESHOLD ? MT__HUGE_ALIGN : MT__CPU_ALIGN;
    size_t rounded = (nbytes + align - 1) & ~(size_t)(align - 1);
    if (rounded < nbytes) {
        mt_error_set(MT_ENOMEM, "CPU allocation of %zu bytes overflows", nbytes);
        return NULL;
    }
    void *p = NULL;
#ifdef MT__BLOCK_CACHE
    p = mt__cache_take(rounded);
    if (p != NULL) {
        return p;
    }
#endif
    p = aligned_alloc(align, rounded ? rounded : MT__CPU_ALIGN);
#ifdef MADV_HUGEPAGE
    if (p != NULL && align == MT__HUGE_ALIGN) {
        madvise(p, rounded, MADV_HUGEPAGE); /* a hint: failure is harmless */
    }
#endif
    if (p == NULL) {
        mt_error_set(MT_ENOMEM,
                     "DefaultCPUAllocator: not enough memory: you tried to allocate %zu bytes.",
                     nbytes);
    }
    return p;
}

void
mt_cpu_free(void *p)
{
#ifdef MT__BLOCK_CACHE
    if (p != NULL && mt__cache_put(p)) {
        return;
    }
#endif
    free(p);
}

/* Note [Heap reuse]
 * glibc serves blocks above its mmap threshold (128 KiB at first, raised as big blocks are
 * freed) by mmap and gives them back on free, and trims the heap's top once more than twice
 * that is free.  A training step frees and reallocates the same activation- and
 * gradient-sized blocks (a few hundred KiB to tens of MiB) every iteration, so each would be
 * mapped anew and fault in page by page: that was a third of a small MLP's step.  Below the
 * huge-page size (Note [Huge pages]) blocks therefore come from the heap and stay there once
 * freed, up to 256 MiB of free heap top.  Bigger blocks are still mapped and unmapped, so
 * freeing a big tensor still returns its memory.  MALLOC_MMAP_THRESHOLD_ /
 * MALLOC_TRIM_THRESHOLD_ in the environment keep the user's choice. */
void
mt_cpu_allocator_init(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    if (getenv("MALLOC_MMAP_THRESHOLD_") == NULL) {
        mallopt(M_MMAP_THRESHOLD, (int)MT__HUGE_THRESHOLD);
    }
    if (getenv("MALLOC_TRIM_THRESHOLD_") == NULL) {
        mallopt(M_TRIM_THRESHOLD, (int)(8 * MT__HUGE_THRESHOLD));
    }
#endif
}

void
mt_pattern_fill_host(void *dst, size_t nbytes, const void *pattern, size_t pattern_size)
{
    const unsigned char *p = pattern;
    size_t same = 1;
    while (same < pattern_size && p[same] == p[0]) {
        same++;
    }
    if (same == pattern_size) {
        memset(dst, p[0], nbytes);
        return;
    }
    /* one copy of the pattern, then doubling copies of what is written so far */
    char *d = dst;
    size_t done = nbytes < pattern_size ? nbytes : pattern_size;
    memcpy(d, p, done);
    while (done < nbytes) {
        size_t n = nbytes - done < done ? nbytes - done : done;
        memcpy(d + done, d, n);
        done += n;
    }
}

static int
mt__cpu_resolve(void *ctx, int index, int *out)
{
    (void)ctx;
    (void)index; /* 'cpu:1' is a valid device, but CPU memory is one device (torch) */
    *out = -1;
    return 0;
}

static void *
mt__cpu_stream(void *ctx, int device)
{
    (void)ctx;
    (void)device;
    return NULL;
}

static int
mt__cpu_alloc(void *ctx, int device, void *stream, size_t nbytes, void **out)
{
    (void)ctx;
    (void)device;
    (void)stream;
    void *p = mt_cpu_alloc(nbytes);
    if (p == NULL) {
        return MT_ENOMEM;
    }
    *out = p;
    return 0;
}

static void
mt__cpu_free(void *ctx, void *ptr)
{
    (void)ctx;
    mt_cpu_free(ptr);
}

static int
mt__cpu_fill(void *ctx, int device, void *dst, size_t nbytes, const void *pattern,
             size_t pattern_size, void *stream, bool non_blocking)
{
    (void)ctx;
    (void)device;
    (void)stream;
    (void)non_blocking;
    mt_pattern_fill_host(dst, nbytes, pattern, pattern_size);
    return 0;
}

static int
mt__cpu_copy(void *ctx, int device, void *dst, const void *src, size_t nbytes, void *stream,
             bool non_blocking)
{
    (void)ctx;
    (void)device;
    (void)stream;
    (void)non_blocking;
    if (nbytes != 0 && dst != src) {
        memmove(dst, src, nbytes);
    }
    return 0;
}

static int
mt__cpu_copy_d2d(void *ctx, int dst_device, void *dst, int src_device, const void *src,
                 size_t nbytes, void *stream, bool non_blocking)
{
    (void)src_device;
    return mt__cpu_copy(ctx, dst_device, dst, src, nbytes, stream, non_blocking);
}

static const mt_allocator mt__cpu_allocator = {
    .name = "cpu",
    .resolve_device = mt__cpu_resolve,
    .current_stream = mt__cpu_stream,
    .alloc = mt__cpu_alloc,
    .free = mt__cpu_free,
    .fill = mt__cpu_fill,
    .copy_h2d = mt__cpu_copy,
    .copy_d2h = mt__cpu_copy,
    .copy_d2d = mt__cpu_copy_d2d,
    .ctx = NULL,
};

/* ---- the registry ------------------------------------------------------------------------------- */

static _Atomic(const mt_allocator *) mt__registry[MT_NUM_DEVICE_TYPES] = {
    [MT_CPU] = &mt__cpu_allocator,
    [MT_CUDA] = &mt_cuda_device_allocator,
};

const mt_allocator *
mt_allocator_get(mt_device_type type)
{
    const mt_allocator *a = NULL;
    if ((unsigned)type < MT_NUM_DEVICE_TYPES) {
        a = atomic_load_explicit(&mt__registry[type], memory_order_acquire);
    }
    if (a == NULL) {
        mt_error_set(MT_ENOTIMPL, "no allocator is registered for device type '%s': memory on "
                                  "it is not supported",
                     mt_device_type_name(type));
    }
    return a;
}

const mt_allocator *
mt_allocator_register(mt_device_type type, const mt_allocator *a)
{
    if ((unsigned)type >= MT_NUM_DEVICE_TYPES) {
        return NULL;
    }
    return atomic_exchange_explicit(&mt__registry[type], a, memory_order_acq_rel);
}

int
mt_device_resolve(mt_device *d)
{
    const mt_allocator *a = mt_allocator_get(d->type);
    if (a == NULL) {
        return MT_ENOTIMPL;
    }
    int index;
    int rc = a->resolve_device(a->ctx, d->index, &index);
    if (rc < 0) {
        return rc;
    }
    d->index = index;
    return 0;
}

int
mt_bytes_fill(mt_device device, void *dst, size_t nbytes, const void *pattern,
              size_t pattern_size)
{
    if (pattern_size == 0 || pattern_size > 16 || nbytes % pattern_size != 0) {
        return mt_error_set(MT_EINVAL, "fill: a pattern of %zu bytes cannot fill %zu bytes",
                            pattern_size, nbytes);
    }
    if (nbytes == 0) {
        return 0;
    }
    const mt_allocator *a = mt_allocator_get(device.type);
    if (a == NULL) {
        return MT_ENOTIMPL;
    }
    return a->fill(a->ctx, device.index, dst, nbytes, pattern, pattern_size,
                   a->current_stream(a->ctx, device.index), true);
}

int
mt_bytes_copy(void *dst, mt_device dst_device, const void *src, mt_device src_device,
              size_t nbytes, bool non_blocking)
{
    if (nbytes == 0) {
        return 0;
    }
    if (dst_device.type == MT_CPU) {
        const mt_allocator *a = mt_allocator_get(src_device.type);
        if (a == NULL) {
            return MT_ENOTIMPL;
        }
        void *stream = a->current_stream(a->ctx, src_device.index);
        return a->copy_d2h(a->ctx, src_device.index, dst, src, nbytes, stream, non_blocking);
    }
    const mt_allocator *a = mt_allocator_get(dst_device.type);
    if (a == NULL) {
        return MT_ENOTIMPL;
    }
    if (src_device.type == MT_CPU) {
        void *stream = a->current_stream(a->ctx, dst_device.index);
        return a->copy_h2d(a->ctx, dst_device.index, dst, src, nbytes, stream, non_blocking);
    }
    if (src_device.type != dst_device.type) {
        return mt_error_set(MT_ENOTIMPL, "copies from %s to %s memory are not supported",
                            mt_device_type_name(src_device.type),
                            mt_device_type_name(dst_device.type));
    }
    void *stream = a->current_stream(a->ctx, src_device.index);
    return a->copy_d2d(a->ctx, dst_device.index, dst, src_device.index, src, nbytes, stream,
                       non_blocking);
}
