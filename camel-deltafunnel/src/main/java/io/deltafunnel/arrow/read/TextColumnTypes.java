package io.deltafunnel.arrow.read;

import static io.deltafunnel.arrow.read.ColumnReaders.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import io.deltafunnel.arrow.read.ColumnReaders.Utf8Reader;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.util.ReusableByteArray;

/**
 * The strings (UTF-8, with the short-string fast path), binaries, UUIDs and JSON-rendered nested types implementations of {@link ArrowColumnType}, one small class each.
 * Instances come from {@link ArrowColumnTypes#forField}.
 */
public final class TextColumnTypes {

    private TextColumnTypes() {
    }

    /** Utf8, LargeUtf8 and Utf8View → nvarchar(max). */
    static final class StringType implements ArrowColumnType {
        @Override
        public ValueKind kind() {
            return ValueKind.STRING;
        }

        @Override
        public String createTableType() {
            return "nvarchar(max)";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            VariableWidthFieldVector v = (VariableWidthFieldVector) storage(vector);
            ReusableByteArray bytes = new ReusableByteArray();
            return new Utf8Reader() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public int byteLength(int row) {
                    return v.getValueLength(row);
                }

                private final ShortStrings shortStrings = new ShortStrings();

                @Override
                public Object getObject(int row) {
                    // Decoded straight from a reused buffer: no byte[] copy per value.
                    v.read(row, bytes);
                    return shortStrings.decode(bytes.getBuffer(), (int) bytes.getLength());
                }
            };
        }
    }

    /**
     * UTF-8 decoding of one column's values in one batch, where equal short values share one String: codes, flags
     * and modes repeat on almost every row, and decoding each again costs a String and its array per value. A
     * direct-mapped cache of values up to 32 bytes, compared byte for byte (a hit returns a String of exactly those
     * bytes). When the column's values rarely repeat (after 1024 lookups, fewer than 1 in 4 hit), it stops
     * caching for the rest of the batch.
     */
    public static final class ShortStrings {
        private static final int SIZE = 256;
        private static final int MAX_BYTES = 32;
        private final byte[][] keys = new byte[SIZE][];
        private final String[] values = new String[SIZE];
        private boolean caching = true;
        private int lookups;
        private int hits;

        public String decode(byte[] utf8, int n) {
            if (!caching || n > MAX_BYTES) {
                return new String(utf8, 0, n, StandardCharsets.UTF_8);
            }
            int h = n;
            for (int i = 0; i < n; i++) {
                h = 31 * h + utf8[i];
            }
            int slot = (h ^ (h >>> 16)) & (SIZE - 1);
            byte[] key = keys[slot];
            lookups++;
            if (key != null && java.util.Arrays.equals(key, 0, key.length, utf8, 0, n)) {
                hits++;
                return values[slot];
            }
            String value = new String(utf8, 0, n, StandardCharsets.UTF_8);
            keys[slot] = java.util.Arrays.copyOf(utf8, n);
            values[slot] = value;
            if (lookups >= 1024 && hits < lookups / 4) {
                caching = false;
            }
            return value;
        }
    }

    /** Binary, LargeBinary, BinaryView, FixedSizeBinary → varbinary. */
    static final class BinaryType implements ArrowColumnType {
        private final int fixedWidth;

        /** @param fixedWidth the FixedSizeBinary width, or -1 for variable width */
        BinaryType(int fixedWidth) {
            this.fixedWidth = fixedWidth;
        }

        @Override
        public ValueKind kind() {
            return ValueKind.BINARY;
        }

        @Override
        public String createTableType() {
            return fixedWidth > 0 && fixedWidth <= 8000 ? "varbinary(" + fixedWidth + ")" : "varbinary(max)";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FieldVector v = storage(vector);
            if (v instanceof FixedSizeBinaryVector f) {
                return ColumnReader.objects(f, row -> f.get(row));
            }
            VariableWidthFieldVector w = (VariableWidthFieldVector) v;
            return ColumnReader.objects(w, row -> w.get(row));
        }
    }

    /** The arrow.uuid extension (FixedSizeBinary(16), big-endian) → uniqueidentifier. */
    static final class UuidType implements ArrowColumnType {
        @Override
        public ValueKind kind() {
            return ValueKind.UUID;
        }

        @Override
        public String createTableType() {
            return "uniqueidentifier";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FixedSizeBinaryVector v = (FixedSizeBinaryVector) storage(vector);
            return ColumnReader.objects(v, row -> {
                ByteBuffer bytes = ByteBuffer.wrap(v.get(row));
                return new UUID(bytes.getLong(), bytes.getLong());
            });
        }
    }

    /** List, LargeList, FixedSizeList, Struct, Map → JSON text in nvarchar(max). */
    static final class JsonType implements ArrowColumnType {
        private final org.apache.arrow.vector.types.pojo.Field field;

        JsonType(org.apache.arrow.vector.types.pojo.Field field) {
            this.field = field;
            // Fail now on any nested type that cannot be rendered.
            JsonWriter.check(field);
        }

        @Override
        public ValueKind kind() {
            return ValueKind.JSON;
        }

        @Override
        public String createTableType() {
            return "nvarchar(max)";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            JsonWriter writer = JsonWriter.forVector(vector);
            return ColumnReader.objects(vector, row -> writer.write(row));
        }

        @Override
        public String toString() {
            return "json(" + field.getType() + ")";
        }
    }
}
