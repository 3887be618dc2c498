"""minitorch.profiler: torch.profiler's API over minitorch's profiler (the events of
minitorch.autograd.profiler, Note [Profiler collection]): profile with schedules, steps and
trace handlers, record_function, Chrome traces for TensorBoard."""
from ..autograd._profiler_kinds import (DeviceType, ProfilerActivity, RecordScope,  # noqa: F401
                                        _ExperimentalConfig)
from ..autograd.profiler import KinetoStepTracker, kineto_available, record_function  # noqa: F401
from .profiler import (_KinetoProfile, ExecutionTraceObserver, profile,  # noqa: F401
                       ProfilerAction, ProfilerActivityConfig, schedule, supported_activities,
                       tensorboard_trace_handler)
from . import itt  # noqa: F401

__all__ = ["profile", "schedule", "supported_activities", "tensorboard_trace_handler",
           "ProfilerAction", "ProfilerActivity", "ProfilerActivityConfig", "kineto_available",
           "DeviceType", "record_function", "ExecutionTraceObserver"]
