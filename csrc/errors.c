/* csrc/errors.c - the one translator from C status codes to Python exceptions. */
#include "csrc/common.h"

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
        type = PyExc_MemoryError;
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
