/* aten_lite/kernel_stubs.h - the kernel families: one table of kernels per family and device. */
#ifndef ATEN_LITE_KERNEL_STUBS_H
#define ATEN_LITE_KERNEL_STUBS_H

#include "aten_lite/conv_geom.h"
#include "aten_lite/dispatch.h"
#include "aten_lite/ops.h"
#include "aten_lite/optim.h"
#include "aten_lite/pool_geom.h"
#include "aten_lite/upsample.h"
#include "aten_lite/random.h"

/* See Note [Kernel stubs] in dispatch.h for the protocol (MT_DECLARE_STUB, MT_REGISTER_STUB,
 * MT_STUB).  Each family below is the contract between the device-neutral op code and a
 * device's kernels: what the op code has checked and prepared before it calls, and what the
 * kernel must do.  Unless a member says otherwise, kernels return MT_OK or a negative code
 * with the message set, take borrowed tensors, and are only called with tensors on their
 * own device (the op code checked; copies are the exception).  Outputs are allocated by the
 * op code (mt_tensor_empty on the device), so kernels never allocate results. */

/* ---- elementwise (aten_lite/elementwise.c) ----
 * One call of a kernel of the mt_op list (dispatch.h) over a built iterator: outputs first,
 * allocated and shape-checked; inputs are tensors on the device, or 0-d cpu tensors (a
 * scalar operand: Note [Scalar operands]; a device kernel reads its value from host memory
 * before launching, as torch passes a cpu scalar to a CUDA kernel). */
typedef struct mt_elementwise_call {
    mt_op op;                /* the kernel */
    mt_dtype dtype;          /* the dtype it computes in (inputs after promotion) */
    void *ctx;               /* the op's context: mt_binary_ctx for binary ops, or NULL */
    const mt_dtype *compute; /* per input, the dtype the kernel sees it in (a conversion on
                              * the fly when it has another); NULL: inputs already have it */
} mt_elementwise_call;

typedef struct mt_elementwise_kernels {
    /* MT_OK when the device has kernel op for dtype dt, else MT_ENOTIMPL with torch's
     * "\"<op>_<device>\" not implemented for '<Dtype>'".  Called before any allocation. */
    int (*check)(mt_op op, mt_dtype dt);
    /* Runs call over it (the op code checked the kernel exists). */
    int (*run)(const mt_iter *it, const mt_elementwise_call *call);
} mt_elementwise_kernels;
MT_DECLARE_STUB(elementwise, mt_elementwise_kernels);

/* ---- copy / cast (aten_lite/copy.c), per (destination, source) device pair ----
 * it: built over (dst, src), src already broadcast to dst's shape and never overlapping
 * dst.  The kernel converts src's dtype to dst's while copying.  mt_copy_stub[dst][src]. */
typedef struct mt_copy_kernels {
    /* non_blocking: the copy may return before it is done when that is safe (a transfer
     * between a device and pinned host memory, Note [Pinned host memory]); else ignored. */
    int (*copy)(const mt_iter *it, mt_dtype dst_dtype, mt_dtype src_dtype, bool non_blocking);
} mt_copy_kernels;
extern const mt_copy_kernels *mt_copy_stub[MT_NUM_DEVICE_TYPES][MT_NUM_DEVICE_TYPES];
extern const mt_copy_kernels mt__copy_none;

/* ---- fill (aten_lite/copy.c) ----
 * it: built over (t) alone; elem: the value, already stored in t's dtype (host memory,
 * 16 bytes, complex128 included). */
/* A sequence of arange / linspace / logspace: element i of a contiguous 1-d tensor. */
typedef enum {
    MT_SEQ_ARANGE_INT64, /* start_i + i * step_i, exactly */
    MT_SEQ_ARANGE,       /* start + i * step in double, converted */
    MT_SEQ_LINSPACE,     /* symmetric: start + i * step for the first half, end - ... after */
    MT_SEQ_LOGSPACE,     /* base ** linspace */
} mt_sequence_kind;
typedef struct mt_sequence {
    mt_sequence_kind kind;
    double start, step, end;
    int64_t steps;
    double base;
    int64_t start_i, step_i;
} mt_sequence;

typedef struct mt_fill_kernels {
    int (*fill)(const mt_iter *it, mt_dtype dt, const void *elem);
    /* t: contiguous 1-d, numel > 0; element i <- seq's element i in t's dtype. */
    int (*sequence)(mt_tensor *t, const mt_sequence *seq);
} mt_fill_kernels;
MT_DECLARE_STUB(fill, mt_fill_kernels);

/* ---- reduce (aten_lite/reduce.c) ----
 * The op code sees the input as (kept dims..., one reduced range of R elements with
 * element stride sr): kept dims listed in order with their input and output element
 * strides; res is allocated (its numel > 0), in the output dtype of mt_reduce_out_dtype.
 * R == 0 means every output is the reduction's identity (never for max/min/arg ops: the op
 * code raised torch's IndexError).  Argmax/argmin index the reduced range row-major. */
typedef struct mt_reduce_geometry {
    int64_t R;                 /* reduced elements per output */
    int64_t sr;                /* element stride of the reduced range in src */
    int nk;                    /* kept dims */
    int64_t ksz[MT_MAX_DIMS];  /* their sizes */
    int64_t kin[MT_MAX_DIMS];  /* their element strides in src */
    int64_t kout[MT_MAX_DIMS]; /* their element strides in res */
} mt_reduce_geometry;

typedef struct mt_reduce_kernels {
    /* MT_OK when the device reduces dtype dt with op, else the error torch raises
     * (barebones unsigned dtypes, complex max/min/argmax/argmin).  Before allocation. */
    int (*check)(mt_reduce_op op, mt_dtype dt);
    int (*reduce)(mt_reduce_op op, mt_tensor *res, const mt_tensor *src,
                  const mt_reduce_geometry *g);
} mt_reduce_kernels;
MT_DECLARE_STUB(reduce, mt_reduce_kernels);

/* ---- random (aten_lite/random.c) ----
 * Every draw is a function of (key, counter) (Note [Counter-based random numbers] in
 * random.h), so a device that computes the same functions gives the same numbers as the
 * cpu for one seed.  The op code reserves the generator's blocks and checks dtypes; kernels
 * that read values (probabilities, rates, weights) check them with torch's messages. */
typedef struct mt_random_kernels {
    /* t: contiguous, numel > 0, on the device; element i <- draw i of job. */
    int (*fill)(mt_tensor *t, const mt_random_job *job);
    /* t[i] = 1 with probability p[i] (p floating, broadcastable to t, values in [0, 1]). */
    int (*bernoulli_tensor)(mt_tensor *t, mt_generator *g, const mt_tensor *p);
    /* Draws of the floating rates (values >= 0 and finite); caller owns. */
    mt_tensor *(*poisson)(const mt_tensor *rates, mt_generator *g);
    /* probs: floating, 1-d or 2-d with `rows` rows of ncat weights (values checked here);
     * n draws per row, shape and counts checked.  Caller owns. */
    mt_tensor *(*multinomial)(const mt_tensor *probs, int64_t ncat, int64_t rows, int64_t n,
                              bool replacement, mt_generator *g);
} mt_random_kernels;
MT_DECLARE_STUB(random, mt_random_kernels);

/* ---- scan (aten_lite/scan.c) ----
 * Cumulative op along dim d of t into res (t's shape, allocated, numel > 0) and, for
 * cummax/cummin, the running extreme's index into ix (int64, res's layout; else NULL). */
typedef struct mt_scan_kernels {
    /* MT_OK when the device scans dtype dt with op, else torch's "not implemented for". */
    int (*check)(mt_scan_op op, mt_dtype dt);
    int (*scan)(mt_scan_op op, mt_tensor *res, mt_tensor *ix, const mt_tensor *t, int d);
} mt_scan_kernels;
MT_DECLARE_STUB(scan, mt_scan_kernels);

/* ---- softmax / normalisation (aten_lite/softmax.c, aten_lite/layer_norm.c) ----
 * The fused one-pass-per-row kernels.  They are fast paths: on a device without them the
 * op code reports MT_EINVAL and the callers compute the op from elementwise and reduce ops
 * (MT_STUB_TRY, no missing-kernel error).  Operands are contiguous float32/float64 tensors
 * of one dtype and device with rows of len > 0 elements; results allocated by the op code. */
typedef struct mt_norm_kernels {
    /* out <- softmax (log_softmax when log) of x along its last dim; numel > 0. */
    int (*softmax_lastdim)(const mt_tensor *x, mt_tensor *out, bool log);
    /* out <- the gradient of softmax (log_softmax) given its output y and grad; numel > 0. */
    int (*softmax_backward_lastdim)(const mt_tensor *grad, const mt_tensor *y, mt_tensor *out,
                                    bool log);
    /* Note [Fused layer norm]: per row of len elements of x (numel > 0), out, mean, rstd;
     * w, b: len elements or NULL. */
    int (*layer_norm)(const mt_tensor *x, const mt_tensor *w, const mt_tensor *b, double eps,
                      int64_t len, mt_tensor *out, mt_tensor *mean, mt_tensor *rstd);
    /* dx, dw, db (each NULL when not wanted) from g (x's shape), gm, gr (mean's shape, or
     * NULL: no gradient arrived), the forward's x, mean, rstd and w (or NULL). */
    int (*layer_norm_backward)(const mt_tensor *g, const mt_tensor *gm, const mt_tensor *gr,
                               const mt_tensor *x, const mt_tensor *mean, const mt_tensor *rstd,
                               const mt_tensor *w, int64_t len, mt_tensor *dx, mt_tensor *dw,
                               mt_tensor *db);
} mt_norm_kernels;
MT_DECLARE_STUB(norm, mt_norm_kernels);
/* the cpu softmax kernels (softmax.c), in the cpu table of layer_norm.c */
int mt__cpu_softmax_lastdim(const mt_tensor *x, mt_tensor *out, bool log);
int mt__cpu_softmax_backward_lastdim(const mt_tensor *grad, const mt_tensor *y, mt_tensor *out,
                                     bool log);

/* ---- index / gather / scatter (aten_lite/index_ops.c) ----
 * Shapes, dtypes and devices are checked by the op code; index VALUES are the kernel's to
 * check (torch's IndexError / RuntimeError messages), before anything is written.  Index
 * tensors of advanced indexing may be cpu tensors with v on another device (torch's rule).
 * Note [Index kernels] describes the cpu walks. */
typedef struct mt_index_kernels {
    /* out (allocated: bshape + v's dims after k) <- v[idx[0], ..., idx[k-1]], the k index
     * tensors broadcast to bshape (bnd dims). */
    int (*index_get)(const mt_tensor *v, int k, mt_tensor *const *idx, int bnd,
                     const int64_t *bshape, mt_tensor *out);
    /* out (allocated: self's shape with index->numel at dim d) <- self.index_select(d, index);
     * index 0-d or 1-d int32/int64, values in [0, size) (with wrap: [-size, size)). */
    int (*index_select)(const mt_tensor *self, int d, const mt_tensor *index, bool wrap,
                        mt_tensor *out);
    /* v[idx...] = values (or += when accumulate); values: contiguous, v's dtype, the
     * indexed shape, not in v's storage. */
    int (*index_put)(mt_tensor *v, int k, mt_tensor *const *idx, int bnd, const int64_t *bshape,
                     const mt_tensor *values, bool accumulate);
    /* The (count, ndim) int64 coordinates of the true elements of b (contiguous bool, of
     * shape `sizes`), row-major; the kernel allocates it (its size is known only after
     * counting).  Caller owns. */
    mt_tensor *(*nonzero)(const mt_tensor *b, int ndim, const int64_t *sizes);
    /* mode -1: other (gather's out, index's shape) <- self gathered along dim; mode >= 0
     * (an mt_scatter_reduce): self scattered from other (a 0-stride tensor for a value). */
    int (*gather_scatter)(mt_tensor *self, int dim, const mt_tensor *index, mt_tensor *other,
                          int mode);
} mt_index_kernels;
MT_DECLARE_STUB(index, mt_index_kernels);

/* ---- sort (aten_lite/sort.c) ---- */
typedef struct mt_sort_kernels {
    /* Every line of t along dim d sorted (stable; NaN largest; descending flips the order)
     * and its first k entries written to v and ix (int64 positions in the line); v, ix
     * allocated with k entries along d; t->numel > 0, k > 0; no complex dtypes. */
    int (*sort)(const mt_tensor *t, int d, bool descending, int64_t k, mt_tensor *v,
                mt_tensor *ix);
    /* Note [Searchsorted]: o (int64, values' shape) <- positions of the values vc in the
     * last-dim lines of bc (sorter sc or NULL); all contiguous, checked, numel > 0. */
    int (*searchsorted)(const mt_tensor *bc, const mt_tensor *vc, const mt_tensor *sc,
                        bool right, mt_tensor *o);
} mt_sort_kernels;
MT_DECLARE_STUB(sort, mt_sort_kernels);

/* ---- GEMM (aten_lite/linalg.c) ----
 * c = alpha * a @ b + beta * c over a batch: a (batch, m, k), b (batch, k, n), c (batch,
 * m, n), any strides, one dtype (not bool), c->numel > 0; beta 0 means c is not read.
 * Every matrix product (mm, bmm, mv, dot, addmm, matmul, linear) comes here. */
typedef struct mt_gemm_kernels {
    int (*gemm)(mt_tensor *a, mt_tensor *b, mt_tensor *c, mt_scalar alpha, mt_scalar beta);
    /* cdist's direct kernel (Note [cdist kernel] in distance.c): out (B, P, R) <- p-norm
     * distances between the rows of a (B, P, M) and b (B, R, M), contiguous, one float
     * dtype; out->numel > 0. */
    int (*cdist)(const mt_tensor *a, const mt_tensor *b, double p, mt_tensor *out);
} mt_gemm_kernels;
MT_DECLARE_STUB(gemm, mt_gemm_kernels);

/* ---- convolution and pooling (aten_lite/conv.c, aten_lite/pool.c) ----
 * The geometries (conv_geom.h, pool_geom.h) are derived and checked by the op code; tensors
 * are contiguous float32/float64 (float16/bfloat16 computed in float32 by the op code, as
 * mt_float_operand), results allocated by it. */
typedef struct mt_conv_kernels {
    /* y (n, cout, out) = x (n, c, in) convolved with w, plus bias b (cout values or NULL). */
    int (*forward)(const mt__conv_geom *g, mt_tensor *x, mt_tensor *w, mt_tensor *b,
                   mt_tensor *y);
    /* gx (n, c, in) = the input gradient for gy (n, cout, out), plus bias b (c values or
     * NULL): also the transposed convolution's forward (Note [Transposed convolution]). */
    int (*grad_input)(const mt__conv_geom *g, mt_tensor *gy, mt_tensor *w, mt_tensor *b,
                      mt_tensor *gx);
    /* gw (w's shape) and gb (cout values), each NULL when not wanted, from x and gy. */
    int (*grad_weight)(const mt__conv_geom *g, mt_tensor *x, mt_tensor *gy, mt_tensor *gw,
                       mt_tensor *gb);
    /* res[ch] = the sum of t's (n, nch, plane) elements of channel ch. */
    int (*channel_sums)(mt_tensor *t, int64_t n, int64_t nch, int64_t plane, mt_tensor *res);
    /* y, ix (int64 index in the input plane, -1 for an empty window) over the windows of g;
     * x: any real dtype but bool (float16/bfloat16 widened by the op code); adaptive: the
     * windows of adaptive_max_pool (float only). */
    int (*max_pool)(const mt__pool_geom *g, const mt_tensor *x, mt_tensor *y, mt_tensor *ix,
                    bool adaptive);
    /* gx (zeroed here) += gy at the indices ix; an index outside its plane is MT_EINDEX. */
    int (*max_pool_backward)(const mt__pool_geom *g, const mt_tensor *gy, const mt_tensor *ix,
                             mt_tensor *gx);
    /* y = the window means (divisor per g); numel > 0. */
    int (*avg_pool)(const mt__pool_geom *g, const mt_tensor *x, mt_tensor *y);
    /* gx = the average pooling's input gradient for gy; numel > 0. */
    int (*avg_pool_backward)(const mt__pool_geom *g, const mt_tensor *gy, mt_tensor *gx);
    /* interpolate / upsample (Note [Separable resampling] in upsample.c): y (N, C, p->out) resampled
     * from x; transposed: the backward, x is the gradient of the output, y of the input. */
    int (*resample)(const mt_upsample_params *p, const mt_tensor *x, mt_tensor *y,
                    bool transposed);
} mt_conv_kernels;
MT_DECLARE_STUB(conv, mt_conv_kernels);
/* the cpu pooling kernels (pool.c), in the cpu table of conv.c */
int mt__cpu_max_pool(const mt__pool_geom *g, const mt_tensor *x, mt_tensor *y, mt_tensor *ix,
                     bool adaptive);
int mt__cpu_max_pool_backward(const mt__pool_geom *g, const mt_tensor *gy, const mt_tensor *ix,
                              mt_tensor *gx);
int mt__cpu_avg_pool(const mt__pool_geom *g, const mt_tensor *x, mt_tensor *y);
int mt__cpu_avg_pool_backward(const mt__pool_geom *g, const mt_tensor *gy, mt_tensor *gx);
/* the cpu resampling (upsample.c), in the cpu table of conv.c */
int mt__cpu_resample(const mt_upsample_params *p, const mt_tensor *x, mt_tensor *y,
                     bool transposed);

/* ---- optimizer steps (aten_lite/optim.c) ----
 * Fused updates, fast paths like the norm family's: without a kernel the op code reports
 * MT_EINVAL and the optimizer runs its op-by-op update (MT_STUB_TRY). */
typedef struct mt_optim_kernels {
    /* Note [Fused Adam]: one step over the iterator built on (param, exp_avg, exp_avg_sq
     * [, max_exp_avg_sq] | grad), float32 or float64, one dtype, shape and device. */
    int (*adam_step)(mt_iter *it, const mt_adam_hyper *h);
} mt_optim_kernels;
MT_DECLARE_STUB(optim, mt_optim_kernels);

/* ---- losses with their own kernels (aten_lite/ctc.c) ----
 * After the device check, the whole op: CTC reads the lengths and targets' values, which
 * the kernel checks (torch's messages). */
typedef struct mt_loss_kernels {
    /* mt_ctc_loss (ctc.h) on the device. */
    int (*ctc_loss)(const mt_tensor *log_probs, const mt_tensor *targets,
                    const mt_tensor *input_lengths, const mt_tensor *target_lengths,
                    int64_t blank, mt_tensor **neg_log_likelihood, mt_tensor **log_alpha);
    /* mt_ctc_loss_backward (ctc.h) on the device. */
    mt_tensor *(*ctc_loss_backward)(const mt_tensor *grad, const mt_tensor *log_probs,
                                    const mt_tensor *targets, const mt_tensor *input_lengths,
                                    const mt_tensor *target_lengths,
                                    const mt_tensor *neg_log_likelihood,
                                    const mt_tensor *log_alpha, int64_t blank,
                                    bool zero_infinity);
} mt_loss_kernels;
MT_DECLARE_STUB(loss, mt_loss_kernels);

/* the cpu sequence kernel (factory.c), in the cpu fill table of cpu/copy.c */
int mt__cpu_sequence(mt_tensor *t, const mt_sequence *seq);
/* the CUDA sequence kernel (aten_lite/cuda/sequence.c), in the CUDA fill table */
int mt__cuda_sequence(mt_tensor *t, const mt_sequence *seq);

/* the cpu cdist (distance.c), in the cpu table of linalg.c */
int mt__cpu_cdist(const mt_tensor *a, const mt_tensor *b, double p, mt_tensor *out);

/* Registration of the CPU tables (aten_lite/cpu/), from mt_aten_init(). */
void mt__cpu_elementwise_register(void);
void mt__cpu_copy_register(void);
void mt__cpu_reduce_register(void);
void mt__cpu_random_register(void);
void mt__cpu_scan_register(void);
void mt__cpu_norm_register(void);
void mt__cpu_index_register(void);
void mt__cpu_sort_register(void);
void mt__cpu_gemm_register(void);
void mt__cpu_conv_register(void);
void mt__cpu_optim_register(void);
void mt__cpu_loss_register(void);
/* Registration of the CUDA tables (aten_lite/cuda/register.c), from mt_aten_init() in builds
 * with CUDA (MT_WITH_CUDA: real or emulated). */
void mt_cuda_kernels_register(void);

#endif /* ATEN_LITE_KERNEL_STUBS_H */
