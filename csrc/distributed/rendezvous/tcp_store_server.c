/* csrc/distributed/rendezvous/tcp_store_server.c - TCPStore server: one poll() thread, server-side waiters. */
#include "csrc/distributed/rendezvous/tcp_store_server.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c10_lite/error.h"
#include "csrc/distributed/common/auth.h"
#include "csrc/distributed/rendezvous/kvmap.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/rendezvous/tcp_store_proto.h"

/* See Note [TCPStore protocol]. */

typedef struct mt__ts_client {
    int fd;
    mt__buf in;  /* bytes received, not yet consumed */
    mt__buf out; /* reply bytes not yet sent */
    size_t out_off;
    bool hello;
    /* Note [Job token]: with a token, 0 until the client's hello is read, 1 until its proof
     * is, 2 when authenticated; nothing else is read before 2 */
    int auth;
    unsigned char auth_expect[MT_AUTH_PROOF_BYTES];
    int64_t auth_deadline;
    /* A parked request (cmd != 0): its keys (for GET/WAIT) and deadline. */
    int wait_cmd;
    int nkeys;
    char *kblock; /* the keys' bytes, one block (keys[i] point into it) */
    int have; /* keys[0..have) were found (a waiter resumes from there, so that n waiters on
               * n keys cost O(n) checks per write, not O(n^2)) */
    char **keys;
    size_t *klens;
    int64_t wait_count; /* WAIT_WORKERS */
    int64_t timeout_ms;
    int64_t deadline;
} mt__ts_client;

struct mt__ts_server {
    pthread_t thread;
    int lfd;
    int port;
    int wake[2]; /* a byte on wake[1] stops the thread */
    mt__kvmap map;
    /* clients that have said HELLO since the server started, those gone included: a worker
     * that joined and left already counts for WAIT_WORKERS (torch's count of joins) */
    int64_t workers;
    mt__ts_client **clients;
    int nclients, capclients;
    int64_t accept_paused_until; /* EMFILE/ENFILE: see Note [Store limits] */
    char *token; /* owned; NULL: no authentication (Note [Job token]) */
    size_t toklen;
};

static void
mt__client_clear_wait(mt__ts_client *c)
{
    free(c->kblock);
    free(c->keys);
    free(c->klens);
    c->kblock = NULL;
    c->keys = NULL;
    c->klens = NULL;
    c->nkeys = 0;
    c->have = 0;
    c->wait_cmd = 0;
}

static void
mt__client_free(mt__ts_client *c)
{
    close(c->fd);
    mt__client_clear_wait(c);
    mt__buf_free(&c->in);
    mt__buf_free(&c->out);
    free(c);
}

/* Queues one reply frame: status byte + body. */
static void
mt__reply(mt__ts_client *c, int status, const void *body, size_t blen)
{
    mt__buf_put_u64(&c->out, 1 + blen);
    mt__buf_put_u8(&c->out, (unsigned)status);
    mt__buf_put(&c->out, body, blen);
}

static void
mt__reply_value(mt__ts_client *c, const char *val, size_t vlen)
{
    mt__buf_put_u64(&c->out, 1 + 8 + vlen);
    mt__buf_put_u8(&c->out, MT__TS_OK);
    mt__buf_put_bytes(&c->out, val, vlen);
}

static void
mt__reply_i64(mt__ts_client *c, int64_t v)
{
    mt__buf_put_u64(&c->out, 1 + 8);
    mt__buf_put_u8(&c->out, MT__TS_OK);
    mt__buf_put_u64(&c->out, (uint64_t)v);
}

/* MULTI_GET's answer: every key's value (a key found earlier and deleted since reads as
 * empty, as a waiter that saw it counts it as there). */
static void
mt__reply_values(mt__ts_server *srv, mt__ts_client *c)
{
    uint64_t n = 1;
    for (int i = 0; i < c->nkeys; i++) {
        mt__kv_entry *e = mt__kvmap_find(&srv->map, c->keys[i], c->klens[i]);
        n += 8 + (e != NULL ? e->vlen : 0);
    }
    mt__buf_put_u64(&c->out, n);
    mt__buf_put_u8(&c->out, MT__TS_OK);
    for (int i = 0; i < c->nkeys; i++) {
        mt__kv_entry *e = mt__kvmap_find(&srv->map, c->keys[i], c->klens[i]);
        mt__buf_put_bytes(&c->out, e != NULL ? e->val : "", e != NULL ? e->vlen : 0);
    }
}

/* Answers a parked client if its condition now holds (or its time is up when
 * `now` >= deadline).  Returns true when it was answered. */
static bool
mt__try_answer(mt__ts_server *srv, mt__ts_client *c, int64_t now)
{
    if (c->wait_cmd == MT__TS_WAIT_WORKERS) {
        if (srv->workers >= c->wait_count) {
            mt__reply(c, MT__TS_OK, NULL, 0);
        }
        else if (now >= c->deadline) {
            char msg[256];
            /* torch's words */
            snprintf(msg, sizeof(msg),
                     "Timed out after %lld seconds waiting for clients. %lld/%lld clients joined.",
                     (long long)((c->timeout_ms + 999) / 1000), (long long)srv->workers,
                     (long long)c->wait_count);
            mt__reply(c, MT__TS_TIMEOUT, msg, strlen(msg));
        }
        else {
            return false;
        }
        mt__client_clear_wait(c);
        return true;
    }
    int missing = -1;
    for (int i = c->have; i < c->nkeys && missing < 0; i++) {
        if (mt__kvmap_find(&srv->map, c->keys[i], c->klens[i]) == NULL) {
            missing = i;
        }
    }
    c->have = missing < 0 ? c->nkeys : missing;
    if (missing >= 0) {
        if (now < c->deadline) {
            return false;
        }
        /* torch's words: every key waited for, with the "/" its server puts before keys */
        char kr[200], msg[1024];
        int len = snprintf(msg, sizeof(msg), "wait timeout after %lldms, keys: ",
                           (long long)c->timeout_ms);
        for (int i = 0; i < c->nkeys && len < (int)sizeof(msg) - 8; i++) {
            len += snprintf(msg + len, sizeof(msg) - (size_t)len, "%s/%s", i ? ", " : "",
                            mt__key_repr(kr, sizeof(kr), c->keys[i], c->klens[i]));
        }
        mt__reply(c, MT__TS_TIMEOUT, msg, strlen(msg));
    }
    else if (c->wait_cmd == MT__TS_GET) {
        mt__kv_entry *e = mt__kvmap_find(&srv->map, c->keys[0], c->klens[0]);
        mt__reply_value(c, e->val, e->vlen);
    }
    else if (c->wait_cmd == MT__TS_MULTI_GET) {
        mt__reply_values(srv, c);
    }
    else {
        mt__reply(c, MT__TS_OK, NULL, 0);
    }
    mt__client_clear_wait(c);
    return true;
}

static void
mt__serve_waiters(mt__ts_server *srv)
{
    int64_t now = mt__now_ms();
    for (int i = 0; i < srv->nclients; i++) {
        if (srv->clients[i]->wait_cmd) {
            mt__try_answer(srv, srv->clients[i], now);
        }
    }
}

/* Parks the client on keys read from `r`. */
static bool
mt__park(mt__ts_client *c, int cmd, mt__rd *r, int nkeys)
{
    c->keys = calloc((size_t)nkeys + 1, sizeof(*c->keys));
    c->klens = calloc((size_t)nkeys + 1, sizeof(*c->klens));
    if (c->keys == NULL || c->klens == NULL) {
        return false;
    }
    c->wait_cmd = cmd;
    c->have = 0;
    /* the keys in one block (keys[i] point into it): thousands of waiters on thousands of
     * keys each would otherwise hold an allocation per key */
    const char **at = (const char **)c->keys;
    size_t total = 0;
    for (int i = 0; i < nkeys && !r->bad; i++) {
        at[i] = mt__rd_bytes(r, &c->klens[i]);
        total += c->klens[i];
    }
    if (r->bad) {
        return false;
    }
    c->kblock = malloc(total + 1);
    if (c->kblock == NULL) {
        return false;
    }
    size_t off = 0;
    for (int i = 0; i < nkeys; i++) {
        memcpy(c->kblock + off, at[i], c->klens[i]);
        c->keys[i] = c->kblock + off;
        off += c->klens[i];
    }
    c->nkeys = nkeys;
    c->timeout_ms = (int64_t)mt__rd_u64(r);
    c->deadline = mt__deadline_after(c->timeout_ms);
    return !r->bad;
}

/* Handles one request frame.  Returns false to drop the client (malformed
 * request or out of memory). */
static bool
mt__handle(mt__ts_server *srv, mt__ts_client *c, const char *payload, size_t n)
{
    mt__rd r = {.p = payload, .n = n};
    int cmd = (int)mt__rd_u8(&r);
    size_t kl, vl, el;
    const char *k, *v, *e;
    switch (cmd) {
    case MT__TS_HELLO:
        if (mt__rd_u64(&r) != MT__TS_MAGIC || r.bad) {
            return false;
        }
        if (!c->hello) {
            c->hello = true;
            srv->workers++;
            mt__serve_waiters(srv);
        }
        mt__reply(c, MT__TS_OK, NULL, 0);
        break;
    case MT__TS_SET:
        k = mt__rd_bytes(&r, &kl);
        v = mt__rd_bytes(&r, &vl);
        if (r.bad) {
            return false;
        }
        if (mt__kvmap_set(&srv->map, k, kl, v, vl) < 0) {
            mt__reply(c, MT__TS_ERROR, "out of memory", 13);
        }
        else {
            mt__reply(c, MT__TS_OK, NULL, 0);
            mt__serve_waiters(srv);
        }
        break;
    case MT__TS_GET:
    case MT__TS_WAIT:
    case MT__TS_MULTI_GET: {
        int nk = 1;
        if (cmd != MT__TS_GET) {
            uint64_t n64 = mt__rd_u64(&r);
            if (r.bad || n64 > (1u << 20)) {
                return false;
            }
            nk = (int)n64;
        }
        if (!mt__park(c, cmd, &r, nk)) {
            return false;
        }
        mt__try_answer(srv, c, mt__now_ms());
        break;
    }
    case MT__TS_ADD: {
        k = mt__rd_bytes(&r, &kl);
        int64_t delta = (int64_t)mt__rd_u64(&r);
        if (r.bad) {
            return false;
        }
        int64_t sum;
        if (mt__kvmap_add(&srv->map, k, kl, delta, &sum) < 0) {
            const char *m = mt_error_message();
            mt__reply(c, MT__TS_ERROR, m, strlen(m));
        }
        else {
            mt__reply_i64(c, sum);
            mt__serve_waiters(srv);
        }
        break;
    }
    case MT__TS_COMPARE_SET: {
        k = mt__rd_bytes(&r, &kl);
        e = mt__rd_bytes(&r, &el);
        v = mt__rd_bytes(&r, &vl);
        if (r.bad) {
            return false;
        }
        char *res;
        size_t rl;
        if (mt__kvmap_compare_set(&srv->map, k, kl, e, el, v, vl, &res, &rl) < 0) {
            mt__reply(c, MT__TS_ERROR, "out of memory", 13);
        }
        else {
            mt__reply_value(c, res, rl);
            free(res);
            mt__serve_waiters(srv);
        }
        break;
    }
    case MT__TS_CHECK: {
        uint64_t n64 = mt__rd_u64(&r);
        unsigned char all = 1;
        for (uint64_t i = 0; i < n64 && !r.bad; i++) {
            k = mt__rd_bytes(&r, &kl);
            if (mt__kvmap_find(&srv->map, k, kl) == NULL) {
                all = 0;
            }
        }
        if (r.bad) {
            return false;
        }
        mt__reply(c, MT__TS_OK, &all, 1);
        break;
    }
    case MT__TS_DELETE: {
        k = mt__rd_bytes(&r, &kl);
        if (r.bad) {
            return false;
        }
        unsigned char existed = (unsigned char)mt__kvmap_delete(&srv->map, k, kl);
        mt__reply(c, MT__TS_OK, &existed, 1);
        break;
    }
    case MT__TS_COMPARE_DELETE: {
        k = mt__rd_bytes(&r, &kl);
        e = mt__rd_bytes(&r, &el);
        if (r.bad) {
            return false;
        }
        unsigned char gone = (unsigned char)mt__kvmap_compare_delete(&srv->map, k, kl, e, el);
        mt__reply(c, MT__TS_OK, &gone, 1);
        break;
    }
    case MT__TS_NUM_KEYS:
        mt__reply_i64(c, (int64_t)srv->map.count);
        break;
    case MT__TS_WAIT_WORKERS:
        c->wait_cmd = MT__TS_WAIT_WORKERS;
        c->wait_count = (int64_t)mt__rd_u64(&r);
        c->timeout_ms = (int64_t)mt__rd_u64(&r);
        if (r.bad) {
            return false;
        }
        c->deadline = mt__deadline_after(c->timeout_ms);
        mt__try_answer(srv, c, mt__now_ms());
        break;
    default:
        return false;
    }
    return !c->out.oom;
}

/* Input one client may have buffered: one whole request frame.  See Note [Store limits]. */
static size_t
mt__in_limit(void)
{
    return 8 + mt__ts_max_request();
}

/* Consumes complete frames from c->in while the client is not parked and has
 * read its earlier replies.  Returns false to drop the client. */
static void
mt__refuse(mt__ts_server *srv, mt__ts_client *c, const char *why)
{
    char who[64];
    snprintf(who, sizeof(who), "TCPStore server on port %d", srv->port);
    mt_auth_log_refused(c->fd, who, why);
}

/* Note [Job token]: the handshake's bytes, raw (not frames), before any request.  Returns
 * false to drop the client (refused and logged); *off is past the bytes consumed. */
static bool
mt__authenticate(mt__ts_server *srv, mt__ts_client *c, size_t *off)
{
    if (c->auth == 0 && c->in.n >= 4) {
        unsigned char m[4];
        memcpy(m, c->in.p, 4);
        if (((uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3]) !=
            MT_AUTH_MAGIC) {
            mt__refuse(srv, c, "it did not authenticate (no job token)");
            return false;
        }
    }
    if (c->auth == 0 && c->in.n >= MT_AUTH_HELLO_BYTES) {
        unsigned char reply[MT_AUTH_REPLY_BYTES];
        if (!mt_auth_server_reply(srv->token, srv->toklen, (const unsigned char *)c->in.p,
                                  reply, c->auth_expect)) {
            mt__refuse(srv, c, "no random nonce for the handshake");
            return false;
        }
        mt__buf_put(&c->out, reply, sizeof(reply));
        *off = MT_AUTH_HELLO_BYTES;
        c->auth = 1;
    }
    if (c->auth == 1 && c->in.n - *off >= MT_AUTH_PROOF_BYTES) {
        if (!mt_auth_proof_ok((const unsigned char *)c->in.p + *off, c->auth_expect)) {
            mt__refuse(srv, c, "wrong job token");
            return false;
        }
        *off += MT_AUTH_PROOF_BYTES;
        c->auth = 2;
    }
    return !c->out.oom;
}

static bool
mt__process_input(mt__ts_server *srv, mt__ts_client *c)
{
    size_t off = 0;
    bool ok = true;
    if (c->auth < 2) {
        ok = mt__authenticate(srv, c, &off);
    }
    if (!ok || c->auth < 2) {
        if (ok && off) {
            memmove(c->in.p, c->in.p + off, c->in.n - off);
            c->in.n -= off;
        }
        return ok;
    }
    while (ok && !c->wait_cmd && c->out.n - c->out_off <= mt__in_limit() && c->in.n - off >= 8) {
        uint64_t len = mt__be64(c->in.p + off);
        if (len == 0 || len > mt__ts_max_request()) {
            ok = false;
            break;
        }
        if (c->in.n - off - 8 < len) {
            break;
        }
        ok = mt__handle(srv, c, c->in.p + off + 8, (size_t)len);
        off += 8 + (size_t)len;
    }
    if (off) {
        memmove(c->in.p, c->in.p + off, c->in.n - off);
        c->in.n -= off;
    }
    mt__buf_trim(&c->in);
    return ok;
}

static bool
mt__read_client(mt__ts_server *srv, mt__ts_client *c)
{
    const size_t limit = mt__in_limit();
    for (;;) {
        if (c->in.n >= limit) {
            /* a whole frame is buffered: handle it, or drop a client that sent
             * more than its one request while parked or not reading replies */
            if (!mt__process_input(srv, c) || c->in.n >= limit) {
                return false;
            }
        }
        size_t want = limit - c->in.n < 65536 ? limit - c->in.n : 65536;
        mt__buf_reserve(&c->in, want);
        if (c->in.oom) {
            return false;
        }
        ssize_t r = recv(c->fd, c->in.p + c->in.n, want, 0);
        if (r > 0) {
            c->in.n += (size_t)r;
            continue;
        }
        if (r == 0) {
            if (c->auth == 1) {
                /* a client that found the server's proof wrong gives up here */
                mt__refuse(srv, c, "it closed the connection during the handshake (another "
                                   "job token?)");
            }
            return false;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            break;
        }
        return false;
    }
    return mt__process_input(srv, c);
}

static bool
mt__flush_client(mt__ts_client *c)
{
    while (c->out_off < c->out.n) {
        ssize_t w = send(c->fd, c->out.p + c->out_off, c->out.n - c->out_off, MSG_NOSIGNAL);
        if (w > 0) {
            c->out_off += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return true;
        }
        return false;
    }
    c->out.n = 0;
    c->out_off = 0;
    mt__buf_trim(&c->out);
    return true;
}

static void
mt__drop_client(mt__ts_server *srv, int i)
{
    mt__ts_client *c = srv->clients[i];
    mt__client_free(c);
    srv->clients[i] = srv->clients[--srv->nclients];
}

static void
mt__accept_clients(mt__ts_server *srv)
{
    for (;;) {
        int fd;
        errno = 0;
        if (mt__sock_accept(srv->lfd, 0, &fd) < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                /* the connection stays queued; accept again in a moment */
                srv->accept_paused_until = mt__now_ms() + 100;
            }
            return; /* nothing pending (a timeout with deadline 0) or a transient failure */
        }
        if (srv->nclients == srv->capclients) {
            int cap = srv->capclients ? srv->capclients * 2 : 16;
            mt__ts_client **cl = realloc(srv->clients, (size_t)cap * sizeof(*cl));
            if (cl == NULL) {
                close(fd);
                return;
            }
            srv->clients = cl;
            srv->capclients = cap;
        }
        mt__ts_client *c = calloc(1, sizeof(*c));
        if (c == NULL) {
            close(fd);
            return;
        }
        c->fd = fd;
        c->auth = srv->token != NULL ? 0 : 2;
        c->auth_deadline = mt__deadline_after(MT_AUTH_HANDSHAKE_MS);
        srv->clients[srv->nclients++] = c;
    }
}

static void *
mt__server_main(void *arg)
{
    mt__ts_server *srv = arg;
    struct pollfd *pfds = NULL;
    int cap = 0;
    for (;;) {
        int n = srv->nclients + 2;
        if (n > cap) {
            struct pollfd *p = realloc(pfds, (size_t)n * 2 * sizeof(*p));
            if (p == NULL) {
                mt__sleep_ms(10); /* out of memory: try again shortly */
                continue;
            }
            pfds = p;
            cap = n * 2;
        }
        pfds[0] = (struct pollfd){.fd = srv->wake[0], .events = POLLIN};
        bool paused = mt__now_ms() < srv->accept_paused_until;
        pfds[1] = (struct pollfd){.fd = paused ? -1 : srv->lfd, .events = POLLIN};
        int64_t next = paused ? srv->accept_paused_until : INT64_MAX;
        for (int i = 0; i < srv->nclients; i++) {
            mt__ts_client *c = srv->clients[i];
            pfds[i + 2] = (struct pollfd){.fd = c->fd, .events = POLLIN};
            if (c->out_off < c->out.n) {
                pfds[i + 2].events |= POLLOUT;
            }
            if (c->wait_cmd && c->deadline < next) {
                next = c->deadline;
            }
            if (c->auth < 2 && c->auth_deadline < next) {
                next = c->auth_deadline;
            }
        }
        int timeout = next == INT64_MAX ? -1 : mt__ms_left(next);
        int nclients = srv->nclients;
        int r = poll(pfds, (nfds_t)n, timeout);
        if (r < 0 && errno != EINTR) {
            break;
        }
        if (r > 0 && (pfds[0].revents & POLLIN)) {
            break;
        }
        /* Clients first (indices are stable until the first drop below). */
        for (int i = nclients - 1; r > 0 && i >= 0; i--) {
            mt__ts_client *c = srv->clients[i];
            short re = pfds[i + 2].revents;
            bool ok = true;
            if (re & (POLLIN | POLLHUP | POLLERR)) {
                ok = mt__read_client(srv, c);
            }
            if (ok) {
                ok = mt__flush_client(c);
            }
            if (!ok) {
                mt__drop_client(srv, i);
            }
        }
        if (r > 0 && (pfds[1].revents & POLLIN)) {
            mt__accept_clients(srv);
        }
        /* Expire waiters; answered clients may have more input queued. */
        int64_t now = mt__now_ms();
        for (int i = srv->nclients - 1; i >= 0; i--) {
            mt__ts_client *c = srv->clients[i];
            bool ok = true;
            if (c->auth < 2 && now >= c->auth_deadline) {
                mt__refuse(srv, c, "no authentication within the handshake's timeout");
                mt__drop_client(srv, i);
                continue;
            }
            if (c->wait_cmd && now >= c->deadline) {
                mt__try_answer(srv, c, now);
            }
            if (!c->wait_cmd && c->in.n) {
                ok = mt__process_input(srv, c);
            }
            if (ok) {
                ok = mt__flush_client(c);
            }
            if (!ok) {
                mt__drop_client(srv, i);
            }
        }
    }
    free(pfds);
    return NULL;
}

mt__ts_server *
mt__ts_server_start(const char *host, int port, int listen_fd, const void *token, size_t toklen)
{
    mt__ts_server *srv = calloc(1, sizeof(*srv));
    if (srv != NULL && toklen > 0) {
        srv->token = mt__memdup(token, toklen);
        srv->toklen = toklen;
        if (srv->token == NULL) {
            free(srv);
            srv = NULL;
        }
    }
    if (srv == NULL) {
        if (listen_fd >= 0) {
            close(listen_fd);
        }
        mt_error_set(MT_ENOMEM, "out of memory starting the TCPStore server");
        return NULL;
    }
    mt__kvmap_init(&srv->map);
    srv->wake[0] = srv->wake[1] = -1;
    int rc = listen_fd >= 0 ? mt__sock_adopt_listener(listen_fd, 1024, &srv->lfd, &srv->port)
                            : mt__sock_listen(NULL, port, 1024, &srv->lfd, &srv->port);
    if (rc < 0) {
        /* a port in use keeps torch's words at the start of the message */
        if (strncmp(mt_error_message(), "The server socket", 17) != 0) {
            mt_error_prefix(rc, "TCPStore server for %s:%d", host, port);
        }
        free(srv->token);
        free(srv);
        return NULL;
    }
    if (pipe2(srv->wake, O_CLOEXEC) < 0) {
        mt_error_set(MT_ERUNTIME, "TCPStore server: pipe failed: %s", strerror(errno));
        close(srv->lfd);
        free(srv->token);
        free(srv);
        return NULL;
    }
    rc = pthread_create(&srv->thread, NULL, mt__server_main, srv);
    if (rc != 0) {
        mt_error_set(MT_ERUNTIME, "TCPStore server: cannot start its thread: %s", strerror(rc));
        close(srv->lfd);
        close(srv->wake[0]);
        close(srv->wake[1]);
        free(srv->token);
        free(srv);
        return NULL;
    }
    return srv;
}

int
mt__ts_server_port(const mt__ts_server *srv)
{
    return srv->port;
}

void
mt__ts_server_stop(mt__ts_server *srv)
{
    if (srv == NULL) {
        return;
    }
    char b = 1;
    while (write(srv->wake[1], &b, 1) < 0 && errno == EINTR) {
    }
    pthread_join(srv->thread, NULL);
    for (int i = 0; i < srv->nclients; i++) {
        mt__client_free(srv->clients[i]);
    }
    free(srv->clients);
    close(srv->lfd);
    close(srv->wake[0]);
    close(srv->wake[1]);
    mt__kvmap_clear(&srv->map);
    free(srv->token);
    free(srv);
}
