/* csrc/distributed/transport/route.c - a transport for groups spread over several hosts: shared memory to the peers on this host, TCP to the others. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/transport/transport.h"

/* Note [Routing by peer]
 * When a group's ranks sit on more than one host and several of them share
 * one, the group's transport is this one: a TCP transport over the whole group
 * (its connections made on first use, Note [Lazy connections] in tcp.c)
 * and, for the ranks of each host that has more than one, a shared-memory
 * transport among them (its own segment, built through the store under
 * "host<k>/").  Each exchange is split by peer: collective messages to and
 * from peers on this host go through shared memory, the rest through TCP.
 * When an exchange has both kinds, the local half runs on a helper thread of
 * the transport while the caller runs the remote half, so the two progress
 * together exactly as one exchange would (a ring step that receives from a
 * local peer while it sends to a remote one cannot wait on itself); when one
 * half fails the other is aborted, and the first error is the exchange's.
 *
 * Point-to-point messages (tags without the collective bit) all go through
 * TCP: a receive from any source must see every sender, in order, on one
 * path.  The shared-memory ranks are numbered among the host's ranks; this
 * transport translates group ranks to them and back.  Slot collectives
 * (Note [Slots]) need every rank to share memory, so this transport offers
 * none; small collectives use the exchange algorithms. */

#define MT__COLL_BIT 0x80000000u

typedef struct mt__route {
    mt_transport base;
    mt_transport *tcp;   /* owned: every rank */
    mt_transport *shm;   /* owned: this host's ranks; NULL when alone here */
    int *local_of;       /* [size] group rank -> rank in shm, -1 elsewhere */
    int *group_of;       /* [shm size] rank in shm -> group rank */
    /* the helper thread and its one job (guarded by mu) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t helper;
    bool started, stop;
    int job; /* 0 none, 1 posted, 2 done */
    mt_xfer *js, *jr;
    int jns, jnr;
    int64_t jdeadline;
    int jrc;
    char jmsg[1024];
} mt__route;

#define MT__ROUTE(b) ((mt__route *)(b))

static void *
mt__route_helper(void *arg)
{
    mt__route *t = arg;
    pthread_mutex_lock(&t->mu);
    for (;;) {
        while (t->job != 1 && !t->stop) {
            pthread_cond_wait(&t->cv, &t->mu);
        }
        if (t->job != 1) {
            break;
        }
        pthread_mutex_unlock(&t->mu);
        int rc = mt_transport_exchange(t->shm, t->js, t->jns, t->jr, t->jnr, t->jdeadline);
        if (rc < 0) {
            snprintf(t->jmsg, sizeof(t->jmsg), "%s", mt_error_message());
            mt_transport_abort(t->tcp); /* the caller's half: fail it now, not at the deadline */
        }
        pthread_mutex_lock(&t->mu);
        t->jrc = rc;
        t->job = 2;
        pthread_cond_broadcast(&t->cv);
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

static bool
mt__is_local(const mt__route *t, const mt_xfer *x)
{
    return t->shm != NULL && (x->tag & MT__COLL_BIT) && x->peer >= 0 &&
           t->local_of[x->peer] >= 0;
}

/* Copies the local (want_local) or remote xfers of xs[0..n) into out (peers
 * of local ones translated to shm ranks); returns how many. */
static int
mt__pick(const mt__route *t, const mt_xfer *xs, int n, bool want_local, mt_xfer *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (mt__is_local(t, &xs[i]) == want_local) {
            out[k] = (mt_xfer){.peer = want_local ? t->local_of[xs[i].peer] : xs[i].peer,
                               .tag = xs[i].tag, .buf = xs[i].buf, .len = xs[i].len};
            k++;
        }
    }
    return k;
}

/* Writes back the senders of the receives picked by mt__pick. */
static void
mt__unpick(const mt__route *t, mt_xfer *xs, int n, bool want_local, const mt_xfer *picked)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (mt__is_local(t, &xs[i]) == want_local) {
            xs[i].src = want_local ? t->group_of[picked[k].src] : picked[k].src;
            k++;
        }
    }
}

/* Runs the local half on the helper while this thread runs the remote half. */
static int
mt__route_split(mt__route *t, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv,
                int64_t deadline)
{
    int n = nsend + nrecv;
    mt_xfer *buf = calloc((size_t)n * 2, sizeof(*buf));
    if (buf == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory splitting an exchange");
    }
    mt_xfer *ls = buf, *rs = buf + n;
    int nls = mt__pick(t, sends, nsend, true, ls), nrs = mt__pick(t, sends, nsend, false, rs);
    mt_xfer *lr = ls + nls, *rr = rs + nrs;
    int nlr = mt__pick(t, recvs, nrecv, true, lr), nrr = mt__pick(t, recvs, nrecv, false, rr);

    pthread_mutex_lock(&t->mu);
    int rc = 0;
    if (!t->started) {
        rc = pthread_create(&t->helper, NULL, mt__route_helper, t) == 0
                 ? 0
                 : mt_error_set(MT_ERUNTIME, "rank %d: could not start the shared-memory helper "
                                "thread", t->base.rank);
        t->started = rc == 0;
    }
    if (rc == 0) {
        t->js = ls;
        t->jns = nls;
        t->jr = lr;
        t->jnr = nlr;
        t->jdeadline = deadline;
        t->job = 1;
        pthread_cond_broadcast(&t->cv);
    }
    pthread_mutex_unlock(&t->mu);
    if (rc < 0) {
        free(buf);
        return rc;
    }

    int rrc = mt_transport_exchange(t->tcp, rs, nrs, rr, nrr, deadline);
    char rmsg[1024];
    if (rrc < 0) {
        snprintf(rmsg, sizeof(rmsg), "%s", mt_error_message());
        mt_transport_abort(t->shm);
    }
    pthread_mutex_lock(&t->mu);
    while (t->job != 2) {
        pthread_cond_wait(&t->cv, &t->mu);
    }
    t->job = 0;
    int lrc = t->jrc;
    pthread_mutex_unlock(&t->mu);

    if (lrc < 0 && (rrc == 0 || rrc == MT_ECLOSED)) { /* the local half failed first */
        rc = mt_error_set(lrc, "%s (among this host's ranks, numbered here in host order)",
                          t->jmsg);
    }
    else if (rrc < 0) {
        rc = mt_error_set(rrc, "%s", rmsg);
    }
    else {
        mt__unpick(t, recvs, nrecv, true, lr);
        mt__unpick(t, recvs, nrecv, false, rr);
    }
    free(buf);
    return rc;
}

static int
mt__route_exchange(mt_transport *base, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv,
                   int64_t deadline)
{
    mt__route *t = MT__ROUTE(base);
    int nlocal = 0;
    for (int i = 0; i < nsend; i++) {
        nlocal += mt__is_local(t, &sends[i]);
    }
    for (int i = 0; i < nrecv; i++) {
        nlocal += mt__is_local(t, &recvs[i]);
    }
    if (nlocal == 0) {
        return mt_transport_exchange(t->tcp, sends, nsend, recvs, nrecv, deadline);
    }
    if (nlocal < nsend + nrecv) {
        return mt__route_split(t, sends, nsend, recvs, nrecv, deadline);
    }
    /* all local: on this thread, peers translated */
    int n = nsend + nrecv;
    mt_xfer *buf = calloc((size_t)n, sizeof(*buf));
    if (buf == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory routing an exchange");
    }
    (void)mt__pick(t, sends, nsend, true, buf);
    (void)mt__pick(t, recvs, nrecv, true, buf + nsend);
    int rc = mt_transport_exchange(t->shm, buf, nsend, buf + nsend, nrecv, deadline);
    if (rc == 0) {
        mt__unpick(t, recvs, nrecv, true, buf + nsend);
    }
    else {
        mt_error_prefix(rc, "among this host's ranks, numbered here in host order");
    }
    free(buf);
    return rc;
}

static void
mt__route_abort(mt_transport *base)
{
    mt__route *t = MT__ROUTE(base);
    mt_transport_abort(t->tcp);
    if (t->shm != NULL) {
        mt_transport_abort(t->shm);
    }
}

static void
mt__route_close(mt_transport *base)
{
    mt__route *t = MT__ROUTE(base);
    pthread_mutex_lock(&t->mu);
    t->stop = true;
    pthread_cond_broadcast(&t->cv);
    bool started = t->started;
    pthread_mutex_unlock(&t->mu);
    if (started) {
        pthread_join(t->helper, NULL);
    }
    mt_transport_close(t->tcp);
    mt_transport_close(t->shm);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    free(t->local_of);
    free(t->group_of);
    free(t);
}

static int
mt__route_connections(const mt_transport *base, int *sockets)
{
    return mt_transport_connections(((const mt__route *)base)->tcp, sockets);
}

static const mt_transport_vtable mt__route_vt = {
    .name = "shm+tcp",
    .exchange = mt__route_exchange,
    .abort = mt__route_abort,
    .close = mt__route_close,
    .connections = mt__route_connections,
};

static int64_t
mt__left_at_least_1(int64_t deadline)
{
    int left = mt__ms_left(deadline);
    return left > 0 ? left : 1;
}

mt_transport *
mt_route_transport_new(mt_store *store, int rank, int size, const int *host_of,
                       int64_t timeout_ms)
{
    int64_t deadline = mt__deadline_after(timeout_ms);
    mt__route *t = calloc(1, sizeof(*t));
    int *local_of = malloc(sizeof(int) * (size_t)size);
    int *group_of = malloc(sizeof(int) * (size_t)size);
    if (t == NULL || local_of == NULL || group_of == NULL) {
        free(t);
        free(local_of);
        free(group_of);
        mt_error_set(MT_ENOMEM, "out of memory creating a transport");
        return NULL;
    }
    int nlocal = 0, me = -1;
    for (int r = 0; r < size; r++) {
        local_of[r] = host_of[r] == host_of[rank] ? nlocal : -1;
        if (local_of[r] >= 0) {
            group_of[nlocal] = r;
            me = r == rank ? nlocal : me;
            nlocal++;
        }
    }
    t->base = (mt_transport){.vt = &mt__route_vt, .rank = rank, .size = size};
    t->local_of = local_of;
    t->group_of = group_of;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    t->tcp = mt_tcp_transport_new(store, rank, size, mt__left_at_least_1(deadline));
    if (t->tcp != NULL && nlocal > 1) {
        char prefix[32];
        snprintf(prefix, sizeof(prefix), "host%d", host_of[rank]);
        mt_store *sub = mt_prefix_store_new(prefix, store);
        t->shm = sub ? mt_shm_transport_new(sub, me, nlocal, mt__left_at_least_1(deadline)) : NULL;
        mt_store_decref(sub);
        if (t->shm == NULL) {
            if (sub == NULL || mt_error_code() != MT_ENOTIMPL) {
                mt_error_prefix(mt_error_code(), "rank %d: shared memory among this host's ranks",
                                rank);
                mt__route_close(&t->base);
                return NULL;
            }
            /* the host's first rank could not make a segment (Note [Choosing a
             * transport]): every rank of this host learnt it and uses TCP alike */
        }
    }
    if (t->tcp == NULL) {
        mt__route_close(&t->base);
        return NULL;
    }
    return &t->base;
}
