"""minitorch.optim: Rprop, ASGD, Adafactor and SparseAdam against PyTorch.

The expected values are PyTorch 2.15's (CPU), from running this file's scenarios with torch in
place of minitorch (``python tests/test_optim_extra.py`` with torch importable prints them):
parameters after 20 steps of each optimizer on test_optim's fixed problem (exact binary
fractions), the state_dict layouts, and torch's errors for bad arguments."""
import copy
import io
import sys

import numpy as np
import pytest

import minitorch

from test_optim import _grad_values, _init_values  # the same fixed problem


def _flat(ps):
    return [x for p in ps for x in p.detach().reshape(-1).tolist()]


SCENARIOS = {
    "rprop": ("Rprop", dict()),
    "rprop_lr": ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2))),
    "rprop_maximize": ("Rprop", dict(lr=0.02, maximize=True)),
    "asgd": ("ASGD", dict()),
    "asgd_averaging": ("ASGD", dict(lr=0.05, lambd=1e-2, alpha=0.5, t0=5, weight_decay=0.1)),
    "asgd_maximize": ("ASGD", dict(lr=0.02, t0=3, maximize=True)),
    "adafactor": ("Adafactor", dict()),
    "adafactor_options": ("Adafactor", dict(lr=0.05, beta2_decay=-0.5, eps=(1e-20, 1e-2), d=2.0,
                                            weight_decay=0.1)),
    "adafactor_maximize": ("Adafactor", dict(lr=0.02, maximize=True)),
}


def _run(mod, name, dtype, steps=20, start=None):
    """``steps`` steps of scenario ``name`` with module ``mod`` (minitorch or torch); ``start``:
    (parameter values, optimizer state_dict) to resume from."""
    cls, kw = SCENARIOS[name]
    dt = getattr(mod, dtype)
    values = _init_values() if start is None else start[0]
    ps = [mod.tensor(v, dtype=dt, requires_grad=True) for v in values]
    opt = getattr(mod.optim, cls)(ps, **kw)
    first = 0
    if start is not None:
        opt.load_state_dict(start[1])
        first = int(start[1]["state"][0]["step"].item())
    for s in range(first, first + steps):
        for p, g in zip(ps, _grad_values(s)):
            p.grad = mod.tensor(g, dtype=dt)
        opt.step()
    return ps, opt


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_float32_matches_torch(name):
    ps, _ = _run(minitorch, name, "float32")
    assert ps[0].dtype == minitorch.float32
    np.testing.assert_allclose(_flat(ps), EXPECTED_FLOAT32[name], rtol=4e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_float64_matches_torch(name):
    ps, _ = _run(minitorch, name, "float64")
    np.testing.assert_allclose(_flat(ps), EXPECTED_FLOAT64[name], rtol=1e-13, atol=1e-14)


def _state_layout(mod, cls):
    """The state_dict of a two-parameter optimizer after one step: (group keys in order, the
    state keys of the first parameter, their dtypes, whether the second one has state)."""
    ps = [mod.tensor([[1.0, 2.0]], requires_grad=True), mod.tensor([3.0], requires_grad=True)]
    opt = getattr(mod.optim, cls)(ps)
    ps[0].grad = mod.tensor([[0.5, -0.25]])
    opt.step()
    sd = opt.state_dict()
    state = sd["state"][0]
    return (list(sd["param_groups"][0]), list(state),
            [str(v.dtype).split(".")[-1] for v in state.values()], 1 in sd["state"])


@pytest.mark.parametrize("cls", ["Rprop", "ASGD", "Adafactor"])
def test_state_dict_layout_matches_torch(cls):
    assert _state_layout(minitorch, cls) == tuple(STATE_LAYOUTS[cls])


@pytest.mark.parametrize("name", ["rprop_lr", "asgd_averaging", "adafactor_options"])
@pytest.mark.parametrize("how", ["save", "deepcopy"])
def test_resuming_from_a_state_dict_gives_the_same_trajectory(name, how):
    straight, _ = _run(minitorch, name, "float32", steps=20)
    ps, opt = _run(minitorch, name, "float32", steps=7)
    ckpt = {"params": [p.tolist() for p in ps], "optim": opt.state_dict()}
    if how == "save":
        buf = io.BytesIO()
        minitorch.save(ckpt, buf)
        buf.seek(0)
        ckpt = minitorch.load(buf)
    else:
        ckpt = copy.deepcopy(ckpt)
    resumed, opt = _run(minitorch, name, "float32", steps=13,
                        start=(ckpt["params"], ckpt["optim"]))
    assert opt.state[resumed[0]]["step"].item() == 20.0
    assert [p.tolist() for p in resumed] == [p.tolist() for p in straight]


def test_asgd_counters_saved_as_numbers_are_loaded_as_tensors():
    ps, opt = _run(minitorch, "asgd_averaging", "float64", steps=3)
    sd = copy.deepcopy(opt.state_dict())
    for state in sd["state"].values():
        for key in ("step", "eta", "mu"):
            state[key] = state[key].item()
    fresh = minitorch.optim.ASGD([p.detach().clone().requires_grad_() for p in ps])
    fresh.load_state_dict(sd)
    for p, q in zip(ps, fresh.param_groups[0]["params"]):
        for key, value in opt.state[p].items():
            loaded = fresh.state[q][key]
            assert isinstance(loaded, minitorch.Tensor) and loaded.dtype == value.dtype
            assert loaded.tolist() == value.tolist()


def test_asgd_average_follows_the_parameters_until_t0():
    ps, opt = _run(minitorch, "asgd_averaging", "float64", steps=5)
    for p in ps:
        assert opt.state[p]["ax"].tolist() == p.tolist()
    ps, opt = _run(minitorch, "asgd_averaging", "float64", steps=9)
    assert opt.state[ps[0]]["ax"].tolist() != ps[0].tolist()
    assert opt.state[ps[0]]["mu"].item() == 1 / 4


@pytest.mark.parametrize("cls", ["Rprop", "ASGD"])
def test_complex_parameters_are_updated_as_pairs_of_reals(cls):
    z = minitorch.tensor([1 + 2j, -0.5 + 0.25j], requires_grad=True)
    r = minitorch.view_as_real(z.detach()).clone().requires_grad_()
    oz, orr = getattr(minitorch.optim, cls)([z]), getattr(minitorch.optim, cls)([r])
    for g in ([0.5 - 1j, 2 + 0.5j], [-0.25 + 1j, 1 - 2j], [0.5 + 0.5j, -1 + 1j]):
        z.grad = minitorch.tensor(g)
        r.grad = minitorch.view_as_real(minitorch.tensor(g)).clone()
        oz.step()
        orr.step()
    np.testing.assert_allclose(minitorch.view_as_real(z.detach()).numpy(), r.detach().numpy(),
                               rtol=1e-6)


def test_adafactor_refuses_complex_parameters():
    z = minitorch.tensor([1 + 2j], requires_grad=True)
    z.grad = minitorch.tensor([1j])
    with pytest.raises(RuntimeError, match="Adafactor does not support complex parameters"):
        minitorch.optim.Adafactor([z]).step()


def test_adafactor_factors_the_second_moment_of_matrices():
    p = minitorch.zeros(2, 3, 4, requires_grad=True)
    v = minitorch.zeros(5, requires_grad=True)
    opt = minitorch.optim.Adafactor([p, v])
    p.grad, v.grad = minitorch.ones(2, 3, 4), minitorch.ones(5)
    opt.step()
    assert opt.state[p]["row_var"].shape == (2, 3, 1)
    assert opt.state[p]["col_var"].shape == (2, 1, 4)
    assert "variance" not in opt.state[p] and opt.state[v]["variance"].shape == (5,)


def test_sparse_adam_refuses_dense_gradients_as_torch():
    p = minitorch.ones(3, requires_grad=True)
    opt = minitorch.optim.SparseAdam([p], lr=0.1)
    assert opt.step() is None  # no gradient yet: nothing to refuse
    p.grad = minitorch.ones(3)
    with pytest.raises(RuntimeError) as info:
        opt.step()
    assert str(info.value) == ("SparseAdam does not support dense gradients, please consider "
                               "Adam instead")
    assert p.tolist() == [1.0, 1.0, 1.0] and len(opt.state) == 0
    assert list(opt.param_groups[0]) == ["params", "lr", "betas", "eps", "maximize"]


def test_training_with_a_closure():
    for cls, kw in [("Rprop", {}), ("ASGD", dict(lr=0.1)), ("Adafactor", dict(lr=0.1))]:
        minitorch.manual_seed(0)
        w = minitorch.randn(3, 2, requires_grad=True)
        x, y = minitorch.randn(16, 3), minitorch.randn(16, 2)
        opt = getattr(minitorch.optim, cls)([w], **kw)

        def closure():
            opt.zero_grad()
            loss = ((x @ w - y) ** 2).mean()
            loss.backward()
            return loss

        first = closure().item()
        for _ in range(30):
            loss = opt.step(closure)
        assert loss.item() < first


def _p(mod):
    return mod.ones(1, requires_grad=True)


BAD_ARGUMENTS = [
    (lambda m: m.optim.Rprop([_p(m)], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    (lambda m: m.optim.Rprop([_p(m)], etas=(1.5, 1.2)), ValueError, "Invalid eta values: 1.5, 1.2"),
    (lambda m: m.optim.Rprop([_p(m)], etas=(0.5, 0.9)), ValueError, "Invalid eta values: 0.5, 0.9"),
    (lambda m: m.optim.Rprop([_p(m)], lr=m.tensor([0.1, 0.2])), ValueError,
     "Tensor lr must be 1-element"),
    (lambda m: m.optim.ASGD([_p(m)], lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
    (lambda m: m.optim.ASGD([_p(m)], lambd=-1), ValueError, "Invalid lambd value: -1"),
    (lambda m: m.optim.ASGD([_p(m)], alpha=-0.5), ValueError, "Invalid alpha value: -0.5"),
    (lambda m: m.optim.ASGD([_p(m)], weight_decay=-1), ValueError,
     "Invalid weight_decay value: -1"),
    (lambda m: m.optim.Adafactor([_p(m)], lr=-1), ValueError,
     "Learning rate should be >= 0 but is: -1"),
    (lambda m: m.optim.Adafactor([_p(m)], beta2_decay=0.5), ValueError,
     "beta2_decay should be <= 0 but is: 0.5"),
    (lambda m: m.optim.Adafactor([_p(m)], eps=(-1.0, 1e-3)), ValueError,
     "epsilon1 should be >= 0 but is: -1.0"),
    (lambda m: m.optim.Adafactor([_p(m)], eps=(None, -1e-3)), ValueError,
     "epsilon2 should be >= 0 but is: -0.001"),
    (lambda m: m.optim.Adafactor([_p(m)], d=0.5), ValueError,
     "Clipping threshold d should be >= 1 but is: 0.5"),
    (lambda m: m.optim.Adafactor([_p(m)], weight_decay=-0.1), ValueError,
     "weight_decay should be >= 0 but is: -0.1"),
    (lambda m: m.optim.SparseAdam([_p(m)], lr=0.0), ValueError, "Invalid learning rate: 0.0"),
    (lambda m: m.optim.SparseAdam([_p(m)], eps=0.0), ValueError, "Invalid epsilon value: 0.0"),
    (lambda m: m.optim.SparseAdam([_p(m)], betas=(0.9, 1.0)), ValueError,
     "Invalid beta parameter at index 1: 1.0"),
    (lambda m: m.optim.SparseAdam([m.ones(1, dtype=m.complex64, requires_grad=True)]),
     ValueError, "Complex params at indices [[0, 0]]: SparseAdam does not support complex "
                 "parameters"),
]


@pytest.mark.parametrize("index", range(len(BAD_ARGUMENTS)))
def test_bad_arguments_raise_as_torch(index):
    make, exc, message = BAD_ARGUMENTS[index]
    with pytest.raises(exc) as info:
        make(minitorch)
    assert str(info.value) == message


def test_muon_is_not_implemented():
    with pytest.raises(NotImplementedError, match="has no attribute 'Muon'"):
        minitorch.optim.Muon
    assert not hasattr(minitorch.optim, "Muon")


# ---- PyTorch 2.15's values ----------------------------------------------------------------------

EXPECTED_FLOAT32 = {'adafactor': [-0.2841631770133972, 1.4745076894760132, -1.7517277002334595, 1.021578311920166,
               0.0869322195649147, -0.1888050138950348, -0.36604344844818115, -1.4504930973052979,
               -0.16116420924663544, 1.5702871084213257, 0.16800542175769806, 1.9528254270553589,
               1.8526737689971924, -1.3872774839401245, -0.8992403745651245, 2.023407459259033,
               0.31457996368408203],
 'adafactor_maximize': [-0.42397043108940125, 1.4793927669525146, -1.7213140726089478,
                        0.9260938763618469, 0.036512576043605804, -0.16288939118385315,
                        -0.4055044651031494, -1.583554983139038, -0.21527785062789917,
                        1.691480040550232, 0.14646701514720917, 1.7346020936965942,
                        1.2991482019424438, -1.3734204769134521, -1.0400861501693726,
                        1.7738680839538574, 0.7390146255493164],
 'adafactor_options': [-0.04663757607340813, 1.324542760848999, -1.6151741743087769,
                       1.0685104131698608, 0.12862399220466614, -0.26836732029914856,
                       -0.2928216755390167, -1.1274394989013672, -0.03937152773141861,
                       1.2418091297149658, 0.208302840590477, 2.070284366607666, 2.4231178760528564,
                       -1.2640621662139893, -0.6146751642227173, 2.181095838546753,
                       -0.27620697021484375],
 'asgd': [-0.2666350305080414, 1.4821377992630005, -1.7204527854919434, 1.0222833156585693,
          0.09003721922636032, -0.18009407818317413, -0.367687851190567, -1.4414745569229126,
          -0.14847338199615479, 1.576432704925537, 0.1637077033519745, 1.9731639623641968,
          1.8149641752243042, -1.3880571126937866, -0.9193561673164368, 2.018845558166504,
          0.3575507402420044],
 'asgd_averaging': [0.014867945574223995, 1.3487319946289062, -1.4516704082489014,
                    1.032664179801941, 0.14805853366851807, -0.1695653349161148,
                    -0.2902970314025879, -1.0777950286865234, -0.007621522061526775,
                    1.28072988986969, 0.16647066175937653, 2.1270751953125, 2.216775417327881,
                    -1.2614625692367554, -0.7181398868560791, 2.1118552684783936,
                    -0.09294506162405014],
 'asgd_maximize': [-0.462794691324234, 1.4652917385101318, -1.785514235496521, 0.9260559678077698,
                   0.030858201906085014, -0.1788596659898758, -0.40131187438964844,
                   -1.605209469795227, -0.24210022389888763, 1.6809872388839722, 0.15304034948349,
                   1.690243124961853, 1.362129807472229, -1.372210144996643, -1.0030062198638916,
                   1.7805126905441284, 0.6676703691482544],
 'rprop': [-0.3246762752532959, 1.449350118637085, -1.6334930658340454, 1.0333318710327148,
           0.08852344006299973, -0.19680050015449524, -0.37724077701568604, -1.36663019657135,
           -0.1816762536764145, 1.5513120889663696, 0.15101248025894165, 1.9032108783721924,
           1.9081679582595825, -1.3887102603912354, -0.9207209348678589, 2.0116875171661377,
           0.46032464504241943],
 'rprop_lr': [-0.29138121008872986, 1.3312873840332031, -1.262265682220459, 1.2128450870513916,
              0.14196249842643738, -0.2838749587535858, -0.39399799704551697, -0.6898438930511475,
              -0.21133749186992645, 1.2658424377441406, 0.12274375557899475, 1.973181128501892,
              3.5170481204986572, -1.4030436277389526, -0.8106918334960938, 2.4840869903564453,
              0.4286673665046692],
 'rprop_maximize': [-0.34674128890037537, 1.5309875011444092, -1.959576964378357,
                    0.9040393829345703, 0.033890627324581146, -0.14546149969100952,
                    -0.38223719596862793, -1.7550212144851685, -0.17571000754833221,
                    1.7313601970672607, 0.17844374477863312, 1.8302968740463257, 1.1758517026901245,
                    -1.3710169792175293, -1.0003548860549927, 1.7949844598770142,
                    0.46216315031051636]}

EXPECTED_FLOAT64 = {'adafactor': [-0.28416321922623, 1.4745076378969688, -1.7517279355954047, 1.021578282130281,
               0.08693220477663684, -0.18880497869375987, -0.36604345605865474, -1.4504933438361474,
               -0.16116422589930976, 1.5702869040297749, 0.16800542777316774, 1.952825077793994,
               1.8526738940951684, -1.387277502807019, -0.8992403328762395, 2.0234076820084748,
               0.3145799681065459],
 'adafactor_maximize': [-0.4239703714896036, 1.4793928112501853, -1.7213136827018949,
                        0.9260938115678081, 0.03651258062463456, -0.16288937589491229,
                        -0.40550446121486416, -1.5835552501828298, -0.21527783008569268,
                        1.691480079317142, 0.14646700669665771, 1.7346019123351268,
                        1.2991482050073095, -1.373420460264923, -1.0400860772117078,
                        1.7738684101201367, 0.7390146071973782],
 'adafactor_options': [-0.046637624420548925, 1.3245422635297646, -1.6151741399691055,
                       1.068510118135197, 0.12862401183041353, -0.2683672865504029,
                       -0.292821661638321, -1.127439410729172, -0.03937149087308962,
                       1.241809193227251, 0.2083028231767936, 2.0702844484593825,
                       2.4231179328453405, -1.2640618236324948, -0.614675146311335,
                       2.181096090539105, -0.2762070800679264],
 'asgd': [-0.2666350432629322, 1.482138340101031, -1.7204537404846423, 1.0222842875896223,
          0.09003724605663752, -0.18009412224429155, -0.36768795815282107, -1.4414748601666714,
          -0.14847343486021577, 1.5764332248589688, 0.1637077371439862, 1.973163951312032,
          1.8149643208481616, -1.388058172607694, -0.919356537978679, 2.0188465882482864,
          0.357550931583452],
 'asgd_averaging': [0.014867984707838627, 1.3487322821486458, -1.4516706750406703,
                    1.0326644622998344, 0.14805851381551793, -0.16956531824790022,
                    -0.2902970415122208, -1.0777952029088, -0.0076215092831855135,
                    1.2807296864745106, 0.16647065828362953, 2.127075324106413, 2.2167751489948144,
                    -1.2614625902191796, -0.7181398097474181, 2.1118550698445913,
                    -0.09294510896484931],
 'asgd_maximize': [-0.4627949710403703, 1.4652928905135005, -1.7855150558332182, 0.9260565295590107,
                   0.03085821000126518, -0.17885975959009692, -0.40131206678530534,
                   -1.6052101137982444, -0.2421003268177065, 1.6809878197189139,
                   0.15304045949091502, 1.6902437262109906, 1.3621305294154233, -1.3722107547404987,
                   -1.0030070589733577, 1.7805137196735263, 0.6676706512434974],
 'rprop': [-0.32467625000000006, 1.44935, -1.6334928413412046, 1.0333318749999998, 0.0885234375,
           -0.19680050000000002, -0.37724079080000006, -1.3666300243332046, -0.18167624999999998,
           1.551312125, 0.1510125, 1.9032109375, 1.9081678236187956, -1.3887102510399998,
           -0.9207209081999999, 2.011687525, 0.4603246860992],
 'rprop_lr': [-0.29138125000000004, 1.3312875000000002, -1.2622656250000004, 1.212845,
              0.14196250000000002, -0.28387499999999993, -0.393998021484375, -0.6898437500000001,
              -0.21133749999999998, 1.2658425000000002, 0.12274374999999998, 1.97318125,
              3.5170478515625008, -1.4030435927734373, -0.8106918886718749, 2.48408671875,
              0.42866738281250005],
 'rprop_maximize': [-0.34674125000000006, 1.5309875, -1.959576817317591, 0.904039375,
                    0.033890624999999994, -0.1454615, -0.38223716840000005, -1.7550212013335909,
                    -0.17571, 1.731360125, 0.17844374999999998, 1.8302968750000002,
                    1.1758518527624087, -1.37101699792, -1.0003550586, 1.7949843250000002,
                    0.4621631278016]}

STATE_LAYOUTS = {'ASGD': (['lr', 'lambd', 'alpha', 't0', 'weight_decay', 'foreach', 'maximize', 'differentiable',
           'capturable', 'params'],
          ['step', 'eta', 'mu', 'ax'], ['float32', 'float32', 'float32', 'float32'], False),
 'Adafactor': (['lr', 'beta2_decay', 'eps', 'd', 'weight_decay', 'foreach', 'maximize', 'params'],
               ['step', 'row_var', 'col_var'], ['float32', 'float32', 'float32'], False),
 'Rprop': (['lr', 'etas', 'step_sizes', 'foreach', 'maximize', 'differentiable', 'capturable',
            'params'],
           ['step', 'prev', 'step_size'], ['float32', 'float32', 'float32'], False)}


if __name__ == "__main__":
    # prints the expected values, computed by PyTorch
    import pprint
    import torch
    for dtype in ("float32", "float64"):
        values = {name: _flat(_run(torch, name, dtype)[0]) for name in sorted(SCENARIOS)}
        print(f"EXPECTED_{dtype.upper()} = " + pprint.pformat(values, width=100, compact=True)
              + "\n")
    layouts = {cls: _state_layout(torch, cls) for cls in ["Rprop", "ASGD", "Adafactor"]}
    print("STATE_LAYOUTS = " + pprint.pformat(layouts, width=100, compact=True))
    for make, exc, message in BAD_ARGUMENTS:
        with pytest.raises(exc) as info:
            make(torch)
        assert str(info.value) == message, (str(info.value), message)
    sys.exit(0)
