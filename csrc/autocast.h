/* csrc/autocast.h - autocast's per-thread flag and the wrappers of the op-table rows it casts. */
#ifndef CSRC_AUTOCAST_H
#define CSRC_AUTOCAST_H

#include "csrc/common.h"

/* Note [Autocast]
 * torch.autocast(device_type) runs some ops in a lower precision and others in float32,
 * per thread.  minitorch keeps that state in C (autocast.c): per device type (cpu, cuda) an
 * enabled flag and a dtype (bfloat16 / float16 by default), the nesting depth of the
 * context managers, whether casts are cached, and the cache.  Only CPU autocast ever casts
 * (there are no CUDA tensors: enabling "cuda" autocast warns and disables, as torch
 * without CUDA).  An op follows one of torch's CPU policies:
 *   lower  float32/float16/bfloat16 tensor arguments are cast to the autocast dtype
 *          (float64 ones are left alone): mm, bmm, matmul, addmm, baddbmm, addbmm (and
 *          through them einsum, tensordot), linear, conv*, prelu, scaled_dot_product_attention
 *   fp32   float16/bfloat16 tensor arguments are cast to float32: prod, trace, quantile,
 *          view_as_complex, the losses, reflection/replication padding
 * and every other op runs in the dtype of its inputs.
 *
 * Cost while off: one thread-local int read per covered call.  The C entry points of the
 * op table opt in by the `autocast` key of their row (python/minitorch/_op_table.py):
 * tools/gen_op_table.py then lists them in MT_OPTABLE_<F>_<KIND>_AUTOCAST(A) and names
 * fn##__ac, the wrapper MT_AC_WRAPPER defines, as their entry point.  The wrapper sits
 * above the autograd wrapper fn##__ag (as torch's Autocast dispatch key sits above
 * Autograd): the casts are ordinary recorded `to` calls, so gradients flow back through
 * them to the float32 leaves, and the op itself is recorded with the operands it really
 * ran on.  Python functions (nn.functional, the Python forms of the op table) test
 * _C._autocast_on() and cast with _C._autocast_lower / _C._autocast_fp32.  A call with
 * out= is not cast (torch registers no autocast kernel for the out= forms).
 *
 * Cache (torch's heuristic): within the outermost autocast region, the lower-precision
 * cast of a float32 leaf that requires grad and is no view is made once and reused (a
 * model's weights used several times per forward pass); leaving the outermost region
 * drops it. */

/* nonzero while CPU autocast is enabled on this thread */
extern _Thread_local int mt__autocast_cpu;

enum { MT_AC_LOWER, MT_AC_FP32 };

typedef PyObject *(*mt__fastkw_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);

/* Calls fn (the op's autograd wrapper) with its tensor arguments cast by `policy`; self is
 * cast too when `method`.  A new reference, or NULL with an exception. */
PyObject *mt__autocast_call(mt__fastkw_fn fn, int policy, int method, PyObject *self,
                            PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

#define MT_AC_WRAPPER(key, fn, conv, policy) MT_AC_WRAP_##conv(key, fn, policy)
#define MT_AC_WRAP_FASTKW(key, fn, policy)                                                        \
    static PyObject *fn##__ac(PyObject *self, PyObject *const *args, Py_ssize_t nargs,            \
                              PyObject *kwnames)                                                  \
    {                                                                                             \
        if (!mt__autocast_cpu) {                                                                  \
            return fn##__ag(self, args, nargs, kwnames);                                          \
        }                                                                                         \
        return mt__autocast_call(fn##__ag, MT_AC_##policy, (key)[0] == 'm', self, args, nargs,   \
                                 kwnames);                                                        \
    }

#endif /* CSRC_AUTOCAST_H */
