/* aten_lite/cpu/loops.h - macros that generate strided inner loops per (op, dtype). */
#ifndef ATEN_LITE_CPU_LOOPS_H
#define ATEN_LITE_CPU_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "aten_lite/dispatch.h"
#include "c10_lite/dtype.h"

/* Note [Loop generation]
 * Dtype lists take the generator X plus extra arguments:
 *   X(ENUM, name, ctype, acctype, extra...)
 * so one line instantiates an op for a whole dtype class, e.g.
 *   MT_L_NUMERIC(MT_GEN_ARITH2, sub, a - b)
 * The binary loop body checks the byte strides once per call and takes the
 * contiguous, scalar-right, scalar-left or generic strided path; the
 * contiguous paths are plain indexed loops that the compiler vectorises. */
#define MT_L_BOOL(X, ...) X(MT_BOOL, boolean, bool, bool, __VA_ARGS__)
#define MT_L_INT(X, ...)                                \
    X(MT_UINT8, uint8, uint8_t, uint8_t, __VA_ARGS__)   \
    X(MT_INT8, int8, int8_t, int8_t, __VA_ARGS__)       \
    X(MT_INT16, int16, int16_t, int16_t, __VA_ARGS__)   \
    X(MT_INT32, int32, int32_t, int32_t, __VA_ARGS__)   \
    X(MT_INT64, int64, int64_t, int64_t, __VA_ARGS__)
#define MT_L_FLOAT(X, ...)                                  \
    X(MT_FLOAT16, float16, mt_half, float, __VA_ARGS__)     \
    X(MT_BFLOAT16, bfloat16, mt_bfloat16, float, __VA_ARGS__) \
    X(MT_FLOAT32, float32, float, float, __VA_ARGS__)       \
    X(MT_FLOAT64, float64, double, double, __VA_ARGS__)
#define MT_L_NUMERIC(X, ...) MT_L_INT(X, __VA_ARGS__) MT_L_FLOAT(X, __VA_ARGS__)
#define MT_L_INTBOOL(X, ...) MT_L_BOOL(X, __VA_ARGS__) MT_L_INT(X, __VA_ARGS__)
#define MT_L_ALL(X, ...) MT_L_BOOL(X, __VA_ARGS__) MT_L_NUMERIC(X, __VA_ARGS__)
/* uint16/uint32/uint64, see Note [Barebones unsigned dtypes]: only the kernels torch has for
 * them (comparisons, sorting) are instantiated; not part of MT_L_ALL */
#define MT_L_BAREBONES(X, ...)                             \
    X(MT_UINT16, uint16, uint16_t, uint16_t, __VA_ARGS__)  \
    X(MT_UINT32, uint32, uint32_t, uint32_t, __VA_ARGS__)  \
    X(MT_UINT64, uint64, uint64_t, uint64_t, __VA_ARGS__)
/* complex64/complex128, see Note [Complex dtypes]; not part of MT_L_ALL */
#define MT_L_COMPLEX(X, ...)                                                \
    X(MT_COMPLEX64, complex64, mt_complex64, mt_complex64, __VA_ARGS__)     \
    X(MT_COMPLEX128, complex128, mt_complex128, mt_complex128, __VA_ARGS__)
/* the real type of a complex one, for ops with a real result (abs, angle) */
#define MT_REAL_T_complex64 float
#define MT_REAL_T_complex128 double

/* Note [SIMD clones]
 * Loops are compiled twice, for the x86-64 baseline (SSE2) and for AVX2
 * CPUs (chosen by CPU feature, not model); the dynamic loader picks one once
 * (GNU ifunc).  Other compilers/architectures get one portable version. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(MT_NO_SIMD_CLONES)
#define MT_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
/* compute-bound loops also for x86-64-v4 (AVX-512) and v3 (AVX2 + FMA): Note [Wide clones] in
 * cpu/activation.c */
#define MT_WIDE_CLONES \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MT_AVX2_CLONES
#define MT_WIDE_CLONES
#endif
/* what the loops below use (a file of compute-bound loops may redefine it as MT_WIDE_CLONES) */
#define MT_SIMD_CLONES MT_AVX2_CLONES

/* Binary loop: out[i] = OSTORE(EXPR) with `a`, `b` (acctype) and `c` (ctx). */
#define MT_BINARY_LOOP(fname, tn, ct, acc, ot, OSTORE, ...)                                 \
    MT_SIMD_CLONES static void fname(char **data, const int64_t *np, const int64_t *st, void *vctx)        \
    {                                                                                       \
        mt_binary_ctx *c = (mt_binary_ctx *)vctx;                                           \
        /* the float alpha as a local: the build's -fno-strict-aliasing would otherwise reload \
         * it after every store and keep the loop from being vectorised */                  \
        const double alpha_f = c != NULL ? c->alpha_f : 0.0;                                \
        (void)c;                                                                            \
        (void)alpha_f;                                                                      \
        const int64_t n = np[0], so = st[0], sa = st[1], sb = st[2];                        \
        char *po = data[0];                                                                 \
        const char *pa = data[1], *pb = data[2];                                            \
        if (so == (int64_t)sizeof(ot) && sa == (int64_t)sizeof(ct) && sb == (int64_t)sizeof(ct)) { \
            ot *o = (ot *)po;                                                               \
            const ct *x = (const ct *)pa, *y = (const ct *)pb;                              \
            for (int64_t i = 0; i < n; i++) {                                               \
                acc a = MT_LOAD_##tn(x[i]);                                                 \
                acc b = MT_LOAD_##tn(y[i]);                                                 \
                o[i] = OSTORE(__VA_ARGS__);                                                 \
            }                                                                               \
        }                                                                                   \
        else if (so == (int64_t)sizeof(ot) && sa == (int64_t)sizeof(ct) && sb == 0) {      \
            ot *o = (ot *)po;                                                               \
            const ct *x = (const ct *)pa;                                                   \
            const acc b = MT_LOAD_##tn(*(const ct *)pb);                                    \
            for (int64_t i = 0; i < n; i++) {                                               \
                acc a = MT_LOAD_##tn(x[i]);                                                 \
                o[i] = OSTORE(__VA_ARGS__);                                                 \
            }                                                                               \
        }                                                                                   \
        else if (so == (int64_t)sizeof(ot) && sa == 0 && sb == (int64_t)sizeof(ct)) {      \
            ot *o = (ot *)po;                                                               \
            const ct *y = (const ct *)pb;                                                   \
            const acc a = MT_LOAD_##tn(*(const ct *)pa);                                    \
            for (int64_t i = 0; i < n; i++) {                                               \
                acc b = MT_LOAD_##tn(y[i]);                                                 \
                o[i] = OSTORE(__VA_ARGS__);                                                 \
            }                                                                               \
        }                                                                                   \
        else {                                                                              \
            for (int64_t i = 0; i < n; i++) {                                               \
                acc a = MT_LOAD_##tn(*(const ct *)(pa + i * sa));                           \
                acc b = MT_LOAD_##tn(*(const ct *)(pb + i * sb));                           \
                *(ot *)(po + i * so) = OSTORE(__VA_ARGS__);                                 \
            }                                                                               \
        }                                                                                   \
    }

/* Unary loop: out[i] = OSTORE(EXPR) with `a` (acctype). */
#define MT_UNARY_LOOP(fname, tn, ct, acc, ot, OSTORE, ...)                                  \
    MT_SIMD_CLONES static void fname(char **data, const int64_t *np, const int64_t *st, void *vctx)        \
    {                                                                                       \
        (void)vctx;                                                                         \
        const int64_t n = np[0], so = st[0], sa = st[1];                                    \
        char *po = data[0];                                                                 \
        const char *pa = data[1];                                                           \
        if (so == (int64_t)sizeof(ot) && sa == (int64_t)sizeof(ct)) {                       \
            ot *o = (ot *)po;                                                               \
            const ct *x = (const ct *)pa;                                                   \
            for (int64_t i = 0; i < n; i++) {                                               \
                acc a = MT_LOAD_##tn(x[i]);                                                 \
                o[i] = OSTORE(__VA_ARGS__);                                                 \
            }                                                                               \
        }                                                                                   \
        else {                                                                              \
            for (int64_t i = 0; i < n; i++) {                                               \
                acc a = MT_LOAD_##tn(*(const ct *)(pa + i * sa));                           \
                *(ot *)(po + i * so) = OSTORE(__VA_ARGS__);                                 \
            }                                                                               \
        }                                                                                   \
    }

#define MT_BOOL_STORE(v) ((bool)(v))

/* Generators for the dtype lists: same-dtype result, or bool result. */
#define MT_GEN_BINARY_SAME(E, tn, ct, acc, op, ...) \
    MT_BINARY_LOOP(mt__##op##_##tn, tn, ct, acc, ct, MT_STORE_##tn, __VA_ARGS__)
#define MT_GEN_BINARY_BOOL(E, tn, ct, acc, op, ...) \
    MT_BINARY_LOOP(mt__##op##_##tn, tn, ct, acc, bool, MT_BOOL_STORE, __VA_ARGS__)
#define MT_GEN_UNARY_SAME(E, tn, ct, acc, op, ...) \
    MT_UNARY_LOOP(mt__##op##_##tn, tn, ct, acc, ct, MT_STORE_##tn, __VA_ARGS__)
#define MT_GEN_UNARY_BOOL(E, tn, ct, acc, op, ...) \
    MT_UNARY_LOOP(mt__##op##_##tn, tn, ct, acc, bool, MT_BOOL_STORE, __VA_ARGS__)
#define MT_REAL_STORE(v) (v)
/* complex input, real result of the same precision */
#define MT_GEN_UNARY_REAL(E, tn, ct, acc, op, ...) \
    MT_UNARY_LOOP(mt__##op##_##tn, tn, ct, acc, MT_REAL_T_##tn, MT_REAL_STORE, __VA_ARGS__)
/* Registration: MT_L_xxx(MT_GEN_REGISTER, op, MT_OP_XXX) */
#define MT_GEN_REGISTER(E, tn, ct, acc, op, OPENUM) mt_dispatch[MT_CPU][OPENUM][E] = mt__##op##_##tn;

#endif /* ATEN_LITE_CPU_LOOPS_H */
