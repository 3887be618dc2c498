"""minitorch.random: the seeding functions of the default generator, and fork_rng (as torch.random)."""
import contextlib

from ._random import (  # noqa: F401
    default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state,
)

__all__ = ["default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state", "fork_rng"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type="cuda"):
    """Restores the default generator's state on exit, so draws inside the block do not
    change what comes after it.  Only the CPU generator exists, so `devices` must be empty
    or None."""
    if not enabled:
        yield
        return
    if devices:
        raise NotImplementedError(f"{_caller}: only the CPU generator exists; {_devices_kw} must be "
                                  f"empty or None")
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
