/* c10_lite/storage.c - refcounted buffers over the allocator registry (Note [Allocator registry]). */
#include "c10_lite/storage.h"

#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"

_Thread_local bool mt_inference_mode;
_Atomic int64_t mt_inference_live;

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

/* The deleter of memory from mt_storage_new: ctx is the allocator that made it. */
static void
mt__allocator_deleter(void *ctx, void *data)
{
    const mt_allocator *a = ctx;
    a->free(a->ctx, data);
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
    atomic_init(&s->resizable, false);
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
        return atomic_load_explicit(&s->resizable, memory_order_relaxed) &&
               mt_storage_resizable(s->deleter_ctx);
    }
    return atomic_load_explicit(&s->resizable, memory_order_relaxed);
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
    atomic_store_explicit(&s->resizable, true, memory_order_relaxed); /* as its target */
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
    atomic_store(&s->resizable, false);
}

/* New storage from the device type's allocator; *out_a = that allocator (borrowed). */
static mt_storage *
mt__storage_alloc(size_t nbytes, mt_device device, const mt_allocator **out_a)
{
    const mt_allocator *a = mt_allocator_get(device.type);
    if (a == NULL) {
        return NULL;
    }
    if (a->resolve_device(a->ctx, device.index, &device.index) < 0) {
        return NULL;
    }
    void *data = NULL;
    if (a->alloc(a->ctx, device.index, a->current_stream(a->ctx, device.index), nbytes, &data) <
        0) {
        return NULL;
    }
    mt_storage *s = mt_storage_from_blob(data, nbytes, device, mt__allocator_deleter, (void *)a);
    if (s == NULL) {
        a->free(a->ctx, data);
        return NULL;
    }
    atomic_store_explicit(&s->resizable, true, memory_order_relaxed);
    if (s->device.type == MT_CPU) {
        mt__cpu_net_bytes += (int64_t)nbytes; /* Note [CPU memory counter] */
    }
    *out_a = a;
    return s;
}

mt_storage *
mt_storage_new(size_t nbytes, mt_device device)
{
    const mt_allocator *a;
    return mt__storage_alloc(nbytes, device, &a);
}

mt_storage *
mt_storage_new_zeroed(size_t nbytes, mt_device device)
{
    const mt_allocator *a;
    mt_storage *s = mt__storage_alloc(nbytes, device, &a);
    if (s != NULL && nbytes != 0) {
        static const unsigned char zero = 0;
        int index = s->device.index;
        if (a->fill(a->ctx, index, s->data, nbytes, &zero, 1, a->current_stream(a->ctx, index),
                    true) < 0) {
            mt_storage_decref(s);
            return NULL;
        }
    }
    return s;
}

int
mt_storage_copy_bytes(mt_storage *dst, size_t dst_offset, const mt_storage *src,
                      size_t src_offset, size_t nbytes)
{
    if (dst_offset > dst->nbytes || nbytes > dst->nbytes - dst_offset ||
        src_offset > src->nbytes || nbytes > src->nbytes - src_offset) {
        return mt_error_set(MT_EINVAL,
                            "storage copy of %zu bytes out of bounds (from byte %zu of %zu to "
                            "byte %zu of %zu)",
                            nbytes, src_offset, src->nbytes, dst_offset, dst->nbytes);
    }
    if (nbytes == 0) {
        return 0;
    }
    return mt_bytes_copy((char *)dst->data + dst_offset, dst->device,
                         (const char *)src->data + src_offset, src->device, nbytes, false);
}

void
mt_storage_decref(mt_storage *s)
{
    if (s == NULL) {
        return;
    }
    if (atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) == 1) {
        if (s->deleter == mt__allocator_deleter && s->device.type == MT_CPU) {
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
