"""``ExponentialFamily``: distributions with density exp(<t(x), theta> - F(theta) + k(x)), whose
entropy (and KL divergence between two members of one family) follow from the log normaliser F
by automatic differentiation (a Bregman divergence), as torch's."""
import minitorch

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base of the exponential families: subclasses give ``_natural_params`` (a tuple of
    tensors), ``_log_normalizer(*natural_params)`` and ``_mean_carrier_measure`` (E[k(x)])."""

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """F(theta) - <theta, grad F(theta)> - E[k(x)]."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        with minitorch.enable_grad():
            lg_normal = self._log_normalizer(*nparams)
            gradients = minitorch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result = result + lg_normal
        for p, g in zip(nparams, gradients):
            result = result - (p * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
