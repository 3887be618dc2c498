"""``minitorch.utils.tensorboard``: ``SummaryWriter`` writing TensorBoard event files (scalars and
text), as ``torch.utils.tensorboard``, without needing the tensorboard package to write them."""
from .writer import SummaryWriter

__all__ = ["SummaryWriter"]
