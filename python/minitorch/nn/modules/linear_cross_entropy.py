"""LinearCrossEntropyLoss and linear_cross_entropy: a linear projection (to the classes, and
optional extra output dims) followed by cross_entropy, as torch 2.15's.

Torch's options (LinearCrossEntropyOptions) choose a chunked path that keeps only a batch
chunk's logits alive; here the options are checked and the loss is computed by the reference
composition (the same values, the memory of the whole logits tensor): a departure in memory,
not in results."""
import dataclasses
from typing import Optional

from ... import _C
from .. import functional as F
from .linear import Linear
from .module import Module

__all__ = ["LinearCrossEntropyLoss", "LinearCrossEntropyOptions", "linear_cross_entropy"]


@dataclasses.dataclass
class LinearCrossEntropyOptions:
    allow_retain_graph: bool = False
    batch_chunk_size: Optional[int] = None
    chunking_method: Optional[str] = "auto"
    acc_policy: str = "auto"
    acc_dtype: Optional[object] = None

    def __post_init__(self):
        if self.acc_policy not in ("accurate", "compact", "auto"):
            raise ValueError("acc_policy must be one of 'accurate', 'compact' or 'auto', got "
                             f"{self.acc_policy!r}")
        if self.batch_chunk_size is not None and self.batch_chunk_size <= 0:
            raise ValueError(f"batch_chunk_size must be positive, got {self.batch_chunk_size}")


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction="mean", ignore_index=None, label_smoothing=0.0, options=None):
    """cross_entropy(linear(input, W, b) reshaped to (..., C, *out_features), target)."""
    if options is not None and not isinstance(options, LinearCrossEntropyOptions):
        raise TypeError(f"options must be a LinearCrossEntropyOptions, got {type(options).__name__}")
    C, *out_features, in_features = linear_weight.shape
    if input.shape[-1] != in_features:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), "
                           f"got {input.shape[-1]} and {in_features}, respectively")
    logits = F.linear(input, linear_weight.reshape(-1, in_features),
                      None if linear_bias is None else linear_bias.reshape(-1))
    logits = logits.reshape(*input.shape[:-1], C, *out_features)
    return F.cross_entropy(logits, target, weight=weight, reduction=reduction,
                           ignore_index=-100 if ignore_index is None else ignore_index,
                           label_smoothing=label_smoothing)


class LinearCrossEntropyLoss(Module):
    """A Linear layer to num_classes (times out_features) and the cross entropy of its output."""

    def __init__(self, in_features, num_classes, *, out_features=(), bias=False, device=None,
                 dtype=None, reduction="mean", weight=None, ignore_index=None,
                 label_smoothing=0.0, options=None):
        super().__init__()
        self.reduction = reduction
        self.num_classes = num_classes
        self.out_features = tuple(out_features)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        self.options = options
        n = num_classes
        for f in self.out_features:
            n *= f
        self.linear = Linear(in_features, n, bias=bias, device=device, dtype=dtype)
        if weight is not None:
            self.register_buffer("weight", weight)
        else:
            self.weight = None

    def forward(self, input, target):
        w = self.linear.weight.reshape(self.num_classes, *self.out_features, -1)
        b = self.linear.bias
        if b is not None:
            b = b.reshape(self.num_classes, *self.out_features)
        return linear_cross_entropy(input, w, target, linear_bias=b, weight=self.weight,
                                    reduction=self.reduction, ignore_index=self.ignore_index,
                                    label_smoothing=self.label_smoothing, options=self.options)

    def extra_repr(self):
        return (f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
                f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
                f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
                f"label_smoothing={self.label_smoothing}, options={self.options}")
