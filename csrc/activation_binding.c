/* csrc/activation_binding.c - the fused activation kernels as minitorch._C functions (the
 * forward implementations of nn/_ops.py; their derivatives are the op table's). */
#include "csrc/common.h"

#include "aten_lite/ops.h"

/* Kernels on fewer elements than this run without releasing the GIL. */
#define MT__GIL_THRESHOLD 32768

/* _gelu(input, tanh): GELU in one pass (the tanh approximation when tanh is true). */
static PyObject *
mt_py_gelu(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !mt__tensor_check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "_gelu(input, tanh): input must be a Tensor");
        return NULL;
    }
    int tanh = PyObject_IsTrue(args[1]);
    if (tanh < 0) {
        return NULL;
    }
    mt_tensor *x = mt__tensor_impl_ref(args[0]), *r;
    mt_op op = tanh ? MT_OP_GELU_TANH : MT_OP_GELU;
    if (x->numel >= MT__GIL_THRESHOLD) {
        Py_BEGIN_ALLOW_THREADS
        r = mt_unary(op, x, NULL);
        Py_END_ALLOW_THREADS
    }
    else {
        r = mt_unary(op, x, NULL);
    }
    mt_tensor_decref(x);
    return r != NULL ? mt__tensor_wrap(r) : mt__raise(0);
}

/* _leaky_relu(input, negative_slope): input where input > 0, else negative_slope * input, in
 * one pass (floating dtypes). */
static PyObject *
mt_py_leaky_relu(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !mt__tensor_check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "_leaky_relu(input, negative_slope): input must be a "
                        "Tensor");
        return NULL;
    }
    double slope = PyFloat_AsDouble(args[1]);
    if (slope == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    mt_tensor *x = mt__tensor_impl_ref(args[0]), *r;
    if (x->numel >= MT__GIL_THRESHOLD) {
        Py_BEGIN_ALLOW_THREADS
        r = mt_binary(MT_OP_LEAKY_SCALE, mt_arg_tensor(x), mt_arg_tensor(x), NULL,
                      mt_scalar_float(slope));
        Py_END_ALLOW_THREADS
    }
    else {
        r = mt_binary(MT_OP_LEAKY_SCALE, mt_arg_tensor(x), mt_arg_tensor(x), NULL,
                      mt_scalar_float(slope));
    }
    mt_tensor_decref(x);
    return r != NULL ? mt__tensor_wrap(r) : mt__raise(0);
}

static PyMethodDef mt_activation_functions[] = {
    {"_leaky_relu", (PyCFunction)(void (*)(void))mt_py_leaky_relu, METH_FASTCALL,
     "_leaky_relu(input, negative_slope) -> Tensor: leaky ReLU in one pass."},
    {"_gelu", (PyCFunction)(void (*)(void))mt_py_gelu, METH_FASTCALL,
     "_gelu(input, tanh) -> Tensor: x * Phi(x) in one pass (tanh: the tanh approximation)."},
    {NULL},
};

int
mt__activation_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_activation_functions);
}
