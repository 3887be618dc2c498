/* csrc/rnn_binding.c - the fused LSTM layer (Note [Fused LSTM]) as a minitorch._C function (the
 * forward of nn/_rnn_ops.py's lstm_layer op; its derivative is the op table's). */
#include "csrc/common.h"

#include "aten_lite/rnn.h"

/* _lstm_forward(x, batch_sizes, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr, reverse)
 *   -> (out, h_n, c_n, gates, cells, hpre or None) */
static PyObject *
mt_py_lstm_forward(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10) {
        PyErr_Format(PyExc_TypeError, "_lstm_forward() takes 10 arguments (%zd given)", nargs);
        return NULL;
    }
    int idx[] = {0, 2, 3, 4, 5, 6, 7, 8};
    for (int i = 0; i < 8; i++) {
        PyObject *o = args[idx[i]];
        if (!mt__tensor_check(o) && !(i >= 5 && o == Py_None)) {
            PyErr_Format(PyExc_TypeError, "_lstm_forward(): argument %d must be a Tensor",
                         idx[i] + 1);
            return NULL;
        }
    }
    PyObject *seq = PySequence_Fast(args[1], "_lstm_forward(): batch_sizes must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t steps = PySequence_Fast_GET_SIZE(seq);
    int64_t *bs = PyMem_Malloc((size_t)(steps > 0 ? steps : 1) * sizeof(int64_t));
    if (bs == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t t = 0; t < steps; t++) {
        if (mt__int64_from_py(PySequence_Fast_GET_ITEM(seq, t), &bs[t], "_lstm_forward",
                              "batch_sizes") < 0) {
            Py_DECREF(seq);
            PyMem_Free(bs);
            return NULL;
        }
    }
    Py_DECREF(seq);
    int reverse = PyObject_IsTrue(args[9]);
    if (reverse < 0 || steps == 0) {
        PyMem_Free(bs);
        if (steps == 0) {
            PyErr_SetString(PyExc_RuntimeError, "Expected sequence length to be larger than 0 in RNN");
        }
        return NULL;
    }
    mt_tensor *t[8] = {NULL};
    for (int i = 0; i < 8; i++) {
        t[i] = args[idx[i]] == Py_None ? NULL : mt__tensor_impl_ref(args[idx[i]]);
    }
    mt_lstm_args a = {.x = t[0], .batch_sizes = bs, .steps = steps, .h0 = t[1], .c0 = t[2],
                      .w_ih = t[3], .w_hh = t[4], .b_ih = t[5], .b_hh = t[6], .w_hr = t[7],
                      .reverse = reverse != 0};
    mt_tensor *r[6] = {NULL};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_lstm_forward(&a, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5]);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 8);
    PyMem_Free(bs);
    if (rc < 0) {
        return mt__raise(rc);
    }
    PyObject *tuple = PyTuple_New(6);
    for (int i = 0; i < 6; i++) {
        PyObject *o = r[i] != NULL ? mt__tensor_wrap(r[i]) : Py_NewRef(Py_None);
        if (o == NULL || tuple == NULL) {
            Py_XDECREF(o);
            for (int k = i + 1; k < 6; k++) {
                mt_tensor_decref(r[k]);
            }
            Py_XDECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, o);
    }
    return tuple;
}

static PyMethodDef mt_rnn_functions[] = {
    {"_lstm_forward", (PyCFunction)(void (*)(void))mt_py_lstm_forward, METH_FASTCALL,
     "_lstm_forward(x, batch_sizes, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr, reverse) -> (out, h_n, c_n, "
     "gates, cells, hpre): one LSTM layer and direction over every step (Note [Fused LSTM])."},
    {NULL},
};

int
mt__rnn_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_rnn_functions);
}
