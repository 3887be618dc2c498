/* csrc/distributed/transport/matching.h - matching incoming messages to posted receives, shared by the transports. */
#ifndef CSRC_DISTRIBUTED_TRANSPORT_MATCHING_H
#define CSRC_DISTRIBUTED_TRANSPORT_MATCHING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csrc/distributed/transport/transport.h"

/* Note [Matching]
 * The matching rules of Note [Transport model], in one place for every
 * transport: a receive takes the oldest message from its peer (or any peer)
 * with its tag; a message no posted receive wants is buffered as
 * "unexpected" (an entry that owns a copy of its bytes) and completes a
 * later receive by a copy.  Message order per (peer, tag) is kept: while an
 * older message of the same (peer, tag) sits in the queue, a newer one is
 * queued behind it rather than given to a posted receive.
 *
 * The transport reads a message's bytes itself, into the posted receive or
 * the entry that mt_match_incoming chose, and calls mt_match_arrived when the
 * last byte is in.  A transfer's state_ is MT_XFER_PENDING (posted, nothing
 * matched), MT_XFER_ACTIVE (a message is being read into it; src says from
 * whom) or MT_XFER_DONE. */

enum { MT_XFER_PENDING = 0, MT_XFER_ACTIVE, MT_XFER_DONE };

typedef struct mt_unexp {
    int peer;
    uint32_t tag;
    char *buf;   /* owned */
    size_t len;
    bool complete;
    struct mt_unexp *next;
} mt_unexp;

/* The unexpected messages of one transport, oldest first.  Zero-initialised
 * is empty; owned by the transport (mt_match_clear frees the entries). */
typedef struct mt_match {
    mt_unexp *head, *tail;
} mt_match;

/* Marks each transfer of a batch pending (receives: src = -1; sends: their
 * header written into hdr_). */
void mt_match_post(mt_xfer *xs, int n);

/* Completes pending receives from fully buffered unexpected messages. */
int mt_match_unexpected(mt_match *m, int rank, mt_xfer *recvs, int nrecv);

/* A message (peer, tag, len) starts arriving: *x is the posted receive it
 * fills (now ACTIVE), or NULL and *u the new unexpected entry (its buffer
 * allocated).  Fails (message set) on a size mismatch or out of memory; the
 * transport's byte stream is then unusable. */
int mt_match_incoming(mt_match *m, int rank, int peer, uint32_t tag, uint64_t len,
                      mt_xfer *recvs, int nrecv, mt_xfer **x, mt_unexp **u);

/* The last byte of a message chosen by mt_match_incoming is in. */
void mt_match_arrived(mt_xfer *x, mt_unexp *u);

/* Whether a complete message from `peer` with `tag` is queued. */
bool mt_match_queued(const mt_match *m, int peer, uint32_t tag);

/* Whether a pending receive waits for a message from peer p. */
bool mt_match_wants(int p, const mt_xfer *recvs, int nrecv);

/* The peer an unfinished transfer waits on (a receive's source once known). */
int mt_match_waiting_on(const mt_xfer *x);

/* The start of every exchange: fails at once when the transport was aborted
 * (MT_ECLOSED) or is broken (MT_ECONN with its first error, `broken`), or
 * when a peer rank or buffer is invalid; then posts both batches. */
int mt_exchange_begin(const mt_transport *t, bool aborted, const char *broken, mt_xfer *sends,
                      int nsend, mt_xfer *recvs, int nrecv);

/* Checks a batch's peer ranks and buffers; MT_ANY_SOURCE only for receives. */
int mt_xfer_check(const mt_transport *t, const mt_xfer *xs, int n, bool is_recv);

/* Sets and returns the timeout error of an exchange, naming the first peer it still waits on. */
int mt_xfer_timeout_error(const mt_transport *t, const mt_xfer *sends, int nsend,
                          const mt_xfer *recvs, int nrecv);

/* A message's header on every transport: u32 magic | u32 tag | u64 length,
 * little endian (MT_XFER_HDR bytes).  mt_match_post writes it into each
 * send's hdr_. */
#define MT_XFER_HDR 16
#define MT_XFER_MAGIC 0x4d544d53u /* "MTMS" */
void mt_le32_put(unsigned char *p, uint32_t v);
uint32_t mt_le32_get(const unsigned char *p);
/* Reads a header; fails (message set) when its magic is wrong. */
int mt_xfer_header_read(const unsigned char *h, int rank, int peer, uint32_t *tag, uint64_t *len);

/* Frees every queued entry. */
void mt_match_clear(mt_match *m);

#endif /* CSRC_DISTRIBUTED_TRANSPORT_MATCHING_H */
