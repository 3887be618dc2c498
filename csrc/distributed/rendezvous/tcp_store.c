/* csrc/distributed/rendezvous/tcp_store.c - TCPStore client (and, on the master, owner of the server). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "c10_lite/error.h"
#include "csrc/distributed/common/auth.h"
#include "csrc/distributed/rendezvous/kvmap.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/rendezvous/store.h"
#include "csrc/distributed/rendezvous/tcp_store_proto.h"
#include "csrc/distributed/rendezvous/tcp_store_server.h"

/* How long past a request's own timeout the client waits for the server's answer: the
 * server answers a parked request at its own deadline, in torch's words, which the client
 * would rather report than its own.  See Note [TCPStore protocol]. */
#define MT__TS_SLACK_MS 1000

typedef struct mt__tcp_store {
    mt_store base;
    pthread_mutex_t mu; /* one request in flight per connection */
    mt__ts_server *server; /* the master's server, else NULL */
    char *host;
    int port;
    int fd;             /* -1 once broken or closed */
    char peer[300];     /* "TCPStore server at host:port", for messages */
    char broken[512];   /* first connection error, reported by later calls */
    int64_t owed;       /* replies to requests given up at their deadline before any byte of
                           the reply came: read and dropped ahead of the next reply */
} mt__tcp_store;

#define MT__TS(s) ((mt__tcp_store *)(s))

static const mt_store_vtable mt__tcp_store_vt;

/* Reads and drops the replies owed for requests given up earlier (mutex held). */
static int
mt__tc_drop_owed(mt__tcp_store *t, int64_t deadline)
{
    char hdr[8], scratch[4096];
    while (t->owed > 0) {
        int rc = mt__sock_read_full(t->fd, hdr, 8, deadline, t->peer);
        uint64_t n = rc == 0 ? mt__be64(hdr) : 0;
        if (rc == 0 && (n == 0 || n > MT__TS_MAX_FRAME)) {
            rc = mt_error_set(MT_ECONN, "malformed reply from %s", t->peer);
        }
        while (rc == 0 && n > 0) {
            size_t k = n < sizeof(scratch) ? (size_t)n : sizeof(scratch);
            rc = mt__sock_read_full(t->fd, scratch, k, deadline, t->peer);
            n -= k;
        }
        if (rc < 0) {
            return rc;
        }
        t->owed--;
    }
    return 0;
}

/* 0 once a byte of the reply can be read; MT_ETIMEOUT when none came by the deadline. */
static int
mt__tc_await_reply(mt__tcp_store *t, int64_t deadline)
{
    for (;;) {
        struct pollfd p = {.fd = t->fd, .events = POLLIN};
        int r = poll(&p, 1, mt__ms_left(deadline));
        if (r > 0) {
            return 0; /* errors and hangups surface in the read */
        }
        if (r == 0) {
            return MT_ETIMEOUT;
        }
        if (errno != EINTR) {
            return mt_error_set(MT_ECONN, "poll failed waiting for %s: %s", t->peer,
                                strerror(errno));
        }
    }
}

/* Sends one request and reads its reply (mutex held).  On success *rep is
 * the malloc'd reply payload (status byte first).  No reply by the request's
 * timeout (plus MT__TS_SLACK_MS) is a timeout error that leaves the connection
 * usable (the late reply is dropped when it comes); any other socket failure,
 * or a reply cut short, breaks the connection for good. */
static int
mt__tc_roundtrip(mt__tcp_store *t, mt__buf *req, int64_t wait_ms, char **rep, size_t *replen)
{
    if (t->fd < 0) {
        return mt_error_set(t->broken[0] ? MT_ECONN : MT_ECLOSED, "%s",
                            t->broken[0] ? t->broken : "TCPStore is closed");
    }
    if (req->oom) {
        return mt_error_set(MT_ENOMEM, "TCPStore: out of memory building a request");
    }
    if (req->n > mt__ts_max_request()) {
        return mt_error_set(MT_EINVAL,
                            "TCPStore: a request of %zu bytes exceeds the store's limit of %zu "
                            "bytes for a value (and %d for its key); set "
                            "MINITORCH_STORE_MAX_VALUE_BYTES on every process to allow more",
                            req->n, mt__ts_max_value(), 65536);
    }
    if (wait_ms > INT64_MAX / 2) {
        wait_ms = INT64_MAX / 2; /* "forever" */
    }
    int64_t deadline = mt__deadline_after(wait_ms + MT__TS_SLACK_MS);
    char hdr[8];
    uint64_t n = req->n;
    for (int i = 0; i < 8; i++) {
        hdr[i] = (char)(n >> (56 - 8 * i));
    }
    char *buf = NULL;
    int rc = mt__tc_drop_owed(t, deadline);
    if (rc == 0) {
        rc = mt__sock_write_full(t->fd, hdr, 8, deadline, t->peer);
    }
    if (rc == 0) {
        rc = mt__sock_write_full(t->fd, req->p, req->n, deadline, t->peer);
    }
    if (rc == 0) {
        rc = mt__tc_await_reply(t, deadline);
        if (rc == MT_ETIMEOUT) {
            t->owed++;
            return mt_error_set(MT_ETIMEOUT, "%s did not answer within the timeout (%lld ms)",
                                t->peer, (long long)wait_ms);
        }
    }
    if (rc == 0) {
        rc = mt__sock_read_full(t->fd, hdr, 8, deadline, t->peer);
    }
    if (rc == 0) {
        n = mt__be64(hdr);
        if (n == 0 || n > MT__TS_MAX_FRAME) {
            rc = mt_error_set(MT_ECONN, "malformed reply from %s", t->peer);
        }
    }
    if (rc == 0) {
        buf = malloc((size_t)n + 1);
        rc = buf ? mt__sock_read_full(t->fd, buf, (size_t)n, deadline, t->peer)
                 : mt_error_set(MT_ENOMEM, "TCPStore: out of memory for a %llu-byte reply",
                                (unsigned long long)n);
    }
    if (rc < 0) {
        free(buf);
        if (rc != MT_ENOMEM) {
            snprintf(t->broken, sizeof(t->broken), "TCPStore: %s", mt_error_message());
            close(t->fd);
            t->fd = -1;
            return mt_error_set(MT_ECONN, "%s", t->broken);
        }
        return rc;
    }
    buf[n] = '\0';
    *rep = buf;
    *replen = (size_t)n;
    return 0;
}

/* Roundtrip + status check; on success r is positioned after the status byte
 * and *rep must be freed by the caller. */
static int
mt__tc_call(mt__tcp_store *t, mt__buf *req, int64_t wait_ms, const char *what, char **rep,
            mt__rd *r)
{
    size_t n = 0;
    pthread_mutex_lock(&t->mu);
    int rc = mt__tc_roundtrip(t, req, wait_ms, rep, &n);
    pthread_mutex_unlock(&t->mu);
    mt__buf_free(req);
    if (rc < 0) {
        return rc;
    }
    *r = (mt__rd){.p = *rep, .n = n};
    unsigned status = mt__rd_u8(r);
    if (status != MT__TS_OK) {
        int code = status == MT__TS_TIMEOUT ? MT_ETIMEOUT : MT_EINVAL;
        /* the server's words (torch's) first */
        mt_error_set(code, "%.*s (TCPStore %s, %s:%d)", (int)r->n, r->p, what, t->host, t->port);
        free(*rep);
        return code;
    }
    return 0;
}

static int
mt__tc_bad_reply(mt__tcp_store *t, char *rep)
{
    free(rep);
    return mt_error_set(MT_ECONN, "TCPStore: malformed reply from %s", t->peer);
}

/* Sends req and reads a one-byte reply (a yes/no answer) into *out. */
static int
mt__tc_call_flag(mt__tcp_store *t, mt__buf *req, int64_t wait_ms, const char *what, int *out)
{
    char *rep;
    mt__rd r;
    int rc = mt__tc_call(t, req, wait_ms, what, &rep, &r);
    if (rc < 0) {
        return rc;
    }
    unsigned v = mt__rd_u8(&r);
    if (r.bad) {
        return mt__tc_bad_reply(t, rep);
    }
    free(rep);
    *out = (int)v;
    return 0;
}

static int
mt__tc_set(mt_store *s, const char *key, size_t klen, const void *val, size_t vlen)
{
    mt__tcp_store *t = MT__TS(s);
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_SET);
    mt__buf_put_bytes(&req, key, klen);
    mt__buf_put_bytes(&req, val, vlen);
    char *rep;
    mt__rd r;
    int rc = mt__tc_call(t, &req, s->timeout_ms, "set", &rep, &r);
    if (rc == 0) {
        free(rep);
    }
    return rc;
}

/* Copies a value out of a reply; frees the reply. */
static int
mt__tc_take_value(mt__tcp_store *t, char *rep, mt__rd *r, char **out, size_t *outlen)
{
    size_t vl;
    const char *v = mt__rd_bytes(r, &vl);
    if (r->bad) {
        return mt__tc_bad_reply(t, rep);
    }
    char *c = mt__memdup(v, vl);
    free(rep);
    if (c == NULL) {
        return MT_ENOMEM;
    }
    *out = c;
    *outlen = vl;
    return 0;
}

static int
mt__tc_get(mt_store *s, const char *key, size_t klen, int64_t timeout_ms, char **out,
           size_t *outlen)
{
    mt__tcp_store *t = MT__TS(s);
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_GET);
    mt__buf_put_bytes(&req, key, klen);
    mt__buf_put_u64(&req, (uint64_t)timeout_ms);
    char *rep;
    mt__rd r;
    int rc = mt__tc_call(t, &req, timeout_ms, "get", &rep, &r);
    if (rc < 0) {
        return rc;
    }
    return mt__tc_take_value(t, rep, &r, out, outlen);
}

static int
mt__tc_add(mt_store *s, const char *key, size_t klen, int64_t delta, int64_t *out)
{
    mt__tcp_store *t = MT__TS(s);
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_ADD);
    mt__buf_put_bytes(&req, key, klen);
    mt__buf_put_u64(&req, (uint64_t)delta);
    char *rep;
    mt__rd r;
    int rc = mt__tc_call(t, &req, s->timeout_ms, "add", &rep, &r);
    if (rc < 0) {
        return rc;
    }
    int64_t v = (int64_t)mt__rd_u64(&r);
    if (r.bad) {
        return mt__tc_bad_reply(t, rep);
    }
    free(rep);
    *out = v;
    return 0;
}

static int
mt__tc_compare_set(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                   const void *desired, size_t dlen, char **out, size_t *outlen)
{
    mt__tcp_store *t = MT__TS(s);
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_COMPARE_SET);
    mt__buf_put_bytes(&req, key, klen);
    mt__buf_put_bytes(&req, expected, elen);
    mt__buf_put_bytes(&req, desired, dlen);
    char *rep;
    mt__rd r;
    int rc = mt__tc_call(t, &req, s->timeout_ms, "compare_set", &rep, &r);
    if (rc < 0) {
        return rc;
    }
    return mt__tc_take_value(t, rep, &r, out, outlen);
}

static void
mt__tc_put_keys(mt__buf *req, int nkeys, const char *const *keys, const size_t *klens)
{
    mt__buf_put_u64(req, (uint64_t)nkeys);
    for (int i = 0; i < nkeys; i++) {
        mt__buf_put_bytes(req, keys[i], klens[i]);
    }
}

/* A request of keys and a timeout (WAIT, MULTI_GET) through mt__tc_call. */
static int
mt__tc_keys_call(mt__tcp_store *t, int cmd, int nkeys, const char *const *keys,
                 const size_t *klens, int64_t timeout_ms, const char *what, char **rep, mt__rd *r)
{
    mt__buf req = {0};
    mt__buf_put_u8(&req, (unsigned)cmd);
    mt__tc_put_keys(&req, nkeys, keys, klens);
    mt__buf_put_u64(&req, (uint64_t)timeout_ms);
    return mt__tc_call(t, &req, timeout_ms, what, rep, r);
}

static int
mt__tc_wait(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
            int64_t timeout_ms)
{
    char *rep;
    mt__rd r;
    int rc = mt__tc_keys_call(MT__TS(s), MT__TS_WAIT, nkeys, keys, klens, timeout_ms, "wait",
                              &rep, &r);
    if (rc == 0) {
        free(rep);
    }
    return rc;
}

static int
mt__tc_multi_get(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
                 int64_t timeout_ms, char **vals, size_t *vlens)
{
    mt__tcp_store *t = MT__TS(s);
    char *rep;
    mt__rd r;
    int rc = mt__tc_keys_call(t, MT__TS_MULTI_GET, nkeys, keys, klens, timeout_ms, "multi_get",
                              &rep, &r);
    if (rc < 0) {
        return rc;
    }
    int got = 0;
    for (; got < nkeys; got++) {
        size_t vl;
        const char *v = mt__rd_bytes(&r, &vl);
        char *c = r.bad ? NULL : mt__memdup(v, vl);
        if (c == NULL) {
            break;
        }
        vals[got] = c;
        vlens[got] = vl;
    }
    if (got < nkeys) {
        while (got-- > 0) {
            free(vals[got]);
        }
        if (r.bad) {
            return mt__tc_bad_reply(t, rep);
        }
        free(rep);
        return mt_error_set(MT_ENOMEM, "TCPStore: out of memory for multi_get's values");
    }
    free(rep);
    return 0;
}

static int
mt__tc_check(mt_store *s, int nkeys, const char *const *keys, const size_t *klens, int *out)
{
    mt__tcp_store *t = MT__TS(s);
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_CHECK);
    mt__tc_put_keys(&req, nkeys, keys, klens);
    return mt__tc_call_flag(t, &req, s->timeout_ms, "check", out);
}

static int
mt__tc_delete_key(mt_store *s, const char *key, size_t klen, int *out)
{
    mt__tcp_store *t = MT__TS(s);
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_DELETE);
    mt__buf_put_bytes(&req, key, klen);
    return mt__tc_call_flag(t, &req, s->timeout_ms, "delete_key", out);
}

static int
mt__tc_compare_delete(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                      int *out)
{
    mt__tcp_store *t = MT__TS(s);
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_COMPARE_DELETE);
    mt__buf_put_bytes(&req, key, klen);
    mt__buf_put_bytes(&req, expected, elen);
    return mt__tc_call_flag(t, &req, s->timeout_ms, "compare_delete", out);
}

static int
mt__tc_num_keys(mt_store *s, int64_t *out)
{
    mt__tcp_store *t = MT__TS(s);
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_NUM_KEYS);
    char *rep;
    mt__rd r;
    int rc = mt__tc_call(t, &req, s->timeout_ms, "num_keys", &rep, &r);
    if (rc < 0) {
        return rc;
    }
    int64_t v = (int64_t)mt__rd_u64(&r);
    if (r.bad) {
        return mt__tc_bad_reply(t, rep);
    }
    free(rep);
    /* torch's server holds one bookkeeping key (its worker counter) that num_keys counts */
    *out = v + 1;
    return 0;
}

static int
mt__tc_local_addr(mt_store *s, char *buf, size_t cap)
{
    mt__tcp_store *t = MT__TS(s);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    pthread_mutex_lock(&t->mu);
    int ok = t->fd >= 0 && getsockname(t->fd, (struct sockaddr *)&ss, &sl) == 0;
    pthread_mutex_unlock(&t->mu);
    if (!ok) {
        return mt_error_set(MT_ECONN, "TCPStore: no connection to take a local address from");
    }
    return mt__sockaddr_host((struct sockaddr *)&ss, buf, cap);
}

static void
mt__tc_close(mt_store *s)
{
    mt__tcp_store *t = MT__TS(s);
    pthread_mutex_lock(&t->mu);
    if (t->fd >= 0) {
        close(t->fd);
        t->fd = -1;
    }
    pthread_mutex_unlock(&t->mu);
    mt__ts_server_stop(t->server);
    t->server = NULL;
}

static void
mt__tc_free(mt_store *s)
{
    mt__tcp_store *t = MT__TS(s);
    pthread_mutex_destroy(&t->mu);
    free(t->host);
    free(t);
}

static const mt_store_vtable mt__tcp_store_vt = {
    .name = "TCPStore",
    .set = mt__tc_set,
    .get = mt__tc_get,
    .add = mt__tc_add,
    .compare_set = mt__tc_compare_set,
    .wait = mt__tc_wait,
    .check = mt__tc_check,
    .delete_key = mt__tc_delete_key,
    .compare_delete = mt__tc_compare_delete,
    .num_keys = mt__tc_num_keys,
    .multi_get = mt__tc_multi_get,
    .local_addr = mt__tc_local_addr,
    .close = mt__tc_close,
    .free = mt__tc_free,
};

static mt_store *
mt__tcp_store_create(const char *host, int port, int listen_fd, int world_size, bool is_master,
                     int64_t timeout_ms, bool wait_for_workers, const void *token, size_t toklen)
{
    if (toklen > MT_AUTH_TOKEN_MAX) {
        if (listen_fd >= 0) {
            close(listen_fd);
        }
        mt_error_set(MT_EINVAL, "TCPStore: the job token is %zu bytes; at most %d are allowed",
                     toklen, MT_AUTH_TOKEN_MAX);
        return NULL;
    }
    if (host == NULL || host[0] == '\0') {
        if (listen_fd >= 0) {
            close(listen_fd);
        }
        mt_error_set(MT_EINVAL, "TCPStore: host must be a non-empty string");
        return NULL;
    }
    if (port < 0 || port > 65535 || (port == 0 && !is_master)) {
        mt_error_set(MT_EINVAL, "TCPStore: invalid port %d for host %s (clients need the "
                     "master's port, 1..65535)", port, host);
        return NULL;
    }
    if (timeout_ms <= 0) {
        if (listen_fd >= 0) {
            close(listen_fd);
        }
        mt_error_set(MT_EINVAL, "TCPStore: timeout must be positive, got %lld ms",
                     (long long)timeout_ms);
        return NULL;
    }
    mt__tcp_store *t = calloc(1, sizeof(*t));
    char *h = mt__memdup(host, strlen(host));
    if (t == NULL || h == NULL) {
        free(t);
        free(h);
        if (listen_fd >= 0) {
            close(listen_fd);
        }
        mt_error_set(MT_ENOMEM, "out of memory creating a TCPStore");
        return NULL;
    }
    pthread_mutex_init(&t->mu, NULL);
    mt__store_init(&t->base, &mt__tcp_store_vt, timeout_ms);
    t->host = h;
    t->fd = -1;
    if (is_master) {
        t->server = mt__ts_server_start(host, port, listen_fd, token, toklen);
        if (t->server == NULL) {
            mt_store_decref(&t->base);
            return NULL;
        }
        port = mt__ts_server_port(t->server);
    }
    t->port = port;
    snprintf(t->peer, sizeof(t->peer), "TCPStore server at %s:%d", host, port);
    int64_t deadline = mt__deadline_after(timeout_ms);
    int rc = mt__sock_connect(host, port, deadline, &t->fd);
    if (rc < 0) {
        mt_error_prefix(rc, "TCPStore client (is_master=%s)", is_master ? "True" : "False");
        mt_store_decref(&t->base);
        return NULL;
    }
    /* Note [Job token]: before any request; without a token the bytes are as they always were */
    if (toklen > 0) {
        rc = mt_auth_client(t->fd, token, toklen, deadline, t->peer);
        if (rc < 0) {
            mt_store_decref(&t->base);
            return NULL;
        }
    }
    mt__buf req = {0};
    mt__buf_put_u8(&req, MT__TS_HELLO);
    mt__buf_put_u64(&req, MT__TS_MAGIC);
    char *rep;
    mt__rd r;
    rc = mt__tc_call(t, &req, timeout_ms, "connect", &rep, &r);
    if (rc < 0) {
        if (rc == MT_ECONN && toklen == 0) {
            char msg[600];
            snprintf(msg, sizeof(msg), "%s", mt_error_message());
            mt_error_set(rc, "%s (a server that requires a job token closes such connections: "
                         "see MINITORCH_DIST_TOKEN)", msg);
        }
        mt_store_decref(&t->base);
        return NULL;
    }
    free(rep);
    if (is_master && wait_for_workers && world_size > 0) {
        mt__buf_put_u8(&req, MT__TS_WAIT_WORKERS);
        mt__buf_put_u64(&req, (uint64_t)world_size);
        mt__buf_put_u64(&req, (uint64_t)(deadline - mt__now_ms() > 0 ? deadline - mt__now_ms() : 0));
        rc = mt__tc_call(t, &req, timeout_ms, "wait_for_workers", &rep, &r);
        if (rc < 0) {
            mt_store_decref(&t->base);
            return NULL;
        }
        free(rep);
    }
    return &t->base;
}

mt_store *
mt_tcp_store_new(const char *host, int port, int world_size, bool is_master, int64_t timeout_ms,
                 bool wait_for_workers)
{
    return mt__tcp_store_create(host, port, -1, world_size, is_master, timeout_ms,
                                wait_for_workers, NULL, 0);
}

mt_store *
mt_tcp_store_new_on_listener(const char *host, int listen_fd, int world_size, int64_t timeout_ms,
                             bool wait_for_workers)
{
    if (listen_fd < 0) {
        mt_error_set(MT_EINVAL, "TCPStore: invalid listening socket %d", listen_fd);
        return NULL;
    }
    return mt__tcp_store_create(host, 0, listen_fd, world_size, true, timeout_ms,
                                wait_for_workers, NULL, 0);
}

mt_store *
mt_tcp_store_new_auth(const char *host, int port, int listen_fd, int world_size, bool is_master,
                      int64_t timeout_ms, bool wait_for_workers, const void *token,
                      size_t toklen)
{
    if (listen_fd >= 0 && !is_master) {
        close(listen_fd);
        mt_error_set(MT_EINVAL, "TCPStore: a listening socket is for the master");
        return NULL;
    }
    return mt__tcp_store_create(host, port, listen_fd, world_size, is_master, timeout_ms,
                                wait_for_workers, token, toklen);
}

int
mt_tcp_store_port(mt_store *s)
{
    return s->vt == &mt__tcp_store_vt ? MT__TS(s)->port : -1;
}

const char *
mt_tcp_store_host(mt_store *s)
{
    return s->vt == &mt__tcp_store_vt ? MT__TS(s)->host : NULL;
}
