"""minitorch.backends: what the build contains."""
from . import cuda  # noqa: F401
