/* aten_lite/cuda/emu/exec.cpp - runs a kernel's blocks: a pool of OS threads takes blocks, and
 * the threads of a block are fibers on one OS thread, switched at barriers and warp operations. */
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define MT_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MT_EMU_ASAN 1
#endif
#endif
#ifdef MT_EMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__x86_64__) && !defined(MT_EMU_UCONTEXT)
#define MT_EMU_ASM_SWITCH 1
#else
#include <ucontext.h>
#endif

/* Note [Block scheduler]
 * A block runs on one OS thread: each of its threads is a fiber with its own stack (64 KiB,
 * 256 KiB under ASan, a guard page below each), started in order.  A fiber runs until it
 * finishes or waits - at __syncthreads() or a warp operation - and the scheduler then resumes
 * the next ready fiber in thread order, sweeping the block again and again until all are done.
 * The last thread to reach a barrier releases the others and goes on.  A warp operation waits
 * for the lanes of its mask that the warp has (a partial last warp has fewer); the last lane to
 * arrive computes every lane's result (shuffles, votes, reductions) into the lanes' records, so
 * no buffer is shared between operations.  What a GPU leaves undefined or hangs on, the
 * emulator reports as the kernel's failure (cudaErrorLaunchFailure, with a message):
 *  - a sweep that resumes nobody while threads wait: a deadlock (some threads wait at a barrier
 *    or a warp operation that others never reach);
 *  - a thread that exits while others wait at __syncthreads(), or a thread that reaches
 *    __syncthreads() after another thread of its block exited: every thread of the block must
 *    reach every barrier (the early-`return`-then-barrier pattern is an error here);
 *  - a warp operation whose mask holds an exited lane or not the calling lane, lanes of one
 *    warp in different warp operations or masks at once, a width that is not a power of two.
 * Divergence within a warp is not modelled: __activemask() answers the lanes of the warp that
 * have not exited (some of which may have run ahead to their end), so a mask taken from it in
 * a divergent branch waits for lanes that never come, and is reported as a deadlock.
 * Fibers switch by a few instructions on x86-64 (the callee-saved registers: the fibers of a
 * block share the floating-point environment of their OS thread), by swapcontext elsewhere;
 * under ASan each switch is announced with __sanitizer_start/finish_switch_fiber, and a reused
 * stack is unpoisoned first.  Blocks of a launch are taken in order by the launching stream's
 * thread and the pool's threads (MINITORCH_EMULATOR_THREADS, default: the number of CPUs), so
 * blocks do run in parallel and in no fixed order; after a failure the remaining blocks are
 * skipped. */

#ifdef MT_EMU_ASM_SWITCH
extern "C" void mt_emu_ctx_swap(void **save_sp, void *load_sp);
extern "C" void mt_emu_ctx_start(void);
/* mt_emu_ctx_swap(save, load): saves the callee-saved state on the current stack and its stack
 * pointer in *save, then resumes the context whose stack pointer is `load`.
 * mt_emu_ctx_start: the first return of a new context lands here; calls r13(r12). */
__asm__(".pushsection .text\n"
        ".p2align 4\n"
        ".globl mt_emu_ctx_swap\n"
        ".hidden mt_emu_ctx_swap\n"
        ".type mt_emu_ctx_swap,@function\n"
        "mt_emu_ctx_swap:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size mt_emu_ctx_swap, .-mt_emu_ctx_swap\n"
        ".p2align 4\n"
        ".globl mt_emu_ctx_start\n"
        ".hidden mt_emu_ctx_start\n"
        ".type mt_emu_ctx_start,@function\n"
        "mt_emu_ctx_start:\n"
        "    movq %r12, %rdi\n"
        "    callq *%r13\n"
        "    ud2\n"
        ".size mt_emu_ctx_start, .-mt_emu_ctx_start\n"
        ".popsection\n");
#endif

namespace mt_emu {

namespace {

thread_local ThreadCtx *tls_thread = nullptr;
thread_local BlockCtx *tls_block = nullptr;

#ifdef MT_EMU_ASAN
constexpr size_t kStackSize = 256 * 1024;
#else
constexpr size_t kStackSize = 64 * 1024;
#endif

enum FiberState { READY, WAIT_BAR, WAIT_WARP, DONE };

struct Ctx {
#ifdef MT_EMU_ASM_SWITCH
    void *sp = nullptr;
#else
    ucontext_t uc;
#endif
};

struct Fiber : ThreadCtx {
    Ctx ctx;
    char *stack = nullptr; /* lowest usable byte */
    char *dirty_lo = nullptr; /* below the top, what ASan may still hold poisoned */
    int state = READY;
    unsigned int bar_out = 0;
    int wkind = 0, wparam = 0, wwidth = 32;
    uint64_t wval = 0, wout = 0;
    void *asan_fake = nullptr;
};

struct Warp {
    unsigned int existing, exited, arrived, group;
    int kind;
};

struct Worker {
    Ctx main;
    std::vector<Fiber> fibers;
    char *region = nullptr;
    size_t region_bytes = 0, nstacks = 0;
    void *shared = nullptr;
    size_t shared_bytes = 0;
    /* the running block */
    KernelBase *k = nullptr;
    BlockCtx blk;
    unsigned int n = 0, bar_arrived = 0, bar_acc = 0, exited = 0, done = 0;
    int first_exited = -1;
    Warp warps[32];
    Fiber *cur = nullptr;
    cudaError_t err = cudaSuccess;
    std::string msg;
    const void *asan_main_bottom = nullptr;
    size_t asan_main_size = 0;
    void *asan_main_fake = nullptr;

    ~Worker()
    {
        if (region != nullptr) {
#ifdef MT_EMU_ASAN
            ASAN_UNPOISON_MEMORY_REGION(region, region_bytes);
#endif
            munmap(region, region_bytes);
        }
        std::free(shared);
    }
};

thread_local std::unique_ptr<Worker> tls_worker_owner;
thread_local Worker *tls_worker = nullptr;

Worker *
worker()
{
    if (tls_worker == nullptr) {
        tls_worker_owner.reset(new Worker);
        tls_worker = tls_worker_owner.get();
    }
    return tls_worker;
}

/* ---- fibers ---- */

void fiber_entry(void *);

#ifndef MT_EMU_ASM_SWITCH
void
fiber_entry_uc()
{
    fiber_entry(nullptr);
}
#endif

void
ctx_switch(Ctx *save, Ctx *load)
{
#ifdef MT_EMU_ASM_SWITCH
    mt_emu_ctx_swap(&save->sp, load->sp);
#else
    swapcontext(&save->uc, &load->uc);
#endif
}

void
ctx_init(Fiber *f, Worker *w)
{
    /* stack tops 64 bytes apart modulo a page, or every fiber's frames would fall into the
     * same cache sets */
    char *top = f->stack + kStackSize - (f->linear % 64) * 64;
#ifdef MT_EMU_ASAN
    char *end = f->stack + kStackSize;
    if (f->dirty_lo != nullptr && f->dirty_lo < end) {
        ASAN_UNPOISON_MEMORY_REGION(f->dirty_lo, (size_t)(end - f->dirty_lo));
    }
#endif
    f->dirty_lo = f->stack + kStackSize;
    f->asan_fake = nullptr;
#ifdef MT_EMU_ASM_SWITCH
    (void)w;
    uint64_t *sp = (uint64_t *)(((uintptr_t)top & ~(uintptr_t)15) - 16);
    *--sp = (uint64_t)(uintptr_t)&mt_emu_ctx_start; /* returned to by the first switch */
    *--sp = 0;                                      /* rbp */
    *--sp = 0;                                      /* rbx */
    *--sp = 0;                                      /* r12: the argument */
    *--sp = (uint64_t)(uintptr_t)&fiber_entry;      /* r13: the function */
    *--sp = 0;                                      /* r14 */
    *--sp = 0;                                      /* r15 */
    f->ctx.sp = sp;
#else
    getcontext(&f->ctx.uc);
    f->ctx.uc.uc_stack.ss_sp = f->stack;
    f->ctx.uc.uc_stack.ss_size = kStackSize;
    f->ctx.uc.uc_link = &w->main.uc;
    makecontext(&f->ctx.uc, fiber_entry_uc, 0);
#endif
}

/* scheduler -> fiber f, until f waits or ends */
void
resume(Worker *w, Fiber *f)
{
    w->cur = f;
    tls_thread = f;
#ifdef MT_EMU_ASAN
    __sanitizer_start_switch_fiber(&w->asan_main_fake, f->stack, kStackSize);
#endif
    ctx_switch(&w->main, &f->ctx);
#ifdef MT_EMU_ASAN
    __sanitizer_finish_switch_fiber(w->asan_main_fake, nullptr, nullptr);
#endif
    w->cur = nullptr;
}

/* fiber -> scheduler; returns when the scheduler resumes f */
void
yield(Worker *w, Fiber *f)
{
#ifdef MT_EMU_ASAN
    __sanitizer_start_switch_fiber(&f->asan_fake, w->asan_main_bottom, w->asan_main_size);
#endif
    ctx_switch(&f->ctx, &w->main);
#ifdef MT_EMU_ASAN
    __sanitizer_finish_switch_fiber(f->asan_fake, &w->asan_main_bottom, &w->asan_main_size);
#endif
}

/* fiber -> scheduler for good (f has ended or its block is abandoned) */
[[noreturn]] void
leave(Worker *w, Fiber *f, bool clean)
{
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    f->dirty_lo = clean && here - 4096 > (uintptr_t)f->stack ? (char *)(here - 4096) : f->stack;
#ifdef MT_EMU_ASAN
    __sanitizer_start_switch_fiber(nullptr, w->asan_main_bottom, w->asan_main_size);
#endif
    ctx_switch(&f->ctx, &w->main);
    std::abort(); /* never resumed */
}

void
fiber_entry(void *)
{
    Worker *w = tls_worker;
    Fiber *f = w->cur;
#ifdef MT_EMU_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &w->asan_main_bottom, &w->asan_main_size);
#endif
    w->k->run();
    /* the thread has returned from the kernel */
    f->state = DONE;
    w->done++;
    Warp &wp = w->warps[f->warp];
    unsigned int bit = 1u << f->lane;
    wp.exited |= bit;
    if (w->first_exited < 0) {
        w->first_exited = (int)f->linear;
    }
    w->exited++;
    if (w->bar_arrived > 0 && w->err == cudaSuccess) {
        char b[200];
        std::snprintf(b, sizeof(b), "thread (%u,%u,%u) exited while %u thread(s) wait at "
                      "__syncthreads()", f->idx.x, f->idx.y, f->idx.z, w->bar_arrived);
        w->err = cudaErrorLaunchFailure;
        w->msg = b;
    } else if (wp.arrived != 0 && (wp.group & bit) && w->err == cudaSuccess) {
        char b[200];
        std::snprintf(b, sizeof(b), "thread (%u,%u,%u) (lane %u of warp %u) exited while lanes "
                      "of its warp wait for it at a warp operation", f->idx.x, f->idx.y, f->idx.z,
                      f->lane, f->warp);
        w->err = cudaErrorLaunchFailure;
        w->msg = b;
    }
    leave(w, f, true);
}

Worker *
current(const char *what)
{
    Worker *w = tls_worker;
    if (w == nullptr || w->cur == nullptr) {
        std::fprintf(stderr, "minitorch CUDA emulator: %s called outside a kernel\n", what);
        std::abort();
    }
    return w;
}

/* the kernel fails: records why (with the thread's coordinates) and abandons the block */
[[noreturn]] void
fail_here(Worker *w, cudaError_t code, const char *fmt, ...)
{
    Fiber *f = w->cur;
    if (w->err == cudaSuccess) {
        char b[300];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(b, sizeof(b), fmt, ap);
        va_end(ap);
        char full[400];
        std::snprintf(full, sizeof(full), "%s (thread (%u,%u,%u) of block (%u,%u,%u))", b,
                      f->idx.x, f->idx.y, f->idx.z, w->blk.block_idx.x, w->blk.block_idx.y,
                      w->blk.block_idx.z);
        w->err = code;
        w->msg = full;
    }
    leave(w, f, false);
}

/* ---- blocks ---- */

void
ensure_stacks(Worker *w, size_t n)
{
    if (n <= w->nstacks) {
        return;
    }
    size_t want = 32;
    while (want < n) {
        want *= 2;
    }
    if (w->region != nullptr) {
#ifdef MT_EMU_ASAN
        /* the next mapping may land here */
        ASAN_UNPOISON_MEMORY_REGION(w->region, w->region_bytes);
#endif
        munmap(w->region, w->region_bytes);
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t each = kStackSize + page;
    void *r = mmap(nullptr, each * want, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED) {
        std::fprintf(stderr, "minitorch CUDA emulator: cannot map %zu fiber stacks\n", want);
        std::abort();
    }
    w->region = (char *)r;
    w->region_bytes = each * want;
    w->fibers.assign(want, Fiber());
    for (size_t i = 0; i < want; i++) {
        char *lo = w->region + i * each;
        mprotect(lo, page, PROT_NONE); /* guard: an overflow faults instead of corrupting */
        w->fibers[i].stack = lo + page;
    }
    w->nstacks = want;
}

void
run_block(Worker *w, KernelBase *k, dim3 grid, dim3 block, size_t shmem, uint64_t b)
{
    unsigned int n = block.x * block.y * block.z;
    ensure_stacks(w, n);
    if (shmem != w->shared_bytes || w->shared == nullptr) {
        std::free(w->shared);
        w->shared = nullptr;
        if (posix_memalign(&w->shared, 16, shmem > 0 ? shmem : 16) != 0) {
            std::fprintf(stderr, "minitorch CUDA emulator: out of host memory\n");
            std::abort();
        }
        w->shared_bytes = shmem;
    }
    w->k = k;
    w->blk.block_idx = uint3{(unsigned int)(b % grid.x), (unsigned int)((b / grid.x) % grid.y),
                             (unsigned int)(b / ((uint64_t)grid.x * grid.y))};
    w->blk.block_dim = block;
    w->blk.grid_dim = grid;
    w->blk.dyn_shared = w->shared;
    w->blk.dyn_shared_bytes = shmem;
    w->n = n;
    w->bar_arrived = w->bar_acc = w->exited = w->done = 0;
    w->first_exited = -1;
    w->err = cudaSuccess;
    w->msg.clear();
    for (unsigned int t = 0; t < n; t++) {
        Fiber &f = w->fibers[t];
        f.idx = uint3{t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
        f.linear = t;
        f.lane = t % 32;
        f.warp = t / 32;
        f.state = READY;
        ctx_init(&f, w);
    }
    for (unsigned int i = 0; i < (n + 31) / 32; i++) {
        unsigned int lanes = n - i * 32 >= 32 ? 32 : n - i * 32;
        w->warps[i] = Warp{lanes == 32 ? 0xffffffffu : (1u << lanes) - 1, 0, 0, 0, 0};
    }
    tls_block = &w->blk;
    for (;;) {
        bool progress = false;
        for (unsigned int t = 0; t < n; t++) {
            Fiber &f = w->fibers[t];
            if (f.state != READY) {
                continue;
            }
            resume(w, &f);
            progress = true;
            if (w->err != cudaSuccess) {
                break;
            }
        }
        if (w->err != cudaSuccess || w->done == n) {
            break;
        }
        if (!progress) {
            unsigned int at_bar = 0, at_warp = 0;
            for (unsigned int t = 0; t < n; t++) {
                at_bar += w->fibers[t].state == WAIT_BAR;
                at_warp += w->fibers[t].state == WAIT_WARP;
            }
            char m[300];
            std::snprintf(m, sizeof(m), "deadlock in block (%u,%u,%u): %u thread(s) wait at "
                          "__syncthreads(), %u at warp operations, %u exited, of %u",
                          w->blk.block_idx.x, w->blk.block_idx.y, w->blk.block_idx.z, at_bar,
                          at_warp, w->done, n);
            w->err = cudaErrorLaunchFailure;
            w->msg = m;
            break;
        }
    }
    if (w->err != cudaSuccess) {
        for (unsigned int t = 0; t < n; t++) {
            if (w->fibers[t].state != DONE) {
                w->fibers[t].dirty_lo = w->fibers[t].stack; /* abandoned mid-kernel */
            }
        }
    }
    tls_block = nullptr;
    tls_thread = nullptr;
}

/* ---- the pool ---- */

struct Job {
    KernelBase *k;
    dim3 grid, block;
    size_t shmem;
    uint64_t nblocks;
    std::atomic<uint64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex m;
    cudaError_t err = cudaSuccess;
    std::string msg;
    int helpers = 0; /* guarded by Pool::m */
};

struct Pool {
    std::mutex m;
    std::condition_variable cv, done_cv;
    std::deque<Job *> jobs;
    int size = 1;
    bool started = false;
};

Pool *
pool()
{
    static Pool *p = [] {
        Pool *x = new Pool;
        long n = (long)std::thread::hardware_concurrency();
        const char *env = std::getenv("MINITORCH_EMULATOR_THREADS");
        if (env != nullptr && *env != '\0') {
            n = std::strtol(env, nullptr, 10);
        }
        x->size = (int)(n < 1 ? 1 : (n > 256 ? 256 : n));
        return x;
    }();
    return p;
}

void
work(Job *j)
{
    Worker *w = worker();
    uint64_t b;
    while ((b = j->next.fetch_add(1)) < j->nblocks) {
        if (j->failed.load(std::memory_order_relaxed)) {
            continue;
        }
        run_block(w, j->k, j->grid, j->block, j->shmem, b);
        if (w->err != cudaSuccess) {
            std::lock_guard<std::mutex> g(j->m);
            if (j->err == cudaSuccess) {
                j->err = w->err;
                j->msg = w->msg;
            }
            j->failed = true;
        }
    }
}

void
helper_main(Pool *p)
{
    std::unique_lock<std::mutex> l(p->m);
    for (;;) {
        p->cv.wait(l, [&] { return !p->jobs.empty(); });
        Job *j = p->jobs.front();
        j->helpers++;
        l.unlock();
        work(j);
        l.lock();
        for (auto it = p->jobs.begin(); it != p->jobs.end(); ++it) {
            if (*it == j) {
                p->jobs.erase(it); /* every block is taken */
                break;
            }
        }
        j->helpers--;
        p->done_cv.notify_all();
    }
}

} /* namespace */

ThreadCtx *
current_thread()
{
    return tls_thread;
}

BlockCtx *
current_block()
{
    return tls_block;
}

int
pool_size()
{
    return pool()->size;
}

cudaError_t
execute_kernel(dim3 grid, dim3 block, size_t shmem, KernelBase *k, std::string *msg)
{
    Pool *p = pool();
    Job j;
    j.k = k;
    j.grid = grid;
    j.block = block;
    j.shmem = shmem;
    j.nblocks = (uint64_t)grid.x * grid.y * grid.z;
    bool shared = j.nblocks > 1 && p->size > 1;
    if (shared) {
        std::lock_guard<std::mutex> g(p->m);
        if (!p->started) {
            p->started = true;
            for (int i = 0; i < p->size - 1; i++) {
                std::thread(helper_main, p).detach();
            }
        }
        p->jobs.push_back(&j);
        p->cv.notify_all();
    }
    work(&j);
    if (shared) {
        std::unique_lock<std::mutex> l(p->m);
        for (auto it = p->jobs.begin(); it != p->jobs.end(); ++it) {
            if (*it == &j) {
                p->jobs.erase(it);
                break;
            }
        }
        p->done_cv.wait(l, [&] { return j.helpers == 0; });
    }
    if (j.err != cudaSuccess) {
        *msg = j.msg;
    }
    return j.err;
}

/* ---- what kernels call ---- */

int
block_barrier(int kind, int pred)
{
    Worker *w = current("__syncthreads()");
    Fiber *f = w->cur;
    if (w->exited > 0) {
        Fiber &e = w->fibers[(size_t)w->first_exited];
        fail_here(w, cudaErrorLaunchFailure,
                  "__syncthreads() reached after thread (%u,%u,%u) of the block exited "
                  "(every thread of a block must reach every barrier)",
                  e.idx.x, e.idx.y, e.idx.z);
    }
    w->bar_arrived++;
    w->bar_acc += pred != 0;
    if (w->bar_arrived == w->n) {
        unsigned int acc = w->bar_acc;
        w->bar_arrived = 0;
        w->bar_acc = 0;
        for (unsigned int t = 0; t < w->n; t++) {
            Fiber &o = w->fibers[t];
            if (o.state == WAIT_BAR) {
                o.state = READY;
                o.bar_out = acc;
            }
        }
        f->bar_out = acc;
    } else {
        f->state = WAIT_BAR;
        yield(w, f);
    }
    unsigned int acc = f->bar_out;
    switch (kind) {
    case BAR_COUNT: return (int)acc;
    case BAR_AND: return acc == w->n;
    case BAR_OR: return acc > 0;
    default: return 0;
    }
}

namespace {

const char *
warp_op_name(int kind)
{
    switch (kind) {
    case WARP_SYNC: return "__syncwarp";
    case WARP_SHFL: return "__shfl_sync";
    case WARP_SHFL_UP: return "__shfl_up_sync";
    case WARP_SHFL_DOWN: return "__shfl_down_sync";
    case WARP_SHFL_XOR: return "__shfl_xor_sync";
    case WARP_BALLOT: return "__ballot_sync";
    case WARP_ALL: return "__all_sync";
    case WARP_ANY: return "__any_sync";
    case WARP_MATCH_ANY: return "__match_any_sync";
    default: return "__reduce_*_sync";
    }
}

/* the last lane of the group has arrived: every lane's result */
void
complete_warp_op(Worker *w, unsigned int warp, Warp &wp)
{
    Fiber *lanes = &w->fibers[(size_t)warp * 32];
    unsigned int g = wp.group;
    uint64_t red = 0;
    switch (wp.kind) {
    case WARP_BALLOT:
    case WARP_ALL:
    case WARP_ANY: {
        unsigned int bal = 0;
        for (unsigned int l = 0; l < 32; l++) {
            if ((g >> l & 1u) && lanes[l].wval != 0) {
                bal |= 1u << l;
            }
        }
        red = wp.kind == WARP_BALLOT ? bal : wp.kind == WARP_ALL ? bal == g : bal != 0;
        break;
    }
    case WARP_REDUCE_ADD:
    case WARP_REDUCE_MIN_U:
    case WARP_REDUCE_MAX_U:
    case WARP_REDUCE_MIN_S:
    case WARP_REDUCE_MAX_S:
    case WARP_REDUCE_AND:
    case WARP_REDUCE_OR:
    case WARP_REDUCE_XOR: {
        bool first = true;
        uint32_t acc = 0;
        for (unsigned int l = 0; l < 32; l++) {
            if (!(g >> l & 1u)) {
                continue;
            }
            uint32_t v = (uint32_t)lanes[l].wval;
            if (first) {
                acc = v;
                first = false;
                continue;
            }
            switch (wp.kind) {
            case WARP_REDUCE_ADD: acc += v; break;
            case WARP_REDUCE_MIN_U: acc = v < acc ? v : acc; break;
            case WARP_REDUCE_MAX_U: acc = v > acc ? v : acc; break;
            case WARP_REDUCE_MIN_S: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
            case WARP_REDUCE_MAX_S: acc = (int32_t)v > (int32_t)acc ? v : acc; break;
            case WARP_REDUCE_AND: acc &= v; break;
            case WARP_REDUCE_OR: acc |= v; break;
            default: acc ^= v; break;
            }
        }
        red = acc;
        break;
    }
    default:
        break;
    }
    for (unsigned int l = 0; l < 32; l++) {
        if (!(g >> l & 1u)) {
            continue;
        }
        Fiber &f = lanes[l];
        unsigned int width = (unsigned int)f.wwidth;
        unsigned int seg = l & ~(width - 1);
        unsigned int src = l;
        switch (wp.kind) {
        case WARP_SHFL:
            src = seg + ((unsigned int)f.wparam & (width - 1));
            break;
        case WARP_SHFL_UP:
            src = (l - seg) >= (unsigned int)f.wparam ? l - (unsigned int)f.wparam : l;
            break;
        case WARP_SHFL_DOWN:
            src = (l - seg) + (unsigned int)f.wparam < width ? l + (unsigned int)f.wparam : l;
            break;
        case WARP_SHFL_XOR:
            src = l ^ (unsigned int)f.wparam;
            if (src >= 32 || (src & ~(width - 1)) > seg) {
                src = l; /* a later segment: the lane's own value */
            }
            break;
        case WARP_MATCH_ANY: {
            unsigned int m = 0;
            for (unsigned int o = 0; o < 32; o++) {
                if ((g >> o & 1u) && lanes[o].wval == f.wval) {
                    m |= 1u << o;
                }
            }
            f.wout = m;
            break;
        }
        default:
            break;
        }
        if (wp.kind >= WARP_SHFL && wp.kind <= WARP_SHFL_XOR) {
            f.wout = (g >> src & 1u) ? lanes[src].wval : f.wval; /* inactive source: own */
        } else if (wp.kind != WARP_MATCH_ANY) {
            f.wout = red;
        }
        if (f.state == WAIT_WARP) {
            f.state = READY;
        }
    }
    wp.arrived = 0;
}

} /* namespace */

uint64_t
warp_op(int kind, unsigned int mask, uint64_t value, int param, int width)
{
    Worker *w = current("a warp operation");
    Fiber *f = w->cur;
    Warp &wp = w->warps[f->warp];
    unsigned int bit = 1u << f->lane;
    unsigned int eff = mask & wp.existing;
    if (width <= 0 || width > 32 || (width & (width - 1)) != 0) {
        fail_here(w, cudaErrorLaunchFailure, "%s with width %d (not a power of two up to 32)",
                  warp_op_name(kind), width);
    }
    if (!(eff & bit)) {
        fail_here(w, cudaErrorLaunchFailure, "%s called by lane %u, which its mask 0x%08x leaves "
                  "out", warp_op_name(kind), f->lane, mask);
    }
    if (eff & wp.exited) {
        fail_here(w, cudaErrorLaunchFailure, "%s with mask 0x%08x waits for exited lanes 0x%08x",
                  warp_op_name(kind), mask, eff & wp.exited);
    }
    if (wp.arrived == 0) {
        wp.group = eff;
        wp.kind = kind;
    } else if (wp.group != eff || wp.kind != kind) {
        fail_here(w, cudaErrorLaunchFailure, "lanes of warp %u in different warp operations at "
                  "once: %s with mask 0x%08x while others wait at %s with mask 0x%08x",
                  f->warp, warp_op_name(kind), eff, warp_op_name(wp.kind), wp.group);
    }
    f->wkind = kind;
    f->wval = value;
    f->wparam = param;
    f->wwidth = width;
    wp.arrived |= bit;
    if (wp.arrived == wp.group) {
        complete_warp_op(w, f->warp, wp);
    } else {
        f->state = WAIT_WARP;
        yield(w, f);
    }
    return f->wout;
}

unsigned int
active_mask()
{
    Worker *w = current("__activemask()");
    Warp &wp = w->warps[w->cur->warp];
    return wp.existing & ~wp.exited;
}

void
device_assert_fail(const char *expr, const char *file, int line)
{
    Worker *w = current("a device-side assertion");
    Fiber *f = w->cur;
    std::fprintf(stderr, "%s:%d: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
                 file, line, w->blk.block_idx.x, w->blk.block_idx.y, w->blk.block_idx.z, f->idx.x,
                 f->idx.y, f->idx.z, expr);
    fail_here(w, cudaErrorAssert, "device-side assertion `%s` failed at %s:%d", expr, file, line);
}

void
trap()
{
    fail_here(current("__trap()"), cudaErrorLaunchFailure, "__trap() called");
}

} /* namespace mt_emu */
