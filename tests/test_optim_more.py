"""minitorch.optim: RMSprop, Adagrad, Adadelta, Adamax, NAdam and RAdam, and the schedulers
OneCycleLR, CyclicLR, CosineAnnealingWarmRestarts and ChainedScheduler, against PyTorch.

The expected values below are PyTorch 2.15's (CPU), from running this file's scenarios with torch
in place of minitorch: parameters after 20 steps of each optimizer from exact binary fractions,
and the learning rates and momenta of each schedule.  Where PyTorch can be imported (it is no
dependency of minitorch) the tests compute them with it instead.  torch's CPU kernels use fused
multiply-adds where minitorch's do not, so after 20 steps the parameters agree to about 1e-6
(float32) and 1e-14 (float64) relative; the schedulers do the same float operations as torch's
and agree exactly (to 1e-15 where a cosine is involved)."""
import copy
import io
import math
import pickle

import numpy as np
import pytest

import minitorch

from test_optim import _grad_values, _init_values, _values  # the same fixed problem

try:
    import torch as _torch
except ImportError:
    _torch = None


def _flat(ps):
    return [x for p in ps for x in p.detach().reshape(-1).tolist()]


# ---- optimizers ----------------------------------------------------------------------------------
SCENARIOS = {
    "rmsprop": ("RMSprop", dict(lr=1e-2)),
    "rmsprop_defaults": ("RMSprop", dict()),
    "rmsprop_momentum": ("RMSprop", dict(lr=1e-2, momentum=0.9, weight_decay=0.1)),
    "rmsprop_centered": ("RMSprop", dict(lr=1e-2, alpha=0.9, centered=True)),
    "rmsprop_all": ("RMSprop", dict(lr=5e-3, alpha=0.95, eps=1e-4, weight_decay=0.05,
                                    momentum=0.5, centered=True, maximize=True)),
    "adagrad": ("Adagrad", dict(lr=0.1)),
    "adagrad_decay": ("Adagrad", dict(lr=0.1, lr_decay=0.05, weight_decay=0.1,
                                      initial_accumulator_value=0.5)),
    "adagrad_maximize": ("Adagrad", dict(lr=0.1, eps=1e-3, maximize=True)),
    "adadelta": ("Adadelta", dict()),
    "adadelta_weight_decay": ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1)),
    "adadelta_maximize": ("Adadelta", dict(maximize=True)),
    "adamax": ("Adamax", dict()),
    "adamax_weight_decay": ("Adamax", dict(lr=1e-2, betas=(0.8, 0.99), weight_decay=0.1)),
    "adamax_maximize": ("Adamax", dict(lr=1e-2, eps=1e-3, maximize=True)),
    "nadam": ("NAdam", dict()),
    "nadam_weight_decay": ("NAdam", dict(lr=1e-2, weight_decay=0.1, momentum_decay=0.01)),
    "nadam_decoupled": ("NAdam", dict(lr=1e-2, weight_decay=0.1, decoupled_weight_decay=True)),
    "nadam_maximize": ("NAdam", dict(lr=1e-2, betas=(0.5, 0.9), maximize=True)),
    "radam": ("RAdam", dict(lr=1e-2)),
    "radam_weight_decay": ("RAdam", dict(lr=1e-2, weight_decay=0.1)),
    "radam_decoupled": ("RAdam", dict(lr=1e-2, weight_decay=0.1, decoupled_weight_decay=True,
                                      maximize=True)),
    "radam_betas": ("RAdam", dict(lr=1e-2, betas=(0.8, 0.9), eps=1e-6)),
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


def _expected_params(name, dtype):
    if _torch is not None:
        return _flat(_run(_torch, name, dtype)[0])
    return (EXPECTED_FLOAT32 if dtype == "float32" else EXPECTED_FLOAT64)[name]


# parameters after 20 steps (both flattened and concatenated), PyTorch 2.15's values
EXPECTED_FLOAT32 = {
    'rmsprop': [
        -0.13580605, 1.4082289, -1.7129462, 1.2180312, 0.21183494, -0.23721898, -0.41358334,
        -1.3200232, -0.112821445, 1.3713144, 0.13262302, 2.1569488, 2.438431, -1.5365498,
        -0.77251476, 2.2715802, 0.20338574],
    'rmsprop_defaults': [
        -0.13580605, 1.4082289, -1.7129462, 1.2180312, 0.21183494, -0.23721898, -0.41358334,
        -1.3200232, -0.112821445, 1.3713144, 0.13262302, 2.1569488, 2.438431, -1.5365498,
        -0.77251476, 2.2715802, 0.20338574],
    'rmsprop_momentum': [
        0.9412425, 0.57643014, -1.0783623, 2.415492, 1.243628, -0.3768435, -0.38933957,
        -0.103257366, 0.010018347, -0.4702785, -0.29046252, 3.2163649, 5.236802,
        -0.95278543, 0.460053, 3.289057, -0.55527073],
    'rmsprop_centered': [
        -0.2551191, 1.4529871, -1.7409209, 1.0732102, 0.11917201, -0.20420021, -0.38986924,
        -1.4387387, -0.1504722, 1.5244474, 0.1536669, 1.9869887, 2.0229247, -1.4430342,
        -0.8748682, 2.0658324, 0.32714057],
    'rmsprop_all': [
        -0.42085826, 1.482667, -1.7147388, 0.8653497, -0.0028591184, -0.15216827, -0.363804,
        -1.5449188, -0.19760254, 1.7095526, 0.17360604, 1.72191, 1.2515075, -1.2485142,
        -1.0246048, 1.7641813, 0.5757337],
    'adagrad': [
        -0.13916363, 1.407835, -1.7115353, 1.2172064, 0.21227255, -0.23571865, -0.41393167,
        -1.3190736, -0.115329444, 1.3725307, 0.13117245, 2.1532094, 2.427775, -1.5358692,
        -0.77521956, 2.2685485, 0.21211872],
    'adagrad_decay': [
        -0.20292796, 1.367037, -1.6253402, 1.1138469, 0.189282, -0.18175551, -0.37220663,
        -1.2911236, -0.122099034, 1.4044768, 0.11765367, 2.031542, 2.0007012, -1.3198955,
        -0.7817985, 2.1085865, 0.2636214],
    'adagrad_maximize': [
        -0.524781, 1.545153, -1.7727753, 0.76349914, -0.07155443, -0.1238286, -0.34403864,
        -1.6730082, -0.24408887, 1.849655, 0.18911523, 1.6047025, 0.9013041, -1.2298309,
        -1.1191934, 1.6105357, 0.71017236],
    'adadelta': [
        -0.3098215, 1.4764584, -1.7352709, 0.9998607, 0.074735574, -0.18198696, -0.3770464,
        -1.4812982, -0.1708347, 1.5992216, 0.16209911, 1.8962663, 1.7424997, -1.389633,
        -0.93967134, 1.9591819, 0.40852255],
    'adadelta_weight_decay': [
        -0.24788935, 1.4498858, -1.6786504, 1.0065795, 0.08415081, -0.18297808, -0.36501616,
        -1.4160787, -0.14504625, 1.5438713, 0.16771537, 1.9198977, 1.8718888, -1.3214818,
        -0.9034234, 1.9806097, 0.2634405],
    'adadelta_maximize': [
        -0.354241, 1.4766666, -1.7491041, 0.98060805, 0.06588942, -0.17738804, -0.3807661,
        -1.5108893, -0.1885403, 1.6234347, 0.15821339, 1.8615462, 1.5856253, -1.375992,
        -0.9548599, 1.9197243, 0.51335245],
    'adamax': [
        -0.32519177, 1.4738451, -1.736956, 0.9987581, 0.078362346, -0.18039042, -0.38008907,
        -1.4864784, -0.17999524, 1.6037257, 0.15679568, 1.8915279, 1.6825678, -1.3846954,
        -0.9410342, 1.9517397, 0.45988315],
    'adamax_weight_decay': [
        -0.290564, 1.4517958, -1.700778, 1.0192719, 0.10462328, -0.18555808, -0.38033634,
        -1.4402112, -0.17894164, 1.5617247, 0.1462154, 1.9222518, 1.7467862, -1.3488533,
        -0.9093213, 1.9777294, 0.43301535],
    'adamax_maximize': [
        -0.36620152, 1.490131, -1.76831, 0.9476515, 0.030089986, -0.17619185, -0.37301064,
        -1.5441328, -0.17816032, 1.6492853, 0.17695019, 1.8158317, 1.5716643, -1.3733473,
        -0.9784024, 1.8780586, 0.46625996],
    'nadam': [
        -0.32201687, 1.4761097, -1.7419555, 0.9975649, 0.07525933, -0.18095759, -0.37815946,
        -1.4899461, -0.1765427, 1.6039828, 0.1596589, 1.890824, 1.6987709, -1.3875724,
        -0.94141126, 1.952317, 0.44229463],
    'nadam_weight_decay': [
        -0.27783215, 1.4542774, -1.7117778, 1.0138158, 0.09380743, -0.18376455, -0.37007913,
        -1.4437988, -0.16133486, 1.5562639, 0.15565798, 1.9184121, 1.8178033, -1.3472787,
        -0.9061073, 1.9761568, 0.3585154],
    'nadam_decoupled': [
        -0.2757768, 1.4451597, -1.7064662, 1.006716, 0.093213044, -0.18247852, -0.36767745,
        -1.4360111, -0.1604187, 1.5431784, 0.15467001, 1.9006754, 1.803266, -1.3788362,
        -0.89958215, 1.9646436, 0.35871655],
    'nadam_maximize': [
        -0.38810357, 1.4769553, -1.7360324, 0.9530871, 0.05005931, -0.16940452, -0.38356805,
        -1.5193154, -0.20237003, 1.6512719, 0.15630285, 1.8129839, 1.4654529, -1.3537999,
        -0.9839603, 1.871615, 0.5757572],
    'radam': [
        -0.32737038, 1.4530754, -1.7122788, 1.0220714, 0.103442654, -0.18314211,
        -0.39450938, -1.4468188, -0.17563182, 1.5822085, 0.1393895, 1.9309725, 1.6874614,
        -1.3860812, -0.9159887, 1.9872187, 0.46884584],
    'radam_weight_decay': [
        -0.32548457, 1.4445889, -1.7020918, 1.016301, 0.102963455, -0.18208203, -0.39228573,
        -1.4382155, -0.17457476, 1.5730762, 0.13854471, 1.9203616, 1.6780778, -1.3762554,
        -0.9105972, 1.9758838, 0.4660084],
    'radam_decoupled': [
        -0.33006257, 1.4703672, -1.7370647, 0.9393097, 0.036355246, -0.17275885,
        -0.35609484, -1.5148966, -0.18013486, 1.6080394, 0.17735535, 1.7904887, 1.6080002,
        -1.3521898, -0.9592215, 1.8540514, 0.44410416],
    'radam_betas': [
        -0.3004022, 1.4637473, -1.7169291, 1.0313718, 0.11006902, -0.18284068, -0.3836943,
        -1.4443301, -0.1729192, 1.5746275, 0.14291707, 1.9559014, 1.7565471, -1.3886592,
        -0.91074073, 2.0052328, 0.41707867],
}
EXPECTED_FLOAT64 = {
    'rmsprop': [
        -0.1358060867388002, 1.4082288605310873, -1.712946137998541, 1.2180314858015633,
        0.21183489539491462, -0.23721900506766377, -0.4135834133900325, -1.3200231336476196,
        -0.11282147174960486, 1.3713143150552354, 0.1326230186628761, 2.1569489580199606,
        2.4384308625394113, -1.5365496666318077, -0.7725148109408709, 2.2715800795877614,
        0.2033856700586684],
    'rmsprop_defaults': [
        -0.1358060867388002, 1.4082288605310873, -1.712946137998541, 1.2180314858015633,
        0.21183489539491462, -0.23721900506766377, -0.4135834133900325, -1.3200231336476196,
        -0.11282147174960486, 1.3713143150552354, 0.1326230186628761, 2.1569489580199606,
        2.4384308625394113, -1.5365496666318077, -0.7725148109408709, 2.2715800795877614,
        0.2033856700586684],
    'rmsprop_momentum': [
        0.9412426948043269, 0.5764299500480518, -1.0783628417055935, 2.415492686561468,
        1.2436280593629974, -0.3768435646507106, -0.3893395276901483, -0.10325720377348628,
        0.010018176427543022, -0.4702787946191454, -0.2904626958073189, 3.2163649658820415,
        5.236802500167627, -0.9527854045845229, 0.4600533098661326, 3.289057644927419,
        -0.5552707690622475],
    'rmsprop_centered': [
        -0.2551190217206633, 1.4529868760687006, -1.7409205714779685, 1.073210063029665,
        0.11917202856217028, -0.20420016235558577, -0.389869212359995, -1.4387385414589096,
        -0.15047223940625806, 1.524447429968381, 0.15366688695657596, 1.986988927714374,
        2.0229247049489896, -1.4430341119296177, -0.8748681313026829, 2.065831951642063,
        0.3271406300540787],
    'rmsprop_all': [
        -0.42085825492995305, 1.4826670375688649, -1.714738947012833, 0.8653497635011485,
        -0.0028591167434602873, -0.1521682632246408, -0.3638040270516507,
        -1.5449189675640842, -0.1976025491113105, 1.7095524037422114, 0.17360604284491105,
        1.7219098704828586, 1.2515073874521776, -1.2485143141663568, -1.0246048536228087,
        1.7641812733881994, 0.5757336930827905],
    'adagrad': [
        -0.13916360896210986, 1.4078351444812414, -1.7115352239024337, 1.2172063739169359,
        0.212272519177372, -0.23571866594632637, -0.4139316300826654, -1.3190736584472602,
        -0.11532945343377381, 1.3725307172874006, 0.13117242220525327, 2.1532096238481913,
        2.4277753499581323, -1.5358689573244213, -0.7752195084259236, 2.2685488095816693,
        0.21211879077857568],
    'adagrad_decay': [
        -0.20292797828076276, 1.367036648999729, -1.6253399962632646, 1.1138468504898216,
        0.1892819671126941, -0.18175555010436212, -0.37220660302914244, -1.291123632728581,
        -0.12209905862460739, 1.4044767203272424, 0.11765365620778587, 2.0315417391893256,
        2.0007007759446207, -1.3198952412987186, -0.7817985022730036, 2.1085864557010634,
        0.26362139703568044],
    'adagrad_maximize': [
        -0.5247809788478813, 1.5451528252708582, -1.7727753513518307, 0.7634991097010729,
        -0.07155442038289588, -0.12382860710654739, -0.34403864249940636,
        -1.673008436346716, -0.24408885310537623, 1.849654886392018, 0.18911522062342448,
        1.604702199931071, 0.9013041870124906, -1.2298307144667004, -1.1191932997681562,
        1.610536091047498, 0.7101723659840209],
    'adadelta': [
        -0.3098215260756813, 1.47645816567064, -1.7352709555389036, 0.9998608825781712,
        0.07473556875680126, -0.18198694246091218, -0.3770463568533022, -1.4812983663751047,
        -0.17083472137488048, 1.5992215183933225, 0.1620991268191607, 1.8962664223283747,
        1.7424998398797407, -1.3896329745609342, -0.9396713633220893, 1.9591820263595165,
        0.40852254177452085],
    'adadelta_weight_decay': [
        -0.24788929575520288, 1.4498858905325471, -1.6786501456739427, 1.0065796753934482,
        0.08415080344072245, -0.1829780924912465, -0.3650161243732637, -1.4160785411640906,
        -0.14504623330186964, 1.5438715049810714, 0.16771537807492684, 1.919897842170875,
        1.8718890666241674, -1.3214815822086947, -0.903423461148772, 1.98060943917201,
        0.26344048882512394],
    'adadelta_maximize': [
        -0.3542409739243187, 1.47666683432936, -1.7491040444610964, 0.9806078674218289,
        0.06588943124319871, -0.17738805753908782, -0.3807661431466978, -1.5108891336248953,
        -0.18854027862511952, 1.6234347316066775, 0.1582133731808393, 1.8615460776716253,
        1.5856251601202593, -1.3759920254390658, -0.9548598866779107, 1.9197242236404835,
        0.5133524582254791],
    'adamax': [
        -0.32519177541097827, 1.4738451015259906, -1.736956248770142, 0.9987581463787796,
        0.07836237721066336, -0.18039043236021718, -0.38008913301376324,
        -1.4864783777351875, -0.17999522968508694, 1.603725585313943, 0.15679570696384404,
        1.8915278362832455, 1.6825677550962905, -1.3846954484740008, -0.9410342169331097,
        1.9517399799551807, 0.45988312219101396],
    'adamax_weight_decay': [
        -0.29056402742613574, 1.4517955849130173, -1.7007778038217216, 1.0192716574222491,
        0.10462328310696328, -0.18555809287785166, -0.3803362839492391, -1.44021124744287,
        -0.17894162135057418, 1.5617245204517796, 0.14621538086520258, 1.9222519426363334,
        1.7467861013294237, -1.3488533323428662, -0.9093213467588828, 1.9777294721467285,
        0.43301530012837053],
    'adamax_maximize': [
        -0.3662015466347786, 1.4901312788911567, -1.7683101156142527, 0.9476513852558566,
        0.03008998263777381, -0.17619186690423996, -0.3730105998664841, -1.5441328570686912,
        -0.17816035170959335, 1.6492852173750756, 0.17695018233366525, 1.815831521571426,
        1.5716643916863808, -1.3733472593635057, -0.9784022865239633, 1.8780586322499637,
        0.4662599343284422],
    'nadam': [
        -0.32201681699268775, 1.4761097186069885, -1.7419554604330187, 0.997564870237451,
        0.07525930374409733, -0.1809575977562166, -0.37815943270948194, -1.48994607116079,
        -0.1765426756561236, 1.6039829308253595, 0.15965888204807485, 1.890824091404022,
        1.6987709276903447, -1.3875726042030165, -0.9414111264601418, 1.9523167546246307,
        0.4422946903909082],
    'nadam_weight_decay': [
        -0.2778321967050086, 1.454277634518384, -1.7117781927596731, 1.0138156353030354,
        0.09380742293980972, -0.1837645181144357, -0.37007920519866555, -1.4437987504102145,
        -0.16133488786441808, 1.5562637226509795, 0.15565799887125673, 1.9184115259655503,
        1.8178032293573991, -1.347278737155692, -0.9061071275977576, 1.9761568374312972,
        0.3585154180442302],
    'nadam_decoupled': [
        -0.27577665410149327, 1.4451593824888944, -1.7064654699989612, 1.0067157496587573,
        0.09321300967983465, -0.18247845523162426, -0.3676774105685565, -1.4360106386227491,
        -0.16041860498050342, 1.5431779327903585, 0.15466994288020045, 1.9006749503554135,
        1.803265606234955, -1.378835940393177, -0.8995817361203824, 1.9646430947037332,
        0.35871652310062235],
    'nadam_maximize': [
        -0.3881035998692263, 1.4769552151144154, -1.7360322321130137, 0.9530872706764293,
        0.05005929310311036, -0.16940451624448924, -0.3835680269591884, -1.5193155434072894,
        -0.20237003074445367, 1.6512717438918367, 0.1563028411761203, 1.8129838300737344,
        1.465452655416542, -1.3538000362085016, -0.9839603860255419, 1.871615191736328,
        0.5757573048005624],
    'radam': [
        -0.3273703882220133, 1.4530757386756012, -1.7122790746539183, 1.0220717588782828,
        0.10344265307256405, -0.18314215568088907, -0.39450934263125936,
        -1.4468188778597102, -0.17563183019700196, 1.5822086227481051, 0.13938950201120673,
        1.9309720967555697, 1.6874612420553585, -1.3860813074407234, -0.9159886582673531,
        1.9872188506161519, 0.46884579303548196],
    'radam_weight_decay': [
        -0.3254846471592405, 1.4445889185879028, -1.7020917553226975, 1.0163011382521028,
        0.10296346345420318, -0.18208204653285773, -0.39228570415751696,
        -1.4382153728469382, -0.17457476474441302, 1.573076190771888, 0.1385446992451695,
        1.920361472589025, 1.6780778963650025, -1.3762554194790098, -0.9105972509518215,
        1.9758841220744419, 0.4660083557047943],
    'radam_decoupled': [
        -0.33006246170880393, 1.4703666084446234, -1.7370642155130906, 0.939309509018831,
        0.036355232620743985, -0.17275874861537469, -0.3560948101819879,
        -1.5148960013473918, -0.1801347849396259, 1.6080388316080219, 0.17735532019357567,
        1.7904889500100876, 1.607999798441588, -1.352189638317515, -0.9592211067096421,
        1.8540506060690778, 0.4441040761620062],
    'radam_betas': [
        -0.3004022047521419, 1.4637474280906877, -1.7169289898245632, 1.0313718883764729,
        0.11006900851648997, -0.18284065768196853, -0.38369435923974193,
        -1.4443304939517259, -0.17291920105867273, 1.574627446030476, 0.1429170515795592,
        1.95590138953105, 1.7565469868636887, -1.3886593407427212, -0.9107408202099098,
        2.0052328916642717, 0.4170787313846685],
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_float32_matches_torch(name):
    ps, _ = _run(minitorch, name, "float32")
    assert ps[0].dtype == minitorch.float32
    np.testing.assert_allclose(_flat(ps), _expected_params(name, "float32"),
                               rtol=4e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_float64_matches_torch(name):
    ps, _ = _run(minitorch, name, "float64")
    np.testing.assert_allclose(_flat(ps), _expected_params(name, "float64"),
                               rtol=1e-13, atol=1e-14)


def _state_layout(mod, cls):
    """The state_dict of a two-parameter optimizer after one step: (group keys in order, the
    state keys of the first parameter, their dtypes, whether the second one has state)."""
    ps = [mod.tensor([1.0, 2.0], requires_grad=True), mod.tensor([3.0], requires_grad=True)]
    kw = dict(momentum=0.5, centered=True) if cls == "RMSprop" else {}
    opt = getattr(mod.optim, cls)(ps, **kw)
    ps[0].grad = mod.tensor([0.5, -0.25])
    opt.step()
    sd = opt.state_dict()
    state = sd["state"][0]
    return (list(sd["param_groups"][0]), list(state),
            [str(v.dtype).split(".")[-1] for v in state.values()], 1 in sd["state"])


# PyTorch 2.15's layouts
STATE_LAYOUTS = {
    'RMSprop': (['lr', 'momentum', 'alpha', 'eps', 'centered', 'weight_decay',
        'capturable', 'foreach', 'maximize', 'differentiable', 'params'], ['step',
        'square_avg', 'momentum_buffer', 'grad_avg'], ['float32', 'float32', 'float32',
        'float32'], False),
    'Adagrad': (['lr', 'lr_decay', 'eps', 'weight_decay', 'initial_accumulator_value',
        'foreach', 'maximize', 'differentiable', 'fused', 'params'], ['step', 'sum'],
        ['float32', 'float32'], True),
    'Adadelta': (['lr', 'rho', 'eps', 'weight_decay', 'maximize', 'capturable',
        'foreach', 'differentiable', 'params'], ['step', 'square_avg', 'acc_delta'],
        ['float32', 'float32', 'float32'], False),
    'Adamax': (['lr', 'betas', 'eps', 'weight_decay', 'foreach', 'maximize',
        'differentiable', 'capturable', 'params'], ['step', 'exp_avg', 'exp_inf'],
        ['float32', 'float32', 'float32'], False),
    'NAdam': (['lr', 'betas', 'eps', 'weight_decay', 'momentum_decay',
        'decoupled_weight_decay', 'maximize', 'foreach', 'capturable', 'differentiable',
        'params'], ['step', 'mu_product', 'exp_avg', 'exp_avg_sq'], ['float32', 'float32',
        'float32', 'float32'], False),
    'RAdam': (['lr', 'betas', 'eps', 'weight_decay', 'maximize', 'foreach',
        'capturable', 'decoupled_weight_decay', 'differentiable', 'params'], ['step',
        'exp_avg', 'exp_avg_sq'], ['float32', 'float32', 'float32'], False),
}


@pytest.mark.parametrize("cls", ["RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam"])
def test_state_dict_layout_matches_torch(cls):
    want = _state_layout(_torch, cls) if _torch is not None else STATE_LAYOUTS[cls]
    assert _state_layout(minitorch, cls) == tuple(want)


@pytest.mark.parametrize("name", ["rmsprop_all", "rmsprop_momentum", "adagrad_decay",
                                  "adadelta_weight_decay", "adamax_weight_decay",
                                  "nadam_weight_decay", "nadam_decoupled", "radam_decoupled",
                                  "radam_betas"])
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
    del ps, opt
    resumed, opt = _run(minitorch, name, "float32", steps=13,
                        start=(ckpt["params"], ckpt["optim"]))
    assert opt.state[resumed[0]]["step"].item() == 20.0
    assert [p.tolist() for p in resumed] == [p.tolist() for p in straight]


@pytest.mark.parametrize("cls", ["Adagrad", "NAdam", "RMSprop"])
def test_counters_saved_as_numbers_are_loaded_as_tensors(cls):
    # the layout of checkpoints from torch releases that kept plain numbers
    ps, opt = _run(minitorch, {"Adagrad": "adagrad_decay", "NAdam": "nadam_decoupled",
                               "RMSprop": "rmsprop_all"}[cls], "float64", steps=3)
    sd = copy.deepcopy(opt.state_dict())
    for state in sd["state"].values():
        for key in ("step", "mu_product"):
            if key in state:
                state[key] = state[key].item()
    fresh = getattr(minitorch.optim, cls)([p.detach().clone().requires_grad_() for p in ps])
    fresh.load_state_dict(sd)
    for p, q in zip(ps, fresh.param_groups[0]["params"]):
        for key, value in opt.state[p].items():
            loaded = fresh.state[q][key]
            assert isinstance(loaded, minitorch.Tensor) and loaded.dtype == value.dtype
            assert loaded.tolist() == value.tolist()


def test_the_torch_class_names_are_exported():
    for name in ["RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam"]:
        cls = getattr(minitorch.optim, name)
        assert cls.__name__ == name and issubclass(cls, minitorch.optim.Optimizer)
        assert name in minitorch.optim.__all__
    import minitorch.optim.rmsprop as module
    assert module.rmsprop.__name__ == "rmsprop"


def test_adagrad_makes_the_state_of_every_parameter_at_once():
    a = minitorch.ones(2, requires_grad=True)
    b = minitorch.ones(3, dtype=minitorch.float64, requires_grad=True)
    opt = minitorch.optim.Adagrad([a, b], initial_accumulator_value=0.25)
    sd = opt.state_dict()
    assert sorted(sd["state"]) == [0, 1]
    assert sd["state"][1]["sum"].tolist() == [0.25] * 3
    assert sd["state"][1]["sum"].dtype == minitorch.float64
    assert sd["state"][0]["step"].item() == 0.0
    a.grad = minitorch.ones(2)
    opt.step()
    assert opt.state[a]["step"].item() == 1.0 and opt.state[b]["step"].item() == 0.0
    assert b.tolist() == [1.0] * 3
    # a parameter added later gets its state on its first step, from the constructor's value
    c = minitorch.ones(1, requires_grad=True)
    opt.add_param_group({"params": [c], "initial_accumulator_value": 4.0})
    assert c not in opt.state
    c.grad = minitorch.ones(1)
    opt.step()
    assert opt.state[c]["sum"].tolist() == [1.25]


def test_rmsprop_keeps_only_the_buffers_it_uses():
    p = minitorch.ones(2, requires_grad=True)
    opt = minitorch.optim.RMSprop([p])
    p.grad = minitorch.ones(2)
    opt.step()
    assert list(opt.state[p]) == ["step", "square_avg"]


def test_nadam_mu_product_is_the_product_of_the_momentum_factors():
    p = minitorch.ones(1, dtype=minitorch.float64, requires_grad=True)
    opt = minitorch.optim.NAdam([p], betas=(0.9, 0.999), momentum_decay=0.004)
    for _ in range(3):
        p.grad = minitorch.ones(1, dtype=minitorch.float64)
        opt.step()
    want = math.prod(0.9 * (1 - 0.5 * 0.96 ** (t * 0.004)) for t in (1, 2, 3))
    assert opt.state[p]["mu_product"].item() == pytest.approx(want, rel=1e-7)
    assert opt.state[p]["mu_product"].dtype == minitorch.float32


@pytest.mark.parametrize("cls", ["RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam"])
def test_complex_parameters_are_updated_as_pairs_of_reals(cls):
    z = minitorch.tensor([1 + 2j, -0.5 + 0.25j], dtype=minitorch.complex128, requires_grad=True)
    r = minitorch.tensor([[1.0, 2.0], [-0.5, 0.25]], dtype=minitorch.float64,
                         requires_grad=True)
    kw = dict(weight_decay=0.1)
    if cls == "RMSprop":
        kw.update(momentum=0.5, centered=True)
    oz = getattr(minitorch.optim, cls)([z], **kw)
    orr = getattr(minitorch.optim, cls)([r], **kw)
    for s in range(5):
        z.grad = minitorch.tensor([0.5 - 1j * s, 0.25 + 0.125j * s], dtype=minitorch.complex128)
        r.grad = minitorch.tensor([[0.5, -1.0 * s], [0.25, 0.125 * s]], dtype=minitorch.float64)
        oz.step()
        orr.step()
    got = np.array(z.tolist())
    np.testing.assert_array_equal(np.stack([got.real, got.imag], -1), np.array(r.tolist()))


@pytest.mark.parametrize("cls", ["RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam"])
def test_training_with_a_closure_and_param_groups(cls):
    x = minitorch.tensor(_values(7, 32).reshape(8, 4), dtype=minitorch.float32)
    y = minitorch.tensor(_values(8, 8), dtype=minitorch.float32)
    w = minitorch.zeros(4, requires_grad=True)
    b = minitorch.zeros(1, requires_grad=True)
    opt = getattr(minitorch.optim, cls)([{"params": [w]}, {"params": [b], "lr": 0.0}], lr=0.05)

    def closure():
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        return loss

    losses = [opt.step(closure).item() for _ in range(30)]
    assert losses[-1] < losses[0]
    assert b.tolist() == [0.0] and w.is_leaf and w.grad_fn is None


@pytest.mark.parametrize("cls", ["RMSprop", "Adadelta", "Adamax", "NAdam", "RAdam"])
def test_capturable_is_refused_on_cpu(cls):
    p = minitorch.ones(1, requires_grad=True)
    opt = getattr(minitorch.optim, cls)([p], capturable=True)
    opt.step()  # no gradients: nothing to refuse
    p.grad = minitorch.ones(1)
    with pytest.raises(AssertionError, match=r"^If capturable=True, params(, mu_products)? and "
                                             r"state_steps must be on supported devices: "
                                             r"\['cuda', 'xpu', 'hpu', 'privateuseone'"):
        opt.step()


@pytest.mark.parametrize("cls", ["RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam"])
def test_tensor_learning_rate_is_used_as_its_value(cls):
    p = minitorch.ones(3, requires_grad=True)
    q = minitorch.ones(3, requires_grad=True)
    opt_t = getattr(minitorch.optim, cls)([p], lr=minitorch.tensor(0.25))
    opt_f = getattr(minitorch.optim, cls)([q], lr=0.25)
    for i in range(8):
        p.grad = minitorch.full((3,), float(i + 1))
        q.grad = minitorch.full((3,), float(i + 1))
        opt_t.step()
        opt_f.step()
    assert p.tolist() == q.tolist()


def _p(mod):
    return mod.ones(1, requires_grad=True)


BAD_ARGUMENTS = [
    (lambda m: m.optim.RMSprop([_p(m)], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    (lambda m: m.optim.RMSprop([_p(m)], eps=-1e-8), ValueError, "Invalid epsilon value: -1e-08"),
    (lambda m: m.optim.RMSprop([_p(m)], momentum=-0.1), ValueError,
     "Invalid momentum value: -0.1"),
    (lambda m: m.optim.RMSprop([_p(m)], weight_decay=-1), ValueError,
     "Invalid weight_decay value: -1"),
    (lambda m: m.optim.RMSprop([_p(m)], alpha=-0.5), ValueError, "Invalid alpha value: -0.5"),
    (lambda m: m.optim.RMSprop([_p(m)], lr=m.tensor([0.1, 0.2])), ValueError,
     "Tensor lr must be 1-element"),
    (lambda m: m.optim.Adagrad([_p(m)], lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
    (lambda m: m.optim.Adagrad([_p(m)], lr_decay=-1), ValueError, "Invalid lr_decay value: -1"),
    (lambda m: m.optim.Adagrad([_p(m)], weight_decay=-0.5), ValueError,
     "Invalid weight_decay value: -0.5"),
    (lambda m: m.optim.Adagrad([_p(m)], initial_accumulator_value=-2), ValueError,
     "Invalid initial_accumulator_value value: -2"),
    (lambda m: m.optim.Adagrad([_p(m)], eps=-1), ValueError, "Invalid epsilon value: -1"),
    (lambda m: m.optim.Adagrad([_p(m)], fused=True, differentiable=True), RuntimeError,
     "`fused` does not support `differentiable`"),
    (lambda m: m.optim.Adagrad([_p(m)], fused=True, foreach=True), RuntimeError,
     "`fused` and `foreach` cannot be `True` together."),
    (lambda m: m.optim.Adadelta([_p(m)], lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda m: m.optim.Adadelta([_p(m)], rho=1.5), ValueError, "Invalid rho value: 1.5"),
    (lambda m: m.optim.Adadelta([_p(m)], eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
    (lambda m: m.optim.Adadelta([_p(m)], weight_decay=-1), ValueError,
     "Invalid weight_decay value: -1"),
    (lambda m: m.optim.Adamax([_p(m)], lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda m: m.optim.Adamax([_p(m)], betas=(1.0, 0.9)), ValueError,
     "Invalid beta parameter at index 0: 1.0"),
    (lambda m: m.optim.Adamax([_p(m)], betas=(0.9, -0.1)), ValueError,
     "Invalid beta parameter at index 1: -0.1"),
    (lambda m: m.optim.Adamax([_p(m)], eps=-1), ValueError, "Invalid epsilon value: -1"),
    (lambda m: m.optim.NAdam([_p(m)], lr=-0.5), ValueError, "Invalid learning rate: -0.5"),
    (lambda m: m.optim.NAdam([_p(m)], betas=(0.9, 1.0)), ValueError,
     "Invalid beta parameter at index 1: 1.0"),
    (lambda m: m.optim.NAdam([_p(m)], weight_decay=-1), ValueError,
     "Invalid weight_decay value: -1"),
    (lambda m: m.optim.NAdam([_p(m)], momentum_decay=-0.1), ValueError,
     "Invalid momentum_decay value: -0.1"),
    (lambda m: m.optim.RAdam([_p(m)], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    (lambda m: m.optim.RAdam([_p(m)], betas=(-0.1, 0.9)), ValueError,
     "Invalid beta parameter at index 0: -0.1"),
    (lambda m: m.optim.RAdam([_p(m)], eps=-1), ValueError, "Invalid epsilon value: -1"),
    (lambda m: m.optim.RAdam([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
]


@pytest.mark.parametrize("index", range(len(BAD_ARGUMENTS)))
def test_bad_arguments_raise_as_torch(index):
    make, exc, message = BAD_ARGUMENTS[index]
    for mod in [minitorch] + ([_torch] if _torch is not None else []):
        with pytest.raises(exc) as info:
            make(mod)
        assert str(info.value) == message


# ---- schedulers ----------------------------------------------------------------------------------
def _sgd(mod):
    a = mod.zeros(2, requires_grad=True)
    b = mod.zeros(3, requires_grad=True)
    return mod.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.03}], lr=0.1, momentum=0.9)


def _adam(mod):
    a = mod.zeros(2, requires_grad=True)
    b = mod.zeros(3, requires_grad=True)
    return mod.optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.03}], lr=0.1)


class TriangleWave:
    """A scale_fn that is a callable object: its __dict__ goes into the state_dict."""

    def __init__(self, period):
        self.period = period

    def __call__(self, x):
        return 1.0 - abs((x % self.period) / self.period * 2 - 1)


def _L(mod):
    return mod.optim.lr_scheduler


# name: (optimizer, scheduler on it, number of steps)
SCHEDULER_CASES = {
    "OneCycleLR": (_sgd, lambda m, o: _L(m).OneCycleLR(o, max_lr=[1.0, 0.3], total_steps=20),
                   20),
    "OneCycleLR_linear_three_phase_adam": (
        _adam, lambda m, o: _L(m).OneCycleLR(o, max_lr=0.5, epochs=4, steps_per_epoch=5,
                                             anneal_strategy="linear", three_phase=True,
                                             base_momentum=[0.8, 0.7], max_momentum=0.9), 20),
    "OneCycleLR_no_momentum": (
        _sgd, lambda m, o: _L(m).OneCycleLR(o, max_lr=0.4, total_steps=15, pct_start=0.25,
                                            cycle_momentum=False, div_factor=10.0,
                                            final_div_factor=100.0), 15),
    "OneCycleLR_three_phase_cos": (
        _sgd, lambda m, o: _L(m).OneCycleLR(o, max_lr=[0.9, 0.1], total_steps=17,
                                            pct_start=0.4, three_phase=True), 17),
    "CyclicLR": (_sgd, lambda m, o: _L(m).CyclicLR(o, base_lr=0.01, max_lr=[0.1, 0.05],
                                                   step_size_up=4, step_size_down=2), 20),
    "CyclicLR_triangular2_adam": (
        _adam, lambda m, o: _L(m).CyclicLR(o, base_lr=[0.001, 0.002], max_lr=0.01,
                                           step_size_up=3, mode="triangular2",
                                           base_momentum=0.85, max_momentum=0.95), 20),
    "CyclicLR_exp_range": (
        _sgd, lambda m, o: _L(m).CyclicLR(o, base_lr=0.02, max_lr=0.2, step_size_up=5,
                                          mode="exp_range", gamma=0.9), 25),
    "CyclicLR_scale_fn": (
        _sgd, lambda m, o: _L(m).CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2,
                                          scale_fn=TriangleWave(7), scale_mode="iterations",
                                          cycle_momentum=False), 16),
    "CosineAnnealingWarmRestarts": (
        _sgd, lambda m, o: _L(m).CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2,
                                                             eta_min=0.001), 25),
    "CosineAnnealingWarmRestarts_T_mult_1": (
        _sgd, lambda m, o: _L(m).CosineAnnealingWarmRestarts(o, T_0=4), 12),
    "ChainedScheduler": (
        _sgd, lambda m, o: _L(m).ChainedScheduler(
            [_L(m).ConstantLR(o, factor=0.1, total_iters=3), _L(m).ExponentialLR(o, gamma=0.9)],
            optimizer=o), 8),
    "ChainedScheduler_three": (
        _adam, lambda m, o: _L(m).ChainedScheduler(
            [_L(m).LinearLR(o, start_factor=0.5, total_iters=4),
             _L(m).MultiStepLR(o, milestones=[3, 6], gamma=0.5),
             _L(m).CosineAnnealingLR(o, T_max=10)]), 12),
}


def _momenta(opt):
    return tuple(g["betas"][0] if "betas" in g else g["momentum"] for g in opt.param_groups)


def _schedule(mod, name):
    """(lrs, momenta) after construction and after each step."""
    make_opt, make_sched, n = SCHEDULER_CASES[name]
    opt = make_opt(mod)
    sched = make_sched(mod, opt)
    out = [(tuple(sched.get_last_lr()), _momenta(opt))]
    for _ in range(n):
        opt.step()
        sched.step()
        lrs = tuple(sched.get_last_lr())
        assert lrs == tuple(g["lr"] for g in opt.param_groups)
        out.append((lrs, _momenta(opt)))
    return out


# PyTorch 2.15's values
SCHEDULES = {
    'OneCycleLR': [
        ((0.040000000000000036, 0.01200000000000001), (0.95, 0.95)), ((0.1316718427000253,
        0.039501552810007556), (0.9404508497187474, 0.9404508497187474)),
        ((0.3716718427000253, 0.11150155281000756), (0.9154508497187474,
        0.9154508497187474)), ((0.6683281572999747, 0.2004984471899924),
        (0.8845491502812526, 0.8845491502812526)), ((0.9083281572999747,
        0.2724984471899924), (0.8595491502812526, 0.8595491502812526)), ((1.0, 0.3), (0.85,
        0.85)), ((0.9874640062350873, 0.2962392018705262), (0.8512536043909088,
        0.8512536043909088)), ((0.9504846320134737, 0.2851453896040421), (0.854951556604879,
        0.854951556604879)), ((0.89091617757105, 0.267274853271315), (0.8609084258765984,
        0.8609084258765984)), ((0.8117456539497631, 0.24352369618492894),
        (0.8688255099070633, 0.8688255099070633)), ((0.7169430017913008,
        0.21508290053739026), (0.878305813044122, 0.878305813044122)), ((0.6112620219362893,
        0.18337860658088678), (0.8888739533021842, 0.8888739533021842)), ((0.500002,
        0.1500006), (0.8999999999999999, 0.8999999999999999)), ((0.38874197806371075,
        0.11662259341911323), (0.9111260466978157, 0.9111260466978157)),
        ((0.28306099820869923, 0.08491829946260977), (0.9216941869558779,
        0.9216941869558779)), ((0.18825834605023697, 0.05647750381507109),
        (0.9311744900929366, 0.9311744900929366)), ((0.10908782242895004,
        0.03272634672868501), (0.9390915741234015, 0.9390915741234015)),
        ((0.049519367986526286, 0.014855810395957887), (0.945048443395121,
        0.945048443395121)), ((0.012539993764912554, 0.0037619981294737662),
        (0.9487463956090911, 0.9487463956090911)), ((4e-06, 1.2e-06), (0.95, 0.95)),
        ((0.012539993764912554, 0.0037619981294737662), (0.9487463956090911,
        0.9487463956090911))],
    'OneCycleLR_linear_three_phase_adam': [
        ((0.02, 0.02), (0.9, 0.9)), ((0.116, 0.116), (0.88, 0.86)), ((0.212, 0.212), (0.86,
        0.82)), ((0.308, 0.308), (0.8400000000000001, 0.78)), ((0.404, 0.404),
        (0.8200000000000001, 0.74)), ((0.5, 0.5), (0.8, 0.7)), ((0.404, 0.404),
        (0.8200000000000001, 0.74)), ((0.308, 0.308), (0.8400000000000001, 0.78)),
        ((0.21200000000000002, 0.21200000000000002), (0.86, 0.82)), ((0.11599999999999999,
        0.11599999999999999), (0.88, 0.86)), ((0.020000000000000018, 0.020000000000000018),
        (0.9, 0.9)), ((0.017778000000000002, 0.017778000000000002), (0.9, 0.9)), ((0.015556,
        0.015556), (0.9, 0.9)), ((0.013334, 0.013334), (0.9, 0.9)), ((0.011112, 0.011112),
        (0.9, 0.9)), ((0.008889999999999999, 0.008889999999999999), (0.9, 0.9)), ((0.006668,
        0.006668), (0.9, 0.9)), ((0.0044459999999999986, 0.0044459999999999986), (0.9,
        0.9)), ((0.0022240000000000003, 0.0022240000000000003), (0.9, 0.9)),
        ((1.9999999999985307e-06, 1.9999999999985307e-06), (0.9, 0.9)),
        ((-0.0022200000000000032, -0.0022200000000000032), (0.9, 0.9))],
    'OneCycleLR_no_momentum': [
        ((0.03999999999999998, 0.03999999999999998), (0.9, 0.9)), ((0.1452252976596604,
        0.1452252976596604), (0.9, 0.9)), ((0.3378749321101513, 0.3378749321101513), (0.9,
        0.9)), ((0.3995132972419129, 0.3995132972419129), (0.9, 0.9)),
        ((0.38795058563302454, 0.38795058563302454), (0.9, 0.9)), ((0.3618415954761145,
        0.3618415954761145), (0.9, 0.9)), ((0.3232091627700665, 0.3232091627700665), (0.9,
        0.9)), ((0.27504639736449926, 0.27504639736449926), (0.9, 0.9)),
        ((0.2210847869608772, 0.2210847869608772), (0.9, 0.9)), ((0.16550509410214734,
        0.16550509410214734), (0.9, 0.9)), ((0.11261344487154232, 0.11261344487154232),
        (0.9, 0.9)), ((0.0665077048495002, 0.0665077048495002), (0.9, 0.9)),
        ((0.030759990387946096, 0.030759990387946096), (0.9, 0.9)), ((0.008139913151523884,
        0.008139913151523884), (0.9, 0.9)), ((0.0004, 0.0004), (0.9, 0.9)),
        ((0.008139913151523863, 0.008139913151523863), (0.9, 0.9))],
    'OneCycleLR_three_phase_cos': [
        ((0.03600000000000003, 0.0040000000000000036), (0.95, 0.95)), ((0.09783769989560154,
        0.010870855543955726), (0.9428428588083794, 0.9428428588083794)),
        ((0.26564755361769055, 0.02951639484641007), (0.9234204220349895,
        0.9234204220349895)), ((0.4913880085089003, 0.054598667612100034),
        (0.897293054570729, 0.897293054570729)), ((0.7104328122365491, 0.07893697913739434),
        (0.8719406467318809, 0.8719406467318809)), ((0.8600725812978534,
        0.09556362014420594), (0.8546212290164521, 0.8546212290164521)),
        ((0.8974675974906834, 0.09971862194340926), (0.850293102142282, 0.850293102142282)),
        ((0.8119122043848382, 0.09021246715387092), (0.8601953467147178,
        0.8601953467147178)), ((0.6278996831068433, 0.06976663145631593),
        (0.8814930922330042, 0.8814930922330042)), ((0.3981101774892061,
        0.044234464165467335), (0.9080890998276382, 0.9080890998276382)),
        ((0.18832912497425078, 0.02092545833047231), (0.9323693142390913,
        0.9323693142390913)), ((0.05861383004902944, 0.006512647783225493),
        (0.9473826585591401, 0.9473826585591401)), ((0.03527094643770845,
        0.003918994048634272), (0.95, 0.95)), ((0.02773236156072935, 0.0030813735067477047),
        (0.95, 0.95)), ((0.01544038907778977, 0.0017155987864210854), (0.95, 0.95)),
        ((0.004399668010857192, 0.0004888520012063545), (0.95, 0.95)),
        ((3.6000000000000003e-06, 4e-07), (0.95, 0.95)), ((0.004399668010857187,
        0.000488852001206354), (0.95, 0.95))],
    'CyclicLR': [
        ((0.01, 0.01), (0.9, 0.9)), ((0.032500000000000015, 0.020000000000000004), (0.875,
        0.875)), ((0.055, 0.03), (0.8500000000000001, 0.8500000000000001)), ((0.0775, 0.04),
        (0.8250000000000001, 0.8250000000000001)), ((0.09999999999999999,
        0.049999999999999996), (0.8, 0.8)), ((0.054999999999999966, 0.029999999999999978),
        (0.8500000000000001, 0.8500000000000001)), ((0.01, 0.01), (0.9, 0.9)),
        ((0.03250000000000004, 0.020000000000000018), (0.875, 0.875)),
        ((0.054999999999999966, 0.029999999999999985), (0.8500000000000001,
        0.8500000000000001)), ((0.0775, 0.04), (0.8250000000000001, 0.8250000000000001)),
        ((0.09999999999999992, 0.04999999999999996), (0.8000000000000002,
        0.8000000000000002)), ((0.05500000000000008, 0.030000000000000034), (0.85, 0.85)),
        ((0.01, 0.01), (0.9, 0.9)), ((0.03249999999999998, 0.01999999999999999), (0.875,
        0.875)), ((0.05500000000000003, 0.030000000000000013), (0.85, 0.85)), ((0.0775,
        0.04), (0.8250000000000001, 0.8250000000000001)), ((0.09999999999999999,
        0.049999999999999996), (0.8, 0.8)), ((0.054999999999999966, 0.029999999999999978),
        (0.8500000000000001, 0.8500000000000001)), ((0.01, 0.01), (0.9, 0.9)),
        ((0.032499999999999925, 0.019999999999999966), (0.8750000000000001,
        0.8750000000000001)), ((0.05500000000000009, 0.030000000000000034), (0.85, 0.85))],
    'CyclicLR_triangular2_adam': [
        ((0.001, 0.002), (0.95, 0.95)), ((0.004000000000000002, 0.004666666666666668),
        (0.9166666666666666, 0.9166666666666666)), ((0.006999999999999999,
        0.007333333333333332), (0.8833333333333333, 0.8833333333333333)),
        ((0.010000000000000002, 0.01), (0.85, 0.85)), ((0.007000000000000004,
        0.007333333333333336), (0.8833333333333333, 0.8833333333333333)),
        ((0.003999999999999998, 0.0046666666666666645), (0.9166666666666666,
        0.9166666666666666)), ((0.001, 0.002), (0.95, 0.95)), ((0.002500000000000003,
        0.0033333333333333357), (0.9333333333333332, 0.9333333333333332)),
        ((0.003999999999999998, 0.0046666666666666645), (0.9166666666666666,
        0.9166666666666666)), ((0.0055000000000000005, 0.006), (0.8999999999999999,
        0.8999999999999999)), ((0.003999999999999998, 0.0046666666666666645),
        (0.9166666666666666, 0.9166666666666666)), ((0.002500000000000003,
        0.0033333333333333357), (0.9333333333333332, 0.9333333333333332)), ((0.001, 0.002),
        (0.95, 0.95)), ((0.0017499999999999994, 0.002666666666666666), (0.9416666666666667,
        0.9416666666666667)), ((0.002500000000000001, 0.003333333333333334),
        (0.9333333333333332, 0.9333333333333332)), ((0.0032500000000000003, 0.004),
        (0.9249999999999999, 0.9249999999999999)), ((0.002500000000000001,
        0.003333333333333334), (0.9333333333333332, 0.9333333333333332)),
        ((0.0017499999999999994, 0.002666666666666666), (0.9416666666666667,
        0.9416666666666667)), ((0.001, 0.002), (0.95, 0.95)), ((0.0013749999999999986,
        0.0023333333333333322), (0.9458333333333333, 0.9458333333333333)),
        ((0.0017500000000000016, 0.002666666666666668), (0.9416666666666667,
        0.9416666666666667))],
    'CyclicLR_exp_range': [
        ((0.02, 0.02), (0.9, 0.9)), ((0.05240000000000003, 0.05240000000000003), (0.882,
        0.882)), ((0.07832, 0.07832), (0.8676, 0.8676)), ((0.09873200000000003,
        0.09873200000000003), (0.85626, 0.85626)), ((0.1144784, 0.1144784), (0.847512,
        0.847512)), ((0.12628820000000002, 0.12628820000000002), (0.840951, 0.840951)),
        ((0.096527504, 0.096527504), (0.8574847200000001, 0.8574847200000001)),
        ((0.07165606520000002, 0.07165606520000002), (0.871302186, 0.871302186)),
        ((0.05099363912, 0.05099363912), (0.8827813116000001, 0.8827813116000001)),
        ((0.03394713760400002, 0.03394713760400002), (0.89225159022, 0.89225159022)),
        ((0.02, 0.02), (0.9, 0.9)), ((0.031297181459240014, 0.031297181459240014),
        (0.8937237880782, 0.8937237880782)), ((0.04033492662663203, 0.04033492662663203),
        (0.88870281854076, 0.88870281854076)), ((0.04745215094595319, 0.04745215094595319),
        (0.8847488050300261, 0.8847488050300261)), ((0.05294258113514386,
        0.05294258113514386), (0.8816985660360313, 0.8816985660360313)),
        ((0.05706040377703683, 0.05706040377703683), (0.8794108867905351,
        0.8794108867905351)), ((0.04668349071946652, 0.04668349071946652),
        (0.8851758384891852, 0.8851758384891852)), ((0.03801135623563989,
        0.03801135623563989), (0.8899936909802001, 0.8899936909802001)),
        ((0.030806813741383953, 0.030806813741383953), (0.8939962145881201,
        0.8939962145881201)), ((0.02486306618362278, 0.02486306618362278),
        (0.897298296564654, 0.897298296564654)), ((0.02, 0.02), (0.9, 0.9)),
        ((0.02393908360873445, 0.02393908360873445), (0.8978116202173698,
        0.8978116202173698)), ((0.02709035049572201, 0.02709035049572201),
        (0.8960609163912656, 0.8960609163912656)), ((0.029571973169224705,
        0.029571973169224705), (0.8946822371282085, 0.8946822371282085)),
        ((0.03148636780306965, 0.03148636780306965), (0.8936186845538502,
        0.8936186845538502)), ((0.032922163778453355, 0.032922163778453355),
        (0.8928210201230815, 0.8928210201230815))],
    'CyclicLR_scale_fn': [
        ((0.01, 0.01), (0.9, 0.9)), ((0.02285714285714286, 0.02285714285714286), (0.9,
        0.9)), ((0.06142857142857144, 0.06142857142857144), (0.9, 0.9)),
        ((0.04857142857142858, 0.04857142857142858), (0.9, 0.9)), ((0.01, 0.01), (0.9,
        0.9)), ((0.03571428571428572, 0.03571428571428572), (0.9, 0.9)),
        ((0.035714285714285726, 0.035714285714285726), (0.9, 0.9)), ((0.01, 0.01), (0.9,
        0.9)), ((0.01, 0.01), (0.9, 0.9)), ((0.03571428571428572, 0.03571428571428572),
        (0.9, 0.9)), ((0.08714285714285715, 0.08714285714285715), (0.9, 0.9)),
        ((0.04857142857142858, 0.04857142857142858), (0.9, 0.9)), ((0.01, 0.01), (0.9,
        0.9)), ((0.02285714285714286, 0.02285714285714286), (0.9, 0.9)), ((0.01, 0.01),
        (0.9, 0.9)), ((0.02285714285714286, 0.02285714285714286), (0.9, 0.9)), ((0.01,
        0.01), (0.9, 0.9))],
    'CosineAnnealingWarmRestarts': [
        ((0.1, 0.03), (0.9, 0.9)), ((0.07525000000000001, 0.02275), (0.9, 0.9)),
        ((0.025750000000000012, 0.008250000000000004), (0.9, 0.9)), ((0.1, 0.03), (0.9,
        0.9)), ((0.09336825748732973, 0.02805736835487436), (0.9, 0.9)),
        ((0.07525000000000001, 0.02275), (0.9, 0.9)), ((0.0505, 0.0155), (0.9, 0.9)),
        ((0.025750000000000012, 0.008250000000000004), (0.9, 0.9)), ((0.007631742512670284,
        0.002942631645125639), (0.9, 0.9)), ((0.1, 0.03), (0.9, 0.9)),
        ((0.09831332840130888, 0.02950592448119149), (0.9, 0.9)), ((0.09336825748732973,
        0.02805736835487436), (0.9, 0.9)), ((0.0855017856687341, 0.025753048327204937),
        (0.9, 0.9)), ((0.07525000000000001, 0.02275), (0.9, 0.9)), ((0.06331154273257478,
        0.01925287615398655), (0.9, 0.9)), ((0.0505, 0.0155), (0.9, 0.9)),
        ((0.03768845726742523, 0.011747123846013448), (0.9, 0.9)), ((0.025750000000000012,
        0.008250000000000004), (0.9, 0.9)), ((0.0154982143312659, 0.0052469516727950615),
        (0.9, 0.9)), ((0.007631742512670284, 0.002942631645125639), (0.9, 0.9)),
        ((0.0026866715986911243, 0.001494075518808511), (0.9, 0.9)), ((0.1, 0.03), (0.9,
        0.9)), ((0.09957652063800362, 0.029875950489920252), (0.9, 0.9)),
        ((0.09831332840130888, 0.02950592448119149), (0.9, 0.9)), ((0.0962320368593087,
        0.028896253221413655), (0.9, 0.9)), ((0.09336825748732973, 0.02805736835487436),
        (0.9, 0.9))],
    'CosineAnnealingWarmRestarts_T_mult_1': [
        ((0.1, 0.03), (0.9, 0.9)), ((0.08535533905932738, 0.02560660171779821), (0.9, 0.9)),
        ((0.05, 0.015), (0.9, 0.9)), ((0.014644660940672627, 0.004393398282201788), (0.9,
        0.9)), ((0.1, 0.03), (0.9, 0.9)), ((0.08535533905932738, 0.02560660171779821), (0.9,
        0.9)), ((0.05, 0.015), (0.9, 0.9)), ((0.014644660940672627, 0.004393398282201788),
        (0.9, 0.9)), ((0.1, 0.03), (0.9, 0.9)), ((0.08535533905932738, 0.02560660171779821),
        (0.9, 0.9)), ((0.05, 0.015), (0.9, 0.9)), ((0.014644660940672627,
        0.004393398282201788), (0.9, 0.9)), ((0.1, 0.03), (0.9, 0.9))],
    'ChainedScheduler': [
        ((0.010000000000000002, 0.003), (0.9, 0.9)), ((0.009000000000000003, 0.0027), (0.9,
        0.9)), ((0.008100000000000003, 0.0024300000000000003), (0.9, 0.9)),
        ((0.07290000000000003, 0.021870000000000004), (0.9, 0.9)), ((0.06561000000000003,
        0.019683000000000003), (0.9, 0.9)), ((0.059049000000000025, 0.017714700000000003),
        (0.9, 0.9)), ((0.05314410000000002, 0.015943230000000003), (0.9, 0.9)),
        ((0.04782969000000002, 0.014348907000000003), (0.9, 0.9)), ((0.043046721000000024,
        0.012914016300000003), (0.9, 0.9))],
    'ChainedScheduler_three': [
        ((0.05, 0.015), (0.9, 0.9)), ((0.06097051613422355, 0.018291154840267065), (0.9,
        0.9)), ((0.06783813728906052, 0.020351441186718156), (0.9, 0.9)),
        ((0.034732802393897845, 0.010419840718169354), (0.9, 0.9)), ((0.03272542485937368,
        0.009817627457812105), (0.9, 0.9)), ((0.024999999999999994, 0.0075), (0.9, 0.9)),
        ((0.008637287570313157, 0.0025911862710939473), (0.9, 0.9)),
        ((0.0051526843463440865, 0.001545805303903226), (0.9, 0.9)), ((0.002387287570313158,
        0.0007161862710939475), (0.9, 0.9)), ((0.0006117935463105808,
        0.00018353806389317424), (0.9, 0.9)), ((0.0, 0.0), (0.9, 0.9)),
        ((0.0024471741852423235, 0.000734152255572697), (0.9, 0.9)), ((0.009549150281252666,
        0.0028647450843757995), (0.9, 0.9))],
}


def _same(got, want):
    assert len(got) == len(want)
    for (lrs, moms), (want_lrs, want_moms) in zip(got, want):
        assert list(lrs) == pytest.approx(list(want_lrs), rel=1e-15, abs=1e-18)
        assert list(moms) == pytest.approx(list(want_moms), rel=1e-15, abs=1e-18)


@pytest.mark.parametrize("name", sorted(SCHEDULER_CASES))
def test_schedule_matches_torch(name):
    want = _schedule(_torch, name) if _torch is not None else SCHEDULES[name]
    _same(_schedule(minitorch, name), want)


def _warm_restart_epochs(mod, T_mult):
    """step(epoch) with fractional epochs, then plain steps."""
    opt = _sgd(mod)
    sched = _L(mod).CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=T_mult, eta_min=0.01)
    out = []
    for epoch in [0.5, 1.25, 2.0, 2.75, 5.5, 6.0, 13.9, 14.0, 3.3, 31.0, 0.0]:
        opt.step()
        sched.step(epoch)
        out.append((sched.get_last_lr()[0], sched.T_cur, sched.T_i, sched.last_epoch))
    for _ in range(4):
        sched.step()
        out.append((sched.get_last_lr()[0], sched.T_cur, sched.T_i, sched.last_epoch))
    return out


# PyTorch 2.15's (lr, T_cur, T_i, last_epoch) sequences
WARM_RESTART_EPOCHS = {
    1: [
        (0.08681980515339464, 0.5, 2, 0), (0.03777924554357097, 1.25, 2, 1), (0.1, 0.0, 2,
        2), (0.07222075445642905, 0.75, 2, 2), (0.023180194846605363, 1.5, 2, 5), (0.1, 0.0,
        2, 6), (0.0105540246732188, 1.9000000000000004, 2, 13), (0.1, 0.0, 2, 14),
        (0.03457042751172042, 1.2999999999999998, 2, 3), (0.05500000000000001, 1.0, 2, 31),
        (0.1, 0.0, 2, 0), (0.05500000000000001, 1.0, 2, 1), (0.1, 0.0, 2, 2),
        (0.05500000000000001, 1.0, 2, 3), (0.1, 0.0, 2, 4)],
    2: [
        (0.08681980515339464, 0.5, 2, 0), (0.03777924554357097, 1.25, 2, 1), (0.1, 0.0, 4,
        2), (0.09241613255361454, 0.75, 4, 2), (0.013425421036992097, 3.5, 4, 5), (0.1, 0.0,
        8, 6), (0.01003469336916747, 7.9, 8, 13), (0.1, 0.0, 16, 14), (0.07851243541221772,
        1.2999999999999998, 4, 3), (0.09978331270024887, 1.0, 32, 31), (0.1, 0.0, 2, 0),
        (0.05500000000000001, 1.0, 2, 1), (0.1, 0.0, 4, 2), (0.08681980515339464, 1.0, 4,
        3), (0.05500000000000001, 2.0, 4, 4)],
    3: [
        (0.08681980515339464, 0.5, 2, 0), (0.03777924554357097, 1.25, 2, 1), (0.1, 0.0, 6,
        2), (0.0965745789630079, 0.75, 6, 2), (0.04335314297038658, 3.5, 6, 5),
        (0.032500000000000015, 4.0, 6, 6), (0.07817671337095244, 5.9, 18, 13), (0.0775, 6.0,
        18, 14), (0.0899715682655637, 1.2999999999999998, 6, 3), (0.09810952805419701, 5.0,
        54, 31), (0.1, 0.0, 2, 0), (0.05500000000000001, 1.0, 2, 1), (0.1, 0.0, 6, 2),
        (0.09397114317029975, 1.0, 6, 3), (0.0775, 2.0, 6, 4)],
}


@pytest.mark.parametrize("T_mult", [1, 2, 3])
def test_warm_restarts_with_fractional_epochs_match_torch(T_mult):
    want = (_warm_restart_epochs(_torch, T_mult) if _torch is not None
            else WARM_RESTART_EPOCHS[T_mult])
    got = _warm_restart_epochs(minitorch, T_mult)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == pytest.approx(tuple(w), rel=1e-15, abs=1e-18)


def test_warm_restarts_with_a_negative_epoch_raise():
    sched = _L(minitorch).CosineAnnealingWarmRestarts(_sgd(minitorch), T_0=2)
    with pytest.raises(ValueError, match="^Expected non-negative epoch, but got -1$"):
        sched.step(-1)


def test_one_cycle_raises_when_stepped_past_total_steps():
    opt = _sgd(minitorch)
    sched = _L(minitorch).OneCycleLR(opt, max_lr=0.1, total_steps=5)
    for _ in range(5):
        opt.step()
        sched.step()
    with pytest.raises(ValueError, match="^Tried to step 6 times. The specified number of total "
                                         "steps is 5$"):
        sched.step()


def test_one_cycle_and_cyclic_set_up_the_param_groups():
    opt = _adam(minitorch)
    _L(minitorch).OneCycleLR(opt, max_lr=[1.0, 0.5], total_steps=10, div_factor=4.0,
                             final_div_factor=5.0)
    assert [(g["initial_lr"], g["max_lr"], g["min_lr"]) for g in opt.param_groups] == [
        (0.25, 1.0, 0.05), (0.125, 0.5, 0.025)]
    assert [(g["betas"], g["max_momentum"], g["base_momentum"]) for g in opt.param_groups] == [
        ((0.95, 0.999), 0.95, 0.85)] * 2
    assert [g["lr"] for g in opt.param_groups] == [0.25, 0.125]

    opt = _sgd(minitorch)
    sched = _L(minitorch).CyclicLR(opt, base_lr=[0.01, 0.02], max_lr=0.1)
    assert sched.base_lrs == [0.01, 0.02] and sched.max_lrs == [0.1, 0.1]
    assert [g["lr"] for g in opt.param_groups] == [0.01, 0.02]
    assert [g["momentum"] for g in opt.param_groups] == [0.9, 0.9]
    assert sched.total_size == 4000.0 and sched.step_ratio == 0.5


def _scheduler_state_keys(mod, name):
    make_opt, make_sched, _ = SCHEDULER_CASES[name]
    sd = make_sched(mod, make_opt(mod)).state_dict()
    keys = sorted(sd)
    if "_schedulers" in sd:
        keys.append([sorted(s) for s in sd["_schedulers"]])
    return keys


# PyTorch 2.15's keys of the schedulers' state_dict()
SCHEDULER_STATE_KEYS = {
    'OneCycleLR': [
        '_anneal_func_type', '_get_lr_called_within_step', '_is_initial', '_last_lr',
        '_schedule_phases', '_step_count', 'base_lrs', 'cycle_momentum', 'last_epoch',
        'total_steps', 'use_beta1'],
    'CyclicLR_scale_fn': [
        '_get_lr_called_within_step', '_is_initial', '_last_lr', '_scale_fn_custom',
        '_step_count', 'base_lrs', 'cycle_momentum', 'gamma', 'last_epoch', 'max_lrs',
        'mode', 'scale_mode', 'step_ratio', 'total_size'],
    'CyclicLR_exp_range': [
        '_get_lr_called_within_step', '_is_initial', '_last_lr', '_scale_fn_custom',
        '_step_count', 'base_lrs', 'base_momentums', 'cycle_momentum', 'gamma',
        'last_epoch', 'max_lrs', 'max_momentums', 'mode', 'scale_mode', 'step_ratio',
        'total_size', 'use_beta1'],
    'CosineAnnealingWarmRestarts': [
        'T_0', 'T_cur', 'T_i', 'T_mult', '_get_lr_called_within_step', '_is_initial',
        '_last_lr', '_step_count', 'base_lrs', 'eta_min', 'last_epoch'],
    'ChainedScheduler': [
        '_last_lr', '_schedulers', [['_get_lr_called_within_step', '_is_initial',
        '_last_lr', '_step_count', 'base_lrs', 'factor', 'last_epoch', 'total_iters'],
        ['_get_lr_called_within_step', '_is_initial', '_last_lr', '_step_count', 'base_lrs',
        'gamma', 'last_epoch']]],
}


@pytest.mark.parametrize("name", ["OneCycleLR", "CyclicLR_scale_fn", "CyclicLR_exp_range",
                                  "CosineAnnealingWarmRestarts", "ChainedScheduler"])
def test_scheduler_state_dict_keys_match_torch(name):
    want = (_scheduler_state_keys(_torch, name) if _torch is not None
            else SCHEDULER_STATE_KEYS[name])
    assert _scheduler_state_keys(minitorch, name) == want


@pytest.mark.parametrize("name", ["OneCycleLR", "OneCycleLR_linear_three_phase_adam",
                                  "CyclicLR_triangular2_adam", "CyclicLR_scale_fn",
                                  "CosineAnnealingWarmRestarts", "ChainedScheduler_three"])
def test_scheduler_state_dict_round_trip(name):
    make_opt, make_sched, n = SCHEDULER_CASES[name]
    want = _schedule(minitorch, name)
    opt = make_opt(minitorch)
    sched = make_sched(minitorch, opt)
    for _ in range(n // 2):
        opt.step()
        sched.step()
    saved = pickle.loads(pickle.dumps((opt.state_dict(), sched.state_dict())))
    assert "optimizer" not in saved[1]
    if name == "CyclicLR_scale_fn":
        assert saved[1]["_scale_fn_custom"] == {"period": 7}

    opt = make_opt(minitorch)
    sched = make_sched(minitorch, opt)
    if name == "CyclicLR_scale_fn":
        sched._scale_fn_custom.period = 3
    opt.load_state_dict(saved[0])
    sched.load_state_dict(saved[1])
    if name == "CyclicLR_scale_fn":
        assert sched._scale_fn_custom.period == 7
        assert saved[1]["_scale_fn_custom"] == {"period": 7}
    got = [(tuple(sched.get_last_lr()), _momenta(opt))]
    for _ in range(n - n // 2):
        opt.step()
        sched.step()
        got.append((tuple(sched.get_last_lr()), _momenta(opt)))
    assert got == want[n // 2:]


def test_cyclic_state_dict_does_not_save_a_function_scale_fn():
    opt = _sgd(minitorch)
    sched = _L(minitorch).CyclicLR(opt, 0.01, 0.1, scale_fn=lambda x: 0.5)
    sd = sched.state_dict()
    assert sd["_scale_fn_custom"] is None
    sched.load_state_dict(sd)
    assert sd["_scale_fn_custom"] is None and sched.scale_fn(3) == 0.5


def test_chained_scheduler_takes_the_optimizer_of_its_first_scheduler():
    opt = _sgd(minitorch)
    L = _L(minitorch)
    first = L.ExponentialLR(opt, gamma=0.5)
    chained = L.ChainedScheduler([first, L.StepLR(opt, step_size=2)])
    assert chained.optimizer is opt and chained.get_last_lr() == [0.1, 0.03]
    assert chained._schedulers[0] is first


BAD_SCHEDULER_ARGUMENTS = [
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=0.1), ValueError,
     "You must define either total_steps OR (epochs AND steps_per_epoch)"),
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=0.1, total_steps=0), ValueError,
     "Expected positive integer total_steps, but got 0"),
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=0.1, epochs=2.0, steps_per_epoch=3), ValueError,
     "Expected positive integer epochs, but got 2.0"),
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=0.1, epochs=2, steps_per_epoch=-3), ValueError,
     "Expected positive integer steps_per_epoch, but got -3"),
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=0.1, total_steps=10, pct_start=1.5), ValueError,
     "Expected float between 0 and 1 pct_start, but got 1.5"),
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=0.1, total_steps=10, pct_start=1), ValueError,
     "Expected float between 0 and 1 pct_start, but got 1"),
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=0.1, total_steps=10, anneal_strategy="exp"),
     ValueError, "anneal_strategy must be one of 'cos' or 'linear', instead got exp"),
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=[0.1], total_steps=10), ValueError,
     "max_lr must have the same length as optimizer.param_groups. max_lr has 1 values, "
     "param_groups has 2."),
    (lambda m, o: _L(m).OneCycleLR(o, max_lr=0.1, total_steps=10,
                                   max_momentum=(0.9, 0.9, 0.9)), ValueError,
     "max_momentum must have the same length as optimizer.param_groups. max_momentum has 3 "
     "values, param_groups has 2."),
    (lambda m, o: _L(m).OneCycleLR(m.optim.Adagrad(o.param_groups[0]["params"]), max_lr=0.1,
                                   total_steps=10), ValueError,
     "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"),
    (lambda m, o: _L(m).OneCycleLR(None, max_lr=0.1, total_steps=10), TypeError,
     "NoneType is not an Optimizer"),
    (lambda m, o: _L(m).CyclicLR(o, 0.01, 0.1, mode="square"), ValueError,
     "mode is invalid and scale_fn is None"),
    (lambda m, o: _L(m).CyclicLR(o, [0.01, 0.02, 0.03], 0.1), ValueError,
     "base_lr must have the same length as optimizer.param_groups. base_lr has 3 values, "
     "param_groups has 2."),
    (lambda m, o: _L(m).CyclicLR(m.optim.Adagrad(o.param_groups[0]["params"]), 0.01, 0.1),
     ValueError, "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"),
    (lambda m, o: _L(m).CyclicLR("sgd", 0.01, 0.1), TypeError, "str is not an Optimizer"),
    (lambda m, o: _L(m).CosineAnnealingWarmRestarts(o, T_0=0), ValueError,
     "Expected positive integer T_0, but got 0"),
    (lambda m, o: _L(m).CosineAnnealingWarmRestarts(o, T_0=2.5), ValueError,
     "Expected positive integer T_0, but got 2.5"),
    (lambda m, o: _L(m).CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0), ValueError,
     "Expected integer T_mult >= 1, but got 0"),
    (lambda m, o: _L(m).CosineAnnealingWarmRestarts(o, T_0=2, T_mult=1.5), ValueError,
     "Expected integer T_mult >= 1, but got 1.5"),
    (lambda m, o: _L(m).CosineAnnealingWarmRestarts(o, T_0=2, eta_min="0"), ValueError,
     "Expected float or int eta_min, but got 0 of type <class 'str'>"),
    (lambda m, o: _L(m).ChainedScheduler([]), ValueError,
     "ChainedScheduler expects at least one scheduler to be chained, but got no scheduler."),
    (lambda m, o: _L(m).ChainedScheduler([_L(m).StepLR(o, 2), _L(m).ReduceLROnPlateau(o)]),
     ValueError, "ChainedScheduler does not support `ReduceLROnPlateau` scheduler as it requires "
     "additional kwargs to be specified when calling `step`, but got one at index 1 in the given "
     "schedulers sequence."),
    (lambda m, o: _L(m).ChainedScheduler([_L(m).StepLR(o, 2), object()]), TypeError,
     "ChainedScheduler at index 1 should have `optimizer` as its attribute."),
]


@pytest.mark.parametrize("index", range(len(BAD_SCHEDULER_ARGUMENTS)))
def test_bad_scheduler_arguments_raise_as_torch(index):
    make, exc, message = BAD_SCHEDULER_ARGUMENTS[index]
    for mod in [minitorch] + ([_torch] if _torch is not None else []):
        with pytest.raises(exc) as info:
            make(mod, _sgd(mod))
        assert str(info.value) == message


def test_chained_scheduler_refuses_schedulers_of_another_optimizer():
    L = _L(minitorch)
    opt, other = _sgd(minitorch), _sgd(minitorch)
    with pytest.raises(ValueError, match="^ChainedScheduler expects all schedulers to belong to "
                                         "the same optimizer, but got scheduler StepLR at index "
                                         "1 has "):
        L.ChainedScheduler([L.ExponentialLR(opt, 0.9), L.StepLR(other, 2)])


def test_the_scheduler_names_are_exported():
    L = _L(minitorch)
    for name in ["OneCycleLR", "CyclicLR", "CosineAnnealingWarmRestarts", "ChainedScheduler"]:
        assert name in L.__all__ and issubclass(getattr(L, name), L.LRScheduler)
