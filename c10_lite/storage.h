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
     * tensor saved for backward remembers it, see Note [Saved tensors] in autograd/); read and
     * bumped through mt_storage_version, as `shared` may replace it (Note [Version counters]) */
    _Atomic uint64_t version;
    struct mt_version_counter *shared; /* owned reference, or NULL: the counter is `version` */
    bool inference; /* made in inference mode (Note [Inference storages]); set once */
} mt_storage;

/* Note [Version counters]
 * A storage counts the in-place writes through any of its tensors (views share it).  As in
 * torch, `x.data = y` keeps x's counter: x then gets an alias storage over y's bytes
 * (mt_storage_alias) that shares the counter of x's old storage, both through a separately
 * allocated counter (`shared`); a storage made otherwise keeps its count inline, so the common
 * path allocates nothing.  Readers and writers go through mt_storage_version. */
typedef struct mt_version_counter {
    _Atomic int64_t refcount;
    _Atomic uint64_t value;
} mt_version_counter;

static inline _Atomic uint64_t *
mt_storage_version(mt_storage *s)
{
    return s->shared != NULL ? &s->shared->value : &s->version;
}

/* Note [Inference storages]
 * torch's inference_mode makes every tensor created while it is on an inference tensor, and
 * views of inference tensors are inference tensors too.  Here the mark is on the storage: a
 * storage allocated (or wrapped) on a thread while mt_inference_mode is set is an inference
 * storage for life, so every tensor over it, view or not, is an inference tensor, and a tensor
 * made outside inference mode (a view of a normal tensor included) is not.  The autograd layer
 * reads the mark (csrc/autograd): no version counter, no in-place write outside inference
 * mode, never saved for backward.  mt_inference_live counts the inference storages alive, so
 * that those checks cost one compare while there are none. */
extern _Thread_local bool mt_inference_mode;
extern _Atomic int64_t mt_inference_live;

/* A new storage over `target`'s bytes (which it keeps alive: one reference, released with the
 * alias) that shares `counter_of`'s version counter (Note [Version counters]).  Caller owns
 * the result; NULL + MT_ENOMEM on failure (nothing changed). */
mt_storage *mt_storage_alias(mt_storage *target, mt_storage *counter_of);
/* Makes `to` share `from`'s version counter (giving `from` a separate one first).  0, or
 * MT_ENOMEM (nothing changed). */
int mt_storage_share_version(mt_storage *to, mt_storage *from);

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
