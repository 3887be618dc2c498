"""``Dirichlet(concentration)`` over the simplex of the last dimension, as torch's; ``rsample``
is differentiable through the implicit reparameterisation gradient (``_dirichlet_grad``)."""
import minitorch
from minitorch import Size
from minitorch.autograd import Function
from minitorch.autograd.function import once_differentiable

from . import constraints
from ._special import digamma
from .exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


def _dirichlet_backward(x, concentration, grad_output):
    total = concentration.sum(-1, True).expand_as(concentration)
    grad = minitorch._dirichlet_grad(x, concentration, total)
    return grad * (grad_output - (x * grad_output).sum(-1, True))


class _Dirichlet(Function):
    @staticmethod
    def forward(ctx, concentration):
        x = minitorch._sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        return _dirichlet_backward(x, concentration, grad_output)


class Dirichlet(ExponentialFamily):
    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Dirichlet, _instance)
        batch_shape = Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape + self.event_shape)
        super(Dirichlet, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return _Dirichlet.apply(self.concentration.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        c = self.concentration
        return (minitorch.xlogy(c - 1.0, value).sum(-1) + c.sum(-1).lgamma()
                - c.lgamma().sum(-1))

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        cm1 = (self.concentration - 1).clamp(min=0.0)
        mask = (self.concentration < 1).all(dim=-1)
        total = cm1.sum(-1, True)
        # where every concentration is below 1 the mode is a vertex (chosen below): divide by
        # 1 there, not by 0, so that no nan reaches the gradient
        mode = cm1 / total.masked_fill(mask.unsqueeze(-1), 1.0)
        if bool(mask.any()):
            one_hot = minitorch.nn.functional.one_hot(mode.argmax(dim=-1), cm1.shape[-1])
            mode = minitorch.where(mask.unsqueeze(-1), one_hot.to(mode.dtype), mode)
        return mode

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        c = self.concentration
        k = c.size(-1)
        a0 = c.sum(-1)
        return (c.lgamma().sum(-1) - a0.lgamma() - (k - a0) * digamma(a0)
                - ((c - 1.0) * digamma(c)).sum(-1))

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - x.sum(-1).lgamma()
