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

# ---- attention and transformers ------------------------------------------------------------
from .multihead_attention import MultiheadAttention  # noqa: E402
from .transformer import (Transformer, TransformerEncoder, TransformerDecoder,  # noqa: E402
                          TransformerEncoderLayer, TransformerDecoderLayer)

__all__ += ["MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder",
            "TransformerEncoderLayer", "TransformerDecoderLayer"]
# ---- padding, shuffles, fold, instance norm, distances, extra pooling, more losses ----------
from .padding import (CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d,  # noqa: E402
                      ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d,
                      ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d,
                      ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .pixelshuffle import PixelShuffle, PixelUnshuffle  # noqa: E402
from .channelshuffle import ChannelShuffle  # noqa: E402
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d  # noqa: E402
from .distance import PairwiseDistance, CosineSimilarity  # noqa: E402
from .fold import Fold, Unfold  # noqa: E402
from .sparse import EmbeddingBag  # noqa: E402
from .normalization import LocalResponseNorm  # noqa: E402
from .batchnorm import SyncBatchNorm  # noqa: E402
from .lazy import (LazyModuleMixin, LazyLinear, LazyConv1d, LazyConv2d,  # noqa: E402
                   LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyInstanceNorm1d,
                   LazyInstanceNorm2d, LazyInstanceNorm3d)
from .loss import (CTCLoss, TripletMarginLoss, TripletMarginWithDistanceLoss,  # noqa: E402
                   MarginRankingLoss, CosineEmbeddingLoss, HingeEmbeddingLoss, GaussianNLLLoss,
                   PoissonNLLLoss, MultiLabelSoftMarginLoss, MultiMarginLoss,
                   MultiLabelMarginLoss, NLLLoss2d)
from .pooling_extra import (LPPool1d, LPPool2d, MaxUnpool1d,  # noqa: E402
                            MaxUnpool2d)

__all__ += [
    "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "InstanceNorm1d", "InstanceNorm2d",
    "InstanceNorm3d", "PairwiseDistance", "CosineSimilarity", "Fold", "Unfold", "EmbeddingBag",
    "LPPool1d", "LPPool2d", "MaxUnpool1d", "MaxUnpool2d", "LocalResponseNorm",
    "SyncBatchNorm", "CTCLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
    "MarginRankingLoss", "CosineEmbeddingLoss", "HingeEmbeddingLoss", "GaussianNLLLoss",
    "PoissonNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "MultiLabelMarginLoss",
    "NLLLoss2d", "LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyBatchNorm1d",
    "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
    "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
    "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]
# spatial: 3-D and transposed convolutions, 3-D pooling, upsampling
from .conv import Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d  # noqa: E402
from .pooling import (MaxPool3d, AvgPool3d, AdaptiveAvgPool3d, AdaptiveMaxPool1d,  # noqa: E402
                      AdaptiveMaxPool3d)
from .upsampling import Upsample, UpsamplingNearest2d, UpsamplingBilinear2d  # noqa: E402

__all__ += ["Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "MaxPool3d",
            "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool3d",
            "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]
# lazy 3-D and transposed convolutions, 3-D Lp pooling and unpooling, the adaptive softmax
from .lazy import (LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d,  # noqa: E402
                   LazyConvTranspose3d)
from .pooling_extra import (LPPool3d, MaxUnpool3d, FractionalMaxPool2d,  # noqa: E402
                            FractionalMaxPool3d)
from .adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: E402
from .linear_cross_entropy import LinearCrossEntropyLoss, LinearCrossEntropyOptions  # noqa: E402

__all__ += ["LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d",
            "LPPool3d", "MaxUnpool3d", "AdaptiveLogSoftmaxWithLoss", "FractionalMaxPool2d",
            "FractionalMaxPool3d", "LinearCrossEntropyLoss", "LinearCrossEntropyOptions"]
