/* csrc/torch_function.h - __torch_function__ dispatch of the op-table entry points. */
#ifndef CSRC_TORCH_FUNCTION_H
#define CSRC_TORCH_FUNCTION_H

#include <Python.h>

/* Note [Torch function]
 * torch's __torch_function__ protocol (python/minitorch/overrides.py holds the Python side):
 * a call of a public function or method with an argument whose class overrides
 * __torch_function__, or made while a TorchFunctionMode is entered, goes to the mode or to
 * those classes' __torch_function__(func, types, args, kwargs) instead of running.
 *
 * The C entry points of the op table (their autograd wrappers, the operators, indexing, .T,
 * and the Python forms, _C._PyOp) test one process-wide int first, mt__tf_on: the number of
 * Tensor subclasses that take part (all but those that opt out with
 * _disabled_torch_function_impl or have a __torch_dispatch__) and have had an instance,
 * plus the modes entered.  A class is listed when it is defined (Tensor.__init_subclass__)
 * and counted from its first instance (as_subclass, Sub(...): mt__tf_instance), so a class
 * a library defines but a program never instantiates costs nothing.  While mt__tf_on is 0
 * (every program without such instances) that compare is all it costs.  Otherwise mt__tf_dispatch looks at
 * the arguments (and one level into tuples and lists, cat's tensors): unless this thread
 * disabled dispatch (DisableTorchFunction, or DisableTorchFunctionSubclass for the classes),
 * a call with an instance of a registered class, or any call while some mode is entered,
 * goes to the Python handler (overrides._handle_op) with the entry point's key ("f.add",
 * "m.sum", "o.add", "p.linear", ...), which names the public function, calls the mode or
 * the classes, and either answers the call or lets it run (a mode entered on another
 * thread).  The classes' own methods, operators and properties reach __torch_function__
 * through the wrappers their class is given in Python (_subclass.py), before any of this.
 * Objects of other classes with a __torch_function__ (tensor-likes that are no tensors, as
 * torch's ScalarTensor example) are looked for only when a call fails with TypeError
 * (mt__tf_retry): the entry points refuse them before doing anything, and looking for them
 * on every call would cost every program.
 *
 * Registered classes are kept (strong references) for the life of the process; a class is
 * registered once, so the list grows with the number of such classes a program defines. */

/* counted classes + entered modes (the GIL guards it) */
extern int mt__tf_on;
/* listed classes not counted yet */
extern int mt__tf_npending;

void mt__tf_count(PyTypeObject *t);
/* An instance of t is being made: t is counted from now on if it is listed. */
static inline void
mt__tf_instance(PyTypeObject *t)
{
    if (mt__tf_npending > 0) {
        mt__tf_count(t);
    }
}

/* this thread: 0 dispatch on; 1 DisableTorchFunctionSubclass (the classes are not called,
 * modes are); 2 DisableTorchFunction (neither) */
extern _Thread_local int mt__tf_disabled;

/* While mt__tf_on: 1 when the call was answered by __torch_function__ (*result a new
 * reference, or NULL with an exception set), 0 when it should run as usual.  args/kwnames
 * as METH_FASTCALL; self may be NULL. */
int mt__tf_dispatch(const char *key, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, PyObject **result);
/* The same for an argument tuple and keyword dict (either may be NULL). */
int mt__tf_dispatch_tuple(const char *key, PyObject *self, PyObject *args, PyObject *kwargs,
                          PyObject **result);

/* After a call that failed with TypeError (*result NULL): when an argument is an object
 * with a __torch_function__ that is no tensor, the call goes to the handler and *result is
 * its answer (the TypeError is dropped), else the TypeError stands. */
void mt__tf_retry(const char *key, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames, PyObject *tuple, PyObject *kwargs, PyObject **result);
#define MT__TF_RETRY(key, self, args, nargs, kwnames, tuple, kwargs, r)                           \
    if (r == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {                                   \
        mt__tf_retry(key, self, args, nargs, kwnames, tuple, kwargs, &r);                         \
    }

/* The prologue of an entry point: returns __torch_function__'s answer when there is one. */
#define MT__TF_CHECK(key, self, args, nargs, kwnames)                                             \
    if (mt__tf_on) {                                                                              \
        PyObject *tf_r_;                                                                          \
        if (mt__tf_dispatch(key, self, args, nargs, kwnames, &tf_r_)) {                           \
            return tf_r_;                                                                         \
        }                                                                                         \
    }

int mt__torch_function_init(PyObject *module);

#endif
