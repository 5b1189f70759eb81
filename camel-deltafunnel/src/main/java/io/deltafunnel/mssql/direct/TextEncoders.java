package io.deltafunnel.mssql.direct;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.SqlType;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.direct.DirectEncoders.Bounded;
import io.deltafunnel.mssql.direct.DirectEncoders.Encoder;
import io.deltafunnel.mssql.direct.DirectEncoders.NullMarker;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TypeId;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.util.ReusableByteArray;

/**
 * The {@link DirectEncoders} of the character targets: char/varchar/text (the target collation's code page) and
 * nchar/nvarchar/ntext (UTF-16LE), with PLP for (max), text and ntext; from Arrow strings, arrow.uuid and the
 * producer's JSON text of nested values.
 */
final class TextEncoders {

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle INTS = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private TextEncoders() {
    }

    /** Copies a row's UTF-8 (or binary) bytes into a reused array; returns the byte count. */
    @FunctionalInterface
    interface BytesSource {
        int read(int row, ReusableByteArray into);
    }

    /** Variable-width vectors (Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView) and FixedSizeBinary. */
    static BytesSource bytes(FieldVector v) {
        if (v instanceof FixedSizeBinaryVector f) {
            int width = f.getByteWidth();
            ArrowBuf d = f.getDataBuffer();
            return (row, into) -> {
                into.set(d, (long) row * width, width);
                return width;
            };
        }
        if (v instanceof VariableWidthFieldVector w) {
            return (row, into) -> {
                w.read(row, into);
                return (int) into.getLength();
            };
        }
        return null;
    }

    static Encoder text(FieldVector v, ValueKind kind, BoundColumn column, FieldVector vector,
            TargetColumn t, Collation serverCollation) {
        SqlType type = t.type();
        boolean unicode = type.unicode();
        Integer max = t.maxLength();
        boolean plp = type.legacyLarge() || max == null || max < 0 || max > (unicode ? 4000 : 8000);
        int typeId = typeId(type);
        int maxBytes = plp ? 0xFFFF : (unicode ? 2 * max : max);
        Collation named = Collation.forName(t.collationName());
        Collation collation = serverCollation != null ? serverCollation : named;
        // Non-ASCII text into char/varchar is encoded only where the code page is known (1252 family, UTF-8);
        // the producer's rules refuse it before that anyway (varchar/char take ASCII only, unless UTF-8).
        boolean charsetKnown = collation != null && (collation.isUtf8() || named != null);
        String noCollation = cannotEncode(column, serverCollation);
        if (noCollation != null) {
            throw new DirectUnsupportedColumnException(column.sourceName(), noCollation);
        }
        if (collation == null) {
            // nvarchar/nchar data is UTF-16 whatever the collation; the server's default collation is declared
            collation = Collation.SQL_LATIN1_GENERAL_CP1_CI_AS;
        }
        byte[] collationBytes = collation.bytes();
        if (unicode && kind == ValueKind.STRING && v instanceof VarCharVector utf8) {
            Encoder fast = plp ? utf16Plp(utf8, typeId, collationBytes, column.sourceName())
                    : utf16(utf8, typeId, maxBytes, collationBytes, column.sourceName());
            if (fast != null) {
                return fast;
            }
        }
        Charset charset = collation.charset();
        boolean utf8Collation = collation.isUtf8();
        String columnName = column.sourceName();
        TextSource src = switch (kind) {
            case STRING -> utf8Text(bytes(v));
            case UUID -> uuidText(bytes(v));
            case JSON -> jsonText(column.reader(vector));
            default -> null;
        };
        if (src == null) {
            return null;
        }
        return new Encoder(v, plp ? NullMarker.PLP : NullMarker.USHORT) {
            private final ReusableByteArray in = new ReusableByteArray();
            private byte[] out = new byte[512];

            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(typeId).writeShort(maxBytes).writeBytes(collationBytes);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                int n = src.read(row, in);
                byte[] utf8 = in.getBuffer();
                int bytes;
                byte[] data;
                if (unicode && Utf16Le.isAscii(utf8, n)) {
                    // ASCII: UTF-16LE is each byte and a zero, widened straight into the packet
                    if (plp) {
                        w.writeLong(2L * n);
                        if (n > 0) {
                            w.writeInt(2 * n).writeAsciiAsUtf16le(utf8, 0, n);
                        }
                        w.writeInt(0);
                    } else {
                        w.writeShort(2 * n).writeAsciiAsUtf16le(utf8, 0, n);
                    }
                    return;
                }
                if (unicode) {
                    if (out.length < 2 * n) {
                        out = new byte[Math.max(2 * n, 2 * out.length)];
                    }
                    bytes = Utf16Le.utf8ToUtf16le(utf8, n, out);
                    data = out;
                } else if (utf8Collation || Utf16Le.isAscii(utf8, n)) {
                    bytes = n; // ASCII is the same in every code page SQL Server uses; UTF-8 collations take UTF-8
                    data = utf8;
                } else if (charsetKnown) {
                    data = encode(utf8, n, charset, columnName, row);
                    bytes = data.length;
                } else {
                    throw new IllegalStateException("column '" + columnName + "', row " + row + ": non-ASCII text"
                            + " for a " + t.typeText() + " column with collation " + t.collationName()
                            + ", whose code page the direct writer does not map");
                }
                if (plp) {
                    writePlp(w, data, bytes);
                } else {
                    w.writeShort(bytes).writeBytes(data, 0, bytes);
                }
            }
        };
    }

    /**
     * nvarchar(n)/nchar(n) from a Utf8 vector, the common text column: each value is read at the vector's buffer
     * addresses (no copy out of Arrow) and, when it is ASCII, widened to UTF-16LE straight into the packet together
     * with its length, checking and widening in one pass of 8 bytes at a time; non-ASCII text is transcoded through a
     * copy. Null when the offsets buffer is smaller than the value count says (then the general encoder reads
     * through Arrow's checks).
     */
    private static Encoder utf16(VarCharVector v, int typeId, int maxBytes, byte[] collationBytes, String column) {
        ArrowBuf offsets = v.getOffsetBuffer();
        if (offsets == null || v.getDataBuffer() == null || offsets.capacity() < 4L * (v.getValueCount() + 1)) {
            return null;
        }
        return new Utf8ToUtf16(v, typeId, maxBytes, collationBytes, column, false);
    }

    /** The longest value, in UTF-8 bytes, that {@link #utf16Plp} writes as a bounded value. */
    static final int PLP_BOUNDED_UTF8 = 4000;

    /**
     * nvarchar(max)/ntext from a Utf8 vector whose longest value in the batch has at most {@value #PLP_BOUNDED_UTF8}
     * UTF-8 bytes: as {@link #utf16}, each value as PLP with its known length, one chunk and the terminator (the bytes
     * of {@link #writePlp}). One pass over the offsets finds the longest value; UTF-16 takes at most twice its UTF-8
     * bytes. Null when a value is longer, or the buffers are not what the value count says (then the general
     * encoder writes each value through a copy).
     */
    private static Encoder utf16Plp(VarCharVector v, int typeId, byte[] collationBytes, String column) {
        ArrowBuf offsets = v.getOffsetBuffer();
        int count = v.getValueCount();
        if (offsets == null || v.getDataBuffer() == null || offsets.capacity() < 4L * (count + 1)) {
            return null;
        }
        long o = offsets.memoryAddress();
        int longest = 0;
        int previous = count == 0 ? 0 : MemoryUtil.getInt(o);
        for (int r = 1; r <= count; r++) {
            int next = MemoryUtil.getInt(o + 4L * r);
            longest = Math.max(longest, next - previous);
            previous = next;
        }
        if (longest > PLP_BOUNDED_UTF8) {
            return null;
        }
        return new Utf8ToUtf16(v, typeId, 2 * longest, collationBytes, column, true);
    }

    /**
     * The encoder of {@link #utf16} and {@link #utf16Plp}: at most {@code maxBytes} bytes of UTF-16LE (n characters)
     * per value, with a USHORT length, or as PLP (8-byte length, one 4-byte chunk length, the terminator).
     */
    static final class Utf8ToUtf16 extends Bounded {
        private final int typeId;
        private final int maxBytes;
        private final boolean plp;
        private final byte[] collationBytes;
        private final String column;
        private final int count;
        private final long offsets;
        private final long data;
        private final long dataCapacity;
        private byte[] in = new byte[128];
        private byte[] out = new byte[256];

        private Utf8ToUtf16(VarCharVector v, int typeId, int maxBytes, byte[] collationBytes, String column,
                boolean plp) {
            // + 8: the last 8-byte step of widenAscii may store up to 6 bytes beyond the value
            super(v, plp ? NullMarker.PLP : NullMarker.USHORT, (plp ? PLP_HEADER + PLP_TERMINATOR : 2) + maxBytes + 8);
            this.typeId = typeId;
            this.maxBytes = maxBytes;
            this.plp = plp;
            this.collationBytes = collationBytes;
            this.column = column;
            this.count = v.getValueCount();
            this.offsets = v.getOffsetBuffer().memoryAddress();
            this.data = v.getDataBuffer().memoryAddress();
            this.dataCapacity = v.getDataBuffer().capacity();
        }

        @Override
        void typeInfo(TdsMessageWriter w) throws IOException {
            // (max): the declared length is 0xFFFF, whatever this batch's longest value
            w.writeByte(typeId).writeShort(plp ? 0xFFFF : maxBytes).writeBytes(collationBytes);
        }

        @Override
        int put(byte[] b, int p, int row) {
            long o = offsets + 4L * Objects.checkIndex(row, count);
            int start = MemoryUtil.getInt(o);
            int n = MemoryUtil.getInt(o + 4) - start;
            if (start < 0 || n < 0 || start + (long) n > dataCapacity) {
                throw new IllegalStateException("column '" + column + "', row " + row + ": Utf8 offsets " + start
                        + " and " + (start + n) + " lie outside the data buffer of " + dataCapacity + " bytes");
            }
            if (plp) {
                return putPlp(b, p, row, start, n);
            }
            if (2 * n <= maxBytes && Utf16Le.widenAscii(data + start, n, b, p, start + n + 8L <= dataCapacity)) {
                return p + 2 + 2 * n;
            }
            // non-ASCII (or longer in UTF-8 than the column in UTF-16)
            int bytes = transcode(b, p + 2, row, start, n);
            b[p] = (byte) bytes;
            b[p + 1] = (byte) (bytes >>> 8);
            return p + 2 + bytes;
        }

        /** The fewest bytes a value of this column takes: a NULL's marker or an empty value. */
        int minSize() {
            return plp ? 8 : 2;
        }

        /**
         * Adds to {@code size[at + j]} the bytes {@link #put} writes for row {@code row0 + j}, {@code j < k}, when its
         * value is ASCII ({@code 2 + 2 n}, as PLP {@code 16 + 2 n} or 12 when empty) or NULL (the marker: 2 bytes, as
         * PLP 8). Returns {@code k}, or the first {@code j} whose value could not be ASCII (more UTF-8 bytes than the
         * column's UTF-16 bound) or whose offsets are out of the data buffer (then {@link #put} says so): from there
         * nothing is added.
         */
        int addAsciiSizes(int[] size, int at, int row0, int k) {
            Objects.checkFromIndexSize(row0, k, count);
            long o = offsets + 4L * row0;
            int start = MemoryUtil.getInt(o);
            if (start < 0) {
                return 0;
            }
            int framing = plp ? PLP_HEADER + PLP_TERMINATOR : 2;
            for (int j = 0; j < k; j++) {
                int end = MemoryUtil.getInt(o + 4L * (j + 1));
                int n = end - start;
                // offsets that go back or past the data (never from a valid vector, NULLs included) end the tiles
                if (n < 0 || end > dataCapacity) {
                    return j;
                }
                if (mayBeNull && nulls.isNull(row0 + j)) {
                    size[at + j] += plp ? 8 : 2;
                } else if (2 * n > maxBytes) {
                    return j;
                } else {
                    size[at + j] += plp && n == 0 ? 8 + PLP_TERMINATOR : framing + 2 * n;
                }
                start = end;
            }
            return k;
        }

        /**
         * {@link #put} of rows {@code row0 .. row0 + k - 1} whose values {@link #addAsciiSizes} measured, at
         * {@code cur[j]}, each advanced past its value, as {@link NumericEncoders.RawInteger#putColumn}. Returns
         * {@code k}, or the first row (from 0) whose value is not ASCII: from there nothing is written.
         */
        int putColumn(byte[] b, int[] cur, int[] pos, int row0, int k, boolean keep) {
            Objects.checkFromIndexSize(row0, k, count);
            long o = offsets + 4L * row0;
            int start = MemoryUtil.getInt(o);
            for (int j = 0; j < k; j++) {
                int end = MemoryUtil.getInt(o + 4L * (j + 1));
                int p = cur[j];
                int n = end - start;
                if (mayBeNull && nulls.isNull(row0 + j)) {
                    // the NULL marker (0xFFFF, as PLP eight 0xFF), nothing past it
                    if (plp) {
                        LONGS.set(b, p, -1L);
                        cur[j] = p + 8;
                    } else {
                        b[p] = (byte) 0xFF;
                        b[p + 1] = (byte) 0xFF;
                        cur[j] = p + 2;
                    }
                } else if (plp && n == 0) {
                    LONGS.set(b, p, 0L);
                    INTS.set(b, p + 8, 0);
                    cur[j] = p + 8 + PLP_TERMINATOR;
                } else {
                    long kept = keep ? (long) LONGS.get(b, pos[j + 1]) : 0L;
                    // as PLP, the USHORT length widenAscii writes lands in the chunk length's upper bytes, overwritten
                    int q = plp ? p + PLP_HEADER - 2 : p;
                    boolean ascii = Utf16Le.widenAscii(data + start, n, b, q, end + 8L <= dataCapacity);
                    if (ascii && plp) {
                        LONGS.set(b, p, 2L * n);
                        INTS.set(b, p + 8, 2 * n);
                        INTS.set(b, q + 2 + 2 * n, 0);
                    }
                    if (keep) {
                        LONGS.set(b, pos[j + 1], kept);
                    }
                    if (!ascii) {
                        return j;
                    }
                    cur[j] = q + 2 + 2 * n + (plp ? PLP_TERMINATOR : 0);
                }
                start = end;
            }
            return k;
        }

        /**
         * Writes the UTF-16LE of the {@code n} UTF-8 bytes at {@code start} into {@code b} at {@code q}, through the
         * arrays, for a value {@link Utf16Le#widenAscii} did not write (a byte of 0x80 or more, or more UTF-8 bytes than the
         * column's UTF-16 bound); returns its byte count.
         */
        private int transcode(byte[] b, int q, int row, int start, int n) {
            if (in.length < n) {
                in = new byte[Math.max(n, 2 * in.length)];
            }
            MemoryUtil.copyFromMemory(data + start, in, 0, n);
            if (out.length < 2 * n) {
                out = new byte[Math.max(2 * n, 2 * out.length)];
            }
            int bytes = Utf16Le.utf8ToUtf16le(in, n, out);
            if (bytes > maxBytes) {
                // the producer's check refuses such a value before anything is sent; with PLP, maxBytes is twice
                // the batch's longest UTF-8 value, which no UTF-16 of it exceeds
                throw new IllegalStateException("column '" + column + "', row " + row + ": " + bytes / 2
                        + " UTF-16 code units exceed the bound of " + maxBytes / 2);
            }
            System.arraycopy(out, 0, b, q, bytes);
            return bytes;
        }

        /** {@link #put} as PLP: the bytes {@link #writePlp} writes for the value's UTF-16LE. */
        private int putPlp(byte[] b, int p, int row, int start, int n) {
            if (n == 0) {
                LONGS.set(b, p, 0L);
                INTS.set(b, p + 8, 0);
                return p + 8 + PLP_TERMINATOR;
            }
            int q = p + PLP_HEADER;
            int bytes;
            // widenAscii writes its USHORT length just before the value: here into the chunk length's upper bytes,
            // which are overwritten below (n is at most PLP_BOUNDED_UTF8: utf16Plp made this encoder for no longer)
            if (Utf16Le.widenAscii(data + start, n, b, q - 2, start + n + 8L <= dataCapacity)) {
                bytes = 2 * n;
            } else {
                bytes = transcode(b, q, row, start, n);
            }
            LONGS.set(b, p, (long) bytes);
            INTS.set(b, p + 8, bytes);
            INTS.set(b, q + bytes, 0);
            return q + bytes + PLP_TERMINATOR;
        }
    }

    /** A PLP value's 8-byte total length and its one chunk's 4-byte length. */
    private static final int PLP_HEADER = 12;
    /** The PLP terminator: a chunk of length 0. */
    private static final int PLP_TERMINATOR = 4;

    /**
     * Why a character target cannot be encoded whatever the values, or null: char/varchar/text need the column's
     * code page, from the server's collation or one tds-codec knows by the catalog's name.
     */
    static String cannotEncode(BoundColumn column, Collation serverCollation) {
        TargetColumn t = column.target();
        if (t.type().unicode() || serverCollation != null || Collation.forName(t.collationName()) != null) {
            return null;
        }
        return "the direct writer needs the collation of " + t.typeText() + " column " + t.name() + " to encode it; "
                + (t.collationName() == null ? "the target column carries none"
                        : "collation " + t.collationName() + " is not known to tds-codec's Collation");
    }

    /** The wire type of a character target (PLP or not by its length). */
    private static int typeId(SqlType type) {
        return switch (type) {
            case NCHAR -> TypeId.NCHAR;
            case CHAR -> TypeId.BIGCHAR;
            case NVARCHAR, NTEXT -> TypeId.NVARCHAR;
            case VARCHAR, TEXT -> TypeId.BIGVARCHAR;
            case TINYINT, SMALLINT, INT, BIGINT, BIT, DECIMAL, NUMERIC, REAL, FLOAT, BINARY, VARBINARY, IMAGE,
                    UNIQUEIDENTIFIER, DATE, TIME, DATETIME2, DATETIME, SMALLDATETIME, DATETIMEOFFSET, JSON, VECTOR,
                    UNSUPPORTED ->
                    throw new IllegalArgumentException("not a character type: " + type);
        };
    }

    /** A row's text as UTF-8 bytes in a reused array; returns the byte count. */
    @FunctionalInterface
    interface TextSource {
        int read(int row, ReusableByteArray into);
    }

    static TextSource utf8Text(BytesSource bytes) {
        return bytes == null ? null : bytes::read;
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** arrow.uuid values as the producer's text: 36 lower-case characters (UUID.toString). */
    private static TextSource uuidText(BytesSource bytes) {
        if (bytes == null) {
            return null;
        }
        ReusableByteArray raw = new ReusableByteArray();
        byte[] text = new byte[36];
        return (row, into) -> {
            bytes.read(row, raw);
            byte[] b = raw.getBuffer();
            int o = 0;
            for (int i = 0; i < 16; i++) {
                if (i == 4 || i == 6 || i == 8 || i == 10) {
                    text[o++] = '-';
                }
                text[o++] = HEX[(b[i] >>> 4) & 0xF];
                text[o++] = HEX[b[i] & 0xF];
            }
            into.set(text, 0, 36);
            return 36;
        };
    }

    /** Slow path: the producer's JSON text of a List/Struct/Map value (a String per row). */
    private static TextSource jsonText(ColumnReader reader) {
        return (row, into) -> {
            byte[] utf8 = ((String) reader.getObject(row)).getBytes(StandardCharsets.UTF_8);
            into.set(utf8, 0, utf8.length);
            return utf8.length;
        };
    }

    /**
     * Slow path, unreachable under the producer's rules (they refuse non-ASCII text for char/varchar before anything
     * is sent): non-ASCII text into a single-byte code page, refusing characters the code page lacks.
     */
    private static byte[] encode(byte[] utf8, int n, Charset charset, String column, int row) {
        CharsetEncoder encoder = charset.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            ByteBuffer out = encoder.encode(CharBuffer.wrap(new String(utf8, 0, n, StandardCharsets.UTF_8)));
            byte[] b = new byte[out.remaining()];
            out.get(b);
            return b;
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("column '" + column + "', row " + row + ": a character is not"
                    + " representable in code page " + charset.name());
        }
    }

    /** PLP with its known total length, one chunk, and the terminator. */
    static void writePlp(TdsMessageWriter w, byte[] data, int n) throws IOException {
        w.writeLong(n);
        if (n > 0) {
            w.writeInt(n).writeBytes(data, 0, n);
        }
        w.writeInt(0);
    }
}
