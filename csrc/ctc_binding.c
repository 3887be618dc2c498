/* csrc/ctc_binding.c - the CTC loss kernels (aten_lite/ctc.c) as private minitorch._C functions. */
#include "csrc/common.h"

#include "aten_lite/ctc.h"

#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS

/* The tensor arguments a[0..n) as referenced impls into t (see Note [Impls across Python
 * code and the GIL]); TypeError naming the argument when one is not a tensor.  0 or -1
 * (then t holds nothing). */
static int
mt__ctc_tensors(PyObject **a, const char *const *names, int n, mt_tensor **t, const char *fname)
{
    for (int i = 0; i < n; i++) {
        t[i] = NULL;
    }
    for (int i = 0; i < n; i++) {
        if (a[i] == NULL || !mt__tensor_check(a[i])) {
            PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor, not %s", fname,
                         names[i], a[i] == NULL ? "nothing" : Py_TYPE(a[i])->tp_name);
            mt__impls_release(t, n);
            return -1;
        }
        t[i] = mt__tensor_impl_ref(a[i]);
    }
    return 0;
}

PyDoc_STRVAR(mt_ctc_loss_doc,
"_ctc_loss_kernel(log_probs, targets, input_lengths, target_lengths, blank) -> (nll, log_alpha)\n\n"
"The CTC loss of each item and the log alphas of its recursion (aten_lite/ctc.h); the\n"
"targets and lengths are int64 tensors.");

static PyObject *
mt_py_ctc_loss(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"log_probs", "targets", "input_lengths",
                                        "target_lengths", "blank", NULL};
    PyObject *a[5];
    if (mt__parse_args("_ctc_loss_kernel", args, nargs, kwnames, names, 5, 5, a) < 0) {
        return NULL;
    }
    int64_t blank;
    if (mt__int64_from_py(a[4], &blank, "_ctc_loss_kernel", "blank") < 0) {
        return NULL;
    }
    mt_tensor *t[4], *nll = NULL, *alpha = NULL;
    if (mt__ctc_tensors(a, names, 4, t, "_ctc_loss_kernel") < 0) {
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_ctc_loss(t[0], t[1], t[2], t[3], blank, &nll, &alpha);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 4);
    if (rc < 0) {
        return mt__raise(rc);
    }
    PyObject *pn = mt__tensor_wrap(nll);
    PyObject *pa = pn ? mt__tensor_wrap(alpha) : NULL;
    if (pa == NULL) {
        if (pn == NULL) {
            mt_tensor_decref(alpha);
        }
        Py_XDECREF(pn);
        return NULL;
    }
    return Py_BuildValue("(NN)", pn, pa);
}

PyDoc_STRVAR(mt_ctc_loss_backward_doc,
"_ctc_loss_backward_kernel(grad, log_probs, targets, input_lengths, target_lengths,\n"
"                   neg_log_likelihood, log_alpha, blank, zero_infinity) -> Tensor\n\n"
"The gradient of grad . nll with respect to log_probs, in torch's form (aten_lite/ctc.h).");

static PyObject *
mt_py_ctc_loss_backward(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"grad", "log_probs", "targets", "input_lengths",
                                        "target_lengths", "neg_log_likelihood", "log_alpha",
                                        "blank", "zero_infinity", NULL};
    PyObject *a[9];
    if (mt__parse_args("_ctc_loss_backward_kernel", args, nargs, kwnames, names, 9, 9, a) < 0) {
        return NULL;
    }
    int64_t blank;
    if (mt__int64_from_py(a[7], &blank, "_ctc_loss_backward_kernel", "blank") < 0) {
        return NULL;
    }
    int zero_infinity = PyObject_IsTrue(a[8]);
    if (zero_infinity < 0) {
        return NULL;
    }
    mt_tensor *t[7], *r;
    if (mt__ctc_tensors(a, names, 7, t, "_ctc_loss_backward_kernel") < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_ctc_loss_backward(t[0], t[1], t[2], t[3], t[4], t[5], t[6], blank, zero_infinity != 0);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 7);
    return mt__tensor_wrap(r);
}

static PyMethodDef mt_ctc_functions[] = {
    {"_ctc_loss_kernel", FASTKW(mt_py_ctc_loss), mt_ctc_loss_doc},
    {"_ctc_loss_backward_kernel", FASTKW(mt_py_ctc_loss_backward), mt_ctc_loss_backward_doc},
    {NULL},
};

int
mt__ctc_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_ctc_functions);
}
