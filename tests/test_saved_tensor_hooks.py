"""Saved-tensor hooks (autograd.graph.saved_tensors_hooks, save_on_cpu,
disable_saved_tensors_hooks): which tensors the nodes of common ops and of autograd.Function
pack and when, what the backward gets from unpack, the errors, nesting, and gradients under the
hooks; against what PyTorch 2.15 does for the same programs (REF, at the end of this file)."""
import threading

import numpy as np
import pytest

import minitorch as torch
from minitorch import _C
from minitorch.autograd.graph import (disable_saved_tensors_hooks, save_on_cpu,
                                      saved_tensors_hooks)


def _cases(t):
    """name -> a program returning what it observed (the same programs run in torch for REF)."""
    G = t.autograd.graph
    d = t.float64

    def a_():
        return t.tensor([0.5, -1.2, 2.0], dtype=d, requires_grad=True)

    def b_():
        return t.tensor([0.7, 0.4, -1.5], dtype=d)

    def logged(fn):
        """Runs fn(a, b) under logging hooks, then backward: (packs, unpacks, a.grad)."""
        def run():
            log = []

            def pack(x):
                log.append(["pack", list(x.shape), x.requires_grad, x.grad_fn is not None,
                            t.is_grad_enabled()])
                return x.detach()

            def unpack(x):
                log.append(["unpack", list(x.shape), t.is_grad_enabled()])
                return x
            a, b = a_(), b_()
            with G.saved_tensors_hooks(pack, unpack):
                y = fn(a, b)
            n = len(log)
            y.sum().backward()
            return log[:n], log[n:], a.grad
        return run

    ops = {
        "mul_self": lambda a, b: a * a, "mul_const": lambda a, b: a * b,
        "sin": lambda a, b: a.sin(), "exp": lambda a, b: a.exp(), "add": lambda a, b: a + b,
        "sum": lambda a, b: a.sum(), "pow": lambda a, b: a.pow(2), "dot": lambda a, b: a @ a,
        "relu": lambda a, b: a.relu(), "sigmoid": lambda a, b: a.sigmoid(),
        "tanh": lambda a, b: a.tanh(), "mean": lambda a, b: a.mean(),
        "view": lambda a, b: a.view(3, 1), "chain": lambda a, b: a.cos() * 2,
        "div_const": lambda a, b: a / b, "log_abs": lambda a, b: a.abs().log(),
        "sqrt_abs": lambda a, b: a.abs().sqrt(), "matmul": lambda a, b: a.view(3, 1) @ b.view(1, 3),
        "neg": lambda a, b: -a, "square": lambda a, b: a.square(),
    }
    cases = {f"pack_{k}": logged(fn) for k, fn in ops.items()}

    def function_saves():
        log = []

        class Saver(t.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                out = x * y
                ctx.save_for_backward(x, y, None, out)
                log.append("after save_for_backward")
                return out

            @staticmethod
            def backward(ctx, g):
                x, y, none, out = ctx.saved_tensors
                log.append(["none saved", none is None, "out requires grad", out.requires_grad,
                            "x requires grad", x.requires_grad])
                ctx.saved_tensors
                return g * y, None

        def pack(x):
            log.append(["pack", list(x.shape), x.requires_grad,
                        type(x.grad_fn).__name__ if x.grad_fn is not None else None])
            return x.detach()

        def unpack(x):
            log.append("unpack")
            return x
        a, b = a_(), b_()
        with G.saved_tensors_hooks(pack, unpack):
            y = Saver.apply(a, b)
        log.append("forward done")
        y.sum().backward()
        return log, a.grad
    cases["function_save_for_backward"] = function_saves

    def unpack_value(fn):
        def run():
            a = a_()
            with G.saved_tensors_hooks(lambda x: x.detach(), lambda x: x * 0 + 1):
                y = fn(a)
            y.sum().backward()
            return a.grad
        return run
    cases["unpack_value_mul_self"] = unpack_value(lambda a: a * a)
    cases["unpack_value_sin"] = unpack_value(lambda a: a.sin())
    cases["unpack_value_exp"] = unpack_value(lambda a: a.exp())

    def unpack_not_tensor():
        a = a_()
        with G.saved_tensors_hooks(lambda x: x, lambda x: 1):
            y = a.sin()
        y.sum().backward()
    cases["err_unpack_not_tensor"] = unpack_not_tensor

    def pack_in_place():
        a = a_()
        with G.saved_tensors_hooks(lambda x: x.mul_(2), lambda x: x):
            (a * 1).sin()
    cases["err_pack_in_place"] = pack_in_place

    def disabled_push():
        with G.disable_saved_tensors_hooks("my message"):
            with G.save_on_cpu():
                pass
    cases["err_disabled_push"] = disabled_push

    def disabled_nested():
        with G.disable_saved_tensors_hooks("outer"):
            with G.disable_saved_tensors_hooks("inner"):
                with G.saved_tensors_hooks(lambda x: x, lambda x: x):
                    pass
    cases["err_disabled_nested_inner"] = disabled_nested

    def disabled_restored():
        with G.disable_saved_tensors_hooks("outer"):
            with G.disable_saved_tensors_hooks("inner"):
                pass
            with G.saved_tensors_hooks(lambda x: x, lambda x: x):
                pass
    cases["err_disabled_restored_outer"] = disabled_restored

    def disable_while_active():
        with G.saved_tensors_hooks(lambda x: x, lambda x: x):
            with G.disable_saved_tensors_hooks("while active"):
                pass
    cases["err_disable_while_active"] = disable_while_active

    def enabled_after_disable():
        with G.disable_saved_tensors_hooks("x"):
            pass
        a = a_()
        with G.saved_tensors_hooks(lambda x: x.detach(), lambda x: x):
            y = a.sin()
        y.sum().backward()
        return a.grad
    cases["enabled_after_disable"] = enabled_after_disable

    def nested():
        log = []
        a = a_()
        with G.saved_tensors_hooks(lambda x: ("outer", x.detach()), lambda p: p[1]):
            with G.saved_tensors_hooks(lambda x: ("inner", x.detach()),
                                       lambda p: (log.append(p[0]), p[1])[1]):
                y = a.sin()
            z = a.exp()
        (y + z).sum().backward()
        return log, a.grad
    cases["nested_innermost"] = nested

    def no_version_check(hook):
        def run():
            a = a_()
            with G.saved_tensors_hooks(hook, lambda x: x):
                b = a * 1
                y = b.sin()
            with t.no_grad():
                b.add_(1)
            y.sum().backward()
            return a.grad
        return run
    cases["no_version_check_identity"] = no_version_check(lambda x: x)
    cases["no_version_check_clone"] = no_version_check(lambda x: x.clone())

    def retain_graph():
        log = []
        a = a_()
        with G.saved_tensors_hooks(lambda x: x.detach(), lambda x: (log.append(1), x)[1]):
            y = a.sin().sum()
        y.backward(retain_graph=True)
        y.backward()
        n = len(log)
        y.backward()
        return n
    cases["retain_graph_then_freed"] = retain_graph

    def retain_graph_count():
        log = []
        a = a_()
        with G.saved_tensors_hooks(lambda x: x.detach(), lambda x: (log.append(1), x)[1]):
            y = a.sin().sum()
        y.backward(retain_graph=True)
        y.backward()
        return len(log), a.grad
    cases["retain_graph_unpacks"] = retain_graph_count

    def non_tensor_pack():
        a = a_()
        keep = a.detach() * 1
        with G.saved_tensors_hooks(lambda x: 42, lambda p: keep * (p / 42)):
            y = a.sin()
        y.sum().backward()
        return a.grad
    cases["pack_to_non_tensor"] = non_tensor_pack

    def fill(m, scale):
        with t.no_grad():
            for k, p in enumerate(m.parameters()):
                n = p.numel()
                p.copy_((t.arange(n, dtype=d) * 0.37 + k).sin().reshape(p.shape) * scale)

    def modules(ctx_fn):
        def run():
            lin, conv = t.nn.Linear(4, 3).double(), t.nn.Conv2d(2, 3, 3).double()
            fill(lin, 0.5)
            fill(conv, 0.3)
            x = (t.arange(8, dtype=d) * 0.3).cos().reshape(2, 4).requires_grad_()
            xi = (t.arange(50, dtype=d) * 0.2).sin().reshape(1, 2, 5, 5).requires_grad_()
            with ctx_fn():
                out = lin(x).relu().sum() + conv(xi).tanh().sum() + \
                    t.nn.functional.log_softmax(lin(x), 1).sum()
            out.backward()
            return [out.detach(), x.grad, xi.grad] + [p.grad for p in lin.parameters()] + \
                [p.grad for p in conv.parameters()]
        return run
    cases["modules_save_on_cpu"] = modules(lambda: G.save_on_cpu())
    cases["modules_save_on_cpu_pinned"] = modules(lambda: G.save_on_cpu(pin_memory=True))
    cases["modules_identity_hooks"] = modules(
        lambda: G.saved_tensors_hooks(lambda x: x.detach(), lambda x: x))

    def double_backward():
        a = a_()
        with G.save_on_cpu():
            y = (a.sin() * a.exp()).sum() + (a * a * a).sum()
        g, = t.autograd.grad(y, a, create_graph=True)
        gg, = t.autograd.grad(g.sum(), a)
        return g, gg
    cases["double_backward"] = double_backward

    def in_place():
        a = a_()
        with G.saved_tensors_hooks(lambda x: x.detach(), lambda x: x):
            c = a * 2
            c.mul_(a)
            c[1:3].exp_()
            y = c.sum()
        y.backward()
        return a.grad
    cases["in_place_ops"] = in_place

    def unpack_grad_mode():
        log = []
        a = a_()
        with G.saved_tensors_hooks(lambda x: x.detach(),
                                   lambda x: (log.append(t.is_grad_enabled()), x)[1]):
            y = a.sin().sum()
        g, = t.autograd.grad(y, a, create_graph=True)
        return log, g
    cases["unpack_grad_mode_create_graph"] = unpack_grad_mode
    return cases


def _encode(r):
    if r is None or isinstance(r, (bool, int, float, str)):
        return r
    if isinstance(r, (tuple, list)):
        return [_encode(e) for e in r]
    if hasattr(r, "shape") and hasattr(r, "dtype"):
        return ["T", list(r.shape), [float(v) for v in r.detach().reshape(-1).tolist()]]
    return ["other", type(r).__name__]


def _run(thunk):
    try:
        return ["ok", _encode(thunk())]
    except Exception as e:  # noqa: BLE001 - every exception is part of the spec
        return ["err", type(e).__name__, str(e).replace("minitorch.", "torch.")]


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


# ---- minitorch's own: routing to the Python recorder, threads, more ops ----------------------

def test_ops_recorded_in_c_go_through_the_hooks():
    a = torch.tensor([0.5, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    y = a.sin()
    assert y.grad_fn._cformula == "sin"        # recorded in C (Note [Declared nodes])
    packed = []
    with saved_tensors_hooks(lambda x: (packed.append(x), x.detach())[1], lambda x: x):
        assert _C._set_python_recording(True) is True   # (the flag is on inside)
        y = a.sin()
    assert _C._set_python_recording(False) is False      # and off again after the block
    assert len(packed) == 1 and packed[0] is a
    assert y.grad_fn._cformula is None         # recorded by the Python recorder
    y.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.cos(a.detach().numpy()))


def test_hooks_are_per_thread():
    a = torch.tensor([0.5, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    packed, other = [], []
    started, release = threading.Event(), threading.Event()

    def worker():
        started.wait()
        other.append(a.exp())                  # while the main thread's hooks are pushed
        release.set()

    th = threading.Thread(target=worker)
    th.start()
    with saved_tensors_hooks(lambda x: (packed.append(1), x.detach())[1], lambda x: x):
        started.set()
        release.wait()
        a.cos()
    th.join()
    assert packed == [1]
    assert other[0].grad_fn._cformula == "exp"  # the other thread recorded in C as usual


@pytest.mark.parametrize("fn", [
    lambda a, b: (a @ b.T).softmax(1).sum(0),
    lambda a, b: torch.cat([a, b], 1).cumsum(1).max(1)[0],
    lambda a, b: (a[:, 1:] * b[:, :2]).pow(3).logsumexp(1),
    lambda a, b: torch.where(a > 0, a, b).norm(dim=1),
    lambda a, b: a.unbind(1)[0] * b.sort(1)[0][:, 0],
    lambda a, b: torch.nn.functional.gelu(a).mean(1) + b.std(1),
    lambda a, b: a.expand(2, 2, 3).transpose(0, 1).reshape(4, 3).sum(1),
])
def test_gradients_under_identity_hooks_equal_plain_ones(fn):
    def grads(hooks):
        a = torch.tensor([[0.5, -1.2, 2.0], [0.3, 0.8, -0.4]], dtype=torch.float64,
                         requires_grad=True)
        b = torch.tensor([[0.7, 0.4, -1.5], [1.1, -0.2, 0.6]], dtype=torch.float64,
                         requires_grad=True)
        if hooks:
            with saved_tensors_hooks(lambda x: x.detach(), lambda x: x):
                y = fn(a, b)
        else:
            y = fn(a, b)
        g = torch.autograd.grad(y.sum(), (a, b), allow_unused=True, create_graph=True)
        gg = torch.autograd.grad(sum(x.sum() for x in g if x is not None and x.requires_grad),
                                 (a, b), allow_unused=True) if any(
            x is not None and x.requires_grad for x in g) else (None, None)
        return g + gg

    for p, q in zip(grads(False), grads(True)):
        assert (p is None) == (q is None)
        if p is not None:
            np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-12,
                                       atol=1e-14)


def test_function_saved_output_and_version_not_checked():
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = x.exp()
            ctx.save_for_backward(out)
            return out

        @staticmethod
        def backward(ctx, g):
            out, = ctx.saved_tensors
            assert out.grad_fn is not None          # the unpacked output carries the node
            return g * out

    a = torch.tensor([0.5, -1.2], dtype=torch.float64, requires_grad=True)
    with save_on_cpu():
        y = Exp.apply(a)
    y.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.exp(a.detach().numpy()))


def test_disable_restores_nothing_when_it_raises_at_entry():
    with saved_tensors_hooks(lambda x: x, lambda x: x):
        with pytest.raises(RuntimeError, match="while active"):
            with disable_saved_tensors_hooks("while active"):
                pass
    with saved_tensors_hooks(lambda x: x, lambda x: x):  # enabled again afterwards
        pass


# ---- REF: captured from PyTorch 2.15 ----------------------------------------------------------

REF = {'double_backward': ['ok',
                     [['T', [3], [2.987328119797784, 4.148415280320609, 15.643917376788892]],
                      ['T', [3], [5.893778073168338, -6.981719883420246, 5.850135358721282]]]],
 'enabled_after_disable': ['ok',
                           ['T', [3],
                            [0.8775825618903728, 0.3623577544766736, -0.4161468365471424]]],
 'err_disable_while_active': ['err', 'RuntimeError', 'while active'],
 'err_disabled_nested_inner': ['err', 'RuntimeError', 'inner'],
 'err_disabled_push': ['err', 'RuntimeError', 'my message'],
 'err_disabled_restored_outer': ['err', 'RuntimeError', 'outer'],
 'err_pack_in_place': ['err', 'RuntimeError',
                       'A saved tensor pack hook is modifying its input in place. Tensors provided '
                       'as input to pack hook cannot be modified by in-place operations as this '
                       'can lead to unexpected side-effects. Please open an issue if you need to '
                       'perform in-place operations on the input to a pack hook.'],
 'err_unpack_not_tensor': ['err', 'TypeError',
                           'Output of saved tensor unpack_hook expected to be a Tensor but got '
                           'result of type int'],
 'function_save_for_backward': ['ok',
                                [['after save_for_backward', ['pack', [3], True, None],
                                  ['pack', [3], False, None], ['pack', [3], True, 'SaverBackward'],
                                  'forward done', 'unpack', 'unpack', 'unpack',
                                  ['none saved', True, 'out requires grad', True, 'x requires grad',
                                   True],
                                  'unpack', 'unpack', 'unpack'],
                                 ['T', [3], [0.7, 0.4, -1.5]]]],
 'in_place_ops': ['ok', ['T', [3], [2.0, -85.50851126213854, 23847.663896333826]]],
 'modules_identity_hooks': ['ok',
                            [['T', [], [3.416334740725425]],
                             ['T', [2, 4],
                              [0.21915842037509647, 0.10768117111973724, -0.018370219491468942,
                               -0.14193528707310005, 0.5675515733239188, 0.6624488904794185,
                               0.6676868579967589, 0.5825565415448843]],
                             ['T', [1, 2, 5, 5],
                              [0.02041857753311179, 0.06368150887374485, 0.13431912269782,
                               0.14052811449265062, 0.10181147056631853, 0.1494967555471598,
                               0.5162740925117104, 1.1329316448679625, 1.0685348557695264,
                               0.666882334518315, 0.7371367655397124, 1.7038851126803283,
                               2.700772667601223, 1.8042797084016733, 0.8276643345024537,
                               0.8454390633708468, 1.4405642660053866, 1.6220663499483852,
                               0.6996322557747079, 0.13530309425045697, 0.21619703262086334,
                               0.17934221142071322, -0.053672755832957386, -0.13917229288750715,
                               -0.10469183589628576, -0.03233421587363809, -0.08848287724619511,
                               -0.1749778173179969, -0.16703366204448433, -0.11398089354544773,
                               -0.23022092864428917, -0.6807902019332502, -1.360170748210347,
                               -1.1914552185090035, -0.704010174394647, -0.825576621250018,
                               -1.7980306368159629, -2.7044521265169985, -1.7159562886018542,
                               -0.7405195256810763, -0.7632858763417363, -1.207734689763424,
                               -1.2007316837774218, -0.3830394200189819, 0.028024685604659066,
                               -0.11769342453074733, 0.0007141410839722334, 0.28360673748052684,
                               0.2699648837015015, 0.1578219500629789]],
                             ['T', [3, 4],
                              [1.6230212540803586, 1.1902048879952836, 0.6510710639947407,
                               0.05377900090073243, 0.49630728076443775, 0.19387759792044712,
                               -0.12587059332958594, -0.43437513935173444, 1.9677447285852243,
                               1.6941385864641956, 1.2692000899846194, 0.7308877294634228]],
                             ['T', [3], [2.457186372265029, 1.145122936371467, 2.3976906913635037]],
                             ['T', [3, 2, 3, 3],
                              [3.2431241816059893, 3.4048165878113923, 3.4307697011808194,
                               2.710934193325003, 2.237019874486501, 1.6739226325766556,
                               -0.31367619018542064, -0.9874825948955657, -1.621921184728752,
                               -0.1725266044603147, 0.5129600865216235, 1.1779966775931046,
                               2.795620428687327, 3.137248106920993, 3.3538036032906153,
                               3.1934869323639945, 2.8771646859781135, 2.446138962980486,
                               3.077842303757821, 3.0442749271710685, 2.889341916003067,
                               1.780647753470605, 1.2456287295911117, 0.6609504190715834,
                               -1.1536661294796398, -1.6982427774637103, -2.1751158450252874,
                               0.7389587893667316, 1.3184664180868757, 1.8454109513792762,
                               2.916175559001493, 3.0555790999140484, 3.0731663445504713,
                               2.4122739683229044, 1.983406448805234, 1.4754667731746869,
                               2.8488062202041866, 2.6147111843556052, 2.2763758647850483,
                               0.7882198062747232, 0.20045996296270718, -0.3952915864846383,
                               -1.997052262481844, -2.39809322390962, -2.703529776120899,
                               1.663920177131018, 2.123179594427403, 2.4977945413746223,
                               2.9847120742707456, 2.913111027887967, 2.7253734376767373,
                               1.561373455030906, 1.0247416168081465, 0.44725656408241676]],
                             ['T', [3],
                              [4.0050101709346135, 3.63393382493334, 3.4948409333586015]]]],
 'modules_save_on_cpu': ['ok',
                         [['T', [], [3.416334740725425]],
                          ['T', [2, 4],
                           [0.21915842037509647, 0.10768117111973724, -0.018370219491468942,
                            -0.14193528707310005, 0.5675515733239188, 0.6624488904794185,
                            0.6676868579967589, 0.5825565415448843]],
                          ['T', [1, 2, 5, 5],
                           [0.02041857753311179, 0.06368150887374485, 0.13431912269782,
                            0.14052811449265062, 0.10181147056631853, 0.1494967555471598,
                            0.5162740925117104, 1.1329316448679625, 1.0685348557695264,
                            0.666882334518315, 0.7371367655397124, 1.7038851126803283,
                            2.700772667601223, 1.8042797084016733, 0.8276643345024537,
                            0.8454390633708468, 1.4405642660053866, 1.6220663499483852,
                            0.6996322557747079, 0.13530309425045697, 0.21619703262086334,
                            0.17934221142071322, -0.053672755832957386, -0.13917229288750715,
                            -0.10469183589628576, -0.03233421587363809, -0.08848287724619511,
                            -0.1749778173179969, -0.16703366204448433, -0.11398089354544773,
                            -0.23022092864428917, -0.6807902019332502, -1.360170748210347,
                            -1.1914552185090035, -0.704010174394647, -0.825576621250018,
                            -1.7980306368159629, -2.7044521265169985, -1.7159562886018542,
                            -0.7405195256810763, -0.7632858763417363, -1.207734689763424,
                            -1.2007316837774218, -0.3830394200189819, 0.028024685604659066,
                            -0.11769342453074733, 0.0007141410839722334, 0.28360673748052684,
                            0.2699648837015015, 0.1578219500629789]],
                          ['T', [3, 4],
                           [1.6230212540803586, 1.1902048879952836, 0.6510710639947407,
                            0.05377900090073243, 0.49630728076443775, 0.19387759792044712,
                            -0.12587059332958594, -0.43437513935173444, 1.9677447285852243,
                            1.6941385864641956, 1.2692000899846194, 0.7308877294634228]],
                          ['T', [3], [2.457186372265029, 1.145122936371467, 2.3976906913635037]],
                          ['T', [3, 2, 3, 3],
                           [3.2431241816059893, 3.4048165878113923, 3.4307697011808194,
                            2.710934193325003, 2.237019874486501, 1.6739226325766556,
                            -0.31367619018542064, -0.9874825948955657, -1.621921184728752,
                            -0.1725266044603147, 0.5129600865216235, 1.1779966775931046,
                            2.795620428687327, 3.137248106920993, 3.3538036032906153,
                            3.1934869323639945, 2.8771646859781135, 2.446138962980486,
                            3.077842303757821, 3.0442749271710685, 2.889341916003067,
                            1.780647753470605, 1.2456287295911117, 0.6609504190715834,
                            -1.1536661294796398, -1.6982427774637103, -2.1751158450252874,
                            0.7389587893667316, 1.3184664180868757, 1.8454109513792762,
                            2.916175559001493, 3.0555790999140484, 3.0731663445504713,
                            2.4122739683229044, 1.983406448805234, 1.4754667731746869,
                            2.8488062202041866, 2.6147111843556052, 2.2763758647850483,
                            0.7882198062747232, 0.20045996296270718, -0.3952915864846383,
                            -1.997052262481844, -2.39809322390962, -2.703529776120899,
                            1.663920177131018, 2.123179594427403, 2.4977945413746223,
                            2.9847120742707456, 2.913111027887967, 2.7253734376767373,
                            1.561373455030906, 1.0247416168081465, 0.44725656408241676]],
                          ['T', [3], [4.0050101709346135, 3.63393382493334, 3.4948409333586015]]]],
 'modules_save_on_cpu_pinned': ['ok',
                                [['T', [], [3.416334740725425]],
                                 ['T', [2, 4],
                                  [0.21915842037509647, 0.10768117111973724, -0.018370219491468942,
                                   -0.14193528707310005, 0.5675515733239188, 0.6624488904794185,
                                   0.6676868579967589, 0.5825565415448843]],
                                 ['T', [1, 2, 5, 5],
                                  [0.02041857753311179, 0.06368150887374485, 0.13431912269782,
                                   0.14052811449265062, 0.10181147056631853, 0.1494967555471598,
                                   0.5162740925117104, 1.1329316448679625, 1.0685348557695264,
                                   0.666882334518315, 0.7371367655397124, 1.7038851126803283,
                                   2.700772667601223, 1.8042797084016733, 0.8276643345024537,
                                   0.8454390633708468, 1.4405642660053866, 1.6220663499483852,
                                   0.6996322557747079, 0.13530309425045697, 0.21619703262086334,
                                   0.17934221142071322, -0.053672755832957386, -0.13917229288750715,
                                   -0.10469183589628576, -0.03233421587363809, -0.08848287724619511,
                                   -0.1749778173179969, -0.16703366204448433, -0.11398089354544773,
                                   -0.23022092864428917, -0.6807902019332502, -1.360170748210347,
                                   -1.1914552185090035, -0.704010174394647, -0.825576621250018,
                                   -1.7980306368159629, -2.7044521265169985, -1.7159562886018542,
                                   -0.7405195256810763, -0.7632858763417363, -1.207734689763424,
                                   -1.2007316837774218, -0.3830394200189819, 0.028024685604659066,
                                   -0.11769342453074733, 0.0007141410839722334, 0.28360673748052684,
                                   0.2699648837015015, 0.1578219500629789]],
                                 ['T', [3, 4],
                                  [1.6230212540803586, 1.1902048879952836, 0.6510710639947407,
                                   0.05377900090073243, 0.49630728076443775, 0.19387759792044712,
                                   -0.12587059332958594, -0.43437513935173444, 1.9677447285852243,
                                   1.6941385864641956, 1.2692000899846194, 0.7308877294634228]],
                                 ['T', [3],
                                  [2.457186372265029, 1.145122936371467, 2.3976906913635037]],
                                 ['T', [3, 2, 3, 3],
                                  [3.2431241816059893, 3.4048165878113923, 3.4307697011808194,
                                   2.710934193325003, 2.237019874486501, 1.6739226325766556,
                                   -0.31367619018542064, -0.9874825948955657, -1.621921184728752,
                                   -0.1725266044603147, 0.5129600865216235, 1.1779966775931046,
                                   2.795620428687327, 3.137248106920993, 3.3538036032906153,
                                   3.1934869323639945, 2.8771646859781135, 2.446138962980486,
                                   3.077842303757821, 3.0442749271710685, 2.889341916003067,
                                   1.780647753470605, 1.2456287295911117, 0.6609504190715834,
                                   -1.1536661294796398, -1.6982427774637103, -2.1751158450252874,
                                   0.7389587893667316, 1.3184664180868757, 1.8454109513792762,
                                   2.916175559001493, 3.0555790999140484, 3.0731663445504713,
                                   2.4122739683229044, 1.983406448805234, 1.4754667731746869,
                                   2.8488062202041866, 2.6147111843556052, 2.2763758647850483,
                                   0.7882198062747232, 0.20045996296270718, -0.3952915864846383,
                                   -1.997052262481844, -2.39809322390962, -2.703529776120899,
                                   1.663920177131018, 2.123179594427403, 2.4977945413746223,
                                   2.9847120742707456, 2.913111027887967, 2.7253734376767373,
                                   1.561373455030906, 1.0247416168081465, 0.44725656408241676]],
                                 ['T', [3],
                                  [4.0050101709346135, 3.63393382493334, 3.4948409333586015]]]],
 'nested_innermost': ['ok',
                      [['inner'],
                       ['T', [3], [2.526303832590501, 0.6635519663888758, 6.972909262383508]]]],
 'no_version_check_clone': ['ok',
                            ['T', [3],
                             [0.8775825618903728, 0.3623577544766736, -0.4161468365471424]]],
 'no_version_check_identity': ['ok',
                               ['T', [3],
                                [0.0707372016677029, 0.9800665778412416, -0.9899924966004454]]],
 'pack_add': ['ok', [[], [], ['T', [3], [1.0, 1.0, 1.0]]]],
 'pack_chain': ['ok',
                [[['pack', [3], True, False, False]], [['unpack', [3], False]],
                 ['T', [3], [-0.958851077208406, 1.8640781719344526, -1.8185948536513634]]]],
 'pack_div_const': ['ok',
                    [[['pack', [3], False, False, False]], [['unpack', [3], False]],
                     ['T', [3], [1.4285714285714286, 2.5, -0.6666666666666666]]]],
 'pack_dot': ['ok',
              [[['pack', [3], True, False, False], ['pack', [3], True, False, False]],
               [['unpack', [3], False], ['unpack', [3], False]], ['T', [3], [1.0, -2.4, 4.0]]]],
 'pack_exp': ['ok',
              [[['pack', [3], True, True, False]], [['unpack', [3], False]],
               ['T', [3], [1.6487212707001282, 0.30119421191220214, 7.38905609893065]]]],
 'pack_log_abs': ['ok',
                  [[['pack', [3], True, False, False], ['pack', [3], True, True, False]],
                   [['unpack', [3], False], ['unpack', [3], False]],
                   ['T', [3], [2.0, -0.8333333333333334, 0.5]]]],
 'pack_matmul': ['ok',
                 [[['pack', [1, 3], False, False, False]], [['unpack', [1, 3], False]],
                  ['T', [3], [-0.3999999999999999, -0.3999999999999999, -0.3999999999999999]]]],
 'pack_mean': ['ok',
               [[], [], ['T', [3], [0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]]],
 'pack_mul_const': ['ok',
                    [[['pack', [3], False, False, False]], [['unpack', [3], False]],
                     ['T', [3], [0.7, 0.4, -1.5]]]],
 'pack_mul_self': ['ok',
                   [[['pack', [3], True, False, False], ['pack', [3], True, False, False]],
                    [['unpack', [3], False], ['unpack', [3], False]],
                    ['T', [3], [1.0, -2.4, 4.0]]]],
 'pack_neg': ['ok', [[], [], ['T', [3], [-1.0, -1.0, -1.0]]]],
 'pack_pow': ['ok',
              [[['pack', [3], True, False, False]], [['unpack', [3], False]],
               ['T', [3], [1.0, -2.4, 4.0]]]],
 'pack_relu': ['ok',
               [[['pack', [3], True, True, False]], [['unpack', [3], False]],
                ['T', [3], [1.0, 0.0, 1.0]]]],
 'pack_sigmoid': ['ok',
                  [[['pack', [3], True, True, False]], [['unpack', [3], False]],
                   ['T', [3], [0.2350037122015945, 0.1778944406468057, 0.10499358540350662]]]],
 'pack_sin': ['ok',
              [[['pack', [3], True, False, False]], [['unpack', [3], False]],
               ['T', [3], [0.8775825618903728, 0.3623577544766736, -0.4161468365471424]]]],
 'pack_sqrt_abs': ['ok',
                   [[['pack', [3], True, False, False], ['pack', [3], True, True, False]],
                    [['unpack', [3], False], ['unpack', [3], False]],
                    ['T', [3], [0.7071067811865475, -0.45643546458763845, 0.35355339059327373]]]],
 'pack_square': ['ok',
                 [[['pack', [3], True, False, False]], [['unpack', [3], False]],
                  ['T', [3], [1.0, -2.4, 4.0]]]],
 'pack_sum': ['ok', [[], [], ['T', [3], [1.0, 1.0, 1.0]]]],
 'pack_tanh': ['ok',
               [[['pack', [3], True, True, False]], [['unpack', [3], False]],
                ['T', [3], [0.7864477329659274, 0.30501999620740905, 0.07065082485316443]]]],
 'pack_to_non_tensor': ['ok',
                        ['T', [3], [0.8775825618903728, 0.3623577544766736, -0.4161468365471424]]],
 'pack_view': ['ok', [[], [], ['T', [3], [1.0, 1.0, 1.0]]]],
 'retain_graph_then_freed': ['err', 'RuntimeError',
                             'Trying to backward through the graph a second time (or directly '
                             'access saved tensors after they have already been freed). Saved '
                             'intermediate values of the graph are freed when you call .backward() '
                             'or autograd.grad(). Specify retain_graph=True if you need to '
                             'backward through the graph a second time or if you need to access '
                             'saved tensors after calling backward.'],
 'retain_graph_unpacks': ['ok',
                          [2,
                           ['T', [3],
                            [1.7551651237807455, 0.7247155089533472, -0.8322936730942848]]]],
 'unpack_grad_mode_create_graph': ['ok',
                                   [[True],
                                    ['T', [3],
                                     [0.8775825618903728, 0.3623577544766736,
                                      -0.4161468365471424]]]],
 'unpack_value_exp': ['ok', ['T', [3], [1.0, 1.0, 1.0]]],
 'unpack_value_mul_self': ['ok', ['T', [3], [2.0, 2.0, 2.0]]],
 'unpack_value_sin': ['ok',
                      ['T', [3], [0.5403023058681398, 0.5403023058681398, 0.5403023058681398]]]}


def test_pack_hook_raising_in_a_custom_function_leaves_no_cycle():
    # torch 2.15: the output a custom Function saved is freed once the pack hook's error is
    # handled, without the garbage collector (as checkpoint's early stop relies on)
    import gc
    import weakref
    refs = []

    class Save(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.clone()
            ctx.save_for_backward(y)
            refs.append(weakref.ref(y))
            return y

        @staticmethod
        def backward(ctx, g):
            return g

    class Stop(Exception):
        pass

    def pack(t):
        raise Stop

    x = torch.randn(3, requires_grad=True)
    was = gc.isenabled()
    gc.disable()
    try:
        with pytest.raises(Stop):
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                Save.apply(x)
        assert refs[0]() is None
    finally:
        if was:
            gc.enable()
