"""``Gamma(concentration, rate)`` and ``Chi2(df)``, as torch's.  ``rsample`` is differentiable
in the concentration through the implicit reparameterisation gradient of the gamma sampler
(see Note [Implicit reparameterisation] in minitorch/_sampling.py)."""
import minitorch
from minitorch import Size

from . import constraints
from ._special import digamma, gammainc
from .exp_family import ExponentialFamily
from .utils import _Number, broadcast_all

__all__ = ["Gamma", "Chi2"]


def _standard_gamma(concentration, generator=None):
    return minitorch._standard_gamma(concentration, generator=generator)


class Gamma(ExponentialFamily):
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        if isinstance(concentration, _Number) and isinstance(rate, _Number):
            batch_shape = Size()
        else:
            batch_shape = self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gamma, _instance)
        batch_shape = Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Gamma, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=Size(), *, generator=None):
        with minitorch.no_grad():
            return self.rsample(sample_shape, generator=generator)

    def rsample(self, sample_shape=Size(), generator=None):
        shape = self._extended_shape(sample_shape)
        value = (_standard_gamma(self.concentration.expand(shape), generator=generator)
                 / self.rate.expand(shape))
        value.detach().clamp_(min=minitorch.finfo(value.dtype).tiny)
        return value

    def log_prob(self, value):
        value = minitorch.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (minitorch.xlogy(self.concentration, self.rate)
                + minitorch.xlogy(self.concentration - 1, value)
                - self.rate * value - self.concentration.lgamma())

    def entropy(self):
        return (self.concentration - self.rate.log() + self.concentration.lgamma()
                + (1.0 - self.concentration) * digamma(self.concentration))

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return (x + 1).lgamma() + (x + 1) * (-y.reciprocal()).log()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return gammainc(self.concentration, self.rate * value)


class Chi2(Gamma):
    """Chi-squared with df degrees of freedom: Gamma(df / 2, 1 / 2)."""
    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        (df,) = broadcast_all(df)
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Chi2, _instance)
        return super().expand(batch_shape, new)

    @property
    def df(self):
        return self.concentration * 2
