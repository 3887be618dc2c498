/* tests/cuda/test_cuda_kernels.cu - the CUDA runtime and execution model as minitorch's kernels
 * use them: grids, shared memory, barriers, warp operations, atomics, streams and events,
 * copies, errors, cuBLAS.  Built by nvcc in the real build (runs on a GPU) and against the host
 * emulator otherwise (Note [CUDA emulator]); prints "N passed, M failed". */
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <cublas_v2.h>

#include "aten_lite/cuda/cuda_compat.h"

extern "C" {
#include "aten_lite/blas.h"
#include "c10_lite/cuda_hooks.h"
}

static int g_passed, g_failed;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            g_passed++;                                                                            \
        } else {                                                                                   \
            g_failed++;                                                                            \
            std::fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                   \
            std::fprintf(stderr, __VA_ARGS__);                                                     \
            std::fprintf(stderr, "\n");                                                            \
        }                                                                                          \
    } while (0)
#define CHECK_CUDA(call) CHECK((call) == cudaSuccess, "%s", cudaGetErrorString(cudaGetLastError()))

/* ---- kernels ---- */

__global__ void
vector_add(const float *a, const float *b, float *c, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x) {
        c[i] = a[i] + b[i];
    }
}

/* per block: sum of x over the block's slice (shared memory tree), and how many were odd */
__global__ void
block_sum(const int *x, long long *sums, int *odd_counts, int n)
{
    __shared__ long long buf[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    buf[threadIdx.x] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            buf[threadIdx.x] += buf[threadIdx.x + s];
        }
        __syncthreads();
    }
    int odd = __syncthreads_count(v & 1);
    int all_small = __syncthreads_and(v < 1000000);
    int any_big = __syncthreads_or(v > 1000000);
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = buf[0];
        odd_counts[blockIdx.x] = odd * 4 + all_small * 2 + any_big;
    }
}

/* a warp-shuffle reduction and the other warp operations, one warp per 32 elements */
__global__ void
warp_ops(const float *x, float *sum_down, float *sum_xor, int *scan, unsigned int *ballots,
         int *votes, float *bcast)
{
    unsigned int lane = threadIdx.x % 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    float a = v, b = v;
    for (int off = 16; off > 0; off >>= 1) {
        a += __shfl_down_sync(0xffffffffu, a, off);
        b += __shfl_xor_sync(0xffffffffu, b, off);
    }
    int s = (int)lane + 1; /* inclusive scan of 1..32 with shfl_up */
    for (int off = 1; off < 32; off <<= 1) {
        int o = __shfl_up_sync(0xffffffffu, s, off);
        if ((int)lane >= off) {
            s += o;
        }
    }
    unsigned int bal = __ballot_sync(0xffffffffu, v > 0.0f);
    int all = __all_sync(0xffffffffu, v > -1000.0f);
    int any = __any_sync(0xffffffffu, v > 1000.0f);
    float first = __shfl_sync(0xffffffffu, v, 3);
    float seg = __shfl_sync(0xffffffffu, v, 1, 8); /* lane 1 of each group of 8 */
    __syncwarp();
    if (lane == 0) {
        sum_down[i / 32] = a;
    }
    sum_xor[i] = b;
    scan[i] = s;
    bcast[2 * i] = first;
    bcast[2 * i + 1] = seg;
    if (lane == 0) {
        ballots[i / 32] = bal;
        votes[i / 32] = all * 2 + any;
    }
}

/* sm_80 warp reductions and matching: per warp, the sum/min/max of lane ids and the lanes
 * holding the same value (lane % 4) */
__global__ void
warp_reduce_match(unsigned int *out)
{
    unsigned int lane = threadIdx.x % 32;
    unsigned int sum = __reduce_add_sync(0xffffffffu, lane);
    int mn = __reduce_min_sync(0xffffffffu, (int)lane - 5);
    unsigned int mx = __reduce_max_sync(0xffffffffu, lane * 3);
    unsigned int match = __match_any_sync(0xffffffffu, lane % 4);
    unsigned int active = __ballot_sync(0xffffffffu, 1);
    if (lane < 4) {
        out[lane * 5 + 0] = sum;
        out[lane * 5 + 1] = (unsigned int)mn;
        out[lane * 5 + 2] = mx;
        out[lane * 5 + 3] = match;
        out[lane * 5 + 4] = active;
    }
}

/* a partial warp: blockDim 48 -> the second warp has 16 lanes */
__global__ void
partial_warp(unsigned int *out)
{
    unsigned int b = __ballot_sync(0xffffffffu, 1);
    if (threadIdx.x % 32 == 0) {
        out[threadIdx.x / 32] = b;
    }
}

__global__ void
atomics(int *isum, float *fsum, double *dsum, unsigned long long *usum, int *imax, int *imin,
        int *cas_counter, unsigned int *exch)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(isum, 1);
    atomicAdd(fsum, 0.5f);
    atomicAdd(dsum, 0.25);
    atomicAdd(usum, 3ull);
    atomicMax(imax, i);
    atomicMin(imin, -i);
    int old = *(volatile int *)cas_counter, assumed;
    do { /* an increment by compare-and-swap */
        assumed = old;
        old = atomicCAS(cas_counter, assumed, assumed + 1);
    } while (old != assumed);
    atomicExch(exch, 7u);
}

/* reverses each block's slice through dynamic shared memory */
__global__ void
reverse_dynamic(const float *in, float *out)
{
    MT_DYNAMIC_SHARED(float, buf);
    int base = blockIdx.x * blockDim.x;
    buf[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    out[base + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

/* every (block, thread) of a 3-d launch writes its linear id */
__global__ void
index_3d(int *out)
{
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int nt = blockDim.x * blockDim.y * blockDim.z;
    out[bx * nt + tx] = bx * 1000 + tx;
}

__global__ void
fill(float *x, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = v;
    }
}

__global__ void
add_one(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] += 1.0f;
    }
}

__global__ void
copy_kernel(const float *src, float *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        dst[i] = src[i];
    }
}

__constant__ float poly[3];

/* y = poly[0] + poly[1] x + poly[2] x^2 with the coefficients in constant memory */
__global__ void
eval_poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = poly[0] + x[i] * (poly[1] + x[i] * poly[2]);
    }
}

/* ---- helpers ---- */

/* a host function that holds its stream until the test opens the gate */
struct Gate {
    std::atomic<int> open{0};
};
static void
gate_wait(void *p)
{
    Gate *g = (Gate *)p;
    while (!g->open.load()) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

static bool g_emulated;

static void
test_devices()
{
    int n = 0;
    CHECK_CUDA(cudaGetDeviceCount(&n));
    CHECK(n >= 1, "%d devices", n);
    struct cudaDeviceProp p;
    CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
    CHECK(p.warpSize == 32 && p.maxThreadsPerBlock == 1024, "%d %d", p.warpSize,
          p.maxThreadsPerBlock);
    if (g_emulated) {
        const char *want = std::getenv("MINITORCH_EMULATED_DEVICES");
        CHECK(n == (want ? std::atoi(want) : 2), "%d devices", n);
        CHECK(std::strstr(p.name, "emulated") != nullptr, "name %s", p.name);
        CHECK(p.major == 8 && p.minor == 0, "%d.%d", p.major, p.minor);
    }
    int cur = -1;
    CHECK_CUDA(cudaGetDevice(&cur));
    CHECK(cur == 0, "%d", cur);
    if (n >= 2) {
        /* the current device is per host thread; memory knows its device */
        CHECK_CUDA(cudaSetDevice(1));
        void *p1 = nullptr;
        CHECK_CUDA(cudaMalloc(&p1, 1024));
        struct cudaPointerAttributes at;
        CHECK_CUDA(cudaPointerGetAttributes(&at, (char *)p1 + 100));
        CHECK(at.type == cudaMemoryTypeDevice && at.device == 1, "%d %d", (int)at.type, at.device);
        int other = -1;
        std::thread([&] { cudaGetDevice(&other); }).join();
        CHECK(other == 0, "a new thread starts on device %d", other);
        /* a kernel goes to a stream of the current device; a copy may go to any */
        cudaStream_t s1;
        CHECK_CUDA(cudaStreamCreate(&s1));
        CHECK_CUDA(cudaSetDevice(0));
        MT_CUDA_LAUNCH(fill, 1, 32, 0, s1, (float *)p1, 1.0f, 32);
        CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle, "launch to another device");
        float ones[4] = {1.0f, 2.0f, 3.0f, 4.0f}, back[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        CHECK_CUDA(cudaMemcpyAsync(p1, ones, sizeof(ones), cudaMemcpyHostToDevice, s1));
        CHECK_CUDA(cudaMemcpyAsync(back, p1, sizeof(back), cudaMemcpyDeviceToHost, s1));
        CHECK(back[3] == 4.0f, "%g", (double)back[3]);
        CHECK_CUDA(cudaStreamDestroy(s1));
        CHECK_CUDA(cudaFree(p1));
    }
}

static void
test_vector_add()
{
    const long long n = (1 << 18) + 3;
    std::vector<float> a((size_t)n), b((size_t)n), c((size_t)n);
    for (long long i = 0; i < n; i++) {
        a[(size_t)i] = (float)i;
        b[(size_t)i] = 0.5f * (float)(i % 97);
    }
    float *da, *db, *dc;
    CHECK_CUDA(cudaMalloc(&da, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&db, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dc, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    MT_CUDA_LAUNCH(vector_add, 40, 256, 0, 0, da, db, dc, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (long long i = 0; i < n; i++) {
        bad += c[(size_t)i] != a[(size_t)i] + b[(size_t)i];
    }
    CHECK(bad == 0, "%lld wrong sums", bad);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
}

static void
test_block_reduction()
{
    const int n = 256 * 37 - 11, blocks = 37;
    std::vector<int> x((size_t)n);
    for (int i = 0; i < n; i++) {
        x[(size_t)i] = (i * 7919) % 1013;
    }
    int *dx, *dodd;
    long long *dsum;
    CHECK_CUDA(cudaMalloc(&dx, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dsum, blocks * sizeof(long long)));
    CHECK_CUDA(cudaMalloc(&dodd, blocks * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    MT_CUDA_LAUNCH(block_sum, blocks, 256, 0, 0, dx, dsum, dodd, n);
    CHECK_CUDA(cudaGetLastError());
    std::vector<long long> sums(blocks);
    std::vector<int> odd(blocks);
    CHECK_CUDA(cudaMemcpy(sums.data(), dsum, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(odd.data(), dodd, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < blocks; b++) {
        long long s = 0;
        int o = 0;
        for (int i = b * 256; i < (b + 1) * 256; i++) {
            int v = i < n ? x[(size_t)i] : 0;
            s += v;
            o += v & 1;
        }
        bad += sums[(size_t)b] != s || odd[(size_t)b] != o * 4 + 2 + 0;
    }
    CHECK(bad == 0, "%d blocks wrong", bad);
    cudaFree(dx);
    cudaFree(dsum);
    cudaFree(dodd);
}

static void
test_warp_ops()
{
    const int blocks = 3, threads = 128, n = blocks * threads;
    std::vector<float> x((size_t)n);
    for (int i = 0; i < n; i++) {
        x[(size_t)i] = (float)((i * 13) % 17) - (i % 64 == 5 ? 100.0f : 0.0f);
    }
    float *dx, *dsd, *dsx, *dbc;
    int *dscan, *dvotes;
    unsigned int *dbal, *dpart;
    CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dsd, n / 32 * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dsx, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dbc, 2 * n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dscan, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dvotes, n / 32 * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dbal, n / 32 * sizeof(unsigned int)));
    CHECK_CUDA(cudaMalloc(&dpart, 2 * sizeof(unsigned int)));
    CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    MT_CUDA_LAUNCH(warp_ops, blocks, threads, 0, 0, dx, dsd, dsx, dscan, dbal, dvotes, dbc);
    MT_CUDA_LAUNCH(partial_warp, 1, 48, 0, 0, dpart);
    CHECK_CUDA(cudaGetLastError());
    std::vector<float> sd(n / 32), sx(n), bc(2 * n);
    std::vector<int> scan(n), votes(n / 32);
    std::vector<unsigned int> bal(n / 32), part(2);
    CHECK_CUDA(cudaMemcpy(sd.data(), dsd, n / 32 * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(sx.data(), dsx, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(bc.data(), dbc, 2 * n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(scan.data(), dscan, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(votes.data(), dvotes, n / 32 * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(bal.data(), dbal, n / 32 * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(part.data(), dpart, 2 * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int w = 0; w < n / 32; w++) {
        float s = 0.0f;
        unsigned int bl = 0;
        int any_neg = 0;
        for (int l = 0; l < 32; l++) {
            float v = x[(size_t)(w * 32 + l)];
            s += v;
            bl |= (v > 0.0f ? 1u : 0u) << l;
            any_neg |= v < -1000.0f;
        }
        bad += sd[(size_t)w] != s;
        bad += bal[(size_t)w] != bl;
        bad += votes[(size_t)w] != (any_neg ? 0 : 2);
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            bad += sx[(size_t)i] != s;
            bad += scan[(size_t)i] != (l + 1) * (l + 2) / 2;
            bad += bc[2 * (size_t)i] != x[(size_t)(w * 32 + 3)];
            bad += bc[2 * (size_t)i + 1] != x[(size_t)(w * 32 + (l & ~7) + 1)];
        }
    }
    CHECK(bad == 0, "%d wrong warp results", bad);
    CHECK(part[0] == 0xffffffffu && part[1] == 0xffffu, "partial warp ballots %x %x", part[0],
          part[1]);
    cudaFree(dx);
    cudaFree(dsd);
    cudaFree(dsx);
    cudaFree(dbc);
    cudaFree(dscan);
    cudaFree(dvotes);
    cudaFree(dbal);
    cudaFree(dpart);
}

static void
test_warp_reduce_match()
{
    unsigned int *d;
    CHECK_CUDA(cudaMalloc(&d, 20 * sizeof(unsigned int)));
    MT_CUDA_LAUNCH(warp_reduce_match, 1, 32, 0, 0, d);
    unsigned int h[20];
    CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (unsigned int l = 0; l < 4; l++) {
        bad += h[l * 5 + 0] != 496u || (int)h[l * 5 + 1] != -5 || h[l * 5 + 2] != 93u;
        bad += h[l * 5 + 3] != (0x11111111u << l) || h[l * 5 + 4] != 0xffffffffu;
    }
    CHECK(bad == 0, "%d wrong: sum %u min %d max %u match %x active %x", bad, h[0], (int)h[1],
          h[2], h[3], h[4]);
    cudaFree(d);
}

static unsigned int
bits16(const void *p)
{
    unsigned short b;
    std::memcpy(&b, p, 2);
    return b;
}

/* float -> half/bfloat16 rounds to nearest even; back is exact */
static void
test_half_types()
{
    struct {
        float f;
        unsigned int half, bf16;
    } cases[] = {
        {1.0f, 0x3C00, 0x3F80},           {1.0f / 3.0f, 0x3555, 0x3EAB}, {-2.5f, 0xC100, 0xC020},
        {65504.0f, 0x7BFF, 0x4780},       {65520.0f, 0x7C00, 0x4780},    {1e-7f, 0x0002, 0x33D7},
        {5.9604645e-8f, 0x0001, 0x3380}, {0.0f, 0x0000, 0x0000},
    };
    int bad = 0;
    for (const auto &c : cases) {
        __half h = __float2half(c.f);
        __nv_bfloat16 b = __float2bfloat16(c.f);
        if (bits16(&h) != c.half || bits16(&b) != c.bf16) {
            bad++;
            std::fprintf(stderr, "%g: half %04x (want %04x) bf16 %04x (want %04x)\n", (double)c.f,
                         bits16(&h), c.half, bits16(&b), c.bf16);
        }
        if (c.half != 0x7C00 && __half2float(h) != (float)h) {
            bad++;
        }
    }
    CHECK(__half2float(__float2half(0.5f)) == 0.5f &&
              __bfloat162float(__float2bfloat16(-3.0f)) == -3.0f,
          "round trip");
    CHECK(bad == 0, "%d wrong conversions", bad);
}

static void
test_constant_memory()
{
    const float coeffs[3] = {1.0f, -2.0f, 0.5f};
    CHECK_CUDA(cudaMemcpyToSymbol(poly, coeffs, sizeof(coeffs)));
    float back[3] = {0.0f, 0.0f, 0.0f};
    CHECK_CUDA(cudaMemcpyFromSymbol(back, poly, sizeof(back)));
    CHECK(back[1] == -2.0f, "%g", (double)back[1]);
    const int n = 100;
    float hx[n], hy[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)i / 10.0f;
    }
    float *dx, *dy;
    CHECK_CUDA(cudaMalloc(&dx, sizeof(hx)));
    CHECK_CUDA(cudaMalloc(&dy, sizeof(hy)));
    CHECK_CUDA(cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice));
    MT_CUDA_LAUNCH(eval_poly, 1, 128, 0, 0, dx, dy, n);
    CHECK_CUDA(cudaMemcpy(hy, dy, sizeof(hy), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        bad += std::fabs(hy[i] - (1.0f + hx[i] * (-2.0f + hx[i] * 0.5f))) > 1e-5f;
    }
    CHECK(bad == 0, "%d wrong", bad);
    cudaFree(dx);
    cudaFree(dy);
}

static void
test_atomics()
{
    struct Acc {
        int isum;
        float fsum;
        double dsum;
        unsigned long long usum;
        int imax, imin, cas;
        unsigned int exch;
    };
    Acc h = {0, 0.0f, 0.0, 0, -1, 1, 0, 0};
    Acc *d;
    CHECK_CUDA(cudaMalloc(&d, sizeof(Acc)));
    CHECK_CUDA(cudaMemcpy(d, &h, sizeof(Acc), cudaMemcpyHostToDevice));
    const int blocks = 64, threads = 128, n = blocks * threads;
    MT_CUDA_LAUNCH(atomics, blocks, threads, 0, 0, &d->isum, &d->fsum, &d->dsum, &d->usum,
                   &d->imax, &d->imin, &d->cas, &d->exch);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(&h, d, sizeof(Acc), cudaMemcpyDeviceToHost));
    CHECK(h.isum == n && h.fsum == 0.5f * n && h.dsum == 0.25 * n && h.usum == 3ull * n,
          "%d %g %g %llu", h.isum, (double)h.fsum, h.dsum, h.usum);
    CHECK(h.imax == n - 1 && h.imin == -(n - 1) && h.cas == n && h.exch == 7u, "%d %d %d %u",
          h.imax, h.imin, h.cas, h.exch);
    cudaFree(d);
}

static void
test_dynamic_shared_and_3d()
{
    const int blocks = 5, threads = 200, n = blocks * threads;
    std::vector<float> in((size_t)n), out((size_t)n);
    for (int i = 0; i < n; i++) {
        in[(size_t)i] = (float)i;
    }
    float *din, *dout;
    CHECK_CUDA(cudaMalloc(&din, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    MT_CUDA_LAUNCH(reverse_dynamic, blocks, threads, threads * sizeof(float), 0, din, dout);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < blocks; b++) {
        for (int t = 0; t < threads; t++) {
            bad += out[(size_t)(b * threads + t)] != in[(size_t)(b * threads + threads - 1 - t)];
        }
    }
    CHECK(bad == 0, "%d wrong", bad);
    /* a 3-d grid of 3-d blocks */
    dim3 grid(3, 2, 2), block(4, 3, 5);
    int total = 12 * 60;
    int *dids;
    CHECK_CUDA(cudaMalloc(&dids, total * sizeof(int)));
    MT_CUDA_LAUNCH(index_3d, grid, block, 0, 0, dids);
    std::vector<int> ids((size_t)total);
    CHECK_CUDA(cudaMemcpy(ids.data(), dids, total * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < total; i++) {
        bad += ids[(size_t)i] != (i / 60) * 1000 + i % 60;
    }
    CHECK(bad == 0, "%d wrong ids", bad);
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dids);
}

static void
test_streams_events()
{
    const int n = 4096;
    float *src, *dst, *host;
    CHECK_CUDA(cudaMalloc(&src, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dst, n * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&host, n * sizeof(float)));
    MT_CUDA_LAUNCH(fill, (n + 255) / 256, 256, 0, 0, src, 1.0f, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    cudaStream_t producer, consumer;
    CHECK_CUDA(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking));
    cudaEvent_t ready, t0, t1;
    CHECK_CUDA(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    CHECK_CUDA(cudaEventCreate(&t0));
    CHECK_CUDA(cudaEventCreate(&t1));

    /* with the wait: the consumer sees the producer's 2.0 even though the producer is held */
    Gate g1;
    CHECK_CUDA(cudaEventRecord(t0, producer));
    CHECK_CUDA(cudaLaunchHostFunc(producer, gate_wait, &g1));
    MT_CUDA_LAUNCH(fill, (n + 255) / 256, 256, 0, producer, src, 2.0f, n);
    CHECK_CUDA(cudaEventRecord(ready, producer));
    CHECK_CUDA(cudaEventRecord(t1, producer));
    CHECK(cudaEventQuery(ready) == cudaErrorNotReady, "event done before its work");
    CHECK(cudaStreamQuery(producer) == cudaErrorNotReady, "stream idle while held");
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, t0, t1) == cudaErrorNotReady, "elapsed time of pending events");
    CHECK_CUDA(cudaStreamWaitEvent(consumer, ready, 0));
    MT_CUDA_LAUNCH(copy_kernel, (n + 255) / 256, 256, 0, consumer, src, dst, n);
    CHECK_CUDA(cudaMemcpyAsync(host, dst, n * sizeof(float), cudaMemcpyDeviceToHost, consumer));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(cudaStreamQuery(consumer) == cudaErrorNotReady, "consumer ran before its event");
    g1.open = 1;
    CHECK_CUDA(cudaStreamSynchronize(consumer));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        bad += host[i] != 2.0f;
    }
    CHECK(bad == 0, "%d elements missed the producer's write", bad);
    CHECK_CUDA(cudaEventSynchronize(t1));
    CHECK(cudaEventQuery(ready) == cudaSuccess, "event not done");
    CHECK_CUDA(cudaEventElapsedTime(&ms, t0, t1));
    CHECK(ms >= 0.0f, "elapsed %g ms", (double)ms);
    CHECK(cudaEventElapsedTime(&ms, t0, ready) == cudaErrorInvalidResourceHandle,
          "timing a DisableTiming event");

    /* without the wait: the consumer copies while the producer is still held, so it reads the
     * old values - deterministically, since the producer cannot run before the gate opens */
    Gate g2;
    CHECK_CUDA(cudaLaunchHostFunc(producer, gate_wait, &g2));
    MT_CUDA_LAUNCH(fill, (n + 255) / 256, 256, 0, producer, src, 3.0f, n);
    MT_CUDA_LAUNCH(copy_kernel, (n + 255) / 256, 256, 0, consumer, src, dst, n);
    CHECK_CUDA(cudaMemcpyAsync(host, dst, n * sizeof(float), cudaMemcpyDeviceToHost, consumer));
    CHECK_CUDA(cudaStreamSynchronize(consumer));
    bad = 0;
    for (int i = 0; i < n; i++) {
        bad += host[i] != 2.0f;
    }
    CHECK(bad == 0, "the unsynchronised consumer saw %d new values", bad);
    g2.open = 1;
    CHECK_CUDA(cudaStreamSynchronize(producer));

    cudaEvent_t never;
    CHECK_CUDA(cudaEventCreate(&never));
    CHECK(cudaEventQuery(never) == cudaSuccess, "an unrecorded event is complete");
    CHECK(cudaEventElapsedTime(&ms, never, t1) == cudaErrorInvalidResourceHandle,
          "elapsed time from an unrecorded event");
    CHECK_CUDA(cudaStreamWaitEvent(consumer, never, 0)); /* waits for nothing */
    CHECK_CUDA(cudaStreamSynchronize(consumer));
    cudaEventDestroy(never);
    cudaEventDestroy(ready);
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    CHECK_CUDA(cudaStreamDestroy(producer));
    CHECK_CUDA(cudaStreamDestroy(consumer));
    cudaFree(src);
    cudaFree(dst);
    cudaFreeHost(host);
}

static void
test_legacy_default_stream()
{
    float *x, *host;
    CHECK_CUDA(cudaMalloc(&x, sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&host, sizeof(float)));
    /* work on the legacy stream waits for a blocking stream's earlier work */
    cudaStream_t blocking, nonblocking;
    CHECK_CUDA(cudaStreamCreate(&blocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking));
    Gate g;
    CHECK_CUDA(cudaLaunchHostFunc(blocking, gate_wait, &g));
    MT_CUDA_LAUNCH(fill, 1, 1, 0, blocking, x, 1.0f, 1);
    MT_CUDA_LAUNCH(fill, 1, 1, 0, 0, x, 2.0f, 1); /* must run after the blocking stream's fill */
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(cudaStreamQuery(0) == cudaErrorNotReady, "the legacy stream did not wait");
    g.open = 1;
    CHECK_CUDA(cudaMemcpy(host, x, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(*host == 2.0f, "legacy work ran before the blocking stream's: %g", (double)*host);
    /* ... but not for a non-blocking stream's */
    Gate g2;
    CHECK_CUDA(cudaLaunchHostFunc(nonblocking, gate_wait, &g2));
    MT_CUDA_LAUNCH(fill, 1, 1, 0, 0, x, 5.0f, 1);
    CHECK_CUDA(cudaStreamSynchronize(0)); /* returns while the non-blocking stream is held */
    CHECK(cudaStreamQuery(nonblocking) == cudaErrorNotReady, "non-blocking stream ran");
    g2.open = 1;
    CHECK_CUDA(cudaStreamSynchronize(nonblocking));
    /* and a blocking stream's work waits for the legacy stream's earlier work */
    Gate g3;
    CHECK_CUDA(cudaLaunchHostFunc(0, gate_wait, &g3));
    MT_CUDA_LAUNCH(fill, 1, 1, 0, 0, x, 6.0f, 1);
    MT_CUDA_LAUNCH(add_one, 1, 1, 0, blocking, x, 1);
    CHECK_CUDA(cudaMemcpyAsync(host, x, sizeof(float), cudaMemcpyDeviceToHost, blocking));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(cudaStreamQuery(blocking) == cudaErrorNotReady, "blocking stream ran past legacy work");
    g3.open = 1;
    CHECK_CUDA(cudaStreamSynchronize(blocking));
    CHECK(*host == 7.0f, "got %g", (double)*host);
    cudaStreamDestroy(blocking);
    cudaStreamDestroy(nonblocking);
    cudaFree(x);
    cudaFreeHost(host);
}

static void
test_async_copies()
{
    const int n = 1000, rounds = 8;
    float *d, *pinned;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&pinned, (size_t)rounds * n * sizeof(float)));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    /* copy in, increment, copy out: queued in order on one stream, synchronised once */
    std::vector<float> in((size_t)n);
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            pinned[(size_t)r * n + i] = (float)(r * 10 + i % 3);
        }
    }
    for (int r = 0; r < rounds; r++) {
        float *slot = pinned + (size_t)r * n;
        CHECK_CUDA(cudaMemcpyAsync(d, slot, n * sizeof(float), cudaMemcpyHostToDevice, s));
        MT_CUDA_LAUNCH(add_one, (n + 127) / 128, 128, 0, s, d, n);
        CHECK_CUDA(cudaMemcpyAsync(slot, d, n * sizeof(float), cudaMemcpyDefault, s));
    }
    CHECK_CUDA(cudaStreamSynchronize(s));
    int bad = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            bad += pinned[(size_t)r * n + i] != (float)(r * 10 + i % 3) + 1.0f;
        }
    }
    CHECK(bad == 0, "%d wrong after the async round trips", bad);
    /* from pageable memory the source is staged at the call: overwriting it afterwards (while
     * the stream is held) does not change what arrives */
    Gate g;
    CHECK_CUDA(cudaLaunchHostFunc(s, gate_wait, &g));
    std::vector<float> pageable((size_t)n, 42.0f);
    CHECK_CUDA(cudaMemcpyAsync(d, pageable.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
    std::fill(pageable.begin(), pageable.end(), -1.0f);
    g.open = 1;
    /* to pageable memory the call returns after the copy */
    CHECK_CUDA(cudaMemcpyAsync(pageable.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    bad = 0;
    for (int i = 0; i < n; i++) {
        bad += pageable[(size_t)i] != 42.0f;
    }
    CHECK(bad == 0, "%d wrong after a staged copy", bad);
    CHECK_CUDA(cudaMemsetAsync(d, 0, n * sizeof(float), s));
    CHECK_CUDA(cudaMemcpyAsync(pageable.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(pageable[0] == 0.0f && pageable[(size_t)n - 1] == 0.0f, "memset");
    /* a 2-d copy: a 5 x 3 window of a 5 x 8 host matrix into a device matrix of pitch 4 */
    {
        float host2d[5][8], back2d[5][3];
        for (int r = 0; r < 5; r++) {
            for (int c = 0; c < 8; c++) {
                host2d[r][c] = (float)(r * 10 + c);
            }
        }
        float *d2;
        CHECK_CUDA(cudaMalloc(&d2, 5 * 4 * sizeof(float)));
        CHECK_CUDA(cudaMemcpy2DAsync(d2, 4 * sizeof(float), &host2d[0][2], 8 * sizeof(float),
                                     3 * sizeof(float), 5, cudaMemcpyHostToDevice, s));
        CHECK_CUDA(cudaMemcpy2D(back2d, 3 * sizeof(float), d2, 4 * sizeof(float),
                                3 * sizeof(float), 5, cudaMemcpyDeviceToHost));
        bad = 0;
        for (int r = 0; r < 5; r++) {
            for (int c = 0; c < 3; c++) {
                bad += back2d[r][c] != (float)(r * 10 + c + 2);
            }
        }
        CHECK(bad == 0, "%d wrong after 2-d copies", bad);
        CHECK(cudaMemcpy2D(d2, 2 * sizeof(float), host2d, 8 * sizeof(float), 3 * sizeof(float), 5,
                           cudaMemcpyHostToDevice) == cudaErrorInvalidPitchValue,
              "width above the pitch");
        (void)cudaGetLastError();
        cudaFree(d2);
    }
    /* a registered host buffer is pinned memory */
    std::vector<float> reg((size_t)n, 1.0f);
    CHECK_CUDA(cudaHostRegister(reg.data(), n * sizeof(float), cudaHostRegisterDefault));
    struct cudaPointerAttributes at;
    CHECK_CUDA(cudaPointerGetAttributes(&at, reg.data()));
    CHECK(at.type == cudaMemoryTypeHost, "registered memory is of type %d", (int)at.type);
    CHECK(cudaHostRegister(reg.data(), 4, 0) == cudaErrorHostMemoryAlreadyRegistered,
          "registered twice");
    (void)cudaGetLastError();
    CHECK_CUDA(cudaHostUnregister(reg.data()));
    CHECK(cudaHostUnregister(reg.data()) == cudaErrorHostMemoryNotRegistered, "unregistered twice");
    (void)cudaGetLastError();
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFreeHost(pinned);
}

#ifdef MT_CUDA_EMULATED
__global__ void
barrier_deadlock(int *x)
{
    if (threadIdx.x % 32 < 16) {
        __syncthreads(); /* half of each warp waits here, the other half below */
    } else {
        __syncwarp();
    }
    x[threadIdx.x] = 1;
}

__global__ void
barrier_after_exit(int *x)
{
    if (threadIdx.x >= 8) {
        return;
    }
    __syncthreads();
    x[threadIdx.x] = 1;
}

__global__ void
failed_assert(const int *x)
{
    MT_CUDA_KERNEL_ASSERT(x[threadIdx.x] < 3);
}

/* the emulator reports what a GPU would hang on or fault at as the kernel's error */
static void
test_kernel_failures()
{
    int *d;
    CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(int)));
    CHECK_CUDA(cudaMemset(d, 0, 64 * sizeof(int)));
    MT_CUDA_LAUNCH(barrier_deadlock, 1, 64, 0, 0, d);
    CHECK_CUDA(cudaGetLastError()); /* the launch itself is fine */
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure, "deadlock not reported");
    CHECK(std::strstr(mtEmuLastKernelError(), "deadlock") != nullptr, "%s", mtEmuLastKernelError());
    CHECK_CUDA(cudaDeviceSynchronize()); /* reported once */
    MT_CUDA_LAUNCH(barrier_after_exit, 2, 32, 0, 0, d);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure, "barrier after exit not reported");
    CHECK(std::strstr(mtEmuLastKernelError(), "exited") != nullptr, "%s", mtEmuLastKernelError());
    int three = 3;
    CHECK_CUDA(cudaMemcpy(d + 5, &three, sizeof(int), cudaMemcpyHostToDevice));
    MT_CUDA_LAUNCH(failed_assert, 1, 32, 0, 0, d);
    CHECK(cudaDeviceSynchronize() == cudaErrorAssert, "assertion not reported");
    std::vector<int> host(64);
    MT_CUDA_LAUNCH(failed_assert, 1, 32, 0, 0, host.data()); /* pageable host memory */
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress, "host pointer not reported");
    CHECK(cudaGetLastError() == cudaErrorIllegalAddress, "the failure is the last error");
    CHECK(cudaGetLastError() == cudaSuccess, "and is cleared");
    /* the device still works: the error is not sticky */
    test_vector_add();
    cudaFree(d);
    /* a child forked after the runtime started work cannot use it (its threads are gone) */
    pid_t pid = fork();
    if (pid == 0) {
        void *p = nullptr;
        int n = 5;
        bool ok = cudaMalloc(&p, 16) == cudaErrorInitializationError &&
                  cudaGetDeviceCount(&n) == cudaErrorInitializationError && n == 0;
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "forked child: status %d", status);
}
#endif

static void
test_errors()
{
    int n = 0;
    cudaGetDeviceCount(&n);
    CHECK(cudaSetDevice(n + 3) == cudaErrorInvalidDevice, "bad device");
    CHECK(cudaGetLastError() == cudaErrorInvalidDevice, "last error");
    CHECK(cudaGetLastError() == cudaSuccess, "last error cleared");
    CHECK(std::strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0, "text");
    CHECK(std::strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory") == 0, "text");
    CHECK(std::strcmp(cudaGetErrorString(cudaErrorNotReady), "device not ready") == 0, "text");
    CHECK(std::strcmp(cudaGetErrorName(cudaErrorInvalidDevice), "cudaErrorInvalidDevice") == 0,
          "name");
    void *p = nullptr;
    CHECK(cudaMalloc(&p, (size_t)1 << 60) == cudaErrorMemoryAllocation, "huge malloc");
    CHECK(cudaPeekAtLastError() == cudaErrorMemoryAllocation, "peek");
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation, "get");
    int host[4] = {0, 0, 0, 0};
    CHECK(cudaFree(host) == cudaErrorInvalidValue, "free of host memory");
    float *d;
    CHECK_CUDA(cudaMalloc(&d, 16 * sizeof(float)));
    if (g_emulated) {
        /* checks of copies a GPU runtime leaves to the hardware */
        CHECK(cudaMemcpy(host, host, sizeof(host), cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
              "host pointer as the device side");
        CHECK(cudaMemcpy(d + 8, host, 12 * sizeof(float), cudaMemcpyHostToDevice) ==
                  cudaErrorInvalidValue,
              "copy past the allocation's end");
        CHECK(cudaMemset(d, 0, 17 * sizeof(float)) == cudaErrorInvalidValue, "memset past the end");
        CHECK(cudaMemcpy(d, host, 4, (cudaMemcpyKind)9) == cudaErrorInvalidMemcpyDirection,
              "bad kind");
        struct cudaPointerAttributes at;
        CHECK_CUDA(cudaPointerGetAttributes(&at, host));
        CHECK(at.type == cudaMemoryTypeUnregistered, "host memory is of type %d", (int)at.type);
    }
    (void)cudaGetLastError();
    MT_CUDA_LAUNCH(fill, 1, 2048, 0, 0, d, 0.0f, 16);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration, "2048 threads per block");
    MT_CUDA_LAUNCH(fill, dim3(1, 70000), 32, 0, 0, d, 0.0f, 16);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration, "grid.y 70000");
    MT_CUDA_LAUNCH(reverse_dynamic, 1, 32, 100 * 1024, 0, d, d);
    CHECK(cudaGetLastError() != cudaSuccess, "100 KiB of dynamic shared memory by default");
    int blocks_per_sm = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, fill, 256, 0));
    CHECK(blocks_per_sm >= 1 && blocks_per_sm <= 32, "%d blocks per SM", blocks_per_sm);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, 0x10) == cudaErrorInvalidValue, "bad stream flags");
    cudaEvent_t e;
    CHECK(cudaEventCreateWithFlags(&e, 0x40) == cudaErrorInvalidValue, "bad event flags");
    CHECK(cudaEventElapsedTime(nullptr, nullptr, nullptr) == cudaErrorInvalidValue, "null ms");
    (void)cudaGetLastError();
    cudaFree(d);
}

#ifdef MT_WITH_CUDA
/* the process's caching allocator (c10_lite/cuda_alloc.c) over this runtime */
static void
test_caching_allocator()
{
    mt_cuda_alloc *a = mt_cuda_allocator();
    if (a == nullptr) {
        CHECK(false, "no allocator");
        return;
    }
    int dev = 0;
    cudaGetDeviceCount(&dev);
    dev -= 1; /* the last device */
    cudaStream_t s;
    CHECK_CUDA(cudaSetDevice(dev));
    CHECK_CUDA(cudaStreamCreate(&s));
    mt_cuda_alloc_stats st0, st1;
    mt_cuda_alloc_get_stats(a, dev, &st0);
    float *p = nullptr;
    CHECK(mt_cuda_alloc_malloc(a, dev, s, 3000 * sizeof(float), (void **)&p) == 0, "malloc");
    struct cudaPointerAttributes at;
    CHECK_CUDA(cudaPointerGetAttributes(&at, p));
    CHECK(at.type == cudaMemoryTypeDevice && at.device == dev, "%d %d", (int)at.type, at.device);
    MT_CUDA_LAUNCH(fill, (3000 + 255) / 256, 256, 0, s, p, 4.0f, 3000);
    CHECK_CUDA(cudaStreamSynchronize(s));
    float back = 0.0f;
    CHECK_CUDA(cudaMemcpy(&back, p + 2999, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(back == 4.0f, "%g", (double)back);
    /* a block also used on another stream is not reused before that stream's work is done */
    cudaStream_t side;
    CHECK_CUDA(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    Gate g;
    CHECK_CUDA(cudaLaunchHostFunc(side, gate_wait, &g));
    MT_CUDA_LAUNCH(add_one, (3000 + 255) / 256, 256, 0, side, p, 3000);
    CHECK(mt_cuda_alloc_record_stream(a, p, side) == 0, "record_stream");
    CHECK(mt_cuda_alloc_free(a, p) == 0, "free");
    float *q = nullptr;
    CHECK(mt_cuda_alloc_malloc(a, dev, s, 3000 * sizeof(float), (void **)&q) == 0, "malloc");
    CHECK(q != p, "a block still in use on another stream was handed out");
    g.open = 1;
    CHECK_CUDA(cudaStreamSynchronize(side));
    float *r = nullptr;
    CHECK(mt_cuda_alloc_malloc(a, dev, s, 3000 * sizeof(float), (void **)&r) == 0, "malloc");
    CHECK(r == p, "the block is reused once the other stream's work is done");
    mt_cuda_alloc_get_stats(a, dev, &st1);
    CHECK(st1.driver_mallocs - st0.driver_mallocs == 2 && st1.cache_hits - st0.cache_hits == 1,
          "%lld driver mallocs, %lld hits", (long long)(st1.driver_mallocs - st0.driver_mallocs),
          (long long)(st1.cache_hits - st0.cache_hits));
    mt_cuda_alloc_free(a, q);
    mt_cuda_alloc_free(a, r);
    mt_cuda_alloc_empty_cache(a);
    cudaStreamDestroy(side);
    cudaStreamDestroy(s);
    CHECK_CUDA(cudaSetDevice(0));
}
#endif

/* ---- cuBLAS ---- */

/* column-major reference: C = alpha op(A) op(B) + beta C */
static void
ref_gemm(bool ta, bool tb, int m, int n, int k, double alpha, const std::vector<double> &A, int lda,
         const std::vector<double> &B, int ldb, double beta, std::vector<double> &C, int ldc)
{
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int l = 0; l < k; l++) {
                double a = ta ? A[(size_t)l + (size_t)i * lda] : A[(size_t)i + (size_t)l * lda];
                double b = tb ? B[(size_t)j + (size_t)l * ldb] : B[(size_t)l + (size_t)j * ldb];
                s += a * b;
            }
            double &c = C[(size_t)i + (size_t)j * ldc];
            c = alpha * s + (beta == 0.0 ? 0.0 : beta * c);
        }
    }
}

template <class T>
static T *
to_device(const std::vector<double> &v)
{
    std::vector<T> h(v.size());
    for (size_t i = 0; i < v.size(); i++) {
        h[i] = (T)v[i];
    }
    T *d = nullptr;
    cudaMalloc(&d, h.size() * sizeof(T));
    cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <class T>
static std::vector<double>
from_device(const T *d, size_t n)
{
    std::vector<T> h(n);
    cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
    std::vector<double> out(n);
    for (size_t i = 0; i < n; i++) {
        out[i] = (double)(float)h[i];
    }
    return out;
}

static double
max_err(const std::vector<double> &a, const std::vector<double> &b)
{
    double e = 0.0;
    for (size_t i = 0; i < a.size(); i++) {
        e = std::fmax(e, std::fabs(a[i] - b[i]) / (1.0 + std::fabs(b[i])));
    }
    return e;
}

static std::vector<double>
pattern(size_t n, int seed)
{
    std::vector<double> v(n);
    for (size_t i = 0; i < n; i++) {
        v[i] = (double)((int)((i * 37 + (size_t)seed * 11) % 23) - 11) / 8.0;
    }
    return v;
}

static void
test_cublas()
{
    cublasHandle_t h;
    CHECK(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "create");
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    CHECK(cublasSetStream(h, s) == CUBLAS_STATUS_SUCCESS, "set stream");
    CHECK(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH) == CUBLAS_STATUS_SUCCESS, "math");
    CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) == CUBLAS_STATUS_SUCCESS, "math");
    /* every transpose combination, leading dimensions above the rows, beta != 0 */
    const int m = 13, n = 7, k = 9, batch = 3;
    for (int ta = 0; ta < 2; ta++) {
        for (int tb = 0; tb < 2; tb++) {
            int arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
            int lda = arows + 3, ldb = brows + 2, ldc = m + 1;
            long long sa = (long long)lda * acols + 5, sb = (long long)ldb * bcols + 1,
                      sc = (long long)ldc * n + 4;
            std::vector<double> A = pattern((size_t)(sa * batch), 1),
                                B = pattern((size_t)(sb * batch), 2),
                                C = pattern((size_t)(sc * batch), 3);
            std::vector<double> want = C;
            for (int b = 0; b < batch; b++) {
                std::vector<double> Ab(A.begin() + b * sa, A.begin() + (b + 1) * sa),
                    Bb(B.begin() + b * sb, B.begin() + (b + 1) * sb),
                    Cb(want.begin() + b * sc, want.begin() + (b + 1) * sc);
                ref_gemm(ta, tb, m, n, k, 1.5, Ab, lda, Bb, ldb, -0.5, Cb, ldc);
                std::copy(Cb.begin(), Cb.end(), want.begin() + b * sc);
            }
            cublasOperation_t oa = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
            cublasOperation_t ob = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
            float *dA = to_device<float>(A), *dB = to_device<float>(B), *dC = to_device<float>(C);
            float alpha = 1.5f, beta = -0.5f;
            CHECK(cublasSgemmStridedBatched(h, oa, ob, m, n, k, &alpha, dA, lda, sa, dB, ldb, sb,
                                            &beta, dC, ldc, sc, batch) == CUBLAS_STATUS_SUCCESS,
                  "sgemm strided batched");
            CHECK_CUDA(cudaStreamSynchronize(s));
            std::vector<double> got = from_device(dC, C.size());
            CHECK(max_err(got, want) < 1e-5, "sgemm batched ta=%d tb=%d err %g", ta, tb,
                  max_err(got, want));
            /* one matrix through cublasSgemm (beta == 0: C's NaNs are not read) */
            std::vector<double> nanC((size_t)sc, NAN), want1((size_t)sc, NAN);
            ref_gemm(ta, tb, m, n, k, 1.5, A, lda, B, ldb, 0.0, want1, ldc);
            float *dN = to_device<float>(nanC);
            float zero = 0.0f;
            CHECK(cublasSgemm(h, oa, ob, m, n, k, &alpha, dA, lda, dB, ldb, &zero, dN, ldc) ==
                      CUBLAS_STATUS_SUCCESS,
                  "sgemm");
            CHECK_CUDA(cudaStreamSynchronize(s));
            std::vector<double> got1 = from_device(dN, nanC.size());
            double e1 = 0.0;
            for (int j = 0; j < n; j++) {
                for (int i = 0; i < m; i++) {
                    size_t idx = (size_t)i + (size_t)j * ldc;
                    e1 = std::fmax(e1, std::fabs(got1[idx] - want1[idx]));
                }
            }
            CHECK(e1 < 1e-4, "sgemm ta=%d tb=%d err %g", ta, tb, e1);
            /* double */
            double *eA = to_device<double>(A), *eB = to_device<double>(B);
            double *eC = to_device<double>(C);
            double da = 1.5, db = -0.5;
            CHECK(cublasDgemmStridedBatched(h, oa, ob, m, n, k, &da, eA, lda, sa, eB, ldb, sb, &db,
                                            eC, ldc, sc, batch) == CUBLAS_STATUS_SUCCESS,
                  "dgemm strided batched");
            CHECK_CUDA(cudaStreamSynchronize(s));
            std::vector<double> gotd = from_device(eC, C.size());
            CHECK(max_err(gotd, want) < 1e-12, "dgemm err %g", max_err(gotd, want));
            /* bfloat16 operands, float32 output (the inputs are exact in bfloat16) */
            __nv_bfloat16 *bA = to_device<__nv_bfloat16>(A), *bB = to_device<__nv_bfloat16>(B);
            float *fC = to_device<float>(C);
            CHECK(cublasGemmStridedBatchedEx(h, oa, ob, m, n, k, &alpha, bA, CUDA_R_16BF, lda, sa,
                                             bB, CUDA_R_16BF, ldb, sb, &beta, fC, CUDA_R_32F, ldc,
                                             sc, batch, CUBLAS_COMPUTE_32F,
                                             CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS,
                  "bf16 gemm");
            CHECK_CUDA(cudaStreamSynchronize(s));
            std::vector<double> gotb = from_device(fC, C.size());
            CHECK(max_err(gotb, want) < 1e-5, "bf16 gemm err %g", max_err(gotb, want));
            cudaFree(dA);
            cudaFree(dB);
            cudaFree(dC);
            cudaFree(dN);
            cudaFree(eA);
            cudaFree(eB);
            cudaFree(eC);
            cudaFree(bA);
            cudaFree(bB);
            cudaFree(fC);
        }
    }
    /* half in, half out through cublasGemmEx */
    {
        std::vector<double> A = pattern(4 * 5, 4), B = pattern(5 * 6, 5), C(4 * 6, 0.0);
        ref_gemm(false, false, 4, 6, 5, 1.0, A, 4, B, 5, 0.0, C, 4);
        __half *hA = to_device<__half>(A), *hB = to_device<__half>(B),
               *hC = to_device<__half>(std::vector<double>(24, 0.0));
        float one = 1.0f, zero = 0.0f;
        CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 6, 5, &one, hA, CUDA_R_16F, 4, hB,
                           CUDA_R_16F, 5, &zero, hC, CUDA_R_16F, 4, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS,
              "half gemm");
        CHECK_CUDA(cudaStreamSynchronize(s));
        std::vector<double> got = from_device(hC, 24);
        CHECK(max_err(got, C) < 1e-3, "half gemm err %g", max_err(got, C));
        cudaFree(hA);
        cudaFree(hB);
        cudaFree(hC);
    }
#ifdef MT_CUDA_EMULATED
    /* TF32 (emulated: operands rounded to 10 mantissa bits, ties to even; a GPU may keep small
     * products off the tensor cores): 1 + 2^-12 rounds to 1, 1 + 3 * 2^-11 up to 1 + 2^-9 */
    {
        const float a[2] = {1.0f + 0x1p-12f, 1.0f + 3 * 0x1p-11f};
        float *dA, *dB, *dC;
        CHECK_CUDA(cudaMalloc((void **)&dA, sizeof(a)));
        CHECK_CUDA(cudaMalloc((void **)&dB, sizeof(float)));
        CHECK_CUDA(cudaMalloc((void **)&dC, 2 * sizeof(float)));
        const float unit = 1.0f, none = 0.0f;
        CHECK_CUDA(cudaMemcpy(dA, a, sizeof(a), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dB, &unit, sizeof(float), cudaMemcpyHostToDevice));
        float c[2];
        for (int mode = 0; mode < 3; mode++) {
            /* 0: float32; 1: TF32 math mode with Sgemm; 2: the TF32 compute type */
            CHECK(cublasSetMathMode(h, mode == 1 ? CUBLAS_TF32_TENSOR_OP_MATH
                                                 : CUBLAS_DEFAULT_MATH) == CUBLAS_STATUS_SUCCESS,
                  "math");
            cublasStatus_t st =
                mode < 2 ? cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 1, 1, &unit, dA, 2, dB, 1,
                                       &none, dC, 2)
                         : cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 1, 1, &unit, dA,
                                        CUDA_R_32F, 2, dB, CUDA_R_32F, 1, &none, dC, CUDA_R_32F,
                                        2, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
            CHECK(st == CUBLAS_STATUS_SUCCESS, "tf32 gemm mode %d", mode);
            CHECK_CUDA(cudaStreamSynchronize(s));
            CHECK_CUDA(cudaMemcpy(c, dC, sizeof(c), cudaMemcpyDeviceToHost));
            if (mode == 0) {
                CHECK(c[0] == a[0] && c[1] == a[1], "float32 gemm %a %a", c[0], c[1]);
            } else {
                CHECK(c[0] == 1.0f && c[1] == 1.0f + 0x1p-9f, "tf32 mode %d: %a %a", mode, c[0],
                      c[1]);
            }
        }
        CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) == CUBLAS_STATUS_SUCCESS, "math");
        cudaFree(dA);
        cudaFree(dB);
        cudaFree(dC);
    }
#endif
    /* bad arguments */
    float one = 1.0f;
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, nullptr, 3, nullptr, 4, &one,
                      nullptr, 4) == CUBLAS_STATUS_INVALID_VALUE,
          "lda below m");
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 4, 4, &one, nullptr, 4, nullptr, 4, &one,
                      nullptr, 4) == CUBLAS_STATUS_INVALID_VALUE,
          "negative m");
    CHECK(cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, nullptr, 4, nullptr, 4,
                      &one, nullptr, 4) == CUBLAS_STATUS_NOT_INITIALIZED,
          "null handle");
    CHECK(cublasDestroy(h) == CUBLAS_STATUS_SUCCESS, "destroy");
    cudaStreamDestroy(s);
}

int
main()
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        std::printf("no CUDA device: 1 passed, 0 failed (skipped)\n");
        return 0;
    }
#ifdef MT_CUDA_EMULATED
    g_emulated = true;
#endif
    const char *blas = std::getenv("MINITORCH_TEST_BLAS");
    test_devices();
    test_vector_add();
    test_block_reduction();
    test_warp_ops();
    test_warp_reduce_match();
    test_half_types();
    test_constant_memory();
    test_atomics();
    test_dynamic_shared_and_3d();
    test_streams_events();
    test_legacy_default_stream();
    test_async_copies();
#ifdef MT_CUDA_EMULATED
    test_kernel_failures();
#endif
    test_errors();
#ifdef MT_WITH_CUDA
    test_caching_allocator();
#endif
    test_cublas(); /* on the fallback loops */
    if (g_emulated && blas != nullptr && *blas != '\0') {
        CHECK(mt_blas_load(blas) == 0, "loading %s", blas);
        test_cublas(); /* on the loaded BLAS */
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
