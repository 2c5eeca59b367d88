"""mpack.py - a minimal msgpack stream reader for the end-to-end tests
(the machine has no Python msgpack package): nil, booleans, integers,
strings, binaries, arrays and maps, which is all bcwalk writes."""
import struct


def _read(data, i):
    b = data[i]
    i += 1
    if b <= 0x7f:
        return b, i
    if b >= 0xe0:
        return b - 0x100, i
    if 0x80 <= b <= 0x8f:
        return _map(data, i, b & 0x0f)
    if 0x90 <= b <= 0x9f:
        return _array(data, i, b & 0x0f)
    if 0xa0 <= b <= 0xbf:
        n = b & 0x1f
        return data[i:i + n].decode(), i + n
    fixed = {0xcc: ">B", 0xcd: ">H", 0xce: ">I", 0xcf: ">Q",
             0xd0: ">b", 0xd1: ">h", 0xd2: ">i", 0xd3: ">q"}
    if b in fixed:
        fmt = fixed[b]
        n = struct.calcsize(fmt)
        return struct.unpack(fmt, data[i:i + n])[0], i + n
    if b == 0xc0:
        return None, i
    if b in (0xc2, 0xc3):
        return b == 0xc3, i
    sized = {0xd9: (">B", True), 0xda: (">H", True), 0xdb: (">I", True),
             0xc4: (">B", False), 0xc5: (">H", False), 0xc6: (">I", False)}
    if b in sized:
        fmt, text = sized[b]
        k = struct.calcsize(fmt)
        n = struct.unpack(fmt, data[i:i + k])[0]
        i += k
        raw = data[i:i + n]
        return (raw.decode() if text else raw), i + n
    if b in (0xdc, 0xdd):
        fmt = ">H" if b == 0xdc else ">I"
        k = struct.calcsize(fmt)
        return _array(data, i + k, struct.unpack(fmt, data[i:i + k])[0])
    if b in (0xde, 0xdf):
        fmt = ">H" if b == 0xde else ">I"
        k = struct.calcsize(fmt)
        return _map(data, i + k, struct.unpack(fmt, data[i:i + k])[0])
    raise ValueError("msgpack type 0x%02x not read" % b)


def _array(data, i, n):
    out = []
    for _ in range(n):
        v, i = _read(data, i)
        out.append(v)
    return out, i


def _map(data, i, n):
    out = {}
    for _ in range(n):
        k, i = _read(data, i)
        v, i = _read(data, i)
        out[k] = v
    return out, i


def stream(data):
    """Every object of a msgpack stream, in order."""
    objs, i = [], 0
    while i < len(data):
        v, i = _read(data, i)
        objs.append(v)
    return objs
