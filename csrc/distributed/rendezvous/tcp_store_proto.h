/* csrc/distributed/rendezvous/tcp_store_proto.h - TCPStore wire format and a growable byte buffer. */
#ifndef CSRC_DISTRIBUTED_RENDEZVOUS_TCP_STORE_PROTO_H
#define CSRC_DISTRIBUTED_RENDEZVOUS_TCP_STORE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Note [TCPStore protocol]
 * Both directions carry frames: u64 payload length (big endian) + payload.
 * A request payload is a u8 command followed by its arguments; byte strings
 * are u64 length + bytes, integers are big-endian u64/i64:
 *   HELLO        u64 magic                       -> status
 *   SET          key, value                      -> status
 *   GET          key, i64 timeout_ms             -> status, value
 *   ADD          key, i64 delta                  -> status, i64
 *   COMPARE_SET  key, expected, desired          -> status, value
 *   WAIT         u64 n, n keys, i64 timeout_ms   -> status
 *   CHECK        u64 n, n keys                   -> status, u8
 *   DELETE       key                             -> status, u8
 *   NUM_KEYS                                     -> status, i64
 *   WAIT_WORKERS i64 count, i64 timeout_ms       -> status
 *   COMPARE_DELETE key, expected                 -> status, u8
 *   MULTI_GET    u64 n, n keys, i64 timeout_ms   -> status, n values
 * A reply payload starts with a status byte; TIMEOUT and ERROR are followed
 * by a message.  GET, WAIT, MULTI_GET and WAIT_WORKERS that cannot be answered at once
 * park the client on the server ("waiter") until a write makes them true or
 * their deadline passes; clients never poll.  A client has at most one
 * request in flight.  The client waits for a reply for the request's own
 * timeout plus a second of slack (the server's own timeout answer, in torch's
 * words, normally comes first); past that it raises a timeout and keeps the
 * connection, dropping the late reply before it reads the next one (a dead
 * server then fails the next call).  On any socket error, or a reply cut
 * short, it drops the connection and the store reports the error on every
 * later call.
 * A server with a job token reads nothing from a connection but the
 * handshake of Note [Job token] (common/auth.h) until it has passed it;
 * without a token the first bytes are the first frame, as always. */

enum {
    MT__TS_HELLO = 1,
    MT__TS_SET,
    MT__TS_GET,
    MT__TS_ADD,
    MT__TS_COMPARE_SET,
    MT__TS_WAIT,
    MT__TS_CHECK,
    MT__TS_DELETE,
    MT__TS_NUM_KEYS,
    MT__TS_WAIT_WORKERS,
    MT__TS_COMPARE_DELETE,
    MT__TS_MULTI_GET,
};

enum { MT__TS_OK = 0, MT__TS_TIMEOUT = 1, MT__TS_ERROR = 2 };

#define MT__TS_MAGIC 0x6d74636431303031ull /* "mtcd1001" */
#define MT__TS_MAX_FRAME (((uint64_t)1) << 34) /* replies: a GET of the largest value */

/* Note [Store limits]
 * Every TCPStore server listens on a port anyone on the network can reach, so
 * what one connection can make it hold is bounded:
 *   - a request frame is at most mt__ts_max_request() bytes: the value limit
 *     (MINITORCH_STORE_MAX_VALUE_BYTES, default 8 MiB) plus 64 KiB for keys and
 *     framing.  A client sending a longer frame, a frame that does not parse
 *     or an unknown command is dropped (socket closed, state freed); the
 *     clients of this library check the limit before sending and raise.
 *   - a client has one request in flight (Note [TCPStore protocol]), so the
 *     input buffered for it - parked or not - never needs to exceed one
 *     frame: past that it is dropped; replies it does not read stop the
 *     server from reading its next requests, and it is dropped when its input
 *     is full too.
 *   - accept() failing for lack of descriptors (EMFILE/ENFILE) pauses
 *     accepting for a moment instead of spinning on a listening socket that
 *     stays readable; existing clients are served meanwhile.
 * So one connection can hold at most about two frames of memory, and a
 * stalled or hostile one cannot stop the others from being served. */
static inline size_t
mt__ts_max_value(void)
{
    static size_t cached;
    if (cached == 0) {
        const char *v = getenv("MINITORCH_STORE_MAX_VALUE_BYTES");
        char *end;
        unsigned long long n = v ? strtoull(v, &end, 10) : 0;
        cached = v && end != v && *end == '\0' && n > 0 && n < (1ull << 40) ? (size_t)n
                                                                            : (size_t)8 << 20;
    }
    return cached;
}

static inline size_t
mt__ts_max_request(void)
{
    return mt__ts_max_value() + 65536;
}

typedef struct mt__buf {
    char *p;
    size_t n, cap;
    bool oom;
} mt__buf;

static inline void
mt__buf_reserve(mt__buf *b, size_t extra)
{
    if (b->oom || b->n + extra <= b->cap) {
        return;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + extra) {
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (p == NULL) {
        b->oom = true;
        return;
    }
    b->p = p;
    b->cap = cap;
}

static inline void
mt__buf_put(mt__buf *b, const void *data, size_t n)
{
    mt__buf_reserve(b, n);
    if (!b->oom && n) {
        memcpy(b->p + b->n, data, n);
        b->n += n;
    }
}

static inline void
mt__buf_put_u64(mt__buf *b, uint64_t v)
{
    unsigned char c[8];
    for (int i = 0; i < 8; i++) {
        c[i] = (unsigned char)(v >> (56 - 8 * i));
    }
    mt__buf_put(b, c, 8);
}

static inline void
mt__buf_put_u8(mt__buf *b, unsigned v)
{
    unsigned char c = (unsigned char)v;
    mt__buf_put(b, &c, 1);
}

static inline void
mt__buf_put_bytes(mt__buf *b, const void *data, size_t n)
{
    mt__buf_put_u64(b, n);
    mt__buf_put(b, data, n);
}

static inline void
mt__buf_free(mt__buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
    b->oom = false;
}

/* An empty buffer that grew past 64 KiB (a large request or reply) gives its memory back: a
 * server with thousands of clients keeps only small buffers for idle ones. */
static inline void
mt__buf_trim(mt__buf *b)
{
    if (b->n == 0 && b->cap > ((size_t)64 << 10)) {
        mt__buf_free(b);
    }
}

static inline uint64_t
mt__be64(const void *p)
{
    const unsigned char *c = p;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v = (v << 8) | c[i];
    }
    return v;
}

/* A cursor over a received payload; any overrun sets `bad`. */
typedef struct mt__rd {
    const char *p;
    size_t n;
    bool bad;
} mt__rd;

static inline uint64_t
mt__rd_u64(mt__rd *r)
{
    if (r->n < 8) {
        r->bad = true;
        return 0;
    }
    uint64_t v = mt__be64(r->p);
    r->p += 8;
    r->n -= 8;
    return v;
}

static inline unsigned
mt__rd_u8(mt__rd *r)
{
    if (r->n < 1) {
        r->bad = true;
        return 0;
    }
    unsigned v = (unsigned char)r->p[0];
    r->p++;
    r->n--;
    return v;
}

/* Borrowed pointer into the payload. */
static inline const char *
mt__rd_bytes(mt__rd *r, size_t *len)
{
    uint64_t n = mt__rd_u64(r);
    if (r->bad || n > r->n) {
        r->bad = true;
        *len = 0;
        return "";
    }
    const char *p = r->p;
    r->p += n;
    r->n -= n;
    *len = (size_t)n;
    return p;
}

#endif /* CSRC_DISTRIBUTED_RENDEZVOUS_TCP_STORE_PROTO_H */
