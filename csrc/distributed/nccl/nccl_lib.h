/* csrc/distributed/nccl/nccl_lib.h - NCCL, loaded at run time. */
#ifndef CSRC_DISTRIBUTED_NCCL_NCCL_LIB_H
#define CSRC_DISTRIBUTED_NCCL_NCCL_LIB_H

#include <stddef.h>

/* Note [Loading NCCL]
 * The build needs only NCCL's header (found beside the CUDA toolkit's); the library is opened
 * with dlopen on first use, so that importing minitorch never fails for want of it and
 * is_nccl_available() tells whether it can really be used.  Where it looks, in order:
 * $MINITORCH_NCCL_LIBRARY (a path), "libnccl.so.2" through the dynamic loader
 * (LD_LIBRARY_PATH, the loader's cache), then the library the build found.  Every function
 * the backend calls is resolved at load time, so a library too old for one is reported then,
 * with its name, rather than when a collective first needs it.  Loading happens once per
 * process; its outcome (the table, or the reason it failed) is kept. */

#ifdef MT_WITH_NCCL
#include <nccl.h>

typedef struct mt_nccl_api {
    int version;      /* as ncclGetVersion: 22809 for 2.28.9 */
    const char *path; /* the library that was loaded */
    ncclResult_t (*GetVersion)(int *);
    ncclResult_t (*GetUniqueId)(ncclUniqueId *);
    const char *(*GetErrorString)(ncclResult_t);
    ncclResult_t (*CommInitRank)(ncclComm_t *, int, ncclUniqueId, int);
    ncclResult_t (*CommDestroy)(ncclComm_t);
    ncclResult_t (*CommAbort)(ncclComm_t);
    ncclResult_t (*CommGetAsyncError)(ncclComm_t, ncclResult_t *);
    ncclResult_t (*AllReduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t,
                              ncclComm_t, cudaStream_t);
    ncclResult_t (*Broadcast)(const void *, void *, size_t, ncclDataType_t, int, ncclComm_t,
                              cudaStream_t);
    ncclResult_t (*Reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, int,
                           ncclComm_t, cudaStream_t);
    ncclResult_t (*AllGather)(const void *, void *, size_t, ncclDataType_t, ncclComm_t,
                              cudaStream_t);
    ncclResult_t (*ReduceScatter)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t,
                                  ncclComm_t, cudaStream_t);
    ncclResult_t (*Send)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*Recv)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*GroupStart)(void);
    ncclResult_t (*GroupEnd)(void);
    /* optional (NULL when the library lacks it) */
    ncclResult_t (*CommSplit)(ncclComm_t, int, int, ncclComm_t *, ncclConfig_t *);
    ncclResult_t (*RedOpCreatePreMulSum)(ncclRedOp_t *, void *, ncclDataType_t,
                                         ncclScalarResidence_t, ncclComm_t);
    ncclResult_t (*RedOpDestroy)(ncclRedOp_t, ncclComm_t);
} mt_nccl_api;

/* The loaded library's table, or NULL with MT_ERUNTIME saying why (not found, where it
 * looked; or the function it lacks).  Thread-safe; loads once. */
const mt_nccl_api *mt_nccl_load(void);
/* "NCCL error: <ncclGetErrorString>" into the C error (MT_ERUNTIME), naming `what`; returns
 * MT_ERUNTIME.  For rc == ncclSuccess it sets nothing and returns 0. */
int mt_nccl_error(const mt_nccl_api *api, ncclResult_t rc, const char *what);
#endif

#endif /* CSRC_DISTRIBUTED_NCCL_NCCL_LIB_H */
