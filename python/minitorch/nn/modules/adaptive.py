"""AdaptiveLogSoftmaxWithLoss: the adaptive softmax of Grave et al. for large vocabularies.

The classes are split by `cutoffs` into a head (the most frequent classes, below cutoffs[0])
and tail clusters [cutoffs[i], cutoffs[i+1]).  The head predicts its own classes and one
"cluster" token per tail cluster; each cluster has a two-layer projection of smaller width
(in_features / div_value^(i+1)) predicting the classes inside it.  log p(class) is the head's
log-probability of the class, or of its cluster plus the cluster's log-probability of it."""
from collections import namedtuple

from ... import _C
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False,
                 device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs)
                or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in "
                             "an increasing order, where each value is between 1 and "
                             "n_classes-1")
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        kw = {"device": device, "dtype": dtype}
        self.head = Linear(in_features, self.head_size, bias=head_bias, **kw)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            width = int(in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(in_features, width, bias=False, **kw),
                                        Linear(width, size, bias=False, **kw)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for proj in self.tail:
            for layer in proj:
                layer.reset_parameters()

    def forward(self, input, target):
        """(log p(target) per example, its negative mean)."""
        if target.dim() == 1:
            if input.dim() != 2:
                raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs "
                                   f"with size {list(input.shape)}")
            if input.shape[0] != target.shape[0]:
                raise RuntimeError("Input and target should have the same size in the batch "
                                   "dimension.")
        elif target.dim() == 0:
            if input.dim() != 1:
                raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs "
                                   f"with size {list(input.shape)}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        batched = target.dim() > 0
        x = input if batched else input.unsqueeze(0)
        t = target if batched else target.unsqueeze(0)
        n = t.shape[0]
        if n and (bool((t < 0).any()) or bool((t >= self.n_classes).any())):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values "
                               f"in range [{t.min().item()}, {t.max().item()}] were found. ")
        head_logprob = F.log_softmax(self.head(x), dim=1)
        # the head's column for each example: the class itself, or its cluster's token
        column = t.clone()
        output = x.new_zeros(n)
        for i in range(self.n_clusters):
            lo, hi = self.cutoffs[i], self.cutoffs[i + 1]
            rows = ((t >= lo) & (t < hi)).nonzero().reshape(-1)
            if rows.numel() == 0:
                continue
            column = column.index_fill(0, rows, self.shortlist_size + i)
            cluster_logprob = F.log_softmax(self.tail[i](x.index_select(0, rows)), dim=1)
            inside = cluster_logprob.gather(1, (t.index_select(0, rows) - lo).unsqueeze(1))
            output = output.index_add(0, rows, inside.reshape(-1))
        output = output + head_logprob.gather(1, column.unsqueeze(1)).reshape(-1)
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, x, head_logprob):
        parts = [head_logprob[:, :self.shortlist_size]]
        for i in range(self.n_clusters):
            cluster = F.log_softmax(self.tail[i](x), dim=1)
            parts.append(cluster + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return _C.cat(parts, 1)

    def log_prob(self, input):
        """log p(class) for every class: (batch, n_classes), or (n_classes,) unbatched."""
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        out = self._full_log_prob(x, F.log_softmax(self.head(x), dim=1))
        return out if batched else out.squeeze(0)

    def predict(self, input):
        """The most probable class of each example (the head's answer where it is a class of
        the head, the full distribution's elsewhere)."""
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        head_logprob = F.log_softmax(self.head(x), dim=1)
        best = head_logprob.argmax(dim=1)
        in_tail = best >= self.shortlist_size
        if bool(in_tail.any()):
            rows = in_tail.nonzero().reshape(-1)
            full = self._full_log_prob(x.index_select(0, rows), head_logprob.index_select(0, rows))
            best = best.index_copy(0, rows, full.argmax(dim=1))
        return best if batched else best.squeeze(0)
