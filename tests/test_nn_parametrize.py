"""nn.utils.parametrize, nn.utils.parametrizations (orthogonal, weight_norm, spectral_norm),
the original nn.utils.weight_norm / spectral_norm hooks and nn.utils.fusion: values, gradients,
state_dict keys and errors against what PyTorch 2.15 computes for the same modules (REF, at the
end of this file; ``python tests/test_nn_parametrize.py`` with torch importable prints it)."""
import copy
import math
import sys
import warnings

import numpy as np
import pytest

import minitorch


def _fill(T, module, seed=0.37):
    """Deterministic, full-rank parameter values: element k of the concatenated parameters is
    0.5 sin(seed k^2 + 0.2)."""
    k = 0
    with T.no_grad():
        for p in module.parameters():
            n = p.numel()
            vals = 0.5 * np.sin(seed * np.arange(k, k + n) ** 2 + 0.2)
            p.copy_(T.tensor(vals.tolist(), dtype=p.dtype).reshape(p.shape))
            k += n
    return module


def _x(T, *shape):
    return T.tensor(np.cos(np.arange(math.prod(shape)) * 0.61 + 0.3).reshape(shape).tolist(),
                    dtype=T.float64)


def _np(t):
    return t.detach().double().reshape(-1).tolist()


def _unit(T, n, phase):
    v = np.sin(np.arange(n) * 1.7 + phase)
    return T.tensor((v / np.linalg.norm(v)).tolist(), dtype=T.float64)


# ---- parametrizations used by the cases -------------------------------------------------------

def _parametrizations(T):
    nn = T.nn

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).mT

        def right_inverse(self, A):
            return A.triu()

    class Scale(nn.Module):
        def __init__(self, s):
            super().__init__()
            self.s = s

        def forward(self, X):
            return X * self.s

        def right_inverse(self, A):
            return A / self.s

    class NormDirection(nn.Module):
        """Two originals: the row norms and the rows."""

        def forward(self, g, v):
            return v * (g / v.norm(dim=1, keepdim=True))

        def right_inverse(self, w):
            return w.norm(dim=1, keepdim=True), w

    class NoInverse(nn.Module):
        def forward(self, X):
            return X.tanh()

    return Symmetric, Scale, NormDirection, NoInverse


def case_parametrize(T):
    nn, P = T.nn, T.nn.utils.parametrize
    Symmetric, Scale, NormDirection, NoInverse = _parametrizations(T)
    out = {}

    m = _fill(T, nn.Linear(3, 3, dtype=T.float64))
    P.register_parametrization(m, "weight", Symmetric())
    out["sym_weight"] = _np(m.weight)
    out["sym_keys"] = list(m.state_dict())
    out["sym_class"] = type(m).__name__
    loss = (m(_x(T, 2, 3)) ** 2).sum()
    loss.backward()
    out["sym_grad"] = _np(m.parametrizations.weight.original.grad)
    # assigning goes through right_inverse
    with T.no_grad():
        m.weight = _x(T, 3, 3) + _x(T, 3, 3).mT
    out["sym_assigned_original"] = _np(m.parametrizations.weight.original)
    # a second parametrization is chained after the first
    P.register_parametrization(m, "weight", Scale(2.0))
    out["chain_weight"] = _np(m.weight)
    out["chain_len"] = len(m.parametrizations.weight)
    with T.no_grad():
        m.weight = _x(T, 3, 3) + _x(T, 3, 3).mT
    out["chain_assigned_original"] = _np(m.parametrizations.weight.original)
    P.remove_parametrizations(m, "weight", leave_parametrized=True)
    out["removed_weight"] = _np(m.weight)
    out["removed_class"] = type(m).__name__
    out["removed_is_param"] = isinstance(m.weight, nn.Parameter)

    m = _fill(T, nn.Linear(4, 3, dtype=T.float64))
    P.register_parametrization(m, "weight", NormDirection())
    out["multi_keys"] = list(m.state_dict())
    out["multi_weight"] = _np(m.weight)
    loss = (m(_x(T, 2, 4)) ** 3).sum()
    loss.backward()
    out["multi_grad0"] = _np(m.parametrizations.weight.original0.grad)
    out["multi_grad1"] = _np(m.parametrizations.weight.original1.grad)
    with T.no_grad():
        m.weight = 2 * _x(T, 3, 4)
    out["multi_assigned"] = _np(m.parametrizations.weight.original0) + \
        _np(m.parametrizations.weight.original1)

    m = _fill(T, nn.Linear(3, 2, dtype=T.float64))
    P.register_parametrization(m, "bias", NoInverse())
    out["noinv_bias"] = _np(m.bias)
    P.remove_parametrizations(m, "bias", leave_parametrized=False)
    out["noinv_removed"] = _np(m.bias)
    return out


def case_weight_norm(T):
    nn = T.nn
    wn = nn.utils.parametrizations.weight_norm
    out = {}
    for name, make, dim, x_shape in [("lin0", lambda: nn.Linear(4, 3, dtype=T.float64), 0, (2, 4)),
                                     ("lin1", lambda: nn.Linear(4, 3, dtype=T.float64), 1, (2, 4)),
                                     ("linNone", lambda: nn.Linear(4, 3, dtype=T.float64), None, (2, 4)),
                                     ("conv", lambda: nn.Conv2d(2, 3, 2, dtype=T.float64), 0, (1, 2, 3, 3))]:
        m = _fill(T, make())
        wn(m, dim=dim)
        out[name + "_keys"] = list(m.state_dict())
        out[name + "_g"] = _np(m.parametrizations.weight.original0)
        out[name + "_weight"] = _np(m.weight)
        (m(_x(T, *x_shape)) ** 2).sum().backward()
        out[name + "_grad_g"] = _np(m.parametrizations.weight.original0.grad)
        out[name + "_grad_v"] = _np(m.parametrizations.weight.original1.grad)
    return out


def case_spectral_norm(T):
    nn = T.nn
    out = {}
    for name, make, x_shape in [("lin", lambda: nn.Linear(5, 4, dtype=T.float64), (2, 5)),
                                ("conv", lambda: nn.Conv2d(2, 3, 2, dtype=T.float64), (1, 2, 3, 3))]:
        m = _fill(T, make())
        nn.utils.parametrizations.spectral_norm(m)
        sn = m.parametrizations.weight[0]
        with T.no_grad():
            sn._u.copy_(_unit(T, sn._u.numel(), 0.3))
            sn._v.copy_(_unit(T, sn._v.numel(), 1.1))
        out[name + "_keys"] = list(m.state_dict())
        ws = []
        for _ in range(3):
            ws += _np(m.weight)
        out[name + "_train_weights"] = ws
        out[name + "_u"] = _np(sn._u)
        out[name + "_v"] = _np(sn._v)
        (m(_x(T, *x_shape)) ** 2).sum().backward()
        out[name + "_grad"] = _np(m.parametrizations.weight.original.grad)
        m.eval()
        out[name + "_eval_weight"] = _np(m.weight)
        out[name + "_eval_u"] = _np(sn._u)
    return out


def _orth_modules(T):
    return [("square", (4, 4)), ("tall", (5, 3)), ("wide", (3, 5))]


def case_orthogonal(T):
    nn = T.nn
    out = {}
    for shape_name, shape in _orth_modules(T):
        for omap in ("matrix_exp", "cayley", "householder"):
            for triv in (True, False):
                key = f"{shape_name}_{omap}_{'triv' if triv else 'notriv'}"
                m = _fill(T, nn.Linear(shape[1], shape[0], dtype=T.float64))
                nn.utils.parametrizations.orthogonal(m, orthogonal_map=omap,
                                                     use_trivialization=triv)
                out[key + "_weight"] = _np(m.weight)
                out[key + "_original"] = _np(m.parametrizations.weight.original)
                (m(_x(T, 2, shape[1])) ** 3).sum().backward()
                # with the trivialization of a non-square matrix the base is completed with
                # random columns, which the gradient depends on
                if not triv or shape[0] == shape[1]:
                    out[key + "_grad"] = _np(m.parametrizations.weight.original.grad)
    return out


def case_old_weight_norm(T):
    nn = T.nn
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = _fill(T, nn.Linear(4, 3, dtype=T.float64))
        nn.utils.weight_norm(m)
        out["keys"] = list(m.state_dict())
        out["g"] = _np(m.weight_g)
        (m(_x(T, 2, 4)) ** 2).sum().backward()
        out["grad_g"] = _np(m.weight_g.grad)
        out["grad_v"] = _np(m.weight_v.grad)
        with T.no_grad():
            m.weight_g.mul_(2)
        m(_x(T, 2, 4))
        out["weight_after"] = _np(m.weight)
        nn.utils.remove_weight_norm(m)
        out["removed_keys"] = list(m.state_dict())
        out["removed_weight"] = _np(m.weight)
        m2 = _fill(T, nn.Conv2d(2, 3, 2, dtype=T.float64))
        nn.utils.weight_norm(m2, dim=None)
        out["conv_none_g"] = _np(m2.weight_g)
        out["conv_none_weight"] = _np(m2.weight)
    return out


def case_old_spectral_norm(T):
    nn = T.nn
    out = {}
    m = _fill(T, nn.Linear(5, 4, dtype=T.float64))
    nn.utils.spectral_norm(m, n_power_iterations=2)
    with T.no_grad():
        m.weight_u.copy_(_unit(T, 4, 0.3))
        m.weight_v.copy_(_unit(T, 5, 1.1))
    sd = m.state_dict()
    out["keys"] = list(sd)
    out["metadata"] = sd._metadata[""].get("spectral_norm")
    ys = []
    for i in range(3):
        ys += _np(m(_x(T, 2, 5)))
    out["train_outputs"] = ys
    out["u"] = _np(m.weight_u)
    out["v"] = _np(m.weight_v)
    (m(_x(T, 2, 5)) ** 2).sum().backward()
    out["grad_orig"] = _np(m.weight_orig.grad)
    m.eval()
    out["eval_output"] = _np(m(_x(T, 2, 5)))
    nn.utils.remove_spectral_norm(m)
    out["removed_keys"] = list(m.state_dict())
    out["removed_weight"] = _np(m.weight)
    return out


def case_fusion(T):
    nn = T.nn
    F = nn.utils
    out = {}
    conv = _fill(T, nn.Conv2d(2, 3, 2, dtype=T.float64))
    bn = _fill(T, nn.BatchNorm2d(3, dtype=T.float64), seed=0.11)
    with T.no_grad():
        bn.running_mean.copy_(T.tensor([0.1, -0.2, 0.3], dtype=T.float64))
        bn.running_var.copy_(T.tensor([0.5, 1.5, 2.0], dtype=T.float64))
    conv.eval()
    bn.eval()
    fused = F.fuse_conv_bn_eval(conv, bn)
    x = _x(T, 1, 2, 4, 4)
    out["conv_fused"] = _np(fused(x))
    out["conv_ref"] = _np(bn(conv(x)))
    conv_nb = _fill(T, nn.Conv2d(2, 3, 2, bias=False, dtype=T.float64))
    conv_nb.eval()
    w, b = F.fuse_conv_bn_weights(conv_nb.weight, None, bn.running_mean, bn.running_var, bn.eps,
                                  None, None)
    out["conv_nobias_weights"] = _np(w) + _np(b)
    out["conv_nobias_requires_grad"] = [w.requires_grad, b.requires_grad]
    lin = _fill(T, nn.Linear(4, 3, dtype=T.float64))
    bn1 = _fill(T, nn.BatchNorm1d(3, dtype=T.float64), seed=0.23)
    with T.no_grad():
        bn1.running_mean.copy_(T.tensor([0.4, 0.0, -0.3], dtype=T.float64))
        bn1.running_var.copy_(T.tensor([1.2, 0.7, 0.9], dtype=T.float64))
    lin.eval()
    bn1.eval()
    xl = _x(T, 5, 4)
    out["linear_fused"] = _np(F.fuse_linear_bn_eval(lin, bn1)(xl))
    out["linear_ref"] = _np(bn1(lin(xl)))
    return out


CASES = {"parametrize": case_parametrize, "weight_norm": case_weight_norm,
         "spectral_norm": case_spectral_norm, "orthogonal": case_orthogonal,
         "old_weight_norm": case_old_weight_norm, "old_spectral_norm": case_old_spectral_norm,
         "fusion": case_fusion}


def _compare(got, want, tol):
    assert list(got) == list(want)
    for key, w in want.items():
        g = got[key]
        if isinstance(w, list) and w and isinstance(w[0], float):
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=key)
        else:
            assert g == w, key


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(name):
    _compare(CASES[name](minitorch), REF[name], 1e-11)


# ---- behaviour ------------------------------------------------------------------------------

def test_cached_computes_once():
    nn, P = minitorch.nn, minitorch.nn.utils.parametrize
    calls = []

    class Counting(nn.Module):
        def forward(self, X):
            calls.append(1)
            return X * 2

    m = nn.Linear(3, 3)
    P.register_parametrization(m, "weight", Counting())
    calls.clear()
    m.weight
    m.weight
    assert len(calls) == 2
    calls.clear()
    with P.cached():
        a = m.weight
        b = m.weight
        with P.cached():
            c = m.weight
    assert len(calls) == 1 and a is b is c
    m.weight
    assert len(calls) == 2


def test_is_parametrized_and_type_before():
    nn, P = minitorch.nn, minitorch.nn.utils.parametrize
    Symmetric = _parametrizations(minitorch)[0]
    m = nn.Linear(3, 3)
    assert not P.is_parametrized(m) and P.type_before_parametrizations(m) is nn.Linear
    P.register_parametrization(m, "weight", Symmetric())
    assert P.is_parametrized(m) and P.is_parametrized(m, "weight")
    assert not P.is_parametrized(m, "bias")
    assert P.type_before_parametrizations(m) is nn.Linear
    assert isinstance(m, nn.Linear) and type(m).__name__ == "ParametrizedLinear"
    # other instances of the class are unaffected
    assert isinstance(nn.Linear(3, 3).weight, nn.Parameter)
    # the original is the same tensor object the module held (optimizers keep working)
    params = list(m.parameters())
    assert any(p is m.parametrizations.weight.original for p in params)
    P.remove_parametrizations(m, "weight")
    assert type(m) is nn.Linear and not hasattr(m, "parametrizations")


def test_deepcopy_and_pickling():
    import pickle
    nn, P = minitorch.nn, minitorch.nn.utils.parametrize
    Symmetric = _parametrizations(minitorch)[0]
    m = nn.Linear(3, 3)
    P.register_parametrization(m, "weight", Symmetric())
    c = copy.deepcopy(m)
    assert c.weight.tolist() == m.weight.tolist()
    assert c.parametrizations.weight.original is not m.parametrizations.weight.original
    with pytest.raises(RuntimeError, match="Serialization of parametrized modules is only "
                                           "supported through state_dict()"):
        pickle.dumps(m)


def test_state_dict_round_trip():
    nn = minitorch.nn
    src = _fill(minitorch, nn.Linear(4, 3))
    nn.utils.parametrizations.weight_norm(src)
    dst = nn.Linear(4, 3)
    nn.utils.parametrizations.weight_norm(dst)
    dst.load_state_dict(src.state_dict())
    assert dst.weight.tolist() == src.weight.tolist()
    # the old weight_norm's keys load into the parametrization
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = nn.utils.weight_norm(_fill(minitorch, nn.Linear(4, 3)))
    new = nn.utils.parametrizations.weight_norm(nn.Linear(4, 3))
    new.load_state_dict(old.state_dict())
    np.testing.assert_allclose(new.weight.detach().numpy(), old.weight.detach().numpy(), rtol=1e-6)


def test_parametrize_errors():
    nn, P = minitorch.nn, minitorch.nn.utils.parametrize
    Symmetric, Scale, NormDirection, NoInverse = _parametrizations(minitorch)

    class Shrink(nn.Module):
        def forward(self, X):
            return X[:1]

    class ToDouble(nn.Module):
        def forward(self, X):
            return X.double()

    m = nn.Linear(3, 3)
    with pytest.raises(ValueError, match="Registering a parametrization may not change the shape "
                                         "of the tensor, unless `unsafe` flag is enabled."):
        P.register_parametrization(m, "weight", Shrink())
    with pytest.raises(ValueError, match="may not change the dtype"):
        P.register_parametrization(m, "weight", ToDouble())
    P.register_parametrization(m, "weight", Shrink(), unsafe=True)
    assert m.weight.shape == (1, 3)
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized "
                                         "element with name 'nothing'"):
        P.register_parametrization(m, "nothing", Symmetric())
    with pytest.raises(ValueError, match="does not have a parametrization on bias"):
        P.remove_parametrizations(m, "bias")
    m2 = nn.Linear(3, 3)
    P.register_parametrization(m2, "weight", NoInverse())
    with pytest.raises(RuntimeError, match="parametrization NoInverse does not implement "
                                           "right_inverse."):
        m2.weight = minitorch.zeros(3, 3)
    m3 = nn.Linear(4, 3)
    P.register_parametrization(m3, "weight", NormDirection())
    with pytest.raises(ValueError, match="Cannot leave unparametrized"):
        P.remove_parametrizations(m3, "weight", leave_parametrized=False)
    with pytest.raises(ValueError, match="ParametrizationList requires one or more modules."):
        P.ParametrizationList([], minitorch.zeros(2))


def test_transfer_parametrizations_and_params():
    nn, P = minitorch.nn, minitorch.nn.utils.parametrize
    Symmetric = _parametrizations(minitorch)[0]
    a = nn.Linear(3, 3)
    P.register_parametrization(a, "weight", Symmetric())
    b = nn.Linear(3, 3)
    P.transfer_parametrizations_and_params(a, b)
    assert P.is_parametrized(b, "weight")
    assert b.parametrizations.weight.original is a.parametrizations.weight.original
    assert b.weight.tolist() == a.weight.tolist()


def test_orthogonal_stays_orthogonal_while_training():
    nn = minitorch.nn
    minitorch.manual_seed(0)
    for shape, omap in [((4, 4), None), ((5, 3), None), ((3, 5), "cayley"),
                        ((4, 4), "householder")]:
        m = nn.Linear(shape[1], shape[0], dtype=minitorch.float64)
        nn.utils.parametrizations.orthogonal(m, orthogonal_map=omap)
        opt = minitorch.optim.SGD(m.parameters(), lr=0.1)
        for i in range(5):
            opt.zero_grad()
            (m(_x(minitorch, 3, shape[1])) ** 2).sum().backward()
            opt.step()
        w = m.weight.detach()
        q = w if shape[0] >= shape[1] else w.mT
        np.testing.assert_allclose((q.mT @ q).numpy(), np.eye(min(shape)), atol=1e-12)
    # assigning an orthogonal matrix sets the weight to it
    m = nn.Linear(3, 3, dtype=minitorch.float64)
    nn.utils.parametrizations.orthogonal(m)
    q = minitorch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]], dtype=minitorch.float64)
    with minitorch.no_grad():
        m.weight = q
    np.testing.assert_allclose(m.weight.detach().numpy(), q.numpy(), atol=1e-15)


def test_orthogonal_errors():
    nn = minitorch.nn
    with pytest.raises(ValueError, match="Expected a matrix or batch of matrices. Got a tensor "
                                         "of 1 dimensions."):
        nn.utils.parametrizations.orthogonal(nn.Linear(3, 3), "bias")
    with pytest.raises(ValueError, match='orthogonal_map has to be one of "matrix_exp", '
                                         '"cayley", "householder". Got: qr'):
        nn.utils.parametrizations.orthogonal(nn.Linear(3, 3), orthogonal_map="qr")
    with pytest.raises(ValueError, match="has no parameter or buffer with name 'w'"):
        nn.utils.parametrizations.orthogonal(nn.Linear(3, 3), "w")
    m = nn.Linear(3, 3)
    nn.utils.parametrizations.orthogonal(m, use_trivialization=False)
    with pytest.raises(NotImplementedError, match="It is not possible to assign to the matrix "
                                                  "exponential"):
        m.weight = minitorch.eye(3)
    z = nn.Linear(2, 2, dtype=minitorch.complex128)
    with pytest.raises(NotImplementedError, match="complex"):
        nn.utils.parametrizations.orthogonal(z)


def test_spectral_norm_errors_and_vector():
    nn = minitorch.nn
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive, but got "
                                         "n_power_iterations=0"):
        nn.utils.parametrizations.spectral_norm(nn.Linear(3, 3), n_power_iterations=0)
    with pytest.raises(IndexError, match="Dimension out of range"):
        nn.utils.parametrizations.spectral_norm(nn.Linear(3, 3), dim=2)
    m = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 3), "bias")
    np.testing.assert_allclose(m.bias.norm().item(), 1.0, rtol=1e-6)
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive"):
        nn.utils.spectral_norm(nn.Linear(3, 3), n_power_iterations=0)
    m = nn.utils.spectral_norm(nn.Linear(3, 3))
    with pytest.raises(RuntimeError, match="Cannot register two spectral_norm hooks on the same "
                                           "parameter weight"):
        nn.utils.spectral_norm(m)
    with pytest.raises(ValueError, match="spectral_norm of 'bias' not found in"):
        nn.utils.remove_spectral_norm(m, "bias")
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found in"):
        nn.utils.remove_weight_norm(nn.Linear(2, 2))


def test_old_weight_norm_warns_and_refuses_twice():
    nn = minitorch.nn
    m = nn.Linear(3, 3)
    with pytest.warns(FutureWarning, match="`torch.nn.utils.weight_norm` is deprecated in favor "
                                           "of `torch.nn.utils.parametrizations.weight_norm`."):
        nn.utils.weight_norm(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks on the "
                                               "same parameter weight"):
            nn.utils.weight_norm(m)


def test_old_spectral_norm_loads_version0_checkpoints():
    # checkpoints of the first version saved weight (normalised) and weight_u, not weight_v
    nn = minitorch.nn
    m = nn.utils.spectral_norm(_fill(minitorch, nn.Linear(5, 4, dtype=minitorch.float64)))
    m(_x(minitorch, 2, 5))
    sd = m.state_dict()
    old = {"weight_orig": sd["weight_orig"], "weight_u": sd["weight_u"],
           "weight": m.weight.detach().clone(), "bias": sd["bias"]}
    fresh = nn.utils.spectral_norm(nn.Linear(5, 4, dtype=minitorch.float64))
    fresh.load_state_dict(old)
    fresh.eval()
    m.eval()
    np.testing.assert_allclose(fresh(_x(minitorch, 2, 5)).detach().numpy(),
                               m(_x(minitorch, 2, 5)).detach().numpy(), rtol=1e-9)


def test_fusion_errors():
    nn = minitorch.nn
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        nn.utils.fuse_conv_bn_eval(nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2))
    lin, bn = nn.Linear(2, 3), nn.BatchNorm1d(2)
    lin.eval()
    bn.eval()
    with pytest.raises(AssertionError, match="To fuse, linear.out_features == bn.num_features or "
                                             "bn.num_features == 1, got linear.out_features=3 "
                                             "and bn.num_features=2"):
        nn.utils.fuse_linear_bn_eval(lin, bn)


def test_gradcheck_through_parametrizations():
    # (not the Householder map: its diagonal enters through .int(), a step function)
    nn = minitorch.nn
    from minitorch.autograd import gradcheck
    for register in (lambda m: nn.utils.parametrizations.weight_norm(m),
                     lambda m: nn.utils.parametrizations.orthogonal(m),
                     lambda m: nn.utils.parametrizations.orthogonal(m, orthogonal_map="cayley")):
        m = register(_fill(minitorch, nn.Linear(3, 3, dtype=minitorch.float64)))
        originals = [p for n, p in m.named_parameters() if "original" in n]
        x = _x(minitorch, 2, 3)

        # the parametrization as a function of its originals
        plist = m.parametrizations.weight

        def g(*ps):
            y = ps if not plist.is_tensor else (ps[0],)
            out = plist[0](*y)
            for k in range(1, len(plist)):
                out = plist[k](out)
            return out @ x.mT

        args = tuple(o.detach().clone().requires_grad_() for o in originals)
        assert gradcheck(g, args)


REF = {'parametrize': {'sym_weight': [0.09933466539753061, 0.26981602436698465, 0.497021601099038,
                                0.26981602436698465, -0.0812310076075771, -0.01260968257182936,
                                0.497021601099038, -0.01260968257182936, -0.4749227117482549],
                 'sym_keys': ['bias', 'parametrizations.weight.original'],
                 'sym_class': 'ParametrizedLinear',
                 'sym_grad': [0.9786962581476022, 2.342874895743282, 3.42408936698859, 0.0,
                              0.5043739009369557, 0.4710757830702278, 0.0, 0.0,
                              -1.1452871258208666],
                 'sym_assigned_original': [1.910672978251212, 0.08323441186586689,
                                           -0.632610318649757, 0.0, -1.840879235175961,
                                           -1.1202699993656084, 0.0, 0.0, 0.9015101117821975],
                 'chain_weight': [3.821345956502424, 0.16646882373173377, -1.265220637299514,
                                  0.16646882373173377, -3.681758470351922, -2.240539998731217,
                                  -1.265220637299514, -2.240539998731217, 1.803020223564395],
                 'chain_len': 2,
                 'chain_assigned_original': [0.955336489125606, 0.04161720593293344,
                                             -0.3163051593248785, 0.0, -0.9204396175879805,
                                             -0.5601349996828042, 0.0, 0.0, 0.45075505589109877],
                 'removed_weight': [1.910672978251212, 0.08323441186586689, -0.632610318649757,
                                    0.08323441186586689, -1.840879235175961, -1.1202699993656084,
                                    -0.632610318649757, -1.1202699993656084, 0.9015101117821975],
                 'removed_class': 'Linear',
                 'removed_is_param': True,
                 'multi_keys': ['bias', 'parametrizations.weight.original0',
                                'parametrizations.weight.original1'],
                 'multi_weight': [0.09933466539753061, 0.26981602436698465, 0.497021601099038,
                                  -0.18935743691449902, -0.0812310076075771, -0.01260968257182936,
                                  0.40776064753965646, -0.24824735452833327, -0.4749227117482549,
                                  -0.4738461476459335, -0.2393229592942075, 0.41738167542162613],
                 'multi_grad0': [-1.4117173553754407, -0.04143930832051416, -2.900841462566357],
                 'multi_grad1': [-0.788444418462592, -0.602020302007192, 0.16124411215353418,
                                 -0.8481989553465681, -0.12470047511644722, -0.12655724983102992,
                                 -0.05306271322065928, -0.03992588090823054, 0.7825011373856576,
                                 -0.7994496201383297, -1.8733266293755022, -1.0913719027863387],
                 'multi_assigned': [2.5086825069244445, 3.027575548203179, 3.1773612802700013,
                                    1.910672978251212, 1.2274914989776233, 0.10154896986715836,
                                    -1.0610226752458896, -1.840879235175961, -1.9567233571638682,
                                    -1.3667696071666724, -0.28381664156734854, 0.9015101117821975,
                                    1.761658593947218, 1.9863698375163854, 1.4945896061094872],
                 'noinv_bias': [0.38656961838272147, -0.24327044381626287],
                 'noinv_removed': [0.40776064753965646, -0.24824735452833327]},
 'weight_norm': {'lin0_keys': ['bias', 'parametrizations.weight.original0',
                               'parametrizations.weight.original1'],
                 'lin0_g': [0.6046112582715644, 0.4844099249641573, 0.8255693160457869],
                 'lin0_weight': [0.09933466539753061, 0.26981602436698465, 0.497021601099038,
                                 -0.18935743691449902, -0.0812310076075771, -0.01260968257182936,
                                 0.40776064753965646, -0.24824735452833327, -0.4749227117482549,
                                 -0.4738461476459335, -0.2393229592942075, 0.41738167542162613],
                 'lin0_grad_g': [2.0042617412893744, 0.13819811115820563, 4.750183953457337],
                 'lin0_grad_v': [1.6361134327800815, 0.9136527102681111, -0.6490287834552408,
                                 0.4565946742352222, 0.43552924313694236, 0.4288686486379453,
                                 0.16845998505802717, 0.1124079483460677, -1.0019972310593002,
                                 -0.2778266532863473, 0.18677920090973327, -1.3484487066835351],
                 'lin1_keys': ['bias', 'parametrizations.weight.original0',
                               'parametrizations.weight.original1'],
                 'lin1_g': [0.49195267504191664, 0.5454263128403867, 0.6859844724819565,
                            0.5212393413038852],
                 'lin1_weight': [0.09933466539753064, 0.26981602436698465, 0.497021601099038,
                                 -0.18935743691449902, -0.08123100760757711, -0.01260968257182936,
                                 0.40776064753965646, -0.24824735452833327, -0.474922711748255,
                                 -0.4738461476459335, -0.2393229592942075, 0.41738167542162613],
                 'lin1_grad_g': [3.934104069721195, 3.494591270567778, 1.3080380558911653,
                                 0.8856219832066268],
                 'lin1_grad_v': [1.1710328651448023, 0.07934839012910964, 0.0508547543802124,
                                 0.15061395687756585, 1.0619522341117351, 0.5060624852899905,
                                 -0.4927290083029634, 0.4633746125906335, 0.06329599970066556,
                                 0.031715315062070586, -0.7339019564174718, 0.3439331504529793],
                 'linNone_keys': ['bias', 'parametrizations.weight.original0',
                                  'parametrizations.weight.original1'],
                 'linNone_g': [1.132153896177023],
                 'linNone_weight': [0.09933466539753061, 0.26981602436698465, 0.497021601099038,
                                    -0.18935743691449902, -0.0812310076075771, -0.01260968257182936,
                                    0.40776064753965646, -0.24824735452833327, -0.4749227117482549,
                                    -0.4738461476459335, -0.2393229592942075, 0.41738167542162613],
                 'linNone_grad_g': [4.5933241806352285],
                 'linNone_grad_v': [1.5623876459973967, 0.7133963485697659, -1.0179162050051325,
                                    0.5971349978352963, 0.7419215272736257, 0.47643065185826416,
                                    -1.369557575727156, 1.048763118926645, -1.807785692016381,
                                    -1.0817885371822094, -0.219273561510261, -0.6402885586214735],
                 'conv_keys': ['bias', 'parametrizations.weight.original0',
                               'parametrizations.weight.original1'],
                 'conv_g': [0.774730759059239, 0.9878091371395047, 0.863510768893161],
                 'conv_weight': [0.09933466539753061, 0.26981602436698465, 0.497021601099038,
                                 -0.18935743691449902, -0.0812310076075771, -0.01260968257182936,
                                 0.40776064753965646, -0.24824735452833327, -0.4749227117482549,
                                 -0.4738461476459335, -0.2393229592942075, 0.41738167542162613,
                                 -0.03643013495952976, -0.05083852916966968, -0.22348217677444043,
                                 0.49025116185771267, 0.3113624232144691, 0.1553121625312745,
                                 0.3219096211081861, 0.4841688895766691, -0.2592711595100809,
                                 0.0035909757939688643, -0.1038478725686273, 0.45663803376473766],
                 'conv_grad_g': [4.062738644464987, 9.2306871830547, 9.114595749917997],
                 'conv_grad_v': [1.89340751750944, 2.2180652040012165, -0.434280392982664,
                                 1.012537976660348, 0.06227869116429286, 1.914078316292245,
                                 1.5759260539755893, 3.99753686948869, -2.1703241049273205,
                                 0.26351180541843305, 6.042775766921075, 2.557928653546271,
                                 -5.853275937165172, -6.420797010520039, 0.6063316699733362,
                                 -1.9000157124334591, -4.630751140053737, 0.6592058486204108,
                                 2.6841083237224, -0.2526835137407055, -2.4361358887873545,
                                 -2.4409084712693927, 5.521348658457759, 1.2007019807853427]},
 'spectral_norm': {'lin_keys': ['bias', 'parametrizations.weight.original',
                                'parametrizations.weight.0._u', 'parametrizations.weight.0._v'],
                   'lin_train_weights': [0.12087528739182829, 0.32832535709221383,
                                         0.6048002339602822, -0.2304194061078406,
                                         -0.09884586967096948, -0.015344079518362107,
                                         0.4961831326575269, -0.3020795429549947,
                                         -0.5779092227445488, -0.5765992068025506,
                                         -0.2912199016162317, 0.5078904707311375,
                                         -0.044329972979057504, -0.061862812940168536,
                                         -0.27194406138537613, 0.5965616317987003,
                                         0.3788810506226422, 0.18899144831549253,
                                         0.3917153977408359, 0.5891604249085951,
                                         0.09629460846725793, 0.26155852360939047,
                                         0.48181065780074894, -0.1835623060194902,
                                         -0.07874499845214095, -0.01222377345603763,
                                         0.39528146338491504, -0.24064994543116147,
                                         -0.460388087048849, -0.45934447031839465,
                                         -0.2319986740805402, 0.4046080475057679,
                                         -0.03531522020332381, -0.04928265718571909,
                                         -0.21664268587187732, 0.4752474223654083,
                                         0.30183342859077383, 0.1505589596673066,
                                         0.3120578380407644, 0.4693512930982441,
                                         0.09463180153877573, 0.2570419537600084,
                                         0.4734907932438453, -0.18039256807553083,
                                         -0.07738523666387778, -0.01201269439856571,
                                         0.3884557774355245, -0.23649442309225646,
                                         -0.4524381455815051, -0.45141254993403457,
                                         -0.22799254114329506, 0.3976213109125036,
                                         -0.034705400050672915, -0.04843164854539329,
                                         -0.2129017188041807, 0.4670408911874846,
                                         0.29662139518312014, 0.14795912063929917,
                                         0.306669250419498, 0.46124657576797723],
                   'lin_u': [-0.04071880285831927, -0.6555960916150595, -0.3304540545765017,
                             0.6777432121141417],
                   'lin_v': [0.3958970352425397, -0.19549896731736494, 0.24751167104882316,
                             0.5278094868249696, 0.6820563096813873],
                   'lin_grad': [1.770398598878762, 1.1381906092121064, 0.2582805640594274,
                                -0.7313434729453248, -1.4474817744557686, 4.082940520052067,
                                1.5010239227492335, 0.9404292272961738, -0.21984889596424995,
                                -1.1483778014371906, 1.41649572655643, 0.33585947456063664,
                                0.43188273415146006, 0.24022068505420308, 0.03911197539231159,
                                -0.5923245638265424, 0.7123625953194314, -0.6310385768639482,
                                -1.5037965637980366, -1.9763694892885866],
                   'lin_eval_weight': [0.09445460237581875, 0.2565606396741465, 0.47260417615671035,
                                       -0.1800547808671414, -0.07724033189677951,
                                       -0.011990200486818595, 0.3877283894170351,
                                       -0.23605158449957925, -0.45159094982507647,
                                       -0.4505672746175353, -0.22756562242470266,
                                       0.39687676032462665, -0.03464041378031699,
                                       -0.048340959713062924, -0.21250305782815837,
                                       0.46616635161791725, 0.2960659681270259, 0.14768206544323603,
                                       0.30609500863612976, 0.4603828861222785],
                   'lin_eval_u': [-0.04352908909963464, -0.6850202702061462, -0.3469023326965879,
                                  0.6391488241235529],
                   'conv_keys': ['bias', 'parametrizations.weight.original',
                                 'parametrizations.weight.0._u', 'parametrizations.weight.0._v'],
                   'conv_train_weights': [0.12695139260424163, 0.3448294701879593,
                                          0.6352020632616063, -0.24200202638285706,
                                          -0.10381460990640248, -0.01611538888649609,
                                          0.5211250457954789, -0.3172643431330695,
                                          -0.6069593066482771, -0.6055834394072642,
                                          -0.30585881417106137, 0.5334208831349648,
                                          -0.04655833235421298, -0.06497250532039713,
                                          -0.28561402457241086, 0.6265493267089747,
                                          0.39792647484662225, 0.19849158642469003,
                                          0.4114059732203409, 0.6187760792410685,
                                          -0.3313529534749857, 0.004589328166839554,
                                          -0.13271934816325254, 0.5835911770629195,
                                          0.08498575450776191, 0.23084104946995576,
                                          0.42522673839003705, -0.1620047199377256,
                                          -0.06949717345227302, -0.010788211579327817,
                                          0.34885954617201287, -0.21238797800058568,
                                          -0.4063200377156667, -0.4053989834981324,
                                          -0.20475271331768366, 0.35709081478722615,
                                          -0.031167795189776686, -0.04349489417675782,
                                          -0.1912001347787798, 0.419434290356208,
                                          0.2663860632776094, 0.13287729177049848,
                                          0.27540971647413487, 0.4142306034372708,
                                          -0.22181939230264197, 0.003072258672722523,
                                          -0.08884702806368039, 0.3906765848672384,
                                          0.08352560884074664, 0.22687495468024566,
                                          0.417920890684672, -0.15922130651481495,
                                          -0.06830313808394693, -0.010602858628311057,
                                          0.3428657680654308, -0.20873892660838597,
                                          -0.39933902724010717, -0.3984337977138121,
                                          -0.20123484389483667, 0.35095561472972825,
                                          -0.030632299313316406, -0.042747605626608155,
                                          -0.18791511307194217, 0.4122279630698472,
                                          0.2618092673392673, 0.13059431854813686,
                                          0.2706778845748618, 0.40711368102765905,
                                          -0.2180082991799577, 0.00301947400057472,
                                          -0.08732054160950037, 0.3839643455525174],
                   'conv_u': [-0.6037957335719939, 0.7933490325396431, 0.07764035476908906],
                   'conv_v': [-0.34692067278025124, -0.4429438084147157, -0.3909727924967085,
                              0.40617589360392675, 1.279664904396693e-05, -0.027277377731193903,
                              -0.3628827589301854, 0.4828874570111706],
                   'conv_grad': [-0.6962072707323139, -0.490248674913206, -1.0116421718474229,
                                 3.1136962380163316, -0.41777263877871124, 1.0806596934609833,
                                 0.12134764242008389, 5.561369216789087, -1.3619379564678042,
                                 1.491392745247929, 6.580518227802825, 0.5365574263920134,
                                 -4.435023432032947, -4.642290723618882, 2.7348671671981744,
                                 -2.77426307814686, -0.4347222974279482, 2.4387136423929587,
                                 5.118507545318014, 2.9341984831081662, -3.819212070385074,
                                 -1.7093658065078239, 3.9006310216859776, 3.7193513004849947],
                   'conv_eval_weight': [0.08333236965167085, 0.22635007215771766,
                                        0.4169540172295174, -0.15885294288859855,
                                        -0.06814511657176808, -0.010578328573018356,
                                        0.3420725370563742, -0.20825600237154188,
                                        -0.3984151435251459, -0.3975120082765462,
                                        -0.2007692805952961, 0.35014366759958193,
                                        -0.030561430501212107, -0.04264870766272779,
                                        -0.18748036539911356, 0.4112742603862803,
                                        0.2612035631580547, 0.13029218438156928, 0.2700516625617338,
                                        0.4061718104004908, -0.21750392995080728,
                                        0.0030124883501208696, -0.08711852272110829,
                                        0.383076031659349],
                   'conv_eval_u': [-0.5815637552502161, 0.8034194595862335, 0.1276744709698514]},
 'orthogonal': {'square_matrix_exp_triv_weight': [0.20136778185442594, 0.9067500373909099,
                                                  -0.3447626594317895, -0.13562483100130232,
                                                  -0.16466867587741857, 0.39595871415537337,
                                                  0.7431736629529266, 0.5136086355994519,
                                                  -0.9627468178839044, 0.12725943026607933,
                                                  -0.15691506033875952, -0.17972552935421482,
                                                  -0.0738499036575025, -0.06947016470658117,
                                                  -0.5515517012878604, 0.8279558012067341],
                'square_matrix_exp_triv_original': [-1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0,
                                                    0.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0],
                'square_matrix_exp_triv_grad': [0.0, 0.0, 0.0, 0.0, -2.7317609284559223, 0.0, 0.0,
                                                0.0, -3.250033675514785, 1.3191412743231945, 0.0,
                                                0.0, -2.644484187186664, 0.04525339779170068,
                                                -2.103114338634826, 0.0],
                'square_matrix_exp_notriv_weight': [0.8881390816931377, -0.03379841455889653,
                                                    0.4499773934827529, 0.08710329555787359,
                                                    -0.18360358040262093, 0.8880260217452423,
                                                    0.41068435487318533, 0.09506771601891509,
                                                    -0.42089732590520773, -0.45853544320012674,
                                                    0.7604392153527323, 0.18526437360925554,
                                                    0.0185509535726089, 0.003563594517829562,
                                                    -0.2249242222851612, 0.9741931313374546],
                'square_matrix_exp_notriv_original': [0.09933466539753061, 0.26981602436698465,
                                                      0.497021601099038, -0.18935743691449902,
                                                      -0.0812310076075771, -0.01260968257182936,
                                                      0.40776064753965646, -0.24824735452833327,
                                                      -0.4749227117482549, -0.4738461476459335,
                                                      -0.2393229592942075, 0.41738167542162613,
                                                      -0.03643013495952976, -0.05083852916966968,
                                                      -0.22348217677444043, 0.49025116185771267],
                'square_matrix_exp_notriv_grad': [0.0, 0.0, 0.0, 0.0, -1.607128344531021, 0.0, 0.0,
                                                  0.0, 0.9796103043797926, -0.5448104442992037, 0.0,
                                                  0.0, 1.1136490479180012, -0.44609047361833326,
                                                  0.6472958107759019, 0.0],
                'square_cayley_triv_weight': [0.20136778185442594, 0.9067500373909099,
                                              -0.3447626594317895, -0.13562483100130232,
                                              -0.16466867587741857, 0.39595871415537337,
                                              0.7431736629529266, 0.5136086355994519,
                                              -0.9627468178839044, 0.12725943026607933,
                                              -0.15691506033875952, -0.17972552935421482,
                                              -0.0738499036575025, -0.06947016470658117,
                                              -0.5515517012878604, 0.8279558012067341],
                'square_cayley_triv_original': [-1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0,
                                                -1.0, 0.0, 0.0, 0.0, 0.0, -1.0],
                'square_cayley_triv_grad': [0.0, 0.0, 0.0, 0.0, -2.7317609284559223, 0.0, 0.0, 0.0,
                                            -3.250033675514785, 1.3191412743231945, 0.0, 0.0,
                                            -2.644484187186664, 0.04525339779170068,
                                            -2.103114338634826, 0.0],
                'square_cayley_notriv_weight': [0.896461387418912, -0.02801014735930739,
                                                0.4344944694518674, 0.08238305971259703,
                                                -0.17319941431083596, 0.8963567483489594,
                                                0.39815724100954764, 0.08953967837405122,
                                                -0.40758032981091474, -0.44244430704777554,
                                                0.7782728025522591, 0.18003542629074984,
                                                0.015401899251995354, 0.001745421210996579,
                                                -0.21674134874282175, 0.9761059997507289],
                'square_cayley_notriv_original': [0.09933466539753061, 0.26981602436698465,
                                                  0.497021601099038, -0.18935743691449902,
                                                  -0.0812310076075771, -0.01260968257182936,
                                                  0.40776064753965646, -0.24824735452833327,
                                                  -0.4749227117482549, -0.4738461476459335,
                                                  -0.2393229592942075, 0.41738167542162613,
                                                  -0.03643013495952976, -0.05083852916966968,
                                                  -0.22348217677444043, 0.49025116185771267],
                'square_cayley_notriv_grad': [0.0, 0.0, 0.0, 0.0, -1.576195448238856, 0.0, 0.0, 0.0,
                                              1.0413226319328692, -0.35749511986379734, 0.0, 0.0,
                                              1.1692948458606907, -0.37422220193989414,
                                              0.5714598055691401, 0.0],
                'square_householder_triv_weight': [0.20136778185442594, 0.9067500373909099,
                                                   -0.3447626594317895, -0.13562483100130232,
                                                   -0.16466867587741857, 0.39595871415537337,
                                                   0.7431736629529266, 0.5136086355994519,
                                                   -0.9627468178839044, 0.12725943026607933,
                                                   -0.15691506033875952, -0.17972552935421482,
                                                   -0.0738499036575025, -0.06947016470658117,
                                                   -0.5515517012878604, 0.8279558012067341],
                'square_householder_triv_original': [-1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0,
                                                     0.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0],
                'square_householder_triv_grad': [0.0, 0.0, 0.0, 0.0, -5.463521856911845, 0.0, 0.0,
                                                 0.0, -6.50006735102957, 2.638282548646389, 0.0,
                                                 0.0, -5.288968374373328, 0.09050679558340136,
                                                 -4.206228677269652, 0.0],
                'square_householder_notriv_weight': [0.20136778185442572, 0.90675003739091,
                                                     -0.34476265943178946, -0.1356248310013022,
                                                     -0.16466867587741854, 0.3959587141553736,
                                                     0.7431736629529268, 0.5136086355994519,
                                                     -0.9627468178839041, 0.12725943026607933,
                                                     -0.15691506033875952, -0.17972552935421485,
                                                     -0.07384990365750249, -0.06947016470658118,
                                                     -0.5515517012878605, 0.8279558012067341],
                'square_householder_notriv_original': [-1.0, -0.5163569653618356,
                                                       -0.27985028617279334, 0.43528980481525326,
                                                       -0.13706766434441645, -1.0,
                                                       -0.59719997724374, 0.2509376410381711,
                                                       -0.801375592408357, 0.5616903048826183, 1.0,
                                                       -0.4550998554134139, -0.06147152002320898,
                                                       -0.009032006826118918, 0.31054351964573446,
                                                       -1.0],
                'square_householder_notriv_grad': [0.0, 0.0, 0.0, 0.0, -4.744297366816987, 0.0, 0.0,
                                                   0.0, -0.41665360164234677, -1.720492007823995,
                                                   0.0, 0.0, -0.22271393254840893,
                                                   -2.8751567162173837, 3.836269308993096, 0.0],
                'tall_matrix_exp_triv_weight': [0.15011991559951343, 0.5841299743126473,
                                                0.6276814208160884, -0.2861671938389742,
                                                -0.1293420536701199, -0.20077983833878021,
                                                0.6162299308955834, -0.6830529992837049,
                                                0.3275816019613712, -0.7161019107185764,
                                                -0.4055843959590055, 0.5264453427172139,
                                                -0.055055189077421955, -0.1048937757257609,
                                                -0.4257335853168346],
                'tall_matrix_exp_triv_original': [-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0,
                                                  0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                'tall_matrix_exp_notriv_weight': [0.7979099942728478, 0.1523319619325758,
                                                  -0.2519311582072608, -0.16621238557480578,
                                                  0.9250804121244658, 0.30571148495740086,
                                                  0.47376900131166255, -0.15055566972460574,
                                                  0.786417939853734, -0.3235960954104138,
                                                  -0.3119816310150405, 0.42537895071874054,
                                                  -0.08088006152519812, -0.03196336497257475,
                                                  -0.20897548098071628],
                'tall_matrix_exp_notriv_original': [0.09933466539753061, 0.26981602436698465,
                                                    0.497021601099038, -0.18935743691449902,
                                                    -0.0812310076075771, -0.01260968257182936,
                                                    0.40776064753965646, -0.24824735452833327,
                                                    -0.4749227117482549, -0.4738461476459335,
                                                    -0.2393229592942075, 0.41738167542162613,
                                                    -0.03643013495952976, -0.05083852916966968,
                                                    -0.22348217677444043],
                'tall_matrix_exp_notriv_grad': [0.0, 0.0, 0.0, -1.2057506990735927, 0.0, 0.0,
                                                -1.3842952694760315, -0.5357347155323143, 0.0,
                                                2.5884584416503955, 0.9572691704549224,
                                                0.030187476387088824, -0.023121466487694614,
                                                -1.734766464714302, -1.9359481718916416],
                'tall_cayley_triv_weight': [0.15011991559951343, 0.5841299743126473,
                                            0.6276814208160884, -0.2861671938389742,
                                            -0.1293420536701199, -0.20077983833878021,
                                            0.6162299308955834, -0.6830529992837049,
                                            0.3275816019613712, -0.7161019107185764,
                                            -0.4055843959590055, 0.5264453427172139,
                                            -0.055055189077421955, -0.1048937757257609,
                                            -0.4257335853168346],
                'tall_cayley_triv_original': [-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0, 0.0,
                                              0.0, 0.0, 0.0, 0.0, 0.0],
                'tall_cayley_notriv_weight': [0.8170645515431495, 0.14298134602484752,
                                              -0.24943038165055975, -0.15660022891649036,
                                              0.9311414317789009, 0.2906559568188098,
                                              0.44750247992711856, -0.15248600194989503,
                                              0.8064469010156525, -0.3183758363674745,
                                              -0.29678125262013805, 0.4013044079173616,
                                              -0.07912170493160961, -0.03465365804961783,
                                              -0.2046992122694773],
                'tall_cayley_notriv_original': [0.09933466539753061, 0.26981602436698465,
                                                0.497021601099038, -0.18935743691449902,
                                                -0.0812310076075771, -0.01260968257182936,
                                                0.40776064753965646, -0.24824735452833327,
                                                -0.4749227117482549, -0.4738461476459335,
                                                -0.2393229592942075, 0.41738167542162613,
                                                -0.03643013495952976, -0.05083852916966968,
                                                -0.22348217677444043],
                'tall_cayley_notriv_grad': [0.0, 0.0, 0.0, -1.2934410752107817, 0.0, 0.0,
                                            -1.3041490274003684, -0.5101176168874798, 0.0,
                                            2.303774619619264, 0.8650236035684391,
                                            0.057419417192326544, -0.04133894853615114,
                                            -1.6958771930395362, -1.8836600170293667],
                'tall_householder_triv_weight': [0.15011991559951343, 0.5841299743126473,
                                                 0.6276814208160884, -0.2861671938389742,
                                                 -0.1293420536701199, -0.20077983833878021,
                                                 0.6162299308955834, -0.6830529992837049,
                                                 0.3275816019613712, -0.7161019107185764,
                                                 -0.4055843959590055, 0.5264453427172139,
                                                 -0.055055189077421955, -0.1048937757257609,
                                                 -0.4257335853168346],
                'tall_householder_triv_original': [-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0,
                                                   0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                'tall_householder_notriv_weight': [0.1501199155995132, 0.584129974312647,
                                                   0.6276814208160885, -0.28616719383897415,
                                                   -0.12934205367012003, -0.20077983833878044,
                                                   0.6162299308955833, -0.6830529992837049,
                                                   0.3275816019613712, -0.7161019107185763,
                                                   -0.40558439595900525, 0.526445342717214,
                                                   -0.05505518907742195, -0.10489377572576088,
                                                   -0.42573358531683464],
                'tall_householder_notriv_original': [-1.0, -0.08495151144439478, 0.5010242333270635,
                                                     -0.2488150930677574, -1.0, -0.4705119546294217,
                                                     0.5357962439719743, -0.9803438108751513, 1.0,
                                                     -0.6226323890281475, -0.041226599039955285,
                                                     -0.8697967551916418, -0.047869085936768425,
                                                     -0.07572060678453266, 0.37917509036886216],
                'tall_householder_notriv_grad': [0.0, 0.0, 0.0, -2.338025356933337, 0.0, 0.0,
                                                 -0.1402470938473197, -1.2055318843553833, 0.0,
                                                 2.523715184408944, 2.2981477219404076,
                                                 2.9626157219086076, -4.913292177157887,
                                                 -3.2844727960031124, 2.6515335388697645],
                'wide_matrix_exp_triv_weight': [0.16283206295496155, 0.44228970511108645,
                                                0.8147312150924725, -0.3103998182835611,
                                                -0.13315605878087308, -0.053593389918758276,
                                                0.40550839862065186, -0.49899763906790096,
                                                -0.5199186358634463, -0.5598005497422135,
                                                -0.6703681880248696, 0.5522903114096989,
                                                0.020488321807672794, 0.49494883982121257,
                                                -0.013703249117330257],
                'wide_matrix_exp_triv_original': [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0,
                                                  0.0, 0.0, 0.0, -1.0, 0.0, 0.0],
                'wide_matrix_exp_notriv_weight': [0.827840170519875, 0.21819717997623372,
                                                  0.4146976597687044, -0.24739872216786407,
                                                  -0.1840933621185492, -0.22310845578686384,
                                                  0.7248701090656906, -0.3442688973627379,
                                                  -0.3988418220778282, -0.38365357969107644,
                                                  -0.5019948107363823, 0.09982755038380801,
                                                  0.8281824664035036, -0.035648540118143,
                                                  -0.22556297148992888],
                'wide_matrix_exp_notriv_original': [0.09933466539753061, 0.26981602436698465,
                                                    0.497021601099038, -0.18935743691449902,
                                                    -0.0812310076075771, -0.01260968257182936,
                                                    0.40776064753965646, -0.24824735452833327,
                                                    -0.4749227117482549, -0.4738461476459335,
                                                    -0.2393229592942075, 0.41738167542162613,
                                                    -0.03643013495952976, -0.05083852916966968,
                                                    -0.22348217677444043],
                'wide_matrix_exp_notriv_grad': [0.0, 0.7670083882249021, -1.3424208488144656,
                                                -0.18241052428860227, -3.332073762762786, 0.0, 0.0,
                                                -0.8113995592300414, -0.006262101389690411,
                                                -1.7905584852898104, 0.0, 0.0, 0.0,
                                                -0.40971354937219645, -0.7879147833242983],
                'wide_cayley_triv_weight': [0.16283206295496155, 0.44228970511108645,
                                            0.8147312150924725, -0.3103998182835611,
                                            -0.13315605878087308, -0.053593389918758276,
                                            0.40550839862065186, -0.49899763906790096,
                                            -0.5199186358634463, -0.5598005497422135,
                                            -0.6703681880248696, 0.5522903114096989,
                                            0.020488321807672794, 0.49494883982121257,
                                            -0.013703249117330257],
                'wide_cayley_triv_original': [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0,
                                              0.0, 0.0, -1.0, 0.0, 0.0],
                'wide_cayley_notriv_weight': [0.8422469695584195, 0.20381020831793537,
                                              0.4077455393433597, -0.23318322231556304,
                                              -0.16867306018206346, -0.2085068184124253,
                                              0.7520528966054806, -0.32058878457864104,
                                              -0.3881545668961079, -0.3708102085743039,
                                              -0.48336719786997656, 0.10704156249415234,
                                              0.8422755789686274, -0.026482938106128763,
                                              -0.21158629205236384],
                'wide_cayley_notriv_original': [0.09933466539753061, 0.26981602436698465,
                                                0.497021601099038, -0.18935743691449902,
                                                -0.0812310076075771, -0.01260968257182936,
                                                0.40776064753965646, -0.24824735452833327,
                                                -0.4749227117482549, -0.4738461476459335,
                                                -0.2393229592942075, 0.41738167542162613,
                                                -0.03643013495952976, -0.05083852916966968,
                                                -0.22348217677444043],
                'wide_cayley_notriv_grad': [0.0, 0.6674693815674964, -1.2605668471232585,
                                            -0.2363136687140579, -3.2800578824317412, 0.0, 0.0,
                                            -0.7611812834295038, 0.03556512677620427,
                                            -1.6544203716970547, 0.0, 0.0, 0.0,
                                            -0.33707357229394724, -0.6633583231286099],
                'wide_householder_triv_weight': [0.16283206295496155, 0.44228970511108645,
                                                 0.8147312150924725, -0.3103998182835611,
                                                 -0.13315605878087308, -0.053593389918758276,
                                                 0.40550839862065186, -0.49899763906790096,
                                                 -0.5199186358634463, -0.5598005497422135,
                                                 -0.6703681880248696, 0.5522903114096989,
                                                 0.020488321807672794, 0.49494883982121257,
                                                 -0.013703249117330257],
                'wide_householder_triv_original': [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0,
                                                   0.0, 0.0, 0.0, -1.0, 0.0, 0.0],
                'wide_householder_notriv_weight': [0.16283206295496155, 0.44228970511108645,
                                                   0.8147312150924725, -0.3103998182835611,
                                                   -0.13315605878087308, -0.053593389918758276,
                                                   0.40550839862065186, -0.49899763906790096,
                                                   -0.5199186358634463, -0.5598005497422135,
                                                   -0.67036818802487, 0.5522903114096989,
                                                   0.020488321807672794, 0.4949488398212126,
                                                   -0.013703249117330257],
                'wide_householder_notriv_original': [-1.0, 0.38035561557113434, 0.7006439201737322,
                                                     -0.2669343477636662, -0.11451013695176243,
                                                     -0.1865516160459079, -1.0,
                                                     -0.32362019725082103, -0.3746596504012769,
                                                     -0.396900439106504, -0.16149167492820354,
                                                     -0.3517937989746413, -1.0, 0.3531153875898572,
                                                     0.13128619020925258],
                'wide_householder_notriv_grad': [0.0, -1.820190704887563, -2.3439625728602813,
                                                 3.6255786721848073, -0.23055387160856333, 0.0, 0.0,
                                                 -3.7127972205592474, 1.5418998129805548,
                                                 -1.6884241717065973, 0.0, 0.0, 0.0,
                                                 -1.1702315638677452, 0.18497832113163812]},
 'old_weight_norm': {'keys': ['bias', 'weight_g', 'weight_v'],
                     'g': [0.6046112582715644, 0.4844099249641573, 0.8255693160457869],
                     'grad_g': [2.0042617412893744, 0.13819811115820563, 4.750183953457337],
                     'grad_v': [1.6361134327800815, 0.9136527102681111, -0.6490287834552408,
                                0.4565946742352222, 0.43552924313694236, 0.4288686486379453,
                                0.16845998505802717, 0.1124079483460677, -1.0019972310593002,
                                -0.2778266532863473, 0.18677920090973327, -1.3484487066835351],
                     'weight_after': [0.19866933079506122, 0.5396320487339693, 0.994043202198076,
                                      -0.37871487382899804, -0.1624620152151542,
                                      -0.02521936514365872, 0.8155212950793129,
                                      -0.49649470905666654, -0.9498454234965098, -0.947692295291867,
                                      -0.478645918588415, 0.8347633508432523],
                     'removed_keys': ['bias', 'weight'],
                     'removed_weight': [0.19866933079506122, 0.5396320487339693, 0.994043202198076,
                                        -0.37871487382899804, -0.1624620152151542,
                                        -0.02521936514365872, 0.8155212950793129,
                                        -0.49649470905666654, -0.9498454234965098,
                                        -0.947692295291867, -0.478645918588415,
                                        0.8347633508432523],
                     'conv_none_g': [1.5236881204640456],
                     'conv_none_weight': [0.09933466539753061, 0.26981602436698465,
                                          0.497021601099038, -0.18935743691449902,
                                          -0.0812310076075771, -0.01260968257182936,
                                          0.40776064753965646, -0.24824735452833327,
                                          -0.4749227117482549, -0.4738461476459335,
                                          -0.2393229592942075, 0.41738167542162613,
                                          -0.03643013495952976, -0.05083852916966968,
                                          -0.22348217677444043, 0.49025116185771267,
                                          0.3113624232144691, 0.1553121625312745,
                                          0.3219096211081861, 0.4841688895766691,
                                          -0.2592711595100809, 0.0035909757939688643,
                                          -0.1038478725686273, 0.45663803376473766]},
 'old_spectral_norm': {'keys': ['bias', 'weight_orig', 'weight_u', 'weight_v'],
                       'metadata': {'weight.version': 1},
                       'train_outputs': [0.1795998797489246, 0.8735211012514578,
                                         0.14212832473282067, 0.505111770307267,
                                         -0.7438922384157969, -0.8176253689459109,
                                         -0.35680162602158944, 0.32059354535621976,
                                         0.1788332874749281, 0.8720015621307664, 0.1416986690126421,
                                         0.5050270994390595, -0.7430457328556848,
                                         -0.8161909199874647, -0.35635978234604665,
                                         0.32083117929513216, 0.1787978990677626,
                                         0.8719314152339986, 0.14167883469904097,
                                         0.5050231907547943, -0.7430066553898071,
                                         -0.8161247011309466, -0.3563393853965548,
                                         0.32084214925513815],
                       'u': [0.0649890214256123, 0.7038502163916661, 0.36146502162392746,
                             -0.6080413950727037],
                       'v': [-0.368814391503333, 0.2507426288937956, -0.23862979936380405,
                             -0.5325624183214123, -0.6786288883643949],
                       'grad_orig': [1.7981174467344223, 1.1101582014344673, 0.27692023938496463,
                                     -0.6836053025122796, -1.3871111168802792, 4.0698571118114195,
                                     1.406995674751776, 0.9297478140144615, -0.17207551720538605,
                                     -1.1016337806920444, 1.4180153786468261, 0.28359675079064584,
                                     0.4313192779430052, 0.274790065518395, 0.07579109807640128,
                                     -0.5129622655807035, 0.74875485266323, -0.5757154946336223,
                                     -1.4437983775826169, -1.8858676165264763],
                       'eval_output': [0.1787950054685004, 0.8719256795418614, 0.1416772129093138,
                                       0.505022871153919, -0.7430034601477635, -0.8161192866223629,
                                       -0.35633771760185223, 0.3208430462344238],
                       'removed_keys': ['bias', 'weight'],
                       'removed_weight': [0.09440177055158003, 0.25641713616790224,
                                          0.4723398318035379, -0.17995406981339873,
                                          -0.07719712862731176, -0.011983493940511979,
                                          0.38751151911525206, -0.23591955243856932,
                                          -0.45133835891802854, -0.45031525628850144,
                                          -0.22743833686461018, 0.39665477301306634,
                                          -0.03462103816275718, -0.048313920892054184,
                                          -0.21238419729707805, 0.46590560816936943,
                                          0.29590036788312335, 0.14759946160257123,
                                          0.30592379879256626, 0.4601253775720297]},
 'fusion': {'conv_fused': [0.46423804129861457, 0.427227358662882, 0.39079227619011286,
                           0.3672699332014827, 0.38866727505145776, 0.4245489920871249,
                           0.48743874495382933, 0.4917621976114307, 0.4733832781872083,
                           0.34821312251884096, 0.38913167403300125, 0.4463061041937413,
                           0.5285056797078964, 0.5238811123088357, 0.4869077669818444,
                           0.3761182999398215, 0.342264378190533, 0.3415715544946471,
                           -0.032570845199209275, -0.11370836123936184, -0.1745298461537406,
                           -0.16271191489341502, -0.09433527337424191, -0.012630550323151149,
                           0.07870116348828166, 0.05538444300970078, -0.008608691171875585],
            'conv_ref': [0.46423804129861457, 0.427227358662882, 0.39079227619011286,
                         0.3672699332014828, 0.3886672750514577, 0.42454899208712493,
                         0.4874387449538294, 0.4917621976114307, 0.4733832781872084,
                         0.3482131225188409, 0.3891316740330013, 0.4463061041937412,
                         0.5285056797078965, 0.5238811123088356, 0.4869077669818445,
                         0.3761182999398215, 0.342264378190533, 0.3415715544946471,
                         -0.032570845199209254, -0.11370836123936182, -0.17452984615374056,
                         -0.16271191489341497, -0.09433527337424191, -0.012630550323151118,
                         0.07870116348828168, 0.055384443009700815, -0.008608691171875599],
            'conv_nobias_weights': [0.1404790262357427, 0.38157366528780484, 0.7028876602251918,
                                    -0.2677891775423062, -0.11487684388117257,
                                    -0.017832605785134504, 0.5766548714327357, -0.3510712649021153,
                                    -0.3877714777779358, -0.38689246979926256, -0.19540572664988917,
                                    0.340789574960287, -0.029744981487418626, -0.04150934688217076,
                                    -0.18247182499621334, 0.4002870631646808, 0.22016593044748872,
                                    0.10982200877193268, 0.2276239069557345, 0.3423582491646704,
                                    -0.18333193672640832, 0.002539196987007598,
                                    -0.07343135132692398, 0.3228910429961392, -0.14141994204496,
                                    0.1632987718572129, -0.2121315040278671],
            'conv_nobias_requires_grad': [True, False],
            'linear_fused': [0.3781216202486197, -0.33251432593406566, -0.5912351311527325,
                             0.2825108016304321, -0.38816507397978695, 0.34955982027954213,
                             0.40064430705805504, -0.3064343743484707, -0.39157632645989904,
                             0.31579079103553137, -0.37563792801245277, -0.20018916651431523,
                             0.32728209658341556, -0.3516511749910599, 0.2485781357272713],
            'linear_ref': [0.3781216202486197, -0.3325143259340657, -0.5912351311527325,
                           0.2825108016304321, -0.388165073979787, 0.34955982027954224,
                           0.40064430705805504, -0.30643437434847076, -0.3915763264598989,
                           0.31579079103553137, -0.37563792801245277, -0.2001891665143152,
                           0.32728209658341556, -0.3516511749910599, 0.24857813572727128]}}


if __name__ == "__main__":
    # prints the reference values, computed by PyTorch
    import pprint
    import torch
    ref = {name: fn(torch) for name, fn in CASES.items()}
    print("REF = " + pprint.pformat(ref, width=100, compact=True, sort_dicts=False))
    sys.exit(0)
