"""ASGD (averaged stochastic gradient descent), as ``torch.optim.ASGD``.

Per parameter and step ``t`` (``state[p]["step"]``), with ``g`` the gradient:

    g = -g                                       if maximize
    g = g + weight_decay * p                     if weight_decay != 0
    p = p * (1 - lambd * eta) - eta * g          eta: state["eta"] (starts at lr)
    ax = ax + mu * (p - ax)                      state["ax"], the average (ax = p while mu = 1)
    eta = lr / (1 + lambd * lr * t) ** alpha
    mu = 1 / max(1, t - t0)                      state["mu"]: averaging starts after t0 steps"""
import minitorch

from .optimizer import (Optimizer, _as_real, _check_hyper,
                        _get_scalar_dtype, _refuse_capturable, _scalar_value,
                        _use_grad_for_differentiable, _zeros_like_param)

__all__ = ["ASGD", "asgd"]


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        _check_hyper(lr=lr, lambd=lambd, alpha=alpha, weight_decay=weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _counters = ("step", "eta", "mu")

    def _new_state(self, p, group):
        dtype = _get_scalar_dtype()
        return {"step": minitorch.zeros((), dtype=dtype),
                "eta": minitorch.tensor(_scalar_value(group["lr"]), dtype=dtype),
                "mu": minitorch.ones((), dtype=dtype),
                "ax": _zeros_like_param(p)}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params, grads, (axs, mus, etas, state_steps), has_complex = \
                self._gather(group, "ax", "mu", "eta", "step")
            asgd(params, grads, axs, mus, etas, state_steps, lambd=group["lambd"],
                 lr=group["lr"], t0=group["t0"], alpha=group["alpha"],
                 weight_decay=group["weight_decay"], foreach=group["foreach"],
                 maximize=group["maximize"], differentiable=group["differentiable"],
                 capturable=group["capturable"], has_complex=has_complex)
        return loss


def asgd(params, grads, axs, mus, etas, state_steps, foreach=None, maximize=False,
         differentiable=False, capturable=False, has_complex=False, *, lambd, lr, t0, alpha,
         weight_decay):
    """The ASGD update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    lr = _scalar_value(lr)

    for param, grad, ax, mu, eta, step_t in zip(params, grads, axs, mus, etas, state_steps):
        if capturable:
            _refuse_capturable("params, mus, etas, and state_steps")
        grad = grad if not maximize else -grad
        if param.is_complex():
            grad, param, ax = _as_real(grad, param, ax)
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        eta_value = eta.item()
        param.mul_(1 - lambd * eta_value)
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        step = step_t.item()
        eta.copy_(minitorch.as_tensor(lr / (1 + lambd * lr * step) ** alpha))
        mu.copy_(minitorch.as_tensor(1 / max(1, step - t0)))
