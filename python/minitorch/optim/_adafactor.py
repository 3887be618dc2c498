"""Adafactor, as ``torch.optim.Adafactor``: Adam-like steps whose second-moment estimate of a
matrix (or of each matrix of a batch) is kept factored, as a row and a column mean.

Per parameter and step ``t`` (``state[p]["step"]``), with ``g`` the gradient:

    g = -g                                        if maximize
    beta2_t = 1 - t ** beta2_decay                (the update mixes in t ** beta2_decay)
    rho = min(lr, 1 / sqrt(t));  alpha = max(eps2, rms(p)) * rho
    p = p * (1 - lr * weight_decay)               if weight_decay != 0
    2-d and more:  R = lerp(R, mean_cols(g^2), 1 - beta2_t)      state["row_var"]
                   C = lerp(C, mean_rows(g^2), 1 - beta2_t)      state["col_var"]
                   v = R @ C / max(mean(R), eps1)
    1-d:           v = lerp(v, g^2, 1 - beta2_t)                 state["variance"]
    u = g / sqrt(max(v, eps1^2))
    p = p - alpha * u / max(1, rms(u) / d)

``eps1`` defaults to the machine epsilon of the first parameter's dtype (as torch's)."""
import minitorch

from .optimizer import Optimizer, _get_scalar_dtype, _scalar_value

__all__ = ["Adafactor", "adafactor"]


class Adafactor(Optimizer):
    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        if hasattr(lr, "numel") and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    _group_defaults = {"foreach": None}
    _counters = ("step",)

    def _new_state(self, p, group):
        state = {"step": minitorch.tensor(0.0, dtype=_get_scalar_dtype())}
        grad = p.grad
        if grad.dim() > 1:
            row_shape = list(grad.shape)
            row_shape[-1] = 1
            state["row_var"] = grad.new_zeros(row_shape)
            col_shape = list(grad.shape)
            col_shape[-2] = 1
            state["col_var"] = grad.new_zeros(col_shape)
        else:
            state["variance"] = minitorch.zeros_like(grad, memory_format=minitorch.preserve_format)
        return state

    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)
        with minitorch.no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None and p.is_complex():
                        raise RuntimeError("Adafactor does not support complex parameters")
                params, grads, (row_vars, col_vars, variances, state_steps), _ = \
                    self._gather(group, "row_var", "col_var", "variance", "step")
                eps1, eps2 = group["eps"]
                adafactor(params, grads, row_vars, col_vars, variances, state_steps,
                          d=group["d"], lr=group["lr"], beta2_decay=group["beta2_decay"],
                          weight_decay=group["weight_decay"], eps1=eps1, eps2=eps2,
                          foreach=group["foreach"], maximize=group["maximize"],
                          grad_scale=getattr(self, "grad_scale", None),
                          found_inf=getattr(self, "found_inf", None))
        return loss


def _rms(t):
    return t.norm(2).item() / t.numel() ** 0.5


def adafactor(params, grads, row_vars, col_vars, variances, state_steps, foreach=None,
              grad_scale=None, found_inf=None, has_complex=False, *, d, lr, beta2_decay,
              weight_decay, eps1, eps2, maximize):
    """The Adafactor update on lists of tensors (the optimizer's ``step`` calls this per
    group)."""
    if not all(isinstance(t, minitorch.Tensor) for t in state_steps):
        raise RuntimeError("`state_steps` argument must contain a list of singleton tensors")
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Grad scaling should occur outside of optimizer.step()")
    lr = _scalar_value(lr)

    for param, grad, row_var, col_var, variance, step_t in zip(
            params, grads, row_vars, col_vars, variances, state_steps):
        if maximize:
            grad = -grad
        if eps1 is None:
            eps1 = minitorch.finfo(param.dtype).eps
        step_t += 1
        step = step_t.item()
        one_minus_beta2_t = step ** beta2_decay
        rho_t = min(lr, 1 / step ** 0.5)
        alpha = max(eps2, _rms(param)) * rho_t
        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            row_mean = grad.norm(2, dim=-1, keepdim=True).square_().div_(grad.size(-1))
            row_var.lerp_(row_mean, one_minus_beta2_t)
            col_mean = grad.norm(2, dim=-2, keepdim=True).square_().div_(grad.size(-2))
            col_var.lerp_(col_mean, one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            variance.lerp_(grad * grad, one_minus_beta2_t)
            var_estimate = variance.clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / (update.numel() ** 0.5 * d))
        param.add_(update, alpha=-alpha / denom)
