"""``minitorch.utils.benchmark`` (torch.utils.benchmark): Timer, which runs a statement a number
of times and reports the time per run as a Measurement, printed in torch's format. Timing only:
the Callgrind instruction counts, Compare tables and the fuzzers are not provided."""
from .utils.common import Measurement, TaskSpec, select_unit, trim_sigfig, unit_to_english
from .utils.timer import Language, Timer

__all__ = ["Language", "Measurement", "TaskSpec", "Timer", "select_unit", "trim_sigfig",
           "unit_to_english"]
