/* csrc/distributed/rendezvous/prefix_store.c - PrefixStore: "<prefix>/<key>" forwarded to another store. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/rendezvous/kvmap.h"
#include "csrc/distributed/rendezvous/store.h"

typedef struct mt__prefix_store {
    mt_store base;
    mt_store *inner; /* owned reference */
    char *prefix;    /* "<prefix>/" */
    size_t plen;
} mt__prefix_store;

#define MT__PS(s) ((mt__prefix_store *)(s))

/* malloc'd "<prefix>/<key>"; NULL + MT_ENOMEM. */
static char *
mt__ps_key(mt__prefix_store *p, const char *key, size_t klen, size_t *outlen)
{
    char *k = malloc(p->plen + klen + 1);
    if (k == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory building a prefixed key");
        return NULL;
    }
    memcpy(k, p->prefix, p->plen);
    if (klen) {
        memcpy(k + p->plen, key, klen);
    }
    k[p->plen + klen] = '\0';
    *outlen = p->plen + klen;
    return k;
}

/* Prefixes a list of keys; on success *kout and *lout are malloc'd arrays (free with mt__ps_free_keys). */
static int
mt__ps_keys(mt__prefix_store *p, int nkeys, const char *const *keys, const size_t *klens,
            char ***kout, size_t **lout)
{
    char **ks = calloc((size_t)nkeys + 1, sizeof(*ks));
    size_t *ls = calloc((size_t)nkeys + 1, sizeof(*ls));
    if (ks == NULL || ls == NULL) {
        free(ks);
        free(ls);
        return mt_error_set(MT_ENOMEM, "out of memory building prefixed keys");
    }
    for (int i = 0; i < nkeys; i++) {
        ks[i] = mt__ps_key(p, keys[i], klens[i], &ls[i]);
        if (ks[i] == NULL) {
            for (int j = 0; j < i; j++) {
                free(ks[j]);
            }
            free(ks);
            free(ls);
            return MT_ENOMEM;
        }
    }
    *kout = ks;
    *lout = ls;
    return 0;
}

static void
mt__ps_free_keys(int nkeys, char **ks, size_t *ls)
{
    for (int i = 0; i < nkeys; i++) {
        free(ks[i]);
    }
    free(ks);
    free(ls);
}

static int
mt__ps_set(mt_store *s, const char *key, size_t klen, const void *val, size_t vlen)
{
    size_t n;
    char *k = mt__ps_key(MT__PS(s), key, klen, &n);
    if (k == NULL) {
        return MT_ENOMEM;
    }
    int rc = mt_store_set(MT__PS(s)->inner, k, n, val, vlen);
    free(k);
    return rc;
}

static int
mt__ps_get(mt_store *s, const char *key, size_t klen, int64_t timeout_ms, char **out,
           size_t *outlen)
{
    size_t n;
    char *k = mt__ps_key(MT__PS(s), key, klen, &n);
    if (k == NULL) {
        return MT_ENOMEM;
    }
    int rc = mt_store_get(MT__PS(s)->inner, k, n, timeout_ms, out, outlen);
    free(k);
    return rc;
}

static int
mt__ps_add(mt_store *s, const char *key, size_t klen, int64_t delta, int64_t *out)
{
    size_t n;
    char *k = mt__ps_key(MT__PS(s), key, klen, &n);
    if (k == NULL) {
        return MT_ENOMEM;
    }
    int rc = mt_store_add(MT__PS(s)->inner, k, n, delta, out);
    free(k);
    return rc;
}

static int
mt__ps_compare_set(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                   const void *desired, size_t dlen, char **out, size_t *outlen)
{
    size_t n;
    char *k = mt__ps_key(MT__PS(s), key, klen, &n);
    if (k == NULL) {
        return MT_ENOMEM;
    }
    int rc = mt_store_compare_set(MT__PS(s)->inner, k, n, expected, elen, desired, dlen, out,
                                  outlen);
    free(k);
    return rc;
}

static int
mt__ps_wait(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
            int64_t timeout_ms)
{
    char **ks;
    size_t *ls;
    int rc = mt__ps_keys(MT__PS(s), nkeys, keys, klens, &ks, &ls);
    if (rc < 0) {
        return rc;
    }
    rc = mt_store_wait(MT__PS(s)->inner, nkeys, (const char *const *)ks, ls, timeout_ms);
    mt__ps_free_keys(nkeys, ks, ls);
    return rc;
}

static int
mt__ps_multi_get(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
                 int64_t timeout_ms, char **vals, size_t *vlens)
{
    char **ks;
    size_t *ls;
    int rc = mt__ps_keys(MT__PS(s), nkeys, keys, klens, &ks, &ls);
    if (rc < 0) {
        return rc;
    }
    rc = mt_store_multi_get(MT__PS(s)->inner, nkeys, (const char *const *)ks, ls, timeout_ms,
                            vals, vlens);
    mt__ps_free_keys(nkeys, ks, ls);
    return rc;
}

static int
mt__ps_check(mt_store *s, int nkeys, const char *const *keys, const size_t *klens, int *out)
{
    char **ks;
    size_t *ls;
    int rc = mt__ps_keys(MT__PS(s), nkeys, keys, klens, &ks, &ls);
    if (rc < 0) {
        return rc;
    }
    rc = mt_store_check(MT__PS(s)->inner, nkeys, (const char *const *)ks, ls, out);
    mt__ps_free_keys(nkeys, ks, ls);
    return rc;
}

static int
mt__ps_delete_key(mt_store *s, const char *key, size_t klen, int *out)
{
    size_t n;
    char *k = mt__ps_key(MT__PS(s), key, klen, &n);
    if (k == NULL) {
        return MT_ENOMEM;
    }
    int rc = mt_store_delete_key(MT__PS(s)->inner, k, n, out);
    free(k);
    return rc;
}

/* Like torch's PrefixStore, this counts the keys of the whole underlying store. */
static int
mt__ps_compare_delete(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                      int *out)
{
    size_t n;
    char *k = mt__ps_key(MT__PS(s), key, klen, &n);
    if (k == NULL) {
        return MT_ENOMEM;
    }
    int rc = mt_store_compare_delete(MT__PS(s)->inner, k, n, expected, elen, out);
    free(k);
    return rc;
}

static int
mt__ps_num_keys(mt_store *s, int64_t *out)
{
    return mt_store_num_keys(MT__PS(s)->inner, out);
}

static int
mt__ps_local_addr(mt_store *s, char *buf, size_t cap)
{
    return mt_store_local_addr(MT__PS(s)->inner, buf, cap);
}

static void
mt__ps_close(mt_store *s)
{
    mt_store_decref(MT__PS(s)->inner);
    MT__PS(s)->inner = NULL;
}

static void
mt__ps_free(mt_store *s)
{
    free(MT__PS(s)->prefix);
    free(s);
}

static const mt_store_vtable mt__prefix_store_vt = {
    .name = "PrefixStore",
    .set = mt__ps_set,
    .get = mt__ps_get,
    .add = mt__ps_add,
    .compare_set = mt__ps_compare_set,
    .wait = mt__ps_wait,
    .check = mt__ps_check,
    .delete_key = mt__ps_delete_key,
    .compare_delete = mt__ps_compare_delete,
    .num_keys = mt__ps_num_keys,
    .multi_get = mt__ps_multi_get,
    .local_addr = mt__ps_local_addr,
    .close = mt__ps_close,
    .free = mt__ps_free,
};

mt_store *
mt_prefix_store_new(const char *prefix, mt_store *inner)
{
    if (prefix == NULL || inner == NULL) {
        mt_error_set(MT_EINVAL, "PrefixStore needs a prefix and a store");
        return NULL;
    }
    mt__prefix_store *p = calloc(1, sizeof(*p));
    size_t n = strlen(prefix);
    char *pre = malloc(n + 2);
    if (p == NULL || pre == NULL) {
        free(p);
        free(pre);
        mt_error_set(MT_ENOMEM, "out of memory creating a PrefixStore");
        return NULL;
    }
    memcpy(pre, prefix, n);
    pre[n] = '/';
    pre[n + 1] = '\0';
    p->prefix = pre;
    p->plen = n + 1;
    mt_store_incref(inner);
    p->inner = inner;
    mt__store_init(&p->base, &mt__prefix_store_vt, inner->timeout_ms);
    return &p->base;
}
