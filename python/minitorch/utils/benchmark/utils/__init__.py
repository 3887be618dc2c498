"""The modules of minitorch.utils.benchmark (common: Measurement, TaskSpec; timer: Timer)."""
