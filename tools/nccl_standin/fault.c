/* tools/nccl_standin/fault.c - the test hook that makes one rank's operation go wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standin.h"

/* Note [Stand-in faults]
 * MT_NCCL_STANDIN_FAULT="KIND:N[:RANK]" (read at each operation) acts on the N-th operation
 * (collective or send/recv call, counted from 1 per communicator) of the communicator rank RANK
 * (any rank when absent; a test usually sets it in one process only).  KIND:
 *   stall  the operation never takes part: it waits (blocking its stream) until the
 *          communicator is aborted, here or by a peer, or the stand-in's deadline passes;
 *   async  it fails on the stream: the communicator's asynchronous error becomes
 *          ncclSystemError and its peers' operations fail with ncclRemoteError;
 *   call   the call itself returns ncclInternalError, queueing nothing. */
int
si_fault_next(struct ncclComm *comm)
{
    uint64_t n = ++comm->ops;
    const char *s = getenv("MT_NCCL_STANDIN_FAULT");
    if (s == NULL || s[0] == '\0') {
        return SI_FAULT_NONE;
    }
    char kind[16];
    unsigned long long at = 0;
    int rank = -1;
    if (sscanf(s, "%15[a-z]:%llu:%d", kind, &at, &rank) < 2 || at != n ||
        (rank >= 0 && rank != comm->rank)) {
        return SI_FAULT_NONE;
    }
    if (strcmp(kind, "stall") == 0) {
        return SI_FAULT_STALL;
    }
    if (strcmp(kind, "async") == 0) {
        return SI_FAULT_ASYNC;
    }
    if (strcmp(kind, "call") == 0) {
        return SI_FAULT_CALL;
    }
    return SI_FAULT_NONE;
}
