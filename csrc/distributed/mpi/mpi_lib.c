/* csrc/distributed/mpi/mpi_lib.c - opens MPI with dlopen (Note [Loading MPI]) and initialises it (Note [MPI threads]). */
#include "csrc/distributed/mpi/mpi_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"

static pthread_once_t mt__mpi_once = PTHREAD_ONCE_INIT;
static mt_mpi_api mt__mpi;
static const mt_mpi_api *mt__mpi_table;
static char mt__mpi_why[1536]; /* why loading failed */

/* Resolves every function and global into the table; 0, or -1 with the reason in
 * mt__mpi_why. */
static int
mt__mpi_resolve(void *h, const char *path)
{
#define MT__SYM(field, name)                                                                 \
    do {                                                                                     \
        *(void **)&mt__mpi.field = dlsym(h, name);                                           \
        if (mt__mpi.field == NULL) {                                                         \
            snprintf(mt__mpi_why, sizeof(mt__mpi_why),                                       \
                     "the MPI library %s lacks %s (minitorch's MPI backend needs MPI-3)",    \
                     path, name);                                                            \
            return -1;                                                                       \
        }                                                                                    \
    } while (0)
    MT__SYM(Initialized, "MPI_Initialized");
    MT__SYM(Finalized, "MPI_Finalized");
    MT__SYM(Init_thread, "MPI_Init_thread");
    MT__SYM(Query_thread, "MPI_Query_thread");
    MT__SYM(Finalize, "MPI_Finalize");
    MT__SYM(Get_library_version, "MPI_Get_library_version");
    MT__SYM(Error_string, "MPI_Error_string");
    MT__SYM(Comm_rank, "MPI_Comm_rank");
    MT__SYM(Comm_size, "MPI_Comm_size");
    MT__SYM(Comm_dup, "MPI_Comm_dup");
    MT__SYM(Comm_split, "MPI_Comm_split");
    MT__SYM(Comm_free, "MPI_Comm_free");
    MT__SYM(Comm_group, "MPI_Comm_group");
    MT__SYM(Group_incl, "MPI_Group_incl");
    MT__SYM(Group_free, "MPI_Group_free");
    MT__SYM(Comm_create_group, "MPI_Comm_create_group");
    MT__SYM(Comm_set_errhandler, "MPI_Comm_set_errhandler");
    MT__SYM(Allreduce, "MPI_Allreduce");
    MT__SYM(Bcast, "MPI_Bcast");
    MT__SYM(Reduce, "MPI_Reduce");
    MT__SYM(Allgather, "MPI_Allgather");
    MT__SYM(Gather, "MPI_Gather");
    MT__SYM(Scatter, "MPI_Scatter");
    MT__SYM(Reduce_scatter_block, "MPI_Reduce_scatter_block");
    MT__SYM(Alltoallv, "MPI_Alltoallv");
    MT__SYM(Barrier, "MPI_Barrier");
    MT__SYM(Isend, "MPI_Isend");
    MT__SYM(Irecv, "MPI_Irecv");
    MT__SYM(Waitall, "MPI_Waitall");
    MT__SYM(Iallreduce, "MPI_Iallreduce");
    MT__SYM(Ibcast, "MPI_Ibcast");
    MT__SYM(Ireduce, "MPI_Ireduce");
    MT__SYM(Iallgather, "MPI_Iallgather");
    MT__SYM(Igather, "MPI_Igather");
    MT__SYM(Iscatter, "MPI_Iscatter");
    MT__SYM(Ireduce_scatter_block, "MPI_Ireduce_scatter_block");
    MT__SYM(Ialltoallv, "MPI_Ialltoallv");
    MT__SYM(Ibarrier, "MPI_Ibarrier");
    MT__SYM(Testall, "MPI_Testall");
    MT__SYM(Get_count, "MPI_Get_count");
    /* Open MPI's predefined handles: the addresses of its globals */
    MT__SYM(comm_world, "ompi_mpi_comm_world");
    MT__SYM(request_null, "ompi_request_null");
    MT__SYM(errors_return, "ompi_mpi_errors_return");
    static const char *const types[MT_MPI_NUM_TYPES] = {
        [MT_MPI_BYTE] = "ompi_mpi_byte",       [MT_MPI_UINT8] = "ompi_mpi_uint8_t",
        [MT_MPI_INT8] = "ompi_mpi_int8_t",     [MT_MPI_INT16] = "ompi_mpi_int16_t",
        [MT_MPI_INT32] = "ompi_mpi_int32_t",   [MT_MPI_INT64] = "ompi_mpi_int64_t",
        [MT_MPI_UINT16] = "ompi_mpi_uint16_t", [MT_MPI_UINT32] = "ompi_mpi_uint32_t",
        [MT_MPI_UINT64] = "ompi_mpi_uint64_t", [MT_MPI_FLOAT] = "ompi_mpi_float",
        [MT_MPI_DOUBLE] = "ompi_mpi_double",   [MT_MPI_CFLOAT] = "ompi_mpi_c_float_complex",
        [MT_MPI_CDOUBLE] = "ompi_mpi_c_double_complex",
    };
    static const char *const ops[MT_MPI_NUM_OPS] = {
        [MT_MPI_SUM] = "ompi_mpi_op_sum",   [MT_MPI_PROD] = "ompi_mpi_op_prod",
        [MT_MPI_MIN] = "ompi_mpi_op_min",   [MT_MPI_MAX] = "ompi_mpi_op_max",
        [MT_MPI_BAND] = "ompi_mpi_op_band", [MT_MPI_BOR] = "ompi_mpi_op_bor",
        [MT_MPI_BXOR] = "ompi_mpi_op_bxor",
    };
    for (int i = 0; i < MT_MPI_NUM_TYPES; i++) {
        MT__SYM(types[i], types[i]);
    }
    for (int i = 0; i < MT_MPI_NUM_OPS; i++) {
        MT__SYM(ops[i], ops[i]);
    }
#undef MT__SYM
    return 0;
}

/* Which MPI `h` is: 0 Open MPI, -1 (reason in mt__mpi_why) another ABI. */
static int
mt__mpi_check_abi(void *h, const char *path)
{
    if (dlsym(h, "ompi_mpi_comm_world") != NULL) {
        return 0;
    }
    const char *kind = "an MPI of unknown ABI";
    if (dlsym(h, "MPIR_Init_thread") != NULL || dlsym(h, "MPICH_Version") != NULL ||
        dlsym(h, "MPIR_Err_return_comm") != NULL) {
        kind = "MPICH's ABI (integer handles: MPICH, Intel MPI, MVAPICH, Cray MPICH)";
    }
    snprintf(mt__mpi_why, sizeof(mt__mpi_why),
             "the MPI library %s has %s; minitorch's MPI backend speaks Open MPI's ABI only "
             "(set MINITORCH_MPI_LIBRARY to an Open MPI libmpi.so)",
             path, kind);
    return -1;
}

static void
mt__mpi_open(void)
{
    const char *env = getenv("MINITORCH_MPI_LIBRARY");
    const char *candidates[3];
    int n = 0;
    if (env != NULL && env[0] != '\0') {
        candidates[n++] = env; /* asked for: only this one */
    }
    else {
        candidates[n++] = "libmpi.so.40";
        candidates[n++] = "libmpi.so";
        candidates[n++] = "libmpi.so.12";
    }
    char tried[768] = "";
    char last_error[512] = "";
    for (int i = 0; i < n; i++) {
        /* RTLD_GLOBAL: Note [Loading MPI] */
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_GLOBAL);
        if (h == NULL) {
            const char *e = dlerror();
            snprintf(last_error, sizeof(last_error), "%s", e ? e : "");
            size_t len = strlen(tried);
            snprintf(tried + len, sizeof(tried) - len, "%s%s", len ? ", " : "", candidates[i]);
            continue;
        }
        char path[512];
        snprintf(path, sizeof(path), "%s", candidates[i]);
        Dl_info info; /* the file the loader chose */
        void *sym = dlsym(h, "MPI_Init_thread");
        if (sym != NULL && dladdr(sym, &info) != 0 && info.dli_fname != NULL) {
            snprintf(path, sizeof(path), "%s", info.dli_fname);
        }
        if (sym == NULL) {
            snprintf(mt__mpi_why, sizeof(mt__mpi_why), "%s is not an MPI library (no "
                     "MPI_Init_thread)", path);
            dlclose(h);
            return;
        }
        if (mt__mpi_check_abi(h, path) < 0 || mt__mpi_resolve(h, path) < 0) {
            dlclose(h);
            return;
        }
        mt__mpi.path = strdup(path); /* kept for the life of the process, as the library */
        mt__mpi_table = &mt__mpi;
        return;
    }
    if (env != NULL && env[0] != '\0') {
        snprintf(mt__mpi_why, sizeof(mt__mpi_why),
                 "the MPI library MINITORCH_MPI_LIBRARY=%s could not be opened: %s", env,
                 last_error);
    }
    else {
        snprintf(mt__mpi_why, sizeof(mt__mpi_why),
                 "no MPI library was found (tried %s; install Open MPI, e.g. the packages "
                 "libopenmpi-dev and openmpi-bin, or set MINITORCH_MPI_LIBRARY to the path "
                 "of its libmpi.so)",
                 tried);
    }
}

const mt_mpi_api *
mt_mpi_load(void)
{
    pthread_once(&mt__mpi_once, mt__mpi_open);
    if (mt__mpi_table == NULL) {
        mt_error_set(MT_ERUNTIME, "%s", mt__mpi_why);
    }
    return mt__mpi_table;
}

int
mt_mpi_error(const mt_mpi_api *api, int rc, const char *what)
{
    if (rc == MT_MPI_SUCCESS) {
        return 0;
    }
    char s[MT_MPI_ERR_STRING_MAX] = "";
    int len = 0;
    if (api->Error_string(rc, s, &len) != MT_MPI_SUCCESS) {
        snprintf(s, sizeof(s), "unknown error");
    }
    return mt_error_set(MT_ERUNTIME, "MPI error in %s: %s (error code %d)", what, s, rc);
}

/* Note [MPI threads]
 * Every process group runs its operations on its own worker thread, or inline on the thread
 * that issued them (Note [Issuing an operation]), and groups are independent: two groups'
 * operations may call MPI at the same time from two threads, and a group is made (a
 * communicator split) on the user's thread while older groups run.  That is
 * MPI_THREAD_MULTIPLE, which the backend asks for and checks: a library that gives less is a
 * clear error when the group is made.  Each group works on its own duplicate of its
 * communicator and splits from a second one, so that no two threads ever call collectives
 * on one communicator.  MPI is initialised once, by the first MPI group, unless someone
 * (mpi4py) already did; it is finalised at exit by whoever initialised it (for minitorch:
 * mt_mpi_finalize, called by the Python package's exit hook once its groups are gone). */
static pthread_mutex_t mt__mpi_init_mu = PTHREAD_MUTEX_INITIALIZER;
static int mt__mpi_we_initialised;

static const char *
mt__mpi_level_name(int level)
{
    switch (level) {
    case MT_MPI_THREAD_SINGLE:
        return "MPI_THREAD_SINGLE";
    case MT_MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MT_MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    case MT_MPI_THREAD_MULTIPLE:
        return "MPI_THREAD_MULTIPLE";
    default:
        return "an unknown thread level";
    }
}

int
mt_mpi_ensure_init(const mt_mpi_api *api)
{
    pthread_mutex_lock(&mt__mpi_init_mu);
    int rc = 0, inited = 0, finalized = 0, provided = -1;
    api->Initialized(&inited);
    api->Finalized(&finalized);
    if (finalized) {
        rc = mt_error_set(MT_ERUNTIME, "MPI has already been finalized in this process; no "
                          "MPI process group can be made");
    }
    else if (!inited) {
        int e = api->Init_thread(NULL, NULL, MT_MPI_THREAD_MULTIPLE, &provided);
        if (e != MT_MPI_SUCCESS) {
            rc = mt_error_set(MT_ERUNTIME, "MPI_Init_thread failed (error code %d): is this "
                              "process started by mpirun/srun?", e);
        }
        else {
            mt__mpi_we_initialised = 1;
        }
    }
    else if (api->Query_thread(&provided) != MT_MPI_SUCCESS) {
        rc = mt_error_set(MT_ERUNTIME, "MPI_Query_thread failed");
    }
    if (rc == 0 && provided < MT_MPI_THREAD_MULTIPLE) {
        rc = mt_error_set(MT_ERUNTIME,
                          "the MPI library %s gives %s; minitorch's MPI backend needs "
                          "MPI_THREAD_MULTIPLE (its groups call MPI from their own threads)%s",
                          api->path, mt__mpi_level_name(provided),
                          inited ? " - MPI was initialised before minitorch (by mpi4py?) "
                                   "with a lower level"
                                 : "; an Open MPI built with --enable-mpi-thread-multiple "
                                   "(the default) is needed");
    }
    pthread_mutex_unlock(&mt__mpi_init_mu);
    return rc;
}

int
mt_mpi_active(void)
{
    if (mt__mpi_table == NULL) {
        return 0;
    }
    int inited = 0, finalized = 0;
    mt__mpi_table->Initialized(&inited);
    mt__mpi_table->Finalized(&finalized);
    return inited && !finalized;
}

int
mt_mpi_finalize(void)
{
    pthread_mutex_lock(&mt__mpi_init_mu);
    int done = 0;
    if (mt__mpi_we_initialised && mt_mpi_active()) {
        mt__mpi_table->Finalize();
        done = 1;
    }
    pthread_mutex_unlock(&mt__mpi_init_mu);
    return done;
}

int
mt_mpi_type_of(mt_dtype dt)
{
    switch (dt) {
    case MT_BOOL:
    case MT_UINT8:
        return MT_MPI_UINT8;
    case MT_INT8:
        return MT_MPI_INT8;
    case MT_INT16:
        return MT_MPI_INT16;
    case MT_INT32:
        return MT_MPI_INT32;
    case MT_INT64:
        return MT_MPI_INT64;
    case MT_UINT16:
        return MT_MPI_UINT16;
    case MT_UINT32:
        return MT_MPI_UINT32;
    case MT_UINT64:
        return MT_MPI_UINT64;
    case MT_FLOAT32:
        return MT_MPI_FLOAT;
    case MT_FLOAT64:
        return MT_MPI_DOUBLE;
    case MT_COMPLEX64:
        return MT_MPI_CFLOAT;
    case MT_COMPLEX128:
        return MT_MPI_CDOUBLE;
    default:
        return -1;
    }
}
