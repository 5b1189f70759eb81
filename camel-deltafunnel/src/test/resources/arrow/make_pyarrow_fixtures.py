# Writes the pyarrow fixtures read by ArrowIpcTest (python3 -m pip install pyarrow; python3 make_pyarrow_fixtures.py).
# pyarrow-stream.arrows: IPC stream format; pyarrow-file.arrow: IPC file format; both hold the same three record
# batches (rows 0-9, 10-14, 15) of the schema below. Written with pyarrow 25.0.1.
import datetime
import decimal

import pyarrow as pa
import pyarrow.ipc as ipc

schema = pa.schema([("id", pa.int64()), ("name", pa.string()), ("amount", pa.decimal128(12, 2)),
                    ("day", pa.date32()), ("tags", pa.list_(pa.int32())), ("ts", pa.timestamp("us", tz="UTC"))])


def batch(start, end):
    ids = list(range(start, end))
    return pa.record_batch([
        pa.array(ids, pa.int64()),
        pa.array([f"n{i}" if i % 4 else None for i in ids]),
        pa.array([decimal.Decimal(i) / 4 for i in ids], pa.decimal128(12, 2)),
        pa.array([datetime.date(2024, 1, 1) + datetime.timedelta(days=i) for i in ids]),
        pa.array([[i, i + 1] for i in ids], pa.list_(pa.int32())),
        pa.array([datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=i)
                  for i in ids], pa.timestamp("us", tz="UTC")),
    ], schema=schema)


batches = [batch(0, 10), batch(10, 15), batch(15, 16)]
with ipc.new_stream("pyarrow-stream.arrows", schema) as writer:
    for b in batches:
        writer.write_batch(b)
with ipc.new_file("pyarrow-file.arrow", schema) as writer:
    for b in batches:
        writer.write_batch(b)
