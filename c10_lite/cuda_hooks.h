/* c10_lite/cuda_hooks.h - what the core needs from the CUDA runtime (with or without CUDA built in). */
#ifndef C10_LITE_CUDA_HOOKS_H
#define C10_LITE_CUDA_HOOKS_H

#include "c10_lite/cuda_alloc.h"

/* Number of usable CUDA devices; 0 when CUDA is not built in, there is no driver (or an old
 * one), or no GPU.  Never an error. */
int mt_cuda_device_count(void);
/* The process's caching allocator over the CUDA runtime (Note [Caching allocator]), made on
 * first use; NULL with MT_ERUNTIME when CUDA is not built in or there is no device. */
mt_cuda_alloc *mt_cuda_allocator(void);
/* The allocator when some call made it, else NULL (memory statistics before any CUDA use are
 * zeros, as torch's). */
mt_cuda_alloc *mt_cuda_allocator_if_created(void);

#endif /* C10_LITE_CUDA_HOOKS_H */
