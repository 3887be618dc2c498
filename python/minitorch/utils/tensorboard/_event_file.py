"""The bytes of a TensorBoard event file: TFRecords (length, masked CRC-32C of the length, the
data, masked CRC-32C of the data) holding serialized ``tensorflow.Event`` protocol buffers.

Note [Hand-encoded events]
Only the few message fields the writer needs are encoded, by hand, in protobuf's wire format
(varint keys, length-delimited strings and sub-messages, little-endian doubles and floats), so
that writing event files needs neither protobuf nor tensorboard.  Field numbers (from
tensorflow's event.proto / summary.proto / tensor.proto):
    Event: wall_time 1 (double), step 2 (int64), file_version 3 (string), summary 5,
           source_metadata 10 { writer 1 (string) }
    Summary: value 1 (repeated) { tag 1, simple_value 2 (float), tensor 8, metadata 9 }
    SummaryMetadata: plugin_data 1 { plugin_name 1 }
    TensorProto: dtype 1 (enum, DT_STRING = 7), tensor_shape 2 { dim 2 { size 1 } },
                 string_val 8 (repeated bytes)
Fields at their default value (0, empty) are left out, as protobuf's serializer does."""
import struct

_CRC32C_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC32C_TABLE.append(_c)
del _i, _c


def crc32c(data):
    crc = 0xFFFFFFFF
    table = _CRC32C_TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def record(data):
    """One TFRecord around `data`."""
    header = struct.pack("<Q", len(data))
    return (header + struct.pack("<I", masked_crc32c(header)) + data
            + struct.pack("<I", masked_crc32c(data)))


def _varint(n):
    n &= (1 << 64) - 1              # negative int64 values are ten-byte two's complement
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field, wire):
    return _varint(field << 3 | wire)


def _bytes_field(field, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return _key(field, 2) + _varint(len(data)) + data


def _text_tensor(text):
    dim = _bytes_field(2, _key(1, 0) + _varint(1))
    return _key(1, 0) + _varint(7) + _bytes_field(2, dim) + _bytes_field(8, text)


def scalar_value(tag, value):
    """A Summary.Value with a simple_value (float32, as TensorBoard stores scalars)."""
    return _bytes_field(1, tag) + _key(2, 5) + struct.pack("<f", value)


def text_value(tag, text):
    """A Summary.Value of the text plugin: a string tensor of shape (1,)."""
    metadata = _bytes_field(1, _bytes_field(1, "text"))
    return _bytes_field(1, tag + "/text_summary") + _bytes_field(8, _text_tensor(text)) + \
        _bytes_field(9, metadata)


def event(wall_time, step=0, summary_values=(), file_version=None, writer=None):
    """A serialized Event."""
    out = _key(1, 1) + struct.pack("<d", wall_time) if wall_time else b""
    if step:
        out += _key(2, 0) + _varint(int(step))
    if file_version is not None:
        out += _bytes_field(3, file_version)
    if summary_values:
        out += _bytes_field(5, b"".join(_bytes_field(1, v) for v in summary_values))
    if writer is not None:
        out += _bytes_field(10, _bytes_field(1, writer))
    return out
