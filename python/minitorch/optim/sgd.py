"""Stochastic gradient descent with optional momentum, dampening, Nesterov momentum, weight
decay (L2 penalty) and maximization, as ``torch.optim.SGD``.

Per parameter and step, with ``g`` the gradient:

    g = -g                    if maximize
    g = g + weight_decay * p  if weight_decay != 0
    if momentum != 0:
        b = clone(g)                           on the first step
        b = momentum * b + (1 - dampening) * g afterwards
        g = g + momentum * b  if nesterov  else  g = b
    p = p - lr * g

The buffer ``b`` is ``state[p]["momentum_buffer"]``; parameters whose ``grad`` is ``None`` are
skipped."""
from .optimizer import (Optimizer, _check_fused, _check_lr, _scalar_value,
                        _use_grad_for_differentiable)

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False, foreach=None, differentiable=False, fused=None):
        _check_lr(lr)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach,
                        differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        _check_fused(fused, differentiable, foreach)

    _group_defaults = {"nesterov": False, "maximize": False, "foreach": None,
                       "differentiable": False, "fused": False}

    def _init_group(self, group, params, grads, momentum_buffer_list):
        for p in group["params"]:
            if p.grad is not None:
                params.append(p)
                grads.append(p.grad)
                if group["momentum"] != 0:
                    momentum_buffer_list.append(self.state[p].get("momentum_buffer"))
        return False

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params, grads, momentum_buffer_list = [], [], []
            self._init_group(group, params, grads, momentum_buffer_list)
            sgd(params, grads, momentum_buffer_list,
                weight_decay=group["weight_decay"], momentum=group["momentum"], lr=group["lr"],
                dampening=group["dampening"], nesterov=group["nesterov"],
                maximize=group["maximize"])
            if group["momentum"] != 0:
                for p, buf in zip(params, momentum_buffer_list):
                    self.state[p]["momentum_buffer"] = buf
        return loss


def sgd(params, d_p_list, momentum_buffer_list, has_sparse_grad=False, foreach=None, fused=None,
        grad_scale=None, found_inf=None, *, weight_decay, momentum, lr, dampening, nesterov,
        maximize):
    """The SGD update on lists of parameters, gradients and momentum buffers (``None`` entries of
    ``momentum_buffer_list`` are replaced by the new buffers)."""
    if grad_scale is not None or found_inf is not None:
        raise RuntimeError("minitorch's SGD has no fused implementation (grad_scale/found_inf)")
    lr = _scalar_value(lr)
    for i, param in enumerate(params):
        grad = d_p_list[i] if not maximize else -d_p_list[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=_scalar_value(weight_decay))

        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            if nesterov:
                grad = grad.add(buf, alpha=momentum)
            else:
                grad = buf

        param.add_(grad, alpha=-lr)
