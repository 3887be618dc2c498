/* csrc/distributed/rendezvous/hash_store.c - HashStore: an in-process store (mutex + condvar). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "c10_lite/error.h"
#include "csrc/distributed/rendezvous/kvmap.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/rendezvous/store.h"

typedef struct mt__hash_store {
    mt_store base;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* signalled on every change; uses CLOCK_MONOTONIC */
    mt__kvmap map;
} mt__hash_store;

#define MT__HS(s) ((mt__hash_store *)(s))

static int
mt__hs_set(mt_store *s, const char *key, size_t klen, const void *val, size_t vlen)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    int rc = mt__kvmap_set(&h->map, key, klen, val, vlen);
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    return rc;
}

static bool
mt__hs_all_present(mt__hash_store *h, int nkeys, const char *const *keys, const size_t *klens)
{
    for (int i = 0; i < nkeys; i++) {
        if (mt__kvmap_find(&h->map, keys[i], klens[i]) == NULL) {
            return false;
        }
    }
    return true;
}

/* Waits (mutex held) until all keys exist or the deadline passes. */
static int
mt__hs_wait_locked(mt__hash_store *h, int nkeys, const char *const *keys, const size_t *klens,
                   int64_t timeout_ms)
{
    int64_t deadline = mt__deadline_after(timeout_ms);
    while (!mt__hs_all_present(h, nkeys, keys, klens)) {
        int64_t left = deadline - mt__now_ms();
        if (left <= 0) {
            char kr[160];
            int missing = 0;
            while (missing < nkeys && mt__kvmap_find(&h->map, keys[missing], klens[missing])) {
                missing++;
            }
            /* torch's words first */
            return mt_error_set(MT_ETIMEOUT, "Wait timeout (HashStore: %lld ms waiting for key '%s')",
                                (long long)timeout_ms,
                                mt__key_repr(kr, sizeof(kr), keys[missing], klens[missing]));
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += left / 1000;
        ts.tv_nsec += (left % 1000) * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&h->cv, &h->mu, &ts);
    }
    return 0;
}

static int
mt__hs_get(mt_store *s, const char *key, size_t klen, int64_t timeout_ms, char **out,
           size_t *outlen)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    int rc = mt__hs_wait_locked(h, 1, &key, &klen, timeout_ms);
    if (rc == 0) {
        mt__kv_entry *e = mt__kvmap_find(&h->map, key, klen);
        char *c = mt__memdup(e->val, e->vlen);
        if (c == NULL) {
            rc = MT_ENOMEM;
        }
        else {
            *out = c;
            *outlen = e->vlen;
        }
    }
    pthread_mutex_unlock(&h->mu);
    return rc;
}

static int
mt__hs_add(mt_store *s, const char *key, size_t klen, int64_t delta, int64_t *out)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    int rc = mt__kvmap_add(&h->map, key, klen, delta, out);
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    return rc;
}

static int
mt__hs_compare_set(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                   const void *desired, size_t dlen, char **out, size_t *outlen)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    int rc = mt__kvmap_compare_set(&h->map, key, klen, expected, elen, desired, dlen, out, outlen);
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    return rc;
}

static int
mt__hs_wait(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
            int64_t timeout_ms)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    int rc = mt__hs_wait_locked(h, nkeys, keys, klens, timeout_ms);
    pthread_mutex_unlock(&h->mu);
    return rc;
}

static int
mt__hs_check(mt_store *s, int nkeys, const char *const *keys, const size_t *klens, int *out)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    *out = mt__hs_all_present(h, nkeys, keys, klens);
    pthread_mutex_unlock(&h->mu);
    return 0;
}

static int
mt__hs_delete_key(mt_store *s, const char *key, size_t klen, int *out)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    *out = mt__kvmap_delete(&h->map, key, klen);
    pthread_mutex_unlock(&h->mu);
    return 0;
}

static int
mt__hs_compare_delete(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                      int *out)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    *out = mt__kvmap_compare_delete(&h->map, key, klen, expected, elen);
    pthread_mutex_unlock(&h->mu);
    return 0;
}

static int
mt__hs_num_keys(mt_store *s, int64_t *out)
{
    mt__hash_store *h = MT__HS(s);
    pthread_mutex_lock(&h->mu);
    *out = (int64_t)h->map.count;
    pthread_mutex_unlock(&h->mu);
    return 0;
}

static void
mt__hs_close(mt_store *s)
{
}

static void
mt__hs_free(mt_store *s)
{
    mt__hash_store *h = MT__HS(s);
    mt__kvmap_clear(&h->map);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

static const mt_store_vtable mt__hash_store_vt = {
    .name = "HashStore",
    .set = mt__hs_set,
    .get = mt__hs_get,
    .add = mt__hs_add,
    .compare_set = mt__hs_compare_set,
    .wait = mt__hs_wait,
    .check = mt__hs_check,
    .delete_key = mt__hs_delete_key,
    .compare_delete = mt__hs_compare_delete,
    .num_keys = mt__hs_num_keys,
    .local_addr = NULL,
    .close = mt__hs_close,
    .free = mt__hs_free,
};

mt_store *
mt_hash_store_new(int64_t timeout_ms)
{
    mt__hash_store *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory creating a HashStore");
        return NULL;
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&h->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&h->mu, NULL);
    mt__kvmap_init(&h->map);
    mt__store_init(&h->base, &mt__hash_store_vt, timeout_ms);
    return &h->base;
}
