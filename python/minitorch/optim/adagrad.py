"""Adagrad, as ``torch.optim.Adagrad``.

Per parameter and step ``t`` (``state[p]["step"]``), with ``g`` the gradient:

    g = -g                                   if maximize
    g = g + weight_decay * p                 if weight_decay != 0
    clr = lr / (1 + (t - 1) * lr_decay)
    s = s + g * g                            state["sum"]
    p = p - clr * g / (sqrt(s) + eps)

As torch's, the state of every parameter is made when the optimizer is made (``sum`` filled
with ``initial_accumulator_value``, ``step`` 0), so ``state_dict()`` lists all parameters from
the start; parameters added later with ``add_param_group`` get theirs on their first step, from
the constructor's ``initial_accumulator_value``."""
import minitorch

from .optimizer import (Optimizer, _as_real, _check_fused, _check_hyper, _check_singleton_tensors,
                        _new_counter, _scalar_value, _use_grad_for_differentiable)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_hyper(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                     initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        _check_fused(fused, differentiable, foreach)

        for group in self.param_groups:
            for p in group["params"]:
                self.state[p].update(self._new_state(p, group))

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False, "fused": None}
    _counters = ("step",)

    def _new_state(self, p, group):
        value = self.defaults["initial_accumulator_value"]
        if p.is_complex():
            value = complex(value, value)
        return {"step": _new_counter(group),
                "sum": minitorch.full_like(p, value, memory_format=minitorch.preserve_format)}
    def share_memory(self):
        """Moves every parameter's ``sum`` into shared memory (``share_memory_()``)."""
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()


    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, (state_sums, state_steps), has_complex = \
                self._gather(group, "sum", "step")
            adagrad(params_with_grad, grads, state_sums, state_steps, lr=group["lr"],
                    weight_decay=group["weight_decay"], lr_decay=group["lr_decay"],
                    eps=group["eps"], foreach=group["foreach"], maximize=group["maximize"],
                    differentiable=group["differentiable"], has_complex=has_complex,
                    fused=group["fused"])
        return loss


def adagrad(params, grads, state_sums, state_steps, fused=None, grad_scale=None, found_inf=None,
            has_sparse_grad=False, foreach=None, differentiable=False, has_complex=False, *, lr,
            weight_decay, lr_decay, eps, maximize):
    """The Adagrad update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    if grad_scale is not None or found_inf is not None:
        raise RuntimeError("minitorch's Adagrad has no fused implementation "
                           "(grad_scale/found_inf)")
    _check_singleton_tensors(state_steps)
    lr = _scalar_value(lr)

    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = step_t.item()
        grad = grad if not maximize else -grad

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        clr = lr / (1 + (step - 1) * lr_decay)

        if param.is_complex():
            grad, state_sum, param = _as_real(grad, state_sum, param)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt()
        std = std + eps if differentiable else std.add_(eps)
        param.addcdiv_(grad, std, value=-clr)
