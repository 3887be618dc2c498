/* csrc/errors.c - the one translator from C status codes to Python exceptions. */
#include "csrc/common.h"

/* minitorch.OutOfMemoryError (torch.OutOfMemoryError, also torch.cuda.OutOfMemoryError): what
 * a failed allocation raises; a RuntimeError as torch's, and a MemoryError as Python's.
 * Owned by the module, made once at import (mt__errors_init). */
PyObject *mt__OutOfMemoryError = NULL;

PyObject *
mt__raise(int code)
{
    if (code == 0) {
        code = mt_error_code();
    }
    PyObject *type;
    switch (code) {
    case MT_EINVAL:
        type = PyExc_ValueError;
        break;
    case MT_ETYPE:
        type = PyExc_TypeError;
        break;
    case MT_EINDEX:
        type = PyExc_IndexError;
        break;
    case MT_ENOMEM:
        type = mt__OutOfMemoryError ? mt__OutOfMemoryError : PyExc_MemoryError;
        break;
    case MT_ENOTIMPL:
        type = PyExc_NotImplementedError;
        break;
    default:
        type = PyExc_RuntimeError;
        break;
    }
    PyErr_SetString(type, mt_error_message());
    return NULL;
}

int
mt__raise_int(int code)
{
    mt__raise(code);
    return -1;
}

int
mt__errors_init(PyObject *module)
{
    PyObject *bases = PyTuple_Pack(2, PyExc_RuntimeError, PyExc_MemoryError);
    if (bases == NULL) {
        return -1;
    }
    mt__OutOfMemoryError = PyErr_NewExceptionWithDoc(
        "minitorch.OutOfMemoryError",
        "An allocation failed (host or device memory): a RuntimeError, as torch's, and a "
        "MemoryError.", bases, NULL);
    Py_DECREF(bases);
    if (mt__OutOfMemoryError == NULL) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "OutOfMemoryError", mt__OutOfMemoryError);
}
