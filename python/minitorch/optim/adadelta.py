"""Adadelta, as ``torch.optim.Adadelta``.

Per parameter and step, with ``g`` the gradient:

    g = -g                                          if maximize
    g = g + weight_decay * p                        if weight_decay != 0
    v = rho * v + (1 - rho) * g * g                 state["square_avg"]
    delta = sqrt(u + eps) / sqrt(v + eps) * g
    u = rho * u + (1 - rho) * delta * delta         state["acc_delta"]
    p = p - lr * delta

``state[p]["step"]`` counts the steps; the update does not use it."""
from .optimizer import (Optimizer, _as_real, _check_hyper, _check_singleton_tensors, _new_counter,
                        _refuse_capturable, _scalar_value, _use_grad_for_differentiable,
                        _zeros_like_param)

__all__ = ["Adadelta", "adadelta"]


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        _check_hyper(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _counters = ("step",)

    def _new_state(self, p, group):
        return {"step": _new_counter(group), "square_avg": _zeros_like_param(p),
                "acc_delta": _zeros_like_param(p)}
    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, (square_avgs, acc_deltas, state_steps), has_complex = \
                self._gather(group, "square_avg", "acc_delta", "step")
            adadelta(params_with_grad, grads, square_avgs, acc_deltas, state_steps,
                     lr=group["lr"], rho=group["rho"], eps=group["eps"],
                     weight_decay=group["weight_decay"], foreach=group["foreach"],
                     maximize=group["maximize"], differentiable=group["differentiable"],
                     capturable=group["capturable"], has_complex=has_complex)
        return loss


def adadelta(params, grads, square_avgs, acc_deltas, state_steps, capturable=False, foreach=None,
             differentiable=False, has_complex=False, *, lr, rho, eps, weight_decay, maximize):
    """The Adadelta update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    _check_singleton_tensors(state_steps)
    if capturable and params:
        _refuse_capturable(supports_xla=False)
    lr = _scalar_value(lr)

    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas,
                                                         state_steps):
        step += 1
        grad = grad if not maximize else -grad

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        if param.is_complex():
            param, square_avg, acc_delta, grad = _as_real(param, square_avg, acc_delta, grad)

        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)
