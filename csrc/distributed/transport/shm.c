/* csrc/distributed/transport/shm.c - the shared-memory transport: one ring per ordered pair of ranks in one segment, futex wake-ups. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "c10_lite/error.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/transport/matching.h"
#include "csrc/distributed/transport/transport.h"
#include "csrc/distributed/transport/waiting.h"

/* Note [Shared-memory transport]
 * For ranks on one host (Note [Choosing a transport]).  Rank 0 creates one
 * segment per group, a named POSIX shared-memory object reserved in full up
 * front (so a small /dev/shm is an error at creation, not a SIGBUS later),
 * and publishes its name and a random nonce in the group's store; the other
 * ranks open it, check magic, geometry and nonce, and say so in the store;
 * rank 0 then unlinks the name, so nothing is left in /dev/shm after the
 * group is built, whatever happens to the processes afterwards.  When rank 0
 * cannot make the segment (no /dev/shm, or too little room in it) it
 * publishes why instead, and every rank fails with MT_ENOTIMPL.
 *
 * The segment holds, for every ordered pair (i, j), a single-producer
 * single-consumer byte ring: rank i appends messages for j (the same 16-byte
 * header as TCP, then the bytes), rank j consumes them, each side advancing
 * only its own 64-bit counter (release/acquire).  A message is copied twice:
 * into the ring by the sender and out of it, straight into the posted
 * receive, by the receiver; matching is Note [Matching], and reads are lazy
 * while spinning as in Note [Lazy reads] (tcp.c).
 *
 * Waiting: an exchange polls its rings for a spin budget (Note [Polling
 * before sleeping]); then it reads its doorbell word, raises its `sleeping`
 * flag, checks the rings once more and sleeps on the doorbell (a futex) for
 * at most 10 ms at a time.  A rank that writes into a ring, or frees space in
 * one, bumps the doorbell and wakes the other side when its flag is up; the
 * flag is raised before the last check and read after the write (both
 * sequentially consistent), so a wake-up cannot be lost.
 *
 * A peer's death: every rank holds an open-file-description lock on its own
 * byte of the segment, which the kernel drops when the process dies.  After
 * each 10 ms sleep an exchange tests the locks of the peers it waits on; a
 * dead peer fails the exchange (after whatever it wrote has been read) with
 * the same words as a lost TCP connection.  The lock of rank 0 also tells an
 * attaching rank that a segment named in the store belongs to a live group:
 * a stale name from an earlier job is refused.
 *
 * After the rings, each rank has two slots of 64 KiB (a 64-byte header with
 * the step's length and kind, then the data) for Note [Slots]
 * (transport.h), with two counters in its rank block: the last step whose
 * slot it published (`shared`) and the last step whose slots it has read
 * (`read`).  Waiting for them works as in an exchange. */

#define MT__SHM_MAGIC 0x4d545348u /* "MTSH" */
#define MT__SHM_VERSION 2u
#define MT__SHM_CL 64
#define MT__SHM_SLEEP_MS 10
#define MT__SHM_SLOT_BYTES ((size_t)64 << 10)

typedef struct mt__shm_head {
    uint32_t magic, version;
    int32_t size, pad;
    uint64_t ring_bytes;
    uint64_t nonce;
} mt__shm_head;

typedef struct mt__shm_rank {
    _Atomic uint32_t doorbell;
    _Atomic uint32_t sleeping;
    char pad_[MT__SHM_CL - 8];
    /* Note [Slots]: the last step whose slot this rank published / whose slots it has read */
    _Atomic uint64_t shared;
    _Atomic uint64_t read;
    char pad2_[MT__SHM_CL - 16];
} mt__shm_rank;

typedef struct mt__shm_ring {
    _Atomic uint64_t head; /* bytes written, by the producer */
    char pad1_[MT__SHM_CL - 8];
    _Atomic uint64_t tail; /* bytes consumed, by the consumer */
    char pad2_[MT__SHM_CL - 8];
} mt__shm_ring;

typedef struct mt__shm_in {
    unsigned char hdr[MT_XFER_HDR];
    size_t hdr_got;
    bool in_body;
    uint64_t len, got;
    char *dst;
    mt_xfer *x;
    mt_unexp *u;
    bool dead;
} mt__shm_in;

typedef struct mt__shm {
    mt_transport base;
    int fd;
    char *map;
    size_t map_len;
    mt__shm_rank *ranks;
    mt__shm_ring *rings;
    char *data;
    size_t ring_bytes;
    char *slots;    /* two slots of MT__SHM_SLOT_BYTES per rank */
    uint64_t step;  /* the last slot step this rank entered */
    mt__shm_in *in; /* per peer */
    mt_match match;
    atomic_bool aborted;
    char broken[512];
} mt__shm;

#define MT__SHM(t) ((mt__shm *)(t))

/* ---- layout ---------------------------------------------------------------- */

static size_t
mt__round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* Index of the ring from rank i to rank j (i != j). */
static size_t
mt__ring_index(int size, int i, int j)
{
    return (size_t)i * (size_t)(size - 1) + (size_t)(j < i ? j : j - 1);
}

static size_t
mt__ranks_off(void)
{
    return 4096;
}

static size_t
mt__rings_off(int size)
{
    return mt__round_up(mt__ranks_off() + (size_t)size * sizeof(mt__shm_rank), 4096);
}

static size_t
mt__data_off(int size)
{
    size_t nrings = (size_t)size * (size_t)(size - 1);
    return mt__round_up(mt__rings_off(size) + nrings * sizeof(mt__shm_ring), 4096);
}

/* Bytes per ring: 16 MiB per group shared by its n(n-1) rings, 16 KiB to 1 MiB each. */
static size_t
mt__ring_bytes_for(int size)
{
    size_t nrings = (size_t)size * (size_t)(size - 1);
    size_t r = ((size_t)16 << 20) / (nrings ? nrings : 1);
    if (r > ((size_t)1 << 20)) {
        r = (size_t)1 << 20;
    }
    if (r < ((size_t)16 << 10)) {
        r = (size_t)16 << 10;
    }
    return r / 4096 * 4096;
}

static int
mt__layout(mt__shm *t, size_t ring_bytes)
{
    int size = t->base.size;
    size_t nrings = (size_t)size * (size_t)(size - 1);
    if (nrings != 0 && ring_bytes > (SIZE_MAX - mt__data_off(size)) / nrings) {
        return mt_error_set(MT_EINVAL, "shared-memory transport: %d ranks do not fit", size);
    }
    t->ring_bytes = ring_bytes;
    t->map_len = mt__data_off(size) + nrings * ring_bytes + (size_t)size * 2 * MT__SHM_SLOT_BYTES;
    return 0;
}

static void
mt__attach(mt__shm *t)
{
    t->ranks = (mt__shm_rank *)(t->map + mt__ranks_off());
    t->rings = (mt__shm_ring *)(t->map + mt__rings_off(t->base.size));
    t->data = t->map + mt__data_off(t->base.size);
    size_t nrings = (size_t)t->base.size * (size_t)(t->base.size - 1);
    t->slots = t->data + nrings * t->ring_bytes;
    t->base.slot_bytes = MT__SHM_SLOT_BYTES - MT__SHM_CL;
    t->base.sinks = true;
}

/* ---- rings ----------------------------------------------------------------- */

static void
mt__futex_wake(_Atomic uint32_t *w)
{
    (void)syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Wakes rank p if it sleeps: called after writing into or consuming from a ring it shares. */
static void
mt__kick(mt__shm *t, int p)
{
    atomic_thread_fence(memory_order_seq_cst);
    mt__shm_rank *r = &t->ranks[p];
    if (atomic_load(&r->sleeping)) {
        atomic_fetch_add(&r->doorbell, 1);
        mt__futex_wake(&r->doorbell);
    }
}

/* Raises this rank's `sleeping` flag and returns the doorbell value to sleep
 * on; the caller then looks for work once more and calls mt__doze (Note
 * [Shared-memory transport]: a peer ringing after that look changes the
 * value, so the futex does not sleep). */
static uint32_t
mt__doze_prepare(mt__shm *t)
{
    mt__shm_rank *mine = &t->ranks[t->base.rank];
    uint32_t seen = atomic_load(&mine->doorbell);
    atomic_store(&mine->sleeping, 1);
    atomic_thread_fence(memory_order_seq_cst);
    return seen;
}

/* When `sleep` (and not aborted): sleeps until the doorbell moves from
 * `seen`, for at most MT__SHM_SLEEP_MS and `left` ms.  Then lowers the flag. */
static void
mt__doze(mt__shm *t, uint32_t seen, int left, bool sleep)
{
    mt__shm_rank *mine = &t->ranks[t->base.rank];
    if (sleep && !atomic_load(&t->aborted)) {
        int ms = left < MT__SHM_SLEEP_MS ? left : MT__SHM_SLEEP_MS;
        struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
        (void)syscall(SYS_futex, (uint32_t *)&mine->doorbell, FUTEX_WAIT, seen, &ts, NULL, 0);
    }
    atomic_store(&mine->sleeping, 0);
}

/* Appends up to n bytes of src to the ring me -> p; returns how many fit. */
static size_t
mt__ring_put(mt__shm *t, int p, const void *src, size_t n)
{
    size_t idx = mt__ring_index(t->base.size, t->base.rank, p);
    mt__shm_ring *r = &t->rings[idx];
    char *d = t->data + idx * t->ring_bytes;
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    size_t room = t->ring_bytes - (size_t)(head - tail);
    if (n > room) {
        n = room;
    }
    if (n == 0) {
        return 0;
    }
    size_t at = (size_t)(head % t->ring_bytes);
    size_t first = t->ring_bytes - at < n ? t->ring_bytes - at : n;
    memcpy(d + at, src, first);
    memcpy(d, (const char *)src + first, n - first);
    atomic_store_explicit(&r->head, head + n, memory_order_release);
    return n;
}

/* Bytes waiting in the ring p -> me. */
static size_t
mt__ring_avail(mt__shm *t, int p)
{
    mt__shm_ring *r = &t->rings[mt__ring_index(t->base.size, p, t->base.rank)];
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    return (size_t)(head - atomic_load_explicit(&r->tail, memory_order_relaxed));
}

/* Takes up to n bytes from the ring p -> me into dst; returns how many. */
static size_t
mt__ring_get(mt__shm *t, int p, void *dst, size_t n)
{
    size_t idx = mt__ring_index(t->base.size, p, t->base.rank);
    mt__shm_ring *r = &t->rings[idx];
    const char *s = t->data + idx * t->ring_bytes;
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    size_t avail = (size_t)(head - tail);
    if (n > avail) {
        n = avail;
    }
    if (n == 0) {
        return 0;
    }
    size_t at = (size_t)(tail % t->ring_bytes);
    size_t first = t->ring_bytes - at < n ? t->ring_bytes - at : n;
    memcpy(dst, s + at, first);
    memcpy((char *)dst + first, s, n - first);
    atomic_store_explicit(&r->tail, tail + n, memory_order_release);
    return n;
}

/* Hands n bytes (whole units) at src to x's sink as message offset `off`: straight from
 * the ring when src is aligned to the unit, else through an aligned copy (a message that
 * follows one of an odd byte count starts off its alignment; the sink reads typed values). */
static void
mt__sink_span(mt_xfer *x, size_t off, const char *src, size_t n)
{
    if ((uintptr_t)src % x->sink_unit == 0) {
        x->sink(x->sink_ctx, off, src, n);
        return;
    }
    _Alignas(16) unsigned char b[4096]; /* a multiple of every unit */
    for (size_t d = 0; d < n; d += sizeof(b)) {
        size_t m = n - d < sizeof(b) ? n - d : sizeof(b);
        memcpy(b, src + d, m);
        x->sink(x->sink_ctx, off + d, b, m);
    }
}

/* Hands up to n bytes from the ring p -> me to x's sink (Note [Sinks]), starting at offset
 * `off` of the message: whole units only (a unit split by the end of the ring goes through a
 * small bounce); returns how many. */
static size_t
mt__ring_sink(mt__shm *t, int p, mt_xfer *x, size_t off, size_t n)
{
    size_t idx = mt__ring_index(t->base.size, p, t->base.rank);
    mt__shm_ring *r = &t->rings[idx];
    const char *s = t->data + idx * t->ring_bytes;
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    size_t avail = (size_t)(head - tail), unit = x->sink_unit;
    if (n > avail) {
        n = avail;
    }
    n -= n % unit;
    if (n == 0) {
        return 0;
    }
    size_t at = (size_t)(tail % t->ring_bytes);
    size_t first = t->ring_bytes - at < n ? t->ring_bytes - at : n;
    size_t whole = first - first % unit;
    if (whole) {
        mt__sink_span(x, off, s + at, whole);
    }
    size_t done = whole;
    if (whole < first) { /* a unit across the end of the ring */
        _Alignas(16) unsigned char bounce[64];
        size_t part = first - whole;
        memcpy(bounce, s + at + whole, part);
        memcpy(bounce + part, s, unit - part);
        x->sink(x->sink_ctx, off + done, bounce, unit);
        done += unit;
    }
    if (done < n) {
        mt__sink_span(x, off + done, s + (done - first), n - done);
    }
    atomic_store_explicit(&r->tail, tail + n, memory_order_release);
    return n;
}

/* ---- liveness ---------------------------------------------------------------- */

static int
mt__lock_own_byte(mt__shm *t)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = t->base.rank, .l_len = 1};
    if (fcntl(t->fd, F_OFD_SETLK, &fl) < 0) {
        return mt_error_set(MT_ERUNTIME, "shared-memory transport: cannot lock the segment: %s",
                            strerror(errno));
    }
    return 0;
}

/* Whether rank p still holds its lock (its process is alive). */
static bool
mt__alive(mt__shm *t, int p)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = p, .l_len = 1};
    if (fcntl(t->fd, F_OFD_GETLK, &fl) < 0) {
        return true; /* cannot tell: rely on the deadline */
    }
    return fl.l_type != F_UNLCK;
}

/* ---- exchange -------------------------------------------------------------- */

static int
mt__shm_fail(mt__shm *t, int code)
{
    if (!t->broken[0]) {
        snprintf(t->broken, sizeof(t->broken), "%s", mt_error_message());
    }
    return code;
}

/* Writes what fits of the unfinished sends to peer p, in order. */
static void
mt__progress_write(mt__shm *t, int p, mt_xfer *sends, int nsend, size_t *moved)
{
    for (int i = 0; i < nsend; i++) {
        mt_xfer *x = &sends[i];
        if (x->peer != p || x->state_ == MT_XFER_DONE) {
            continue;
        }
        while (x->done_ < MT_XFER_HDR + x->len) {
            size_t w;
            if (x->done_ < MT_XFER_HDR) {
                w = mt__ring_put(t, p, x->hdr_ + x->done_, MT_XFER_HDR - x->done_);
            }
            else {
                size_t off = x->done_ - MT_XFER_HDR;
                w = mt__ring_put(t, p, (const char *)x->buf + off, x->len - off);
            }
            if (w == 0) {
                return; /* ring full */
            }
            x->done_ += w;
            *moved += w;
        }
        x->state_ = MT_XFER_DONE;
    }
}

/* Reads what peer p has written: whole messages when `eager`, else only
 * while a posted receive waits for one from p (Note [Lazy reads]). */
static int
mt__progress_read(mt__shm *t, int p, mt_xfer *recvs, int nrecv, bool eager, size_t *moved)
{
    mt__shm_in *in = &t->in[p];
    for (;;) {
        if (!in->in_body) {
            if (in->hdr_got == 0 && !eager && !mt_match_wants(p, recvs, nrecv)) {
                return 0;
            }
            size_t r = mt__ring_get(t, p, in->hdr + in->hdr_got, MT_XFER_HDR - in->hdr_got);
            if (r == 0) {
                return 0;
            }
            *moved += r;
            in->hdr_got += r;
            if (in->hdr_got < MT_XFER_HDR) {
                return 0;
            }
            uint32_t tag;
            uint64_t len;
            if (mt_xfer_header_read(in->hdr, t->base.rank, p, &tag, &len) < 0) {
                return mt__shm_fail(t, MT_ECONN);
            }
            int rc = mt_match_incoming(&t->match, t->base.rank, p, tag, len, recvs, nrecv, &in->x,
                                       &in->u);
            if (rc < 0) {
                return mt__shm_fail(t, rc);
            }
            in->in_body = true;
            in->len = len;
            in->got = 0;
            in->dst = in->x != NULL ? in->x->buf : in->u->buf;
        }
        if (in->got < in->len) {
            size_t r = in->x != NULL && in->x->sink != NULL
                           ? mt__ring_sink(t, p, in->x, (size_t)in->got,
                                           (size_t)(in->len - in->got))
                           : mt__ring_get(t, p, in->dst + in->got, (size_t)(in->len - in->got));
            if (r == 0) {
                return 0;
            }
            *moved += r;
            in->got += r;
            if (in->got < in->len) {
                return 0;
            }
        }
        mt_match_arrived(in->x, in->u);
        in->in_body = false;
        in->hdr_got = 0;
        in->x = NULL;
        in->u = NULL;
    }
}

/* One pass over every ring this exchange touches; adds the bytes moved. */
static int
mt__progress(mt__shm *t, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv, bool eager,
             size_t *moved)
{
    int size = t->base.size, me = t->base.rank;
    for (int p = 0; p < size; p++) {
        if (p == me) {
            continue;
        }
        size_t before = *moved;
        mt__progress_write(t, p, sends, nsend, moved);
        bool wrote = *moved != before;
        before = *moved;
        if (mt__ring_avail(t, p) > 0) {
            int rc = mt__progress_read(t, p, recvs, nrecv, eager, moved);
            if (rc < 0) {
                return rc;
            }
        }
        if (wrote || *moved != before) {
            mt__kick(t, p);
        }
    }
    return 0;
}

/* Whether the exchange is complete; fails when it waits on a dead peer. */
static int
mt__done(mt__shm *t, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv, bool *done)
{
    *done = true;
    for (int i = 0; i < nsend; i++) {
        if (sends[i].state_ != MT_XFER_DONE) {
            *done = false;
            if (t->in[sends[i].peer].dead) {
                mt_error_set(MT_ECONN, "rank %d: connection to rank %d lost while sending to it: "
                             "the peer process exited", t->base.rank, sends[i].peer);
                return mt__shm_fail(t, MT_ECONN);
            }
        }
    }
    int alive = 0;
    for (int q = 0; q < t->base.size; q++) {
        alive += q != t->base.rank && !t->in[q].dead;
    }
    for (int i = 0; i < nrecv; i++) {
        mt_xfer *x = &recvs[i];
        if (x->state_ == MT_XFER_DONE) {
            continue;
        }
        *done = false;
        int p = mt_match_waiting_on(x);
        if (p == MT_ANY_SOURCE) {
            if (alive == 0) {
                mt_error_set(MT_ECONN, "rank %d: every peer exited while receiving from any "
                             "source", t->base.rank);
                return mt__shm_fail(t, MT_ECONN);
            }
        }
        else if (t->in[p].dead && mt__ring_avail(t, p) == 0 && !mt_match_queued(&t->match, p, x->tag)) {
            mt_error_set(MT_ECONN, "rank %d: connection to rank %d lost while receiving from "
                         "it: the peer process exited", t->base.rank, p);
            return mt__shm_fail(t, MT_ECONN);
        }
    }
    return 0;
}

/* Marks the peers this exchange waits on that have died. */
static void
mt__check_peers(mt__shm *t, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv)
{
    for (int i = 0; i < nsend; i++) {
        int p = sends[i].peer;
        if (sends[i].state_ != MT_XFER_DONE && !t->in[p].dead && !mt__alive(t, p)) {
            t->in[p].dead = true;
        }
    }
    for (int i = 0; i < nrecv; i++) {
        if (recvs[i].state_ == MT_XFER_DONE) {
            continue;
        }
        int p = mt_match_waiting_on(&recvs[i]);
        for (int q = 0; q < t->base.size; q++) {
            if (q != t->base.rank && (p == q || p == MT_ANY_SOURCE) && !t->in[q].dead &&
                !mt__alive(t, q)) {
                t->in[q].dead = true;
            }
        }
    }
}

static int
mt__shm_exchange(mt_transport *base, mt_xfer *sends, int nsend, mt_xfer *recvs, int nrecv,
                 int64_t deadline)
{
    mt__shm *t = MT__SHM(base);
    int rc = mt_exchange_begin(base, atomic_load(&t->aborted), t->broken, sends, nsend, recvs,
                               nrecv);
    if (rc < 0) {
        return rc;
    }
    bool yield = mt_oversubscribed(base->size);
    int64_t budget = mt_spin_us(yield), spin_until = 0, last_check = mt_now_us();
    for (;;) {
        rc = mt_match_unexpected(&t->match, base->rank, recvs, nrecv);
        if (rc < 0) {
            return mt__shm_fail(t, rc);
        }
        bool done;
        rc = mt__done(t, sends, nsend, recvs, nrecv, &done);
        if (rc < 0 || done) {
            return rc;
        }
        int64_t now = mt_now_us();
        if (spin_until == 0) {
            spin_until = now + budget;
        }
        bool eager = now >= spin_until; /* Note [Lazy reads] */
        size_t moved = 0;
        rc = mt__progress(t, sends, nsend, recvs, nrecv, eager, &moved);
        if (rc < 0) {
            return rc;
        }
        if (atomic_load(&t->aborted)) {
            return mt_error_set(MT_ECLOSED, "rank %d: the process group was shut down",
                                base->rank);
        }
        if (moved > 0) {
            if (!eager) {
                spin_until = mt_now_us() + budget; /* progress: keep spinning */
            }
            continue;
        }
        int left = mt__ms_left(deadline);
        if (left <= 0) {
            mt_xfer_timeout_error(base, sends, nsend, recvs, nrecv);
            return mt__shm_fail(t, MT_ETIMEOUT);
        }
        if (!eager) {
            if (yield) {
                sched_yield(); /* let a peer on this core run */
            }
            continue;
        }
        /* Sleep (Note [Shared-memory transport]): flag up, one more pass, then the futex. */
        uint32_t seen = mt__doze_prepare(t);
        rc = mt_match_unexpected(&t->match, base->rank, recvs, nrecv);
        if (rc == 0) {
            rc = mt__progress(t, sends, nsend, recvs, nrecv, true, &moved);
        }
        if (rc < 0) {
            mt__doze(t, seen, left, false);
            return t->broken[0] ? rc : mt__shm_fail(t, rc);
        }
        mt__doze(t, seen, left, moved == 0);
        if (mt_now_us() - last_check >= MT__SHM_SLEEP_MS * 1000) {
            mt__check_peers(t, sends, nsend, recvs, nrecv);
            last_check = mt_now_us();
        }
    }
}

static void
mt__shm_abort(mt_transport *base)
{
    mt__shm *t = MT__SHM(base);
    atomic_store(&t->aborted, true);
    if (t->ranks != NULL) {
        mt__shm_rank *mine = &t->ranks[base->rank];
        atomic_fetch_add(&mine->doorbell, 1);
        mt__futex_wake(&mine->doorbell);
    }
}

static void
mt__shm_close(mt_transport *base)
{
    mt__shm *t = MT__SHM(base);
    if (t->map != NULL) {
        munmap(t->map, t->map_len);
    }
    if (t->fd >= 0) {
        close(t->fd); /* drops this rank's lock */
    }
    mt_match_clear(&t->match);
    free(t->in);
    free(t);
}

/* ---- slots (Note [Slots]) ------------------------------------------------------ */

/* The first rank whose `shared` (or `read`) counter is below v, or -1. */
static int
mt__slots_late(mt__shm *t, bool shared, uint64_t v)
{
    for (int q = 0; q < t->base.size; q++) {
        mt__shm_rank *r = &t->ranks[q];
        uint64_t have = atomic_load_explicit(shared ? &r->shared : &r->read, memory_order_acquire);
        if (have < v) {
            return q;
        }
    }
    return -1;
}

static void
mt__kick_all(mt__shm *t)
{
    for (int q = 0; q < t->base.size; q++) {
        if (q != t->base.rank) {
            mt__kick(t, q);
        }
    }
}

/* Waits until every rank's `shared` (or `read`) counter reaches v: spins, then sleeps on the
 * doorbell as an exchange does; a dead rank or the deadline fails it. */
static int
mt__slots_wait(mt__shm *t, bool shared, uint64_t v, int64_t deadline)
{
    if (t->broken[0]) {
        return mt_error_set(MT_ECONN, "%s", t->broken);
    }
    if (mt__slots_late(t, shared, v) < 0) {
        return 0; /* the common case when the ranks run in step: no clock read */
    }
    bool yield = mt_oversubscribed(t->base.size);
    int64_t now = mt_now_us(), spin_until = now + mt_spin_us(yield), last_check = now;
    for (;;) {
        int late = mt__slots_late(t, shared, v);
        if (late < 0) {
            return 0;
        }
        if (atomic_load(&t->aborted)) {
            return mt_error_set(MT_ECLOSED, "rank %d: the process group was shut down",
                                t->base.rank);
        }
        now = mt_now_us();
        if (now < spin_until) {
            if (yield) {
                sched_yield();
            }
            continue;
        }
        int left = mt__ms_left(deadline);
        if (left <= 0) {
            mt_error_set(MT_ETIMEOUT, "rank %d: timed out waiting for rank %d (the peer may have "
                         "hung, died, or called a different collective)", t->base.rank, late);
            return mt__shm_fail(t, MT_ETIMEOUT);
        }
        uint32_t seen = mt__doze_prepare(t);
        mt__doze(t, seen, left, mt__slots_late(t, shared, v) >= 0);
        if (mt_now_us() - last_check >= MT__SHM_SLEEP_MS * 1000) {
            late = mt__slots_late(t, shared, v);
            if (late >= 0 && !mt__alive(t, late)) {
                mt_error_set(MT_ECONN, "rank %d: connection to rank %d lost while waiting for "
                             "it: the peer process exited", t->base.rank, late);
                return mt__shm_fail(t, MT_ECONN);
            }
            last_check = mt_now_us();
        }
    }
}

/* A slot: a 64-byte header (length, what the step is) then the data. */
typedef struct mt__slot_head {
    uint64_t len, what;
} mt__slot_head;

static mt__slot_head *
mt__slot_head_of(mt__shm *t, int rank, uint64_t step)
{
    return (mt__slot_head *)(t->slots + ((size_t)rank * 2 + (size_t)(step & 1)) * MT__SHM_SLOT_BYTES);
}

static char *
mt__slot(mt__shm *t, int rank, uint64_t step)
{
    return (char *)mt__slot_head_of(t, rank, step) + MT__SHM_CL;
}

static int
mt__shm_slots_enter(mt_transport *base, void **mine, uint64_t *step, int64_t deadline)
{
    mt__shm *t = MT__SHM(base);
    uint64_t k = t->step + 1;
    /* this slot was last used by step k - 2: every rank must have read it */
    int rc = k > 2 ? mt__slots_wait(t, false, k - 2, deadline) : 0;
    if (rc < 0) {
        return rc;
    }
    t->step = k;
    *step = k;
    *mine = mt__slot(t, base->rank, k);
    return 0;
}

static int
mt__shm_slots_share(mt_transport *base, uint64_t step, size_t len, uint64_t what,
                    const void **all, int64_t deadline)
{
    mt__shm *t = MT__SHM(base);
    mt__slot_head *h = mt__slot_head_of(t, base->rank, step);
    h->len = len;
    h->what = what;
    atomic_store_explicit(&t->ranks[base->rank].shared, step, memory_order_release);
    mt__kick_all(t);
    int rc = mt__slots_wait(t, true, step, deadline);
    if (rc < 0) {
        return rc;
    }
    for (int q = 0; q < base->size; q++) {
        const mt__slot_head *o = mt__slot_head_of(t, q, step);
        if (o->len != len || o->what != what) {
            mt_error_set(MT_EINVAL, "rank %d: rank %d is in another collective or has a tensor "
                         "of another size (%llu bytes there, %zu here): the ranks called "
                         "different collectives or used tensors of different sizes",
                         base->rank, q, (unsigned long long)o->len, len);
            return mt__shm_fail(t, MT_EINVAL);
        }
        all[q] = mt__slot(t, q, step);
    }
    return 0;
}

static void
mt__shm_slots_leave(mt_transport *base, uint64_t step)
{
    mt__shm *t = MT__SHM(base);
    atomic_store_explicit(&t->ranks[base->rank].read, step, memory_order_release);
    mt__kick_all(t);
}

static const mt_transport_vtable mt__shm_vt = {
    .name = "shm",
    .exchange = mt__shm_exchange,
    .abort = mt__shm_abort,
    .close = mt__shm_close,
    .slots_enter = mt__shm_slots_enter,
    .slots_share = mt__shm_slots_share,
    .slots_leave = mt__shm_slots_leave,
};

/* ---- setup ----------------------------------------------------------------- */

/* Rank 0 could not build the segment: says so under "shm/name" (so the other
 * ranks do not wait for one) and fails with MT_ENOTIMPL, which tells
 * Note [Choosing a transport] that shared memory is unavailable here. */
static int
mt__unavailable(mt_store *store)
{
    char why[400], val[420];
    snprintf(why, sizeof(why), "%s", mt_error_message());
    snprintf(val, sizeof(val), "none %s", why);
    (void)mt_store_set_str(store, "shm/name", val);
    return mt_error_set(MT_ENOTIMPL, "%s", why);
}

/* Rank 0: creates, reserves and initialises the segment; publishes "shm/name". */
static int
mt__create(mt__shm *t, mt_store *store, char *name, size_t cap)
{
    static _Atomic unsigned counter;
    uint64_t nonce = 0;
    if (getrandom(&nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce)) {
        nonce = (uint64_t)mt_now_us() ^ ((uint64_t)getpid() << 32);
    }
    snprintf(name, cap, "/minitorch-shm-%d-%u-%016llx", (int)getpid(),
             atomic_fetch_add(&counter, 1), (unsigned long long)nonce);
    t->fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (t->fd < 0) {
        mt_error_set(MT_ERUNTIME, "shared-memory transport: shm_open(%s) failed: %s", name,
                     strerror(errno));
        return mt__unavailable(store);
    }
    int rc = mt__layout(t, mt__ring_bytes_for(t->base.size));
    int err = rc < 0 ? 0 : ftruncate(t->fd, (off_t)t->map_len) < 0 ? errno
                                                                    : posix_fallocate(t->fd, 0, (off_t)t->map_len);
    if (rc == 0 && err != 0) {
        rc = mt_error_set(err == ENOSPC ? MT_ENOMEM : MT_ERUNTIME,
                          "shared-memory transport: cannot reserve %zu bytes in /dev/shm for %d "
                          "ranks: %s (set MINITORCH_TRANSPORT=tcp, or give /dev/shm more space)",
                          t->map_len, t->base.size, strerror(err));
    }
    if (rc == 0) {
        t->map = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
        if (t->map == MAP_FAILED) {
            t->map = NULL;
            rc = mt_error_set(MT_ENOMEM, "shared-memory transport: mmap of %zu bytes failed: %s",
                              t->map_len, strerror(errno));
        }
    }
    if (rc == 0) {
        rc = mt__lock_own_byte(t);
    }
    if (rc < 0) {
        shm_unlink(name);
        return mt__unavailable(store);
    }
    if (rc == 0) {
        mt__shm_head *h = (mt__shm_head *)t->map;
        h->magic = MT__SHM_MAGIC;
        h->version = MT__SHM_VERSION;
        h->size = t->base.size;
        h->ring_bytes = t->ring_bytes;
        h->nonce = nonce;
        mt__attach(t);
        char val[160];
        snprintf(val, sizeof(val), "%s %016llx", name, (unsigned long long)nonce);
        rc = mt_store_set_str(store, "shm/name", val);
    }
    if (rc < 0) {
        shm_unlink(name);
    }
    return rc;
}

/* Ranks > 0: opens and checks the segment rank 0 published. */
static int
mt__open(mt__shm *t, mt_store *store, int64_t deadline)
{
    char *val = NULL, name[128];
    unsigned long long nonce = 0;
    int rc = mt_store_get_str(store, "shm/name", mt__ms_left(deadline), &val);
    if (rc == 0 && strncmp(val, "none ", 5) == 0) {
        rc = mt_error_set(MT_ENOTIMPL, "rank 0 could not create the group's shared memory: %s",
                          val + 5);
    }
    else if (rc == 0 && sscanf(val, "%127s %llx", name, &nonce) != 2) {
        rc = mt_error_set(MT_ECONN, "shared-memory transport: bad segment name '%s' in the store", val);
    }
    free(val);
    if (rc < 0) {
        return rc;
    }
    t->fd = shm_open(name, O_RDWR | O_CLOEXEC, 0600);
    if (t->fd < 0) {
        return mt_error_set(MT_ECONN, "shared-memory transport: cannot open %s, published by rank "
                            "0: %s (a stale entry of an earlier job, or rank 0 gave up)", name,
                            strerror(errno));
    }
    struct stat st;
    mt__shm_head h;
    if (fstat(t->fd, &st) < 0 || (size_t)st.st_size < sizeof(h) ||
        pread(t->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || h.magic != MT__SHM_MAGIC ||
        h.version != MT__SHM_VERSION || h.size != t->base.size || h.nonce != nonce ||
        h.ring_bytes == 0 || h.ring_bytes % 4096 != 0) {
        return mt_error_set(MT_ECONN, "shared-memory transport: %s is not the segment of this "
                            "group of %d ranks (a stale entry of an earlier job?)", name,
                            t->base.size);
    }
    rc = mt__layout(t, (size_t)h.ring_bytes);
    if (rc == 0 && (size_t)st.st_size != t->map_len) {
        rc = mt_error_set(MT_ECONN, "shared-memory transport: %s has %lld bytes, expected %zu",
                          name, (long long)st.st_size, t->map_len);
    }
    if (rc == 0 && !mt__alive(t, 0)) {
        rc = mt_error_set(MT_ECONN, "shared-memory transport: %s belongs to a group whose rank 0 "
                          "has exited (a stale entry of an earlier job)", name);
    }
    if (rc < 0) {
        return rc;
    }
    t->map = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
    if (t->map == MAP_FAILED) {
        t->map = NULL;
        return mt_error_set(MT_ENOMEM, "shared-memory transport: mmap of %zu bytes failed: %s",
                            t->map_len, strerror(errno));
    }
    rc = mt__lock_own_byte(t);
    if (rc == 0) {
        mt__attach(t);
    }
    return rc;
}

/* Rank 0: waits until every rank has opened the segment, then removes its name. */
static int
mt__unlink_when_attached(mt__shm *t, mt_store *store, const char *name, int64_t deadline)
{
    int n = t->base.size - 1, rc = 0;
    char(*keys)[32] = calloc((size_t)n, sizeof(*keys));
    const char **kp = calloc((size_t)n, sizeof(*kp));
    size_t *kl = calloc((size_t)n, sizeof(*kl));
    if (keys == NULL || kp == NULL || kl == NULL) {
        rc = mt_error_set(MT_ENOMEM, "out of memory building the shared-memory transport");
    }
    for (int i = 0; i < n && rc == 0; i++) {
        snprintf(keys[i], sizeof(keys[i]), "shm/attached/%d", i + 1);
        kp[i] = keys[i];
        kl[i] = strlen(keys[i]);
    }
    if (rc == 0) {
        rc = mt_store_wait(store, n, kp, kl, mt__ms_left(deadline));
    }
    shm_unlink(name);
    for (int i = 0; i < n && rc == 0; i++) {
        char *v = NULL;
        rc = mt_store_get_str(store, keys[i], mt__ms_left(deadline), &v);
        if (rc == 0 && strcmp(v, "1") != 0) {
            rc = mt_error_set(MT_ECONN, "rank %d could not open the group's shared memory", i + 1);
        }
        free(v);
    }
    free(keys);
    free(kp);
    free(kl);
    return rc;
}

mt_transport *
mt_shm_transport_new(mt_store *store, int rank, int size, int64_t timeout_ms)
{
    if (size < 2 || rank < 0 || rank >= size) {
        mt_error_set(MT_EINVAL, "shared-memory transport: invalid rank %d for group size %d",
                     rank, size);
        return NULL;
    }
    mt__shm *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory creating the shared-memory transport");
        return NULL;
    }
    t->base.vt = &mt__shm_vt;
    t->base.rank = rank;
    t->base.size = size;
    t->fd = -1;
    atomic_init(&t->aborted, false);
    t->in = calloc((size_t)size, sizeof(*t->in));
    if (t->in == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory creating the shared-memory transport");
        mt__shm_close(&t->base);
        return NULL;
    }
    int64_t deadline = mt__deadline_after(timeout_ms);
    int rc;
    if (rank == 0) {
        char name[128];
        rc = mt__create(t, store, name, sizeof(name));
        if (rc == 0) {
            rc = mt__unlink_when_attached(t, store, name, deadline);
        }
    }
    else {
        /* rank 0 waits for every rank's word, failures included, before it removes the name */
        rc = mt__open(t, store, deadline);
        char key[32];
        snprintf(key, sizeof(key), "shm/attached/%d", rank);
        int rc2 = mt_store_set_str(store, key, rc == 0 ? "1" : "0");
        rc = rc < 0 ? rc : rc2;
    }
    if (rc < 0) {
        mt_error_prefix(rc, "rank %d", rank);
        mt__shm_close(&t->base);
        return NULL;
    }
    return &t->base;
}
