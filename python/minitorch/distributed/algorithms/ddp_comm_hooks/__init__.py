"""Communication hooks for DistributedDataParallel.register_comm_hook (``default_hooks``)."""
import enum
import functools

from . import default_hooks

__all__ = ["DDPCommHookType", "register_ddp_comm_hook", "default_hooks"]


class DDPCommHookType(enum.Enum):
    """torch's names for the built-in hooks: ``DDPCommHookType.ALLREDUCE.value(model=m,
    state=None)`` registers it on m."""
    ALLREDUCE = functools.partial(lambda model, state=None:
                                  model.register_comm_hook(state, default_hooks.allreduce_hook))
    FP16_COMPRESS = functools.partial(lambda model, state=None:
                                      model.register_comm_hook(state,
                                                               default_hooks.fp16_compress_hook))
    BF16_COMPRESS = functools.partial(lambda model, state=None:
                                      model.register_comm_hook(state,
                                                               default_hooks.bf16_compress_hook))


def register_ddp_comm_hook(comm_hook_type, model, state=None):
    """Registers the hook named by a DDPCommHookType on a DistributedDataParallel model."""
    comm_hook_type.value(model=model, state=state)
