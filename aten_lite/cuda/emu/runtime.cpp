/* aten_lite/cuda/emu/runtime.cpp - the CUDA runtime API of the host emulator: devices, memory,
 * streams with their own threads, events, errors, and the kernel launch. */
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "internal.h"

/* Note [CUDA emulator]
 * The build variant MINITORCH_CUDA=EMULATE compiles the CUDA sources (the .cu files of
 * aten_lite/cuda) as C++ against this emulator instead of nvcc + cudart, so the CUDA code
 * paths run, and are tested, on machines without a GPU.  It is a test build, never the
 * default: its devices say "emulated" in their name, and timings mean nothing.  What it is:
 *  - Devices: MINITORCH_EMULATED_DEVICES of them (default 2; 0 gives "no CUDA-capable device"),
 *    compute capability 8.0, MINITORCH_EMULATED_MEMORY bytes each (default 16G; K/M/G
 *    suffixes), beyond which cudaMalloc fails with cudaErrorMemoryAllocation.  The current
 *    device is per host thread, as the runtime's.
 *  - Memory: device memory is host memory (256-byte aligned, filled with 0xFF bytes - NaN
 *    floats - so reads of memory nobody wrote show).  The runtime records every allocation
 *    (device, cudaMallocHost, cudaHostRegister), so copies check their ranges and kinds
 *    (a device range outside its allocation, or a host pointer passed as the device side, is
 *    cudaErrorInvalidValue), cudaPointerGetAttributes answers, and a kernel whose pointer
 *    argument is neither device nor pinned memory fails with cudaErrorIllegalAddress (as a GPU
 *    faults on pageable host memory; pointers inside structures are not checked).  cudaFree
 *    and cudaFreeHost wait for the device's work first, as the runtime's do.
 *  - Streams: each stream (and each device's legacy default stream) has its own thread that
 *    runs its queue in order, so work really overlaps the host and other streams, and a missing
 *    synchronisation shows up as a wrong result.  The legacy default stream (0,
 *    cudaStreamLegacy) keeps its documented ordering: work queued on it waits for the work
 *    already queued on the device's blocking streams, and work queued on a blocking stream
 *    waits for the work already queued on it; cudaStreamNonBlocking streams are exempt.
 *    cudaStreamPerThread is taken as the legacy stream (a departure: more ordering, not less).
 *    Priorities are recorded, not used.
 *  - Copies, as the runtime documents: cudaMemcpy is synchronous (on the legacy stream);
 *    cudaMemcpyAsync is queued, except that from pageable host memory the source is staged
 *    before the call returns and to pageable host memory (or host to host) the call waits for
 *    the copy; cudaMemset is queued on the legacy stream.
 *  - Events record a point of a stream's queue (and its time when reached); cudaStreamWaitEvent
 *    makes a stream's later work wait for it, on any device.  As the programming guide has it
 *    for several devices: a kernel launch to a stream of another device than the current one
 *    fails (cudaErrorInvalidResourceHandle), a copy does not; an event is recorded only on a
 *    stream of its own device, and elapsed time is only measured between events of one device.
 *  - Errors: the runtime's cudaError_t values and texts; the calling thread's last error
 *    (cudaGetLastError/cudaPeekAtLastError).  A kernel that fails (deadlock, device-side
 *    assertion, __trap, bad pointer argument) prints why on stderr, and the device's next
 *    synchronising call (cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize,
 *    cudaMemcpy, cudaMemcpy2D) returns its error once, which also makes it that thread's last
 *    error: errors are not sticky, and the device stays usable (a departure; so that whether
 *    cudaGetLastError sees a failure does not depend on how fast the kernel ran, only the
 *    synchronising calls report it).  mtEmuLastKernelError() gives the message.
 *  - Kernels: see Note [Emulated kernels] in kernel.h and Note [Block scheduler] in exec.cpp.
 * Not emulated: graphs and stream capture, unified/managed memory, cudaMemcpy2D/3D, arrays
 * and textures, cooperative launches, IPC handles, the driver API, timing-faithful anything.
 * A child forked after the runtime started work (a stream thread, an allocation) cannot use
 * it - its threads did not survive the fork - and gets cudaErrorInitializationError from every
 * call that needs a device, as with real CUDA. */

namespace mt_emu {

using Clock = std::chrono::steady_clock;

struct Stream;
struct Dep {
    std::shared_ptr<Stream> s;
    uint64_t ticket;
};
struct Op {
    std::vector<Dep> deps;
    std::function<void()> fn;
};

struct Stream {
    int device = 0;
    unsigned int flags = 0;
    int priority = 0;
    bool legacy = false;
    std::mutex m;
    std::condition_variable cv;
    std::deque<Op> q;          /* guarded by m */
    uint64_t enqueued = 0;     /* tickets handed out (guarded by m) */
    uint64_t completed = 0;    /* tickets done, in order (guarded by m) */
    bool started = false, closing = false;
};

struct Event {
    std::mutex m;
    unsigned int flags = 0;
    int device = 0;
    bool recorded = false;
    std::shared_ptr<Stream> stream;
    uint64_t ticket = 0;
    std::shared_ptr<Clock::time_point> when; /* written by the record op when it runs */
};

enum MemKind { MEM_DEVICE, MEM_PINNED, MEM_REGISTERED };
struct Alloc {
    size_t size;
    size_t charged;
    int device;
    MemKind kind;
};

struct Device {
    std::mutex m; /* queueing order; streams */
    std::shared_ptr<Stream> legacy;
    std::vector<std::shared_ptr<Stream>> streams; /* created and not destroyed */
    std::vector<bool> peer;                        /* guarded by m */
    size_t used = 0;                               /* guarded by Runtime::mem_m */
    std::mutex err_m;
    cudaError_t async_error = cudaSuccess; /* guarded by err_m */
    std::string async_msg, last_kernel_msg;
};

struct Runtime {
    int ndev = 0;
    size_t capacity = 0;
    std::vector<Device *> devs;
    std::mutex mem_m;
    std::map<uintptr_t, Alloc> allocs;
    std::mutex handles_m;
    std::set<const void *> streams, events;
    std::mutex func_m;
    std::map<const void *, int> max_dyn_shared;
};

} /* namespace mt_emu */

/* the handle types: a shared pointer to the state */
struct CUstream_st {
    std::shared_ptr<mt_emu::Stream> s;
};
struct CUevent_st {
    std::shared_ptr<mt_emu::Event> e;
};

namespace mt_emu {
namespace {

constexpr size_t kDefaultSharedLimit = 48 * 1024;
constexpr size_t kOptinSharedLimit = 163 * 1024;

/* set in a child forked after the runtime started threads or allocated: it is unusable there */
std::atomic<bool> g_active{false}, g_forked{false};

void
on_fork_child()
{
    if (g_active.load()) {
        g_forked = true;
    }
}

size_t
parse_size(const char *s, size_t dflt)
{
    if (s == nullptr || *s == '\0') {
        return dflt;
    }
    char *end = nullptr;
    unsigned long long v = std::strtoull(s, &end, 10);
    if (end == s) {
        return dflt;
    }
    switch (*end) {
    case 'k': case 'K': v <<= 10; break;
    case 'm': case 'M': v <<= 20; break;
    case 'g': case 'G': v <<= 30; break;
    case '\0': break;
    default: return dflt;
    }
    return (size_t)v;
}

/* the runtime, made on first use and never destroyed (stream threads may outlive main) */
Runtime *
rt()
{
    static Runtime *r = [] {
        Runtime *x = new Runtime;
        const char *env = std::getenv("MINITORCH_EMULATED_DEVICES");
        int n = 2;
        if (env != nullptr && *env != '\0') {
            char *end = nullptr;
            long v = std::strtol(env, &end, 10);
            if (end != env && *end == '\0' && v >= 0 && v <= 64) {
                n = (int)v;
            }
        }
        x->ndev = n;
        x->capacity = parse_size(std::getenv("MINITORCH_EMULATED_MEMORY"), (size_t)16 << 30);
        pthread_atfork(nullptr, nullptr, on_fork_child);
        for (int i = 0; i < n; i++) {
            Device *d = new Device;
            d->legacy = std::make_shared<Stream>();
            d->legacy->device = i;
            d->legacy->legacy = true;
            d->peer.assign((size_t)n, false);
            x->devs.push_back(d);
        }
        return x;
    }();
    return r;
}

thread_local int tls_device = 0;
thread_local cudaError_t tls_last = cudaSuccess;
thread_local std::string tls_msg;

cudaError_t
fail(cudaError_t e)
{
    if (e != cudaSuccess) {
        tls_last = e;
    }
    return e;
}

cudaError_t
check_devices()
{
    if (g_forked.load(std::memory_order_relaxed)) {
        return cudaErrorInitializationError;
    }
    return rt()->ndev > 0 ? cudaSuccess : cudaErrorNoDevice;
}

bool
valid_device(int d)
{
    return d >= 0 && d < rt()->ndev;
}

/* ---- errors of asynchronous work ---- */

void
set_async_error(int dev, cudaError_t e, const std::string &msg)
{
    Device *d = rt()->devs[(size_t)dev];
    std::lock_guard<std::mutex> g(d->err_m);
    d->last_kernel_msg = msg;
    if (d->async_error == cudaSuccess) {
        d->async_error = e;
        d->async_msg = msg;
    }
}

cudaError_t
take_async_error(int dev)
{
    if (!valid_device(dev)) {
        return cudaSuccess;
    }
    Device *d = rt()->devs[(size_t)dev];
    std::lock_guard<std::mutex> g(d->err_m);
    cudaError_t e = d->async_error;
    d->async_error = cudaSuccess;
    return e;
}

/* ---- streams ---- */

void
wait_ticket(const std::shared_ptr<Stream> &s, uint64_t ticket)
{
    std::unique_lock<std::mutex> l(s->m);
    s->cv.wait(l, [&] { return s->completed >= ticket; });
}

void
stream_main(std::shared_ptr<Stream> s)
{
    tls_device = s->device;
    std::unique_lock<std::mutex> l(s->m);
    for (;;) {
        s->cv.wait(l, [&] { return !s->q.empty() || s->closing; });
        if (s->q.empty()) {
            return; /* destroyed and drained */
        }
        Op op = std::move(s->q.front());
        s->q.pop_front();
        l.unlock();
        for (const Dep &d : op.deps) {
            wait_ticket(d.s, d.ticket);
        }
        if (op.fn) {
            op.fn();
        }
        op = Op(); /* release what the work held before it counts as done */
        l.lock();
        s->completed++;
        s->cv.notify_all();
    }
}

/* Queues fn behind the stream's work (and, by the legacy default stream's rules, behind the
 * device's other work already queued); returns its ticket. */
uint64_t
enqueue(const std::shared_ptr<Stream> &s, std::function<void()> fn, std::vector<Dep> deps = {})
{
    Device *d = rt()->devs[(size_t)s->device];
    std::lock_guard<std::mutex> g(d->m);
    Op op;
    op.fn = std::move(fn);
    op.deps = std::move(deps);
    auto after = [&](const std::shared_ptr<Stream> &o) {
        std::lock_guard<std::mutex> lo(o->m);
        if (o->enqueued > o->completed) {
            op.deps.push_back(Dep{o, o->enqueued});
        }
    };
    if (s->legacy) {
        for (const auto &o : d->streams) {
            if (!(o->flags & cudaStreamNonBlocking)) {
                after(o);
            }
        }
    } else if (!(s->flags & cudaStreamNonBlocking)) {
        after(d->legacy);
    }
    std::lock_guard<std::mutex> l(s->m);
    uint64_t ticket = ++s->enqueued;
    s->q.push_back(std::move(op));
    if (!s->started) {
        s->started = true;
        g_active = true;
        std::thread(stream_main, s).detach();
    }
    s->cv.notify_all();
    return ticket;
}

/* the stream behind a handle (null: error in *e) */
std::shared_ptr<Stream>
resolve(cudaStream_t h, cudaError_t *e)
{
    *e = check_devices();
    if (*e != cudaSuccess) {
        return nullptr;
    }
    if (h == nullptr || h == cudaStreamLegacy || h == cudaStreamPerThread) {
        return rt()->devs[(size_t)tls_device]->legacy;
    }
    std::lock_guard<std::mutex> g(rt()->handles_m);
    if (rt()->streams.count(h) == 0) {
        *e = cudaErrorInvalidResourceHandle;
        return nullptr;
    }
    return h->s;
}

/* waits for everything queued on the device so far */
void
device_sync(int dev)
{
    Device *d = rt()->devs[(size_t)dev];
    std::vector<Dep> snap;
    {
        std::lock_guard<std::mutex> g(d->m);
        auto add = [&](const std::shared_ptr<Stream> &s) {
            std::lock_guard<std::mutex> l(s->m);
            snap.push_back(Dep{s, s->enqueued});
        };
        add(d->legacy);
        for (const auto &s : d->streams) {
            add(s);
        }
    }
    for (const Dep &x : snap) {
        wait_ticket(x.s, x.ticket);
    }
}

/* ---- memory ---- */

enum Side { SIDE_PAGEABLE, SIDE_PINNED, SIDE_DEVICE };

/* the allocation holding p (end inclusive when `inclusive`), under mem_m */
bool
find_alloc_locked(const void *p, bool inclusive, uintptr_t *base, Alloc *out)
{
    auto &m = rt()->allocs;
    uintptr_t a = (uintptr_t)p;
    auto it = m.upper_bound(a);
    if (it == m.begin()) {
        return false;
    }
    --it;
    if (a < it->first + it->second.size || (inclusive && a == it->first + it->second.size)) {
        *base = it->first;
        *out = it->second;
        return true;
    }
    return false;
}

/* Which memory [p, p+n) is; cudaErrorInvalidValue when it starts in device memory and does not
 * end in the same allocation. */
cudaError_t
classify(const void *p, size_t n, Side *side, int *dev)
{
    std::lock_guard<std::mutex> g(rt()->mem_m);
    uintptr_t base;
    Alloc a;
    *side = SIDE_PAGEABLE;
    *dev = -1;
    if (!find_alloc_locked(p, false, &base, &a)) {
        return cudaSuccess;
    }
    bool inside = (uintptr_t)p - base <= a.size && n <= a.size - ((uintptr_t)p - base);
    if (a.kind == MEM_DEVICE) {
        if (!inside) {
            return cudaErrorInvalidValue;
        }
        *side = SIDE_DEVICE;
        *dev = a.device;
    } else if (inside) {
        *side = SIDE_PINNED;
        *dev = a.device;
    }
    return cudaSuccess;
}

cudaError_t
check_copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind, Side *ds, Side *ss,
           int *ddev, int *sdev)
{
    if ((int)kind < 0 || (int)kind > 4) {
        return cudaErrorInvalidMemcpyDirection;
    }
    if (n > 0 && (dst == nullptr || src == nullptr)) {
        return cudaErrorInvalidValue;
    }
    cudaError_t e = classify(dst, n, ds, ddev);
    if (e == cudaSuccess) {
        e = classify(src, n, ss, sdev);
    }
    if (e != cudaSuccess) {
        return e;
    }
    bool dd = *ds == SIDE_DEVICE, sd = *ss == SIDE_DEVICE;
    bool ok = kind == cudaMemcpyDefault || (kind == cudaMemcpyHostToDevice && dd && !sd) ||
              (kind == cudaMemcpyDeviceToHost && !dd && sd) ||
              (kind == cudaMemcpyDeviceToDevice && dd && sd) ||
              (kind == cudaMemcpyHostToHost && !dd && !sd);
    return ok ? cudaSuccess : cudaErrorInvalidValue;
}

/* a kernel may dereference p: device or pinned memory (end inclusive) */
bool
device_accessible(const void *p)
{
    std::lock_guard<std::mutex> g(rt()->mem_m);
    uintptr_t base;
    Alloc a;
    return find_alloc_locked(p, true, &base, &a);
}

cudaError_t
host_alloc(void **p, size_t size, MemKind kind)
{
    if (p == nullptr) {
        return cudaErrorInvalidValue;
    }
    *p = nullptr;
    if (size == 0) {
        return cudaSuccess;
    }
    if (size > ((size_t)1 << 62)) {
        return cudaErrorMemoryAllocation;
    }
    size_t charged = (size + 511) & ~(size_t)511;
    Runtime *r = rt();
    Device *d = r->devs[(size_t)tls_device];
    std::lock_guard<std::mutex> g(r->mem_m);
    if (kind == MEM_DEVICE && (charged > r->capacity || d->used > r->capacity - charged)) {
        return cudaErrorMemoryAllocation;
    }
    void *q = std::aligned_alloc(256, charged);
    if (q == nullptr) {
        return cudaErrorMemoryAllocation;
    }
    g_active = true;
    if (kind == MEM_DEVICE) {
        std::memset(q, 0xFF, charged);
        d->used += charged;
    }
    r->allocs[(uintptr_t)q] = Alloc{size, charged, tls_device, kind};
    *p = q;
    return cudaSuccess;
}

/* Removes the allocation starting at p if it is of `kind`; false (nothing done) otherwise. */
bool
take_alloc(void *p, MemKind kind, Alloc *out)
{
    Runtime *r = rt();
    std::lock_guard<std::mutex> g(r->mem_m);
    auto it = r->allocs.find((uintptr_t)p);
    if (it == r->allocs.end() || it->second.kind != kind) {
        return false;
    }
    *out = it->second;
    r->allocs.erase(it);
    if (kind == MEM_DEVICE) {
        r->devs[(size_t)out->device]->used -= out->charged;
    }
    return true;
}

bool
has_alloc(void *p, MemKind kind)
{
    Runtime *r = rt();
    std::lock_guard<std::mutex> g(r->mem_m);
    auto it = r->allocs.find((uintptr_t)p);
    return it != r->allocs.end() && it->second.kind == kind;
}

const char *
error_text(cudaError_t e, bool name)
{
    switch (e) {
#define MT__E(code, text)                                                                          \
    case code:                                                                                     \
        return name ? #code : text;
        MT__E(cudaSuccess, "no error")
        MT__E(cudaErrorInvalidValue, "invalid argument")
        MT__E(cudaErrorMemoryAllocation, "out of memory")
        MT__E(cudaErrorInitializationError, "initialization error")
        MT__E(cudaErrorCudartUnloading, "driver shutting down")
        MT__E(cudaErrorInvalidConfiguration, "invalid configuration argument")
        MT__E(cudaErrorInvalidPitchValue, "invalid pitch argument")
        MT__E(cudaErrorInvalidSymbol, "invalid device symbol")
        MT__E(cudaErrorInvalidHostPointer, "invalid host pointer")
        MT__E(cudaErrorInvalidDevicePointer, "invalid device pointer")
        MT__E(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")
        MT__E(cudaErrorInsufficientDriver,
              "CUDA driver version is insufficient for CUDA runtime version")
        MT__E(cudaErrorInvalidDeviceFunction, "invalid device function")
        MT__E(cudaErrorNoDevice, "no CUDA-capable device is detected")
        MT__E(cudaErrorInvalidDevice, "invalid device ordinal")
        MT__E(cudaErrorNoKernelImageForDevice,
              "no kernel image is available for execution on the device")
        MT__E(cudaErrorInvalidResourceHandle, "invalid resource handle")
        MT__E(cudaErrorNotReady, "device not ready")
        MT__E(cudaErrorIllegalAddress, "an illegal memory access was encountered")
        MT__E(cudaErrorLaunchOutOfResources, "too many resources requested for launch")
        MT__E(cudaErrorLaunchTimeout, "the launch timed out and was terminated")
        MT__E(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled")
        MT__E(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled")
        MT__E(cudaErrorAssert, "device-side assert triggered")
        MT__E(cudaErrorHostMemoryAlreadyRegistered,
              "part or all of the requested memory range is already mapped")
        MT__E(cudaErrorHostMemoryNotRegistered,
              "pointer does not correspond to a registered memory region")
        MT__E(cudaErrorIllegalInstruction, "an illegal instruction was encountered")
        MT__E(cudaErrorLaunchFailure, "unspecified launch failure")
        MT__E(cudaErrorNotPermitted, "operation not permitted")
        MT__E(cudaErrorNotSupported, "operation not supported")
        MT__E(cudaErrorUnknown, "unknown error")
#undef MT__E
    }
    return name ? "cudaErrorUnknown" : "unrecognized error code";
}

} /* namespace */

cudaError_t
enqueue_host(cudaStream_t stream, std::function<void()> fn)
{
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        return fail(e);
    }
    enqueue(s, std::move(fn));
    return cudaSuccess;
}

void
launch_kernel(const void *func, dim3 grid, dim3 block, size_t shmem, cudaStream_t stream,
              KernelBase *k)
{
    std::shared_ptr<KernelBase> kernel(k);
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64 ||
        grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 2147483647u || grid.y > 65535 ||
        grid.z > 65535) {
        fail(cudaErrorInvalidConfiguration);
        return;
    }
    size_t limit = kDefaultSharedLimit;
    {
        std::lock_guard<std::mutex> g(rt()->func_m);
        auto it = rt()->max_dyn_shared.find(func);
        if (it != rt()->max_dyn_shared.end()) {
            limit = (size_t)it->second;
        }
    }
    if (shmem > limit) {
        fail(cudaErrorInvalidValue);
        return;
    }
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        fail(e);
        return;
    }
    if (s->device != tls_device) {
        fail(cudaErrorInvalidResourceHandle); /* a kernel goes to a stream of the current device */
        return;
    }
    int dev = s->device;
    enqueue(s, [kernel, grid, block, shmem, dev] {
        const void *ptrs[64];
        int n = 0;
        kernel->pointer_args(ptrs, 64, &n);
        for (int i = 0; i < n; i++) {
            if (ptrs[i] != nullptr && !device_accessible(ptrs[i])) {
                char buf[160];
                std::snprintf(buf, sizeof(buf),
                              "kernel pointer argument %d (%p) is neither device nor pinned "
                              "host memory",
                              i, ptrs[i]);
                std::fprintf(stderr, "minitorch CUDA emulator: %s\n", buf);
                set_async_error(dev, cudaErrorIllegalAddress, buf);
                return;
            }
        }
        std::string msg;
        cudaError_t err = execute_kernel(grid, block, shmem, kernel.get(), &msg);
        if (err != cudaSuccess) {
            std::fprintf(stderr, "minitorch CUDA emulator: %s\n", msg.c_str());
            set_async_error(dev, err, msg);
        }
    });
}

} /* namespace mt_emu */

using namespace mt_emu;

namespace {

std::shared_ptr<Event>
resolve_event(cudaEvent_t h)
{
    std::lock_guard<std::mutex> g(rt()->handles_m);
    if (h == nullptr || rt()->events.count(h) == 0) {
        return nullptr;
    }
    return h->e;
}

bool
event_done(Event &ev, bool *recorded)
{
    std::shared_ptr<Stream> s;
    uint64_t t;
    {
        std::lock_guard<std::mutex> g(ev.m);
        *recorded = ev.recorded;
        if (!ev.recorded) {
            return true;
        }
        s = ev.stream;
        t = ev.ticket;
    }
    std::lock_guard<std::mutex> l(s->m);
    return s->completed >= t;
}

} /* namespace */

#define MT__NEED_DEVICE()                                                                          \
    do {                                                                                           \
        cudaError_t e_ = check_devices();                                                          \
        if (e_ != cudaSuccess) {                                                                   \
            return fail(e_);                                                                       \
        }                                                                                          \
    } while (0)

extern "C" {

/* ---- errors ---- */

cudaError_t
cudaGetLastError(void)
{
    cudaError_t e = tls_last;
    tls_last = cudaSuccess;
    return e;
}

cudaError_t
cudaPeekAtLastError(void)
{
    return tls_last;
}

const char *
cudaGetErrorString(cudaError_t error)
{
    return error_text(error, false);
}

const char *
cudaGetErrorName(cudaError_t error)
{
    return error_text(error, true);
}

const char *
mtEmuLastKernelError(void)
{
    tls_msg.clear();
    if (rt()->ndev > 0) {
        Device *d = rt()->devs[(size_t)tls_device];
        std::lock_guard<std::mutex> g(d->err_m);
        tls_msg = d->last_kernel_msg;
    }
    return tls_msg.c_str();
}

/* ---- devices ---- */

cudaError_t
cudaGetDeviceCount(int *count)
{
    if (count == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    cudaError_t e = check_devices();
    *count = e == cudaSuccess ? rt()->ndev : 0;
    return fail(e);
}

cudaError_t
cudaSetDevice(int device)
{
    MT__NEED_DEVICE();
    if (!valid_device(device)) {
        return fail(cudaErrorInvalidDevice);
    }
    tls_device = device;
    return cudaSuccess;
}

cudaError_t
cudaGetDevice(int *device)
{
    if (device == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    MT__NEED_DEVICE();
    *device = tls_device;
    return cudaSuccess;
}

cudaError_t
cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (prop == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    MT__NEED_DEVICE();
    if (!valid_device(device)) {
        return fail(cudaErrorInvalidDevice);
    }
    std::memset(prop, 0, sizeof(*prop));
    std::snprintf(prop->name, sizeof(prop->name), "minitorch emulated CUDA device (host CPU)");
    char uuid[32];
    std::snprintf(uuid, sizeof(uuid), "mt-emu-gpu-%05d", device % 100000);
    std::memcpy(prop->uuid.bytes, uuid, sizeof(prop->uuid.bytes));
    prop->totalGlobalMem = rt()->capacity;
    prop->sharedMemPerBlock = kDefaultSharedLimit;
    prop->sharedMemPerBlockOptin = kOptinSharedLimit;
    prop->sharedMemPerMultiprocessor = kOptinSharedLimit + 1024;
    prop->regsPerBlock = 65536;
    prop->regsPerMultiprocessor = 65536;
    prop->warpSize = 32;
    prop->memPitch = (size_t)2147483647;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = 1024;
    prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = 65535;
    prop->maxGridSize[2] = 65535;
    prop->totalConstMem = 65536;
    prop->major = 8;
    prop->minor = 0;
    prop->textureAlignment = 512;
    prop->multiProcessorCount = pool_size();
    prop->canMapHostMemory = 1;
    prop->concurrentKernels = 1;
    prop->pciBusID = device;
    prop->asyncEngineCount = 2;
    prop->unifiedAddressing = 1;
    prop->memoryBusWidth = 64;
    prop->l2CacheSize = 4 << 20;
    prop->maxThreadsPerMultiProcessor = 2048;
    prop->maxBlocksPerMultiProcessor = 32;
    return cudaSuccess;
}

cudaError_t
cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (value == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess) {
        return e;
    }
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = (int)p.sharedMemPerMultiprocessor;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    default: return fail(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t
cudaDeviceSynchronize(void)
{
    MT__NEED_DEVICE();
    device_sync(tls_device);
    return fail(take_async_error(tls_device));
}

cudaError_t
cudaDeviceReset(void)
{
    MT__NEED_DEVICE();
    device_sync(tls_device);
    (void)take_async_error(tls_device);
    return cudaSuccess;
}

cudaError_t
cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (canAccessPeer == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    MT__NEED_DEVICE();
    if (!valid_device(device) || !valid_device(peerDevice)) {
        return fail(cudaErrorInvalidDevice);
    }
    *canAccessPeer = device != peerDevice;
    return cudaSuccess;
}

cudaError_t
cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    MT__NEED_DEVICE();
    if (flags != 0) {
        return fail(cudaErrorInvalidValue);
    }
    if (!valid_device(peerDevice) || peerDevice == tls_device) {
        return fail(cudaErrorInvalidDevice);
    }
    Device *d = rt()->devs[(size_t)tls_device];
    std::lock_guard<std::mutex> g(d->m);
    if (d->peer[(size_t)peerDevice]) {
        return fail(cudaErrorPeerAccessAlreadyEnabled);
    }
    d->peer[(size_t)peerDevice] = true;
    return cudaSuccess;
}

cudaError_t
cudaDeviceDisablePeerAccess(int peerDevice)
{
    MT__NEED_DEVICE();
    if (!valid_device(peerDevice)) {
        return fail(cudaErrorInvalidDevice);
    }
    Device *d = rt()->devs[(size_t)tls_device];
    std::lock_guard<std::mutex> g(d->m);
    if (!d->peer[(size_t)peerDevice]) {
        return fail(cudaErrorPeerAccessNotEnabled);
    }
    d->peer[(size_t)peerDevice] = false;
    return cudaSuccess;
}

cudaError_t
cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    if (leastPriority != nullptr) {
        *leastPriority = 0;
    }
    if (greatestPriority != nullptr) {
        *greatestPriority = -5;
    }
    return cudaSuccess;
}

cudaError_t
cudaDriverGetVersion(int *driverVersion)
{
    if (driverVersion == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t
cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (runtimeVersion == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t
cudaMemGetInfo(size_t *free, size_t *total)
{
    if (free == nullptr || total == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    MT__NEED_DEVICE();
    std::lock_guard<std::mutex> g(rt()->mem_m);
    *total = rt()->capacity;
    *free = rt()->capacity - rt()->devs[(size_t)tls_device]->used;
    return cudaSuccess;
}

/* ---- memory ---- */

cudaError_t
cudaMalloc(void **devPtr, size_t size)
{
    MT__NEED_DEVICE();
    return fail(host_alloc(devPtr, size, MEM_DEVICE));
}

cudaError_t
cudaFree(void *devPtr)
{
    if (devPtr == nullptr) {
        return cudaSuccess;
    }
    MT__NEED_DEVICE();
    int dev;
    {
        std::lock_guard<std::mutex> g(rt()->mem_m);
        auto it = rt()->allocs.find((uintptr_t)devPtr);
        if (it == rt()->allocs.end() || it->second.kind != MEM_DEVICE) {
            return fail(cudaErrorInvalidValue);
        }
        dev = it->second.device;
    }
    device_sync(dev); /* the work queued before may still use it */
    Alloc a;
    if (!take_alloc(devPtr, MEM_DEVICE, &a)) {
        return fail(cudaErrorInvalidValue); /* freed by another thread meanwhile */
    }
    std::free(devPtr);
    return cudaSuccess;
}

cudaError_t
cudaMallocHost(void **ptr, size_t size)
{
    MT__NEED_DEVICE();
    return fail(host_alloc(ptr, size, MEM_PINNED));
}

cudaError_t
cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    MT__NEED_DEVICE();
    if (flags & ~7u) {
        return fail(cudaErrorInvalidValue);
    }
    return fail(host_alloc(pHost, size, MEM_PINNED));
}

cudaError_t
cudaFreeHost(void *ptr)
{
    if (ptr == nullptr) {
        return cudaSuccess;
    }
    MT__NEED_DEVICE();
    if (!has_alloc(ptr, MEM_PINNED)) {
        return fail(cudaErrorInvalidValue);
    }
    for (int d = 0; d < rt()->ndev; d++) {
        device_sync(d);
    }
    Alloc a;
    if (!take_alloc(ptr, MEM_PINNED, &a)) {
        return fail(cudaErrorInvalidValue);
    }
    std::free(ptr);
    return cudaSuccess;
}

cudaError_t
cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    MT__NEED_DEVICE();
    if (ptr == nullptr || size == 0 || (flags & ~15u)) {
        return fail(cudaErrorInvalidValue);
    }
    Runtime *r = rt();
    std::lock_guard<std::mutex> g(r->mem_m);
    uintptr_t a = (uintptr_t)ptr;
    auto it = r->allocs.lower_bound(a);
    bool overlap = it != r->allocs.end() && it->first < a + size;
    if (it != r->allocs.begin()) {
        auto prev = std::prev(it);
        overlap = overlap || prev->first + prev->second.size > a;
    }
    if (overlap) {
        return fail(cudaErrorHostMemoryAlreadyRegistered);
    }
    r->allocs[a] = Alloc{size, 0, tls_device, MEM_REGISTERED};
    return cudaSuccess;
}

cudaError_t
cudaHostUnregister(void *ptr)
{
    MT__NEED_DEVICE();
    Alloc a;
    if (ptr == nullptr || !take_alloc(ptr, MEM_REGISTERED, &a)) {
        return fail(cudaErrorHostMemoryNotRegistered);
    }
    return cudaSuccess;
}

cudaError_t
cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    if (pDevice == nullptr || flags != 0) {
        return fail(cudaErrorInvalidValue);
    }
    MT__NEED_DEVICE();
    Side side;
    int dev;
    cudaError_t e = classify(pHost, 1, &side, &dev);
    if (e != cudaSuccess || side != SIDE_PINNED) {
        return fail(cudaErrorInvalidValue);
    }
    *pDevice = pHost;
    return cudaSuccess;
}

cudaError_t
cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    if (attributes == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    MT__NEED_DEVICE();
    std::lock_guard<std::mutex> g(rt()->mem_m);
    uintptr_t base;
    Alloc a;
    if (ptr != nullptr && find_alloc_locked(ptr, false, &base, &a)) {
        attributes->device = a.device;
        attributes->devicePointer = const_cast<void *>(ptr);
        if (a.kind == MEM_DEVICE) {
            attributes->type = cudaMemoryTypeDevice;
            attributes->hostPointer = nullptr;
        } else {
            attributes->type = cudaMemoryTypeHost;
            attributes->hostPointer = const_cast<void *>(ptr);
        }
    } else {
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->device = -2;
        attributes->devicePointer = nullptr;
        attributes->hostPointer = const_cast<void *>(ptr);
    }
    return cudaSuccess;
}

cudaError_t
cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    MT__NEED_DEVICE();
    Side ds, ss;
    int ddev, sdev;
    cudaError_t e = check_copy(dst, src, count, kind, &ds, &ss, &ddev, &sdev);
    if (e != cudaSuccess) {
        return fail(e);
    }
    if (count > 0) {
        std::shared_ptr<Stream> s = rt()->devs[(size_t)tls_device]->legacy;
        uint64_t t = enqueue(s, [=] { std::memcpy(dst, src, count); });
        wait_ticket(s, t);
    }
    return fail(take_async_error(tls_device));
}

cudaError_t
cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                cudaStream_t stream)
{
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        return fail(e);
    }
    Side ds, ss;
    int ddev, sdev;
    e = check_copy(dst, src, count, kind, &ds, &ss, &ddev, &sdev);
    if (e != cudaSuccess) {
        return fail(e);
    }
    if (count == 0) {
        return cudaSuccess;
    }
    if (ss == SIDE_PAGEABLE && ds == SIDE_DEVICE) {
        /* staged: the caller may reuse its pageable buffer as soon as the call returns */
        auto staged = std::make_shared<std::vector<unsigned char>>(
            (const unsigned char *)src, (const unsigned char *)src + count);
        enqueue(s, [dst, staged] { std::memcpy(dst, staged->data(), staged->size()); });
        return cudaSuccess;
    }
    uint64_t t = enqueue(s, [=] { std::memcpy(dst, src, count); });
    if (ds == SIDE_PAGEABLE || (ds != SIDE_DEVICE && ss != SIDE_DEVICE)) {
        wait_ticket(s, t); /* to pageable memory, or host to host: synchronous */
    }
    return cudaSuccess;
}

cudaError_t
cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    MT__NEED_DEVICE();
    if (!valid_device(dstDevice) || !valid_device(srcDevice)) {
        return fail(cudaErrorInvalidDevice);
    }
    return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

cudaError_t
cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                    cudaStream_t stream)
{
    MT__NEED_DEVICE();
    if (!valid_device(dstDevice) || !valid_device(srcDevice)) {
        return fail(cudaErrorInvalidDevice);
    }
    return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

cudaError_t
cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                  size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        return fail(e);
    }
    if (width > dpitch || width > spitch) {
        return fail(cudaErrorInvalidPitchValue);
    }
    if (width == 0 || height == 0) {
        return cudaSuccess;
    }
    /* the spans from the first row's start to the last row's end, checked as one copy each */
    size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
    Side ds, ss;
    int ddev, sdev;
    if ((e = check_copy(dst, src, 1, kind, &ds, &ss, &ddev, &sdev)) != cudaSuccess ||
        (e = classify(dst, dspan, &ds, &ddev)) != cudaSuccess ||
        (e = classify(src, sspan, &ss, &sdev)) != cudaSuccess) {
        return fail(e);
    }
    auto rows = [=](const unsigned char *from) {
        for (size_t r = 0; r < height; r++) {
            std::memcpy((unsigned char *)dst + r * dpitch, from + r * spitch, width);
        }
    };
    if (ss == SIDE_PAGEABLE && ds == SIDE_DEVICE) {
        auto staged = std::make_shared<std::vector<unsigned char>>(
            (const unsigned char *)src, (const unsigned char *)src + sspan);
        enqueue(s, [rows, staged] { rows(staged->data()); });
        return cudaSuccess;
    }
    uint64_t t = enqueue(s, [rows, src] { rows((const unsigned char *)src); });
    if (ds == SIDE_PAGEABLE || (ds != SIDE_DEVICE && ss != SIDE_DEVICE)) {
        wait_ticket(s, t);
    }
    return cudaSuccess;
}

cudaError_t
cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
             enum cudaMemcpyKind kind)
{
    MT__NEED_DEVICE();
    cudaError_t e = cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, nullptr);
    if (e != cudaSuccess) {
        return e;
    }
    std::shared_ptr<Stream> s = rt()->devs[(size_t)tls_device]->legacy;
    wait_ticket(s, enqueue(s, nullptr));
    return fail(take_async_error(tls_device));
}

cudaError_t
cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        return fail(e);
    }
    if (count == 0) {
        return cudaSuccess;
    }
    Side side;
    int dev;
    e = classify(devPtr, count, &side, &dev);
    if (e != cudaSuccess || side != SIDE_DEVICE || devPtr == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    enqueue(s, [=] { std::memset(devPtr, value, count); });
    return cudaSuccess;
}

cudaError_t
cudaMemset(void *devPtr, int value, size_t count)
{
    return cudaMemsetAsync(devPtr, value, count, nullptr);
}

/* ---- streams ---- */

cudaError_t
cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    if (pStream == nullptr || (flags & ~1u)) {
        return fail(cudaErrorInvalidValue);
    }
    MT__NEED_DEVICE();
    auto s = std::make_shared<Stream>();
    s->device = tls_device;
    s->flags = flags;
    s->priority = std::min(0, std::max(-5, priority));
    CUstream_st *h = new CUstream_st{s};
    {
        Device *d = rt()->devs[(size_t)tls_device];
        std::lock_guard<std::mutex> g(d->m);
        d->streams.push_back(s);
    }
    {
        std::lock_guard<std::mutex> g(rt()->handles_m);
        rt()->streams.insert(h);
    }
    *pStream = h;
    return cudaSuccess;
}

cudaError_t
cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t
cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0);
}

cudaError_t
cudaStreamDestroy(cudaStream_t stream)
{
    MT__NEED_DEVICE();
    {
        std::lock_guard<std::mutex> g(rt()->handles_m);
        if (stream == nullptr || rt()->streams.erase(stream) == 0) {
            return fail(cudaErrorInvalidResourceHandle);
        }
    }
    std::shared_ptr<Stream> s = stream->s;
    delete stream;
    {
        Device *d = rt()->devs[(size_t)s->device];
        std::lock_guard<std::mutex> g(d->m);
        d->streams.erase(std::remove(d->streams.begin(), d->streams.end(), s), d->streams.end());
    }
    /* its queued work still runs; the thread ends when the queue is empty */
    std::lock_guard<std::mutex> l(s->m);
    s->closing = true;
    s->cv.notify_all();
    return cudaSuccess;
}

cudaError_t
cudaStreamSynchronize(cudaStream_t stream)
{
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        return fail(e);
    }
    if (s->legacy) {
        wait_ticket(s, enqueue(s, nullptr)); /* a marker: waits for the blocking streams too */
    } else {
        uint64_t t;
        {
            std::lock_guard<std::mutex> l(s->m);
            t = s->enqueued;
        }
        wait_ticket(s, t);
    }
    return fail(take_async_error(s->device));
}

cudaError_t
cudaStreamQuery(cudaStream_t stream)
{
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        return fail(e);
    }
    std::vector<std::shared_ptr<Stream>> check{s};
    if (s->legacy) {
        Device *d = rt()->devs[(size_t)s->device];
        std::lock_guard<std::mutex> g(d->m);
        for (const auto &o : d->streams) {
            if (!(o->flags & cudaStreamNonBlocking)) {
                check.push_back(o);
            }
        }
    }
    for (const auto &o : check) {
        std::lock_guard<std::mutex> l(o->m);
        if (o->completed < o->enqueued) {
            return cudaErrorNotReady; /* not recorded as the last error, as the runtime's */
        }
    }
    return cudaSuccess;
}

cudaError_t
cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        return fail(e);
    }
    std::shared_ptr<Event> ev = resolve_event(event);
    if (!ev) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    if (flags != 0) {
        return fail(cudaErrorInvalidValue);
    }
    std::vector<Dep> deps;
    {
        std::lock_guard<std::mutex> g(ev->m);
        if (!ev->recorded) {
            return cudaSuccess; /* waits for nothing */
        }
        deps.push_back(Dep{ev->stream, ev->ticket});
    }
    enqueue(s, nullptr, std::move(deps));
    return cudaSuccess;
}

cudaError_t
cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    if (flags == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(hStream, &e);
    if (!s) {
        return fail(e);
    }
    *flags = s->flags;
    return cudaSuccess;
}

cudaError_t
cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    if (priority == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(hStream, &e);
    if (!s) {
        return fail(e);
    }
    *priority = s->priority;
    return cudaSuccess;
}

cudaError_t
cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    if (fn == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    return enqueue_host(stream, [fn, userData] { fn(userData); });
}

/* ---- events ---- */

cudaError_t
cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (event == nullptr || (flags & ~7u) ||
        ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))) {
        return fail(cudaErrorInvalidValue);
    }
    MT__NEED_DEVICE();
    auto ev = std::make_shared<Event>();
    ev->flags = flags;
    ev->device = tls_device;
    CUevent_st *h = new CUevent_st{ev};
    std::lock_guard<std::mutex> g(rt()->handles_m);
    rt()->events.insert(h);
    *event = h;
    return cudaSuccess;
}

cudaError_t
cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t
cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    std::shared_ptr<Event> ev = resolve_event(event);
    if (!ev) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    cudaError_t e;
    std::shared_ptr<Stream> s = resolve(stream, &e);
    if (!s) {
        return fail(e);
    }
    if (s->device != ev->device) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    auto when = std::make_shared<Clock::time_point>();
    uint64_t t = enqueue(s, [when] { *when = Clock::now(); });
    std::lock_guard<std::mutex> g(ev->m);
    ev->recorded = true;
    ev->stream = s;
    ev->ticket = t;
    ev->when = when;
    return cudaSuccess;
}

cudaError_t
cudaEventQuery(cudaEvent_t event)
{
    std::shared_ptr<Event> ev = resolve_event(event);
    if (!ev) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    bool recorded;
    return event_done(*ev, &recorded) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t
cudaEventSynchronize(cudaEvent_t event)
{
    std::shared_ptr<Event> ev = resolve_event(event);
    if (!ev) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    std::shared_ptr<Stream> s;
    uint64_t t = 0;
    {
        std::lock_guard<std::mutex> g(ev->m);
        s = ev->stream;
        t = ev->ticket;
    }
    if (s) {
        wait_ticket(s, t);
    }
    return fail(take_async_error(ev->device));
}

cudaError_t
cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (ms == nullptr) {
        return fail(cudaErrorInvalidValue);
    }
    std::shared_ptr<Event> a = resolve_event(start), b = resolve_event(end);
    if (!a || !b) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    if (((a->flags | b->flags) & cudaEventDisableTiming) || a->device != b->device) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    bool ra, rb;
    bool da = event_done(*a, &ra), db = event_done(*b, &rb);
    if (!ra || !rb) {
        return fail(cudaErrorInvalidResourceHandle);
    }
    if (!da || !db) {
        return fail(cudaErrorNotReady);
    }
    Clock::time_point ta, tb;
    {
        std::lock_guard<std::mutex> g(a->m);
        ta = *a->when;
    }
    {
        std::lock_guard<std::mutex> g(b->m);
        tb = *b->when;
    }
    *ms = std::chrono::duration<float, std::milli>(tb - ta).count();
    return cudaSuccess;
}

cudaError_t
cudaEventDestroy(cudaEvent_t event)
{
    {
        std::lock_guard<std::mutex> g(rt()->handles_m);
        if (event == nullptr || rt()->events.erase(event) == 0) {
            return fail(cudaErrorInvalidResourceHandle);
        }
    }
    delete event; /* queued records hold only their time slot */
    return cudaSuccess;
}

cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                              size_t dynamicSMemSize)
{
    if (numBlocks == nullptr || blockSize <= 0 || blockSize > 1024) {
        return fail(cudaErrorInvalidValue);
    }
    if (func == nullptr) {
        return fail(cudaErrorInvalidDeviceFunction);
    }
    /* as an sm_80 would with no register or static shared memory pressure */
    int warps = (blockSize + 31) / 32;
    int n = std::min(32, 64 / warps);
    if (dynamicSMemSize > 0) {
        n = std::min(n, (int)((kOptinSharedLimit + 1024) / dynamicSMemSize));
    }
    *numBlocks = n;
    return cudaSuccess;
}

cudaError_t
mtEmuMemcpySymbol(void *dst, const void *src, size_t count)
{
    MT__NEED_DEVICE();
    if (count > 0) {
        std::shared_ptr<Stream> s = rt()->devs[(size_t)tls_device]->legacy;
        wait_ticket(s, enqueue(s, [=] { std::memcpy(dst, src, count); }));
    }
    return cudaSuccess;
}

/* ---- kernels ---- */

cudaError_t
cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    if (func == nullptr) {
        return fail(cudaErrorInvalidDeviceFunction);
    }
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > kOptinSharedLimit) {
            return fail(cudaErrorInvalidValue);
        }
        std::lock_guard<std::mutex> g(rt()->func_m);
        rt()->max_dyn_shared[func] = value;
        return cudaSuccess;
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        return value >= -1 && value <= 100 ? cudaSuccess : fail(cudaErrorInvalidValue);
    }
    return fail(cudaErrorInvalidValue);
}

} /* extern "C" */
