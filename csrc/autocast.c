/* csrc/autocast.c - autocast's per-thread state and casts (Note [Autocast] in csrc/autocast.h). */
#include "csrc/autocast.h"

#include "csrc/autograd/autograd.h"


enum { MT__AC_CPU, MT__AC_CUDA, MT__AC_NDEV };

_Thread_local int mt__autocast_cpu;
static _Thread_local int mt__ac_enabled[MT__AC_NDEV];
/* the dtypes differ from the defaults (bfloat16, float16) only once set */
static _Thread_local int mt__ac_dtype_set[MT__AC_NDEV];
static _Thread_local mt_dtype mt__ac_dtype[MT__AC_NDEV];
static _Thread_local int mt__ac_nesting;
static _Thread_local int mt__ac_cache_off;  /* 0: caching enabled (torch's default) */
static _Thread_local PyObject *mt__ac_cache; /* {id(source): (source, cast)} or NULL */

static const mt_dtype mt__ac_default_dtype[MT__AC_NDEV] = {MT_BFLOAT16, MT_FLOAT16};

static mt_dtype
mt__ac_get_dtype(int dev)
{
    return mt__ac_dtype_set[dev] ? mt__ac_dtype[dev] : mt__ac_default_dtype[dev];
}

/* The autocast device of a device-type string: 0 (cpu) or 1 (cuda); -1 with RuntimeError for
 * another string (minitorch knows no other device type), TypeError for a non-string. */
static int
mt__ac_device(PyObject *o)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "device_type must be str, not %s", Py_TYPE(o)->tp_name);
        return -1;
    }
    mt_device d;
    if (mt__device_from_py(o, &d) < 0) {
        return -1;
    }
    return d.type == MT_CPU ? MT__AC_CPU : MT__AC_CUDA;
}

/* The dtype the policy casts t to, or -1 when t stays as it is. */
static int
mt__ac_target(PyObject *t, int policy)
{
    mt_dtype dt = ((MTTensorObject *)t)->impl->dtype;
    if (dt != MT_FLOAT32 && dt != MT_FLOAT16 && dt != MT_BFLOAT16) {
        return -1; /* not floating, or float64: not eligible */
    }
    mt_dtype to = policy == MT_AC_LOWER ? mt__ac_get_dtype(MT__AC_CPU) : MT_FLOAT32;
    return dt == to ? -1 : (int)to;
}

/* The cast of argument o under `policy`: a new reference (o itself when it stays). */
static PyObject *
mt__ac_cast(PyObject *o, int policy)
{
    if (o == NULL || !mt__tensor_check(o)) {
        return Py_XNewRef(o);
    }
    int to = mt__ac_target(o, policy);
    if (to < 0) {
        return Py_NewRef(o);
    }
    MTTensorObject *t = (MTTensorObject *)o;
    PyObject *dtype = mt__dtype_object((mt_dtype)to);
    /* the cache: float32 leaves that require grad and are no view, cast to the lower dtype */
    int cacheable = !mt__ac_cache_off && policy == MT_AC_LOWER && t->impl->dtype == MT_FLOAT32 &&
                    t->requires_grad && t->grad_fn == NULL && t->base == NULL;
    PyObject *key = NULL;
    if (cacheable) {
        if (mt__ac_cache == NULL && (mt__ac_cache = PyDict_New()) == NULL) {
            return NULL;
        }
        key = PyLong_FromVoidPtr(o);
        if (key == NULL) {
            return NULL;
        }
        PyObject *hit = PyDict_GetItemWithError(mt__ac_cache, key); /* borrowed */
        if (hit != NULL) {
            /* a backward pass inside the region has run the cast's node: cast anew, so that a
             * second forward and backward in the same region work (as torch's) */
            PyObject *fn = ((MTTensorObject *)PyTuple_GET_ITEM(hit, 1))->grad_fn;
            if (fn == NULL || !mt__node_check(fn) || !((MTNodeObject *)fn)->released) {
                Py_DECREF(key);
                return Py_NewRef(PyTuple_GET_ITEM(hit, 1));
            }
        }
        else if (PyErr_Occurred()) {
            Py_DECREF(key);
            return NULL;
        }
    }
    PyObject *r = PyObject_CallMethod(o, "to", "O", dtype);
    if (r != NULL && key != NULL) {
        /* the entry holds the source, so its id is not reused while the entry lives */
        PyObject *entry = PyTuple_Pack(2, o, r);
        if (entry == NULL || PyDict_SetItem(mt__ac_cache, key, entry) < 0) {
            Py_CLEAR(r);
        }
        Py_XDECREF(entry);
    }
    Py_XDECREF(key);
    return r;
}

PyObject *
mt__autocast_call(mt__fastkw_fn fn, int policy, int method, PyObject *self,
                  PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "out") == 0) {
            return fn(self, args, nargs, kwnames); /* out= forms are not cast */
        }
    }
    Py_ssize_t n = nargs + nkw;
    PyObject *small[8];
    PyObject **cast = n <= 8 ? small : PyMem_New(PyObject *, (size_t)n);
    if (cast == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *s = NULL, *r = NULL;
    Py_ssize_t done = 0;
    for (; done < n; done++) {
        if ((cast[done] = mt__ac_cast(args[done], policy)) == NULL) {
            goto done;
        }
    }
    s = method ? mt__ac_cast(self, policy) : Py_NewRef(self);
    if (s != NULL) {
        r = fn(s, cast, nargs, kwnames);
    }
done:
    Py_XDECREF(s);
    for (Py_ssize_t i = 0; i < done; i++) {
        Py_DECREF(cast[i]);
    }
    if (cast != small) {
        PyMem_Free(cast);
    }
    return r;
}

/* ---- the Python API (minitorch.amp, torch.* autocast functions) ------------------------- */

static PyObject *
mt_py_autocast_on(PyObject *m, PyObject *unused)
{
    return PyBool_FromLong(mt__autocast_cpu);
}

/* _autocast_lower(*tensors) / _autocast_fp32(*tensors) -> the arguments cast by the
 * policy (None and non-tensors as they are), as a tuple */
static PyObject *
mt__ac_cast_all(PyObject *const *args, Py_ssize_t nargs, int policy)
{
    PyObject *r = PyTuple_New(nargs);
    if (r == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *c = mt__autocast_cpu ? mt__ac_cast(args[i], policy) : Py_NewRef(args[i]);
        if (c == NULL) {
            Py_DECREF(r);
            return NULL;
        }
        PyTuple_SET_ITEM(r, i, c);
    }
    return r;
}

static PyObject *
mt_py_autocast_lower(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    return mt__ac_cast_all(args, nargs, MT_AC_LOWER);
}

static PyObject *
mt_py_autocast_fp32(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    return mt__ac_cast_all(args, nargs, MT_AC_FP32);
}

static PyObject *
mt_py_is_autocast_enabled(PyObject *m, PyObject *device_type)
{
    int dev = mt__ac_device(device_type);
    return dev < 0 ? NULL : PyBool_FromLong(mt__ac_enabled[dev]);
}

static PyObject *
mt_py_set_autocast_enabled(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "_set_autocast_enabled() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    int dev = mt__ac_device(args[0]);
    int on = dev < 0 ? -1 : PyObject_IsTrue(args[1]);
    if (on < 0) {
        return NULL;
    }
    mt__ac_enabled[dev] = on;
    if (dev == MT__AC_CPU) {
        mt__autocast_cpu = on;
    }
    Py_RETURN_NONE;
}

static PyObject *
mt_py_get_autocast_dtype(PyObject *m, PyObject *device_type)
{
    int dev = mt__ac_device(device_type);
    return dev < 0 ? NULL : Py_NewRef(mt__dtype_object(mt__ac_get_dtype(dev)));
}

static PyObject *
mt_py_set_autocast_dtype(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "_set_autocast_dtype() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    int dev = mt__ac_device(args[0]);
    mt_dtype dt;
    if (dev < 0 || mt__dtype_from_py(args[1], &dt, "dtype") < 0) {
        return NULL;
    }
    if (mt__dtype_is_named(args[1])) {
        PyErr_Format(PyExc_TypeError, "autocast cannot run ops in a dtype minitorch has no tensors of");
        return NULL;
    }
    mt__ac_dtype[dev] = dt;
    mt__ac_dtype_set[dev] = 1;
    Py_RETURN_NONE;
}

static PyObject *
mt_py_autocast_increment_nesting(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(++mt__ac_nesting);
}

static PyObject *
mt_py_autocast_decrement_nesting(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(--mt__ac_nesting);
}

static PyObject *
mt_py_clear_autocast_cache(PyObject *m, PyObject *unused)
{
    Py_CLEAR(mt__ac_cache);
    Py_RETURN_NONE;
}

static PyObject *
mt_py_is_autocast_cache_enabled(PyObject *m, PyObject *unused)
{
    return PyBool_FromLong(!mt__ac_cache_off);
}

static PyObject *
mt_py_set_autocast_cache_enabled(PyObject *m, PyObject *on)
{
    if (!PyBool_Check(on)) {
        PyErr_Format(PyExc_TypeError, "set_autocast_cache_enabled(): argument 'enabled' must be "
                     "bool, not %s", Py_TYPE(on)->tp_name);
        return NULL;
    }
    mt__ac_cache_off = on == Py_False;
    Py_RETURN_NONE;
}

#define FAST(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL

static PyMethodDef mt_autocast_functions[] = {
    {"_autocast_on", mt_py_autocast_on, METH_NOARGS,
     "_autocast_on() -> whether CPU autocast is enabled on this thread"},
    {"_autocast_lower", FAST(mt_py_autocast_lower),
     "_autocast_lower(*args) -> args, the eligible tensors cast to the CPU autocast dtype "
     "while autocast is on"},
    {"_autocast_fp32", FAST(mt_py_autocast_fp32),
     "_autocast_fp32(*args) -> args, float16/bfloat16 tensors cast to float32 while autocast "
     "is on"},
    {"_is_autocast_enabled", mt_py_is_autocast_enabled, METH_O, NULL},
    {"_set_autocast_enabled", FAST(mt_py_set_autocast_enabled), NULL},
    {"_get_autocast_dtype", mt_py_get_autocast_dtype, METH_O, NULL},
    {"_set_autocast_dtype", FAST(mt_py_set_autocast_dtype), NULL},
    {"_autocast_increment_nesting", mt_py_autocast_increment_nesting, METH_NOARGS, NULL},
    {"_autocast_decrement_nesting", mt_py_autocast_decrement_nesting, METH_NOARGS, NULL},
    {"_clear_autocast_cache", mt_py_clear_autocast_cache, METH_NOARGS, NULL},
    {"_is_autocast_cache_enabled", mt_py_is_autocast_cache_enabled, METH_NOARGS, NULL},
    {"_set_autocast_cache_enabled", mt_py_set_autocast_cache_enabled, METH_O, NULL},
    {NULL},
};

int
mt__autocast_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_autocast_functions);
}
