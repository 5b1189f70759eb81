# Writes the pyarrow fixtures with dictionary-encoded columns read by ArrowIpcTest and DictionaryRouteTest
# (python3 -m pip install pyarrow; python3 make_pyarrow_dictionary_fixtures.py). Written with pyarrow 25.0.1.
# Schema: id int64, mood dictionary<int8, string> (NULL where id % 4 == 3), tags list<dictionary<int16, string>>.
# pyarrow-dictionary-stream.arrows: IPC stream, three record batches (rows 0-3, 4-6, 7-8); each batch has its own
#   dictionary for mood (the second and third are replacement dictionaries: other values, other order), so an index
#   means something else in every batch.
# pyarrow-dictionary-file.arrow: IPC file, the same rows with one dictionary for all batches (the file format allows
#   no replacement).
import pyarrow as pa
import pyarrow.ipc as ipc

MOODS = ["sad", "ok", "happy", "meh"]
TAGS = ["red", "green", "blue"]
schema = pa.schema([("id", pa.int64()), ("mood", pa.dictionary(pa.int8(), pa.string())),
                    ("tags", pa.list_(pa.dictionary(pa.int16(), pa.string())))])


def mood(i):
    return None if i % 4 == 3 else MOODS[i % len(MOODS)]


def tags(i):
    return [TAGS[i % 3], TAGS[(i + 1) % 3]]


def batch(ids, mood_dictionary):
    moods = [mood(i) for i in ids]
    indices = pa.array([None if m is None else mood_dictionary.index(m) for m in moods], pa.int8())
    tag_values = pa.DictionaryArray.from_arrays(
        pa.array([TAGS.index(t) for i in ids for t in tags(i)], pa.int16()), pa.array(TAGS))
    offsets = pa.array([2 * k for k in range(len(ids) + 1)], pa.int32())
    return pa.record_batch([
        pa.array(ids, pa.int64()),
        pa.DictionaryArray.from_arrays(indices, pa.array(mood_dictionary)),
        pa.ListArray.from_arrays(offsets, tag_values),
    ], schema=schema)


rows = [[0, 1, 2, 3], [4, 5, 6], [7, 8]]
dictionaries = [["sad", "ok", "happy"], ["meh", "happy", "ok", "sad"], ["x", "y", "sad", "meh", "ok", "happy"]]
with ipc.new_stream("pyarrow-dictionary-stream.arrows", schema) as writer:
    for ids, d in zip(rows, dictionaries):
        writer.write_batch(batch(ids, d))
with ipc.new_file("pyarrow-dictionary-file.arrow", schema) as writer:
    for ids in rows:
        writer.write_batch(batch(ids, MOODS))
