"""Forward-mode AD (autograd.forward_ad, Note [Forward AD] in autograd/_forward.py).

- CASES: the same calls run in PyTorch 2.15 (REF, at the end of this file, captured from it):
  Jacobian-vector products of ops of every kind (elementwise, reductions, products, views,
  indexing, nn.functional layers and losses, in-place ops, complex ops, custom Functions) and
  the API's results and errors (first line of the message);
- every differentiable row of the op table (tests/test_autograd_ops.py's SAMPLES) through
  gradcheck(check_forward_ad=True), the in-place forms too (FORWARD_KNOWN must fail);
- the semantics torch's tests rely on: tangents of views and in-place ops, levels, detach,
  no_grad, reverse over forward and forward over reverse, custom Function jvp checks."""
import gc
import weakref

import pytest

import minitorch as torch
import minitorch.autograd.forward_ad as fwAD
from minitorch.autograd import gradcheck, gradgradcheck

import test_autograd_ops as ops


# ---- the same calls in minitorch and in torch ----------------------------------------------

def _cases(t):
    """name -> a call returning what is compared (the same calls run in torch for REF)."""
    F = t.nn.functional
    fw = t.autograd.forward_ad
    d = t.float64

    def X(*shape, k=0):
        n = 1
        for s in shape:
            n *= s
        v = t.arange(n, dtype=d)
        return ((v * 0.37 + 0.11 * k).sin() * 1.3 + 0.05 * k).reshape(shape)

    def T(*shape, k=0):
        return X(*shape, k=k + 7)

    def P(*shape, k=0):
        return X(*shape, k=k).abs() + 0.5

    def jvp(f, *primals, tangents=None):
        """f's outputs' tangents given duals of primals (tangents T(...) by default)."""
        with fw.dual_level():
            duals = []
            for i, p in enumerate(primals):
                if isinstance(p, t.Tensor) and (p.is_floating_point() or p.is_complex()):
                    tg = tangents[i] if tangents is not None else T(*p.shape, k=i)
                    duals.append(p if tg is None else fw.make_dual(p, tg.to(p.dtype)))
                else:
                    duals.append(p)
            out = f(*duals)
            outs = out if isinstance(out, (tuple, list)) else (out,)
            res = []
            for o in outs:
                if not isinstance(o, t.Tensor):
                    continue
                p, tg = fw.unpack_dual(o)
                res.append(None if tg is None else tg.detach().clone())
            return tuple(res)

    cases = {}

    def case(name, f, *primals, tangents=None):
        cases[name] = lambda: jvp(f, *primals, tangents=tangents)

    # elementwise
    case("sin", t.sin, X(2, 3))
    case("exp", t.exp, X(2, 3))
    case("log", t.log, P(2, 3))
    case("tanh", t.tanh, X(2, 3))
    case("sigmoid", t.sigmoid, X(2, 3))
    case("relu", F.relu, X(2, 3))
    case("gelu", F.gelu, X(2, 3))
    case("gelu_tanh", lambda x: F.gelu(x, approximate="tanh"), X(2, 3))
    case("pow_scalar", lambda x: x ** 3, X(2, 3))
    case("pow_tensor", lambda x, y: x ** y, P(2, 3), X(2, 3, k=1))
    case("mul_broadcast", lambda x, y: x * y, X(2, 3), X(3, k=1))
    case("div", lambda x, y: x / y, X(2, 3), P(2, 1, k=1))
    case("add_alpha", lambda x, y: t.add(x, y, alpha=-2.5), X(2, 3), X(2, 3, k=1))
    case("sub_one_dual", lambda x, y: x - y, X(2, 3), X(3, k=1), tangents=[T(2, 3), None])
    case("atan2", t.atan2, X(2, 3), X(2, 3, k=2))
    case("clamp", lambda x: x.clamp(-0.5, 0.7), X(2, 3))
    case("where", lambda x, y: t.where(x > 0, x, y), X(2, 3), X(2, 3, k=3))
    case("abs", t.abs, X(2, 3))
    case("maximum", t.maximum, X(2, 3), X(2, 3, k=4))
    case("lerp", t.lerp, X(2, 3), X(2, 3, k=1), P(2, 3, k=2) * 0.5)
    case("softplus", lambda x: F.softplus(x, beta=2.0), X(2, 3))
    case("elu", F.elu, X(2, 3))
    case("leaky_relu", lambda x: F.leaky_relu(x, 0.2), X(2, 3))
    case("silu", F.silu, X(2, 3))
    case("hardtanh", F.hardtanh, X(2, 3) * 2)
    case("logsigmoid", F.logsigmoid, X(2, 3))
    case("erf", t.erf, X(2, 3))
    case("rsqrt", t.rsqrt, P(2, 3))
    case("float_to_double", lambda x: x.double() * 2, X(2, 3).float())
    # reductions
    case("sum_dim", lambda x: x.sum(1), X(2, 3))
    case("mean", lambda x: x.mean(), X(2, 3))
    case("prod", lambda x: x.prod(1), X(2, 3))
    case("amax", lambda x: x.amax(0), X(2, 3))
    case("max_dim", lambda x: x.max(1), X(2, 3))
    case("var", lambda x: x.var(1), X(2, 3))
    case("std", lambda x: x.std(), X(2, 3))
    case("norm", lambda x: x.norm(), X(2, 3))
    case("logsumexp", lambda x: x.logsumexp(1), X(2, 3))
    case("cumsum", lambda x: x.cumsum(1), X(2, 3))
    case("cumprod", lambda x: x.cumprod(1), X(2, 3))
    case("softmax", lambda x: F.softmax(x, 1), X(2, 3))
    case("log_softmax", lambda x: F.log_softmax(x, 0), X(2, 3))
    case("sort", lambda x: x.sort(1), X(2, 3))
    case("topk", lambda x: x.topk(2), X(2, 3))
    # products
    case("matmul", t.matmul, X(2, 3), X(3, 4, k=1))
    case("matmul_batched", t.matmul, X(2, 2, 3), X(3, 2, k=1))
    case("mv", t.mv, X(2, 3), X(3, k=1))
    case("dot", t.dot, X(3), X(3, k=1))
    case("linear", F.linear, X(2, 3), X(4, 3, k=1), X(4, k=2))
    case("addmm", lambda a, b, c: t.addmm(a, b, c, beta=0.5, alpha=2), X(2, 4), X(2, 3, k=1),
         X(3, 4, k=2))
    case("einsum", lambda a, b: t.einsum("ij,jk->ik", a, b), X(2, 3), X(3, 2, k=1))
    case("inv", t.linalg.inv, X(3, 3) + 3 * t.eye(3, dtype=d))
    case("det", t.linalg.det, X(3, 3) + 3 * t.eye(3, dtype=d))
    case("solve", t.linalg.solve, X(3, 3) + 3 * t.eye(3, dtype=d), X(3, 2, k=1))
    case("eigvalsh", lambda a: t.linalg.eigvalsh(a + a.mT), X(3, 3))
    case("svdvals", t.linalg.svdvals, X(3, 2))
    # views and indexing
    case("transpose", lambda x: x.transpose(0, 1), X(2, 3))
    case("view", lambda x: x.view(3, 2), X(2, 3))
    case("narrow", lambda x: x.narrow(1, 1, 2), X(2, 3))
    case("select", lambda x: x.select(0, 1), X(2, 3))
    case("getitem_slices", lambda x: x[:, ::2], X(2, 3))
    case("getitem_index", lambda x: x[t.tensor([1, 0, 1])], X(2, 3))
    case("getitem_mask", lambda x: x[x > 0], X(2, 3))
    case("expand", lambda x: x.expand(4, 3), X(1, 3))
    case("permute", lambda x: x.permute(2, 0, 1), X(2, 3, 2))
    case("split", lambda x: x.split(2, 1), X(2, 3))
    case("unbind", lambda x: x.unbind(1), X(2, 3))
    case("diagonal", lambda x: x.diagonal(), X(3, 3))
    case("flatten", lambda x: x.flatten(), X(2, 3).t())
    case("unfold", lambda x: x.unfold(0, 2, 1), X(4))
    case("as_strided", lambda x: x.as_strided((2, 2), (1, 2), 1), X(6))
    case("real_imag", lambda z: (z.real, z.imag), X(3).to(t.complex128) * (1 + 2j))
    # joins, gathers, scatters
    case("cat", lambda x, y: t.cat([x, y], 0), X(2, 3), X(1, 3, k=1))
    case("stack_one_dual", lambda x, y: t.stack([x, y]), X(2, 3), X(2, 3, k=1),
         tangents=[None, T(2, 3)])
    case("gather", lambda x: x.gather(1, t.tensor([[0, 2], [1, 1]])), X(2, 3))
    case("index_select", lambda x: x.index_select(1, t.tensor([2, 0])), X(2, 3))
    case("scatter", lambda x, s: x.scatter(1, t.tensor([[2], [0]]), s), X(2, 3), X(2, 1, k=1))
    case("masked_fill", lambda x: x.masked_fill(x > 0.5, 2.0), X(2, 3))
    case("flip", lambda x: x.flip(1), X(2, 3))
    case("roll", lambda x: x.roll(1, 1), X(2, 3))
    case("repeat", lambda x: x.repeat(2, 1), X(2, 3))
    case("tril", lambda x: x.tril(), X(3, 3))
    case("pad", lambda x: F.pad(x, (1, 2)), X(2, 3))
    # nn.functional layers and losses
    case("layer_norm", lambda x, w, b: F.layer_norm(x, (3,), w, b), X(2, 3), P(3, k=1),
         X(3, k=2))
    case("batch_norm", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
         X(4, 3), P(3, k=1), X(3, k=2))
    case("conv1d", F.conv1d, X(1, 2, 5), X(3, 2, 2, k=1), X(3, k=2))
    case("conv2d", lambda x, w: F.conv2d(x, w, padding=1), X(1, 2, 4, 4), X(2, 2, 3, 3, k=1))
    case("max_pool2d", lambda x: F.max_pool2d(x, 2), X(1, 1, 4, 4))
    case("avg_pool2d", lambda x: F.avg_pool2d(x, 2), X(1, 1, 4, 4))
    case("interpolate", lambda x: F.interpolate(x, scale_factor=2, mode="bilinear",
                                                align_corners=False), X(1, 1, 2, 3))
    case("embedding", lambda w: F.embedding(t.tensor([[0, 2], [1, 0]]), w), X(3, 2))
    case("cross_entropy", lambda x: F.cross_entropy(x, t.tensor([2, 0])), X(2, 3))
    case("nll_loss", lambda x: F.nll_loss(x, t.tensor([1, 2]), reduction="sum"), X(2, 3))
    case("mse_loss", F.mse_loss, X(2, 3), X(2, 3, k=1))
    case("bce_with_logits", F.binary_cross_entropy_with_logits, X(2, 3), P(2, 3, k=1) / 3)
    case("smooth_l1", F.smooth_l1_loss, X(2, 3), X(2, 3, k=1))
    case("huber", lambda x, y: F.huber_loss(x, y, delta=0.5), X(2, 3), X(2, 3, k=1))
    case("normalize", lambda x: F.normalize(x, dim=1), X(2, 3))
    case("cosine_similarity", F.cosine_similarity, X(2, 3), X(2, 3, k=1))
    case("sdpa", F.scaled_dot_product_attention, X(1, 2, 3), X(1, 4, 3, k=1), X(1, 4, 2, k=2))
    case("dropout_p0", lambda x: F.dropout(x, 0.0), X(2, 3))
    # in-place ops
    case("mul_", lambda x, y: x.clone().mul_(y), X(2, 3), X(2, 3, k=1))
    case("add_on_plain", lambda x: X(2, 3, k=5).add_(x), X(2, 3))
    case("copy_broadcast", lambda x: t.zeros(2, 2, 3, dtype=d).copy_(x), X(2, 3))
    case("setitem", lambda x, v: _setitem(x.clone(), (0, slice(1, None)), v), X(2, 3), X(2, k=1))
    case("setitem_on_plain", lambda v: _setitem(X(2, 3, k=4), (1,), v), X(3))
    case("index_put_", lambda x, v: x.clone().index_put_((t.tensor([0, 1]), t.tensor([2, 0])), v),
         X(2, 3), X(2, k=1))
    case("masked_fill_", lambda x: x.clone().masked_fill_(x < 0, 0.5), X(2, 3))
    case("clamp_", lambda x: x.clone().clamp_(min=0.0), X(2, 3))
    case("exp_", lambda x: x.clone().exp_(), X(2, 3))
    case("addcmul_", lambda x, y: x.clone().addcmul_(y, y, value=0.5), X(2, 3), X(2, 3, k=1))
    case("inplace_view", lambda x: _view_inplace(t, x), X(2, 3))
    # complex
    case("complex_exp", t.exp, X(3).to(t.complex128) * (0.5 + 1j))
    case("complex_abs", t.abs, X(3).to(t.complex128) * (0.5 + 1j) + 0.1j)
    case("complex_mul", lambda a, b: a * b.conj(), X(3).to(t.complex128) * (0.5 + 1j),
         X(3, k=1).to(t.complex128) * (1 - 1j))
    case("view_as_real", lambda z: t.view_as_real(z * 2), X(3).to(t.complex128) * (1 + 1j))
    case("angle", t.angle, X(3).to(t.complex128) * (0.5 + 1j) + 0.2)

    # custom Functions
    class Cube(t.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_forward(x)
            ctx.k = k
            return x ** 3 * k

        @staticmethod
        def backward(ctx, g):
            raise AssertionError("not called")

        @staticmethod
        def jvp(ctx, x_t, k_t):
            x, = ctx.saved_tensors
            return 3 * x * x * x_t * ctx.k

    class TwoOut(t.autograd.Function):
        @staticmethod
        def forward(x, y):
            return x * y, x + 1

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_forward(*inputs)

        @staticmethod
        def jvp(ctx, x_t, y_t):
            x, y = ctx.saved_tensors
            return x_t * y + x * y_t, x_t

    case("function_jvp", lambda x: Cube.apply(x, 2.0), X(2, 3))
    case("function_setup_context", TwoOut.apply, X(3), X(3, k=1), tangents=[T(3), None])

    # the API
    def err(f):
        def run():
            try:
                r = f()
            except Exception as e:  # noqa: BLE001 - every exception is part of the spec
                return ("err", type(e).__name__, str(e).split("\n")[0].replace("minitorch.",
                                                                              "torch."))
            return ("ok", r)
        return run

    def nested():
        with fw.dual_level():
            return fw.enter_dual_level()

    def levels():
        seen = [fw._current_level]
        with fw.dual_level() as lvl:
            seen += [lvl, fw._current_level]
        return seen + [fw._current_level]

    def in_level(f):
        def run():
            with fw.dual_level():
                return f()
        return run

    dual = lambda: fw.make_dual(X(2), T(2))   # noqa: E731
    cases.update({
        "err_no_level": err(lambda: fw.make_dual(X(2), T(2))),
        "err_int_primal": err(in_level(lambda: fw.make_dual(t.ones(2, dtype=t.long), T(2)))),
        "err_int_tangent": err(in_level(lambda: fw.make_dual(X(2), t.ones(2, dtype=t.long)))),
        "err_size": err(in_level(lambda: fw.make_dual(X(2), T(3)))),
        "err_size_2d": err(in_level(lambda: fw.make_dual(X(2), T(1, 2)))),
        "err_nested": err(nested),
        "err_exit_none": err(lambda: fw.exit_dual_level()),
        "err_exit_other": err(in_level(lambda: fw.exit_dual_level(level=3))),
        "err_make_dual_level": err(in_level(lambda: fw.make_dual(X(2), T(2), level=1))),
        "err_unpack_level": err(in_level(lambda: fw.unpack_dual(X(2), level=1))),
        "err_dual_of_dual": err(in_level(lambda: fw.make_dual(dual(), T(2)))),
        "err_dual_tangent": err(in_level(lambda: fw.make_dual(X(2), dual()))),
        "err_out": err(in_level(lambda: t.add(dual(), X(2), out=t.empty(2, dtype=d)))),
        "err_out_dual": err(in_level(lambda: t.mul(X(2), X(2), out=dual()))),
        "err_out_nondiff": err(in_level(lambda: t.eq(dual(), X(2),
                                                     out=t.empty(2, dtype=t.bool)))),
        "err_function_without_jvp": err(in_level(lambda: _NoJvp(t).apply(dual()))),
        "err_function_jvp_count": err(in_level(lambda: _JvpCount(t).apply(dual()))),
        "err_function_jvp_size": err(in_level(lambda: _JvpSize(t).apply(dual()))),
        "err_function_nondiff_output": err(in_level(lambda: _JvpNondiff(t).apply(dual()))),
        "err_function_dirty": err(in_level(lambda: _Dirty(t, False).apply(dual().clone()))),
        "err_function_view": err(in_level(lambda: _ViewFn(t).apply(dual()))),
        "err_resize": err(in_level(lambda: dual().resize_(3))),
        "levels": lambda: levels(),
        "unpack_outside": lambda: fw.unpack_dual(X(2)).tangent,
        "unpack_plain": lambda: in_level(lambda: fw.unpack_dual(X(2)).tangent)(),
        "nondiff_outputs": in_level(lambda: [fw.unpack_dual(o).tangent for o in
                                             (dual() > 0, dual().argmax(), t.zeros_like(dual()),
                                              dual().ceil(), dual().long())]),
        "fwd_grad_disabled": in_level(lambda: _disabled(t, dual)),
        "repr": in_level(lambda: repr(fw.make_dual(t.tensor([1.0, 2.0]),
                                                   t.tensor([0.5, 0.25])))),
    })
    return cases


def _setitem(x, key, value):
    x[key] = value
    return x


def _view_inplace(t, x):
    """A view's in-place op updates its base's tangent; the base gets one when it had none."""
    base = t.zeros(3, 2, dtype=t.float64)
    view = base.t()
    view.mul_(x)
    view.add_(x)
    view[0, 1] = x[1, 2] * 3
    return base, view


def _disabled(t, dual):
    fw = t.autograd.forward_ad
    d = dual()
    with fw._set_fwd_grad_enabled(False):
        inside = [fw._is_fwd_grad_enabled(), fw.unpack_dual(d).tangent, fw.unpack_dual(d * 2).tangent]
    return inside + [fw._is_fwd_grad_enabled(), fw.unpack_dual(d * 2).tangent]


def _NoJvp(t):
    class NoJvp(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g
    return NoJvp


def _JvpCount(t):
    class JvpCount(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def jvp(ctx, g):
            return g, g
    return JvpCount


def _JvpSize(t):
    class JvpSize(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def jvp(ctx, g):
            return g[:1]
    return JvpSize


def _JvpNondiff(t):
    class JvpNondiff(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = x.clone()
            ctx.mark_non_differentiable(out)
            return x * 2, out

        @staticmethod
        def jvp(ctx, g):
            return g * 2, g
    return JvpNondiff


def _Dirty(t, inplace_jvp):
    class Dirty(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def jvp(ctx, g):
            return g.mul_(2) if inplace_jvp else g * 2
    return Dirty


def _ViewFn(t):
    class ViewFn(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[:1]

        @staticmethod
        def jvp(ctx, g):
            return g[:1].clone()
    return ViewFn


def _plain(r):
    """A result as comparable data: tensors as (shape, dtype name, values)."""
    if isinstance(r, torch.Tensor):
        v = r.detach()
        if v.dtype.is_complex:
            v = torch.view_as_real(v)
        return ("T", list(r.shape), str(r.dtype).split(".")[-1], v.reshape(-1).tolist())
    if isinstance(r, (tuple, list)):
        return [_plain(x) for x in r]
    return r


def _close(a, b):
    if isinstance(a, list) and a[:1] == ["T"] or isinstance(a, tuple) and a[:1] == ("T",):
        a = list(a)
    if isinstance(b, tuple):
        b = list(b)
    if isinstance(a, list) and isinstance(b, list):
        if a[:1] == ["T"] and b[:1] == ["T"]:
            return a[1] == b[1] and a[2] == b[2] and len(a[3]) == len(b[3]) and \
                all(abs(x - y) <= 1e-9 + 1e-7 * abs(y) for x, y in zip(a[3], b[3]))
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


CASES = _cases(torch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    got = _plain(CASES[name]())
    assert _close(got, REF[name]), f"{name}:\n{got}\n!=\n{REF[name]}"


def test_every_case_has_a_reference():
    assert sorted(CASES) == sorted(REF)


# ---- every row of the op table ----------------------------------------------------------------

# rows without a Jacobian-vector product, with the reason; test_every_row_forward expects them
# to fail, so an entry that starts passing must be removed
FORWARD_KNOWN = {
    "_ctc_loss": "no second derivative, so no JVP by the double-vjp trick (torch has none)",
    "ctc_loss": "no second derivative, so no JVP by the double-vjp trick (torch has none)",
}


def _substituted(sample, fn):
    """The sample as a function of its inputs (forward-mode gradcheck passes duals: the
    function must use its arguments, not the sample's tensors)."""
    leaves = sample.inputs()

    def f(*xs):
        m = {id(leaf): x for leaf, x in zip(leaves, xs)}

        def sub(a):
            if isinstance(a, torch.Tensor):
                return m.get(id(a), a)
            if isinstance(a, (list, tuple)):
                return type(a)(sub(x) for x in a)
            return a
        args = tuple(sub(a) for a in sample.args)
        kwargs = {k: sub(v) for k, v in sample.kwargs.items()}
        call = sample.call if sample.call is not None else fn
        return ops._float_outputs(call(*args, **kwargs))
    return f, leaves


@pytest.mark.parametrize("name", sorted(ops.SAMPLES))
def test_every_row_forward(name):
    """The Jacobian computed by forward-mode AD equals the numerical one for every sample of
    every differentiable row."""
    torch.manual_seed(0)
    known = FORWARD_KNOWN.get(name)
    failures = []
    for i, sample in enumerate(ops.SAMPLES[name]()):
        for label, fn in ops._forms(name, sample):
            f, leaves = _substituted(sample, fn)
            try:
                assert gradcheck(f, leaves, check_forward_ad=True, check_backward_ad=False,
                                 check_undefined_grad=False, **sample.gc)
            except Exception as e:  # noqa: BLE001
                failures.append(f"{name}, sample {i} ({label}): {type(e).__name__}: {e}")
    if known is None:
        assert not failures, "\n".join(failures)
    else:
        assert failures, f"{name} passes now: remove it from FORWARD_KNOWN ({known})"


@pytest.mark.parametrize("name", sorted(n for n in ops.SAMPLES if "i" in ops.ROWS[n]["forms"]))
def test_inplace_forms_forward(name):
    """y = x * 1; y.<name>_(...): the tangent of the out-of-place op, written into y's."""
    torch.manual_seed(0)
    samples = ops._inplace_samples(name)
    if name in ("as_strided", "squeeze", "unsqueeze", "t", "transpose", "swapaxes"):
        samples = [s for s in ops.SAMPLES[name]() if s.call is None]
    for i, sample in enumerate(samples):
        leaves = sample.inputs()

        def run(*xs, sample=sample, leaves=leaves):
            m = {id(leaf): x for leaf, x in zip(leaves, xs)}
            args = [m.get(id(a), a) if isinstance(a, torch.Tensor) else a for a in sample.args]
            kwargs = {k: m.get(id(v), v) if isinstance(v, torch.Tensor) else v
                      for k, v in sample.kwargs.items()}
            y = args[0] * 1
            r = getattr(y, name + "_")(*args[1:], **kwargs)
            assert r is y
            return ops._float_outputs(y)
        assert gradcheck(run, leaves, check_forward_ad=True, check_backward_ad=False,
                         check_undefined_grad=False, **sample.gc), f"{name}_, sample {i}"


# a sample of rows of every kind (all of them take a minute: every row but the CTC losses and
# _standard_gamma, whose second derivatives torch has not either, passes)
FORWARD_OVER_REVERSE = [
    "sin", "mul", "div", "pow", "atan2", "where", "clamp", "matmul", "softmax", "log_softmax",
    "layer_norm", "batch_norm", "cumprod", "cumsum", "prod", "var", "std", "amax", "sort",
    "logsumexp", "logcumsumexp", "norm", "linalg_vector_norm", "linalg_inv", "linalg_eigh",
    "convolution", "conv2d", "_max_pool2d_with_indices", "cdist", "permute", "flip", "unfold",
    "as_strided", "cat", "gather", "scatter_add", "index_add", "index_put", "masked_fill",
    "embedding", "nll", "bce_logits", "huber", "gelu", "celu_",
    "_scaled_dot_product_flash_attention_for_cpu"]


@pytest.mark.parametrize("name", FORWARD_OVER_REVERSE)
def test_forward_over_reverse(name):
    """gradgradcheck(check_fwd_over_rev=True): the backward pass run on dual tensors (its
    formulas are watched ops) gives the right tangents."""
    torch.manual_seed(0)
    for i, sample in enumerate(ops.SAMPLES[name]()):
        if not sample.gg:
            continue
        label, fn = ops._forms(name, sample)[0]
        f, leaves = _substituted(sample, fn)
        assert gradgradcheck(f, leaves, check_fwd_over_rev=True, check_rev_over_rev=False,
                             check_undefined_grad=False, **sample.gc), f"{name}, sample {i}"


@pytest.mark.parametrize("name", sorted(n for n in ops.SAMPLES if n not in FORWARD_KNOWN))
def test_fast_paths_agree_with_double_vjp(name):
    """The written-out JVPs and the elementwise shortcut give the double-vjp trick's tangents."""
    from minitorch.autograd import _forward
    torch.manual_seed(0)
    samples = ops.SAMPLES[name]()
    if not samples:
        pytest.skip(f"{name}: no sample on this build (it needs a CUDA device)")
    sample = samples[0]
    label, fn = ops._forms(name, sample)[0]
    f, leaves = _substituted(sample, fn)
    tangents = [torch.randn(x.shape, dtype=x.dtype) for x in leaves]

    def run():
        with fwAD.dual_level():
            outs = f(*[fwAD.make_dual(x.detach(), t) for x, t in zip(leaves, tangents)])
            return [fwAD.unpack_dual(o).tangent for o in outs]
    fast = run()
    _forward._fast = False
    try:
        slow = run()
    finally:
        _forward._fast = True
    for a, b in zip(fast, slow):
        assert (a is None) == (b is None), name
        if a is not None:
            assert torch.allclose(a, b, rtol=1e-9, atol=1e-12), f"{name}: {a} != {b}"


# ---- semantics --------------------------------------------------------------------------------

def _x(*values):
    return torch.tensor(values, dtype=torch.float64)


def test_make_dual_reuses_or_copies_the_tangent():
    with fwAD.dual_level():
        p, tg = torch.rand(2, 3), torch.rand(2, 3)
        d = fwAD.make_dual(p, tg)
        assert fwAD.unpack_dual(d).tangent is tg          # same layout: as is
        assert d._version == p._version and d.untyped_storage().data_ptr() == \
            p.untyped_storage().data_ptr()
        p.add_(1)
        assert d._version == p._version
        t2 = torch.rand(3, 2).t()
        d2 = fwAD.make_dual(p, t2)                         # other strides: copied
        u = fwAD.unpack_dual(d2).tangent
        assert u is not t2 and u.stride() == p.stride() and torch.equal(u, t2)
        base = torch.rand(5)
        d3 = fwAD.make_dual(base[:4], torch.rand(4))      # primal of a larger storage: copied
        u3 = fwAD.unpack_dual(d3).tangent
        assert u3.untyped_storage().nbytes() == base.untyped_storage().nbytes()
        d3.as_strided((5,), (1,), 0)                       # the tangent covers the storage
        assert fwAD.unpack_dual(d3).primal._is_view()
        assert fwAD.unpack_dual(fwAD.unpack_dual(d3).primal).tangent is None


def test_level_exit_clears_tangents_and_frees_them():
    foo = torch.rand(2)
    with fwAD.dual_level():
        tg = torch.rand(2)
        ref = weakref.ref(tg)
        d = fwAD.make_dual(foo, tg)
        y = d * 2
        del tg
        assert ref() is not None
        assert fwAD.unpack_dual(y).tangent is not None
    assert fwAD.unpack_dual(d).tangent is None and fwAD.unpack_dual(y).tangent is None
    assert not hasattr(d, "_fw_tangent")
    with fwAD.dual_level():
        assert fwAD.unpack_dual(d).tangent is None
        tg = torch.rand(2)
        ref = weakref.ref(tg)
        d = fwAD.make_dual(foo, tg)
        del tg, d
        gc.collect()
        assert ref() is None
    assert fwAD._current_level == -1


def test_detach_no_grad_and_requires_grad():
    foo, bar = _x(1.0, 2.0).requires_grad_(), _x(3.0, 4.0).requires_grad_()
    with fwAD.dual_level():
        d = fwAD.make_dual(foo, bar)
        p, t = fwAD.unpack_dual(d)
        assert torch.autograd.grad(p.sum(), foo)[0].tolist() == [1.0, 1.0]
        assert fwAD.unpack_dual(d.detach() * 2).tangent is None
        with torch.no_grad():
            out = d * 3
        p, t = fwAD.unpack_dual(out)
        assert not p.requires_grad and not t.requires_grad and t.tolist() == [9.0, 12.0]
        out = d * 3                         # reverse over forward: the tangent has a history
        t = fwAD.unpack_dual(out).tangent
        assert t.requires_grad
        assert torch.autograd.grad(t.sum(), bar)[0].tolist() == [3.0, 3.0]
        c = d.clone()
        c.detach_()
        assert fwAD.unpack_dual(c * 2).tangent is None
        plain = fwAD.make_dual(torch.rand(2), torch.rand(2))
        assert not plain.requires_grad


def test_inplace_on_dual_updates_its_tangent_in_place():
    foo, bar = _x(1.0, 2.0), _x(1.0, 1.0)
    with fwAD.dual_level():
        d = fwAD.make_dual(foo, bar)
        d *= 2
        assert bar.tolist() == [2.0, 2.0]                  # the tangent given, written in place
        assert fwAD.unpack_dual(foo).tangent is None       # make_dual's base gets none
        p, t = fwAD.unpack_dual(d)
        p *= 2                                             # the primal alone
        assert fwAD.unpack_dual(d).tangent.tolist() == [2.0, 2.0]
        t *= 2                                             # the tangent alone
        assert fwAD.unpack_dual(d).primal.tolist() == [4.0, 8.0]
        assert fwAD.unpack_dual(d).tangent.tolist() == [4.0, 4.0]


def test_views_share_the_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(_x(1.0, 2.0, 3.0), _x(1.0, 1.0, 1.0))
        v = d.narrow(0, 0, 2)
        v *= 2
        assert fwAD.unpack_dual(d).tangent.tolist() == [2.0, 2.0, 1.0]
        w = d[1:]
        assert fwAD.unpack_dual(w).tangent.tolist() == [2.0, 1.0]
        baz = _x(5.0, 6.0, 7.0)
        baz[0] = d[2]
        assert fwAD.unpack_dual(baz).tangent.tolist() == [1.0, 0.0, 0.0]
        baz = _x(5.0, 6.0, 7.0)
        det = baz.detach()
        det += d
        assert fwAD.unpack_dual(baz).tangent is None and fwAD.unpack_dual(det).tangent is not None
        for op in (lambda a, b: a.add_(b), lambda a, b: a.mul_(b), lambda a, b: a.copy_(b)):
            base = torch.randn(2, 2)
            view = base.transpose(0, 1)            # made before the tangent exists
            dual = fwAD.make_dual(torch.randn(2, 2), torch.randn(2, 2))
            op(view, dual)
            p0, t0 = (x.clone() for x in fwAD.unpack_dual(base))
            view *= 2
            p1, t1 = fwAD.unpack_dual(base)
            assert torch.allclose(p0 * 2, p1) and torch.allclose(t0 * 2, t1)


def test_copy_and_non_differentiable_inplace():
    with fwAD.dual_level():
        d = fwAD.make_dual(_x(3.0, 4.0).reshape(2, 1), _x(5.0, 6.0).reshape(2, 1))
        plain = _x(1.0, 2.0).reshape(2, 1)
        plain.copy_(d)
        t = fwAD.unpack_dual(plain).tangent
        assert t is not fwAD.unpack_dual(d).tangent and t.reshape(-1).tolist() == [5.0, 6.0]
        e = fwAD.make_dual(_x(1.0, 2.0), _x(1.0, 1.0))
        e.eq_(_x(1.0, 0.0))
        assert fwAD.unpack_dual(e).tangent.tolist() == [0.0, 0.0]


def test_custom_function_rules():
    class Dirty(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            assert fwAD.unpack_dual(x).tangent is None      # forward runs without tangents
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def jvp(ctx, g):
            return g.mul_(2)

    with fwAD.dual_level():
        tg = torch.ones(2)
        x = fwAD.make_dual(torch.ones(2), tg)
        y = Dirty.apply(x)
        assert y is x and fwAD.unpack_dual(y).tangent is tg and tg.tolist() == [2.0, 2.0]

    class AsIs(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def jvp(ctx, g):
            return g.view_as(g)

    with fwAD.dual_level():
        tg = torch.ones(2)
        out = AsIs.apply(fwAD.make_dual(torch.ones(2), tg))
        assert fwAD.unpack_dual(out).tangent._base is tg


def test_gradcheck_catches_a_wrong_jvp():
    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, g):
            return g * 3

    x = torch.rand(3, dtype=torch.float64, requires_grad=True)
    for fast in (False, True):
        with pytest.raises(torch.autograd.GradcheckError,
                           match="Jacobian computed with forward mode mismatch for output 0"):
            gradcheck(Wrong.apply, (x,), check_forward_ad=True, fast_mode=fast)
        assert gradcheck(Wrong.apply, (x,), fast_mode=fast)   # backward alone is right

    class Random(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def jvp(ctx, g):
            return g * 2 + torch.rand(g.shape, dtype=g.dtype) * (g != 0)

    with pytest.raises(torch.autograd.GradcheckError, match="batched forward gradients"):
        gradcheck(Random.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                  check_undefined_grad=False, check_batched_forward_grad=True, atol=2,
                  rtol=2)
    z = torch.rand(3, dtype=torch.complex128, requires_grad=True)
    assert gradcheck(lambda a, b: (a * b.sin(), b.exp()), (z, x), check_forward_ad=True)


def test_private_entry_points():
    with fwAD.dual_level() as level:
        d = torch._make_dual(_x(1.0, 2.0), _x(3.0, 4.0), level)
        p, t = torch._unpack_dual(d, level)
        assert t.tolist() == [3.0, 4.0] and fwAD.unpack_dual(p).tangent is None
        q = d._fw_primal(level)
        assert q._is_view() and fwAD.unpack_dual(q).tangent is None and q.tolist() == [1.0, 2.0]
        assert torch._C._is_fwd_grad_enabled()
        torch._C._set_fwd_grad_enabled(False)
        try:
            assert fwAD.unpack_dual(d * 2).tangent is None
        finally:
            torch._C._set_fwd_grad_enabled(True)


def test_watcher_only_while_a_level_is_open():
    from minitorch.autograd import _watch
    assert not _watch.active()
    with fwAD.dual_level():
        assert _watch.active()
    assert not _watch.active()
    with pytest.raises(RuntimeError):
        with fwAD.dual_level():
            raise RuntimeError("inside")
    assert not _watch.active() and fwAD._current_level == -1


# ---- REF: captured from PyTorch 2.15 ----------------------------------------------------------

REF = {'abs': [('T', [2, 3], 'float64',
          [0.0, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741, 1.3614951559542976,
           0.9977401351353903])],
 'add_alpha': [('T', [2, 3], 'float64',
                [-2.2499255462060868, -2.552976467955007, -2.5984684520323906, -2.380244371805909,
                 -1.9278398327987758, -1.3024856670399734])],
 'add_on_plain': [('T', [2, 3], 'float64',
                   [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
                    1.3614951559542976, 0.9977401351353903])],
 'addcmul_': [('T', [2, 3], 'float64',
               [1.5251501374091332, 2.593626772855927, 3.391312623925762, 3.6057107568002085,
                3.137420668014067, 2.150406265724061])],
 'addmm': [('T', [2, 4], 'float64',
            [7.635638157006667, 5.924324751099239, 3.7907622707196063, 1.5237183885930952,
             11.723105742269752, 10.362989308221703, 8.199285957572627, 5.524842788441597])],
 'amax': [('T', [3], 'float64', [1.5883490525530741, 1.3614951559542976, 0.9977401351353903])],
 'angle': [('T', [3], 'float64', [0.0, -1.7545549794949813, -1.2283133882449488])],
 'as_strided': [('T', [2, 2], 'float64',
                 [1.5312235449506484, 1.5883490525530741, 1.6475982142468126, 1.3614951559542976])],
 'atan2': [('T', [2, 3], 'float64',
            [3.2707341245572845, 0.5481026874659713, 0.202574968671994, 0.0982771186822576,
             0.05211811406158239, 0.02860501091432397])],
 'avg_pool2d': [('T', [1, 1, 2, 2], 'float64',
                 [1.2863586615639748, 0.9626465470021351, -0.5920742809556675,
                  -0.38218747270926257])],
 'batch_norm': [('T', [4, 3], 'float64',
                 [1.5426592837439201, 3.369170083173934, 4.1109140928509955, 3.4643708939284066,
                  3.528534140528037, 3.02176555441617, 2.126090188790303, 1.136793087465904,
                  0.4844517119926419, -0.9857852777399232, -1.1496013785042307,
                  -0.6828913928160818])],
 'bce_with_logits': [('T', [], 'float64', [-0.8743090225615845])],
 'cat': [('T', [3, 3], 'float64',
          [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
           1.3614951559542976, 0.9977401351353903, 1.40196054256866, 1.6336800051622622,
           1.6984266665116814])],
 'clamp': [('T', [2, 3], 'float64', [1.2549758102155637, 1.5312235449506484, 0.0, 0.0, 0.0, 0.0])],
 'clamp_': [('T', [2, 3], 'float64',
             [0.0, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741, 1.3614951559542976,
              0.9977401351353903])],
 'complex_abs': [('T', [3], 'float64', [0.0, 0.583656203413926, 0.674616516202491])],
 'complex_exp': [('T', [3], 'complex128',
                  [1.2549758102155637, 0.0, 1.726839863490383, 0.8773931467788338,
                   1.6339279740698918, 1.96277296047236])],
 'complex_mul': [('T', [3], 'complex128',
                  [0.24184863615916594, 0.24184863615916594, 1.3797710027451822, 1.7637675382387095,
                   2.4359292113026534, 3.180327781812867])],
 'conv1d': [('T', [1, 3, 4], 'float64',
             [9.027368531054751, 8.482420827659503, 7.146189551373086, 5.199527336896583,
              7.634985952921449, 8.318044215047252, 8.30726488318399, 7.604106889331231,
              -2.2864186492914285, -1.442230053892214, -0.2636626444833055, 1.0897700089814544])],
 'conv2d': [('T', [1, 2, 4, 4], 'float64',
             [5.104472185116094, 7.95168523166501, 7.895021492548276, 4.6479715691030545,
              4.646498056557002, 4.609223747383607, 2.130937573340844, -0.01216240456736628,
              -2.561600649182694, -5.282567967899503, -6.6264812156356925, -4.299931805871898,
              -3.7933555798445195, -5.091586385264563, -4.469872482319993, -2.3446287749045758,
              4.810331884531491, 8.075861974479592, 8.58914241382357, 5.413676903032827,
              5.999068100484422, 6.933120657691544, 4.400685590958528, 1.3300537794130374,
              -1.7090090572139025, -4.66808742277382, -6.811262130189967, -4.935945094304065,
              -4.152839016557581, -6.026703244748948, -5.60039404791569, -3.0948962584528568])],
 'copy_broadcast': [('T', [2, 2, 3], 'float64',
                     [1.2549758102155637, 1.5312235449506484, 1.6475982142468126,
                      1.5883490525530741, 1.3614951559542976, 0.9977401351353903,
                      1.2549758102155637, 1.5312235449506484, 1.6475982142468126,
                      1.5883490525530741, 1.3614951559542976, 0.9977401351353903])],
 'cosine_similarity': [('T', [2], 'float64', [0.08101451691470773, 0.0006576311655926703])],
 'cross_entropy': [('T', [], 'float64', [-0.19749693341035246])],
 'cumprod': [('T', [2, 3], 'float64',
              [1.2549758102155637, 0.5899642056316831, 0.5171474517959687, 1.5883490525530741,
               3.641684562912671, 6.054948137911651])],
 'cumsum': [('T', [2, 3], 'float64',
             [1.2549758102155637, 2.786199355166212, 4.4337975694130245, 1.5883490525530741,
              2.949844208507372, 3.9475843436427622])],
 'det': [('T', [], 'float64', [9.010181459079444])],
 'diagonal': [('T', [3], 'float64', [1.2549758102155637, 1.3614951559542976, -0.371547992359251])],
 'div': [('T', [2, 3], 'float64',
          [1.811685359424671, 0.8370015222825908, -0.18258188757638658, -0.05680998120195809,
           -0.4148141654429091, -0.6754943536523796])],
 'dot': [('T', [], 'float64', [5.1859439562107426])],
 'dropout_p0': [('T', [2, 3], 'float64',
                 [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
                  1.3614951559542976, 0.9977401351353903])],
 'eigvalsh': [('T', [3], 'float64',
               [-1.0784782451430373, -0.043209950336561845, 5.611534143100821])],
 'einsum': [('T', [2, 2], 'float64',
             [5.989533258568862, 6.378902265779386, 8.526133835020271, 9.120332113383377])],
 'elu': [('T', [2, 3], 'float64',
          [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
           1.3614951559542976, 0.9977401351353903])],
 'embedding': [('T', [2, 2, 2], 'float64',
                [1.2549758102155637, 1.5312235449506484, 1.3614951559542976, 0.9977401351353903,
                 1.6475982142468126, 1.5883490525530741, 1.2549758102155637, 1.5312235449506484])],
 'erf': [('T', [2, 3], 'float64',
          [1.4160885594560537, 1.3852148973663623, 0.8621882540748198, 0.4619173563116791,
           0.28744026431544323, 0.2361885832763584])],
 'err_dual_of_dual': ['err', 'RuntimeError',
                      'Making a dual Tensor based on a Tensor that already has a forward gradient '
                      'at the same level 0 is not supported.'],
 'err_dual_tangent': ['err', 'RuntimeError',
                      'Setting a forward grad that itself has a forward gradient at the same '
                      'level0 is not supported.'],
 'err_exit_none': ['err', 'RuntimeError', 'Dual level must be a positive number.'],
 'err_exit_other': ['err', 'RuntimeError',
                    'Trying to exit a forward AD level that was not the last one that was created. '
                    'This is not supported.'],
 'err_function_dirty': ['err', 'RuntimeError',
                        'An inplace custom Function is not modifying the forward mode gradients '
                        'inplace. If the forward is modifying an input inplace, then the jvp '
                        'function must modify the corresponding gradient inplace.'],
 'err_function_jvp_count': ['err', 'RuntimeError',
                            "Function's jvp returned an invalid number of forward gradients "
                            '(expected 1 but got 2)'],
 'err_function_jvp_size': ['err', 'RuntimeError',
                           'Trying to set a forward gradient that has a different size than that '
                           'of the original Tensor, this is not supported. Tensor is of size [2] '
                           'while the given forward gradient is of size [1].'],
 'err_function_nondiff_output': ['err', 'RuntimeError',
                                 "Function's jvp returned a gradient at position 1, but  the "
                                 'corresponding forward output is not a differentiable Tensor.You '
                                 'should return None at that position instead.'],
 'err_function_view': ['err', 'RuntimeError',
                       "A custom Function's forward is returning a view (or an input as-is) but "
                       'the jvp is not returning a view.'],
 'err_function_without_jvp': ['err', 'NotImplementedError',
                              'You must implement the jvp function for custom autograd.Function to '
                              'use it with forward mode AD.'],
 'err_int_primal': ['err', 'ValueError',
                    'Expected primal to be floating point or complex, but got: torch.int64'],
 'err_int_tangent': ['err', 'ValueError',
                     'Expected tangent to be floating point or complex, but got: torch.int64'],
 'err_make_dual_level': ['err', 'RuntimeError', 'Invalid level given to _make_dual'],
 'err_nested': ['err', 'RuntimeError', 'Nested forward mode AD is not supported at the moment'],
 'err_no_level': ['err', 'RuntimeError',
                  'Trying to create a dual Tensor for forward AD but no level exists, make sure to '
                  'enter_dual_level() first.'],
 'err_out': ['err', 'NotImplementedError',
             'Trying to use forward AD with add_out that does not support it because it is an out= '
             'function'],
 'err_out_dual': ['err', 'NotImplementedError',
                  'Trying to use forward AD with mul_out that does not support it because it is an '
                  'out= function'],
 'err_out_nondiff': ['err', 'NotImplementedError',
                     'Trying to use forward AD with eq_out that does not support it because it is '
                     'an out= function'],
 'err_resize': ['err', 'RuntimeError', 'cannot resize variables that has a forward grad'],
 'err_size': ['err', 'RuntimeError',
              'Trying to set a forward gradient that has a different size than that of the '
              'original Tensor, this is not supported. Tensor is of size [2] while the given '
              'forward gradient is of size [3].'],
 'err_size_2d': ['err', 'RuntimeError',
                 'Trying to set a forward gradient that has a different size than that of the '
                 'original Tensor, this is not supported. Tensor is of size [2] while the given '
                 'forward gradient is of size [1, 2].'],
 'err_unpack_level': ['ok', [('T', [2], 'float64', [0.0, 0.4701000615544506]), None]],
 'exp': [('T', [2, 3], 'float64',
          [1.2549758102155637, 2.4501939383872724, 3.9586097280344217, 5.089112411358696,
           4.969049494119625, 3.4812636359494586])],
 'exp_': [('T', [2, 3], 'float64',
           [1.2549758102155637, 2.4501939383872724, 3.9586097280344217, 5.089112411358696,
            4.969049494119625, 3.4812636359494586])],
 'expand': [('T', [4, 3], 'float64',
             [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.2549758102155637,
              1.5312235449506484, 1.6475982142468126, 1.2549758102155637, 1.5312235449506484,
              1.6475982142468126, 1.2549758102155637, 1.5312235449506484, 1.6475982142468126])],
 'flatten': [('T', [6], 'float64',
              [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
               1.3614951559542976, 0.9977401351353903])],
 'flip': [('T', [2, 3], 'float64',
           [1.6475982142468126, 1.5312235449506484, 1.2549758102155637, 0.9977401351353903,
            1.3614951559542976, 1.5883490525530741])],
 'float_to_double': [('T', [2, 3], 'float64',
                      [2.509951591491699, 3.0624470710754395, 3.295196533203125, 3.1766982078552246,
                       2.7229902744293213, 1.9954802989959717])],
 'function_jvp': [('T', [2, 3], 'float64',
                   [0.0, 2.030347920133933, 7.595913585021552, 12.921346633099201,
                    13.692060623395358, 9.34869252718908])],
 'function_setup_context': [('T', [3], 'float64',
                             [0.24184863615916594, 0.9957744672516549, 1.6915306407924395]),
                            ('T', [3], 'float64',
                             [1.2549758102155637, 1.5312235449506484, 1.6475982142468126])],
 'fwd_grad_disabled': [False, None, None, True,
                       ('T', [2], 'float64', [2.5099516204311274, 3.0624470899012968])],
 'gather': [('T', [2, 2], 'float64',
             [1.2549758102155637, 1.6475982142468126, 1.3614951559542976, 1.3614951559542976])],
 'gelu': [('T', [2, 3], 'float64',
           [0.6274879051077819, 1.2996749583923488, 1.7263351038647297, 1.76894368424912,
            1.5326171385190184, 1.1200972011441777])],
 'gelu_tanh': [('T', [2, 3], 'float64',
                [0.6274879051077819, 1.2995102311092857, 1.7257687691796029, 1.7685265433620323,
                 1.5324695944229212, 1.1199281980185525])],
 'getitem_index': [('T', [3, 3], 'float64',
                    [1.5883490525530741, 1.3614951559542976, 0.9977401351353903, 1.2549758102155637,
                     1.5312235449506484, 1.6475982142468126, 1.5883490525530741, 1.3614951559542976,
                     0.9977401351353903])],
 'getitem_mask': [('T', [5], 'float64',
                   [1.5312235449506484, 1.6475982142468126, 1.5883490525530741, 1.3614951559542976,
                    0.9977401351353903])],
 'getitem_slices': [('T', [2, 2], 'float64',
                     [1.2549758102155637, 1.6475982142468126, 1.5883490525530741,
                      0.9977401351353903])],
 'hardtanh': [('T', [2, 3], 'float64',
               [1.2549758102155637, 1.5312235449506484, 0.0, 0.0, 0.0, 0.0])],
 'huber': [('T', [], 'float64', [0.008592884903470727])],
 'index_put_': [('T', [2, 3], 'float64',
                 [1.2549758102155637, 1.5312235449506484, 1.40196054256866, 1.6336800051622622,
                  1.3614951559542976, 0.9977401351353903])],
 'index_select': [('T', [2, 2], 'float64',
                   [1.6475982142468126, 1.2549758102155637, 0.9977401351353903,
                    1.5883490525530741])],
 'inplace_view': [('T', [3, 2], 'float64',
                   [1.2549758102155637, 1.5883490525530741, 2.993220405406171, 1.3614951559542976,
                    1.6475982142468126, 0.9977401351353903]),
                  ('T', [2, 3], 'float64',
                   [1.2549758102155637, 2.993220405406171, 1.6475982142468126, 1.5883490525530741,
                    1.3614951559542976, 0.9977401351353903])],
 'interpolate': [('T', [1, 1, 4, 6], 'float64',
                  [1.2549758102155637, 1.324037743899335, 1.4621616112668772, 1.5603172122746893,
                   1.6185045469227717, 1.6475982142468126, 1.3383191207999412, 1.3759372025253462,
                   1.4511733659761559, 1.48787700939341, 1.486048132777108, 1.485133694468957,
                   1.5050057419686964, 1.4797361197773689, 1.429196875394713, 1.3429966036308503,
                   1.2211353044857807, 1.1602046549132459, 1.5883490525530741, 1.53163557840338,
                   1.4182086301039918, 1.2705564007495709, 1.0886788903401172,
                   0.9977401351353903])],
 'inv': [('T', [3, 3], 'float64',
          [-0.03847361878043745, -0.09657750767638576, -0.1456716604721935, -0.06756731178950148,
           -0.043745319516240964, -0.015636173881537277, -0.04739298537267572, 0.03412652401065862,
           0.1077900041696604])],
 'layer_norm': [('T', [2, 3], 'float64',
                 [-0.2593763504968043, 1.9583470582779807, 3.661653370814123, 0.9464593830456995,
                  7.4501467588201145, -5.90868830395152])],
 'leaky_relu': [('T', [2, 3], 'float64',
                 [0.25099516204311273, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
                  1.3614951559542976, 0.9977401351353903])],
 'lerp': [('T', [2, 3], 'float64',
           [1.6160868935444994, 1.9091989988210745, 1.9501020435273109, 1.7548119848836012,
            1.3876547088269142, 0.932738725172012])],
 'levels': [-1, 0, 0, -1],
 'linear': [('T', [2, 4], 'float64',
             [6.722777728391419, 8.871992555351017, 3.7514731467794418, -2.939505834055296,
              9.622612028512172, 11.529012080824135, 4.236970169551788, -4.14237901601466])],
 'log': [('T', [2, 3], 'float64',
          [2.5099516204311274, 1.5784181504916877, 1.196882894051206, 0.9543025354868068,
           0.7586431197724042, 0.5702487399191319])],
 'log_softmax': [('T', [2, 3], 'float64',
                  [-0.25407468307586933, 0.11799522228855208, 0.3848484531259062,
                   0.07929855926164109, -0.051733166707798706, -0.26500962598551614])],
 'logsigmoid': [('T', [2, 3], 'float64',
                 [0.6274879051077819, 0.5888971840866932, 0.4842096303842576, 0.3778161396184709,
                  0.2928135195548098, 0.22225598104796251])],
 'logsumexp': [('T', [2], 'float64', [1.531895251762089, 1.3090581482170929])],
 'masked_fill': [('T', [2, 3], 'float64',
                  [1.2549758102155637, 1.5312235449506484, 0.0, 0.0, 0.0, 0.0])],
 'masked_fill_': [('T', [2, 3], 'float64',
                   [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
                    1.3614951559542976, 0.9977401351353903])],
 'matmul': [('T', [2, 4], 'float64',
             [2.780654379676547, 1.9715030735250685, 0.9984291822825456, -0.006866307767331548,
              5.077592796431418, 4.576631485788946, 3.6837415870830172, 2.5197715593676104])],
 'matmul_batched': [('T', [2, 2, 2], 'float64',
                     [5.989533258568862, 6.378902265779386, 8.526133835020271, 9.120332113383377,
                      2.591672250167722, 2.9658379592147646, -5.2225817050155445,
                      -5.248925299130397])],
 'max_dim': [('T', [2], 'float64', [1.6475982142468126, 1.3614951559542976]), None],
 'max_pool2d': [('T', [1, 1, 2, 2], 'float64',
                 [1.3614951559542976, 1.5883490525530741, -0.371547992359251, -0.911997537655775])],
 'maximum': [('T', [2, 3], 'float64',
              [1.40196054256866, 1.6336800051622622, 1.6984266665116814, 1.587437369743593,
               1.3157339955012293, 0.9977401351353903])],
 'mean': [('T', [], 'float64', [1.3968969855092979])],
 'mse_loss': [('T', [], 'float64', [0.017185769806941455])],
 'mul_': [('T', [2, 3], 'float64',
           [0.24184863615916594, 1.7637675382387095, 3.180327781812867, 3.8669455327313704,
            3.541100677121001, 2.3997418878058534])],
 'mul_broadcast': [('T', [2, 3], 'float64',
                    [0.24184863615916594, 1.7637675382387095, 3.180327781812867, 1.9385480707511964,
                     3.0004337118229274, 3.146796473757372])],
 'mv': [('T', [2], 'float64', [5.1859439562107426, 8.085778256331494])],
 'narrow': [('T', [2, 2], 'float64',
             [1.5312235449506484, 1.6475982142468126, 1.3614951559542976, 0.9977401351353903])],
 'nll_loss': [('T', [], 'float64', [-2.5289636800860387])],
 'nondiff_outputs': [None, None, None, ('T', [2], 'float64', [0.0, 0.0]), None],
 'norm': [('T', [], 'float64', [2.9722997342497437])],
 'normalize': [('T', [2, 3], 'float64',
                [1.2616954868998775, 0.5056633806259534, -0.27118339015212495, 0.1664149441578553,
                 -0.003705931643716528, -0.15122306283843825])],
 'pad': [('T', [2, 6], 'float64',
          [0.0, 1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 0.0, 0.0, 0.0,
           1.5883490525530741, 1.3614951559542976, 0.9977401351353903, 0.0, 0.0])],
 'permute': [('T', [2, 2, 3], 'float64',
              [1.2549758102155637, 1.6475982142468126, 1.3614951559542976, 0.5463165257122476,
               -0.371547992359251, -0.911997537655775, 1.5312235449506484, 1.5883490525530741,
               0.9977401351353903, 0.06832239549640651, -0.7137602443837332,
               -0.9394293845041863])],
 'pow_scalar': [('T', [2, 3], 'float64',
                 [0.0, 1.0151739600669665, 3.7979567925107762, 6.4606733165496, 6.846030311697679,
                  4.67434626359454])],
 'pow_tensor': [('T', [2, 3], 'float64',
                 [-0.42703951176192523, 0.957778346237564, 2.4596258361704835, 3.8624127450963934,
                  3.9490840014378703, 2.477173880482626])],
 'prod': [('T', [2], 'float64', [0.5171474517959687, 6.054948137911651])],
 'real_imag': [('T', [3], 'float64', [1.2549758102155637, 1.5312235449506484, 1.6475982142468126]),
               ('T', [3], 'float64', [0.0, 0.0, 0.0])],
 'relu': [('T', [2, 3], 'float64',
           [0.0, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741, 1.3614951559542976,
            0.9977401351353903])],
 'repeat': [('T', [4, 3], 'float64',
             [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
              1.3614951559542976, 0.9977401351353903, 1.2549758102155637, 1.5312235449506484,
              1.6475982142468126, 1.5883490525530741, 1.3614951559542976, 0.9977401351353903])],
 'repr': 'tensor([1., 2.], tangent=tensor([0.5000, 0.2500]))',
 'roll': [('T', [2, 3], 'float64',
           [1.6475982142468126, 1.2549758102155637, 1.5312235449506484, 0.9977401351353903,
            1.5883490525530741, 1.3614951559542976])],
 'rsqrt': [('T', [2, 3], 'float64',
            [-1.7748038112570133, -0.8012790806360284, -0.5100606712783807, -0.3698504459925845,
             -0.28315109100679764, -0.21555484282849108])],
 'scatter': [('T', [2, 3], 'float64',
              [1.2549758102155637, 1.5312235449506484, 1.40196054256866, 1.6336800051622622,
               1.3614951559542976, 0.9977401351353903])],
 'sdpa': [('T', [1, 2, 2], 'float64',
           [1.4285439298832272, 1.6656501986625702, 1.5444012869405397, 1.6073398463975144])],
 'select': [('T', [3], 'float64', [1.5883490525530741, 1.3614951559542976, 0.9977401351353903])],
 'setitem': [('T', [2, 3], 'float64',
              [1.2549758102155637, 1.40196054256866, 1.6336800051622622, 1.5883490525530741,
               1.3614951559542976, 0.9977401351353903])],
 'setitem_on_plain': [('T', [2, 3], 'float64',
                       [0.0, 0.0, 0.0, 1.2549758102155637, 1.5312235449506484,
                        1.6475982142468126])],
 'sigmoid': [('T', [2, 3], 'float64',
              [0.3137439525538909, 0.3624117080966972, 0.34190614636158245, 0.2879460728804583,
               0.22983881350528423, 0.17274637491701425])],
 'silu': [('T', [2, 3], 'float64',
           [0.6274879051077819, 1.112696127148266, 1.463094719686427, 1.5458197076680882,
            1.3662413296110107, 0.9913580026825078])],
 'sin': [('T', [2, 3], 'float64',
          [1.2549758102155637, 1.3651209582812815, 1.0541131247992792, 0.6278650522083057,
           0.3712180920527691, 0.3149338009105391])],
 'smooth_l1': [('T', [], 'float64', [0.008592884903470727])],
 'softmax': [('T', [2, 3], 'float64',
              [-0.05535279021518357, -0.00021484620433920713, 0.0555676364195229,
               0.08651901928298049, 0.01850349739266518, -0.10502251667564555])],
 'softplus': [('T', [2, 3], 'float64',
               [0.6274879051077819, 1.1011642219695235, 1.404329495622864, 1.447360300934525,
                1.2664207595467458, 0.9220054948366504])],
 'solve': [('T', [3, 2], 'float64',
            [0.057428153481165346, 0.15642469248287022, 0.1478007258019382, 0.09419966276148611,
             0.4149246251044881, 0.23129993238777166])],
 'sort': [('T', [2, 3], 'float64',
           [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
            0.9977401351353903, 1.3614951559542976]),
          None],
 'split': [('T', [2, 2], 'float64',
            [1.2549758102155637, 1.5312235449506484, 1.5883490525530741, 1.3614951559542976]),
           ('T', [2, 1], 'float64', [1.6475982142468126, 0.9977401351353903])],
 'stack_one_dual': [('T', [2, 2, 3], 'float64',
                     [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.2549758102155637, 1.5312235449506484,
                      1.6475982142468126, 1.5883490525530741, 1.3614951559542976,
                      0.9977401351353903])],
 'std': [('T', [], 'float64', [-0.015086360288996731])],
 'sub_one_dual': [('T', [2, 3], 'float64',
                   [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
                    1.3614951559542976, 0.9977401351353903])],
 'sum_dim': [('T', [2], 'float64', [4.4337975694130245, 3.9475843436427622])],
 'svdvals': [('T', [2], 'float64', [2.984329087541833, 0.15046051666076887])],
 'tanh': [('T', [2, 3], 'float64',
           [1.2549758102155637, 1.2370915830098828, 0.8293998718180542, 0.513895913855969,
            0.35374107292363177, 0.27994365284479633])],
 'topk': [('T', [2, 2], 'float64',
           [1.6475982142468126, 1.5312235449506484, 1.3614951559542976, 0.9977401351353903]),
          None],
 'transpose': [('T', [3, 2], 'float64',
                [1.2549758102155637, 1.5883490525530741, 1.5312235449506484, 1.3614951559542976,
                 1.6475982142468126, 0.9977401351353903])],
 'tril': [('T', [3, 3], 'float64',
           [1.2549758102155637, 0.0, 0.0, 1.5883490525530741, 1.3614951559542976, 0.0,
            0.5463165257122476, 0.06832239549640651, -0.371547992359251])],
 'unbind': [('T', [2], 'float64', [1.2549758102155637, 1.5883490525530741]),
            ('T', [2], 'float64', [1.5312235449506484, 1.3614951559542976]),
            ('T', [2], 'float64', [1.6475982142468126, 0.9977401351353903])],
 'unfold': [('T', [3, 2], 'float64',
             [1.2549758102155637, 1.5312235449506484, 1.5312235449506484, 1.6475982142468126,
              1.6475982142468126, 1.5883490525530741])],
 'unpack_outside': None,
 'unpack_plain': None,
 'var': [('T', [2], 'float64', [0.17377669452738298, -0.02117648568851116])],
 'view': [('T', [3, 2], 'float64',
           [1.2549758102155637, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
            1.3614951559542976, 0.9977401351353903])],
 'view_as_real': [('T', [3, 2], 'float64',
                   [2.5099516204311274, 0.0, 3.0624470899012968, 0.0, 3.2951964284936253, 0.0])],
 'where': [('T', [2, 3], 'float64',
            [1.40196054256866, 1.5312235449506484, 1.6475982142468126, 1.5883490525530741,
             1.3614951559542976, 0.9977401351353903])]}



# ---- aten._new_zeros_with_same_feature_meta (a tangent's layout, with batch dimensions) -------

def _feature_meta_cases():
    return {
        "vec_3d": (torch.zeros(5), torch.zeros(2, 3, 4, dtype=torch.float64)),
        "3d_vec": (torch.zeros(2, 3, 4, dtype=torch.float64), torch.zeros(5)),
        "transposed": (torch.zeros(2, 3, 4).transpose(0, 1).contiguous().transpose(0, 1),
                       torch.zeros(2, 3, 4)),
        "narrowed": (torch.zeros(5), torch.zeros(5).narrow(0, 1, 2)),
        "narrowed_t": (torch.zeros(3, 2, 4), torch.arange(12.).reshape(3, 4)[:, 1:3].t()),
    }


def test_new_zeros_with_same_feature_meta_against_torch():
    f = torch.ops.aten._new_zeros_with_same_feature_meta
    got = {}
    for name, (a, b) in _feature_meta_cases().items():
        for k in range(a.dim() + 1):
            r = f(a, b, self_num_batch_dims=k)
            got[(name, k)] = (tuple(r.shape), r.stride(), r.storage_offset(),
                              len(r.untyped_storage()) // r.element_size(),
                              str(r.dtype).split(".")[1], r.is_contiguous(),
                              float(r.abs().sum()))
    assert got == FEATURE_META_REF
    assert f.default is not None
    with pytest.raises(RuntimeError, match="self_num_batch_dims must be in"):
        f(torch.zeros(2), torch.zeros(3), self_num_batch_dims=3)


# torch 2.15, the same calls: (sizes, strides, storage offset, storage numel, dtype,
# contiguous, sum of absolute values)
FEATURE_META_REF = {
    ('vec_3d', 0): ((2, 3, 4), (12, 4, 1), 0, 24, 'float64', True, 0.0),
    ('vec_3d', 1): ((5, 2, 3, 4), (24, 12, 4, 1), 0, 120, 'float64', True, 0.0),
    ('3d_vec', 0): ((5,), (1,), 0, 5, 'float32', True, 0.0),
    ('3d_vec', 1): ((2, 5), (5, 1), 0, 10, 'float32', True, 0.0),
    ('3d_vec', 2): ((2, 3, 5), (15, 5, 1), 0, 30, 'float32', True, 0.0),
    ('3d_vec', 3): ((2, 3, 4, 5), (60, 20, 5, 1), 0, 120, 'float32', True, 0.0),
    ('transposed', 0): ((2, 3, 4), (12, 4, 1), 0, 24, 'float32', True, 0.0),
    ('transposed', 1): ((2, 2, 3, 4), (24, 12, 4, 1), 0, 48, 'float32', True, 0.0),
    ('transposed', 2): ((2, 3, 2, 3, 4), (72, 24, 12, 4, 1), 0, 144, 'float32', True, 0.0),
    ('transposed', 3): ((2, 3, 4, 2, 3, 4), (288, 96, 24, 12, 4, 1), 0, 576, 'float32', True, 0.0),
    ('narrowed', 0): ((2,), (1,), 1, 5, 'float32', True, 0.0),
    ('narrowed', 1): ((5, 2), (5, 1), 1, 25, 'float32', False, 0.0),
    ('narrowed_t', 0): ((2, 3), (1, 4), 1, 12, 'float32', False, 0.0),
    ('narrowed_t', 1): ((3, 2, 3), (12, 1, 4), 1, 36, 'float32', False, 0.0),
    ('narrowed_t', 2): ((3, 2, 2, 3), (24, 12, 1, 4), 1, 72, 'float32', False, 0.0),
    ('narrowed_t', 3): ((3, 2, 4, 2, 3), (96, 48, 12, 1, 4), 1, 288, 'float32', False, 0.0),
}
