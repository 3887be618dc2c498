"""minitorch.distributions.kl: kl_divergence for every pair of families torch registers a closed
form for, against the values PyTorch 2.15 computes (REF_KL, at the end of this file; run this
file with torch's Python, ``python tests/test_distributions_kl.py``, to print them again),
their gradients, the Bregman divergence of exponential families, and dispatch."""
import math
import sys

import numpy as np
import pytest

if __name__ != "__main__":
    import minitorch as torch
    import minitorch.distributions as D
else:  # printing the reference values with PyTorch
    import torch
    import torch.distributions as D


def torch_tensor(values):
    return torch.tensor(values, dtype=torch.float64)


def _kl_grads():
    t = lambda v: torch.tensor(v, dtype=torch.float64, requires_grad=True)  # noqa: E731
    a, b, c, d = t([2.0, 0.7]), t([3.0, 1.5]), t([1.2, 4.0]), t([0.9, 2.0])
    kl = (D.kl_divergence(D.Beta(a, b), D.Gamma(c, d))
          + D.kl_divergence(D.Gamma(a, b), D.Gamma(c, d))
          + D.kl_divergence(D.Dirichlet(torch.stack([a, b], -1)), D.Dirichlet(torch.stack([c, d], -1)))
          + D.kl_divergence(D.MultivariateNormal(a, torch.diag_embed(b) + 0.5),
                            D.MultivariateNormal(c, scale_tril=torch.diag_embed(d))))
    return np.concatenate([g.numpy() for g in torch.autograd.grad(kl.sum(), [a, b, c, d])])


# ---- KL divergences ------------------------------------------------------------------------

def _kl_pairs(D, t):
    """(name, p, q) for every registered pair of families, with float64 parameters."""
    n = D.Normal(t([0.3, -1.0]), t([0.8, 2.0]))
    n2 = D.Normal(t([1.0, 0.5]), t([1.5, 0.7]))
    u = D.Uniform(t([0.1, 0.2]), t([0.6, 0.9]))
    u2 = D.Uniform(t([0.0, -1.0]), t([1.0, 2.0]))
    be = D.Beta(t([2.0, 0.7]), t([3.0, 1.5]))
    be2 = D.Beta(t([1.2, 4.0]), t([0.9, 2.0]))
    ga = D.Gamma(t([2.0, 0.7]), t([3.0, 1.5]))
    ga2 = D.Gamma(t([1.2, 4.0]), t([0.9, 2.0]))
    ex = D.Exponential(t([0.5, 2.0]))
    ex2 = D.Exponential(t([1.5, 0.3]))
    la = D.Laplace(t([0.3, -1.0]), t([0.8, 2.0]))
    la2 = D.Laplace(t([1.0, 0.5]), t([1.5, 0.7]))
    po = D.Poisson(t([0.5, 3.0]))
    po2 = D.Poisson(t([1.5, 2.0]))
    bern = D.Bernoulli(t([0.2, 0.7]))
    bern2 = D.Bernoulli(t([0.5, 0.1]))
    bino = D.Binomial(t([5.0, 8.0]), t([0.2, 0.7]))
    bino2 = D.Binomial(t([5.0, 6.0]), t([0.5, 0.4]))
    cat = D.Categorical(t([[0.2, 0.3, 0.5], [0.1, 0.0, 0.9]]))
    cat2 = D.Categorical(t([[0.4, 0.4, 0.2], [0.3, 0.3, 0.4]]))
    oh = D.OneHotCategorical(t([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]))
    oh2 = D.OneHotCategorical(t([[0.4, 0.4, 0.2], [0.3, 0.3, 0.4]]))
    di = D.Dirichlet(t([[0.5, 1.0, 2.0], [3.0, 4.0, 1.5]]))
    di2 = D.Dirichlet(t([[1.5, 2.0, 0.5], [1.0, 1.0, 1.0]]))
    geo = D.Geometric(t([0.2, 0.7]))
    geo2 = D.Geometric(t([0.5, 0.1]))
    ca = D.Cauchy(t([0.3, -1.0]), t([0.8, 2.0]))
    ca2 = D.Cauchy(t([1.0, 0.5]), t([1.5, 0.7]))
    mvn = D.MultivariateNormal(t([0.5, -1.0]), t([[2.0, 0.3], [0.3, 1.0]]))
    mvn2 = D.MultivariateNormal(t([[0.0, 1.0], [1.0, 1.0]]),
                                scale_tril=t([[[1.0, 0.0], [0.5, 2.0]], [[0.7, 0.0], [0.2, 0.4]]]))
    ind = D.Independent(n, 1)
    ind2 = D.Independent(n2, 1)
    ln = D.LogNormal(t([0.3, -1.0]), t([0.8, 2.0]))
    ln2 = D.LogNormal(t([1.0, 0.5]), t([1.5, 0.7]))
    chi = D.Chi2(t([2.0, 5.0]))
    chi2 = D.Chi2(t([3.0, 1.0]))
    return [
        ("normal_normal", n, n2), ("uniform_uniform", u, u2), ("uniform_uniform_inf", u2, u),
        ("beta_beta", be, be2), ("gamma_gamma", ga, ga2), ("exp_exp", ex, ex2),
        ("laplace_laplace", la, la2), ("poisson_poisson", po, po2), ("bern_bern", bern, bern2),
        ("binomial_binomial", bino, bino2), ("cat_cat", cat, cat2), ("cat_cat_zero", cat2, cat),
        ("onehot_onehot", oh, oh2), ("dirichlet_dirichlet", di, di2), ("geo_geo", geo, geo2),
        ("cauchy_cauchy", ca, ca2), ("mvn_mvn", mvn, mvn2), ("mvn_mvn_rev", mvn2, mvn),
        ("ind_ind", ind, ind2), ("lognormal_lognormal", ln, ln2), ("chi2_chi2", chi, chi2),
        ("bern_poisson", bern, po), ("beta_exp", be, ex), ("beta_gamma", be, ga),
        ("beta_normal", be, n), ("beta_uniform", be, u2), ("beta_uniform_inf", be, u),
        ("exp_beta", ex, be), ("exp_gamma", ex, ga), ("exp_normal", ex, n), ("exp_uniform", ex, u),
        ("gamma_beta", ga, be), ("gamma_exp", ga, ex), ("gamma_normal", ga, n),
        ("gamma_uniform", ga, u), ("laplace_normal", la, n), ("laplace_exp", la, ex),
        ("normal_laplace", n, la), ("normal_gamma", n, ga), ("poisson_bern", po, bern),
        ("poisson_binomial", po, bino), ("uniform_beta", u, be), ("uniform_beta_inf", u2, be),
        ("uniform_exp", u, ex), ("uniform_exp_inf", u2, ex), ("uniform_gamma", u, ga),
        ("uniform_normal", u, n),
    ]


def test_kl_divergences_match_torch():
    got = {name: D.kl_divergence(p, q).numpy().tolist()
           for name, p, q in _kl_pairs(D, torch_tensor)}
    assert set(got) == set(REF_KL)
    for name, want in REF_KL.items():
        np.testing.assert_allclose(got[name], want, rtol=1e-9, atol=1e-12, err_msg=name)


def test_kl_gradients_match_torch():
    # through trigamma, which torch computes to ~1e-9 only
    np.testing.assert_allclose(_kl_grads(), REF_KL_GRAD, rtol=1e-8)


def test_kl_expfamily_bregman_matches_closed_form():
    # the Bregman divergence of the log normaliser, used when no closed form is registered
    from minitorch.distributions.kl import _kl_expfamily_expfamily
    t = torch_tensor
    for p, q in [(D.Gamma(t([2.0, 0.7]), t([3.0, 1.5])), D.Gamma(t([1.2, 4.0]), t([0.9, 2.0]))),
                 (D.Normal(t([0.3, -1.0]), t([0.8, 2.0])), D.Normal(t([1.0, 0.5]), t([1.5, 0.7]))),
                 (D.Poisson(t([0.5, 3.0])), D.Poisson(t([1.5, 2.0])))]:
        np.testing.assert_allclose(_kl_expfamily_expfamily(p, q).detach().numpy(),
                                   D.kl_divergence(p, q).numpy(), rtol=1e-10)
    with pytest.raises(NotImplementedError, match="cross KL-divergence"):
        _kl_expfamily_expfamily(D.Gamma(t([1.0]), t([1.0])), D.Normal(t([1.0]), t([1.0])))


def test_kl_dispatch_and_registration():
    t = torch_tensor
    with pytest.raises(NotImplementedError,
                       match="No KL\\(p \\|\\| q\\) is implemented for p type Normal and q type "
                             "Categorical"):
        D.kl_divergence(D.Normal(t([0.0]), t([1.0])), D.Categorical(t([0.5, 0.5])))

    class MyNormal(D.Normal):
        pass

    # subclasses use their base class's formula until a more specific one is registered
    p, q = MyNormal(t([0.0]), t([1.0])), D.Normal(t([1.0]), t([2.0]))
    base = D.kl_divergence(p, q)
    D.register_kl(MyNormal, D.Normal)(lambda p, q: base * 0 + 7)
    assert D.kl_divergence(p, q).item() == 7
    with pytest.raises(NotImplementedError):
        D.kl_divergence(D.Binomial(t([2.0]), t([0.5])), D.Binomial(t([3.0]), t([0.5])))
    # equal inf where the support of p is not inside the support of q
    kl = D.kl_divergence(D.Normal(t([0.0]), t([1.0])), D.Exponential(t([1.0])))
    assert math.isinf(kl.item())



# ---- reference values printed by this file under PyTorch 2.15 ----------------------------------

REF_KL = {'bern_bern': [0.19274475702175742, 1.032553417738286],
 'bern_poisson': [0.1382270125738012, 1.62010709587743],
 'beta_beta': [0.32880439430827657, 3.037277984170472],
 'beta_exp': [1.1280538303479457, 0.17547227944834803],
 'beta_gamma': [0.321015405785114, 0.15727512464161186],
 'beta_normal': [0.9697641316784633, 2.070016253318366],
 'beta_uniform': [0.23490664978800035, 1.3308681123127668],
 'beta_uniform_inf': [math.inf, math.inf],
 'binomial_binomial': [0.9637237851087871, math.inf],
 'cat_cat': [0.2332113080895541, 0.6199759657278849],
 'cat_cat_zero': [0.20907355482985956, math.inf],
 'cauchy_cauchy': [0.18578776477044046, 0.5327268877190916],
 'chi2_chi2': [0.16782559481552117, 1.6939953537422672],
 'dirichlet_dirichlet': [3.014912409377052, 0.6836628303831072],
 'exp_beta': [math.inf, math.inf],
 'exp_exp': [0.9013877113318902, 1.0471199848858812],
 'exp_gamma': [1.9936967264454228, 0.039079997777453634],
 'exp_normal': [4.385460301330517, 1.6177328943245635],
 'exp_uniform': [math.inf, math.inf],
 'gamma_beta': [math.inf, math.inf],
 'gamma_exp': [0.5478771376598555, 0.05079108045926628],
 'gamma_gamma': [0.29762074326658094, 4.639574993425783],
 'gamma_normal': [0.4958374389903731, 1.7304684192282738],
 'gamma_uniform': [math.inf, math.inf],
 'geo_geo': [0.9637237851087868, 1.4750763110546945],
 'ind_ind': 5.2074486664429696,
 'laplace_exp': [math.inf, math.inf],
 'laplace_laplace': [0.3176017365842454, 1.44265374047565],
 'laplace_normal': [0.2257913526447275, 0.2257913526447275],
 'lognormal_lognormal': [0.37971977053348516, 4.827728895909485],
 'mvn_mvn': [1.277408059530676, 13.576952090912945],
 'mvn_mvn_rev': [3.3555353305216813, 2.8101298622871838],
 'normal_gamma': [math.inf, math.inf],
 'normal_laplace': [0.07209320815813802, 0.07209320815813802],
 'normal_normal': [0.37971977053348516, 4.827728895909485],
 'onehot_onehot': [0.2332113080895541, 0.21972245773362198],
 'poisson_bern': [math.inf, math.inf],
 'poisson_binomial': [math.inf, math.inf],
 'poisson_poisson': [0.4506938556659452, 0.21639532432449338],
 'uniform_beta': [0.2739469460618512, 0.6601654880365357],
 'uniform_beta_inf': [0.5150933502119996, math.inf],
 'uniform_exp': [1.5612943611198906, 0.7635277633787871],
 'uniform_exp_inf': [0.9431471805599453, math.inf],
 'uniform_gamma': [0.6983963331441054, 0.9560293798210168],
 'uniform_normal': [1.4071713291170749, 2.274177324370017],
 'uniform_uniform': [0.6931471805599453, 1.455287232606842],
 'uniform_uniform_inf': [math.inf, math.inf]}

REF_KL_GRAD = [1.669609555206302, -24.972562395022607, 1.4239604315785865, 5.268025951312627,
 -0.27454864887974434, 7.480063618427968, -11.392732054429352, -6.2131813857222795]



if __name__ == "__main__":
    import pprint

    def show(name, value):
        print(name + " = " + pprint.pformat(value, width=100, compact=True) + "\n")

    show("REF_KL", {name: D.kl_divergence(p, q).numpy().tolist()
                    for name, p, q in _kl_pairs(D, torch_tensor)})
    show("REF_KL_GRAD", _kl_grads().tolist())
    sys.exit(0)
