"""AdamW: Adam with decoupled weight decay (``p *= 1 - lr * weight_decay`` before the Adam
update instead of an L2 term in the gradient), as ``torch.optim.AdamW``; weight decay defaults
to 1e-2.  As in current torch it is ``Adam`` with ``decoupled_weight_decay=True``."""
from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable, differentiable=differentiable,
                         fused=fused, decoupled_weight_decay=True)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
