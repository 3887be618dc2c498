/* tests/c/test_allocator_registry.c - the allocator registry (Note [Allocator registry]) and the
 * storages made through it: the CPU entry, CUDA without a device, a fake device type registered
 * in CUDA's place (host memory that counts every call), and the per-thread current device. */
#include <pthread.h>
#include <stdint.h>

#include "c10_lite/allocator.h"
#include "c10_lite/cuda_hooks.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/storage.h"
#include "c10_lite/tensor_impl.h"
#include "test_c10d_util.h"

#define CUDA0 ((mt_device){.type = MT_CUDA, .index = 0})
#define CUDA_CUR ((mt_device){.type = MT_CUDA, .index = -1})

/* ---- a fake device type: two devices of host memory ------------------------------------------- */

typedef struct {
    int current; /* the "current device" */
    int allocs, frees, fills, h2d, d2h, d2d;
    int last_device;
    void *last_stream;
    size_t live;
} fake_dev;

static int
fake_resolve(void *ctx, int index, int *out)
{
    fake_dev *f = ctx;
    if (index >= 2) {
        return mt_error_set(MT_ERUNTIME, "fake: invalid device ordinal %d", index);
    }
    *out = index < 0 ? f->current : index;
    return 0;
}

static void *
fake_stream(void *ctx, int device)
{
    return (void *)(uintptr_t)(0x100 + device);
}

static int
fake_alloc(void *ctx, int device, void *stream, size_t nbytes, void **out)
{
    fake_dev *f = ctx;
    size_t *p = malloc(nbytes + 16);
    if (p == NULL) {
        return mt_error_set(MT_ENOMEM, "fake: out of memory");
    }
    p[0] = nbytes;
    memset(p + 2, 0xAB, nbytes);
    f->allocs++;
    f->live += nbytes;
    f->last_device = device;
    f->last_stream = stream;
    *out = p + 2;
    return 0;
}

static void
fake_free(void *ctx, void *ptr)
{
    fake_dev *f = ctx;
    if (ptr != NULL) {
        size_t *p = (size_t *)ptr - 2;
        f->live -= p[0];
        f->frees++;
        free(p);
    }
}

static int
fake_fill(void *ctx, int device, void *dst, size_t nbytes, const void *pattern,
          size_t pattern_size, void *stream, bool non_blocking)
{
    fake_dev *f = ctx;
    f->fills++;
    f->last_device = device;
    f->last_stream = stream;
    mt_pattern_fill_host(dst, nbytes, pattern, pattern_size);
    return 0;
}

static int
fake_h2d(void *ctx, int device, void *dst, const void *src, size_t nbytes, void *stream,
         bool non_blocking)
{
    fake_dev *f = ctx;
    f->h2d++;
    f->last_device = device;
    f->last_stream = stream;
    memcpy(dst, src, nbytes);
    return 0;
}

static int
fake_d2h(void *ctx, int device, void *dst, const void *src, size_t nbytes, void *stream,
         bool non_blocking)
{
    fake_dev *f = ctx;
    f->d2h++;
    f->last_device = device;
    f->last_stream = stream;
    memcpy(dst, src, nbytes);
    return 0;
}

static int
fake_d2d(void *ctx, int dst_device, void *dst, int src_device, const void *src, size_t nbytes,
         void *stream, bool non_blocking)
{
    fake_dev *f = ctx;
    f->d2d++;
    f->last_device = src_device;
    f->last_stream = stream;
    memcpy(dst, src, nbytes);
    return 0;
}

static fake_dev fake_a, fake_b;
static const mt_allocator fake_alloc_a = {
    "fake", fake_resolve, fake_stream, fake_alloc, fake_free, fake_fill,
    fake_h2d, fake_d2h, fake_d2d, &fake_a,
};
static const mt_allocator fake_alloc_b = {
    "fake", fake_resolve, fake_stream, fake_alloc, fake_free, fake_fill,
    fake_h2d, fake_d2h, fake_d2d, &fake_b,
};

/* ---- the CPU entry ------------------------------------------------------------------------------ */

static void
test_cpu_storage(void)
{
    const mt_allocator *a = mt_allocator_get(MT_CPU);
    REQUIRE(a != NULL && strcmp(a->name, "cpu") == 0, "the CPU entry");
    mt_storage *s = mt_storage_new(1000, (mt_device){.type = MT_CPU, .index = 3});
    REQUIRE(s != NULL, "cpu storage");
    CHECK(s->device.type == MT_CPU && s->device.index == -1, "cpu:3 is the one CPU device");
    CHECK(((uintptr_t)s->data & 63) == 0, "64-byte aligned");
    CHECK(mt_storage_resizable(s), "a storage of the registry is resizable");
    mt_storage_fix(s);
    CHECK(!mt_storage_resizable(s), "fixed");
    mt_storage_decref(s);

    s = mt_storage_new_zeroed(4099, MT_DEVICE_CPU);
    REQUIRE(s != NULL, "zeroed");
    int nonzero = 0;
    for (size_t i = 0; i < s->nbytes; i++) {
        nonzero += ((unsigned char *)s->data)[i] != 0;
    }
    CHECK(nonzero == 0, "%d nonzero bytes", nonzero);
    mt_storage *z = mt_storage_new_zeroed(0, MT_DEVICE_CPU);
    CHECK(z != NULL && z->nbytes == 0, "zero bytes");
    mt_storage_decref(z);

    /* copies between storages, bounds checked */
    mt_storage *d = mt_storage_new(16, MT_DEVICE_CPU);
    REQUIRE(d != NULL, "dst");
    memcpy(s->data, "0123456789abcdef", 16);
    CHECK(mt_storage_copy_bytes(d, 4, s, 2, 8) == 0, "copy");
    CHECK(memcmp((char *)d->data + 4, "23456789", 8) == 0, "copied bytes");
    memset(d->data, 'x', 16);
    CHECK(mt_storage_copy_bytes(d, 10, s, 0, 8) == MT_EINVAL, "past dst's end");
    CHECK(mt_storage_copy_bytes(d, 0, s, 4096, 8) == MT_EINVAL, "past src's end");
    CHECK(((char *)d->data)[10] == 'x', "nothing written on error");
    mt_storage_decref(d);
    mt_storage_decref(s);

    int blob = 0;
    s = mt_storage_from_blob(&blob, sizeof(blob), MT_DEVICE_CPU, NULL, NULL);
    REQUIRE(s != NULL, "blob");
    CHECK(!mt_storage_resizable(s), "borrowed bytes are not resizable");
    mt_storage_decref(s);
}

static void
test_pattern_fill(void)
{
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16};
    unsigned char pat[16], buf[16 * 301 + 16];
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t ps = sizes[k];
        for (size_t i = 0; i < ps; i++) {
            pat[i] = (unsigned char)(7 * i + 1);
        }
        size_t n = ps * 301;
        memset(buf, 0xEE, sizeof(buf));
        CHECK(mt_bytes_fill(MT_DEVICE_CPU, buf, n, pat, ps) == 0, "fill %zu", ps);
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            bad += buf[i] != pat[i % ps];
        }
        CHECK(bad == 0 && buf[n] == 0xEE, "pattern of %zu: %d bad bytes, end %x", ps, bad, buf[n]);
    }
    memset(pat, 0x5A, 8);
    CHECK(mt_bytes_fill(MT_DEVICE_CPU, buf, 64, pat, 8) == 0 && buf[63] == 0x5A, "one-byte");
    CHECK(mt_bytes_fill(MT_DEVICE_CPU, buf, 10, pat, 4) == MT_EINVAL, "pattern not dividing");
    CHECK(mt_bytes_fill(MT_DEVICE_CPU, buf, 32, pat, 32) == MT_EINVAL, "pattern too long");
}

/* ---- CUDA without a device ---------------------------------------------------------------------- */

static void
test_cuda_without_device(void)
{
    if (mt_cuda_device_count() > 0) {
        return;
    }
    const char *why = mt_cuda_unavailable_message();
    REQUIRE(why != NULL && why[0] != '\0', "a reason");
    mt_error_clear();
    mt_storage *s = mt_storage_new(16, CUDA_CUR);
    CHECK(s == NULL && mt_error_code() == MT_ERUNTIME, "no CUDA storage");
    CHECK(strcmp(mt_error_message(), why) == 0, "torch's message: %s", mt_error_message());
    CHECK(mt_storage_new_zeroed(16, CUDA0) == NULL && mt_error_code() == MT_ERUNTIME, "zeroed");
    int64_t sizes[1] = {4};
    CHECK(mt_tensor_empty(MT_FLOAT32, 1, sizes, CUDA0) == NULL, "no CUDA tensor");
    int dev = 42;
    CHECK(mt_cuda_current_device(&dev) == MT_ERUNTIME && dev == 42, "no current device");
    CHECK(mt_cuda_set_device(0) == MT_ERUNTIME, "set_device");
    CHECK(mt_cuda_set_stream(0, NULL) == MT_ERUNTIME, "set_stream");
    CHECK(mt_cuda_current_stream(0) == NULL, "default stream");
    mt_device d = CUDA_CUR;
    CHECK(mt_device_resolve(&d) == MT_ERUNTIME && d.index == -1, "resolve: untouched");
    void *p;
    CHECK(mt_cuda_stream_acquire(0, 0, &p) == MT_ERUNTIME, "no stream");
    CHECK(mt_cuda_event_create(0, 0, &p) == MT_ERUNTIME, "no event");
    CHECK(mt_cuda_device_synchronize(0) == MT_ERUNTIME, "no synchronize");
}

/* ---- a registered device type -------------------------------------------------------------------- */

static void
test_registered_device(void)
{
    const mt_allocator *prev = mt_allocator_register(MT_CUDA, &fake_alloc_a);
    CHECK(prev == &mt_cuda_device_allocator, "CUDA's entry was there");
    CHECK(mt_allocator_get(MT_CUDA) == &fake_alloc_a, "replaced");

    fake_a.current = 1;
    mt_storage *s = mt_storage_new_zeroed(64, CUDA_CUR);
    REQUIRE(s != NULL, "storage on the fake device");
    CHECK(s->device.type == MT_CUDA && s->device.index == 1, "on the current device (%d)",
          s->device.index);
    CHECK(fake_a.allocs == 1 && fake_a.last_device == 1, "allocated by the entry");
    CHECK(fake_a.fills == 1 && fake_a.last_stream == (void *)0x101, "zeroed on the stream");
    CHECK(((unsigned char *)s->data)[63] == 0, "zeroed");
    CHECK(mt_storage_resizable(s), "resizable");

    /* host <-> device copies go to the entry, on the current stream of the device */
    mt_storage *h = mt_storage_new(64, MT_DEVICE_CPU);
    REQUIRE(h != NULL, "host storage");
    memset(h->data, 7, 64);
    CHECK(mt_storage_copy_bytes(s, 0, h, 0, 32) == 0 && fake_a.h2d == 1, "h2d");
    CHECK(fake_a.last_device == 1 && fake_a.last_stream == (void *)0x101, "h2d's stream");
    memset(h->data, 0, 64);
    CHECK(mt_storage_copy_bytes(h, 0, s, 0, 64) == 0 && fake_a.d2h == 1, "d2h");
    CHECK(((char *)h->data)[31] == 7 && ((char *)h->data)[32] == 0, "d2h bytes");
    mt_storage *s0 = mt_storage_new(64, CUDA0);
    REQUIRE(s0 != NULL, "device 0");
    CHECK(mt_storage_copy_bytes(s0, 0, s, 0, 64) == 0 && fake_a.d2d == 1, "d2d");
    CHECK(fake_a.last_device == 1 && fake_a.last_stream == (void *)0x101, "on the source's stream");
    uint16_t half = 0x3C00;
    CHECK(mt_bytes_fill(s0->device, s0->data, 64, &half, 2) == 0 && fake_a.fills == 2, "fill");
    CHECK(fake_a.last_stream == (void *)0x100 && ((uint16_t *)s0->data)[31] == 0x3C00, "filled");
    mt_storage_decref(s0);

    /* a tensor that grows copies through the entry */
    int64_t sizes[1] = {16};
    mt_tensor *t = mt_tensor_new(s, MT_FLOAT32, 1, sizes, NULL, 0);
    REQUIRE(t != NULL, "tensor");
    int64_t bigger[1] = {64};
    int d2d = fake_a.d2d;
    mt_tensor *g = mt_tensor_resized(t, 1, bigger);
    REQUIRE(g != NULL, "grown");
    CHECK(g->storage != s && g->storage->nbytes == 256, "a new storage");
    CHECK(fake_a.d2d == d2d + 1 && ((char *)g->storage->data)[31] == 7, "copied on the device");
    CHECK(g->storage->device.index == 1, "same device");
    mt_tensor_decref(t);
    mt_tensor_decref(g);

    /* the storage is freed by the allocator that made it, even after the entry changed */
    mt_allocator_register(MT_CUDA, &fake_alloc_b);
    int frees = fake_a.frees;
    mt_storage_decref(s);
    CHECK(fake_a.frees == frees + 1 && fake_b.frees == 0, "freed by its maker");
    CHECK(fake_a.live == 0, "%zu bytes still live", fake_a.live);

    /* copies between two different non-CPU device types are refused */
    CHECK(mt_allocator_register(MT_CUDA, prev) == &fake_alloc_b, "restored");
    CHECK(mt_storage_copy_bytes(h, 0, h, 0, 0) == 0, "zero bytes");
    mt_storage_decref(h);
}

static void
test_no_entry(void)
{
    const mt_allocator *prev = mt_allocator_register(MT_CUDA, NULL);
    mt_error_clear();
    CHECK(mt_storage_new(8, CUDA0) == NULL && mt_error_code() == MT_ENOTIMPL, "no entry");
    CHECK(strstr(mt_error_message(), "'cuda'") != NULL, "names the type: %s", mt_error_message());
    CHECK(mt_allocator_get(MT_CUDA) == NULL, "none");
    mt_allocator_register(MT_CUDA, prev);
    CHECK(mt_allocator_get(MT_NUM_DEVICE_TYPES) == NULL && mt_error_code() == MT_ENOTIMPL,
          "a type out of range");
}

/* ---- per-thread current device and stream (with devices: a GPU or an emulated one) ----------- */

static void *
other_thread(void *arg)
{
    int *seen = arg;
    if (mt_cuda_current_device(&seen[0]) < 0) {
        seen[0] = -2;
    }
    seen[1] = mt_cuda_current_stream(0) == NULL;
    return NULL;
}

static void
test_current_device_is_per_thread(void)
{
    int n = mt_cuda_device_count();
    if (n == 0) {
        return;
    }
    int dev = -1;
    CHECK(mt_cuda_current_device(&dev) == 0 && dev == 0, "device 0 at first");
    CHECK(mt_cuda_set_device(n) == MT_ERUNTIME, "an index out of range");
    CHECK(strstr(mt_error_message(), "invalid device ordinal") != NULL, "%s", mt_error_message());
    void *s = NULL;
    REQUIRE(mt_cuda_stream_acquire(n - 1, 0, &s) == 0 && s != NULL, "a pool stream");
    CHECK(mt_cuda_set_device(n - 1) == 0 && mt_cuda_set_stream(0, s) == 0, "set");
    int seen[2] = {-1, 0};
    pthread_t th;
    pthread_create(&th, NULL, other_thread, seen);
    pthread_join(th, NULL);
    CHECK(seen[0] == 0 && seen[1] == 1, "another thread has its own state (%d %d)", seen[0],
          seen[1]);
    CHECK(mt_cuda_current_device(&dev) == 0 && dev == n - 1, "this one kept its own");
    CHECK(mt_cuda_current_stream(0) == s, "and its stream");
    mt_cuda_set_stream(0, NULL);
    mt_cuda_set_device(0);
}

int
main(void)
{
    mt_test_init();
    test_cpu_storage();
    test_pattern_fill();
    test_cuda_without_device();
    test_registered_device();
    test_no_entry();
    test_current_device_is_per_thread();
    return mt_test_report();
}
