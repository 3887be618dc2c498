/* csrc/distributed/transport/matching.c - see Note [Matching]. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/transport/matching.h"

void
mt_le32_put(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

uint32_t
mt_le32_get(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void
mt_match_post(mt_xfer *xs, int n)
{
    for (int i = 0; i < n; i++) {
        mt_xfer *x = &xs[i];
        x->state_ = MT_XFER_PENDING;
        x->done_ = 0;
        x->src = -1;
        mt_le32_put(x->hdr_, MT_XFER_MAGIC);
        mt_le32_put(x->hdr_ + 4, x->tag);
        mt_le32_put(x->hdr_ + 8, (uint32_t)x->len);
        mt_le32_put(x->hdr_ + 12, (uint32_t)((uint64_t)x->len >> 32));
    }
}

int
mt_xfer_header_read(const unsigned char *h, int rank, int peer, uint32_t *tag, uint64_t *len)
{
    if (mt_le32_get(h) != MT_XFER_MAGIC) {
        return mt_error_set(MT_ECONN, "rank %d: corrupt message header from rank %d", rank, peer);
    }
    *tag = mt_le32_get(h + 4);
    *len = (uint64_t)mt_le32_get(h + 8) | (uint64_t)mt_le32_get(h + 12) << 32;
    return 0;
}

int
mt_xfer_check(const mt_transport *t, const mt_xfer *xs, int n, bool is_recv)
{
    for (int i = 0; i < n; i++) {
        int p = xs[i].peer;
        bool any = is_recv && p == MT_ANY_SOURCE;
        if (!any && (p < 0 || p >= t->size || p == t->rank)) {
            return mt_error_set(MT_EINVAL, "rank %d: invalid %s peer rank %d (group size %d)",
                                t->rank, is_recv ? "source" : "destination", p, t->size);
        }
        if (xs[i].len > 0 && xs[i].buf == NULL) {
            return mt_error_set(MT_EINVAL, "transport: NULL buffer of %zu bytes", xs[i].len);
        }
    }
    return 0;
}

int
mt_exchange_begin(const mt_transport *t, bool aborted, const char *broken, mt_xfer *sends,
                  int nsend, mt_xfer *recvs, int nrecv)
{
    if (aborted) {
        return mt_error_set(MT_ECLOSED, "rank %d: the process group was shut down", t->rank);
    }
    if (broken[0]) {
        return mt_error_set(MT_ECONN, "%s", broken);
    }
    int rc = mt_xfer_check(t, sends, nsend, false);
    if (rc == 0) {
        rc = mt_xfer_check(t, recvs, nrecv, true);
    }
    if (rc < 0) {
        return rc;
    }
    mt_match_post(sends, nsend);
    mt_match_post(recvs, nrecv);
    return 0;
}

int
mt_xfer_timeout_error(const mt_transport *t, const mt_xfer *sends, int nsend,
                      const mt_xfer *recvs, int nrecv)
{
    int waiting = -1;
    const char *dir = "";
    for (int i = 0; i < nrecv && waiting < 0; i++) {
        if (recvs[i].state_ != MT_XFER_DONE) {
            waiting = mt_match_waiting_on(&recvs[i]);
            dir = "receiving from";
        }
    }
    for (int i = 0; i < nsend && waiting < 0; i++) {
        if (sends[i].state_ != MT_XFER_DONE) {
            waiting = sends[i].peer;
            dir = "sending to";
        }
    }
    if (waiting == MT_ANY_SOURCE) {
        return mt_error_set(MT_ETIMEOUT, "rank %d: timed out receiving from any rank", t->rank);
    }
    return mt_error_set(MT_ETIMEOUT,
                        "rank %d: timed out %s rank %d (the peer may have hung, died, or called "
                        "a different collective)",
                        t->rank, dir, waiting);
}

static void
mt__remove(mt_match *m, mt_unexp *u)
{
    mt_unexp **pp = &m->head;
    mt_unexp *prev = NULL;
    while (*pp != u) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    *pp = u->next;
    if (m->tail == u) {
        m->tail = prev;
    }
}

static bool
mt__has(const mt_match *m, int peer, uint32_t tag)
{
    for (const mt_unexp *u = m->head; u != NULL; u = u->next) {
        if (u->peer == peer && u->tag == tag) {
            return true;
        }
    }
    return false;
}

bool
mt_match_queued(const mt_match *m, int peer, uint32_t tag)
{
    for (const mt_unexp *u = m->head; u != NULL; u = u->next) {
        if (u->peer == peer && u->tag == tag && u->complete) {
            return true;
        }
    }
    return false;
}

static int
mt__size_mismatch(int rank, int peer, uint32_t tag, size_t want, size_t got)
{
    return mt_error_set(MT_EINVAL,
                        "rank %d: message from rank %d (tag %u) has %zu bytes but the receive "
                        "expected %zu: the ranks called different collectives or used tensors of "
                        "different sizes",
                        rank, peer, tag, got, want);
}

int
mt_match_unexpected(mt_match *m, int rank, mt_xfer *recvs, int nrecv)
{
    for (int i = 0; i < nrecv; i++) {
        mt_xfer *x = &recvs[i];
        if (x->state_ != MT_XFER_PENDING) {
            continue;
        }
        for (mt_unexp *u = m->head; u != NULL; u = u->next) {
            if ((x->peer == MT_ANY_SOURCE || x->peer == u->peer) && x->tag == u->tag) {
                if (!u->complete) {
                    break; /* the oldest match is still arriving */
                }
                if (u->len != x->len) {
                    return mt__size_mismatch(rank, u->peer, u->tag, x->len, u->len);
                }
                if (u->len && x->sink != NULL) {
                    x->sink(x->sink_ctx, 0, u->buf, u->len);
                }
                else if (u->len) {
                    memcpy(x->buf, u->buf, u->len);
                }
                x->src = u->peer;
                x->state_ = MT_XFER_DONE;
                mt__remove(m, u);
                free(u->buf);
                free(u);
                break;
            }
        }
    }
    return 0;
}

int
mt_match_incoming(mt_match *m, int rank, int peer, uint32_t tag, uint64_t len, mt_xfer *recvs,
                  int nrecv, mt_xfer **xo, mt_unexp **uo)
{
    *xo = NULL;
    *uo = NULL;
    if (!mt__has(m, peer, tag)) {
        for (int i = 0; i < nrecv; i++) {
            mt_xfer *x = &recvs[i];
            if (x->state_ == MT_XFER_PENDING && x->tag == tag &&
                (x->peer == MT_ANY_SOURCE || x->peer == peer)) {
                if (x->len != len) {
                    return mt__size_mismatch(rank, peer, tag, x->len, (size_t)len);
                }
                x->state_ = MT_XFER_ACTIVE;
                x->src = peer;
                *xo = x;
                return 0;
            }
        }
    }
    mt_unexp *u = calloc(1, sizeof(*u));
    char *buf = len <= SIZE_MAX - 1 ? malloc(len ? (size_t)len : 1) : NULL;
    if (u == NULL || buf == NULL) {
        free(u);
        free(buf);
        return mt_error_set(MT_ENOMEM, "rank %d: out of memory buffering %llu bytes from rank %d",
                            rank, (unsigned long long)len, peer);
    }
    u->peer = peer;
    u->tag = tag;
    u->buf = buf;
    u->len = (size_t)len;
    if (m->tail) {
        m->tail->next = u;
    }
    else {
        m->head = u;
    }
    m->tail = u;
    *uo = u;
    return 0;
}

void
mt_match_arrived(mt_xfer *x, mt_unexp *u)
{
    if (x != NULL) {
        x->state_ = MT_XFER_DONE;
    }
    else {
        u->complete = true;
    }
}

bool
mt_match_wants(int p, const mt_xfer *recvs, int nrecv)
{
    for (int i = 0; i < nrecv; i++) {
        if (recvs[i].state_ == MT_XFER_PENDING &&
            (recvs[i].peer == p || recvs[i].peer == MT_ANY_SOURCE)) {
            return true;
        }
    }
    return false;
}

int
mt_match_waiting_on(const mt_xfer *x)
{
    return x->state_ == MT_XFER_ACTIVE ? x->src : x->peer;
}

void
mt_match_clear(mt_match *m)
{
    mt_unexp *u = m->head;
    while (u != NULL) {
        mt_unexp *next = u->next;
        free(u->buf);
        free(u);
        u = next;
    }
    m->head = m->tail = NULL;
}
