"""Every op of the op table against its derivative.

Each row of minitorch._op_table.OPS is, by its `grad` slot and the tables below, exactly one of:
  - 'nondiff': NONDIFF calls it on a tensor that requires grad; its floating outputs do not
    require grad, or get a zero gradient (the in-place fills, as torch);
  - differentiable: SAMPLES gives inputs (float64, away from the points where the op is not
    differentiable) and gradcheck compares autograd's gradient with finite differences, for
    the function and the method form;
  - NOT_DIFFERENTIABLE: the op raises NotImplementedError rather than give a wrong gradient.
A new row that none of them covers fails test_every_row_is_covered."""
import math

import pytest

import minitorch as torch
from minitorch._op_table import OPS
from minitorch.autograd import gradcheck

ROWS = {r["name"]: r for r in OPS}
NAN, INF = float("nan"), float("inf")


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


# ---- inputs ----------------------------------------------------------------------------------

def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def R(*shape, lo=0.3, hi=1.3, signed=True):
    """A float64 leaf that requires grad: distinct values of modulus in [lo, hi] (random signs
    when signed), evenly spread with a random offset, so no two are tied or close."""
    n = _numel(shape)
    u = 0.1 + 0.8 * torch.rand(()).item()
    k = torch.randperm(n).to(torch.float64) if n else torch.zeros(0, dtype=torch.float64)
    v = lo + (hi - lo) * (k + u) / max(n, 1)
    if signed:
        v = v * (torch.randint(0, 2, (n,)) * 2 - 1)
    return v.reshape(shape).requires_grad_()


def A(*shape):
    """Signed values, modulus in [0.3, 1.3]."""
    return R(*shape)


def P(*shape, lo=0.5, hi=2.0):
    """Positive values."""
    return R(*shape, lo=lo, hi=hi, signed=False)


def U(*shape):
    """Values in (-0.9, 0.9), away from 0."""
    return R(*shape, lo=0.1, hi=0.9)


def V(values):
    """A float64 leaf that requires grad with these values."""
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def Q(*shape):
    """Multiples of 1/8 (exact in float16 and bfloat16): for conversions, with EXACT."""
    n = _numel(shape)
    return ((torch.randperm(n) - n // 2).to(torch.float64) / 8).reshape(shape).requires_grad_()


EXACT = {"eps": 0.125, "atol": 1e-9, "rtol": 1e-9}   # gradcheck of conversions: exact steps


def C(*shape, dtype=torch.float64):
    """A tensor that does not require grad (an operand of which only the shape matters)."""
    return torch.ones(*shape, dtype=dtype)


def I(values):
    return torch.tensor(values, dtype=torch.int64)


def B(values):
    return torch.tensor(values, dtype=torch.bool)


class S:
    """One sample call of an op: its arguments (tensors that require grad are gradcheck's
    inputs), or `call` to run instead of the op's forms; gc: gradcheck's options;
    method=False when the arguments do not fit the method form, function=False when they do not
    fit the function form (polygamma(n, x) is x.polygamma(n)); gg=False at a point where the
    second derivative does not exist (test_gradgradcheck skips it)."""

    def __init__(self, *args, call=None, gc=None, method=True, function=True, gg=True, **kwargs):
        self.args, self.kwargs, self.call, self.gc, self.method = args, kwargs, call, gc or {}, method
        self.function = function
        self.gg = gg   # False: a point where the second derivative does not exist

    def inputs(self):
        out = []
        for a in list(self.args) + list(self.kwargs.values()):
            for t in (a if isinstance(a, (list, tuple)) else (a,)):
                if isinstance(t, torch.Tensor) and t.requires_grad:
                    out.append(t)
        return out


def _nn(name):
    """The recorded form of an op of nn.functional (forms n of the op table)."""
    return minitorch_nn_ops()[name]


def minitorch_nn_ops():
    from minitorch._op_forms import nn_ops
    return nn_ops()


# name -> samples (a function, so that no tensor requires grad outside the tests)
SAMPLES = {
    'abs': lambda: [S(A(2, 3)), S(A())],
    'acos': lambda: [S(U(2, 3))],
    'acosh': lambda: [S(P(2, 3, lo=1.2, hi=3.0))],
    'add': lambda: [S(A(2, 3), A(3)), S(A(2, 3), 2.5), S(A(2, 3), A(2, 1), alpha=2), S(A(), A(2)),
                    S(A(2, 3), A(2, 3), alpha=-0.5)],
    'addbmm': lambda: [S(A(2, 3), A(4, 2, 5), A(4, 5, 3)),
                       S(A(3), A(4, 2, 5), A(4, 5, 3), beta=0.5, alpha=2)],
    'addcdiv': lambda: [S(A(2, 3), A(2, 3), P(2, 3), value=0.5), S(A(3), A(2, 3), P(2, 1))],
    'addcmul': lambda: [S(A(2, 3), A(2, 3), A(2, 3), value=2), S(A(1, 3), A(2, 1), A(3))],
    'addmm': lambda: [S(A(2, 3), A(2, 4), A(4, 3)), S(A(3), A(2, 4), A(4, 3), beta=0.5, alpha=-2)],
    'addmv': lambda: [S(A(2), A(2, 3), A(3)), S(A(1), A(2, 3), A(3), beta=2, alpha=0.5)],
    'addr': lambda: [S(A(2, 3), A(2), A(3)), S(A(3), A(2), A(3), beta=2, alpha=0.5)],
    'adjoint': lambda: [S(A(2, 3)), S(A(2, 2, 3)),
                        S(A(2, 3, 2), call=lambda x: torch.view_as_complex(x).adjoint())],
    'alias_copy': lambda: [S(A(2, 3))],
    'amax': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), -1, True), S(A(2, 3, 2), (0, 2)),
                     S(A())],
    'amin': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), -1, True), S(A(2, 3, 2), (0, 2))],
    'aminmax': lambda: [S(A(2, 3)), S(A(2, 3), dim=1), S(A(2, 3), dim=-1, keepdim=True)],
    'angle': lambda: [S(A(2, 3)), S(A(3, 2), call=lambda x: torch.angle(torch.view_as_complex(x)))],
    'as_strided': lambda: [S(A(3, 4), (2, 2), (1, 2)), S(A(3, 4), (2, 3), (4, 1), 1),
                           S(A(6), (3, 3), (1, 1)),        # overlapping windows
                           S(A(3, 4), call=lambda x: x.t().as_strided((2, 2), (1, 4), 1))],
    'as_strided_copy': lambda: [S(A(3, 4), (2, 2), (1, 2)), S(A(6), (2, 3), (1, 1), 1)],
    'as_subclass': lambda: [S(A(2, 3), _Sub)],
    'asin': lambda: [S(U(2, 3))],
    'asinh': lambda: [S(A(2, 3))],
    'atan': lambda: [S(A(2, 3))],
    'atan2': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), A(3))],
    'atanh': lambda: [S(U(2, 3))],
    'atleast_1d': lambda: [S(A()), S(A(2, 3)), S(A(), A(2))],
    'atleast_2d': lambda: [S(A()), S(A(3)), S(A(), A(2), A(2, 2))],
    'atleast_3d': lambda: [S(A()), S(A(3)), S(A(2, 3)), S([A(2), A(2, 3, 1)])],
    'baddbmm': lambda: [S(A(2, 2, 3), A(2, 2, 4), A(2, 4, 3), beta=0.5, alpha=2),
                        S(A(3), A(2, 2, 4), A(2, 4, 3))],
    'bfloat16': lambda: [S(Q(2, 3), gc=EXACT)],
    'block_diag': lambda: [S(A(2, 2), A(3), A())],
    'bmm': lambda: [S(A(2, 2, 3), A(2, 3, 4))],
    'broadcast_tensors': lambda: [S(A(2, 1), A(3)), S(A(), A(2, 2))],
    'broadcast_to': lambda: [S(A(3, 1), (2, 3, 4)), S(A(), (2,))],
    'cartesian_prod': lambda: [S(A(2), A(3)), S(A(3))],
    'cat': lambda: [S([A(2, 3), A(1, 3)]), S([A(2, 3), A(2, 2)], 1), S([A(2, 3), A(2, 1)], dim=-1),
                    S([torch.zeros(0, dtype=torch.float64), A(2, 3)])],
    'cdouble': lambda: [S(A(3))],
    'cfloat': lambda: [S(Q(3), gc=EXACT)],
    'ceil': lambda: [S(V([[0.3, -1.4, 2.6], [-0.2, 0.7, 1.5]]))],
    'chunk': lambda: [S(A(5, 2), 2), S(A(2, 5), 3, 1), S(A(2, 6), 3, dim=-1)],
    'clamp': lambda: [S(A(2, 3), -0.5, 0.5), S(A(2, 3), min=-0.5), S(A(2, 3), max=0.5),
                      S(A(2, 3), A(3), A(2, 3)), S(A(2, 3), min=A(2, 1)), S(A(2, 3), None, A(3)),
                      S(A(4), V([0.1, 0.9, -0.5, 2.0]), V([0.2, 0.5, -0.9, 2.5]))],  # min > max
    'clamp_max': lambda: [S(A(2, 3), 0.5), S(A(2, 3), A(3))],
    'clamp_min': lambda: [S(A(2, 3), -0.5), S(A(2, 3), A(3))],
    'clone': lambda: [S(A(2, 3))],
    'column_stack': lambda: [S([A(3), A(3, 2)])],
    'complex': lambda: [S(A(2, 3), A(2, 3), call=lambda a, b: torch.view_as_real(torch.complex(a, b)))],
    'conj': lambda: [S(A(2, 3)), S(A(3, 2), call=lambda x: torch.view_as_complex(x).conj())],
    'conj_physical': lambda: [S(A(2, 3)),
                              S(A(3, 2), call=lambda x: torch.conj_physical(torch.view_as_complex(x)))],
    'contiguous': lambda: [S(A(2, 3)), S(A(3, 2), call=lambda x: x.t().contiguous())],
    'copy_': lambda: [S(A(2, 3), A(3), call=lambda x, y: (x * 1).copy_(y)),
                      S(A(2, 3), call=lambda x: torch.zeros(2, 3, dtype=torch.float64).copy_(x * 2))],
    'copysign': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), -1.0), S(A(2, 3), A(3))],
    'cos': lambda: [S(A(2, 3))],
    'cosh': lambda: [S(A(2, 3))],
    'cpu': lambda: [S(A(2, 3))],
    # a copy to the device and back through the gradient (a device build only)
    'cuda': lambda: [S(A(2, 3))] if torch.cuda.device_count() else [],
    'pin_memory': lambda: [S(A(2, 3))] if torch.cuda.device_count() else [],
    'cummax': lambda: [S(A(2, 3), 1), S(A(2, 3), dim=-2), S(A(), 0)],
    'cummin': lambda: [S(A(2, 3), 1), S(A(2, 3), dim=-2)],
    'cumprod': lambda: [S(A(2, 3), 1), S(A(2, 3), dim=0), S(A(), 0),
                        S(V([[0.0, 1.2, -0.7, 0.0], [0.5, 0.0, 1.5, -0.8]]), 1)],
    'cumsum': lambda: [S(A(2, 3), 1), S(A(2, 3), dim=-2), S(A(), 0)],
    'deg2rad': lambda: [S(A(2, 3))],
    'diag': lambda: [S(A(3)), S(A(3), 1), S(A(3), -2), S(A(3, 4)), S(A(3, 4), 1), S(A(3, 4), -1)],
    'diag_embed': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), -1, 0, 2)],
    'diagflat': lambda: [S(A(2, 2)), S(A(3), -1)],
    'diagonal': lambda: [S(A(3, 4)), S(A(3, 4), 1), S(A(2, 3, 4), -1, 0, 2),
                         S(A(2, 3, 4), offset=1, dim1=-1, dim2=0),
                         S(A(3, 4), call=lambda x: x.t().diagonal(1))],
    'diagonal_copy': lambda: [S(A(3, 4), 1)],
    'div': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), 2.0), S(A(2, 3), A(3)), S(A(), A(2)),
                    S(A(2, 3), 2.0, rounding_mode='trunc')],
    'dot': lambda: [S(A(3), A(3))],
    'double': lambda: [S(A(2, 3)), S(Q(3), call=lambda x: x.float().double(), gc=EXACT)],
    'dsplit': lambda: [S(A(1, 2, 4), 2), S(A(1, 2, 4), [1, 3])],
    'dstack': lambda: [S([A(2), A(2)]), S([A(2, 3), A(2, 3, 2)])],
    'einsum': lambda: [S('ij,jk->ik', A(2, 3), A(3, 4)), S('ii->i', A(3, 3)), S('ii', A(3, 3)),
                       S('bij,bjk->bik', A(2, 2, 3), A(2, 3, 2)), S('...i,i', A(2, 3), A(3)),
                       S('i,j->ij', A(2), A(3)), S('ij->', A(2, 3)), S('iij->j', A(2, 2, 3)),
                       S('ij,jk,kl->il', A(2, 3), A(3, 2), A(2, 2)),
                       S(A(2, 3), [0, 1], A(3), [1], [0])],
    'erf': lambda: [S(A(2, 3))],
    'erfc': lambda: [S(A(2, 3))],
    'erfinv': lambda: [S(U(2, 3))],
    'exp': lambda: [S(A(2, 3))],
    'exp2': lambda: [S(A(2, 3))],
    'expand': lambda: [S(A(3, 1), 2, 3, 4), S(A(3, 1), (3, -1)), S(A(), 3)],
    'expand_as': lambda: [S(A(3, 1), C(2, 3, 4))],
    'expand_copy': lambda: [S(A(3, 1), (2, 3, 4))],
    'expm1': lambda: [S(A(2, 3))],
    'fill_': lambda: [S(A(2, 3), A(), call=lambda x, v: (x * 1).fill_(v)),
                      S(A(2, 3), call=lambda x: (x * 1).fill_(2.0))],
    'flatten': lambda: [S(A(2, 3, 2)), S(A(2, 3, 2), 1), S(A(2, 3, 2), 0, 1), S(A())],
    'flip': lambda: [S(A(2, 3), [0]), S(A(2, 3), (0, 1)), S(A(2, 3, 2), [-1])],
    'fliplr': lambda: [S(A(2, 3))],
    'flipud': lambda: [S(A(3, 2))],
    'float': lambda: [S(Q(2, 3), gc=EXACT)],
    'floor': lambda: [S(V([[0.3, -1.4, 2.6], [-0.2, 0.7, 1.5]]))],
    'fmax': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), A(3)), S(V([NAN, 1.5, 0.2]), V([0.4, NAN, 0.9]))],
    'fmin': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), A(3)), S(V([NAN, 1.5, 0.2]), V([0.4, NAN, 0.9]))],
    'fmod': lambda: [S(V([[2.5, -1.3, 3.7], [0.4, 5.2, -2.2]]), V([[0.9, 0.7, 1.1], [0.3, 1.6, 0.8]])),
                     S(V([2.5, -1.3, 3.7]), 0.7)],
    'frac': lambda: [S(V([[0.3, -1.4, 2.6], [-0.2, 0.7, 1.5]]))],
    'gather': lambda: [S(A(2, 3), 1, I([[0, 0, 2], [1, 0, 1]])), S(A(3, 2), 0, I([[2, 1], [2, 0]])),
                       S(A(2, 3), -1, I([[1], [2]]))],
    'ger': lambda: [S(A(2), A(3))],
    'half': lambda: [S(Q(2, 3), gc=EXACT)],
    'hsplit': lambda: [S(A(2, 4), 2), S(A(4), [1, 3])],
    'hstack': lambda: [S([A(2), A(3)]), S([A(2, 1), A(2, 2)])],
    'hypot': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), A(3))],
    'imag': lambda: [S(A(3, 2), call=lambda x: torch.imag(torch.view_as_complex(x)))],
    'index_add': lambda: [S(A(3, 2), 0, I([0, 2, 0]), A(3, 2)), S(A(2, 3), 1, I([1, 1]), A(2, 2), alpha=2),
                          S(A(2, 3), -1, I([2]), A(2, 1))],
    'index_copy': lambda: [S(A(3, 2), 0, I([2, 0]), A(2, 2)), S(A(2, 3), 1, I([1]), A(2, 1))],
    'index_fill': lambda: [S(A(3, 2), 0, I([0, 2]), 1.5), S(A(3, 2), 1, I([1]), A())],
    'index_put': lambda: [S(A(3, 2), (I([0, 2]),), A(2, 2)),
                          S(A(3, 2), (I([0, 0]), I([1, 1])), A(2), accumulate=True),
                          S(A(3, 2), (I([0, 2]), I([1, 0])), A(1)),
                          S(A(3, 2), (B([[True, False], [False, False], [True, True]]),), A(3))],
    'index_select': lambda: [S(A(3, 2), 0, I([2, 0, 2])), S(A(2, 3), -1, I([1])), S(A(), 0, I([0, 0]))],
    'inner': lambda: [S(A(2, 3), A(4, 3)), S(A(3), A(3)), S(A(), A(2))],
    'kron': lambda: [S(A(2, 2), A(2, 3)), S(A(2), A(2, 2))],
    'kthvalue': lambda: [S(A(2, 3), 2), S(A(2, 3), 1, 0, True), S(A(3), 3)],
    'lerp': lambda: [S(A(2, 3), A(2, 3), 0.3), S(A(2, 3), A(2, 3), U(2, 3)), S(A(2, 3), A(3), 0.7),
                     S(A(2, 3), A(2, 3), 0.9)],
    'lgamma': lambda: [S(P(2, 3, lo=0.3, hi=7.0)), S(V([-0.5, -1.7, -2.3, 12.5]))],
    'log': lambda: [S(P(2, 3))],
    'log10': lambda: [S(P(2, 3))],
    'log1p': lambda: [S(U(2, 3))],
    'log2': lambda: [S(P(2, 3))],
    'logaddexp': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), A(3))],
    'logaddexp2': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), A(3))],
    'logcumsumexp': lambda: [S(A(2, 3), 1), S(A(2, 3), dim=0), S(V([50.0, 80.0, -30.0, 81.0]), 0)],
    'logit': lambda: [S(P(2, 3, lo=0.1, hi=0.9)), S(V([[0.1, 0.3, 0.5], [0.7, 0.9, 0.15]]), 0.2)],
    'softmax': lambda: [S(A(2, 3), 1), S(A(2, 3, 2), 0), S(A(4), -1)],
    'log_softmax': lambda: [S(A(2, 3), 1), S(A(2, 3, 2), 0), S(A(4), -1)],
    'logsumexp': lambda: [S(A(2, 3), 1), S(A(2, 3), (0, 1)), S(A(2, 3), -1, True),
                          S(V([100.0, 101.0, 99.0]), 0)],
    'masked_fill': lambda: [S(A(2, 3), B([[True, False, True], [False, False, True]]), 2.0),
                            S(A(2, 3), B([True, False, True]), A())],
    'masked_scatter': lambda: [S(A(2, 3), B([[True, False, True], [False, False, True]]), A(4)),
                               S(A(2, 3), B([True, False, True]), A(2, 2))],
    'masked_select': lambda: [S(A(2, 3), B([[True, False, True], [False, False, True]])),
                              S(A(2, 3), B([True, False, True])),
                              S(A(3), B([[True, False, True], [False, True, True]]))],
    'matmul': lambda: [S(A(3), A(3)), S(A(3), A(3, 2)), S(A(2, 3), A(3)), S(A(2, 3), A(3, 2)),
                       S(A(2, 2, 3), A(3)), S(A(3), A(2, 3, 2)), S(A(2, 1, 2, 3), A(3, 3, 2)),
                       S(A(2, 2, 3), A(2, 3, 2)), S(A(2, 2, 3), A(3, 2))],
    'max': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), -1, True), S(A(2, 3), A(2, 3)),
                    S(A(2, 3), dim=0)],
    'maximum': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), A(3))],
    'mean': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), (0, 1), True), S(A(2, 3), dim=-1), S(A())],
    'median': lambda: [S(A(2, 3)), S(A(3)), S(A(2, 3), 1), S(A(2, 3), -2, True)],
    'meshgrid': lambda: [S(A(2), A(3), indexing='ij'), S(A(2), A(3), indexing='xy')],
    'min': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), -1, True), S(A(2, 3), A(2, 3))],
    'minimum': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), A(3))],
    'mm': lambda: [S(A(2, 3), A(3, 4))],
    'mode': lambda: [S(A(2, 3)), S(A(2, 3), 0), S(A(2, 3), -1, True)],
    'movedim': lambda: [S(A(2, 3, 4), 0, -1), S(A(2, 3, 4), (0, 1), (2, 0))],
    'msort': lambda: [S(A(3, 2)), S(A(4))],
    'mul': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), 2.0), S(A(2, 3), A(3)), S(A(), A(2, 3))],
    'mv': lambda: [S(A(2, 3), A(3))],
    'nan_to_num': lambda: [S(A(2, 3)), S(V([NAN, INF, -INF, 1.5]), nan=0.5, posinf=2.0, neginf=-2.0)],
    'nanmean': lambda: [S(V([[1.5, NAN, 0.7], [NAN, -0.4, 2.2]])),
                        S(V([[1.5, NAN, 0.7], [NAN, -0.4, 2.2]]), 1),
                        S(V([[1.5, NAN, 0.7], [NAN, -0.4, 2.2]]), dim=0, keepdim=True)],
    'nanmedian': lambda: [S(V([1.5, NAN, 0.7, -0.3])), S(V([[1.5, NAN, 0.7], [-0.4, 2.2, 0.1]]), 1)],
    'nanquantile': lambda: [S(V([1.5, NAN, 0.7, -0.3]), 0.4),
                            S(V([[1.5, NAN, 0.7], [-0.4, 2.2, 0.1]]), 0.25, dim=1)],
    'nansum': lambda: [S(V([[1.5, NAN, 0.7], [NAN, -0.4, 2.2]])),
                       S(V([[1.5, NAN, 0.7], [NAN, -0.4, 2.2]]), 1),
                       S(V([[1.5, NAN, 0.7], [NAN, -0.4, 2.2]]), dim=0, keepdim=True)],
    'narrow': lambda: [S(A(4, 3), 0, 1, 2), S(A(3, 4), -1, 2, 2), S(A(3, 4), 1, torch.tensor(1), 2),
                       S(A(4, 3), 0, -2, 2)],
    'narrow_copy': lambda: [S(A(4, 3), 0, 1, 2)],
    'neg': lambda: [S(A(2, 3))],
    'norm': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), INF), S(A(2, 3), -INF), S(A(2, 3), 3),
                     S(A(2, 3), 0), S(A(2, 3), 'fro', 1), S(A(2, 3), 2, (0, 1), True),
                     S(A(2, 3), p=2, dim=-1), S(A(2, 3), 1.5, 0),
                     S(A(3, 2), call=lambda x: torch.norm(torch.view_as_complex(x)))],
    'outer': lambda: [S(A(2), A(3))],
    'permute': lambda: [S(A(2, 3, 4), 2, 0, 1), S(A(2, 3, 4), (1, 2, 0)), S(A(2, 3), dims=(1, 0))],
    'permute_copy': lambda: [S(A(2, 3, 4), (2, 0, 1))],
    'positive': lambda: [S(A(2, 3))],
    'pow': lambda: [S(P(2, 3), A(2, 3)), S(A(2, 3), 2), S(A(2, 3), 3.0), S(P(2, 3), 0.5),
                    S(P(2, 3), A(3)), S(A(2, 3), 0), S(2.5, A(2, 3), method=False)],
    'prod': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), -1, True), S(A()),
                     S(V([[0.5, 0.0, 1.5], [0.7, -1.2, 0.9]])), S(V([[0.5, 0.0, 0.0], [0.7, -1.2, 0.9]])),
                     S(V([[0.5, 0.0, 0.0], [0.7, -1.2, 0.0]]), 1)],
    'quantile': lambda: [S(A(2, 3), 0.3), S(A(2, 3), 0.75, dim=1), S(A(2, 3), 0.5, dim=0, keepdim=True),
                         S(A(5), 0.6, interpolation='midpoint'), S(A(5), 0.6, interpolation='lower'),
                         S(A(5), torch.tensor([0.2, 0.9], dtype=torch.float64))],
    'rad2deg': lambda: [S(A(2, 3))],
    'ravel': lambda: [S(A(2, 3)), S(A(2, 3), call=lambda x: x.t().ravel())],
    'polar': lambda: [S(A(2, 3), A(2, 3), call=lambda a, b: torch.view_as_real(torch.polar(a, b)))],
    'real': lambda: [S(A(2, 3)), S(A(3, 2), call=lambda x: torch.real(torch.view_as_complex(x)))],
    'reciprocal': lambda: [S(A(2, 3))],
    'relu': lambda: [S(A(2, 3))],
    'remainder': lambda: [S(V([[2.5, -1.3, 3.7], [0.4, 5.2, -2.2]]), V([[0.9, 0.7, 1.1], [0.3, 1.6, 0.8]])),
                          S(V([2.5, -1.3, 3.7]), 0.7)],
    'repeat': lambda: [S(A(2, 3), 2, 1), S(A(2, 3), (2, 1, 2)), S(A(), 3)],
    'repeat_interleave': lambda: [S(A(3), 2), S(A(2, 3), I([1, 0, 2]), 1), S(A(2, 3), 2, dim=0)],
    'reshape': lambda: [S(A(2, 3), (3, 2)), S(A(2, 3), -1), S(A(2, 3), 3, -1)],
    'reshape_as': lambda: [S(A(2, 3), C(3, 2))],
    'resolve_conj': lambda: [S(A(2, 3))],
    'resolve_neg': lambda: [S(A(2, 3))],
    'roll': lambda: [S(A(2, 3), 1), S(A(2, 3), 1, 1), S(A(2, 3), (1, -1), (0, 1))],
    'rot90': lambda: [S(A(2, 3)), S(A(2, 3), 2), S(A(2, 3), -1, (1, 0)), S(A(2, 3, 2), 1, (0, 2)),
                      S(A(2, 3), 0)],
    'round': lambda: [S(V([[0.3, -1.4, 2.6], [-0.2, 0.7, 1.6]]))],
    'rsqrt': lambda: [S(P(2, 3))],
    'rsub': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), 2.0), S(A(2, 3), A(3), alpha=2)],
    'scatter': lambda: [S(A(2, 3), 1, I([[0, 2], [1, 0]]), A(2, 2)), S(A(2, 3), 0, I([[1, 0, 1]]), 1.5),
                        S(A(2, 3), 1, I([[0], [2]]), A(2, 3))],
    'scatter_add': lambda: [S(A(2, 3), 1, I([[0, 0], [2, 1]]), A(2, 2)), S(A(3), 0, I([0, 0, 2, 1]), A(4)),
                            S(A(2, 3), 1, I([[0], [2]]), A(2, 3))],
    'scatter_reduce': lambda: [S(A(2, 3), 1, I([[0, 0, 2], [1, 1, 1]]), A(2, 3), reduce, include_self=inc)
                               for reduce in ("sum", "prod", "mean", "amax", "amin")
                               for inc in (True, False)] + [
        S(V([[0.5, 0.0, 1.5], [0.7, -1.2, 0.9]]), 1, I([[0, 0, 2], [1, 1, 1]]),
          V([[0.0, 1.1, 0.4], [0.8, 0.0, 0.0]]), "prod", include_self=inc,
          gg=False)   # several zeros at one position: torch refuses the double backward
        for inc in (True, False)],
    'select': lambda: [S(A(3, 4), 0, 1), S(A(3, 4), -1, -2), S(A(3), 0, 2)],
    'select_copy': lambda: [S(A(3, 4), 1, 2)],
    'sgn': lambda: [S(A(2, 3)), S(A(3, 2), call=lambda x: torch.sgn(torch.view_as_complex(x)))],
    'share_memory_': lambda: [S(A(2, 3), call=lambda x: (x * 1).share_memory_())],
    'sigmoid': lambda: [S(A(2, 3))],
    'sign': lambda: [S(A(2, 3))],
    'sin': lambda: [S(A(2, 3))],
    'sinc': lambda: [S(A(2, 3)), S(V([0.0, 0.5, -1.5]), gg=False)],   # torch's too: NaN at 0
    'sinh': lambda: [S(A(2, 3))],
    'slice_copy': lambda: [S(A(5, 2), 0, 1, 4, 2), S(A(2, 5), 1, None, None, 2)],
    'sort': lambda: [S(A(2, 3)), S(A(2, 3), 0), S(A(2, 3), descending=True), S(A(3), -1, True)],
    'split': lambda: [S(A(5, 2), 2), S(A(5, 2), [1, 4]), S(A(2, 5), 2, 1), S(A(2, 5), [3, 2], dim=-1)],
    '_split': lambda: [S(A(5, 2), 2), S(A(2, 5), 2, 1), S(A(2, 6), 3, dim=-1)],
    'split_copy': lambda: [S(A(5, 2), 2)],
    'split_with_sizes_copy': lambda: [S(A(5, 2), [2, 3])],
    'sqrt': lambda: [S(P(2, 3))],
    'square': lambda: [S(A(2, 3))],
    'squeeze': lambda: [S(A(2, 1, 3)), S(A(2, 1, 3), 1), S(A(1, 3, 1), (0, 2)), S(A(1))],
    'squeeze_copy': lambda: [S(A(2, 1, 3)), S(A(2, 1, 3), 1)],
    'stack': lambda: [S([A(2, 3), A(2, 3)]), S([A(2), A(2)], 1), S([A(), A()]), S([A(2, 3), A(2, 3)], dim=-1)],
    'std': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), 1, keepdim=True), S(A(2, 3), (0, 1), correction=0),
                    S(A(2, 3), dim=-1, unbiased=False), S(A(4), correction=2)],
    'std_mean': lambda: [S(A(2, 3)), S(A(2, 3), 1, keepdim=True), S(A(2, 3), dim=0, correction=0)],
    'sub': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), 2.0), S(A(2, 3), A(3), alpha=2)],
    'sum': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), (0, 1)), S(A(2, 3), -1, True), S(A(2, 3), dim=0),
                    S(A())],
    'swapaxes': lambda: [S(A(2, 3, 4), 0, 2), S(A(2, 3), -1, 0)],
    't': lambda: [S(A(2, 3)), S(A(3))],
    't_copy': lambda: [S(A(2, 3))],
    'take': lambda: [S(A(2, 3), I([[0, 5], [5, -1]]))],
    'take_along_dim': lambda: [S(A(2, 3), I([[0, 2], [1, 1]]), 1), S(A(2, 3), I([5, 0, 5])),
                               S(A(2, 3), I([[1, 0]]), dim=1)],
    'tan': lambda: [S(U(2, 3))],
    'tanh': lambda: [S(A(2, 3))],
    'tensor_split': lambda: [S(A(5, 2), 2), S(A(5, 2), [1, 3]), S(A(2, 5), 3, 1), S(A(2, 5), I([1, 4]), dim=-1)],
    'tensordot': lambda: [S(A(2, 3, 4), A(3, 4, 2)), S(A(2, 3), A(3, 2), 1),
                          S(A(2, 3, 4), A(4, 2, 3), ([1, 2], [2, 0]))],
    'tile': lambda: [S(A(2, 3), (2,)), S(A(2, 3), (2, 1, 2))],
    'to': lambda: [S(A(2, 3), torch.float64), S(A(2, 3), torch.complex128), S(Q(2, 3), torch.float32, gc=EXACT),
                   S(Q(2, 3), dtype=torch.float16, gc=EXACT)],
    'topk': lambda: [S(A(2, 3), 2), S(A(2, 3), 1, 0), S(A(2, 3), 2, largest=False), S(A(5), 3, sorted=False)],
    'trace': lambda: [S(A(3, 3)), S(A(2, 3))],
    'transpose': lambda: [S(A(2, 3, 4), 0, 2), S(A(2, 3), -1, -2)],
    'transpose_copy': lambda: [S(A(2, 3, 4), 0, 2)],
    'tril': lambda: [S(A(3, 4)), S(A(3, 4), 1), S(A(2, 3, 3), -1)],
    'triu': lambda: [S(A(3, 4)), S(A(3, 4), 1), S(A(2, 3, 3), -1)],
    'trunc': lambda: [S(V([[0.3, -1.4, 2.6], [-0.2, 0.7, 1.5]]))],
    'type': lambda: [S(A(2, 3), torch.float64), S(Q(2, 3), torch.float32, gc=EXACT)],
    'type_as': lambda: [S(A(2, 3), C(2)), S(Q(2, 3), C(2, dtype=torch.float32), gc=EXACT)],
    'unbind': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), -1)],
    'unbind_copy': lambda: [S(A(2, 3), 1)],
    'unflatten': lambda: [S(A(2, 6), 1, (2, 3)), S(A(6), 0, (3, -1))],
    'unfold': lambda: [S(A(7), 0, 3, 2), S(A(2, 6), 1, 3, 1), S(A(4, 2), 0, 2, 2), S(A(), 0, 1, 1)],
    'unfold_copy': lambda: [S(A(7), 0, 3, 2)],
    'unsqueeze': lambda: [S(A(2, 3), 0), S(A(2, 3), -1), S(A(), 0)],
    'unsqueeze_copy': lambda: [S(A(2, 3), 1)],
    'var': lambda: [S(A(2, 3)), S(A(2, 3), 1), S(A(2, 3), 1, keepdim=True), S(A(2, 3), (0, 1), correction=0),
                    S(A(2, 3), dim=-1, unbiased=False), S(A(4), correction=2)],
    'var_mean': lambda: [S(A(2, 3)), S(A(2, 3), 1, keepdim=True), S(A(2, 3), dim=0, correction=0)],
    'vdot': lambda: [S(A(3), A(3)),
                     S(A(3, 2), A(3, 2), call=lambda x, y: torch.vdot(torch.view_as_complex(x),
                                                                        torch.view_as_complex(y)))],
    'view': lambda: [S(A(2, 3), 3, 2), S(A(2, 3), (6,)), S(A(2, 3), -1)],
    'view_as': lambda: [S(A(2, 3), C(3, 2))],
    'view_as_complex': lambda: [S(A(3, 2)), S(A(2, 3, 2))],
    'view_as_complex_copy': lambda: [S(A(3, 2))],
    'view_as_real': lambda: [S(A(3, 2), call=lambda x: torch.view_as_real(torch.view_as_complex(x) * (1 + 2j)))],
    'view_as_real_copy': lambda: [S(A(3, 2), call=lambda x: torch.view_as_real_copy(torch.view_as_complex(x)))],
    'view_copy': lambda: [S(A(2, 3), (3, 2))],
    'vsplit': lambda: [S(A(4, 2), 2), S(A(4, 2), [1, 3])],
    'vstack': lambda: [S([A(3), A(2, 3)])],
    'where': lambda: [S(B([[True, False, True], [False, True, True]]), A(2, 3), A(2, 3), method=False),
                      S(B([True, False, True]), A(2, 3), 0.0, method=False),
                      S(B([[True], [False]]), 1.5, A(3), method=False),
                      S(A(2, 3), B([True, False, True]), A(2, 1), call=lambda x, c, y: x.where(c, y))],
    'xlogy': lambda: [S(A(2, 3), P(2, 3)), S(A(2, 3), 2.5), S(V([0.0, 1.2]), V([0.5, 0.7]))],
    'zero_': lambda: [S(A(2, 3), call=lambda x: (x * 1).zero_())],
    # nn.functional's ops (forms n/k of the op table), called through their recorded forms
    'linear': lambda: [S(A(4, 3), A(5, 3), A(5), call=_nn('linear')),
                       S(A(2, 4, 3), A(5, 3), call=_nn('linear')),
                       S(A(3), A(2, 3), A(2), call=_nn('linear'))],
    'gelu': lambda: [S(A(2, 3), call=_nn('gelu')),
                     S(A(2, 3), approximate='tanh', call=_nn('gelu'))],
    'silu': lambda: [S(A(2, 3), call=_nn('silu'))],
    'softplus': lambda: [S(A(2, 3), call=_nn('softplus')),
                         S(A(2, 3), 2.0, 1.0, call=_nn('softplus'))],
    'mish': lambda: [S(A(2, 3), call=_nn('mish'))],
    'elu': lambda: [S(A(2, 3), call=_nn('elu')), S(A(2, 3), 0.5, 1.2, 0.7, call=_nn('elu'))],
    'leaky_relu': lambda: [S(A(2, 3), call=_nn('leaky_relu')),
                           S(A(2, 3), 0.2, call=_nn('leaky_relu'))],
    'hardtanh': lambda: [S(V([-1.5, -0.5, 0.2, 0.9, 1.7]), call=_nn('hardtanh')),
                         S(A(2, 3), 0.0, 0.6, call=_nn('hardtanh'))],
    'threshold': lambda: [S(V([-1.5, -0.5, 0.2, 0.9, 1.7]), 0.1, 20.0, call=_nn('threshold'))],
    'hardswish': lambda: [S(V([-4.0, -2.5, -0.5, 0.7, 2.0, 3.5]), call=_nn('hardswish'))],
    'hardsigmoid': lambda: [S(V([-4.0, -2.5, -0.5, 0.7, 2.0, 3.5]), call=_nn('hardsigmoid'))],
    'hardshrink': lambda: [S(V([-1.5, -0.3, 0.2, 0.9]), call=_nn('hardshrink'))],
    'softshrink': lambda: [S(V([-1.5, -0.3, 0.2, 0.9]), 0.4, call=_nn('softshrink'))],
    'logsigmoid': lambda: [S(A(2, 3), call=_nn('logsigmoid'))],
    'prelu': lambda: [S(A(2, 3, 2), A(1, 3, 1), call=_nn('prelu')),
                      S(A(2, 3), A(1), call=_nn('prelu'))],
    'smooth_l1': lambda: [S(V([-1.5, -0.3, 0.2, 0.9]), 0.5, call=_nn('smooth_l1'))],
    'huber': lambda: [S(V([-1.5, -0.3, 0.2, 0.9]), 0.5, call=_nn('huber'))],
    'nll': lambda: [S(A(4, 3), I([0, 2, 1, 2]), None, reduction, 1, call=_nn('nll'))
                    for reduction in ('none', 'sum', 'mean')] + [
        S(A(4, 3), I([0, 2, 1, 2]), torch.tensor([1.0, 0.0, 2.0, 0.5], dtype=torch.float64),
          'mean', 1, call=_nn('nll')),
        S(A(2, 3, 2), I([[0, 2], [1, 1]]), None, 'mean', 1, call=_nn('nll'))],
    'layer_norm': lambda: [S(A(2, 3, 4), 1, A(4), A(4), 1e-5, call=_nn('layer_norm')),
                           S(A(2, 3, 4), 2, None, None, 1e-5, call=_nn('layer_norm')),
                           S(A(3, 4), 1, A(4), None, 1e-3, call=_nn('layer_norm'))],
    'batch_norm': lambda: [S(A(4, 3), A(3), A(3), None, None, 0.1, 1e-5, call=_nn('batch_norm')),
                           S(A(2, 3, 2, 2), None, None, None, None, 0.1, 1e-5,
                             call=_nn('batch_norm'))],
    'embedding': lambda: [S(A(5, 3), I([0, 2, 2, 4]), call=_nn('embedding'))],
    'bce_logits': lambda: [S(A(2, 3), P(2, 3, lo=0.1, hi=0.9), call=_nn('bce_logits')),
                           S(A(2, 3), P(2, 3, lo=0.1, hi=0.9), P(3), call=_nn('bce_logits'))],
    'bce': lambda: [S(P(2, 3, lo=0.1, hi=0.9), P(2, 3, lo=0.1, hi=0.9), call=_nn('bce'))],
    # the fused LSTM layer (its saved internals are not outputs a user differentiates)
    'lstm_layer': lambda: [
        S(A(5, 3), [2, 2, 1], A(2, 2), A(2, 2), A(8, 3), A(8, 2), A(8), A(8), None, rev,
          call=lambda *a: _nn('lstm_layer')(*a)[:3]) for rev in (False, True)] + [
        S(A(4, 2), [2, 2], A(2, 1), A(2, 2), A(8, 2), A(8, 1), None, None, A(1, 2), False,
          call=lambda *a: _nn('lstm_layer')(*a)[:3]),
        S(A(3, 2), [2, 1], A(2, 2), A(2, 2), A(8, 2), A(8, 2), None, A(8), None, True,
          call=lambda *a: _nn('lstm_layer')(*a)[:3])],
    # attention (minitorch/_attention.py): (output, logsumexp) of the fused kernel; both
    # outputs are checked, so no row is fully masked
    '_scaled_dot_product_flash_attention_for_cpu': lambda: [
        S(A(1, 2, 3, 4), A(1, 2, 5, 4), A(1, 2, 5, 3)),
        S(A(2, 4, 3), A(2, 4, 3), A(2, 4, 2), 0.0, True, scale=0.5),
        S(A(2, 3, 4), A(1, 5, 4), A(5, 2),
          attn_mask=B([[True, False, True, True, False], [False, True, True, False, True],
                       [True, True, False, False, False]])),
        S(A(1, 3, 4), A(1, 5, 4), A(1, 5, 2), attn_mask=A(3, 5).detach()),
    ],
    # linear algebra (minitorch.linalg rows are called through `call`); see
    # test_linalg_autograd.py for second derivatives and complex inputs
    'linalg_cholesky': lambda: [S(A(3, 3), call=lambda a: torch.linalg.cholesky(_SPD(a)))],
    'linalg_cholesky_ex': lambda: [S(A(3, 3), call=lambda a: torch.linalg.cholesky_ex(_SPD(a), upper=True))],
    'linalg_cond': lambda: [S(A(3, 4), call=torch.linalg.cond), S(_WC(3), call=lambda a: torch.linalg.cond(a, 'fro'))],
    'linalg_cross': lambda: [S(A(2, 3), A(2, 3), call=torch.linalg.cross)],
    'linalg_det': lambda: [S(_WC(2, 3, 3), call=torch.linalg.det)],
    'linalg_diagonal': lambda: [S(A(2, 3, 4), call=lambda a: torch.linalg.diagonal(a, offset=1))],
    'linalg_eig': lambda: [S(A(3, 3), call=lambda a: (lambda w, v: ((v @ torch.diag_embed(w) @ torch.linalg.inv(v)).real, w.real))(*torch.linalg.eig(a)))],
    'linalg_eigh': lambda: [S(A(3, 3), call=lambda a: (lambda w, v: (w, v * v))(*torch.linalg.eigh(a + a.mT)))],
    'linalg_eigvals': lambda: [S(A(3, 3), call=lambda a: torch.view_as_real(torch.linalg.eigvals(a)))],
    'linalg_eigvalsh': lambda: [S(A(3, 3), call=lambda a: torch.linalg.eigvalsh(a + a.mT, UPLO='U'))],
    'linalg_inv': lambda: [S(_WC(2, 3, 3), call=torch.linalg.inv)],
    'linalg_inv_ex': lambda: [S(_WC(3), call=lambda a: torch.linalg.inv_ex(a))],
    'linalg_lstsq': lambda: [S(A(4, 3), A(4, 2), call=lambda a, b: torch.linalg.lstsq(a, b).solution)],
    'linalg_lu': lambda: [S(A(4, 3), call=torch.linalg.lu)],
    'linalg_lu_factor': lambda: [S(_WC(3), call=torch.linalg.lu_factor)],
    'linalg_lu_factor_ex': lambda: [S(A(3, 4), call=torch.linalg.lu_factor_ex)],
    'linalg_lu_solve': lambda: [S(_WC(3), A(3, 2), call=lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b))],
    'linalg_matmul': lambda: [S(A(2, 3), A(3, 2), call=torch.linalg.matmul)],
    'linalg_matrix_exp': lambda: [S(A(2, 3, 3), call=torch.linalg.matrix_exp)],
    'linalg_matrix_norm': lambda: [S(A(3, 4), call=lambda a: torch.linalg.matrix_norm(a, 'nuc')),
                                   S(A(3, 4), call=lambda a: torch.linalg.matrix_norm(a, -1))],
    'linalg_matrix_power': lambda: [S(_WC(3), call=lambda a: torch.linalg.matrix_power(a, -2))],
    'linalg_multi_dot': lambda: [S(A(3), A(3, 4), A(4, 2), call=lambda a, b, c: torch.linalg.multi_dot([a, b, c]))],
    'linalg_norm': lambda: [S(A(3, 4), call=lambda a: torch.linalg.norm(a, 2))],
    'linalg_pinv': lambda: [S(A(4, 3), call=torch.linalg.pinv)],
    'linalg_qr': lambda: [S(A(4, 3), call=torch.linalg.qr)],
    'linalg_slogdet': lambda: [S(_WC(3), call=lambda a: torch.linalg.slogdet(a).logabsdet)],
    'linalg_solve': lambda: [S(_WC(3), A(3, 2), call=torch.linalg.solve)],
    'linalg_solve_ex': lambda: [S(_WC(3), A(3), call=lambda a, b: torch.linalg.solve_ex(a, b))],
    'linalg_solve_triangular': lambda: [S(_WC(3), A(2, 3), call=lambda a, b: torch.linalg.solve_triangular(a, b, upper=True, left=False))],
    'linalg_svd': lambda: [S(A(4, 3), call=lambda a: (lambda u, s, vh: (u @ vh, s))(*torch.linalg.svd(a, full_matrices=False)))],
    'linalg_svdvals': lambda: [S(A(4, 3), call=torch.linalg.svdvals)],
    'linalg_tensorinv': lambda: [S(_WC(4), call=lambda a: torch.linalg.tensorinv(a.reshape(2, 2, 4), 2))],
    'linalg_tensorsolve': lambda: [S(_WC(4), A(2, 2), call=lambda a, b: torch.linalg.tensorsolve(a.reshape(2, 2, 4), b))],
    'linalg_vecdot': lambda: [S(A(2, 3), A(3), call=torch.linalg.vecdot)],
    'linalg_vector_norm': lambda: [S(A(2, 3), call=lambda a: torch.linalg.vector_norm(a, 3, dim=0))],
    'chain_matmul': lambda: [S(A(2, 3), A(3, 4), A(4, 2), call=lambda *m: _quiet(torch.chain_matmul, *m))],
    'cholesky_inverse': lambda: [S(_LT(3))],
    'cholesky_solve': lambda: [S(A(3, 2), _LT(3))],
    'cross': lambda: [S(A(2, 3), A(2, 3), dim=1)],
    'det': lambda: [S(_WC(3))],
    'inverse': lambda: [S(_WC(2, 3, 3))],
    'logdet': lambda: [S(_WC(3))],
    'lu': lambda: [S(_WC(3), call=lambda a: _quiet(torch.lu, a)[0])],
    'lu_solve': lambda: [S(A(3, 2), _WC(3), call=lambda b, a: _quiet(torch.lu_solve, b, *torch.linalg.lu_factor(a)))],
    'lu_unpack': lambda: [S(_WC(3), call=lambda a: torch.lu_unpack(*torch.linalg.lu_factor(a))[1:])],
    'matrix_exp': lambda: [S(A(3, 3))],
    'matrix_power': lambda: [S(_WC(3), 3)],
    'pinverse': lambda: [S(A(3, 4))],
    'slogdet': lambda: [S(_WC(3), call=lambda a: torch.slogdet(a)[1])],
    'svd': lambda: [S(A(4, 3), call=lambda a: (lambda u, s, v: (u @ v.mT, s))(*torch.svd(a)))],
    'triangular_solve': lambda: [S(A(3, 2), _WC(3), call=lambda b, a: _quiet(torch.triangular_solve, b, a)[0])],
    'linalg_householder_product': lambda: [S(A(4, 3), A(2), call=torch.linalg.householder_product)],
    'linalg_matrix_sqrth': lambda: [S(A(3, 3), call=lambda a: torch.linalg.matrix_sqrth(_SPD(a)))],
    'linalg_polar': lambda: [S(A(4, 3), call=torch.linalg.polar)],
    'linalg_vander': lambda: [S(A(3), call=lambda x: torch.linalg.vander(x, N=4))],
    'orgqr': lambda: [S(A(4, 3), A(3))],
    'ormqr': lambda: [S(A(4, 3), A(3), A(4, 2)), S(A(4, 3), A(2), A(2, 4), False, True)],
    # nn: shuffles, distances, sampling grids, embedding bags, activations, CTC, losses
    'pixel_shuffle': lambda: [S(A(1, 8, 2, 3), 2), S(A(8, 1, 2), 2)],
    'pixel_unshuffle': lambda: [S(A(1, 2, 4, 2), 2)],
    'channel_shuffle': lambda: [S(A(1, 6, 2), 3), S(A(2, 4, 1, 2), 2)],
    'cosine_similarity': lambda: [S(A(3, 4), A(3, 4)), S(A(2, 3, 4), A(3, 4), dim=-1)],
    'pairwise_distance': lambda: [S(A(3, 4), A(3, 4)), S(A(4), A(3, 4), p=3.0, keepdim=True)],
    'grid_sampler': lambda: [
        S(A(1, 2, 3, 4), V([[[[-0.83, 0.41], [0.37, -0.27]], [[1.31, 0.58], [0.12, -1.18]]]]),
          mode, pad, align) for mode, pad, align in [(0, 0, False), (1, 1, True), (2, 2, False)]],
    'affine_grid_generator': lambda: [S(A(2, 2, 3), (2, 1, 3, 4), False),
                                      S(A(1, 3, 4), (1, 1, 2, 2, 3), True)],
    'embedding_bag': lambda: [S(A(7, 3), I([1, 2, 4, 5, 4]), I([0, 2]), False, mode, False, None,
                                False, 3) for mode in (0, 1, 2)] +
                             [S(A(7, 3), I([1, 2, 4, 5, 4]), I([0, 2]), False, 0, False, A(5))],
    'rrelu': lambda: [S(A(2, 3), 0.1, 0.3)],
    'rrelu_': lambda: [S(A(2, 3), call=lambda x: torch.rrelu_(x * 1, 0.1, 0.3))],
    'selu': lambda: [S(A(2, 3))],
    'selu_': lambda: [S(A(2, 3), call=lambda x: torch.selu_(x * 1))],
    'celu': lambda: [S(A(2, 3), 0.7)],
    'celu_': lambda: [S(A(2, 3), call=lambda x: torch.celu_(x * 1, 0.7))],
    '_ctc_loss': lambda: [S(A(5, 2, 4), call=lambda x: torch._ctc_loss(
        x.log_softmax(2), I([[1, 2], [3, 3]]), I([5, 4]), I([2, 1]))[0])],
    'ctc_loss': lambda: [S(A(5, 2, 4), call=lambda x: torch.ctc_loss(
        x.log_softmax(2), I([1, 2, 3]), I([5, 4]), I([2, 1]), 0, r, False)) for r in (0, 1, 2)],
    'triplet_margin_loss': lambda: [S(A(3, 4), A(3, 4), A(3, 4), 2.0),
                                    S(A(3, 4), A(3, 4), A(3, 4), 2.0, 1, 1e-6, True, 0)],
    'margin_ranking_loss': lambda: [S(A(4), A(4), torch.tensor([1.0, -1.0, 1.0, -1.0], dtype=torch.float64), 3.0)],
    'cosine_embedding_loss': lambda: [S(A(3, 4), A(3, 4), I([1, -1, 1]), -1.0, 2)],
    'hinge_embedding_loss': lambda: [S(A(2, 3), torch.tensor([[1.0, -1, 1], [-1, 1, -1]],
                                                             dtype=torch.float64), 2.0)],
    'poisson_nll_loss': lambda: [S(A(2, 3), torch.tensor([[0.0, 1, 2], [3, 4, 5]], dtype=torch.float64),
                                   True, True, 1e-8, 0),
                                 S(P(2, 3), torch.tensor([[0.0, 1, 2], [3, 4, 5]], dtype=torch.float64),
                                   False, False, 1e-8, 1)],
}

# the special functions (aten_lite/special_math.h) and the ops of _distance.py, _exponents.py,
# _scatter_family.py, _calculus.py, _padding.py, _splitting.py, _dropout_ops.py,
# _statistics.py, _renorm.py
def _seeded(f):
    """f with the random generator reset first: the same dropout mask at every evaluation."""
    def run(*a):
        torch.manual_seed(0)
        return f(*a)
    return run


SAMPLES.update({
    'digamma': lambda: [S(P(2, 3)), S(V([-0.4, -1.6, 2.5]))],
    'i0': lambda: [S(A(2, 3)), S(V([-25.0, 21.0, 3.0]))],
    'polygamma': lambda: [S(1, P(2, 3), method=False), S(3, V([-0.4, 0.7]), method=False),
                          S(P(2, 3), 2, function=False)],
    'igamma': lambda: [S(P(2, 3).detach(), P(2, 3))],
    'igammac': lambda: [S(P(2, 3).detach(), P(2, 3))],
    'nextafter': lambda: [S(A(2, 3), A(2, 3))],
    'frexp': lambda: [S(A(2, 3), call=lambda x: torch.frexp(x * 3)[0])],
    'mvlgamma': lambda: [S(P(2, 3, lo=1.5, hi=3.0), 2), S(P(3, lo=2.5, hi=4.0), p=4)],
    '_special_i0e': lambda: [S(A(2, 3)), S(V([-30.0, 22.0]))],
    '_special_i1': lambda: [S(A(2, 3)), S(V([-30.0, 22.0]))],
    '_special_i1e': lambda: [S(A(2, 3)), S(V([-30.0, 22.0]))],
    '_special_erfcx': lambda: [S(A(2, 3)), S(V([-3.0, 13.0]))],
    '_special_ndtr': lambda: [S(A(2, 3))],
    '_special_ndtri': lambda: [S(P(2, 3, lo=0.05, hi=0.95))],
    '_special_log_ndtr': lambda: [S(A(2, 3)), S(V([-8.0, -1.5]))],
    '_special_entr': lambda: [S(P(2, 3))],
    '_special_bessel_j0': lambda: [S(A(2, 3) * 4)],
    '_special_bessel_j1': lambda: [S(A(2, 3) * 4)],
    '_special_bessel_y0': lambda: [S(P(2, 3, lo=0.3, hi=6.0))],
    '_special_bessel_y1': lambda: [S(P(2, 3, lo=0.3, hi=6.0))],
    '_special_modified_bessel_i0': lambda: [S(A(2, 3) * 3)],
    '_special_modified_bessel_i1': lambda: [S(A(2, 3) * 3)],
    '_special_modified_bessel_k0': lambda: [S(P(2, 3, lo=0.3, hi=6.0))],
    '_special_modified_bessel_k1': lambda: [S(P(2, 3, lo=0.3, hi=6.0))],
    '_special_zeta': lambda: [S(P(2, 3).detach() + 1, P(2, 3)), S(3.0, P(3))],
    '_special_xlog1py': lambda: [S(A(2, 3), P(2, 3)), S(A(3), 0.5), S(2.0, P(3))],
    'cdist': lambda: [S(A(3, 4), A(5, 4)), S(A(2, 3, 4), A(1, 2, 4), p=1.5),
                      S(A(3, 2), A(4, 2), p=3.0, compute_mode='use_mm_for_euclid_dist')],
    'pdist': lambda: [S(A(4, 3)), S(A(4, 3), 1.5)],
    'dist': lambda: [S(A(2, 3), A(3)), S(A(2, 3), A(2, 3), 3)],
    'float_power': lambda: [S(P(2, 3), A(2, 3)), S(P(2, 3), 2)],
    'ldexp': lambda: [S(A(2, 3), A(2, 3)), S(A(2, 3), I([1, -2, 3]))],
    'put': lambda: [S(A(2, 3), I([0, 5, -2]), A(3)), S(A(2, 3), I([1, 1]), A(2), accumulate=True)],
    'index_reduce': lambda: [S(P(3, 2), 0, I([0, 2, 0, 2]), P(4, 2), 'prod'),
                             S(A(3, 2), 0, I([0, 2, 2, 1]), A(4, 2), 'mean', include_self=False),
                             S(A(2, 3), 1, I([0, 2]), A(2, 2), 'amax')],
    'slice_scatter': lambda: [S(A(4, 3), A(2, 3), 0, 1, 3), S(A(4, 3), A(4, 2), 1, step=2)],
    'select_scatter': lambda: [S(A(4, 3), A(3), 0, 1)],
    'diagonal_scatter': lambda: [S(A(3, 3), A(2), 1), S(A(2, 3, 3), A(2, 3), 0, 1, 2)],
    'as_strided_scatter': lambda: [S(A(3, 3), A(2), (2,), (4,)), S(A(3, 3), A(2, 2), (2, 2), (3, 1), 1)],
    'diff': lambda: [S(A(3, 4)), S(A(3, 4), 2, 0, prepend=A(1, 4), append=A(2, 4))],
    'trapezoid': lambda: [S(A(2, 3)), S(A(2, 3), A(3)), S(A(2, 3), dx=0.5, dim=0)],
    'trapz': lambda: [S(A(2, 3), A(3)), S(A(2, 3), dx=2.0)],
    'cumulative_trapezoid': lambda: [S(A(2, 4)), S(A(2, 4), A(4)), S(A(3, 2), dx=0.5, dim=0)],
    'cross': lambda: [S(A(2, 3), A(2, 3), dim=1), S(A(3, 2), A(3, 1), dim=0)],
    'chain_matmul': lambda: [S(A(2, 3), A(3, 4), A(4, 2))],
    'constant_pad_nd': lambda: [S(A(2, 3), (1, -1, 0, 2), 1.5)],
    'split_with_sizes': lambda: [S(A(4, 3), [1, 3]), S(A(4, 3), [2, 1], 1)],
    'unsafe_split': lambda: [S(A(4, 3), 3), S(A(4, 3), 2, 1)],
    'unsafe_chunk': lambda: [S(A(4, 3), 2), S(A(4, 3), 3, 1)],
    'unsafe_split_with_sizes': lambda: [S(A(4, 3), [1, 3])],
    'dropout': lambda: [S(A(2, 3), call=_seeded(lambda x: torch.dropout(x, 0.4, True))),
                        S(A(2, 3), 0.5, False)],
    'dropout_': lambda: [S(A(2, 3), call=_seeded(lambda x: torch.dropout_(x * 1, 0.4, True)))],
    'feature_dropout': lambda: [S(A(2, 3, 2), call=_seeded(lambda x: torch.feature_dropout(x, 0.4, True)))],
    'feature_dropout_': lambda: [S(A(2, 3, 2), call=_seeded(lambda x: torch.feature_dropout_(x * 1, 0.4, True)))],
    'alpha_dropout': lambda: [S(A(2, 3), call=_seeded(lambda x: torch.alpha_dropout(x, 0.4, True)))],
    'alpha_dropout_': lambda: [S(A(2, 3), call=_seeded(lambda x: torch.alpha_dropout_(x * 1, 0.4, True)))],
    'feature_alpha_dropout': lambda: [S(A(2, 3, 2), call=_seeded(lambda x: torch.feature_alpha_dropout(x, 0.4, True)))],
    'feature_alpha_dropout_': lambda: [S(A(2, 3, 2), call=_seeded(lambda x: torch.feature_alpha_dropout_(x * 1, 0.4, True)))],
    'cov': lambda: [S(A(3, 5)), S(A(5), correction=0), S(A(2, 4), aweights=P(4).detach())],
    'corrcoef': lambda: [S(A(3, 5))],
    'histogram': lambda: [S(A(6), call=lambda w: torch.histogram(V([0.1, 0.5, 0.4, 0.9, 0.2, 0.7]).detach(),
                                                                  3, range=(0.0, 1.0), weight=w).hist)],
    'renorm': lambda: [S(A(2, 3) * 3, 2, 0, 1.0), S(A(2, 3) * 3, 1, 1, 1.5)],
})



class _Sub(torch.Tensor):
    pass


# name -> a call of the op on x (a float64 leaf of shape (2, 3) that requires grad)
NONDIFF = {
    'all': lambda x: torch.all(x),
    'allclose': lambda x: torch.allclose(x, x),
    'any': lambda x: x.any(1),
    'arange': lambda x: torch.arange(3.0),
    'argmax': lambda x: torch.argmax(x, 1),
    'argmin': lambda x: x.argmin(),
    'argsort': lambda x: torch.argsort(x),
    'argwhere': lambda x: torch.argwhere(x),
    'as_tensor': lambda x: torch.as_tensor(x),
    'bernoulli': lambda x: torch.bernoulli(x.sigmoid()),
    'bincount': lambda x: torch.bincount(I([0, 2]), weights=x[0, :2]),
    'bitwise_and': lambda x: torch.bitwise_and(I([1]), I([3])),
    'bitwise_left_shift': lambda x: torch.bitwise_left_shift(I([1]), 2),
    'bitwise_not': lambda x: torch.bitwise_not(I([1])),
    'bitwise_or': lambda x: torch.bitwise_or(I([1]), I([2])),
    'bitwise_right_shift': lambda x: torch.bitwise_right_shift(I([4]), 1),
    'bitwise_xor': lambda x: torch.bitwise_xor(I([1]), I([3])),
    'bool': lambda x: x.bool(),
    'broadcast_shapes': lambda x: torch.broadcast_shapes(x.shape, (3,)),
    'bucketize': lambda x: torch.bucketize(x, V([0.0, 1.0])),
    'byte': lambda x: x.byte(),
    'can_cast': lambda x: torch.can_cast(x.dtype, torch.float32),
    'cauchy_': lambda x: (x * 1).cauchy_(),
    'char': lambda x: x.char(),
    'count_nonzero': lambda x: torch.count_nonzero(x),
    'detach': lambda x: x.detach(),
    'detach_copy': lambda x: torch.detach_copy(x),
    'empty': lambda x: torch.empty(2),
    'empty_like': lambda x: torch.empty_like(x),
    'empty_strided': lambda x: torch.empty_strided((2,), (1,)),
    'eq': lambda x: torch.eq(x, 0.5),
    'equal': lambda x: torch.equal(x, x),
    'exponential_': lambda x: (x * 1).exponential_(),
    'eye': lambda x: torch.eye(2),
    'floor_divide': lambda x: torch.floor_divide(x, 2.0),
    'from_numpy': lambda x: torch.from_numpy(x.detach().numpy()),
    'full': lambda x: torch.full((2,), 1.5),
    'full_like': lambda x: torch.full_like(x, 1.5),
    'ge': lambda x: x.ge(0.0),
    'geometric_': lambda x: (x * 1).geometric_(0.5),
    'gt': lambda x: x > 0,
    'histc': lambda x: torch.histc(x, 4),
    'int': lambda x: x.int(),
    'is_complex': lambda x: torch.is_complex(x),
    'is_conj': lambda x: x.is_conj(),
    'is_floating_point': lambda x: torch.is_floating_point(x),
    'is_neg': lambda x: x.is_neg(),
    'is_pinned': lambda x: x.is_pinned(),
    'is_set_to': lambda x: x.is_set_to(x),
    'is_shared': lambda x: x.is_shared(),
    'isclose': lambda x: torch.isclose(x, x),
    'isfinite': lambda x: torch.isfinite(x),
    'isin': lambda x: torch.isin(x, x[0]),
    'isinf': lambda x: torch.isinf(x),
    'isnan': lambda x: x.isnan(),
    'isneginf': lambda x: torch.isneginf(x),
    'isposinf': lambda x: torch.isposinf(x),
    'le': lambda x: torch.le(x, 0.0),
    'linspace': lambda x: torch.linspace(0, 1, 3),
    'log_normal_': lambda x: (x * 1).log_normal_(),
    'logical_and': lambda x: torch.logical_and(x, x),
    'logical_not': lambda x: torch.logical_not(x),
    'logical_or': lambda x: torch.logical_or(x, x),
    'logical_xor': lambda x: torch.logical_xor(x, x),
    'logspace': lambda x: torch.logspace(0, 1, 3),
    'long': lambda x: x.long(),
    'lt': lambda x: x < 0,
    'multinomial': lambda x: torch.multinomial(x.sigmoid()[0], 1),
    'ne': lambda x: x.ne(0.5),
    'new_empty': lambda x: x.new_empty(2),
    'new_full': lambda x: x.new_full((2,), 1.5),
    'new_ones': lambda x: x.new_ones(2),
    'new_tensor': lambda x: x.new_tensor([1.0]),
    'new_zeros': lambda x: x.new_zeros(2),
    'nonzero': lambda x: torch.nonzero(x),
    'normal': lambda x: torch.normal(x, 1.0),
    'numel': lambda x: torch.numel(x),
    'numpy': lambda x: x.detach().numpy(),
    'one_hot': lambda x: torch.one_hot(I([0, 2])),
    'ones': lambda x: torch.ones(2),
    'ones_like': lambda x: torch.ones_like(x),
    'poisson': lambda x: torch.poisson(x.abs()),
    'promote_types': lambda x: torch.promote_types(x.dtype, torch.float32),
    'rand': lambda x: torch.rand(2),
    'rand_like': lambda x: torch.rand_like(x),
    'randint': lambda x: torch.randint(0, 3, (2,)),
    'randint_like': lambda x: torch.randint_like(x, 3),
    'randn': lambda x: torch.randn(2),
    'randn_like': lambda x: torch.randn_like(x),
    'random_': lambda x: (x * 1).random_(0, 3),
    'randperm': lambda x: torch.randperm(3),
    'range': lambda x: torch.range(0, 2),
    'requires_grad_': lambda x: x.detach().requires_grad_(False),
    'resize_': lambda x: x.detach().clone().resize_(6),
    'resize_as_': lambda x: x.detach().clone().resize_as_(x),
    'result_type': lambda x: torch.result_type(x, 1),
    'scalar_tensor': lambda x: torch.scalar_tensor(1.5),
    'searchsorted': lambda x: torch.searchsorted(V([0.0, 1.0]), x),
    'set_': lambda x: torch.zeros(0, dtype=torch.float64).set_(x.detach()),
    'short': lambda x: x.short(),
    'signbit': lambda x: torch.signbit(x),
    'tensor': lambda x: torch.tensor([1.5]),
    'tril_indices': lambda x: torch.tril_indices(3, 3),
    'triu_indices': lambda x: torch.triu_indices(3, 3),
    'uniform_': lambda x: (x * 1).uniform_(),
    'zeros': lambda x: torch.zeros(2),
    'zeros_like': lambda x: torch.zeros_like(x),
    # linear algebra: the rank, and the names torch removed (they raise its error)
    'linalg_matrix_rank': lambda x: torch.linalg.matrix_rank(x),
    'cholesky': lambda x: _removed(torch.cholesky, x),
    'eig': lambda x: _removed(torch.eig, x),
    'lstsq': lambda x: _removed(torch.lstsq, x, x),
    'matrix_rank': lambda x: _removed(torch.matrix_rank, x),
    'qr': lambda x: _removed(torch.qr, x),
    'solve': lambda x: _removed(torch.solve, x, x),
    'symeig': lambda x: _removed(torch.symeig, x),
}

# the special functions without a derivative in torch: their outputs do not require grad
NONDIFF.update({
    'gcd': lambda x: torch.gcd(I([4, 6]), I([6, 9])),
    'lcm': lambda x: torch.lcm(I([4, 6]), I([6, 9])),
    '_special_airy_ai': lambda x: torch.special.airy_ai(x),
    '_special_scaled_modified_bessel_k0': lambda x: torch.special.scaled_modified_bessel_k0(x.abs()),
    '_special_scaled_modified_bessel_k1': lambda x: torch.special.scaled_modified_bessel_k1(x.abs()),
    '_special_spherical_bessel_j0': lambda x: torch.special.spherical_bessel_j0(x),
})
NONDIFF.update({'_special_' + n: (lambda n: lambda x: getattr(torch.special, n)(x, 3))(n) for n in (
    'chebyshev_polynomial_t', 'chebyshev_polynomial_u', 'chebyshev_polynomial_v',
    'chebyshev_polynomial_w', 'shifted_chebyshev_polynomial_t', 'shifted_chebyshev_polynomial_u',
    'shifted_chebyshev_polynomial_v', 'shifted_chebyshev_polynomial_w', 'hermite_polynomial_h',
    'hermite_polynomial_he', 'laguerre_polynomial_l', 'legendre_polynomial_p')})


# name -> (why it has no derivative in minitorch, a call on x that must raise NotImplementedError)
def _ctc_second_derivative(x):
    lp = torch.cat([x, x]).view(3, 1, 4).log_softmax(2)
    g, = torch.autograd.grad(torch.ctc_loss(lp, I([[1, 2]]), I([3]), I([2]), 0, 2, False), x,
                             create_graph=True)
    g.sum().backward()


NOT_DIFFERENTIABLE = {
    'geqrf': ("torch has no derivative for it either",
              lambda x: torch.geqrf(x).a.sum().backward()),
    'linalg_ldl_factor': ("needs LAPACK's sytrf", lambda x: torch.linalg.ldl_factor(x[:, :2])),
    'linalg_ldl_factor_ex': ("needs LAPACK's sytrf", lambda x: torch.linalg.ldl_factor_ex(x[:, :2])),
    'linalg_ldl_solve': ("needs LAPACK's sytrs", lambda x: torch.linalg.ldl_solve(x, x, x)),
    '_ctc_loss_backward': ("torch has no second derivative of the CTC loss either",
                           _ctc_second_derivative),
}

NOT_DIFFERENTIABLE.update({
    # torch records unique and its internal forms, whose backward raises
    'unique': ("torch has no derivative of unique either (its backward raises)",
               lambda x: torch.unique(x).sum().backward()),
    'unique_consecutive': ("torch has no derivative of unique_consecutive either",
                           lambda x: torch.unique_consecutive(x).sum().backward()),
    '_unique': ("torch has no derivative of _unique either",
                lambda x: torch._unique(x)[0].sum().backward()),
    '_unique2': ("torch has no derivative of _unique2 either",
                 lambda x: torch._unique2(x)[0].sum().backward()),
    '_unique_dim': ("torch has no derivative of unique_dim either",
                    lambda x: torch._VF.unique_dim(x, 0)[0].sum().backward()),
})

NOT_DIFFERENTIABLE.update({
    'heaviside': ("torch has no derivative of the step function (its backward raises)",
                  lambda x: torch.heaviside(x, x).sum().backward()),
})



# spatial ops (convolution, pooling, resampling): their backward rows are recorded ops too
def _idx3(*shape, k=2, adaptive=False):
    x = A(*shape).detach()
    return torch._adaptive_max_pool3d(x, k)[1] if adaptive else torch._max_pool3d_with_indices(x, k)[1]


def _idx2(*shape, k=2, adaptive=False):
    x = A(*shape).detach()
    return torch._adaptive_max_pool2d(x, k)[1] if adaptive else torch._max_pool2d_with_indices(x, k)[1]


SAMPLES.update({
    'convolution': lambda: [S(A(2, 2, 4, 3), A(3, 2, 2, 2), A(3), [2, 1], [1, 0], [1, 1], False,
                              [0, 0], 1),
                            S(A(1, 4, 3, 2, 3), A(4, 1, 2, 2, 2), None, [1, 2, 1], [0, 1, 1],
                              [1, 1, 2], True, [0, 1, 1], 2)],
    '_convolution_backward': lambda: [
        S(A(2, 3, 3, 2), A(2, 2, 4, 3), A(3, 2, 2, 2), [2, 1], [1, 0], [1, 1], False, [0, 0], 1,
          (True, True, True)),
        S(A(1, 2, 5, 3), A(1, 2, 3, 2), A(2, 2, 2, 2), [2, 1], [1, 0], [1, 1], True, [1, 0], 1,
          (True, True, True))],
    'conv1d': lambda: [S(A(2, 2, 5), A(3, 2, 2), A(3), stride=2, padding=1)],
    'conv2d': lambda: [S(A(1, 2, 4, 3), A(3, 2, 2, 2), A(3), padding=1, dilation=(1, 2))],
    'conv3d': lambda: [S(A(1, 2, 3, 4, 3), A(2, 2, 2, 2, 2), A(2), stride=(1, 2, 1), padding=1),
                       S(A(2, 3, 4, 3), A(2, 2, 2, 2, 3), None, padding="same")],
    'conv_transpose1d': lambda: [S(A(2, 2, 4), A(2, 3, 3), A(3), stride=2, output_padding=1)],
    'conv_transpose2d': lambda: [S(A(1, 4, 3, 2), A(4, 1, 2, 3), A(2), stride=(2, 1), groups=2)],
    'conv_transpose3d': lambda: [S(A(1, 2, 2, 3, 2), A(2, 2, 2, 2, 2), None, stride=2,
                                   padding=(1, 0, 0), dilation=(1, 1, 2))],
    'max_pool3d': lambda: [S(A(1, 2, 4, 4, 3), 2, 1, 1), S(A(2, 3, 4, 5), (2, 3, 2), ceil_mode=True)],
    'adaptive_max_pool1d': lambda: [S(A(2, 3, 7), 3), S(A(3, 5), 4)],
    '_max_pool2d_with_indices': lambda: [S(A(1, 2, 5, 4), 2, None, 1, (1, 2), True),
                                         S(A(2, 4, 5), (2, 3), 1)],
    '_max_pool2d_backward': lambda: [S(A(1, 1, 2, 2), C(1, 1, 4, 4), _idx2(1, 1, 4, 4), 2)],
    '_avg_pool2d': lambda: [S(A(1, 2, 5, 4), 3, 2, 1, True, False),
                            S(A(2, 4, 3), 2, 1, 0, False, True, 3)],
    '_avg_pool2d_backward': lambda: [S(A(1, 1, 3, 2), C(1, 1, 4, 3), 3, 2, 1, True, False)],
    '_adaptive_avg_pool2d': lambda: [S(A(1, 2, 5, 3), (2, 3))],
    '_adaptive_avg_pool2d_backward': lambda: [S(A(1, 2, 2, 3), C(1, 2, 5, 4))],
    '_adaptive_max_pool2d': lambda: [S(A(1, 2, 5, 3), (2, 2))],
    '_adaptive_max_pool2d_backward': lambda: [S(A(1, 1, 2, 2), C(1, 1, 4, 3),
                                                _idx2(1, 1, 4, 3, adaptive=True))],
    '_max_pool3d_with_indices': lambda: [S(A(1, 2, 4, 4, 3), 2, None, 1, (1, 2, 1), True)],
    '_max_pool3d_backward': lambda: [S(A(1, 1, 1, 2, 2), C(1, 1, 2, 4, 4), _idx3(1, 1, 2, 4, 4),
                                       2)],
    '_avg_pool3d': lambda: [S(A(1, 2, 4, 4, 3), 3, 2, 1, True, False),
                            S(A(2, 4, 4, 3), 2, 1, 0, False, True, 3)],
    '_avg_pool3d_backward': lambda: [S(A(1, 1, 3, 3, 2), C(1, 1, 4, 4, 3), 3, 2, 1, True, False)],
    '_adaptive_avg_pool3d': lambda: [S(A(1, 2, 4, 5, 3), (2, 3, 2))],
    '_adaptive_avg_pool3d_backward': lambda: [S(A(1, 2, 2, 3, 2), C(1, 2, 4, 5, 3))],
    '_adaptive_max_pool3d': lambda: [S(A(1, 2, 4, 5, 3), (2, 3, 2))],
    '_adaptive_max_pool3d_backward': lambda: [S(A(1, 1, 2, 2, 2), C(1, 1, 4, 4, 3),
                                                _idx3(1, 1, 4, 4, 3, adaptive=True))],
    '_upsample': lambda: [S(A(1, 2, 3, 4), [5, 3], "bilinear", True),
                          S(A(1, 2, 4, 5), [2, 3], "bicubic", False, None, True),
                          S(A(2, 2, 3), [7], "nearest", False, [2.5])],
    '_upsample_backward': lambda: [S(A(1, 2, 5, 3), [1, 2, 3, 4], [5, 3], "bilinear", True),
                                   S(A(2, 1, 2, 3, 2), [2, 1, 3, 2, 4], [2, 3, 2], "trilinear")],
    # Fourier transforms: complex operands through view_as_complex of a real leaf
    '_fft_c2c': lambda: [S(A(3, 4, 2), call=lambda x: torch.view_as_real(
        torch._fft_c2c(torch.view_as_complex(x), [0, 1], n, fw))) for n in (0, 1, 2)
        for fw in (True, False)],
    '_fft_r2c': lambda: [S(A(3, 5), [1], 0, True, method=False),
                         S(A(2, 4), [0, 1], 2, False, method=False),
                         S(A(3, 4), call=lambda x: torch.view_as_real(torch._fft_r2c(x, [0, 1], 1, True)))],
    '_fft_c2r': lambda: [S(A(3, 3, 2), call=lambda x: torch._fft_c2r(torch.view_as_complex(x), [1], 0, n))
                         for n in (4, 5)] +
                        [S(A(2, 3, 2), call=lambda x: torch._fft_c2r(torch.view_as_complex(x), [0, 1], 1, 5))],
})
# sparse COO products (_sparse_mm.py): indices with a duplicate (0, 2), in no order
SAMPLES.update({
    '_coo_spmm': lambda: [S(I([0, 1, 1, 2, 0]), I([2, 0, 2, 1, 2]), A(5), A(3, 2), 4)],
    '_coo_sampled_dot': lambda: [S(I([0, 1, 1, 2, 0]), I([2, 0, 2, 1, 2]), A(3, 2), A(4, 2))],
})


# losses with their reduction as one node (mse_loss, bce_logits_loss)
SAMPLES.update({
    'mse_loss': lambda: [S(A(2, 3), A(2, 3), red, call=_nn('mse_loss')) for red in ("mean", "sum", "none")],
    'bce_logits_loss': lambda: [S(A(2, 3), P(2, 3, lo=0.1, hi=0.9), pw, red, call=_nn('bce_logits_loss'))
                                for red in ("mean", "sum", "none") for pw in (None, P(3))],
})

# threshold's gradient op (recorded by threshold's formula under create_graph)
SAMPLES.update({
    '_threshold_backward': lambda: [S(A(5), V([-1.5, -0.5, 0.2, 0.9, 1.7]), 0.1,
                                      call=_nn('_threshold_backward'))],
})


# ---- torch namespace additions: buffer factories, predicates, combinatorics ------------------
NONDIFF.update({
    'asarray': lambda x: torch.asarray(x),
    'frombuffer': lambda x: torch.frombuffer(bytearray(16), dtype=torch.float64),
    'empty_permuted': lambda x: torch.empty_permuted((2, 3), (1, 0), dtype=torch.float64),
    'nonzero_static': lambda x: torch.nonzero_static(x, size=2),
    'isreal': lambda x: torch.isreal(x),
    'is_nonzero': lambda x: torch.is_nonzero(x[0, 0]),
    'is_same_size': lambda x: torch.is_same_size(x, x),
})
SAMPLES.update({
    'combinations': lambda: [S(A(4)), S(A(3), 3, True)],
    'vander': lambda: [S(A(3)), S(A(3), 4, True)],
    'fill_diagonal_': lambda: [S(A(3, 3), 0.5, call=lambda x, v: (x * 1).fill_diagonal_(v)),
                               S(A(5, 2), 1.0, True,
                                 call=lambda x, v, w: (x * 1).fill_diagonal_(v, wrap=w))],
    'sum_to_size': lambda: [S(A(2, 3, 4), 3, 1), S(A(2, 3), (1, 3))],
})
NONDIFF.update({
    'apply_': lambda x: x.detach().clone().apply_(lambda v: v * 2),
    'map_': lambda x: x.detach().clone().map_(x.detach(), lambda a, b: a + b),
    'map2_': lambda x: x.detach().clone().map2_(x.detach(), x.detach(), lambda a, b, c: a),
})


# ---- coverage --------------------------------------------------------------------------------

def test_every_row_is_covered():
    """Each row has a check: nondiff rows a NONDIFF call, the others samples for gradcheck or
    an entry in NOT_DIFFERENTIABLE; no table names an op the op table does not have."""
    nondiff = {n for n, r in ROWS.items() if r["grad"] == "nondiff"}
    assert set(NONDIFF) == nondiff, (sorted(nondiff - set(NONDIFF)), sorted(set(NONDIFF) - nondiff))
    rest = set(ROWS) - nondiff
    assert not set(SAMPLES) & set(NOT_DIFFERENTIABLE)
    checked = set(SAMPLES) | set(NOT_DIFFERENTIABLE)
    assert checked == rest, (sorted(rest - checked), sorted(checked - rest))


# ---- gradcheck of every differentiable row ---------------------------------------------------

def _float_outputs(out):
    """The floating tensors of an op's result, complex ones as their real view."""
    items = out if isinstance(out, (tuple, list)) else (out,)
    r = []
    for o in items:
        if isinstance(o, torch.Tensor) and (o.dtype.is_floating_point or o.dtype.is_complex):
            r.append(torch.view_as_real(o) if o.dtype.is_complex else o)
    return tuple(r)


def _forms(name, sample):
    """(label, callable) of the forms a sample is run through."""
    if sample.call is not None:
        return [("call", sample.call)]
    forms = ROWS[name]["forms"]
    out = []
    if ("f" in forms or "g" in forms) and sample.function:
        out.append(("function", getattr(torch, name)))
    if "m" in forms and sample.method:
        out.append(("method", lambda self, *a, **k: getattr(self, name)(*a, **k)))
    return out


def _check(name, sample, fn):
    if sample.call is not None:
        run = lambda: sample.call(*sample.args, **sample.kwargs)          # noqa: E731
    else:
        run = lambda: fn(*sample.args, **sample.kwargs)                    # noqa: E731
    inputs = sample.inputs()
    assert inputs, f"{name}: a sample without inputs that require grad"
    outs = _float_outputs(run())
    assert outs, f"{name}: no floating output"
    assert all(o.requires_grad for o in outs), f"{name}: an output does not require grad"
    assert gradcheck(lambda *_: _float_outputs(run()), inputs, **sample.gc)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_gradcheck(name):
    for i, sample in enumerate(SAMPLES[name]()):
        for label, fn in _forms(name, sample):
            try:
                _check(name, sample, fn)
            except Exception as e:
                raise AssertionError(f"{name}, sample {i} ({label}): {type(e).__name__}: {e}") from e


# rows whose second derivative is not (yet) right, with the reason; test_gradgradcheck expects
# them to fail, so an entry that starts passing must be removed
GRADGRAD_KNOWN = {
    "_ctc_loss": "no second derivative, as torch's (its double backward raises torch's error)",
    "ctc_loss": "no second derivative, as torch's (its double backward raises torch's error)",
}


def _check_twice(name, sample, fn):
    """gradgradcheck: the derivative of the derivative (create_graph=True) against finite
    differences of the first derivative."""
    if sample.call is not None:
        run = lambda: sample.call(*sample.args, **sample.kwargs)          # noqa: E731
    else:
        run = lambda: fn(*sample.args, **sample.kwargs)                    # noqa: E731
    assert torch.autograd.gradgradcheck(lambda *_: _float_outputs(run()), sample.inputs(),
                                        **sample.gc)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_gradgradcheck(name):
    """Every row with a derivative has a second derivative (Note [Derivative declarations])."""
    known = GRADGRAD_KNOWN.get(name)
    failures = []
    for i, sample in enumerate(SAMPLES[name]()):
        if not sample.gg:
            continue
        for label, fn in _forms(name, sample):
            try:
                _check_twice(name, sample, fn)
            except Exception as e:
                failures.append(f"{name}, sample {i} ({label}): {type(e).__name__}: {e}")
    if known is None:
        assert not failures, "\n".join(failures)
    else:
        assert failures, f"{name} passes gradgradcheck now: remove it from GRADGRAD_KNOWN ({known})"


def _declared(name):
    return isinstance(ROWS[name]["grad"], dict)


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if _declared(n)))
def test_declared_c_and_python_forms_agree(name):
    """A declared row's node runs its C formulas in a plain backward pass and its Python form
    when the pass creates a graph: both give the same gradients (to float64 rounding)."""
    for i, sample in enumerate(SAMPLES[name]()):
        for label, fn in _forms(name, sample):
            run = (lambda: sample.call(*sample.args, **sample.kwargs)) if sample.call else \
                (lambda: fn(*sample.args, **sample.kwargs))
            inputs = sample.inputs()
            outs = _float_outputs(run())
            seeds = [torch.randn(o.shape, dtype=o.dtype) for o in outs]
            c = torch.autograd.grad(outs, inputs, seeds, allow_unused=True)
            outs = _float_outputs(run())
            py = torch.autograd.grad(outs, inputs, seeds, allow_unused=True, create_graph=True)
            for gc_, gp in zip(c, py):
                assert (gc_ is None) == (gp is None), f"{name}, sample {i} ({label})"
                if gc_ is not None:
                    assert torch.allclose(gc_, gp.detach(), rtol=1e-12, atol=1e-12), \
                        f"{name}, sample {i} ({label}): {gc_} != {gp}"


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if ROWS[n]["aliases"]))
def test_aliases_have_the_same_derivative(name):
    sample = SAMPLES[name]()[0]
    for alias in ROWS[name]["aliases"]:
        fn = getattr(torch, alias) if hasattr(torch, alias) else \
            (lambda self, *a, **k: getattr(self, alias)(*a, **k))
        _check(alias, sample, fn)


def _inplace_samples(name):
    """The samples whose out-of-place result has the input's shape and dtype."""
    out = []
    for sample in SAMPLES[name]():
        if sample.call is not None or not isinstance(sample.args[0], torch.Tensor):
            continue
        with torch.no_grad():
            try:
                r = getattr(sample.args[0], name)(*sample.args[1:], **sample.kwargs)
            except (RuntimeError, TypeError):
                continue
        if r.shape == sample.args[0].shape and r.dtype == sample.args[0].dtype:
            out.append(sample)
    return out


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if "i" in ROWS[n]["forms"]))
def test_inplace_form_on_a_non_leaf(name):
    """y = x * 1; y.<name>_(...) has the gradient of the out-of-place op."""
    samples = _inplace_samples(name)
    if name in ("as_strided", "squeeze", "unsqueeze", "t", "transpose", "swapaxes"):
        samples = [s for s in SAMPLES[name]() if s.call is None]   # in-place views: new shapes
    assert samples, f"{name}_: no sample fits the in-place form"
    for i, sample in enumerate(samples):
        def run(sample=sample):
            y = sample.args[0] * 1
            r = getattr(y, name + "_")(*sample.args[1:], **sample.kwargs)
            assert r is y
            return y
        assert gradcheck(lambda *_: _float_outputs(run()), sample.inputs(), **sample.gc), \
            f"{name}_, sample {i}"


# ---- nondiff rows and the ops without a derivative -------------------------------------------

@pytest.mark.parametrize("name", sorted(NONDIFF))
def test_nondiff_outputs_carry_no_gradient(name):
    x = A(2, 3)
    out = NONDIFF[name](x)
    items = out if isinstance(out, (tuple, list)) else (out,)
    for o in items:
        if not isinstance(o, torch.Tensor) or o is x:
            continue
        if (o.dtype.is_floating_point or o.dtype.is_complex) and o.requires_grad:
            # in-place fills of a tensor that requires grad keep it so, with zero gradient
            g, = torch.autograd.grad(o.sum(), [x], allow_unused=True)
            assert g is None or not bool(g.ne(0).any()), name


@pytest.mark.parametrize("name", sorted(NOT_DIFFERENTIABLE))
def test_ops_without_a_derivative_raise(name):
    with pytest.raises(NotImplementedError):
        NOT_DIFFERENTIABLE[name][1](A(2, 3))


def test_scatter_with_reduce_has_no_derivative():
    x, src = A(2, 3), A(2, 2)
    y = torch.scatter(x, 1, I([[0, 1], [1, 2]]), src, reduce="add")
    with pytest.raises(NotImplementedError):
        y.sum().backward()


# ---- operators, indexing, in-place forms, conversions ----------------------------------------

OPERATORS = {
    "a + b": (lambda a, b: a + b, lambda: (A(2, 3), A(3))),
    "2 - a": (lambda a: 2 - a, lambda: (A(2, 3),)),
    "a - 2": (lambda a: a - 2, lambda: (A(2, 3),)),
    "a * b": (lambda a, b: a * b, lambda: (A(2, 3), A(2, 1))),
    "a / b": (lambda a, b: a / b, lambda: (A(2, 3), A(3))),
    "2 / a": (lambda a: 2 / a, lambda: (A(2, 3),)),
    "a ** 2": (lambda a: a ** 2, lambda: (A(2, 3),)),
    "a ** b": (lambda a, b: a ** b, lambda: (P(2, 3), A(2, 3))),
    "2 ** a": (lambda a: 2 ** a, lambda: (A(2, 3),)),
    "-a": (lambda a: -a, lambda: (A(2, 3),)),
    "+a": (lambda a: +a, lambda: (A(2, 3),)),
    "abs(a)": (lambda a: abs(a), lambda: (A(2, 3),)),
    "a % 0.7": (lambda a: a % 0.7, lambda: (V([0.3, 1.5, -0.4]),)),
    "a @ b": (lambda a, b: a @ b, lambda: (A(2, 3), A(3, 2))),
    "a.T": (lambda a: a.T, lambda: (A(2, 3, 2),)),
    "a.mT": (lambda a: a.mT, lambda: (A(2, 3, 2),)),
    "a.H": (lambda a: a.H, lambda: (A(2, 3),)),
    "a.mH": (lambda a: a.mH, lambda: (A(2, 2, 3),)),
    "z.real": (lambda a: torch.view_as_complex(a).real, lambda: (A(3, 2),)),
    "z.imag": (lambda a: torch.view_as_complex(a).imag, lambda: (A(3, 2),)),
    "abs(z)": (lambda a: torch.view_as_complex(a).abs(), lambda: (A(3, 2),)),
    "z * w": (lambda a, b: torch.view_as_complex(a) * torch.view_as_complex(b), lambda: (A(3, 2), A(3, 2))),
    "exp(z)": (lambda a: torch.view_as_complex(a).exp(), lambda: (A(3, 2),)),
    "a[1]": (lambda a: a[1], lambda: (A(3, 2),)),
    "a[:, 1:]": (lambda a: a[:, 1:], lambda: (A(3, 3),)),
    "a[..., None, ::2]": (lambda a: a[..., None, ::2], lambda: (A(2, 4),)),
    "a[-1, 0]": (lambda a: a[-1, 0], lambda: (A(3, 2),)),
    "a[[0, 2, 0]]": (lambda a: a[[0, 2, 0]], lambda: (A(3, 2),)),
    "a[idx] (tensor, duplicates)": (lambda a: a[I([[1, 1], [0, 2]])], lambda: (A(3, 2),)),
    "a[idx, idx]": (lambda a: a[I([0, 2, 0]), I([1, 1, 1])], lambda: (A(3, 2),)),
    "a[:, idx]": (lambda a: a[:, I([1, 0, 1])], lambda: (A(3, 2),)),
    "a[mask]": (lambda a: a[B([[True, False], [False, False], [True, True]])], lambda: (A(3, 2),)),
    "a[rowmask]": (lambda a: a[B([True, False, True])], lambda: (A(3, 2),)),
    "a[k] = b": (lambda a, b: _setitem(a, 1, b), lambda: (A(3, 2), A(2))),
    "a[:, 0] = b": (lambda a, b: _setitem(a, (slice(None), 0), b), lambda: (A(3, 2), A())),
    "a[idx] = b": (lambda a, b: _setitem(a, I([2, 0]), b), lambda: (A(3, 2), A(2, 2))),
    "a[mask] = b": (lambda a, b: _setitem(a, B([[True, False], [False, False], [True, True]]), b),
                    lambda: (A(3, 2), A(3))),
    "a[k] = 1.5": (lambda a: _setitem(a, 1, 1.5), lambda: (A(3, 2),)),
    "a += b": (lambda a, b: _iop(a, b, "__iadd__"), lambda: (A(2, 3), A(3))),
    "a -= b": (lambda a, b: _iop(a, b, "__isub__"), lambda: (A(2, 3), A(3))),
    "a *= b": (lambda a, b: _iop(a, b, "__imul__"), lambda: (A(2, 3), A(3))),
    "a /= b": (lambda a, b: _iop(a, b, "__itruediv__"), lambda: (A(2, 3), A(3))),
    "a **= 2": (lambda a: _iop(a, 2, "__ipow__"), lambda: (A(2, 3),)),
}


def _setitem(a, key, value):
    y = a * 1
    y[key] = value
    return y


def _iop(a, b, op):
    y = a * 1
    return getattr(y, op)(b)


@pytest.mark.parametrize("expr", sorted(OPERATORS))
def test_operators_and_indexing(expr):
    fn, make = OPERATORS[expr]
    inputs = make()
    assert gradcheck(lambda *xs: _float_outputs(fn(*xs)), inputs), expr


def test_inplace_methods_on_non_leaves():
    x, b = A(2, 3), A(3)

    def f(x, b):
        y = x * 1
        y.add_(b, alpha=2)
        y.mul_(b)
        y.div_(2.0)
        y.sub_(x)
        y.clamp_(-0.9, 0.9)
        y.sigmoid_()
        return y
    assert gradcheck(f, (x, b))
    y = x * 1
    assert y.add_(b) is y and y.grad_fn is not None


def test_conversions_keep_the_input_dtype():
    x = V([[0.5, -1.25, 2.0]])
    for conv in (lambda t: t.float(), lambda t: t.half(), lambda t: t.bfloat16(),
                 lambda t: t.to(torch.float32), lambda t: t.type(torch.float32),
                 lambda t: t.type_as(C(1, dtype=torch.float32)), lambda t: t.to(torch.complex64).real):
        x.grad = None
        (conv(x) * 2).sum().backward()
        assert x.grad.dtype == torch.float64
        assert x.grad.tolist() == [[2.0, 2.0, 2.0]]
    x32 = x.detach().float().requires_grad_()
    x32.double().sum().backward()
    assert x32.grad.dtype == torch.float32


def test_prod_with_zeros_matches_the_products_of_the_others():
    x = V([3.0, 0.0, 2.0, 5.0])
    x.prod().backward()
    assert x.grad.tolist() == [0.0, 30.0, 0.0, 0.0]
    x = V([3.0, 0.0, 2.0, 0.0])
    x.prod().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 0.0]


def test_max_with_ties_splits_the_gradient():
    x = V([1.0, 3.0, 3.0])
    x.amax().backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5]


def test_logcumsumexp_gradient_of_large_inputs_is_finite():
    x = V([1000.0, 1001.0, 999.0])
    x.logcumsumexp(0).sum().backward()
    assert bool(x.grad.isfinite().all())


def test_norm_at_zero_has_zero_gradient():
    x = V([0.0, 0.0])
    x.norm().backward()
    assert x.grad.tolist() == [0.0, 0.0]


SECOND_ORDER = {
    "exp": lambda x: x.exp(), "sigmoid": lambda x: x.sigmoid(), "tanh": lambda x: x.tanh(),
    "div": lambda x: 1 / x, "sqrt": lambda x: x.abs().sqrt(), "pow": lambda x: x.abs() ** x,
    "prod": lambda x: x.prod(1), "cumprod": lambda x: x.cumprod(1), "norm": lambda x: x.norm(dim=1),
    "std": lambda x: x.std(1), "logsumexp": lambda x: x.logsumexp(1),
    "logcumsumexp": lambda x: x.logcumsumexp(1), "lgamma": lambda x: x.abs().lgamma(),
    "getitem": lambda x: x[1:, ::2] * x[I([0, 0, 2])][:2, :2], "narrow": lambda x: x.narrow(1, 1, 2) ** 2,
    "select": lambda x: x.select(0, 1) ** 3, "unfold": lambda x: x.unfold(1, 2, 1) ** 2,
    "sort": lambda x: x.sort(1).values ** 2, "max": lambda x: x.max(1).values ** 2,
    "gather": lambda x: torch.gather(x, 1, I([[0, 0], [1, 2], [3, 3]])) ** 2,
    "as_strided": lambda x: x.as_strided((2, 2), (1, 2)) ** 2, "take": lambda x: x.take(I([0, 5, 5])) ** 2,
    "where": lambda x: torch.where(x > 0, x, 0.0) ** 2, "matmul": lambda x: x @ x.t(),
    "complex": lambda x: torch.view_as_real(torch.view_as_complex(x.reshape(3, 2, 2)) ** 2),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivatives(name):
    """With create_graph=True the formulas are recorded too, also those that read the op's
    result (exp, sigmoid, ...)."""
    assert torch.autograd.gradgradcheck(SECOND_ORDER[name], (A(3, 4),))


def test_in_place_write_into_a_view_of_a_fresh_tensor_carries_the_history():
    """buf[:2].copy_(x): buf takes x's history in that place (Note [In-place ops on views])."""
    x = A(2)
    buf = torch.zeros(4, dtype=torch.float64)
    buf[:2].copy_(x)
    assert buf.grad_fn.name() == "CopySlices"
    (buf * torch.arange(4.0, dtype=torch.float64)).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0]


def test_python_forms_with_a_formula_are_recorded_as_one_op():
    """The Python forms of rows with a formula are _C._PyOp wrappers (one compare while no
    tensor requires grad); with grad they record one node, not the ops inside."""
    assert isinstance(torch.clamp, torch._C._PyOp) and torch.Tensor.clamp is torch.clamp
    assert torch.clamp.__name__ == "clamp" and torch.clamp.__wrapped__ is not None
    y = torch.clamp(torch.ones(3), 0, 1)
    assert not y.requires_grad and y.grad_fn is None
    x = A(3)
    assert type(torch.clamp(x, -0.5, 0.5).grad_fn).__name__ == "ClampBackward0"
    assert type(x.sort().values.grad_fn).__name__ == "SortBackward0"
    with torch.no_grad():
        assert not torch.clamp(x, 0, 1).requires_grad


# ---- distributions: the samplers and implicit gradients (minitorch/_sampling.py), weight norm
# (their rows are checked here: the parametrized tests above are collected before this block)

NONDIFF_SAMPLING = {
    '_standard_gamma_grad': lambda x: torch._standard_gamma_grad(x.abs() + 0.5, x.abs() + 0.1),
    '_sample_dirichlet': lambda x: torch._sample_dirichlet(x.abs() + 0.5),
    '_dirichlet_grad': lambda x: torch._dirichlet_grad(x.sigmoid(), x.abs() + 0.5, x.abs() + 2.0),
    'binomial': lambda x: torch.binomial(torch.full_like(x, 5.0), x.sigmoid()),
}
NONDIFF.update(NONDIFF_SAMPLING)
NONDIFF.update({n: (lambda n: lambda x: getattr(torch, n)(5, dtype=torch.float64))(n) for n in (
    'hann_window', 'hamming_window', 'blackman_window', 'bartlett_window', 'kaiser_window')})


def _gamma_inverse_cdf(u, alpha, x):
    """x with P(alpha, x) = u (Newton's method from x)."""
    from minitorch.distributions._special import gammainc
    for _ in range(50):
        density = (torch.xlogy(alpha - 1, x) - x - alpha.lgamma()).exp()
        x = (x - (gammainc(alpha, x) - u) / density).clamp(min=1e-300)
    return x


def _standard_gamma_samples():
    """The draw's derivative is the implicit one, d F^-1(u; alpha) / d alpha at the draw's u:
    the call returns that inverse CDF (held at the u of the draw at the sample's alpha) plus
    the draw minus itself, so finite differences see the inverse CDF and autograd the op's
    formula.  Small alphas: the draws lie in the exact (series) branch of the gradient."""
    from minitorch.distributions._special import gammainc
    alpha = P(3, lo=0.05, hi=0.15)
    with torch.no_grad():
        x0 = torch._standard_gamma(alpha, generator=torch.Generator().manual_seed(7))
        u0 = gammainc(alpha, x0)

    def call(a):
        x = torch._standard_gamma(a, generator=torch.Generator().manual_seed(7))
        with torch.no_grad():
            exact = _gamma_inverse_cdf(u0, a.detach(), x.detach())
        return exact + (x - x.detach())

    return [S(alpha, call=call)]


SAMPLES_SAMPLING = {
    '_standard_gamma': _standard_gamma_samples,
    'norm_except_dim': lambda: [S(A(2, 3)), S(A(2, 3), 2, 1), S(A(2, 3, 2), 1.5, 1),
                                S(A(2, 3), 2, -1), S(A(2, 3, 2), 3, -2)],
    '_weight_norm': lambda: [S(A(2, 3), P(2, 1)), S(A(2, 3), P(1, 3), 1), S(A(2, 3), P(), -1)],
}
SAMPLES.update(SAMPLES_SAMPLING)
# stft / istft: composites of recorded ops (their windows do not require grad)
SAMPLES.update({
    'stft': lambda: [S(A(20), call=lambda x: torch.view_as_real(torch.stft(
        x, 8, 3, window=torch.hann_window(8, dtype=torch.float64), return_complex=True)))],
    'istft': lambda: [S(A(5, 11, 2), call=lambda z: torch.istft(
        torch.view_as_complex(z), 8, 2, window=torch.hann_window(8, dtype=torch.float64),
        length=20))],
})


@pytest.mark.parametrize("name", sorted(SAMPLES_SAMPLING))
def test_gradcheck_of_the_sampling_rows(name):
    test_gradcheck(name)


@pytest.mark.parametrize("name", sorted(NONDIFF_SAMPLING))
def test_the_sampling_rows_without_derivative(name):
    test_nondiff_outputs_carry_no_gradient(name)
# ---- linear algebra: helpers of its samples above ---------------------------------------------

def _WC(*shape):
    """Square matrices far from singular (A plus n I), a leaf that requires grad."""
    return (A(*shape).detach() + shape[-1] * torch.eye(shape[-1], dtype=torch.float64)).requires_grad_()


def _LT(n):
    """A Cholesky factor: lower triangular with a positive diagonal."""
    return (A(n, n).detach().tril() + 2 * torch.eye(n, dtype=torch.float64)).requires_grad_()


def _SPD(a):
    return a @ a.mT + torch.eye(a.shape[-1], dtype=a.dtype)


def _quiet(fn, *args):
    """fn(*args) without its deprecation warning."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def _removed(fn, *args):
    """Names torch removed raise its error (and give no output)."""
    with pytest.raises(RuntimeError, match="is now removed"):
        fn(*args)


def test_complex_prod_and_cumprod_gradients_are_conjugate():
    """torch's convention for holomorphic ops: g times the conjugate of the derivative."""
    x = torch.tensor([1 + 2j, -0.5 + 1j, 2 - 1j], dtype=torch.complex128, requires_grad=True)
    g = torch.tensor(1 - 0.5j, dtype=torch.complex128)
    gx, = torch.autograd.grad(x.prod(), x, g)
    v = x.detach().numpy()
    import numpy as np
    expect = [g.item() * np.conj(np.prod(np.delete(v, i))) for i in range(3)]
    np.testing.assert_allclose(gx.numpy(), expect, rtol=1e-12)
    w = torch.tensor([0.5 + 1j, 1 - 1j, 2j], dtype=torch.complex128)
    gx, = torch.autograd.grad(x.cumprod(0), x, w)
    expect = [sum(w[j].item() * np.conj(np.prod(np.delete(v[:j + 1], i))) for j in range(i, 3))
              for i in range(3)]
    np.testing.assert_allclose(gx.numpy(), expect, rtol=1e-12)

