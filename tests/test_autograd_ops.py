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
    method=False when the arguments do not fit the method form."""

    def __init__(self, *args, call=None, gc=None, method=True, **kwargs):
        self.args, self.kwargs, self.call, self.gc, self.method = args, kwargs, call, gc or {}, method

    def inputs(self):
        out = []
        for a in list(self.args) + list(self.kwargs.values()):
            for t in (a if isinstance(a, (list, tuple)) else (a,)):
                if isinstance(t, torch.Tensor) and t.requires_grad:
                    out.append(t)
        return out


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
          V([[0.0, 1.1, 0.4], [0.8, 0.0, 0.0]]), "prod", include_self=inc) for inc in (True, False)],
    'select': lambda: [S(A(3, 4), 0, 1), S(A(3, 4), -1, -2), S(A(3), 0, 2)],
    'select_copy': lambda: [S(A(3, 4), 1, 2)],
    'sgn': lambda: [S(A(2, 3)), S(A(3, 2), call=lambda x: torch.sgn(torch.view_as_complex(x)))],
    'share_memory_': lambda: [S(A(2, 3), call=lambda x: (x * 1).share_memory_())],
    'sigmoid': lambda: [S(A(2, 3))],
    'sign': lambda: [S(A(2, 3))],
    'sin': lambda: [S(A(2, 3))],
    'sinc': lambda: [S(A(2, 3)), S(V([0.0, 0.5, -1.5]))],
    'sinh': lambda: [S(A(2, 3))],
    'slice_copy': lambda: [S(A(5, 2), 0, 1, 4, 2), S(A(2, 5), 1, None, None, 2)],
    'sort': lambda: [S(A(2, 3)), S(A(2, 3), 0), S(A(2, 3), descending=True), S(A(3), -1, True)],
    'split': lambda: [S(A(5, 2), 2), S(A(5, 2), [1, 4]), S(A(2, 5), 2, 1), S(A(2, 5), [3, 2], dim=-1)],
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
}


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
    'cuda': lambda x: x.cuda() if torch.cuda.is_available() else None,
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
    'unique': lambda x: torch.unique(x),
    'unique_consecutive': lambda x: torch.unique_consecutive(x),
    'zeros': lambda x: torch.zeros(2),
    'zeros_like': lambda x: torch.zeros_like(x),
}

# name -> (why it has no derivative in minitorch, a call on x that must raise NotImplementedError)
NOT_DIFFERENTIABLE = {
    'pin_memory': ("pinned memory needs CUDA tensors, which minitorch does not have",
                   lambda x: x.pin_memory()),
}


# spatial ops (convolution, 3-D pooling, resampling): their backward rows are recorded ops too
def _idx3(*shape, k=2, adaptive=False):
    x = A(*shape).detach()
    return torch._adaptive_max_pool3d(x, k)[1] if adaptive else torch._max_pool3d_with_indices(x, k)[1]


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
    if "f" in forms or "g" in forms:
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
