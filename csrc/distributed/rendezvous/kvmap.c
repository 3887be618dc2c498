/* csrc/distributed/rendezvous/kvmap.c - the stores' hash map and key helpers. */
#include "csrc/distributed/rendezvous/kvmap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"

#define MT__KV_MIN_BUCKETS 64

char *
mt__memdup(const void *p, size_t n)
{
    char *c = malloc(n + 1);
    if (c == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory copying %zu bytes", n);
        return NULL;
    }
    if (n) {
        memcpy(c, p, n);
    }
    c[n] = '\0';
    return c;
}

const char *
mt__key_repr(char *buf, size_t cap, const char *key, size_t klen)
{
    size_t o = 0;
    for (size_t i = 0; i < klen; i++) {
        unsigned char c = (unsigned char)key[i];
        if (o + 8 >= cap) {
            snprintf(buf + o, cap - o, "...");
            return buf;
        }
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            buf[o++] = (char)c;
        }
        else {
            o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
        }
    }
    buf[o] = '\0';
    return buf;
}

static uint64_t
mt__hash(const char *key, size_t klen)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < klen; i++) {
        h ^= (unsigned char)key[i];
        h *= 1099511628211ull;
    }
    return h;
}

void
mt__kvmap_init(mt__kvmap *m)
{
    m->buckets = NULL;
    m->nbuckets = 0;
    m->count = 0;
}

static void
mt__entry_free(mt__kv_entry *e)
{
    free(e->key);
    free(e->val);
    free(e);
}

void
mt__kvmap_clear(mt__kvmap *m)
{
    for (size_t b = 0; b < m->nbuckets; b++) {
        mt__kv_entry *e = m->buckets[b];
        while (e != NULL) {
            mt__kv_entry *next = e->next;
            mt__entry_free(e);
            e = next;
        }
    }
    free(m->buckets);
    mt__kvmap_init(m);
}

mt__kv_entry *
mt__kvmap_find(const mt__kvmap *m, const char *key, size_t klen)
{
    if (m->nbuckets == 0) {
        return NULL;
    }
    mt__kv_entry *e = m->buckets[mt__hash(key, klen) & (m->nbuckets - 1)];
    for (; e != NULL; e = e->next) {
        if (e->klen == klen && memcmp(e->key, key, klen) == 0) {
            return e;
        }
    }
    return NULL;
}

/* Grows the table when it is more than 3/4 full.  On failure the map is unchanged. */
static int
mt__kvmap_reserve(mt__kvmap *m)
{
    if (m->nbuckets && m->count < m->nbuckets / 4 * 3) {
        return 0;
    }
    size_t nb = m->nbuckets ? m->nbuckets * 2 : MT__KV_MIN_BUCKETS;
    mt__kv_entry **nbk = calloc(nb, sizeof(*nbk));
    if (nbk == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory growing a store's table");
    }
    for (size_t b = 0; b < m->nbuckets; b++) {
        mt__kv_entry *e = m->buckets[b];
        while (e != NULL) {
            mt__kv_entry *next = e->next;
            size_t i = mt__hash(e->key, e->klen) & (nb - 1);
            e->next = nbk[i];
            nbk[i] = e;
            e = next;
        }
    }
    free(m->buckets);
    m->buckets = nbk;
    m->nbuckets = nb;
    return 0;
}

int
mt__kvmap_set(mt__kvmap *m, const char *key, size_t klen, const void *val, size_t vlen)
{
    mt__kv_entry *e = mt__kvmap_find(m, key, klen);
    char *v = mt__memdup(val, vlen);
    if (v == NULL) {
        return MT_ENOMEM;
    }
    if (e != NULL) {
        free(e->val);
        e->val = v;
        e->vlen = vlen;
        return 0;
    }
    e = calloc(1, sizeof(*e));
    char *k = mt__memdup(key, klen);
    if (e == NULL || k == NULL || mt__kvmap_reserve(m) < 0) {
        free(e);
        free(k);
        free(v);
        return mt_error_set(MT_ENOMEM, "out of memory adding a key to a store");
    }
    e->key = k;
    e->klen = klen;
    e->val = v;
    e->vlen = vlen;
    size_t i = mt__hash(key, klen) & (m->nbuckets - 1);
    e->next = m->buckets[i];
    m->buckets[i] = e;
    m->count++;
    return 0;
}

int
mt__kvmap_delete(mt__kvmap *m, const char *key, size_t klen)
{
    if (m->nbuckets == 0) {
        return 0;
    }
    mt__kv_entry **pp = &m->buckets[mt__hash(key, klen) & (m->nbuckets - 1)];
    for (; *pp != NULL; pp = &(*pp)->next) {
        mt__kv_entry *e = *pp;
        if (e->klen == klen && memcmp(e->key, key, klen) == 0) {
            *pp = e->next;
            mt__entry_free(e);
            m->count--;
            return 1;
        }
    }
    return 0;
}

int
mt__kvmap_compare_delete(mt__kvmap *m, const char *key, size_t klen, const void *expected,
                         size_t elen)
{
    mt__kv_entry *e = mt__kvmap_find(m, key, klen);
    if (e == NULL || e->vlen != elen || (elen && memcmp(e->val, expected, elen) != 0)) {
        return 0;
    }
    return mt__kvmap_delete(m, key, klen);
}

int
mt__kvmap_add(mt__kvmap *m, const char *key, size_t klen, int64_t delta, int64_t *out)
{
    int64_t cur = 0;
    mt__kv_entry *e = mt__kvmap_find(m, key, klen);
    if (e != NULL) {
        char *end = NULL;
        errno = 0;
        long long v = strtoll(e->val, &end, 10);
        if (e->vlen == 0 || errno != 0 || end != e->val + e->vlen) {
            char kr[128];
            return mt_error_set(MT_EINVAL,
                                "store add: the value of key '%s' is not an integer",
                                mt__key_repr(kr, sizeof(kr), key, klen));
        }
        cur = (int64_t)v;
    }
    int64_t sum = (int64_t)((uint64_t)cur + (uint64_t)delta);
    char buf[32];
    int n = snprintf(buf, sizeof(buf), "%" PRId64, sum);
    int rc = mt__kvmap_set(m, key, klen, buf, (size_t)n);
    if (rc < 0) {
        return rc;
    }
    *out = sum;
    return 0;
}

int
mt__kvmap_compare_set(mt__kvmap *m, const char *key, size_t klen, const void *expected,
                      size_t elen, const void *desired, size_t dlen, char **out, size_t *outlen)
{
    mt__kv_entry *e = mt__kvmap_find(m, key, klen);
    const void *res;
    size_t rlen;
    if (e == NULL) {
        if (elen == 0) {
            int rc = mt__kvmap_set(m, key, klen, desired, dlen);
            if (rc < 0) {
                return rc;
            }
            res = desired;
            rlen = dlen;
        }
        else {
            res = expected;
            rlen = elen;
        }
    }
    else {
        if (e->vlen == elen && memcmp(e->val, expected, elen) == 0) {
            int rc = mt__kvmap_set(m, key, klen, desired, dlen);
            if (rc < 0) {
                return rc;
            }
        }
        res = e->val;
        rlen = e->vlen;
    }
    char *c = mt__memdup(res, rlen);
    if (c == NULL) {
        return MT_ENOMEM;
    }
    *out = c;
    *outlen = rlen;
    return 0;
}
