/* csrc/distributed/transport/tcp.c - the TCP transport: a full mesh of non-blocking sockets and a poll() progress loop. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
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

/* Note [TCP mesh]
 * Rank r listens on an ephemeral port of the chosen local address and
 * publishes it; it then connects to every rank below it and accepts one
 * connection from every rank above it.  Connecting first cannot deadlock:
 * the kernel completes a connection into the listener's backlog before the
 * peer calls accept().  Each connection starts with a hello (magic, rank,
 * world size) so that accepted connections are put in the right slot and
 * stray connections are refused.  With a job token the hello is preceded by
 * the challenge-response of Note [Job token] (common/auth.h): a connection
 * that fails it is logged and closed, and the rank goes on accepting.
 *
 * The local address is, in order: the interface named by
 * MINITORCH_SOCKET_IFNAME (or GLOO_SOCKET_IFNAME), the address this host uses
 * to reach the store's server (right for multi-host jobs by construction),
 * the address the host name resolves to, and finally 127.0.0.1.
 *
 * Wire format of a message: u32 magic | u32 tag | u64 length (little
 * endian), then the bytes. */

#define MT__TCP_HELLO_MAGIC 0x4d54484cu /* "MTHL" */
#define MT__TCP_BUFFER_BYTES (4 << 20)

typedef struct mt__peer {
    int fd;             /* -1 for self */
    bool closed;
    char why[200];      /* why it is closed */
    /* the incoming message being read */
    unsigned char hdr[MT_XFER_HDR];
    size_t hdr_got;
    bool in_body;
    uint64_t in_len, in_got;
    char *in_dst;
    mt_xfer *in_xfer;   /* the posted receive being filled, or NULL */
    mt_unexp *in_unexp;  /* or the unexpected entry being filled */
} mt__peer;

typedef struct mt__tcp {
    mt_transport base;
    mt__peer *peers;
    mt_match match;      /* unexpected messages, Note [Matching] */
    int wake[2];
    atomic_bool aborted;
    char broken[512];
    struct pollfd *pfds;
    int *pfd_peer;
} mt__tcp;

#define MT__TCP(t) ((mt__tcp *)(t))

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

static int
mt__fail(mt__tcp *t, int code, bool breaks)
{
    if (breaks && !t->broken[0]) {
        snprintf(t->broken, sizeof(t->broken), "%s", mt_error_message());
    }
    return code;
}

/* A header arrived from peer p: decide where its body goes. */
static int
mt__route_incoming(mt__tcp *t, int p, mt_xfer *recvs, int nrecv)
{
    mt__peer *pe = &t->peers[p];
    uint32_t tag;
    uint64_t len;
    if (mt_xfer_header_read(pe->hdr, t->base.rank, p, &tag, &len) < 0) {
        mt__peer_close(t, p, "corrupt message header");
        return mt__fail(t, MT_ECONN, true);
    }
    pe->in_body = true;
    pe->in_len = len;
    pe->in_got = 0;
    int rc = mt_match_incoming(&t->match, t->base.rank, p, tag, len, recvs, nrecv, &pe->in_xfer,
                               &pe->in_unexp);
    if (rc < 0) {
        return mt__fail(t, rc, true);
    }
    pe->in_dst = pe->in_xfer != NULL ? pe->in_xfer->buf : pe->in_unexp->buf;
    return 0;
}

static void
mt__finish_incoming(mt__peer *pe)
{
    mt_match_arrived(pe->in_xfer, pe->in_unexp);
    pe->in_body = false;
    pe->hdr_got = 0;
    pe->in_xfer = NULL;
    pe->in_unexp = NULL;
}

/* Reads what peer p has sent: every whole message when `eager`, else only
 * while a posted receive waits for one from p (see Note [Lazy reads]); adds
 * the bytes read to *moved.  A closed connection only marks the peer; the
 * caller decides whether that matters. */
static int
mt__progress_read(mt__tcp *t, int p, mt_xfer *recvs, int nrecv, bool eager, size_t *moved)
{
    mt__peer *pe = &t->peers[p];
    while (!pe->closed) {
        ssize_t r;
        if (!pe->in_body && pe->hdr_got == 0 && !eager && !mt_match_wants(p, recvs, nrecv)) {
            return 0;
        }
        if (!pe->in_body) {
            r = recv(pe->fd, pe->hdr + pe->hdr_got, MT_XFER_HDR - pe->hdr_got, 0);
        }
        else {
            size_t want = (size_t)(pe->in_len - pe->in_got);
            if (want == 0) {
                mt__finish_incoming(pe);
                continue;
            }
            r = recv(pe->fd, pe->in_dst + pe->in_got, want, 0);
        }
        if (r == 0) {
            mt__peer_close(t, p, "the peer closed the connection");
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
            mt__peer_close(t, p, why);
            return 0;
        }
        *moved += (size_t)r;
        if (!pe->in_body) {
            pe->hdr_got += (size_t)r;
            if (pe->hdr_got == MT_XFER_HDR) {
                int rc = mt__route_incoming(t, p, recvs, nrecv);
                if (rc < 0) {
                    return rc;
                }
                if (pe->in_len == 0) {
                    mt__finish_incoming(pe);
                }
            }
        }
        else {
            pe->in_got += (uint64_t)r;
            if (pe->in_got == pe->in_len) {
                mt__finish_incoming(pe);
            }
        }
    }
    return 0;
}

/* Writes as much as possible of the oldest unfinished send to peer p; adds
 * the bytes written to *moved. */
static void
mt__progress_write(mt__tcp *t, int p, mt_xfer *sends, int nsend, size_t *moved)
{
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
            ssize_t w = sendmsg(t->peers[p].fd, &mh, MSG_NOSIGNAL);
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

/* Note [Lazy reads]
 * While it spins, an exchange reads a peer's socket only for messages a
 * posted receive is waiting for; the next message from a peer that runs
 * ahead (a ring's next piece) stays in the kernel until the exchange that
 * wants it, which then reads it straight into place instead of buffering it
 * as unexpected and copying it again.  Spinning continues while something
 * progresses.  Once an exchange has waited a whole spin budget without
 * progress it reads everything, unexpected messages included, as before, so
 * a peer blocked on full socket buffers always gets unblocked and no pattern
 * can deadlock.  With MINITORCH_SPIN_US=0 every read is eager. */
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
                if (t->peers[sends[i].peer].closed) {
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
        for (int q = 0; q < size; q++) {
            if (q == base->rank || t->peers[q].closed) {
                continue;
            }
            short ev = POLLIN;
            for (int i = 0; i < nsend; i++) {
                if (sends[i].peer == q && sends[i].state_ != MT_XFER_DONE) {
                    ev |= POLLOUT;
                    break;
                }
            }
            t->pfd_peer[n] = q;
            t->pfds[n++] = (struct pollfd){.fd = t->peers[q].fd, .events = ev};
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
        for (int i = 1; i < n; i++) {
            int q = t->pfd_peer[i];
            short re = t->pfds[i].revents;
            if (re & (POLLIN | POLLHUP | POLLERR)) {
                rc = mt__progress_read(t, q, recvs, nrecv, eager, &moved);
                if (rc < 0) {
                    return rc;
                }
            }
            if ((re & POLLOUT) && !t->peers[q].closed) {
                mt__progress_write(t, q, sends, nsend, &moved);
            }
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
    for (int p = 0; p < base->size; p++) {
        if (t->peers && t->peers[p].fd >= 0) {
            close(t->peers[p].fd);
        }
    }
    mt_match_clear(&t->match);
    if (t->wake[0] >= 0) {
        close(t->wake[0]);
        close(t->wake[1]);
    }
    free(t->peers);
    free(t->pfds);
    free(t->pfd_peer);
    free(t);
}

static const mt_transport_vtable mt__tcp_vt = {
    .name = "tcp",
    .exchange = mt__tcp_exchange,
    .abort = mt__tcp_abort,
    .close = mt__tcp_close,
};

/* ---- connection setup ---------------------------------------------------- */

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

/* Reads a hello from an accepted connection; returns the peer rank or < 0. */
static int
mt__read_hello(mt__tcp *t, int fd, int64_t deadline)
{
    unsigned char h[12];
    if (mt__sock_read_full(fd, h, sizeof(h), deadline, "a connecting peer") < 0) {
        return -1;
    }
    int peer = (int)mt_le32_get(h + 4);
    if (mt_le32_get(h) != MT__TCP_HELLO_MAGIC || (int)mt_le32_get(h + 8) != t->base.size ||
        peer <= t->base.rank || peer >= t->base.size || t->peers[peer].fd >= 0) {
        return -1;
    }
    return peer;
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
    atomic_init(&t->aborted, false);
    t->peers = calloc((size_t)size, sizeof(*t->peers));
    t->pfds = calloc((size_t)size + 1, sizeof(*t->pfds));
    t->pfd_peer = calloc((size_t)size + 1, sizeof(*t->pfd_peer));
    if (t->peers == NULL || t->pfds == NULL || t->pfd_peer == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory creating the TCP transport");
        mt__tcp_close(&t->base);
        return NULL;
    }
    for (int p = 0; p < size; p++) {
        t->peers[p].fd = -1;
    }
    if (pipe2(t->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
        mt_error_set(MT_ERUNTIME, "pipe failed: %s", strerror(errno));
        mt__tcp_close(&t->base);
        return NULL;
    }
    if (size == 1) {
        return &t->base;
    }
    int64_t deadline = mt__deadline_after(timeout_ms);
    char host[128], token[MT_AUTH_TOKEN_MAX], who[48];
    size_t toklen = mt_dist_token(token);
    snprintf(who, sizeof(who), "rank %d (TCP transport)", rank);
    int lfd = -1, port = 0;
    int rc = mt_tcp_transport_pick_host(store, host, sizeof(host));
    if (rc == 0) {
        rc = mt__sock_listen(host, 0, size + 16, &lfd, &port);
    }
    if (rc == 0) {
        char key[32], val[192];
        snprintf(key, sizeof(key), "tcp/%d", rank);
        snprintf(val, sizeof(val), "%d %s", port, host);
        rc = mt_store_set_str(store, key, val);
    }
    /* Connect to lower ranks. */
    for (int p = 0; p < rank && rc == 0; p++) {
        char key[32], *val = NULL, peer[64];
        snprintf(key, sizeof(key), "tcp/%d", p);
        snprintf(peer, sizeof(peer), "rank %d", p);
        rc = mt_store_get_str(store, key, mt__ms_left(deadline), &val);
        int pport = 0;
        char phost[160] = "";
        if (rc == 0 && sscanf(val, "%d %159s", &pport, phost) != 2) {
            rc = mt_error_set(MT_ECONN, "bad address '%s' published by rank %d", val, p);
        }
        free(val);
        if (rc == 0) {
            rc = mt__sock_connect(phost, pport, deadline, &t->peers[p].fd);
        }
        if (rc == 0 && toklen > 0) {
            rc = mt_auth_client(t->peers[p].fd, token, toklen, deadline, peer);
        }
        if (rc == 0) {
            unsigned char h[12];
            mt_le32_put(h, MT__TCP_HELLO_MAGIC);
            mt_le32_put(h + 4, (uint32_t)rank);
            mt_le32_put(h + 8, (uint32_t)size);
            rc = mt__sock_write_full(t->peers[p].fd, h, sizeof(h), deadline, peer);
            mt__tune_socket(t->peers[p].fd);
        }
        if (rc < 0) {
            mt_error_prefix(rc, "rank %d: connecting to rank %d", rank, p);
        }
    }
    /* Accept the higher ranks. */
    int need = size - 1 - rank;
    while (need > 0 && rc == 0) {
        int fd;
        rc = mt__sock_accept(lfd, deadline, &fd);
        if (rc < 0) {
            int missing = rank + 1;
            while (missing < size && t->peers[missing].fd >= 0) {
                missing++;
            }
            mt_error_set(rc, "rank %d: timed out waiting for rank %d to connect "
                         "(%d of %d higher ranks connected)", rank, missing,
                         size - 1 - rank - need, size - 1 - rank);
            break;
        }
        if (toklen > 0 && mt_auth_server(fd, token, toklen, deadline, who) < 0) {
            close(fd); /* refused and logged */
            rc = 0;
            continue;
        }
        int peer = mt__read_hello(t, fd, deadline);
        if (peer < 0) {
            close(fd); /* a stray or malformed connection: ignore it */
            continue;
        }
        mt__tune_socket(fd);
        t->peers[peer].fd = fd;
        need--;
    }
    if (lfd >= 0) {
        close(lfd);
    }
    if (rc < 0) {
        mt__tcp_close(&t->base);
        return NULL;
    }
    return &t->base;
}
