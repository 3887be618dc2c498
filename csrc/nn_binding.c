/* csrc/nn_binding.c - convolution, pooling, resampling and normalisation kernels (forward and
 * backward) for minitorch.nn.functional. */
#include "csrc/common.h"

#include <string.h>

#include "aten_lite/conv.h"
#include "aten_lite/layer_norm.h"
#include "aten_lite/pool.h"
#include "aten_lite/softmax.h"
#include "aten_lite/upsample.h"

#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS
#define PARSE(fname, nreq, ...)                                                          \
    static const char *const names[] = {__VA_ARGS__, NULL};                              \
    PyObject *a[sizeof(names) / sizeof(names[0])];                                       \
    if (mt__parse_args(fname, args, nargs, kwnames, names,                               \
                       (int)(sizeof(names) / sizeof(names[0])) - 1, nreq, a) < 0) {      \
        return NULL;                                                                     \
    }

/* Note [Private nn kernels]
 * These functions are the kernels behind the op rows of minitorch/_convolution.py,
 * _pooling.py and _upsampling.py, not public ops: the Python layer normalises
 * arguments the way torch.nn.functional does (padding='same', unbatched inputs,
 * return_indices); each kernel and each *_backward is a recorded op whose
 * derivative is written with the others (autograd/formulas.py).  The
 * arguments are still checked in full (the C layer raises torch's errors),
 * so calling them directly with anything cannot crash. */

/* A tensor argument (NULL/None allowed when `optional`): its impl, referenced
 * (see Note [Impls across Python code and the GIL]), into *out.  0 or -1. */
static int
mt__nn_tensor(PyObject *o, mt_tensor **out, bool optional, const char *fname, const char *what)
{
    *out = NULL;
    if (optional && (o == NULL || o == Py_None)) {
        return 0;
    }
    if (o == NULL || !mt__tensor_check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor, not %s", fname, what,
                     o == NULL ? "nothing" : Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = mt__tensor_impl_ref(o);
    return 0;
}

/* An int or a list/tuple of ints into vals; returns how many values were
 * given (an int counts as one, and then fills both), or -1. */
static int
mt__nn_ints(PyObject *o, int64_t vals[MT_MAX_DIMS], const char *fname, const char *what)
{
    if (PyLong_Check(o) || (!PyTuple_Check(o) && !PyList_Check(o) && !mt__tensor_check(o))) {
        if (mt__int64_from_py(o, &vals[0], fname, what) < 0) {
            return -1;
        }
        vals[1] = vals[0];
        return 1;
    }
    int n = mt__sizes_from_seq(o, vals, fname, what);
    if (n == 1) {
        vals[1] = vals[0];
    }
    return n;
}

/* output_mask: a sequence of three truth values. */
static int
mt__nn_mask(PyObject *o, bool mask[3])
{
    mask[0] = mask[1] = mask[2] = true;
    if (o == NULL || o == Py_None) {
        return 0;
    }
    PyObject *seq = PySequence_Fast(o, "output_mask must be a sequence of 3 bools");
    if (seq == NULL) {
        return -1;
    }
    int rc = 0;
    if (PySequence_Fast_GET_SIZE(seq) != 3) {
        PyErr_SetString(PyExc_TypeError, "output_mask must be a sequence of 3 bools");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < 3; i++) {
        int v = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, i));
        if (v < 0) {
            rc = -1;
        }
        mask[i] = v > 0;
    }
    Py_DECREF(seq);
    return rc;
}

/* A tuple of three results: the tensors of grads (stolen), None for NULL ones. */
static PyObject *
mt__nn_triple(mt_tensor *grads[3])
{
    PyObject *tup = PyTuple_New(3);
    if (tup == NULL) {
        mt__impls_release(grads, 3);
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        PyObject *v = grads[i] != NULL ? mt__tensor_wrap(grads[i]) : Py_NewRef(Py_None);
        grads[i] = NULL;
        if (v == NULL) {
            for (int k = i + 1; k < 3; k++) {
                mt_tensor_decref(grads[k]);
            }
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, v);
    }
    return tup;
}

/* One argument of an N-d convolution (nsp spatial dims): an int or a
 * sequence of 1 or nsp ints (torch's message otherwise).  0 or -1. */
static int
mt__nn_conv_arg(PyObject *o, int nsp, int64_t out[MT_CONV_MAX_SPATIAL], int64_t dflt,
                const char *what)
{
    int64_t v[MT_MAX_DIMS];
    if (o == NULL || o == Py_None) {
        for (int i = 0; i < nsp; i++) {
            out[i] = dflt;
        }
        return 0;
    }
    int n = mt__nn_ints(o, v, "convolution", what);
    if (n < 0) {
        return -1;
    }
    if (n != 1 && n != nsp) {
        char buf[256];
        PyErr_Format(PyExc_RuntimeError,
                     "expected %s to be a single integer value or a list of %d values to match the "
                     "convolution dimensions, but got %s=%s",
                     what, nsp, what, mt_format_sizes(buf, sizeof(buf), n, v));
        return -1;
    }
    for (int i = 0; i < nsp; i++) {
        out[i] = v[n == 1 ? 0 : i];
    }
    return 0;
}

/* The arguments stride, padding, dilation, transposed, output_padding,
 * groups (a[0..5]) of a convolution whose weight has `wdim` dims.  0 or -1. */
static int
mt__nn_conv_nd_params(PyObject **a, int wdim, mt_conv_params *p)
{
    if (wdim < 3 || wdim > MT_CONV_MAX_SPATIAL + 2) {
        PyErr_Format(PyExc_RuntimeError, "convolution: expected a weight of 3, 4 or 5 dimensions "
                     "(1 to 3 spatial ones), but got %d dimensions", wdim);
        return -1;
    }
    *p = (mt_conv_params){.nsp = wdim - 2, .groups = 1};
    int tr = a[3] == NULL ? 0 : PyObject_IsTrue(a[3]);
    if (tr < 0) {
        return -1;
    }
    p->transposed = tr > 0;
    if (mt__nn_conv_arg(a[0], p->nsp, p->stride, 1, "stride") < 0 ||
        mt__nn_conv_arg(a[1], p->nsp, p->padding, 0, "padding") < 0 ||
        mt__nn_conv_arg(a[2], p->nsp, p->dilation, 1, "dilation") < 0 ||
        mt__nn_conv_arg(a[4], p->nsp, p->output_padding, 0, "output_padding") < 0) {
        return -1;
    }
    if (a[5] != NULL && a[5] != Py_None &&
        mt__int64_from_py(a[5], &p->groups, "convolution", "groups") < 0) {
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(mt_convolution_doc,
"_convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,\n"
"             groups) -> Tensor\n\n"
"The convolution kernel over 1 to 3 spatial dims (the weight's rank says how many): input\n"
"(N, C_in, *spatial) or unbatched; plain or transposed (Note [Transposed convolution]).");

static PyObject *
mt_py_convolution(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("_convolution", 2, "input", "weight", "bias", "stride", "padding", "dilation",
          "transposed", "output_padding", "groups");
    mt_tensor *t[3] = {NULL, NULL, NULL}, *r = NULL;
    if (mt__nn_tensor(a[0], &t[0], false, "_convolution", "input") < 0 ||
        mt__nn_tensor(a[1], &t[1], false, "_convolution", "weight") < 0 ||
        mt__nn_tensor(a[2], &t[2], true, "_convolution", "bias") < 0) {
        mt__impls_release(t, 3);
        return NULL;
    }
    mt_conv_params p;
    if (mt__nn_conv_nd_params(a + 3, t[1]->ndim, &p) < 0) {
        mt__impls_release(t, 3);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_convolution(t[0], t[1], t[2], &p);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 3);
    return mt__tensor_wrap(r);
}

PyDoc_STRVAR(mt_convolution_backward_doc,
"_convolution_backward(grad_output, input, weight, stride, padding, dilation, transposed,\n"
"                      output_padding, groups, output_mask=(True, True, True))\n"
"    -> (grad_input, grad_weight, grad_bias)\n\n"
"Gradients of _convolution; None for each one output_mask does not ask for.");

static PyObject *
mt_py_convolution_backward(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    PARSE("_convolution_backward", 3, "grad_output", "input", "weight", "stride", "padding",
          "dilation", "transposed", "output_padding", "groups", "output_mask");
    bool mask[3];
    if (mt__nn_mask(a[9], mask) < 0) {
        return NULL;
    }
    mt_tensor *t[3] = {NULL, NULL, NULL}, *grads[3] = {NULL, NULL, NULL};
    if (mt__nn_tensor(a[0], &t[0], false, "_convolution_backward", "grad_output") < 0 ||
        mt__nn_tensor(a[1], &t[1], false, "_convolution_backward", "input") < 0 ||
        mt__nn_tensor(a[2], &t[2], false, "_convolution_backward", "weight") < 0) {
        mt__impls_release(t, 3);
        return NULL;
    }
    mt_conv_params p;
    if (mt__nn_conv_nd_params(a + 3, t[2]->ndim, &p) < 0) {
        mt__impls_release(t, 3);
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_convolution_backward(t[0], t[1], t[2], &p, mask, grads);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 3);
    if (rc < 0) {
        return mt__raise(rc);
    }
    return mt__nn_triple(grads);
}

/* ---- pooling (2-D and 3-D: one binding each, over the N-d core of aten_lite/pool.c) ---------- */

/* "two" or "three" in torch's messages */
static const char *
mt__nn_count_word(int nsp)
{
    return nsp == 2 ? "two" : "three";
}

/* One argument of an nsp-d pooling: an int or a sequence of 1 or nsp ints; `dflt` (stride: the
 * kernel) for None or, when none_ok, an empty sequence; otherwise torch's message
 * "fname: what msg".  0 or -1. */
static int
mt__nn_pool_arg(PyObject *o, int nsp, int64_t *out, const int64_t *dflt, bool none_ok,
                const char *fname, const char *what, const char *msg)
{
    int64_t v[MT_MAX_DIMS];
    if (o == NULL || o == Py_None) {
        if (dflt == NULL) {
            PyErr_Format(PyExc_TypeError, "%s(): missing argument '%s'", fname, what);
            return -1;
        }
        memcpy(out, dflt, (size_t)nsp * sizeof(int64_t));
        return 0;
    }
    int n = mt__nn_ints(o, v, fname, what);
    if (n < 0) {
        return -1;
    }
    if (n == 0 && none_ok) {
        memcpy(out, dflt, (size_t)nsp * sizeof(int64_t));
        return 0;
    }
    if (n != 1 && n != nsp) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s %s %s ints", fname, what, msg,
                     mt__nn_count_word(nsp));
        return -1;
    }
    for (int i = 0; i < nsp; i++) {
        out[i] = v[n == 1 ? 0 : i];
    }
    return 0;
}

/* kernel_size, stride, padding[, dilation], ceil_mode (a[0..]) of an nsp-d max pooling (max)
 * or average pooling, with torch's messages (its 3-D average pooling words them apart).
 * 0 or -1. */
static int
mt__nn_pool_params(PyObject **a, int nsp, bool max, mt_pool_params *p)
{
    static const int64_t zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
    char fname[16];
    snprintf(fname, sizeof(fname), "%s_pool%dd", max ? "max" : "avg", nsp);
    bool terse = !max && nsp == 3;
    *p = (mt_pool_params){.nsp = nsp};
    if (mt__nn_pool_arg(a[0], nsp, p->kernel, NULL, false, fname, "kernel_size",
                        terse ? "must be a single int, or a tuple of"
                              : "must either be a single int, or a tuple of") < 0 ||
        mt__nn_pool_arg(a[1], nsp, p->stride, p->kernel, true, fname, "stride",
                        terse ? "must be omitted, a single int, or a tuple of"
                              : "must either be omitted, a single int, or a tuple of") < 0 ||
        mt__nn_pool_arg(a[2], nsp, p->padding, zero, false, fname, "padding",
                        terse ? "must be a single int, or a tuple of"
                              : "must either be a single int, or a tuple of") < 0) {
        return -1;
    }
    if (max && mt__nn_pool_arg(a[3], nsp, p->dilation, one, false, fname, "dilation",
                               "must be either a single int, or a tuple of") < 0) {
        return -1;
    }
    if (!max) {
        memcpy(p->dilation, one, sizeof(one));
    }
    PyObject *ceil = a[max ? 4 : 3];
    int c = ceil == NULL ? 0 : PyObject_IsTrue(ceil);
    if (c < 0) {
        return -1;
    }
    p->ceil_mode = c > 0;
    return 0;
}

/* count_include_pad (default True) and divisor_override (None or a non-zero int) of an nsp-d
 * average pooling. */
static int
mt__nn_avg_extra(PyObject *cip, PyObject *div, int nsp, bool *count_include_pad,
                 int64_t *divisor)
{
    int c = cip == NULL ? 1 : PyObject_IsTrue(cip);
    if (c < 0) {
        return -1;
    }
    *count_include_pad = c > 0;
    *divisor = 0;
    if (div != NULL && div != Py_None) {
        if (mt__int64_from_py(div, divisor, nsp == 2 ? "avg_pool2d" : "avg_pool3d",
                              "divisor_override") < 0) {
            return -1;
        }
        if (*divisor == 0) {
            PyErr_SetString(PyExc_RuntimeError, "divisor must be not zero");
            return -1;
        }
    }
    return 0;
}

/* An adaptive pooling's output_size of nsp values (an int counts for all); msg: torch's message
 * for another count.  0 or -1. */
static int
mt__nn_osize(PyObject *o, int nsp, int64_t *out, const char *fname, const char *msg)
{
    int64_t v[MT_MAX_DIMS];
    int n = mt__nn_ints(o, v, fname, "output_size");
    if (n < 0) {
        return -1;
    }
    if (n != 1 && n != nsp) {
        PyErr_SetString(PyExc_RuntimeError, msg);
        return -1;
    }
    for (int i = 0; i < nsp; i++) {
        out[i] = v[n == 1 ? 0 : i];
    }
    return 0;
}

/* The tensor arguments a[0..n) named names[0..n) into t (references).  0 or -1 (none kept). */
static int
mt__nn_tensors(PyObject **a, int n, const char *const *names, const char *fname,
               mt_tensor **t)
{
    for (int i = 0; i < n; i++) {
        if (mt__nn_tensor(a[i], &t[i], false, fname, names[i]) < 0) {
            mt__impls_release(t, i);
            return -1;
        }
    }
    return 0;
}

static PyObject *
mt__py_max_pool(int nsp, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const char *fname = nsp == 2 ? "_max_pool2d_with_indices" : "_max_pool3d_with_indices";
    PARSE(fname, 2, "input", "kernel_size", "stride", "padding", "dilation", "ceil_mode");
    mt_pool_params p;
    mt_tensor *x = NULL, *v = NULL, *ix = NULL;
    if (mt__nn_pool_params(a + 1, nsp, true, &p) < 0 ||
        mt__nn_tensor(a[0], &x, false, fname, "input") < 0) {
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_max_pool(x, &p, &v, &ix);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(x);
    return mt__values_indices(rc, v, ix);
}

static PyObject *
mt__py_max_pool_backward(int nsp, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const char *fname = nsp == 2 ? "_max_pool2d_backward" : "_max_pool3d_backward";
    PARSE(fname, 4, "grad_output", "input", "indices", "kernel_size", "stride", "padding",
          "dilation", "ceil_mode");
    mt_pool_params p;
    mt_tensor *t[3], *r = NULL;
    if (mt__nn_pool_params(a + 3, nsp, true, &p) < 0 || mt__nn_tensors(a, 3, names, fname, t) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_max_pool_backward(t[0], t[1], t[2], &p);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 3);
    return mt__tensor_wrap(r);
}

static PyObject *
mt__py_avg_pool(int nsp, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const char *fname = nsp == 2 ? "_avg_pool2d" : "_avg_pool3d";
    PARSE(fname, 2, "input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
          "divisor_override");
    mt_pool_params p;
    bool cip;
    int64_t div;
    mt_tensor *x = NULL, *r = NULL;
    if (mt__nn_pool_params(a + 1, nsp, false, &p) < 0 ||
        mt__nn_avg_extra(a[5], a[6], nsp, &cip, &div) < 0 ||
        mt__nn_tensor(a[0], &x, false, fname, "input") < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_avg_pool(x, &p, cip, div);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(x);
    return mt__tensor_wrap(r);
}

static PyObject *
mt__py_avg_pool_backward(int nsp, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const char *fname = nsp == 2 ? "_avg_pool2d_backward" : "_avg_pool3d_backward";
    PARSE(fname, 3, "grad_output", "input", "kernel_size", "stride", "padding", "ceil_mode",
          "count_include_pad", "divisor_override");
    mt_pool_params p;
    bool cip;
    int64_t div;
    mt_tensor *t[2], *r = NULL;
    if (mt__nn_pool_params(a + 2, nsp, false, &p) < 0 ||
        mt__nn_avg_extra(a[6], a[7], nsp, &cip, &div) < 0 ||
        mt__nn_tensors(a, 2, names, fname, t) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_avg_pool_backward(t[0], t[1], &p, cip, div);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 2);
    return mt__tensor_wrap(r);
}

static PyObject *
mt__py_adaptive_avg_pool(int nsp, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const char *fname = nsp == 2 ? "_adaptive_avg_pool2d" : "_adaptive_avg_pool3d";
    PARSE(fname, 2, "input", "output_size");
    int64_t v[3];
    if (mt__nn_osize(a[1], nsp, v, fname + 1,
                     nsp == 2 ? "adaptive_avg_pool2d: output_size must be 2"
                              : "adaptive_avg_pool3d: output_size must be 3") < 0) {
        return NULL;
    }
    mt_tensor *x = NULL, *r = NULL;
    if (mt__nn_tensor(a[0], &x, false, fname, "input") < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_adaptive_avg_pool(x, nsp, v);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(x);
    return mt__tensor_wrap(r);
}

static PyObject *
mt__py_adaptive_avg_pool_backward(int nsp, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames)
{
    const char *fname =
        nsp == 2 ? "_adaptive_avg_pool2d_backward" : "_adaptive_avg_pool3d_backward";
    PARSE(fname, 2, "grad_output", "input");
    mt_tensor *t[2], *r = NULL;
    if (mt__nn_tensors(a, 2, names, fname, t) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_adaptive_avg_pool_backward(t[0], t[1], nsp);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 2);
    return mt__tensor_wrap(r);
}

static PyObject *
mt__py_adaptive_max_pool(int nsp, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const char *fname = nsp == 2 ? "_adaptive_max_pool2d" : "_adaptive_max_pool3d";
    PARSE(fname, 2, "input", "output_size");
    int64_t v[3];
    if (mt__nn_osize(a[1], nsp, v, fname + 1,
                     nsp == 2 ? "adaptive_max_pool2d(): internal error: output_size.size() must be 2"
                              : "adaptive_max_pool3d(): internal error: output_size.size() must be 3")
        < 0) {
        return NULL;
    }
    mt_tensor *x = NULL, *vals = NULL, *ix = NULL;
    if (mt__nn_tensor(a[0], &x, false, fname, "input") < 0) {
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_adaptive_max_pool(x, nsp, v, &vals, &ix);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(x);
    return mt__values_indices(rc, vals, ix);
}

static PyObject *
mt__py_adaptive_max_pool_backward(int nsp, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames)
{
    const char *fname =
        nsp == 2 ? "_adaptive_max_pool2d_backward" : "_adaptive_max_pool3d_backward";
    PARSE(fname, 3, "grad_output", "input", "indices");
    mt_tensor *t[3], *r = NULL;
    if (mt__nn_tensors(a, 3, names, fname, t) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_adaptive_max_pool_backward(t[0], t[1], t[2], nsp);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 3);
    return mt__tensor_wrap(r);
}

/* The 2-D and 3-D entry points of each pooling binding. */
#define MT__NN_POOL_ENTRIES(name)                                                                 \
    static PyObject *mt_py_##name##2d(PyObject *m, PyObject *const *args, Py_ssize_t nargs,      \
                                      PyObject *kwnames)                                          \
    {                                                                                             \
        return mt__py_##name(2, args, nargs, kwnames);                                            \
    }                                                                                             \
    static PyObject *mt_py_##name##3d(PyObject *m, PyObject *const *args, Py_ssize_t nargs,      \
                                      PyObject *kwnames)                                          \
    {                                                                                             \
        return mt__py_##name(3, args, nargs, kwnames);                                            \
    }
MT__NN_POOL_ENTRIES(max_pool)
MT__NN_POOL_ENTRIES(max_pool_backward)
MT__NN_POOL_ENTRIES(avg_pool)
MT__NN_POOL_ENTRIES(avg_pool_backward)
MT__NN_POOL_ENTRIES(adaptive_avg_pool)
MT__NN_POOL_ENTRIES(adaptive_avg_pool_backward)
MT__NN_POOL_ENTRIES(adaptive_max_pool)
MT__NN_POOL_ENTRIES(adaptive_max_pool_backward)

/* ---- upsampling ------------------------------------------------------------------------------ */

/* output_size, mode, align_corners, scales, antialias (a[0..4]) of a
 * resampling into p.  0 or -1. */
static int
mt__nn_upsample_params(PyObject **a, mt_upsample_params *p)
{
    int64_t v[MT_MAX_DIMS];
    *p = (mt_upsample_params){0};
    int n = a[0] == NULL ? -1 : mt__sizes_from_seq(a[0], v, "_upsample", "output_size");
    if (n < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "_upsample(): output_size must be a sequence of ints");
        }
        return -1;
    }
    if (n < 1 || n > MT_UPSAMPLE_MAX_SPATIAL) {
        PyErr_Format(PyExc_RuntimeError, "_upsample(): output_size must have 1 to 3 values, but "
                     "got %d", n);
        return -1;
    }
    p->nsp = n;
    memcpy(p->out, v, sizeof(int64_t) * (size_t)n);
    const char *mode = a[1] != NULL && PyUnicode_Check(a[1]) ? PyUnicode_AsUTF8(a[1]) : NULL;
    if (mode == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "_upsample(): mode must be a str");
        }
        return -1;
    }
    static const struct {
        const char *name;
        mt_upsample_mode mode;
    } modes[] = {
        {"nearest", MT_UPSAMPLE_NEAREST}, {"nearest-exact", MT_UPSAMPLE_NEAREST_EXACT},
        {"linear", MT_UPSAMPLE_LINEAR},   {"bilinear", MT_UPSAMPLE_LINEAR},
        {"trilinear", MT_UPSAMPLE_LINEAR}, {"bicubic", MT_UPSAMPLE_CUBIC},
        {"lanczos", MT_UPSAMPLE_LANCZOS},
    };
    size_t i = 0;
    while (i < sizeof(modes) / sizeof(modes[0]) && strcmp(modes[i].name, mode) != 0) {
        i++;
    }
    if (i == sizeof(modes) / sizeof(modes[0])) {
        PyErr_Format(PyExc_ValueError, "_upsample(): unknown mode '%s'", mode);
        return -1;
    }
    p->mode = modes[i].mode;
    int ac = a[2] == NULL ? 0 : PyObject_IsTrue(a[2]);
    int aa = a[4] == NULL ? 0 : PyObject_IsTrue(a[4]);
    if (ac < 0 || aa < 0) {
        return -1;
    }
    p->align_corners = ac > 0;
    p->antialias = aa > 0;
    if (a[3] != NULL && a[3] != Py_None) {
        PyObject *seq = PySequence_Fast(a[3], "_upsample(): scales must be a sequence");
        if (seq == NULL) {
            return -1;
        }
        int rc = 0;
        if (PySequence_Fast_GET_SIZE(seq) != n) {
            PyErr_Format(PyExc_RuntimeError, "_upsample(): %d scales for %d spatial dims",
                         (int)PySequence_Fast_GET_SIZE(seq), n);
            rc = -1;
        }
        for (int k = 0; rc == 0 && k < n; k++) {
            PyObject *o = PySequence_Fast_GET_ITEM(seq, k);
            if (o == Py_None) {
                continue;
            }
            double d = PyFloat_AsDouble(o);
            if (d == -1.0 && PyErr_Occurred()) {
                rc = -1;
            }
            p->scales[k] = d;
        }
        Py_DECREF(seq);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(mt_upsample_doc,
"_upsample(input, output_size, mode, align_corners=False, scales=None, antialias=False)\n"
"    -> Tensor\n\n"
"Resamples the last len(output_size) dims of an (N, C, *spatial) input (Note [Separable\n"
"resampling]); mode: nearest, nearest-exact, linear, bilinear, trilinear, bicubic, lanczos;\n"
"scales: the user's scale factors (None entries: from the sizes).");

static PyObject *
mt_py_upsample(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("_upsample", 3, "input", "output_size", "mode", "align_corners", "scales", "antialias");
    mt_upsample_params p;
    mt_tensor *x = NULL, *r = NULL;
    if (mt__nn_upsample_params(a + 1, &p) < 0 ||
        mt__nn_tensor(a[0], &x, false, "_upsample", "input") < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_upsample(x, &p);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(x);
    return mt__tensor_wrap(r);
}

PyDoc_STRVAR(mt_upsample_backward_doc,
"_upsample_backward(grad_output, input_size, output_size, mode, align_corners=False,\n"
"                   scales=None, antialias=False) -> Tensor\n\n"
"The gradient of _upsample for an input of input_size: the transposed resampling.");

static PyObject *
mt_py_upsample_backward(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE("_upsample_backward", 4, "grad_output", "input_size", "output_size", "mode",
          "align_corners", "scales", "antialias");
    mt_upsample_params p;
    int64_t in[MT_MAX_DIMS];
    mt_tensor *g = NULL, *r = NULL;
    int nin = mt__sizes_from_seq(a[1], in, "_upsample_backward", "input_size");
    if (nin < 0 || mt__nn_upsample_params(a + 2, &p) < 0) {
        return NULL;
    }
    for (int i = 0; i < nin; i++) {
        if (in[i] < 0) {
            PyErr_SetString(PyExc_RuntimeError, "_upsample_backward(): negative input size");
            return NULL;
        }
    }
    if (mt__nn_tensor(a[0], &g, false, "_upsample_backward", "grad_output") < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_upsample_backward(g, nin, in, &p);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(g);
    return mt__tensor_wrap(r);
}

/* _softmax_lastdim(x, log): softmax (log_softmax when log) of a contiguous float32/float64
 * tensor along its last dimension (Note [Fused softmax]); NotImplemented for other inputs,
 * which minitorch._softmax computes op by op. */
static PyObject *
mt_py_softmax_lastdim(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "_softmax_lastdim() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    int log = PyObject_IsTrue(args[1]);
    if (log < 0) {
        return NULL;
    }
    if (!mt__tensor_check(args[0])) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    mt_tensor *x = mt__tensor_impl_ref(args[0]), *r;
    Py_BEGIN_ALLOW_THREADS
    r = mt_softmax_lastdim(x, log != 0);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(x);
    if (r == NULL) {
        if (mt_error_code() == MT_EINVAL) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        return mt__raise(0);
    }
    return mt__tensor_wrap(r);
}

/* _layer_norm(input, nd, weight, bias, eps) -> (out, mean, rstd): layer normalisation over the
 * last nd dims of a contiguous float32/float64 tensor in one pass per row (Note [Fused layer
 * norm]); NotImplemented for other operands, which nn._ops.layer_norm computes op by op. */
static PyObject *
mt_py_layer_norm(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "_layer_norm() takes 5 arguments (%zd given)", nargs);
        return NULL;
    }
    int64_t nd;
    double eps = PyFloat_AsDouble(args[4]);
    if ((eps == -1.0 && PyErr_Occurred()) ||
        mt__int64_from_py(args[1], &nd, "_layer_norm", "nd") < 0) {
        return NULL;
    }
    if (!mt__tensor_check(args[0]) || (args[2] != Py_None && !mt__tensor_check(args[2])) ||
        (args[3] != Py_None && !mt__tensor_check(args[3])) || nd < 1 || nd > MT_MAX_DIMS) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    mt_tensor *x = mt__tensor_impl_ref(args[0]);
    mt_tensor *w = args[2] != Py_None ? mt__tensor_impl_ref(args[2]) : NULL;
    mt_tensor *b = args[3] != Py_None ? mt__tensor_impl_ref(args[3]) : NULL;
    mt_tensor *r[3] = {NULL, NULL, NULL};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_layer_norm(x, (int)nd, w, b, eps, &r[0], &r[1], &r[2]);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(x);
    mt_tensor_decref(w);
    mt_tensor_decref(b);
    if (rc < 0) {
        if (rc == MT_EINVAL) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        return mt__raise(rc);
    }
    return mt__nn_triple(r);
}

static PyMethodDef mt_nn_functions[] = {
    {"_softmax_lastdim", (PyCFunction)(void (*)(void))mt_py_softmax_lastdim, METH_FASTCALL,
     "softmax or log_softmax along the last dimension in one pass per row"},
    {"_layer_norm", (PyCFunction)(void (*)(void))mt_py_layer_norm, METH_FASTCALL,
     "layer normalisation over the last nd dims in one pass per row: (out, mean, rstd)"},
    {"_convolution", FASTKW(mt_py_convolution), mt_convolution_doc},
    {"_convolution_backward", FASTKW(mt_py_convolution_backward), mt_convolution_backward_doc},
    {"_max_pool2d_with_indices", FASTKW(mt_py_max_pool2d),
     "_max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, "
     "ceil_mode=False) -> (values, indices): max pooling over (N, C, *spatial) or (C, "
     "*spatial); indices are flat positions within each plane."},
    {"_max_pool2d_backward", FASTKW(mt_py_max_pool_backward2d),
     "_max_pool2d_backward(grad_output, input, indices, kernel_size, stride=None, padding=0, "
     "dilation=1, ceil_mode=False) -> Tensor: grad_output added at the forward's indices."},
    {"_avg_pool2d", FASTKW(mt_py_avg_pool2d),
     "_avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, "
     "count_include_pad=True, divisor_override=None) -> Tensor"},
    {"_avg_pool2d_backward", FASTKW(mt_py_avg_pool_backward2d),
     "_avg_pool2d_backward(grad_output, input, kernel_size, stride=None, padding=0, "
     "ceil_mode=False, count_include_pad=True, divisor_override=None) -> Tensor"},
    {"_adaptive_avg_pool2d", FASTKW(mt_py_adaptive_avg_pool2d),
     "_adaptive_avg_pool2d(input, output_size) -> Tensor"},
    {"_adaptive_avg_pool2d_backward", FASTKW(mt_py_adaptive_avg_pool_backward2d),
     "_adaptive_avg_pool2d_backward(grad_output, input) -> Tensor"},
    {"_adaptive_max_pool2d", FASTKW(mt_py_adaptive_max_pool2d),
     "_adaptive_max_pool2d(input, output_size) -> (values, indices)"},
    {"_adaptive_max_pool2d_backward", FASTKW(mt_py_adaptive_max_pool_backward2d),
     "_adaptive_max_pool2d_backward(grad_output, input, indices) -> Tensor"},
    {"_max_pool3d_with_indices", FASTKW(mt_py_max_pool3d),
     "_max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, "
     "ceil_mode=False) -> (values, indices): max pooling over (N, C, *spatial) or (C, "
     "*spatial); indices are flat positions within each plane."},
    {"_max_pool3d_backward", FASTKW(mt_py_max_pool_backward3d),
     "_max_pool3d_backward(grad_output, input, indices, kernel_size, stride=None, padding=0, "
     "dilation=1, ceil_mode=False) -> Tensor: grad_output added at the forward's indices."},
    {"_avg_pool3d", FASTKW(mt_py_avg_pool3d),
     "_avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, "
     "count_include_pad=True, divisor_override=None) -> Tensor"},
    {"_avg_pool3d_backward", FASTKW(mt_py_avg_pool_backward3d),
     "_avg_pool3d_backward(grad_output, input, kernel_size, stride=None, padding=0, "
     "ceil_mode=False, count_include_pad=True, divisor_override=None) -> Tensor"},
    {"_adaptive_avg_pool3d", FASTKW(mt_py_adaptive_avg_pool3d),
     "_adaptive_avg_pool3d(input, output_size) -> Tensor"},
    {"_adaptive_avg_pool3d_backward", FASTKW(mt_py_adaptive_avg_pool_backward3d),
     "_adaptive_avg_pool3d_backward(grad_output, input) -> Tensor"},
    {"_adaptive_max_pool3d", FASTKW(mt_py_adaptive_max_pool3d),
     "_adaptive_max_pool3d(input, output_size) -> (values, indices)"},
    {"_adaptive_max_pool3d_backward", FASTKW(mt_py_adaptive_max_pool_backward3d),
     "_adaptive_max_pool3d_backward(grad_output, input, indices) -> Tensor"},
    {"_upsample", FASTKW(mt_py_upsample), mt_upsample_doc},
    {"_upsample_backward", FASTKW(mt_py_upsample_backward), mt_upsample_backward_doc},
    {NULL},
};

int
mt__nn_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_nn_functions);
}
