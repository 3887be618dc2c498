/* csrc/distributed/rendezvous/kvmap.h - a binary-safe string -> bytes hash map shared by the stores. */
#ifndef CSRC_DISTRIBUTED_RENDEZVOUS_KVMAP_H
#define CSRC_DISTRIBUTED_RENDEZVOUS_KVMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct mt__kv_entry {
    char *key; /* malloc'd, NUL-terminated past klen */
    size_t klen;
    char *val; /* malloc'd, NUL-terminated past vlen */
    size_t vlen;
    struct mt__kv_entry *next;
} mt__kv_entry;

typedef struct mt__kvmap {
    mt__kv_entry **buckets;
    size_t nbuckets;
    size_t count;
} mt__kvmap;

/* Not thread-safe: the owner locks.  All functions that allocate return
 * MT_ENOMEM (map unchanged) on failure. */
void mt__kvmap_init(mt__kvmap *m);
void mt__kvmap_clear(mt__kvmap *m);
/* Borrowed entry or NULL. */
mt__kv_entry *mt__kvmap_find(const mt__kvmap *m, const char *key, size_t klen);
/* Copies key and value. */
int mt__kvmap_set(mt__kvmap *m, const char *key, size_t klen, const void *val, size_t vlen);
/* 1 when the key existed (and is now gone), 0 otherwise. */
int mt__kvmap_delete(mt__kvmap *m, const char *key, size_t klen);
/* 1 when the key held (expected, elen) and is now gone, 0 otherwise. */
int mt__kvmap_compare_delete(mt__kvmap *m, const char *key, size_t klen, const void *expected,
                             size_t elen);
/* See Note [Store semantics]: decimal add, MT_EINVAL when the value is not an integer. */
int mt__kvmap_add(mt__kvmap *m, const char *key, size_t klen, int64_t delta, int64_t *out);
/* See Note [Store semantics]: compare-and-set; *out (malloc'd, caller frees) is
 * the resulting value. */
int mt__kvmap_compare_set(mt__kvmap *m, const char *key, size_t klen, const void *expected,
                          size_t elen, const void *desired, size_t dlen, char **out,
                          size_t *outlen);

/* malloc'd copy of (p, n) with a NUL after it; NULL + MT_ENOMEM message on failure. */
char *mt__memdup(const void *p, size_t n);
/* Writes a printable form of a key ("abc", non-printable bytes as \xNN,
 * truncated with "...") into buf; returns buf. */
const char *mt__key_repr(char *buf, size_t cap, const char *key, size_t klen);

#endif /* CSRC_DISTRIBUTED_RENDEZVOUS_KVMAP_H */
