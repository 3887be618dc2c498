"""torch.autograd._functions: the legacy Resize and Type Functions (shared data, node names,
gradients, the size error, Type's deprecation warning), against torch 2.15 (REF)."""
import warnings

import minitorch as torch
from minitorch.autograd._functions import Resize, Type


def test_resize_and_type_against_torch():
    x = torch.arange(6, dtype=torch.float64).reshape(2, 3).requires_grad_()
    y = Resize.apply(x, (3, 2))
    r = {"shares": y.data_ptr() == x.data_ptr(), "base": y._base is None, "leaf": y.is_leaf,
         "name": type(y.grad_fn).__name__, "shape": tuple(y.shape)}
    (y * torch.arange(6, dtype=torch.float64).reshape(3, 2)).sum().backward()
    r["grad"] = x.grad.tolist()
    xt = torch.arange(6, dtype=torch.float64).reshape(3, 2).t().requires_grad_()
    z = Resize.apply(xt, [6])
    r["t_shares"] = z.data_ptr() == xt.data_ptr()
    r["t_vals"] = z.tolist()
    (z * torch.arange(6, dtype=torch.float64)).sum().backward()
    r["t_grad"] = xt.grad.tolist()
    try:
        Resize.apply(x, (4, 2))
    except RuntimeError as e:
        r["err"] = str(e)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = Type.apply(a, torch.float64)
        r["type"] = (str(b.dtype).split(".")[1], type(b.grad_fn).__name__,
                     [str(i.category.__name__) for i in w])
        b.sum().backward()
        r["type_grad"] = (a.grad.tolist(), str(a.grad.dtype).split(".")[1])
    assert r == REF


def test_module_is_reachable_from_autograd():
    assert torch.autograd._functions.Resize is Resize


REF = {'base': False,
 'err': 'requested resize to 4x2 (8 elements in total), but the given tensor has a size of 2x3 '
        "(6 elements). autograd's resize can only change the shape of a given tensor, while "
        'preserving the number of elements. ',
 'grad': [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],
 'leaf': False,
 'name': 'ResizeBackward',
 'shape': (3, 2),
 'shares': True,
 't_grad': [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],
 't_shares': False,
 't_vals': [0.0, 2.0, 4.0, 1.0, 3.0, 5.0],
 'type': ('float64', 'TypeBackward', ['FutureWarning']),
 'type_grad': ([1.0, 1.0], 'float32')}
