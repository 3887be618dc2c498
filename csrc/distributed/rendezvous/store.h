/* csrc/distributed/rendezvous/store.h - key/value stores used to rendezvous ranks. */
#ifndef CSRC_DISTRIBUTED_RENDEZVOUS_STORE_H
#define CSRC_DISTRIBUTED_RENDEZVOUS_STORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Note [Store semantics]
 * A store maps byte-string keys to byte-string values, shared by every rank of
 * a job (torch.distributed.Store).  Keys and values are binary safe: every key
 * is passed as (pointer, length).
 *   set          overwrite the value of a key
 *   get          the value, waiting up to a timeout for the key to appear
 *   add          treat the value as a decimal integer, add a delta, return the
 *                sum (a missing key counts as 0); the value is stored as text,
 *                so get() of an added key returns e.g. "3" as torch does
 *   compare_set  if the key is missing and `expected` is empty, or the current
 *                value equals `expected`, store `desired`; always returns the
 *                value after the operation (for a missing key with a non-empty
 *                `expected`: `expected`, as torch does)
 *   wait         wait until all keys exist (timeout)
 *   check        whether all keys exist now
 *   delete_key   remove a key; whether it existed
 *   compare_delete  remove a key if its value equals `expected`; whether it
 *                did (the queues need it: an emptied queue's key is gone)
 *   num_keys     number of keys
 *   multi_get    the values of several keys, each waited for (one request on a TCPStore)
 * Timeouts are in milliseconds; a negative timeout means the store's default
 * (mt_store_timeout_ms).  Waiting never lasts longer than the timeout: a
 * timed out wait returns MT_ETIMEOUT naming the key(s).
 *
 * Stores are refcounted: the creator owns one reference; a PrefixStore or a
 * process group takes its own.  The last mt_store_decref closes the store (a
 * TCPStore master stops its server, a FileStore counts itself as closed). */

typedef struct mt_store mt_store;

typedef struct mt_store_vtable {
    const char *name;
    int (*set)(mt_store *s, const char *key, size_t klen, const void *val, size_t vlen);
    /* *out is malloc'd (caller frees), NUL-terminated past *outlen. */
    int (*get)(mt_store *s, const char *key, size_t klen, int64_t timeout_ms, char **out,
               size_t *outlen);
    int (*add)(mt_store *s, const char *key, size_t klen, int64_t delta, int64_t *out);
    int (*compare_set)(mt_store *s, const char *key, size_t klen, const void *expected,
                       size_t elen, const void *desired, size_t dlen, char **out, size_t *outlen);
    int (*wait)(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
                int64_t timeout_ms);
    /* *out: 1 when every key exists, else 0. */
    int (*check)(mt_store *s, int nkeys, const char *const *keys, const size_t *klens, int *out);
    /* *out: 1 when the key existed. */
    int (*delete_key)(mt_store *s, const char *key, size_t klen, int *out);
    /* *out: 1 when the key held `expected` and is now gone. */
    int (*compare_delete)(mt_store *s, const char *key, size_t klen, const void *expected,
                          size_t elen, int *out);
    int (*num_keys)(mt_store *s, int64_t *out);
    /* Optional (NULL: one get per key): the values of nkeys keys, each waited for; vals[i]
     * malloc'd (caller frees each), NUL-terminated past vlens[i]. */
    int (*multi_get)(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
                     int64_t timeout_ms, char **vals, size_t *vlens);
    /* The local address a transport should bind to so that peers can reach
     * it (e.g. the address this host uses to reach a TCPStore server); NULL
     * when the store has no opinion.  Fills buf and returns 0, or returns
     * MT_ENOTIMPL. */
    int (*local_addr)(mt_store *s, char *buf, size_t cap);
    /* Releases OS resources; called once, by the last decref. */
    void (*close)(mt_store *s);
    /* Frees the object; called after close. */
    void (*free)(mt_store *s);
} mt_store_vtable;

struct mt_store {
    const mt_store_vtable *vt;
    _Atomic int64_t refcount;
    int64_t timeout_ms; /* default timeout of get/wait */
};

/* Sets up the common header of a store implementation (refcount 1). */
void mt__store_init(mt_store *s, const mt_store_vtable *vt, int64_t timeout_ms);

static inline void
mt_store_incref(mt_store *s)
{
    atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
}
/* Drops one reference; the last one closes and frees the store.  NULL ok. */
void mt_store_decref(mt_store *s);

static inline int64_t
mt_store_timeout_ms(const mt_store *s)
{
    return s->timeout_ms;
}
/* Sets the default timeout (milliseconds, > 0; MT_EINVAL otherwise). */
int mt_store_set_timeout(mt_store *s, int64_t timeout_ms);

/* Operations, see Note [Store semantics].  All return 0 or a negative MT_E*
 * code with the thread-local message set; on failure outputs are untouched. */
int mt_store_set(mt_store *s, const char *key, size_t klen, const void *val, size_t vlen);
/* *out is malloc'd, caller frees it with free(). */
int mt_store_get(mt_store *s, const char *key, size_t klen, int64_t timeout_ms, char **out,
                 size_t *outlen);
int mt_store_add(mt_store *s, const char *key, size_t klen, int64_t delta, int64_t *out);
/* *out is malloc'd, caller frees it with free(). */
int mt_store_compare_set(mt_store *s, const char *key, size_t klen, const void *expected,
                         size_t elen, const void *desired, size_t dlen, char **out,
                         size_t *outlen);
int mt_store_wait(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
                  int64_t timeout_ms);
int mt_store_check(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
                   int *out);
int mt_store_delete_key(mt_store *s, const char *key, size_t klen, int *out);
int mt_store_compare_delete(mt_store *s, const char *key, size_t klen, const void *expected,
                            size_t elen, int *out);
int mt_store_num_keys(mt_store *s, int64_t *out);
/* The values of nkeys keys, waiting up to the timeout for every one (torch's multi_get): one
 * request where the store has it (TCPStore), else one get per key.  vals[i] malloc'd (caller
 * frees each); on failure nothing is left allocated. */
int mt_store_multi_get(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
                       int64_t timeout_ms, char **vals, size_t *vlens);
/* See mt_store_vtable.local_addr. */
int mt_store_local_addr(mt_store *s, char *buf, size_t cap);

/* C-string conveniences (key = strlen(key) bytes). */
int mt_store_set_str(mt_store *s, const char *key, const char *val);
int mt_store_get_str(mt_store *s, const char *key, int64_t timeout_ms, char **out);

/* ---- implementations (each returns a new reference, caller owns; NULL +
 * message on failure) ---- */

/* In-process store: a hash map, a mutex and a condition variable. */
mt_store *mt_hash_store_new(int64_t timeout_ms);

/* Prefixes every key with "<prefix>/" and forwards to `inner` (borrowed: the
 * prefix store takes its own reference). */
mt_store *mt_prefix_store_new(const char *prefix, mt_store *inner);

/* A file shared by processes (NFS included): an append-only log of records
 * guarded by flock.  The last of `world_size` users to close it removes the
 * file (world_size <= 0: never removed). */
mt_store *mt_file_store_new(const char *path, int world_size, int64_t timeout_ms);

/* torch.distributed.TCPStore(host, port, world_size, is_master, timeout,
 * wait_for_workers).  The master starts a server thread bound to all
 * interfaces on `port` (0: a free port, see mt_tcp_store_port) and also acts
 * as a client.  Clients retry connecting until the timeout.  With
 * wait_for_workers and world_size > 0 the master's constructor returns only
 * after world_size clients (itself included) have connected. */
mt_store *mt_tcp_store_new(const char *host, int port, int world_size, bool is_master,
                           int64_t timeout_ms, bool wait_for_workers);
/* A master TCPStore whose server serves on `listen_fd`, a bound TCP socket
 * (torch's master_listen_fd): steals the descriptor (closed on failure too). */
mt_store *mt_tcp_store_new_on_listener(const char *host, int listen_fd, int world_size,
                                       int64_t timeout_ms, bool wait_for_workers);
/* Either of the two above (listen_fd >= 0 needs is_master) with a job token: toklen > 0 makes
 * the server refuse clients that do not prove they know it, and the client authenticate
 * before its first request (Note [Job token] in common/auth.h); toklen 0 is the above. */
mt_store *mt_tcp_store_new_auth(const char *host, int port, int listen_fd, int world_size,
                                bool is_master, int64_t timeout_ms, bool wait_for_workers,
                                const void *token, size_t toklen);
/* The port the server listens on / the client connected to; -1 if `s` is not a TCPStore. */
int mt_tcp_store_port(mt_store *s);
const char *mt_tcp_store_host(mt_store *s); /* borrowed; NULL if not a TCPStore */

#endif /* CSRC_DISTRIBUTED_RENDEZVOUS_STORE_H */
