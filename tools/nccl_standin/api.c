/* tools/nccl_standin/api.c - the NCCL functions: versions, ids, communicators, operations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "standin.h"

ncclResult_t
ncclGetVersion(int *version)
{
    if (version == NULL) {
        return ncclInvalidArgument;
    }
    *version = NCCL_VERSION_CODE;
    return ncclSuccess;
}

const char *
ncclGetErrorString(ncclResult_t rc)
{
    switch (rc) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
    case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
    default: return "unknown result code";
    }
}

const char *
ncclGetLastError(ncclComm_t comm)
{
    (void)comm;
    return "";
}

ncclResult_t
ncclGetUniqueId(ncclUniqueId *id)
{
    if (id == NULL) {
        return ncclInvalidArgument;
    }
    memset(id, 0, sizeof(*id));
    memcpy(id->internal, SI_MAGIC, sizeof(SI_MAGIC));
    unsigned char r[32];
    if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
        return ncclSystemError;
    }
    memcpy(id->internal + 16, r, sizeof(r));
    pid_t pid = getpid();
    memcpy(id->internal + 48, &pid, sizeof(pid));
    return ncclSuccess;
}

ncclResult_t
ncclCommInitRank(ncclComm_t *out, int nranks, ncclUniqueId id, int rank)
{
    if (out == NULL || nranks < 1 || nranks > SI_MAX_RANKS || rank < 0 || rank >= nranks ||
        memcmp(id.internal, SI_MAGIC, sizeof(SI_MAGIC)) != 0) {
        return ncclInvalidArgument;
    }
    if (si_rt == NULL) {
        return ncclUnhandledCudaError; /* not attached to the emulated runtime */
    }
    struct ncclComm *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return ncclSystemError;
    }
    c->id = id;
    c->rank = rank;
    c->nranks = nranks;
    if (si_rt->get_device(&c->device) != cudaSuccess) {
        free(c);
        return ncclUnhandledCudaError;
    }
    atomic_store(&c->refs, 1);
    ncclResult_t rc = si_segment_open(c);
    if (rc != ncclSuccess) {
        free(c);
        return rc;
    }
    *out = c;
    return ncclSuccess;
}

ncclResult_t
ncclCommDestroy(ncclComm_t comm)
{
    if (comm == NULL) {
        return ncclSuccess;
    }
    /* as NCCL's: the operations queued on the communicator finish first */
    double deadline = si_now() + si_timeout_s();
    unsigned spins = 0;
    while (atomic_load(&comm->inflight) > 0 && si_check(comm, deadline) == ncclSuccess) {
        si_pause(&spins);
    }
    si_comm_release(comm);
    return ncclSuccess;
}

ncclResult_t
ncclCommAbort(ncclComm_t comm)
{
    if (comm == NULL) {
        return ncclSuccess;
    }
    atomic_store(&comm->local_abort, 1);
    int alive = 0;
    atomic_compare_exchange_strong(&comm->hdr->aborted, &alive, comm->rank + 1);
    si_comm_release(comm); /* queued tasks hold their own references and return at once */
    return ncclSuccess;
}

ncclResult_t
ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *error)
{
    if (comm == NULL || error == NULL) {
        return ncclInvalidArgument;
    }
    *error = (ncclResult_t)atomic_load(&comm->async_error);
    return ncclSuccess;
}

ncclResult_t
ncclCommCount(const ncclComm_t comm, int *count)
{
    if (comm == NULL || count == NULL) {
        return ncclInvalidArgument;
    }
    *count = comm->nranks;
    return ncclSuccess;
}

ncclResult_t
ncclCommUserRank(const ncclComm_t comm, int *rank)
{
    if (comm == NULL || rank == NULL) {
        return ncclInvalidArgument;
    }
    *rank = comm->rank;
    return ncclSuccess;
}

ncclResult_t
ncclCommCuDevice(const ncclComm_t comm, int *device)
{
    if (comm == NULL || device == NULL) {
        return ncclInvalidArgument;
    }
    *device = comm->device;
    return ncclSuccess;
}

/* A host-side exchange on the parent (every rank calls it): the colours and keys, then a
 * communicator per colour, ranked by (key, parent rank), its id derived from the parent's. */
ncclResult_t
ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t *newcomm, ncclConfig_t *config)
{
    (void)config;
    if (comm == NULL || newcomm == NULL || atomic_load(&comm->local_abort)) {
        return ncclInvalidArgument;
    }
    si_header *h = comm->hdr;
    h->split[comm->rank].color = color;
    h->split[comm->rank].key = key;
    ncclResult_t rc = si_barrier(comm, h->ctl, ++comm->ctl_seq);
    int size = 0, rank = 0;
    for (int r = 0; rc == ncclSuccess && r < comm->nranks; r++) {
        if (h->split[r].color != color) {
            continue;
        }
        size++;
        if (h->split[r].key < key || (h->split[r].key == key && r < comm->rank)) {
            rank++;
        }
    }
    if (rc == ncclSuccess) {
        rc = si_barrier(comm, h->ctl, ++comm->ctl_seq); /* everyone has read */
    }
    int nth = ++comm->splits;
    *newcomm = NULL;
    if (rc != ncclSuccess || color == NCCL_SPLIT_NOCOLOR) {
        return rc;
    }
    ncclUniqueId id = comm->id;
    memcpy(id.internal + 64, &nth, sizeof(nth));
    memcpy(id.internal + 68, &color, sizeof(color));
    return ncclCommInitRank(newcomm, size, id, rank);
}

/* ---- operations ---- */

static ncclResult_t
si_op_issue(si_kind kind, const void *send, void *recv, size_t count, ncclDataType_t dtype,
            ncclRedOp_t op, int root, ncclComm_t comm, cudaStream_t stream)
{
    si_op o = {.kind = kind, .comm = comm, .send = send, .recv = recv, .count = count,
               .dtype = dtype, .op = op, .root = root, .fault = SI_FAULT_NONE, .stream = stream};
    if (comm != NULL && (int)op >= (int)ncclNumOps && (int)op < (int)ncclNumOps + SI_MAX_PREMUL &&
        kind != SI_BROADCAST && kind != SI_ALLGATHER && kind != SI_SEND && kind != SI_RECV) {
        const struct si_premul *pm = &comm->premul[(int)op - (int)ncclNumOps];
        if (!pm->used || pm->dtype != dtype) {
            return ncclInvalidArgument;
        }
        o.op = op = ncclSum;
        o.premul = 1;
        memcpy(o.scalar, pm->value, sizeof(o.scalar));
        o.scalar_ptr = pm->residence == ncclScalarDevice ? pm->ptr : NULL;
    }
    if (comm == NULL || si_dtype_size(dtype) == 0 || (int)op < 0 || (int)op > (int)ncclAvg ||
        root < 0 || root >= comm->nranks || (count > 0 && send == NULL && kind != SI_RECV &&
                                              !(kind == SI_BROADCAST && comm->rank != root)) ||
        (count > 0 && recv == NULL && kind != SI_SEND && !(kind == SI_REDUCE && comm->rank != root))) {
        return ncclInvalidArgument;
    }
    return si_issue(&o);
}

/* Note [Stand-in PreMulSum] in reduce.c */
ncclResult_t
ncclRedOpCreatePreMulSum(ncclRedOp_t *op, void *scalar, ncclDataType_t datatype,
                         ncclScalarResidence_t residence, ncclComm_t comm)
{
    if (op == NULL || scalar == NULL || comm == NULL ||
        (residence != ncclScalarDevice && residence != ncclScalarHostImmediate) ||
        (datatype != ncclFloat16 && datatype != ncclBfloat16 && datatype != ncclFloat32 &&
         datatype != ncclFloat64)) {
        return ncclInvalidArgument;
    }
    for (int i = 0; i < SI_MAX_PREMUL; i++) {
        struct si_premul *pm = &comm->premul[i];
        if (!pm->used) {
            *pm = (struct si_premul){.used = 1, .dtype = datatype, .residence = residence};
            if (residence == ncclScalarHostImmediate) {
                memcpy(pm->value, scalar, si_dtype_size(datatype));
            }
            else {
                pm->ptr = scalar;
            }
            *op = (ncclRedOp_t)((int)ncclNumOps + i);
            return ncclSuccess;
        }
    }
    return ncclInternalError; /* more live operators than the stand-in keeps */
}

ncclResult_t
ncclRedOpDestroy(ncclRedOp_t op, ncclComm_t comm)
{
    int i = (int)op - (int)ncclNumOps;
    if (comm == NULL || i < 0 || i >= SI_MAX_PREMUL || !comm->premul[i].used) {
        return ncclInvalidArgument;
    }
    comm->premul[i].used = 0;
    return ncclSuccess;
}

ncclResult_t
ncclAllReduce(const void *s, void *r, size_t n, ncclDataType_t t, ncclRedOp_t op, ncclComm_t c,
              cudaStream_t st)
{
    return si_op_issue(SI_ALLREDUCE, s, r, n, t, op, 0, c, st);
}

ncclResult_t
ncclBroadcast(const void *s, void *r, size_t n, ncclDataType_t t, int root, ncclComm_t c,
              cudaStream_t st)
{
    return si_op_issue(SI_BROADCAST, s, r, n, t, ncclSum, root, c, st);
}

ncclResult_t
ncclBcast(void *buf, size_t n, ncclDataType_t t, int root, ncclComm_t c, cudaStream_t st)
{
    return si_op_issue(SI_BROADCAST, buf, buf, n, t, ncclSum, root, c, st);
}

ncclResult_t
ncclReduce(const void *s, void *r, size_t n, ncclDataType_t t, ncclRedOp_t op, int root,
           ncclComm_t c, cudaStream_t st)
{
    return si_op_issue(SI_REDUCE, s, r, n, t, op, root, c, st);
}

ncclResult_t
ncclAllGather(const void *s, void *r, size_t n, ncclDataType_t t, ncclComm_t c, cudaStream_t st)
{
    return si_op_issue(SI_ALLGATHER, s, r, n, t, ncclSum, 0, c, st);
}

ncclResult_t
ncclReduceScatter(const void *s, void *r, size_t n, ncclDataType_t t, ncclRedOp_t op,
                  ncclComm_t c, cudaStream_t st)
{
    return si_op_issue(SI_REDUCESCATTER, s, r, n, t, op, 0, c, st);
}

ncclResult_t
ncclSend(const void *s, size_t n, ncclDataType_t t, int peer, ncclComm_t c, cudaStream_t st)
{
    return si_op_issue(SI_SEND, s, NULL, n, t, ncclSum, peer, c, st);
}

ncclResult_t
ncclRecv(void *r, size_t n, ncclDataType_t t, int peer, ncclComm_t c, cudaStream_t st)
{
    return si_op_issue(SI_RECV, NULL, r, n, t, ncclSum, peer, c, st);
}
