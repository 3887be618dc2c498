/* csrc/distributed/transport/transport.h - the point-to-point interface that algorithms are written against. */
#ifndef CSRC_DISTRIBUTED_TRANSPORT_TRANSPORT_H
#define CSRC_DISTRIBUTED_TRANSPORT_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csrc/distributed/rendezvous/store.h"

/* Note [Transport model]
 * A transport connects the `size` ranks of a group pairwise.  Messages are
 * (tag, bytes); between two ranks they arrive in order.  The one primitive,
 * exchange(), posts a batch of sends and receives and progresses all of them
 * together until every one has completed: a ring step (send right, receive
 * left), a recursive-doubling step or an all-to-all are each one call, and
 * no pattern can deadlock on full socket buffers because a rank keeps
 * reading while it writes.
 *
 * A receive matches the oldest message from its peer (or from any peer, with
 * MT_ANY_SOURCE) carrying its tag.  Messages that arrive before a matching
 * receive is posted are buffered ("unexpected" messages), so a send never
 * waits for the receiver to post.  A receive whose matching message has a
 * different length is an error (both sides agreed on sizes beforehand).
 *
 * Every exchange has a deadline (Note [Deadlines]).  A timeout, a peer that
 * closed its connection, or a size mismatch fail the exchange with a message
 * naming the peer rank; after a timeout or a mismatch the byte streams are in
 * an unknown state, so the transport is broken and every later exchange fails
 * at once with the first error.  abort() (any thread) makes a running and
 * every later exchange fail with MT_ECLOSED. */

#define MT_ANY_SOURCE (-1)

typedef struct mt_xfer {
    int peer;       /* rank; for a receive MT_ANY_SOURCE allowed */
    uint32_t tag;
    void *buf;      /* send: data to send; receive: where the data goes */
    size_t len;
    int src;        /* receive: the rank the message came from (output) */
    /* receive, optional, only on a transport with `sinks` (Note [Sinks]): instead of being
     * copied to buf, the bytes are handed to sink(sink_ctx, offset, bytes, n) in order, n a
     * multiple of sink_unit (len must be one too); buf is then not written */
    void (*sink)(void *ctx, size_t off, const void *bytes, size_t n);
    void *sink_ctx;
    size_t sink_unit;
    /* progress, private to the transport */
    int state_;
    size_t done_;
    unsigned char hdr_[16];
} mt_xfer;

typedef struct mt_transport mt_transport;

typedef struct mt_transport_vtable {
    const char *name;
    /* See Note [Transport model].  `deadline` is absolute (mt__now_ms clock). */
    int (*exchange)(mt_transport *t, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv,
                    int64_t deadline);
    /* Thread-safe; see Note [Transport model]. */
    void (*abort)(mt_transport *t);
    /* Closes every connection and frees the transport. */
    void (*close)(mt_transport *t);
    /* Optional, with slot_bytes > 0 (Note [Slots]): a collective's step in
     * memory every rank can read.  slots_enter waits until this rank's next
     * slot (of slot_bytes) is free and returns it and the step's number;
     * slots_share publishes it with its length and a word saying what the
     * step is, waits until every rank has published theirs and checks that
     * they all say the same (else the transport is broken, as after a size
     * mismatch in an exchange), returning all slots (all[r], rank r's);
     * slots_leave says this rank has read them. */
    int (*slots_enter)(mt_transport *t, void **mine, uint64_t *step, int64_t deadline);
    int (*slots_share)(mt_transport *t, uint64_t step, size_t len, uint64_t what,
                       const void **all, int64_t deadline);
    void (*slots_leave)(mt_transport *t, uint64_t step);
    /* Optional: how many peers this rank has a TCP connection with now, and in
     * *sockets (may be NULL) how many sockets those are (Note [Lazy connections]
     * in tcp.c).  Thread-safe. */
    int (*connections)(const mt_transport *t, int *sockets);
} mt_transport_vtable;

/* Note [Sinks]
 * A receive may name a sink: the transport hands it the message's bytes where they lie (in
 * shared memory, say) instead of copying them into the receive's buffer, so an algorithm
 * that only combines what it receives (a reduce-scatter step) reads each byte once, with no
 * copy in between.  Only transports that say `sinks` take such receives. */
struct mt_transport {
    const mt_transport_vtable *vt;
    int rank;
    int size;
    size_t slot_bytes; /* 0: no slots */
    bool sinks;        /* receives may have a sink (Note [Sinks]) */
};

static inline int
mt_transport_exchange(mt_transport *t, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv,
                      int64_t deadline)
{
    return t->vt->exchange(t, sends, nsend, recvs, nrecv, deadline);
}

static inline int
mt_transport_send(mt_transport *t, int peer, uint32_t tag, const void *buf, size_t len,
                  int64_t deadline)
{
    mt_xfer x = {.peer = peer, .tag = tag, .buf = (void *)buf, .len = len};
    return t->vt->exchange(t, &x, 1, NULL, 0, deadline);
}

/* *src (may be NULL) receives the sender's rank. */
static inline int
mt_transport_recv(mt_transport *t, int peer, uint32_t tag, void *buf, size_t len,
                  int64_t deadline, int *src)
{
    mt_xfer x = {.peer = peer, .tag = tag, .buf = buf, .len = len};
    int rc = t->vt->exchange(t, NULL, 0, &x, 1, deadline);
    if (rc == 0 && src != NULL) {
        *src = x.src;
    }
    return rc;
}

/* Sends to `dst` while receiving from `src` (the full-duplex step of rings). */
static inline int
mt_transport_sendrecv(mt_transport *t, int dst, const void *sbuf, size_t slen, int src,
                      void *rbuf, size_t rlen, uint32_t tag, int64_t deadline)
{
    mt_xfer s = {.peer = dst, .tag = tag, .buf = (void *)sbuf, .len = slen};
    mt_xfer r = {.peer = src, .tag = tag, .buf = rbuf, .len = rlen};
    return t->vt->exchange(t, &s, 1, &r, 1, deadline);
}

/* Note [Slots]
 * A transport whose ranks share memory may offer each rank two slots that
 * every rank can read, used in turn by the collective steps of the group (so
 * every rank numbers the steps alike: the group's collectives run in the same
 * order everywhere).  A step is: enter (wait until every rank has read this
 * rank's slot of two steps ago), write into the slot, share (publish, wait for
 * every rank's), read the others' slots, leave.  One round of memory traffic
 * instead of log2(n) exchanges: the algorithms use it for small buffers. */
static inline bool
mt_transport_has_slots(const mt_transport *t, size_t len)
{
    return t->slot_bytes > 0 && len <= t->slot_bytes;
}

static inline void
mt_transport_abort(mt_transport *t)
{
    t->vt->abort(t);
}

static inline void
mt_transport_close(mt_transport *t)
{
    if (t != NULL) {
        t->vt->close(t);
    }
}

/* The TCP transport of a group (see Note [Lazy connections] in tcp.c): every
 * rank listens on an ephemeral port, publishes "<port> <host>" under
 * "tcp/<rank>" in `store` (borrowed; give each group its own PrefixStore) and
 * reads every other rank's, before `timeout_ms`; connections are made on
 * first use.  Caller owns the result; NULL + message on failure. */
mt_transport *mt_tcp_transport_new(mt_store *store, int rank, int size, int64_t timeout_ms);

/* The shared-memory transport of a group whose ranks share one host (Note
 * [Shared-memory transport] in shm.c), built through `store` (borrowed;
 * the group's own PrefixStore) before `timeout_ms`.  Caller owns the result;
 * NULL + message on failure. */
mt_transport *mt_shm_transport_new(mt_store *store, int rank, int size, int64_t timeout_ms);

/* The transport of a group spread over hosts (Note [Routing by peer] in
 * route.c): TCP to every rank and shared memory among the ranks of this
 * rank's host; host_of[r] (size entries, borrowed) numbers rank r's host.
 * Same contract as the two above. */
mt_transport *mt_route_transport_new(mt_store *store, int rank, int size, const int *host_of,
                                     int64_t timeout_ms);

/* The transport of a new group, chosen as Note [Choosing a transport]
 * (select.c) says: shared memory or TCP.  Same contract as the two above. */
mt_transport *mt_transport_new(mt_store *store, int rank, int size, int64_t timeout_ms);

/* The peers this rank has a TCP connection with now (and the sockets in *sockets, may be
 * NULL); -1 for a transport without TCP connections. */
static inline int
mt_transport_connections(const mt_transport *t, int *sockets)
{
    return t->vt->connections != NULL ? t->vt->connections(t, sockets) : -1;
}

/* The name of a transport ("tcp", "shm", "shm+tcp"). */
static inline const char *
mt_transport_name(const mt_transport *t)
{
    return t->vt->name;
}

/* The address mt_tcp_transport_new would listen on (for messages/tests). */
int mt_tcp_transport_pick_host(mt_store *store, char *buf, size_t cap);

#endif /* CSRC_DISTRIBUTED_TRANSPORT_TRANSPORT_H */
