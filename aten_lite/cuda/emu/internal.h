/* aten_lite/cuda/emu/internal.h - what the emulator's sources share: the kernel executor
 * (exec.cpp) and host work on a stream's queue (runtime.cpp, used by cublas.cpp). */
#ifndef ATEN_LITE_CUDA_EMU_INTERNAL_H
#define ATEN_LITE_CUDA_EMU_INTERNAL_H

#include <functional>
#include <string>

#include <cuda_runtime.h>

namespace mt_emu {

/* Runs every block of a kernel over the thread pool and the calling thread, and returns when
 * all are done: cudaSuccess, or the kernel's failure (deadlock, assertion, trap) with its
 * message in *msg.  k stays owned by the caller. */
cudaError_t execute_kernel(dim3 grid, dim3 block, size_t shmem, KernelBase *k, std::string *msg);
/* the number of threads of the pool that runs blocks (>= 1) */
int pool_size();

/* Queues fn on stream (0/cudaStreamLegacy: the current device's legacy default stream) behind
 * the work already there, with the default stream's ordering rules.  cudaSuccess or
 * cudaErrorInvalidResourceHandle / cudaErrorNoDevice (nothing queued). */
cudaError_t enqueue_host(cudaStream_t stream, std::function<void()> fn);

} /* namespace mt_emu */

#endif /* ATEN_LITE_CUDA_EMU_INTERNAL_H */
