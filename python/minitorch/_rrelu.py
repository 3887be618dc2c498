"""The activations torch also has as top-level functions: rrelu (randomized leaky ReLU), selu
and celu, and their in-place forms."""
from . import _C
from ._checks import _check, _legacy_name


def _functional():
    from .nn import functional
    return functional


def _inplace(input, fn):
    """input = fn(input), computed from a copy when input's history must keep its values."""
    import minitorch
    src = input.clone() if input.requires_grad and minitorch.is_grad_enabled() else input
    return input.copy_(fn(src))


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """x where x > 0, else x * a: in training a ~ U(lower, upper) drawn per element (the
    gradient is a too), in evaluation a = (lower + upper) / 2."""
    _check(input, "rrelu")
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not input.dtype.is_floating_point:
        kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_legacy_name(input.dtype)}'")
    import minitorch
    if training:
        noise = _C.empty(input.shape, dtype=input.dtype, device=input.device)
        noise.uniform_(lower, upper, generator=generator)
        noise = minitorch.where(input.detach() > 0, 1.0, noise).to(input.dtype)
        return input * noise
    return minitorch.where(input > 0, input, input * ((lower + upper) / 2))


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """rrelu written into input."""
    return _inplace(input, lambda x: rrelu(x, lower, upper, training, generator))


def selu(input):
    """scale * (x where x > 0, else alpha * (exp(x) - 1)) with SELU's constants."""
    return _functional().selu(input)


def selu_(input):
    return _functional().selu(input, True)


def celu(input, alpha=1.0):
    """x where x > 0, else alpha * (exp(x / alpha) - 1)."""
    return _functional().celu(input, alpha)


def celu_(input, alpha=1.0):
    return _functional().celu(input, alpha, True)
