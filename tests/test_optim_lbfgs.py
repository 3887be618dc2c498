"""minitorch.optim.LBFGS against PyTorch: the iterates on Rosenbrock's function (and a least-
squares problem over two parameters) with and without the strong-Wolfe line search, the
optimizer's counters and state, and torch's errors.

The expected values are PyTorch 2.15's (CPU), from running these scenarios with torch in place
of minitorch (``python tests/test_optim_lbfgs.py`` with torch importable prints them).  In
float64 the iterates agree to ~1e-13; float32 iterates drift apart by rounding (dot products are
summed in another order) on an ill-conditioned problem, so only the first steps are compared."""
import sys

import numpy as np
import pytest

import minitorch


def _rosenbrock(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


SCENARIOS = {
    "plain": dict(),
    "plain_short_history": dict(lr=0.5, max_iter=7, history_size=3),
    "wolfe": dict(line_search_fn="strong_wolfe"),
    "wolfe_history2": dict(line_search_fn="strong_wolfe", history_size=2, max_iter=30,
                           tolerance_change=1e-12),
    "wolfe_one_iter": dict(line_search_fn="strong_wolfe", max_iter=1),
    "wolfe_max_eval": dict(line_search_fn="strong_wolfe", max_iter=10, max_eval=6, lr=2.0),
    "maximize": dict(line_search_fn="strong_wolfe", maximize=True),
    "tolerance_grad": dict(tolerance_grad=1e-2, max_iter=50),
}


def _run(mod, name, dtype, steps=6, **override):
    """``steps`` LBFGS steps on Rosenbrock's function of 4 variables; returns (parameters
    after each step, the losses step returned, func_evals, n_iter)."""
    dt = getattr(mod, dtype)
    x = mod.tensor([-1.5, 2.0, 0.5, -0.8], dtype=dt, requires_grad=True)
    opt = mod.optim.LBFGS([x], **{**SCENARIOS[name], **override})
    sign = -1 if SCENARIOS[name].get("maximize") else 1

    def closure():
        opt.zero_grad()
        loss = sign * _rosenbrock(x)
        loss.backward()
        return loss

    xs, losses = [], []
    for _ in range(steps):
        losses.append(float(opt.step(closure)))
        xs.append(x.detach().reshape(-1).tolist())
    state = opt.state[x]
    return xs, losses, state["func_evals"], state["n_iter"]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_float64_iterates_match_torch(name):
    xs, losses, func_evals, n_iter = _run(minitorch, name, "float64")
    want = EXPECTED_FLOAT64[name]
    np.testing.assert_allclose(xs, want[0], rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(losses, want[1], rtol=1e-11, atol=1e-13)
    assert (func_evals, n_iter) == (want[2], want[3])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_float32_first_iterations_match_torch(name):
    xs, losses, _, _ = _run(minitorch, name, "float32", steps=1, max_iter=3)
    np.testing.assert_allclose(xs[0], EXPECTED_FLOAT32_FIRST[name], rtol=2e-5, atol=2e-6)


def _least_squares(mod):
    """Two parameters (a matrix and a vector, one without gradient some steps), plain and with
    the line search."""
    out = {}
    for ls in (None, "strong_wolfe"):
        w = mod.tensor([[0.5, -0.25], [1.0, 0.75], [-0.5, 0.125]], dtype=mod.float64,
                       requires_grad=True)
        b = mod.tensor([0.1, -0.2], dtype=mod.float64, requires_grad=True)
        unused = mod.tensor([3.0], dtype=mod.float64, requires_grad=True)
        a = mod.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 2.0], [1.5, 0.5, -0.5], [2.0, 1.0, 1.0]],
                       dtype=mod.float64)
        y = mod.tensor([[1.0, 0.0], [0.5, -1.0], [2.0, 1.0], [-1.0, 0.5]], dtype=mod.float64)
        opt = mod.optim.LBFGS([w, unused, b], history_size=4, max_iter=5, line_search_fn=ls)

        def closure():
            opt.zero_grad()
            loss = ((a @ w + b - y) ** 2).sum() + 0.1 * (w ** 4).sum()
            loss.backward()
            return loss

        for _ in range(3):
            opt.step(closure)
        out[str(ls)] = w.detach().reshape(-1).tolist() + b.detach().tolist() + unused.tolist()
    return out


def test_several_parameters_match_torch():
    got = _least_squares(minitorch)
    for key, want in EXPECTED_LEAST_SQUARES.items():
        np.testing.assert_allclose(got[key], want, rtol=1e-12, atol=1e-14)


def test_state_layout():
    x = minitorch.tensor([-1.5, 2.0], dtype=minitorch.float64, requires_grad=True)
    opt = minitorch.optim.LBFGS([x], history_size=5)

    def closure():
        opt.zero_grad()
        loss = _rosenbrock(x)
        loss.backward()
        return loss

    opt.step(closure)
    state = opt.state_dict()["state"][0]
    assert sorted(state) == ["H_diag", "al", "d", "func_evals", "n_iter", "old_dirs",
                             "old_stps", "prev_flat_grad", "prev_loss", "ro", "t"]
    assert len(state["al"]) == 5 and len(state["old_dirs"]) <= 5
    assert list(opt.param_groups[0]) == ["params", "lr", "max_iter", "max_eval",
                                         "tolerance_grad", "tolerance_change", "history_size",
                                         "line_search_fn", "maximize"]
    assert opt.param_groups[0]["max_eval"] == 25


def test_stops_at_once_when_the_gradient_is_small():
    x = minitorch.tensor([1.0, 1.0], dtype=minitorch.float64, requires_grad=True)
    opt = minitorch.optim.LBFGS([x])
    calls = []

    def closure():
        calls.append(1)
        opt.zero_grad()
        loss = _rosenbrock(x)
        loss.backward()
        return loss

    assert opt.step(closure).item() == 0.0
    assert len(calls) == 1 and x.tolist() == [1.0, 1.0]
    assert opt.state[x]["n_iter"] == 0


def test_complex_parameters_are_optimized_as_pairs_of_reals():
    z = minitorch.tensor([1 + 2j, -0.5 + 0.25j], dtype=minitorch.complex128, requires_grad=True)
    target = minitorch.tensor([0.5 - 1j, 2 + 0.5j], dtype=minitorch.complex128)
    opt = minitorch.optim.LBFGS([z], line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (z - target).abs().pow(2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    np.testing.assert_allclose(z.detach().numpy(), target.numpy(), atol=1e-8)


def test_errors_match_torch():
    p = minitorch.zeros(2, requires_grad=True)
    with pytest.raises(ValueError, match="LBFGS doesn't support per-parameter options"):
        minitorch.optim.LBFGS([{"params": [p]}, {"params": [minitorch.zeros(1, requires_grad=True)]}])
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        minitorch.optim.LBFGS([p], lr=-1)
    opt = minitorch.optim.LBFGS([p], line_search_fn="backtracking")

    def closure():
        opt.zero_grad()
        loss = ((p - 1) ** 2).sum()
        loss.backward()
        return loss

    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt.step(closure)
    with pytest.raises(TypeError):
        minitorch.optim.LBFGS([p]).step()


def test_step_hooks_run_once_per_step():
    p = minitorch.zeros(2, requires_grad=True)
    opt = minitorch.optim.LBFGS([p])
    seen = []
    opt.register_step_post_hook(lambda o, args, kwargs: seen.append(1))

    def closure():
        opt.zero_grad()
        loss = ((p - 1) ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    assert seen == [1]


# ---- PyTorch 2.15's values ----------------------------------------------------------------------

EXPECTED_FLOAT64 = {'maximize': ([[-0.775754815882748, 0.6132561342757205, 0.3822553511790949, 0.14611724519808075],
               [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
               [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
               [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
               [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
               [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458]],
              [-1349.0, -3.7014286558120184, -3.701428610444407, -3.701428610444407,
               -3.701428610444407, -3.701428610444407],
              28, 27),
 'plain': ([[-0.775754815882748, 0.6132561342757205, 0.3822553511790949, 0.14611724519808075],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458]],
           [1349.0, 3.7014286558120184, 3.701428610444407, 3.701428610444407, 3.701428610444407,
            3.701428610444407],
           27, 27),
 'plain_short_history': ([[-0.9248570456465627, 0.7970779269531711, 0.43473055645828307,
                           -0.03488427093282043],
                          [-0.8180036500630906, 0.6797480907851917, 0.4658701732723276,
                           0.21582278832465485],
                          [-0.8159011606160821, 0.6769207069543135, 0.46439869152471586,
                           0.2161392600116622],
                          [-0.7806419804070763, 0.6207983474483112, 0.3914223959698241,
                           0.1530241606693431],
                          [-0.7757118598647137, 0.6131748174910537, 0.3821582554990353,
                           0.14603832315978155],
                          [-0.7756701911592848, 0.6131105391968787, 0.38208343115497945,
                           0.14598751787928346]],
                         [1349.0, 13.441609280265435, 3.705868297609334, 3.7051863068680615,
                          3.7014761334789816, 3.7014286207692426],
                         39, 38),
 'tolerance_grad': ([[-0.7700143943934098, 0.6044229661578339, 0.37158422961225474,
                      0.13806875292348036],
                     [-0.7700143943934098, 0.6044229661578339, 0.37158422961225474,
                      0.13806875292348036],
                     [-0.7700143943934098, 0.6044229661578339, 0.37158422961225474,
                      0.13806875292348036],
                     [-0.7700143943934098, 0.6044229661578339, 0.37158422961225474,
                      0.13806875292348036],
                     [-0.7700143943934098, 0.6044229661578339, 0.37158422961225474,
                      0.13806875292348036],
                     [-0.7700143943934098, 0.6044229661578339, 0.37158422961225474,
                      0.13806875292348036]],
                    [1349.0, 3.7014805065922305, 3.7014805065922305, 3.7014805065922305,
                     3.7014805065922305, 3.7014805065922305],
                    16, 10),
 'wolfe': ([[-0.775754815882748, 0.6132561342757205, 0.3822553511790949, 0.14611724519808075],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458],
            [-0.7756612779866382, 0.6130964426093102, 0.38206669355624506, 0.14597519476769458]],
           [1349.0, 3.7014286558120184, 3.701428610444407, 3.701428610444407, 3.701428610444407,
            3.701428610444407],
           28, 27),
 'wolfe_history2': ([[-0.77565891494258, 0.6130928999998417, 0.382062305815876,
                      0.14597156714995818],
                     [-0.77565891494258, 0.6130928999998417, 0.382062305815876,
                      0.14597156714995818],
                     [-0.77565891494258, 0.6130928999998417, 0.382062305815876,
                      0.14597156714995818],
                     [-0.77565891494258, 0.6130928999998417, 0.382062305815876,
                      0.14597156714995818],
                     [-0.77565891494258, 0.6130928999998417, 0.382062305815876,
                      0.14597156714995818],
                     [-0.77565891494258, 0.6130928999998417, 0.382062305815876,
                      0.14597156714995818]],
                    [1349.0, 3.701428610430404, 3.701428610430404, 3.701428610430404,
                     3.701428610430404, 3.701428610430404],
                    36, 34),
 'wolfe_max_eval': ([[-0.6936751338148349, 0.4923414027591098, 0.24170485111730283,
                      0.008966713618644373],
                     [-0.6846619944930035, 0.4810465213005752, 0.2389682455056426,
                      0.05706501124656952],
                     [-0.7009277572502647, 0.505647367031882, 0.26173979551579435,
                      0.06818157654549423],
                     [-0.750014443241886, 0.5709439437934178, 0.33583786672486293,
                      0.11354513035300515],
                     [-0.7591525279449298, 0.5876481671199989, 0.35127049637059327,
                      0.12267027927935896],
                     [-0.7779740915839787, 0.616484448990555, 0.38606740969750275,
                      0.14891693522192795]],
                    [1349.0, 3.958333648686926, 3.7073782035338714, 3.7068370319552777,
                     3.704625628207738, 3.7019316672883273],
                    37, 23),
 'wolfe_one_iter': ([[-1.457039911308204, 1.237250554323725, 0.6360864745011087,
                      -0.7417960088691796],
                     [-1.2845023553677009, 1.1140145194631368, 0.6058899482920312,
                      -0.6640203876622074],
                     [-1.0323620707308967, 0.848542193728957, 0.4313815431771827,
                      -0.3709606900905283],
                     [-0.893852416761141, 0.6966015757566068, 0.358140128605809,
                      -0.08959878085457634],
                     [-0.7978585976786258, 0.6207006075741446, 0.36433970419868766,
                      0.09340041112688441],
                     [-0.7742128469124344, 0.6058565511841902, 0.36945386446160605,
                      0.13381488158091964]],
                    [1349.0, 296.14783405951016, 180.77110701389353, 48.55760627911514,
                     11.500906841299427, 4.004029622502015],
                    12, 6)}

EXPECTED_FLOAT32_FIRST = {'maximize': [-1.284502387046814, 1.1140145063400269, 0.6058899164199829, -0.6640204191207886],
 'plain': [-1.284502387046814, 1.1140145063400269, 0.6058899164199829, -0.6640204191207886],
 'plain_short_history': [-1.4098769426345825, 1.454744577407837, 0.5854365229606628,
                         -0.7308932542800903],
 'tolerance_grad': [-1.284502387046814, 1.1140145063400269, 0.6058899164199829,
                    -0.6640204191207886],
 'wolfe': [-1.284502387046814, 1.1140145063400269, 0.6058899164199829, -0.6640204191207886],
 'wolfe_history2': [-1.284502387046814, 1.1140145063400269, 0.6058899164199829,
                    -0.6640204191207886],
 'wolfe_max_eval': [-0.7307393550872803, 0.6077358722686768, 0.22374406456947327,
                    -0.2607114911079407],
 'wolfe_one_iter': [-1.284502387046814, 1.1140145063400269, 0.6058899164199829,
                    -0.6640204191207886]}

EXPECTED_LEAST_SQUARES = {'None': [-1.0594379398705795, 0.591389626744037, -0.1348527832084932, -0.11228955520818334,
          -1.2335719282877693, -0.5015576441064094, 2.8264738833593874, -0.09347641324716612, 3.0],
 'strong_wolfe': [-1.059451723358135, 0.5911429890820817, -0.13403551430398425,
                  -0.11342041848765372, -1.2328708542114555, -0.5025931874736396,
                  2.8256214214729902, -0.09273518486168124, 3.0]}


if __name__ == "__main__":
    # prints the expected values, computed by PyTorch
    import pprint
    import torch

    def show(name, value):
        print(name + " = " + pprint.pformat(value, width=100, compact=True) + "\n")

    show("EXPECTED_FLOAT64", {name: _run(torch, name, "float64") for name in sorted(SCENARIOS)})
    show("EXPECTED_FLOAT32_FIRST", {name: _run(torch, name, "float32", steps=1, max_iter=3)[0][0]
                                    for name in sorted(SCENARIOS)})
    show("EXPECTED_LEAST_SQUARES", _least_squares(torch))
    sys.exit(0)
