"""What a benchmark measured (Measurement) and of what (TaskSpec), printed as torch prints them:
the statement (or label), the description and setup, then the time per run - one measurement
as a single time, several as their median and interquartile range, with a warning when the
spread is large."""
import dataclasses
import math
from typing import List, Optional


@dataclasses.dataclass(frozen=True)
class TaskSpec:
    """The statement, its setup and the labels a measurement is shown with."""
    stmt: str
    setup: str
    global_setup: str = ""
    label: Optional[str] = None
    sub_label: Optional[str] = None
    description: Optional[str] = None
    env: Optional[str] = None
    num_threads: int = 1

    @property
    def title(self):
        """The label (or the statement), with the sub-label after a colon."""
        if self.label is not None:
            head = self.label
        elif "\n" not in self.stmt:
            head = self.stmt
        else:
            head = "stmt:\n" + _indent(self.stmt)
        return head + (f": {self.sub_label}" if self.sub_label else "")

    def summarize(self):
        multiline = self.label is None and "\n" in self.stmt
        lines = [self.title + ("\n" if multiline else "")]
        if self.description:
            lines.append(self.description)
        if self.setup != "pass":
            lines.append(f"setup: {self.setup}" if "\n" not in self.setup
                         else "setup:\n" + _indent(self.setup) + "\n")
        return "\n".join(lines)


def _indent(text):
    return "\n".join("  " + line for line in text.strip().splitlines())


def select_unit(t):
    """(unit, scale) to show a time of t seconds with: ns, us, ms or s."""
    for unit, scale in (("ns", 1e-9), ("us", 1e-6), ("ms", 1e-3)):
        if t < scale * 1e3:
            return unit, scale
    return "s", 1.0


def unit_to_english(u):
    return {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}[u]


def trim_sigfig(x, n):
    """x rounded to n significant figures."""
    if x == 0:
        return 0.0
    magnitude = int(math.floor(math.log10(abs(x))))
    return round(x, n - 1 - magnitude)


def _quantile(sorted_values, q):
    """The q quantile of sorted values, interpolated linearly between neighbours."""
    pos = (len(sorted_values) - 1) * q
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


@dataclasses.dataclass
class Measurement:
    """Times of runs of a task: raw_times[i] is the time of number_per_run runs."""
    number_per_run: int
    raw_times: List[float]
    task_spec: TaskSpec
    metadata: Optional[dict] = None

    def __post_init__(self):
        self._sorted = sorted(t / self.number_per_run for t in self.raw_times)

    def __getattr__(self, name):
        # the task's fields read through the measurement (m.stmt, m.label, m.title, ...)
        if name in ("stmt", "setup", "global_setup", "label", "sub_label", "description",
                    "env", "num_threads", "title"):
            return getattr(self.task_spec, name)
        raise AttributeError(f"'Measurement' object has no attribute '{name}'")

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def mean(self):
        return sum(self._sorted) / len(self._sorted)

    @property
    def median(self):
        return _quantile(self._sorted, 0.5)

    @property
    def iqr(self):
        return _quantile(self._sorted, 0.75) - _quantile(self._sorted, 0.25)

    @property
    def significant_figures(self):
        """How many figures of the median the spread of the times leaves meaningful (torch's
        estimate: from the standard error of the median, at most 4)."""
        n = len(self._sorted)
        if n < 2 or self.median == 0:
            return 1
        spread = self.iqr / 1.349 / math.sqrt(n) * 1.2533
        if spread <= 0:
            return 4
        return max(1, min(4, int(math.floor(math.log10(abs(self.median) / spread)))))

    @property
    def has_warnings(self):
        return bool(self._warnings())

    def _warnings(self):
        if len(self._sorted) < 2 or self.median == 0:
            return []
        rel = self.iqr / self.median
        if rel > 0.5:
            return [f"Interquartile range is {rel * 100:.1f}% of the median measurement.",
                    "This suggests significant environmental influence."]
        if rel > 0.1:
            return [f"Interquartile range is {rel * 100:.1f}% of the median measurement.",
                    "This could indicate system fluctuation."]
        return []

    def __repr__(self):
        unit, scale = select_unit(self.median)
        n = len(self._sorted)
        threads = f"{self.task_spec.num_threads} thread" + ("s" if self.task_spec.num_threads > 1 else "")
        lines = [f"<{type(self).__module__}.{type(self).__qualname__} object at {hex(id(self))}>",
                 self.task_spec.summarize()]
        if n == 1:
            lines.append(f"  {self.median / scale:.2f} {unit}")
            lines.append(f"  1 measurement, {self.number_per_run} runs , {threads}")
        else:
            q25, q75 = _quantile(self._sorted, 0.25), _quantile(self._sorted, 0.75)
            lines.append(f"  Median: {self.median / scale:.2f} {unit}")
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} ({q25 / scale:.2f} to "
                         f"{q75 / scale:.2f})")
            lines.append(f"  {n} measurements, {self.number_per_run} runs per measurement, {threads}")
        warn = self._warnings()
        if warn:
            lines.append(f"  WARNING: {warn[0]}")
            lines.append(f"           {warn[1]}")
        return "\n".join(lines)
