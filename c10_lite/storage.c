/* c10_lite/storage.c - refcounted buffers and the CPU allocator. */
#include "c10_lite/storage.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "c10_lite/error.h"

_Thread_local bool mt_inference_mode;
_Atomic int64_t mt_inference_live;

#define MT__CPU_ALIGN 64
/* Note [Huge pages]
 * Buffers of 32 MiB and more are 2 MiB aligned and marked MADV_HUGEPAGE:
 * glibc maps (and unmaps on free) every block above its largest mmap
 * threshold, so each new 64 MiB result would otherwise take 16384 page
 * faults, which dominate elementwise ops on big tensors.  Smaller blocks come
 * from malloc's reused heap, where huge pages only add compaction stalls. */
#define MT__HUGE_THRESHOLD (32u << 20)
#define MT__HUGE_ALIGN (2u << 20)

void *
mt_cpu_alloc(size_t nbytes)
{
    size_t align = nbytes >= MT__HUGE_THRESHOLD ? MT__HUGE_ALIGN : MT__CPU_ALIGN;
    size_t rounded = (nbytes + align - 1) & ~(size_t)(align - 1);
    if (rounded < nbytes) {
        mt_error_set(MT_ENOMEM, "CPU allocation of %zu bytes overflows", nbytes);
        return NULL;
    }
    void *p = aligned_alloc(align, rounded ? rounded : MT__CPU_ALIGN);
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

/* Note [CPU memory counter]
 * Each thread counts the bytes of the CPU storages it allocated minus those it freed (a
 * storage is counted by the thread that drops its last reference), so that the profiler's
 * profile_memory can tell what an op allocated: the difference of the count after and before
 * it, as torch's allocator reports to its profiler.  Buffers the allocator does not own
 * (from_blob: NumPy arrays, shared memory) are not counted. */
static _Thread_local int64_t mt__cpu_net_bytes;

int64_t
mt_storage_cpu_net_bytes(void)
{
    return mt__cpu_net_bytes;
}

static void
mt__cpu_deleter(void *ctx, void *data)
{
    (void)ctx;
    mt_cpu_free(data);
}

mt_storage *
mt_storage_from_blob(void *data, size_t nbytes, mt_device device, mt_deleter_fn deleter,
                     void *deleter_ctx)
{
    mt_storage *s = malloc(sizeof(*s));
    if (s == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory allocating a storage");
        return NULL;
    }
    atomic_init(&s->refcount, 1);
    s->data = data;
    s->nbytes = nbytes;
    s->device = device;
    if (device.type == MT_CPU) {
        s->device.index = -1; /* 'cpu:1' is a valid device, but CPU memory is one device (torch) */
    }
    s->deleter = deleter;
    s->deleter_ctx = deleter_ctx;
    atomic_init(&s->fixed, false);
    atomic_init(&s->version, 0);
    s->shared = NULL;
    s->inference = mt_inference_mode;
    if (s->inference) {
        atomic_fetch_add_explicit(&mt_inference_live, 1, memory_order_relaxed);
    }
    return s;
}

static void
mt__alias_deleter(void *ctx, void *data)
{
    (void)data;
    mt_storage_decref(ctx);
}

bool
mt_storage_resizable(const mt_storage *s)
{
    if (s->deleter == mt__alias_deleter) {
        /* growing copies into a new storage: as fine as for the target itself */
        return !atomic_load(&s->fixed) && mt_storage_resizable(s->deleter_ctx);
    }
    return s->deleter == mt__cpu_deleter && !atomic_load(&s->fixed);
}

static void
mt__version_counter_decref(mt_version_counter *c)
{
    if (c != NULL && atomic_fetch_sub_explicit(&c->refcount, 1, memory_order_acq_rel) == 1) {
        free(c);
    }
}

int
mt_storage_share_version(mt_storage *to, mt_storage *from)
{
    if (from->shared == NULL) {
        mt_version_counter *c = malloc(sizeof(*c));
        if (c == NULL) {
            return mt_error_set(MT_ENOMEM, "out of memory allocating a version counter");
        }
        atomic_init(&c->refcount, 1);
        atomic_init(&c->value, atomic_load_explicit(&from->version, memory_order_relaxed));
        from->shared = c;
    }
    if (to->shared != from->shared) {
        atomic_fetch_add_explicit(&from->shared->refcount, 1, memory_order_relaxed);
        mt__version_counter_decref(to->shared);
        to->shared = from->shared;
    }
    return 0;
}

mt_storage *
mt_storage_alias(mt_storage *target, mt_storage *counter_of)
{
    mt_storage *s = mt_storage_from_blob(target->data, target->nbytes, target->device,
                                         mt__alias_deleter, target);
    if (s == NULL) {
        return NULL;
    }
    mt_storage_incref(target);
    if (s->inference != target->inference) {
        atomic_fetch_add_explicit(&mt_inference_live, target->inference ? 1 : -1,
                                  memory_order_relaxed);
        s->inference = target->inference;
    }
    if (mt_storage_share_version(s, counter_of) < 0) {
        mt_storage_decref(s);
        return NULL;
    }
    return s;
}

void
mt_storage_fix(mt_storage *s)
{
    atomic_store(&s->fixed, true);
}

mt_storage *
mt_storage_new(size_t nbytes, mt_device device)
{
    if (device.type != MT_CPU) {
        mt_error_set(MT_ENOTIMPL,
                     "storage on device type '%s' is not implemented yet (only cpu tensors are)",
                     mt_device_type_name(device.type));
        return NULL;
    }
    void *data = mt_cpu_alloc(nbytes);
    if (data == NULL) {
        return NULL;
    }
    mt_storage *s = mt_storage_from_blob(data, nbytes, device, mt__cpu_deleter, NULL);
    if (s == NULL) {
        mt_cpu_free(data);
        return NULL;
    }
    mt__cpu_net_bytes += (int64_t)nbytes; /* Note [CPU memory counter] */
    return s;
}

mt_storage *
mt_storage_new_zeroed(size_t nbytes, mt_device device)
{
    mt_storage *s = mt_storage_new(nbytes, device);
    if (s != NULL) {
        memset(s->data, 0, nbytes);
    }
    return s;
}

void
mt_storage_decref(mt_storage *s)
{
    if (s == NULL) {
        return;
    }
    if (atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) == 1) {
        if (s->deleter == mt__cpu_deleter) {
            mt__cpu_net_bytes -= (int64_t)s->nbytes; /* Note [CPU memory counter] */
        }
        if (s->deleter != NULL) {
            s->deleter(s->deleter_ctx, s->data);
        }
        if (s->inference) {
            atomic_fetch_sub_explicit(&mt_inference_live, 1, memory_order_relaxed);
        }
        mt__version_counter_decref(s->shared);
        free(s);
    }
}
