/* csrc/linalg_binding.c - matrix products (matmul, mm, bmm, mv, dot, addmm, addmv, baddbmm) and BLAS loading. */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"
#include "csrc/autocast.h"

#include <string.h>

#include "aten_lite/blas.h"
#include "aten_lite/linalg.h"

#define IMPL(self) (((MTTensorObject *)(self))->impl)
#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS

typedef enum {
    MT__LA_MATMUL,
    MT__LA_MM,
    MT__LA_BMM,
    MT__LA_MV,
    MT__LA_DOT,
    MT__LA_VDOT,
    MT__LA_ADDMM,
    MT__LA_ADDMV,
    MT__LA_BADDBMM,
} mt__la_op;

typedef struct {
    const char *name;
    const char *const params[7]; /* tensor parameters, then beta/alpha for add*, then out */
    int ntensors;
} mt__la_spec;

static const mt__la_spec mt__la_specs[] = {
    [MT__LA_MATMUL] = {"matmul", {"input", "other", "out", NULL}, 2},
    [MT__LA_MM] = {"mm", {"input", "mat2", "out", NULL}, 2},
    [MT__LA_BMM] = {"bmm", {"input", "mat2", "out", NULL}, 2},
    [MT__LA_MV] = {"mv", {"input", "vec", "out", NULL}, 2},
    [MT__LA_DOT] = {"dot", {"input", "tensor", "out", NULL}, 2},
    [MT__LA_VDOT] = {"vdot", {"input", "other", "out", NULL}, 2},
    [MT__LA_ADDMM] = {"addmm", {"input", "mat1", "mat2", "beta", "alpha", "out", NULL}, 3},
    [MT__LA_ADDMV] = {"addmv", {"input", "mat", "vec", "beta", "alpha", "out", NULL}, 3},
    [MT__LA_BADDBMM] = {"baddbmm", {"input", "batch1", "batch2", "beta", "alpha", "out", NULL}, 3},
};

/* Writes r (stolen) into the out= tensor, which must have r's dtype (as
 * torch's linear algebra requires); resized when its shape differs. */
static PyObject *
mt__la_store_out(mt_tensor *r, PyObject *out, const char *fname)
{
    mt_tensor *o = IMPL(out);
    if (o->dtype != r->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Expected out tensor to have dtype %s, but got %s instead",
                     mt_dtype_name(r->dtype), mt_dtype_name(o->dtype));
        mt_tensor_decref(r);
        return NULL;
    }
    return mt__store_out(r, out, fname);
}

static int
mt__la_scalar(PyObject *o, mt_scalar *s, const char *fname, const char *what)
{
    *s = mt_scalar_int(1);
    if (o == NULL) {
        return 0;
    }
    if (!mt__is_number(o) && !mt__is_numpy_scalar(o) && !mt__tensor_check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Number, not %s", fname, what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    return mt__scalar_from_py(o, s, fname);
}

static PyObject *
mt__la_entry(mt__la_op op, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames)
{
    const mt__la_spec *sp = &mt__la_specs[op];
    PyObject *a[7] = {NULL};
    int nt = sp->ntensors;
    /* beta/alpha/out are keyword-only */
    if (mt__parse_args(sp->name, args, nargs, kwnames, self ? sp->params + 1 : sp->params,
                       self ? nt - 1 : nt, self ? nt - 1 : nt, self ? a + 1 : a) < 0) {
        return NULL;
    }
    if (self != NULL) {
        a[0] = self;
    }
    mt_tensor *t[3] = {NULL};
    for (int i = 0; i < nt; i++) {
        if (!mt__tensor_check(a[i])) {
            PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be Tensor, not %s",
                         sp->name, sp->params[i], i + 1, Py_TYPE(a[i])->tp_name);
            return NULL;
        }
    }
    mt_scalar beta = mt_scalar_int(1), alpha = mt_scalar_int(1);
    PyObject *out = a[nt];
    if (nt == 3) {
        if (mt__la_scalar(a[3], &beta, sp->name, "beta") < 0 ||
            mt__la_scalar(a[4], &alpha, sp->name, "alpha") < 0) {
            return NULL;
        }
        out = a[5];
    }
    if (out == Py_None) {
        out = NULL;
    }
    if (out != NULL && !mt__tensor_check(out)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %s", sp->name,
                     Py_TYPE(out)->tp_name);
        return NULL;
    }
    for (int i = 0; i < nt; i++) {
        t[i] = mt__tensor_impl_ref(a[i]);
    }
    mt_tensor *r = NULL;
    Py_BEGIN_ALLOW_THREADS
    switch (op) {
    case MT__LA_MATMUL:
        r = mt_matmul(t[0], t[1]);
        break;
    case MT__LA_MM:
        r = mt_mm(t[0], t[1]);
        break;
    case MT__LA_BMM:
        r = mt_bmm(t[0], t[1]);
        break;
    case MT__LA_MV:
        r = mt_mv(t[0], t[1]);
        break;
    case MT__LA_DOT:
    case MT__LA_VDOT:
        r = mt_dot(t[0], t[1], sp->name);
        break;
    case MT__LA_ADDMM:
        r = mt_addmm(t[0], t[1], t[2], beta, alpha);
        break;
    case MT__LA_ADDMV:
        r = mt_addmv(t[0], t[1], t[2], beta, alpha);
        break;
    case MT__LA_BADDBMM:
        r = mt_baddbmm(t[0], t[1], t[2], beta, alpha);
        break;
    }
    Py_END_ALLOW_THREADS
    mt__impls_release(t, nt);
    if (r == NULL) {
        return mt__raise(0);
    }
    return out != NULL ? mt__la_store_out(r, out, sp->name) : mt__tensor_wrap(r);
}

#define MT__LA_OPS(X)                                                                             \
    X(MT__LA_MATMUL, matmul, "matmul(input, other, *, out=None) -> Tensor\n\n"                    \
      "Matrix product with torch's rules: dot for 1-D x 1-D, mv, mm, and a batched\n"              \
      "product broadcasting the leading dims otherwise.")                                         \
    X(MT__LA_MM, mm, "mm(input, mat2, *, out=None) -> Tensor\n\n(n, m) @ (m, p) -> (n, p).")       \
    X(MT__LA_BMM, bmm, "bmm(input, mat2, *, out=None) -> Tensor\n\n"                              \
      "(b, n, m) @ (b, m, p) -> (b, n, p).")                                                      \
    X(MT__LA_MV, mv, "mv(input, vec, *, out=None) -> Tensor\n\n(n, m) @ (m,) -> (n,).")            \
    X(MT__LA_DOT, dot, "dot(input, tensor, *, out=None) -> Tensor\n\n"                            \
      "Inner product of two 1-D tensors of one dtype (a 0-d tensor).")                            \
    X(MT__LA_VDOT, vdot, "vdot(input, other, *, out=None) -> Tensor\n\n"                          \
      "dot, conjugating the first argument (the same for real dtypes).")                          \
    X(MT__LA_ADDMM, addmm, "addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None) -> Tensor\n\n" \
      "beta * input + alpha * (mat1 @ mat2); input broadcasts; beta=0 ignores input.")            \
    X(MT__LA_ADDMV, addmv, "addmv(input, mat, vec, *, beta=1, alpha=1, out=None) -> Tensor\n\n"   \
      "beta * input + alpha * (mat @ vec); input broadcasts; beta=0 ignores input.")            \
    X(MT__LA_BADDBMM, baddbmm,                                                                    \
      "baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor\n\n"                \
      "beta * input + alpha * bmm(batch1, batch2); input broadcasts; beta=0 ignores input.")

#define MT__LA_DEFINE(op, name, doc)                                                              \
    static PyObject *mt_m_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs,       \
                                   PyObject *kw)                                                  \
    {                                                                                             \
        return mt__la_entry(op, self, args, nargs, kw);                                           \
    }                                                                                             \
    static PyObject *mt_f_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs,          \
                                   PyObject *kw)                                                  \
    {                                                                                             \
        return mt__la_entry(op, NULL, args, nargs, kw);                                           \
    }
MT__LA_OPS(MT__LA_DEFINE)

/* _blas_load(path): loads a CBLAS shared library (see Note [Run-time BLAS]). */
static PyObject *
mt_py_blas_load(PyObject *m, PyObject *path)
{
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(path, &bytes)) {
        return NULL;
    }
    int rc = mt_blas_load(PyBytes_AS_STRING(bytes));
    Py_DECREF(bytes);
    if (rc < 0) {
        return mt__raise(rc);
    }
    Py_RETURN_NONE;
}

static PyObject *
mt_py_blas_set_enabled(PyObject *m, PyObject *on)
{
    int v = PyObject_IsTrue(on);
    if (v < 0) {
        return NULL;
    }
    mt_blas_set_enabled(v);
    Py_RETURN_NONE;
}

/* _set_matmul_allow_tf32(flag): float32 products on CUDA may use TF32 (the float32 matmul
 * precision of minitorch._switches, mirrored here for the C GEMM) */
static PyObject *
mt_py_set_matmul_allow_tf32(PyObject *m, PyObject *on)
{
    int v = PyObject_IsTrue(on);
    if (v < 0) {
        return NULL;
    }
    mt_set_matmul_allow_tf32(v);
    Py_RETURN_NONE;
}

static PyObject *
mt_py_blas_info(PyObject *m, PyObject *unused)
{
    if (!mt_blas_available()) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(ss)", mt_blas_path(), mt_blas_config());
}

MT_OPTABLE_LINALG_METHOD_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_LINALG_METHOD_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_linalg_methods[] = {
    MT_OPTABLE_LINALG_METHODS(MT_OPTABLE_DEF)
    {NULL},
};
MT_OPTABLE_LINALG_FUNCTION_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_LINALG_FUNCTION_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_linalg_functions[] = {
    MT_OPTABLE_LINALG_FUNCTIONS(MT_OPTABLE_DEF)
    {"_blas_load", mt_py_blas_load, METH_O,
     "_blas_load(path): use the CBLAS library at path for float32/float64 products."},
    {"_blas_set_enabled", mt_py_blas_set_enabled, METH_O,
     "_blas_set_enabled(on): turn the loaded BLAS off (portable fallback) or back on."},
    {"_blas_info", mt_py_blas_info, METH_NOARGS,
     "_blas_info() -> (path, config) of the BLAS in use, or None."},
    {"_set_matmul_allow_tf32", mt_py_set_matmul_allow_tf32, METH_O,
     "_set_matmul_allow_tf32(flag): float32 products on CUDA may use TF32."},
    {NULL},
};

int
mt__linalg_binding_init(PyObject *module)
{
    if (mt__add_tensor_methods(mt_linalg_methods) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_linalg_functions);
}
