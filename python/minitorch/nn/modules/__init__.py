"""The layer modules of minitorch.nn, one file per kind."""
from .module import Module
from .container import Container, Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
from .linear import Identity, Linear, Bilinear
from .activation import (Threshold, ReLU, RReLU, Hardtanh, ReLU6, Sigmoid, Hardsigmoid, Tanh,
                         SiLU, Mish, Hardswish, ELU, CELU, SELU, GLU, GELU, Hardshrink, LeakyReLU,
                         LogSigmoid, Softplus, Softshrink, PReLU, Softsign, Tanhshrink, Softmin,
                         Softmax, Softmax2d, LogSoftmax)
from .dropout import Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout
from .sparse import Embedding
from .normalization import LayerNorm, GroupNorm, RMSNorm
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d
from .pooling import (MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveAvgPool1d,
                      AdaptiveAvgPool2d, AdaptiveMaxPool2d)
from .flatten import Flatten, Unflatten
from .rnn import RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell
from .loss import (L1Loss, MSELoss, NLLLoss, CrossEntropyLoss, BCELoss, BCEWithLogitsLoss,
                   SmoothL1Loss, HuberLoss, KLDivLoss, SoftMarginLoss)

__all__ = [
    "Module", "Container", "Sequential", "ModuleList", "ModuleDict", "ParameterList",
    "ParameterDict", "Identity", "Linear", "Bilinear", "Threshold", "ReLU", "RReLU", "Hardtanh",
    "ReLU6", "Sigmoid", "Hardsigmoid", "Tanh", "SiLU", "Mish", "Hardswish", "ELU", "CELU", "SELU",
    "GLU", "GELU", "Hardshrink", "LeakyReLU", "LogSigmoid", "Softplus", "Softshrink", "PReLU",
    "Softsign", "Tanhshrink", "Softmin", "Softmax", "Softmax2d", "LogSoftmax", "Dropout",
    "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "Embedding",
    "LayerNorm", "GroupNorm", "RMSNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Conv1d",
    "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "Flatten", "Unflatten", "RNNBase", "RNN", "LSTM",
    "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "L1Loss", "MSELoss",
    "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "HuberLoss",
    "KLDivLoss", "SoftMarginLoss",
]

# spatial: 3-D and transposed convolutions, 3-D pooling, upsampling
from .conv import Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d  # noqa: E402
from .pooling import (MaxPool3d, AvgPool3d, AdaptiveAvgPool3d, AdaptiveMaxPool1d,  # noqa: E402
                      AdaptiveMaxPool3d)
from .upsampling import Upsample, UpsamplingNearest2d, UpsamplingBilinear2d  # noqa: E402

__all__ += ["Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "MaxPool3d",
            "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool3d",
            "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]
