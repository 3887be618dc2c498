/* aten_lite/cpu/kernels.h - CPU inner loops shared by the op layer (private to aten_lite). */
#ifndef ATEN_LITE_CPU_KERNELS_H
#define ATEN_LITE_CPU_KERNELS_H

#include "aten_lite/iter.h"

/* Loop copying operand 1 (dtype src) into operand 0 (dtype dst). Never NULL. */
mt_loop_fn mt_cpu_cast_loop(mt_dtype dst, mt_dtype src);
/* Loop writing the element pointed to by ctx (already of dtype dt) into operand 0. */
mt_loop_fn mt_cpu_fill_loop(mt_dtype dt);

/* Loop for where: operands (out, cond(bool), x, y), x/y/out of dtype dt. */
mt_loop_fn mt_cpu_where_loop(mt_dtype dt);

#endif /* ATEN_LITE_CPU_KERNELS_H */
