/* tools/nccl_standin/standin.h - the NCCL stand-in's internals (Note [The NCCL stand-in]). */
#ifndef TOOLS_NCCL_STANDIN_STANDIN_H
#define TOOLS_NCCL_STANDIN_STANDIN_H

/* Note [The NCCL stand-in]
 * A test-only libnccl.so.2 (never part of the package; built by tools/build_nccl_standin.sh and
 * loaded through MINITORCH_NCCL_LIBRARY) that implements, between processes on one host, the
 * NCCL functions minitorch's NCCL backend calls, over the emulated CUDA device (where device
 * pointers are host pointers).  It keeps NCCL's contract where the backend can see it:
 *  - a communicator is a POSIX shared-memory segment named from the ncclUniqueId: a header
 *    (per-rank arrival counters, the abort flag, split requests), one slot per rank for the
 *    collectives' data, and one ring buffer per ordered pair of ranks for send/recv;
 *  - each call checks its arguments on the host and returns at once; the operation is queued
 *    on the given stream as a host function (the emulated runtime's cudaLaunchHostFunc, Note
 *    [Libraries on the emulator]) and runs in stream order, blocking that stream until the
 *    peers have taken part, as an NCCL kernel does;
 *  - ncclGroupStart/End queue the calls between them as one task per stream whose send/recv
 *    progress together (so all-to-all patterns do not deadlock);
 *  - a failure inside an operation becomes the communicator's asynchronous error
 *    (ncclCommGetAsyncError); ncclCommAbort makes every pending and later operation of the
 *    communicator return, and the peers' operations fail with ncclRemoteError;
 *  - every wait has a deadline (MT_NCCL_STANDIN_TIMEOUT seconds, default 300), after which the
 *    operation fails with ncclSystemError: nothing hangs;
 *  - MT_NCCL_STANDIN_FAULT (a test hook, Note [Stand-in faults] in fault.c) makes one rank's
 *    n-th operation stall, fail asynchronously, or fail at the call.
 * Reductions run over the ranks' data in rank order, so every rank gets the same bits. */

#include <nccl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <mt_emu_runtime.h>

#define SI_MAX_RANKS 64
#define SI_MAGIC "mt-nccl-standin"
#define SI_LINE 64
#define SI_MAX_PREMUL 16

/* a counter alone in its cache line */
typedef struct si_counter {
    _Atomic uint64_t v;
    char pad[SI_LINE - sizeof(uint64_t)];
} si_counter;

/* the shared header of a communicator's segment */
typedef struct si_header {
    char magic[16];
    _Atomic int nranks;      /* set by the first rank to open it */
    _Atomic int joined;      /* ranks that have opened it */
    _Atomic int aborted;     /* 1 + the rank that aborted, 0 while alive */
    pid_t pid[SI_MAX_RANKS]; /* each rank's process, to notice one that died */
    si_counter ctl[SI_MAX_RANKS];  /* host-side barriers (split) */
    si_counter coll[SI_MAX_RANKS]; /* the collectives' barriers (on the streams) */
    struct {
        int color, key;
    } split[SI_MAX_RANKS];
} si_header;

/* the ring of one ordered pair of ranks (sender -> receiver) */
typedef struct si_ring {
    _Atomic uint64_t written; /* bytes the sender has put in, ever */
    char pad1[SI_LINE - sizeof(uint64_t)];
    _Atomic uint64_t taken; /* bytes the receiver has taken out, ever */
    char pad2[SI_LINE - sizeof(uint64_t)];
} si_ring;

struct ncclComm {
    char name[64];       /* the segment's name */
    ncclUniqueId id;
    int rank, nranks, device;
    void *base;          /* the mapped segment */
    size_t bytes;
    si_header *hdr;
    char *slots;         /* nranks slots of slot_bytes */
    size_t slot_bytes;
    char *rings;         /* nranks * nranks rings of ring_bytes data after an si_ring */
    size_t ring_bytes;
    uint64_t coll_seq;   /* the last collective barrier this rank passed (stream side) */
    uint64_t ctl_seq;    /* the last host barrier */
    uint64_t ops;        /* operations issued (for the fault hook) */
    int splits;          /* ncclCommSplit calls so far */
    _Atomic int refs;    /* the owner's + one per queued task */
    _Atomic int local_abort;
    _Atomic int async_error; /* an ncclResult_t */
    _Atomic int inflight;    /* queued tasks not finished */
    /* ncclRedOpCreatePreMulSum's operators: op ncclNumOps + i is premul[i] (Note [Stand-in
     * PreMulSum] in reduce.c); only the owner's thread creates and destroys them */
    struct si_premul {
        int used;
        ncclDataType_t dtype;
        ncclScalarResidence_t residence;
        unsigned char value[8]; /* the scalar (host immediate) */
        const void *ptr;        /* where it is (device residence) */
    } premul[SI_MAX_PREMUL];
};

/* one queued operation */
typedef enum si_kind {
    SI_ALLREDUCE, SI_BROADCAST, SI_REDUCE, SI_ALLGATHER, SI_REDUCESCATTER, SI_SEND, SI_RECV
} si_kind;

typedef struct si_op {
    si_kind kind;
    struct ncclComm *comm;
    const void *send;
    void *recv;
    size_t count;
    ncclDataType_t dtype;
    ncclRedOp_t op;
    int root;  /* root, or the peer of send/recv */
    /* a PreMulSum operator (op is then ncclSum): the scalar, copied at the call, or read on
     * the stream from `scalar_ptr` when that is set */
    int premul;
    unsigned char scalar[8];
    const void *scalar_ptr;
    int fault; /* what the fault hook asked of this operation (SI_FAULT_*) */
    cudaStream_t stream;
} si_op;

/* ---- runtime.c: the emulated runtime's table, the deadline ---- */
extern const mt_emu_runtime *si_rt;
/* seconds a wait may take (MT_NCCL_STANDIN_TIMEOUT) */
double si_timeout_s(void);
double si_now(void);

/* ---- shm.c: segments and waits ---- */
/* Opens (creating if first) the segment of `id` for rank of nranks; fills comm's mapping. */
ncclResult_t si_segment_open(struct ncclComm *comm);
void si_segment_close(struct ncclComm *comm);
/* ncclSuccess when the comm may go on; ncclRemoteError / ncclInvalidUsage / ncclSystemError
 * when it was aborted (here or by a peer), a peer died, or `deadline` passed. */
ncclResult_t si_check(struct ncclComm *comm, double deadline);
/* Waits until every rank's counter in `ctr` reached `seq` (after setting this rank's). */
ncclResult_t si_barrier(struct ncclComm *comm, si_counter *ctr, uint64_t seq);
/* A short pause of a polling loop. */
void si_pause(unsigned *spins);

/* ---- reduce.c ---- */
size_t si_dtype_size(ncclDataType_t t); /* 0 for a type the stand-in does not have */
/* dst[i] = op over srcs[0..n)[i] (in that order), avg dividing by n, for count elements */
void si_reduce(void *dst, const void *const *srcs, int n, size_t count, ncclDataType_t t,
               ncclRedOp_t op);
/* dst[i] = scalar * src[i] (floating types; scalar one element of t) */
void si_scale(void *dst, const void *src, size_t count, ncclDataType_t t, const void *scalar);

/* ---- coll.c / p2p.c: an operation's work (on the stream) ---- */
ncclResult_t si_run_collective(const si_op *op);
/* progresses the send/recv ops together until all are done */
ncclResult_t si_run_p2p(si_op *const *ops, int n);

/* ---- queue.c: issuing ---- */
/* Checks comm, queues op (copied) on its stream, or in the open group. */
ncclResult_t si_issue(const si_op *op);
void si_comm_release(struct ncclComm *comm);

/* ---- fault.c (Note [Stand-in faults]) ---- */
enum { SI_FAULT_NONE, SI_FAULT_STALL, SI_FAULT_ASYNC, SI_FAULT_CALL };
/* what the hook asks of comm's next operation (counts it) */
int si_fault_next(struct ncclComm *comm);

#endif /* TOOLS_NCCL_STANDIN_STANDIN_H */
