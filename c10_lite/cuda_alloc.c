/* c10_lite/cuda_alloc.c - the caching allocator of device memory (Note [Caching allocator]).
 * Plain C over a backend: nothing here calls CUDA itself. */
#include "c10_lite/cuda_alloc.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"

#define MT__SMALL_LIMIT ((size_t)1 << 20) /* requests below 1 MiB: the small pool */
#define MT__SMALL_ROUND ((size_t)512)
#define MT__LARGE_ROUND ((size_t)2 << 20)

/* One allocation from the driver.  Owned by the allocator from its malloc to the driver free;
 * always in the hash (by ptr), and in one of: in use (a tensor's storage holds ptr), a pool
 * (cached, ready for its stream), the pending list (waiting for events). */
typedef struct mt__block {
    void *ptr;
    size_t size; /* rounded */
    int device;
    void *stream;          /* the stream it was allocated for */
    bool in_use;
    void **uses;           /* owned: other streams that used it (record_stream) */
    int n_uses, cap_uses;
    void **events;         /* owned: pending: one event per stream in uses at free time */
    int n_events;
    struct mt__block *hnext;   /* hash chain */
    struct mt__block *pnext;   /* pending list */
} mt__block;

typedef struct {
    mt__block **v; /* sorted by size */
    int n, cap;
} mt__pool;

typedef struct {
    mt__pool small, large;
    mt_cuda_alloc_stats stats;
} mt__device;

struct mt_cuda_alloc {
    pthread_mutex_t mu;
    mt_cuda_backend be;
    int num_devices;
    mt__device *dev;       /* owned: num_devices */
    mt__block **buckets;   /* owned: hash of every block by ptr */
    size_t n_buckets, n_blocks;
    mt__block *pending;    /* blocks freed while other streams may still use them */
};

size_t
mt_cuda_alloc_round(size_t nbytes)
{
    if (nbytes < MT__SMALL_LIMIT) {
        return nbytes == 0 ? MT__SMALL_ROUND : (nbytes + MT__SMALL_ROUND - 1) & ~(MT__SMALL_ROUND - 1);
    }
    return (nbytes + MT__LARGE_ROUND - 1) / MT__LARGE_ROUND * MT__LARGE_ROUND;
}

/* ---- the hash of blocks by pointer ---------------------------------------------------------- */

static size_t
mt__hash(const mt_cuda_alloc *a, const void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    p ^= p >> 17;
    p *= (uintptr_t)0x9E3779B97F4A7C15ull;
    return (size_t)(p >> 7) & (a->n_buckets - 1);
}

static mt__block *
mt__find(const mt_cuda_alloc *a, const void *ptr)
{
    for (mt__block *b = a->buckets[mt__hash(a, ptr)]; b != NULL; b = b->hnext) {
        if (b->ptr == ptr) {
            return b;
        }
    }
    return NULL;
}

static int
mt__hash_add(mt_cuda_alloc *a, mt__block *b)
{
    if (a->n_blocks + 1 > a->n_buckets) {
        size_t n = a->n_buckets * 2;
        mt__block **nb = calloc(n, sizeof(*nb));
        if (nb == NULL) {
            return mt_error_set(MT_ENOMEM, "CUDA caching allocator: out of host memory");
        }
        mt__block **old = a->buckets;
        size_t old_n = a->n_buckets;
        a->buckets = nb;
        a->n_buckets = n;
        for (size_t i = 0; i < old_n; i++) {
            for (mt__block *x = old[i], *next; x != NULL; x = next) {
                next = x->hnext;
                size_t h = mt__hash(a, x->ptr);
                x->hnext = a->buckets[h];
                a->buckets[h] = x;
            }
        }
        free(old);
    }
    size_t h = mt__hash(a, b->ptr);
    b->hnext = a->buckets[h];
    a->buckets[h] = b;
    a->n_blocks++;
    return 0;
}

static void
mt__hash_remove(mt_cuda_alloc *a, mt__block *b)
{
    mt__block **p = &a->buckets[mt__hash(a, b->ptr)];
    while (*p != b) {
        p = &(*p)->hnext;
    }
    *p = b->hnext;
    a->n_blocks--;
}

/* ---- pools ------------------------------------------------------------------------------------ */

static mt__pool *
mt__pool_of(mt_cuda_alloc *a, int device, size_t size)
{
    return size < MT__SMALL_LIMIT ? &a->dev[device].small : &a->dev[device].large;
}

/* the first index whose block is at least `size` */
static int
mt__pool_lower(const mt__pool *p, size_t size)
{
    int lo = 0, hi = p->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->v[mid]->size < size) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return lo;
}

static int
mt__pool_insert(mt__pool *p, mt__block *b)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        mt__block **v = realloc(p->v, (size_t)cap * sizeof(*v));
        if (v == NULL) {
            return mt_error_set(MT_ENOMEM, "CUDA caching allocator: out of host memory");
        }
        p->v = v;
        p->cap = cap;
    }
    int i = mt__pool_lower(p, b->size);
    memmove(&p->v[i + 1], &p->v[i], (size_t)(p->n - i) * sizeof(*p->v));
    p->v[i] = b;
    p->n++;
    return 0;
}

/* The smallest cached block for `stream` of at least `size` and at most twice it, taken out
 * of the pool; NULL when none. */
static mt__block *
mt__pool_take(mt__pool *p, void *stream, size_t size)
{
    for (int i = mt__pool_lower(p, size); i < p->n && p->v[i]->size / 2 <= size; i++) {
        if (p->v[i]->stream == stream) {
            mt__block *b = p->v[i];
            memmove(&p->v[i], &p->v[i + 1], (size_t)(p->n - i - 1) * sizeof(*p->v));
            p->n--;
            return b;
        }
    }
    return NULL;
}

/* ---- blocks ----------------------------------------------------------------------------------- */

/* Gives a block that is in no pool, list or use back to the driver. */
static void
mt__release(mt_cuda_alloc *a, mt__block *b)
{
    mt__device *d = &a->dev[b->device];
    mt__hash_remove(a, b);
    a->be.free(a->be.ctx, b->device, b->ptr);
    d->stats.reserved -= (int64_t)b->size;
    d->stats.driver_frees++;
    for (int i = 0; i < b->n_events; i++) {
        a->be.free_event(a->be.ctx, b->events[i]);
    }
    free(b->events);
    free(b->uses);
    free(b);
}

/* A freed block back to its pool, ready for its stream.  On a host allocation failure the
 * block goes back to the driver instead (nothing is lost but the cache entry). */
static void
mt__cache(mt_cuda_alloc *a, mt__block *b)
{
    if (mt__pool_insert(mt__pool_of(a, b->device, b->size), b) < 0) {
        mt_error_clear();
        mt__release(a, b);
    }
}

/* Moves the pending blocks whose events have all completed to their pools. */
static void
mt__poll_pending(mt_cuda_alloc *a)
{
    mt__block **p = &a->pending;
    while (*p != NULL) {
        mt__block *b = *p;
        bool done = true;
        for (int i = 0; i < b->n_events && done; i++) {
            /* an error querying counts as done: the stream is broken and will report it */
            done = a->be.event_done(a->be.ctx, b->events[i]) != 0;
        }
        if (!done) {
            p = &b->pnext;
            continue;
        }
        *p = b->pnext;
        b->pnext = NULL;
        for (int i = 0; i < b->n_events; i++) {
            a->be.free_event(a->be.ctx, b->events[i]);
        }
        free(b->events);
        b->events = NULL;
        b->n_events = 0;
        mt__cache(a, b);
    }
}

/* Gives device's cached blocks (or every device's, device < 0) back to the driver. */
static void
mt__free_cached(mt_cuda_alloc *a, int device)
{
    for (int dv = 0; dv < a->num_devices; dv++) {
        if (device >= 0 && dv != device) {
            continue;
        }
        mt__pool *pools[2] = {&a->dev[dv].small, &a->dev[dv].large};
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < pools[k]->n; i++) {
                mt__release(a, pools[k]->v[i]);
            }
            pools[k]->n = 0;
        }
    }
}

/* ---- the API ---------------------------------------------------------------------------------- */

mt_cuda_alloc *
mt_cuda_alloc_new(const mt_cuda_backend *backend, int num_devices)
{
    mt_cuda_alloc *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        mt_error_set(MT_ENOMEM, "CUDA caching allocator: out of host memory");
        return NULL;
    }
    a->be = *backend;
    a->num_devices = num_devices > 0 ? num_devices : 0;
    a->n_buckets = 1024;
    a->dev = calloc((size_t)(a->num_devices > 0 ? a->num_devices : 1), sizeof(*a->dev));
    a->buckets = calloc(a->n_buckets, sizeof(*a->buckets));
    if (a->dev == NULL || a->buckets == NULL) {
        free(a->dev);
        free(a->buckets);
        free(a);
        mt_error_set(MT_ENOMEM, "CUDA caching allocator: out of host memory");
        return NULL;
    }
    pthread_mutex_init(&a->mu, NULL);
    return a;
}

void
mt_cuda_alloc_destroy(mt_cuda_alloc *a)
{
    if (a == NULL) {
        return;
    }
    for (size_t i = 0; i < a->n_buckets; i++) {
        for (mt__block *b = a->buckets[i], *next; b != NULL; b = next) {
            next = b->hnext;
            a->be.free(a->be.ctx, b->device, b->ptr);
            for (int k = 0; k < b->n_events; k++) {
                a->be.free_event(a->be.ctx, b->events[k]);
            }
            free(b->events);
            free(b->uses);
            free(b);
        }
    }
    for (int dv = 0; dv < a->num_devices; dv++) {
        free(a->dev[dv].small.v);
        free(a->dev[dv].large.v);
    }
    free(a->dev);
    free(a->buckets);
    pthread_mutex_destroy(&a->mu);
    free(a);
}

static void
mt__account_alloc(mt__device *d, size_t size)
{
    d->stats.allocated += (int64_t)size;
    if (d->stats.allocated > d->stats.max_allocated) {
        d->stats.max_allocated = d->stats.allocated;
    }
}

int
mt_cuda_alloc_malloc(mt_cuda_alloc *a, int device, void *stream, size_t nbytes, void **ptr)
{
    *ptr = NULL;
    if (device < 0 || device >= a->num_devices) {
        return mt_error_set(MT_EINVAL, "CUDA error: invalid device ordinal %d", device);
    }
    if (nbytes == 0) {
        return 0;
    }
    if (nbytes > SIZE_MAX - MT__LARGE_ROUND) {
        return mt_error_set(MT_ENOMEM, "CUDA out of memory. Tried to allocate %zu bytes", nbytes);
    }
    size_t size = mt_cuda_alloc_round(nbytes);
    pthread_mutex_lock(&a->mu);
    mt__device *d = &a->dev[device];
    mt__poll_pending(a);
    mt__block *b = mt__pool_take(mt__pool_of(a, device, size), stream, size);
    if (b != NULL) {
        b->in_use = true;
        d->stats.cache_hits++;
        mt__account_alloc(d, b->size);
        *ptr = b->ptr;
        pthread_mutex_unlock(&a->mu);
        return 0;
    }
    void *p = NULL;
    int rc = a->be.malloc(a->be.ctx, device, size, &p);
    if (rc == MT_ENOMEM) {
        mt__free_cached(a, device); /* what the cache holds back, then once more */
        rc = a->be.malloc(a->be.ctx, device, size, &p);
    }
    if (rc < 0) {
        if (rc == MT_ENOMEM) {
            d->stats.ooms++;
            rc = mt_error_set(MT_ENOMEM,
                              "CUDA out of memory. Tried to allocate %.2f MiB (GPU %d; %.2f MiB "
                              "allocated by minitorch, %.2f MiB reserved in total by minitorch)",
                              (double)size / 1048576.0, device,
                              (double)d->stats.allocated / 1048576.0,
                              (double)d->stats.reserved / 1048576.0);
        }
        pthread_mutex_unlock(&a->mu);
        return rc;
    }
    b = calloc(1, sizeof(*b));
    if (b != NULL) {
        b->ptr = p;
    }
    if (b == NULL || mt__hash_add(a, b) < 0) {
        free(b);
        a->be.free(a->be.ctx, device, p);
        pthread_mutex_unlock(&a->mu);
        return mt_error_set(MT_ENOMEM, "CUDA caching allocator: out of host memory");
    }
    b->size = size;
    b->device = device;
    b->stream = stream;
    b->in_use = true;
    d->stats.driver_mallocs++;
    d->stats.reserved += (int64_t)size;
    if (d->stats.reserved > d->stats.max_reserved) {
        d->stats.max_reserved = d->stats.reserved;
    }
    mt__account_alloc(d, size);
    *ptr = p;
    pthread_mutex_unlock(&a->mu);
    return 0;
}

int
mt_cuda_alloc_free(mt_cuda_alloc *a, void *ptr)
{
    if (ptr == NULL) {
        return 0;
    }
    pthread_mutex_lock(&a->mu);
    mt__block *b = mt__find(a, ptr);
    if (b == NULL || !b->in_use) {
        pthread_mutex_unlock(&a->mu);
        return mt_error_set(MT_EINVAL, "CUDA caching allocator: free of a pointer it did not "
                                       "hand out (or freed twice)");
    }
    b->in_use = false;
    a->dev[b->device].stats.allocated -= (int64_t)b->size;
    if (b->n_uses > 0) {
        /* wait for the other streams' work queued so far before reusing it */
        b->events = calloc((size_t)b->n_uses, sizeof(void *));
        for (int i = 0; b->events != NULL && i < b->n_uses; i++) {
            if (a->be.record_event(a->be.ctx, b->device, b->uses[i], &b->events[b->n_events]) == 0) {
                b->n_events++;
            }
            else {
                mt_error_clear(); /* a broken stream reports its error itself */
            }
        }
        b->n_uses = 0;
        if (b->n_events > 0) {
            b->pnext = a->pending;
            a->pending = b;
            pthread_mutex_unlock(&a->mu);
            return 0;
        }
        free(b->events);
        b->events = NULL;
    }
    mt__cache(a, b);
    pthread_mutex_unlock(&a->mu);
    return 0;
}

int
mt_cuda_alloc_record_stream(mt_cuda_alloc *a, void *ptr, void *stream)
{
    pthread_mutex_lock(&a->mu);
    mt__block *b = mt__find(a, ptr);
    int rc = 0;
    if (b == NULL || !b->in_use) {
        rc = mt_error_set(MT_EINVAL, "record_stream: the tensor's memory is not from the CUDA "
                                     "caching allocator");
    }
    else if (stream != b->stream) {
        bool known = false;
        for (int i = 0; i < b->n_uses; i++) {
            known |= b->uses[i] == stream;
        }
        if (!known && b->n_uses == b->cap_uses) {
            int cap = b->cap_uses ? 2 * b->cap_uses : 4;
            void **u = realloc(b->uses, (size_t)cap * sizeof(*u));
            if (u == NULL) {
                rc = mt_error_set(MT_ENOMEM, "CUDA caching allocator: out of host memory");
            }
            else {
                b->uses = u;
                b->cap_uses = cap;
            }
        }
        if (!known && rc == 0) {
            b->uses[b->n_uses++] = stream;
        }
    }
    pthread_mutex_unlock(&a->mu);
    return rc;
}

void
mt_cuda_alloc_empty_cache(mt_cuda_alloc *a)
{
    pthread_mutex_lock(&a->mu);
    mt__poll_pending(a);
    mt__free_cached(a, -1);
    pthread_mutex_unlock(&a->mu);
}

void
mt_cuda_alloc_get_stats(mt_cuda_alloc *a, int device, mt_cuda_alloc_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (device < 0 || device >= a->num_devices) {
        return;
    }
    pthread_mutex_lock(&a->mu);
    *out = a->dev[device].stats;
    pthread_mutex_unlock(&a->mu);
}

void
mt_cuda_alloc_reset_peak(mt_cuda_alloc *a, int device)
{
    if (device < 0 || device >= a->num_devices) {
        return;
    }
    pthread_mutex_lock(&a->mu);
    mt_cuda_alloc_stats *s = &a->dev[device].stats;
    s->max_allocated = s->allocated;
    s->max_reserved = s->reserved;
    pthread_mutex_unlock(&a->mu);
}
