/* csrc/distributed/transport/matching.c - see Note [Matching]. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/transport/matching.h"

void
mt_match_post(mt_xfer *xs, int n)
{
    for (int i = 0; i < n; i++) {
        xs[i].state_ = MT_XFER_PENDING;
        xs[i].done_ = 0;
        xs[i].src = -1;
    }
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
                if (u->len) {
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
