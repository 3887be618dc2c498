/* c10_lite/storage.h - an atomically refcounted byte buffer with a device and an owner. */
#ifndef C10_LITE_STORAGE_H
#define C10_LITE_STORAGE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "c10_lite/allocator.h"
#include "c10_lite/device.h"

/* Called exactly once, when the last reference goes away, to give the bytes
 * back to whoever owns them.  May run on any thread (e.g. a distributed worker
 * thread), so a deleter that touches Python must take the GIL itself. */
typedef void (*mt_deleter_fn)(void *ctx, void *data);

/* Note [Storage ownership]
 * A storage owns one reference to its bytes, expressed as (deleter, ctx):
 *   - memory from mt_storage_new: the free of its device type's allocator, the one
 *     that made it (Note [Allocator registry]); such a storage is resizable;
 *   - borrowed memory (a NumPy array, shared memory, another library's buffer):
 *     the deleter releases the lender (e.g. Py_DECREF of the ndarray); never
 *     resizable, as the bytes are also someone else's.
 * Tensors hold one storage reference each; the storage dies with the last one.
 * `nbytes` never changes after construction; `data` (with the deleter) changes
 * only when mt_storage_share_ moves the bytes into shared memory, in place, as
 * torch's share_memory_ does (see Note [Shared memory]).  Otherwise any thread
 * may read them without locks; the refcount is atomic. */
typedef struct mt_storage {
    _Atomic int64_t refcount;
    void *data;
    size_t nbytes;
    mt_device device; /* resolved: a CUDA storage names its device; the CPU's index is -1 */
    mt_deleter_fn deleter; /* NULL: nothing to free (static or zero-size) */
    void *deleter_ctx;
    /* the bytes came from mt_storage_new and were never handed to another owner (a NumPy
     * array, shared memory): a tensor that grows may replace them by a larger copy */
    _Atomic bool resizable;
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

/* New resizable storage of `nbytes` uninitialised bytes from the allocator of the
 * device's type (64-byte aligned on the CPU), on the device the index names (a CUDA
 * index of -1: the calling thread's current device), for work on that device's
 * current stream.  Caller owns the returned reference.  NULL on failure with
 * MT_ENOMEM, MT_ENOTIMPL (a device type without an allocator) or MT_ERUNTIME
 * (no such device, or none at all: torch's messages). */
mt_storage *mt_storage_new(size_t nbytes, mt_device device);
/* Like mt_storage_new but zero-filled (on a device: queued on its current stream). */
mt_storage *mt_storage_new_zeroed(size_t nbytes, mt_device device);
/* Wraps memory owned by someone else (not resizable); `deleter(ctx, data)` runs
 * when the storage dies.  `device` must be resolved (a CUDA index >= 0).  Caller
 * owns the returned reference.  On failure (NULL) the deleter is NOT called: the
 * caller still owns the memory. */
mt_storage *mt_storage_from_blob(void *data, size_t nbytes, mt_device device,
                                 mt_deleter_fn deleter, void *deleter_ctx);

/* Whether the storage's bytes come from mt_storage_new (ours to replace by a
 * larger copy when a tensor grows), not borrowed from another owner, and were
 * not handed out to one (mt_storage_fix, mt_storage_share_). */
bool mt_storage_resizable(const mt_storage *s);
/* Marks s as never resizable (its bytes are now also another owner's view, as a
 * NumPy array made by Tensor.numpy()); cannot fail. */
void mt_storage_fix(mt_storage *s);
/* Copies nbytes from src's byte src_offset to dst's byte dst_offset, whatever
 * their devices (Note [Allocator registry]: synchronous, on the current stream
 * of the device involved).  The ranges must lie inside the storages.  0, or a
 * negative code with dst unchanged. */
int mt_storage_copy_bytes(mt_storage *dst, size_t dst_offset, const mt_storage *src,
                          size_t src_offset, size_t nbytes);

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

/* Bytes of CPU storages this thread allocated minus those it freed (Note [CPU memory
 * counter]). */
int64_t mt_storage_cpu_net_bytes(void);

#endif /* C10_LITE_STORAGE_H */
