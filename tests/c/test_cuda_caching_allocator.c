/* tests/c/test_cuda_caching_allocator.c - the caching allocator (Note [Caching allocator]) over
 * a host-memory backend that counts driver calls, has a capacity, and events the test
 * completes by hand. */
#include <stdint.h>

#include "c10_lite/cuda_alloc.h"
#include "test_c10d_util.h"

typedef struct {
    size_t capacity, used;
    int mallocs, frees, events_live;
} fake_gpu;

typedef struct {
    void *stream;
    int done;
} fake_event;

/* each allocation records its size in front of the bytes handed out */
static int
fake_malloc(void *ctx, int device, size_t nbytes, void **ptr)
{
    fake_gpu *g = (fake_gpu *)ctx + device;
    if (g->used + nbytes > g->capacity) {
        return mt_error_set(MT_ENOMEM, "fake device %d is full", device);
    }
    size_t *p = malloc(nbytes + 16);
    if (p == NULL) {
        return mt_error_set(MT_ENOMEM, "host");
    }
    p[0] = nbytes;
    memset(p + 2, 0xAB, nbytes);
    g->used += nbytes;
    g->mallocs++;
    *ptr = p + 2;
    return 0;
}

static void
fake_free(void *ctx, int device, void *ptr)
{
    fake_gpu *g = (fake_gpu *)ctx + device;
    size_t *p = (size_t *)ptr - 2;
    g->used -= p[0];
    g->frees++;
    free(p);
}

static int
fake_record_event(void *ctx, int device, void *stream, void **event)
{
    fake_gpu *g = (fake_gpu *)ctx + device;
    fake_event *e = calloc(1, sizeof(*e));
    e->stream = stream;
    g->events_live++;
    *event = e;
    return 0;
}

static int
fake_event_done(void *ctx, void *event)
{
    (void)ctx;
    return ((fake_event *)event)->done;
}

static void
fake_free_event(void *ctx, void *event)
{
    fake_gpu *g = ctx;
    g->events_live--; /* counted on device 0: the tests use one device for events */
    free(event);
}

static mt_cuda_alloc *
make(fake_gpu *gpus, int n)
{
    mt_cuda_backend be = {fake_malloc, fake_free, fake_record_event, fake_event_done,
                          fake_free_event, gpus};
    return mt_cuda_alloc_new(&be, n);
}

static void
test_rounding(void)
{
    CHECK(mt_cuda_alloc_round(1) == 512, "1 -> %zu", mt_cuda_alloc_round(1));
    CHECK(mt_cuda_alloc_round(512) == 512, "512");
    CHECK(mt_cuda_alloc_round(513) == 1024, "513");
    CHECK(mt_cuda_alloc_round((1 << 20) - 1) == (1 << 20), "just below 1 MiB");
    CHECK(mt_cuda_alloc_round(1 << 20) == (2 << 20), "1 MiB -> 2 MiB");
    CHECK(mt_cuda_alloc_round((2 << 20) + 1) == (4 << 20), "2 MiB + 1 -> 4 MiB");
}

/* a training loop's allocations: after the first step, no driver call */
static void
test_steady_state_never_reaches_the_driver(void)
{
    fake_gpu g[1] = {{.capacity = (size_t)1 << 30}};
    mt_cuda_alloc *a = make(g, 1);
    REQUIRE(a != NULL, "new");
    size_t sizes[] = {100, 4000, 1 << 20, 3 << 20, 800, 4000, 16 << 20};
    int n = (int)(sizeof(sizes) / sizeof(sizes[0]));
    for (int step = 0; step < 50; step++) {
        void *p[7];
        for (int i = 0; i < n; i++) {
            CHECK(mt_cuda_alloc_malloc(a, 0, NULL, sizes[i], &p[i]) == 0 && p[i] != NULL,
                  "malloc %zu", sizes[i]);
        }
        for (int i = n - 1; i >= 0; i--) {
            CHECK(mt_cuda_alloc_free(a, p[i]) == 0, "free");
        }
        if (step == 0) {
            CHECK(g[0].mallocs == n, "first step: one driver malloc each (%d)", g[0].mallocs);
        }
    }
    mt_cuda_alloc_stats st;
    mt_cuda_alloc_get_stats(a, 0, &st);
    CHECK(g[0].mallocs == n && st.driver_mallocs == n, "no driver malloc after the first step");
    CHECK(g[0].frees == 0, "nothing went back to the driver");
    CHECK(st.cache_hits == 49 * n, "hits %lld", (long long)st.cache_hits);
    CHECK(st.allocated == 0, "all freed");
    int64_t want = 0;
    for (int i = 0; i < n; i++) {
        want += (int64_t)mt_cuda_alloc_round(sizes[i]);
    }
    CHECK(st.reserved == want && st.max_allocated == want, "reserved %lld max %lld want %lld",
          (long long)st.reserved, (long long)st.max_allocated, (long long)want);
    mt_cuda_alloc_empty_cache(a);
    mt_cuda_alloc_get_stats(a, 0, &st);
    CHECK(g[0].frees == n && g[0].used == 0 && st.reserved == 0, "empty_cache gives all back");
    CHECK(st.max_reserved == want, "the peak stays");
    mt_cuda_alloc_reset_peak(a, 0);
    mt_cuda_alloc_get_stats(a, 0, &st);
    CHECK(st.max_reserved == 0 && st.max_allocated == 0, "reset_peak");
    mt_cuda_alloc_destroy(a);
}

static void
test_best_fit_and_limits(void)
{
    fake_gpu g[1] = {{.capacity = (size_t)1 << 30}};
    mt_cuda_alloc *a = make(g, 1);
    void *big, *p, *q;
    mt_cuda_alloc_malloc(a, 0, NULL, 8 << 20, &big);
    mt_cuda_alloc_free(a, big);
    /* 6 MiB fits the cached 8 MiB block (at most twice): reused */
    CHECK(mt_cuda_alloc_malloc(a, 0, NULL, 6 << 20, &p) == 0 && p == big, "8 MiB block reused");
    mt_cuda_alloc_free(a, p);
    /* 2 MiB would waste three quarters of it: a new block */
    CHECK(mt_cuda_alloc_malloc(a, 0, NULL, 2 << 20, &q) == 0 && q != big, "too large to reuse");
    mt_cuda_alloc_free(a, q);
    /* small and large pools do not mix */
    void *s;
    CHECK(mt_cuda_alloc_malloc(a, 0, NULL, 1000, &s) == 0 && s != big && s != q, "small pool");
    mt_cuda_alloc_free(a, s);
    /* the written bytes stay addressable: the block is the driver's own allocation */
    void *r;
    mt_cuda_alloc_malloc(a, 0, NULL, 1000, &r);
    CHECK(r == s, "small block reused");
    memset(r, 0, 1024);
    mt_cuda_alloc_free(a, r);
    CHECK(mt_cuda_alloc_malloc(a, 0, NULL, 0, &r) == 0 && r == NULL, "0 bytes: NULL");
    CHECK(mt_cuda_alloc_free(a, NULL) == 0, "free(NULL)");
    CHECK(mt_cuda_alloc_free(a, s) == MT_EINVAL, "double free is an error");
    int x;
    CHECK(mt_cuda_alloc_free(a, &x) == MT_EINVAL, "foreign pointer is an error");
    CHECK(mt_cuda_alloc_malloc(a, 1, NULL, 10, &r) == MT_EINVAL, "bad device");
    CHECK(mt_cuda_alloc_malloc(a, -1, NULL, 10, &r) == MT_EINVAL, "negative device");
    mt_cuda_alloc_destroy(a);
}

/* blocks are per stream: a block freed on stream A is not handed to stream B */
static void
test_blocks_stay_with_their_stream(void)
{
    fake_gpu g[1] = {{.capacity = (size_t)1 << 30}};
    mt_cuda_alloc *a = make(g, 1);
    int sa, sb; /* any distinct addresses stand for streams */
    void *p, *q, *r;
    mt_cuda_alloc_malloc(a, 0, &sa, 4096, &p);
    mt_cuda_alloc_free(a, p);
    CHECK(mt_cuda_alloc_malloc(a, 0, &sb, 4096, &q) == 0 && q != p, "other stream: new block");
    CHECK(mt_cuda_alloc_malloc(a, 0, &sa, 4096, &r) == 0 && r == p, "same stream: reused");
    mt_cuda_alloc_free(a, q);
    mt_cuda_alloc_free(a, r);
    mt_cuda_alloc_destroy(a);
}

/* record_stream: the block waits for the other stream's event before it is reused */
static void
test_record_stream_defers_reuse(void)
{
    fake_gpu g[1] = {{.capacity = (size_t)1 << 30}};
    mt_cuda_alloc *a = make(g, 1);
    int sa, sb;
    void *p, *q;
    mt_cuda_alloc_malloc(a, 0, &sa, 4096, &p);
    CHECK(mt_cuda_alloc_record_stream(a, p, &sb) == 0, "record_stream");
    CHECK(mt_cuda_alloc_record_stream(a, p, &sb) == 0, "twice is once");
    CHECK(mt_cuda_alloc_record_stream(a, p, &sa) == 0, "its own stream: nothing to do");
    int x;
    CHECK(mt_cuda_alloc_record_stream(a, &x, &sb) == MT_EINVAL, "unknown pointer");
    mt_cuda_alloc_free(a, p);
    CHECK(g[0].events_live == 1, "one event, on the other stream (%d)", g[0].events_live);
    CHECK(mt_cuda_alloc_malloc(a, 0, &sa, 4096, &q) == 0 && q != p, "pending: not reused");
    mt_cuda_alloc_free(a, q);
    mt_cuda_alloc_stats st;
    mt_cuda_alloc_get_stats(a, 0, &st);
    CHECK(st.allocated == 0 && st.reserved == 2 * 4096, "pending blocks stay reserved");
    mt_cuda_alloc_destroy(a);
    CHECK(g[0].events_live == 0, "destroy frees pending events (%d)", g[0].events_live);
}

/* the same with the event completing: then the block comes back */
static fake_event *recorded;

static int
recording_event(void *ctx, int device, void *stream, void **event)
{
    int rc = fake_record_event(ctx, device, stream, event);
    recorded = *event;
    return rc;
}

static void
test_record_stream_reuse_after_event(void)
{
    fake_gpu g[1] = {{.capacity = (size_t)1 << 30}};
    mt_cuda_backend be = {fake_malloc, fake_free, recording_event, fake_event_done,
                          fake_free_event, g};
    mt_cuda_alloc *a = mt_cuda_alloc_new(&be, 1);
    int sa, sb;
    void *p, *q;
    mt_cuda_alloc_malloc(a, 0, &sa, 4096, &p);
    mt_cuda_alloc_record_stream(a, p, &sb);
    mt_cuda_alloc_free(a, p);
    REQUIRE(recorded != NULL && recorded->stream == &sb, "event recorded on the other stream");
    recorded->done = 1;
    CHECK(mt_cuda_alloc_malloc(a, 0, &sa, 4096, &q) == 0 && q == p, "reused once complete");
    CHECK(g[0].events_live == 0, "event freed");
    mt_cuda_alloc_free(a, q);
    mt_cuda_alloc_destroy(a);
}

/* out of memory: the cache goes back to the driver and the request is retried */
static void
test_out_of_memory_frees_the_cache_then_fails(void)
{
    fake_gpu g[2] = {{.capacity = 10 << 20}, {.capacity = 10 << 20}};
    mt_cuda_alloc *a = make(g, 2);
    void *p, *q, *r;
    CHECK(mt_cuda_alloc_malloc(a, 0, NULL, 6 << 20, &p) == 0, "6 MiB");
    mt_cuda_alloc_free(a, p); /* cached: 6 MiB of 10 held */
    CHECK(mt_cuda_alloc_malloc(a, 0, NULL, 8 << 20, &q) == 0, "8 MiB after giving back 6");
    CHECK(g[0].frees == 1, "the cached block went back");
    CHECK(mt_cuda_alloc_malloc(a, 1, NULL, 4 << 20, &r) == 0, "device 1 is separate");
    void *s;
    int rc = mt_cuda_alloc_malloc(a, 0, NULL, 4 << 20, &s);
    CHECK(rc == MT_ENOMEM && s == NULL, "full: MT_ENOMEM");
    CHECK(strstr(mt_error_message(), "CUDA out of memory. Tried to allocate 4.00 MiB") != NULL,
          "torch's message: %s", mt_error_message());
    mt_cuda_alloc_stats st;
    mt_cuda_alloc_get_stats(a, 0, &st);
    CHECK(st.ooms == 1 && st.allocated == (8 << 20), "ooms %lld", (long long)st.ooms);
    mt_cuda_alloc_get_stats(a, 1, &st);
    CHECK(st.allocated == (4 << 20), "device 1 counted apart");
    mt_cuda_alloc_get_stats(a, 5, &st);
    CHECK(st.allocated == 0 && st.reserved == 0, "bad device: zeros");
    mt_cuda_alloc_free(a, q);
    mt_cuda_alloc_free(a, r);
    mt_cuda_alloc_destroy(a);
    CHECK(g[0].used == 0 && g[1].used == 0, "destroy gives everything back");
}

/* many blocks alive at once: the pointer table grows */
static void
test_many_live_blocks(void)
{
    fake_gpu g[1] = {{.capacity = (size_t)1 << 32}};
    mt_cuda_alloc *a = make(g, 1);
    enum { N = 5000 };
    static void *p[N];
    for (int i = 0; i < N; i++) {
        if (mt_cuda_alloc_malloc(a, 0, NULL, 512 + (size_t)(i % 7) * 512, &p[i]) < 0) {
            CHECK(0, "malloc %d", i);
            return;
        }
    }
    int bad = 0;
    for (int i = 0; i < N; i += 2) {
        bad += mt_cuda_alloc_free(a, p[i]) != 0;
    }
    for (int i = 0; i < N; i += 2) {
        bad += mt_cuda_alloc_malloc(a, 0, NULL, 512 + (size_t)(i % 7) * 512, &p[i]) != 0;
    }
    for (int i = 0; i < N; i++) {
        bad += mt_cuda_alloc_free(a, p[i]) != 0;
    }
    CHECK(bad == 0, "%d failures", bad);
    CHECK(g[0].mallocs == N, "the second round came from the cache (%d)", g[0].mallocs);
    mt_cuda_alloc_destroy(a);
    CHECK(g[0].used == 0, "all given back");
}

int
main(void)
{
    mt_test_init();
    test_rounding();
    test_steady_state_never_reaches_the_driver();
    test_best_fit_and_limits();
    test_blocks_stay_with_their_stream();
    test_record_stream_defers_reuse();
    test_record_stream_reuse_after_event();
    test_out_of_memory_frees_the_cache_then_fails();
    test_many_live_blocks();
    return mt_test_report();
}
