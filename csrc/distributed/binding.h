/* csrc/distributed/binding.h - shared declarations of the minitorch._C._c10d binding. */
#ifndef CSRC_DISTRIBUTED_BINDING_H
#define CSRC_DISTRIBUTED_BINDING_H

#include "csrc/common.h"
#include "csrc/distributed/backend/process_group.h"
#include "csrc/distributed/rendezvous/store.h"

/* Note [c10d binding]
 * The distributed layer is exposed as the submodule minitorch._C._c10d: a
 * thin layer over the plain-C library.  Python (minitorch/distributed/)
 * builds torch's API on top of it: argument checking that needs Python
 * objects (groups, ranks, timedeltas), non-contiguous tensors (copied to
 * contiguous buffers and back when the work completes), object collectives,
 * debug logging.  Every call that can block (store get/wait/connect, group
 * construction and destruction, work waits) releases the GIL.
 *
 * Errors: a timeout, a lost connection or a closed group become the
 * RuntimeError subclasses of torch (DistStoreError for stores,
 * DistNetworkError for connecting, DistBackendError for collectives); bad
 * arguments keep their ValueError/TypeError. */

/* The exception types (module state; borrowed). */
extern PyObject *mt__DistError;
extern PyObject *mt__DistBackendError;
extern PyObject *mt__DistStoreError;
extern PyObject *mt__DistNetworkError;

/* Raises for the thread's last C error: MT_ETIMEOUT / MT_ECONN / MT_ECLOSED
 * / MT_ERUNTIME as `dist_type`, other codes as mt__raise.  Returns NULL. */
PyObject *mt__dist_raise(int code, PyObject *dist_type);

/* Converts timeout (None -> dflt, datetime.timedelta -> milliseconds, at
 * least 1).  Returns 0, or -1 with TypeError/ValueError. */
int mt__timeout_ms_from_py(PyObject *o, int64_t dflt, int64_t *out, const char *fname);

/* The Store type (store_binding.c). */
typedef struct {
    PyObject_HEAD
    mt_store *store; /* owned; NULL before initialisation */
} MTStoreObject;
extern PyTypeObject *mt__Store_Type;
/* Borrowed store of a Store object, or NULL with TypeError/RuntimeError. */
mt_store *mt__store_from_py(PyObject *o, const char *fname);

/* New reference to the store of a Store object; for a Store subclass written in
 * Python, an adapter calling its methods (Note [Stores written in Python]).
 * NULL with TypeError when `o` is not a Store. */
mt_store *mt__store_ref_from_py(PyObject *o, const char *fname);

/* A new C ProcessGroup object owning pg (stolen; destroyed on failure). (pg_binding.c) */
PyObject *mt__pg_wrap(mt_pg *pg);
/* The group of a C ProcessGroup object; NULL with TypeError, or DistBackendError once it
 * is destroyed. (pg_binding.c) */
mt_pg *mt__pg_from_py(PyObject *o, const char *fname);

int mt__store_binding_init(PyObject *module);
int mt__py_store_binding_init(PyObject *module);
int mt__pg_binding_init(PyObject *module);
int mt__nccl_binding_init(PyObject *module);
int mt__nccl_comm_binding_init(PyObject *module);
int mt__mpi_binding_init(PyObject *module);

#endif /* CSRC_DISTRIBUTED_BINDING_H */
