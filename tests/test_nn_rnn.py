"""nn.RNN, nn.LSTM, nn.GRU, their cells and the packed sequences of nn.utils.rnn: outputs,
final states and gradients against the values PyTorch 2.15 computes for the same parameters
and inputs (REF, at the end of this file), parameter names and shapes, torch's errors, pack /
pad round trips, and gradcheck."""
import math

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
from minitorch.nn.utils.rnn import (PackedSequence, invert_permutation, pack_padded_sequence,
                                    pack_sequence, pad_packed_sequence, unpack_sequence,
                                    unpad_sequence)


# ---- the cases REF holds -------------------------------------------------------------------

# name: (module, constructor kwargs, input shape, number of given initial states (h_0, c_0),
#        lengths of a packed input (None: the input as it is), enforce_sorted, eval mode)
CASES = {
    "rnn_tanh": ("RNN", dict(input_size=3, hidden_size=2), (4, 2, 3), 0, None, True, False),
    "rnn_relu_2layer_bidir": ("RNN", dict(input_size=3, hidden_size=2, num_layers=2, nonlinearity="relu",
                                          bidirectional=True), (4, 2, 3), 1, None, True, False),
    "rnn_unbatched_nobias": ("RNN", dict(input_size=3, hidden_size=2, bias=False, batch_first=True),
                             (4, 3), 1, None, True, False),
    "lstm_2layer_batch_first": ("LSTM", dict(input_size=3, hidden_size=2, num_layers=2, batch_first=True),
                                (2, 4, 3), 2, None, True, False),
    "lstm_proj_bidir": ("LSTM", dict(input_size=3, hidden_size=3, proj_size=2, bidirectional=True),
                        (4, 2, 3), 0, None, True, False),
    "lstm_unbatched_nobias": ("LSTM", dict(input_size=3, hidden_size=2, bias=False), (4, 3), 2, None, True,
                              False),
    "gru_2layer_bidir_batch_first": ("GRU", dict(input_size=3, hidden_size=2, num_layers=2, bidirectional=True,
                                                 batch_first=True), (2, 4, 3), 0, None, True, False),
    "gru_unbatched_nobias": ("GRU", dict(input_size=3, hidden_size=2, bias=False), (4, 3), 1, None, True, False),
    "gru_dropout_eval": ("GRU", dict(input_size=3, hidden_size=2, num_layers=2, dropout=0.5), (4, 2, 3), 0,
                         None, True, True),
    "packed_rnn_bidir": ("RNN", dict(input_size=3, hidden_size=2, bidirectional=True), (5, 3, 3), 1,
                         [3, 5, 2], False, False),
    "packed_lstm_2layer_proj": ("LSTM", dict(input_size=3, hidden_size=3, num_layers=2, proj_size=2,
                                             batch_first=True), (3, 4, 3), 0, [2, 4, 4], False, False),
    "packed_gru_2layer_bidir": ("GRU", dict(input_size=3, hidden_size=2, num_layers=2, bidirectional=True),
                                (5, 3, 3), 1, [5, 3, 2], True, False),
    "rnncell_tanh": ("RNNCell", dict(input_size=3, hidden_size=2), (2, 3), 1, None, True, False),
    "rnncell_relu_unbatched_nobias": ("RNNCell", dict(input_size=3, hidden_size=2, nonlinearity="relu",
                                                      bias=False), (3,), 1, None, True, False),
    "lstmcell": ("LSTMCell", dict(input_size=3, hidden_size=2), (2, 3), 2, None, True, False),
    "lstmcell_unbatched": ("LSTMCell", dict(input_size=3, hidden_size=2), (3,), 0, None, True, False),
    "grucell": ("GRUCell", dict(input_size=3, hidden_size=2), (2, 3), 1, None, True, False),
    "grucell_unbatched_nobias": ("GRUCell", dict(input_size=3, hidden_size=2, bias=False), (3,), 0, None, True,
                                 False),
}


def values(n, scale, freq, phase, fn=np.sin):
    return scale * fn(freq * np.arange(n) + phase)


def fill_parameters(module):
    """Parameter element k (counting from 1 over all parameters in registration order) is
    0.6 * sin(k)."""
    k = 1
    with torch.no_grad():
        for p in module.parameters():
            n = p.numel()
            p.copy_(torch.from_numpy(0.6 * np.sin(np.arange(k, k + n, dtype=np.float64))).reshape(p.shape))
            k += n


def state_shape(module, kind, x_shape, i):
    if kind.endswith("Cell"):
        return x_shape[:-1] + (module.hidden_size,)
    d = 2 if module.bidirectional else 1
    size = module.proj_size if (kind == "LSTM" and i == 0 and module.proj_size) else module.hidden_size
    if len(x_shape) == 2:
        return (module.num_layers * d, size)
    batch = x_shape[0] if module.batch_first else x_shape[1]
    return (module.num_layers * d, batch, size)


def run_case(name, dtype=torch.float64):
    """Builds the case's module and inputs, runs forward and backward of
    sum_i sum(output_i * weights_i); returns (module, outputs, [input, given states])."""
    kind, kwargs, x_shape, n_states, lengths, enforce_sorted, evaluate = CASES[name]
    m = getattr(nn, kind)(**kwargs, dtype=dtype)
    if evaluate:
        m.eval()
    fill_parameters(m)
    x = torch.from_numpy(values(math.prod(x_shape), 0.5, 0.7, 0.1, np.cos).reshape(x_shape))
    x = x.to(dtype).requires_grad_()
    states = []
    for i in range(n_states):
        shape = state_shape(m, kind, x_shape, i)
        s = torch.from_numpy(values(math.prod(shape), 0.4, 1.1 + 0.2 * i, 0.3).reshape(shape))
        states.append(s.to(dtype).requires_grad_())
    hx = None if not states else (tuple(states) if kind.startswith("LSTM") else states[0])
    inp = x
    if lengths is not None:
        inp = pack_padded_sequence(x, lengths, batch_first=m.batch_first, enforce_sorted=enforce_sorted)
    result = m(inp, hx)
    if kind.endswith("Cell"):
        outputs = list(result) if isinstance(result, tuple) else [result]
    else:
        out, hid = result
        if lengths is not None:
            assert isinstance(out, PackedSequence)
            assert out.batch_sizes is inp.batch_sizes and out.sorted_indices is inp.sorted_indices
            out = pad_packed_sequence(out, batch_first=m.batch_first)[0]
        outputs = [out] + (list(hid) if isinstance(hid, tuple) else [hid])
    loss = sum((o * torch.from_numpy(values(o.numel(), 1.0, 0.37, 0.05 + i, np.cos)).to(dtype).reshape(o.shape)).sum()
               for i, o in enumerate(outputs))
    loss.backward()
    return m, outputs, [x] + states


def check_case(name, dtype, tol):
    m, outputs, inputs = run_case(name, dtype)
    ref = REF[name]
    assert len(outputs) == len(ref["outputs"])
    for out, (shape, want) in zip(outputs, ref["outputs"]):
        assert tuple(out.shape) == shape and out.dtype == dtype
        np.testing.assert_allclose(out.detach().numpy().reshape(-1), want, rtol=tol, atol=tol)
    assert len(inputs) == len(ref["input_grads"])
    for t, want in zip(inputs, ref["input_grads"]):
        np.testing.assert_allclose(t.grad.numpy().reshape(-1), want, rtol=tol, atol=tol)
    params = list(m.parameters())
    assert len(params) == len(ref["param_grads"])
    for p, want in zip(params, ref["param_grads"]):
        np.testing.assert_allclose(p.grad.numpy().reshape(-1), want, rtol=tol, atol=tol)


# ---- values and gradients against PyTorch's -------------------------------------------------

@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch_float64(name):
    check_case(name, torch.float64, 1e-10)


@pytest.mark.parametrize("name", ["rnn_relu_2layer_bidir", "lstm_proj_bidir", "gru_2layer_bidir_batch_first",
                                  "packed_lstm_2layer_proj", "lstmcell", "grucell"])
def test_matches_torch_float32(name):
    check_case(name, torch.float32, 2e-5)


def test_reference_cases_can_fail():
    # a changed parameter moves outputs and gradients away from torch's values
    m, outputs, _ = run_case("gru_unbatched_nobias")
    want = REF["gru_unbatched_nobias"]["outputs"][0][1]
    assert np.abs(outputs[0].detach().numpy().reshape(-1) - want).max() < 1e-12
    with torch.no_grad():
        m.weight_hh_l0[0, 0] += 1e-6
    out, _ = m(torch.from_numpy(values(12, 0.5, 0.7, 0.1, np.cos).reshape(4, 3)),
               torch.from_numpy(values(2, 0.4, 1.1, 0.3).reshape(1, 2)))
    assert np.abs(out.detach().numpy().reshape(-1) - want).max() > 1e-9


def test_gradcheck_lstm_and_gru():
    torch.manual_seed(0)
    lstm = nn.LSTM(2, 3, num_layers=2, bidirectional=True, proj_size=2, dtype=torch.float64)
    x = torch.randn(3, 2, 2, dtype=torch.float64, requires_grad=True)
    h0 = torch.randn(4, 2, 2, dtype=torch.float64, requires_grad=True)
    c0 = torch.randn(4, 2, 3, dtype=torch.float64, requires_grad=True)

    def run_lstm(x, h0, c0, *params):       # params are perturbed in place by gradcheck
        out, (h, c) = lstm(x, (h0, c0))
        return out, h, c

    assert torch.autograd.gradcheck(run_lstm, (x, h0, c0, *lstm.parameters()), eps=1e-6, atol=1e-6, rtol=1e-5)

    gru = nn.GRU(2, 3, bidirectional=True, dtype=torch.float64)
    lengths = [3, 1, 2]

    def run_gru(x, h0, *params):
        out, h = gru(pack_padded_sequence(x, lengths, enforce_sorted=False), h0)
        return pad_packed_sequence(out)[0], h

    h0 = torch.randn(2, 3, 3, dtype=torch.float64, requires_grad=True)
    x = torch.randn(3, 3, 2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(run_gru, (x, h0, *gru.parameters()), eps=1e-6, atol=1e-6, rtol=1e-5)


# ---- construction: parameters, init, repr ----------------------------------------------------

def test_state_dict_names_and_shapes_as_torch():
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    want = []
    for layer, in_size in ((0, 3), (1, 4)):
        for suffix in ("", "_reverse"):
            want += [(f"weight_ih_l{layer}{suffix}", (16, in_size)), (f"weight_hh_l{layer}{suffix}", (16, 2)),
                     (f"bias_ih_l{layer}{suffix}", (16,)), (f"bias_hh_l{layer}{suffix}", (16,)),
                     (f"weight_hr_l{layer}{suffix}", (2, 4))]
    assert [(k, tuple(v.shape)) for k, v in m.state_dict().items()] == want
    assert m._flat_weights_names == [k for k, _ in want]
    assert m._all_weights == [[k for k, _ in want[i:i + 5]] for i in range(0, 20, 5)]
    assert [[p is getattr(m, k) for p, (k, _) in zip(ws, want[5 * i:5 * i + 5])]
            for i, ws in enumerate(m.all_weights)] == [[True] * 5] * 4
    # PyTorch 2.15's state_dicts
    assert [(k, tuple(v.shape)) for k, v in nn.GRU(3, 4, num_layers=2, bias=False).state_dict().items()] == [
        ("weight_ih_l0", (12, 3)), ("weight_hh_l0", (12, 4)), ("weight_ih_l1", (12, 4)), ("weight_hh_l1", (12, 4))]
    assert [(k, tuple(v.shape)) for k, v in nn.RNN(2, 3, bidirectional=True).state_dict().items()] == [
        ("weight_ih_l0", (3, 2)), ("weight_hh_l0", (3, 3)), ("bias_ih_l0", (3,)), ("bias_hh_l0", (3,)),
        ("weight_ih_l0_reverse", (3, 2)), ("weight_hh_l0_reverse", (3, 3)), ("bias_ih_l0_reverse", (3,)),
        ("bias_hh_l0_reverse", (3,))]
    assert [(k, tuple(v.shape)) for k, v in nn.LSTMCell(3, 4).state_dict().items()] == [
        ("weight_ih", (16, 3)), ("weight_hh", (16, 4)), ("bias_ih", (16,)), ("bias_hh", (16,))]
    assert [(k, tuple(v.shape)) for k, v in nn.GRUCell(3, 4, bias=False).state_dict().items()] == [
        ("weight_ih", (12, 3)), ("weight_hh", (12, 4))]
    cell = nn.GRUCell(3, 4, bias=False)
    assert cell.bias_ih is None and cell.bias_hh is None


def test_state_dict_round_trip_and_to():
    a, b = nn.GRU(3, 4, num_layers=2), nn.GRU(3, 4, num_layers=2)
    b.load_state_dict(a.state_dict())
    x = torch.randn(5, 2, 3)
    np.testing.assert_array_equal(a(x)[0].detach().numpy(), b(x)[0].detach().numpy())
    a.double()
    assert a.weight_ih_l1.dtype == torch.float64 and all(p.dtype == torch.float64 for p in a._flat_weights)
    assert tuple(a(x.double())[0].shape) == (5, 2, 4)
    assert a.flatten_parameters() is None


def test_default_init_uniform_in_inverse_sqrt_hidden():
    torch.manual_seed(0)
    for m in (nn.LSTM(10, 25, num_layers=2, bidirectional=True, proj_size=5), nn.GRUCell(10, 25)):
        bound = 1 / math.sqrt(25)
        w = np.concatenate([p.detach().numpy().reshape(-1) for p in m.parameters()])
        assert np.abs(w).max() <= bound
        assert abs(w.std() - bound / math.sqrt(3)) < 0.05 * bound
        assert all(p.dtype == torch.float32 and p.requires_grad for p in m.parameters())
    assert nn.RNN(3, 2, dtype=torch.float64).weight_hh_l0.dtype == torch.float64


def test_attributes_and_repr_as_torch():
    m = nn.RNN(3, 4, 2, "relu", False, True, 0.5, True)
    assert (m.mode, m.input_size, m.hidden_size, m.num_layers, m.nonlinearity, m.bias, m.batch_first,
            m.dropout, m.bidirectional, m.proj_size) == ("RNN_RELU", 3, 4, 2, "relu", False, True, 0.5, True, 0)
    # PyTorch 2.15's reprs
    assert repr(nn.RNN(3, 4, nonlinearity="relu")) == "RNN(3, 4)"
    assert repr(m) == "RNN(3, 4, num_layers=2, bias=False, batch_first=True, dropout=0.5, bidirectional=True)"
    assert repr(nn.LSTM(3, 4, proj_size=2, bidirectional=True)) == "LSTM(3, 4, proj_size=2, bidirectional=True)"
    assert repr(nn.GRU(3, 4, bias=False, dropout=0.0)) == "GRU(3, 4, bias=False)"
    assert repr(nn.RNNCell(3, 4)) == "RNNCell(3, 4)"
    assert repr(nn.RNNCell(3, 4, False, "relu")) == "RNNCell(3, 4, bias=False, nonlinearity=relu)"
    assert repr(nn.LSTMCell(3, 4)) == "LSTMCell(3, 4)"
    assert repr(nn.GRUCell(3, 4, bias=False)) == "GRUCell(3, 4, bias=False)"
    assert repr(nn.RNNBase("LSTM", 3, 2)) == "RNNBase(3, 2)"
    assert nn.LSTM(3, 4).mode == "LSTM" and nn.GRU(3, 4).mode == "GRU" and nn.RNN(3, 4).mode == "RNN_TANH"


def test_constructor_errors_as_torch():
    with pytest.raises(ValueError, match=r"^dropout should be a number in range \[0, 1\] representing the "
                                         r"probability of an element being zeroed$"):
        nn.LSTM(3, 4, dropout=2)
    with pytest.raises(ValueError, match="dropout should be a number in range"):
        nn.LSTM(3, 4, dropout=True)
    with pytest.warns(UserWarning, match="dropout option adds dropout after all but last recurrent layer, so "
                                         "non-zero dropout expects num_layers greater than 1, but got "
                                         "dropout=0.5 and num_layers=1"):
        nn.LSTM(3, 4, dropout=0.5)
    with pytest.raises(TypeError, match="^hidden_size should be of type int, got: float$"):
        nn.LSTM(3, 2.0)
    with pytest.raises(ValueError, match="^hidden_size must be greater than zero$"):
        nn.GRU(3, 0)
    with pytest.raises(ValueError, match="^num_layers must be greater than zero$"):
        nn.RNN(3, 2, 0)
    with pytest.raises(ValueError, match="^proj_size should be a positive integer or zero to disable projections$"):
        nn.LSTM(3, 2, proj_size=-1)
    with pytest.raises(ValueError, match="^proj_size has to be smaller than hidden_size$"):
        nn.LSTM(3, 2, proj_size=2)
    for cls in (nn.RNN, nn.GRU):
        with pytest.raises(ValueError, match="^proj_size argument is only supported for LSTM, not RNN or GRU$"):
            cls(3, 2, proj_size=1)
    with pytest.raises(ValueError, match=r"^Unknown nonlinearity 'sigmoid'. Select from 'tanh' or 'relu'.$"):
        nn.RNN(3, 2, nonlinearity="sigmoid")
    with pytest.raises(ValueError, match="^Unrecognized RNN mode: FOO$"):
        nn.RNNBase("FOO", 3, 2)
    with pytest.raises(NotImplementedError, match='Module \\[RNNBase\\] is missing the required "forward" function'):
        nn.RNNBase("LSTM", 3, 2)(torch.zeros(2, 1, 3))
    cell = nn.RNNCell(3, 2, nonlinearity="sigmoid")
    with pytest.raises(RuntimeError, match="^Unknown nonlinearity: sigmoid$"):
        cell(torch.zeros(2, 3))


# ---- shapes, states, dropout ----------------------------------------------------------------

def test_output_shapes_and_default_states():
    torch.manual_seed(0)
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2, batch_first=True)
    out, (h, c) = m(torch.randn(5, 7, 3))
    assert (tuple(out.shape), tuple(h.shape), tuple(c.shape)) == ((5, 7, 4), (4, 5, 2), (4, 5, 4))
    out, (h, c) = m(torch.randn(7, 3))
    assert (tuple(out.shape), tuple(h.shape), tuple(c.shape)) == ((7, 4), (4, 2), (4, 4))
    # omitted states are zeros
    g = nn.GRU(3, 4, num_layers=2)
    x = torch.randn(6, 2, 3)
    np.testing.assert_array_equal(g(x)[0].detach().numpy(), g(x, torch.zeros(2, 2, 4))[0].detach().numpy())
    # the last output step of the forward direction is h_n's last layer
    r = nn.RNN(3, 4, num_layers=2, bidirectional=True)
    out, h = r(x)
    np.testing.assert_array_equal(out[-1, :, :4].detach().numpy(), h[2].detach().numpy())
    np.testing.assert_array_equal(out[0, :, 4:].detach().numpy(), h[3].detach().numpy())
    # an empty batch
    out, h = nn.GRU(3, 2)(torch.zeros(4, 0, 3))
    assert tuple(out.shape) == (4, 0, 2) and tuple(h.shape) == (1, 0, 2)


def test_dropout_between_layers_only_in_training():
    torch.manual_seed(0)
    m = nn.GRU(2, 3, num_layers=2, dropout=1.0)
    x1, x2 = torch.randn(4, 2, 2), torch.randn(4, 2, 2)
    # p = 1 zeroes the second layer's input: the output no longer depends on x
    np.testing.assert_array_equal(m(x1)[0].detach().numpy(), m(x2)[0].detach().numpy())
    m.eval()
    assert np.abs(m(x1)[0].detach().numpy() - m(x2)[0].detach().numpy()).max() > 1e-3
    m.train()
    m.dropout = 0.0
    assert np.abs(m(x1)[0].detach().numpy() - m(x2)[0].detach().numpy()).max() > 1e-3


def test_forward_errors_as_torch():
    m = nn.RNN(3, 2)
    with pytest.raises(ValueError, match="^RNN: Expected input to be 2D or 3D, got 4D tensor instead$"):
        m(torch.zeros(1, 2, 3, 3))
    with pytest.raises(ValueError, match="^LSTM: Expected input to be 2D or 3D, got 1D instead$"):
        nn.LSTM(3, 2)(torch.zeros(3))
    with pytest.raises(ValueError, match="^GRU: Expected input to be 2D or 3D, got 4D instead$"):
        nn.GRU(3, 2)(torch.zeros(1, 2, 3, 3))
    for mod in (m, nn.LSTM(3, 2), nn.GRU(3, 2)):
        for shape in ((5, 2, 4), (5, 4)):
            with pytest.raises(RuntimeError, match=r"^input.size\(-1\) must be equal to input_size. Expected 3, got 4$"):
                mod(torch.zeros(shape))
        with pytest.raises(ValueError, match=r"^RNN input dtype \(minitorch.float64\) does not match weight dtype "
                                             r"\(minitorch.float32\). Convert input: input.to\(minitorch.float32\), "
                                             r"or convert model: model.to\(minitorch.float64\)$"):
            mod(torch.zeros(5, 2, 3, dtype=torch.float64))
        with pytest.raises(RuntimeError, match="^Expected sequence length to be larger than 0 in RNN$"):
            mod(torch.zeros(0, 2, 3))
    for mod in (m, nn.GRU(3, 2)):
        with pytest.raises(RuntimeError, match=r"^Expected hidden size \(1, 2, 2\), got \[1, 3, 2\]$"):
            mod(torch.zeros(5, 2, 3), torch.zeros(1, 3, 2))
        with pytest.raises(RuntimeError, match=r"^Expected hidden size \(1, 1, 2\), got \[2, 1, 2\]$"):
            mod(torch.zeros(5, 3), torch.zeros(2, 2))
        with pytest.raises(RuntimeError, match="^For batched 3-D input, hx should also be 3-D but got 2-D tensor$"):
            mod(torch.zeros(5, 2, 3), torch.zeros(3, 2))
        with pytest.raises(RuntimeError, match="^For unbatched 2-D input, hx should also be 2-D but got 3-D tensor$"):
            mod(torch.zeros(5, 3), torch.zeros(1, 1, 2))
    lstm = nn.LSTM(3, 2)
    with pytest.raises(RuntimeError, match=r"^Expected hidden\[0\] size \(1, 2, 2\), got \[1, 3, 2\]$"):
        lstm(torch.zeros(5, 2, 3), (torch.zeros(1, 3, 2), torch.zeros(1, 2, 2)))
    with pytest.raises(RuntimeError, match=r"^Expected hidden\[1\] size \(1, 2, 2\), got \[2, 2, 2\]$"):
        lstm(torch.zeros(5, 2, 3), (torch.zeros(1, 2, 2), torch.zeros(2, 2, 2)))
    with pytest.raises(RuntimeError, match=r"^Expected hidden\[0\] size \(1, 2, 1\), got \[1, 2, 2\]$"):
        nn.LSTM(3, 2, proj_size=1)(torch.zeros(5, 2, 3), (torch.zeros(1, 2, 2), torch.zeros(1, 2, 2)))
    with pytest.raises(RuntimeError, match=r"^For batched 3-D input, hx and cx should also be 3-D but got "
                                           r"\(2-D, 3-D\) tensors$"):
        lstm(torch.zeros(5, 2, 3), (torch.zeros(2, 2), torch.zeros(1, 2, 2)))
    with pytest.raises(RuntimeError, match=r"^For unbatched 2-D input, hx and cx should also be 2-D but got "
                                           r"\(3-D, 2-D\) tensors$"):
        lstm(torch.zeros(5, 3), (torch.zeros(1, 1, 2), torch.zeros(1, 2)))
    packed = pack_sequence([torch.ones(3, 2), torch.ones(2, 2)])
    with pytest.raises(RuntimeError, match=r"^Expected hidden size \(1, 2, 3\), got \[1, 3, 3\]$"):
        nn.RNN(2, 3)(packed, torch.zeros(1, 3, 3))
    with pytest.raises(RuntimeError, match="^input must have 2 dimensions, got 3$"):
        nn.RNN(2, 3)(PackedSequence(torch.zeros(3, 1, 2), torch.tensor([2, 1])))


def test_cell_errors_as_torch():
    for cls in (nn.RNNCell, nn.LSTMCell, nn.GRUCell):
        cell = cls(3, 2)
        name = cls.__name__
        with pytest.raises(ValueError, match=f"^{name}: Expected input to be 1D or 2D, got 3D instead$"):
            cell(torch.zeros(1, 2, 3))
        with pytest.raises(ValueError, match=f"^{name}: Expected input to be 1D or 2D, got 0D instead$"):
            cell(torch.zeros(()))
        for shape in ((2, 4), (4,)):
            with pytest.raises(RuntimeError, match="^input has inconsistent input_size: got 4 expected 3$"):
                cell(torch.zeros(shape))

        def state(*shapes):
            ts = tuple(torch.zeros(s) for s in shapes)
            return ts if cls is nn.LSTMCell else ts[0]

        first = "hx\\[0\\]" if cls is nn.LSTMCell else "hidden"
        with pytest.raises(ValueError, match=f"^{name}: Expected {first} to be 1D or 2D, got 3D instead$"):
            cell(torch.zeros(2, 3), state((1, 2, 2), (2, 2)))
        with pytest.raises(RuntimeError, match="^Input batch size 2 doesn't match hidden0 batch size 3$"):
            cell(torch.zeros(2, 3), state((3, 2), (2, 2)))
        with pytest.raises(RuntimeError, match="^hidden0 has inconsistent hidden_size: got 3, expected 2$"):
            cell(torch.zeros(2, 3), state((2, 3), (2, 2)))
        with pytest.raises(RuntimeError, match=r"^Expected 2D hidden0 \(batch x hidden_size\), but got 3D tensor$"):
            cell(torch.zeros(3), state((1, 2), (2,)))
        with pytest.raises(RuntimeError, match=r"^Expected 2D hidden0 \(batch x hidden_size\), but got 1D tensor$"):
            cell(torch.zeros(2, 3), state((2,), (2, 2)))
    lstm = nn.LSTMCell(3, 2)
    with pytest.raises(ValueError, match=r"^LSTMCell: Expected hx\[1\] to be 1D or 2D, got 3D instead$"):
        lstm(torch.zeros(2, 3), (torch.zeros(2, 2), torch.zeros(1, 2, 2)))
    with pytest.raises(RuntimeError, match="^hidden1 has inconsistent hidden_size: got 3, expected 2$"):
        lstm(torch.zeros(2, 3), (torch.zeros(2, 2), torch.zeros(2, 3)))
    with pytest.raises(TypeError, match=r"^lstm_cell\(\): argument 'hx' \(position 2\) must be tuple of Tensors, "
                                        r"not Tensor$"):
        lstm(torch.zeros(2, 3), torch.zeros(2, 2))
    h, c = lstm(torch.zeros(3))
    assert tuple(h.shape) == (2,) and tuple(c.shape) == (2,)


# ---- packed sequences -----------------------------------------------------------------------

def test_pack_padded_and_pad_packed_as_torch():
    x = torch.arange(24.0).reshape(4, 3, 2)
    p = pack_padded_sequence(x, [4, 2, 3], enforce_sorted=False)
    assert isinstance(p, tuple) and p._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    # PyTorch 2.15's packing
    assert p.data.tolist() == [[0.0, 1.0], [4.0, 5.0], [2.0, 3.0], [6.0, 7.0], [10.0, 11.0], [8.0, 9.0],
                               [12.0, 13.0], [16.0, 17.0], [18.0, 19.0]]
    assert p.batch_sizes.tolist() == [3, 3, 2, 1] and p.batch_sizes.dtype == torch.int64
    assert p.sorted_indices.tolist() == [0, 2, 1] and p.unsorted_indices.tolist() == [0, 2, 1]
    padded, lengths = pad_packed_sequence(p)
    assert lengths.tolist() == [4, 2, 3] and lengths.dtype == torch.int64
    assert padded.tolist() == [[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]],
                               [[12.0, 13.0], [0.0, 0.0], [16.0, 17.0]], [[18.0, 19.0], [0.0, 0.0], [0.0, 0.0]]]
    padded, lengths = pad_packed_sequence(p, batch_first=True, padding_value=-1, total_length=6)
    assert tuple(padded.shape) == (3, 6, 2) and lengths.tolist() == [4, 2, 3]
    assert padded[1].tolist() == [[2.0, 3.0], [8.0, 9.0]] + [[-1.0, -1.0]] * 4
    assert padded[2, :4].tolist() == [[4.0, 5.0], [10.0, 11.0], [16.0, 17.0], [-1.0, -1.0]]
    # sorted lengths (a tensor, batch_first): no indices, and the round trip gives the input back
    xb = x.transpose(0, 1).contiguous()
    q = pack_padded_sequence(xb, torch.tensor([4, 3, 3]), batch_first=True)
    assert q.sorted_indices is None and q.unsorted_indices is None and q.batch_sizes.tolist() == [3, 3, 3, 1]
    back, lengths = pad_packed_sequence(q, batch_first=True)
    assert lengths.tolist() == [4, 3, 3]
    assert back[0].tolist() == xb[0].tolist() and back[1, :3].tolist() == xb[1, :3].tolist()
    assert back[1, 3].tolist() == [0.0, 0.0]
    # lengths shorter than the padding and 1-D inputs; ties keep their order (PyTorch 2.15's)
    assert pack_padded_sequence(x, [3, 2, 1]).batch_sizes.tolist() == [3, 2, 1]
    assert pack_padded_sequence(torch.arange(6.0).reshape(3, 2), [3, 2]).data.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    ties = pack_padded_sequence(torch.zeros(3, 5), [2, 3, 2, 3, 1], enforce_sorted=False)
    assert ties.sorted_indices.tolist() == [1, 3, 0, 2, 4]


def test_packing_gradients_flow():
    x = torch.arange(12.0, dtype=torch.float64).reshape(3, 2, 2).requires_grad_()
    padded, _ = pad_packed_sequence(pack_padded_sequence(x, [1, 3], enforce_sorted=False), padding_value=5.0)
    (padded * padded).sum().backward()
    want = 2 * x.detach().numpy()
    want[1:, 0] = 0
    np.testing.assert_array_equal(x.grad.numpy(), want)


def test_packing_errors_as_torch():
    x = torch.arange(24.0).reshape(4, 3, 2)
    with pytest.raises(RuntimeError, match="^`lengths` array must be sorted in decreasing order when `enforce_sorted` "
                                           "is True. You can pass `enforce_sorted=False` to pack_padded_sequence "
                                           "and/or pack_sequence to sidestep this requirement if you do not need "
                                           "ONNX exportability.$"):
        pack_padded_sequence(x, [2, 4, 3])
    with pytest.raises(RuntimeError, match="`lengths` array must be sorted in decreasing order"):
        pack_sequence([torch.ones(2), torch.ones(3)])
    with pytest.raises(RuntimeError, match="^Length of all samples has to be greater than 0, but found an element in "
                                           "'lengths' that is <= 0$"):
        pack_padded_sequence(x, [4, 2, 0])
    with pytest.raises(RuntimeError, match=r"^Expected `len\(lengths\)` to be equal to batch_size, but got 2 "
                                           r"\(batch_size=3\)$"):
        pack_padded_sequence(x, [4, 2])
    with pytest.raises(RuntimeError, match="^'lengths' argument should be a 1D CPU int64 tensor, but got 2D cpu Long "
                                           "tensor$"):
        pack_padded_sequence(x, torch.tensor([[4, 2, 1]]))
    with pytest.raises(RuntimeError, match="^Cannot pack empty tensors.$"):
        pack_padded_sequence(torch.zeros(3, 0, 2), [])
    with pytest.raises(RuntimeError, match="at most the padded sequence length 4"):
        pack_padded_sequence(x, [5, 2, 1])
    p = pack_padded_sequence(x, [4, 2, 1])
    with pytest.raises(ValueError, match="^Expected total_length to be at least the length of the longest sequence "
                                         "in input, but got total_length=3 and max sequence length being 4$"):
        pad_packed_sequence(p, total_length=3)


def test_pack_sequence_unpack_unpad():
    seqs = [torch.ones(2, 3), 2 * torch.ones(4, 3), 3 * torch.ones(1, 3)]
    p = pack_sequence(seqs, enforce_sorted=False)
    assert p.batch_sizes.tolist() == [3, 2, 1, 1] and p.sorted_indices.tolist() == [1, 0, 2]
    out = unpack_sequence(p)
    assert [t.tolist() for t in out] == [t.tolist() for t in seqs]
    q = pack_sequence(sorted(seqs, key=len, reverse=True))
    assert q.sorted_indices is None and q.batch_sizes.tolist() == [3, 2, 1, 1]
    padded, lengths = pad_packed_sequence(p)
    assert [t.tolist() for t in unpad_sequence(padded, lengths)] == [t.tolist() for t in seqs]
    got = unpad_sequence(padded.transpose(0, 1), torch.tensor([2, 4, 1]), batch_first=True)
    assert [t.tolist() for t in got] == [t.tolist() for t in seqs]
    got[0][0] = -1.0                                  # copies, as torch's
    assert (padded != -1.0).all()
    with pytest.raises(AttributeError, match="'list' object has no attribute 'device'"):
        unpad_sequence(padded, [2, 4, 1])


def test_packed_sequence_type():
    data, sizes = torch.ones(3), torch.tensor([2, 1])
    for p in (PackedSequence(data, sizes), PackedSequence((data, sizes))):
        assert p.data is data and p.batch_sizes is sizes and p.sorted_indices is None and p.unsorted_indices is None
    p = PackedSequence(data, sizes, torch.tensor([1, 0]))
    assert p.unsorted_indices.tolist() == [1, 0]
    assert invert_permutation(torch.tensor([2, 0, 1])).tolist() == [1, 2, 0] and invert_permutation(None) is None
    x = pack_padded_sequence(torch.arange(24.0).reshape(4, 3, 2), [4, 2, 3], enforce_sorted=False)
    assert x.to(torch.float32) is x and x.cpu() is x and x.float() is x
    d = x.to(torch.float64)
    assert isinstance(d, PackedSequence) and d.data.dtype == torch.float64 and d.batch_sizes is x.batch_sizes
    assert d.sorted_indices.tolist() == [0, 2, 1] and x.double().data.dtype == torch.float64
    assert x.long().data.dtype == torch.int64 and x.half().data.dtype == torch.float16
    assert not x.is_cuda and not x.is_pinned()
    assert len(x) == 4 and x[1] is x.batch_sizes
    assert type(x._replace(data=x.data * 2)) is PackedSequence


def test_packed_output_matches_running_each_sequence_alone():
    torch.manual_seed(0)
    for m in (nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2, dtype=torch.float64),
              nn.GRU(3, 4, bidirectional=True, batch_first=True, dtype=torch.float64),
              nn.RNN(3, 4, nonlinearity="relu", dtype=torch.float64)):
        seqs = [torch.randn(n, 3, dtype=torch.float64) for n in (2, 5, 3)]
        out, hidden = m(pack_sequence(seqs, enforce_sorted=False))
        outs = unpack_sequence(out)
        for i, s in enumerate(seqs):
            alone, h_alone = m(s.unsqueeze(0) if m.batch_first else s.unsqueeze(1))
            np.testing.assert_allclose(outs[i].detach().numpy(),
                                       alone.squeeze(0 if m.batch_first else 1).detach().numpy(), rtol=1e-12)
            for got, want in zip(hidden if isinstance(hidden, tuple) else (hidden,),
                                 h_alone if isinstance(h_alone, tuple) else (h_alone,)):
                np.testing.assert_allclose(got[:, i].detach().numpy(), want[:, 0].detach().numpy(), rtol=1e-12)


# PyTorch 2.15's values (float64) for CASES: outputs as (shape, flattened values), the
# gradients of sum_i sum(output_i * loss_weights(i)) w.r.t. the input and the given states
# and w.r.t. each parameter in registration order.
REF = {
    "rnn_tanh": {
        "outputs": [
            ((4, 2, 2), [0.096038145855752, -0.15849451797234, -0.66363852417583, 0.64138754256443,
                         -0.37358317058884, 0.27967347826025, 0.20790859975112, -0.48383528253697,
                         -0.65538660314482, 0.52296562332521, -0.48761946115099, 0.39040874863475,
                         0.13843446536567, -0.44772096807629, -0.64571999182428, 0.47729993974938]),
            ((1, 2, 2), [0.13843446536567, -0.44772096807629, -0.64571999182428, 0.47729993974938]),
        ],
        "input_grads": [
            [0.015612020654831, -0.055409670870807, -0.075487966532614, 0.0086822480210629,
             0.0036787069598631, -0.0047070203150085, 0.031954016149183, 0.065143748487307,
             0.03844061889199, -0.099461598749868, -0.038930840091584, 0.057392753408135,
             0.055199064749891, 0.11427468485645, 0.068286686710704, -0.075819021465472,
             -0.044771979619113, 0.027438213812497, 0.029239787768824, 0.011469620768815,
             -0.016845662671176, 0.0045513949743023, -0.0094571633531546, -0.014770849307665],
        ],
        "param_grads": [
            [0.29914753402621, 0.04675277534005, -0.2276305441208, 0.419606708191, 0.1818173449678,
             -0.14148355656814],
            [0.39450500171808, -0.21469691222149, 0.41373836555018, -0.23944756072094],
            [-0.89290770803701, -0.92664306245939],
            [-0.89290770803701, -0.92664306245939],
        ],
    },
    "rnn_relu_2layer_bidir": {
        "outputs": [
            ((4, 2, 4), [0, 0, 1.0295067009616, 0.018362860422674, 0, 0, 1.4705197468422,
                         0.035007976032582, 0, 0, 0.80764851095519, 0.19775592714961, 0, 0,
                         1.1777405623692, 0.030850488016946, 0, 0, 1.0515873936445,
                         0.22106846390937, 0, 0, 0.65185669888543, 0, 0, 0, 0.53544763672343,
                         0.43969303244788, 0, 0, 1.1126092715602, 0.83540175872452]),
            ((4, 2, 2), [0.48169825467011, 0, 0, 0.65179122654097, 0.91405218958854, 0,
                         1.1710987740013, 0.0092801574640248, 0, 0, 0, 0, 1.0295067009616,
                         0.018362860422674, 1.4705197468422, 0.035007976032582]),
        ],
        "input_grads": [
            [-0.18730777027548, -0.09109399048323, 0.088871184057838, 0.033595396400273,
             0.0070642297487139, -0.025961757155448, 0.17508176422892, 0.55901941001586,
             0.42899718828432, 0.071671314840563, -0.1196479362343, -0.20096342652008,
             -0.25361180130004, -0.64962523543925, -0.44837622401588, -0.026348337557572,
             0.06071510442306, 0.09195735939918, 0.29357288024737, 0.46958543227528,
             0.21386330347346, 0.26240177713966, 0.36546085764288, 0.13251691103833],
            [-0.08919150722017, -0.13431377956434, 0.027856372459017, -0.036772081896818,
             -0.12151954962561, 0.19236190400557, -0.027525403292816, -0.14200699430053, 0, 0, 0,
             0, 0.709684117054, 1.0893971811976, -0.41388206898579, -0.2229835413216],
        ],
        "param_grads": [
            [0.19238698357928, 0.12738727564241, 0.0024753414898316, 0.049834959346499,
             -0.33772455002496, -0.56644692642803],
            [-0.026746250935755, 0.29555858290841, -0.32977185529566, 0.046557004289059],
            [0.38937212207797, -0.44631661962627],
            [0.38937212207797, -0.44631661962627],
            [-0.029500099223896, -0.12882069134003, -0.16755489944012, 0.043058257364428,
             0.24332816776624, 0.32915703876008],
            [-0.88034890797226, 0.63517443605743, -0.71751567275394, 0.20491649908781],
            [-1.3304847543263, -1.0850666583794],
            [-1.3304847543263, -1.0850666583794],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0],
            [0, 0],
            [0, 0],
            [0.10320868685275, 0.70445910430928, 1.7833093927773, -2.0349052518714,
             0.013758112813542, 1.1264358240412, 2.2423721399146, -1.9327745894651],
            [0.1992681520838, -0.39832998115272, 0.31079380081471, -0.25617575857315],
            [0.36044301626093, 1.0474490900245],
            [0.36044301626093, 1.0474490900245],
        ],
    },
    "rnn_unbatched_nobias": {
        "outputs": [
            ((4, 2), [0.61988401987603, -0.48667841741831, -0.45891848437558, 0.66417326847141,
                      0.2211846296068, -0.37208999249173, 0.29684222992292, -0.24566800384631]),
            ((1, 2), [0.29684222992292, -0.24566800384631]),
        ],
        "input_grads": [
            [-0.0082358504703974, -0.081904634529745, -0.08027067532502, 0.15001821658033,
             0.14564781861144, 0.0073694879005255, -0.016470715505903, -0.0047050170134658,
             0.011386452422854, 0.24278502185724, 0.32016362599089, 0.10318526889873],
            [0.51244661689302, 0.16920170591329],
        ],
        "param_grads": [
            [0.20706592195411, -0.034628859773775, -0.2600371476592, 0.063685352651834,
             -0.049653190882939, -0.13963906289296],
            [0.43166222237985, 0.0050393702100897, 0.14239593473358, 0.39657773372024],
        ],
    },
    "lstm_2layer_batch_first": {
        "outputs": [
            ((2, 4, 2), [-0.10108699886188, 0.053888189479164, -0.13921988938099, 0.11499789467725,
                         -0.11136969487908, 0.14574321557962, -0.090767577849815, 0.16136872164619,
                         -0.0072990133257421, 0.19813161502324, -0.085480139599051,
                         0.21077233567991, -0.083872563278097, 0.20023560706571, -0.11955303681186,
                         0.1892199938635]),
            ((2, 2, 2), [0.22045225953089, 0.018414507186172, 0.061174879489876, 0.11987393794591,
                         -0.090767577849815, 0.16136872164619, -0.11955303681186, 0.1892199938635]),
            ((2, 2, 2), [0.58769342273239, 0.061485192555756, 0.2544702781942, 0.26814966748182,
                         -0.13631450233232, 0.2568820164075, -0.17887115247343, 0.31442035157102]),
        ],
        "input_grads": [
            [0.010661098000857, 0.032929223714422, 0.024922373005842, 0.0049272294817325,
             0.011145850421748, 0.0071170278857314, -0.013061522057495, 0.0014329137235384,
             0.014609935235371, -0.042836787354073, -0.0024671839666906, 0.040170736981665,
             0.00041883390427045, 0.0015695145372124, 0.0012771907428284, -0.013191035246855,
             0.022107085245227, 0.037080053514894, -0.040908311143989, 0.0060778646598197,
             0.0474760797249, 0.0066621307705522, 0.079260779602751, 0.078987433197993],
            [0.005899520822124, 0.017109678506311, -0.020901289644583, 0.011842472133751,
             -0.062906065530405, 0.20522490765596, 0.034093574198954, -0.28078201962611],
            [0.016936838374906, -0.058356300356184, -0.055705764779139, -0.10652819593376,
             0.18332363208023, 0.17310410593735, -0.33892490899513, -0.17574912490964],
        ],
        "param_grads": [
            [-0.040994877502587, -0.029965488843315, -0.0048428625573526, 0.085534698451862,
             0.12238239088847, 0.10167173261263, 0.010128769019716, 0.038904152715476,
             0.049382305494993, -0.01833939374108, -0.022853409288673, -0.016619109353433,
             0.04185215632902, 0.085346929415406, 0.088701708015167, -0.017855358357965,
             0.053342436618226, 0.099452450154302, 0.013839011223635, 0.014355473094382,
             0.0081203316583866, 0.0053361235502079, 0.013061354147734, 0.014643625800292],
            [-0.041106211426316, -0.0066911019185632, -0.038263653637844, 0.0096920595941153,
             -0.038032004405414, -0.002530401980926, -0.003918090625553, -0.010236710138206,
             -0.074470599480828, 6.2056008108547e-05, -0.15121419942507, -0.023360017923692,
             0.0002260838740303, 0.0093734670028896, -0.002228014560037, 0.0014139499758425],
            [-0.30714040489805, -0.16174418483706, -0.21854854061994, -0.049152088862397,
             -0.44476513047452, -1.0190992314455, 0.0053712815252814, -0.00071373072103807],
            [-0.30714040489805, -0.16174418483706, -0.21854854061994, -0.049152088862397,
             -0.44476513047452, -1.0190992314455, 0.0053712815252814, -0.00071373072103807],
            [0.01927227427878, 0.0051459491483106, -0.054800932178394, -0.015120615512448,
             0.013455878845642, 0.00073307645374157, -0.028664343127656, -0.0054383839947435,
             -0.37124363605407, -0.070062676708336, -0.3088262330765, -0.081688699979267,
             0.0075147211973584, -0.0019246627778775, -0.038138022094944, -0.0069990550708603],
            [0.0064379066391934, 0.045752720249854, 0.0070898377822259, -0.083493977190848,
             -0.015832641864828, -0.0035395715964761, 0.0098444822373424, -0.03114041648396,
             -0.055639023454235, -0.70654432731519, 0.061233584360629, -0.41377876238828,
             0.0063013645655626, 0.018854309841603, -0.0082063836317695, -0.073368355075028],
            [0.16835025772765, -0.40597321320731, 0.0089509974913523, -0.16308161313168,
             -2.5581576095269, -1.9888740547398, 0.038389404420127, -0.29418456083327],
            [0.16835025772765, -0.40597321320731, 0.0089509974913523, -0.16308161313168,
             -2.5581576095269, -1.9888740547398, 0.038389404420127, -0.29418456083327],
        ],
    },
    "lstm_proj_bidir": {
        "outputs": [
            ((4, 2, 4), [0.1343291821222, -0.124909887558, 0.14849960835017, -0.12787702708801,
                         0.1755880000718, -0.16736111542432, 0.20787904387079, -0.19298128747009,
                         0.20161250743323, -0.18219330906957, 0.21496147046324, -0.20121887019117,
                         0.23652071749499, -0.21971107650188, 0.1438082226409, -0.12342190481538,
                         0.29557445096498, -0.27375776555217, 0.17517102513152, -0.16055107661829,
                         0.26183359165668, -0.23648897558956, 0.20349294477523, -0.1899844623059,
                         0.31545785410935, -0.28954909303452, 0.079939885162721,
                         -0.066528324192559, 0.32903475269158, -0.30313980900732, 0.15058561654347,
                         -0.13894180648057]),
            ((2, 2, 2), [0.31545785410935, -0.28954909303452, 0.32903475269158, -0.30313980900732,
                         0.14849960835017, -0.12787702708801, 0.20787904387079, -0.19298128747009]),
            ((2, 2, 3), [-0.40038016271232, -0.53307214997302, -0.26765840161021, -0.4025130463839,
                         -0.53954503911049, -0.33017835729266, -0.32146822823736, 0.63069414822813,
                         0.77222645414375, -0.33318363056945, 0.62756955636733, 0.78047512314856]),
        ],
        "input_grads": [
            [-0.11026073760209, -0.076810391218287, 0.02725907462234, 0.1540159201117,
             0.053526507716145, -0.096174929023492, -0.012333593164853, -0.12320263479738,
             -0.12079974217525, 0.028592782397196, -0.11078897383937, -0.14831185845755,
             -0.035254997634989, 0.049015124507641, 0.088220967222774, -0.039633396000588,
             -0.26925894901663, -0.25132906605805, 0.016585617305978, -0.37352873039089,
             -0.42022248598237, 0.11096705032991, 0.11258411633711, 0.010691864992226],
        ],
        "param_grads": [
            [-0.011292526533638, -0.036113886017988, -0.043950320613044, -0.01074473036233,
             -0.031363333300381, -0.037231270521662, -0.034253072995623, -0.082216341779098,
             -0.091511980358085, -0.0028034632605699, -0.0037045884568952, -0.0028633878161513,
             -0.021292302532663, -0.044632643414756, -0.046981554694599, 0.029163652285512,
             0.026290695457531, 0.011052813752425, -0.079728870643388, -0.086790279874991,
             -0.053032864345855, 0.12030214908327, 0.20231110166817, 0.18916998194037,
             -0.22072550949805, -0.20956994802803, -0.099850365379665, 0.00036774828648682,
             -0.00049556684179597, -0.0011258091409366, 0.003224901415662, 0.0071063157458636,
             0.007645518741539, -0.0011067632649182, 0.001499071353549, 0.003399869290806],
            [0.087978528959117, -0.080924122044075, 0.13125567235749, -0.12074635073157,
             0.057178669613111, -0.052019997722656, 0.043875625675876, -0.040392218423654,
             0.068372735506437, -0.062547182739675, 0.046649761599493, -0.04311884911695,
             -0.09834243172018, 0.091483410016222, -0.11498224998676, 0.10454637607418,
             -0.36813355986955, 0.34030351630821, -0.0013494117071891, 0.0012506194303702,
             0.0022362190657651, -0.0020747131261627, 0.0007660793060114, -0.00069146852869649],
            [0.43524711690666, 0.65783402285109, 0.27792924645757, 0.18064175138147,
             0.27760777328724, 0.18335702909771, -0.50316047288483, -0.60113798761368,
             -1.6056974612368, -0.0028746714252102, 0.0061636933555512, 0.0012390751190944],
            [0.43524711690666, 0.65783402285109, 0.27792924645757, 0.18064175138147,
             0.27760777328724, 0.18335702909771, -0.50316047288483, -0.60113798761368,
             -1.6056974612368, -0.0028746714252102, 0.0061636933555512, 0.0012390751190944],
            [0.077120424229326, 0.21175420885719, -0.0041559100218874, 0.10095151249437,
             0.30889129605828, -0.0061298964608032],
            [0.013089315467624, 0.027400385860707, 0.02882462664066, -0.028886525598434,
             -0.053144868879365, -0.052408349914848, 0.0038794712953695, -0.028404437070854,
             -0.047329294851083, 0.020455500944863, 0.027493177041027, 0.021600382382054,
             -0.01639297970588, -0.044147174403912, -0.051138263161156, -0.013302518328595,
             -0.040627987611637, -0.048845479491108, -0.13257531841044, -0.1811689063863,
             -0.14455592684643, -0.042798677716545, -0.11896756606869, -0.13918414917923,
             -0.060078227914386, -0.11949694568878, -0.12271438271446, 0.00073853509592023,
             0.0010838688947437, 0.00091944221645056, 0.0035332792296129, 0.0006738981500138,
             -0.0025024277594858, 0.0015502846150007, 0.0012631250225494, 0.00038189799512021],
            [0.0031452326812206, -0.0031772604858185, 0.022871424895111, -0.020032358176707,
             0.039398506145505, -0.035408137439575, 0.0015693068423913, -0.0018712603320048,
             0.025288707408249, -0.022310554422673, 0.031416451279157, -0.027962384481275,
             0.0048658827146934, -0.0022467378238634, 0.076685688943326, -0.068074901435678,
             0.066782230779545, -0.05891080579259, 0.0043842908858582, -0.0039698325159928,
             -0.0044491693146166, 0.0039778260434223, 0.0023513630673245, -0.0021122318600976],
            [0.0056558843147766, 0.15372238272959, 0.23015513928217, -0.0038259201077098,
             0.16154227523483, 0.19369514764161, 0.10422148741998, 0.47545665920308,
             0.42461440933708, 0.020499774481553, -0.029250349280019, -0.0053687083713297],
            [0.0056558843147766, 0.15372238272959, 0.23015513928217, -0.0038259201077098,
             0.16154227523483, 0.19369514764161, 0.10422148741998, 0.47545665920308,
             0.42461440933708, 0.020499774481553, -0.029250349280019, -0.0053687083713297],
            [0.53450037417667, -0.50872905763586, -0.38819229989096, 0.59221869500229,
             -0.57664887859394, -0.40927437407368],
        ],
    },
    "lstm_unbatched_nobias": {
        "outputs": [
            ((4, 2), [0.20841037118408, -0.023795937238488, -0.0050863604715764, 0.16837052066048,
                      0.068189702117129, -0.013883563404524, 0.15542846015517, -0.060400319369137]),
            ((1, 2), [0.15542846015517, -0.060400319369137]),
            ((1, 2), [0.28828071492629, -0.13188816671298]),
        ],
        "input_grads": [
            [0.098511259536536, 0.17501648255431, 0.090612358641517, 0.0008304979131313,
             -0.011276202817859, -0.013015614680984, -0.013978406883188, 0.030259720772464,
             0.046677200699764, -0.07031432144041, -0.039250649436748, 0.027899888645416],
            [0.019937242148391, 0.028915298284483],
            [0.28972786817103, 0.21216885573901],
        ],
        "param_grads": [
            [0.014068324916816, 0.0077548895037877, -0.0022057916163631, -0.0021975002700305,
             0.0082740211715833, 0.014854141171054, -0.0025393034664031, -0.0039138181139477,
             -0.0034476029474077, 0.034980832192177, 0.015070144634479, -0.01192826742232,
             0.011724371884022, -0.040306168435512, -0.073380087938571, -0.082637792935425,
             -0.1249090754702, -0.1084336680532, 0.041428818918984, 0.030064906637656,
             0.0045609989875138, -0.0020854916134433, -0.009118533062881, -0.011862985931836],
            [0.0022084715535025, 0.022028198710727, -0.0013319274656506, -0.018715752576573,
             0.0027158146161746, 0.0064861715800447, 0.0063379980896584, 0.013274276801948,
             0.01984820082706, 0.083860805943248, -0.0030389920717129, 0.02832706547915,
             0.0097540034082261, 0.036869788146791, 0.0062350241903066, -0.0049714973134275],
        ],
    },
    "gru_2layer_bidir_batch_first": {
        "outputs": [
            ((2, 4, 4), [-0.33162859015929, 0.46562664315883, 0.23913012433137, -0.68586599729452,
                         -0.47694847612011, 0.6414466936224, 0.21696492838888, -0.6136059392106,
                         -0.59232656084786, 0.71048305536776, 0.17141323708436, -0.48991924346621,
                         -0.69257704024683, 0.72530678505112, 0.093522336721684, -0.29467618119613,
                         -0.25418392661708, 0.46321309474898, 0.24199265677702, -0.69194864659203,
                         -0.44487749638199, 0.65004178728666, 0.22767391702127, -0.6126980944896,
                         -0.591869352211, 0.71608819504238, 0.17356973199245, -0.48157240130988,
                         -0.66121153155078, 0.71223747802016, 0.096180847950329, -0.27365919793816]),
            ((4, 2, 2), [-0.16849860869983, -0.61228467147475, -0.31998444505103,
                         -0.43835445059885, 0.43832494544304, 0.44831624385607, 0.67803081864843,
                         0.27379673939033, -0.69257704024683, 0.72530678505112, -0.66121153155078,
                         0.71223747802016, 0.23913012433137, -0.68586599729452, 0.24199265677702,
                         -0.69194864659203]),
        ],
        "input_grads": [
            [0.25896250863042, 0.14374856009567, -0.10362715166059, -0.04292209053333,
             0.054986371842594, 0.10234061752908, -0.094389233920679, -0.016743449968087,
             0.076296184668788, 0.089863209943822, 0.046924269266761, -0.039156628171806,
             -0.052625251626623, -0.069118724680454, -0.022064761020406, 0.011623710672055,
             0.03655853740169, 0.027881613442544, 0.13252500106908, 0.1042597093733,
             -0.019861478302012, -0.041118606500373, 0.0060216461682083, 0.047625625119983],
        ],
        "param_grads": [
            [-0.0014951625706796, -0.0031215604168403, -0.003279839623234, -0.00097791753729367,
             -0.0034275693341406, -0.004265181715893, -0.0012371708481696, -0.00069555371771898,
             0.00017319319450155, -0.031771893734496, -0.033705792348698, -0.019787330153775,
             0.026137329923358, 0.058811525374237, 0.06382574148618, 0.040480658670454,
             0.083124273842746, 0.086673244174188],
            [0.0020408521612457, 0.0048732585212711, -0.0020751192771149, -0.003187032994147,
             0.0087375828143019, -0.012970441634016, 0.0049539927598964, -0.014128993641811,
             -0.011725186533836, -0.031458952123358, 0.026619489026193, 0.057865847170945],
            [-0.011689716637654, 0.020613281022444, -0.025379105692724, -0.084682115396414,
             0.1864778377923, -0.29102018574092],
            [-0.011689716637654, 0.020613281022444, -0.025379105692724, -0.084682115396414,
             0.064058721210402, -0.19430594769717],
            [-0.020517632718436, -0.010750522994546, 0.0040727256752337, 0.011610330406672,
             0.01868267942066, 0.016968272378193, -0.057703705143835, -0.037968791908776,
             -0.00037656256028076, 0.081598797558765, 0.059653809459976, 0.0096527026556747,
             -0.21734739042308, -0.10995955584903, 0.049143976006283, 0.099940001520656,
             0.1188782855347, 0.081906254337322],
            [-0.058077491934983, -0.024395734770883, -0.058127557217183, -0.027877252917756,
             0.013530691338305, 0.019395691616137, 0.06879488456066, 0.020647702415508,
             -0.11731729600641, -0.049224143968866, -0.10348007633038, -0.049934372314291],
            [-0.13276175871181, -0.12763990898872, 0.11099815225436, 0.18165933485659,
             -1.1428576427326, -0.94758445760339],
            [-0.13276175871181, -0.12763990898872, 0.11099815225436, 0.18165933485659,
             -0.28225474393409, -0.24536761499651],
            [-0.013484712865295, -0.037440862215656, 0.022071516473102, 0.0078245670033187,
             0.014289521858921, 0.039879712662948, -0.037108635072556, -0.02098726689445,
             0.045669797753612, 0.12594175347387, -0.04075399389596, -0.0037010492229319,
             0.0074625936269847, 0.013102439244247, -0.057738775283042, -0.041527642808053,
             0.088540207608043, 0.26394579368292, -0.10104750999627, -0.019012765415598,
             0.063047314370459, 0.28802393199012, 0.057770178802828, 0.06930865070703],
            [-0.043738672090123, 0.058768551291871, 0.036511503698226, -0.05159076364562,
             0.16630053922267, -0.22693682322775, -0.016796049682617, 0.024028492270847,
             0.24496541176975, -0.32900145409446, 0.23717207148319, -0.33646339826202],
            [0.054171450277354, -0.077866041497427, -0.13038235765544, -0.10249677112303,
             -0.29806842322039, -0.031535210085378],
            [0.054171450277354, -0.077866041497427, -0.13038235765544, -0.10249677112303,
             -0.21486135704682, 0.042464842670818],
            [-6.2420433259387e-05, 2.5901971861472e-05, 1.5686801920479e-05, -6.0844523679147e-05,
             0.0014015493462998, 0.0028299474280777, -0.0057282718348122, -0.0037206170382709,
             0.0099557812732425, 0.014008297234187, -0.039149628473134, -0.022886724575945,
             -0.02589012275712, -0.031135687705012, 0.080424576086301, 0.042956648346701,
             -0.16650466250935, -0.2130488561029, 0.63467554059625, 0.34914818728732,
             -0.030791459064486, -0.059745462022068, 0.15622984898876, 0.10375048126134],
            [-2.0423908108028e-05, 6.9998460507136e-05, -0.0021060376999439, 0.0056540144461405,
             -0.015014408961807, 0.040666425758716, 0.026913054261801, -0.070583331387693,
             0.044120147997418, -0.12056610804832, 0.044141059174794, -0.12031887843416],
            [-5.9400615518823e-06, -0.011763623940918, -0.067084068331372, 0.15731320200796,
             1.0610822219126, 0.29081706203831],
            [-5.9400615518823e-06, -0.011763623940918, -0.067084068331372, 0.15731320200796,
             0.20149993828732, 0.2016307711586],
        ],
    },
    "gru_unbatched_nobias": {
        "outputs": [
            ((4, 2), [0.25329223145823, -0.041796671783683, -0.20367523760458, 0.14439294648344,
                      -0.039939680016224, -0.051056561246902, 0.095961266309798, -0.1822181143278]),
            ((1, 2), [0.095961266309798, -0.1822181143278]),
        ],
        "input_grads": [
            [-0.02909407598719, -0.10650245882845, -0.08599297218409, 0.14985556732693,
             0.29131295198429, 0.1649385520458, 0.062792875436376, 0.18485459059879,
             0.1369618476653, 0.076111485340916, 0.23470024895903, 0.17750668605986],
            [0.81450888947633, 0.51907462689476],
        ],
        "param_grads": [
            [0.0036642846857051, -0.0009978045985479, -0.0051906107889769, -0.017113440034108,
             -0.011605967883297, -0.0006400276887201, -0.075235800795647, -0.086054566095483,
             -0.056400524320926, 0.090904219769635, 0.055101280420241, -0.0066166520920487,
             0.10686002551119, -0.035017793638974, -0.16042619727261, 0.061290564244254,
             -0.046541306722168, -0.13248407390918],
            [0.0049454595774933, 0.0052185508257437, -0.0037244974202827, -0.01168522570727,
             0.018864641909793, -0.041810161696434, 0.028938314847981, 0.069277437778857,
             0.078798047690758, 0.12402574421058, 0.062241077687269, 0.060700762191197],
        ],
    },
    "gru_dropout_eval": {
        "outputs": [
            ((4, 2, 2), [0.26642314355493, 0.095880960219747, 0.30872499841465, 0.053764552350209,
                         0.33651317492829, 0.19465076821315, 0.36165776316689, 0.13718456624791,
                         0.36587334725482, 0.24306936270089, 0.3545042877633, 0.21240442052201,
                         0.34828863729486, 0.29167833031898, 0.35823640464751, 0.24489737868782]),
            ((2, 2, 2), [-0.17954512509801, -0.58065481361748, -0.31990999441017,
                         -0.43747595798422, 0.34828863729486, 0.29167833031898, 0.35823640464751,
                         0.24489737868782]),
        ],
        "input_grads": [
            [-0.0093214218056789, -0.02300939086908, -0.015542632080691, -0.047664848391643,
             -0.07556044608489, -0.03398611811254, -0.0028071926558576, -0.0021550533501209,
             0.00047843206717918, 0.029158572805602, 0.062093543239284, 0.037939996377815,
             -0.005809114499023, 0.0084275425616542, 0.01491595585675, 0.020290743693335,
             0.055786866528321, 0.039992801551485, 0.0081557278226555, 0.023548788292099,
             0.017291201406588, -0.0091909698172387, 0.025715932974317, 0.036979725584387],
        ],
        "param_grads": [
            [-0.00038200800117598, 0.00010115593677199, 0.00053674465705099, -0.0018170420225594,
             -0.0027052284902876, -0.0023211037286723, 0.047372791959368, 0.070261967359566,
             0.060105841637036, -0.045799084125827, -0.065409118733027, -0.054256222754411,
             0.027582132642644, 0.030358866450611, 0.018857350996482, 0.069873297000047,
             0.089119734893806, 0.066451768932737],
            [-0.0018701064200504, -0.0028514871295295, -0.0044093440445265, -0.0092270895860298,
             0.0022307374132411, 0.025665033853534, 0.025398384320608, 0.0094907166827029,
             0.011813751257087, 0.018212272834303, 0.045807939336699, 0.12726894414931],
            [0.014162848775455, 0.033525117451104, -0.12555000498523, -0.14529409414497,
             -0.39320160095012, -0.53302174860494],
            [0.014162848775455, 0.033525117451104, -0.12555000498523, -0.14529409414497,
             -0.12302379688644, -0.34374964106025],
            [0.064635338159936, 0.15990361702215, 0.02296769550059, 0.065461147381495,
             -0.0077752638321663, -0.0058240108860442, -0.044748823097061, -0.1427797329597,
             0.47050724571804, 1.1675710138563, 0.30263261640802, 0.84471098297887],
            [-0.11857025386329, -0.055999692746263, -0.043419280810182, -0.019116515886822,
             0.019925991491511, 0.0060359281495579, 0.09026739027336, 0.035110353183208,
             -0.22011096501034, -0.10170687673524, -0.11845974295886, -0.051823124702752],
            [-0.3253145066038, -0.14675862642265, -0.0042707879635311, 0.32781465377304,
             -2.3725892242361, -1.9471521609533],
            [-0.3253145066038, -0.14675862642265, -0.0042707879635311, 0.32781465377304,
             -0.59276433851683, -0.41824876771856],
        ],
    },
    "packed_rnn_bidir": {
        "outputs": [
            ((5, 3, 4), [0.36003212166066, -0.25362001342452, 0.75026138563273, 0.039598402824939,
                         -0.66958889054609, 0.70516423456945, 0.81014565815777, 0.064191351436546,
                         -0.5401280468264, 0.17188237740693, 0.12522611611263, 0.47991240220467,
                         0.083025769352432, 0.017284495139015, 0.72902130208692, 0.067803936366756,
                         -0.57085398268806, 0.35253351758659, 0.80725502686535, -0.019781649945871,
                         -0.41244900136216, 0.013279028631661, -0.04122211445491, 0.82784087370185,
                         0.12949425198548, -0.13339763785105, 0.62491796626347, 0.10430817679051,
                         -0.6768167634798, 0.47092886317212, 0.80133381380201, 0.14956157145215, 0,
                         0, 0, 0, 0, 0, 0, 0, -0.6632513726878, 0.4216424388623, 0.77403046608265,
                         -0.12950264884876, 0, 0, 0, 0, 0, 0, 0, 0, -0.67846630408071,
                         0.44002436778743, 0.64656148559967, 0.51589006330111, 0, 0, 0, 0]),
            ((2, 3, 2), [0.12949425198548, -0.13339763785105, -0.67846630408071, 0.44002436778743,
                         -0.41244900136216, 0.013279028631661, 0.75026138563273, 0.039598402824939,
                         0.81014565815777, 0.064191351436546, 0.12522611611263, 0.47991240220467]),
        ],
        "input_grads": [
            [0.31022170712785, 0.093599970834166, -0.20907714698607, 0.53816942025273,
             0.16449980418575, -0.36041017321989, -0.34580953359776, 0.084437680349733,
             0.43705328038799, -0.71683478861642, -0.38392616581206, 0.30196240327368,
             -0.49300134557087, -0.07974478695952, 0.40682876102049, 0.074382318388824,
             0.44261817533499, 0.40391292311646, 0.4826345990227, 0.28857148637565,
             -0.17080292002958, -0.091894204410012, -0.15514514860169, -0.075756358657484, 0, 0, 0,
             0, 0, 0, 0.35225276676514, 0.17327422435381, -0.16501184083338, 0, 0, 0, 0, 0, 0,
             0.12151100987949, 0.10985945936222, -0.0027963714498216, 0, 0, 0],
            [0.40052946347796, 0.26847584692952, 0.057830651662798, 0.17515600874838,
             -0.59044529819351, -0.29536786452515, 0.28391427004552, 0.74527976038371,
             0.0032954655629072, -0.19024140240713, -0.2352197289209, 0.10211886782364],
        ],
        "param_grads": [
            [0.030146387545906, -0.45392996962492, -0.72451596922971, 0.29534111430527,
             -0.28110495718565, -0.72534297492604],
            [0.32734308496414, 0.72890013239259, 0.81132284689986, 0.35509353328085],
            [-1.1530144581036, -1.9884207010552],
            [-1.1530144581036, -1.9884207010552],
            [0.0020765863857985, -0.36028205003797, -0.55319440876656, -0.175799188742,
             -0.045205118444198, 0.10664962540738],
            [-0.078260201244888, -1.094394364012, -0.49920788793517, -0.82420344612398],
            [-2.1635934662054, -1.6756585941241],
            [-2.1635934662054, -1.6756585941241],
        ],
    },
    "packed_lstm_2layer_proj": {
        "outputs": [
            ((3, 4, 2), [0.096047572659023, -0.078602655066874, 0.094073662938388,
                         -0.068738416259061, 0, 0, 0, 0, 0.091965948579703, -0.073915693428602,
                         0.097763403562706, -0.072933816047631, 0.091349483957381,
                         -0.06336332231088, 0.08128239788824, -0.050979213049352,
                         0.097323825049585, -0.080075841194982, 0.099683426794712,
                         -0.075209613547175, 0.087848394552165, -0.05937973658871,
                         0.085154279271639, -0.055442390364037]),
            ((2, 3, 2), [0.26307737926252, -0.24792862738873, 0.34209036371928, -0.31700942939938,
                         0.30261550270177, -0.27460033436266, 0.094073662938388,
                         -0.068738416259061, 0.08128239788824, -0.050979213049352,
                         0.085154279271639, -0.055442390364037]),
            ((2, 3, 3), [-0.29932365693395, -0.31960404729111, -0.36241483520474,
                         -0.41272779607455, -0.53509558248142, -0.37282041656776,
                         -0.36604050308427, -0.58012529035252, -0.16718545409472, 0.34205709586225,
                         0.71870306190739, 0.55053441559382, 0.47300026370032, 0.73842162317945,
                         0.56881684965744, 0.45997385281683, 0.74203312681977, 0.57781648646597]),
        ],
        "input_grads": [
            [0.030447282134103, -0.20608979223588, -0.25314886205597, 0.054620134508662,
             0.057760115354419, 0.0077957125177426, 0, 0, 0, 0, 0, 0, 0.0078279711492214,
             0.038469798295608, 0.033742670301577, -0.016063960434453, -0.1549821244538,
             -0.151410437987, 0.02579495125923, -0.26381002867472, -0.31086928486741,
             0.06815560992013, 0.10635532986968, 0.046772450019774, -0.0044251357807231,
             -0.01246710935671, -0.0090468800851586, -0.0021032086102944, -0.010210539035723,
             -0.0089303469600213, 0.00095192346790347, 0.021731260253591, 0.022530976580968,
             -0.010939039323526, 0.0096759460913038, 0.021394911292701],
        ],
        "param_grads": [
            [-0.0152322704765, -0.055736633266383, -0.070027186522167, -0.037587767952653,
             -0.081517876678416, -0.087108854250361, -0.052129397612686, -0.1216220873055,
             -0.133914008941, -0.0090078046681155, -0.014731744361744, -0.013527114492189,
             -0.032848319037471, -0.05959351049275, -0.058310942789001, -0.0099215762321505,
             -0.024102104571971, -0.026947036525821, -0.11020786324709, -0.10501919072068,
             -0.050438351828218, 0.16098128684365, 0.27034270499713, 0.25255772476918,
             -0.23177657463194, -0.070224384171267, 0.12435543145142, 4.5106322318359e-05,
             -0.0021500462098076, -0.0033339984140622, -0.012125874936443, -0.016559997830109,
             -0.01320569498717, -0.0086487219420948, -0.011732309209321, -0.0092980081330154],
            [0.095501218854175, -0.087838128944637, 0.10966055228158, -0.1011288500879,
             0.064519511747212, -0.059212876375162, 0.044223553691673, -0.040699941728294,
             0.057308896071836, -0.052540580475797, 0.018937411117688, -0.017421453615872,
             -0.097918259060265, 0.090437300091812, -0.12266688198105, 0.11255317108225,
             -0.17064064847183, 0.15698465291885, -0.0010149924012675, 0.00094781154692739,
             0.015227353201233, -0.013968588576042, 0.010391684930025, -0.0095340813988054],
            [0.52967845953897, 0.66100088282304, 0.39791349681967, 0.18538125554609,
             0.24370580657451, 0.10027019698215, -0.60844012853451, -0.71174202590065,
             -1.2505835429593, -0.0014458546404509, 0.059304947523146, 0.040211222305026],
            [0.52967845953897, 0.66100088282304, 0.39791349681967, 0.18538125554609,
             0.24370580657451, 0.10027019698215, -0.60844012853451, -0.71174202590065,
             -1.2505835429593, -0.0014458546404509, 0.059304947523146, 0.040211222305026],
            [0.060210244567679, 0.22532369404425, -0.030297636600897, 0.36981616460786,
             0.65250843360972, 0.23240479282334],
            [0.074545861940543, -0.068940123954165, 0.084693077408494, -0.079005521833601,
             0.052004630628604, -0.049129632770662, 0.067437562311426, -0.062248174534962,
             0.062827174598007, -0.058580897873184, 0.030702066730155, -0.02907889625507,
             0.48961954049369, -0.45283727921161, 0.1590342948055, -0.14834548366998,
             0.13291766124916, -0.12557594388272, 0.0030313964828098, -0.0027176859424862,
             -0.0010617726768638, 0.00092041947884807, -0.0032038300616047, 0.0028123681534787],
            [0.022138370924324, -0.016384794232619, 0.025641028781915, -0.019611658916331,
             0.015986540707677, -0.013028150829605, 0.020478355739594, -0.014881126299769,
             0.019764706091533, -0.015000875278747, 0.010508324408986, -0.0085416218186702,
             0.14418779703044, -0.10710026409538, 0.047957427026395, -0.036658547893148,
             0.04146582907638, -0.033711327186524, 0.0005611810643348, -0.00029011553724997,
             0.00018735952841006, -0.00038471940991035, -0.00015904888648277, -0.00019198317430315],
            [0.26532422948556, 0.30415482298581, 0.20849578783245, 0.22014913742877,
             0.20925482062488, 0.10790255192222, 1.7857139615696, 0.57224662983386,
             0.52116647573162, 0.010482355531901, 0.0046676668350166, -0.0068551444272008],
            [0.26532422948556, 0.30415482298581, 0.20849578783245, 0.22014913742877,
             0.20925482062488, 0.10790255192222, 1.7857139615696, 0.57224662983386,
             0.52116647573162, 0.010482355531901, 0.0046676668350166, -0.0068551444272008],
            [0.10787127184298, 0.17103045928025, 0.13364838983505, 0.15504888705603,
             0.19129171808476, 0.14846800069823],
        ],
    },
    "packed_gru_2layer_bidir": {
        "outputs": [
            ((5, 3, 4), [-0.14873799629186, 0.52753229403438, 0.3986491791566, -0.74842690882431,
                         -0.24362886720899, 0.27176551145188, 0.042083783862323, -0.66740394546488,
                         -0.47432379442426, 0.5705985535447, 0.049851691288145, -0.37553845643221,
                         -0.41068349766028, 0.66625664357654, 0.4369741671005, -0.69857620995335,
                         -0.41836864456422, 0.52270300940718, 0.0091940140796783,
                         -0.60911521954898, -0.61269391766962, 0.67483635785961, -0.08370559643145,
                         -0.14166454812218, -0.57044037731734, 0.73805521720508, 0.44591817611663,
                         -0.60335603994554, -0.53755016612705, 0.59319356533345, -0.05177490509726,
                         -0.51809240955832, 0, 0, 0, 0, -0.67202352227033, 0.76663014000033,
                         0.43754422353536, -0.42974732165432, 0, 0, 0, 0, 0, 0, 0, 0,
                         -0.73735782767399, 0.76978477737954, 0.41623033352761, -0.1409137029719,
                         0, 0, 0, 0, 0, 0, 0, 0]),
            ((4, 3, 2), [0.074825263041765, -0.7021169754549, -0.38204322823968, -0.25897188550702,
                         -0.33003889017664, -0.52588283118224, 0.35675352515672, 0.73479604471828,
                         0.69389683260557, 0.11823196113843, 0.57362647508781, 0.15323760676925,
                         -0.73735782767399, 0.76978477737954, -0.53755016612705, 0.59319356533345,
                         -0.61269391766962, 0.67483635785961, 0.3986491791566, -0.74842690882431,
                         0.042083783862323, -0.66740394546488, 0.049851691288145, -0.37553845643221]),
        ],
        "input_grads": [
            [0.25853797076214, 0.11374584536603, -0.13562368569376, -0.066650596245518,
             -0.07882521091837, -0.018528290193958, 0.051421632088575, 0.083769820651618,
             0.039100422431885, 0.086559436475328, 0.048371613536085, -0.034288847811109,
             -0.0092256479286556, -0.028234423323074, -0.021284600123973, 0.044829870747748,
             0.11000254979235, 0.07403939186062, 0.024967167988542, 0.0070041218745836,
             -0.017398481589704, 0.035343106427891, 0.047379235032046, 0.015855113448275, 0, 0, 0,
             -0.025720445815171, -0.010895953987685, 0.013946227686813, 0, 0, 0, 0, 0, 0,
             -0.068160795532944, -0.02164392193569, 0.044772273673178, 0, 0, 0, 0, 0, 0],
            [-0.34657548934578, -0.1895791392363, -0.13949293771481, -0.043223990522578,
             -0.2458508375607, -0.38032856825959, 0.08261597887383, 0.2497148702753,
             0.067592053625083, 0.21228151316713, -0.036149159937743, 0.0051473146537653,
             0.34081356413083, 0.30829025717722, 0.14399237060188, -0.078578247504059,
             -0.097790205131855, -0.18018018215378, 0.60703572834191, 0.51056485636245,
             0.13731920833685, 0.14083697780618, -1.210127373213, -1.4966682754479],
        ],
        "param_grads": [
            [-0.005567107319303, -0.0015407112123724, 0.0032103054520138, -0.0064329392327293,
             -0.0054453128753531, -0.0018966707873377, 0.046243221978658, 0.089571954482001,
             0.090773597192062, -9.61694827298e-05, -0.043200307924393, -0.065986666525782,
             0.078276917931797, 0.061382526889175, 0.015618974322134, 0.13001932059303,
             0.082189098865213, -0.00429594029901],
            [-0.0065292885553724, -0.0060640947591438, -0.007346676565376, -0.0067075912636026,
             -0.0088376638328128, 0.026142664096722, 0.053445086465141, 0.021236422041733,
             0.019765104419214, 0.0053641798284281, 0.087018065659078, 0.091331534960167],
            [0.018456269029086, 0.037098413210828, -0.13734905951008, -0.25098565789947,
             -0.44581978897002, -0.56353698679616],
            [0.018456269029086, 0.037098413210828, -0.13734905951008, -0.25098565789947,
             -0.13357586746231, -0.35767256288157],
            [-0.029157429706982, -0.022230508461778, -0.0048482317257238, -0.0058293747806781,
             -0.00062094563603657, 0.0048795239437761, -0.015682150485187, 0.013448709581625,
             0.036254431390315, 0.0029499469495181, 0.007031044106111, 0.0078053313565051,
             -0.19885455350961, -0.14543769731829, -0.023619219551471, -0.045008417896322,
             -0.026390616997928, 0.0046391034393563],
            [-0.036204025644274, -0.05616529274273, -0.022584955803491, -0.019344355915319,
             -0.004667305524574, 0.0014328321599776, 0.00820585717824, 0.013648008229954,
             -0.056943833282894, -0.078648321635253, -0.039425164004242, -0.041895928567665],
            [-0.09545224481955, -0.034287052624434, 0.064862928062672, -0.020038325975289,
             -0.70986442562619, -0.13299522022661],
            [-0.09545224481955, -0.034287052624434, 0.064862928062672, -0.020038325975289,
             -0.15863291456864, -0.053674544650343],
            [0.013279223113201, 0.042911101186848, -0.053326758575936, -0.030010467003991,
             -0.014306249957309, -0.065529093757126, 0.055032599145247, 0.032471665629672,
             -0.028661087201461, -0.16219063082656, 0.2349254448718, 0.2074456911636,
             -0.0098265116898838, -0.011242349647777, -0.0011049383324752, -0.0062165794320851,
             -0.11187111855856, -0.35827053244852, 0.48092147810939, 0.22525024849504,
             -0.14857370641118, -0.61845076771561, 0.73500590269612, 0.47303556627258],
            [0.032522025848946, -0.052701768845579, -0.065635293762484, 0.08365645051642,
             -0.064989112339877, 0.22907062016686, -0.014975065494651, -0.029584689121287,
             -0.19265935021233, 0.28560182331897, -0.30007057983897, 0.60059639051889],
            [-0.11628453504267, 0.13368992168712, 0.54767110437109, -0.012477229326497,
             0.99342208222242, 1.748397956398],
            [-0.11628453504267, 0.13368992168712, 0.54767110437109, -0.012477229326497,
             0.72965502445423, 0.97322062594096],
            [-0.00065176919989226, -0.015154676401837, 0.013744272451926, 0.013382591319673,
             -0.010877459009667, -0.013368886684125, 0.014868071402337, -0.00024094225882667,
             -0.11877199020285, -0.15837792074425, 0.18299039687381, 0.049308618889938,
             0.24033891632086, 0.26223636344038, -0.30856651790589, -0.0034547080529879,
             0.35890292056228, 0.20158867629369, -0.3590029845038, 0.29594821463145,
             0.12355460511952, 0.16348075680802, -0.24920191298352, 0.0084116945113519],
            [0.007169348892364, -0.0039598505029011, -0.0075700997727394, -0.0013042083873945,
             -0.050567167238246, -0.032767894488922, 0.16056096566519, 0.053954259725327,
             0.078133183373967, -0.0037394852446597, 0.056917176607976, 0.049115859019559],
            [0.032295984616815, 0.029839926132219, 0.38474419338381, -0.62158226586445,
             -0.45309832793142, -0.41586601173778],
            [0.032295984616815, 0.029839926132219, 0.38474419338381, -0.62158226586445,
             -0.11605256331477, -0.26613239599284],
        ],
    },
    "rnncell_tanh": {
        "outputs": [
            ((2, 2), [0.36003212166066, -0.25362001342452, -0.66958889054609, 0.70516423456945]),
        ],
        "input_grads": [
            [0.050941595640585, -0.017292330716532, -0.069627767960538, 0.10487036916598,
             0.096324202944432, -0.00078199124241062],
            [0.55392437854523, 0.23715032828618, 0.20269904024746, 0.16495455531446],
        ],
        "param_grads": [
            [0.31822249355636, 0.11431953176209, -0.14334969211184, 0.36596869249521,
             0.20015049462796, -0.059801608300562],
            [0.19570613423169, 0.27392813019209, 0.14905278963998, 0.30123293983281],
            [1.2575659004243, 1.0551215325407],
            [1.2575659004243, 1.0551215325407],
        ],
    },
    "rnncell_relu_unbatched_nobias": {
        "outputs": [
            ((2,), [0.72481670799441, 0]),
        ],
        "input_grads": [
            [0.50425161911502, 0.54489662509117, 0.084566186878039],
            [0.39369932192784, 0.59287308386341],
        ],
        "param_grads": [
            [0.49688033458275, 0.3479180036897, 0.035324399292615, 0, 0, 0],
            [0.11806035334199, 0.39368726977285, 0, 0],
        ],
    },
    "lstmcell": {
        "outputs": [
            ((2, 2), [0.19507730312429, 0.044973986906503, 0.023628961258613, 0.02350538981162]),
            ((2, 2), [0.47850837792282, 0.13900346346079, 0.099870977631722, 0.052929442958145]),
        ],
        "input_grads": [
            [0.1204474947937, 0.15592638006756, 0.048047270598652, 0.033893415981029,
             0.074819814398408, 0.046957220507143],
            [-0.040179632474629, 0.082163463704125, -0.023123052368432, 0.059972486430498],
            [0.43152750356241, 0.25616098195308, -0.018407813821604, -0.27815413464891],
        ],
        "param_grads": [
            [0.091410731600815, 0.064747022553324, 0.0076317770988699, 0.0032256364227671,
             0.019511885826737, 0.026621390444767, 0.012808251189706, 0.0092865050388621,
             0.0013971704625975, 0.013840567932944, 0.0024971716120961, -0.010020683537303,
             0.057005737233939, 0.042954990149408, 0.0087018400073739, 0.081826144843028,
             0.08589123934992, 0.049560341902908, 0.05071082055326, 0.031963718643212,
             -0.0018164195916204, 0.012243180439862, 0.0071156492678981, -0.0013584829398455],
            [0.020899535701885, 0.072277572583707, -0.01833048071703, -0.00090993983028031,
             0.0026911838691751, 0.010084310925545, 0.011251354936904, 0.012411204600634,
             0.010180678418047, 0.044556171449701, -0.012209708794893, 0.059088213166774,
             0.015972019785345, 0.040891032340446, 0.0045218021511717, 0.0099931780435955],
            [0.17952053939967, -0.091775346182185, 0.023933478695155, 0.06879095631918,
             0.097274833889943, 0.0016161143147108, 0.12211565519821, 0.032907535640247],
            [0.17952053939967, -0.091775346182185, 0.023933478695155, 0.06879095631918,
             0.097274833889943, 0.0016161143147108, 0.12211565519821, 0.032907535640247],
        ],
    },
    "lstmcell_unbatched": {
        "outputs": [
            ((2,), [0.14728286702659, -0.0064308107860209]),
            ((2,), [0.35486349740064, -0.023443614670889]),
        ],
        "input_grads": [
            [0.11736856110688, 0.17526185607804, 0.072020208832519],
        ],
        "param_grads": [
            [0.086238041832813, 0.060384292289966, 0.0061308665525545, -0.0035397868040591,
             -0.002478575770944, -0.00025165182393928, 0, 0, 0, 0, 0, 0, 0.070461966844152,
             0.049337808591385, 0.0050093080335649, 0.047857356673611, 0.033509951666191,
             0.0034022927827226, 0.041544070668201, 0.029089358394837, 0.0029534663346185,
             -0.0021198003698672, -0.0014842944298132, -0.00015070162667778],
            [0, 0, -0, -0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0, -0],
            [0.17334207200774, -0.0071151195695145, 0, 0, 0.14163150126002, 0.096195289112661,
             0.083505320114097, -0.0042608874290992],
            [0.17334207200774, -0.0071151195695145, 0, 0, 0.14163150126002, 0.096195289112661,
             0.083505320114097, -0.0042608874290992],
        ],
    },
    "grucell": {
        "outputs": [
            ((2, 2), [0.11598357701905, -0.068241134408293, -0.071286772183755, -0.23751771253736]),
        ],
        "input_grads": [
            [-0.039487940725618, -0.071222925519841, -0.037475881052471, 0.075666994230258,
             0.11685821521679, 0.050610532052276],
            [0.80137097044083, 0.69444885286013, 0.37906170179533, 0.20948551446702],
        ],
        "param_grads": [
            [0.00085451933393591, 0.00050432708170869, -8.305807737415e-05, -0.0060127455428051,
             -0.0021088815110744, 0.0027868224474972, -0.04122541804397, -0.068844770183736,
             -0.064085351176884, 0.12787886158616, 0.084356549824691, 0.0011600345732171,
             0.063399295880475, 0.0059388969559409, -0.054314658004797, 0.017732020832388,
             -0.0085281775971131, -0.030777440846241],
            [0.00030709371620165, 0.00069593521688244, -0.0037544536639466, -0.0051860898876882,
             0.034455203359628, -0.024633147426986, 0.036123304323757, 0.10236221423347,
             0.020492800204917, 0.036192201420792, 0.018563224602899, 0.0068156064458336],
            [0.0022530235684758, -0.024052806205429, 0.14481660273629, 0.28657002991433,
             0.34643199033477, 0.15492138060218],
            [0.0022530235684758, -0.024052806205429, 0.14481660273629, 0.28657002991433,
             0.13957490109409, 0.099136112130958],
        ],
    },
    "grucell_unbatched_nobias": {
        "outputs": [
            ((2,), [0.13273139378743, -0.17473157851185]),
        ],
        "input_grads": [
            [-0.049013570016526, -0.16192151639925, -0.12595956734383],
        ],
        "param_grads": [
            [0, 0, 0, 0, 0, 0, -0.039668724062086, -0.027776231667909, -0.0028201435047221,
             0.032182646409413, 0.02253444403594, 0.0022879405219644, 0.17604964552427,
             0.12327080980679, 0.012515786077638, 0.24675293140236, 0.17277759114814,
             0.01754225005262],
            [0, 0, 0, 0, -0, -0, 0, 0, 0, 0, 0, 0],
        ],
    },
}
