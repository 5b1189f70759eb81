package io.deltafunnel.mssql.bind;

import java.sql.Types;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ColumnReaders;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.arrow.read.ValueRejected;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The {@link TargetBinding}s of the character, binary and uniqueidentifier targets.
 */
final class TextBindings {

    private TextBindings() {
    }

    static final class StringBinding extends TargetBinding {
        private final boolean unicode;
        private final int maxLength;

        StringBinding(TargetColumn target) {
            super(target);
            this.unicode = target.type().unicode();
            Integer len = target.maxLength();
            this.maxLength = len == null || len < 0 || target.type().legacyLarge() ? -1 : len;
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.STRING, ValueKind.JSON, ValueKind.UUID);
        }

        @Override
        public boolean alwaysFits(ArrowColumnType source) {
            return kind == ValueKind.STRING && unicode && maxLength < 0;
        }

        @Override
        public int jdbcType() {
            return Types.NVARCHAR;
        }

        @Override
        public int precision() {
            return maxLength < 0 ? MAX_CHARS : maxLength;
        }

        @Override
        public boolean allFit(FieldVector vector, int rowCount) {
            // checkValue, column-wide: every Utf8 value has at most maxLength bytes (its fast path), or, when it
            // has more, is well-formed UTF-8 of at most maxLength UTF-16 code units, the length of its Java String
            if (kind != ValueKind.STRING || !(vector instanceof VarCharVector v) || rowCount > vector.getValueCount()) {
                return false;
            }
            if (!unicode) {
                return asciiFit(v, rowCount);
            }
            if (maxLength < 0) {
                return false;
            }
            long a = address(v.getOffsetBuffer(), 4L * (rowCount + 1));
            if (a == 0) {
                return false;
            }
            long capacity = v.getDataBuffer().capacity();
            long data = 0;
            int start = MemoryUtil.getInt(a);
            for (int r = 1; r <= rowCount; r++) {
                int end = MemoryUtil.getInt(a + 4L * r);
                if (end - start > maxLength) {
                    if (start < 0 || end < start || end > capacity) {
                        return false;
                    }
                    if (data == 0) {
                        data = v.getDataBuffer().memoryAddress();
                    }
                    int units = Utf8Units.utf16Length(data + start, end - start);
                    if (units < 0 || units > maxLength) {
                        return false;
                    }
                }
                start = end;
            }
            return true;
        }

        /**
         * checkValue for varchar/char/text, column-wide: the values' bytes (from the first offset to the last) are all
         * ASCII, which every code page holds as the same characters, and no value has more than maxLength of them.
         */
        private boolean asciiFit(VarCharVector v, int rowCount) {
            long a = address(v.getOffsetBuffer(), 4L * (rowCount + 1));
            if (a == 0) {
                return false;
            }
            int first = MemoryUtil.getInt(a);
            int last = MemoryUtil.getInt(a + 4L * rowCount);
            if (first < 0 || last < first || last > v.getDataBuffer().capacity()
                    || !Utf8Units.ascii(v.getDataBuffer().memoryAddress() + first, last - first)) {
                return false;
            }
            return maxLength < 0 || lengthsAtMost(a, rowCount, maxLength);
        }

        @Override
        public void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.UUID) {
                if (maxLength >= 0 && maxLength < 36) {
                    throw new ValueRejected(Rejection.TOO_LONG,
                            "a UUID needs 36 characters; " + target.typeText() + " would truncate it");
                }
                return;
            }
            if (kind == ValueKind.STRING && unicode && (maxLength < 0
                    || reader instanceof ColumnReaders.Utf8Reader utf8 && utf8.byteLength(row) <= maxLength)) {
                // A UTF-8 value never has more UTF-16 code units than bytes: it fits without decoding it.
                return;
            }
            String s = (String) reader.getObject(row);
            if (maxLength >= 0 && s.length() > maxLength) {
                throw new ValueRejected(Rejection.TOO_LONG, "value of " + s.length() + " characters is longer than "
                        + target.typeText() + "; it would be truncated");
            }
            if (!unicode) {
                for (int i = 0; i < s.length(); i++) {
                    if (s.charAt(i) > 0x7F) {
                        throw new ValueRejected(Rejection.NON_ASCII,
                                "non-ASCII character U+" + String.format("%04X", (int) s.charAt(i))
                                + " at position " + i + " cannot be stored safely in non-Unicode "
                                + target.typeText() + "; use nvarchar/nchar");
                    }
                }
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            Object v = reader.getObject(row);
            return kind == ValueKind.UUID ? v.toString() : v;
        }
    }

    static final class BinaryBinding extends TargetBinding {
        private final int maxLength;

        BinaryBinding(TargetColumn target) {
            super(target);
            Integer len = target.maxLength();
            this.maxLength = len == null || len < 0 || target.type() == SqlType.IMAGE ? -1 : len;
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.BINARY);
        }

        @Override
        public int jdbcType() {
            return Types.VARBINARY;
        }

        @Override
        public int precision() {
            return maxLength < 0 ? MAX_BYTES : maxLength;
        }

        @Override
        public boolean alwaysFits(ArrowColumnType source) {
            return maxLength < 0;
        }

        @Override
        public boolean allFit(FieldVector vector, int rowCount) {
            // checkValue, column-wide: no value longer than maxLength bytes
            if (rowCount > vector.getValueCount()) {
                return false;
            }
            if (vector instanceof FixedSizeBinaryVector f) {
                return f.getByteWidth() <= maxLength;
            }
            if (!(vector instanceof VarBinaryVector v)) {
                return false;
            }
            long a = address(v.getOffsetBuffer(), 4L * (rowCount + 1));
            return a != 0 && lengthsAtMost(a, rowCount, maxLength);
        }

        @Override
        public void checkValue(ColumnReader reader, int row) {
            byte[] b = (byte[]) reader.getObject(row);
            if (maxLength >= 0 && b.length > maxLength) {
                throw new ValueRejected(Rejection.TOO_LONG,
                        "value of " + b.length + " bytes is longer than " + target.typeText()
                        + "; it would be truncated");
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            return reader.getObject(row);
        }
    }

    /** Whether no value of the {@code rowCount} whose 32-bit offsets are at address {@code a} exceeds {@code max}. */
    static boolean lengthsAtMost(long a, int rowCount, int max) {
        int start = MemoryUtil.getInt(a);
        for (int r = 1; r <= rowCount; r++) {
            int end = MemoryUtil.getInt(a + 4L * r);
            if (end - start > max) {
                return false;
            }
            start = end;
        }
        return true;
    }

    static final class GuidBinding extends TargetBinding {
        GuidBinding(TargetColumn target) {
            super(target);
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.UUID, ValueKind.STRING);
        }

        @Override
        public int jdbcType() {
            return JDBC_GUID;
        }

        @Override
        public int precision() {
            return 36;
        }

        @Override
        public void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.STRING) {
                parse((String) reader.getObject(row));
            }
        }

        private static UUID parse(String s) {
            if (s.length() != 36 || s.charAt(8) != '-' || s.charAt(13) != '-' || s.charAt(18) != '-'
                    || s.charAt(23) != '-') {
                throw new ValueRejected(Rejection.BAD_UUID,
                        "'" + abbreviate(s) + "' is not a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
            }
            try {
                return UUID.fromString(s);
            } catch (IllegalArgumentException e) {
                throw new ValueRejected(Rejection.BAD_UUID, "'" + abbreviate(s) + "' is not a UUID");
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            Object v = reader.getObject(row);
            return (kind == ValueKind.STRING ? parse((String) v) : v).toString().toUpperCase(Locale.ROOT);
        }
    }

}
