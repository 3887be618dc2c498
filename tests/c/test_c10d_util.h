/* tests/c/test_c10d_util.h - a tiny harness for the distributed C tests: checks, forked ranks, shared counters. */
#ifndef TESTS_C_TEST_C10D_UTIL_H
#define TESTS_C_TEST_C10D_UTIL_H

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "c10_lite/error.h"

/* Counters live in shared memory so forked ranks can report into them. */
typedef struct mt_test_shared {
    _Atomic int passed;
    _Atomic int failed;
    _Atomic int port;    /* published by a rank that started a TCPStore master */
    _Atomic int flag;    /* free for tests */
    _Atomic long long scratch[64];
} mt_test_shared;

static mt_test_shared *mt_t;

static inline void
mt_test_init(void)
{
    mt_t = mmap(NULL, sizeof(*mt_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mt_t == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    memset((void *)mt_t, 0, sizeof(*mt_t));
    setvbuf(stdout, NULL, _IONBF, 0);
}

#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (cond) {                                                               \
            atomic_fetch_add(&mt_t->passed, 1);                                   \
        }                                                                         \
        else {                                                                    \
            atomic_fetch_add(&mt_t->failed, 1);                                   \
            fprintf(stderr, "FAIL %s:%d (pid %d): %s: ", __FILE__, __LINE__,      \
                    (int)getpid(), #cond);                                        \
            fprintf(stderr, __VA_ARGS__);                                         \
            fprintf(stderr, " [last error: %s]\n", mt_error_message());           \
        }                                                                         \
    } while (0)

/* A check that also returns from the (void) test function on failure. */
#define REQUIRE(cond, ...)                                                        \
    do {                                                                          \
        int ok_ = (cond);                                                         \
        CHECK(ok_, __VA_ARGS__);                                                  \
        if (!ok_) {                                                               \
            return;                                                               \
        }                                                                         \
    } while (0)

static inline double
mt_test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef void (*mt_rank_fn)(int rank, int world, void *arg);

/* Forks `world` processes running fn(rank, world, arg), waits at most
 * timeout_s for them (stragglers are killed and count as failures).  A child
 * exiting non-zero (or by a signal) counts as a failure unless `expect_exit`
 * has its bit set for that rank (fault tests). */
static inline void
mt_test_run_ranks(int world, mt_rank_fn fn, void *arg, double timeout_s, unsigned expect_exit)
{
    pid_t pids[16];
    atomic_store(&mt_t->port, 0);
    atomic_store(&mt_t->flag, 0);
    for (int r = 0; r < world; r++) {
        pids[r] = fork();
        if (pids[r] < 0) {
            perror("fork");
            exit(2);
        }
        if (pids[r] == 0) {
            alarm((unsigned)timeout_s + 5);
            fn(r, world, arg);
            fflush(NULL);
            _exit(0);
        }
    }
    double end = mt_test_now() + timeout_s;
    int left = world;
    while (left > 0) {
        int status;
        pid_t p = waitpid(-1, &status, WNOHANG);
        if (p > 0) {
            int r = 0;
            while (r < world && pids[r] != p) {
                r++;
            }
            if (r == world) {
                continue;
            }
            left--;
            pids[r] = 0;
            int bad = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
            if (bad && !(expect_exit & (1u << r))) {
                atomic_fetch_add(&mt_t->failed, 1);
                fprintf(stderr, "FAIL: rank %d of %d exited abnormally (status 0x%x)\n", r, world,
                        status);
            }
            continue;
        }
        if (mt_test_now() > end) {
            for (int r = 0; r < world; r++) {
                if (pids[r] > 0) {
                    fprintf(stderr, "FAIL: rank %d of %d still running after %.0f s; killed\n",
                            r, world, timeout_s);
                    atomic_fetch_add(&mt_t->failed, 1);
                    kill(pids[r], SIGKILL);
                    waitpid(pids[r], NULL, 0);
                    pids[r] = 0;
                    left--;
                }
            }
            break;
        }
        usleep(2000);
    }
}

/* Waits until some rank published the master's port (at most 10 s). */
static inline int
mt_test_wait_port(void)
{
    double end = mt_test_now() + 10;
    while (atomic_load(&mt_t->port) == 0 && mt_test_now() < end) {
        usleep(1000);
    }
    return atomic_load(&mt_t->port);
}

static inline int
mt_test_report(void)
{
    int p = atomic_load(&mt_t->passed), f = atomic_load(&mt_t->failed);
    printf("%d passed, %d failed\n", p, f);
    return f == 0 && p > 0 ? 0 : 1;
}

#endif /* TESTS_C_TEST_C10D_UTIL_H */
