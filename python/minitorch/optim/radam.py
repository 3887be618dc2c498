"""RAdam (Adam with a rectified adaptive learning rate), as ``torch.optim.RAdam``.

Per parameter and step ``t`` (``state[p]["step"]``), with ``g`` the gradient:

    g = -g                                          if maximize
    p = p * (1 - lr * weight_decay)                 if decoupled_weight_decay
    g = g + weight_decay * p                        otherwise, when weight_decay != 0
    m = lerp(m, g, 1 - beta1)                       state["exp_avg"]
    v = beta2 * v + (1 - beta2) * g * g             state["exp_avg_sq"]
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * t * beta2 ** t / (1 - beta2 ** t)
    if rho_t > 5:
        r = sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
        p = p - m / (1 - beta1 ** t) * lr * sqrt(1 - beta2 ** t) / (sqrt(v) + eps) * r
    else:
        p = p - m / (1 - beta1 ** t) * lr       (plain momentum while the variance estimate
                                                 is unreliable)"""
from .optimizer import (Optimizer, _as_real, _check_hyper, _check_singleton_tensors, _new_counter,
                        _refuse_capturable, _scalar_value, _use_grad_for_differentiable,
                        _zeros_like_param)

__all__ = ["RAdam", "radam"]


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_hyper(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "decoupled_weight_decay": False, "capturable": False}
    _counters = ("step",)

    def _new_state(self, p, group):
        return {"step": _new_counter(group), "exp_avg": _zeros_like_param(p),
                "exp_avg_sq": _zeros_like_param(p)}
    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, (exp_avgs, exp_avg_sqs, state_steps), has_complex = \
                self._gather(group, "exp_avg", "exp_avg_sq", "step")
            beta1, beta2 = group["betas"]
            radam(params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps, beta1=beta1,
                  beta2=beta2, lr=group["lr"], weight_decay=group["weight_decay"],
                  eps=group["eps"], maximize=group["maximize"], foreach=group["foreach"],
                  capturable=group["capturable"], differentiable=group["differentiable"],
                  decoupled_weight_decay=group["decoupled_weight_decay"],
                  has_complex=has_complex)
        return loss


def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, decoupled_weight_decay=False,
          foreach=None, differentiable=False, capturable=False, has_complex=False,
          maximize=False, *, beta1, beta2, lr, weight_decay, eps):
    """The RAdam update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    _check_singleton_tensors(state_steps)
    lr = _scalar_value(lr)
    rho_inf = 2 / (1 - beta2) - 1

    for i, param in enumerate(params):
        if capturable:
            _refuse_capturable()
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]

        if param.is_complex():
            param, grad, exp_avg, exp_avg_sq = _as_real(param, grad, exp_avg, exp_avg_sq)

        step_t += 1
        step = step_t.item()

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2

        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            denom = exp_avg_sq.sqrt()
            denom = denom.add(eps) if differentiable else denom.add_(eps)
            adaptive_lr = (bias_correction2 ** 0.5) / denom
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
