"""``minitorch.optim``: optimizers and learning-rate schedulers, as ``torch.optim``.

Implemented: ``Optimizer`` (the base class: param groups, state, ``zero_grad``, ``state_dict`` /
``load_state_dict`` in torch's layout, step hooks), ``SGD``, ``Adam``, ``AdamW``, ``Adadelta``,
``Adafactor``, ``Adagrad``, ``Adamax``, ``ASGD``, ``LBFGS``, ``NAdam``, ``RAdam``, ``RMSprop``,
``Rprop``, ``SparseAdam`` (which, as torch's, refuses the dense gradients minitorch has),
``lr_scheduler`` and ``swa_utils``.
``import minitorch`` does not import this package; the first use of ``minitorch.optim`` does."""
from . import lr_scheduler  # noqa: F401
from ._adafactor import Adafactor
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer, _NotImplementedAttribute
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

__all__ = ["Adadelta", "Adafactor", "Adagrad", "Adam", "Adamax", "AdamW", "ASGD", "LBFGS",
           "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam", "lr_scheduler",
           "swa_utils"]

_NOT_IMPLEMENTED = frozenset({"Muon"})


def __getattr__(name):
    if name == "swa_utils":  # loaded on first use (it imports minitorch.nn)
        import importlib
        return importlib.import_module(".swa_utils", __name__)
    if name in _NOT_IMPLEMENTED:
        raise _NotImplementedAttribute(f"module {__name__!r} has no attribute {name!r} "
                                       f"(minitorch.optim implements {', '.join(__all__[:-2])}, "
                                       "lr_scheduler and swa_utils)")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
