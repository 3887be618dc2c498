"""nn.Module and the containers: registration, walks, state_dict / load_state_dict (with
torch's errors), hooks, train/eval, conversions, repr (strings as torch prints them),
deepcopy and pickling, Parameter, utilities."""
import copy
import io
import pickle
import subprocess
import sys
from collections import OrderedDict

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.block = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 4))
        self.bn = nn.BatchNorm1d(4)
        self.register_buffer("scale", torch.ones(4))
        self.register_buffer("cache", torch.zeros(2), persistent=False)
        self.head = nn.Linear(4, 2, bias=False)

    def forward(self, x):
        return self.head(self.bn(self.block(x)) * self.scale)


# ---- import ------------------------------------------------------------------------------

def test_import_minitorch_does_not_import_nn():
    code = ("import sys, minitorch; assert 'minitorch.nn' not in sys.modules; "
            "import minitorch.nn.functional as F; assert minitorch.nn.functional is F; "
            "print(minitorch.nn.Linear.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Linear"


def test_nn_is_an_attribute_of_minitorch():
    assert torch.nn is nn and nn.functional is F and nn.init.kaiming_uniform_
    with pytest.raises(AttributeError):
        torch.not_a_submodule


# ---- Parameter ---------------------------------------------------------------------------

def test_parameter_basics():
    data = torch.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert isinstance(p, torch.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    assert p.data_ptr() == data.data_ptr()                  # shares the storage
    assert not data.requires_grad
    assert not nn.Parameter(data, requires_grad=False).requires_grad
    assert type(p + 1) is torch.Tensor and type(p.data) is torch.Tensor and type(p * p) is torch.Tensor
    assert repr(p).startswith("Parameter containing:\ntensor([1., 2.]")
    assert nn.Parameter().shape == (0,)
    q = nn.Parameter(torch.ones(2, requires_grad=True) * 2)   # made from a non-leaf: detached
    assert q.is_leaf and q.grad_fn is None


def test_parameter_deepcopy_and_pickle():
    p = nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is nn.Parameter and q.requires_grad is False
        assert q.tolist() == [1.0, 2.0] and q.data_ptr() != p.data_ptr()
    p2 = nn.Parameter(torch.zeros(3))
    assert pickle.loads(pickle.dumps(p2)).requires_grad
    memo = {}
    assert copy.deepcopy([p2, p2], memo)[0] is memo[id(p2)]


# ---- registration ------------------------------------------------------------------------

def test_registration_and_walks():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "conv.weight", "conv.bias", "block.0.weight", "block.0.bias", "block.2.weight",
        "block.2.bias", "bn.weight", "bn.bias", "head.weight"]
    assert [n for n, _ in net.named_buffers()] == [
        "scale", "cache", "bn.running_mean", "bn.running_var", "bn.num_batches_tracked"]
    assert [n for n, _ in net.named_children()] == ["conv", "block", "bn", "head"]
    assert [n for n, _ in net.named_modules()] == ["", "conv", "block", "block.0", "block.1",
                                                   "block.2", "bn", "head"]
    assert [n for n, _ in net.named_parameters(prefix="model", recurse=False)] == []
    assert [n for n, _ in net.block.named_parameters(prefix="b")][:1] == ["b.0.weight"]
    assert len(list(net.parameters())) == 9 and len(list(net.buffers(recurse=False))) == 2
    assert net.get_submodule("block.2") is net.block[2]
    assert net.get_parameter("block.0.bias") is net.block[0].bias
    assert net.get_buffer("bn.running_var") is net.bn.running_var
    with pytest.raises(AttributeError, match="Sequential has no attribute `7`"):
        net.get_submodule("block.7")
    with pytest.raises(AttributeError, match="`scale` is not an nn.Module"):
        net.get_submodule("scale")
    with pytest.raises(AttributeError, match="`scale` is not an nn.Parameter"):
        net.get_parameter("scale")


def test_shared_parameters_are_listed_once():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(seq.parameters())) == 2
    assert [n for n, _ in seq.named_parameters(remove_duplicate=False)] == ["0.weight", "0.bias",
                                                                            "2.weight", "2.bias"]
    assert len(list(seq.modules())) == 3


def test_setattr_sorts_values_and_delattr():
    m = nn.Module()
    m.w = nn.Parameter(torch.zeros(2))
    m.sub = nn.Linear(2, 2)
    m.plain = torch.zeros(1)                                  # a plain tensor is an attribute
    assert "w" in m._parameters and "sub" in m._modules and "plain" in m.__dict__
    m.register_buffer("buf", torch.ones(1))
    m.buf = torch.full((1,), 5.0)                             # reassigning a buffer keeps it one
    assert m._buffers["buf"].item() == 5.0
    m.w = None
    assert m._parameters["w"] is None and list(m.parameters()) == list(m.sub.parameters())
    m.extra = nn.Buffer(torch.ones(3), persistent=False)
    assert "extra" in m._buffers and "extra" in m._non_persistent_buffers_set
    assert type(m._buffers["extra"]) is torch.Tensor
    del m.sub, m.buf, m.plain, m.w
    assert not m._modules and "buf" not in m._buffers and not hasattr(m, "plain")
    with pytest.raises(AttributeError, match="'Module' object has no attribute 'nothing'"):
        m.nothing


def test_registration_errors():
    m = nn.Module()
    m.p = nn.Parameter(torch.zeros(1))
    m.child = nn.Linear(1, 1)
    m.register_buffer("b", torch.zeros(1))
    with pytest.raises(TypeError, match=r"cannot assign 'minitorch.FloatTensor' as parameter 'p' "
                                        r"\(torch.nn.Parameter or None expected\)"):
        m.p = torch.zeros(1)
    with pytest.raises(TypeError, match=r"cannot assign 'int' as child module 'child' "
                                        r"\(torch.nn.Module or None expected\)"):
        m.child = 3
    with pytest.raises(TypeError, match="cannot assign 'str' as buffer 'b'"):
        m.b = "x"
    with pytest.raises(KeyError, match="attribute 'p' already exists"):
        m.register_buffer("p", torch.zeros(1))
    with pytest.raises(KeyError, match='contain "."'):
        m.register_buffer("a.b", torch.zeros(1))
    with pytest.raises(KeyError, match='be empty string ""'):
        m.register_buffer("", torch.zeros(1))
    with pytest.raises(TypeError, match="buffer name should be a string. Got int"):
        m.register_buffer(1, torch.zeros(1))
    with pytest.raises(TypeError, match=r"cannot assign 'list' object to buffer 'c' \(torch Tensor or None required\)"):
        m.register_buffer("c", [1])
    with pytest.raises(TypeError, match=r"cannot assign 'minitorch.FloatTensor' object to parameter 'q' "
                                        r"\(torch.nn.Parameter or None required\)"):
        m.register_parameter("q", torch.zeros(1))
    with pytest.raises(KeyError, match='contain ".", got: a.b'):
        m.add_module("a.b", nn.ReLU())
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        m.add_module("x", 3)

    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(torch.zeros(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__\(\) call"):
        Early()


def test_forward_missing():
    with pytest.raises(NotImplementedError, match=r'Module \[Module\] is missing the required "forward" function'):
        nn.Module()(torch.zeros(1))


# ---- state dict ------------------------------------------------------------------------------

def test_state_dict_contents():
    net = Net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["scale", "conv.weight", "conv.bias", "block.0.weight", "block.0.bias",
                        "block.2.weight", "block.2.bias", "bn.weight", "bn.bias", "bn.running_mean",
                        "bn.running_var", "bn.num_batches_tracked", "head.weight"]
    assert "cache" not in sd                                   # non-persistent buffer
    w = sd["block.0.weight"]
    assert type(w) is torch.Tensor and not w.requires_grad
    assert w.data_ptr() == net.block[0].weight.data_ptr()      # detached, same memory
    assert net.state_dict(keep_vars=True)["block.0.weight"] is net.block[0].weight
    assert sd._metadata[""] == {"version": 1} and sd._metadata["bn"] == {"version": 2}
    assert list(net.block.state_dict(prefix="x.")) == ["x.0.weight", "x.0.bias", "x.2.weight", "x.2.bias"]


def test_load_state_dict_round_trip():
    a, b = Net(), Net()
    with torch.no_grad():
        a.bn.running_mean.fill_(3.0)
        a.bn.num_batches_tracked.fill_(7)
    result = b.load_state_dict(a.state_dict())
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert repr(result) == "<All keys matched successfully>"
    for (n, x), (_, y) in zip(a.state_dict().items(), b.state_dict().items()):
        assert torch.equal(x, y), n
    assert b.block[0].weight.is_leaf and b.block[0].weight.requires_grad
    assert b.bn.num_batches_tracked.item() == 7
    assert b.block[0].weight.data_ptr() != a.block[0].weight.data_ptr()    # copied


def test_load_state_dict_strict_errors():
    net = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
    sd = net.state_dict()
    del sd["1.bias"]
    sd["extra.weight"] = torch.zeros(1)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(sd)
    assert str(info.value) == ('Error(s) in loading state_dict for Sequential:\n\t'
                               'Missing key(s) in state_dict: "1.bias". \n\t'
                               'Unexpected key(s) in state_dict: "extra.weight". ')
    result = net.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["1.bias"] and result.unexpected_keys == ["extra.weight"]
    assert "_IncompatibleKeys(missing_keys=['1.bias'], unexpected_keys=['extra.weight'])" == repr(result)
    bad = net.state_dict()
    bad["0.weight"] = torch.zeros(4, 2)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(bad, strict=False)                # shapes are checked even when not strict
    assert ("size mismatch for 0.weight: copying a param with shape minitorch.Size([4, 2]) from "
            "checkpoint, the shape in current model is minitorch.Size([3, 2]).") in str(info.value)
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like, got <class 'list'>."):
        net.load_state_dict([])
    notensor = net.state_dict()
    notensor["0.bias"] = [1, 2, 3]
    with pytest.raises(RuntimeError, match='While copying the parameter named "0.bias", expected torch.Tensor'):
        net.load_state_dict(notensor)


def test_load_state_dict_casts_and_assign():
    net = nn.Linear(2, 2)
    sd = {"weight": torch.ones(2, 2, dtype=torch.float64), "bias": torch.zeros(2, dtype=torch.float64)}
    net.load_state_dict(sd)
    assert net.weight.dtype == torch.float32 and net.weight.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    w = torch.full((2, 2), 2.0)
    net.load_state_dict({"weight": w, "bias": torch.zeros(2)}, assign=True)
    assert isinstance(net.weight, nn.Parameter) and net.weight.requires_grad
    assert net.weight.data_ptr() == w.data_ptr()


def test_batchnorm_loads_old_checkpoints_without_num_batches_tracked():
    bn = nn.BatchNorm1d(3)
    old = {"weight": torch.ones(3), "bias": torch.zeros(3), "running_mean": torch.ones(3),
           "running_var": torch.ones(3)}                       # no _metadata: version None
    assert bn.load_state_dict(old).missing_keys == []


def test_state_dict_save_and_load_through_minitorch_save(tmp_path):
    net = Net()
    path = tmp_path / "net.pt"
    torch.save(net.state_dict(), path)
    loaded = torch.load(path)                                  # weights_only by default
    other = Net()
    other.load_state_dict(loaded)
    assert torch.equal(other.head.weight, net.head.weight)
    buf = io.BytesIO()
    torch.save(net, buf)
    buf.seek(0)
    whole = torch.load(buf, weights_only=False)
    assert type(whole) is Net and torch.equal(whole.head.weight, net.head.weight)


def test_parameters_save_in_torchs_form_and_load_weights_only():
    p = nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)
    buf = io.BytesIO()
    torch.save({"p": p, "same": p}, buf)
    assert b"_rebuild_parameter" in buf.getvalue() and b"torch._utils" in buf.getvalue()
    buf.seek(0)
    out = torch.load(buf)                                      # weights_only=True
    assert type(out["p"]) is nn.Parameter and out["p"].requires_grad is False
    assert out["same"] is out["p"] and out["p"].tolist() == [1.0, 2.0]


def test_state_dict_hooks():
    net = nn.Linear(2, 2)
    seen = []
    h = net.register_state_dict_post_hook(lambda m, sd, prefix, meta: seen.append(list(sd)))
    net.state_dict()
    assert seen == [["weight", "bias"]]
    h.remove()
    net.state_dict()
    assert len(seen) == 1
    post = []
    net.register_load_state_dict_post_hook(lambda m, keys: post.append(keys))
    net.load_state_dict(net.state_dict())
    assert post and post[0].missing_keys == []


# ---- modes, grads, conversions -------------------------------------------------------------

def test_train_eval_and_requires_grad():
    net = Net()
    assert net.training and net.block[1].training
    assert net.eval() is net and not net.block[1].training and not net.bn.training
    net.train()
    assert net.bn.training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_zero_grad():
    lin = nn.Linear(3, 2)
    lin(torch.ones(4, 3)).sum().backward()
    assert lin.weight.grad is not None
    lin.zero_grad(set_to_none=False)
    assert (lin.weight.grad.numpy() == 0).all()
    lin.zero_grad()
    assert lin.weight.grad is None and lin.bias.grad is None


def test_to_double_float_keep_parameter_objects():
    net = Net()
    w = net.block[0].weight
    lin_out = net.block[0](torch.ones(1, 8))
    lin_out.sum().backward()
    assert net.double() is net
    assert net.block[0].weight is w and w.dtype == torch.float64 and w.grad.dtype == torch.float64
    assert net.bn.running_mean.dtype == torch.float64
    assert net.bn.num_batches_tracked.dtype == torch.int64        # integers keep their dtype
    net.to(torch.float32)
    assert w.dtype == torch.float32 and isinstance(w, nn.Parameter) and w.requires_grad
    net.to("cpu", torch.float64)
    assert w.dtype == torch.float64
    net.to(torch.zeros(1))
    assert w.dtype == torch.float32
    net.to(device="cpu", dtype=torch.float64).float()
    assert w.dtype == torch.float32
    net.half()
    assert w.dtype == torch.float16
    net.type(torch.float32)
    assert w.dtype == torch.float32
    assert net.cpu() is net
    with pytest.raises(TypeError, match="nn.Module.to only accepts floating point or complex dtypes, "
                                        "but got desired dtype=minitorch.int64"):
        net.to(torch.int64)


def test_cuda_raises_as_tensor_cuda():
    with pytest.raises(Exception) as module_error:
        nn.Linear(2, 2).cuda()
    with pytest.raises(Exception) as tensor_error:
        torch.zeros(1).cuda()
    assert type(module_error.value) is type(tensor_error.value)
    assert str(module_error.value) == str(tensor_error.value)
    assert nn.ReLU().cuda() is not None                        # nothing to move


def test_apply():
    net = Net()
    names = []
    net.apply(lambda m: names.append(type(m).__name__))
    assert names == ["Conv2d", "Linear", "ReLU", "Linear", "Sequential", "BatchNorm1d", "Linear", "Net"]

    def init_weights(m):
        if isinstance(m, nn.Linear):
            nn.init.constant_(m.weight, 0.5)

    net.apply(init_weights)
    assert (net.head.weight.detach().numpy() == 0.5).all()


# ---- hooks and calling -------------------------------------------------------------------

def test_forward_hooks():
    lin = nn.Linear(2, 2)
    calls = []
    pre = lin.register_forward_pre_hook(lambda m, args: calls.append(("pre", len(args))))
    post = lin.register_forward_hook(lambda m, args, out: calls.append(("post", tuple(out.shape))))
    lin(torch.ones(3, 2))
    assert calls == [("pre", 1), ("post", (3, 2))]
    pre.remove()
    post.remove()
    lin(torch.ones(3, 2))
    assert len(calls) == 2


def test_hooks_change_inputs_and_outputs():
    m = nn.Identity()
    m.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
    h = m.register_forward_hook(lambda mod, args, out: out + 1)
    assert m(torch.tensor([1.0])).item() == 3.0
    h.remove()
    m.register_forward_hook(lambda mod, args, kwargs, out: out * kwargs.get("k", 1), with_kwargs=True)

    class KW(nn.Module):
        def forward(self, x, k=1):
            return x

    kw = KW()
    kw.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"k": 5}), with_kwargs=True)
    assert kw(torch.tensor([1.0])).item() == 1.0
    order = []
    m2 = nn.Identity()
    m2.register_forward_hook(lambda *a: order.append("first"))
    m2.register_forward_hook(lambda *a: order.append("prepended"), prepend=True)
    m2(torch.zeros(1))
    assert order == ["prepended", "first"]


def test_global_forward_hook_and_handle_as_context():
    seen = []
    with nn.modules.module.register_module_forward_hook(lambda m, a, o: seen.append(type(m).__name__)):
        nn.Sequential(nn.ReLU())(torch.zeros(1))
    nn.ReLU()(torch.zeros(1))
    assert seen == ["ReLU", "Sequential"]


def test_the_deprecated_backward_hook_returns_a_handle():
    m = nn.Linear(1, 1)
    h = m.register_backward_hook(lambda *a: None)
    assert len(m._backward_hooks) == 1 and m._is_full_backward_hook is False
    h.remove()
    assert len(m._backward_hooks) == 0


# ---- containers ----------------------------------------------------------------------------

def test_sequential():
    layers = [nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)]
    seq = nn.Sequential(*layers)
    assert len(seq) == 3 and seq[0] is layers[0] and seq[-1] is layers[2] and list(seq) == layers
    sub = seq[1:]
    assert type(sub) is nn.Sequential and list(sub) == layers[1:]
    assert list(sub._modules) == ["1", "2"]
    x = torch.ones(4, 2)
    np.testing.assert_allclose(seq(x).detach().numpy(), layers[2](layers[1](layers[0](x))).detach().numpy())
    seq.append(nn.Sigmoid())
    assert len(seq) == 4 and isinstance(seq[3], nn.Sigmoid)
    seq[3] = nn.Tanh()
    assert isinstance(seq[-1], nn.Tanh)
    del seq[1]
    assert list(seq._modules) == ["0", "1", "2"] and seq[1] is layers[2]
    seq.insert(1, nn.ReLU())
    assert isinstance(seq[1], nn.ReLU) and len(seq) == 4
    named = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert list(named._modules) == ["fc", "act"] and isinstance(named.fc, nn.Linear)
    with pytest.raises(IndexError, match="index 5 is out of range"):
        named[5]
    assert len(named + nn.Sequential(nn.ReLU())) == 3


def test_module_list_and_dict():
    ml = nn.ModuleList([nn.Linear(1, 1)])
    ml.append(nn.ReLU())
    ml.extend([nn.Tanh()])
    ml += [nn.Sigmoid()]
    ml.insert(1, nn.Identity())
    assert [type(m).__name__ for m in ml] == ["Linear", "Identity", "ReLU", "Tanh", "Sigmoid"]
    assert isinstance(ml[-1], nn.Sigmoid) and len(ml[1:3]) == 2 and type(ml[1:3]) is nn.ModuleList
    del ml[0]
    assert list(ml._modules) == ["0", "1", "2", "3"]
    assert len(list(nn.ModuleList([nn.Linear(1, 1), nn.Linear(1, 1)]).parameters())) == 4
    with pytest.raises(TypeError, match="ModuleList.extend should be called with an iterable, but got int"):
        ml.extend(3)
    md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
    md["c"] = nn.Linear(1, 1)
    assert list(md.keys()) == ["b", "a", "c"] and "a" in md and len(md) == 3
    assert isinstance(md.pop("a"), nn.Tanh) and list(md) == ["b", "c"]
    assert [n for n, _ in md.named_parameters()] == ["c.weight", "c.bias"]


def test_parameter_list_and_dict():
    pl = nn.ParameterList([nn.Parameter(torch.zeros(2)), torch.ones(3)])
    pl.append(torch.ones(1))
    assert len(pl) == 3 and all(isinstance(p, nn.Parameter) for p in pl)
    assert [n for n, _ in pl.named_parameters()] == ["0", "1", "2"]
    pd = nn.ParameterDict({"w": torch.ones(2)})
    pd["b"] = nn.Parameter(torch.zeros(1))
    assert isinstance(pd["w"], nn.Parameter) and list(pd.keys()) == ["w", "b"]
    m = nn.Module()
    m.pl, m.pd = pl, pd
    assert len(list(m.parameters())) == 5


# ---- repr ----------------------------------------------------------------------------------

def test_repr_matches_torch_layout():
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Dropout(0.2),
                          nn.Linear(512, 10))
    assert repr(model) == """Sequential(
  (0): Flatten(start_dim=1, end_dim=-1)
  (1): Linear(in_features=784, out_features=512, bias=True)
  (2): ReLU()
  (3): Dropout(p=0.2, inplace=False)
  (4): Linear(in_features=512, out_features=10, bias=True)
)"""
    net = Net()
    assert repr(net) == """Net(
  (conv): Conv2d(1, 4, kernel_size=(3, 3), stride=(1, 1))
  (block): Sequential(
    (0): Linear(in_features=8, out_features=8, bias=True)
    (1): ReLU()
    (2): Linear(in_features=8, out_features=4, bias=True)
  )
  (bn): BatchNorm1d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
  (head): Linear(in_features=4, out_features=2, bias=False)
)"""
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()])
    assert repr(ml) == """ModuleList(
  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)
  (3): ReLU()
)"""
    assert repr(nn.ModuleList()) == "ModuleList()" and repr(nn.Sequential()) == "Sequential()"
    assert repr(nn.ParameterList([nn.Parameter(torch.zeros(2, 3))])) == \
        "ParameterList(  (0): Parameter containing: [minitorch.float32 of size 2x3])"

    class Multi(nn.Module):
        def extra_repr(self):
            return "a=1\nb=2"

    m = Multi()
    m.child = nn.ReLU()
    assert repr(m) == "Multi(\n  a=1\n  b=2\n  (child): ReLU()\n)"


def test_dir_lists_members():
    names = dir(Net())
    for n in ("block", "bn", "scale", "forward", "state_dict", "training"):
        assert n in names
    assert "0" not in dir(nn.Sequential(nn.ReLU()))


# ---- copying and pickling -------------------------------------------------------------------

def test_deepcopy_and_pickle_modules():
    net = Net()
    net.shared = net.block[0]                                  # a module registered twice
    for other in (copy.deepcopy(net), pickle.loads(pickle.dumps(net))):
        assert type(other) is Net and other.shared is other.block[0]
        assert isinstance(other.block[0].weight, nn.Parameter) and other.block[0].weight.requires_grad
        assert torch.equal(other.block[0].weight, net.block[0].weight)
        assert other.block[0].weight.data_ptr() != net.block[0].weight.data_ptr()
        assert "cache" in other._non_persistent_buffers_set
        x = torch.randn(3, 8)
        np.testing.assert_allclose(other(x).detach().numpy(), net(x).detach().numpy(), rtol=1e-6)


# ---- utilities ------------------------------------------------------------------------------

def test_clip_grad_norm_and_value():
    a = nn.Parameter(torch.tensor([3.0, 0.0]))
    b = nn.Parameter(torch.tensor([4.0]))
    a.grad, b.grad = torch.tensor([3.0, 0.0]), torch.tensor([4.0])
    total = nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
    assert total.item() == pytest.approx(5.0)
    np.testing.assert_allclose(a.grad.numpy(), [0.6, 0.0], rtol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), [0.8], rtol=1e-5)
    a.grad = torch.tensor([3.0, -7.0])
    assert nn.utils.clip_grad_norm_(a, 100.0, norm_type="inf").item() == 7.0
    assert a.grad.tolist() == [3.0, -7.0]                       # below max_norm: unchanged
    nn.utils.clip_grad_value_([a], 2.5)
    assert a.grad.tolist() == [2.5, -2.5]
    a.grad = torch.tensor([float("inf"), 0.0])
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients from `parameters` is non-finite"):
        nn.utils.clip_grad_norm_(a, 1.0, error_if_nonfinite=True)
    assert nn.utils.clip_grad_norm_([nn.Parameter(torch.zeros(1))], 1.0).item() == 0.0


def test_parameters_to_vector_and_back():
    lin = nn.Linear(3, 2)
    vec = nn.utils.parameters_to_vector(lin.parameters())
    assert tuple(vec.shape) == (8,)
    nn.utils.vector_to_parameters(torch.arange(8.0), lin.parameters())
    assert lin.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and lin.bias.tolist() == [6.0, 7.0]
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1], lin.parameters())


def test_rnn_utils():
    from minitorch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
    packed = pack_padded_sequence(torch.arange(6.0).reshape(3, 2), [3, 2])
    assert packed.data.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0] and packed.batch_sizes.tolist() == [2, 2, 1]
    assert pad_packed_sequence(packed)[0].tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 0.0]]
    out = pad_sequence([torch.ones(2), torch.ones(3)], batch_first=True, padding_value=-1)
    assert out.tolist() == [[1.0, 1.0, -1.0], [1.0, 1.0, 1.0]]
    assert tuple(pad_sequence([torch.ones(2, 4), torch.ones(1, 4)]).shape) == (2, 2, 4)


# ---- training end to end ----------------------------------------------------------------------

def test_small_model_trains():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.LayerNorm(16), nn.GELU(), nn.Dropout(0.1),
                          nn.Linear(16, 3))
    x = torch.randn(32, 4)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
    first = None
    for _ in range(60):
        loss = F.cross_entropy(model(x), y)
        first = first if first is not None else loss.item()
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p -= 0.2 * p.grad
    assert loss.item() < 0.5 * first


def test_hook_handles_are_utils_hooks_removable_handles():
    from minitorch.utils.hooks import RemovableHandle, unserializable_hook
    m = torch.nn.Linear(2, 2)
    h = m.register_forward_hook(lambda *a: None)
    assert type(h) is RemovableHandle and len(m._forward_hooks) == 1
    h.remove()
    assert len(m._forward_hooks) == 0
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    with opt.register_step_pre_hook(lambda *a: None) as h2:
        assert type(h2) is RemovableHandle and len(opt._optimizer_step_pre_hooks) == 1
    assert len(opt._optimizer_step_pre_hooks) == 0

    def hook(*args):
        pass
    assert unserializable_hook(hook) is hook and hook.__torch_unserializable__
