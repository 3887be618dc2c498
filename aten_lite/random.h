/* aten_lite/random.h - counter-based (Philox4x32-10) generators and random tensor fills. */
#ifndef ATEN_LITE_RANDOM_H
#define ATEN_LITE_RANDOM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Note [Counter-based random numbers]
 * A generator is (seed, offset).  The random bits of a draw are
 * Philox4x32-10(key = seed, counter = offset + block): 128 bits per block,
 * a pure function of the block number.  A fill of n values reserves
 * ceil(n / per_block) blocks (rounded up to a multiple of 8, the batch the
 * kernels compute at once) by advancing the offset once, then element i
 * reads block (offset + i / per_block), slot i % per_block.  So each element
 * depends only on the seed, the offset at the call and its own index: the
 * result is the same for any thread count or chunking, chunks need no
 * coordination, and a state is just the two 64-bit numbers.
 *
 * Values per block: 4 for 32-bit draws (float32/16-bit float uniforms, float
 * normals: Box-Muller on two 24-bit uniforms gives a cos/sin pair), 2 for
 * 64-bit draws (double uniforms with 53 random mantissa bits, integers,
 * Bernoulli, geometric).  Box-Muller's radius comes from the smallest
 * uniform step, so float normals stay within 5.8 standard deviations
 * (probability of a larger one: 7e-9) and double normals within 8.6.  The
 * streams differ from PyTorch's (mt19937 and its own transforms): same
 * statistics, not the same numbers. */

#define MT_DEFAULT_SEED UINT64_C(67280421310721) /* torch's default initial seed */
#define MT_GENERATOR_STATE_SIZE 24               /* magic, seed, offset */

/* The offset advances atomically, so concurrent draws get disjoint blocks
 * (their order is unspecified); setting seed or state while another thread
 * draws is the caller's race. */
typedef struct mt_generator {
    _Atomic uint64_t seed;
    _Atomic uint64_t offset; /* next unused block */
} mt_generator;

/* Sets seed and rewinds the offset to 0. */
void mt_generator_manual_seed(mt_generator *g, uint64_t seed);
/* Reserves `blocks` blocks and returns the first (old offset). */
uint64_t mt_generator_reserve(mt_generator *g, uint64_t blocks);
/* Writes MT_GENERATOR_STATE_SIZE bytes (little-endian, versioned by a magic). */
void mt_generator_get_state(const mt_generator *g, uint8_t *out);
/* Restores a state written by mt_generator_get_state.  MT_EINVAL (nothing
 * changed) when the size or the magic is wrong. */
int mt_generator_set_state(mt_generator *g, const uint8_t *state, int64_t nbytes);

/* Philox4x32-10 of the 128-bit counter (counter_hi:counter) under the 64-bit
 * key.  Fills use counter_hi = 0; see Note [Poisson] for the other values. */
void mt_philox4x32(uint64_t key, uint64_t counter, uint64_t counter_hi, uint32_t out[4]);

typedef enum mt_rand_dist {
    MT_RAND_UNIFORM,     /* [a, b) */
    MT_RAND_NORMAL,      /* mean a, std b */
    MT_RAND_BERNOULLI,   /* 1 with probability a, else 0 */
    MT_RAND_EXPONENTIAL, /* rate a */
    MT_RAND_GEOMETRIC,   /* trials to the first success with probability a: 1, 2, ... */
    MT_RAND_CAUCHY,      /* median a, scale b */
    MT_RAND_LOG_NORMAL,  /* exp(normal(a, b)) */
} mt_rand_dist;

/* One random fill, as the op code hands it to a device's kernel (see Note [Kernel stubs]):
 * element i of the contiguous tensor receives draw i of the Philox stream (key, blocks
 * from `base` on), as described in Note [Random fill kernels] (random.c). */
typedef struct mt_random_job {
    mt_rand_dist dist;
    mt_dtype dt;
    bool integral;   /* dt is an integer type or bool */
    bool wide;       /* 64-bit draws: 2 values per block, computed in double */
    bool ints;       /* uniform integers from + (r mod range) (mt_random_int_), not dist */
    int mbits;       /* uniform mantissa bits for 32-bit draws */
    uint64_t key;
    uint64_t base;   /* first reserved block */
    double a, b;
    double log_q;    /* geometric: log1p(-a) */
    int64_t from;    /* ints */
    uint64_t range;
    const double *p; /* bernoulli with a tensor p: contiguous float64 probabilities (on t's device) */
    char *data;      /* the kernel's: the tensor's first element */
} mt_random_job;

/* Runs job over t (any layout, no internal overlap) on t's device: sets the job's dtype,
 * key and base (reserving the generator's blocks), then calls the device's fill kernel (on a
 * contiguous buffer copied into t when t is not contiguous).  For the kernels of a device
 * (bernoulli_tensor) that prepare a job themselves. */
int mt_random_run_fill(mt_tensor *t, mt_generator *g, mt_random_job *job);
/* Fills t (borrowed; any layout, no internal overlap) with draws of `dist`
 * from g.  Uniform, normal, exponential, Cauchy and log-normal need a
 * floating t (MT_ERUNTIME naming the kernel otherwise, as torch); parameters
 * are checked by the caller.  Returns 0 or a negative MT_E* code (then the
 * generator may have advanced but t is unmodified). */
int mt_random_fill_(mt_tensor *t, mt_generator *g, mt_rand_dist dist, double a, double b);
/* Fills t with integers from + (r mod range), r uniform 64-bit; range == 0
 * stands for 2^64.  Any dtype (floats receive the integer value). */
int mt_random_int_(mt_tensor *t, mt_generator *g, int64_t from, uint64_t range);
/* t[i] = 1 with probability p[i] (p: floating, broadcastable to t, values in
 * [0, 1], else MT_ERUNTIME with torch's message), else 0. */
int mt_bernoulli_tensor_(mt_tensor *t, mt_generator *g, const mt_tensor *p);
/* A random permutation of 0..n-1 (Fisher-Yates) as dtype dt.  Caller owns. */
mt_tensor *mt_randperm(int64_t n, mt_dtype dt, mt_generator *g);
/* torch.poisson: draws of rates (floating, values >= 0 and finite, else
 * MT_ERUNTIME), same shape and dtype, contiguous.  Caller owns. */
mt_tensor *mt_poisson(const mt_tensor *rates, mt_generator *g);
/* torch.multinomial: probs (floating, 1-d or 2-d, rows of non-negative finite
 * weights with a positive sum) -> int64 indices of shape (..., n).  See Note
 * [Multinomial].  Caller owns; NULL with torch's message on bad input. */
mt_tensor *mt_multinomial(const mt_tensor *probs, int64_t n, bool replacement, mt_generator *g);

#endif /* ATEN_LITE_RANDOM_H */
