"""Adamax (Adam with the infinity norm), as ``torch.optim.Adamax``.

Per parameter and step ``t`` (``state[p]["step"]``), with ``g`` the gradient:

    g = -g                                      if maximize
    g = g + weight_decay * p                    if weight_decay != 0
    m = lerp(m, g, 1 - beta1)                   state["exp_avg"]
    u = maximum(beta2 * u, abs(g) + eps)        state["exp_inf"]
    p = p - lr / (1 - beta1 ** t) * m / u"""
import minitorch

from .optimizer import (Optimizer, _as_real, _check_hyper, _check_singleton_tensors, _new_counter,
                        _refuse_capturable, _scalar_value, _use_grad_for_differentiable,
                        _zeros_like_param)

__all__ = ["Adamax", "adamax"]


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        _check_hyper(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _counters = ("step",)

    def _new_state(self, p, group):
        return {"step": _new_counter(group), "exp_avg": _zeros_like_param(p),
                "exp_inf": _zeros_like_param(p)}
    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, (exp_avgs, exp_infs, state_steps), has_complex = \
                self._gather(group, "exp_avg", "exp_inf", "step")
            beta1, beta2 = group["betas"]
            adamax(params_with_grad, grads, exp_avgs, exp_infs, state_steps, eps=group["eps"],
                   beta1=beta1, beta2=beta2, lr=group["lr"], weight_decay=group["weight_decay"],
                   foreach=group["foreach"], maximize=group["maximize"],
                   differentiable=group["differentiable"], capturable=group["capturable"],
                   has_complex=has_complex)
        return loss


def adamax(params, grads, exp_avgs, exp_infs, state_steps, foreach=None, maximize=False,
           differentiable=False, capturable=False, has_complex=False, *, eps, beta1, beta2, lr,
           weight_decay):
    """The Adamax update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    _check_singleton_tensors(state_steps)
    lr = _scalar_value(lr)

    for i, param in enumerate(params):
        if capturable:
            _refuse_capturable()
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_inf = exp_infs[i]
        step_t = state_steps[i]
        step_t += 1

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        if param.is_complex():
            param, grad, exp_avg, exp_inf = _as_real(param, grad, exp_avg, exp_inf)

        exp_avg.lerp_(grad, 1 - beta1)
        norm = grad.abs().add_(eps)
        if differentiable:
            exp_inf.copy_(minitorch.maximum(exp_inf.mul_(beta2), norm))
        else:
            minitorch.maximum(exp_inf.mul_(beta2), norm, out=exp_inf)

        clr = lr / (1 - beta1 ** step_t.item())
        param.addcdiv_(exp_avg, exp_inf, value=-clr)
