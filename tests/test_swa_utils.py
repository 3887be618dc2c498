"""minitorch.optim.swa_utils: AveragedModel (SWA and EMA, parameters and buffers), SWALR and
update_bn against the values PyTorch 2.15 computes for the same models and data (REF, at the end
of this file; ``python tests/test_swa_utils.py`` with torch importable prints them)."""
import copy
import sys
import warnings

import numpy as np
import pytest

import minitorch


def _model(mod):
    """Linear -> BatchNorm1d -> Linear with fixed parameters."""
    nn = mod.nn
    m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    with mod.no_grad():
        for k, p in enumerate(m.parameters()):
            n = p.numel()
            vals = 0.5 * np.sin(np.arange(1, n + 1) * (k + 1) * 0.7)
            p.copy_(mod.tensor(vals.tolist(), dtype=p.dtype).reshape(p.shape))
    return m


def _batch(mod, i):
    x = np.cos(np.arange(24).reshape(8, 3) * 0.3 + i)
    return mod.tensor(x.tolist())


def _train_and_average(mod, kind):
    """Five SGD steps; the averaged model is updated after each. Returns the averaged
    model's state_dict values."""
    m = _model(mod)
    swa = mod.optim.swa_utils
    if kind == "swa":
        avg = swa.AveragedModel(m)
    elif kind == "ema_multi":
        avg = swa.AveragedModel(m, multi_avg_fn=swa.get_ema_multi_avg_fn(0.8))
    elif kind == "ema":
        avg = swa.AveragedModel(m, avg_fn=swa.get_ema_avg_fn(0.7))
    elif kind == "swa_fn":
        avg = swa.AveragedModel(m, avg_fn=swa.get_swa_avg_fn())
    elif kind == "swa_multi":
        avg = swa.AveragedModel(m, multi_avg_fn=swa.get_swa_multi_avg_fn())
    elif kind == "ema_buffers":
        avg = swa.AveragedModel(m, multi_avg_fn=swa.get_ema_multi_avg_fn(0.5), use_buffers=True)
    opt = mod.optim.SGD(m.parameters(), lr=0.1)
    for i in range(5):
        opt.zero_grad()
        loss = (m(_batch(mod, i)) ** 2).mean()
        loss.backward()
        opt.step()
        avg.update_parameters(m)
    return {k: v.detach().double().reshape(-1).tolist() for k, v in avg.state_dict().items()}


KINDS = ["swa", "ema_multi", "ema", "swa_fn", "swa_multi", "ema_buffers"]


@pytest.mark.parametrize("kind", KINDS)
def test_averaged_model_matches_torch(kind):
    got = _train_and_average(minitorch, kind)
    want = REF["average"][kind]
    assert list(got) == list(want)
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-6, atol=1e-7, err_msg=key)


def _swalr(mod, strategy, anneal_epochs, swa_lr):
    p = mod.zeros(2, requires_grad=True)
    q = mod.zeros(1, requires_grad=True)
    opt = mod.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.5}], lr=1.0)
    sched = mod.optim.swa_utils.SWALR(opt, swa_lr=swa_lr, anneal_epochs=anneal_epochs,
                                      anneal_strategy=strategy)
    lrs = [[g["lr"] for g in opt.param_groups]]
    for _ in range(anneal_epochs + 3):
        opt.step()
        sched.step()
        lrs.append([g["lr"] for g in opt.param_groups])
    return lrs


SWALR_CASES = {"cos": ("cos", 5, 0.05), "linear": ("linear", 4, [0.1, 0.02]),
               "no_anneal": ("cos", 0, 0.3), "linear_one": ("linear", 1, 0.2)}


@pytest.mark.parametrize("name", sorted(SWALR_CASES))
def test_swalr_matches_torch(name):
    got = _swalr(minitorch, *SWALR_CASES[name])
    np.testing.assert_allclose(got, REF["swalr"][name], rtol=1e-15, atol=1e-17)


def _update_bn(mod):
    m = _model(mod)
    m.eval()
    loader = [(_batch(mod, i), mod.zeros(8)) for i in range(4)] + [_batch(mod, 9)]
    mod.optim.swa_utils.update_bn(loader, m)
    bn = m[1]
    return (bn.running_mean.tolist(), bn.running_var.tolist(), bn.num_batches_tracked.item(),
            bn.momentum, m.training)


def test_update_bn_matches_torch():
    mean, var, tracked, momentum, training = _update_bn(minitorch)
    want = REF["update_bn"]
    np.testing.assert_allclose(mean, want[0], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(var, want[1], rtol=1e-6, atol=1e-7)
    assert (tracked, momentum, training) == tuple(want[2:])


def test_update_bn_without_batchnorm_does_nothing():
    m = minitorch.nn.Linear(2, 2)
    calls = []
    minitorch.optim.swa_utils.update_bn(iter(lambda: calls.append(1), 0), m)
    assert calls == []


def test_averaged_model_structure():
    swa = minitorch.optim.swa_utils
    m = _model(minitorch)
    avg = swa.AveragedModel(m)
    assert isinstance(avg, minitorch.nn.Module)
    assert avg.module is not m and avg.n_averaged.dtype == minitorch.int64
    assert list(avg.state_dict())[:2] == ["n_averaged", "module.0.weight"]
    x = _batch(minitorch, 0)
    m.eval()
    avg.eval()
    assert avg(x).tolist() == m(x).tolist()
    avg.update_parameters(m)
    avg.update_parameters(m)
    assert avg.n_averaged.item() == 2
    # a deep copy: changing the model does not change the average until the next update
    with minitorch.no_grad():
        m[0].weight.add_(1.0)
    assert avg.module[0].weight.tolist() != m[0].weight.tolist()
    with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn"):
        swa.AveragedModel(m, avg_fn=swa.get_swa_avg_fn(), multi_avg_fn=swa.get_swa_multi_avg_fn())
    with pytest.raises(ValueError, match=r"Invalid decay value 1.5 provided. Please provide a "
                                         r"value in \[0,1\] range."):
        swa.get_ema_avg_fn(1.5)
    with pytest.raises(ValueError, match="Invalid decay value -0.1"):
        swa.get_ema_multi_avg_fn(-0.1)
    state = copy.deepcopy(avg.state_dict())
    fresh = swa.AveragedModel(_model(minitorch))
    fresh.load_state_dict(state)
    assert fresh.n_averaged.item() == 2


def test_swalr_errors_and_state_dict():
    p = minitorch.zeros(1, requires_grad=True)
    opt = minitorch.optim.SGD([p], lr=1.0)
    SWALR = minitorch.optim.swa_utils.SWALR
    with pytest.raises(ValueError, match="anneal_strategy must be one of 'cos' or 'linear', "
                                         "instead got exp"):
        SWALR(opt, swa_lr=0.1, anneal_strategy="exp")
    with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0, got -1"):
        SWALR(opt, swa_lr=0.1, anneal_epochs=-1)
    with pytest.raises(ValueError, match="swa_lr must have the same length as "
                                         "optimizer.param_groups"):
        SWALR(opt, swa_lr=[0.1, 0.2])
    s = SWALR(opt, swa_lr=0.1, anneal_strategy="linear", anneal_epochs=3)
    opt.step()
    s.step()
    sd = s.state_dict()
    assert "anneal_func" not in sd and sd["_anneal_strategy"] == "linear"
    s2 = SWALR(minitorch.optim.SGD([p], lr=1.0), swa_lr=0.1)
    s2.load_state_dict(sd)
    assert s2.anneal_func is SWALR._linear_anneal
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s.get_lr()
    assert "get_last_lr()" in str(w[0].message)


REF = {'average': {'swa': {'n_averaged': [5.0],
                     'module.0.weight': [0.3218849003314972, 0.49270617961883545,
                                         0.4317929744720459, 0.16509494185447693,
                                         -0.17682591080665588, -0.43612921237945557,
                                         -0.49122822284698486, -0.3156301975250244,
                                         0.00841481238603592, 0.32858043909072876,
                                         0.4940907657146454, 0.4272249639034271],
                     'module.0.bias': [0.49272486567497253, 0.16749407351016998,
                                       -0.4357878863811493, -0.3156333267688751],
                     'module.1.weight': [0.4246080815792084, -0.45362287759780884,
                                         0.01741942949593067, 0.4412209987640381],
                     'module.1.bias': [0.16095906496047974, -0.2991093099117279,
                                       0.37709394097328186, -0.4791875183582306],
                     'module.1.running_mean': [0.18600548803806305, 0.0751967504620552,
                                               -0.1692846119403839, -0.1450546532869339],
                     'module.1.running_var': [0.928723156452179, 0.6402741074562073,
                                              0.7357934713363647, 0.9306182265281677],
                     'module.1.num_batches_tracked': [5.0],
                     'module.3.weight': [-0.1299891173839569, 0.3388420641422272,
                                         -0.3748968541622162, 0.4973648488521576,
                                         -0.49410688877105713, 0.4167494773864746,
                                         -0.3170206546783447, 0.13523663580417633],
                     'module.3.bias': [-0.2757855951786041, 0.3751882016658783]},
             'ema_multi': {'n_averaged': [5.0],
                           'module.0.weight': [0.32191231846809387, 0.4927084445953369,
                                               0.4317699372768402, 0.16513954102993011,
                                               -0.1767992228269577, -0.4361228346824646,
                                               -0.4912279546260834, -0.3156306743621826,
                                               0.008413614705204964, 0.3285903334617615,
                                               0.4940914809703827, 0.427216500043869],
                           'module.0.bias': [0.49272486567497253, 0.16749407351016998,
                                             -0.4357878863811493, -0.3156333267688751],
                           'module.1.weight': [0.4251895546913147, -0.45168083906173706,
                                               0.01653463765978813, 0.4385101795196533],
                           'module.1.bias': [0.16147129237651825, -0.3008100986480713,
                                             0.3824589252471924, -0.4812163710594177],
                           'module.1.running_mean': [0.18600548803806305, 0.0751967504620552,
                                                     -0.1692846119403839, -0.1450546532869339],
                           'module.1.running_var': [0.928723156452179, 0.6402741074562073,
                                                    0.7357934713363647, 0.9306182265281677],
                           'module.1.num_batches_tracked': [5.0],
                           'module.3.weight': [-0.1349925547838211, 0.3375176191329956,
                                               -0.3821156620979309, 0.4969906508922577,
                                               -0.49326539039611816, 0.41697826981544495,
                                               -0.31445854902267456, 0.13527676463127136],
                           'module.3.bias': [-0.29399171471595764, 0.3815511465072632]},
             'ema': {'n_averaged': [5.0],
                     'module.0.weight': [0.3218732476234436, 0.49270516633987427,
                                         0.43180277943611145, 0.16480597853660583,
                                         -0.17699798941612244, -0.43616899847984314,
                                         -0.49122869968414307, -0.31562942266464233,
                                         0.008416750468313694, 0.32864269614219666,
                                         0.49409544467926025, 0.4271717369556427],
                     'module.0.bias': [0.49272486567497253, 0.16749407351016998,
                                       -0.4357878565788269, -0.3156333267688751],
                     'module.1.weight': [0.42437422275543213, -0.45448189973831177,
                                         0.017898641526699066, 0.44240134954452515],
                     'module.1.bias': [0.16085678339004517, -0.29828670620918274,
                                       0.37524905800819397, -0.47831106185913086],
                     'module.1.running_mean': [0.18600548803806305, 0.0751967504620552,
                                               -0.1692846119403839, -0.1450546532869339],
                     'module.1.running_var': [0.928723156452179, 0.6402741074562073,
                                              0.7357934713363647, 0.9306182265281677],
                     'module.1.num_batches_tracked': [5.0],
                     'module.3.weight': [-0.12803393602371216, 0.3394238352775574,
                                         -0.37186259031295776, 0.4975934624671936,
                                         -0.49434319138526917, 0.4166317284107208,
                                         -0.31835851073265076, 0.13521447777748108],
                     'module.3.bias': [-0.2675289213657379, 0.3716612756252289]},
             'swa_fn': {'n_averaged': [5.0],
                        'module.0.weight': [0.3218849003314972, 0.49270617961883545,
                                            0.4317929744720459, 0.16509494185447693,
                                            -0.17682591080665588, -0.43612921237945557,
                                            -0.49122822284698486, -0.3156301975250244,
                                            0.00841481238603592, 0.32858043909072876,
                                            0.4940907657146454, 0.4272249639034271],
                        'module.0.bias': [0.49272486567497253, 0.16749407351016998,
                                          -0.4357878863811493, -0.3156333267688751],
                        'module.1.weight': [0.4246080815792084, -0.45362287759780884,
                                            0.01741942949593067, 0.4412209987640381],
                        'module.1.bias': [0.16095906496047974, -0.2991093099117279,
                                          0.37709394097328186, -0.4791875183582306],
                        'module.1.running_mean': [0.18600548803806305, 0.0751967504620552,
                                                  -0.1692846119403839, -0.1450546532869339],
                        'module.1.running_var': [0.928723156452179, 0.6402741074562073,
                                                 0.7357934713363647, 0.9306182265281677],
                        'module.1.num_batches_tracked': [5.0],
                        'module.3.weight': [-0.1299891173839569, 0.3388420641422272,
                                            -0.3748968541622162, 0.4973648488521576,
                                            -0.49410688877105713, 0.4167494773864746,
                                            -0.3170206546783447, 0.13523663580417633],
                        'module.3.bias': [-0.2757855951786041, 0.3751882016658783]},
             'swa_multi': {'n_averaged': [5.0],
                           'module.0.weight': [0.3218849003314972, 0.49270617961883545,
                                               0.4317929744720459, 0.16509494185447693,
                                               -0.17682591080665588, -0.43612921237945557,
                                               -0.49122822284698486, -0.3156301975250244,
                                               0.00841481238603592, 0.32858043909072876,
                                               0.4940907657146454, 0.4272249639034271],
                           'module.0.bias': [0.49272486567497253, 0.16749407351016998,
                                             -0.4357878863811493, -0.3156333267688751],
                           'module.1.weight': [0.4246080815792084, -0.45362287759780884,
                                               0.01741942949593067, 0.4412209987640381],
                           'module.1.bias': [0.16095906496047974, -0.2991093099117279,
                                             0.37709394097328186, -0.4791875183582306],
                           'module.1.running_mean': [0.18600548803806305, 0.0751967504620552,
                                                     -0.1692846119403839, -0.1450546532869339],
                           'module.1.running_var': [0.928723156452179, 0.6402741074562073,
                                                    0.7357934713363647, 0.9306182265281677],
                           'module.1.num_batches_tracked': [5.0],
                           'module.3.weight': [-0.12998910248279572, 0.3388420641422272,
                                               -0.3748968541622162, 0.4973648488521576,
                                               -0.49410688877105713, 0.4167494773864746,
                                               -0.3170206546783447, 0.13523663580417633],
                           'module.3.bias': [-0.2757855951786041, 0.3751882016658783]},
             'ema_buffers': {'n_averaged': [5.0],
                             'module.0.weight': [0.3218206763267517, 0.49270081520080566,
                                                 0.4318469166755676, 0.1642131805419922,
                                                 -0.17735105752944946, -0.43625086545944214,
                                                 -0.4912298917770386, -0.31562742590904236,
                                                 0.008421769365668297, 0.3287455439567566,
                                                 0.49410325288772583, 0.42708370089530945],
                             'module.0.bias': [0.49272486567497253, 0.16749407351016998,
                                               -0.4357878863811493, -0.3156333267688751],
                             'module.1.weight': [0.42326784133911133, -0.4582984447479248,
                                                 0.019807085394859314, 0.44769638776779175],
                             'module.1.bias': [0.1600763201713562, -0.2948063015937805,
                                               0.36566218733787537, -0.4743536114692688],
                             'module.1.running_mean': [0.16068537533283234, 0.062320053577423096,
                                                       -0.14608529210090637, -0.11634965240955353],
                             'module.1.running_var': [0.9423699975013733, 0.6992533206939697,
                                                      0.7794040441513062, 0.9439541101455688],
                             'module.1.num_batches_tracked': [4.0],
                             'module.3.weight': [-0.11866296827793121, 0.34201037883758545,
                                                 -0.35795027017593384, 0.49843770265579224,
                                                 -0.4957452118396759, 0.41615259647369385,
                                                 -0.32377058267593384, 0.13512860238552094],
                             'module.3.bias': [-0.23133254051208496, 0.3578442335128784]}},
 'swalr': {'cos': [[1.0, 0.5], [0.9092830723281, 0.45702882373436315],
                   [0.6717830723281001, 0.34452882373436317],
                   [0.37821692767189996, 0.20547117626563682],
                   [0.14071692767189997, 0.09297117626563683], [0.05, 0.05], [0.05, 0.05],
                   [0.05, 0.05], [0.05, 0.05]],
           'linear': [[1.0, 0.5], [0.775, 0.38], [0.55, 0.26], [0.325, 0.14], [0.1, 0.02],
                      [0.1, 0.02], [0.1, 0.02], [0.1, 0.02]],
           'no_anneal': [[0.3, 0.3], [0.3, 0.3], [0.3, 0.3], [0.3, 0.3]],
           'linear_one': [[1.0, 0.5], [0.2, 0.2], [0.2, 0.2], [0.2, 0.2], [0.2, 0.2]]},
 'update_bn': [[0.4467041492462158, 0.19218677282333374, -0.4146992266178131, -0.36161908507347107],
               [0.8601850271224976, 0.12575048208236694, 0.3651125431060791, 0.8648473620414734], 5,
               0.1, False]}


if __name__ == "__main__":
    # prints the reference values, computed by PyTorch
    import pprint
    import torch
    ref = {"average": {kind: _train_and_average(torch, kind) for kind in KINDS},
           "swalr": {name: _swalr(torch, *case) for name, case in SWALR_CASES.items()},
           "update_bn": list(_update_bn(torch))}
    print("REF = " + pprint.pformat(ref, width=100, compact=True, sort_dicts=False))
    sys.exit(0)
