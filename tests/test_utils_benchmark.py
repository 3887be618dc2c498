"""minitorch.utils.benchmark (torch.utils.benchmark): Timer and Measurement, printed in torch's
format (the expected text captured from torch 2.15)."""
import re

import pytest

import minitorch as torch
from minitorch.utils.benchmark import Measurement, TaskSpec, Timer


def _spec(**kw):
    args = dict(stmt="f()", setup="pass", global_setup="", label=None, sub_label=None,
                description=None, env=None, num_threads=1)
    args.update(kw)
    return TaskSpec(**args)


def _body(m):
    return repr(m).split("\n", 1)[1]


@pytest.mark.parametrize("t,text", [(1.234e-9, "1.23 ns"), (12.345e-6, "12.35 us"),
                                    (123.456e-6, "123.46 us"), (1.5e-3, "1.50 ms"),
                                    (0.2, "200.00 ms"), (25.0, "25.00 s")])
def test_one_measurement_repr(t, text):
    m = Measurement(number_per_run=10, raw_times=[t * 10], task_spec=_spec())
    assert _body(m) == f"f()\n  {text}\n  1 measurement, 10 runs , 1 thread"
    assert m.times == pytest.approx([t]) and m.median == pytest.approx(t)


def test_several_measurements_repr_and_statistics():
    m = Measurement(number_per_run=10, raw_times=[3e-5, 3.1e-5, 2.9e-5, 3.3e-5], task_spec=_spec())
    assert _body(m) == ("f()\n  Median: 3.05 us\n  IQR:    0.17 us (2.98 to 3.15)\n"
                        "  4 measurements, 10 runs per measurement, 1 thread")
    m = Measurement(number_per_run=1, raw_times=[1.0, 1.0, 5.0, 1.1, 0.9],
                    task_spec=_spec(num_threads=4))
    assert _body(m) == ("f()\n  Median: 1.00 s\n  IQR:    0.10 s (1.00 to 1.10)\n"
                        "  5 measurements, 1 runs per measurement, 4 threads\n"
                        "  WARNING: Interquartile range is 10.0% of the median measurement.\n"
                        "           This could indicate system fluctuation.")
    assert m.mean == pytest.approx(1.8) and m.median == 1.0 and m.iqr == pytest.approx(0.1)
    assert m.significant_figures == 1 and m.has_warnings
    m = Measurement(number_per_run=10, raw_times=[1e-2, 2e-2, 1.5e-2, 1.2e-2, 5e-2], task_spec=_spec())
    assert _body(m).endswith("  WARNING: Interquartile range is 53.3% of the median measurement.\n"
                             "           This suggests significant environmental influence.")


def test_titles_descriptions_and_setup():
    def body(**kw):
        return _body(Measurement(number_per_run=10, raw_times=[1e-5], task_spec=_spec(**kw)))
    tail = "  1.00 us\n  1 measurement, 10 runs , 1 thread"
    assert body(label="L") == "L\n" + tail
    assert body(sub_label="S") == "f(): S\n" + tail
    assert body(label="L", description="D") == "L\nD\n" + tail
    assert body(setup="a = 1\nb = 2") == "f()\nsetup:\n  a = 1\n  b = 2\n\n" + tail
    assert body(stmt="x = 1\ny = 2") == "stmt:\n  x = 1\n  y = 2\n\n" + tail
    m = Measurement(number_per_run=1, raw_times=[1.0], task_spec=_spec(stmt="x = 1\ny = 2"))
    assert m.title == "stmt:\n  x = 1\n  y = 2"


def test_timer_runs_the_statement_with_its_globals():
    x = torch.ones(10)
    calls = []
    t = Timer(stmt="calls.append(1); x + 1", setup="y = 3", globals={"x": x, "calls": calls},
              label="add", sub_label="ones", description="desc", num_threads=2)
    m = t.timeit(10)
    assert isinstance(m, Measurement) and m.number_per_run == 10 and len(m.times) == 1
    assert len(calls) >= 10 and m.times[0] > 0
    assert re.fullmatch(r"<minitorch\.utils\.benchmark\.utils\.common\.Measurement object at 0x[0-9a-f]+>\n"
                        r"add: ones\ndesc\nsetup: y = 3\n  [0-9.]+ (ns|us|ms|s)\n"
                        r"  1 measurement, 10 runs , 2 threads", repr(m))
    assert torch.get_num_threads() != 0
    m = Timer("torch.ones(3).sum()").blocked_autorange(min_run_time=0.02)
    assert len(m.times) >= 1 and sum(m.raw_times) >= 0.02 and m.median > 0
    m = Timer("pass").adaptive_autorange(max_run_time=0.05)
    assert m.median >= 0
    with pytest.raises(ValueError):
        Timer(stmt=lambda: None)
