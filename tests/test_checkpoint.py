"""utils.checkpoint (checkpoint with use_reentrant=True and False, checkpoint_sequential): values
and gradients, autograd.grad, inputs that do not require grad, keyword arguments, nested and
mixed checkpoints, double backward, the random state, context_fn, early stopping, the
determinism check, debug mode and the errors and warnings; against what PyTorch 2.15 does for
the same programs (REF, at the end of this file)."""
import contextlib
import re
import warnings

import numpy as np
import pytest

import minitorch as torch
from minitorch.utils import checkpoint as ckpt
from minitorch.utils.checkpoint import checkpoint, checkpoint_sequential


def _cases(t):
    """name -> a program returning what it observed (the same programs run in torch for REF)."""
    C = t.utils.checkpoint
    d = t.float64

    def fill(m):
        with t.no_grad():
            for k, p in enumerate(m.parameters()):
                p.copy_((t.arange(p.numel(), dtype=d) * 0.37 + k).sin().reshape(p.shape) * 0.5)
        return m

    def net():
        return fill(t.nn.Sequential(t.nn.Linear(4, 6), t.nn.Tanh(), t.nn.Linear(6, 6),
                                    t.nn.ReLU(), t.nn.Linear(6, 3), t.nn.Sigmoid()).double())

    def x_():
        return (t.arange(8, dtype=d) * 0.7).cos().reshape(2, 4).requires_grad_()

    def a_():
        return t.tensor([0.5, -1.2, 2.0], dtype=d, requires_grad=True)

    def grads_of(run):
        """run(model, x) -> output; the output and the gradients of x and the parameters."""
        def go():
            m, x = net(), x_()
            out = run(m, x)
            (out * out).sum().backward()
            return [out, x.grad] + [p.grad for p in m.parameters()]
        return go

    def quiet(fn):
        def run():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return fn()
        return run

    cases = {
        "plain": grads_of(lambda m, x: m(x)),
        "reentrant": grads_of(lambda m, x: C.checkpoint(m, x, use_reentrant=True)),
        "non_reentrant": grads_of(lambda m, x: C.checkpoint(m, x, use_reentrant=False)),
        "default_reentrant": quiet(grads_of(lambda m, x: C.checkpoint(m, x))),
        "no_rng_reentrant": grads_of(lambda m, x: C.checkpoint(m, x, use_reentrant=True,
                                                               preserve_rng_state=False)),
        "no_rng_non_reentrant": grads_of(lambda m, x: C.checkpoint(
            m, x, use_reentrant=False, preserve_rng_state=False)),
        "determinism_none": grads_of(lambda m, x: C.checkpoint(m, x, use_reentrant=False,
                                                               determinism_check="none")),
        "no_early_stop": grads_of(lambda m, x: C.checkpoint(m, x, use_reentrant=False,
                                                            early_stop=False)),
        "nested_non_reentrant": grads_of(lambda m, x: C.checkpoint(
            lambda z: m[3:](C.checkpoint(m[:3], z, use_reentrant=False)), x,
            use_reentrant=False)),
        "nested_reentrant": grads_of(lambda m, x: C.checkpoint(
            lambda z: m[3:](C.checkpoint(m[:3], z, use_reentrant=True)), x, use_reentrant=True)),
        "nested_mixed_outer_non_reentrant": grads_of(lambda m, x: C.checkpoint(
            lambda z: m[3:](C.checkpoint(m[:3], z, use_reentrant=True)), x,
            use_reentrant=False)),
        "nested_mixed_outer_reentrant": grads_of(lambda m, x: C.checkpoint(
            lambda z: m[3:](C.checkpoint(m[:3], z, use_reentrant=False)), x,
            use_reentrant=True)),
        "decorator": grads_of(lambda m, x: C.checkpoint(use_reentrant=False)(m)(x)),
    }
    for seg in (1, 2, 3, 6):
        for re_ in (True, False):
            cases[f"sequential_{seg}_{'re' if re_ else 'nonre'}"] = grads_of(
                lambda m, x, seg=seg, re_=re_: C.checkpoint_sequential(m, seg, x,
                                                                       use_reentrant=re_))
    cases["sequential_list"] = grads_of(lambda m, x: C.checkpoint_sequential(
        list(m.children()), 2, x, use_reentrant=False))
    cases["sequential_no_rng"] = grads_of(lambda m, x: C.checkpoint_sequential(
        m, 2, x, use_reentrant=True, preserve_rng_state=False))

    def f(a, b, scale=1.0):
        return (a.sin() * b).exp() * scale

    def b_():
        return t.tensor([0.7, 0.4, -1.5], dtype=d)

    def autograd_grad():
        a = a_()
        y = C.checkpoint(f, a, b_(), scale=2.0, use_reentrant=False)
        return t.autograd.grad(y.sum(), a)
    cases["autograd_grad_kwargs"] = autograd_grad

    def backward_inputs():
        a = a_()
        y = C.checkpoint(f, a, b_(), use_reentrant=False)
        y.sum().backward(inputs=[a])
        return a.grad
    cases["backward_inputs"] = backward_inputs

    def double_backward(re_):
        def run():
            a = a_()
            y = C.checkpoint(f, a, b_(), use_reentrant=re_)
            g, = t.autograd.grad(y.sum(), a, create_graph=True) if not re_ else (None,)
            if re_:
                y.sum().backward(create_graph=True)
                g = a.grad
            gg, = t.autograd.grad(g.sum(), a)
            return g, gg
        return run
    cases["double_backward_non_reentrant"] = double_backward(False)

    def retain_twice(re_):
        def run():
            a = a_()
            y = C.checkpoint(f, a, b_(), use_reentrant=re_).sum()
            y.backward(retain_graph=True)
            y.backward()
            return a.grad
        return run
    cases["retain_graph_twice_non_reentrant"] = retain_twice(False)
    cases["retain_graph_twice_reentrant"] = retain_twice(True)

    def inputs_without_grad(re_):
        def run():
            lin = fill(t.nn.Linear(3, 2).double())
            z = t.tensor([[0.1, 0.2, 0.3], [-0.4, 0.5, 0.6]], dtype=d)
            with warnings.catch_warnings(record=True) as ws:
                warnings.simplefilter("always")
                y = C.checkpoint(lin, z, use_reentrant=re_)
            msgs = [str(w.message) for w in ws]
            if y.requires_grad:
                y.sum().backward()
            return [y.requires_grad, msgs, lin.weight.grad]
        return run
    cases["inputs_without_grad_reentrant"] = inputs_without_grad(True)
    cases["inputs_without_grad_non_reentrant"] = inputs_without_grad(False)

    def outputs(re_):
        def run():
            a = a_()
            out = C.checkpoint(lambda z: (z * 2, 5, None, z.exp()), a, use_reentrant=re_)
            (out[0].sum() + out[3].sum()).backward()
            return [type(out).__name__, out[1], out[2], a.grad]
        return run
    cases["tuple_outputs_reentrant"] = outputs(True)
    cases["tuple_outputs_non_reentrant"] = outputs(False)

    def no_grad(re_):
        def run():
            with t.no_grad():
                y = C.checkpoint(f, a_(), b_(), use_reentrant=re_)
            return y.requires_grad, y
        return run
    cases["no_grad_reentrant"] = no_grad(True)
    cases["no_grad_non_reentrant"] = no_grad(False)

    def dropout_consistent(re_):
        def run():
            t.manual_seed(3)
            drop = t.nn.Dropout(0.5)
            w = t.ones(200, dtype=d, requires_grad=True)
            y = C.checkpoint(lambda z: drop(z) * z, w, use_reentrant=re_)
            y.sum().backward()
            return bool(((w.grad - (y.detach() != 0).double() * 4).abs() < 1e-12).all())
        return run
    cases["dropout_rng_reentrant"] = dropout_consistent(True)
    cases["dropout_rng_non_reentrant"] = dropout_consistent(False)

    def context_fn():
        log = []

        class Ctx:
            def __init__(self, name):
                self.name = name

            def __enter__(self):
                log.append(f"{self.name} enter {t.is_grad_enabled()}")

            def __exit__(self, *exc):
                log.append(f"{self.name} exit")
        a = a_()
        y = C.checkpoint(f, a, b_(), use_reentrant=False,
                         context_fn=lambda: (Ctx("forward"), Ctx("recompute")))
        log.append("forward done")
        y.sum().backward()
        return log, a.grad
    cases["context_fn"] = context_fn

    def suppressing_context():
        class Suppress:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return True
        C.checkpoint(lambda z: 1 / 0, a_(), use_reentrant=False,
                     context_fn=lambda: (Suppress(), Suppress()))
    cases["err_context_suppresses"] = suppressing_context

    def counted(changes):
        """A function whose second run (the recomputation) differs as `changes` says."""
        def run():
            calls = [0]

            def g(a):
                calls[0] += 1
                b = a.sin()
                if changes == "more" and calls[0] > 1:
                    b = b.sin()
                if changes == "fewer" and calls[0] == 1:
                    b = b.cos()
                if changes == "shape":
                    b = (a.expand(calls[0], 3) * 2).sin()
                if changes == "dtype":
                    b = (a.float() if calls[0] > 1 else a).sin().double()
                return b.sum()
            y = C.checkpoint(g, a_(), use_reentrant=False)
            y.backward()
            return calls[0]
        return run
    cases["recompute_more_early_stop"] = counted("more")
    cases["err_recompute_fewer"] = counted("fewer")
    cases["err_recompute_shape"] = counted("shape")
    cases["err_recompute_dtype"] = counted("dtype")

    def more_no_early_stop():
        with C.set_checkpoint_early_stop(False):
            return counted("more")()
    cases["err_recompute_more_no_early_stop"] = more_no_early_stop

    def fewer_unchecked():
        calls = [0]

        def g(a):
            calls[0] += 1
            b = a.sin()
            if calls[0] == 1:
                b = b.cos()
            return b.sum()
        a = a_()
        y = C.checkpoint(g, a, use_reentrant=False, determinism_check="none")
        y.backward()
        return a.grad
    cases["recompute_fewer_unchecked"] = fewer_unchecked

    def debug_mode():
        with C.set_checkpoint_debug_enabled(True):
            counted("fewer")()
    cases["err_debug_mode"] = debug_mode

    def unpack_twice():
        class Twice(t.autograd.Function):
            @staticmethod
            def forward(ctx, z):
                ctx.save_for_backward(z)
                return z * 2

            @staticmethod
            def backward(ctx, g):
                ctx.saved_tensors
                ctx.saved_tensors
                return g * 2
        y = C.checkpoint(lambda z: Twice.apply(z), a_(), use_reentrant=False)
        y.sum().backward()
    cases["err_unpack_twice"] = unpack_twice

    def modified_input():
        a = a_()
        b = a * 1
        y = C.checkpoint(lambda z: z.sin(), b, use_reentrant=False)
        with t.no_grad():
            b.add_(1)
        y.sum().backward()
    cases["err_input_modified"] = modified_input

    def reentrant_with_grad():
        a = a_()
        return t.autograd.grad(C.checkpoint(f, a, b_(), use_reentrant=True).sum(), a)
    cases["err_reentrant_grad"] = reentrant_with_grad

    def reentrant_with_inputs():
        a = a_()
        C.checkpoint(f, a, b_(), use_reentrant=True).sum().backward(inputs=[a])
    cases["err_reentrant_backward_inputs"] = reentrant_with_inputs

    def reentrant_no_output_grad():
        C.checkpoint(lambda z: z.detach() * 1, a_(), use_reentrant=True).sum().backward()
    cases["err_reentrant_no_output_requires_grad"] = reentrant_no_output_grad

    def warns(fn):
        def run():
            with warnings.catch_warnings(record=True) as ws:
                warnings.simplefilter("always")
                fn()
            return [str(w.message) for w in ws]
        return run
    cases["warn_use_reentrant"] = warns(lambda: C.checkpoint(f, a_(), b_()))
    cases["warn_sequential_use_reentrant"] = warns(
        lambda: C.checkpoint_sequential([lambda z: z * 2, lambda z: z.sin()], 2, a_()))

    cases.update({
        "err_reentrant_kwargs": lambda: C.checkpoint(f, a_(), b_(), scale=2.0,
                                                     use_reentrant=True),
        "err_reentrant_context_fn": lambda: C.checkpoint(
            f, a_(), b_(), use_reentrant=True, context_fn=lambda: (None, None)),
        "err_reentrant_debug": lambda: C.checkpoint(f, a_(), b_(), use_reentrant=True,
                                                    debug=True),
        "err_determinism_check": lambda: C.checkpoint(f, a_(), b_(), use_reentrant=False,
                                                      determinism_check="strict"),
        "err_debug_with_context_fn": lambda: C.checkpoint(
            f, a_(), b_(), use_reentrant=False, debug=True, context_fn=lambda: (None, None)),
        "err_decorator_kwargs": lambda: C.checkpoint(use_reentrant=False, foo=1),
        "err_sequential_kwargs": lambda: C.checkpoint_sequential([lambda z: z], 1, a_(),
                                                                 use_reentrant=False, foo=1),
        "err_detach_variable_list": lambda: C.detach_variable([a_()]),
        "detach_variable": lambda: [(v.requires_grad, v.grad_fn is None) if
                                    isinstance(v, t.Tensor) else v
                                    for v in C.detach_variable((a_() * 2, b_(), 3))],
        "device_type": lambda: C.DefaultDeviceType.get_device_type(),
        "device_states": lambda: C.get_device_states(a_(), [b_()]),
        "check_backward_validity": warns(lambda: C.check_backward_validity((b_(), 1))),
        "noop_context_fn": lambda: [type(c).__name__ for c in C.noop_context_fn()],
    })
    return cases


def _encode(r):
    if r is None or isinstance(r, (bool, int, float, str)):
        return r
    if isinstance(r, (tuple, list)):
        return [_encode(e) for e in r]
    if hasattr(r, "shape") and hasattr(r, "dtype"):
        return ["T", list(r.shape), [float(v) for v in r.detach().reshape(-1).tolist()]]
    return ["other", type(r).__name__]


def _norm(msg):
    """An error's message as compared: without the version numbers of an in-place error, and
    without torch's advice about torch.compile after the debug tip."""
    msg = msg.replace("minitorch.", "torch.")
    msg = re.sub(r"is at version \d+; expected version \d+", "is at version N; expected "
                 "version M", msg)
    msg = msg.split("\nIf this error occurs under torch.compile")[0]
    if "dumping logs of latest computation" in msg:   # debug mode: the header only
        msg = msg.split("\n")[0]
    return msg


def _run(thunk):
    try:
        return ["ok", _encode(thunk())]
    except Exception as e:  # noqa: BLE001 - every exception is part of the spec
        return ["err", type(e).__name__, _norm(str(e))]


def _same(got, ref, path="result"):
    if isinstance(ref, list) and ref and ref[0] == "T":
        assert isinstance(got, list) and got[:2] == ref[:2], f"{path}: {got} != {ref}"
        np.testing.assert_allclose(got[2], ref[2], rtol=1e-9, atol=1e-12, err_msg=path)
    elif isinstance(ref, list):
        assert isinstance(got, list) and len(got) == len(ref), f"{path}: {got} != {ref}"
        for i, (g, r) in enumerate(zip(got, ref)):
            _same(g, r, f"{path}[{i}]")
    else:
        assert got == ref, f"{path}: {got} != {ref}"


CASES = _cases(torch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    got, ref = _run(CASES[name]), REF[name]
    assert got[0] == ref[0], f"{got} != {ref}"
    if ref[0] == "err":
        assert got[1:] == ref[1:]
    else:
        _same(got[1], ref[1])


def test_every_case_has_a_reference():
    assert sorted(CASES) == sorted(REF)


def test_checkpointed_equals_plain():
    plain = _run(CASES["plain"])
    for name in CASES:
        if name.startswith(("reentrant", "non_reentrant", "nested", "sequential", "decorator",
                            "no_rng", "no_early", "determinism_none")):
            _same(_run(CASES[name]), plain, name)


# ---- minitorch's own ---------------------------------------------------------------------------

def test_rng_not_preserved_draws_another_mask():
    torch.manual_seed(3)
    drop = torch.nn.Dropout(0.5)
    w = torch.ones(1000, dtype=torch.float64, requires_grad=True)
    y = checkpoint(lambda z: drop(z) * z, w, use_reentrant=False, preserve_rng_state=False)
    y.sum().backward()
    assert not bool(((w.grad - (y.detach() != 0).double() * 4).abs() < 1e-12).all())


def test_non_reentrant_keeps_placeholders_not_activations():
    from minitorch.autograd.graph import saved_tensors_hooks
    seen = []

    def outer_pack(x):
        seen.append(type(x).__name__)
        return x

    a = torch.tensor([0.5, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    with saved_tensors_hooks(outer_pack, lambda x: x):
        y = checkpoint(lambda z: z.sin().exp() * z, a, use_reentrant=False)
        w = y * y                                 # outside the region: the outer hooks
    # inside the region the checkpoint's hooks (innermost) packed everything
    assert seen == ["Tensor", "Tensor"]
    w.sum().backward()
    x = a.detach().numpy()
    s = np.exp(np.sin(x)) * x
    np.testing.assert_allclose(a.grad.numpy(),
                               2 * s * (np.exp(np.sin(x)) * np.cos(x) * x + np.exp(np.sin(x))))


def test_recompute_runs_once_per_backward_pass():
    calls = [0]

    def f(z):
        calls[0] += 1
        return (z.sin() * z.cos() * z.exp()).sum()

    a = torch.tensor([0.5, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    y = checkpoint(f, a, use_reentrant=False)
    assert calls == [1]
    y.backward(retain_graph=True)
    assert calls == [2]
    torch.autograd.grad(y, a)
    assert calls == [3]


def test_selective_checkpointing_is_not_implemented():
    with pytest.raises(NotImplementedError, match="dispatch mode"):
        ckpt.create_selective_checkpoint_contexts([])
    assert ckpt.CheckpointPolicy.MUST_SAVE.value == 0


def test_checkpoint_in_a_training_loop():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Dropout(0.1),
                                torch.nn.Linear(16, 16), torch.nn.GELU(), torch.nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(32, 4)
    target = x.sum(1, keepdim=True)
    losses = []
    for _ in range(30):
        opt.zero_grad()
        loss = (checkpoint_sequential(model, 3, x, use_reentrant=False) - target).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] * 0.5


# ---- REF: captured from PyTorch 2.15 ----------------------------------------------------------

REF = {'autograd_grad_kwargs': ['ok',
                          [['T', [3],
                            [1.7185585260481446, 0.1996713590268465, 0.31916375795230983]]]],
 'backward_inputs': ['ok',
                     ['T', [3], [0.8592792630240723, 0.09983567951342324, 0.15958187897615492]]],
 'check_backward_validity': ['ok',
                             ['None of the inputs have requires_grad=True. Gradients will be '
                              'None']],
 'context_fn': ['ok',
                [['forward enter True', 'forward exit', 'forward done', 'recompute enter True',
                  'recompute exit'],
                 ['T', [3], [0.8592792630240723, 0.09983567951342324, 0.15958187897615492]]]],
 'decorator': ['ok',
               [['T', [2, 3],
                 [0.29463210548177615, 0.46000219820557187, 0.4626899207979794, 0.34823819710859577,
                  0.4088555998977624, 0.46411595341497314]],
                ['T', [2, 4],
                 [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                  0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                  0.005085364289252937, 0.004669256171894049]],
                ['T', [6, 4],
                 [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                  -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                  -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                  0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                  0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                  -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                  0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                  0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                ['T', [6],
                 [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                  0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                ['T', [6, 6],
                 [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                  0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0, 0.0,
                  0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568, 0.027769681030034302,
                  -0.002685792632409454, 0.00422361101963911, 0.018719444435520257, 0.0, 0.0, 0.0,
                  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0006160516860000818,
                  -0.0014248382321842478, -0.0009683860613878097, 0.0005430136015767044,
                  1.3322048567674216e-05, -0.0011506913610960195]],
                ['T', [6],
                 [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                  -0.0016580082011547759]],
                ['T', [3, 6],
                 [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                  0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                  0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0, 0.06616631607312057]],
                ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'default_reentrant': ['ok',
                       [['T', [2, 3],
                         [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                          0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                        ['T', [2, 4],
                         [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                          0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                          0.005085364289252937, 0.004669256171894049]],
                        ['T', [6, 4],
                         [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                          -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                          -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                          0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                          0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                          -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                          0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                          0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                        ['T', [6],
                         [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                          0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                        ['T', [6, 6],
                         [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                          0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                          0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                          0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                          0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                          0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                          -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                          -0.0011506913610960195]],
                        ['T', [6],
                         [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                          -0.0016580082011547759]],
                        ['T', [3, 6],
                         [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                          0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0,
                          0.0, 0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878,
                          0.0, 0.0, 0.06616631607312057]],
                        ['T', [3],
                         [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'detach_variable': ['ok', [[True, True], [False, True], 3]],
 'determinism_none': ['ok',
                      [['T', [2, 3],
                        [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                         0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                       ['T', [2, 4],
                        [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                         0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                         0.005085364289252937, 0.004669256171894049]],
                       ['T', [6, 4],
                        [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                         -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                         -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                         0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                         0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                         -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                         0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                         0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                       ['T', [6],
                        [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                         0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                       ['T', [6, 6],
                        [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                         0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                         0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                         0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                         0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                         0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                         -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                         -0.0011506913610960195]],
                       ['T', [6],
                        [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                         -0.0016580082011547759]],
                       ['T', [3, 6],
                        [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                         0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0,
                         0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878, 0.0,
                         0.0, 0.06616631607312057]],
                       ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'device_states': ['ok', [[], []]],
 'device_type': ['ok', 'cpu'],
 'double_backward_non_reentrant': ['ok',
                                   [['T', [3],
                                     [0.8592792630240723, 0.09983567951342324,
                                      0.15958187897615492]],
                                    ['T', [3],
                                     [0.05843554705556775, 0.2712629980645896,
                                      0.44830700817633756]]]],
 'dropout_rng_non_reentrant': ['ok', True],
 'dropout_rng_reentrant': ['ok', True],
 'err_context_suppresses': ['err', 'RuntimeError',
                            'torch.utils.checkpoint: the forward context provided by context_fn '
                            'suppressed an exception raised during the checkpointed forward. This '
                            'is not supported because checkpoint cannot return a value for a '
                            'failed forward.'],
 'err_debug_mode': ['err', 'CheckpointError',
                    ' An error happened while unpacking tensors; dumping logs of latest '
                    'computation'],
 'err_debug_with_context_fn': ['err', 'ValueError',
                               'debug=True is incompatible with non-default context_fn'],
 'err_decorator_kwargs': ['err', 'ValueError', 'Unexpected keyword arguments: foo'],
 'err_detach_variable_list': ['err', 'RuntimeError',
                              'Only tuple of tensors is supported. Got Unsupported input type: '
                              'list'],
 'err_determinism_check': ['err', 'ValueError',
                           "determinism_check should be one of ['default', 'none'], but got "
                           'strict'],
 'err_input_modified': ['err', 'RuntimeError',
                        'one of the variables needed for gradient computation has been modified by '
                        'an inplace operation: [torch.DoubleTensor [3]], which is output 0 of Mul, '
                        'is at version N; expected version M instead. Hint: enable anomaly '
                        'detection to find the operation that failed to compute its gradient, with '
                        'torch.autograd.set_detect_anomaly(True, check_nan=False).'],
 'err_recompute_dtype': ['err', 'CheckpointError',
                         'torch.utils.checkpoint: Recomputed values for the following tensors have '
                         'different metadata than during the forward pass.\n'
                         'tensor at position 1:\n'
                         "saved metadata: {'shape': torch.Size([3]), 'dtype': torch.float64, "
                         "'device': device(type='cpu')}\n"
                         "recomputed metadata: {'shape': torch.Size([3]), 'dtype': torch.float32, "
                         "'device': device(type='cpu')}\n"
                         '.\n'
                         '\n'
                         'Tip: To see a more detailed error message, either pass `debug=True` to\n'
                         '`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n'
                         'with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` '
                         'to\n'
                         'enable checkpoint‑debug mode globally.\n'],
 'err_recompute_fewer': ['err', 'CheckpointError',
                         'torch.utils.checkpoint: A different number of tensors was saved during '
                         'the original forward and recomputation.\n'
                         'Number of tensors saved during forward: 2\n'
                         'Number of tensors saved during recomputation: 1.\n'
                         '\n'
                         'Tip: To see a more detailed error message, either pass `debug=True` to\n'
                         '`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n'
                         'with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` '
                         'to\n'
                         'enable checkpoint‑debug mode globally.\n'],
 'err_recompute_more_no_early_stop': ['err', 'CheckpointError',
                                      'torch.utils.checkpoint: trying to save more tensors during '
                                      'recomputation than during the original forward pass.\n'
                                      '\n'
                                      'Tip: To see a more detailed error message, either pass '
                                      '`debug=True` to\n'
                                      '`torch.utils.checkpoint.checkpoint(...)` or wrap the code '
                                      'block\n'
                                      'with `with '
                                      'torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` '
                                      'to\n'
                                      'enable checkpoint‑debug mode globally.\n'],
 'err_recompute_shape': ['err', 'CheckpointError',
                         'torch.utils.checkpoint: Recomputed values for the following tensors have '
                         'different metadata than during the forward pass.\n'
                         'tensor at position 1:\n'
                         "saved metadata: {'shape': torch.Size([1, 3]), 'dtype': torch.float64, "
                         "'device': device(type='cpu')}\n"
                         "recomputed metadata: {'shape': torch.Size([2, 3]), 'dtype': "
                         "torch.float64, 'device': device(type='cpu')}\n"
                         '.\n'
                         '\n'
                         'Tip: To see a more detailed error message, either pass `debug=True` to\n'
                         '`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n'
                         'with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` '
                         'to\n'
                         'enable checkpoint‑debug mode globally.\n'],
 'err_reentrant_backward_inputs': ['err', 'RuntimeError',
                                   'When use_reentrant=True, torch.utils.checkpoint is '
                                   'incompatible with .grad() or passing an `inputs` parameter to '
                                   '.backward(). To resolve this error, you can either set '
                                   'use_reentrant=False, or call .backward() without passing the '
                                   '`inputs` argument.'],
 'err_reentrant_context_fn': ['err', 'ValueError',
                              'Passing `context_fn`, `debug`, or `respect_saved_tensors_hooks` is '
                              'only supported when use_reentrant=False.'],
 'err_reentrant_debug': ['err', 'ValueError',
                         'Passing `context_fn`, `debug`, or `respect_saved_tensors_hooks` is only '
                         'supported when use_reentrant=False.'],
 'err_reentrant_grad': ['err', 'RuntimeError',
                        'When use_reentrant=True, torch.utils.checkpoint is incompatible with '
                        '.grad() or passing an `inputs` parameter to .backward(). To resolve this '
                        'error, you can either set use_reentrant=False, or call .backward() '
                        'without passing the `inputs` argument.'],
 'err_reentrant_kwargs': ['err', 'ValueError', 'Unexpected keyword arguments: scale'],
 'err_reentrant_no_output_requires_grad': ['err', 'RuntimeError',
                                           'none of output has requires_grad=True, this '
                                           'checkpoint() is not necessary'],
 'err_sequential_kwargs': ['err', 'ValueError', 'Unexpected keyword arguments: foo'],
 'err_unpack_twice': ['err', 'CheckpointError',
                      'torch.utils.checkpoint: Unpack is being triggered for a tensor that was '
                      'already unpacked once. If you are calling ctx.saved_tensors in backward, '
                      'make sure to do so only once. Otherwise please open an issue with details '
                      'on your use case.'],
 'inputs_without_grad_non_reentrant': ['ok',
                                       [True, [],
                                        ['T', [2, 3],
                                         [-0.30000000000000004, 0.7, 0.8999999999999999,
                                          -0.30000000000000004, 0.7, 0.8999999999999999]]]],
 'inputs_without_grad_reentrant': ['ok',
                                   [False,
                                    ['None of the inputs have requires_grad=True. Gradients will '
                                     'be None'],
                                    None]],
 'nested_mixed_outer_non_reentrant': ['ok',
                                      [['T', [2, 3],
                                        [0.29463210548177615, 0.46000219820557187,
                                         0.4626899207979794, 0.34823819710859577,
                                         0.4088555998977624, 0.46411595341497314]],
                                       ['T', [2, 4],
                                        [-0.004662970840581871, -0.002226622375625926,
                                         0.0005110889823132284, 0.003179626844123089,
                                         0.0038895771384588537, 0.004813192206583767,
                                         0.005085364289252937, 0.004669256171894049]],
                                       ['T', [6, 4],
                                        [0.00546632964702946, 0.0011318116138554473,
                                         -0.003735015106359094, -0.006845205860832027,
                                         -0.002902186053966389, -0.004303891211278563,
                                         -0.003681409081771181, -0.0013275027375031319,
                                         0.007617192422775539, 0.0041891753812528425,
                                         -0.0012090762997440329, -0.00603868050463296,
                                         0.015187954028111132, 0.011397945680390554,
                                         0.0022473053813682636, -0.007960277753626743,
                                         0.01098244652942719, 0.00832551683784596,
                                         0.0017529664876366946, -0.005644031392565045,
                                         0.0037704143113974726, 0.0033907363650642766,
                                         0.0014163421245241628, -0.0012241799481358376]],
                                       ['T', [6],
                                        [0.03290758363900295, 0.015855161722861274,
                                         0.02234797326689481, 0.017153909127362955,
                                         0.011651332109809275, -0.0007922062235662525]],
                                       ['T', [6, 6],
                                        [0.020770586751117998, 0.02068869217996803,
                                         0.0397832672270174, 0.013439406896092743,
                                         0.012229562114930346, 0.0076628316071446455, 0.0, 0.0, 0.0,
                                         0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                                         0.027769681030034302, -0.002685792632409454,
                                         0.00422361101963911, 0.018719444435520257, 0.0, 0.0, 0.0,
                                         0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                         -0.0006160516860000818, -0.0014248382321842478,
                                         -0.0009683860613878097, 0.0005430136015767044,
                                         1.3322048567674216e-05, -0.0011506913610960195]],
                                       ['T', [6],
                                        [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                                         -0.0016580082011547759]],
                                       ['T', [3, 6],
                                        [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                                         0.0352214894022123, 0.1448364361488274, 0.0,
                                         0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                                         0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                                         0.06616631607312057]],
                                       ['T', [3],
                                        [0.28054136343980696, 0.4261640801860306,
                                         0.46091951793968383]]]],
 'nested_mixed_outer_reentrant': ['ok',
                                  [['T', [2, 3],
                                    [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                                     0.34823819710859577, 0.4088555998977624,
                                     0.46411595341497314]],
                                   ['T', [2, 4],
                                    [-0.004662970840581871, -0.002226622375625926,
                                     0.0005110889823132284, 0.003179626844123089,
                                     0.0038895771384588537, 0.004813192206583767,
                                     0.005085364289252937, 0.004669256171894049]],
                                   ['T', [6, 4],
                                    [0.00546632964702946, 0.0011318116138554473,
                                     -0.003735015106359094, -0.006845205860832027,
                                     -0.002902186053966389, -0.004303891211278563,
                                     -0.003681409081771181, -0.0013275027375031319,
                                     0.007617192422775539, 0.0041891753812528425,
                                     -0.0012090762997440329, -0.00603868050463296,
                                     0.015187954028111132, 0.011397945680390554,
                                     0.0022473053813682636, -0.007960277753626743,
                                     0.01098244652942719, 0.00832551683784596,
                                     0.0017529664876366946, -0.005644031392565045,
                                     0.0037704143113974726, 0.0033907363650642766,
                                     0.0014163421245241628, -0.0012241799481358376]],
                                   ['T', [6],
                                    [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                                     0.017153909127362955, 0.011651332109809275,
                                     -0.0007922062235662525]],
                                   ['T', [6, 6],
                                    [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                                     0.013439406896092743, 0.012229562114930346,
                                     0.0076628316071446455, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                     0.016030227921713956, 0.02721657840177568,
                                     0.027769681030034302, -0.002685792632409454,
                                     0.00422361101963911, 0.018719444435520257, 0.0, 0.0, 0.0, 0.0,
                                     0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0006160516860000818,
                                     -0.0014248382321842478, -0.0009683860613878097,
                                     0.0005430136015767044, 1.3322048567674216e-05,
                                     -0.0011506913610960195]],
                                   ['T', [6],
                                    [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                                     -0.0016580082011547759]],
                                   ['T', [3, 6],
                                    [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                                     0.0352214894022123, 0.1448364361488274, 0.0,
                                     0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                                     0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                                     0.06616631607312057]],
                                   ['T', [3],
                                    [0.28054136343980696, 0.4261640801860306,
                                     0.46091951793968383]]]],
 'nested_non_reentrant': ['ok',
                          [['T', [2, 3],
                            [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                             0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                           ['T', [2, 4],
                            [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                             0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                             0.005085364289252937, 0.004669256171894049]],
                           ['T', [6, 4],
                            [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                             -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                             -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                             0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                             0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                             -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                             0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                             0.0033907363650642766, 0.0014163421245241628,
                             -0.0012241799481358376]],
                           ['T', [6],
                            [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                             0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                           ['T', [6, 6],
                            [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                             0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                             0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                             0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                             0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                             0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                             -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                             -0.0011506913610960195]],
                           ['T', [6],
                            [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                             -0.0016580082011547759]],
                           ['T', [3, 6],
                            [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                             0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0,
                             0.0, 0.06572698271317771, 0.15355753223993313, 0.0,
                             0.10514771476256878, 0.0, 0.0, 0.06616631607312057]],
                           ['T', [3],
                            [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'nested_reentrant': ['ok',
                      [['T', [2, 3],
                        [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                         0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                       ['T', [2, 4],
                        [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                         0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                         0.005085364289252937, 0.004669256171894049]],
                       ['T', [6, 4],
                        [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                         -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                         -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                         0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                         0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                         -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                         0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                         0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                       ['T', [6],
                        [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                         0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                       ['T', [6, 6],
                        [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                         0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                         0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                         0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                         0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                         0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                         -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                         -0.0011506913610960195]],
                       ['T', [6],
                        [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                         -0.0016580082011547759]],
                       ['T', [3, 6],
                        [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                         0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0,
                         0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878, 0.0,
                         0.0, 0.06616631607312057]],
                       ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'no_early_stop': ['ok',
                   [['T', [2, 3],
                     [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                      0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                    ['T', [2, 4],
                     [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                      0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                      0.005085364289252937, 0.004669256171894049]],
                    ['T', [6, 4],
                     [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                      -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                      -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                      0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                      0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                      -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                      0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                      0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                    ['T', [6],
                     [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                      0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                    ['T', [6, 6],
                     [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                      0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0,
                      0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                      0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                      0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                      0.0, -0.0006160516860000818, -0.0014248382321842478, -0.0009683860613878097,
                      0.0005430136015767044, 1.3322048567674216e-05, -0.0011506913610960195]],
                    ['T', [6],
                     [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                      -0.0016580082011547759]],
                    ['T', [3, 6],
                     [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                      0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                      0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                      0.06616631607312057]],
                    ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'no_grad_non_reentrant': ['ok',
                           [False,
                            ['T', [3],
                             [1.3987764315597777, 0.6887922107366551, 0.2556499532716853]]]],
 'no_grad_reentrant': ['ok',
                       [False,
                        ['T', [3], [1.3987764315597777, 0.6887922107366551, 0.2556499532716853]]]],
 'no_rng_non_reentrant': ['ok',
                          [['T', [2, 3],
                            [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                             0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                           ['T', [2, 4],
                            [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                             0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                             0.005085364289252937, 0.004669256171894049]],
                           ['T', [6, 4],
                            [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                             -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                             -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                             0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                             0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                             -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                             0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                             0.0033907363650642766, 0.0014163421245241628,
                             -0.0012241799481358376]],
                           ['T', [6],
                            [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                             0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                           ['T', [6, 6],
                            [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                             0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                             0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                             0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                             0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                             0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                             -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                             -0.0011506913610960195]],
                           ['T', [6],
                            [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                             -0.0016580082011547759]],
                           ['T', [3, 6],
                            [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                             0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0,
                             0.0, 0.06572698271317771, 0.15355753223993313, 0.0,
                             0.10514771476256878, 0.0, 0.0, 0.06616631607312057]],
                           ['T', [3],
                            [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'no_rng_reentrant': ['ok',
                      [['T', [2, 3],
                        [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                         0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                       ['T', [2, 4],
                        [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                         0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                         0.005085364289252937, 0.004669256171894049]],
                       ['T', [6, 4],
                        [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                         -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                         -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                         0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                         0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                         -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                         0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                         0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                       ['T', [6],
                        [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                         0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                       ['T', [6, 6],
                        [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                         0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                         0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                         0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                         0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                         0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                         -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                         -0.0011506913610960195]],
                       ['T', [6],
                        [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                         -0.0016580082011547759]],
                       ['T', [3, 6],
                        [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                         0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0,
                         0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878, 0.0,
                         0.0, 0.06616631607312057]],
                       ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'non_reentrant': ['ok',
                   [['T', [2, 3],
                     [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                      0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                    ['T', [2, 4],
                     [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                      0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                      0.005085364289252937, 0.004669256171894049]],
                    ['T', [6, 4],
                     [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                      -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                      -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                      0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                      0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                      -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                      0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                      0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                    ['T', [6],
                     [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                      0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                    ['T', [6, 6],
                     [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                      0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0,
                      0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                      0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                      0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                      0.0, -0.0006160516860000818, -0.0014248382321842478, -0.0009683860613878097,
                      0.0005430136015767044, 1.3322048567674216e-05, -0.0011506913610960195]],
                    ['T', [6],
                     [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                      -0.0016580082011547759]],
                    ['T', [3, 6],
                     [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                      0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                      0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                      0.06616631607312057]],
                    ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'noop_context_fn': ['ok', ['nullcontext', 'nullcontext']],
 'plain': ['ok',
           [['T', [2, 3],
             [0.29463210548177615, 0.46000219820557187, 0.4626899207979794, 0.34823819710859577,
              0.4088555998977624, 0.46411595341497314]],
            ['T', [2, 4],
             [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
              0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
              0.005085364289252937, 0.004669256171894049]],
            ['T', [6, 4],
             [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
              -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
              -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
              0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
              0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
              -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
              0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
              0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
            ['T', [6],
             [0.03290758363900295, 0.015855161722861274, 0.02234797326689481, 0.017153909127362955,
              0.011651332109809275, -0.0007922062235662525]],
            ['T', [6, 6],
             [0.020770586751117998, 0.02068869217996803, 0.0397832672270174, 0.013439406896092743,
              0.012229562114930346, 0.0076628316071446455, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
              0.016030227921713956, 0.02721657840177568, 0.027769681030034302,
              -0.002685792632409454, 0.00422361101963911, 0.018719444435520257, 0.0, 0.0, 0.0, 0.0,
              0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0006160516860000818,
              -0.0014248382321842478, -0.0009683860613878097, 0.0005430136015767044,
              1.3322048567674216e-05, -0.0011506913610960195]],
            ['T', [6],
             [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0, -0.0016580082011547759]],
            ['T', [3, 6],
             [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
              0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
              0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0, 0.06616631607312057]],
            ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'recompute_fewer_unchecked': ['err', 'CheckpointError',
                               'torch.utils.checkpoint: A different number of tensors was saved '
                               'during the original forward and recomputation.\n'
                               'Number of tensors saved during forward: 2\n'
                               'Number of tensors saved during recomputation: 1.\n'
                               '\n'
                               'Tip: To see a more detailed error message, either pass '
                               '`debug=True` to\n'
                               '`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n'
                               'with `with '
                               'torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n'
                               'enable checkpoint‑debug mode globally.\n'],
 'recompute_more_early_stop': ['ok', 2],
 'reentrant': ['ok',
               [['T', [2, 3],
                 [0.29463210548177615, 0.46000219820557187, 0.4626899207979794, 0.34823819710859577,
                  0.4088555998977624, 0.46411595341497314]],
                ['T', [2, 4],
                 [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                  0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                  0.005085364289252937, 0.004669256171894049]],
                ['T', [6, 4],
                 [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                  -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                  -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                  0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                  0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                  -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                  0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                  0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                ['T', [6],
                 [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                  0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                ['T', [6, 6],
                 [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                  0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0, 0.0,
                  0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568, 0.027769681030034302,
                  -0.002685792632409454, 0.00422361101963911, 0.018719444435520257, 0.0, 0.0, 0.0,
                  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0006160516860000818,
                  -0.0014248382321842478, -0.0009683860613878097, 0.0005430136015767044,
                  1.3322048567674216e-05, -0.0011506913610960195]],
                ['T', [6],
                 [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                  -0.0016580082011547759]],
                ['T', [3, 6],
                 [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                  0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                  0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0, 0.06616631607312057]],
                ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'retain_graph_twice_non_reentrant': ['ok',
                                      ['T', [3],
                                       [1.7185585260481446, 0.1996713590268465,
                                        0.31916375795230983]]],
 'retain_graph_twice_reentrant': ['ok',
                                  ['T', [3],
                                   [1.7185585260481446, 0.1996713590268465, 0.31916375795230983]]],
 'sequential_1_nonre': ['ok',
                        [['T', [2, 3],
                          [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                           0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                         ['T', [2, 4],
                          [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                           0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                           0.005085364289252937, 0.004669256171894049]],
                         ['T', [6, 4],
                          [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                           -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                           -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                           0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                           0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                           -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                           0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                           0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                         ['T', [6],
                          [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                           0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                         ['T', [6, 6],
                          [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                           0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                           0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                           0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                           0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                           0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                           -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                           -0.0011506913610960195]],
                         ['T', [6],
                          [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                           -0.0016580082011547759]],
                         ['T', [3, 6],
                          [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                           0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0,
                           0.0, 0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878,
                           0.0, 0.0, 0.06616631607312057]],
                         ['T', [3],
                          [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_1_re': ['ok',
                     [['T', [2, 3],
                       [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                        0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                      ['T', [2, 4],
                       [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                        0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                        0.005085364289252937, 0.004669256171894049]],
                      ['T', [6, 4],
                       [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                        -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                        -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                        0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                        0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                        -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                        0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                        0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                      ['T', [6],
                       [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                        0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                      ['T', [6, 6],
                       [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                        0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0,
                        0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                        0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                        0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                        0.0, -0.0006160516860000818, -0.0014248382321842478, -0.0009683860613878097,
                        0.0005430136015767044, 1.3322048567674216e-05, -0.0011506913610960195]],
                      ['T', [6],
                       [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                        -0.0016580082011547759]],
                      ['T', [3, 6],
                       [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                        0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                        0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                        0.06616631607312057]],
                      ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_2_nonre': ['ok',
                        [['T', [2, 3],
                          [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                           0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                         ['T', [2, 4],
                          [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                           0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                           0.005085364289252937, 0.004669256171894049]],
                         ['T', [6, 4],
                          [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                           -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                           -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                           0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                           0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                           -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                           0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                           0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                         ['T', [6],
                          [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                           0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                         ['T', [6, 6],
                          [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                           0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                           0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                           0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                           0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                           0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                           -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                           -0.0011506913610960195]],
                         ['T', [6],
                          [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                           -0.0016580082011547759]],
                         ['T', [3, 6],
                          [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                           0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0,
                           0.0, 0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878,
                           0.0, 0.0, 0.06616631607312057]],
                         ['T', [3],
                          [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_2_re': ['ok',
                     [['T', [2, 3],
                       [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                        0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                      ['T', [2, 4],
                       [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                        0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                        0.005085364289252937, 0.004669256171894049]],
                      ['T', [6, 4],
                       [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                        -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                        -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                        0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                        0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                        -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                        0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                        0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                      ['T', [6],
                       [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                        0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                      ['T', [6, 6],
                       [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                        0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0,
                        0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                        0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                        0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                        0.0, -0.0006160516860000818, -0.0014248382321842478, -0.0009683860613878097,
                        0.0005430136015767044, 1.3322048567674216e-05, -0.0011506913610960195]],
                      ['T', [6],
                       [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                        -0.0016580082011547759]],
                      ['T', [3, 6],
                       [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                        0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                        0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                        0.06616631607312057]],
                      ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_3_nonre': ['ok',
                        [['T', [2, 3],
                          [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                           0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                         ['T', [2, 4],
                          [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                           0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                           0.005085364289252937, 0.004669256171894049]],
                         ['T', [6, 4],
                          [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                           -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                           -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                           0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                           0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                           -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                           0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                           0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                         ['T', [6],
                          [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                           0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                         ['T', [6, 6],
                          [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                           0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                           0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                           0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                           0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                           0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                           -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                           -0.0011506913610960195]],
                         ['T', [6],
                          [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                           -0.0016580082011547759]],
                         ['T', [3, 6],
                          [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                           0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0,
                           0.0, 0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878,
                           0.0, 0.0, 0.06616631607312057]],
                         ['T', [3],
                          [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_3_re': ['ok',
                     [['T', [2, 3],
                       [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                        0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                      ['T', [2, 4],
                       [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                        0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                        0.005085364289252937, 0.004669256171894049]],
                      ['T', [6, 4],
                       [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                        -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                        -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                        0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                        0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                        -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                        0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                        0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                      ['T', [6],
                       [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                        0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                      ['T', [6, 6],
                       [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                        0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0,
                        0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                        0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                        0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                        0.0, -0.0006160516860000818, -0.0014248382321842478, -0.0009683860613878097,
                        0.0005430136015767044, 1.3322048567674216e-05, -0.0011506913610960195]],
                      ['T', [6],
                       [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                        -0.0016580082011547759]],
                      ['T', [3, 6],
                       [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                        0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                        0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                        0.06616631607312057]],
                      ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_6_nonre': ['ok',
                        [['T', [2, 3],
                          [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                           0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                         ['T', [2, 4],
                          [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                           0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                           0.005085364289252937, 0.004669256171894049]],
                         ['T', [6, 4],
                          [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                           -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                           -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                           0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                           0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                           -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                           0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                           0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                         ['T', [6],
                          [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                           0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                         ['T', [6, 6],
                          [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                           0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                           0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                           0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                           0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                           0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                           -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                           -0.0011506913610960195]],
                         ['T', [6],
                          [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                           -0.0016580082011547759]],
                         ['T', [3, 6],
                          [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                           0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0,
                           0.0, 0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878,
                           0.0, 0.0, 0.06616631607312057]],
                         ['T', [3],
                          [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_6_re': ['ok',
                     [['T', [2, 3],
                       [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                        0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                      ['T', [2, 4],
                       [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                        0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                        0.005085364289252937, 0.004669256171894049]],
                      ['T', [6, 4],
                       [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                        -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                        -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                        0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                        0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                        -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                        0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                        0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                      ['T', [6],
                       [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                        0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                      ['T', [6, 6],
                       [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                        0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0,
                        0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                        0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                        0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                        0.0, -0.0006160516860000818, -0.0014248382321842478, -0.0009683860613878097,
                        0.0005430136015767044, 1.3322048567674216e-05, -0.0011506913610960195]],
                      ['T', [6],
                       [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                        -0.0016580082011547759]],
                      ['T', [3, 6],
                       [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                        0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                        0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                        0.06616631607312057]],
                      ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_list': ['ok',
                     [['T', [2, 3],
                       [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                        0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                      ['T', [2, 4],
                       [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                        0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                        0.005085364289252937, 0.004669256171894049]],
                      ['T', [6, 4],
                       [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                        -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                        -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                        0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                        0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                        -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                        0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                        0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                      ['T', [6],
                       [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                        0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                      ['T', [6, 6],
                       [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                        0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0, 0.0,
                        0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                        0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                        0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                        0.0, -0.0006160516860000818, -0.0014248382321842478, -0.0009683860613878097,
                        0.0005430136015767044, 1.3322048567674216e-05, -0.0011506913610960195]],
                      ['T', [6],
                       [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                        -0.0016580082011547759]],
                      ['T', [3, 6],
                       [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0, 0.0352214894022123,
                        0.1448364361488274, 0.0, 0.10093745623133263, 0.0, 0.0, 0.06572698271317771,
                        0.15355753223993313, 0.0, 0.10514771476256878, 0.0, 0.0,
                        0.06616631607312057]],
                      ['T', [3], [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'sequential_no_rng': ['ok',
                       [['T', [2, 3],
                         [0.29463210548177615, 0.46000219820557187, 0.4626899207979794,
                          0.34823819710859577, 0.4088555998977624, 0.46411595341497314]],
                        ['T', [2, 4],
                         [-0.004662970840581871, -0.002226622375625926, 0.0005110889823132284,
                          0.003179626844123089, 0.0038895771384588537, 0.004813192206583767,
                          0.005085364289252937, 0.004669256171894049]],
                        ['T', [6, 4],
                         [0.00546632964702946, 0.0011318116138554473, -0.003735015106359094,
                          -0.006845205860832027, -0.002902186053966389, -0.004303891211278563,
                          -0.003681409081771181, -0.0013275027375031319, 0.007617192422775539,
                          0.0041891753812528425, -0.0012090762997440329, -0.00603868050463296,
                          0.015187954028111132, 0.011397945680390554, 0.0022473053813682636,
                          -0.007960277753626743, 0.01098244652942719, 0.00832551683784596,
                          0.0017529664876366946, -0.005644031392565045, 0.0037704143113974726,
                          0.0033907363650642766, 0.0014163421245241628, -0.0012241799481358376]],
                        ['T', [6],
                         [0.03290758363900295, 0.015855161722861274, 0.02234797326689481,
                          0.017153909127362955, 0.011651332109809275, -0.0007922062235662525]],
                        ['T', [6, 6],
                         [0.020770586751117998, 0.02068869217996803, 0.0397832672270174,
                          0.013439406896092743, 0.012229562114930346, 0.0076628316071446455, 0.0,
                          0.0, 0.0, 0.0, 0.0, 0.0, 0.016030227921713956, 0.02721657840177568,
                          0.027769681030034302, -0.002685792632409454, 0.00422361101963911,
                          0.018719444435520257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                          0.0, 0.0, -0.0006160516860000818, -0.0014248382321842478,
                          -0.0009683860613878097, 0.0005430136015767044, 1.3322048567674216e-05,
                          -0.0011506913610960195]],
                        ['T', [6],
                         [0.07239549055168885, 0.0, 0.049088669857344926, 0.0, 0.0,
                          -0.0016580082011547759]],
                        ['T', [3, 6],
                         [0.09029109097326751, 0.0, 0.05987088061633927, 0.0, 0.0,
                          0.0352214894022123, 0.1448364361488274, 0.0, 0.10093745623133263, 0.0,
                          0.0, 0.06572698271317771, 0.15355753223993313, 0.0, 0.10514771476256878,
                          0.0, 0.0, 0.06616631607312057]],
                        ['T', [3],
                         [0.28054136343980696, 0.4261640801860306, 0.46091951793968383]]]],
 'tuple_outputs_non_reentrant': ['ok',
                                 ['tuple', 5, None,
                                  ['T', [3],
                                   [3.648721270700128, 2.301194211912202, 9.38905609893065]]]],
 'tuple_outputs_reentrant': ['ok',
                             ['tuple', 5, None,
                              ['T', [3],
                               [3.648721270700128, 2.301194211912202, 9.38905609893065]]]],
 'warn_sequential_use_reentrant': ['ok',
                                   ['torch.utils.checkpoint.checkpoint_sequential: the '
                                    'use_reentrant parameter should be passed explicitly. In a '
                                    'future release, we will raise an exception if use_reentrant '
                                    'is not passed. use_reentrant=False is recommended, but if you '
                                    'need to preserve the current default behavior, you can pass '
                                    'use_reentrant=True. Refer to docs for more details on the '
                                    'differences between the two variants.']],
 'warn_use_reentrant': ['ok',
                        ['torch.utils.checkpoint: the use_reentrant parameter should be passed '
                         'explicitly. In a future release, calling checkpoint without '
                         'use_reentrant will raise an exception. use_reentrant=False is '
                         'recommended, but if you need to preserve the current default behavior, '
                         'you can pass use_reentrant=True. Refer to docs for more details on the '
                         'differences between the two variants.']]}


def test_graph_exec_group_shares_the_recomputation():
    # torch 2.15: under one GraphExecGroup two disjoint backward calls rerun the region once
    # (else once each: 3 calls of fn in all); overlapping calls raise CheckpointError; groups
    # do not nest
    from minitorch.utils.checkpoint import CheckpointError, GraphExecGroup, checkpoint

    def run(grouped):
        counter = [0]

        def fn(x):
            counter[0] += 1
            y = x.sin().cos()
            return y, y.sin().cos()

        x = torch.randn(3, 3, requires_grad=True)
        y, z = checkpoint(fn, x, use_reentrant=False)
        group = GraphExecGroup()
        with (group if grouped else contextlib.nullcontext()):
            (gy,) = torch.autograd.grad(z, inputs=(y,), grad_outputs=(torch.ones(3, 3),))
            (gx,) = torch.autograd.grad(y, inputs=(x,), grad_outputs=(gy,))
        return counter[0]

    assert run(True) == 2
    assert run(False) == 3
    x = torch.randn(3, 3, requires_grad=True)
    out = checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)
    with GraphExecGroup():
        out.sum().backward(retain_graph=True)
        with pytest.raises(CheckpointError, match="Performing two backward calls that overlap"):
            out.sum().backward()
        with pytest.raises(RuntimeError, match="GraphExecGroup contexts cannot be nested"):
            with GraphExecGroup():
                pass
