/* aten_lite/parallel.c - the intra-op thread pool. */
#include "aten_lite/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* Note [Thread pool]
 * One process-wide pool of (nthreads - 1) workers; the caller is the last
 * thread.  A job is published by bumping `generation` under the mutex; chunks
 * are claimed through one 64-bit atomic holding (generation << 32 | next
 * chunk), so a worker waking late can never claim a chunk of a newer job by
 * mistake.  The caller also claims chunks, then waits for `remaining` to drop
 * to zero.  Only one job runs at a time: a second thread that finds the pool
 * busy runs its job inline.  After fork() the child has no workers, so an
 * atfork handler resets the pool; it is rebuilt lazily (DataLoader workers
 * and spawn'ed ranks fork/exec freely).  Workers spin briefly before sleeping
 * so back-to-back kernels do not pay a futex wake-up each.
 *
 * `workers` holds exactly `nworkers` started threads.  Workers are started
 * once per thread count (`started_for`): when the system refuses a thread,
 * the pool keeps the ones it got (the caller runs every chunk no worker
 * claims, so results do not depend on how many exist) and does not retry
 * until the count changes.  At most MT__MAX_WORKERS are started whatever
 * count is asked for. */
#define MT__MAX_WORKERS 1023

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int nthreads;  /* requested, including the caller; 0: not yet decided */
    int nworkers;  /* running workers: the first nworkers entries of `workers` */
    int started_for; /* the thread count workers were last started for; 0: none */
    pthread_t *workers;
    atomic_uint_fast64_t claim;
    atomic_int remaining;
    atomic_uint generation;
    atomic_flag busy;
    /* the current job (valid while a chunk of it is unclaimed or running) */
    mt_parallel_fn fn;
    void *ctx;
    int64_t begin, end, chunk;
    uint32_t nchunks;
    bool quit;
} mt__pool = {
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .cv = PTHREAD_COND_INITIALIZER,
    .busy = ATOMIC_FLAG_INIT,
};

static _Thread_local bool mt__in_parallel;

bool
mt_in_parallel_region(void)
{
    return mt__in_parallel;
}

static int
mt__default_threads(void)
{
    const char *vars[] = {"MINITORCH_NUM_THREADS", "OMP_NUM_THREADS"};
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long n = v != NULL ? strtol(v, &end, 10) : 0;
        if (v != NULL && end != v && n > 0 && n <= INT32_MAX) {
            return (int)n;
        }
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int
mt_get_num_threads(void)
{
    pthread_mutex_lock(&mt__pool.mu);
    if (mt__pool.nthreads == 0) {
        mt__pool.nthreads = mt__default_threads();
    }
    int n = mt__pool.nthreads;
    pthread_mutex_unlock(&mt__pool.mu);
    return n;
}

/* Claims and runs chunks of job `gen` until none is left. */
static void
mt__run_chunks(uint32_t gen)
{
    for (;;) {
        uint_fast64_t c = atomic_load_explicit(&mt__pool.claim, memory_order_acquire);
        if ((uint32_t)(c >> 32) != gen || (uint32_t)c >= mt__pool.nchunks) {
            return;
        }
        if (!atomic_compare_exchange_weak_explicit(&mt__pool.claim, &c, c + 1,
                                                   memory_order_acq_rel, memory_order_acquire)) {
            continue;
        }
        /* Our chunk is unfinished, so the job's fields are stable. */
        int64_t b = mt__pool.begin + (int64_t)(uint32_t)c * mt__pool.chunk;
        int64_t e = b + mt__pool.chunk < mt__pool.end ? b + mt__pool.chunk : mt__pool.end;
        mt__pool.fn(mt__pool.ctx, b, e);
        atomic_fetch_sub_explicit(&mt__pool.remaining, 1, memory_order_acq_rel);
    }
}

static void *
mt__worker_main(void *arg)
{
    (void)arg;
    mt__in_parallel = true;
    unsigned seen = atomic_load(&mt__pool.generation);
    for (;;) {
        unsigned gen;
        int spins = 0;
        while ((gen = atomic_load_explicit(&mt__pool.generation, memory_order_acquire)) == seen &&
               spins < 4000) {
            spins++;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        if (gen == seen) {
            pthread_mutex_lock(&mt__pool.mu);
            while ((gen = atomic_load(&mt__pool.generation)) == seen && !mt__pool.quit) {
                pthread_cond_wait(&mt__pool.cv, &mt__pool.mu);
            }
            bool quit = mt__pool.quit;
            pthread_mutex_unlock(&mt__pool.mu);
            if (quit) {
                return NULL;
            }
        }
        seen = gen;
        mt__run_chunks(gen);
    }
}

static void
mt__stop_workers(void)
{
    pthread_mutex_lock(&mt__pool.mu);
    mt__pool.quit = true;
    pthread_cond_broadcast(&mt__pool.cv);
    pthread_mutex_unlock(&mt__pool.mu);
    for (int i = 0; i < mt__pool.nworkers; i++) {
        pthread_join(mt__pool.workers[i], NULL);
    }
    free(mt__pool.workers);
    mt__pool.workers = NULL;
    mt__pool.nworkers = 0;
    mt__pool.started_for = 0;
    mt__pool.quit = false;
}

void
mt_set_num_threads(int n)
{
    if (n < 1) {
        n = 1;
    }
    while (atomic_flag_test_and_set(&mt__pool.busy)) {
        /* a job is running on another thread; wait for it */
    }
    if (mt__pool.started_for != 0 && mt__pool.started_for != n) {
        mt__stop_workers();
    }
    pthread_mutex_lock(&mt__pool.mu);
    mt__pool.nthreads = n;
    pthread_mutex_unlock(&mt__pool.mu);
    atomic_flag_clear(&mt__pool.busy);
}

static void
mt__atfork_child(void)
{
    /* The workers do not exist in the child; forget them (their memory is
     * leaked once, on purpose: freeing it is not async-signal-safe). */
    pthread_mutex_init(&mt__pool.mu, NULL);
    pthread_cond_init(&mt__pool.cv, NULL);
    mt__pool.workers = NULL;
    mt__pool.nworkers = 0;
    mt__pool.started_for = 0;
    mt__pool.quit = false;
    atomic_flag_clear(&mt__pool.busy);
}

static void
mt__register_atfork(void)
{
    pthread_atfork(NULL, NULL, mt__atfork_child);
}

/* Starts up to nthreads - 1 workers, once per thread count (Note [Thread
 * pool]).  Called holding busy. */
static void
mt__ensure_workers(int nthreads)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, mt__register_atfork);
    if (mt__pool.started_for == nthreads) {
        return;
    }
    if (mt__pool.started_for != 0) {
        mt__stop_workers();
    }
    mt__pool.started_for = nthreads;
    int want = nthreads - 1 < MT__MAX_WORKERS ? nthreads - 1 : MT__MAX_WORKERS;
    pthread_t *w = malloc(sizeof(pthread_t) * (size_t)want);
    if (w == NULL) {
        return; /* no workers: the caller runs every chunk */
    }
    mt__pool.workers = w;
    for (int i = 0; i < want; i++) {
        if (pthread_create(&w[i], NULL, mt__worker_main, NULL) != 0) {
            break;
        }
        mt__pool.nworkers++;
    }
}

static void
mt__run_job(int64_t begin, int64_t end, int64_t chunk, uint32_t nchunks, mt_parallel_fn fn,
            void *ctx)
{
    mt__pool.fn = fn;
    mt__pool.ctx = ctx;
    mt__pool.begin = begin;
    mt__pool.end = end;
    mt__pool.chunk = chunk;
    mt__pool.nchunks = nchunks;
    atomic_store(&mt__pool.remaining, (int)nchunks);
    pthread_mutex_lock(&mt__pool.mu);
    unsigned gen = atomic_load(&mt__pool.generation) + 1;
    atomic_store_explicit(&mt__pool.claim, (uint_fast64_t)gen << 32, memory_order_release);
    atomic_store_explicit(&mt__pool.generation, gen, memory_order_release);
    pthread_cond_broadcast(&mt__pool.cv);
    pthread_mutex_unlock(&mt__pool.mu);

    mt__in_parallel = true;
    mt__run_chunks(gen);
    mt__in_parallel = false;
    while (atomic_load_explicit(&mt__pool.remaining, memory_order_acquire) != 0) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

void
mt_parallel_for(int64_t begin, int64_t end, int64_t grain, mt_parallel_fn fn, void *ctx)
{
    int64_t n = end - begin;
    if (n <= 0) {
        return;
    }
    if (grain < 1) {
        grain = 1;
    }
    int nthreads = mt_get_num_threads();
    if (n <= grain || nthreads == 1 || mt__in_parallel ||
        atomic_flag_test_and_set(&mt__pool.busy)) {
        fn(ctx, begin, end);
        return;
    }
    int64_t nchunks = (n + grain - 1) / grain;
    if (nchunks > nthreads) {
        nchunks = nthreads;
    }
    int64_t chunk = (n + nchunks - 1) / nchunks;
    nchunks = (n + chunk - 1) / chunk;
    mt__ensure_workers(nthreads);
    mt__run_job(begin, end, chunk, (uint32_t)nchunks, fn, ctx);
    atomic_flag_clear(&mt__pool.busy);
}

void
mt_parallel_chunks(int64_t nchunks, mt_parallel_fn fn, void *ctx)
{
    if (nchunks <= 0) {
        return;
    }
    int nthreads = mt_get_num_threads();
    if (nchunks == 1 || nthreads == 1 || mt__in_parallel ||
        atomic_flag_test_and_set(&mt__pool.busy)) {
        for (int64_t i = 0; i < nchunks; i++) {
            fn(ctx, i, i + 1);
        }
        return;
    }
    mt__ensure_workers(nthreads);
    mt__run_job(0, nchunks, 1, (uint32_t)nchunks, fn, ctx);
    atomic_flag_clear(&mt__pool.busy);
}
