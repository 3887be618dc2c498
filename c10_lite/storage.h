/* c10_lite/storage.h - an atomically refcounted byte buffer with a device and an owner. */
#ifndef C10_LITE_STORAGE_H
#define C10_LITE_STORAGE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "c10_lite/device.h"

/* Called exactly once, when the last reference goes away, to give the bytes
 * back to whoever owns them.  May run on any thread (e.g. a distributed worker
 * thread), so a deleter that touches Python must take the GIL itself. */
typedef void (*mt_deleter_fn)(void *ctx, void *data);

/* Note [Storage ownership]
 * A storage owns one reference to its bytes, expressed as (deleter, ctx):
 *   - memory from mt_storage_new: the CPU allocator's free;
 *   - borrowed memory (a NumPy array, shared memory, another library's buffer):
 *     the deleter releases the lender (e.g. Py_DECREF of the ndarray).
 * Tensors hold one storage reference each; the storage dies with the last one.
 * `nbytes` never changes after construction; `data` (with the deleter) changes
 * only when mt_storage_share_ moves the bytes into shared memory, in place, as
 * torch's share_memory_ does (see Note [Shared memory]).  Otherwise any thread
 * may read them without locks; the refcount is atomic. */
typedef struct mt_storage {
    _Atomic int64_t refcount;
    void *data;
    size_t nbytes;
    mt_device device;
    mt_deleter_fn deleter; /* NULL: nothing to free (static or zero-size) */
    void *deleter_ctx;
    _Atomic bool fixed; /* set once its bytes are shared outside (a NumPy array): never resized */
    /* in-place writes through any tensor of this storage (autograd's version counter: a
     * tensor saved for backward remembers it, see Note [Saved tensors] in autograd/) */
    _Atomic uint64_t version;
} mt_storage;

/* New storage of `nbytes` uninitialised bytes from the device's allocator (64-byte
 * aligned on the CPU).  Caller owns the returned reference; NULL + MT_ENOMEM
 * or MT_ENOTIMPL (device without an allocator) on failure. */
mt_storage *mt_storage_new(size_t nbytes, mt_device device);
/* Like mt_storage_new but zero-filled. */
mt_storage *mt_storage_new_zeroed(size_t nbytes, mt_device device);
/* Wraps memory owned by someone else; `deleter(ctx, data)` runs when the
 * storage dies.  Caller owns the returned reference.  On failure (NULL) the
 * deleter is NOT called: the caller still owns the memory. */
mt_storage *mt_storage_from_blob(void *data, size_t nbytes, mt_device device,
                                 mt_deleter_fn deleter, void *deleter_ctx);

/* Whether the storage's bytes come from mt_storage_new (ours to replace by a
 * larger copy when a tensor grows), not borrowed from another owner, and were
 * not handed out to one (mt_storage_fix). */
bool mt_storage_resizable(const mt_storage *s);
/* Marks s as never resizable (its bytes are now also another owner's view, as a
 * NumPy array made by Tensor.numpy()); cannot fail. */
void mt_storage_fix(mt_storage *s);

static inline void
mt_storage_incref(mt_storage *s)
{
    atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
}

/* Drops one reference; frees the storage (and runs the deleter) at zero. NULL ok. */
void mt_storage_decref(mt_storage *s);

static inline int64_t
mt_storage_refcount(const mt_storage *s)
{
    return atomic_load_explicit(&s->refcount, memory_order_relaxed);
}

/* CPU allocator used by mt_storage_new; exposed for scratch buffers.
 * mt_cpu_alloc returns NULL (+ MT_ENOMEM message) on failure; size 0 is fine. */
void *mt_cpu_alloc(size_t nbytes);
void mt_cpu_free(void *p);
/* Bytes of CPU storages this thread allocated minus those it freed (Note [CPU memory
 * counter]). */
int64_t mt_storage_cpu_net_bytes(void);
/* Sets the C heap's policy for tensor-sized blocks (see Note [Heap reuse]); once, at start. */
void mt_cpu_allocator_init(void);

#endif /* C10_LITE_STORAGE_H */
