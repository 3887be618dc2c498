"""``minitorch.optim``: optimizers and learning-rate schedulers, as ``torch.optim``.

Implemented: ``Optimizer`` (the base class: param groups, state, ``zero_grad``, ``state_dict`` /
``load_state_dict`` in torch's layout, step hooks), ``SGD``, ``Adam``, ``AdamW``, ``Adadelta``,
``Adagrad``, ``Adamax``, ``NAdam``, ``RAdam``, ``RMSprop`` and ``lr_scheduler``.
``import minitorch`` does not import this package; the first use of ``minitorch.optim`` does."""
from . import lr_scheduler  # noqa: F401
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .nadam import NAdam
from .optimizer import Optimizer, _NotImplementedAttribute
from .radam import RAdam
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Adadelta", "Adagrad", "Adam", "Adamax", "AdamW", "NAdam", "Optimizer", "RAdam",
           "RMSprop", "SGD", "lr_scheduler"]

_NOT_IMPLEMENTED = frozenset({"Adafactor", "ASGD", "LBFGS", "Muon", "Rprop", "SparseAdam",
                              "swa_utils"})


def __getattr__(name):
    if name in _NOT_IMPLEMENTED:
        raise _NotImplementedAttribute(f"module {__name__!r} has no attribute {name!r} "
                                       f"(minitorch.optim implements {', '.join(__all__[:-1])} "
                                       "and lr_scheduler)")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
