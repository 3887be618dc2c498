/* csrc/common.h - shared declarations of the minitorch._C binding (the only layer with Python.h). */
#ifndef CSRC_COMMON_H
#define CSRC_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>

#include "aten_lite/ops.h"
#include "c10_lite/cuda_hooks.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/device.h"
#include "c10_lite/dtype.h"
#include "c10_lite/error.h"
#include "c10_lite/storage.h"
#include "c10_lite/tensor_impl.h"
#include "mt_op_table.h" /* generated, see Note [The op table] */

/* Note [Type objects]
 * Types are heap types created from PyType_Spec in the module's exec slot.
 * Each is owned twice: by the file-level pointer below (one reference, kept
 * for the life of the process) and by the module, as an attribute
 * (PyModule_AddObjectRef).  The module has no per-module state (m_size 0):
 * the hot paths (is this a Tensor?, make a Tensor) read the pointers
 * directly, and the module refuses a second initialisation in the same
 * process (like NumPy, sub-interpreters are not supported). */
extern PyTypeObject *mt__TensorBase_Type;  /* minitorch._C.TensorBase */
extern PyTypeObject *mt__tensor_class;     /* minitorch.Tensor (a Python subclass), set at import */
extern PyTypeObject *mt__size_class;       /* minitorch.Size (tuple subclass), set at import */
extern PyTypeObject *mt__StorageBase_Type; /* minitorch._C.StorageBase */
extern PyTypeObject *mt__dtype_Type;       /* minitorch.dtype */
extern PyTypeObject *mt__device_Type;      /* minitorch.device */

/* ---- Tensor (tensor_object.c) ---- */
/* A Python tensor owns one reference to an immutable impl (see Note
 * [TensorImpl is immutable]); in-place metadata changes swap `impl`. */
typedef struct {
    PyObject_HEAD
    mt_tensor *impl;
    PyObject *base; /* owned; the tensor this one is a view of (Tensor._base), or NULL */
    /* autograd state, see Note [Autograd state of a tensor] in csrc/autograd/autograd.h;
     * each owned or NULL */
    PyObject *grad;     /* .grad */
    PyObject *grad_fn;  /* the node whose output this tensor is (NULL: a leaf) */
    PyObject *grad_acc; /* weak reference to a leaf's AccumulateGrad node */
    PyObject *hooks;    /* list of tensor hooks of a leaf (run before accumulation) */
    PyObject *post_acc_hooks; /* list of post-accumulate-grad hooks of a leaf */
    int output_nr;      /* which output of grad_fn */
    uint64_t view_version; /* a view: its storage's version when its history was last set
                            * (Note [Lazy view history] in csrc/autograd/autograd.h) */
    char view_meta;     /* a view: how it was made (Note [Creation meta of views]) */
    char requires_grad; /* a leaf that requires grad */
    char tracked;       /* counted in mt__ag_live (requires_grad or grad_fn set) */
    char retains_grad;  /* a non-leaf whose .grad is kept (Tensor.retain_grad) */
} MTTensorObject;

static inline int
mt__tensor_check(PyObject *o)
{
    return PyObject_TypeCheck(o, mt__TensorBase_Type);
}
/* Note [Impls across Python code and the GIL]
 * A tensor object's impl pointer is swapped, and the old impl released, by
 * resize_, set_, `t.data = ...`, in-place shape ops (t_, unsqueeze_, ...) and
 * by resizing an out= argument.  Any Python code can do that: an argument's
 * __index__ or __float__, a warning filter, a __del__, another thread while
 * the GIL is released.  So a borrowed impl (mt__tensor_impl) is valid only
 * until the binding next runs Python code, resizes an out= tensor or
 * releases the GIL.  Code that uses an impl across any of these holds a
 * reference (mt__tensor_impl_ref) and drops it afterwards; the impl, its
 * storage and its bytes then stay alive whatever happens to the object. */

/* Borrowed impl of a tensor object (no type check). */
static inline mt_tensor *
mt__tensor_impl(PyObject *o)
{
    return ((MTTensorObject *)o)->impl;
}
/* New reference to a tensor object's impl (no type check); the caller drops
 * it with mt_tensor_decref.  See Note [Impls across Python code and the GIL]. */
static inline mt_tensor *
mt__tensor_impl_ref(PyObject *o)
{
    mt_tensor *t = ((MTTensorObject *)o)->impl;
    mt_tensor_incref(t);
    return t;
}
/* Drops the references in ts[0..n) (NULL entries are fine). */
static inline void
mt__impls_release(mt_tensor **ts, int n)
{
    for (int i = 0; i < n; i++) {
        mt_tensor_decref(ts[i]);
    }
}
/* Wraps an impl in a new minitorch.Tensor. Steals `t` (also on error).
 * Returns a new reference, or NULL with an exception set (also when t is
 * NULL: then the C-layer message is raised). */
PyObject *mt__tensor_wrap(mt_tensor *t);
/* The channels-last rank a memory_format= asks for: 4 for channels_last, 5
 * for channels_last_3d, 0 for NULL/None/contiguous/preserve; -1 with
 * TypeError naming fname. */
int mt__channels_last_ndim(PyObject *o, const char *fname);
/* (values, indices) of a sort-like kernel as a tuple of new tensors (steals
 * v and ix), or its error when rc < 0 (then v and ix are not set). */
PyObject *mt__values_indices(int rc, mt_tensor *v, mt_tensor *ix);
/* Note [View bases]
 * As in torch, a tensor made by a view op (view, reshape without a copy,
 * transpose, indexing with slices, ...) records the tensor it views as its
 * `_base`; a view of a view records the first one's base, so the chain is
 * collapsed and `_base` is never itself a view (NumPy's rule for `.base`).
 * The base is a strong reference: the view keeps its base object alive.
 * In-place shape changes (t_(), unsqueeze_(), set_(...)) swap the impl but keep
 * the object's base.  A result that got its own storage (reshape that had to
 * copy) is no view, whatever op made it. */
/* Wraps t like mt__tensor_wrap; when t shares src's storage the new tensor is
 * a view with src's base, or src itself when src is no view (Note [View
 * bases]).  Steals t.  New reference or NULL. */
PyObject *mt__tensor_wrap_view(PyObject *src, mt_tensor *t);
/* Replaces self's impl (steals t). */
void mt__tensor_set_impl(PyObject *self, mt_tensor *t);
/* self.resize_(sizes): swaps in mt_tensor_resized's impl (Note [Resizing]).
 * 0, or -1 with the exception set. */
int mt__tensor_resize(PyObject *self, int ndim, const int64_t *sizes);
/* out= of the wrong shape, as torch: out is resized (Note [Resizing]) to
 * `sizes`, with a deprecation warning when it had elements.  0 or -1. */
int mt__resize_output(PyObject *out, int ndim, const int64_t *sizes);
/* Writes the result r (stolen) into the out= tensor `out` (checked to be a
 * Tensor; the result type must cast to its dtype; resized when its shape
 * differs).  Returns a new reference to out, or NULL. */
PyObject *mt__store_out(mt_tensor *r, PyObject *out, const char *fname);
/* r (stolen) wrapped in a new tensor, or written into `out` when out= is
 * given (mt__store_out); NULL r raises the C-layer error.  New reference. */
PyObject *mt__result_or_out(mt_tensor *r, PyObject *out, const char *fname);
/* The out= argument: *impl is NULL for a missing/None out, else out's
 * (borrowed) impl; TypeError naming fname when out is not a Tensor.  0 or -1. */
int mt__out_arg(PyObject *o, mt_tensor **impl, const char *fname);
int mt__tensor_types_init(PyObject *module);

/* ---- legacy type names (tensor_methods.c) ---- */
/* The legacy tensor type name of a dtype ("FloatTensor"). */
const char *mt__legacy_type_name(mt_dtype dt);

/* ---- errors (errors.c) ---- */
/* Raises the Python exception matching `code` with the thread-local message.
 * Always returns NULL. */
PyObject *mt__raise(int code);
/* Same for the last C error; returns -1 (for int-returning callers). */
int mt__raise_int(int code);
/* Makes minitorch.OutOfMemoryError (what MT_ENOMEM raises). 0, or -1 with an exception. */
int mt__errors_init(PyObject *module);

/* ---- dtype / device objects (dtype_object.c, device_object.c) ---- */
/* The minitorch.dtype singleton for dt (borrowed reference). */
PyObject *mt__dtype_object(mt_dtype dt);
/* Accepts a minitorch.dtype or a Python type (bool, int, float). Returns 0, or
 * -1 with TypeError naming `what`. */
int mt__dtype_from_py(PyObject *o, mt_dtype *out, const char *what);
int mt__dtype_check(PyObject *o);
/* 1 for a dtype minitorch has no tensors of (complex32, uint16, ...), see Note [Named dtypes]. */
int mt__dtype_is_named(PyObject *o);
/* promote_types where either operand is a named dtype: a new reference, or NULL
 * with torch's RuntimeError. */
PyObject *mt__dtype_promote_named(PyObject *a, PyObject *b);
int mt__dtype_types_init(PyObject *module);
/* New minitorch.device for d. */
PyObject *mt__device_object(mt_device d);
/* Accepts a device, a string or an int (cuda index).  Returns 0 or -1. */
int mt__device_from_py(PyObject *o, mt_device *out);
int mt__device_types_init(PyObject *module);
/* Raises for devices we cannot allocate on (returns -1), 0 for cpu. */
int mt__check_device_usable(mt_device d);
/* Note [Default device]: the device the factories (empty, zeros, ones, full, arange, eye,
 * linspace, logspace, tensor, as_tensor, and the random ones through them) use when not
 * given one, per thread: cpu, or what minitorch.set_default_device or an entered
 * `with minitorch.device(...)` block set (torch does both with a function mode; here it is a
 * thread-local the factories read, so a program that sets it pays nothing per op).  Tensors
 * made from existing memory (from_numpy, frombuffer, *_like) are not affected, as torch. */
extern _Thread_local mt_device mt__default_device;

/* ---- storage objects (storage_object.c) ---- */
/* New StorageBase of the Python class `cls` (NULL: UntypedStorage) viewing s
 * (borrowed; the object takes a reference) as dtype dt. */
PyObject *mt__storage_wrap(mt_storage *s, mt_dtype dt, int typed);
/* The parts of a storage object o: its storage (borrowed), its dtype and
 * whether it is typed.  0, or -1 (no exception set) when o is no storage. */
int mt__storage_parts(PyObject *o, mt_storage **s, mt_dtype *dt, int *typed);
int mt__storage_types_init(PyObject *module);

/* ---- argument helpers (args.c) ---- */
/* Maps positional and keyword arguments to `out` (borrowed refs, NULL when
 * absent) by parameter `names`; at most `maxpos` positional.  Raises TypeError
 * like CPython for unknown/duplicate/missing arguments. */
/* A METH_FASTCALL call's arguments as a tuple (*tuple) and a keyword dict (*kwargs, NULL when
 * there are no keywords), both new references.  0, or -1 with an exception (nothing set). */
int mt__fastcall_pack(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      PyObject **tuple, PyObject **kwargs);
int mt__parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames, const char *const *names, int maxpos, int nrequired,
                   PyObject **out);
/* An int (or anything with __index__, including 1-element integer tensors). */
int mt__int64_from_py(PyObject *o, int64_t *out, const char *fname, const char *what);
/* A sequence of ints (list/tuple/Size/1-d integer tensor). Returns ndim or -1. */
int mt__sizes_from_seq(PyObject *seq, int64_t *out, const char *fname, const char *what);
/* The first n items of a list or tuple (n its length) as ints into out; each
 * item is held while it converts, and a list that changes size meanwhile is
 * a RuntimeError.  0 or -1. */
int mt__int64s_from_seq(PyObject *seq, int64_t *out, Py_ssize_t n, const char *fname,
                        const char *what);
/* Either f(1, 2, 3) or f((1, 2, 3)) / f([1, 2, 3]). Returns ndim or -1. */
int mt__sizes_from_args(PyObject *const *args, Py_ssize_t nargs, int64_t *out, const char *fname,
                        const char *what);
/* New minitorch.Size. */
PyObject *mt__size_new(int ndim, const int64_t *sizes);
/* Converts a Python number / bool / 0-d or 1-element tensor into a scalar. */
int mt__scalar_from_py(PyObject *o, mt_scalar *out, const char *fname);
PyObject *mt__scalar_to_py(mt_scalar s);
/* The Python number for the element of dtype dt at p (a uint64 keeps its full range).
 * Returns a new reference or NULL. */
PyObject *mt__element_to_py(const void *p, mt_dtype dt);
static inline int
mt__is_number(PyObject *o)
{
    return PyLong_Check(o) || PyFloat_Check(o) || PyBool_Check(o) || PyComplex_Check(o);
}

/* ---- numpy (numpy_interop.c: the only file that uses the NumPy C API) ---- */
PyObject *mt__from_numpy(PyObject *arr, int warn_readonly);
PyObject *mt__tensor_to_numpy(PyObject *self);
/* A fresh C-contiguous native-order copy of an ndarray as a tensor. */
PyObject *mt__from_numpy_copy(PyObject *arr);
/* 1 if o is a numpy.ndarray (0 when numpy is not imported/installed). */
int mt__is_ndarray(PyObject *o);
/* ndim of an ndarray, -1 for anything else. */
int mt__ndarray_ndim(PyObject *o);
/* 1 if o is a numpy scalar (np.float32(1), np.int64(2), np.bool_); 0 else. */
int mt__is_numpy_scalar(PyObject *o);
/* The dtype of a numpy scalar/array, or -1 (no exception) when unsupported. */
int mt__numpy_dtype_of(PyObject *o);

/* ---- tensor construction from Python data (tensor_new.c) ---- */
PyObject *mt__tensor_from_data(PyObject *data, int has_dtype, mt_dtype dtype, mt_device device,
                               int copy_numpy);
int mt__tensor_methods_init(PyObject *module);
/* Tensor(*sizes) / Tensor(data): the legacy constructor (default dtype). */
PyObject *mt__tensor_legacy_new(PyTypeObject *type, PyObject *args, PyObject *kwds);
/* Indexing (indexing.c). */
PyObject *mt__tensor_getitem(PyObject *self, PyObject *key);
int mt__tensor_setitem(PyObject *self, PyObject *key, PyObject *value);

/* ---- elementwise ops (ops_binding.c) ---- */
int mt__ops_binding_init(PyObject *module);
int mt__reduce_binding_init(PyObject *module);
PyObject *mt__tensor_richcompare(PyObject *a, PyObject *b, int cmp);
PyObject *mt__nb_negative(PyObject *a);
PyObject *mt__nb_positive(PyObject *a);
PyObject *mt__nb_absolute(PyObject *a);
PyObject *mt__nb_invert(PyObject *a);
PyObject *mt__nb_power(PyObject *a, PyObject *b, PyObject *mod);
PyObject *mt__nb_inplace_power(PyObject *a, PyObject *b, PyObject *mod);
#define MT__NB_DECL(slot)                                     \
    PyObject *mt__nb_##slot(PyObject *a, PyObject *b);        \
    PyObject *mt__nb_inplace_##slot(PyObject *a, PyObject *b);
MT__NB_DECL(add)
MT__NB_DECL(subtract)
MT__NB_DECL(multiply)
MT__NB_DECL(true_divide)
MT__NB_DECL(floor_divide)
MT__NB_DECL(remainder)
MT__NB_DECL(and)
MT__NB_DECL(or)
MT__NB_DECL(xor)
MT__NB_DECL(lshift)
MT__NB_DECL(rshift)
#undef MT__NB_DECL

/* The binding families, registered by module.c. */
int mt__random_binding_init(PyObject *module);
int mt__linalg_binding_init(PyObject *module);
int mt__lapack_binding_init(PyObject *module);
int mt__index_binding_init(PyObject *module);
int mt__complex_binding_init(PyObject *module);
int mt__distributed_init(PyObject *module);
int mt__shm_binding_init(PyObject *module);
int mt__nn_binding_init(PyObject *module);
int mt__activation_binding_init(PyObject *m);
int mt__rnn_binding_init(PyObject *m);
int mt__optim_binding_init(PyObject *module);
int mt__cuda_binding_init(PyObject *module);
int mt__attention_binding_init(PyObject *module);
int mt__autocast_init(PyObject *module);
int mt__ctc_binding_init(PyObject *module);
int mt__special_binding_init(PyObject *module);
int mt__distance_binding_init(PyObject *module);
int mt__sparse_coo_binding_init(PyObject *module);
/* Adds every def in `methods` to TensorBase as a method (helper for binding files). */
int mt__add_tensor_methods(PyMethodDef *methods);

/* Note [The op table]
 * Every public op is declared once, by a row of python/minitorch/_op_table.py.  The build
 * turns the rows into mt_op_table.h (tools/gen_op_table.py): per C family F, the lists
 * MT_OPTABLE_<F>_METHODS(X) and MT_OPTABLE_<F>_FUNCTIONS(X) of X("name", c_function, flags),
 * aliases included.  csrc/<F>_binding.c expands them with MT_OPTABLE_DEF into its PyMethodDef
 * arrays; its entry points are named by the table's convention (mt_m_<name>, mt_m_<name>_,
 * mt_f_<name>), so a row without its entry point fails to compile and an entry point without
 * its row is an unused static function (-Werror).  The arrays keep only private helpers
 * ("_name") besides the table's rows. */
/* each entry names the function the method table calls: the op's autograd wrapper fn##__ag
 * (see Note [Recording an op] in csrc/autograd/autograd.h), or for the rows autocast covers
 * its autocast wrapper fn##__ac, which calls fn##__ag (see Note [Autocast] in csrc/autocast.h) */
#define MT_OPTABLE_DEF(name, entry, flags) {name, (PyCFunction)(void (*)(void))entry, flags, NULL},

#endif /* CSRC_COMMON_H */
