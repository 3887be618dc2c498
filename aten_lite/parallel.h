/* aten_lite/parallel.h - a small fork-safe pthread pool for intra-op parallelism. */
#ifndef ATEN_LITE_PARALLEL_H
#define ATEN_LITE_PARALLEL_H

#include <stdbool.h>
#include <stdint.h>

/* Minimum elements per chunk for elementwise kernels (as ATen's GRAIN_SIZE). */
#define MT_GRAIN_SIZE 32768

/* Runs fn(ctx, b, e) over [begin, end) split into chunks of at least `grain`
 * elements, on the pool's threads and the caller.  Runs inline when the range
 * is small, the pool has one thread, the caller is already inside a parallel
 * region, or another thread is using the pool.  Returns when every chunk is
 * done.  fn must not fail (kernels record errors in ctx if they can fail). */
typedef void (*mt_parallel_fn)(void *ctx, int64_t begin, int64_t end);
void mt_parallel_for(int64_t begin, int64_t end, int64_t grain, mt_parallel_fn fn, void *ctx);

/* Runs fn(ctx, i, i + 1) for i in [0, nchunks) with exactly that chunking,
 * whatever the thread count: for deterministic blocked reductions. */
void mt_parallel_chunks(int64_t nchunks, mt_parallel_fn fn, void *ctx);

/* Threads used by kernels (including the caller).  Default: OMP_NUM_THREADS
 * or MINITORCH_NUM_THREADS when set, else the number of online cores. */
int mt_get_num_threads(void);
/* n >= 1; takes effect at the next parallel region. */
void mt_set_num_threads(int n);
bool mt_in_parallel_region(void);

#endif /* ATEN_LITE_PARALLEL_H */
