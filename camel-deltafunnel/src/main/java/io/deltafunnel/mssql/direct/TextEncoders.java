package io.deltafunnel.mssql.direct;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.SqlType;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.direct.DirectEncoders.Encoder;
import io.deltafunnel.mssql.direct.DirectEncoders.NullMarker;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TypeId;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
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

    /**
     * The encoder of a character target. With {@code asciiAsVarchar}, an nvarchar(n) or nvarchar(max) column from
     * Utf8 whose every value in the batch is ASCII goes as varchar in the target column's collation (one byte per
     * character, see {@link Utf8Text#asciiAsVarchar}); otherwise, and always without it, the wire type follows the
     * target.
     */
    static Encoder text(FieldVector v, ValueKind kind, BoundColumn column, FieldVector vector,
            TargetColumn t, Collation serverCollation, boolean asciiAsVarchar) {
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
        if (asciiAsVarchar && type == SqlType.NVARCHAR && named != null && kind == ValueKind.STRING
                && v instanceof VarCharVector utf8) {
            Encoder narrow = Utf8Text.asciiAsVarchar(utf8, plp ? -1 : max, named, collationBytes, column.sourceName());
            if (narrow != null) {
                return narrow;
            }
        }
        if (unicode && kind == ValueKind.STRING && v instanceof VarCharVector utf8) {
            Encoder fast = plp ? Utf8Text.utf16Plp(utf8, typeId, collationBytes, column.sourceName())
                    : Utf8Text.utf16(utf8, typeId, maxBytes, collationBytes, column.sourceName());
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
