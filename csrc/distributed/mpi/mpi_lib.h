/* csrc/distributed/mpi/mpi_lib.h - MPI, loaded at run time (no MPI header or library at build time). */
#ifndef CSRC_DISTRIBUTED_MPI_MPI_LIB_H
#define CSRC_DISTRIBUTED_MPI_MPI_LIB_H

#include <stddef.h>

#include "c10_lite/dtype.h"

/* Note [Loading MPI]
 * Nothing of MPI is seen at build time: no mpi.h, no -lmpi.  The library is opened with
 * dlopen on first use, so importing minitorch never fails for want of it and
 * is_mpi_available() tells whether it can really be used.  Where it looks, in order:
 * $MINITORCH_MPI_LIBRARY (a path or a soname; when set, only it), else "libmpi.so.40" (Open
 * MPI 3 to 5), "libmpi.so", "libmpi.so.12" (MPICH's soname: found only to say it is not
 * supported).  It is opened RTLD_GLOBAL: Open MPI's plugins (its MCA components, opened by
 * Open MPI itself) resolve their symbols against libmpi's, as mpi4py knows.
 *
 * The ABI.  mpi.h is what defines MPI's types and constants, and implementations differ:
 *   - Open MPI: every handle is a pointer.  MPI_COMM_WORLD, the datatypes, the reduction
 *     ops, MPI_REQUEST_NULL and MPI_ERRORS_RETURN are the addresses of exported globals
 *     (ompi_mpi_comm_world, ompi_mpi_float, ompi_mpi_op_sum, ompi_request_null,
 *     ompi_mpi_errors_return), found here with dlsym; MPI_Status is
 *     {int MPI_SOURCE, MPI_TAG, MPI_ERROR; int cancelled; size_t ucount}; MPI_ANY_SOURCE is
 *     -1, MPI_UNDEFINED -32766, MPI_IN_PLACE (void *)1, MPI_STATUS(ES)_IGNORE NULL;
 *   - MPICH and its derivatives (Intel MPI, MVAPICH, Cray MPICH): handles are 32-bit
 *     integer constants compiled into programs, a different calling convention for every
 *     function that takes or returns one.  It is recognised (the MPICH_* / MPIR_* symbols)
 *     and refused with a clear error rather than called with the wrong ABI.
 * A handle is therefore a `void *` here and the table below uses Open MPI's signatures.
 * Every function the backend calls is resolved at load time, so a library lacking one (an
 * MPI older than MPI-3) is reported then, with its name.
 * Loading happens once per process; its outcome (the table, or why it failed) is kept. */

typedef void *mt_mpi_handle; /* MPI_Comm, MPI_Datatype, MPI_Op, MPI_Request, MPI_Group, ... */

/* Open MPI's MPI_Status. */
typedef struct mt_mpi_status {
    int source, tag, error, cancelled_;
    size_t ucount_;
} mt_mpi_status;

#define MT_MPI_SUCCESS 0
#define MT_MPI_ANY_SOURCE (-1)
#define MT_MPI_UNDEFINED (-32766)
#define MT_MPI_THREAD_SINGLE 0
#define MT_MPI_THREAD_FUNNELED 1
#define MT_MPI_THREAD_SERIALIZED 2
#define MT_MPI_THREAD_MULTIPLE 3
#define MT_MPI_ERR_STRING_MAX 1024 /* >= every implementation's MPI_MAX_ERROR_STRING */
#define MT_MPI_LIBVER_MAX 8192     /* >= every implementation's MPI_MAX_LIBRARY_VERSION_STRING */

/* The reductions the backend uses (an index into mt_mpi_api.ops). */
typedef enum mt_mpi_opk {
    MT_MPI_SUM,
    MT_MPI_PROD,
    MT_MPI_MIN,
    MT_MPI_MAX,
    MT_MPI_BAND,
    MT_MPI_BOR,
    MT_MPI_BXOR,
    MT_MPI_NUM_OPS
} mt_mpi_opk;

/* The datatypes the backend uses (an index into mt_mpi_api.types). */
typedef enum mt_mpi_typek {
    MT_MPI_BYTE,
    MT_MPI_UINT8,
    MT_MPI_INT8,
    MT_MPI_INT16,
    MT_MPI_INT32,
    MT_MPI_INT64,
    MT_MPI_UINT16,
    MT_MPI_UINT32,
    MT_MPI_UINT64,
    MT_MPI_FLOAT,
    MT_MPI_DOUBLE,
    MT_MPI_CFLOAT,
    MT_MPI_CDOUBLE,
    MT_MPI_NUM_TYPES
} mt_mpi_typek;

typedef struct mt_mpi_api {
    const char *path;    /* the library that was loaded */
    mt_mpi_handle comm_world, request_null, errors_return;
    mt_mpi_handle types[MT_MPI_NUM_TYPES];
    mt_mpi_handle ops[MT_MPI_NUM_OPS];
    int (*Initialized)(int *);
    int (*Finalized)(int *);
    int (*Init_thread)(int *, char ***, int, int *);
    int (*Query_thread)(int *);
    int (*Finalize)(void);
    int (*Get_library_version)(char *, int *);
    int (*Error_string)(int, char *, int *);
    int (*Comm_rank)(mt_mpi_handle, int *);
    int (*Comm_size)(mt_mpi_handle, int *);
    int (*Comm_dup)(mt_mpi_handle, mt_mpi_handle *);
    int (*Comm_split)(mt_mpi_handle, int, int, mt_mpi_handle *);
    int (*Comm_free)(mt_mpi_handle *);
    int (*Comm_group)(mt_mpi_handle, mt_mpi_handle *);
    int (*Group_incl)(mt_mpi_handle, int, const int *, mt_mpi_handle *);
    int (*Group_free)(mt_mpi_handle *);
    int (*Comm_create_group)(mt_mpi_handle, mt_mpi_handle, int, mt_mpi_handle *);
    int (*Comm_set_errhandler)(mt_mpi_handle, mt_mpi_handle);
    int (*Allreduce)(const void *, void *, int, mt_mpi_handle, mt_mpi_handle, mt_mpi_handle);
    int (*Bcast)(void *, int, mt_mpi_handle, int, mt_mpi_handle);
    int (*Reduce)(const void *, void *, int, mt_mpi_handle, mt_mpi_handle, int, mt_mpi_handle);
    int (*Allgather)(const void *, int, mt_mpi_handle, void *, int, mt_mpi_handle, mt_mpi_handle);
    int (*Gather)(const void *, int, mt_mpi_handle, void *, int, mt_mpi_handle, int,
                  mt_mpi_handle);
    int (*Scatter)(const void *, int, mt_mpi_handle, void *, int, mt_mpi_handle, int,
                   mt_mpi_handle);
    int (*Reduce_scatter_block)(const void *, void *, int, mt_mpi_handle, mt_mpi_handle,
                                mt_mpi_handle);
    int (*Alltoallv)(const void *, const int *, const int *, mt_mpi_handle, void *, const int *,
                     const int *, mt_mpi_handle, mt_mpi_handle);
    int (*Barrier)(mt_mpi_handle);
    int (*Isend)(const void *, int, mt_mpi_handle, int, int, mt_mpi_handle, mt_mpi_handle *);
    int (*Irecv)(void *, int, mt_mpi_handle, int, int, mt_mpi_handle, mt_mpi_handle *);
    int (*Waitall)(int, mt_mpi_handle *, mt_mpi_status *);
    /* MPI-3's non-blocking collectives (Note [MPI thread hand-over]) */
    int (*Iallreduce)(const void *, void *, int, mt_mpi_handle, mt_mpi_handle, mt_mpi_handle,
                      mt_mpi_handle *);
    int (*Ibcast)(void *, int, mt_mpi_handle, int, mt_mpi_handle, mt_mpi_handle *);
    int (*Ireduce)(const void *, void *, int, mt_mpi_handle, mt_mpi_handle, int, mt_mpi_handle,
                   mt_mpi_handle *);
    int (*Iallgather)(const void *, int, mt_mpi_handle, void *, int, mt_mpi_handle,
                      mt_mpi_handle, mt_mpi_handle *);
    int (*Igather)(const void *, int, mt_mpi_handle, void *, int, mt_mpi_handle, int,
                   mt_mpi_handle, mt_mpi_handle *);
    int (*Iscatter)(const void *, int, mt_mpi_handle, void *, int, mt_mpi_handle, int,
                    mt_mpi_handle, mt_mpi_handle *);
    int (*Ireduce_scatter_block)(const void *, void *, int, mt_mpi_handle, mt_mpi_handle,
                                 mt_mpi_handle, mt_mpi_handle *);
    int (*Ialltoallv)(const void *, const int *, const int *, mt_mpi_handle, void *,
                      const int *, const int *, mt_mpi_handle, mt_mpi_handle, mt_mpi_handle *);
    int (*Ibarrier)(mt_mpi_handle, mt_mpi_handle *);
    int (*Testall)(int, mt_mpi_handle *, int *, mt_mpi_status *);
    int (*Get_count)(const mt_mpi_status *, mt_mpi_handle, int *);
} mt_mpi_api;

/* The loaded library's table, or NULL with MT_ERUNTIME saying why (not found and where it
 * looked, naming MINITORCH_MPI_LIBRARY; not Open MPI's ABI; the function it lacks).
 * Thread-safe; loads once. */
const mt_mpi_api *mt_mpi_load(void);
/* "MPI error in <what>: <MPI_Error_string>" into the C error (MT_ERUNTIME); returns
 * MT_ERUNTIME.  For rc == MPI_SUCCESS it sets nothing and returns 0. */
int mt_mpi_error(const mt_mpi_api *api, int rc, const char *what);
/* MPI initialised by this process with the thread level the backend needs (Note [MPI
 * threads]): once; when another library (mpi4py) initialised it first, its level is
 * checked instead.  0, or MT_ERUNTIME with the message. */
int mt_mpi_ensure_init(const mt_mpi_api *api);
/* MPI_Finalize when this process's minitorch initialised MPI and nobody finalised it yet;
 * 1 when it did, 0 otherwise.  Every group must be gone. */
int mt_mpi_finalize(void);
/* Whether MPI is initialised and not finalised (no call into MPI when it is not loaded). */
int mt_mpi_active(void);

/* The MPI datatype of a reduction over dt, or -1 when MPI has none (float16, bfloat16: the
 * backend widens them) */
int mt_mpi_type_of(mt_dtype dt);

#endif /* CSRC_DISTRIBUTED_MPI_MPI_LIB_H */
