"""SummaryWriter: scalars and text into a TensorBoard event file (see _event_file.py).

Events are queued and written when `max_queue` of them are waiting, when `flush_secs` have gone
by since the last write (checked as events arrive), on `flush()` and on `close()`."""
import datetime
import itertools
import os
import socket
import time

from . import _event_file

_FILE_IDS = itertools.count()
_UNSUPPORTED = ("add_histogram", "add_histogram_raw", "add_image", "add_images",
                "add_image_with_boxes", "add_figure", "add_video", "add_audio", "add_graph",
                "add_embedding", "add_pr_curve", "add_pr_curve_raw", "add_custom_scalars",
                "add_custom_scalars_multilinechart", "add_custom_scalars_marginchart", "add_mesh",
                "add_hparams", "add_onnx_graph", "add_tensor")


def _number(value):
    if hasattr(value, "item"):
        value = value.item()
    return float(value)


class _EventFile:
    def __init__(self, log_dir, max_queue, flush_secs, filename_suffix):
        os.makedirs(log_dir, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}."
                f"{os.getpid()}.{next(_FILE_IDS)}{filename_suffix}")
        self.path = os.path.join(log_dir, name)
        self._file = open(self.path, "wb")
        self._queue = []
        self._max_queue, self._flush_secs = max_queue, flush_secs
        self._last_flush = time.time()
        self._file.write(_event_file.record(_event_file.event(
            time.time(), file_version="brain.Event:2",
            writer="tensorboard.summary.writer.event_file_writer")))
        self._file.flush()

    def add(self, wall_time, step, value):
        if self._file is None:
            return
        self._queue.append(_event_file.record(_event_file.event(wall_time, step, (value,))))
        if len(self._queue) >= self._max_queue or time.time() - self._last_flush >= self._flush_secs:
            self.flush()

    def flush(self):
        if self._file is None:
            return
        self._file.write(b"".join(self._queue))
        self._queue.clear()
        self._file.flush()
        self._last_flush = time.time()

    def close(self):
        if self._file is not None:
            self.flush()
            self._file.close()
            self._file = None


class SummaryWriter:
    """Writes TensorBoard event files under `log_dir` (default runs/<date>_<host><comment>)."""

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10, flush_secs=120,
                 filename_suffix=""):
        if purge_step is not None:
            raise NotImplementedError("SummaryWriter(purge_step=...) is not supported by "
                                      "minitorch's writer")
        if not log_dir:
            stamp = datetime.datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", stamp + "_" + socket.gethostname() + comment)
        self.log_dir = log_dir
        self.max_queue, self.flush_secs, self.filename_suffix = max_queue, flush_secs, filename_suffix
        self.file_writer = _EventFile(log_dir, max_queue, flush_secs, filename_suffix)
        self.all_writers = {log_dir: self.file_writer}

    def get_logdir(self):
        return self.log_dir

    def _writer(self, log_dir):
        w = self.all_writers.get(log_dir)
        if w is None:
            w = self.all_writers[log_dir] = _EventFile(log_dir, self.max_queue, self.flush_secs,
                                                       self.filename_suffix)
        return w

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False):
        """One scalar (stored as a float32 simple_value) at step global_step."""
        if new_style or double_precision:
            raise NotImplementedError("add_scalar(new_style=True / double_precision=True) is not "
                                      "supported by minitorch's writer")
        self.file_writer.add(time.time() if walltime is None else walltime, global_step or 0,
                             _event_file.scalar_value(tag, _number(scalar_value)))

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        """Several scalars on one chart: each in its own run, log_dir/<main_tag>_<tag>."""
        wall = time.time() if walltime is None else walltime
        for tag, value in tag_scalar_dict.items():
            run = os.path.join(self.log_dir, main_tag.replace("/", "_") + "_" + tag)
            self._writer(run).add(wall, global_step or 0,
                                  _event_file.scalar_value(main_tag, _number(value)))

    def add_text(self, tag, text_string, global_step=None, walltime=None):
        self.file_writer.add(time.time() if walltime is None else walltime, global_step or 0,
                             _event_file.text_value(tag, text_string))

    def flush(self):
        for w in self.all_writers.values():
            w.flush()

    def close(self):
        for w in self.all_writers.values():
            w.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _unsupported(name):
    def method(self, *args, **kwargs):
        raise NotImplementedError(f"SummaryWriter.{name} is not supported by minitorch's writer "
                                  "(scalars and text are)")
    method.__name__ = name
    return method


for _name in _UNSUPPORTED:
    setattr(SummaryWriter, _name, _unsupported(_name))
del _name
