"""NAdam (Adam with Nesterov momentum), as ``torch.optim.NAdam``.

Per parameter and step ``t`` (``state[p]["step"]``), with ``g`` the gradient:

    g = -g                                          if maximize
    p = p * (1 - lr * weight_decay)                 if decoupled_weight_decay
    g = g + weight_decay * p                        otherwise, when weight_decay != 0
    mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
    P = P * mu_t                                    state["mu_product"]: mu_1 * ... * mu_t
    m = lerp(m, g, 1 - beta1)                       state["exp_avg"]
    v = beta2 * v + (1 - beta2) * g * g             state["exp_avg_sq"]
    denom = sqrt(v / (1 - beta2 ** t)) + eps
    p = p - lr * (1 - mu_t) / (1 - P) * g / denom
    p = p - lr * mu_{t+1} / (1 - P * mu_{t+1}) * m / denom

``mu_product`` is a scalar tensor of the step counter's dtype."""
from .optimizer import (Optimizer, _as_real, _check_hyper, _check_singleton_tensors, _new_counter,
                        _refuse_capturable, _scalar_value, _use_grad_for_differentiable,
                        _zeros_like_param)

__all__ = ["NAdam", "nadam"]


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        _check_hyper(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay,
                     momentum_decay=momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    _group_defaults = {"maximize": False, "foreach": None, "capturable": False,
                       "differentiable": False, "decoupled_weight_decay": False}
    _counters = ("step", "mu_product")

    def _new_state(self, p, group):
        return {"step": _new_counter(group), "mu_product": _new_counter(group, 1.0),
                "exp_avg": _zeros_like_param(p), "exp_avg_sq": _zeros_like_param(p)}
    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs one optimization step; returns the loss of ``closure`` when one is given."""
        loss = self._run_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, (exp_avgs, exp_avg_sqs, mu_products, state_steps), \
                has_complex = self._gather(group, "exp_avg", "exp_avg_sq", "mu_product", "step")
            beta1, beta2 = group["betas"]
            nadam(params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps,
                  beta1=beta1, beta2=beta2, lr=group["lr"], weight_decay=group["weight_decay"],
                  momentum_decay=group["momentum_decay"], eps=group["eps"],
                  maximize=group["maximize"],
                  decoupled_weight_decay=group["decoupled_weight_decay"],
                  foreach=group["foreach"], capturable=group["capturable"],
                  differentiable=group["differentiable"], has_complex=has_complex)
        return loss


def nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps,
          decoupled_weight_decay=False, foreach=None, capturable=False, differentiable=False,
          has_complex=False, maximize=False, *, beta1, beta2, lr, weight_decay, momentum_decay,
          eps):
    """The NAdam update on lists of tensors (the optimizer's ``step`` calls this per group)."""
    _check_singleton_tensors(state_steps)
    _check_singleton_tensors(mu_products, "mu_products")
    lr = _scalar_value(lr)

    for i, param in enumerate(params):
        if capturable:
            _refuse_capturable("params, mu_products and state_steps")
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        mu_product = mu_products[i]
        step_t = state_steps[i]

        if param.is_complex():
            param, grad, exp_avg, exp_avg_sq = _as_real(param, grad, exp_avg, exp_avg_sq)

        step_t += 1
        step = step_t.item()
        bias_correction2 = 1 - beta2 ** step

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product *= mu

        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()

        if differentiable:
            # the coefficients as tensor operations, so that autograd sees mu_product
            denom = denom.add(eps)
            mu_product_next = mu_product * mu_next
            param.addcdiv_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product)), denom)
            param.addcdiv_(exp_avg * (-lr * mu_next / (1.0 - mu_product_next)), denom)
        else:
            product = mu_product.item()
            denom.add_(eps)
            param.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - product))
            param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - product * mu_next))
