"""minitorch.optim.lr_scheduler: learning-rate sequences (two param groups, lr 0.1 and 0.03),
state_dict, resuming, the closed forms of step(epoch), warnings and argument checks.

SCHEDULES holds get_last_lr() after construction and after each of the following steps, as
computed by torch 2.15; the schedulers do the same float operations in the same order, so the
values are compared exactly (those with cosines to 1e-15, for other C libraries' cos)."""
import math
import pickle
import warnings

import pytest

import minitorch as torch
from minitorch.optim import SGD, Adam
from minitorch.optim import lr_scheduler as L


def _optimizer():
    a = torch.zeros(2, requires_grad=True)
    b = torch.zeros(3, requires_grad=True)
    return SGD([{"params": [a]}, {"params": [b], "lr": 0.03}], lr=0.1, momentum=0.9)


CASES = {
    "StepLR": (lambda o: L.StepLR(o, step_size=3, gamma=0.5), 12),
    "MultiStepLR": (lambda o: L.MultiStepLR(o, milestones=[2, 5, 5, 8], gamma=0.3), 10),
    "ExponentialLR": (lambda o: L.ExponentialLR(o, gamma=0.9), 30),
    "CosineAnnealingLR": (lambda o: L.CosineAnnealingLR(o, T_max=10, eta_min=0.001), 35),
    "CosineAnnealingLR_default": (lambda o: L.CosineAnnealingLR(o, T_max=7), 16),
    "LambdaLR": (lambda o: L.LambdaLR(o, lambda e: 0.95 ** e), 10),
    "LambdaLR_list": (lambda o: L.LambdaLR(o, [lambda e: 1.0 / (e + 1), lambda e: 0.5 * e]), 6),
    "MultiplicativeLR": (lambda o: L.MultiplicativeLR(o, lambda e: 0.9), 8),
    "LinearLR": (lambda o: L.LinearLR(o, start_factor=0.25, total_iters=4), 8),
    "LinearLR_default": (lambda o: L.LinearLR(o), 8),
    "ConstantLR": (lambda o: L.ConstantLR(o, factor=0.5, total_iters=3), 6),
    "PolynomialLR": (lambda o: L.PolynomialLR(o, total_iters=6, power=2.0), 9),
    "SequentialLR": (lambda o: L.SequentialLR(o, [L.LinearLR(o, start_factor=0.1, total_iters=3),
                                                  L.CosineAnnealingLR(o, T_max=5)],
                                              milestones=[3]), 12),
}

SCHEDULES = {
    'StepLR': [
        (0.1, 0.03), (0.1, 0.03), (0.1, 0.03), (0.05, 0.015), (0.05, 0.015), (0.05, 0.015),
        (0.025, 0.0075), (0.025, 0.0075), (0.025, 0.0075), (0.0125, 0.00375), (0.0125, 0.00375),
        (0.0125, 0.00375), (0.00625, 0.001875)],
    'MultiStepLR': [
        (0.1, 0.03), (0.1, 0.03), (0.03, 0.009), (0.03, 0.009), (0.03, 0.009),
        (0.0026999999999999997, 0.00081), (0.0026999999999999997, 0.00081),
        (0.0026999999999999997, 0.00081), (0.0008099999999999998, 0.00024299999999999997),
        (0.0008099999999999998, 0.00024299999999999997), (0.0008099999999999998,
        0.00024299999999999997)],
    'ExponentialLR': [
        (0.1, 0.03), (0.09000000000000001, 0.027), (0.08100000000000002, 0.0243),
        (0.07290000000000002, 0.02187), (0.06561000000000002, 0.019683000000000003),
        (0.05904900000000002, 0.017714700000000003), (0.05314410000000002, 0.015943230000000003),
        (0.04782969000000002, 0.014348907000000003), (0.043046721000000024, 0.012914016300000003),
        (0.03874204890000002, 0.011622614670000003), (0.03486784401000002, 0.010460353203000003),
        (0.03138105960900001, 0.009414317882700002), (0.028242953648100012, 0.008472886094430003),
        (0.025418658283290013, 0.007625597484987002), (0.022876792454961013,
        0.006863037736488302), (0.020589113209464913, 0.0061767339628394724),
        (0.01853020188851842, 0.005559060566555525), (0.01667718169966658, 0.005003154509899972),
        (0.015009463529699923, 0.004502839058909975), (0.013508517176729932,
        0.004052555153018977), (0.01215766545905694, 0.0036472996377170793),
        (0.010941898913151246, 0.0032825696739453717), (0.009847709021836121,
        0.0029543127065508345), (0.00886293811965251, 0.002658881435895751),
        (0.007976644307687259, 0.002392993292306176), (0.007178979876918534,
        0.0021536939630755585), (0.006461081889226681, 0.0019383245667680027),
        (0.005814973700304013, 0.0017444921100912025), (0.005233476330273611,
        0.0015700428990820822), (0.00471012869724625, 0.001413038609173874),
        (0.004239115827521626, 0.0012717347482564866)],
    'CosineAnnealingLR': [
        (0.1, 0.03), (0.09757729755661011, 0.029290319486279727), (0.0905463412215599,
        0.027230746418436737), (0.07959536998847742, 0.02402288615824086), (0.0657963412215599,
        0.019980746418436737), (0.0505, 0.0155), (0.03520365877844011, 0.011019253581563263),
        (0.02140463001152259, 0.00697711384175914), (0.010453658778440109, 0.003769253581563263),
        (0.0034227024433899004, 0.0017096805137202737), (0.001, 0.001), (0.0034227024433899004,
        0.0017096805137202737), (0.01045365877844014, 0.0037692535815632726),
        (0.02140463001152267, 0.006977113841759164), (0.035203658778440255, 0.011019253581563304),
        (0.05050000000000022, 0.015500000000000059), (0.06579634122156018, 0.019980746418436814),
        (0.07959536998847777, 0.024022886158240952), (0.09054634122156031, 0.027230746418436848),
        (0.09757729755661054, 0.029290319486279845), (0.10000000000000045, 0.03000000000000012),
        (0.09757729755661054, 0.029290319486279845), (0.09054634122156033, 0.027230746418436855),
        (0.07959536998847778, 0.02402288615824096), (0.0657963412215602, 0.019980746418436817),
        (0.050500000000000225, 0.015500000000000059), (0.03520365877844027, 0.011019253581563304),
        (0.021404630011522683, 0.006977113841759165), (0.010453658778440154,
        0.0037692535815632756), (0.003422702443389916, 0.001709680513720278), (0.001, 0.001),
        (0.0034227024433899004, 0.0017096805137202737), (0.010453658778440112,
        0.0037692535815632643), (0.021404630011522607, 0.006977113841759146),
        (0.03520365877844015, 0.011019253581563273), (0.050500000000000086, 0.015500000000000017)],
    'CosineAnnealingLR_default': [
        (0.1, 0.03), (0.09504844339512096, 0.028514533018536285), (0.08117449009293669,
        0.024352347027881003), (0.061126046697815725, 0.018337814009344717), (0.03887395330218429,
        0.011662185990655285), (0.018825509907063328, 0.005647652972118998),
        (0.004951556604879048, 0.0014854669814637143), (0.0, 0.0), (0.004951556604879043,
        0.0014854669814637128), (0.018825509907063314, 0.005647652972118994),
        (0.03887395330218427, 0.011662185990655282), (0.06112604669781568, 0.018337814009344703),
        (0.08117449009293667, 0.024352347027881003), (0.09504844339512099, 0.028514533018536296),
        (0.10000000000000002, 0.030000000000000006), (0.09504844339512099, 0.0285145330185363),
        (0.0811744900929367, 0.024352347027881013)],
    'LambdaLR': [
        (0.1, 0.03), (0.095, 0.028499999999999998), (0.09025, 0.027075), (0.0857375,
        0.025721249999999994), (0.081450625, 0.024435187499999997), (0.07737809374999999,
        0.02321342812499999), (0.07350918906249998, 0.022052756718749993), (0.06983372960937498,
        0.02095011888281249), (0.06634204312890622, 0.019902612938671866), (0.0630249409724609,
        0.018907482291738272), (0.05987369392383787, 0.01796210817715136)],
    'LambdaLR_list': [
        (0.1, 0.0), (0.05, 0.015), (0.03333333333333333, 0.03), (0.025, 0.045),
        (0.020000000000000004, 0.06), (0.016666666666666666, 0.075), (0.014285714285714285, 0.09)],
    'MultiplicativeLR': [
        (0.1, 0.03), (0.09000000000000001, 0.027), (0.08100000000000002, 0.0243),
        (0.07290000000000002, 0.02187), (0.06561000000000002, 0.019683000000000003),
        (0.05904900000000002, 0.017714700000000003), (0.05314410000000002, 0.015943230000000003),
        (0.04782969000000002, 0.014348907000000003), (0.043046721000000024, 0.012914016300000003)],
    'LinearLR': [
        (0.025, 0.0075), (0.043750000000000004, 0.013125), (0.06250000000000001, 0.01875),
        (0.08125000000000002, 0.024375), (0.10000000000000002, 0.030000000000000002),
        (0.10000000000000002, 0.030000000000000002), (0.10000000000000002, 0.030000000000000002),
        (0.10000000000000002, 0.030000000000000002), (0.10000000000000002, 0.030000000000000002)],
    'LinearLR_default': [
        (0.03333333333333333, 0.009999999999999998), (0.04666666666666667, 0.013999999999999999),
        (0.060000000000000005, 0.018), (0.07333333333333335, 0.022), (0.08666666666666668, 0.026),
        (0.1, 0.029999999999999995), (0.1, 0.029999999999999995), (0.1, 0.029999999999999995),
        (0.1, 0.029999999999999995)],
    'ConstantLR': [
        (0.05, 0.015), (0.05, 0.015), (0.05, 0.015), (0.1, 0.03), (0.1, 0.03), (0.1, 0.03), (0.1,
        0.03)],
    'PolynomialLR': [
        (0.1, 0.03), (0.06944444444444446, 0.020833333333333336), (0.04444444444444447,
        0.013333333333333338), (0.02500000000000001, 0.007500000000000001), (0.011111111111111117,
        0.0033333333333333344), (0.0027777777777777775, 0.0008333333333333331), (0.0, 0.0), (0.0,
        0.0), (0.0, 0.0), (0.0, 0.0)],
    'SequentialLR': [
        (0.010000000000000002, 0.003), (0.04, 0.011999999999999999), (0.07, 0.020999999999999998),
        (0.1, 0.03), (0.09045084971874738, 0.02713525491562421), (0.06545084971874737,
        0.01963525491562421), (0.03454915028125263, 0.010364745084375787), (0.009549150281252633,
        0.002864745084375789), (0.0, 0.0), (0.009549150281252628, 0.002864745084375788),
        (0.03454915028125265, 0.010364745084375793), (0.06545084971874741, 0.01963525491562422),
        (0.09045084971874744, 0.027135254915624227)],
    'ReduceLROnPlateau': [
        (0.1, 0.03), (0.1, 0.03), (0.1, 0.03), (0.1, 0.03), (0.05, 0.015), (0.05, 0.015), (0.05,
        0.015), (0.05, 0.015), (0.05, 0.015), (0.05, 0.015), (0.05, 0.015), (0.025, 0.0075),
        (0.025, 0.0075), (0.025, 0.0075)],
}

PLATEAU_METRICS = [5, 4, 4, 4, 4, 4, 4, 3.9999, 3, 3, 3, 3, 3, 3]


def _check(name, got, want):
    assert len(got) == len(want)
    if "Cosine" in name or "Sequential" in name:
        for g, w in zip(got, want):
            assert g == pytest.approx(w, rel=1e-15, abs=1e-18)
    else:
        assert got == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_schedule_matches_torch(name):
    make, steps = CASES[name]
    opt = _optimizer()
    sched = make(opt)
    got = [tuple(sched.get_last_lr())]
    for _ in range(steps):
        opt.step()
        sched.step()
        got.append(tuple(sched.get_last_lr()))
        assert [g["lr"] for g in opt.param_groups] == list(got[-1])
    _check(name, got, SCHEDULES[name])


def test_reduce_lr_on_plateau_matches_torch():
    opt = _optimizer()
    sched = L.ReduceLROnPlateau(opt, factor=0.5, patience=2, cooldown=1)
    got = []
    for m in PLATEAU_METRICS:
        opt.step()
        sched.step(m)
        got.append(tuple(sched.get_last_lr()))
    assert got == SCHEDULES["ReduceLROnPlateau"]
    assert sched.last_epoch == len(PLATEAU_METRICS)
    assert sched.best == 3


def test_reduce_lr_on_plateau_modes_and_min_lr():
    opt = _optimizer()
    sched = L.ReduceLROnPlateau(opt, mode="max", factor=0.1, patience=0, threshold=0.5,
                                threshold_mode="abs", min_lr=[0.05, 0.0])
    sched.step(1.0)   # better than -inf
    sched.step(1.4)   # not better by 0.5: reduce
    assert sched.get_last_lr() == [0.05, pytest.approx(0.003)]
    sched.step(2.0)   # better
    assert sched.get_last_lr() == [0.05, pytest.approx(0.003)]
    with pytest.raises(ValueError, match=r"^Factor should be < 1\.0\.$"):
        L.ReduceLROnPlateau(opt, factor=1.0)
    with pytest.raises(ValueError, match="^mode avg is unknown!$"):
        L.ReduceLROnPlateau(opt, mode="avg")
    with pytest.raises(ValueError, match="^threshold mode x is unknown!$"):
        L.ReduceLROnPlateau(opt, threshold_mode="x")
    with pytest.raises(ValueError, match="^expected 2 min_lrs, got 1$"):
        L.ReduceLROnPlateau(opt, min_lr=[0.1])


def test_construction_sets_initial_lr_and_base_lrs():
    opt = _optimizer()
    sched = L.StepLR(opt, step_size=2)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.03]
    assert sched.base_lrs == [0.1, 0.03]
    assert sched.last_epoch == 0 and sched.get_last_lr() == [0.1, 0.03]
    assert sched.optimizer is opt
    # a second scheduler on the same optimizer keeps the first initial_lr
    opt.param_groups[0]["lr"] = 0.5
    other = L.ExponentialLR(opt, gamma=0.5)
    assert other.base_lrs == [0.1, 0.03]


def test_state_dict_and_resuming():
    opt = _optimizer()
    sched = L.CosineAnnealingLR(opt, T_max=10, eta_min=0.001)
    for _ in range(4):
        opt.step()
        sched.step()
    sd = sched.state_dict()
    assert sd == {"T_max": 10, "eta_min": 0.001, "base_lrs": [0.1, 0.03], "last_epoch": 4,
                  "_step_count": 5, "_is_initial": False, "_get_lr_called_within_step": False,
                  "_last_lr": sched.get_last_lr()}
    sd = pickle.loads(pickle.dumps(sd))
    opt_sd = opt.state_dict()
    expected = []
    for _ in range(6):
        opt.step()
        sched.step()
        expected.append(sched.get_last_lr())

    opt2 = _optimizer()
    opt2.load_state_dict(opt_sd)
    sched2 = L.CosineAnnealingLR(opt2, T_max=10, eta_min=0.001, last_epoch=3)
    sched2.load_state_dict(sd)
    got = []
    for _ in range(6):
        opt2.step()
        sched2.step()
        got.append(sched2.get_last_lr())
    assert got == expected


def test_lambda_state_dict_keeps_callable_objects_state():
    class Decay:
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, epoch):
            return self.rate ** epoch

    opt = _optimizer()
    sched = L.LambdaLR(opt, [lambda e: 1.0, Decay(0.5)])
    sd = sched.state_dict()
    assert sd["lr_lambdas"] == [None, {"rate": 0.5}]
    assert "optimizer" not in sd
    sched2 = L.LambdaLR(_optimizer(), [lambda e: 1.0, Decay(0.9)])
    sched2.load_state_dict(sd)
    assert sched2.lr_lambdas[1].rate == 0.5
    assert "lr_lambdas" in sd


def test_resuming_with_last_epoch_needs_initial_lr():
    with pytest.raises(KeyError, match=r"param 'initial_lr' is not specified in param_groups\[0\] "
                                       "when resuming scheduler with last_epoch >= 0"):
        L.StepLR(_optimizer(), step_size=2, last_epoch=3)


def test_resuming_cosine_with_last_epoch_continues_from_the_current_lr():
    opt = _optimizer()
    for g in opt.param_groups:
        g["initial_lr"] = g["lr"]
    opt.param_groups[0]["lr"] = 0.5
    sched = L.CosineAnnealingLR(opt, T_max=10, eta_min=0.01, last_epoch=3)
    assert sched.last_epoch == 4 and sched.get_last_lr() == [0.5, 0.03]
    assert sched.base_lrs == [0.1, 0.03]
    opt.step()
    sched.step()
    ratio = (1 + math.cos(math.pi * 5 / 10)) / (1 + math.cos(math.pi * 4 / 10))
    assert sched.get_last_lr() == [ratio * (lr - 0.01) + 0.01 for lr in (0.5, 0.03)]


def test_step_with_epoch_uses_the_closed_form_and_warns():
    opt = _optimizer()
    sched = L.StepLR(opt, step_size=3, gamma=0.5)
    opt.step()
    with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not "
                                         "necessary and is being deprecated"):
        sched.step(7)
    assert sched.last_epoch == 7
    assert sched.get_last_lr() == [0.1 * 0.5 ** 2, 0.03 * 0.5 ** 2]
    sched2 = L.MultiStepLR(_optimizer(), milestones=[2, 4, 4])
    with pytest.warns(UserWarning):
        sched2.step(4)
    assert sched2.get_last_lr() == [0.1 * 0.1 ** 3, 0.03 * 0.1 ** 3]


def test_warning_when_scheduler_steps_before_optimizer():
    opt = _optimizer()
    sched = L.StepLR(opt, step_size=1)
    with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before "
                                         r"`optimizer.step\(\)`"):
        sched.step()

    opt = _optimizer()
    sched = L.StepLR(opt, step_size=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()
        opt.step()
        sched.step()


def test_warning_when_optimizer_step_is_replaced():
    opt = _optimizer()
    sched = L.ExponentialLR(opt, gamma=0.5)
    opt.step = lambda closure=None: None
    with pytest.warns(UserWarning, match=r"Seems like `optimizer.step\(\)` has been overridden "
                                         "after learning rate scheduler initialization"):
        sched.step()


def test_get_lr_outside_step_warns():
    sched = L.StepLR(_optimizer(), step_size=2)
    with pytest.warns(UserWarning, match=r"To get the last learning rate computed by the "
                                         r"scheduler, please use `get_last_lr\(\)`\."):
        sched.get_lr()


def test_optimizer_keeps_working_and_pickles_after_scheduler_wraps_step():
    p = torch.ones(1, requires_grad=True)
    opt = Adam([p], lr=0.1)
    sched = L.ExponentialLR(opt, gamma=0.5)
    p.grad = torch.ones(1)
    assert opt.step(lambda: 3.0) == 3.0
    sched.step()
    assert opt.param_groups[0]["lr"] == 0.05
    assert opt.state[p]["step"].item() == 1.0
    assert "lr_scheduler" not in str(type(pickle.loads(pickle.dumps(opt))))


def test_argument_checks():
    opt = _optimizer()
    with pytest.raises(TypeError, match="^int is not an Optimizer$"):
        L.StepLR(3, step_size=1)
    with pytest.raises(ValueError, match="^Expected 2 lr_lambdas, but got 1$"):
        L.LambdaLR(opt, [lambda e: 1.0])
    with pytest.raises(TypeError, match="^lr_lambda should be a function, but got float$"):
        L.MultiplicativeLR(opt, [lambda e: 1.0, 0.5])
    with pytest.raises(ValueError, match="^Starting multiplicative factor expected to be greater "
                                         "than 0 and less or equal to 1.$"):
        L.LinearLR(opt, start_factor=0)
    with pytest.raises(ValueError, match="^Ending multiplicative factor expected to be between 0 "
                                         "and 1.$"):
        L.LinearLR(opt, end_factor=1.5)
    with pytest.raises(ValueError, match="^Constant multiplicative factor expected to be between 0 "
                                         "and 1.$"):
        L.ConstantLR(opt, factor=2)
    with pytest.raises(ValueError, match="^Sequential Schedulers expects number of schedulers "
                                         "provided to be one more than the number of milestone "
                                         "points, but got number of schedulers 1 and the number "
                                         "of milestones to be equal to 1$"):
        L.SequentialLR(opt, [L.StepLR(opt, 2)], milestones=[3])
    with pytest.raises(NotImplementedError):
        L.LRScheduler(opt)


def test_custom_scheduler_subclass():
    class Halving(L.LRScheduler):
        def get_lr(self):
            return [base * 0.5 ** self.last_epoch for base in self.base_lrs]

    opt = _optimizer()
    sched = Halving(opt)
    opt.step()
    sched.step()
    sched.step()
    assert sched.get_last_lr() == [0.025, 0.0075]
    assert issubclass(L._LRScheduler, L.LRScheduler)
