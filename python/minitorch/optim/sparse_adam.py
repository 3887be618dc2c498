"""SparseAdam, as ``torch.optim.SparseAdam``: Adam for sparse gradients, updating only the
entries a gradient holds.

minitorch has no sparse tensors, so every gradient is dense, and ``step`` refuses a dense
gradient with torch's error (before changing anything), as torch's SparseAdam does; the
constructor checks its arguments and parameters as torch's."""
from .optimizer import Optimizer, _use_grad_for_differentiable

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if hasattr(lr, "numel") and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i, b in enumerate(betas[:2]):
            if not 0.0 <= b < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {b}")
        defaults = dict(lr=lr, betas=betas, eps=eps, maximize=maximize)
        super().__init__(params, defaults)

        complex_params = [[gi, pi] for gi, group in enumerate(self.param_groups)
                          for pi, p in enumerate(group["params"]) if p.is_complex()]
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not "
                             "support complex parameters")

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Refuses the dense gradients minitorch's tensors have (torch's error); returns the loss
        of ``closure`` when no parameter has a gradient."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None and not p.grad.is_sparse:
                    raise RuntimeError("SparseAdam does not support dense gradients, please "
                                       "consider Adam instead")
                if p.grad is not None:
                    raise NotImplementedError("minitorch has no sparse gradients")
        return loss
