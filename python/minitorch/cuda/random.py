"""The CUDA devices' random generators (torch.cuda.random): seeding and states.

Each device has a default generator (Note [CUDA generators] in csrc/random_binding.c), used by
the random ops on its tensors.  The draws are the cpu generator's functions of (seed, offset),
so after one seed a device and the cpu give the same numbers (torch's streams differ between
the two).  As torch queues the seeding until CUDA initialises, seeding without a device is
silent; reading a state needs one."""
from .. import _C

__all__ = ["manual_seed", "manual_seed_all", "seed", "seed_all", "initial_seed", "get_rng_state",
           "get_rng_state_all", "set_rng_state", "set_rng_state_all"]


def _index(device="cuda"):
    from . import _get_device_index, current_device, device_count, _unavailable
    if device_count() == 0:
        raise _unavailable()
    idx = _get_device_index(device, optional=True)
    if idx < 0:
        idx = current_device()
    if idx >= device_count():
        raise RuntimeError("CUDA error: invalid device ordinal")
    return idx


def _generator(device="cuda"):
    return _C._cuda_default_generator(_index(device))


def manual_seed(seed):
    """Seeds the current device's generator (silently nothing without a device)."""
    seed = int(seed)
    from . import device_count
    if device_count() > 0:
        _generator().manual_seed(seed)


def manual_seed_all(seed):
    """Seeds every device's generator, and those of devices first used later."""
    _C._cuda_manual_seed_all(int(seed))


def seed():
    """Seeds the current device's generator with a non-deterministic number."""
    from . import device_count
    if device_count() > 0:
        _generator().seed()


def seed_all():
    """Seeds every device's generator with one non-deterministic number."""
    _C._cuda_manual_seed_all(_C.Generator().seed())


def initial_seed():
    """The seed the current device's generator was last seeded with."""
    return _generator().initial_seed()


def get_rng_state(device="cuda"):
    """The state of a device's generator, as a cpu uint8 tensor."""
    return _generator(device).get_state()


def set_rng_state(new_state, device="cuda"):
    """Restores a device's generator from get_rng_state()."""
    _generator(device).set_state(new_state)


def get_rng_state_all():
    """Every device's generator state, in device order."""
    from . import device_count
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state_all(new_states):
    """Restores every device's generator from get_rng_state_all()."""
    for i, state in enumerate(new_states):
        set_rng_state(state, i)
