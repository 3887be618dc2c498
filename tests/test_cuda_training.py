"""Training on a CUDA device: forward, backward and optimizer steps run on the device, and the
losses and weights agree with the same training on the CPU (MLP, CNN, a transformer layer; SGD
with momentum, Adam); batches from a DataLoader with pin_memory=True moved with non_blocking=True.
Runs on a GPU or on the emulated device (MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped
without one."""
import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")


def _mlp():
    return nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))


def _cnn():
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2),
                         nn.Flatten(), nn.Linear(8 * 2 * 2, 10))


def _train(make, device, opt_name, steps=5):
    torch.manual_seed(0)
    model = make().to(device)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(16, 1, 8, 8, generator=g)
    y = torch.randint(0, 10, (16,), generator=g)
    x, y = x.to(device), y.to(device)
    opt = (torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9) if opt_name == "sgd"
           else torch.optim.Adam(model.parameters(), lr=0.01))
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, [p.detach().cpu() for p in model.parameters()], model


@pytest.mark.parametrize("make", [_mlp, _cnn], ids=["mlp", "cnn"])
@pytest.mark.parametrize("opt", ["sgd", "adam"])
def test_training_on_the_device_matches_the_cpu(make, opt):
    cpu_losses, cpu_params, _ = _train(make, "cpu", opt)
    dev_losses, dev_params, model = _train(make, "cuda", opt)
    assert all(p.is_cuda for p in model.parameters())
    assert all(p.grad is None or p.grad.is_cuda for p in model.parameters())
    np.testing.assert_allclose(dev_losses, cpu_losses, rtol=1e-4, atol=1e-5)
    for a, b in zip(dev_params, cpu_params):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-3, atol=1e-4)
    assert dev_losses[-1] < dev_losses[0]


def test_transformer_encoder_layer_step_on_the_device():
    def run(device):
        torch.manual_seed(0)
        layer = nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.0,
                                           batch_first=True).to(device)
        x = torch.randn(3, 5, 16, generator=torch.Generator().manual_seed(2)).to(device)
        opt = torch.optim.AdamW(layer.parameters(), lr=1e-3)
        out = []
        for _ in range(3):
            opt.zero_grad()
            loss = layer(x).pow(2).mean()
            loss.backward()
            opt.step()
            out.append(loss.item())
        return out
    np.testing.assert_allclose(run("cuda"), run("cpu"), rtol=1e-4, atol=1e-6)


def test_pinned_batches_fed_to_the_device():
    data = torch.utils.data.TensorDataset(torch.randn(40, 1, 8, 8), torch.randint(0, 10, (40,)))
    loader = torch.utils.data.DataLoader(data, batch_size=8, pin_memory=True)
    torch.manual_seed(0)
    model = _mlp().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    seen = 0
    for xb, yb in loader:
        assert xb.is_pinned() and yb.is_pinned()
        xb, yb = xb.cuda(non_blocking=True), yb.cuda(non_blocking=True)
        opt.zero_grad()
        nn.functional.cross_entropy(model(xb), yb).backward()
        opt.step()
        seen += xb.shape[0]
    assert seen == 40
