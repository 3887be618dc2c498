/* csrc/lapack_binding.c - the batched LAPACK drivers as private functions of minitorch._C. */
#include "csrc/common.h"

#include "aten_lite/lapack.h"
#include "aten_lite/ops.h"

/* The drivers (aten_lite/lapack.h) take operands the Python layer laid out (Note [Batched
 * column-major operands]); they check them, so a wrong call raises instead of writing out of
 * bounds.  Each binding holds references to the impls and runs the driver without the GIL. */

/* PyArg converter: a tensor (its object, borrowed) or, for the optional form, None. */
static int
mt__la_tensor(PyObject *o, void *out)
{
    if (!mt__tensor_check(o)) {
        PyErr_Format(PyExc_TypeError, "expected a Tensor, got %s", Py_TYPE(o)->tp_name);
        return 0;
    }
    *(PyObject **)out = o;
    return 1;
}

static int
mt__la_optional(PyObject *o, void *out)
{
    if (o == Py_None) {
        *(PyObject **)out = NULL;
        return 1;
    }
    return mt__la_tensor(o, out);
}

/* Note [LAPACK on device tensors]
 * LAPACK runs on the host.  An operand on another device (a CUDA tensor: the linalg functions
 * lay out their operands on the input's device) is staged: the driver gets a host twin with
 * the same sizes and strides (Note [Batched column-major operands]), filled from the device
 * operand, and the operands the driver writes are copied back to the device afterwards.  So
 * linalg on CUDA tensors gives CUDA results, computed by the host's LAPACK (torch uses
 * cuSOLVER/MAGMA there), through copies that follow the current stream. */

/* A host tensor laid out as t (sizes, strides; offset 0) holding t's values; NULL with the
 * error set. */
static mt_tensor *
mt__la_host_twin(mt_tensor *t)
{
    int64_t extent = t->numel > 0 ? 1 : 0;
    for (int d = 0; d < t->ndim && t->numel > 0; d++) {
        extent += (t->sizes[d] - 1) * (t->strides[d] < 0 ? -t->strides[d] : t->strides[d]);
    }
    mt_storage *st = mt_storage_new((size_t)extent * mt_dtype_itemsize(t->dtype), MT_DEVICE_CPU);
    if (st == NULL) {
        return NULL;
    }
    mt_tensor *h = mt_tensor_new(st, t->dtype, t->ndim, t->sizes, t->strides, 0);
    mt_storage_decref(st);
    if (h != NULL && mt_copy_(h, t) < 0) {
        mt_tensor_decref(h);
        return NULL;
    }
    return h;
}

/* ts[0..n): the impls the driver gets (new references; host twins of device operands, whose
 * originals go to ts[n..2n), else NULL there).  -1 with the Python error set. */
static int
mt__la_refs(PyObject *const *objs, mt_tensor **ts, int n)
{
    for (int i = 0; i < n; i++) {
        ts[i] = objs[i] != NULL ? mt__tensor_impl_ref(objs[i]) : NULL;
        ts[n + i] = NULL;
    }
    for (int i = 0; i < n; i++) {
        if (ts[i] == NULL || mt_tensor_device(ts[i]).type == MT_CPU) {
            continue;
        }
        mt_tensor *h;
        Py_BEGIN_ALLOW_THREADS
        h = mt__la_host_twin(ts[i]);
        Py_END_ALLOW_THREADS
        if (h == NULL) {
            mt__impls_release(ts, 2 * n);
            return mt__raise_int(mt_error_code());
        }
        ts[n + i] = ts[i];
        ts[i] = h;
    }
    return 0;
}

/* After a driver returned rc: the staged operands in `written` (bit i: operand i) go back to
 * their devices (when rc is 0), every reference is dropped; None or the error. */
static PyObject *
mt__la_done(int rc, mt_tensor **ts, int n, unsigned written)
{
    for (int i = 0; i < n && rc >= 0; i++) {
        if (ts[n + i] != NULL && (written >> i) & 1u) {
            Py_BEGIN_ALLOW_THREADS
            rc = mt_copy_(ts[n + i], ts[i]);
            Py_END_ALLOW_THREADS
        }
    }
    mt__impls_release(ts, 2 * n);
    if (rc < 0) {
        return mt__raise(rc);
    }
    Py_RETURN_NONE;
}

/* _lapack_set_path(path or None) */
static PyObject *
mt_py_lapack_set_path(PyObject *m, PyObject *path)
{
    if (path == Py_None) {
        mt_lapack_set_path(NULL);
        Py_RETURN_NONE;
    }
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(path, &bytes)) {
        return NULL;
    }
    mt_lapack_set_path(PyBytes_AS_STRING(bytes));
    Py_DECREF(bytes);
    Py_RETURN_NONE;
}

/* _lapack_ensure() -> path of the library in use */
static PyObject *
mt_py_lapack_ensure(PyObject *m, PyObject *unused)
{
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_ensure();
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return mt__raise(rc);
    }
    return PyUnicode_DecodeFSDefault(mt_lapack_path());
}

static PyObject *
mt_py_lapack_getrf(PyObject *m, PyObject *args)
{
    PyObject *o[3];
    mt_tensor *t[2 * 3];
    int rc;
    if (!PyArg_ParseTuple(args, "O&O&O&:_lapack_getrf", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1], mt__la_tensor, &o[2])) {
        return NULL;
    }
    if (mt__la_refs(o, t, 3) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_getrf(t[0], t[1], t[2]);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 3, 7u);
}

static PyObject *
mt_py_lapack_getrs(PyObject *m, PyObject *args)
{
    PyObject *o[3];
    mt_tensor *t[2 * 3];
    int trans, rc;
    if (!PyArg_ParseTuple(args, "O&O&O&C:_lapack_getrs", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1], mt__la_tensor, &o[2], &trans)) {
        return NULL;
    }
    if (mt__la_refs(o, t, 3) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_getrs(t[0], t[1], t[2], (char)trans);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 3, 4u);
}

static PyObject *
mt__la_potrf_like(PyObject *args, bool inverse)
{
    PyObject *o[2];
    mt_tensor *t[2 * 2];
    int upper, rc;
    if (!PyArg_ParseTuple(args, "O&pO&:_lapack_potrf", mt__la_tensor, &o[0], &upper,
                          mt__la_tensor, &o[1])) {
        return NULL;
    }
    if (mt__la_refs(o, t, 2) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = inverse ? mt_lapack_potri(t[0], upper, t[1]) : mt_lapack_potrf(t[0], upper, t[1]);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 2, 3u);
}

static PyObject *
mt_py_lapack_potrf(PyObject *m, PyObject *args)
{
    return mt__la_potrf_like(args, false);
}

static PyObject *
mt_py_lapack_potri(PyObject *m, PyObject *args)
{
    return mt__la_potrf_like(args, true);
}

static PyObject *
mt_py_lapack_trsm(PyObject *m, PyObject *args)
{
    PyObject *o[2];
    mt_tensor *t[2 * 2];
    int left, upper, trans, unit, rc;
    if (!PyArg_ParseTuple(args, "O&O&ppCp:_lapack_trsm", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1], &left, &upper, &trans, &unit)) {
        return NULL;
    }
    if (mt__la_refs(o, t, 2) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_trsm(t[0], t[1], left, upper, (char)trans, unit);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 2, 2u);
}

static PyObject *
mt__la_qr_like(PyObject *args, bool orgqr)
{
    PyObject *o[2];
    mt_tensor *t[2 * 2];
    int rc;
    if (!PyArg_ParseTuple(args, "O&O&:_lapack_geqrf", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1])) {
        return NULL;
    }
    if (mt__la_refs(o, t, 2) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = orgqr ? mt_lapack_orgqr(t[0], t[1]) : mt_lapack_geqrf(t[0], t[1]);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 2, orgqr ? 1u : 3u);
}

static PyObject *
mt_py_lapack_geqrf(PyObject *m, PyObject *args)
{
    return mt__la_qr_like(args, false);
}

static PyObject *
mt_py_lapack_orgqr(PyObject *m, PyObject *args)
{
    return mt__la_qr_like(args, true);
}

static PyObject *
mt_py_lapack_gesdd(PyObject *m, PyObject *args)
{
    PyObject *o[5];
    mt_tensor *t[2 * 5];
    int jobz, rc;
    if (!PyArg_ParseTuple(args, "O&O&O&O&CO&:_lapack_gesdd", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1], mt__la_optional, &o[2], mt__la_optional, &o[3], &jobz,
                          mt__la_tensor, &o[4])) {
        return NULL;
    }
    if (mt__la_refs(o, t, 5) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_gesdd(t[0], t[1], t[2], t[3], (char)jobz, t[4]);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 5, 31u);
}

static PyObject *
mt_py_lapack_syevd(PyObject *m, PyObject *args)
{
    PyObject *o[3];
    mt_tensor *t[2 * 3];
    int vectors, upper, rc;
    if (!PyArg_ParseTuple(args, "O&O&ppO&:_lapack_syevd", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1], &vectors, &upper, mt__la_tensor, &o[2])) {
        return NULL;
    }
    if (mt__la_refs(o, t, 3) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_syevd(t[0], t[1], vectors, upper, t[2]);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 3, 7u);
}

static PyObject *
mt_py_lapack_geev(PyObject *m, PyObject *args)
{
    PyObject *o[4];
    mt_tensor *t[2 * 4];
    int rc;
    if (!PyArg_ParseTuple(args, "O&O&O&O&:_lapack_geev", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1], mt__la_optional, &o[2], mt__la_tensor, &o[3])) {
        return NULL;
    }
    if (mt__la_refs(o, t, 4) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_geev(t[0], t[1], t[2], t[3]);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 4, 15u);
}

static PyObject *
mt_py_lapack_gels(PyObject *m, PyObject *args)
{
    PyObject *o[5];
    mt_tensor *t[2 * 5];
    int driver, rc;
    double rcond;
    if (!PyArg_ParseTuple(args, "O&O&CdO&O&O&:_lapack_gels", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1], &driver, &rcond, mt__la_optional, &o[2], mt__la_optional, &o[3],
                          mt__la_tensor, &o[4])) {
        return NULL;
    }
    if (mt__la_refs(o, t, 5) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_gels(t[0], t[1], (char)driver, rcond, t[2], t[3], t[4]);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 5, 31u);
}

static PyObject *
mt_py_lapack_permutation(PyObject *m, PyObject *args)
{
    PyObject *o[2];
    mt_tensor *t[2 * 2];
    int rc;
    if (!PyArg_ParseTuple(args, "O&O&:_lapack_permutation", mt__la_tensor, &o[0], mt__la_tensor,
                          &o[1])) {
        return NULL;
    }
    if (mt__la_refs(o, t, 2) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lapack_permutation(t[0], t[1]);
    Py_END_ALLOW_THREADS
    return mt__la_done(rc, t, 2, 2u);
}

static PyMethodDef mt_lapack_functions[] = {
    {"_lapack_set_path", mt_py_lapack_set_path, METH_O,
     "_lapack_set_path(path): the library LAPACK is opened from at its first use."},
    {"_lapack_ensure", mt_py_lapack_ensure, METH_NOARGS,
     "_lapack_ensure() -> path: opens LAPACK now (RuntimeError when it cannot)."},
    {"_lapack_getrf", mt_py_lapack_getrf, METH_VARARGS, "_lapack_getrf(a, ipiv, info)"},
    {"_lapack_getrs", mt_py_lapack_getrs, METH_VARARGS, "_lapack_getrs(lu, ipiv, b, trans)"},
    {"_lapack_potrf", mt_py_lapack_potrf, METH_VARARGS, "_lapack_potrf(a, upper, info)"},
    {"_lapack_potri", mt_py_lapack_potri, METH_VARARGS, "_lapack_potri(a, upper, info)"},
    {"_lapack_trsm", mt_py_lapack_trsm, METH_VARARGS,
     "_lapack_trsm(a, b, left, upper, trans, unit)"},
    {"_lapack_geqrf", mt_py_lapack_geqrf, METH_VARARGS, "_lapack_geqrf(a, tau)"},
    {"_lapack_orgqr", mt_py_lapack_orgqr, METH_VARARGS, "_lapack_orgqr(q, tau)"},
    {"_lapack_gesdd", mt_py_lapack_gesdd, METH_VARARGS, "_lapack_gesdd(a, s, u, vt, jobz, info)"},
    {"_lapack_syevd", mt_py_lapack_syevd, METH_VARARGS,
     "_lapack_syevd(a, w, vectors, upper, info)"},
    {"_lapack_geev", mt_py_lapack_geev, METH_VARARGS, "_lapack_geev(a, w, v, info)"},
    {"_lapack_gels", mt_py_lapack_gels, METH_VARARGS,
     "_lapack_gels(a, b, driver, rcond, rank, s, info)"},
    {"_lapack_permutation", mt_py_lapack_permutation, METH_VARARGS,
     "_lapack_permutation(ipiv, perm): the row order of getrf's interchanges"},
    {NULL},
};

int
mt__lapack_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_lapack_functions);
}
