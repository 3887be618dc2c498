/* csrc/distributed/transport/tcp.c - the TCP transport: non-blocking sockets made on first use and a poll() progress loop. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "c10_lite/error.h"
#include "csrc/distributed/common/auth.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/transport/matching.h"
#include "csrc/distributed/transport/transport.h"
#include "csrc/distributed/transport/waiting.h"

/* Note [Lazy connections]
 * Rank r listens on an ephemeral port of the chosen local address, publishes
 * "<port> <host>" under "tcp/<r>" and reads every other rank's address with
 * one multi_get (so creating the transport still waits until every rank has
 * arrived, and fails naming one that has not).  No connection is made then:
 * a rank of a large group opens only those its algorithms use (ring
 * neighbours, tree parents and children, recursive-doubling partners), as
 * gloo's lazy init does.
 *
 * The rule: the sender dials.  When an exchange has a message for peer p and
 * this rank has no connection to p yet, it connects to p's published address
 * (one attempt: a peer that published an address listened on it, so a
 * refusal means it is gone, and the exchange fails naming it) and the
 * messages to p go on that connection forever after.  A receive never dials:
 * its sender does, which is also what makes a receive from any source see
 * every sender.
 *
 * A thread per transport, the acceptor, accepts and runs the accepted side of
 * each handshake: the job token's challenge-response (Note [Job token]) when
 * there is one, then a hello (magic, rank, world size) that matches the
 * connection to its peer; it hands matched connections to the exchanges
 * (through a pipe an exchange polls).  So a peer that dials is answered
 * whatever this rank is doing (computing, or waiting in another group), and
 * two ranks that dial each other at the same moment (a ring step) cannot wait
 * on each other.  The dialing side's handshake is a small state machine in
 * the exchange's poll loop; with a token a dialer's messages wait for the
 * acceptor's answer.  A refused, malformed or stray connection is closed
 * (and logged with a token) and touches nothing; one that has not finished
 * its handshake within MT_AUTH_HANDSHAKE_MS is dropped.
 *
 * So a pair of ranks has at most two connections: the one each dialed.  When
 * p has already dialed this rank, this rank's messages to p go back on p's
 * connection and no second one is made; when both dial at once (a ring of
 * two, a recursive-doubling step), both connections stay, each carrying one
 * direction - no tie-break, so no message is ever sent on a connection that
 * is later dropped, and order per direction holds because each direction
 * uses one connection.  A peer is gone when every connection it has ends
 * (mt__link_end: what it sent on the other one is read first).  The cost of
 * laziness: a rank waiting only to receive from a peer that died before
 * dialing it learns it at the deadline (the timeout names the peer) rather
 * than at once; and a first message to a peer pays a connect (one round trip
 * on the network, and a wake-up of the peer's acceptor).
 *
 * The local address is, in order: the interface named by
 * MINITORCH_SOCKET_IFNAME (or GLOO_SOCKET_IFNAME), the address this host uses
 * to reach the store's server (right for multi-host jobs by construction),
 * the address the host name resolves to, and finally 127.0.0.1.
 *
 * Wire format of a message: u32 magic | u32 tag | u64 length (little
 * endian), then the bytes. */

#define MT__TCP_HELLO_MAGIC 0x4d54484cu /* "MTHL" */
#define MT__TCP_HELLO_BYTES 12
#define MT__TCP_BUFFER_BYTES (4 << 20)
#define MT__TCP_SPARE_ACCEPTS 16
#define MT__TCP_SYNC_MS 2000 /* the longest wait for the acceptor (mt__sync_acceptor) */ /* connections being identified, beyond one per rank */

/* handshake steps of a connection (Note [Lazy connections]) */
enum {
    MT__HS_READY = 0,  /* messages flow (once `out` is written) */
    MT__HS_AUTH_HELLO, /* accepted: reading the client's auth hello */
    MT__HS_AUTH_PROOF, /* accepted: reading the client's proof */
    MT__HS_HELLO,      /* accepted: reading the hello naming the peer */
    MT__HS_AUTH_REPLY, /* dialed: reading the server's answer */
};

typedef struct mt__conn {
    int fd;             /* -1: none */
    bool dead;          /* closed by the peer or failed: no longer polled */
    int hs;             /* MT__HS_* */
    unsigned char hs_in[MT_AUTH_REPLY_BYTES];
    size_t hs_need, hs_got;
    unsigned char out[MT_AUTH_HELLO_BYTES + MT_AUTH_PROOF_BYTES + MT__TCP_HELLO_BYTES];
    size_t out_len, out_done; /* handshake bytes to write before any message */
    unsigned char auth[MT_AUTH_HELLO_BYTES]; /* dialed: our auth hello; accepted: the proof expected */
    int64_t since_ms;   /* accepted: when */
    /* the incoming message being read */
    unsigned char hdr[MT_XFER_HDR];
    size_t hdr_got;
    bool in_body;
    uint64_t in_len, in_got;
    char *in_dst;
    mt_xfer *in_xfer;   /* the posted receive being filled, or NULL */
    mt_unexp *in_unexp; /* or the unexpected entry being filled */
} mt__conn;

typedef struct mt__peer {
    mt__conn link[2];   /* [0] dialed by this rank, [1] accepted from the peer */
    int out;            /* the link this rank's messages to the peer go on; -1 none yet */
    bool closed;
    char why[200];      /* why it is closed */
    int port;           /* the published address */
    char host[160];
} mt__peer;

typedef struct mt__tcp {
    mt_transport base;
    mt__peer *peers;
    /* the acceptor thread's (Note [Lazy connections]) */
    mt__conn *pend;      /* accepted connections not yet matched to a peer */
    int npend, cap_pend;
    int lfd;             /* the listener */
    bool *claimed;       /* [size] a connection from that peer was handed over */
    struct pollfd *apfds;
    int stop[2];         /* a byte: the acceptor returns */
    pthread_t acceptor;
    bool acceptor_started;
    /* handed from the acceptor to the exchanges, under mu */
    pthread_mutex_t mu;
    int *ready_peer, *ready_fd, nready;
    int notify[2];       /* a byte per hand-over: wakes a polling exchange */
    atomic_int pending_handover;
    atomic_bool stopping;  /* with a byte on stop: the acceptor returns; without: a nudge */
    atomic_uint passes;    /* the acceptor's loop turns, for mt__sync_acceptor */
    char token[MT_AUTH_TOKEN_MAX];
    size_t toklen;
    char who[48];
    mt_match match;      /* unexpected messages, Note [Matching] */
    int wake[2];
    atomic_bool aborted;
    atomic_int nconnected; /* peers with a connection (mt_tcp_transport_connections) */
    atomic_int nsockets;
    char broken[512];
    struct pollfd *pfds;
    int *pfd_peer;       /* per poll entry: peer */
    int *pfd_link;
} mt__tcp;

#define MT__TCP(t) ((mt__tcp *)(t))

static void mt__tune_socket(int fd);

static void
mt__conn_reset(mt__conn *c)
{
    memset(c, 0, sizeof(*c));
    c->fd = -1;
}

/* Marks a peer's connection unusable, keeping the first reason. */
static void
mt__peer_close(mt__tcp *t, int p, const char *why)
{
    mt__peer *pe = &t->peers[p];
    if (!pe->closed) {
        pe->closed = true;
        snprintf(pe->why, sizeof(pe->why), "%s", why);
    }
}

static void mt__sync_acceptor(mt__tcp *t);
static void mt__take_accepted(mt__tcp *t, bool drain);

/* Link l of peer p ended (the peer closed it, or reading failed).  The peer is gone once
 * every link it has ended: what arrived on another link before is still read (a peer that
 * sent its last message on one link and exited closes both; the other's end may be seen
 * first).  When the link this rank dialed ends and none from the peer is known yet, the
 * peer's own may still be on its way through the acceptor: a peer that dialed this rank did
 * so before it could close anything, so its connection is already in the listener's queue;
 * the acceptor is made to take in everything queued before the peer is given up. */
static void
mt__link_end(mt__tcp *t, int p, int l, const char *why)
{
    mt__peer *pe = &t->peers[p];
    pe->link[l].dead = true;
    if (l == 0 && pe->link[1].fd < 0) {
        mt__sync_acceptor(t);
    }
    const mt__conn *o = &pe->link[1 - l];
    if (o->fd < 0 || o->dead) {
        mt__peer_close(t, p, why);
    }
}

static int
mt__fail(mt__tcp *t, int code, bool breaks)
{
    if (breaks && !t->broken[0]) {
        snprintf(t->broken, sizeof(t->broken), "%s", mt_error_message());
    }
    return code;
}

/* A link of peer p now exists: counts it. */
static void
mt__link_opened(mt__tcp *t, int p)
{
    mt__peer *pe = &t->peers[p];
    if ((pe->link[0].fd >= 0) + (pe->link[1].fd >= 0) == 1) {
        atomic_fetch_add(&t->nconnected, 1);
    }
    atomic_fetch_add(&t->nsockets, 1);
}

/* ---- handshakes (Note [Lazy connections]) --------------------------------- */

/* Writes what is left of c's handshake bytes; false when the connection failed (errno). */
static bool
mt__flush_out(mt__conn *c)
{
    while (c->out_done < c->out_len) {
        ssize_t w = send(c->fd, c->out + c->out_done, c->out_len - c->out_done, MSG_NOSIGNAL);
        if (w > 0) {
            c->out_done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return true;
        }
        if (w == 0) {
            errno = EPIPE;
        }
        return false;
    }
    return true;
}

/* Reads towards c's next handshake step: 1 when hs_need bytes are in, 0 when more must come,
 * -1 when the connection failed (errno; 0 for a closed one). */
static int
mt__fill_hs(mt__conn *c)
{
    while (c->hs_got < c->hs_need) {
        ssize_t r = recv(c->fd, c->hs_in + c->hs_got, c->hs_need - c->hs_got, 0);
        if (r > 0) {
            c->hs_got += (size_t)r;
            continue;
        }
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return 0;
        }
        if (r == 0) {
            errno = 0;
        }
        return -1;
    }
    return 1;
}

static void
mt__hello_put(unsigned char *h, int rank, int size)
{
    mt_le32_put(h, MT__TCP_HELLO_MAGIC);
    mt_le32_put(h + 4, (uint32_t)rank);
    mt_le32_put(h + 8, (uint32_t)size);
}

/* Connects to peer p (Note [Lazy connections]): its link 0, then the link its messages go on.
 * A failure marks the peer gone. */
static void
mt__dial(mt__tcp *t, int p, int64_t deadline)
{
    mt__peer *pe = &t->peers[p];
    mt__conn *c = &pe->link[0];
    int fd = -1;
    if (mt__sock_connect_once(pe->host, pe->port, deadline, &fd) < 0) {
        mt__peer_close(t, p, mt_error_message());
        return;
    }
    mt__tune_socket(fd);
    mt__conn_reset(c);
    c->fd = fd;
    if (t->toklen > 0) {
        if (mt_auth_client_hello(c->auth) < 0) {
            mt__peer_close(t, p, mt_error_message());
            close(fd);
            c->fd = -1;
            return;
        }
        memcpy(c->out, c->auth, MT_AUTH_HELLO_BYTES);
        c->out_len = MT_AUTH_HELLO_BYTES;
        c->hs = MT__HS_AUTH_REPLY;
        c->hs_need = MT_AUTH_REPLY_BYTES;
    }
    else {
        mt__hello_put(c->out, t->base.rank, t->base.size);
        c->out_len = MT__TCP_HELLO_BYTES;
        c->hs = MT__HS_READY;
    }
    pe->out = 0;
    mt__link_opened(t, p);
    if (!mt__flush_out(c)) {
        char why[160];
        snprintf(why, sizeof(why), "handshake failed: %s", strerror(errno));
        mt__peer_close(t, p, why);
    }
}

/* Progress on the handshake of a dialed link of peer p. */
static void
mt__dialed_progress(mt__tcp *t, int p)
{
    mt__conn *c = &t->peers[p].link[0];
    char why[200];
    if (!mt__flush_out(c)) {
        snprintf(why, sizeof(why), "handshake failed: %s", strerror(errno));
        mt__peer_close(t, p, why);
        return;
    }
    if (c->hs != MT__HS_AUTH_REPLY) {
        return;
    }
    int r = mt__fill_hs(c);
    if (r < 0) {
        snprintf(why, sizeof(why), "authenticating with the job token: %s (does it use the same "
                 "MINITORCH_DIST_TOKEN?)", errno ? strerror(errno) : "it closed the connection");
        mt__peer_close(t, p, why);
        return;
    }
    if (r == 0) {
        return;
    }
    unsigned char *o = c->out + c->out_len;
    if (!mt_auth_client_proof(t->token, t->toklen, c->auth, c->hs_in, o)) {
        mt__peer_close(t, p, "authenticating with the job token: its proof is wrong (it has "
                       "another token)");
        return;
    }
    mt__hello_put(o + MT_AUTH_PROOF_BYTES, t->base.rank, t->base.size);
    c->out_len += MT_AUTH_PROOF_BYTES + MT__TCP_HELLO_BYTES;
    c->hs = MT__HS_READY;
    if (!mt__flush_out(c)) {
        snprintf(why, sizeof(why), "handshake failed: %s", strerror(errno));
        mt__peer_close(t, p, why);
    }
}

/* Drops pending connection i (logged when `why` and a token). */
static void
mt__pend_drop(mt__tcp *t, int i, const char *why)
{
    mt__conn *c = &t->pend[i];
    if (why != NULL && t->toklen > 0) {
        mt_auth_log_refused(c->fd, t->who, why);
    }
    close(c->fd);
    c->fd = -1;
}

/* Progress on pending connection i's handshake; when its hello names a peer, it becomes that
 * peer's link 1 (the slot is left with fd -1 for mt__pend_compact). */
static void
mt__pend_progress(mt__tcp *t, int i)
{
    mt__conn *c = &t->pend[i];
    for (;;) {
        if (!mt__flush_out(c)) {
            mt__pend_drop(t, i, "the connection failed during the handshake");
            return;
        }
        int r = mt__fill_hs(c);
        if (r < 0) {
            mt__pend_drop(t, i, "the handshake timed out or the connection closed");
            return;
        }
        if (r == 0) {
            if (c->hs == MT__HS_AUTH_HELLO && c->hs_got >= 4 &&
                memcmp(c->hs_in, "MTAU", 4) != 0) {
                /* the magic first: a peer without a token is refused without waiting */
                mt__pend_drop(t, i, "it did not authenticate (no job token)");
            }
            return;
        }
        if (c->hs == MT__HS_AUTH_HELLO) {
            unsigned char expect[MT_AUTH_PROOF_BYTES];
            if (!mt_auth_server_reply(t->token, t->toklen, c->hs_in, c->out, expect)) {
                mt__pend_drop(t, i, "it did not authenticate (no job token)");
                return;
            }
            memcpy(c->auth, expect, sizeof(expect));
            c->out_len = MT_AUTH_REPLY_BYTES;
            c->out_done = 0;
            c->hs = MT__HS_AUTH_PROOF;
            c->hs_need = MT_AUTH_PROOF_BYTES;
            c->hs_got = 0;
            continue;
        }
        if (c->hs == MT__HS_AUTH_PROOF) {
            if (!mt_auth_proof_ok(c->hs_in, c->auth)) {
                mt__pend_drop(t, i, "wrong job token");
                return;
            }
            c->hs = MT__HS_HELLO;
            c->hs_need = MT__TCP_HELLO_BYTES;
            c->hs_got = 0;
            continue;
        }
        /* MT__HS_HELLO */
        int peer = (int)mt_le32_get(c->hs_in + 4);
        if (mt_le32_get(c->hs_in) != MT__TCP_HELLO_MAGIC ||
            (int)mt_le32_get(c->hs_in + 8) != t->base.size || peer < 0 ||
            peer >= t->base.size || peer == t->base.rank || t->claimed[peer]) {
            mt__pend_drop(t, i, NULL); /* a stray or malformed connection: ignore it */
            return;
        }
        t->claimed[peer] = true;
        pthread_mutex_lock(&t->mu);
        t->ready_peer[t->nready] = peer;
        t->ready_fd[t->nready++] = c->fd;
        atomic_store(&t->pending_handover, 1);
        pthread_mutex_unlock(&t->mu);
        c->fd = -1;
        char b = 1;
        while (write(t->notify[1], &b, 1) < 0 && errno == EINTR) {
        }
        return;
    }
}

static void
mt__pend_compact(mt__tcp *t)
{
    int n = 0;
    int64_t now = mt__now_ms();
    for (int i = 0; i < t->npend; i++) {
        if (t->pend[i].fd >= 0 && now - t->pend[i].since_ms > MT_AUTH_HANDSHAKE_MS) {
            mt__pend_drop(t, i, "the handshake timed out or the connection closed");
        }
        if (t->pend[i].fd >= 0) {
            if (n != i) {
                t->pend[n] = t->pend[i];
            }
            n++;
        }
    }
    t->npend = n;
}

/* Accepts every connection waiting on the listener. */
static void
mt__accept_all(mt__tcp *t)
{
    for (;;) {
        int fd = accept4(t->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR) {
                continue;
            }
            return; /* EAGAIN, or an error of one connection: the listener stays */
        }
        if (t->npend == t->cap_pend || mt__sock_setup(fd) < 0) {
            close(fd); /* more connections being identified than ranks: strays */
            continue;
        }
        mt__tune_socket(fd);
        mt__conn *c = &t->pend[t->npend++];
        mt__conn_reset(c);
        c->fd = fd;
        c->since_ms = mt__now_ms();
        if (t->toklen > 0) {
            c->hs = MT__HS_AUTH_HELLO;
            c->hs_need = MT_AUTH_HELLO_BYTES;
        }
        else {
            c->hs = MT__HS_HELLO;
            c->hs_need = MT__TCP_HELLO_BYTES;
        }
        mt__pend_progress(t, t->npend - 1); /* its first bytes are usually there already */
    }
}

/* The acceptor thread: accepts, runs the handshakes of Note [Lazy connections] and hands each
 * connection whose hello names a peer to the exchanges (they take it in mt__take_accepted), so
 * a peer dialing this rank is answered whatever this rank is doing. */
static void *
mt__acceptor_main(void *arg)
{
    mt__tcp *t = arg;
    for (;;) {
        int n = 0;
        t->apfds[n++] = (struct pollfd){.fd = t->stop[0], .events = POLLIN};
        t->apfds[n++] = (struct pollfd){.fd = t->lfd, .events = POLLIN};
        for (int i = 0; i < t->npend; i++) {
            mt__conn *c = &t->pend[i];
            t->apfds[n++] = (struct pollfd){
                .fd = c->fd, .events = (short)(POLLIN | (c->out_done < c->out_len ? POLLOUT : 0))};
        }
        int r = poll(t->apfds, (nfds_t)n, t->npend > 0 ? 1000 : -1);
        if (r < 0 && errno != EINTR) {
            return NULL; /* cannot happen with valid descriptors; peers then time out */
        }
        if (t->apfds[0].revents != 0) {
            char b[64];
            while (read(t->stop[0], b, sizeof(b)) < 0 && errno == EINTR) {
            }
            if (atomic_load(&t->stopping)) {
                return NULL;
            }
            mt__accept_all(t); /* a nudge (mt__sync_acceptor): take in what is queued */
        }
        for (int i = 2; i < n && r > 0; i++) {
            if (t->apfds[i].revents != 0) {
                mt__pend_progress(t, i - 2);
            }
        }
        if (r > 0 && (t->apfds[1].revents & POLLIN)) {
            mt__pend_compact(t);
            mt__accept_all(t);
        }
        mt__pend_compact(t);
        atomic_fetch_add(&t->passes, 1);
    }
}

/* Makes the acceptor take in every connection queued on the listener now (and read the hellos
 * already there), then takes what it handed over; bounded by MT__TCP_SYNC_MS. */
static void
mt__sync_acceptor(mt__tcp *t)
{
    if (!t->acceptor_started) {
        return;
    }
    unsigned start = atomic_load(&t->passes);
    char b = 0;
    int64_t until = mt__now_ms() + MT__TCP_SYNC_MS;
    /* two whole turns begun after the nudge: one accepts, the next reads what it accepted */
    while (atomic_load(&t->passes) - start < 3 && mt__now_ms() < until) {
        while (write(t->stop[1], &b, 1) < 0 && errno == EINTR) {
        }
        struct timespec ts = {0, 200000};
        nanosleep(&ts, NULL);
    }
    mt__take_accepted(t, true);
}

/* Takes the connections the acceptor matched to peers: each becomes its peer's link 1. */
static void
mt__take_accepted(mt__tcp *t, bool drain)
{
    char buf[64];
    while (drain && read(t->notify[0], buf, sizeof(buf)) > 0) {
    }
    if (!atomic_load(&t->pending_handover)) {
        return;
    }
    pthread_mutex_lock(&t->mu);
    for (int i = 0; i < t->nready; i++) {
        int p = t->ready_peer[i];
        mt__conn *l = &t->peers[p].link[1];
        mt__conn_reset(l);
        l->fd = t->ready_fd[i];
        l->hs = MT__HS_READY;
        mt__link_opened(t, p);
    }
    t->nready = 0;
    atomic_store(&t->pending_handover, 0);
    pthread_mutex_unlock(&t->mu);
}

/* ---- messages ------------------------------------------------------------- */

/* A header arrived from peer p on c: decide where its body goes. */
static int
mt__route_incoming(mt__tcp *t, int p, mt__conn *c, mt_xfer *recvs, int nrecv)
{
    uint32_t tag;
    uint64_t len;
    if (mt_xfer_header_read(c->hdr, t->base.rank, p, &tag, &len) < 0) {
        mt__peer_close(t, p, "corrupt message header");
        return mt__fail(t, MT_ECONN, true);
    }
    c->in_body = true;
    c->in_len = len;
    c->in_got = 0;
    int rc = mt_match_incoming(&t->match, t->base.rank, p, tag, len, recvs, nrecv, &c->in_xfer,
                               &c->in_unexp);
    if (rc < 0) {
        return mt__fail(t, rc, true);
    }
    c->in_dst = c->in_xfer != NULL ? c->in_xfer->buf : c->in_unexp->buf;
    return 0;
}

static void
mt__finish_incoming(mt__conn *c)
{
    mt_match_arrived(c->in_xfer, c->in_unexp);
    c->in_body = false;
    c->hdr_got = 0;
    c->in_xfer = NULL;
    c->in_unexp = NULL;
}

/* Reads what peer p has sent on link c: every whole message when `eager`, else only
 * while a posted receive waits for one from p (see Note [Lazy reads]); adds
 * the bytes read to *moved.  A closed connection only marks the peer; the
 * caller decides whether that matters. */
static int
mt__progress_read(mt__tcp *t, int p, int l, mt_xfer *recvs, int nrecv, bool eager,
                  size_t *moved)
{
    mt__peer *pe = &t->peers[p];
    mt__conn *c = &pe->link[l];
    while (!c->dead && !pe->closed) {
        ssize_t r;
        if (!c->in_body && c->hdr_got == 0 && !eager && !mt_match_wants(p, recvs, nrecv)) {
            return 0;
        }
        if (!c->in_body) {
            r = recv(c->fd, c->hdr + c->hdr_got, MT_XFER_HDR - c->hdr_got, 0);
        }
        else {
            size_t want = (size_t)(c->in_len - c->in_got);
            if (want == 0) {
                mt__finish_incoming(c);
                continue;
            }
            r = recv(c->fd, c->in_dst + c->in_got, want, 0);
        }
        if (r == 0) {
            mt__link_end(t, p, l, "the peer closed the connection");
            return 0;
        }
        if (r < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                return 0;
            }
            char why[128];
            snprintf(why, sizeof(why), "receive failed: %s", strerror(errno));
            mt__link_end(t, p, l, why);
            return 0;
        }
        *moved += (size_t)r;
        if (!c->in_body) {
            c->hdr_got += (size_t)r;
            if (c->hdr_got == MT_XFER_HDR) {
                int rc = mt__route_incoming(t, p, c, recvs, nrecv);
                if (rc < 0) {
                    return rc;
                }
                if (c->in_len == 0) {
                    mt__finish_incoming(c);
                }
            }
        }
        else {
            c->in_got += (uint64_t)r;
            if (c->in_got == c->in_len) {
                mt__finish_incoming(c);
            }
        }
    }
    return 0;
}

/* Writes as much as possible of the oldest unfinished send to peer p on its
 * link; adds the bytes written to *moved. */
static void
mt__progress_write(mt__tcp *t, int p, mt_xfer *sends, int nsend, size_t *moved)
{
    mt__conn *c = &t->peers[p].link[t->peers[p].out];
    if (c->hs != MT__HS_READY || c->out_done < c->out_len) {
        return; /* the handshake first */
    }
    for (int i = 0; i < nsend; i++) {
        mt_xfer *x = &sends[i];
        if (x->peer != p || x->state_ == MT_XFER_DONE) {
            continue;
        }
        while (x->done_ < MT_XFER_HDR + x->len) {
            struct iovec iov[2];
            int n = 0;
            if (x->done_ < MT_XFER_HDR) {
                iov[n++] = (struct iovec){x->hdr_ + x->done_, MT_XFER_HDR - x->done_};
                iov[n++] = (struct iovec){x->buf, x->len};
            }
            else {
                iov[n++] = (struct iovec){(char *)x->buf + (x->done_ - MT_XFER_HDR),
                                          x->len - (x->done_ - MT_XFER_HDR)};
            }
            struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n};
            ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
            if (w > 0) {
                x->done_ += (size_t)w;
                *moved += (size_t)w;
                continue;
            }
            if (w < 0 && errno == EINTR) {
                continue;
            }
            if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                return;
            }
            char why[128];
            snprintf(why, sizeof(why), "send failed: %s", w < 0 ? strerror(errno) : "no progress");
            mt__peer_close(t, p, why);
            return;
        }
        x->state_ = MT_XFER_DONE;
    }
}

/* The error for an exchange that cannot finish because peer p is gone. */
static int
mt__peer_gone(mt__tcp *t, int p, const char *what)
{
    mt_error_set(MT_ECONN, "rank %d: connection to rank %d lost while %s: %s", t->base.rank, p,
                 what, t->peers[p].why);
    return mt__fail(t, MT_ECONN, true);
}

/* Whether link c waits to write: handshake bytes, or messages when it is p's link out. */
static bool
mt__wants_out(const mt__tcp *t, int p, int link, const mt_xfer *sends, int nsend)
{
    const mt__peer *pe = &t->peers[p];
    const mt__conn *c = &pe->link[link];
    if (c->out_done < c->out_len) {
        return true;
    }
    if (pe->out != link || c->hs != MT__HS_READY) {
        return false;
    }
    for (int i = 0; i < nsend; i++) {
        if (sends[i].peer == p && sends[i].state_ != MT_XFER_DONE) {
            return true;
        }
    }
    return false;
}

/* Note [Lazy reads]
 * While it spins, an exchange reads a peer's socket only for messages a
 * posted receive is waiting for; the next message from a peer that runs
 * ahead (a ring's next piece) stays in the kernel until the exchange that
 * wants it, which then reads it straight into place instead of buffering it
 * as unexpected and copying it again.  Spinning continues while something
 * progresses.  Once an exchange has waited a whole spin budget without
 * progress it reads everything, unexpected messages included, as before, so
 * a peer blocked on full socket buffers always gets unblocked and no pattern
 * can deadlock.  With MINITORCH_SPIN_US=0 every read is eager.  Handshakes
 * (Note [Lazy connections]) are always progressed. */
static int
mt__tcp_exchange(mt_transport *base, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv,
                 int64_t deadline)
{
    mt__tcp *t = MT__TCP(base);
    int rc = mt_exchange_begin(base, atomic_load(&t->aborted), t->broken, sends, nsend, recvs,
                               nrecv);
    if (rc < 0) {
        return rc;
    }
    int size = base->size;
    mt__take_accepted(t, false);
    /* The sender dials (Note [Lazy connections]). */
    for (int i = 0; i < nsend; i++) {
        int p = sends[i].peer;
        mt__peer *pe = &t->peers[p];
        if (p == base->rank || pe->out >= 0 || pe->closed) {
            continue;
        }
        if (pe->link[1].fd >= 0) {
            pe->out = 1; /* p dialed already: answer on its connection */
        }
        else {
            mt__dial(t, p, deadline);
        }
    }
    bool yield = mt_oversubscribed(size);
    int64_t spin_until = 0, budget = mt_spin_us(yield);
    for (;;) {
        rc = mt_match_unexpected(&t->match, base->rank, recvs, nrecv);
        if (rc < 0) {
            return mt__fail(t, rc, true);
        }
        bool done = true;
        for (int i = 0; i < nsend; i++) {
            if (sends[i].state_ != MT_XFER_DONE) {
                done = false;
                mt__peer *pe = &t->peers[sends[i].peer];
                if (!pe->closed && pe->out >= 0 && pe->link[pe->out].dead) {
                    mt__peer_close(t, sends[i].peer, "the peer closed the connection");
                }
                if (pe->closed) {
                    return mt__peer_gone(t, sends[i].peer, "sending to it");
                }
            }
        }
        for (int i = 0; i < nrecv; i++) {
            mt_xfer *x = &recvs[i];
            if (x->state_ == MT_XFER_DONE) {
                continue;
            }
            done = false;
            int p = x->state_ == MT_XFER_ACTIVE ? x->src : x->peer;
            if (p != MT_ANY_SOURCE && t->peers[p].closed) {
                /* A message may still be complete in the unexpected queue. */
                if (!mt_match_queued(&t->match, p, x->tag)) {
                    return mt__peer_gone(t, p, "receiving from it");
                }
            }
            if (p == MT_ANY_SOURCE) {
                int open = 0;
                for (int q = 0; q < size; q++) {
                    open += q != base->rank && !t->peers[q].closed;
                }
                if (open == 0 && t->match.head == NULL) {
                    mt_error_set(MT_ECONN, "rank %d: every peer closed its connection while "
                                 "receiving from any source", base->rank);
                    return mt__fail(t, MT_ECONN, true);
                }
            }
        }
        if (done) {
            return 0;
        }
        int n = 0;
        t->pfds[n++] = (struct pollfd){.fd = t->wake[0], .events = POLLIN};
        t->pfds[n++] = (struct pollfd){.fd = t->notify[0], .events = POLLIN};
        for (int q = 0; q < size; q++) {
            mt__peer *pe = &t->peers[q];
            if (q == base->rank || pe->closed) {
                continue;
            }
            for (int l = 0; l < 2; l++) {
                if (pe->link[l].fd < 0 || pe->link[l].dead) {
                    continue;
                }
                short ev = POLLIN;
                if (mt__wants_out(t, q, l, sends, nsend)) {
                    ev |= POLLOUT;
                }
                t->pfd_peer[n] = q;
                t->pfd_link[n] = l;
                t->pfds[n++] = (struct pollfd){.fd = pe->link[l].fd, .events = ev};
            }
        }
        int left = mt__ms_left(deadline);
        int64_t now = mt_now_us();
        if (spin_until == 0) {
            spin_until = now + budget;
        }
        bool eager = now >= spin_until; /* Note [Lazy reads] */
        if (left > 0 && !eager) {
            left = 0; /* see Note [Polling before sleeping] */
        }
        int r = poll(t->pfds, (nfds_t)n, left);
        if (r < 0) {
            if (errno == EINTR) {
                continue;
            }
            mt_error_set(MT_ECONN, "rank %d: poll failed: %s", base->rank, strerror(errno));
            return mt__fail(t, MT_ECONN, true);
        }
        if (atomic_load(&t->aborted)) {
            return mt_error_set(MT_ECLOSED, "rank %d: the process group was shut down",
                                base->rank);
        }
        if (r == 0 && left == 0 && mt__ms_left(deadline) > 0) {
            if (yield) {
                sched_yield(); /* let a peer on this core run */
            }
            continue; /* still spinning */
        }
        if (r == 0) {
            mt_xfer_timeout_error(base, sends, nsend, recvs, nrecv);
            return mt__fail(t, MT_ETIMEOUT, true);
        }
        size_t moved = 0;
        for (int i = 2; i < n; i++) {
            int q = t->pfd_peer[i];
            short re = t->pfds[i].revents;
            if (re == 0) {
                continue;
            }
            mt__peer *pe = &t->peers[q];
            int l = t->pfd_link[i];
            mt__conn *c = &pe->link[l];
            if (l == 0 && (c->hs != MT__HS_READY || c->out_done < c->out_len)) {
                mt__dialed_progress(t, q);
                moved++;
                if (c->hs != MT__HS_READY || pe->closed) {
                    continue;
                }
            }
            if (re & (POLLIN | POLLHUP | POLLERR)) {
                rc = mt__progress_read(t, q, l, recvs, nrecv, eager, &moved);
                if (rc < 0) {
                    return rc;
                }
            }
            if ((re & POLLOUT) && !pe->closed && !c->dead && pe->out == l) {
                mt__progress_write(t, q, sends, nsend, &moved);
            }
        }
        if (t->pfds[1].revents & POLLIN) {
            mt__take_accepted(t, true);
            moved++;
        }
        if (moved > 0 && !eager) {
            spin_until = mt_now_us() + budget; /* progress: keep spinning */
        }
    }
}

static void
mt__tcp_abort(mt_transport *base)
{
    mt__tcp *t = MT__TCP(base);
    atomic_store(&t->aborted, true);
    char b = 1;
    while (write(t->wake[1], &b, 1) < 0 && errno == EINTR) {
    }
}

static void
mt__tcp_close(mt_transport *base)
{
    mt__tcp *t = MT__TCP(base);
    if (t->acceptor_started) {
        char b = 1;
        atomic_store(&t->stopping, true);
        while (write(t->stop[1], &b, 1) < 0 && errno == EINTR) {
        }
        pthread_join(t->acceptor, NULL);
        pthread_mutex_destroy(&t->mu);
    }
    for (int i = 0; i < t->nready; i++) {
        close(t->ready_fd[i]);
    }
    for (int k = 0; k < 2; k++) {
        if (t->stop[k] >= 0) {
            close(t->stop[k]);
        }
        if (t->notify[k] >= 0) {
            close(t->notify[k]);
        }
    }
    for (int p = 0; t->peers != NULL && p < base->size; p++) {
        for (int l = 0; l < 2; l++) {
            if (t->peers[p].link[l].fd >= 0) {
                close(t->peers[p].link[l].fd);
            }
        }
    }
    for (int i = 0; i < t->npend; i++) {
        if (t->pend[i].fd >= 0) {
            close(t->pend[i].fd);
        }
    }
    if (t->lfd >= 0) {
        close(t->lfd);
    }
    mt_match_clear(&t->match);
    if (t->wake[0] >= 0) {
        close(t->wake[0]);
        close(t->wake[1]);
    }
    free(t->peers);
    free(t->pend);
    free(t->claimed);
    free(t->apfds);
    free(t->ready_peer);
    free(t->ready_fd);
    free(t->pfds);
    free(t->pfd_peer);
    free(t->pfd_link);
    free(t);
}

static int
mt__tcp_connections(const mt_transport *base, int *sockets)
{
    const mt__tcp *t = (const mt__tcp *)base;
    if (sockets != NULL) {
        *sockets = atomic_load(&((mt__tcp *)t)->nsockets);
    }
    return atomic_load(&((mt__tcp *)t)->nconnected);
}

static const mt_transport_vtable mt__tcp_vt = {
    .name = "tcp",
    .exchange = mt__tcp_exchange,
    .abort = mt__tcp_abort,
    .close = mt__tcp_close,
    .connections = mt__tcp_connections,
};

/* ---- setup ------------------------------------------------------------------ */

/* The first usable address of interface `ifname` (IPv4 preferred). */
static int
mt__iface_addr(const char *env, const char *ifname, char *buf, size_t cap)
{
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) < 0) {
        return mt_error_set(MT_ECONN, "getifaddrs failed: %s", strerror(errno));
    }
    int found = 0;
    char names[256] = "";
    for (int pass = 0; pass < 2 && !found; pass++) {
        int fam = pass == 0 ? AF_INET : AF_INET6;
        for (struct ifaddrs *i = ifs; i != NULL && !found; i = i->ifa_next) {
            if (i->ifa_addr == NULL || i->ifa_addr->sa_family != fam) {
                continue;
            }
            if (pass == 0 && strstr(names, i->ifa_name) == NULL &&
                strlen(names) + strlen(i->ifa_name) + 3 < sizeof(names)) {
                strcat(names, names[0] ? ", " : "");
                strcat(names, i->ifa_name);
            }
            if (strcmp(i->ifa_name, ifname) != 0) {
                continue;
            }
            if (fam == AF_INET6 &&
                IN6_IS_ADDR_LINKLOCAL(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr)) {
                continue;
            }
            found = mt__sockaddr_host(i->ifa_addr, buf, cap) == 0;
        }
    }
    freeifaddrs(ifs);
    if (!found) {
        return mt_error_set(MT_EINVAL, "%s=%s: no interface of that name with an IP address "
                            "(interfaces with IPv4 addresses: %s)", env, ifname, names);
    }
    return 0;
}

/* Whether we can bind a socket to `host` (port 0). */
static bool
mt__can_bind(const char *host)
{
    int fd, port;
    if (mt__sock_listen(host, 0, 1, &fd, &port) < 0) {
        return false;
    }
    close(fd);
    return true;
}

int
mt_tcp_transport_pick_host(mt_store *store, char *buf, size_t cap)
{
    const char *envs[] = {"MINITORCH_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME"};
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(envs[i]);
        if (v != NULL && v[0] != '\0') {
            /* A comma-separated list (as gloo accepts): the first one is used. */
            char name[IF_NAMESIZE + 1];
            size_t n = strcspn(v, ",");
            if (n > IF_NAMESIZE) {
                n = IF_NAMESIZE;
            }
            memcpy(name, v, n);
            name[n] = '\0';
            return mt__iface_addr(envs[i], name, buf, cap);
        }
    }
    if (store != NULL && mt_store_local_addr(store, buf, cap) == 0 && mt__can_bind(buf)) {
        return 0;
    }
    char hn[256];
    if (gethostname(hn, sizeof(hn)) == 0) {
        hn[sizeof(hn) - 1] = '\0';
        struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
        struct addrinfo *res = NULL;
        if (getaddrinfo(hn, NULL, &hints, &res) == 0) {
            for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
                if (mt__sockaddr_host(ai->ai_addr, buf, cap) == 0 && mt__can_bind(buf)) {
                    freeaddrinfo(res);
                    return 0;
                }
            }
            freeaddrinfo(res);
        }
    }
    snprintf(buf, cap, "127.0.0.1");
    return 0;
}

static void
mt__tune_socket(int fd)
{
    /* Large fixed buffers only where the kernel allows them; otherwise the
     * kernel's autotuning (which can grow past a clamped fixed size) stays on. */
    static int allowed = -1;
    if (allowed < 0) {
        long rmax = 0, wmax = 0;
        FILE *f = fopen("/proc/sys/net/core/rmem_max", "r");
        if (f) {
            if (fscanf(f, "%ld", &rmax) != 1) {
                rmax = 0;
            }
            fclose(f);
        }
        f = fopen("/proc/sys/net/core/wmem_max", "r");
        if (f) {
            if (fscanf(f, "%ld", &wmax) != 1) {
                wmax = 0;
            }
            fclose(f);
        }
        allowed = rmax >= MT__TCP_BUFFER_BYTES && wmax >= MT__TCP_BUFFER_BYTES;
    }
    if (allowed) {
        int sz = MT__TCP_BUFFER_BYTES;
        (void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
        (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
    }
}

mt_transport *
mt_tcp_transport_new(mt_store *store, int rank, int size, int64_t timeout_ms)
{
    if (size < 1 || rank < 0 || rank >= size) {
        mt_error_set(MT_EINVAL, "invalid rank %d for world size %d", rank, size);
        return NULL;
    }
    mt__tcp *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory creating the TCP transport");
        return NULL;
    }
    t->base.vt = &mt__tcp_vt;
    t->base.rank = rank;
    t->base.size = size;
    t->wake[0] = t->wake[1] = -1;
    t->stop[0] = t->stop[1] = t->notify[0] = t->notify[1] = -1;
    t->lfd = -1;
    atomic_init(&t->aborted, false);
    atomic_init(&t->nconnected, 0);
    atomic_init(&t->nsockets, 0);
    atomic_init(&t->pending_handover, 0);
    atomic_init(&t->stopping, false);
    atomic_init(&t->passes, 0);
    t->cap_pend = size + MT__TCP_SPARE_ACCEPTS;
    size_t npfd = 2 + 2 * (size_t)size;
    t->peers = calloc((size_t)size, sizeof(*t->peers));
    t->pend = calloc((size_t)t->cap_pend, sizeof(*t->pend));
    t->apfds = calloc((size_t)t->cap_pend + 2, sizeof(*t->apfds));
    t->claimed = calloc((size_t)size, sizeof(*t->claimed));
    t->ready_peer = calloc((size_t)size, sizeof(*t->ready_peer));
    t->ready_fd = calloc((size_t)size, sizeof(*t->ready_fd));
    t->pfds = calloc(npfd, sizeof(*t->pfds));
    t->pfd_peer = calloc(npfd, sizeof(*t->pfd_peer));
    t->pfd_link = calloc(npfd, sizeof(*t->pfd_link));
    if (t->peers == NULL || t->pend == NULL || t->pfds == NULL || t->pfd_peer == NULL ||
        t->pfd_link == NULL || t->apfds == NULL || t->claimed == NULL || t->ready_peer == NULL ||
        t->ready_fd == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory creating the TCP transport");
        mt__tcp_close(&t->base);
        return NULL;
    }
    for (int p = 0; p < size; p++) {
        mt__conn_reset(&t->peers[p].link[0]);
        mt__conn_reset(&t->peers[p].link[1]);
        t->peers[p].out = -1;
    }
    if (pipe2(t->wake, O_CLOEXEC | O_NONBLOCK) < 0 || pipe2(t->stop, O_CLOEXEC | O_NONBLOCK) < 0 ||
        pipe2(t->notify, O_CLOEXEC | O_NONBLOCK) < 0) {
        mt_error_set(MT_ERUNTIME, "pipe failed: %s", strerror(errno));
        mt__tcp_close(&t->base);
        return NULL;
    }
    if (size == 1) {
        return &t->base;
    }
    int64_t deadline = mt__deadline_after(timeout_ms);
    char host[128];
    t->toklen = mt_dist_token(t->token);
    snprintf(t->who, sizeof(t->who), "rank %d (TCP transport)", rank);
    int port = 0;
    int rc = mt_tcp_transport_pick_host(store, host, sizeof(host));
    if (rc == 0) {
        rc = mt__sock_listen(host, 0, size + MT__TCP_SPARE_ACCEPTS, &t->lfd, &port);
    }
    if (rc == 0) {
        pthread_mutex_init(&t->mu, NULL);
        if (pthread_create(&t->acceptor, NULL, mt__acceptor_main, t) != 0) {
            pthread_mutex_destroy(&t->mu);
            rc = mt_error_set(MT_ERUNTIME, "could not start the TCP transport's acceptor thread");
        }
        else {
            t->acceptor_started = true;
        }
    }
    if (rc == 0) {
        char key[32], val[192];
        snprintf(key, sizeof(key), "tcp/%d", rank);
        snprintf(val, sizeof(val), "%d %s", port, host);
        rc = mt_store_set_str(store, key, val);
    }
    /* Every other rank's address, in one request (Note [Lazy connections]). */
    char (*keys)[24] = NULL;
    const char **kp = NULL;
    size_t *kl = NULL, *vl = NULL;
    char **vals = NULL;
    if (rc == 0) {
        keys = calloc((size_t)size, sizeof(*keys));
        kp = calloc((size_t)size, sizeof(*kp));
        kl = calloc((size_t)size, sizeof(*kl));
        vl = calloc((size_t)size, sizeof(*vl));
        vals = calloc((size_t)size, sizeof(*vals));
        if (keys == NULL || kp == NULL || kl == NULL || vl == NULL || vals == NULL) {
            rc = mt_error_set(MT_ENOMEM, "out of memory creating the TCP transport");
        }
    }
    int nk = 0;
    for (int p = 0; p < size && rc == 0; p++) {
        if (p != rank) {
            snprintf(keys[nk], sizeof(keys[nk]), "tcp/%d", p);
            kp[nk] = keys[nk];
            kl[nk] = strlen(keys[nk]);
            nk++;
        }
    }
    if (rc == 0) {
        rc = mt_store_multi_get(store, nk, kp, kl, mt__ms_left(deadline), vals, vl);
        if (rc < 0) {
            /* name a rank that has not arrived */
            int missing = -1, arrived = 0;
            for (int i = 0; i < nk; i++) {
                int have = 0;
                if (mt_store_check(store, 1, &kp[i], &kl[i], &have) == 0 && have) {
                    arrived++;
                }
                else if (missing < 0) {
                    missing = atoi(keys[i] + 4);
                }
            }
            if (missing >= 0) {
                rc = mt_error_set(MT_ETIMEOUT, "rank %d: timed out waiting for rank %d to "
                                  "publish its address (%d of %d other ranks arrived)", rank,
                                  missing, arrived, nk);
            }
        }
    }
    for (int i = 0, p = 0; i < nk && rc == 0; i++, p++) {
        p += p == rank;
        char val[200];
        size_t n = vl[i] < sizeof(val) - 1 ? vl[i] : sizeof(val) - 1;
        memcpy(val, vals[i], n);
        val[n] = '\0';
        if (sscanf(val, "%d %159s", &t->peers[p].port, t->peers[p].host) != 2) {
            rc = mt_error_set(MT_ECONN, "bad address '%s' published by rank %d", val, p);
        }
    }
    if (vals != NULL && rc == 0) {
        for (int i = 0; i < nk; i++) {
            free(vals[i]);
        }
    }
    /* Every rank has read the addresses before any returns, so a rank hosting the store that
     * returns and exits at once strands no one: a count, and a key the last one sets. */
    if (rc == 0) {
        int64_t read = 0;
        rc = mt_store_add(store, "tcp/read", 8, 1, &read);
        if (rc == 0 && read == size) {
            rc = mt_store_set_str(store, "tcp/all", "1");
        }
        const char *all = "tcp/all";
        size_t alllen = 7;
        if (rc == 0) {
            rc = mt_store_wait(store, 1, &all, &alllen, mt__ms_left(deadline));
        }
        if (rc < 0) {
            mt_error_prefix(rc, "rank %d: waiting for every rank to read the addresses", rank);
        }
    }
    free(keys);
    free(kp);
    free(kl);
    free(vl);
    free(vals);
    if (rc < 0) {
        mt__tcp_close(&t->base);
        return NULL;
    }
    return &t->base;
}
