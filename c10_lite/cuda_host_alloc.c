/* c10_lite/cuda_host_alloc.c - the cache of page-locked host blocks (Note [Pinned host memory]). */
#include "c10_lite/cuda_host_alloc.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "c10_lite/cuda_hooks.h"
#include "c10_lite/error.h"

typedef struct {
    void *event;
    int device;
} mt__host_use;

typedef struct {
    char *ptr;
    size_t size;         /* the rounded size */
    bool in_use;
    bool registered;     /* memory of someone else's, page-locked in place: never handed out */
    int nuses, cap;
    mt__host_use *uses;  /* owned: events of copies that may still touch the block */
} mt__host_block;

static pthread_mutex_t mt__host_mu = PTHREAD_MUTEX_INITIALIZER;
static mt__host_block *mt__blocks; /* owned; mt__nblocks used of mt__cap */
static int mt__nblocks, mt__cap;

static size_t
mt__round(size_t n)
{
    size_t r = 4096;
    while (r < n && r < ((size_t)1 << 62)) {
        r <<= 1;
    }
    return r < n ? n : r;
}

/* Drops the completed events of b (mu held); true when none is left. */
static bool
mt__settle(mt__host_block *b)
{
    int keep = 0;
    for (int i = 0; i < b->nuses; i++) {
        if (mt_cuda_event_query(b->uses[i].event, b->uses[i].device) == 0) {
            b->uses[keep++] = b->uses[i]; /* pending (an error counts as done) */
            continue;
        }
        mt_cuda_event_destroy(b->uses[i].event, b->uses[i].device);
    }
    b->nuses = keep;
    return keep == 0;
}

/* the block holding ptr (mu held), or NULL */
static mt__host_block *
mt__find(const void *ptr)
{
    const char *p = (const char *)ptr;
    for (int i = 0; i < mt__nblocks; i++) {
        if (p >= mt__blocks[i].ptr && p < mt__blocks[i].ptr + mt__blocks[i].size) {
            return &mt__blocks[i];
        }
    }
    return NULL;
}

/* Waits for and drops every event of b (mu held). */
static void
mt__drain(mt__host_block *b)
{
    for (int i = 0; i < b->nuses; i++) {
        (void)mt_cuda_event_synchronize(b->uses[i].event, b->uses[i].device);
        mt_cuda_event_destroy(b->uses[i].event, b->uses[i].device);
    }
    b->nuses = 0;
}

/* Room for one more block (mu held): 0 or MT_ENOMEM. */
static int
mt__reserve(void)
{
    if (mt__nblocks < mt__cap) {
        return 0;
    }
    int cap = mt__cap ? 2 * mt__cap : 16;
    mt__host_block *nb = realloc(mt__blocks, (size_t)cap * sizeof(*nb));
    if (nb == NULL) {
        return mt_error_set(MT_ENOMEM, "pinned memory: out of host memory");
    }
    mt__blocks = nb;
    mt__cap = cap;
    return 0;
}

static void
mt__cuda_host_free(void *ctx, void *ptr)
{
    (void)ctx;
    pthread_mutex_lock(&mt__host_mu);
    mt__host_block *b = mt__find(ptr);
    if (b != NULL) {
        b->in_use = false;
    }
    pthread_mutex_unlock(&mt__host_mu);
}

static int
mt__cuda_host_alloc(size_t nbytes, void **out)
{
    const size_t size = mt__round(nbytes);
    pthread_mutex_lock(&mt__host_mu);
    for (int i = 0; i < mt__nblocks; i++) {
        mt__host_block *b = &mt__blocks[i];
        if (!b->in_use && b->size == size && mt__settle(b)) {
            b->in_use = true;
            *out = b->ptr;
            pthread_mutex_unlock(&mt__host_mu);
            return 0;
        }
    }
    void *p = NULL;
    int rc = mt__reserve();
    if (rc == 0) {
        rc = mt_cuda_host_malloc(size, &p);
    }
    if (rc == 0) {
        mt__blocks[mt__nblocks++] = (mt__host_block){.ptr = p, .size = size, .in_use = true};
        *out = p;
    }
    pthread_mutex_unlock(&mt__host_mu);
    return rc;
}

mt_storage *
mt_storage_new_pinned(size_t nbytes)
{
    void *p = NULL;
    if (mt__cuda_host_alloc(nbytes, &p) < 0) {
        return NULL;
    }
    mt_storage *s = mt_storage_from_blob(p, nbytes, MT_DEVICE_CPU, mt__cuda_host_free, NULL);
    if (s == NULL) {
        mt__cuda_host_free(NULL, p);
    }
    return s;
}

bool
mt_cuda_host_is_pinned_ptr(const void *ptr)
{
    if (ptr == NULL || mt_cuda_device_count() == 0) {
        return false;
    }
    pthread_mutex_lock(&mt__host_mu);
    bool ours = mt__find(ptr) != NULL;
    pthread_mutex_unlock(&mt__host_mu);
    return ours || mt_cuda_host_is_pinned(ptr);
}

int
mt_cuda_host_record_use(const void *ptr, void *stream, int device)
{
    pthread_mutex_lock(&mt__host_mu);
    mt__host_block *b = mt__find(ptr);
    int rc = 0;
    if (b != NULL) {
        mt__settle(b);
        if (b->nuses == b->cap) {
            int cap = b->cap ? 2 * b->cap : 4;
            mt__host_use *nu = realloc(b->uses, (size_t)cap * sizeof(*nu));
            if (nu == NULL) {
                pthread_mutex_unlock(&mt__host_mu);
                return mt_error_set(MT_ENOMEM, "pinned memory: out of host memory");
            }
            b->uses = nu;
            b->cap = cap;
        }
        void *ev = NULL;
        rc = mt_cuda_event_create(device, 0, &ev);
        if (rc == 0) {
            rc = mt_cuda_event_record(ev, stream, device);
            if (rc < 0) {
                mt_cuda_event_destroy(ev, device);
            }
            else {
                b->uses[b->nuses++] = (mt__host_use){ev, device};
            }
        }
    }
    pthread_mutex_unlock(&mt__host_mu);
    return rc;
}

int
mt_cuda_host_register_range(void *ptr, size_t nbytes)
{
    pthread_mutex_lock(&mt__host_mu);
    int rc = 0;
    mt__host_block *b = mt__find(ptr);
    if (b == NULL || b->ptr != ptr) {
        rc = mt__reserve();
        if (rc == 0) {
            rc = mt_cuda_host_register(ptr, nbytes);
        }
        if (rc == 0) {
            mt__blocks[mt__nblocks++] = (mt__host_block){
                .ptr = ptr, .size = nbytes, .in_use = true, .registered = true};
        }
    }
    pthread_mutex_unlock(&mt__host_mu);
    return rc;
}

void
mt_cuda_host_unregister_range(void *ptr)
{
    pthread_mutex_lock(&mt__host_mu);
    mt__host_block *b = mt__find(ptr);
    if (b != NULL && b->registered && b->ptr == ptr) {
        mt__drain(b);
        mt_cuda_host_unregister(ptr);
        free(b->uses);
        *b = mt__blocks[--mt__nblocks];
    }
    pthread_mutex_unlock(&mt__host_mu);
}

void
mt_cuda_host_wait_uses(const void *ptr)
{
    pthread_mutex_lock(&mt__host_mu);
    mt__host_block *b = mt__nblocks ? mt__find(ptr) : NULL;
    if (b != NULL) {
        mt__drain(b);
    }
    pthread_mutex_unlock(&mt__host_mu);
}

void
mt_cuda_host_empty_cache(void)
{
    pthread_mutex_lock(&mt__host_mu);
    int keep = 0;
    for (int i = 0; i < mt__nblocks; i++) {
        mt__host_block *b = &mt__blocks[i];
        if (b->in_use || !mt__settle(b)) {
            mt__blocks[keep++] = *b;
            continue;
        }
        mt_cuda_host_release(b->ptr);
        free(b->uses);
    }
    mt__nblocks = keep;
    pthread_mutex_unlock(&mt__host_mu);
}

void
mt_cuda_host_stats(size_t *reserved, size_t *allocated)
{
    size_t r = 0, a = 0;
    pthread_mutex_lock(&mt__host_mu);
    for (int i = 0; i < mt__nblocks; i++) {
        if (mt__blocks[i].registered) {
            continue;
        }
        r += mt__blocks[i].size;
        a += mt__blocks[i].in_use ? mt__blocks[i].size : 0;
    }
    pthread_mutex_unlock(&mt__host_mu);
    *reserved = r;
    *allocated = a;
}
