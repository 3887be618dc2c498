"""minitorch.utils.tensorboard.SummaryWriter: the event files' records byte for byte against the
ones torch's SummaryWriter (over the tensorboard package) wrote for the same calls (REF, captured
from torch 2.15), the TFRecord framing and CRCs, queueing and the unsupported methods."""
import glob
import os
import struct

import pytest

import minitorch as torch
from minitorch.utils.tensorboard import SummaryWriter
from minitorch.utils.tensorboard import _event_file


def records(path):
    data = open(path, "rb").read()
    out, i = [], 0
    while i < len(data):
        header = data[i:i + 8]
        (n,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[i + 8:i + 12])[0] == _event_file.masked_crc32c(header)
        body = data[i + 12:i + 12 + n]
        assert struct.unpack("<I", data[i + 12 + n:i + 16 + n])[0] == _event_file.masked_crc32c(body)
        out.append(body)
        i += 16 + n
    return out


def event_files(d):
    return sorted(glob.glob(os.path.join(d, "**", "events.out.tfevents.*"), recursive=True))


def test_crc32c_known_values():
    assert _event_file.crc32c(b"123456789") == 0xE3069283       # the standard check value
    assert _event_file.crc32c(b"") == 0


def test_scalar_and_text_records_match_torch(tmp_path):
    d = str(tmp_path / "run")
    with SummaryWriter(d) as w:
        w.add_scalar("Loss/train", 0.5, 3, walltime=1.0)
        w.add_scalar("x", 2, walltime=2.5)
        w.add_text("notes", "hello world", 7, walltime=3.0)
        w.add_scalar("neg", torch.tensor(-1.25), -2, walltime=4.0)
    (path,) = event_files(d)
    assert os.path.basename(path).startswith("events.out.tfevents.")
    recs = records(path)
    assert recs[0][:1] == b"\x09" and recs[0][9:] == bytes.fromhex(REF["file_version_tail"])
    assert [r.hex() for r in recs[1:]] == REF["events"]


def test_add_scalars_writes_one_run_per_tag(tmp_path):
    d = str(tmp_path / "run")
    w = SummaryWriter(d)
    w.add_scalars("run", {"a": 1.0, "b": 2}, 5, walltime=5.0)
    w.close()
    files = event_files(d)
    assert [os.path.relpath(os.path.dirname(f), d) for f in files] == [".", "run_a", "run_b"]
    assert records(files[1])[1].hex() == REF["scalars_a"]
    assert records(files[2])[1].hex() == REF["scalars_b"]


def test_queue_flush_and_default_log_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    w = SummaryWriter(comment="_x", max_queue=3)
    assert w.get_logdir().startswith("runs" + os.sep) and w.get_logdir().endswith("_x")
    (path,) = event_files(w.get_logdir())
    assert len(records(path)) == 1                 # the file_version event is written at once
    w.add_scalar("a", 1.0, 1)
    w.add_scalar("a", 2.0, 2)
    assert len(records(path)) == 1                 # queued
    w.add_scalar("a", 3.0, 3)                      # the third fills the queue
    assert len(records(path)) == 4
    w.add_scalar("a", 4.0, 4)
    w.flush()
    assert len(records(path)) == 5
    w.close()
    w.add_scalar("a", 5.0, 5)                      # after close: dropped, as torch's
    assert len(records(path)) == 5


def test_unsupported_parts_say_so(tmp_path):
    w = SummaryWriter(str(tmp_path))
    with pytest.raises(NotImplementedError, match="add_histogram"):
        w.add_histogram("h", torch.randn(10), 0)
    with pytest.raises(NotImplementedError, match="new_style"):
        w.add_scalar("a", 1.0, new_style=True)
    with pytest.raises(NotImplementedError, match="purge_step"):
        SummaryWriter(str(tmp_path), purge_step=3)
    w.close()


def test_reads_back_with_tensorboard_when_installed(tmp_path):
    ea = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    d = str(tmp_path)
    with SummaryWriter(d) as w:
        for step in range(5):
            w.add_scalar("loss", 1.0 / (step + 1), step)
    acc = ea.EventAccumulator(d)
    acc.Reload()
    assert [(e.step, round(e.value, 6)) for e in acc.Scalars("loss")] == \
        [(s, round(1.0 / (s + 1), 6)) for s in range(5)]


# Records written by torch 2.15's SummaryWriter for the calls above (hex of each Event after the
# first; of the first, the bytes after its wall_time).
REF = {
    "file_version_tail": "1a0d627261696e2e4576656e743a32522e0a2c74656e736f72626f6172642e73756d6d6172792e7772697465722e6576656e745f66696c655f777269746572",
    "events": [
        "09000000000000f03f10032a130a110a0a4c6f73732f747261696e150000003f",
        "0900000000000004402a0a0a080a01781500000040",
        "09000000000000084010072a370a350a126e6f7465732f746578745f73756d6d61727942150807120412020801420b68656c6c6f20776f726c644a080a060a0474657874",
        "09000000000000104010feffffffffffffffff012a0c0a0a0a036e6567150000a0bf",
    ],
    "scalars_a": "09000000000000144010052a0c0a0a0a0372756e150000803f",
    "scalars_b": "09000000000000144010052a0c0a0a0a0372756e1500000040",
}
