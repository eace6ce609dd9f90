"""The protobuf wire format and MindSpore's event-file framing, as program text that case files put in front of
their programs (which run in the wheel and here alike): ``_varint``, ``_wire_fields`` ({field: [(wire type,
value)]}), ``_fields`` (the values alone) and ``_records`` (the payloads of an event file's records: a length,
its CRC, the payload, the payload's CRC). Not a suite: the recorder skips files whose name starts with ``_``."""
WIRE = """
def _varint(b, i):
    out = shift = 0
    while True:
        c = b[i]; i += 1
        out |= (c & 0x7F) << shift; shift += 7
        if c < 0x80:
            return out, i

def _wire_fields(b):
    out, i = {}, 0
    while i < len(b):
        key, i = _varint(b, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = _varint(b, i)
        elif wire == 1:
            v = b[i:i + 8]; i += 8
        elif wire == 5:
            v = b[i:i + 4]; i += 4
        elif wire == 2:
            n, i = _varint(b, i); v = b[i:i + n]; i += n
        else:
            raise ValueError(wire)
        out.setdefault(num, []).append((wire, v))
    return out

def _fields(b):
    return {num: [v for _, v in values] for num, values in _wire_fields(b).items()}

def _records(data):
    i = 0
    while i < len(data):
        (n,) = struct.unpack('<Q', data[i:i + 8])
        yield data[i + 12:i + 12 + n]
        i += 16 + n
"""
