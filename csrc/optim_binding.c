/* csrc/optim_binding.c - fused optimizer steps for minitorch.optim (minitorch._C._adam_step_). */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"
#include "aten_lite/optim.h"

/* The tensor argument i of fname, or NULL with TypeError. */
static mt_tensor *
mt__optim_tensor(PyObject *o, const char *what)
{
    if (!mt__tensor_check(o)) {
        PyErr_Format(PyExc_TypeError, "_adam_step_(): %s must be a Tensor, not %s", what,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    return mt__tensor_impl(o);
}

/* _adam_step_(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq or None, beta1, beta2, lr,
 *             weight_decay, eps, step_size, bc2_sqrt, maximize, decoupled)
 * One Adam/AdamW step of one parameter in one pass (Note [Fused Adam]); the optimizer has
 * counted the step and computed step_size and bc2_sqrt.  Returns None. */
static PyObject *
mt_py_adam_step_(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 14) {
        PyErr_Format(PyExc_TypeError, "_adam_step_() takes 14 arguments (%zd given)", nargs);
        return NULL;
    }
    static const char *const what[] = {"param", "grad", "exp_avg", "exp_avg_sq",
                                       "max_exp_avg_sq"};
    mt_tensor *t[5] = {NULL};
    for (int i = 0; i < 5; i++) {
        if (i == 4 && args[i] == Py_None) {
            continue;
        }
        if ((t[i] = mt__optim_tensor(args[i], what[i])) == NULL) {
            return NULL;
        }
    }
    double v[7];
    for (int i = 0; i < 7; i++) {
        v[i] = PyFloat_AsDouble(args[5 + i]);
        if (v[i] == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
    }
    int maximize = PyObject_IsTrue(args[12]), decoupled = PyObject_IsTrue(args[13]);
    if (maximize < 0 || decoupled < 0) {
        return NULL;
    }
    mt_adam_hyper h = {
        .beta1 = v[0], .beta2 = v[1], .lr = v[2], .weight_decay = v[3], .eps = v[4],
        .step_size = v[5], .bc2_sqrt = v[6], .maximize = maximize != 0,
        .decoupled = decoupled != 0, .amsgrad = t[4] != NULL,
    };
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_adam_step_(t[0], t[1], t[2], t[3], t[4], &h);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return mt__raise(rc);
    }
    for (int i = 0; i < 5; i++) { /* written in place */
        if (i != 1 && t[i] != NULL && mt__bump_version(args[i]) < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef mt_optim_functions[] = {
    {"_adam_step_", (PyCFunction)(void (*)(void))mt_py_adam_step_, METH_FASTCALL,
     "One Adam/AdamW step of one parameter in one pass."},
    {NULL},
};

int
mt__optim_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_optim_functions);
}
