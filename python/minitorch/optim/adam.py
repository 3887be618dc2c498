"""Adam (and, with ``decoupled_weight_decay=True``, AdamW), as ``torch.optim.Adam``.

Per parameter and step ``t`` (a float tensor ``state[p]["step"]``), with ``g`` the gradient:

    g = -g                                    if maximize
    p = p * (1 - lr * weight_decay)           if decoupled weight decay
    g = g + weight_decay * p                  otherwise (L2 penalty), when weight_decay != 0
    m = lerp(m, g, 1 - beta1)                 state["exp_avg"]
    v = beta2 * v + (1 - beta2) * g * g       state["exp_avg_sq"]
    vmax = maximum(vmax, v); use vmax for v   if amsgrad (state["max_exp_avg_sq"])
    denom = sqrt(v) / sqrt(1 - beta2 ** t) + eps
    p = p - lr / (1 - beta1 ** t) * m / denom

The operations and their order are torch's single-tensor implementation, so float32 results
agree with torch's to the last bit on the same inputs (up to the rounding of the elementwise
kernels)."""
import minitorch
from minitorch import Tensor, _C

from .optimizer import (Optimizer, _as_real, _check_fused, _check_hyper, _check_singleton_tensors,
                        _new_counter, _refuse_capturable, _scalar_value,
                        _use_grad_for_differentiable, _zeros_like_param)

__all__ = ["Adam", "adam"]

_FUSED_DTYPES = (minitorch.float32, minitorch.float64)


def _fusable(param, grad, *state):
    """Whether one step of param can run fused: real float32/float64 tensors of one dtype and
    shape (the state as created for it)."""
    dt = param.dtype
    return dt in _FUSED_DTYPES and all(
        t is None or (t.dtype == dt and t.shape == param.shape) for t in (grad, *state))


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        if isinstance(lr, Tensor) and foreach and not capturable:
            raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
        _check_hyper(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, beta in enumerate(betas):
            if isinstance(beta, Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for "
                                     "capturable=False and foreach=True")
                if beta.numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        betas = tuple(b.squeeze() if isinstance(b, Tensor) and b.dim() != 0 else b for b in betas)

        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        _check_fused(fused, differentiable, foreach)

    _group_defaults = {"amsgrad": False, "maximize": False, "foreach": None, "capturable": False,
                       "differentiable": False, "decoupled_weight_decay": False, "fused": None}
    _counters = ("step",)

    def _new_state(self, p, group):
        state = {"step": _new_counter(group), "exp_avg": _zeros_like_param(p),
                 "exp_avg_sq": _zeros_like_param(p)}
        if group["amsgrad"]:
            state["max_exp_avg_sq"] = _zeros_like_param(p)
        return state
    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, (exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps), \
                has_complex = self._gather(group, "exp_avg", "exp_avg_sq", "max_exp_avg_sq",
                                           "step")
            if params_with_grad and group["foreach"] and isinstance(group["lr"], Tensor) and \
                    not group["capturable"]:
                raise RuntimeError("lr as a Tensor is not supported for capturable=False and "
                                   "foreach=True")
            beta1, beta2 = group["betas"]
            adam(params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
                 amsgrad=group["amsgrad"], has_complex=has_complex, beta1=beta1, beta2=beta2,
                 lr=group["lr"], weight_decay=group["weight_decay"], eps=group["eps"],
                 maximize=group["maximize"], capturable=group["capturable"],
                 differentiable=group["differentiable"],
                 decoupled_weight_decay=group["decoupled_weight_decay"])
        return loss


def adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, foreach=None,
         capturable=False, differentiable=False, fused=None, grad_scale=None, found_inf=None,
         has_complex=False, decoupled_weight_decay=False, *, amsgrad, beta1, beta2, lr,
         weight_decay, eps, maximize):
    """The Adam update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    if grad_scale is not None or found_inf is not None:
        raise RuntimeError("minitorch's Adam has no fused implementation (grad_scale/found_inf)")
    _check_singleton_tensors(state_steps)
    lr = _scalar_value(lr)
    beta1 = _scalar_value(beta1)
    beta2 = _scalar_value(beta2)
    weight_decay = _scalar_value(weight_decay)

    for i, param in enumerate(params):
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        if capturable:
            _refuse_capturable()

        step_t += 1
        max_exp_avg_sq = max_exp_avg_sqs[i] if amsgrad else None
        if not differentiable and _fusable(param, grads[i], exp_avg, exp_avg_sq, max_exp_avg_sq):
            # the same update in one pass (Note [Fused Adam] in aten_lite/optim.h)
            step = step_t.item()
            _C._adam_step_(param, grads[i], exp_avg, exp_avg_sq, max_exp_avg_sq, beta1, beta2,
                           lr, weight_decay, eps, lr / (1 - beta1 ** step),
                           (1 - beta2 ** step) ** 0.5, maximize, decoupled_weight_decay)
            continue
        grad = grads[i] if not maximize else -grads[i]

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        if param.is_complex():
            grad, exp_avg, exp_avg_sq, max_exp_avg_sq, param = _as_real(
                grad, exp_avg, exp_avg_sq, max_exp_avg_sq, param)

        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

        step = step_t.item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5

        if amsgrad:
            minitorch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
            denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)
