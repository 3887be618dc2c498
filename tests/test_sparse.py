"""Sparse COO tensors (minitorch.sparse_coo, minitorch.sparse): construction and its errors,
coalescing, conversions, sums, products with dense and sparse operands, gradients (gradcheck /
gradgradcheck in float64; torch.sparse.mm's sparse gradient of the sparse operand), printing,
saving, and the errors of ops sparse tensors do not have.  Values against dense computations
(NumPy) and against numbers captured from torch 2.15 (REF at the end)."""
import gc
import io
import pickle

import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import gradcheck, gradgradcheck
from minitorch.autograd import _watch

I = [[0, 1, 1, 2, 0, 1], [2, 0, 2, 1, 2, 0]]      # duplicates: (0, 2) and (1, 0)
V = [1.5, -2.0, 3.0, 0.5, 4.0, 1.0]
D = [[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]]


def _s(dtype=torch.float64):
    return torch.sparse_coo_tensor(I, V, (3, 3), dtype=dtype)


def _dense_np():
    a = np.zeros((3, 3))
    np.add.at(a, (np.array(I[0]), np.array(I[1])), np.array(V))
    return a


def _close(t, ref):
    np.testing.assert_allclose(np.array(t.tolist() if isinstance(t, torch.Tensor) else t),
                               np.array(ref), rtol=1e-12, atol=1e-12)


# ---- construction ---------------------------------------------------------------------------

def test_layout_and_metadata():
    s = _s()
    assert isinstance(s, torch.Tensor) and torch.is_tensor(s)
    assert s.layout is torch.sparse_coo and s.is_sparse
    assert torch.ones(2).layout is torch.strided and not torch.ones(2).is_sparse
    assert s.shape == torch.Size([3, 3]) and s.size() == (3, 3) and s.size(-1) == 3
    assert s.dim() == 2 and s.ndim == 2 and s.dtype == torch.float64
    assert str(s.device) == "cpu" and s.sparse_dim() == 2 and s.dense_dim() == 0
    assert s._nnz() == 6 and not s.is_coalesced() and len(s) == 3
    assert torch.ones(2, 3).sparse_dim() == 0 and torch.ones(2, 3).dense_dim() == 2


def test_size_inferred_and_dtype():
    s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [1, 2, 3])
    assert s.shape == (2, 3) and s.dtype == torch.int64
    e = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.ones(0))
    assert e.shape == (0, 0) and e._nnz() == 0 and e.is_coalesced()
    h = torch.sparse_coo_tensor([[0, 1]], torch.ones(2, 4))
    assert h.shape == (2, 4) and h.sparse_dim() == 1 and h.dense_dim() == 1
    f = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.ones(2), (2,), dtype=torch.int64)
    assert f.dtype == torch.int64 and f._values().dtype == torch.int64
    assert f._indices().dtype == torch.int64


def test_construction_errors():
    with pytest.raises(RuntimeError, match="indices and values must have same nnz, but got nnz "
                                           "from indices: 2, nnz from values: 3"):
        torch.sparse_coo_tensor([[0, 1], [0, 1]], torch.ones(3), (2, 2))
    with pytest.raises(RuntimeError, match=r"indices must be sparse_dim x nnz, but got: \[2\]"):
        torch.sparse_coo_tensor(torch.tensor([0, 1]), torch.ones(2), (2, 2))
    with pytest.raises(RuntimeError, match="found negative index -1 for dim 0"):
        torch.sparse_coo_tensor([[0, -1], [0, 1]], torch.ones(2))
    with pytest.raises(RuntimeError, match="found negative index -1 for dim 0"):
        torch.sparse_coo_tensor([[0, -1], [0, 1]], torch.ones(2), (2, 2))
    with pytest.raises(RuntimeError, match="size is inconsistent with indices: for dim 0, size "
                                           "is 2 but found index 5"):
        torch.sparse_coo_tensor([[0, 5], [0, 1]], torch.ones(2), (2, 2))
    with pytest.raises(RuntimeError, match=r"'len\(size\) == sparse_dim \+ dense_dim' is not "
                                           "satisfied: len.size. = 1, sparse_dim = 2, "
                                           "dense_dim = 0"):
        torch.sparse_coo_tensor([[0, 1], [0, 1]], torch.ones(2), (2,))


def test_requires_grad_leaf():
    s = torch.sparse_coo_tensor(I, V, (3, 3), dtype=torch.float64, requires_grad=True)
    assert s.requires_grad and s.is_leaf and s.grad is None
    v = torch.tensor(V)
    s = torch.sparse_coo_tensor(I, v, (3, 3)).requires_grad_()
    assert s.requires_grad and not v.requires_grad      # the values are the tensor's own


# ---- coalescing and conversions ----------------------------------------------------------------

def test_coalesce():
    s = _s()
    with pytest.raises(RuntimeError, match="Cannot get indices on an uncoalesced tensor, please "
                                           r"call .coalesce\(\) first"):
        s.indices()
    with pytest.raises(RuntimeError, match="Cannot get values on an uncoalesced tensor"):
        s.values()
    c = s.coalesce()
    assert c.is_coalesced() and c.coalesce() is c
    assert c.indices().tolist() == REF["coalesce_indices"]
    _close(c.values(), REF["coalesce_values"])
    assert s._indices().tolist() == I                   # the original is unchanged


def test_dense_round_trip():
    s = _s()
    _close(s.to_dense(), _dense_np())
    x = torch.tensor([[0., 1.5, 0.], [2., 0., -3.]])
    t = x.to_sparse()
    assert t.is_coalesced() and t._nnz() == 3
    assert t.indices().tolist() == [[0, 1, 1], [1, 0, 2]]
    assert torch.equal(t.to_dense(), x) and t.to_sparse() is t
    h = torch.tensor([[0., 1., 0.], [2., 0., 3.], [0., 0., 0.]]).to_sparse(1)
    assert h.sparse_dim() == 1 and h.dense_dim() == 1
    assert h.indices().tolist() == [[0, 1]]
    assert h.to_dense().tolist() == [[0., 1., 0.], [2., 0., 3.], [0., 0., 0.]]
    with pytest.raises(RuntimeError, match="conversion from Sparse to Sparse with sparse_dim "
                                           r"argument !=self.sparse_dim\(\) is not supported"):
        t.to_sparse(1)
    assert x.to_dense() is x


def test_dense_tensor_sparse_methods_errors():
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="coalesce expected sparse coordinate tensor layout "
                                           "but got Strided"):
        x.coalesce()
    with pytest.raises(RuntimeError, match="is_coalesced expected sparse coordinate tensor"):
        x.is_coalesced()
    with pytest.raises(RuntimeError, match="values expected sparse tensor layout but got "
                                           "Strided"):
        x.values()
    with pytest.raises(NotImplementedError, match="aten::_nnz"):
        x._nnz()


def test_to_and_casts():
    s = _s(torch.float32)
    d = s.to(torch.float64)
    assert d.dtype == torch.float64 and d.layout is torch.sparse_coo
    assert s.double().dtype == torch.float64 and s.long().dtype == torch.int64
    assert s.to("cpu") is s and s.cpu() is s
    _close(d.to_dense(), _dense_np())
    with pytest.raises(NotImplementedError, match="CPU only"):
        s.cuda()


# ---- arithmetic ---------------------------------------------------------------------------------

def test_dense_plus_sparse_is_dense():
    a = torch.sparse_coo_tensor([[0, 1], [1, 0]], torch.ones(2), (2, 2), dtype=torch.int64)
    r = torch.eye(2) + a
    assert r.layout is torch.strided and r.dtype == torch.float32
    assert r.tolist() == [[1., 1.], [1., 1.]]
    r = torch.add(torch.ones(2, 2, dtype=torch.float64), a, alpha=2)
    assert r.dtype == torch.float64 and r.tolist() == [[1., 3.], [3., 1.]]
    assert (torch.ones(2, 2) - a).tolist() == [[1., 0.], [0., 1.]]
    with pytest.raises(RuntimeError, match=r"add\(sparse, dense\) is not supported. Use "
                                           r"add\(dense, sparse\) instead."):
        a + torch.ones(2, 2)


def test_sparse_plus_sparse_mul_neg_div():
    s = _s()
    r = s + s
    assert r.layout is torch.sparse_coo
    _close(r.to_dense(), 2 * _dense_np())
    _close((s - s).to_dense(), np.zeros((3, 3)))
    _close((s * 2).to_dense(), 2 * _dense_np())
    _close((3 * s).to_dense(), 3 * _dense_np())
    _close((s / 4).to_dense(), _dense_np() / 4)
    _close((-s).to_dense(), -_dense_np())
    m = (s * s).coalesce()
    assert m.layout is torch.sparse_coo
    assert m.indices().tolist() == REF["mul_sparse"][0]
    _close(m.values(), REF["mul_sparse"][1])
    w = torch.arange(9, dtype=torch.float64).reshape(3, 3)
    md = s * w
    assert md.layout is torch.sparse_coo
    _close(md.to_dense(), _dense_np() * np.arange(9).reshape(3, 3))


def test_arithmetic_errors_and_broadcasting():
    s = _s()
    with pytest.raises(RuntimeError, match=r"add\(sparse, dense\) is not supported"):
        s + 1
    with pytest.raises(RuntimeError, match="Sparse division requires a scalar or zero-dim dense "
                                           r"tensor divisor \(got shape \[3, 3\] for divisor\)"):
        s / s
    r = s * torch.tensor([1., 2., 3.], dtype=torch.float64)      # broadcast to the sparse shape
    assert r.layout is torch.sparse_coo
    _close(r.to_dense(), _dense_np() * [1., 2., 3.])
    with pytest.raises(RuntimeError, match="nbytes is not defined for sparse tensors"):
        s.nbytes
    with pytest.raises(RuntimeError, match="coalesce expected sparse coordinate tensor layout"):
        torch.sparse.sum(torch.ones(2, 2))
    with pytest.raises(NotImplementedError, match="aten::_indices' with arguments from the "
                                                  "'CPU' backend"):
        torch.sparse.sum(torch.ones(2, 2), 1)
    with pytest.raises(NotImplementedError, match="aten::_sparse_softmax' with arguments from "
                                                  "the 'CPU' backend"):
        torch.sparse.softmax(torch.ones(2, 2), 1)


def test_transpose_clone():
    s = _s()
    _close(s.t().to_dense(), _dense_np().T)
    _close(s.transpose(0, 1).to_dense(), _dense_np().T)
    _close(s.T.to_dense(), _dense_np().T)
    c = s.clone()
    assert c is not s and c._indices().tolist() == I


def test_sums():
    s = _s()
    r = torch.sum(s)
    assert r.layout is torch.strided and r.dim() == 0 and r.item() == REF["sum"]
    for d in (0, 1):
        r = torch.sum(s, dim=d)
        assert r.layout is torch.sparse_coo and list(r.shape) == REF[f"sum_dim{d}"][2]
        assert r.indices().tolist() == REF[f"sum_dim{d}"][0]
        _close(r.values(), REF[f"sum_dim{d}"][1])
        _close(torch.sparse.sum(s, d).to_dense(), _dense_np().sum(d))
    r = s.sum(1, keepdim=True)
    assert list(r.shape) == REF["sum_keepdim"][2] and r.indices().tolist() == REF["sum_keepdim"][0]
    assert torch.sparse.sum(s, (0, 1)).item() == REF["sum"]
    i = torch.sparse_coo_tensor([[0, 1, 1]], torch.tensor([1, 2, 3]), (2,))
    assert torch.sum(i).dtype == torch.int64 and torch.sum(i).item() == 6


# ---- products -----------------------------------------------------------------------------------

def test_sparse_dense_products():
    s, d = _s(), torch.tensor(D, dtype=torch.float64)
    for r in (torch.mm(s, d), torch.spmm(s, d), torch.sparse.mm(s, d), s @ d, s.mm(d),
              torch.matmul(s, d)):
        assert r.layout is torch.strided
        _close(r, REF["mm"])
    _close(s @ torch.tensor([1., 2., 3.], dtype=torch.float64), _dense_np() @ [1., 2., 3.])
    dl = torch.tensor(D, dtype=torch.float64).t()
    _close(torch.mm(dl, s), np.array(D).T @ _dense_np())
    _close(torch.sparse.addmm(torch.ones(3, 2, dtype=torch.float64), s, d, beta=0.5, alpha=2.0),
           REF["addmm"])
    with pytest.raises(RuntimeError, match="expected scalar type Double but found Float"):
        torch.mm(s, torch.ones(3, 2))
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        torch.mm(s, torch.ones(2, 2, dtype=torch.float64))


def test_sparse_sparse_product():
    s = _s()
    p = torch.mm(s, s.t())
    assert p.layout is torch.sparse_coo and p.is_coalesced()
    assert p.indices().tolist() == REF["sparse_sparse"][0]
    _close(p.values(), REF["sparse_sparse"][1])
    _close(p.to_dense(), _dense_np() @ _dense_np().T)


def test_kernel_against_dense_product_large():
    """Many rows (the pool splits them), unsorted indices with duplicates, both float dtypes."""
    rng = np.random.default_rng(0)
    m, k, n, nnz = 3000, 500, 33, 60000
    idx = np.stack([rng.integers(0, m, nnz), rng.integers(0, k, nnz)])
    for dt, npdt, tol in ((torch.float32, np.float32, 1e-4), (torch.float64, np.float64, 1e-10)):
        vals = rng.standard_normal(nnz).astype(npdt)
        dense = rng.standard_normal((k, n)).astype(npdt)
        s = torch.sparse_coo_tensor(torch.from_numpy(idx), torch.from_numpy(vals), (m, k))
        a = np.zeros((m, k), dtype=np.float64)
        np.add.at(a, (idx[0], idx[1]), vals.astype(np.float64))
        r = torch.sparse.mm(s, torch.from_numpy(dense))
        np.testing.assert_allclose(r.numpy(), a @ dense.astype(np.float64), rtol=tol, atol=tol)
    s = torch.sparse_coo_tensor(torch.from_numpy(idx[:, :50]),
                                torch.arange(50), (m, k))          # int64: the composite path
    r = torch.sparse.mm(s, torch.ones(k, 2, dtype=torch.int64))
    assert r.dtype == torch.int64 and r.sum().item() == 2 * sum(range(50))


def test_smm_hspmm_softmax():
    s, d = _s(), torch.tensor(D, dtype=torch.float64)
    r = torch.smm(s, d)
    assert r.layout is torch.sparse_coo
    _close(r.to_dense(), REF["mm"])
    h = torch.hspmm(s, d)
    assert h.sparse_dim() == 1 and h.dense_dim() == 1
    _close(h.to_dense(), REF["mm"])
    _close(torch.sparse.softmax(s, 1).values(), REF["softmax1"])
    _close(torch.sparse.log_softmax(s, 0).values(), REF["log_softmax0"])


# ---- gradients ----------------------------------------------------------------------------------

def test_gradcheck_values_and_dense():
    idx = torch.tensor(I)
    v = torch.tensor(V, dtype=torch.float64, requires_grad=True)
    d = torch.tensor(D, dtype=torch.float64, requires_grad=True)

    def f(v, d):
        return torch.sparse.mm(torch.sparse_coo_tensor(idx, v, (3, 3)), d)

    assert gradcheck(f, (v, d))
    assert gradgradcheck(f, (v, d))

    def g(v, d):            # dense @ sparse and the dense sum with a sparse operand
        s = torch.sparse_coo_tensor(idx, v, (3, 3))
        return torch.mm(d.t(), s) + torch.ones(2, 3, dtype=torch.float64) * 0

    assert gradcheck(g, (v, d))

    def h(v):               # coalesce, to_dense, sums, sparse x sparse
        s = torch.sparse_coo_tensor(idx, v, (3, 3))
        return (torch.mm(s, s.t()).to_dense() + torch.sparse.sum(s, 1).to_dense().unsqueeze(0)
                + (s * s).to_dense())

    assert gradcheck(h, (v,))


def test_sparse_mm_gradient_of_the_sparse_operand():
    s = torch.sparse_coo_tensor(I, torch.tensor(V, dtype=torch.float64), (3, 3)).coalesce()
    s.requires_grad_()
    d = torch.tensor(D, dtype=torch.float64, requires_grad=True)
    (torch.sparse.mm(s, d) ** 2).sum().backward()
    g = s.grad
    assert g.layout is torch.sparse_coo
    assert g.indices().tolist() == REF["sparse_mm_grad_indices"]
    _close(g.values(), REF["sparse_mm_grad_values"])
    _close(d.grad, REF["sparse_mm_grad_dense"])
    s.grad = None
    assert s.grad is None


def test_gcn_layer_trains():
    """The GCN layer's shape: dense weight, sparse features and adjacency."""
    torch.manual_seed(0)
    feats = (torch.rand(20, 12) > 0.7).float().to_sparse()
    adj = (torch.eye(20) + (torch.rand(20, 20) > 0.8).float()).to_sparse()
    w = torch.nn.Parameter(torch.randn(12, 3))
    opt = torch.optim.SGD([w], lr=1e-3)
    first = None
    for _ in range(5):
        opt.zero_grad()
        out = torch.spmm(adj, torch.mm(feats, w))
        loss = (out ** 2).mean()
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
    ref = adj.to_dense() @ feats.to_dense() @ w.detach()
    np.testing.assert_allclose(torch.spmm(adj, torch.mm(feats, w)).detach().numpy(),
                               ref.numpy(), rtol=1e-5, atol=1e-4)
    assert loss.item() < first


# ---- what sparse tensors do not have ------------------------------------------------------------

@pytest.mark.parametrize("call,name", [
    (lambda s: torch.exp(s), "exp"), (lambda s: s.relu(), "relu"), (lambda s: s.view(9), "view"),
    (lambda s: s[0], "getitem"), (lambda s: torch.sqrt(s), "sqrt"),
    (lambda s: torch.ones(3, 3).mul_(s), "mul_"), (lambda s: s == s, "eq"),
    (lambda s: torch.ones(3, 3) < s, "gt"), (lambda s: torch.eq(s, 1), "eq"),
    (lambda s: torch.where(s > 0, 1, 0), "gt"), (lambda s: s.max(), "max"),
])
def test_unsupported_ops_raise(call, name):
    with pytest.raises(NotImplementedError, match=f"Could not run 'aten::{name}(\\.\\w+)?' with "
                                                  "arguments from the 'SparseCPU' backend"):
        call(_s())


def test_non_op_methods_raise():
    s = _s()
    with pytest.raises(TypeError, match="can't convert Sparse layout tensor to numpy"):
        s.numpy()
    with pytest.raises(RuntimeError, match="Cannot access data pointer of Tensor that doesn't "
                                           "have storage"):
        s.tolist()
    with pytest.raises(RuntimeError, match="Sparse tensors do not have strides"):
        s.stride()
    with pytest.raises(RuntimeError, match="Concatenating sparse tensors"):
        torch.cat([s, s])


def test_watcher_only_while_sparse_tensors_live():
    gc.collect()
    assert not _watch._watchers
    s = _s()
    assert _watch._watchers
    del s
    gc.collect()
    assert not _watch._watchers


# ---- printing and saving ----------------------------------------------------------------

def test_repr():
    s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [1, 2, 3], (2, 3))
    assert repr(s) == REPR_INT.replace("torch.", "minitorch.")
    e = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.ones(0), (2, 3))
    assert repr(e) == REPR_EMPTY.replace("torch.", "minitorch.")
    h = torch.sparse_coo_tensor([[0, 1]], torch.ones(2, 2))
    assert repr(h) == REPR_HYBRID.replace("torch.", "minitorch.")
    g = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [1., 2, 3], dtype=torch.float64)
    r = repr(g.requires_grad_())
    assert "dtype=minitorch.float64" in r and r.endswith("requires_grad=True)")


def test_pickle_and_save_round_trip():
    s = _s()
    for t in (pickle.loads(pickle.dumps(s)), ):
        assert t.layout is torch.sparse_coo and t._indices().tolist() == I
        _close(t.to_dense(), _dense_np())
    buf = io.BytesIO()
    torch.save({"adj": s.coalesce()}, buf)
    buf.seek(0)
    t = torch.load(buf)["adj"]
    assert t.is_coalesced() and t.layout is torch.sparse_coo
    _close(t.to_dense(), _dense_np())


def test_spdiags():
    d = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
    s = torch.sparse.spdiags(d, torch.tensor([0, -1]), (3, 3))
    assert s.to_dense().tolist() == [[1., 0., 0.], [4., 2., 0.], [0., 5., 3.]]


# torch 2.15's results for the inputs above (float64)
REF = {'coalesce_indices': [[0, 1, 1, 2], [2, 0, 2, 1]], 'coalesce_values': [5.5, -1.0, 3.0, 0.5],
       'sum': 8.0, 'sum_dim0': ([[0, 1, 2]], [-1.0, 0.5, 8.5], [3]),
       'sum_dim1': ([[0, 1, 2]], [5.5, 2.0, 0.5], [3]),
       'sum_keepdim': ([[0, 1, 2], [0, 0, 0]], [5.5, 2.0, 0.5], [3, 1]),
       'mm': [[-4.125, 8.25], [-2.75, 5.5], [1.0, 0.125]],
       'sparse_sparse': ([[0, 0, 1, 1, 2], [0, 1, 0, 1, 2]], [30.25, 16.5, 16.5, 10.0, 0.25]),
       'mul_sparse': ([[0, 1, 1, 2], [2, 0, 2, 1]], [30.25, 1.0, 9.0, 0.25]),
       'sparse_mm_grad_values': [30.9375, -13.75, 20.625, 4.0625],
       'sparse_mm_grad_indices': [[0, 1, 1, 2], [2, 0, 2, 1]],
       'sparse_mm_grad_dense': [[5.5, -11.0], [1.0, 0.125], [-61.875, 123.75]],
       'softmax1': [1.0, 0.017986209962091555, 0.9820137900379085, 1.0],
       'log_softmax0': [-0.07888973429254964, 0.0, -2.5788897342925496, 0.0],
       'addmm': [[-7.75, 17.0], [-5.0, 11.5], [2.5, 0.75]],
       'to_sparse1': ([[0, 1]], [[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])}
REPR_INT = ('tensor(indices=tensor([[0, 1, 1],\n                       [2, 0, 2]]),\n'
            '       values=tensor([1, 2, 3]),\n'
            '       size=(2, 3), nnz=3, layout=torch.sparse_coo)')
REPR_EMPTY = ('tensor(indices=tensor([], size=(2, 0)),\n       values=tensor([], size=(0,)),\n'
              '       size=(2, 3), nnz=0, layout=torch.sparse_coo)')
REPR_HYBRID = ('tensor(indices=tensor([[0, 1]]),\n       values=tensor([[1., 1.],\n'
               '                      [1., 1.]]),\n'
               '       size=(2, 2), nnz=2, layout=torch.sparse_coo)')


def test_data_of_a_dense_tensor_cannot_become_sparse():
    # torch 2.15: RuntimeError "... have incompatible tensor type." both ways
    x = torch.randn(1, 2)
    s = torch.sparse_coo_tensor(torch.zeros([1, 1]), torch.ones([1]))
    with pytest.raises(RuntimeError, match="have incompatible tensor type"):
        x.data = s
    with pytest.raises(RuntimeError, match="have incompatible tensor type"):
        s.data = x
    assert x.layout == torch.strided and x.shape == (1, 2)


# ---- sparse gradients of dense inputs (Note [Sparse plus dense gradients]) -------------------

class _FixedGrad(torch.autograd.Function):
    """Passes x through; its backward returns the gradient it was given (sparse or dense)."""

    @staticmethod
    def forward(ctx, x, g):
        ctx.save_for_backward(g)
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        (g,) = ctx.saved_tensors
        return g, None


def _grads():
    def sp(i, v):
        return torch.sparse_coo_tensor(i, v, (3, 2), dtype=torch.float64)
    s1 = sp([[0, 2]], [[1., 2.], [3., 4.]])
    s2 = sp([[2, 1, 2]], [[0.5, -1.], [2., 0.25], [1., 1.]])
    d = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], dtype=torch.float64)
    return s1, s2, d


# captured from torch 2.15 (the same program)
SPARSE_ACC_REF = {
    'sparse_first': (True, [[1.1, 2.2], [2.3, 0.65], [5.0, 4.6]]),
    'dense_first': (True, [[1.1, 2.2], [2.3, 0.65], [5.0, 4.6]]),
    'sparse_only': (True, [[1.0, 2.0], [2.0, 0.25], [4.5, 4.0]]),
    'dense_then_sparse': (True, [[1.1, 2.2], [0.3, 0.4], [3.5, 4.6]]),
    'sparse_then_dense': (False, [[1.1, 2.2], [0.3, 0.4], [3.5, 4.6]]),
    'sparse_then_dense_cg': (False, [[1.1, 2.2], [0.3, 0.4], [3.5, 4.6]])}


def _leaf():
    return torch.zeros(3, 2, dtype=torch.float64, requires_grad=True)


@pytest.mark.parametrize("name", ["sparse_first", "dense_first"])
def test_sparse_and_dense_gradients_summed_in_a_buffer(name):
    s1, s2, d = _grads()
    x = _leaf()
    gs = (s1, d, s2) if name == "sparse_first" else (d, s1, s2)
    (_FixedGrad.apply(x, gs[0]) + _FixedGrad.apply(x, gs[1]) +
     _FixedGrad.apply(x, gs[2])).sum().backward()
    dense, ref = SPARSE_ACC_REF[name]
    assert (x.grad.layout == torch.strided) is dense
    _close(x.grad, ref)


def test_sparse_gradients_only_give_a_sparse_grad():
    s1, s2, _ = _grads()
    x = _leaf()
    (_FixedGrad.apply(x, s1) + _FixedGrad.apply(x, s2)).sum().backward()
    is_sparse, ref = SPARSE_ACC_REF["sparse_only"]
    assert x.grad.is_sparse is is_sparse
    _close(x.grad.to_dense(), ref)


def test_dense_grad_then_sparse_gradient_accumulates_in_place():
    s1, _, d = _grads()
    x = _leaf()
    _FixedGrad.apply(x, d).sum().backward()
    before = x.grad
    _FixedGrad.apply(x, s1).sum().backward()
    same, ref = SPARSE_ACC_REF["dense_then_sparse"]
    assert (x.grad is before) is same
    _close(x.grad, ref)


@pytest.mark.parametrize("create_graph", [False, True])
def test_sparse_grad_then_dense_gradient_gives_a_dense_grad(create_graph):
    s1, _, d = _grads()
    x = _leaf()
    _FixedGrad.apply(x, s1).sum().backward()
    assert x.grad.is_sparse
    _FixedGrad.apply(x, d).sum().backward(create_graph=create_graph)
    is_sparse, ref = SPARSE_ACC_REF["sparse_then_dense_cg" if create_graph else
                                    "sparse_then_dense"]
    assert x.grad.is_sparse is is_sparse
    _close(x.grad, ref)
    x.grad = None
    gc.collect()


def test_dense_add_sparse_in_place():
    a = torch.zeros(3, 2, dtype=torch.float64)
    s = torch.sparse_coo_tensor([[0, 2, 0]], [[1., 2.], [3., 4.], [5., 6.]], (3, 2))
    a.add_(s)
    a += s
    _close(a, [[12., 16.], [0., 0.], [6., 8.]])
    with pytest.raises(RuntimeError, match="add: expected 'self' and 'other' to have same size"):
        torch.zeros(2, 2).add_(s)
    with pytest.raises(RuntimeError, match=r"add\(sparse, dense\) is not supported"):
        s.add_(a)


def test_private_values_are_outside_autograd_and_coalesced_flag_can_be_set():
    v = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    s = torch.sparse_coo_tensor([[0, 2, 0]], v, (3,))
    assert s.requires_grad and not s._values().requires_grad
    assert s._values().grad_fn is None
    leaf = s.detach().requires_grad_()
    with pytest.raises(RuntimeError, match="does not have a grad_fn"):
        leaf._values().backward(torch.ones(3, dtype=torch.float64))
    t = torch.sparse_coo_tensor([[0, 2, 0]], [1.0, 2.0, 3.0], (3,))
    assert t.is_coalesced() is False
    assert t._coalesced_(True) is t and t.is_coalesced()
    t._coalesced_(False)
    assert not t.is_coalesced()
    # the differentiable getter still carries gradients
    c = s.coalesce()
    c.values().sum().backward()
    _close(v.grad, [1.0, 1.0, 1.0])


# captured from torch 2.15: (.grad's kind, the backward gradient's kind, create_graph) ->
# (the same .grad object afterwards, sparse, values)
GRAD_REFERENCE_REF = {
    ('sparse', 'dense', False): (False, False, [1.5, 3.5]),
    ('dense', 'dense', False): (True, False, [3.0, 3.0]),
    ('sparse', 'sparse', False): (True, True, [0.0, 4.0]),
    ('sparse', 'dense', True): (False, False, [1.5, 3.5]),
    ('dense', 'dense', True): (False, False, [3.0, 3.0]),
    ('sparse', 'sparse', True): (False, True, [0.0, 4.0])}


@pytest.mark.parametrize("key", list(GRAD_REFERENCE_REF))
def test_sparse_grad_of_a_dense_leaf_accumulates_as_torch(key):
    def sp():
        return torch.sparse_coo_tensor(torch.tensor([[1, 1]]), torch.tensor([1.0, 1.0]), (2,))
    gname, bname, cg = key
    p = torch.tensor([1.5, 1.5]).requires_grad_()
    p.grad = sp() if gname == "sparse" else torch.tensor([1.5, 1.5])
    saved = p.grad
    p.backward(sp() if bname == "sparse" else torch.tensor([1.5, 1.5]), create_graph=cg)
    same, is_sparse, ref = GRAD_REFERENCE_REF[key]
    assert (p.grad is saved) is same
    assert p.grad.is_sparse is is_sparse
    _close(p.grad.to_dense(), ref)
    p.grad = None       # (create_graph: the gradient's graph refers to p)
    del saved
    gc.collect()


def test_sparse_grad_assignment_checks_the_size():
    p = torch.tensor([1.5, 1.5]).requires_grad_()
    with pytest.raises(RuntimeError, match=r"attempting to assign a gradient of size '\[3\]' to a "
                                           r"tensor of size '\[2\]'"):
        p.grad = torch.sparse_coo_tensor(torch.tensor([[1]]), torch.tensor([1.0]), (3,))


def test_sparse_add_in_place():
    a = torch.sparse_coo_tensor([[0, 2]], [1.0, 2.0], (3,))
    b = torch.sparse_coo_tensor([[2, 1]], [3.0, 4.0], (3,))
    assert a.add_(b) is a
    _close(a.to_dense(), [1.0, 4.0, 5.0])
    with pytest.raises(RuntimeError, match=r"add\(sparse, dense\) is not supported"):
        a.add_(torch.ones(3))
    leaf = torch.sparse_coo_tensor([[0]], [1.0], (3,), requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        leaf.add_(b)



# ---- Tensor.sparse_mask --------------------------------------------------------------------------

def test_sparse_mask_against_torch():
    r = {}
    t = torch.arange(12, dtype=torch.float64).reshape(3, 4).requires_grad_()
    m = torch.sparse_coo_tensor([[2, 0, 2, 1], [1, 3, 1, 0]], [1.0, 2.0, 3.0, 4.0], (3, 4))
    s = t.sparse_mask(m)
    r["unc"] = (s.is_coalesced(), s._indices().tolist(), s._values().tolist(),
                s.layout == torch.sparse_coo, s.requires_grad)
    s2 = t.sparse_mask(m.coalesce())
    r["coal"] = (s2.is_coalesced(), s2._indices().tolist(), s2._values().tolist())
    s2.to_dense().sum().backward()
    r["grad"] = t.grad.tolist()
    mh = torch.sparse_coo_tensor([[2, 0]], torch.ones(2, 4), (3, 4))
    s3 = t.sparse_mask(mh)
    r["hybrid"] = (s3.sparse_dim(), s3.dense_dim(), s3._indices().tolist(), s3._values().tolist())
    try:
        t.sparse_mask(torch.sparse_coo_tensor([[0]], [1.0], (5,)))
    except RuntimeError as e:
        r["size"] = (type(e).__name__, str(e))
    assert r == SPARSE_MASK_REF
    with pytest.raises(NotImplementedError, match="Could not run 'aten::sparse_mask' with "
                                                  "arguments from the 'CPU' backend"):
        t.sparse_mask(torch.ones(3, 4))


# torch 2.15, the same calls
SPARSE_MASK_REF = {'coal': (True, [[0, 1, 2], [3, 0, 1]], [3.0, 4.0, 9.0]),
 'grad': [[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]],
 'hybrid': (1, 1, [[2, 0]], [[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0]]),
 'size': ('RuntimeError',
          'sparse_mask(): operands have incompatible sizes; self has size [3, 4] but mask has '
          'size [5]'),
 'unc': (False, [[2, 0, 2, 1], [1, 3, 1, 0]], [9.0, 3.0, 9.0, 4.0], True, True)}
