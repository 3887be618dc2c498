"""nn.utils: gradient clipping, parameters <-> one vector, padded and packed sequences
(nn.utils.rnn), parametrizations (nn.utils.parametrize, nn.utils.parametrizations), the
original weight_norm / spectral_norm hooks, and conv/linear + batch-norm fusion
(nn.utils.fusion)."""
from . import rnn  # noqa: F401
from .clip_grad import (clip_grad_norm, clip_grad_norm_, clip_grad_value_,  # noqa: F401
                        clip_grads_with_norm_, get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
# parametrizations, weight normalisation and spectral normalisation, batch-norm fusion
from . import fusion, parametrizations, parametrize  # noqa: F401,E402
from .fusion import (fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval,  # noqa: F401
                     fuse_linear_bn_weights)
from .spectral_norm import remove_spectral_norm, spectral_norm  # noqa: F401
from .weight_norm import remove_weight_norm, weight_norm  # noqa: F401
from . import stateless  # noqa: F401,E402

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm", "parameters_to_vector", "vector_to_parameters", "rnn",
           # parametrizations, weight and spectral normalisation, fusion
           "fusion", "parametrizations", "parametrize", "fuse_conv_bn_eval",
           "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights",
           "remove_spectral_norm", "spectral_norm", "remove_weight_norm", "weight_norm",
           "stateless"]
