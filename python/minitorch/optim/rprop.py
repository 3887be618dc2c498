"""Rprop (resilient backpropagation), as ``torch.optim.Rprop``.

Per parameter and step, with ``g`` the gradient and ``g_prev`` the previous step's:

    g = -g                                          if maximize
    s = sign(g * g_prev)
    step_size = clamp(step_size * (etaplus if s > 0, etaminus if s < 0, 1 if s == 0),
                      step_size_min, step_size_max)      state["step_size"] (starts at lr)
    g = 0 where s < 0                                (a sign change: no move this step)
    p = p - sign(g) * step_size
    g_prev = g                                       state["prev"]"""
import minitorch

from .optimizer import (Optimizer, _as_real, _check_lr, _check_singleton_tensors, _new_counter,
                        _refuse_capturable, _scalar_value, _use_grad_for_differentiable,
                        _zeros_like_param)

__all__ = ["Rprop", "rprop"]


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _counters = ("step",)

    def _new_state(self, p, group):
        lr = _scalar_value(group["lr"])
        fill = complex(lr, lr) if p.is_complex() else lr
        return {"step": _new_counter(group), "prev": _zeros_like_param(p),
                "step_size": minitorch.full_like(p.grad, fill,
                                                 memory_format=minitorch.preserve_format)}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params, grads, (prevs, step_sizes, state_steps), has_complex = \
                self._gather(group, "prev", "step_size", "step")
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            rprop(params, grads, prevs, step_sizes, state_steps, step_size_min=step_size_min,
                  step_size_max=step_size_max, etaminus=etaminus, etaplus=etaplus,
                  foreach=group["foreach"], maximize=group["maximize"],
                  differentiable=group["differentiable"], capturable=group["capturable"],
                  has_complex=has_complex)
        return loss


def rprop(params, grads, prevs, step_sizes, state_steps, foreach=None, capturable=False,
          maximize=False, differentiable=False, has_complex=False, *, step_size_min,
          step_size_max, etaminus, etaplus):
    """The Rprop update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    _check_singleton_tensors(state_steps)

    for param, grad, prev, step_size, step_t in zip(params, grads, prevs, step_sizes,
                                                    state_steps):
        if capturable:
            _refuse_capturable()
        grad = grad if not maximize else -grad
        step_t += 1
        if param.is_complex():
            grad, prev, param, step_size = _as_real(grad, prev, param, step_size)
        sign = grad.mul(prev.clone() if differentiable else prev).sign()
        # each element's factor by the sign of g * g_prev (a NaN stays NaN)
        sign.masked_fill_(sign.gt(0), etaplus)
        sign.masked_fill_(sign.lt(0), etaminus)
        sign.masked_fill_(sign.eq(0), 1)
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.masked_fill(sign.eq(etaminus), 0)
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
