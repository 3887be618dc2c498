"""Recurrent layers: RNN, LSTM and GRU (stacked, optionally bidirectional, over padded or packed
sequences) and their one-step cells RNNCell, LSTMCell and GRUCell.

Each kind has one cell function (``_rnn_cell``, ``_lstm_cell``, ``_gru_cell``) that the layer
and the cell module both call.  A cell function takes the input's share of the gates,
``x @ weight_ih.T + bias_ih``, so that a layer computes it for all time steps of a layer with
one product, and then loops over the time steps, layer after layer.  Everything is recorded
tensor ops, so autograd differentiates through it."""
import math
import numbers
import warnings

import minitorch as _mt

from ... import _C
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _lstm_layer():
    """The recorded form of the op-table's lstm_layer (nn/_rnn_ops.py)."""
    from ..._op_forms import nn_ops
    return nn_ops()["lstm_layer"]


# ---- the cell functions ------------------------------------------------------------------

def _rnn_cell(gates_x, h, w_hh, b_hh, nonlinearity="tanh"):
    """h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act tanh or relu."""
    pre = gates_x + F.linear(h, w_hh, b_hh)
    if nonlinearity == "tanh":
        return _mt.tanh(pre)
    if nonlinearity == "relu":
        return F.relu(pre)
    raise RuntimeError(f"Unknown nonlinearity: {nonlinearity}")


def _lstm_cell(gates_x, state, w_hh, b_hh, w_hr=None):
    """(h', c') from (h, c): gates i, f, g, o in that order, c' = f * c + i * g and
    h' = o * tanh(c') (then h' W_hr^T with a projection)."""
    h, c = state
    i, f, g, o = (gates_x + F.linear(h, w_hh, b_hh)).chunk(4, 1)
    c = _mt.sigmoid(f) * c + _mt.sigmoid(i) * _mt.tanh(g)
    h = _mt.sigmoid(o) * _mt.tanh(c)
    if w_hr is not None:
        h = F.linear(h, w_hr)
    return h, c


def _gru_cell(gates_x, h, w_hh, b_hh):
    """h' = (1 - z) * n + z * h with gates r, z, n in that order:
    r = sigmoid(x_r + h_r), z = sigmoid(x_z + h_z), n = tanh(x_n + r * h_n), where x_* include
    b_ih and h_* = h W_h*^T + b_h*."""
    x_r, x_z, x_n = gates_x.chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, 1)
    r = _mt.sigmoid(x_r + h_r)
    z = _mt.sigmoid(x_z + h_z)
    n = _mt.tanh(x_n + r * h_n)
    return n + z * (h - n)


# ---- the layers --------------------------------------------------------------------------

class RNNBase(Module):
    """The parameters and the time loop shared by RNN, LSTM and GRU.

    mode is 'RNN_TANH', 'RNN_RELU', 'LSTM' or 'GRU'.  For each layer k and direction
    (suffix '' or '_reverse') it registers, in this order, weight_ih_l{k} (gates * hidden_size,
    layer input size), weight_hh_l{k} (gates * hidden_size, hidden or proj size), bias_ih_l{k},
    bias_hh_l{k} (gates * hidden_size; without bias=False) and, for an LSTM with proj_size > 0,
    weight_hr_l{k} (proj_size, hidden_size).  All are initialised uniform in
    +-1/sqrt(hidden_size)."""

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first",
                     "dropout", "bidirectional", "proj_size"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size

        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)

        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        num_directions = 2 if bidirectional else 1
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
            for direction in range(num_directions):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = [("weight_ih", (gate_size, layer_input_size)),
                          ("weight_hh", (gate_size, real_hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                names = []
                for kind, shape in shapes:
                    name = kind + suffix
                    setattr(self, name, Parameter(_C.empty(shape, device=device, dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        """The parameters, one list per layer and direction, in registration order."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """Does nothing: the weights are used as they are (no fused weight buffer)."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    # ---- checks ----
    def check_input(self, input, batch_sizes):
        """Raises unless input (the data of a packed sequence, or a padded batch) has the
        right number of dimensions, feature size and dtype."""
        weight_dtype = self.weight_ih_l0.dtype
        if input.dtype != weight_dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight_dtype}). Convert input: input.to({weight_dtype}), or "
                             f"convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError("input.size(-1) must be equal to input_size. "
                               f"Expected {self.input_size}, got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, hidden)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        """hx with its batch dimension (1) reordered by permutation (None: unchanged)."""
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def _zero_hidden(self, input, batch):
        num_directions = 2 if self.bidirectional else 1
        hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        return _mt.zeros(self.num_layers * num_directions, batch, hidden,
                         dtype=input.dtype, device=input.device)

    def _cell(self, gates_x, state, weights):
        """One time step of one layer and direction: the new state tuple from gates_x (the
        input's share of the gates), the state tuple and that direction's weights (a dict)."""
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    # ---- the time loop ----
    def _run_direction(self, gates_x, batch_sizes, state, weights, reverse):
        """Runs one layer in one direction over the time steps.  gates_x[t] holds the rows of
        the batch_sizes[t] sequences still running at step t (the longest first); the other
        rows of the state keep their value, so that each sequence ends with the state of its
        own last step (forward) or starts from its initial state (reverse)."""
        outputs = [None] * len(gates_x)
        steps = range(len(gates_x) - 1, -1, -1) if reverse else range(len(gates_x))
        for t in steps:
            rows = batch_sizes[t]
            if rows == state[0].size(0):
                state = self._cell(gates_x[t], state, weights)
                outputs[t] = state[0]
            else:
                new = self._cell(gates_x[t], tuple(s[:rows] for s in state), weights)
                state = tuple(_mt.cat([n, s[rows:]], 0) for n, s in zip(new, state))
                outputs[t] = new[0]
        return _mt.cat(outputs, 0), state

    def _run_layers(self, x, batch_sizes, hx):
        """x: the time steps' rows one after the other (packed layout), batch_sizes: the rows
        of each step, hx: a tuple of (layers * directions, batch, *) initial states.  Returns
        the last layer's output rows and the tuple of final states."""
        num_directions = 2 if self.bidirectional else 1
        finals = []
        for layer in range(self.num_layers):
            if layer > 0 and self.dropout > 0 and self.training:
                x = F.dropout(x, self.dropout, training=True)
            outputs = []
            for direction in range(num_directions):
                k = layer * num_directions + direction
                # "weight_ih_l1_reverse" -> weights["weight_ih"], ...
                weights = {name.rsplit("_l", 1)[0]: getattr(self, name)
                           for name in self._all_weights[k]}
                state = tuple(h[k] for h in hx)
                if self.mode == "LSTM" and x.dtype in (_C.float32, _C.float64):
                    # one op for every step, the input's product included (Note [Fused LSTM]
                    # in aten_lite/rnn.h)
                    w = [None if weights.get(n) is None else weights[n].contiguous()
                         for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")]
                    out, h_n, c_n = _lstm_layer()(
                        x.contiguous(), batch_sizes, state[0].contiguous(),
                        state[1].contiguous(), *w, direction == 1)[:3]
                    final = (h_n, c_n)
                else:
                    gx = F.linear(x, weights["weight_ih"], weights.get("bias_ih"))
                    out, final = self._run_direction(gx.split(batch_sizes, 0), batch_sizes, state,
                                                     weights, reverse=direction == 1)
                outputs.append(out)
                finals.append(final)
            x = outputs[0] if num_directions == 1 else _mt.cat(outputs, 1)
        if len(finals) == 1:  # one layer and direction: a view, cheaper to record than a stack
            return x, tuple(f.unsqueeze(0) for f in finals[0])
        return x, tuple(_mt.stack([f[i] for f in finals], 0) for i in range(len(hx)))

    def _run(self, input, hx):
        """The forward pass for a PackedSequence or a batched 3-D input; hx is None, a tensor
        (RNN, GRU) or an (h, c) tuple (LSTM), with the batch in dimension 1.  Returns the
        output (of input's kind) and the final state (of hx's kind)."""
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            sizes = batch_sizes.tolist()
            batch = sizes[0]
        else:
            data, batch_sizes, sorted_indices, unsorted_indices = input, None, None, None
            batch = input.size(0) if self.batch_first else input.size(1)
        if hx is None:
            hx = self._zero_hidden(data, batch)
        self.check_forward_args(data, hx, batch_sizes)
        hx = self.permute_hidden(hx, sorted_indices)

        if batch_sizes is None:
            steps = data.transpose(0, 1) if self.batch_first else data
            length = steps.size(0)
            if length == 0:
                raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
            x = steps.reshape(length * batch, steps.size(2))
            sizes = [batch] * length
        else:
            x = data
        lstm = self.mode == "LSTM"
        out, final = self._run_layers(x, sizes, tuple(hx) if lstm else (hx,))
        final = self.permute_hidden(final if lstm else final[0], unsorted_indices)

        if batch_sizes is not None:
            return PackedSequence(out, batch_sizes, sorted_indices, unsorted_indices), final
        out = out.reshape(length, batch, out.size(1))
        return (out.transpose(0, 1) if self.batch_first else out), final

    def _forward_single_state(self, input, hx, name):
        """forward of RNN and GRU: hx is None or one (layers * directions, [batch,] hidden)
        tensor; an unbatched (L, H_in) input is run as a batch of one."""
        if isinstance(input, PackedSequence):
            return self._run(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D"
                             f"{' tensor' if name == 'RNN' else ''} instead")
        batch_dim = 0 if self.batch_first else 1
        if input.dim() == 3:
            if hx is not None and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            return self._run(input, hx)
        if hx is not None:
            if hx.dim() != 2:
                raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
            hx = hx.unsqueeze(1)
        output, hidden = self._run(input.unsqueeze(batch_dim), hx)
        return output.squeeze(batch_dim), hidden.squeeze(1)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


def _no_proj_size(kwargs, name):
    if "proj_size" in kwargs:
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
    if kwargs:
        raise TypeError(f"{name}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'")


class RNN(RNNBase):
    """Elman RNN: h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh), act 'tanh' or 'relu'.

    Input (L, N, H_in) (batch_first: (N, L, H_in)), unbatched (L, H_in), or a PackedSequence;
    h_0 (num_layers * num_directions, N, H_out) (unbatched: without N), zeros when omitted.
    Returns (output, h_n): output (L, N, num_directions * H_out) (or a PackedSequence), h_n
    shaped as h_0."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None,
                 **kwargs):
        _no_proj_size(kwargs, "RNN")
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout,
                         bidirectional, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def _cell(self, gates_x, state, weights):
        return (_rnn_cell(gates_x, state[0], weights["weight_hh"], weights.get("bias_hh"),
                          self.nonlinearity),)

    def forward(self, input, hx=None):
        return self._forward_single_state(input, hx, "RNN")


class LSTM(RNNBase):
    """Long short-term memory: gates i, f, g, o = x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh,
    c_t = sigmoid(f) * c_{t-1} + sigmoid(i) * tanh(g), h_t = sigmoid(o) * tanh(c_t)
    (times W_hr^T when proj_size > 0, so h has proj_size features and c hidden_size).

    Input as RNN's; (h_0, c_0) optional, each (num_layers * num_directions, N, size)
    (unbatched: without N).  Returns (output, (h_n, c_n))."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device=device, dtype=dtype)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return (hx[0].index_select(1, permutation), hx[1].index_select(1, permutation))

    def _zero_hidden(self, input, batch):
        num_directions = 2 if self.bidirectional else 1
        c = _mt.zeros(self.num_layers * num_directions, batch, self.hidden_size,
                      dtype=input.dtype, device=input.device)
        return super()._zero_hidden(input, batch), c

    def _cell(self, gates_x, state, weights):
        return _lstm_cell(gates_x, state, weights["weight_hh"], weights.get("bias_hh"),
                          weights.get("weight_hr"))

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._run(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        batch_dim = 0 if self.batch_first else 1
        if input.dim() == 3:
            if hx is not None and (hx[0].dim() != 3 or hx[1].dim() != 3):
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            return self._run(input, hx)
        if hx is not None:
            if hx[0].dim() != 2 or hx[1].dim() != 2:
                raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        output, (h, c) = self._run(input.unsqueeze(batch_dim), hx)
        return output.squeeze(batch_dim), (h.squeeze(1), c.squeeze(1))


class GRU(RNNBase):
    """Gated recurrent unit: gates r, z, n with r = sigmoid(W_ir x + b_ir + W_hr h + b_hr),
    z = sigmoid(W_iz x + b_iz + W_hz h + b_hz), n = tanh(W_in x + b_in + r * (W_hn h + b_hn)),
    h_t = (1 - z) * n + z * h_{t-1}.  Inputs and outputs as RNN's."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None, **kwargs):
        _no_proj_size(kwargs, "GRU")
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout,
                         bidirectional, device=device, dtype=dtype)

    def _cell(self, gates_x, state, weights):
        return (_gru_cell(gates_x, state[0], weights["weight_hh"], weights.get("bias_hh")),)

    def forward(self, input, hx=None):
        return self._forward_single_state(input, hx, "GRU")


# ---- the cells ---------------------------------------------------------------------------

class RNNCellBase(Module):
    """The parameters of a one-step cell: weight_ih (num_chunks * hidden_size, input_size),
    weight_hh (num_chunks * hidden_size, hidden_size), bias_ih and bias_hh (None with
    bias=False), all uniform in +-1/sqrt(hidden_size)."""

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_C.empty((num_chunks * hidden_size, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(_C.empty((num_chunks * hidden_size, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_C.empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(_C.empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = self.__dict__.get("nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def _batched(self, input, states, names):
        """Checks the dimensions of input and the state tensors (None: zeros) and makes them
        2-D; returns (input, states, is_batched)."""
        cls = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{cls}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        for state, name in zip(states, names):
            if state is not None and state.dim() not in (1, 2):
                raise ValueError(f"{cls}: Expected {name} to be 1D or 2D, got {state.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if input.size(1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} "
                               f"expected {self.input_size}")
        out = []
        for i, state in enumerate(states):
            if state is None:
                state = _mt.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            elif not batched:
                state = state.unsqueeze(0)
            if state.dim() != 2:
                raise RuntimeError(f"Expected 2D hidden{i} (batch x hidden_size), but got {state.dim()}D tensor")
            if state.size(0) != input.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{i} "
                                   f"batch size {state.size(0)}")
            if state.size(1) != self.hidden_size:
                raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got {state.size(1)}, "
                                   f"expected {self.hidden_size}")
            out.append(state)
        return input, out, batched


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh).  input (N, H_in)
    or (H_in,), hx (N, H) or (H,) (zeros when omitted); returns h'."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, (hx,), batched = self._batched(input, (hx,), ("hidden",))
        h = _rnn_cell(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh,
                      self.bias_hh, self.nonlinearity)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h', c') from input (N, H_in) or (H_in,) and hx = (h, c), each (N, H)
    or (H,) (zeros when omitted)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if hx is None:
            hx = (None, None)
        elif not isinstance(hx, (tuple, list)):
            raise TypeError("lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, "
                            f"not {type(hx).__name__}")
        input, state, batched = self._batched(input, tuple(hx), ("hx[0]", "hx[1]"))
        h, c = _lstm_cell(F.linear(input, self.weight_ih, self.bias_ih), state, self.weight_hh,
                          self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: h' from input (N, H_in) or (H_in,) and hx (N, H) or (H,) (zeros when
    omitted), with gates r, z, n as GRU's."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, (hx,), batched = self._batched(input, (hx,), ("hidden",))
        h = _gru_cell(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return h if batched else h.squeeze(0)
