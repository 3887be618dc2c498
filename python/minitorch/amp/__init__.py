"""minitorch.amp: automatic mixed precision, as torch.amp.

autocast (a context manager and decorator) runs the ops torch's CPU autocast lists in
bfloat16 (or float16) and others in float32 (see Note [Autocast] in csrc/autocast.h);
GradScaler scales losses and unscales gradients, skipping steps whose gradients are not
finite.  Loaded on first use of minitorch.amp / minitorch.autocast."""
from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from .grad_scaler import GradScaler, OptState

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler",
           "OptState"]
