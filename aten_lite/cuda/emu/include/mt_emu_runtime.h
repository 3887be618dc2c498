/* aten_lite/cuda/emu/include/mt_emu_runtime.h - the emulated runtime's entry points, handed to a
 * library loaded at run time that queues work on its streams (Note [Libraries on the emulator]). */
#ifndef ATEN_LITE_CUDA_EMU_INCLUDE_MT_EMU_RUNTIME_H
#define ATEN_LITE_CUDA_EMU_INCLUDE_MT_EMU_RUNTIME_H

#include "cuda_runtime_api.h"

/* Note [Libraries on the emulator]
 * The emulated runtime lives inside minitorch's extension with its names hidden (they must not
 * meet a real libcudart), so a library opened with dlopen cannot link against it the way a real
 * NCCL links against cudart.  Instead the loader hands such a library this table through the
 * function the library exports under MT_EMU_ATTACH_SYMBOL, once, before any other call; a
 * library without that function cannot run on the emulated device (it would call a real
 * runtime that has no device) and is refused.  The table outlives the library. */
typedef struct mt_emu_runtime {
    int version; /* MT_EMU_RUNTIME_VERSION */
    cudaError_t (*launch_host_func)(cudaStream_t stream, cudaHostFn_t fn, void *user_data);
    cudaError_t (*get_device)(int *device);
    cudaError_t (*stream_synchronize)(cudaStream_t stream);
} mt_emu_runtime;

#define MT_EMU_RUNTIME_VERSION 1
#define MT_EMU_ATTACH_SYMBOL "mtEmuAttachRuntime"
/* what the library exports: 0 when it accepts the table */
typedef int (*mt_emu_attach_fn)(const mt_emu_runtime *runtime);

#endif /* ATEN_LITE_CUDA_EMU_INCLUDE_MT_EMU_RUNTIME_H */
