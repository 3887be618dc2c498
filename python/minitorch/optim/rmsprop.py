"""RMSprop (optionally centered, with momentum), as ``torch.optim.RMSprop``.

Per parameter and step, with ``g`` the gradient:

    g = -g                                   if maximize
    g = g + weight_decay * p                 if weight_decay != 0
    v = alpha * v + (1 - alpha) * g * g      state["square_avg"]
    if centered:
        m = lerp(m, g, 1 - alpha)            state["grad_avg"]
        avg = sqrt(v - m * m) + eps
    else:
        avg = sqrt(v) + eps
    if momentum > 0:
        b = momentum * b + g / avg           state["momentum_buffer"]
        p = p - lr * b
    else:
        p = p - lr * g / avg

``eps`` is added after the square root (TensorFlow adds it inside).  ``state[p]["step"]`` counts
the steps; the update does not use it."""
import minitorch

from .optimizer import (Optimizer, _check_hyper, _check_singleton_tensors, _new_counter,
                        _refuse_capturable, _scalar_value, _use_grad_for_differentiable,
                        _zeros_like_param)

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        _check_hyper(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    _group_defaults = {"momentum": 0, "centered": False, "foreach": None, "maximize": False,
                       "differentiable": False, "capturable": False}
    _counters = ("step",)

    def _new_state(self, p, group):
        state = {"step": _new_counter(group), "square_avg": _zeros_like_param(p)}
        if group["momentum"] > 0:
            state["momentum_buffer"] = _zeros_like_param(p)
        if group["centered"]:
            state["grad_avg"] = _zeros_like_param(p)
        return state
    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, (square_avgs, momentum_buffer_list, grad_avgs,
                                      state_steps), has_complex = \
                self._gather(group, "square_avg", "momentum_buffer", "grad_avg", "step")
            rmsprop(params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list,
                    state_steps, lr=group["lr"], alpha=group["alpha"], eps=group["eps"],
                    weight_decay=group["weight_decay"], momentum=group["momentum"],
                    centered=group["centered"], foreach=group["foreach"],
                    maximize=group["maximize"], differentiable=group["differentiable"],
                    capturable=group["capturable"], has_complex=has_complex)
        return loss


def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps,
            foreach=None, maximize=False, differentiable=False, capturable=False,
            has_complex=False, *, lr, alpha, eps, weight_decay, momentum, centered):
    """The RMSprop update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    _check_singleton_tensors(state_steps)
    lr = _scalar_value(lr)

    for i, param in enumerate(params):
        if capturable:
            _refuse_capturable()
        grad = grads[i] if not maximize else -grads[i]
        square_avg = square_avgs[i]
        state_steps[i] += 1

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        is_complex = param.is_complex()
        if is_complex:
            param = minitorch.view_as_real(param)
            grad = minitorch.view_as_real(grad)
            square_avg = minitorch.view_as_real(square_avg)

        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)

        if centered:
            grad_avg = grad_avgs[i]
            if is_complex:
                grad_avg = minitorch.view_as_real(grad_avg)
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add(eps) if differentiable else avg.add_(eps)

        if momentum > 0:
            buf = momentum_buffer_list[i]
            if is_complex:
                buf = minitorch.view_as_real(buf)
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)
