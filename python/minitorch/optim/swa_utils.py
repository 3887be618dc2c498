"""Weight averaging, as ``torch.optim.swa_utils``: ``AveragedModel`` (a copy of a model whose
parameters are a running average of the model's: stochastic weight averaging by default, or an
exponential moving average with ``get_ema_multi_avg_fn``), ``SWALR`` (anneals each group's
learning rate to a constant ``swa_lr``) and ``update_bn`` (recomputes BatchNorm statistics for
the averaged weights).  Loaded on first use of ``minitorch.optim.swa_utils`` (it imports
minitorch.nn)."""
import itertools
import math
import warnings
from copy import deepcopy

import minitorch
from minitorch import Tensor
from minitorch.nn import Module

from .lr_scheduler import LRScheduler, _format_param

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn",
           "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] "
                         "range.")


def _is_float(t):
    return t.is_floating_point() or t.is_complex()


def get_ema_multi_avg_fn(decay=0.999):
    """An update of lists of averaged tensors in place: ema = decay * ema + (1 - decay) * p."""
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _):
        with minitorch.no_grad():
            if _is_float(ema_param_list[0]):
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    p_ema.lerp_(p_model, 1 - decay)
            else:
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """An update of lists of averaged tensors in place: the equal-weight mean of the
    num_averaged + 1 models seen."""

    def swa_update(averaged_param_list, current_param_list, num_averaged):
        with minitorch.no_grad():
            if _is_float(averaged_param_list[0]):
                weight = 1 / (num_averaged + 1)
                if isinstance(weight, Tensor):
                    weight = weight.item()
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    p_avg.lerp_(p_model, weight)
            else:
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    diff = p_model - p_avg
                    if isinstance(num_averaged, Tensor):
                        p_avg.addcdiv_(diff, num_averaged + 1)
                    else:
                        p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """avg_fn(ema, p, n) -> decay * ema + (1 - decay) * p."""
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with minitorch.no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """avg_fn(avg, p, n) -> avg + (p - avg) / (n + 1)."""

    def swa_update(averaged_param, current_param, num_averaged):
        with minitorch.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A deep copy of ``model`` whose parameters (and, with ``use_buffers=True``, buffers)
    are averaged by ``update_parameters(model)``: the mean of every model seen (SWA), or
    what ``avg_fn(averaged, current, n)`` / ``multi_avg_fn(averaged_list, current_list, n)``
    compute.  ``n_averaged`` (a buffer) counts the updates; the first one copies."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None,
                 use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged",
                             minitorch.tensor(0, dtype=minitorch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Averages the parameters (and buffers with use_buffers) of model into this
        model's; without use_buffers the buffers are copied."""
        if self.use_buffers:
            self_param = itertools.chain(self.module.parameters(), self.module.buffers())
            model_param = itertools.chain(model.parameters(), model.buffers())
        else:
            self_param, model_param = self.parameters(), model.parameters()
        averaged, current = [], []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param):
            p_model_ = p_model.detach().to(p_averaged.device)
            averaged.append(p_averaged.detach())
            current.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)

        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                # one call per (device, dtype) group, as torch's
                groups = {}
                for a, c in zip(averaged, current):
                    groups.setdefault((str(a.device), a.dtype), ([], []))
                    groups[(str(a.device), a.dtype)][0].append(a)
                    groups[(str(a.device), a.dtype)][1].append(c)
                for (device, _), (avg_list, cur_list) in groups.items():
                    n = self.n_averaged.to(device)
                    if self.multi_avg_fn:
                        self.multi_avg_fn(avg_list, cur_list, n)
                    else:
                        avg_fn = get_swa_avg_fn()
                        for a, c in zip(avg_list, cur_list):
                            a.copy_(avg_fn(a, c, n))
            else:
                for a, c in zip(averaged, current):
                    n = self.n_averaged.to(a.device)
                    a.detach().copy_(self.avg_fn(a.detach(), c, n))

        if not self.use_buffers:
            # keep the buffers (BatchNorm's statistics) in step with the model's
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1



def update_bn(loader, model, device=None):
    """Recomputes the running statistics of model's BatchNorm layers with one pass over loader
    (their cumulative average: momentum None during the pass), in training mode; the modes and
    momenta are restored afterwards."""
    from minitorch.nn.modules.batchnorm import _BatchNorm
    with minitorch.no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
        for module, momentum in momenta.items():
            module.momentum = momentum
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's learning rate from its value to ``swa_lr`` over ``anneal_epochs``
    steps (cosine or linear), then keeps it at swa_lr."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos",
                 last_epoch=-1):
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        # the rate the annealing started from, recovered from the current one
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
