/* csrc/attention_binding.c - the fused attention kernels (Note [Fused attention]) for minitorch._attention. */
#include "csrc/common.h"

#include "aten_lite/attention.h"

/* Note [Private attention kernels]
 * _sdpa_flash_forward and _sdpa_flash_backward are the kernels behind the op
 * minitorch._scaled_dot_product_flash_attention_for_cpu (minitorch/_attention.py, which
 * arranges the operands: broadcast batch dims, the mask expanded to (batch..., L, S)) and
 * its derivative formula.  They still check every argument, so that calling them with
 * anything raises instead of reading out of bounds. */

/* Parses (q, k, v, mask, is_causal, scale[, extra...]) into the kernel's arguments, with
 * references to the impls in held[0..4) (release with mt__impls_release).  0 or -1. */
static int
mt__sdpa_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want,
               mt_sdpa_args *a, mt_tensor *held[4])
{
    memset(held, 0, 4 * sizeof(mt_tensor *));
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", fname, want, nargs);
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        if (i == 3 && args[i] == Py_None) {
            continue;
        }
        if (!mt__tensor_check(args[i])) {
            PyErr_Format(PyExc_TypeError, "%s(): argument %d must be Tensor, not %s", fname, i + 1,
                         Py_TYPE(args[i])->tp_name);
            mt__impls_release(held, 4);
            return -1;
        }
        held[i] = mt__tensor_impl_ref(args[i]);
    }
    int causal = PyObject_IsTrue(args[4]);
    double scale = PyFloat_AsDouble(args[5]);
    if (causal < 0 || (scale == -1.0 && PyErr_Occurred())) {
        mt__impls_release(held, 4);
        return -1;
    }
    *a = (mt_sdpa_args){.q = held[0], .k = held[1], .v = held[2], .mask = held[3],
                        .causal = causal != 0, .scale = scale};
    return 0;
}

/* _sdpa_flash_forward(q, k, v, mask, is_causal, scale) -> (out, logsumexp) */
static PyObject *
mt_py_sdpa_flash_forward(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    mt_sdpa_args a;
    mt_tensor *held[4], *out = NULL, *lse = NULL;
    if (mt__sdpa_parse("_sdpa_flash_forward", args, nargs, 6, &a, held) < 0) {
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_sdpa_forward(&a, &out, &lse);
    Py_END_ALLOW_THREADS
    mt__impls_release(held, 4);
    if (rc < 0) {
        return mt__raise(rc);
    }
    PyObject *o = mt__tensor_wrap(out);
    PyObject *l = mt__tensor_wrap(lse);
    if (o == NULL || l == NULL) {
        Py_XDECREF(o);
        Py_XDECREF(l);
        return NULL;
    }
    return Py_BuildValue("(NN)", o, l);
}

/* _sdpa_flash_backward(q, k, v, mask, is_causal, scale, out, logsumexp, grad_out)
 *   -> (grad_q, grad_k, grad_v) */
static PyObject *
mt_py_sdpa_flash_backward(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    mt_sdpa_args a;
    mt_tensor *held[4], *saved[3] = {NULL, NULL, NULL}, *g[3] = {NULL, NULL, NULL};
    if (mt__sdpa_parse("_sdpa_flash_backward", args, nargs, 9, &a, held) < 0) {
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        if (!mt__tensor_check(args[6 + i])) {
            PyErr_Format(PyExc_TypeError, "_sdpa_flash_backward(): argument %d must be Tensor, not %s",
                         7 + i, Py_TYPE(args[6 + i])->tp_name);
            mt__impls_release(held, 4);
            mt__impls_release(saved, 3);
            return NULL;
        }
        saved[i] = mt__tensor_impl_ref(args[6 + i]);
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_sdpa_backward(&a, saved[0], saved[1], saved[2], &g[0], &g[1], &g[2]);
    Py_END_ALLOW_THREADS
    mt__impls_release(held, 4);
    mt__impls_release(saved, 3);
    if (rc < 0) {
        return mt__raise(rc);
    }
    PyObject *r[3];
    for (int i = 0; i < 3; i++) {
        r[i] = mt__tensor_wrap(g[i]);
    }
    if (r[0] == NULL || r[1] == NULL || r[2] == NULL) {
        Py_XDECREF(r[0]);
        Py_XDECREF(r[1]);
        Py_XDECREF(r[2]);
        return NULL;
    }
    return Py_BuildValue("(NNN)", r[0], r[1], r[2]);
}

static PyMethodDef mt_attention_functions[] = {
    {"_sdpa_flash_forward", (PyCFunction)(void (*)(void))mt_py_sdpa_flash_forward, METH_FASTCALL,
     "_sdpa_flash_forward(q, k, v, mask, is_causal, scale) -> (out, logsumexp): fused "
     "attention (see Note [Fused attention])"},
    {"_sdpa_flash_backward", (PyCFunction)(void (*)(void))mt_py_sdpa_flash_backward,
     METH_FASTCALL,
     "_sdpa_flash_backward(q, k, v, mask, is_causal, scale, out, logsumexp, grad_out) -> "
     "(grad_q, grad_k, grad_v)"},
    {NULL},
};

int
mt__attention_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_attention_functions);
}
