"""minitorch.optim: the Optimizer base class (param groups, state, zero_grad, state_dict /
load_state_dict, hooks, argument checks), SGD, Adam and AdamW.

The EXPECTED_* trajectories' end points were computed with torch 2.15 (CPU) from the same
inputs (exact binary fractions, see _values).  torch's CPU kernels for add(alpha=) and lerp use
fused multiply-adds and minitorch's do not, so results agree to a few float32 (float64) units
in the last place rather than bit for bit; every step is also checked against a NumPy version
of the update rules in float64."""
import copy
import io
import pickle
import subprocess
import sys

import numpy as np
import pytest

import minitorch as torch
from minitorch.optim import SGD, Adam, AdamW, Optimizer


def _values(seed, n):
    """n exact binary fractions in [-1000/512, 1000/512] from a linear congruential sequence."""
    out, x = [], seed
    for _ in range(n):
        x = (1103515245 * x + 12345) % 2 ** 31
        out.append(((x >> 16) % 2001 - 1000) / 512.0)
    return np.array(out)


def _init_values():
    return [_values(1, 5), _values(2, 12).reshape(3, 4)]


def _grad_values(step):
    return [_values(100 + step, 5), _values(200 + step, 12).reshape(3, 4)]


def _np(t):
    return np.array(t.tolist())


SCENARIOS = {
    "sgd": ("SGD", dict(lr=0.1)),
    "sgd_momentum": ("SGD", dict(lr=0.05, momentum=0.9)),
    "sgd_dampening": ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.3)),
    "sgd_nesterov": ("SGD", dict(lr=0.05, momentum=0.8, nesterov=True)),
    "sgd_weight_decay": ("SGD", dict(lr=0.05, momentum=0.9, weight_decay=0.01)),
    "sgd_maximize": ("SGD", dict(lr=0.05, momentum=0.5, maximize=True, weight_decay=0.1)),
    "sgd_all": ("SGD", dict(lr=0.02, momentum=0.7, weight_decay=0.05, nesterov=True,
                            maximize=True)),
    "adam": ("Adam", dict(lr=1e-2)),
    "adam_defaults": ("Adam", dict()),
    "adam_weight_decay": ("Adam", dict(lr=1e-2, weight_decay=0.1)),
    "adam_amsgrad": ("Adam", dict(lr=1e-2, amsgrad=True, betas=(0.3, 0.99))),
    "adam_maximize": ("Adam", dict(lr=1e-2, maximize=True, eps=1e-6)),
    "adamw": ("AdamW", dict(lr=1e-2)),
    "adamw_amsgrad": ("AdamW", dict(lr=1e-2, amsgrad=True, weight_decay=0.3)),
}

# parameters after 20 steps (both parameters flattened and concatenated), from torch 2.15
EXPECTED_FLOAT32 = {
    'sgd': [
        0.32187504, 1.5326173, -1.5251955, 1.3109375, 0.26757818, -0.18378904, -0.26679683,
        -0.95019513, 0.1324219, 1.2626953, 0.19570312, 2.821875, 3.1734376, -1.4355469, -0.6683595,
        2.7337885, -0.57285154],
    'sgd_momentum': [
        1.546981, 1.8464247, -1.7505279, 2.4663527, 1.3987348, 0.3016644, 0.40100014, -0.4413632,
        0.10317861, 0.4278254, -0.25049186, 4.9695377, 5.312988, -1.7084665, -0.048644137,
        4.2480745, -1.4055045],
    'sgd_dampening': [
        1.071806, 1.6374154, -1.6322178, 2.0986638, 1.1775227, 0.07670815, 0.088793695, -0.5946222,
        -0.061717242, 0.7501929, -0.3792437, 4.2775655, 4.2414722, -1.5924981, -0.16536447,
        3.7104125, -0.8188074],
    'sgd_nesterov': [
        1.0368261, 1.724753, -1.5379529, 1.8658382, 0.7806955, -0.03573477, 0.046574555,
        -0.62306637, 0.14204796, 0.82631284, 0.04271822, 3.9910338, 4.5059013, -1.5427896,
        -0.34815907, 3.4955826, -1.2778966],
    'sgd_weight_decay': [
        1.5496573, 1.7620398, -1.6499574, 2.373257, 1.3632185, 0.2924725, 0.4136673, -0.38277215,
        0.1063628, 0.36002287, -0.24498427, 4.804991, 5.175477, -1.6169878, -0.015103479, 4.079695,
        -1.4336451],
    'sgd_maximize': [
        -0.8571643, 1.1065867, -1.6251868, 0.48894712, -0.1586848, -0.1558001, -0.45311293,
        -1.6827857, -0.32346255, 1.6710931, 0.116975196, 0.6676409, 0.07861833, -1.1042871,
        -1.053142, 0.9630106, 1.26433],
    'sgd_all': [
        -0.70568806, 1.3215517, -1.7329842, 0.7025871, -0.10306429, -0.18558714, -0.45802915,
        -1.6849437, -0.2824689, 1.7370296, 0.15872554, 1.1718655, 0.7147127, -1.2647796, -1.0619625,
        1.3832244, 0.9887758],
    'adam': [
        -0.2821595, 1.4645114, -1.7145219, 1.0502825, 0.12688892, -0.17561504, -0.3768147,
        -1.4337804, -0.17552376, 1.5588373, 0.13968235, 1.962418, 1.8271456, -1.4069462, -0.9068492,
        2.0340881, 0.4289319],
    'adam_defaults': [
        -0.32704404, 1.4753573, -1.7394209, 0.996239, 0.07597015, -0.17928025, -0.37869713,
        -1.4898623, -0.17927113, 1.6060791, 0.1581089, 1.8872576, 1.6803708, -1.3852258, -0.9432241,
        1.9489169, 0.45773685],
    'adam_weight_decay': [
        -0.27684876, 1.4413702, -1.684861, 1.0346286, 0.12528293, -0.17288506, -0.37062508,
        -1.4130409, -0.17219117, 1.5372686, 0.13743933, 1.9394172, 1.7953676, -1.3369627,
        -0.8928341, 2.004287, 0.41573465],
    'adam_amsgrad': [
        -0.27219233, 1.4789467, -1.7431716, 1.0284592, 0.09421672, -0.18711159, -0.37236303,
        -1.4645011, -0.16094373, 1.5700723, 0.16186328, 1.9487015, 1.8757113, -1.40605, -0.9126422,
        2.0104275, 0.33181992],
    'adam_maximize': [
        -0.38190296, 1.4886136, -1.7698531, 0.9301859, 0.013736143, -0.18375997, -0.38099787,
        -1.5584071, -0.18385127, 1.663819, 0.18063013, 1.7953945, 1.5009797, -1.3586787, -0.9876819,
        1.8448178, 0.49294317],
    'adamw': [
        -0.28153184, 1.4615984, -1.7110945, 1.0482248, 0.12667297, -0.17525628, -0.37603933,
        -1.4308832, -0.17516509, 1.5556895, 0.13939612, 1.9585726, 1.8236765, -1.4041576,
        -0.9050119, 2.0300944, 0.42797208],
    'adamw_amsgrad': [
        -0.2638592, 1.3794914, -1.6144996, 0.9902154, 0.12056939, -0.16515622, -0.35419223,
        -1.349245, -0.16505896, 1.4669834, 0.1313353, 1.850177, 1.725865, -1.3255624, -0.85323656,
        1.9175074, 0.40093067],
}
EXPECTED_FLOAT64 = {
    'sgd': [
        0.3218750000000001, 1.5326171874999999, -1.5251953124999997, 1.3109375, 0.267578125,
        -0.18378906250000002, -0.26679687499999993, -0.9501953124999999, 0.13242187499999997,
        1.2626953125, 0.19570312500000003, 2.821875, 3.1734375000000004, -1.4355468749999998,
        -0.6683593749999996, 2.733789062500002, -0.5728515624999998],
    'sgd_momentum': [
        1.5469812684108208, 1.8464247632873876, -1.7505278540643001, 2.4663529588273176,
        1.3987348974850322, 0.3016645619934889, 0.4010002264966066, -0.44136305975565443,
        0.10317870194746756, 0.4278253390920363, -0.2504920313086875, 4.969537664690388,
        5.312988039795089, -1.708466326141071, -0.048644040846575025, 4.248074187215529,
        -1.4055045731457525],
    'sgd_dampening': [
        1.0718061156671181, 1.6374155097110368, -1.6322179825810712, 2.0986637558059447,
        1.1775227343880859, 0.07670820888963582, 0.08879370434709721, -0.5946219931015415,
        -0.06171719196362803, 0.7501926500010473, -0.37924377401251674, 4.2775666790638045,
        4.241471930909349, -1.5924982864459953, -0.16536426594420328, 3.710412923415073,
        -0.8188074898965834],
    'sgd_nesterov': [
        1.0368261393300526, 1.7247531203932425, -1.5379532670122487, 1.8658380729578727,
        0.7806953769203387, -0.03573487848105417, 0.046574475376751065, -0.6230663206560058,
        0.14204796611313658, 0.8263129700316736, 0.04271820269525454, 3.9910337865605388,
        4.50590092298256, -1.542789605516182, -0.3481591214387357, 3.4955826357419535,
        -1.2778964289262886],
    'sgd_weight_decay': [
        1.549657371937932, 1.7620397390892555, -1.649957305785085, 2.3732569374825827,
        1.363218636397282, 0.29247260446733364, 0.4136675594167093, -0.38277201989645493,
        0.10636275402030353, 0.36002280056684915, -0.24498444175369913, 4.804991603073655,
        5.175477540133452, -1.6169877524278795, -0.015103378283757312, 4.079695397255915,
        -1.4336452046250805],
    'sgd_maximize': [
        -0.8571642987630583, 1.1065867868773176, -1.6251866586634238, 0.48894705289103885,
        -0.15868483271946476, -0.15580007163328272, -0.4531128330996827, -1.6827856534860137,
        -0.3234625592811828, 1.6710933277158793, 0.1169751986583611, 0.6676410028514909,
        0.0786184176522843, -1.1042870816105539, -1.0531419064947, 0.963010717955435,
        1.264329980740281],
    'sgd_all': [
        -0.7056880938195628, 1.3215513666415348, -1.732984215672516, 0.7025871417587207,
        -0.10306430997076614, -0.18558714628055992, -0.45802906462938964, -1.6849436372954734,
        -0.282468926847397, 1.737029515424548, 0.15872556303195337, 1.1718654940906341,
        0.7147125089613836, -1.2647793627205726, -1.061962340431962, 1.3832243379453384,
        0.9887757961889705],
    'adam': [
        -0.2821594746343188, 1.4645115353588183, -1.714521902212548, 1.050282772436518,
        0.12688891183917242, -0.17561503039813173, -0.3768146882386032, -1.4337803437816241,
        -0.17552372626749146, 1.5588372607423862, 0.13968236812110543, 1.9624179457690387,
        1.8271455771824427, -1.4069462137015023, -0.9068492884985444, 2.0340886125959,
        0.42893186300901637],
    'adam_defaults': [
        -0.32704407246343187, 1.4753574035358816, -1.739420940221255, 0.996239214743652,
        0.07597014118391722, -0.1792802530398131, -0.37869709382386035, -1.4898624093781623,
        -0.17927112262674907, 1.606079038574239, 0.1581088618121105, 1.8872574195769036,
        1.680370807718244, -1.3852258713701509, -0.9432239913498548, 1.9489166737595895,
        0.4577369363009016],
    'adam_weight_decay': [
        -0.27684868332117246, 1.4413702008206348, -1.684860661304041, 1.034628750620468,
        0.12528290179547452, -0.17288504507273206, -0.3706250771583522, -1.4130406659151997,
        -0.17219115674094065, 1.5372688313139127, 0.13743930508404184, 1.9394174487535591,
        1.7953675691724877, -1.3369625787440922, -0.892834122197353, 2.0042869137579067,
        0.4157346300818658],
    'adam_amsgrad': [
        -0.2721922808883887, 1.478946589100641, -1.743171642939719, 1.028459228995433,
        0.09421672489323304, -0.18711158382013607, -0.37236304359451705, -1.4645011822527145,
        -0.16094374664457206, 1.570072279457217, 0.16186332360663674, 1.9487016016155212,
        1.8757113077651164, -1.406049917687354, -0.9126420563481809, 2.0104273764049596,
        0.33181992799868415],
    'adam_maximize': [
        -0.3819029758642891, 1.4886134469584447, -1.7698530529001026, 0.9301860379912417,
        0.013736140967133867, -0.18375997853707698, -0.3809978214898334, -1.5584070917492419,
        -0.18385127648352992, 1.6638189139972788, 0.18063011830839978, 1.7953946124800384,
        1.5009797132575722, -1.3586787934583662, -0.9876819280482425, 1.844817729477534,
        0.4929431463435002],
    'adamw': [
        -0.2815319351866629, 1.4615987394024503, -1.711095129289615, 1.0482253805342898,
        0.1266729982254234, -0.17525637388150545, -0.3760393807356437, -1.4308836183616567,
        -0.1751651284581673, 1.555689906696717, 0.1393961976494976, 1.9585733326641652,
        1.823677149124701, -1.4041583541758613, -0.9050122205218218, 2.030095394265111,
        0.42797226361437657],
    'adamw_amsgrad': [
        -0.2638593449688256, 1.379492168402357, -1.61450037098206, 0.990215716814972,
        0.12056945981628608, -0.16515626845390122, -0.3541923793221699, -1.3492454238879148,
        -0.1650590073897241, 1.4669841951012959, 0.1313353874683875, 1.8501778576625705,
        1.7258658672187581, -1.325562698095374, -0.8532370333826511, 1.917508322051818,
        0.40093080646235973],
}


def _run(cls, kw, dtype, steps=20, record=False):
    dt = getattr(torch, dtype)
    ps = [torch.tensor(v, dtype=dt, requires_grad=True) for v in _init_values()]
    opt = getattr(torch.optim, cls)(ps, **kw)
    trajectory = []
    for s in range(steps):
        for p, g in zip(ps, _grad_values(s)):
            p.grad = torch.tensor(g, dtype=dt)
        opt.step()
        if record:
            trajectory.append(np.concatenate([_np(p).ravel() for p in ps]))
    return ps, opt, trajectory


# ---- NumPy versions of the update rules (float64) -------------------------------------------
def _ref_sgd(lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False):
    params = [v.copy() for v in _init_values()]
    bufs = [None] * len(params)
    out = []
    for s in range(20):
        for i, g in enumerate(_grad_values(s)):
            g = -g if maximize else g
            if weight_decay:
                g = g + weight_decay * params[i]
            if momentum:
                if bufs[i] is None:
                    bufs[i] = g.copy()
                else:
                    bufs[i] = momentum * bufs[i] + (1 - dampening) * g
                g = g + momentum * bufs[i] if nesterov else bufs[i]
            params[i] = params[i] - lr * g
        out.append(np.concatenate([p.ravel() for p in params]))
    return out


def _ref_adam(lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
              maximize=False, decoupled=False):
    b1, b2 = betas
    params = [v.copy() for v in _init_values()]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    vmax = [np.zeros_like(p) for p in params]
    out = []
    for s in range(20):
        t = s + 1
        for i, g in enumerate(_grad_values(s)):
            g = -g if maximize else g
            if weight_decay:
                if decoupled:
                    params[i] = params[i] * (1 - lr * weight_decay)
                else:
                    g = g + weight_decay * params[i]
            m[i] = m[i] + (1 - b1) * (g - m[i])
            v[i] = b2 * v[i] + (1 - b2) * g * g
            vmax[i] = np.maximum(vmax[i], v[i])
            second = vmax[i] if amsgrad else v[i]
            denom = np.sqrt(second) / np.sqrt(1 - b2 ** t) + eps
            params[i] = params[i] - lr / (1 - b1 ** t) * m[i] / denom
        out.append(np.concatenate([p.ravel() for p in params]))
    return out


def _reference(cls, kw):
    if cls == "SGD":
        return _ref_sgd(**kw)
    return _ref_adam(decoupled=(cls == "AdamW"),
                     **{"weight_decay": 1e-2, **kw} if cls == "AdamW" else kw)


# ---- trajectories ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_float32_matches_torch(name):
    cls, kw = SCENARIOS[name]
    ps, _, _ = _run(cls, kw, "float32")
    got = np.concatenate([_np(p).ravel() for p in ps])
    assert ps[0].dtype == torch.float32
    np.testing.assert_allclose(got, EXPECTED_FLOAT32[name], rtol=4e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_float64_matches_torch(name):
    cls, kw = SCENARIOS[name]
    ps, _, _ = _run(cls, kw, "float64")
    got = np.concatenate([_np(p).ravel() for p in ps])
    np.testing.assert_allclose(got, EXPECTED_FLOAT64[name], rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_step_matches_numpy_reference(name):
    cls, kw = SCENARIOS[name]
    _, _, trajectory = _run(cls, kw, "float64", record=True)
    for step, (got, want) in enumerate(zip(trajectory, _reference(cls, kw))):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13, err_msg=f"step {step}")


def test_complex_adam_is_adam_on_real_and_imaginary_parts():
    z = torch.tensor([1 + 2j, -0.5 + 0.25j], dtype=torch.complex128, requires_grad=True)
    r = torch.tensor([[1.0, 2.0], [-0.5, 0.25]], dtype=torch.float64, requires_grad=True)
    oz = Adam([z], lr=0.1, amsgrad=True, weight_decay=0.1)
    orr = Adam([r], lr=0.1, amsgrad=True, weight_decay=0.1)
    for s in range(5):
        z.grad = torch.tensor([0.5 - 1j * s, 0.25 + 0.125j * s], dtype=torch.complex128)
        r.grad = torch.tensor([[0.5, -1.0 * s], [0.25, 0.125 * s]], dtype=torch.float64)
        oz.step()
        orr.step()
    got = np.array(z.tolist())
    np.testing.assert_array_equal(np.stack([got.real, got.imag], -1), _np(r))
    # the state keeps the parameter's complex dtype; torch 2.15 gives these end points
    assert oz.state[z]["exp_avg"].dtype == torch.complex128
    np.testing.assert_allclose(got, [0.5008022424245371 + 2.2037504823011815j,
                                     -0.9970441940434851 - 0.20504692233643013j], rtol=1e-14)


# ---- with autograd -----------------------------------------------------------------------------
# (first loss, last loss, W, b) of 30 steps of least squares, from torch 2.15
TRAINING = {
    "SGD": (6.2509394, 0.8859684,
            [0.1701149, -0.011023452, -0.15829465, 0.3176691, 0.40208253, -0.35789478, 0.7596124,
             -0.23889273], [-0.016784016, -0.53954464]),
    "Adam": (6.2509394, 2.2488332,
             [-0.3502042, 0.22740738, -0.4322397, 0.28009823, -1.065507, 0.3303419, -0.2701699,
              0.32754335], [-0.1290792, -0.14151676]),
}


@pytest.mark.parametrize("name", sorted(TRAINING))
def test_training_loop_with_backward_closure_and_scheduler(name):
    X = torch.tensor(_values(7, 64).reshape(16, 4), dtype=torch.float32)
    Y = torch.tensor(_values(8, 32).reshape(16, 2), dtype=torch.float32)
    W = torch.tensor(_values(9, 8).reshape(4, 2), dtype=torch.float32, requires_grad=True)
    b = torch.zeros(2, requires_grad=True)
    if name == "SGD":
        opt = SGD([W, b], lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    else:
        opt = Adam([{"params": [W]}, {"params": [b], "lr": 0.01}], lr=0.05, amsgrad=True)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=15)
    losses = []
    for _ in range(30):
        def closure():
            opt.zero_grad()
            loss = ((X @ W + b - Y) ** 2).mean()
            loss.backward()
            return loss
        losses.append(opt.step(closure).item())
        sched.step()
    first, last, w_end, b_end = TRAINING[name]
    assert losses[0] == pytest.approx(first, rel=1e-6)
    assert losses[-1] == pytest.approx(last, rel=1e-5)
    np.testing.assert_allclose(_np(W).ravel(), w_end, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(b), b_end, rtol=1e-5, atol=1e-6)
    assert W.is_leaf and W.grad_fn is None


def test_zero_grad_in_place_detaches_a_grad_that_has_a_graph():
    p = torch.ones(2, requires_grad=True)
    (p * p).sum().backward(create_graph=True)
    g = p.grad
    assert g.grad_fn is not None
    SGD([p], lr=0.1).zero_grad(set_to_none=False)
    assert p.grad is g and g.grad_fn is None and not g.requires_grad
    assert g.tolist() == [0.0, 0.0]


def test_a_non_leaf_that_retains_grad_can_be_optimized():
    q = torch.ones(2, requires_grad=True) * 2
    q.retain_grad()
    assert SGD([q], lr=0.1).param_groups[0]["params"] == [q]


# ---- state ---------------------------------------------------------------------------------------
def test_sgd_momentum_buffer_starts_as_a_copy_of_the_gradient():
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = SGD([p], lr=0.5, momentum=0.9, dampening=0.5)
    g = torch.tensor([0.25, -1.0])
    p.grad = g
    opt.step()
    buf = opt.state[p]["momentum_buffer"]
    assert buf is not g and buf.data_ptr() != g.data_ptr()
    assert buf.tolist() == [0.25, -1.0]          # no dampening on the first step
    assert p.tolist() == [0.875, 2.5]
    p.grad = torch.tensor([1.0, 1.0])
    opt.step()
    assert buf.tolist() == pytest.approx([0.9 * 0.25 + 0.5, 0.9 * -1.0 + 0.5])  # in place
    assert opt.state[p]["momentum_buffer"] is buf
    assert g.tolist() == [0.25, -1.0]


def test_sgd_without_momentum_keeps_no_state():
    p = torch.ones(3, requires_grad=True)
    opt = SGD([p], lr=0.1)
    p.grad = torch.ones(3)
    opt.step()
    assert dict(opt.state) == {}
    assert opt.state_dict()["state"] == {}


def test_adam_state_layout():
    p = torch.ones(2, 3, requires_grad=True)
    opt = Adam([p], amsgrad=True)
    assert len(opt.state) == 0
    for _ in range(3):
        p.grad = torch.ones(2, 3)
        opt.step()
    st = opt.state[p]
    assert list(st) == ["step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"]
    assert st["step"].dim() == 0 and st["step"].dtype == torch.float32 and st["step"].item() == 3.0
    for key in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq"):
        assert st[key].shape == (2, 3) and st[key].dtype == torch.float32
    assert "max_exp_avg_sq" not in AdamW([torch.ones(1, requires_grad=True)]).state[p]


def test_adam_step_counter_follows_float64_default_dtype():
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        p = torch.ones(2, requires_grad=True)
        opt = Adam([p])
        p.grad = torch.ones(2)
        opt.step()
        assert opt.state[p]["step"].dtype == torch.float64
    finally:
        torch.set_default_dtype(old)


def test_parameters_without_grad_are_skipped():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    for opt in (SGD([a, b], lr=0.1, momentum=0.9), Adam([a, b], lr=0.1)):
        a.grad, b.grad = torch.ones(2), None
        before = b.tolist()
        opt.step()
        assert b.tolist() == before
        assert b not in opt.state
        assert a in opt.state


def test_step_runs_without_recording():
    p = torch.ones(3, requires_grad=True)
    for opt in (SGD([p], lr=0.1, momentum=0.9, weight_decay=0.1), Adam([p], weight_decay=0.1),
                AdamW([p], amsgrad=True)):
        p.grad = torch.ones(3)
        opt.step()
        assert p.is_leaf and p.grad_fn is None and p.requires_grad
        for value in opt.state[p].values():
            assert value.grad_fn is None and not value.requires_grad


def test_closure_loss_is_returned():
    p = torch.ones(2, requires_grad=True)
    calls = []

    def closure():
        calls.append(1)
        p.grad = torch.full((2,), 2.0)
        return 7.5

    for opt in (SGD([p], lr=0.25), Adam([p]), AdamW([p])):
        calls.clear()
        assert opt.step(closure) == 7.5
        assert len(calls) == 1
        assert opt.step() is None
    assert p.tolist()[0] < 0.5


# ---- param groups ------------------------------------------------------------------------------
def test_param_groups_with_their_own_options():
    a = torch.zeros(2, requires_grad=True)
    b = torch.zeros(2, requires_grad=True)
    opt = SGD([{"params": [a]}, {"params": b, "lr": 0.01, "momentum": 0.5}], lr=0.1)
    assert len(opt.param_groups) == 2
    g0, g1 = opt.param_groups
    assert g0["params"] == [a] and g1["params"][0] is b
    assert (g0["lr"], g0["momentum"]) == (0.1, 0) and (g1["lr"], g1["momentum"]) == (0.01, 0.5)
    assert list(g0) == ["params", "lr", "momentum", "dampening", "weight_decay", "nesterov",
                        "maximize", "foreach", "differentiable", "fused"]
    assert opt.defaults == dict(lr=0.1, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                                maximize=False, foreach=None, differentiable=False, fused=None)
    for _ in range(2):
        a.grad = torch.ones(2)
        b.grad = torch.ones(2)
        opt.step()
    assert a.tolist() == pytest.approx([-0.2, -0.2])
    assert b.tolist() == pytest.approx([-0.01 - 0.01 * 1.5] * 2)
    assert a not in opt.state and "momentum_buffer" in opt.state[b]

    # changing a group's lr takes effect at the next step
    opt.param_groups[0]["lr"] = 1.0
    a.grad = torch.ones(2)
    b.grad = None
    opt.step()
    assert a.tolist() == pytest.approx([-1.2, -1.2])


def test_add_param_group():
    a = torch.zeros(1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    opt = Adam([a], lr=0.5)
    opt.add_param_group({"params": b, "betas": (0.5, 0.9)})
    assert opt.param_groups[1]["lr"] == 0.5 and opt.param_groups[1]["betas"] == (0.5, 0.9)
    with pytest.raises(ValueError, match="^some parameters appear in more than one parameter group$"):
        opt.add_param_group({"params": [a]})
    with pytest.raises(TypeError, match="^param_group must be a dict, but got <class 'list'>$"):
        opt.add_param_group([b])
    with pytest.raises(TypeError, match="^optimizer parameters need to be organized in ordered "
                                        "collections, but the ordering of tensors in sets will "
                                        r"change between runs\. Please use a list instead\.$"):
        opt.add_param_group({"params": {torch.zeros(1, requires_grad=True)}})


def test_named_parameters():
    a = torch.zeros(1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    opt = SGD([("w", a), ("b", b)], lr=0.1)
    assert opt.param_groups[0]["params"] == [a, b]
    assert opt.param_groups[0]["param_names"] == ["w", "b"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["w", "b"]
    with pytest.raises(ValueError, match="cannot add param group without names to the optimizer"):
        opt.add_param_group({"params": [torch.zeros(1, requires_grad=True)]})


def test_duplicate_parameter_in_a_group_warns():
    a = torch.zeros(1, requires_grad=True)
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate "
                                         "parameters; in future, this will cause an error"):
        SGD([a, a], lr=0.1)


def test_set_of_parameters_warns():
    with pytest.warns(FutureWarning, match="optimizer parameters need to be organized in ordered "
                                           "collections"):
        SGD({torch.zeros(1, requires_grad=True)}, lr=0.1)


# ---- zero_grad ---------------------------------------------------------------------------------
def test_zero_grad_sets_grads_to_none_by_default():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    opt = SGD([a, b], lr=0.1)
    a.grad = torch.ones(2)
    opt.zero_grad()
    assert a.grad is None and b.grad is None


def test_zero_grad_in_place():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    opt = Adam([a, b])
    g = torch.full((2,), 3.0)
    a.grad = g
    opt.zero_grad(set_to_none=False)
    assert a.grad is g and g.tolist() == [0.0, 0.0]
    assert not g.requires_grad
    assert b.grad is None


# ---- state_dict ----------------------------------------------------------------------------------
def _two_group_sgd():
    ps = [torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0], requires_grad=True),
          torch.tensor([[4.0]], requires_grad=True)]
    opt = SGD([{"params": ps[:1]}, {"params": ps[1:], "lr": 0.5}], lr=0.1, momentum=0.9)
    return ps, opt


def test_state_dict_layout():
    ps, opt = _two_group_sgd()
    for p in ps:
        p.grad = torch.ones(p.shape)
    ps[1].grad = None
    opt.step()
    sd = opt.state_dict()
    assert list(sd) == ["state", "param_groups"]
    assert [g["params"] for g in sd["param_groups"]] == [[0], [1, 2]]
    assert sorted(sd["state"]) == [0, 2]
    assert sd["state"][2]["momentum_buffer"] is opt.state[ps[2]]["momentum_buffer"]
    assert sd["param_groups"][1] == dict(lr=0.5, momentum=0.9, dampening=0, weight_decay=0,
                                         nesterov=False, maximize=False, foreach=None,
                                         differentiable=False, fused=None, params=[1, 2])
    assert sd["param_groups"][0] is not opt.param_groups[0]


def test_state_dict_of_adam():
    p = torch.ones(2, requires_grad=True)
    opt = AdamW([p], lr=0.1)
    p.grad = torch.ones(2)
    opt.step()
    sd = opt.state_dict()
    assert list(sd["state"][0]) == ["step", "exp_avg", "exp_avg_sq"]
    assert sd["state"][0]["step"].item() == 1.0
    assert sd["param_groups"] == [dict(lr=0.1, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                                       amsgrad=False, maximize=False, foreach=None,
                                       capturable=False, differentiable=False, fused=None,
                                       decoupled_weight_decay=True, params=[0])]


@pytest.mark.parametrize("name", ["sgd_all", "sgd_dampening", "adam_amsgrad", "adam_weight_decay",
                                  "adamw_amsgrad"])
@pytest.mark.parametrize("how", ["save", "deepcopy"])
def test_resuming_from_a_state_dict_gives_the_same_trajectory(name, how):
    cls, kw = SCENARIOS[name]
    straight, _, _ = _run(cls, kw, "float32", steps=20)

    ps, opt, _ = _run(cls, kw, "float32", steps=10)
    if how == "save":
        buf = io.BytesIO()
        torch.save({"params": [p.tolist() for p in ps], "optim": opt.state_dict()}, buf)
        buf.seek(0)
        ckpt = torch.load(buf)
    else:
        ckpt = {"params": [p.tolist() for p in ps], "optim": copy.deepcopy(opt.state_dict())}
    del ps, opt

    ps = [torch.tensor(v, requires_grad=True) for v in ckpt["params"]]
    opt = getattr(torch.optim, cls)(ps, lr=123.0)
    opt.load_state_dict(ckpt["optim"])
    assert opt.param_groups[0]["lr"] == kw.get("lr", 1e-3)
    assert opt.param_groups[0]["params"] == ps
    for s in range(10, 20):
        for p, g in zip(ps, _grad_values(s)):
            p.grad = torch.tensor(g, dtype=torch.float32)
        opt.step()
    for p, q in zip(ps, straight):
        assert p.tolist() == q.tolist()


def test_load_state_dict_casts_state_to_the_parameter_dtype_except_step():
    p = torch.ones(2, requires_grad=True)
    opt = Adam([p])
    p.grad = torch.ones(2)
    opt.step()
    sd = opt.state_dict()

    q = torch.ones(2, dtype=torch.float64, requires_grad=True)
    opt64 = Adam([q])
    opt64.load_state_dict(sd)
    st = opt64.state[q]
    assert st["exp_avg"].dtype == torch.float64 and st["exp_avg_sq"].dtype == torch.float64
    assert st["step"].dtype == torch.float32
    assert st["step"] is sd["state"][0]["step"]
    # the saved groups are copied, not shared
    opt64.param_groups[0]["lr"] = 5.0
    assert sd["param_groups"][0]["lr"] == 1e-3

    # a non-float parameter keeps the state's dtype
    i = torch.ones(2, dtype=torch.int64, requires_grad=False)
    opt_i = SGD([i], lr=0.1, momentum=0.9)
    opt_i.load_state_dict({"state": {0: {"momentum_buffer": torch.ones(2)}},
                           "param_groups": [dict(opt_i.state_dict()["param_groups"][0])]})
    assert opt_i.state[i]["momentum_buffer"].dtype == torch.float32


def test_load_state_dict_errors():
    ps, opt = _two_group_sgd()
    sd = opt.state_dict()
    other = SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    with pytest.raises(ValueError, match="^loaded state dict has a different number of parameter "
                                         "groups$"):
        other.load_state_dict(sd)
    _, opt2 = _two_group_sgd()
    bad = copy.deepcopy(sd)
    bad["param_groups"][1]["params"] = [1]
    with pytest.raises(ValueError, match="^loaded state dict contains a parameter group that "
                                         "doesn't match the size of optimizer's group$"):
        opt2.load_state_dict(bad)


def test_state_dict_hooks():
    p = torch.ones(1, requires_grad=True)
    opt = SGD([p], lr=0.1)
    seen = []
    h1 = opt.register_state_dict_pre_hook(lambda o: seen.append("pre"))
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    assert opt.state_dict()["extra"] == 1 and seen == ["pre"]
    h1.remove()
    opt.state_dict()
    assert seen == ["pre"]

    def pre_load(o, sd):
        sd = dict(sd)
        sd["param_groups"] = [dict(g, lr=0.75) for g in sd["param_groups"]]
        return sd

    opt.register_load_state_dict_pre_hook(pre_load)
    opt.register_load_state_dict_post_hook(lambda o: seen.append("loaded"))
    opt.load_state_dict(SGD([torch.ones(1, requires_grad=True)], lr=0.2).state_dict())
    assert opt.param_groups[0]["lr"] == 0.75 and seen == ["pre", "loaded"]


def test_pickle_round_trip_of_an_optimizer_without_parameters_state():
    p = torch.ones(1)
    opt = SGD([p], lr=0.1, momentum=0.9)
    p.grad = torch.ones(1)
    opt.step()
    clone = pickle.loads(pickle.dumps(opt))
    assert clone.param_groups[0]["lr"] == 0.1
    (q,) = clone.param_groups[0]["params"]
    assert clone.state[q]["momentum_buffer"].tolist() == [1.0]
    q.grad = torch.ones(1)
    clone.step()   # hooks and step work after unpickling
    assert clone.state[q]["momentum_buffer"].tolist() == pytest.approx([1.9])


# ---- subclasses and hooks ------------------------------------------------------------------------
class MySGD(torch.optim.SGD):
    """The pattern from the user's notes: a subclass that adds attributes and walks the groups."""

    def __init__(self, params, lr):
        super().__init__(params, lr)
        self.grad_store = {}

    def store_and_clear_grad(self):
        for group in self.param_groups:
            for p in group["params"]:
                self.grad_store[p] = p.grad.clone()
                p.grad = None

    def restore_grad(self):
        for group in self.param_groups:
            for p in group["params"]:
                p.grad = self.grad_store.pop(p)
                self.state[p]["restored"] = self.state[p].get("restored", 0) + 1


def test_subclass_pattern_from_the_notes():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0], requires_grad=True)
    opt = MySGD([a, b], lr=0.5)
    assert isinstance(opt, Optimizer) and opt.param_groups[0]["lr"] == 0.5
    a.grad = torch.tensor([1.0, 1.0])
    b.grad = torch.tensor([2.0])
    opt.store_and_clear_grad()
    assert a.grad is None and len(opt.grad_store) == 2
    opt.step()                      # nothing to do: no grads
    assert a.tolist() == [1.0, 2.0]
    opt.restore_grad()
    opt.step()
    assert a.tolist() == [0.5, 1.5] and b.tolist() == [2.0]
    assert opt.state[a]["restored"] == 1
    assert opt.state_dict()["state"] == {0: {"restored": 1}, 1: {"restored": 1}}
    assert repr(opt).startswith("MySGD (\nParameter Group 0\n")


def test_subclass_overriding_step_runs_hooks_once():
    calls = []

    class Counting(SGD):
        def step(self, closure=None):
            calls.append("step")
            return super().step(closure)

    p = torch.ones(1, requires_grad=True)
    opt = Counting([p], lr=0.1)
    opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
    p.grad = torch.ones(1)
    opt.step()
    assert calls == ["pre", "step", "post"]
    plain = SGD([torch.ones(1, requires_grad=True)], lr=0.1)
    plain.step()
    assert calls == ["pre", "step", "post"]     # hooks belong to one instance


def test_global_step_hooks():
    from minitorch.optim.optimizer import register_optimizer_step_pre_hook
    seen = []
    handle = register_optimizer_step_pre_hook(lambda o, a, k: seen.append(type(o).__name__))
    try:
        Adam([torch.ones(1, requires_grad=True)]).step()
        SGD([torch.ones(1, requires_grad=True)]).step()
    finally:
        handle.remove()
    Adam([torch.ones(1, requires_grad=True)]).step()
    assert seen == ["Adam", "SGD"]


def test_base_class_step_is_abstract():
    class Nothing(Optimizer):
        pass

    opt = Nothing([torch.ones(1, requires_grad=True)], {"lr": 0.1})
    with pytest.raises(NotImplementedError):
        opt.step()


def test_repr():
    opt = SGD([torch.ones(1, requires_grad=True)], lr=0.1, momentum=0.9)
    assert repr(opt) == ("SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
                         "    foreach: None\n    fused: None\n    lr: 0.1\n    maximize: False\n"
                         "    momentum: 0.9\n    nesterov: False\n    weight_decay: 0\n)")
    opt = AdamW([{"params": [torch.ones(1, requires_grad=True)]},
                 {"params": [torch.ones(1, requires_grad=True)], "lr": 0.5}])
    text = repr(opt)
    assert text.startswith("AdamW (\nParameter Group 0\n    amsgrad: False\n"
                           "    betas: (0.9, 0.999)\n    capturable: False\n"
                           "    decoupled_weight_decay: True\n")
    assert "Parameter Group 1\n" in text and "    lr: 0.5\n" in text and text.endswith("\n)")


# ---- argument checks ---------------------------------------------------------------------------
def _p():
    return torch.ones(1, requires_grad=True)


@pytest.mark.parametrize("make, exc, message", [
    (lambda: SGD([_p()], lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda: SGD([_p()], lr=0.1, momentum=-0.5), ValueError, "Invalid momentum value: -0.5"),
    (lambda: SGD([_p()], lr=0.1, weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    (lambda: SGD([_p()], lr=0.1, nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda: SGD([_p()], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda: SGD([_p()], fused=True, foreach=True), RuntimeError,
     "`fused` and `foreach` cannot be `True` together."),
    (lambda: SGD([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
    (lambda: SGD(_p(), lr=0.1), TypeError, "params argument given to the optimizer should be an "
     "iterable of Tensors or dicts, but got minitorch.FloatTensor"),
    (lambda: SGD([1.0], lr=0.1), TypeError,
     "optimizer can only optimize Tensors, but one of the params is float"),
    (lambda: SGD([_p(), [_p()]], lr=0.1), TypeError,
     "optimizer can only optimize Tensors, but one of the params is list"),
    (lambda: Adam([_p()], lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
    (lambda: Adam([_p()], eps=-1), ValueError, "Invalid epsilon value: -1"),
    (lambda: Adam([_p()], betas=(1.0, 0.9)), ValueError, "Invalid beta parameter at index 0: 1.0"),
    (lambda: Adam([_p()], betas=(0.9, -0.1)), ValueError,
     "Invalid beta parameter at index 1: -0.1"),
    (lambda: Adam([_p()], weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    (lambda: Adam([_p()], betas=(0, 0.9)), ValueError,
     "betas must be either both floats or both Tensors"),
    (lambda: AdamW([_p()], lr=-2), ValueError, "Invalid learning rate: -2"),
    (lambda: SGD([{"params": [_p()]}, {"params": []}, 3]), TypeError,
     "param_group must be a dict, but got <class 'int'>"),
])
def test_bad_arguments(make, exc, message):
    with pytest.raises(exc) as info:
        make()
    assert str(info.value) == message


def test_non_leaf_tensor_is_refused():
    p = torch.ones(2, requires_grad=True)
    q = p * 2
    assert not q.is_leaf
    with pytest.raises(ValueError, match="^can't optimize a non-leaf Tensor$"):
        SGD([q], lr=0.1)


def test_a_tensor_in_two_groups_is_refused():
    p = _p()
    with pytest.raises(ValueError, match="^some parameters appear in more than one parameter "
                                         "group$"):
        SGD([{"params": [p]}, {"params": p}], lr=0.1)


def test_capturable_adam_is_refused_on_cpu():
    p = _p()
    opt = Adam([p], capturable=True)
    p.grad = torch.ones(1)
    with pytest.raises(AssertionError, match=r"If capturable=True, params and state_steps must be "
                                             r"on supported devices: \['cuda'"):
        opt.step()


# ---- the package -------------------------------------------------------------------------------
def test_optim_is_imported_lazily():
    code = ("import sys, minitorch; assert 'minitorch.optim' not in sys.modules; "
            "assert minitorch.optim.SGD.__name__ == 'SGD'; "
            "assert minitorch.optim.lr_scheduler.StepLR.__name__ == 'StepLR'; "
            "import minitorch.optim.lr_scheduler as L; assert L is minitorch.optim.lr_scheduler")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_adamw_is_adam_with_decoupled_weight_decay():
    assert issubclass(AdamW, Adam)
    opt = AdamW([_p()])
    assert opt.defaults["weight_decay"] == 1e-2 and opt.defaults["decoupled_weight_decay"]


def test_unimplemented_optimizers_say_so():
    with pytest.raises(AttributeError, match="has no attribute 'Muon' .*implements Adadelta, "
                                             "Adafactor, Adagrad, Adam, "):
        torch.optim.Muon
    with pytest.raises(NotImplementedError, match="has no attribute 'Muon'"):
        torch.optim.Muon
    assert not hasattr(torch.optim, "Muon")
    assert not hasattr(torch.optim, "NoSuchThing")


@pytest.mark.parametrize("cls, end", [("SGD", 0.9725000262260437), ("Adam", 0.9827791452407837),
                                      ("AdamW", 0.98260498046875)])
def test_tensor_learning_rate_filled_in_place_by_a_scheduler(cls, end):
    p = torch.ones(3, requires_grad=True)
    lr = torch.tensor(0.01)
    opt = getattr(torch.optim, cls)([p], lr=lr)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, 0.5)
    for i in range(3):
        p.grad = torch.full((3,), float(i + 1))
        opt.step()
        sched.step()
    assert p.tolist() == pytest.approx([end] * 3, rel=1e-6)   # torch 2.15's values
    assert opt.param_groups[0]["lr"] is lr and lr.item() == pytest.approx(0.00125)
    assert opt.param_groups[0]["initial_lr"].item() == pytest.approx(0.01)
    with pytest.raises(ValueError, match="^Tensor lr must be 1-element$"):
        SGD([p], lr=torch.tensor([0.1, 0.2]))
