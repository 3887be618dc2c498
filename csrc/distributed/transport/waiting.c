/* csrc/distributed/transport/waiting.c - see Note [Polling before sleeping]. */
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "csrc/distributed/transport/waiting.h"

bool
mt_oversubscribed(int size)
{
    static _Atomic long local_env = -2, cores = -2; /* read once: getenv and sysconf are not free */
    if (atomic_load(&cores) == -2) {
        const char *lws = getenv("LOCAL_WORLD_SIZE");
        atomic_store(&local_env, lws != NULL && atol(lws) > 0 ? atol(lws) : -1);
        atomic_store(&cores, sysconf(_SC_NPROCESSORS_ONLN));
    }
    long local = atomic_load(&local_env) > 0 ? atomic_load(&local_env) : size;
    long c = atomic_load(&cores);
    return c > 0 && local > c;
}

int64_t
mt_spin_us(bool oversubscribed)
{
    static _Atomic int64_t cached = -2; /* -2: not read yet, -1: not set */
    int64_t v = atomic_load(&cached);
    if (v == -2) {
        const char *e = getenv("MINITORCH_SPIN_US");
        char *end = NULL;
        long long x = e != NULL ? strtoll(e, &end, 10) : -1;
        v = (e != NULL && end != e && *end == '\0' && x >= 0 && x <= 1000000) ? (int64_t)x : -1;
        atomic_store(&cached, v);
    }
    return v >= 0 ? v : oversubscribed ? 100 : 50;
}
