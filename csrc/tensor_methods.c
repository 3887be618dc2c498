/* csrc/tensor_methods.c - Tensor view/conversion methods and the tensor factories of minitorch._C. */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"
#include "csrc/autocast.h"

#include <string.h>

#include "aten_lite/memory_format.h"

#define IMPL(self) (((MTTensorObject *)(self))->impl)
#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS
#define PARSE(fname, maxpos, nreq, ...)                                                  \
    static const char *const names[] = {__VA_ARGS__, NULL};                              \
    PyObject *a[sizeof(names) / sizeof(names[0])];                                       \
    if (mt__parse_args(fname, args, nargs, kwnames, names, maxpos, nreq, a) < 0) {       \
        return NULL;                                                                     \
    }

/* Keyword form of a variadic-size method: f(size=...).  The parsed value is
 * stored in *slot (function scope) and args/nargs are pointed at it. */
#define PARSE_KW_SIZES(fname, kwname, slot)                                            \
    do {                                                                               \
        static const char *const kwn[] = {kwname, NULL};                               \
        if (mt__parse_args(fname, args, nargs, kwnames, kwn, 0, 1, slot) < 0) {        \
            return NULL;                                                               \
        }                                                                              \
        args = slot;                                                                   \
        nargs = 1;                                                                     \
    } while (0)

/* minitorch.strided and the memory formats, registered at import
 * (_set_formats); owned references, kept for the interpreter's life. */
enum { MT__STRIDED, MT__PRESERVE, MT__CONTIGUOUS, MT__CHANNELS_LAST, MT__CHANNELS_LAST_3D, MT__NFORMATS };
static PyObject *mt__formats[MT__NFORMATS];

/* The channels-last rank a memory_format= asks for: 4 for channels_last, 5
 * for channels_last_3d, 0 for NULL/None/contiguous_format/preserve_format;
 * -1 with TypeError naming fname for anything else. */
int
mt__channels_last_ndim(PyObject *o, const char *fname)
{
    if (o == NULL || o == Py_None || o == mt__formats[MT__PRESERVE] ||
        o == mt__formats[MT__CONTIGUOUS]) {
        return 0;
    }
    if (o == mt__formats[MT__CHANNELS_LAST] || o == mt__formats[MT__CHANNELS_LAST_3D]) {
        return o == mt__formats[MT__CHANNELS_LAST] ? 4 : 5;
    }
    PyErr_Format(PyExc_TypeError, "%s(): argument 'memory_format' must be minitorch.memory_format, "
                 "not %s", fname, Py_TYPE(o)->tp_name);
    return -1;
}

/* A memory_format= argument into *out (dflt for NULL/None); TypeError
 * naming fname for anything but a minitorch.memory_format.  0 or -1. */
static int
mt__memory_format_parse(PyObject *o, const char *fname, mt_memory_format dflt,
                        mt_memory_format *out)
{
    if (o == NULL || o == Py_None) {
        *out = dflt;
        return 0;
    }
    static const mt_memory_format kinds[MT__NFORMATS] = {
        [MT__PRESERVE] = MT_MF_PRESERVE, [MT__CONTIGUOUS] = MT_MF_CONTIGUOUS,
        [MT__CHANNELS_LAST] = MT_MF_CHANNELS_LAST, [MT__CHANNELS_LAST_3D] = MT_MF_CHANNELS_LAST_3D,
    };
    for (int i = MT__PRESERVE; i < MT__NFORMATS; i++) {
        if (o == mt__formats[i]) {
            *out = kinds[i];
            return 0;
        }
    }
    PyErr_Format(PyExc_TypeError, "%s(): argument 'memory_format' must be minitorch.memory_format, "
                 "not %s", fname, Py_TYPE(o)->tp_name);
    return -1;
}

/* memory_format= of resize_/resize_as_: only the row-major layout, so
 * channels_last(_3d) raise NotImplementedError.  0 or -1. */
static int
mt__memory_format_arg(PyObject *o, const char *fname)
{
    int cl = mt__channels_last_ndim(o, fname);
    if (cl > 0) {
        PyErr_Format(PyExc_NotImplementedError, "%s(): memory_format=%R is not supported: "
                     "minitorch makes row-major tensors (minitorch.contiguous_format)", fname, o);
        return -1;
    }
    return cl;
}

/* layout=: None or minitorch.strided (the only layout).  0 or -1. */
static int
mt__layout_arg(PyObject *o, const char *fname)
{
    if (o == NULL || o == Py_None || o == mt__formats[MT__STRIDED]) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s(): argument 'layout' must be minitorch.layout "
                 "(minitorch.strided), not %s", fname, Py_TYPE(o)->tp_name);
    return -1;
}

/* _set_formats(strided, preserve_format, contiguous_format, channels_last, channels_last_3d) */
static PyObject *
mt_py_set_formats(PyObject *m, PyObject *args)
{
    PyObject *f[MT__NFORMATS];
    if (!PyArg_ParseTuple(args, "OOOOO:_set_formats", &f[0], &f[1], &f[2], &f[3], &f[4])) {
        return NULL;
    }
    for (int i = 0; i < MT__NFORMATS; i++) {
        Py_XSETREF(mt__formats[i], Py_NewRef(f[i]));
    }
    Py_RETURN_NONE;
}

/* _check_tensor_options(fname, layout, memory_format): the checks of the C
 * factories, for factories written in Python. */
static PyObject *
mt_py_check_tensor_options(PyObject *m, PyObject *args)
{
    const char *fname;
    PyObject *layout, *mf;
    if (!PyArg_ParseTuple(args, "sOO:_check_tensor_options", &fname, &layout, &mf)) {
        return NULL;
    }
    mt_memory_format f;
    if (mt__layout_arg(layout, fname) < 0 ||
        mt__memory_format_parse(mf, fname, MT_MF_PRESERVE, &f) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static int
mt__dim_arg(PyObject *o, int64_t *out, const char *fname)
{
    return mt__int64_from_py(o, out, fname, "dim");
}

/* ------------------------------------------------------------------ */
/* views                                                               */

static PyObject *
mt_m_view(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (kwnames == NULL && nargs == 1 && (mt__dtype_check(args[0]) || PyType_Check(args[0]))) {
        mt_dtype dt;
        if (mt__dtype_from_py(args[0], &dt, "view(): dtype") < 0) {
            return NULL;
        }
        return mt__tensor_wrap(mt_view_dtype(IMPL(self), dt));
    }
    static const char *const view_names[] = {"size", "dtype", NULL};
    PyObject *a[2];
    if (kwnames != NULL) {
        /* view(size=...) / view(dtype=...) */
        if (mt__parse_args("view", args, nargs, kwnames, view_names, 0, 0, a) < 0) {
            return NULL;
        }
        if (a[1] != NULL) {
            mt_dtype dt;
            if (mt__dtype_from_py(a[1], &dt, "view(): dtype") < 0) {
                return NULL;
            }
            return mt__tensor_wrap(mt_view_dtype(IMPL(self), dt));
        }
        args = &a[0];
        nargs = a[0] != NULL;
    }
    int64_t sizes[MT_MAX_DIMS];
    int n = mt__sizes_from_args(args, nargs, sizes, "view", "size");
    if (n < 0) {
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_view(IMPL(self), n, sizes));
}

static PyObject *
mt_m_reshape(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *kwval[1];
    if (kwnames != NULL) {
        PARSE_KW_SIZES("reshape", "shape", kwval);
    }
    int64_t sizes[MT_MAX_DIMS];
    int n = mt__sizes_from_args(args, nargs, sizes, "reshape", "shape");
    if (n < 0) {
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_reshape(IMPL(self), n, sizes));
}

static PyObject *
mt_m_permute(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *kwval[1];
    if (kwnames != NULL) {
        PARSE_KW_SIZES("permute", "dims", kwval);
    }
    else if (nargs == 0) {
        PyErr_SetString(PyExc_TypeError, "permute() missing 1 required positional arguments: \"dims\"");
        return NULL;
    }
    int64_t dims[MT_MAX_DIMS];
    int n = mt__sizes_from_args(args, nargs, dims, "permute", "dims");
    if (n < 0) {
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_permute(IMPL(self), n, dims));
}

static mt_tensor *
mt__transpose_args(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                   const char *fname)
{
    static const char *const names[] = {"dim0", "dim1", NULL};
    PyObject *a[2];
    int64_t d0, d1;
    if (mt__parse_args(fname, args, nargs, kwnames, names, 2, 2, a) < 0 ||
        mt__dim_arg(a[0], &d0, fname) < 0 || mt__dim_arg(a[1], &d1, fname) < 0) {
        return NULL;
    }
    mt_tensor *r = mt_transpose(IMPL(self), d0, d1);
    if (r == NULL) {
        mt__raise(0);
    }
    return r;
}

static PyObject *
mt_m_transpose(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_tensor *r = mt__transpose_args(self, args, nargs, kwnames, "transpose");
    return r ? mt__tensor_wrap_view(self, r) : NULL;
}

static PyObject *
mt_m_transpose_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_tensor *r = mt__transpose_args(self, args, nargs, kwnames, "transpose_");
    if (r == NULL) {
        return NULL;
    }
    mt__tensor_set_impl(self, r);
    return Py_NewRef(self);
}

/* swapaxes(axis0, axis1): transpose under NumPy's argument names. */
static PyObject *
mt__swapaxes(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
             const char *fname, int inplace)
{
    static const char *const names[] = {"axis0", "axis1", NULL};
    PyObject *a[2];
    int64_t d0, d1;
    if (mt__parse_args(fname, args, nargs, kwnames, names, 2, 2, a) < 0 ||
        mt__dim_arg(a[0], &d0, fname) < 0 || mt__dim_arg(a[1], &d1, fname) < 0) {
        return NULL;
    }
    mt_tensor *r = mt_transpose(IMPL(self), d0, d1);
    if (r == NULL) {
        return mt__raise(0);
    }
    if (!inplace) {
        return mt__tensor_wrap_view(self, r);
    }
    mt__tensor_set_impl(self, r);
    return Py_NewRef(self);
}

static PyObject *
mt_m_swapaxes(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__swapaxes(self, args, nargs, kwnames, "swapaxes", 0);
}

static PyObject *
mt_m_swapaxes_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__swapaxes(self, args, nargs, kwnames, "swapaxes_", 1);
}

static mt_tensor *
mt__t(PyObject *self)
{
    mt_tensor *t = IMPL(self);
    if (t->ndim > 2) {
        mt_error_set(MT_ERUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD",
                     t->ndim);
        return NULL;
    }
    return t->ndim < 2 ? mt_alias(t) : mt_transpose(t, 0, 1);
}

static PyObject *
mt_m_t(PyObject *self, PyObject *unused)
{
    return mt__tensor_wrap_view(self, mt__t(self));
}

static PyObject *
mt_m_t_(PyObject *self, PyObject *unused)
{
    mt_tensor *r = mt__t(self);
    if (r == NULL) {
        return mt__raise(0);
    }
    mt__tensor_set_impl(self, r);
    return Py_NewRef(self);
}

static mt_tensor *
mt__squeeze_args(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 const char *fname)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    if (mt__parse_args(fname, args, nargs, kwnames, names, 1, 0, a) < 0) {
        return NULL;
    }
    mt_tensor *r;
    if (a[0] == NULL || a[0] == Py_None) {
        r = mt_squeeze(IMPL(self), 0, NULL);
    }
    else {
        int64_t dims[MT_MAX_DIMS];
        int n;
        if (PyTuple_Check(a[0]) || PyList_Check(a[0])) {
            n = mt__sizes_from_seq(a[0], dims, fname, "dim");
        }
        else {
            n = mt__dim_arg(a[0], &dims[0], fname) < 0 ? -1 : 1;
        }
        if (n < 0) {
            return NULL;
        }
        r = mt_squeeze(IMPL(self), n, dims);
    }
    if (r == NULL) {
        mt__raise(0);
    }
    return r;
}

static PyObject *
mt_m_squeeze(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_tensor *r = mt__squeeze_args(self, args, nargs, kwnames, "squeeze");
    return r ? mt__tensor_wrap_view(self, r) : NULL;
}

static PyObject *
mt_m_squeeze_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_tensor *r = mt__squeeze_args(self, args, nargs, kwnames, "squeeze_");
    if (r == NULL) {
        return NULL;
    }
    mt__tensor_set_impl(self, r);
    return Py_NewRef(self);
}

static mt_tensor *
mt__unsqueeze_args(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                   const char *fname)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    int64_t d;
    if (mt__parse_args(fname, args, nargs, kwnames, names, 1, 1, a) < 0 ||
        mt__dim_arg(a[0], &d, fname) < 0) {
        return NULL;
    }
    mt_tensor *r = mt_unsqueeze(IMPL(self), d);
    if (r == NULL) {
        mt__raise(0);
    }
    return r;
}

static PyObject *
mt_m_unsqueeze(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_tensor *r = mt__unsqueeze_args(self, args, nargs, kwnames, "unsqueeze");
    return r ? mt__tensor_wrap_view(self, r) : NULL;
}

static PyObject *
mt_m_unsqueeze_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_tensor *r = mt__unsqueeze_args(self, args, nargs, kwnames, "unsqueeze_");
    if (r == NULL) {
        return NULL;
    }
    mt__tensor_set_impl(self, r);
    return Py_NewRef(self);
}

static PyObject *
mt_m_expand(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *kwval[1];
    if (kwnames != NULL) {
        PARSE_KW_SIZES("expand", "size", kwval);
    }
    else if (nargs == 0) {
        PyErr_SetString(PyExc_TypeError, "expand() missing 1 required positional arguments: \"size\"");
        return NULL;
    }
    int64_t sizes[MT_MAX_DIMS];
    int n = mt__sizes_from_args(args, nargs, sizes, "expand", "size");
    if (n < 0) {
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_expand(IMPL(self), n, sizes));
}

/* self resized to sizes; a new version only when the shape changed (a resize to the same
 * shape changes nothing, as torch's; mt__ag_after_call leaves the resizes to this).  New
 * reference to self, or NULL. */
static PyObject *
mt__resize_bumping(PyObject *self, int n, const int64_t *sizes)
{
    const mt_tensor *t = IMPL(self);
    if (t->ndim == n && memcmp(t->sizes, sizes, (size_t)n * sizeof(int64_t)) == 0) {
        return Py_NewRef(self);
    }
    if (mt__tensor_resize(self, n, sizes) < 0 || mt__bump_version(self) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

/* resize_(*sizes, memory_format=None): see Note [Resizing]. */
static PyObject *
mt_m_resize_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (kwnames != NULL) {
        static const char *const kw[] = {"memory_format", NULL};
        PyObject *mf[1];
        /* the sizes are variadic: parse only the keywords (they follow args[nargs-1]) */
        if (mt__parse_args("resize_", args + nargs, 0, kwnames, kw, 0, 0, mf) < 0 ||
            mt__memory_format_arg(mf[0], "resize_") < 0) {
            return NULL;
        }
    }
    int64_t sizes[MT_MAX_DIMS];
    int n = mt__sizes_from_args(args, nargs, sizes, "resize_", "size");
    if (n < 0) {
        return NULL;
    }
    return mt__resize_bumping(self, n, sizes);
}

static PyObject *
mt_m_resize_as_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("resize_as_", 1, 1, "the_template", "memory_format");
    if (mt__memory_format_arg(a[1], "resize_as_") < 0) {
        return NULL;
    }
    if (!mt__tensor_check(a[0])) {
        PyErr_Format(PyExc_TypeError, "resize_as_(): argument 'the_template' must be Tensor, not %s",
                     Py_TYPE(a[0])->tp_name);
        return NULL;
    }
    const mt_tensor *like = IMPL(a[0]);
    return mt__resize_bumping(self, like->ndim, like->sizes);
}

static PyObject *
mt_m_expand_as(PyObject *self, PyObject *other)
{
    if (!mt__tensor_check(other)) {
        PyErr_Format(PyExc_TypeError, "expand_as(): argument 'other' must be Tensor, not %s",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_expand(IMPL(self), IMPL(other)->ndim, IMPL(other)->sizes));
}

static PyObject *
mt_m_narrow(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("narrow", 3, 3, "dim", "start", "length");
    if (mt__tensor_check(a[1]) &&
        (IMPL(a[1])->ndim != 0 || !mt_dtype_is_integral(IMPL(a[1])->dtype, false))) {
        PyErr_SetString(PyExc_RuntimeError, "start must be an 0-dim integral Tensor.");
        return NULL;
    }
    int64_t d, s, l;
    if (mt__dim_arg(a[0], &d, "narrow") < 0 || mt__int64_from_py(a[1], &s, "narrow", "start") < 0 ||
        mt__int64_from_py(a[2], &l, "narrow", "length") < 0) {
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_narrow(IMPL(self), d, s, l));
}

static PyObject *
mt_m_select(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("select", 2, 2, "dim", "index");
    int64_t d, i;
    if (mt__dim_arg(a[0], &d, "select") < 0 || mt__int64_from_py(a[1], &i, "select", "index") < 0) {
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_select(IMPL(self), d, i));
}

static PyObject *
mt_m_unfold(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("unfold", 3, 3, "dimension", "size", "step");
    int64_t d, sz, st;
    if (mt__dim_arg(a[0], &d, "unfold") < 0 || mt__int64_from_py(a[1], &sz, "unfold", "size") < 0 ||
        mt__int64_from_py(a[2], &st, "unfold", "step") < 0) {
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_unfold(IMPL(self), d, sz, st));
}

static PyObject *
mt_m_flatten(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("flatten", 2, 0, "start_dim", "end_dim");
    int64_t s = 0, e = -1;
    if ((a[0] && mt__dim_arg(a[0], &s, "flatten") < 0) ||
        (a[1] && mt__dim_arg(a[1], &e, "flatten") < 0)) {
        return NULL;
    }
    int nd = IMPL(self)->ndim;
    if (nd > 0 && mt_wrap_dim(s, nd) >= 0 && mt_wrap_dim(s, nd) == mt_wrap_dim(e, nd)) {
        return Py_NewRef(self); /* nothing to flatten: self, as torch */
    }
    return mt__tensor_wrap_view(self, mt_flatten(IMPL(self), s, e));
}

static PyObject *
mt_m_unflatten(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("unflatten", 2, 2, "dim", "sizes");
    int64_t d, sizes[MT_MAX_DIMS];
    int n;
    if (mt__dim_arg(a[0], &d, "unflatten") < 0 ||
        (n = mt__sizes_from_seq(a[1], sizes, "unflatten", "sizes")) < 0) {
        return NULL;
    }
    if (IMPL(self)->ndim == 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "unflatten: Dimension specified as %lld but tensor has no dimensions",
                     (long long)d);
        return NULL;
    }
    return mt__tensor_wrap_view(self, mt_unflatten(IMPL(self), d, n, sizes));
}

static mt_tensor *
mt__as_strided_args(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const char *fname)
{
    static const char *const names[] = {"size", "stride", "storage_offset", NULL};
    PyObject *a[3];
    if (mt__parse_args(fname, args, nargs, kwnames, names, 3, 2, a) < 0) {
        return NULL;
    }
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS], off = IMPL(self)->offset;
    int n = mt__sizes_from_seq(a[0], sizes, fname, "size");
    if (n < 0) {
        return NULL;
    }
    int m = mt__sizes_from_seq(a[1], strides, fname, "stride");
    if (m < 0) {
        return NULL;
    }
    if (n != m) {
        PyErr_Format(PyExc_RuntimeError, "mismatch in length of strides and shape");
        return NULL;
    }
    if (a[2] != NULL && a[2] != Py_None &&
        mt__int64_from_py(a[2], &off, fname, "storage_offset") < 0) {
        return NULL;
    }
    mt_tensor *r = mt_as_strided(IMPL(self), n, sizes, strides, off);
    if (r == NULL) {
        mt__raise(0);
    }
    return r;
}

static PyObject *
mt_m_as_strided(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_tensor *r = mt__as_strided_args(self, args, nargs, kwnames, "as_strided");
    return r ? mt__tensor_wrap_view(self, r) : NULL;
}

static PyObject *
mt_m_as_strided_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_tensor *r = mt__as_strided_args(self, args, nargs, kwnames, "as_strided_");
    if (r == NULL) {
        return NULL;
    }
    mt__tensor_set_impl(self, r);
    return Py_NewRef(self);
}

/* torch's C++ type names, as in "Could not set tensor of type float to ...". */
static const char *const mt__cpp_type_names[MT_NUM_DTYPES] = {
    [MT_BOOL] = "bool",         [MT_UINT8] = "unsigned char", [MT_INT8] = "signed char",
    [MT_INT16] = "short int",   [MT_INT32] = "int",           [MT_INT64] = "long int",
    [MT_FLOAT16] = "c10::Half", [MT_BFLOAT16] = "c10::BFloat16",
    [MT_FLOAT32] = "float",     [MT_FLOAT64] = "double",
    [MT_COMPLEX64] = "c10::complex<float>", [MT_COMPLEX128] = "c10::complex<double>",
    [MT_UINT16] = "unsigned short", [MT_UINT32] = "unsigned int", [MT_UINT64] = "unsigned long",
};

/* The impl set_(source, storage_offset, size, stride) gives self, for `st`
 * the storage of the source (a storage, or a tensor's, whose own offset `base`
 * the storage_offset counts from, as torch): size defaults to the whole
 * storage (1-d), stride to contiguous.  Unlike torch a storage is never
 * grown to fit: asking for more is MT_ERUNTIME (from mt_tensor_new).  NULL
 * with an exception set on error. */
static mt_tensor *
mt__set_storage_impl(PyObject *self, mt_storage *st, int64_t base, PyObject *const *a)
{
    mt_tensor *t = IMPL(self);
    int64_t offset = 0, sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    if (a[1] != NULL && mt__int64_from_py(a[1], &offset, "set_", "storage_offset") < 0) {
        return NULL;
    }
    int n = 1;
    if (a[2] == NULL) {
        if (a[1] != NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "set_(): storage_offset needs size: set_(source, storage_offset, "
                            "size, stride=())");
            return NULL;
        }
        sizes[0] = (int64_t)(st->nbytes / mt_tensor_itemsize(t));
    } else if ((n = mt__sizes_from_seq(a[2], sizes, "set_", "size")) < 0) {
        return NULL;
    }
    int ns = 0;
    if (a[3] != NULL && a[3] != Py_None &&
        (ns = mt__sizes_from_seq(a[3], strides, "set_", "stride")) < 0) {
        return NULL;
    }
    if (ns != 0 && ns != n) {
        PyErr_Format(PyExc_RuntimeError, "unequal size length (%d) and stride length (%d)", n,
                     ns);
        return NULL;
    }
    mt_tensor *r = mt_tensor_new(st, t->dtype, n, sizes, ns ? strides : NULL, base + offset);
    if (r == NULL) {
        mt__raise(0);
    }
    return r;
}

/* set_(), set_(source Tensor), set_(source Storage or Tensor, storage_offset=0, size=...,
 * stride=()): self then views other memory (an empty storage, source's
 * elements, or the storage).  self keeps its own view base: see Note [View bases]. */
static PyObject *
mt_m_set_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"source", "storage_offset", "size", "stride", NULL};
    PyObject *a[4];
    if (mt__parse_args("set_", args, nargs, kwnames, names, 4, 0, a) < 0) {
        return NULL;
    }
    mt_tensor *t = IMPL(self), *r;
    mt_storage *st;
    mt_dtype sdt;
    int typed;
    int extra = a[1] != NULL || a[2] != NULL || a[3] != NULL;
    if (a[0] == NULL || a[0] == Py_None) {
        if (extra) {
            PyErr_SetString(PyExc_TypeError,
                            "set_(): storage_offset, size and stride need a Storage source");
            return NULL;
        }
        int64_t zero = 0;
        r = mt_tensor_empty(t->dtype, 1, &zero, mt_tensor_device(t));
        if (r == NULL) {
            return mt__raise(0);
        }
    } else if (mt__tensor_check(a[0])) {
        mt_tensor *s = IMPL(a[0]);
        if (s->dtype != t->dtype) {
            PyErr_Format(PyExc_RuntimeError,
                         "Could not set tensor of type %s to a tensor of type %s",
                         mt__cpp_type_names[s->dtype], mt__cpp_type_names[t->dtype]);
            return NULL;
        }
        /* with storage_offset/size/stride the tensor stands for its storage */
        r = extra ? mt__set_storage_impl(self, s->storage, s->offset, a) : mt_alias(s);
        if (r == NULL) {
            return PyErr_Occurred() ? NULL : mt__raise(0);
        }
    } else if (mt__storage_parts(a[0], &st, &sdt, &typed) == 0) {
        if (typed && sdt != t->dtype) {
            PyErr_Format(PyExc_RuntimeError,
                         "Expected a Storage of type %s or an UntypedStorage, but got type %s "
                         "for argument 1 'storage'",
                         mt__cpp_type_names[t->dtype], mt_dtype_scalar_name(sdt));
            return NULL;
        }
        r = mt__set_storage_impl(self, st, 0, a);
        if (r == NULL) {
            return NULL;
        }
    } else {
        PyErr_Format(PyExc_TypeError,
                     "set_(): argument 'source' must be Tensor or Storage, not %s",
                     Py_TYPE(a[0])->tp_name);
        return NULL;
    }
    /* a leaf gets a new AccumulateGrad: graphs made before do not lead to it (as torch) */
    Py_CLEAR(((MTTensorObject *)self)->grad_acc);
    mt__tensor_set_impl(self, r);
    return Py_NewRef(self);
}

/* is_set_to(tensor): whether both view the same elements of the same storage
 * (storage, offset, sizes and strides all equal), as after self.set_(tensor). */
static PyObject *
mt_m_is_set_to(PyObject *self, PyObject *other)
{
    if (!mt__tensor_check(other)) {
        PyErr_Format(PyExc_TypeError,
                     "is_set_to(): argument 'tensor' (position 1) must be Tensor, not %s",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    mt_tensor *a = IMPL(self), *b = IMPL(other);
    size_t n = (size_t)a->ndim * sizeof(int64_t);
    int same = a->storage == b->storage && a->offset == b->offset && a->ndim == b->ndim &&
               memcmp(a->sizes, b->sizes, n) == 0 && memcmp(a->strides, b->strides, n) == 0;
    return PyBool_FromLong(same);
}

static PyObject *
mt_m_contiguous(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("contiguous", 1, 0, "memory_format");
    mt_memory_format f;
    if (mt__memory_format_parse(a[0], "contiguous", MT_MF_CONTIGUOUS, &f) < 0) {
        return NULL;
    }
    mt_tensor *t = IMPL(self);
    if (f == MT_MF_PRESERVE && !t->contiguous) {
        PyErr_SetString(PyExc_RuntimeError,
                        "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    if (f == MT_MF_PRESERVE || f == MT_MF_CONTIGUOUS) {
        return t->contiguous ? Py_NewRef(self) : mt__tensor_wrap(mt_contiguous(t));
    }
    if (mt_memory_format_check(f, t->ndim) < 0) {
        return mt__raise(0);
    }
    if (mt_is_contiguous_format(t, f)) {
        return Py_NewRef(self);
    }
    mt_tensor *r;
    mt_tensor_incref(t);
    Py_BEGIN_ALLOW_THREADS
    r = mt_to_format(t, t->dtype, f, true);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    return mt__tensor_wrap(r);
}

static PyObject *
mt_m_clone(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("clone", 0, 0, "memory_format");
    mt_memory_format f;
    if (mt__memory_format_parse(a[0], "clone", MT_MF_PRESERVE, &f) < 0) {
        return NULL;
    }
    mt_tensor *r, *t = mt__tensor_impl_ref(self);
    Py_BEGIN_ALLOW_THREADS
    r = mt_to_format(t, t->dtype, f, true);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    return mt__tensor_wrap(r);
}

static PyObject *
mt_m_detach(PyObject *self, PyObject *unused)
{
    return mt__tensor_wrap(mt_alias(IMPL(self)));
}

static PyObject *
mt_m_detach_(PyObject *self, PyObject *unused)
{
    MTTensorObject *o = (MTTensorObject *)self;
    if (o->base != NULL && o->grad_fn != NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Can't detach views in-place. Use detach() instead.");
        return NULL;
    }
    Py_CLEAR(o->grad_fn);
    o->requires_grad = 0;
    o->output_nr = 0;
    mt__ag_retrack(self);
    return Py_NewRef(self);
}

static PyObject *
mt_m_requires_grad_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("requires_grad_", 1, 0, "requires_grad");
    int truth = a[0] ? PyObject_IsTrue(a[0]) : 1;
    if (truth < 0 || mt__tensor_set_requires_grad(self, truth) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

/* ------------------------------------------------------------------ */
/* conversion                                                          */

/* torch's UserWarning when a copy drops imaginary parts.  0 or -1 (the
 * warning was turned into an error). */
static int
mt__warn_complex_to_real(mt_dtype src, mt_dtype dst)
{
    if (mt_dtype_is_complex(src) && !mt_dtype_is_complex(dst)) {
        return PyErr_WarnEx(PyExc_UserWarning,
                            "Casting complex values to real discards the imaginary part", 1);
    }
    return 0;
}

/* Converts self to (dtype, device) laid out in memory format f (Note
 * [Memory formats]); returns self itself when nothing changes and !copy.  non_blocking: a
 * transfer from or to pinned host memory may return before it is done (mt_copy_nb_). */
static PyObject *
mt__convert_format_nb(PyObject *self, mt_dtype dt, mt_device dev, int copy, mt_memory_format f,
                      bool non_blocking)
{
    mt_tensor *t = IMPL(self);
    mt_device from = mt_tensor_device(t);
    if (dev.type != from.type || (dev.type != MT_CPU && dev.index != from.index)) {
        /* "cuda" is the current device: a tensor already there stays */
        if (mt__check_device_usable(dev) < 0) {
            return NULL;
        }
        if (mt_device_resolve(&dev) < 0) {
            return mt__raise(0);
        }
    }
    if (mt_memory_format_check(f, t->ndim) < 0) {
        return mt__raise(0);
    }
    bool moves = dev.type != from.type || (dev.type != MT_CPU && dev.index != from.index);
    if (!moves && t->dtype == dt && !copy && (f == MT_MF_PRESERVE || mt_is_contiguous_format(t, f))) {
        return Py_NewRef(self);
    }
    if (mt__warn_complex_to_real(t->dtype, dt) < 0) {
        return NULL;
    }
    mt_tensor *r;
    mt_tensor_incref(t);
    Py_BEGIN_ALLOW_THREADS
    if (!moves) {
        r = mt_to_format(t, dt, f, true);
    }
    else {
        /* to another device: a dense copy there (channels_last kept as such), filled by the
         * copy kernels of the (destination, source) pair */
        mt_memory_format g = f == MT_MF_PRESERVE ? mt_suggest_memory_format(t) : f;
        r = mt_empty_in_format(dt, t->ndim, t->sizes, dev, g);
        if (r != NULL && mt_copy_nb_(r, t, non_blocking) < 0) {
            mt_tensor_decref(r);
            r = NULL;
        }
    }
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    return mt__tensor_wrap(r);
}

static PyObject *
mt__convert_format(PyObject *self, mt_dtype dt, mt_device dev, int copy, mt_memory_format f)
{
    return mt__convert_format_nb(self, dt, dev, copy, f, false);
}

/* a non_blocking argument (absent or None: false); 0, or -1 with the exception set */
static int
mt__non_blocking_arg(PyObject *o, bool *out)
{
    int v = o == NULL || o == Py_None ? 0 : PyObject_IsTrue(o);
    *out = v > 0;
    return v < 0 ? -1 : 0;
}

/* mt__convert_format keeping the layout (preserve_format). */
static PyObject *
mt__convert(PyObject *self, mt_dtype dt, mt_device dev, int copy)
{
    return mt__convert_format(self, dt, dev, copy, MT_MF_PRESERVE);
}

static PyObject *
mt_m_to(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("to", 3, 0, "device", "dtype", "non_blocking", "copy", "memory_format");
    mt_memory_format f;
    if (mt__memory_format_parse(a[4], "to", MT_MF_PRESERVE, &f) < 0) {
        return NULL;
    }
    mt_tensor *t = IMPL(self);
    mt_dtype dt = t->dtype;
    mt_device dev = mt_tensor_device(t);
    PyObject *first = a[0], *second = a[1];
    int copy = 0;
    if (a[3] != NULL && (copy = PyObject_IsTrue(a[3])) < 0) {
        return NULL;
    }
    PyObject *nb = a[2];
    /* to(dtype, non_blocking, copy): shift the positional meaning */
    if (nargs >= 1 && first != NULL && (mt__dtype_check(first) || PyType_Check(first))) {
        if (nargs >= 3 && (copy = PyObject_IsTrue(args[2])) < 0) {
            return NULL;
        }
        nb = nargs >= 2 ? args[1] : nb;
        second = first;
        first = NULL;
    }
    else if (first != NULL && mt__tensor_check(first)) {
        dt = IMPL(first)->dtype;
        dev = mt_tensor_device(IMPL(first));
        first = NULL;
        if (nargs >= 3 && (copy = PyObject_IsTrue(args[2])) < 0) {
            return NULL;
        }
        nb = nargs >= 2 ? args[1] : nb;
        second = NULL;
    }
    bool non_blocking;
    if (mt__non_blocking_arg(nb, &non_blocking) < 0) {
        return NULL;
    }
    if (first != NULL && first != Py_None && mt__device_from_py(first, &dev) < 0) {
        return NULL;
    }
    if (second != NULL && second != Py_None && mt__dtype_from_py(second, &dt, "to(): dtype") < 0) {
        return NULL;
    }
    return mt__convert_format_nb(self, dt, dev, copy, f, non_blocking);
}

static PyObject *
mt__to_dtype_method(PyObject *self, mt_dtype dt)
{
    return mt__convert(self, dt, mt_tensor_device(IMPL(self)), 0);
}

#define MT__CAST_METHOD(name, DT)                                  \
    static PyObject *mt_m_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs, \
                                   PyObject *kwnames)              \
    {                                                              \
        PARSE(#name, 0, 0, "memory_format");                       \
        mt_memory_format f;                                        \
        if (mt__memory_format_parse(a[0], #name, MT_MF_PRESERVE, &f) < 0) { \
            return NULL;                                           \
        }                                                          \
        return mt__convert_format(self, DT, mt_tensor_device(IMPL(self)), 0, f); \
    }
MT__CAST_METHOD(float, MT_FLOAT32)
MT__CAST_METHOD(double, MT_FLOAT64)
MT__CAST_METHOD(half, MT_FLOAT16)
MT__CAST_METHOD(bfloat16, MT_BFLOAT16)
MT__CAST_METHOD(int, MT_INT32)
MT__CAST_METHOD(long, MT_INT64)
MT__CAST_METHOD(short, MT_INT16)
MT__CAST_METHOD(char, MT_INT8)
MT__CAST_METHOD(byte, MT_UINT8)
MT__CAST_METHOD(bool, MT_BOOL)

static PyObject *
mt_m_cpu(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("cpu", 0, 0, "memory_format");
    mt_memory_format f;
    if (mt__memory_format_parse(a[0], "cpu", MT_MF_PRESERVE, &f) < 0) {
        return NULL;
    }
    return mt__convert_format(self, IMPL(self)->dtype, MT_DEVICE_CPU, 0, f);
}

static PyObject *
mt_m_cuda(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("cuda", 1, 0, "device", "non_blocking", "memory_format");
    mt_memory_format f;
    if (mt__memory_format_parse(a[2], "cuda", MT_MF_PRESERVE, &f) < 0) {
        return NULL;
    }
    mt_device dev = {.type = MT_CUDA, .index = -1};
    if (a[0] != NULL && a[0] != Py_None && mt__device_from_py(a[0], &dev) < 0) {
        return NULL;
    }
    if (dev.type != MT_CUDA) {
        PyErr_SetString(PyExc_RuntimeError, "Invalid device, must be cuda device");
        return NULL;
    }
    bool non_blocking;
    if (mt__non_blocking_arg(a[1], &non_blocking) < 0) {
        return NULL;
    }
    return mt__convert_format_nb(self, IMPL(self)->dtype, dev, 0, f, non_blocking);
}

/* The legacy type names, e.g. minitorch.FloatTensor. */
static const char *const mt__legacy_names[MT_NUM_DTYPES] = {
    [MT_BOOL] = "BoolTensor",   [MT_UINT8] = "ByteTensor",     [MT_INT8] = "CharTensor",
    [MT_INT16] = "ShortTensor", [MT_INT32] = "IntTensor",      [MT_INT64] = "LongTensor",
    [MT_FLOAT16] = "HalfTensor", [MT_BFLOAT16] = "BFloat16Tensor", [MT_FLOAT32] = "FloatTensor",
    [MT_FLOAT64] = "DoubleTensor",
    [MT_COMPLEX64] = "ComplexFloatTensor", [MT_COMPLEX128] = "ComplexDoubleTensor",
    [MT_UINT16] = "UInt16Tensor", [MT_UINT32] = "UInt32Tensor", [MT_UINT64] = "UInt64Tensor",
};

const char *
mt__legacy_type_name(mt_dtype dt)
{
    return mt__legacy_names[dt];
}

static PyObject *
tensor_type(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("type", 2, 0, "dtype", "non_blocking");
    if (a[0] == NULL || a[0] == Py_None) {
        return PyUnicode_FromFormat("minitorch.%s", mt__legacy_names[IMPL(self)->dtype]);
    }
    mt_dtype dt;
    if (PyUnicode_Check(a[0])) {
        const char *s = PyUnicode_AsUTF8(a[0]);
        if (s == NULL) {
            return NULL;
        }
        const char *dot = strrchr(s, '.');
        const char *base = dot ? dot + 1 : s;
        int found = -1;
        for (int i = 0; i < MT_NUM_DTYPES; i++) {
            if (strcmp(base, mt__legacy_names[i]) == 0) {
                found = i;
            }
        }
        bool prefix_ok = dot == NULL || strncmp(s, "minitorch.", 10) == 0 ||
                         strncmp(s, "torch.", 6) == 0;
        if (found < 0 || !prefix_ok || (dot && (size_t)(dot - s) != strcspn(s, "."))) {
            PyErr_Format(PyExc_ValueError, "invalid type: '%s'", s);
            return NULL;
        }
        dt = (mt_dtype)found;
    }
    else if (mt__dtype_from_py(a[0], &dt, "type(): dtype") < 0) {
        return NULL;
    }
    return mt__to_dtype_method(self, dt);
}

/* ------------------------------------------------------------------ */
/* in-place writes                                                     */

static PyObject *
mt_m_copy_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("copy_", 2, 1, "src", "non_blocking");
    PyObject *src = a[0];
    if (!mt__tensor_check(src)) {
        PyErr_Format(PyExc_TypeError, "copy_(): argument 'src' must be Tensor, not %s",
                     Py_TYPE(src)->tp_name);
        return NULL;
    }
    int rc;
    bool non_blocking;
    if (mt__non_blocking_arg(a[1], &non_blocking) < 0 ||
        mt__warn_complex_to_real(IMPL(src)->dtype, IMPL(self)->dtype) < 0) {
        return NULL;
    }
    mt_tensor *d = mt__tensor_impl_ref(self), *s = mt__tensor_impl_ref(src);
    Py_BEGIN_ALLOW_THREADS
    rc = mt_copy_nb_(d, s, non_blocking);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(d);
    mt_tensor_decref(s);
    if (rc < 0) {
        return mt__raise(rc);
    }
    return Py_NewRef(self);
}

static PyObject *
mt_m_fill_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("fill_", 1, 1, "value");
    mt_scalar v;
    if (mt__tensor_check(a[0]) && IMPL(a[0])->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "fill_ only supports 0-dimension value tensor but got tensor with %d "
                     "dimensions.",
                     IMPL(a[0])->ndim);
        return NULL;
    }
    if (mt__scalar_from_py(a[0], &v, "fill_") < 0) {
        return NULL;
    }
    int rc;
    mt_tensor *t = mt__tensor_impl_ref(self);
    Py_BEGIN_ALLOW_THREADS
    rc = mt_fill_(t, v);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    if (rc < 0) {
        return mt__raise(rc);
    }
    return Py_NewRef(self);
}

static PyObject *
mt_m_zero_(PyObject *self, PyObject *unused)
{
    int rc;
    mt_tensor *t = mt__tensor_impl_ref(self);
    Py_BEGIN_ALLOW_THREADS
    rc = mt_fill_(t, mt_scalar_int(0));
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    if (rc < 0) {
        return mt__raise(rc);
    }
    return Py_NewRef(self);
}

static PyObject *
mt_m_numpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    /* (force: a tensor that requires grad reaches here only through the recorder, which
     * refuses it without force while grad mode is on, as torch) */
    PARSE("numpy", 0, 0, "force");
    return mt__tensor_to_numpy(self);
}

MT_OPTABLE_TENSOR_METHOD_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_TENSOR_METHOD_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef tensor_methods[] = {
    MT_OPTABLE_TENSOR_METHODS(MT_OPTABLE_DEF)
    /* Tensor.type() is minitorch.Tensor.type (it also takes the legacy classes) */
    {"_type", FASTKW(tensor_type), "type(dtype=None): the type name, or a converted tensor"},
    {NULL},
};

/* ------------------------------------------------------------------ */
/* factories                                                           */

/* Parses dtype= and device= keywords shared by the factories. */
static int
mt__factory_opts(PyObject *dtype_obj, PyObject *device_obj, PyObject *requires_grad,
                 mt_dtype *dt, int *has_dtype, mt_device *dev)
{
    *has_dtype = dtype_obj != NULL && dtype_obj != Py_None;
    if (*has_dtype && mt__dtype_from_py(dtype_obj, dt, "dtype") < 0) {
        return -1;
    }
    *dev = mt__default_device; /* Note [Default device] */
    if (device_obj != NULL && device_obj != Py_None) {
        if (mt__device_from_py(device_obj, dev) < 0) {
            return -1;
        }
    }
    if (dev->type != MT_CPU && mt__check_device_usable(*dev) < 0) {
        return -1;
    }
    if (requires_grad != NULL) {
        int truth = PyObject_IsTrue(requires_grad);
        if (truth < 0) {
            return -1;
        }
        /* requires_grad=True is applied to the result by the op table's wrapper (see Note
         * [Recording an op]) */
    }
    return 0;
}

/* out= of a factory: the result takes out's dtype (an explicit dtype must be
 * the same, as torch).  0, or -1 with an exception. */
static int
mt__factory_out_dtype(PyObject *out, int has_dtype, mt_dtype *dt, const char *fname)
{
    mt_tensor *o;
    if (mt__out_arg(out, &o, fname) < 0) {
        return -1;
    }
    if (o == NULL) {
        return 0;
    }
    mt_dtype od = o->dtype;
    if (has_dtype && *dt != od) {
        PyErr_Format(PyExc_RuntimeError, "dtype %s does not match dtype of out parameter (%s)",
                     mt_dtype_name(*dt), mt_dtype_name(od));
        return -1;
    }
    *dt = od;
    return 0;
}

/* empty/zeros/ones(*size, dtype=None, device=None, requires_grad=False, ...) */
static PyObject *
mt__sized_factory(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                  int fill)
{
    static const char *const names[] = {"size",        "dtype",  "device", "requires_grad",
                                        "pin_memory",  "layout", "out",    "memory_format",
                                        NULL};
    PyObject *a[8];
    /* the sizes are variadic: parse only the keywords (their values follow args[nargs-1]) */
    mt_memory_format f;
    if (mt__parse_args(fname, args + nargs, 0, kwnames, names, 0, 0, a) < 0 ||
        mt__layout_arg(a[5], fname) < 0 ||
        mt__memory_format_parse(a[7], fname, MT_MF_CONTIGUOUS, &f) < 0) {
        return NULL;
    }
    if (f == MT_MF_PRESERVE) {
        PyErr_SetString(PyExc_RuntimeError, "unsupported memory format Preserve");
        return NULL;
    }
    int64_t sizes[MT_MAX_DIMS];
    int n;
    if (nargs == 0 && a[0] != NULL) {
        n = mt__sizes_from_seq(a[0], sizes, fname, "size");
    }
    else {
        n = mt__sizes_from_args(args, nargs, sizes, fname, "size");
    }
    if (n < 0) {
        return NULL;
    }
    mt_dtype dt = mt_get_default_dtype();
    int has_dtype;
    mt_device dev;
    if (mt__factory_opts(a[1], a[2], a[3], &dt, &has_dtype, &dev) < 0 ||
        mt__factory_out_dtype(a[6], has_dtype, &dt, fname) < 0) {
        return NULL;
    }
    if (fill < 0 && a[6] != NULL && a[6] != Py_None) {
        /* empty(out=t): t resized, its contents left as they are */
        return mt__resize_output(a[6], n, sizes) < 0 ? NULL : Py_NewRef(a[6]);
    }
    if (mt_memory_format_check(f, n) < 0) {
        return mt__raise(0);
    }
    mt_tensor *t = mt_empty_in_format(dt, n, sizes, dev, f);
    if (t != NULL && fill >= 0) {
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = mt_fill_(t, mt_scalar_int(fill));
        Py_END_ALLOW_THREADS
        if (rc < 0) {
            mt_tensor_decref(t);
            t = NULL;
        }
    }
    return mt__result_or_out(t, a[6], fname);
}

static PyObject *
mt_f_empty(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__sized_factory("empty", args, nargs, kwnames, -1);
}

static PyObject *
mt_f_zeros(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__sized_factory("zeros", args, nargs, kwnames, 0);
}

static PyObject *
mt_f_ones(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__sized_factory("ones", args, nargs, kwnames, 1);
}

static PyObject *
mt_f_full(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("full", 2, 2, "size", "fill_value", "dtype", "device", "requires_grad", "pin_memory",
          "layout", "out");
    if (mt__layout_arg(a[6], "full") < 0) {
        return NULL;
    }
    int64_t sizes[MT_MAX_DIMS];
    int n = mt__sizes_from_seq(a[0], sizes, "full", "size");
    mt_scalar v;
    if (n < 0 || mt__scalar_from_py(a[1], &v, "full") < 0) {
        return NULL;
    }
    mt_dtype dt = mt__tensor_check(a[1]) ? IMPL(a[1])->dtype : mt_scalar_dtype(v);
    int has_dtype;
    mt_device dev;
    if (mt__factory_opts(a[2], a[3], a[4], &dt, &has_dtype, &dev) < 0 ||
        mt__factory_out_dtype(a[7], has_dtype, &dt, "full") < 0) {
        return NULL;
    }
    mt_tensor *t = mt_tensor_empty(dt, n, sizes, dev);
    if (t != NULL && mt_fill_(t, v) < 0) {
        mt_tensor_decref(t);
        t = NULL;
    }
    return mt__result_or_out(t, a[7], "full");
}

static PyObject *
mt_f_empty_strided(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("empty_strided", 2, 2, "size", "stride", "dtype", "device", "requires_grad",
          "pin_memory", "layout");
    if (mt__layout_arg(a[6], "empty_strided") < 0) {
        return NULL;
    }
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int n = mt__sizes_from_seq(a[0], sizes, "empty_strided", "size");
    if (n < 0) {
        return NULL;
    }
    int k = mt__sizes_from_seq(a[1], strides, "empty_strided", "stride");
    if (k < 0) {
        return NULL;
    }
    if (n != k) {
        PyErr_SetString(PyExc_RuntimeError, "mismatch in length of strides and shape");
        return NULL;
    }
    mt_dtype dt = mt_get_default_dtype();
    int has_dtype;
    mt_device dev;
    if (mt__factory_opts(a[2], a[3], a[4], &dt, &has_dtype, &dev) < 0) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (sizes[i] < 0 || strides[i] < 0) {
            PyErr_SetString(PyExc_RuntimeError, "empty_strided: sizes and strides must be >= 0");
            return NULL;
        }
    }
    int64_t lo, hi;
    size_t isz = mt_dtype_itemsize(dt), nbytes = 0;
    if (mt_view_extent(n, sizes, strides, 0, isz, &lo, &hi) < 0 ||
        (mt_numel(n, sizes) != 0 && mt_ckd_nbytes(hi + 1, isz, &nbytes) < 0)) {
        return mt__raise(0);
    }
    mt_storage *s = mt_storage_new(nbytes, dev);
    if (s == NULL) {
        return mt__raise(0);
    }
    mt_tensor *t = mt_tensor_new(s, dt, n, sizes, strides, 0);
    mt_storage_decref(s);
    return mt__tensor_wrap(t);
}

static int
mt__number_arg(PyObject *o, mt_scalar *s, const char *fname)
{
    if (o == NULL) {
        return 0;
    }
    return mt__scalar_from_py(o, s, fname);
}

static PyObject *
mt_f_arange(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("arange", 3, 0, "start", "end", "step", "dtype", "device", "requires_grad", "layout",
          "pin_memory", "out");
    if (mt__layout_arg(a[6], "arange") < 0) {
        return NULL;
    }
    mt_scalar start = mt_scalar_int(0), end, step = mt_scalar_int(1);
    if (a[0] == NULL && a[1] == NULL) {
        PyErr_SetString(PyExc_TypeError, "arange() missing required argument 'end'");
        return NULL;
    }
    if (a[0] == NULL) { /* arange(end=...) */
        if (mt__number_arg(a[1], &end, "arange") < 0) {
            return NULL;
        }
    }
    else if (a[1] == NULL) { /* arange(end) */
        if (mt__number_arg(a[0], &end, "arange") < 0) {
            return NULL;
        }
    }
    else if (mt__number_arg(a[0], &start, "arange") < 0 || mt__number_arg(a[1], &end, "arange") < 0) {
        return NULL;
    }
    if (mt__number_arg(a[2], &step, "arange") < 0) {
        return NULL;
    }
    bool any_float = start.kind == MT_SCALAR_FLOAT || end.kind == MT_SCALAR_FLOAT ||
                     step.kind == MT_SCALAR_FLOAT;
    mt_dtype dt = any_float ? mt_get_default_dtype() : MT_INT64;
    int has_dtype;
    mt_device dev;
    if (mt__factory_opts(a[3], a[4], a[5], &dt, &has_dtype, &dev) < 0 ||
        mt__factory_out_dtype(a[8], has_dtype, &dt, "arange") < 0) {
        return NULL;
    }
    if (dt == MT_BOOL) {
        PyErr_SetString(PyExc_NotImplementedError, "\"arange_cpu\" not implemented for 'Bool'");
        return NULL;
    }
    return mt__result_or_out(mt_arange(start, end, step, dt, dev), a[8], "arange");
}

static PyObject *
mt__linspace_common(const char *fname, int log, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    static const char *const names[] = {"start",  "end",           "steps",  "base",
                                        "dtype",  "device",        "requires_grad",
                                        "layout", "pin_memory",    "out",    NULL};
    PyObject *a[10];
    if (mt__parse_args(fname, args, nargs, kwnames, names, log ? 4 : 3, 3, a) < 0 ||
        mt__layout_arg(a[7], fname) < 0) {
        return NULL;
    }
    if (!log && a[3] != NULL) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'base'", fname);
        return NULL;
    }
    mt_scalar s, e, b = mt_scalar_float(10.0);
    int64_t steps;
    if (mt__scalar_from_py(a[0], &s, fname) < 0 || mt__scalar_from_py(a[1], &e, fname) < 0 ||
        mt__int64_from_py(a[2], &steps, fname, "steps") < 0 ||
        (a[3] != NULL && mt__scalar_from_py(a[3], &b, fname) < 0)) {
        return NULL;
    }
    mt_dtype dt = mt_get_default_dtype();
    int has_dtype;
    mt_device dev;
    if (mt__factory_opts(a[4], a[5], a[6], &dt, &has_dtype, &dev) < 0 ||
        mt__factory_out_dtype(a[9], has_dtype, &dt, fname) < 0) {
        return NULL;
    }
    return mt__result_or_out(mt_linspace(mt_scalar_to_double(s), mt_scalar_to_double(e), steps,
                                          mt_scalar_to_double(b), log, dt, dev),
                              a[9], fname);
}

static PyObject *
mt_f_linspace(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__linspace_common("linspace", 0, args, nargs, kwnames);
}

static PyObject *
mt_f_logspace(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__linspace_common("logspace", 1, args, nargs, kwnames);
}

static PyObject *
mt_f_eye(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("eye", 2, 1, "n", "m", "dtype", "device", "requires_grad", "layout", "pin_memory",
          "out");
    if (mt__layout_arg(a[5], "eye") < 0) {
        return NULL;
    }
    int64_t n, k;
    if (mt__int64_from_py(a[0], &n, "eye", "n") < 0) {
        return NULL;
    }
    k = n;
    if (a[1] != NULL && a[1] != Py_None && mt__int64_from_py(a[1], &k, "eye", "m") < 0) {
        return NULL;
    }
    mt_dtype dt = mt_get_default_dtype();
    int has_dtype;
    mt_device dev;
    if (mt__factory_opts(a[2], a[3], a[4], &dt, &has_dtype, &dev) < 0 ||
        mt__factory_out_dtype(a[7], has_dtype, &dt, "eye") < 0) {
        return NULL;
    }
    return mt__result_or_out(mt_eye(n, k, dt, dev), a[7], "eye");
}

static PyObject *
mt_f_tensor(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("tensor", 1, 1, "data", "dtype", "device", "requires_grad", "pin_memory");
    mt_dtype dt = MT_FLOAT32;
    int has_dtype;
    mt_device dev;
    if (mt__factory_opts(a[1], a[2], a[3], &dt, &has_dtype, &dev) < 0) {
        return NULL;
    }
    if (mt__tensor_check(a[0])) {
        if (PyErr_WarnEx(PyExc_UserWarning,
                         "To copy construct from a tensor, it is recommended to use "
                         "sourceTensor.clone().detach() rather than "
                         "minitorch.tensor(sourceTensor).",
                         1) < 0) {
            return NULL;
        }
    }
    return mt__tensor_from_data(a[0], has_dtype, dt, dev, 1);
}

static PyObject *
mt_f_as_tensor(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("as_tensor", 1, 1, "data", "dtype", "device");
    mt_dtype dt = MT_FLOAT32;
    int has_dtype;
    mt_device dev;
    if (mt__factory_opts(a[1], a[2], NULL, &dt, &has_dtype, &dev) < 0) {
        return NULL;
    }
    PyObject *data = a[0];
    if (mt__tensor_check(data)) {
        return mt__convert(data, has_dtype ? dt : IMPL(data)->dtype, dev, 0);
    }
    if (mt__is_ndarray(data)) {
        PyObject *t = mt__from_numpy(data, 0);
        if (t == NULL) {
            /* unsupported layouts (negative strides, byte order) fall back to a copy */
            PyErr_Clear();
            return mt__tensor_from_data(data, has_dtype, dt, dev, 1);
        }
        if ((!has_dtype || IMPL(t)->dtype == dt) && dev.type == MT_CPU) {
            return t;
        }
        PyObject *r = mt__convert(t, has_dtype ? dt : IMPL(t)->dtype, dev, 0);
        Py_DECREF(t);
        return r;
    }
    return mt__tensor_from_data(data, has_dtype, dt, dev, 1);
}

static PyObject *
mt_f_from_numpy(PyObject *m, PyObject *arr)
{
    return mt__from_numpy(arr, 1);
}

static PyObject *
mt_py_get_default_dtype(PyObject *m, PyObject *unused)
{
    return Py_NewRef(mt__dtype_object(mt_get_default_dtype()));
}

static PyObject *
mt_py_set_default_dtype(PyObject *m, PyObject *arg)
{
    mt_dtype dt;
    if (mt__dtype_from_py(arg, &dt, "set_default_dtype(): d") < 0) {
        return NULL;
    }
    if (mt_set_default_dtype(dt) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

/* _empty_like(input, dtype, memory_format=None): uninitialised memory shaped
 * like input in that memory format (None: preserve_format, Note [Memory
 * formats]).  The *_like factories fill it. */
static PyObject *
mt_py_empty_like(PyObject *m, PyObject *args)
{
    PyObject *input, *dtobj, *mf = NULL;
    mt_dtype dt;
    mt_memory_format f;
    if (!PyArg_ParseTuple(args, "O!O|O:_empty_like", mt__TensorBase_Type, &input, &dtobj, &mf) ||
        mt__dtype_from_py(dtobj, &dt, "dtype") < 0 ||
        mt__memory_format_parse(mf, "empty_like", MT_MF_PRESERVE, &f) < 0) {
        return NULL;
    }
    return mt__tensor_wrap(mt_empty_format(IMPL(input), dt, f));
}

/* _suggest_memory_format(t): torch's suggest_memory_format (Note [Memory
 * formats]): channels_last(_3d) for a tensor whose strides are ordered as
 * that format's, else contiguous_format. */
static PyObject *
mt_py_suggest_memory_format(PyObject *m, PyObject *t)
{
    if (!mt__tensor_check(t)) {
        PyErr_Format(PyExc_TypeError, "_suggest_memory_format(): expected a Tensor, not %s",
                     Py_TYPE(t)->tp_name);
        return NULL;
    }
    mt_memory_format f = mt_suggest_memory_format(IMPL(t));
    int i = f == MT_MF_CHANNELS_LAST ? MT__CHANNELS_LAST
          : f == MT_MF_CHANNELS_LAST_3D ? MT__CHANNELS_LAST_3D : MT__CONTIGUOUS;
    return Py_NewRef(mt__formats[i]);
}

MT_OPTABLE_TENSOR_FUNCTION_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_TENSOR_FUNCTION_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_factory_methods[] = {
    MT_OPTABLE_TENSOR_FUNCTIONS(MT_OPTABLE_DEF)
    {"_empty_like", mt_py_empty_like, METH_VARARGS, NULL},
    {"_suggest_memory_format", mt_py_suggest_memory_format, METH_O, NULL},
    {"get_default_dtype", mt_py_get_default_dtype, METH_NOARGS, NULL},
    {"_set_formats", mt_py_set_formats, METH_VARARGS, NULL},
    {"_check_tensor_options", mt_py_check_tensor_options, METH_VARARGS, NULL},
    {"set_default_dtype", mt_py_set_default_dtype, METH_O, NULL},
    {NULL},
};

/* Note [Subclass construction]: Sub(t) and Sub(data) for a Tensor subclass Sub
 * give an instance of Sub (then Sub.__init__ runs, with the same arguments), as
 * torch's: r, a fresh tensor object without view base, is moved into one.
 * Steals r. */
static PyObject *
mt__legacy_as_type(PyTypeObject *type, PyObject *r)
{
    if (r == NULL || Py_TYPE(r) == type || mt__tensor_class == NULL || type == mt__tensor_class ||
        !PyType_IsSubtype(type, mt__tensor_class)) {
        return r;
    }
    mt__tf_instance(type);
    MTTensorObject *o = (MTTensorObject *)type->tp_alloc(type, 0);
    if (o == NULL) {
        Py_DECREF(r);
        return NULL;
    }
    o->impl = IMPL(r); /* (a new reference, r's is dropped with r) */
    mt_tensor_incref(o->impl);
    Py_DECREF(r);
    return (PyObject *)o;
}

PyObject *
mt__tensor_legacy_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "Tensor(): keyword arguments are not supported; use "
                                         "minitorch.tensor(data, dtype=...) instead");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *first = n > 0 ? PyTuple_GET_ITEM(args, 0) : NULL;
    mt_dtype dt = mt_get_default_dtype();
    int is_size = n == 1 && mt__size_class != NULL && PyObject_TypeCheck(first, mt__size_class);
    if (n == 1 && !PyLong_Check(first) && !is_size) {
        if (mt__tensor_check(first)) {
            if (!mt__grad_off && mt__tensor_requires_grad(first)) {
                /* an alias that stays in the graph (torch records AliasBackward0), as an
                 * instance of type through as_subclass (recorded too) */
                PyObject *v = PyObject_CallMethod(first, "view_as", "O", first);
                if (v == NULL || Py_TYPE(v) == type) {
                    return v;
                }
                PyObject *r = PyObject_CallMethod(v, "as_subclass", "O", (PyObject *)type);
                Py_DECREF(v);
                return r;
            }
            return mt__legacy_as_type(type, mt__tensor_wrap(mt_alias(IMPL(first))));
        }
        return mt__legacy_as_type(type, mt__tensor_from_data(first, 1, dt, MT_DEVICE_CPU, 1));
    }
    int64_t sizes[MT_MAX_DIMS] = {0};
    int nd = n == 0 ? 1 : mt__sizes_from_args(&PyTuple_GET_ITEM(args, 0), n, sizes, "Tensor", "size");
    if (nd < 0) {
        return NULL;
    }
    mt_tensor *t = mt_tensor_empty(dt, nd, sizes, MT_DEVICE_CPU);
    if (t != NULL && mt_fill_(t, mt_scalar_int(0)) < 0) {
        mt_tensor_decref(t);
        t = NULL;
    }
    if (t == NULL) {
        return mt__raise(0);
    }
    mt__tf_instance(type);
    MTTensorObject *o = (MTTensorObject *)type->tp_alloc(type, 0);
    if (o == NULL) {
        mt_tensor_decref(t);
        return NULL;
    }
    o->impl = t;
    return (PyObject *)o;
}

int
mt__tensor_methods_init(PyObject *module)
{
    if (mt__add_tensor_methods(tensor_methods) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_factory_methods);
}

int
mt__add_tensor_methods(PyMethodDef *methods)
{
    for (PyMethodDef *d = methods; d->ml_name != NULL; d++) {
        PyObject *descr = PyDescr_NewMethod(mt__TensorBase_Type, d);
        if (descr == NULL || PyDict_SetItemString(mt__TensorBase_Type->tp_dict, d->ml_name, descr) < 0) {
            Py_XDECREF(descr);
            return -1;
        }
        Py_DECREF(descr);
    }
    PyType_Modified(mt__TensorBase_Type);
    return 0;
}
