"""Timer (torch.utils.benchmark.Timer): compiles a statement and its setup, runs the setup once
and the statement `number` times per measurement, with minitorch's intra-op threads set to
num_threads meanwhile, and returns a Measurement."""
import enum
import textwrap
import timeit as _timeit

import minitorch as _mt

from .common import Measurement, TaskSpec


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


class Timer:
    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=_timeit.default_timer,
                 globals=None, label=None, sub_label=None, description=None, env=None,
                 num_threads=1, language=Language.PYTHON):
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language not in (Language.PYTHON, "py", "python"):
            raise NotImplementedError("minitorch.utils.benchmark.Timer times Python statements "
                                      "only (language=Language.PYTHON)")
        stmt = textwrap.dedent(stmt).strip() or "pass"
        setup = textwrap.dedent(setup).strip() or "pass"
        self._task_spec = TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup,
                                   label=label, sub_label=sub_label, description=description,
                                   env=env, num_threads=num_threads)
        self._globals = dict(globals or {})
        self._globals.setdefault("torch", _mt)
        self._timer = _timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=self._globals)

    def _run(self, number):
        prev = _mt.get_num_threads()
        _mt.set_num_threads(self._task_spec.num_threads)
        try:
            return self._timer.timeit(number)
        finally:
            _mt.set_num_threads(prev)

    def timeit(self, number=1000000):
        """One measurement of `number` runs (after one warm-up run of the statement)."""
        self._run(max(number // 100, 2))
        return Measurement(number_per_run=number, raw_times=[self._run(number)],
                           task_spec=self._task_spec)

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        """Measurements of blocks of runs, each block about 10 ms or more, until min_run_time
        seconds have been spent timing."""
        number = 1
        while True:                      # the smallest block of at least 10 ms (or 1 run)
            t = self._run(number)
            if t >= 1e-2 or number >= 10**9:
                break
            number *= 10
        times, total = [], 0.0
        while total < min_run_time or not times:
            t = self._run(number)
            total += t
            if callback is not None:
                callback(number, t)
            times.append(t)
        return Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0,
                           callback=None):
        """Blocks of runs until the interquartile range is within threshold of the median
        (after min_run_time seconds), or max_run_time seconds have passed."""
        m = self.blocked_autorange(callback=callback, min_run_time=min_run_time)
        spent = sum(m.raw_times)
        while spent < max_run_time and (len(m.raw_times) < 3 or m.iqr / m.median > threshold):
            t = self._run(m.number_per_run)
            spent += t
            m = Measurement(number_per_run=m.number_per_run, raw_times=m.raw_times + [t],
                            task_spec=self._task_spec)
        return m
