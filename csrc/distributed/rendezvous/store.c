/* csrc/distributed/rendezvous/store.c - the store interface: refcounting, argument checks, dispatch. */
#include "csrc/distributed/rendezvous/store.h"

#include <stdlib.h>

#include <string.h>

#include "c10_lite/error.h"

void
mt__store_init(mt_store *s, const mt_store_vtable *vt, int64_t timeout_ms)
{
    s->vt = vt;
    atomic_init(&s->refcount, 1);
    s->timeout_ms = timeout_ms > 0 ? timeout_ms : 300000;
}

void
mt_store_decref(mt_store *s)
{
    if (s == NULL) {
        return;
    }
    if (atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) == 1) {
        s->vt->close(s);
        s->vt->free(s);
    }
}

int
mt_store_set_timeout(mt_store *s, int64_t timeout_ms)
{
    if (timeout_ms <= 0) {
        return mt_error_set(MT_EINVAL, "store timeout must be positive, got %lld ms",
                            (long long)timeout_ms);
    }
    s->timeout_ms = timeout_ms;
    return 0;
}

static int64_t
mt__store_timeout(const mt_store *s, int64_t timeout_ms)
{
    return timeout_ms < 0 ? s->timeout_ms : timeout_ms;
}

static int
mt__check_keys(int nkeys, const char *const *keys, const size_t *klens)
{
    if (nkeys < 0 || (nkeys > 0 && (keys == NULL || klens == NULL))) {
        return mt_error_set(MT_EINVAL, "store: invalid key list (%d keys)", nkeys);
    }
    return 0;
}

int
mt_store_set(mt_store *s, const char *key, size_t klen, const void *val, size_t vlen)
{
    return s->vt->set(s, key, klen, val, vlen);
}

int
mt_store_get(mt_store *s, const char *key, size_t klen, int64_t timeout_ms, char **out,
             size_t *outlen)
{
    return s->vt->get(s, key, klen, mt__store_timeout(s, timeout_ms), out, outlen);
}

int
mt_store_add(mt_store *s, const char *key, size_t klen, int64_t delta, int64_t *out)
{
    return s->vt->add(s, key, klen, delta, out);
}

int
mt_store_compare_set(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                     const void *desired, size_t dlen, char **out, size_t *outlen)
{
    return s->vt->compare_set(s, key, klen, expected, elen, desired, dlen, out, outlen);
}

int
mt_store_wait(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
              int64_t timeout_ms)
{
    int rc = mt__check_keys(nkeys, keys, klens);
    if (rc < 0) {
        return rc;
    }
    return s->vt->wait(s, nkeys, keys, klens, mt__store_timeout(s, timeout_ms));
}

int
mt_store_multi_get(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
                   int64_t timeout_ms, char **vals, size_t *vlens)
{
    int rc = mt__check_keys(nkeys, keys, klens);
    if (rc < 0) {
        return rc;
    }
    timeout_ms = mt__store_timeout(s, timeout_ms);
    if (s->vt->multi_get != NULL) {
        return s->vt->multi_get(s, nkeys, keys, klens, timeout_ms, vals, vlens);
    }
    for (int i = 0; i < nkeys; i++) {
        rc = s->vt->get(s, keys[i], klens[i], timeout_ms, &vals[i], &vlens[i]);
        if (rc < 0) {
            while (i-- > 0) {
                free(vals[i]);
            }
            return rc;
        }
    }
    return 0;
}

int
mt_store_check(mt_store *s, int nkeys, const char *const *keys, const size_t *klens, int *out)
{
    int rc = mt__check_keys(nkeys, keys, klens);
    if (rc < 0) {
        return rc;
    }
    return s->vt->check(s, nkeys, keys, klens, out);
}

int
mt_store_delete_key(mt_store *s, const char *key, size_t klen, int *out)
{
    return s->vt->delete_key(s, key, klen, out);
}

int
mt_store_compare_delete(mt_store *s, const char *key, size_t klen, const void *expected,
                        size_t elen, int *out)
{
    return s->vt->compare_delete(s, key, klen, expected, elen, out);
}

int
mt_store_num_keys(mt_store *s, int64_t *out)
{
    return s->vt->num_keys(s, out);
}

int
mt_store_local_addr(mt_store *s, char *buf, size_t cap)
{
    if (s->vt->local_addr == NULL) {
        return MT_ENOTIMPL;
    }
    return s->vt->local_addr(s, buf, cap);
}

int
mt_store_set_str(mt_store *s, const char *key, const char *val)
{
    return mt_store_set(s, key, strlen(key), val, strlen(val));
}

int
mt_store_get_str(mt_store *s, const char *key, int64_t timeout_ms, char **out)
{
    size_t n;
    return mt_store_get(s, key, strlen(key), timeout_ms, out, &n);
}
