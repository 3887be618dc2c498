"""``minitorch.distributions``: probability distributions, transforms, constraints and KL
divergences, as ``torch.distributions``.

Families: Bernoulli, Beta, Binomial, Categorical, Cauchy, Chi2, Dirichlet, Exponential, Gamma,
Geometric, Independent, Laplace, LogNormal, Multinomial, MultivariateNormal, Normal,
OneHotCategorical(StraightThrough), Poisson, RelaxedBernoulli, RelaxedOneHotCategorical,
StudentT, TransformedDistribution, Uniform.  Draws come from minitorch's generator (the same
distributions as torch's, not the same numbers); log_prob, entropy, cdf and KL values equal
torch's to float rounding.  ``import minitorch`` does not import this package; the first use of
``minitorch.distributions`` does."""
from . import constraints, transforms  # noqa: F401
from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .cauchy import Cauchy
from .constraint_registry import biject_to, transform_to
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .gamma import Chi2, Gamma
from .geometric import Geometric
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .relaxed_bernoulli import LogitRelaxedBernoulli, RelaxedBernoulli
from .relaxed_categorical import ExpRelaxedCategorical, RelaxedOneHotCategorical
from .studentT import StudentT
from .transformed_distribution import TransformedDistribution
from .transforms import *  # noqa: F401,F403
from .transforms import __all__ as _transforms_all
from .uniform import Uniform

__all__ = ["Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "Dirichlet",
           "Distribution", "Exponential", "ExponentialFamily", "Gamma", "Geometric",
           "Independent", "Laplace", "LogNormal", "Multinomial", "MultivariateNormal", "Normal",
           "OneHotCategorical", "OneHotCategoricalStraightThrough", "Poisson",
           "RelaxedBernoulli", "RelaxedOneHotCategorical", "StudentT", "Uniform",
           "TransformedDistribution", "biject_to", "kl_divergence", "register_kl",
           "transform_to"] + list(_transforms_all)

# torch's families minitorch does not have yet
_NOT_IMPLEMENTED = frozenset({"ContinuousBernoulli", "FisherSnedecor", "GeneralizedPareto",
                              "Gumbel", "HalfCauchy", "HalfNormal", "InverseGamma",
                              "Kumaraswamy", "LKJCholesky", "LogisticNormal",
                              "LowRankMultivariateNormal", "MixtureSameFamily",
                              "NegativeBinomial", "Pareto", "VonMises", "Weibull", "Wishart"})


class _NotImplementedAttribute(AttributeError, NotImplementedError):
    """Asking for one of those: an AttributeError (hasattr is False) that is also a
    NotImplementedError."""


def __getattr__(name):
    if name in _NOT_IMPLEMENTED:
        raise _NotImplementedAttribute(f"module {__name__!r} has no attribute {name!r} "
                                       f"(minitorch.distributions does not implement {name} yet)")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
