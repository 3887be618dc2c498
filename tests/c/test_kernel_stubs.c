/* tests/c/test_kernel_stubs.c - Note [Kernel stubs]: ops on a device without kernels raise the
 * one missing-kernel error, mixed devices the one device error, and a registered device table
 * is what the device-neutral op code calls.  "cuda:0" tensors here are host memory labelled
 * with that device (mt_storage_from_blob), which is all the op code looks at. */
#include <string.h>

#include "aten_lite/conv.h"
#include "aten_lite/ctc.h"
#include "aten_lite/distance.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/linalg.h"
#include "aten_lite/ops.h"
#include "aten_lite/optim.h"
#include "aten_lite/softmax.h"
#include "test_c10d_util.h"

static float fake_mem[6][16];

/* A float32 tensor of n elements, labelled with device d, over fake_mem[slot]. */
static mt_tensor *
labelled(int slot, int64_t n, mt_device d)
{
    mt_storage *s = mt_storage_from_blob(fake_mem[slot], sizeof(fake_mem[slot]), d, NULL, NULL);
    int64_t stride = 1;
    mt_tensor *t = s ? mt_tensor_new(s, MT_FLOAT32, n < 0 ? 0 : 1, &n, &stride, 0) : NULL;
    mt_storage_decref(s);
    return t;
}

static const mt_device CUDA0 = {.type = MT_CUDA, .index = 0};
static const mt_device CUDA1 = {.type = MT_CUDA, .index = 1};

static bool
starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool
missing(const char *op)
{
    char want[128];
    snprintf(want, sizeof(want), "Could not run 'aten::%s' with arguments from the 'CUDA' backend.",
             op);
    return mt_error_code() == MT_ENOTIMPL && starts_with(mt_error_message(), want);
}

static void
test_missing_kernels_raise_one_error(void)
{
    mt_tensor *a = labelled(0, 4, CUDA0), *b = labelled(1, 4, CUDA0);
    REQUIRE(a != NULL && b != NULL, "labelled tensors");
    mt_error_clear();
    mt_tensor *r = mt_binary(MT_OP_ADD, mt_arg_tensor(a), mt_arg_tensor(b), NULL, mt_scalar_int(1));
    CHECK(r == NULL && missing("add"), "add on cuda: %s", mt_error_message());
    r = mt_unary(MT_OP_EXP, a, NULL);
    CHECK(r == NULL && missing("exp"), "exp on cuda: %s", mt_error_message());
    bool mask[1] = {true};
    r = mt_reduce(MT_REDUCE_SUM, a, mask, false);
    CHECK(r == NULL && missing("sum"), "sum on cuda: %s", mt_error_message());
    CHECK(mt_fill_(a, mt_scalar_float(1.0)) == MT_ENOTIMPL && missing("fill_"), "fill_ on cuda: %s",
          mt_error_message());
    mt_tensor *c = labelled(2, 4, MT_DEVICE_CPU);
    CHECK(mt_copy_(a, c) == MT_ENOTIMPL && missing("copy_"), "copy_ cpu -> cuda: %s",
          mt_error_message());
    CHECK(mt_copy_(c, a) == MT_ENOTIMPL && missing("copy_"), "copy_ cuda -> cpu: %s",
          mt_error_message());
    mt_tensor_decref(c);
    mt_tensor_decref(a);
    mt_tensor_decref(b);
}

/* A tensor of the given shape and dtype over fake_mem[slot] (contiguous), labelled d. */
static mt_tensor *
labelled_nd(int slot, mt_dtype dt, int ndim, const int64_t *sizes, mt_device d)
{
    int64_t strides[MT_MAX_DIMS], s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= sizes[i];
    }
    mt_storage *st = mt_storage_from_blob(fake_mem[slot], sizeof(fake_mem[slot]), d, NULL, NULL);
    mt_tensor *t = st ? mt_tensor_new(st, dt, ndim, sizes, strides, 0) : NULL;
    mt_storage_decref(st);
    return t;
}

/* Every kernel family raises the missing-kernel error naming the op (or, for the fused fast
 * paths, reports MT_EINVAL so that the caller computes the op otherwise). */
static void
test_every_family_reaches_its_stub(void)
{
    int64_t s22[2] = {2, 2}, s4[1] = {4}, s1114[4] = {1, 1, 1, 4}, s113[3] = {1, 1, 3};
    mt_tensor *m = labelled_nd(0, MT_FLOAT32, 2, s22, CUDA0);
    mt_tensor *n = labelled_nd(1, MT_FLOAT32, 2, s22, CUDA0);
    mt_tensor *ix = labelled_nd(2, MT_INT64, 1, s4, CUDA0);
    mt_tensor *img = labelled_nd(3, MT_FLOAT32, 4, s1114, CUDA0);
    mt_tensor *cpu_m = labelled_nd(4, MT_FLOAT32, 2, s22, MT_DEVICE_CPU);
    REQUIRE(m && n && ix && img && cpu_m, "labelled tensors");
    memset(fake_mem[2], 0, sizeof(fake_mem[2]));
    mt_tensor *r = NULL, *r2 = NULL;

    mt_generator g;
    mt_generator_manual_seed(&g, 1);
    CHECK(mt_random_fill_(m, &g, MT_RAND_NORMAL, 0.0, 1.0) == MT_ENOTIMPL && missing("normal_"),
          "normal_: %s", mt_error_message());
    CHECK(mt_random_int_(m, &g, 0, 10) == MT_ENOTIMPL && missing("random_"), "random_: %s",
          mt_error_message());
    CHECK(mt_multinomial(m, 1, true, &g) == NULL && missing("multinomial"), "multinomial: %s",
          mt_error_message());
    CHECK(mt_poisson(m, &g) == NULL && missing("poisson"), "poisson: %s", mt_error_message());

    CHECK(mt_cumulative(m, 0, MT_SCAN_SUM, NULL) == NULL && missing("cumsum"), "cumsum: %s",
          mt_error_message());
    CHECK(mt_index_select(m, 0, ix, false) == NULL && missing("index_select"), "index_select: %s",
          mt_error_message());
    mt_tensor *ix2 = labelled_nd(2, MT_INT64, 2, s22, CUDA0);
    CHECK(mt_gather(m, 0, ix2) == NULL && missing("gather"), "gather: %s", mt_error_message());
    mt_tensor_decref(ix2);
    CHECK(mt_nonzero(m) == NULL && missing("nonzero"), "nonzero: %s", mt_error_message());
    mt_tensor *idx[1] = {ix};
    CHECK(mt_index_get(m, 1, idx) == NULL && missing("index"), "index: %s", mt_error_message());
    CHECK(mt_sort(m, 0, false, &r, &r2) == MT_ENOTIMPL && missing("sort"), "sort: %s",
          mt_error_message());
    CHECK(mt_topk(m, 1, 0, true, &r, &r2) == MT_ENOTIMPL && missing("topk"), "topk: %s",
          mt_error_message());
    CHECK(mt_mm(m, n) == NULL && missing("mm"), "mm: %s", mt_error_message());
    CHECK(mt_cdist(img, img, 2.0) == NULL && mt_error_code() == MT_ERUNTIME, "cdist shapes: %s",
          mt_error_message());
    mt_tensor *rows = labelled_nd(3, MT_FLOAT32, 3, s113, CUDA0);
    CHECK(mt_cdist(rows, rows, 2.0) == NULL && missing("_cdist_forward"), "cdist: %s",
          mt_error_message());
    mt_tensor_decref(rows);
    mt_scalar item;
    mt_tensor *one = labelled_nd(3, MT_FLOAT32, 0, s4, CUDA0);
    CHECK(mt_item(one, &item) == MT_ENOTIMPL && missing("copy_"), "item of a cuda tensor: %s",
          mt_error_message());
    mt_tensor_decref(one);
    CHECK(mt_mm(cpu_m, n) == NULL && strstr(mt_error_message(), "cuda:0 and cpu!") != NULL,
          "mm(cpu, cuda): %s", mt_error_message());
    CHECK(mt_arange(mt_scalar_int(0), mt_scalar_int(4), mt_scalar_int(1), MT_INT64, CUDA0) == NULL &&
              missing("arange"),
          "arange: %s", mt_error_message());
    mt_tensor *w = labelled_nd(4, MT_FLOAT32, 4, (int64_t[]){1, 1, 1, 1}, CUDA0);
    mt_conv_params cp = {.nsp = 2, .stride = {1, 1}, .dilation = {1, 1}, .groups = 1};
    CHECK(mt_convolution(img, w, NULL, &cp) == NULL && missing("convolution"), "conv2d: %s",
          mt_error_message());
    mt_tensor_decref(w);
    mt_conv_params cp_cpu = cp;
    CHECK(mt_convolution(img, cpu_m, NULL, &cp_cpu) == NULL && mt_error_code() == MT_ERUNTIME,
          "conv2d with a cpu weight: %s", mt_error_message());
    /* the fused fast paths: no kernel, the caller computes the op from other ops */
    mt_error_clear();
    CHECK(mt_softmax_lastdim(m, false) == NULL && mt_error_code() == MT_EINVAL,
          "softmax fast path: %s", mt_error_message());
    mt_adam_hyper h = {.beta1 = 0.9, .beta2 = 0.999, .lr = 1e-3, .eps = 1e-8, .step_size = 1e-3,
                       .bc2_sqrt = 1.0};
    CHECK(mt_adam_step_(m, n, m, n, NULL, &h) == MT_EINVAL, "adam fast path: %s",
          mt_error_message());
    mt_tensor *lp = labelled_nd(5, MT_FLOAT32, 3, s113, CUDA0);
    mt_tensor *tl = labelled_nd(2, MT_INT64, 1, (int64_t[]){1}, CUDA0);
    mt_tensor *tg = labelled_nd(2, MT_INT64, 2, (int64_t[]){1, 1}, CUDA0);
    mt_tensor *nll = NULL, *alpha = NULL;
    CHECK(mt_ctc_loss(lp, tg, tl, tl, 0, &nll, &alpha) == MT_ENOTIMPL && missing("_ctc_loss"),
          "ctc_loss: %s", mt_error_message());
    mt_tensor_decref(lp);
    mt_tensor_decref(tl);
    mt_tensor_decref(tg);
    mt_tensor_decref(m);
    mt_tensor_decref(n);
    mt_tensor_decref(ix);
    mt_tensor_decref(img);
    mt_tensor_decref(cpu_m);
}

static void
test_mixed_devices(void)
{
    mt_tensor *g = labelled(0, 4, CUDA0), *h = labelled(1, 4, CUDA1), *c = labelled(2, 4, MT_DEVICE_CPU);
    REQUIRE(g != NULL && h != NULL && c != NULL, "labelled tensors");
    mt_tensor *r = mt_binary(MT_OP_MUL, mt_arg_tensor(c), mt_arg_tensor(g), NULL, mt_scalar_int(1));
    CHECK(r == NULL && mt_error_code() == MT_ERUNTIME &&
              strcmp(mt_error_message(), "Expected all tensors to be on the same device, but found "
                                         "at least two devices, cuda:0 and cpu!") == 0,
          "cpu * cuda:0: %s", mt_error_message());
    r = mt_binary(MT_OP_MUL, mt_arg_tensor(g), mt_arg_tensor(h), NULL, mt_scalar_int(1));
    CHECK(r == NULL && strstr(mt_error_message(), "devices, cuda:0 and cuda:1!") != NULL,
          "cuda:0 * cuda:1: %s", mt_error_message());
    r = mt_unary(MT_OP_NEG, c, g);
    CHECK(r == NULL && strstr(mt_error_message(), "devices, cuda:0 and cpu!") != NULL,
          "neg(cpu, out=cuda:0): %s", mt_error_message());
    const mt_tensor *ts[3] = {c, NULL, c};
    mt_device_type dev = MT_CUDA;
    CHECK(mt_check_same_device(3, ts, &dev) == MT_OK && dev == MT_CPU, "all cpu");
    mt_tensor_decref(g);
    mt_tensor_decref(h);
    mt_tensor_decref(c);
}

/* A fake cuda elementwise table: add and mul of float32 on the (host) memory it is given. */
static int fake_runs;
static mt_op fake_last_op;

static int
fake_check(mt_op op, mt_dtype dt)
{
    if ((op == MT_OP_ADD || op == MT_OP_MUL) && dt == MT_FLOAT32) {
        return MT_OK;
    }
    return mt_error_set(MT_ENOTIMPL, "\"%s_cuda\" not implemented for '%s'", mt_op_name(op),
                        mt_dtype_scalar_name(dt));
}

static int
fake_run(const mt_iter *it, const mt_elementwise_call *call)
{
    fake_runs++;
    fake_last_op = call->op;
    const mt_binary_ctx *ctx = call->ctx;
    float *o = (float *)(void *)mt_tensor_data(it->tensors[0]);
    const mt_tensor *a = it->tensors[1], *b = it->tensors[2];
    for (int64_t i = 0; i < it->tensors[0]->numel; i++) {
        float x = ((const float *)(void *)mt_tensor_data(a))[a->ndim ? i : 0];
        float y = ((const float *)(void *)mt_tensor_data(b))[b->ndim ? i : 0];
        o[i] = call->op == MT_OP_ADD ? x + (float)ctx->alpha_f * y : x * y;
    }
    return MT_OK;
}

static const mt_elementwise_kernels fake_elementwise = {.check = fake_check, .run = fake_run};

static void
test_registered_device_kernels_are_called(void)
{
    MT_REGISTER_STUB(elementwise, MT_CUDA, &fake_elementwise);
    mt_tensor *a = labelled(0, 4, CUDA0), *b = labelled(1, 4, CUDA0), *o = labelled(3, 4, CUDA0);
    for (int i = 0; i < 4; i++) {
        fake_mem[0][i] = (float)i;
        fake_mem[1][i] = 10.0f;
    }
    mt_tensor *r = mt_binary(MT_OP_ADD, mt_arg_tensor(a), mt_arg_tensor(b), o, mt_scalar_int(2));
    CHECK(r == o && fake_runs == 1 && fake_last_op == MT_OP_ADD && fake_mem[3][3] == 23.0f,
          "add(out=) ran the cuda kernel (%d runs, %g)", fake_runs, (double)fake_mem[3][3]);
    mt_tensor_decref(r);
    /* a 0-d cpu tensor is a scalar operand of an op on another device */
    int64_t none = 0;
    mt_storage *ss = mt_storage_from_blob(fake_mem[2], 4, MT_DEVICE_CPU, NULL, NULL);
    mt_tensor *s = mt_tensor_new(ss, MT_FLOAT32, 0, &none, &none, 0);
    mt_storage_decref(ss);
    fake_mem[2][0] = 3.0f;
    r = mt_binary(MT_OP_MUL, mt_arg_tensor(a), mt_arg_tensor(s), o, mt_scalar_int(1));
    CHECK(r == o && fake_runs == 2 && fake_last_op == MT_OP_MUL && fake_mem[3][3] == 9.0f,
          "cuda * cpu 0-d ran the cuda kernel (%d runs, %g)", fake_runs, (double)fake_mem[3][3]);
    mt_tensor_decref(r);
    /* the device's own "not implemented for dtype" */
    r = mt_binary(MT_OP_SUB, mt_arg_tensor(a), mt_arg_tensor(b), o, mt_scalar_int(1));
    CHECK(r == NULL && strcmp(mt_error_message(), "\"sub_cuda\" not implemented for 'Float'") == 0,
          "sub: %s", mt_error_message());
    MT_REGISTER_STUB(elementwise, MT_CUDA, NULL);
    r = mt_binary(MT_OP_ADD, mt_arg_tensor(a), mt_arg_tensor(b), o, mt_scalar_int(1));
    CHECK(r == NULL && missing("add"), "unregistered again: %s", mt_error_message());
    mt_tensor_decref(s);
    mt_tensor_decref(a);
    mt_tensor_decref(b);
    mt_tensor_decref(o);
}

int
main(void)
{
    mt_test_init();
    mt_aten_init();
    test_missing_kernels_raise_one_error();
    test_mixed_devices();
    test_every_family_reaches_its_stub();
    test_registered_device_kernels_are_called();
    return mt_test_report();
}
