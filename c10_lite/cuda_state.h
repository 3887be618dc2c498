/* c10_lite/cuda_state.h - the calling thread's current CUDA device, and its current stream on each device. */
#ifndef C10_LITE_CUDA_STATE_H
#define C10_LITE_CUDA_STATE_H

/* Devices a process can address (device indices are below it). */
#define MT_CUDA_MAX_DEVICES 64

/* Note [Current device and stream]
 * As in torch, each thread has a current CUDA device (0 in a new thread) and, per device, a
 * current stream (the default stream, NULL, until one is set).  They are what "cuda" without
 * an index, and work queued without a named stream, mean: mt_storage_new(.., "cuda") allocates
 * on the current device for its current stream, and the copies and fills of the allocator
 * registry are ordered on it.  The state lives in plain thread-local variables, so reading it
 * never calls the runtime; setting the device also makes it the runtime's current device of
 * the thread (cudaSetDevice), for launches.  Without a device, every call fails with
 * mt_cuda_unavailable_message() (MT_ERUNTIME), as torch's lazy initialisation does. */

/* *device = the calling thread's current device.  0, or MT_ERUNTIME without a device. */
int mt_cuda_current_device(int *device);
/* Makes `device` the calling thread's current device.  0, or MT_ERUNTIME (no device; an index
 * out of range: "CUDA error: invalid device ordinal"; the runtime refused) with nothing
 * changed. */
int mt_cuda_set_device(int device);
/* The calling thread's current stream on `device` (NULL: the default stream; also for an index
 * out of range). */
void *mt_cuda_current_stream(int device);
/* Makes `stream` (borrowed: a stream of `device` that outlives its use, as the pool's do, see
 * Note [CUDA streams]; NULL: the default stream) the calling thread's current stream on
 * `device`.  0, or MT_ERUNTIME (no device, or an index out of range) with nothing changed. */
int mt_cuda_set_stream(int device, void *stream);

#endif /* C10_LITE_CUDA_STATE_H */
