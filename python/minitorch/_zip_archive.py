"""The zip container of checkpoints (torch.save's format since torch 1.6): writing it as torch
lays it out, and reading it without trusting it.

Note [Checkpoint archive layout]
A checkpoint is a zip archive whose records all sit in one folder, <name>/:
  <name>/data.pkl                 the pickle; tensors name their storages by persistent id
  <name>/.format_version          "1": storage keys are numbered in the order they are written
  <name>/.storage_alignment       "64"
  <name>/byteorder                "little" or "big": the byte order of the storages
  <name>/data/<key>               the bytes of one storage
  <name>/version                  "3\\n": the version of the container
  <name>/.data/serialization_id   40 digits that tell this file from others
<name> is the stem of the file name when saving to a path, "archive" for a file object; a
reader takes the folder of the first record, whatever it is called.

Every record is stored (method 0).  Its local header carries an extra field with id "FB" whose
body pads the header so that the record's data starts at a multiple of 64 bytes from the start
of the archive: torch's mmap loading maps storages in place, and its computed-offset loading
predicts where record k+1 starts from where record k ends, so the rest of the layout follows
torch's writer (miniz) too: general purpose flags 0x0808 (sizes in a data descriptor after the
data, UTF-8 names) for a record with data and 0x0800 for an empty one; crc and sizes zero in the
local header; a 16-byte data descriptor after the data, 24 bytes when the record's size or
offset reaches 0xFFFFFFFF, and then a zip64 extra field (sizes, then offset, as needed) before
the "FB" one; zip64 end records always.

Reading takes the central directory from Python's zipfile and then reads each record's bytes
itself (a readinto straight into the storage's memory, or a map of the file).  Before anything
is read the archive is checked: record names are unique and hold no NUL, the first one is in a
folder, and records do not overlap, so the bytes of all records together are at most the size of
the file; a record is read only if it is stored, not encrypted, and lies within the file.  No
checkpoint can make load allocate more than the file holds.
"""
import mmap
import os
import secrets
import struct
import zipfile
import zlib

ALIGNMENT = 64
_U32 = 0xFFFFFFFF
_CHUNK = 64 << 20           # bytes written (and checksummed) at a time

_LOCAL = struct.Struct("<IHHHHHIIIHH")          # local file header, 30 bytes
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")  # central directory header, 46 bytes


def write_all(write, buf):
    """write(buf) until all of buf is written (a raw stream may take part of it)."""
    view = memoryview(buf)
    while view.nbytes:
        n = write(view)
        if n is None:               # a stream that does not report the count writes it all
            n = view.nbytes
        if n <= 0:
            raise OSError(f"the stream accepted {n} of {view.nbytes} bytes")
        view = view[n:]


def read_into(fh, view):
    """Fills view (a writable 1-d byte buffer) from fh; False where the stream ends first."""
    readinto = getattr(fh, "readinto", None)
    got, want = 0, view.nbytes
    while got < want:
        if readinto is not None:
            n = readinto(view[got:])
        else:
            chunk = fh.read(want - got)
            n = len(chunk)
            view[got:got + n] = chunk
        if not n:
            return False
        got += n
    return True


class ZipWriter:
    """Writes records one after another through write(); nothing is seeked, so any binary
    stream will do.  See Note [Checkpoint archive layout]."""

    def __init__(self, write, folder):
        self._write = write
        self._folder = folder
        self._pos = 0
        self._central = []
        self._crc_sum = 0

    def _out(self, buf):
        self._pos += memoryview(buf).nbytes
        write_all(self._write, buf)

    def add(self, name, data):
        """Adds a record: data is bytes or a C-contiguous buffer of bytes (a 1-d uint8
        memoryview), written as it is, without a copy."""
        full = f"{self._folder}/{name}".encode("utf-8")
        data = memoryview(data).cast("B") if not isinstance(data, bytes) else data
        size = len(data)
        offset = self._pos
        z64 = b""
        if size >= _U32 or offset >= _U32:
            fields = ((struct.pack("<QQ", size, size) if size >= _U32 else b"")
                      + (struct.pack("<Q", offset) if offset >= _U32 else b""))
            z64 = struct.pack("<HH", 1, len(fields)) + fields
        data_start = offset + _LOCAL.size + len(full) + len(z64) + 4
        pad = -data_start % ALIGNMENT
        extra = z64 + b"FB" + struct.pack("<H", pad) + b"Z" * pad
        flags = 0x0808 if size else 0x0800
        self._out(_LOCAL.pack(0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(full), len(extra))
                  + full + extra)
        crc = 0
        for start in range(0, size, _CHUNK):
            chunk = data[start:start + _CHUNK]
            crc = zlib.crc32(chunk, crc)
            self._out(chunk)
        if size:
            self._out(struct.pack("<IIQQ" if z64 else "<IIII", 0x08074B50, crc, size, size))
        self._central.append((full, flags, crc, size, offset))
        self._crc_sum = (self._crc_sum + crc) % 10**20

    def serialization_id(self):
        """20 random digits, then 20 that depend on the records written so far."""
        return f"{secrets.randbelow(10**20):020d}{self._crc_sum:020d}"

    def finish(self):
        """Writes the central directory and the end records."""
        cd_offset = self._pos
        entries = []
        for full, flags, crc, size, offset in self._central:
            fields = ((struct.pack("<QQ", size, size) if size >= _U32 else b"")
                      + (struct.pack("<Q", offset) if offset >= _U32 else b""))
            extra = struct.pack("<HH", 1, len(fields)) + fields if fields else b""
            entries.append(_CENTRAL.pack(0x02014B50, 0, 0, flags, 0, 0, 0, crc, min(size, _U32),
                                         min(size, _U32), len(full), len(extra), 0, 0, 0, 0,
                                         min(offset, _U32)) + full + extra)
        cd = b"".join(entries)
        self._out(cd)
        n = len(entries)
        eocd64_offset = self._pos
        self._out(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 45, 0, 0, n, n, len(cd),
                              cd_offset)
                  + struct.pack("<IIQI", 0x07064B50, 0, eocd64_offset, 1)
                  + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(n, 0xFFFF), min(n, 0xFFFF),
                                min(len(cd), _U32), min(cd_offset, _U32), 0))


class ArchiveError(RuntimeError):
    """The file is not a well-formed checkpoint archive."""


class ZipReader:
    """The records of the archive in a seekable binary file, found under the folder of the first
    record.  See Note [Checkpoint archive layout] for what is checked."""

    def __init__(self, fh):
        self._fh = fh
        self._size = fh.seek(0, os.SEEK_END)
        try:
            infos = zipfile.ZipFile(fh).infolist()
        except MemoryError:
            raise
        except Exception as e:   # zipfile raises many kinds on a damaged directory
            raise ArchiveError(f"PytorchStreamReader failed reading zip archive: {e}") from e
        if not infos:
            raise ArchiveError("archive does not contain any files")
        seen = set()
        for info in infos:
            if info.orig_filename != info.filename or not info.filename:
                raise ArchiveError(f"zip record name {info.orig_filename!r} is not allowed")
            if info.filename in seen:
                raise ArchiveError(f"the archive holds two records named {info.filename!r}")
            seen.add(info.filename)
        # each record's extent as the central directory tells it (header, name, data) must
        # stay within the file and overlap no other record's
        spans = sorted((i.header_offset,
                        i.header_offset + _LOCAL.size + len(_raw_name(i)) + i.compress_size,
                        i.filename) for i in infos)
        for (start, end, name), nxt in zip(spans, spans[1:] + [(self._size, 0, None)]):
            if start < 0 or end > nxt[0]:
                what = (f"overlaps record {nxt[2]!r}" if nxt[2]
                        else "reaches past the end of the file")
                raise ArchiveError(f"corrupted archive: record {name!r} {what}")
        folder, slash, _ = infos[0].filename.partition("/")
        if not slash or not folder:
            raise ArchiveError(f"file in archive is not in a subdirectory: {infos[0].filename!r}")
        self.folder = folder
        n = len(folder) + 1
        self._records = {i.filename[n:]: i for i in infos if i.filename.startswith(folder + "/")}

    def has_record(self, name):
        return name in self._records

    def record_size(self, name):
        return self._info(name).file_size

    def _info(self, name):
        info = self._records.get(name)
        if info is None:
            raise ArchiveError(f"PytorchStreamReader failed locating file {name}: file not "
                               "found in the archive")
        return info

    def data_offset(self, name):
        """Where the record's bytes start in the file, after checking its local header."""
        info = self._info(name)
        if info.flag_bits & 0x1:
            raise ArchiveError(f"record {name} is encrypted")
        if info.compress_type != zipfile.ZIP_STORED or info.compress_size != info.file_size:
            raise ArchiveError(f"record {name} is compressed (method {info.compress_type}); "
                               "checkpoints store their records uncompressed")
        self._fh.seek(info.header_offset)
        header = self._fh.read(_LOCAL.size)
        if len(header) != _LOCAL.size or header[:4] != b"PK\x03\x04":
            raise ArchiveError(f"corrupted archive: no local header for record {name}")
        name_len, extra_len = struct.unpack("<HH", header[26:30])
        if self._fh.read(name_len) != _raw_name(info):
            raise ArchiveError(f"corrupted archive: the local header of record {name} names "
                               "another file")
        start = info.header_offset + _LOCAL.size + name_len + extra_len
        if start + info.file_size > self._size:
            raise ArchiveError(f"corrupted archive: record {name} reaches past the end of the "
                               "file")
        return start

    def read(self, name):
        """The whole record, as bytes (for the small ones)."""
        buf = bytearray(self.record_size(name))
        self.read_into(name, memoryview(buf))
        return bytes(buf)

    def read_into(self, name, view):
        """Reads the first view.nbytes bytes of the record into view (a writable 1-d byte
        buffer), checking the crc when that is the whole record."""
        info = self._info(name)
        want = view.nbytes
        if want > info.file_size:
            raise ArchiveError(f"record {name} holds {info.file_size} bytes, {want} are needed")
        start = self.data_offset(name)
        if want == 0:
            return
        self._fh.seek(start)
        if not read_into(self._fh, view):
            raise ArchiveError(f"corrupted archive: record {name} ends early")
        # torch writes crc 0 when told not to compute it; 0 is then no check
        if want == info.file_size and info.CRC and zlib.crc32(view) != info.CRC:
            raise ArchiveError(f"corrupted archive: crc of record {name} does not match")

    def map(self, name, nbytes):
        """The first nbytes of the record as a private (copy-on-write) map of the file, or None
        where the record's data is not aligned for it."""
        info = self._info(name)
        if nbytes > info.file_size:
            raise ArchiveError(f"record {name} holds {info.file_size} bytes, {nbytes} are needed")
        start = self.data_offset(name)
        if start % ALIGNMENT:
            return None
        if not hasattr(self, "_mmap"):
            self._mmap = mmap.mmap(self._fh.fileno(), 0, access=mmap.ACCESS_COPY)
        return memoryview(self._mmap)[start:start + nbytes]


def _raw_name(info):
    return info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437")
