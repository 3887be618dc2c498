"""Anomaly mode (autograd.detect_anomaly, set_detect_anomaly, torch.is_anomaly_enabled, ...):
the switches, the warning on enabling, the forward traceback each node keeps in
node.metadata["traceback_"], the warning that precedes an error in the backward pass, and the
NaN checks; against what PyTorch 2.15 does for the same programs (REF, at the end of this file;
tracebacks compared by their last line, the call that made the node)."""
import re
import warnings

import numpy as np
import pytest

import minitorch as torch


def _norm_warning(msg):
    """A warning's text without file names and line numbers: the header, and the last source
    line of the traceback it shows."""
    msg = re.sub(r" \(Triggered internally at .*\)$", "", msg, flags=re.S).rstrip()
    if "Traceback of forward call" in msg:
        head, _, tb = msg.partition("\n")
        lines = [ln.strip() for ln in tb.splitlines() if ln.strip()]
        return [head, lines[-1] if lines else ""]
    return [msg]


def _cases(t):
    """name -> a program returning what it observed (the same programs run in torch for REF)."""
    A = t.autograd
    d = t.float64

    def observe(fn):
        """fn() with every warning recorded: [result, warnings, error]."""
        def run():
            prev = (t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled())
            with warnings.catch_warnings(record=True) as ws:
                warnings.simplefilter("always")
                err = None
                try:
                    res = fn()
                except Exception as e:  # noqa: BLE001
                    res, err = None, [type(e).__name__, str(e).replace("minitorch.", "torch.")]
            t.set_anomaly_enabled(*prev)
            msgs = [_norm_warning(str(w.message)) for w in ws
                    if "Anomaly" in str(w.message) or "Error detected" in str(w.message)]
            return [res, msgs, err]
        return run

    def flags():
        return [t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled()]

    def switches():
        out = [flags()]
        with A.detect_anomaly():
            out.append(flags())
        out.append(flags())
        with A.detect_anomaly(check_nan=False):
            out.append(flags())
            with A.set_detect_anomaly(False):
                out.append(flags())
            out.append(flags())
        out.append(flags())
        A.set_detect_anomaly(True)
        out.append(flags())
        A.set_detect_anomaly(False, check_nan=False)
        out.append(flags())
        with A.set_detect_anomaly(True, False):
            out.append(flags())
        out.append(flags())
        t.set_anomaly_enabled(True)
        out.append(flags())
        t.set_anomaly_enabled(False)
        out.append(flags())
        return out

    def not_a_decorator():
        @A.detect_anomaly()
        def f():
            return 1
        return f()

    def metadata(make):
        def run():
            a = t.tensor([0.5, -1.2, 2.0], dtype=d, requires_grad=True)
            with A.detect_anomaly():
                y = make(a)
            tb = y.grad_fn.metadata["traceback_"]
            z = make(a)
            return [type(tb).__name__, all(isinstance(s, str) for s in tb),
                    tb[-1].strip().splitlines()[-1].strip(), list(z.grad_fn.metadata)]
        return run

    class Double(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Boom(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom in backward")

    class NanBack(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    def a_():
        return t.tensor([0.5, -1.2, 2.0], dtype=d, requires_grad=True)

    def zero_():
        return t.tensor([0.0, 1.0], dtype=d, requires_grad=True)

    def error_in_backward():
        x = a_()
        with A.detect_anomaly():
            y = Boom.apply(x).sum()
            y.backward()

    def error_forward_outside():
        x = a_()
        y = Boom.apply(x).sum()
        with A.detect_anomaly():
            y.backward()

    def error_anomaly_off():
        x = a_()
        with A.detect_anomaly():
            y = Boom.apply(x).sum()
        y.backward()

    def nan_builtin():
        x = zero_()
        with A.detect_anomaly():
            y = (x.sqrt() * 0).sum()
            y.backward()

    def nan_grad():
        x = zero_()
        with A.detect_anomaly():
            y = (x.sqrt() * 0).sum()
            return A.grad(y, x)

    def nan_function():
        x = a_()
        with A.detect_anomaly():
            y = NanBack.apply(x).sum()
            y.backward()

    def nan_second_output():
        x = t.tensor([float("inf"), 1.0], dtype=d, requires_grad=True)
        w = t.tensor([1.0, 2.0], dtype=d, requires_grad=True)
        with A.detect_anomaly():
            y = ((w * x) * 0).sum()
            y.backward()

    def nan_first_output():
        x = t.tensor([float("inf"), 1.0], dtype=d, requires_grad=True)
        w = t.tensor([1.0, 2.0], dtype=d, requires_grad=True)
        with A.detect_anomaly():
            y = ((x * w) * 0).sum()
            y.backward()

    def nan_unchecked():
        x = zero_()
        with A.detect_anomaly(check_nan=False):
            y = (x.sqrt() * 0).sum()
            y.backward()
        return x.grad

    def nan_only_backward_in_anomaly():
        x = zero_()
        y = (x.sqrt() * 0).sum()
        with A.detect_anomaly():
            y.backward()

    def nan_anomaly_off_in_backward():
        x = zero_()
        with A.detect_anomaly():
            y = (x.sqrt() * 0).sum()
        y.backward()
        return x.grad

    def same_gradients():
        x = a_()
        with A.detect_anomaly():
            y = (Double.apply(x).exp() * x.sin()).cumsum(0).sum()
            g, = A.grad(y, x, create_graph=True)
            gg, = A.grad(g.sum(), x)
        return g, gg

    def warnings_as_errors():
        x = a_()
        with A.detect_anomaly():
            y = Boom.apply(x).sum()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            t.set_anomaly_enabled(True)
            try:
                y.backward()
            finally:
                t.set_anomaly_enabled(False)

    return {
        "switches": observe(switches),
        "not_a_decorator": observe(not_a_decorator),
        "metadata_sin": observe(metadata(lambda a: a.sin())),
        "metadata_mul": observe(metadata(lambda a: a * 3)),
        "metadata_cummax": observe(metadata(lambda a: a.cummax(0)[0])),
        "metadata_function": observe(metadata(lambda a: Double.apply(a))),
        "metadata_inplace": observe(metadata(lambda a: (a * 1).exp_())),
        "metadata_softmax": observe(metadata(lambda a: a.view(1, 3).softmax(1))),
        "metadata_getitem": observe(metadata(lambda a: a[1:])),
        "error_in_backward": observe(error_in_backward),
        "error_forward_outside": observe(error_forward_outside),
        "error_anomaly_off": observe(error_anomaly_off),
        "nan_builtin": observe(nan_builtin),
        "nan_grad": observe(nan_grad),
        "nan_function": observe(nan_function),
        "nan_second_output": observe(nan_second_output),
        "nan_first_output": observe(nan_first_output),
        "nan_unchecked": observe(nan_unchecked),
        "nan_only_backward_in_anomaly": observe(nan_only_backward_in_anomaly),
        "nan_anomaly_off_in_backward": observe(nan_anomaly_off_in_backward),
        "same_gradients": observe(same_gradients),
        "warnings_as_errors": observe(warnings_as_errors),
    }


def _encode(r):
    if r is None or isinstance(r, (bool, int, float, str)):
        return r
    if isinstance(r, (tuple, list)):
        return [_encode(e) for e in r]
    if hasattr(r, "shape") and hasattr(r, "dtype"):
        return ["T", list(r.shape), [float(v) for v in r.detach().reshape(-1).tolist()]]
    return ["other", type(r).__name__]


def _run(thunk):
    return _encode(thunk())


def _same(got, ref, path="result"):
    if isinstance(ref, list) and ref and ref[0] == "T":
        assert isinstance(got, list) and got[:2] == ref[:2], f"{path}: {got} != {ref}"
        np.testing.assert_allclose(got[2], ref[2], rtol=1e-9, atol=1e-12, err_msg=path)
    elif isinstance(ref, list):
        assert isinstance(got, list) and len(got) == len(ref), f"{path}: {got} != {ref}"
        for i, (g, r) in enumerate(zip(got, ref)):
            _same(g, r, f"{path}[{i}]")
    elif isinstance(ref, float) and ref != ref:
        assert got != got, path
    else:
        assert got == ref, f"{path}: {got} != {ref}"


CASES = _cases(torch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    _same(_run(CASES[name]), REF[name])


def test_every_case_has_a_reference():
    assert sorted(CASES) == sorted(REF)


# ---- minitorch's own ---------------------------------------------------------------------------

def test_nodes_run_in_python_while_enabled_and_in_c_otherwise():
    from minitorch import _C
    x = torch.tensor([0.5, -1.2, 2.0], requires_grad=True)
    (x.sin() * x).sum().backward()
    assert _C._last_backward_c_nodes() > 0
    with torch.autograd.set_detect_anomaly(True):
        (x.sin() * x).sum().backward()
        assert _C._last_backward_c_nodes() == 0
    (x.sin() * x).sum().backward()
    assert _C._last_backward_c_nodes() > 0


def test_traceback_of_a_node_made_in_a_nested_function():
    def inner(a):
        return a.exp()

    def outer(a):
        return inner(a) + 1

    x = torch.tensor([0.5], requires_grad=True)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        with torch.autograd.detect_anomaly():
            y = outer(x)
    tb = y.grad_fn.next_functions[0][0].metadata["traceback_"]
    assert "return a.exp()" in tb[-1] and "return inner(a) + 1" in tb[-2]
    assert all("minitorch/autograd" not in s for s in tb)


def test_no_metadata_recorded_when_off():
    x = torch.tensor([0.5], requires_grad=True)
    assert dict(x.sin().grad_fn.metadata) == {}
    assert dict((x * x).grad_fn.metadata) == {}


# ---- REF: captured from PyTorch 2.15 ----------------------------------------------------------

nan = float("nan")
REF = {'error_anomaly_off': [None,
                       [['Anomaly Detection has been enabled. This mode will increase the runtime '
                         'and should only be enabled for debugging.']],
                       ['ValueError', 'boom in backward']],
 'error_forward_outside': [None,
                           [['Anomaly Detection has been enabled. This mode will increase the '
                             'runtime and should only be enabled for debugging.'],
                            ['Error detected in BoomBackward. No forward pass information '
                             'available. Enable detect anomaly during forward pass for more '
                             'information.']],
                           ['ValueError', 'boom in backward']],
 'error_in_backward': [None,
                       [['Anomaly Detection has been enabled. This mode will increase the runtime '
                         'and should only be enabled for debugging.'],
                        ['Error detected in BoomBackward. Traceback of forward call that caused '
                         'the error:',
                         'y = Boom.apply(x).sum()']],
                       ['ValueError', 'boom in backward']],
 'metadata_cummax': [['list', True,
                      '"metadata_cummax": observe(metadata(lambda a: a.cummax(0)[0])),', []],
                     [['Anomaly Detection has been enabled. This mode will increase the runtime '
                       'and should only be enabled for debugging.']],
                     None],
 'metadata_function': [['list', True,
                        '"metadata_function": observe(metadata(lambda a: Double.apply(a))),', []],
                       [['Anomaly Detection has been enabled. This mode will increase the runtime '
                         'and should only be enabled for debugging.']],
                       None],
 'metadata_getitem': [['list', True, '"metadata_getitem": observe(metadata(lambda a: a[1:])),', []],
                      [['Anomaly Detection has been enabled. This mode will increase the runtime '
                        'and should only be enabled for debugging.']],
                      None],
 'metadata_inplace': [['list', True,
                       '"metadata_inplace": observe(metadata(lambda a: (a * 1).exp_())),', []],
                      [['Anomaly Detection has been enabled. This mode will increase the runtime '
                        'and should only be enabled for debugging.']],
                      None],
 'metadata_mul': [['list', True, '"metadata_mul": observe(metadata(lambda a: a * 3)),', []],
                  [['Anomaly Detection has been enabled. This mode will increase the runtime and '
                    'should only be enabled for debugging.']],
                  None],
 'metadata_sin': [['list', True, '"metadata_sin": observe(metadata(lambda a: a.sin())),', []],
                  [['Anomaly Detection has been enabled. This mode will increase the runtime and '
                    'should only be enabled for debugging.']],
                  None],
 'metadata_softmax': [['list', True,
                       '"metadata_softmax": observe(metadata(lambda a: a.view(1, 3).softmax(1))),',
                       []],
                      [['Anomaly Detection has been enabled. This mode will increase the runtime '
                        'and should only be enabled for debugging.']],
                      None],
 'nan_anomaly_off_in_backward': [['T', [2], [nan, 0.0]],
                                 [['Anomaly Detection has been enabled. This mode will increase '
                                   'the runtime and should only be enabled for debugging.']],
                                 None],
 'nan_builtin': [None,
                 [['Anomaly Detection has been enabled. This mode will increase the runtime and '
                   'should only be enabled for debugging.'],
                  ['Error detected in SqrtBackward0. Traceback of forward call that caused the '
                   'error:',
                   'y = (x.sqrt() * 0).sum()']],
                 ['RuntimeError',
                  "Function 'SqrtBackward0' returned nan values in its 0th output."]],
 'nan_first_output': [None,
                      [['Anomaly Detection has been enabled. This mode will increase the runtime '
                        'and should only be enabled for debugging.'],
                       ['Error detected in MulBackward0. Traceback of forward call that caused the '
                        'error:',
                        'y = ((x * w) * 0).sum()']],
                      ['RuntimeError',
                       "Function 'MulBackward0' returned nan values in its 1th output."]],
 'nan_function': [None,
                  [['Anomaly Detection has been enabled. This mode will increase the runtime and '
                    'should only be enabled for debugging.'],
                   ['Error detected in NanBackBackward. Traceback of forward call that caused the '
                    'error:',
                    'y = NanBack.apply(x).sum()']],
                  ['RuntimeError',
                   "Function 'NanBackBackward' returned nan values in its 0th output."]],
 'nan_grad': [None,
              [['Anomaly Detection has been enabled. This mode will increase the runtime and '
                'should only be enabled for debugging.'],
               ['Error detected in SqrtBackward0. Traceback of forward call that caused the error:',
                'y = (x.sqrt() * 0).sum()']],
              ['RuntimeError', "Function 'SqrtBackward0' returned nan values in its 0th output."]],
 'nan_only_backward_in_anomaly': [None,
                                  [['Anomaly Detection has been enabled. This mode will increase '
                                    'the runtime and should only be enabled for debugging.'],
                                   ['Error detected in SqrtBackward0. No forward pass information '
                                    'available. Enable detect anomaly during forward pass for more '
                                    'information.']],
                                  ['RuntimeError',
                                   "Function 'SqrtBackward0' returned nan values in its 0th "
                                   'output.']],
 'nan_second_output': [None,
                       [['Anomaly Detection has been enabled. This mode will increase the runtime '
                         'and should only be enabled for debugging.'],
                        ['Error detected in MulBackward0. Traceback of forward call that caused '
                         'the error:',
                         'y = ((w * x) * 0).sum()']],
                       ['RuntimeError',
                        "Function 'MulBackward0' returned nan values in its 0th output."]],
 'nan_unchecked': [['T', [2], [nan, 0.0]],
                   [['Anomaly Detection has been enabled. This mode will increase the runtime and '
                     'should only be enabled for debugging.']],
                   None],
 'not_a_decorator': [None,
                     [['Anomaly Detection has been enabled. This mode will increase the runtime '
                       'and should only be enabled for debugging.']],
                     ['TypeError', "'detect_anomaly' object is not callable"]],
 'same_gradients': [[['T', [3], [14.97583257099938, -0.2724660053693837, 76.5710672515419]],
                     ['T', [3], [40.35512433869259, -0.24433723883071912, 58.05448233326476]]],
                    [['Anomaly Detection has been enabled. This mode will increase the runtime and '
                      'should only be enabled for debugging.']],
                    None],
 'switches': [[[False, True], [True, True], [False, True], [True, False], [False, True],
               [True, False], [False, True], [True, True], [False, False], [True, False],
               [False, False], [True, True], [False, True]],
              [['Anomaly Detection has been enabled. This mode will increase the runtime and '
                'should only be enabled for debugging.'],
               ['Anomaly Detection has been enabled. This mode will increase the runtime and '
                'should only be enabled for debugging.']],
              None],
 'warnings_as_errors': [None,
                        [['Anomaly Detection has been enabled. This mode will increase the runtime '
                          'and should only be enabled for debugging.']],
                        ['ValueError', 'boom in backward']]}


def _nested_functions():
    class Outer(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sum(0, keepdim=True)

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            g = g.clone().expand(3)
            return Inner.apply(g * x, g + x)

    class Inner(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * 2.0 + b

        @staticmethod
        def backward(ctx, g):
            g1, g2 = g.clone(), g.clone()
            g2[0] = float("nan")
            return g1, g2

    return Outer, Inner


def test_failure_of_a_node_made_by_a_backward_names_the_node_that_made_it():
    # torch 2.15: three warnings, the last one "\n\nPrevious calculation was induced by
    # OuterBackward. Traceback of forward call that induced the previous calculation:" with
    # the forward call of Outer as its last line
    Outer, Inner = _nested_functions()
    x = torch.rand(3, dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="Function 'InnerBackward' returned nan values in "
                                               "its 1th output."):
            with torch.autograd.detect_anomaly():
                out = Outer.apply(x)
                (gx,) = torch.autograd.grad(out, (x,), create_graph=True)
                gx.sum().backward()
    msgs = [str(m.message) for m in w]
    assert len(msgs) == 3
    assert msgs[1].startswith("Error detected in InnerBackward. Traceback of forward call")
    assert "Inner.apply(g * x, g + x)" in msgs[1]
    assert msgs[2].startswith("\n\nPrevious calculation was induced by OuterBackward. Traceback "
                              "of forward call that induced the previous calculation:\n")
    assert msgs[2].rstrip().splitlines()[-1].strip() == "out = Outer.apply(x)"


def test_anomaly_warning_made_an_error_goes_to_stderr(capsys):
    # torch 2.15: the node's own error propagates, the warning is printed to stderr
    with warnings.catch_warnings(record=True) as w:
        with torch.autograd.detect_anomaly():
            warnings.simplefilter("error")
            a = torch.randn(5, requires_grad=True)
            d1 = a + 1
            d2 = d1 ** 2
            d1 += 1
            with pytest.raises(RuntimeError, match="modified by an inplace operation"):
                torch.autograd.grad(d2.sum(), a)
    assert len(w) == 1 and "Anomaly Detection has been enabled" in str(w[0].message)
    assert "UserWarning: Error detected in PowBackward0" in capsys.readouterr().err
