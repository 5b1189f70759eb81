package io.deltafunnel.mssql.direct;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

import io.deltafunnel.mssql.bind.Utf8Units;
import io.deltafunnel.mssql.direct.DirectEncoders.Bounded;
import io.deltafunnel.mssql.direct.DirectEncoders.Encoder;
import io.deltafunnel.mssql.direct.DirectEncoders.NullMarker;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TypeId;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.VarCharVector;

/**
 * The {@link TextEncoders} encoder of the common text column, Utf8 into nvarchar(n), nvarchar(max) or nchar(n), made by
 * {@link #utf16}, {@link #utf16Plp} and {@link #asciiAsVarchar}: at most {@code maxBytes} bytes of UTF-16LE
 * (n characters) per value, with a USHORT length, or as PLP (8-byte length, one 4-byte chunk length, the terminator);
 * or, declared as varchar ({@link #declaredType} not null), at most {@code maxBytes} ASCII bytes, one per character,
 * with a USHORT length or as PLP. The values are read at the vector's buffer addresses; the row loops of
 * {@link DirectBulkWriter} and {@link ColumnTiles} call it by its class. The vector stays the caller's.
 */
final class Utf8Text extends Bounded {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** A PLP value's 8-byte total length and its one chunk's 4-byte length. */
    private static final int PLP_HEADER = 12;
    /** The PLP terminator: a chunk of length 0. */
    private static final int PLP_TERMINATOR = 4;

    /**
     * nvarchar(n)/nchar(n) from a Utf8 vector, the common text column: each value is read at the vector's buffer
     * addresses (no copy out of Arrow) and, when it is ASCII, widened to UTF-16LE straight into the packet together
     * with its length, checking and widening in one pass of 8 bytes at a time; non-ASCII text is transcoded straight
     * into the packet too, its ASCII runs 8 bytes at a time. Null when the offsets buffer is smaller than the value
     * count says (then the general encoder reads through Arrow's checks).
     */
    static Encoder utf16(VarCharVector v, int typeId, int maxBytes, byte[] collationBytes, String column) {
        if (!buffersAsCounted(v)) {
            return null;
        }
        return new Utf8Text(v, typeId, maxBytes, collationBytes, column, false, null, maxBytes);
    }

    /** The longest value, in bytes, that {@link #asciiAsVarchar} writes for nvarchar(max) (as bounded PLP). */
    static final int ASCII_PLP_BOUNDED = 8000;

    /**
     * nvarchar(n) ({@code chars} = n) or nvarchar(max) ({@code chars} &lt; 0) from a Utf8 vector whose data buffer is
     * all ASCII in this batch, as {@code varchar(n)} (for (max): {@code varchar(max)}, PLP, when no value is longer
     * than {@value #ASCII_PLP_BOUNDED} bytes) in the target column's collation {@code named}, whose code page (1252 or
     * UTF-8) has ASCII as it is: each value is its UTF-8 bytes, copied 8 at a time, half the bytes of UTF-16 and no
     * widening.
     * INSERT BULK declares the same type and collation ({@link Utf8Text#declaredType}), as mssql-jdbc declares a
     * varchar source column (a CSV file's) into an nvarchar destination, and SQL Server converts the values into the
     * column: the stored characters are the same. Null when a byte of the data buffer is 0x80 or more (or a (max)
     * value is longer, or the buffers are not what the value count says): then UTF-16 as before.
     */
    static Encoder asciiAsVarchar(VarCharVector v, int chars, Collation named, byte[] collationBytes,
            String column) {
        if (!buffersAsCounted(v)) {
            return null;
        }
        if (!valuesAscii(v)) {
            return null;
        }
        int count = v.getValueCount();
        long o = v.getOffsetBuffer().memoryAddress();
        if (chars >= 0) {
            return new Utf8Text(v, TypeId.BIGVARCHAR, chars, collationBytes, column, false,
                    "varchar(" + chars + ") COLLATE " + named.name(), chars);
        }
        int longest = longest(o, count);
        if (longest > ASCII_PLP_BOUNDED) {
            return null;
        }
        return new Utf8Text(v, TypeId.BIGVARCHAR, longest, collationBytes, column, true,
                "varchar(max) COLLATE " + named.name(), 0xFFFF);
    }

    /** The longest value, in UTF-8 bytes, that {@link #utf16Plp} writes as a bounded value. */
    static final int PLP_BOUNDED_UTF8 = 4000;

    /**
     * nvarchar(max)/ntext from a Utf8 vector whose longest value in the batch has at most {@value #PLP_BOUNDED_UTF8}
     * UTF-8 bytes: as {@link #utf16}, each value as PLP with its known length, one chunk and the terminator (the
     * bytes of {@link TextEncoders#writePlp}). One pass over the offsets finds the longest value; UTF-16 takes at most
     * twice its UTF-8 bytes. Null when a value is longer, or the buffers are not what the value count says (then the general
     * encoder writes each value through a copy).
     */
    static Encoder utf16Plp(VarCharVector v, int typeId, byte[] collationBytes, String column) {
        if (!buffersAsCounted(v)) {
            return null;
        }
        int longest = longest(v.getOffsetBuffer().memoryAddress(), v.getValueCount());
        if (longest > PLP_BOUNDED_UTF8) {
            return null;
        }
        return new Utf8Text(v, typeId, 2 * longest, collationBytes, column, true, null, 0xFFFF);
    }

    /**
     * Whether the vector has its data buffer and an offsets buffer large enough for its value count, so that the
     * encoder may read them at their addresses; otherwise the general encoder reads through Arrow's checks.
     */
    private static boolean buffersAsCounted(VarCharVector v) {
        ArrowBuf offsets = v.getOffsetBuffer();
        return offsets != null && v.getDataBuffer() != null && offsets.capacity() >= 4L * (v.getValueCount() + 1);
    }

    /** The longest of the {@code count} values whose Utf8 offsets are at native address {@code o}, in bytes. */
    private static int longest(long o, int count) {
        int longest = 0;
        int previous = count == 0 ? 0 : MemoryUtil.getInt(o);
        for (int r = 1; r <= count; r++) {
            int next = MemoryUtil.getInt(o + 4L * r);
            longest = Math.max(longest, next - previous);
            previous = next;
        }
        return longest;
    }

    private final int typeId;
    private final int maxBytes;
    private final boolean plp;
    /** The type INSERT BULK declares when it is not the target's ({@link #asciiAsVarchar}), else null. */
    private final String declaredType;
    /** One byte per character: the values are ASCII sent as they are ({@link #asciiAsVarchar}). */
    private final boolean narrow;
    /**
     * Whether a value of the batch may hold a byte of 0x80 or more (the batch's bytes are not all ASCII): then
     * {@link #addAsciiSizes} looks at each value's bytes, and where most values are not ASCII ({@link #tilesTranscode}
     * false) {@link #put} transcodes each value without trying to widen it as ASCII first.
     */
    private final boolean mayHaveNonAscii;
    /**
     * With {@link #mayHaveNonAscii}: per row of the tile being measured (from its first), the UTF-16LE bytes of its
     * value as {@link #addAsciiSizes} counted them when it is not ASCII (which {@link #putColumn} then transcodes),
     * else -1; null otherwise.
     */
    private final int[] transcodedBytes;
    /**
     * With {@link #mayHaveNonAscii}: whether the tiles take this batch's non-ASCII values (counted and transcoded in
     * place), which pays where they are few among ASCII ones. Where most values are not ASCII (text in another
     * script, or the README's sample table's, with a few accented characters in every value), counting each value
     * before transcoding it costs more than the tiles save (measured with both), and such a value ends the tile
     * instead: the rows go row by row. Chosen by {@link #mostlyNonAscii}.
     */
    private final boolean tilesTranscode;
    /** TYPE_INFO's length: 0xFFFF for PLP. */
    private final int typeLength;
    private final byte[] collationBytes;
    private final String column;
    private final int count;
    private final long offsets;
    private final long data;
    private final long dataCapacity;

    private Utf8Text(VarCharVector v, int typeId, int maxBytes, byte[] collationBytes, String column,
            boolean plp, String declaredType, int typeLength) {
        // + 8: the last 8-byte step of widenAscii or copyAscii may store up to 7 bytes beyond the value
        super(v, plp ? NullMarker.PLP : NullMarker.USHORT, (plp ? PLP_HEADER + PLP_TERMINATOR : 2) + maxBytes + 8);
        this.typeId = typeId;
        this.maxBytes = maxBytes;
        this.plp = plp;
        this.declaredType = declaredType;
        this.narrow = declaredType != null;
        this.typeLength = typeLength;
        this.collationBytes = collationBytes;
        this.column = column;
        this.count = v.getValueCount();
        this.offsets = v.getOffsetBuffer().memoryAddress();
        this.data = v.getDataBuffer().memoryAddress();
        this.dataCapacity = v.getDataBuffer().capacity();
        this.mayHaveNonAscii = !narrow && !valuesAscii(v);
        this.transcodedBytes = mayHaveNonAscii ? new int[ColumnTiles.MAX_ROWS] : null;
        this.tilesTranscode = mayHaveNonAscii && !mostlyNonAscii();
    }

    /** The values {@link #mostlyNonAscii} looks at, spread over the batch. */
    static final int SAMPLE = 32;

    /**
     * Whether at least half of up to {@value #SAMPLE} values spread evenly over the batch (NULL slots included, whose
     * bytes are empty) are not ASCII; false when the offsets of one are not within the data buffer (which
     * {@link #put} reports).
     */
    private boolean mostlyNonAscii() {
        int step = Math.max(1, count / SAMPLE);
        int looked = 0;
        int nonAscii = 0;
        for (int r = 0; r < count && looked < SAMPLE; r += step, looked++) {
            long o = offsets + 4L * r;
            int start = MemoryUtil.getInt(o);
            int end = MemoryUtil.getInt(o + 4);
            if (start < 0 || end < start || end > dataCapacity) {
                return false;
            }
            if (!Utf8Units.ascii(data + start, end - start)) {
                nonAscii++;
            }
        }
        return 2 * nonAscii >= looked && looked > 0;
    }

    /**
     * Whether the bytes of all of {@code v}'s values (from the first offset to the last) are ASCII: one pass, 32 bytes
     * a step, up to the first byte of 0x80 or more; false when the offsets do not lie within the data buffer (whose
     * offsets buffer {@link #buffersAsCounted} has checked).
     */
    private static boolean valuesAscii(VarCharVector v) {
        int count = v.getValueCount();
        if (count == 0) {
            return true;
        }
        long o = v.getOffsetBuffer().memoryAddress();
        int first = MemoryUtil.getInt(o);
        int last = MemoryUtil.getInt(o + 4L * count);
        ArrowBuf data = v.getDataBuffer();
        return first >= 0 && first <= last && last <= data.capacity()
                && Utf8Units.ascii(data.memoryAddress() + first, last - first);
    }

    @Override
    void typeInfo(TdsMessageWriter w) throws IOException {
        // (max): the declared length is 0xFFFF, whatever this batch's longest value
        w.writeByte(typeId).writeShort(typeLength).writeBytes(collationBytes);
    }

    @Override
    String declaredType() {
        return declaredType;
    }

    /** Whether the values go as varchar bytes (one per character) instead of UTF-16. */
    boolean narrow() {
        return narrow;
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
        if (narrow) {
            if (n > maxBytes) {
                // the producer's check refuses such a value before anything is sent
                throw new IllegalStateException("column '" + column + "', row " + row + ": " + n
                        + " characters exceed the bound of " + maxBytes);
            }
            Utf16Le.copyAscii(data + start, n, b, p, start + n + 8L <= dataCapacity);
            return p + 2 + n;
        }
        // a batch whose values are mostly not ASCII goes straight to the transcoder (which takes ASCII 8 bytes at a
        // time too) rather than widening each value first and, failing, once more
        if ((!mayHaveNonAscii || tilesTranscode) && 2 * n <= maxBytes
                && Utf16Le.widenAscii(data + start, n, b, p, start + n + 8L <= dataCapacity)) {
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
     * Adds to {@code size[at + j]} the bytes {@link #put} writes for row {@code row0 + j}, {@code j < k}: for ASCII
     * text of {@code n} bytes {@code 2 + 2 n} (as PLP {@code 16 + 2 n}, or 12 when empty; as varchar {@code 2 + n}),
     * for other text {@code 2 + 2 u} for its {@code u} UTF-16 code units (as PLP {@code 16 + 2 u}), for a NULL its
     * marker (2 bytes, as PLP 8). The code units are counted ({@link Utf16Le#nonAsciiUnits}, 8 bytes at a time) only
     * when the batch's bytes are not all ASCII, and such a value is marked for {@link #putColumn} to transcode
     * ({@link #transcodedBytes}); in a batch whose values are mostly not ASCII ({@link #tilesTranscode} false) such a
     * value is not taken. Returns {@code k}, or the first {@code j} whose value the tiles do not take (such a value,
     * more UTF-16 bytes than the column's bound, or offsets out of the data buffer: then {@link #put} says so); from
     * there nothing is added.
     */
    int addAsciiSizes(int[] size, int at, int row0, int k) {
        Objects.checkFromIndexSize(row0, k, count);
        long o = offsets + 4L * row0;
        int start = MemoryUtil.getInt(o);
        if (start < 0) {
            return 0;
        }
        if (mayHaveNonAscii) {
            return addMixedSizes(size, at, row0, k, o, start);
        }
        int framing = plp ? PLP_HEADER + PLP_TERMINATOR : 2;
        int unit = narrow ? 1 : 2;
        for (int j = 0; j < k; j++) {
            int end = MemoryUtil.getInt(o + 4L * (j + 1));
            int n = end - start;
            // offsets that go back or past the data (never from a valid vector, NULLs included) end the tiles
            if (n < 0 || end > dataCapacity) {
                return j;
            }
            if (mayBeNull && nulls.isNull(row0 + j)) {
                size[at + j] += plp ? 8 : 2;
            } else if (unit * n > maxBytes) {
                // longer than the column's bound: row by row, where put says so
                return j;
            } else {
                size[at + j] += plp && n == 0 ? 8 + PLP_TERMINATOR : framing + unit * n;
            }
            start = end;
        }
        return k;
    }

    /**
     * {@link #addAsciiSizes} of a batch whose bytes are not all ASCII (a loop of its own, so that the all-ASCII one
     * stays as short as it was): each value looked at, its UTF-16 code units counted where the tiles take such values
     * ({@link #tilesTranscode}) and recorded in {@link #transcodedBytes}, else a non-ASCII value ends the measuring.
     */
    private int addMixedSizes(int[] size, int at, int row0, int k, long o, int start) {
        int framing = plp ? PLP_HEADER + PLP_TERMINATOR : 2;
        for (int j = 0; j < k; j++) {
            int end = MemoryUtil.getInt(o + 4L * (j + 1));
            int n = end - start;
            if (n < 0 || end > dataCapacity) {
                return j;
            }
            int transcoded = -1;
            if (mayBeNull && nulls.isNull(row0 + j)) {
                size[at + j] += plp ? 8 : 2;
            } else {
                int units = -1;
                if (tilesTranscode) {
                    units = Utf16Le.nonAsciiUnits(data + start, n, end + 8L <= dataCapacity);
                } else if (!Utf8Units.ascii(data + start, n)) {
                    // most of the batch's values are not ASCII: this one goes row by row
                    return j;
                }
                int bytes = units >= 0 ? 2 * units : 2 * n;
                if (bytes > maxBytes) {
                    // longer than the column's bound: row by row, where put says so
                    return j;
                }
                size[at + j] += plp && n == 0 ? 8 + PLP_TERMINATOR : framing + bytes;
                if (units >= 0) {
                    transcoded = bytes;
                }
            }
            transcodedBytes[at + j] = transcoded;
            start = end;
        }
        return k;
    }

    /**
     * {@link #put} of rows {@code row0 .. row0 + k - 1} whose values {@link #addAsciiSizes} measured (from the tile's
     * first row), at {@code cur[j]}, each advanced past its value, as {@link NumericEncoders.RawInteger#putColumn}:
     * ASCII text widened (or copied as varchar) 8 bytes at a time, the values measured as non-ASCII transcoded, which
     * writes nothing past the value. Returns {@code k}, or the first row (from 0) whose value is not what was
     * measured (UTF-8 that is not well-formed, whose transcoding has another length or is cut off): from there
     * nothing is written, and the row goes row by row.
     */
    int putColumn(byte[] b, int[] cur, int[] pos, int row0, int k, boolean keep) {
        Objects.checkFromIndexSize(row0, k, count);
        if (mayHaveNonAscii) {
            return putMixedColumn(b, cur, pos, row0, k, keep);
        }
        long o = offsets + 4L * row0;
        int start = MemoryUtil.getInt(o);
        for (int j = 0; j < k; j++) {
            int end = MemoryUtil.getInt(o + 4L * (j + 1));
            int p = cur[j];
            int n = end - start;
            if (mayBeNull && nulls.isNull(row0 + j)) {
                cur[j] = putNull(b, p);
            } else if (plp && n == 0) {
                cur[j] = putEmptyPlp(b, p);
            } else {
                long kept = keep ? (long) LONGS.get(b, pos[j + 1]) : 0L;
                // as PLP, the USHORT length the copy writes lands in the chunk length's upper bytes, overwritten
                int q = plp ? p + PLP_HEADER - 2 : p;
                boolean ascii;
                if (narrow) {
                    Utf16Le.copyAscii(data + start, n, b, q, end + 8L <= dataCapacity);
                    ascii = true;
                } else {
                    ascii = Utf16Le.widenAscii(data + start, n, b, q, end + 8L <= dataCapacity);
                }
                int bytes = narrow ? n : 2 * n;
                if (ascii && plp) {
                    LONGS.set(b, p, (long) bytes);
                    INTS.set(b, p + 8, bytes);
                    INTS.set(b, q + 2 + bytes, 0);
                }
                if (keep) {
                    LONGS.set(b, pos[j + 1], kept);
                }
                if (!ascii) {
                    return j;
                }
                cur[j] = q + 2 + bytes + (plp ? PLP_TERMINATOR : 0);
            }
            start = end;
        }
        return k;
    }

    /**
     * {@link #putColumn} of a batch whose bytes are not all ASCII (a loop of its own, as {@link #addMixedSizes}): the
     * values {@link #addMixedSizes} counted transcoded into exactly that room, the others widened as ASCII.
     */
    private int putMixedColumn(byte[] b, int[] cur, int[] pos, int row0, int k, boolean keep) {
        long o = offsets + 4L * row0;
        int start = MemoryUtil.getInt(o);
        for (int j = 0; j < k; j++) {
            int end = MemoryUtil.getInt(o + 4L * (j + 1));
            int p = cur[j];
            int n = end - start;
            if (mayBeNull && nulls.isNull(row0 + j)) {
                cur[j] = putNull(b, p);
            } else if (plp && n == 0) {
                cur[j] = putEmptyPlp(b, p);
            } else {
                int q = plp ? p + PLP_HEADER - 2 : p;
                int bytes;
                int counted = transcodedBytes[j];
                if (counted >= 0) {
                    // UTF-16LE of exactly the bytes addMixedSizes counted, nothing written past them; a count that
                    // does not hold (UTF-8 that is not well-formed) ends the tile before the row, nothing committed
                    try {
                        bytes = Utf16Le.utf8ToUtf16le(data + start, n, b, q + 2, q + 2 + counted);
                    } catch (IllegalArgumentException e) {
                        return j;
                    }
                    if (bytes != counted) {
                        return j;
                    }
                    b[q] = (byte) bytes;
                    b[q + 1] = (byte) (bytes >>> 8);
                } else {
                    long kept = keep ? (long) LONGS.get(b, pos[j + 1]) : 0L;
                    boolean ascii = Utf16Le.widenAscii(data + start, n, b, q, end + 8L <= dataCapacity);
                    if (keep) {
                        LONGS.set(b, pos[j + 1], kept);
                    }
                    if (!ascii) {
                        return j;
                    }
                    bytes = 2 * n;
                }
                if (plp) {
                    LONGS.set(b, p, (long) bytes);
                    INTS.set(b, p + 8, bytes);
                    INTS.set(b, q + 2 + bytes, 0);
                }
                cur[j] = q + 2 + bytes + (plp ? PLP_TERMINATOR : 0);
            }
            start = end;
        }
        return k;
    }

    /** The NULL marker at {@code p} (0xFFFF, as PLP eight 0xFF), nothing past it; returns the position after it. */
    private int putNull(byte[] b, int p) {
        if (plp) {
            LONGS.set(b, p, -1L);
            return p + 8;
        }
        b[p] = (byte) 0xFF;
        b[p + 1] = (byte) 0xFF;
        return p + 2;
    }

    /** An empty PLP value at {@code p}: length 0 and the terminator; returns the position after it. */
    private static int putEmptyPlp(byte[] b, int p) {
        LONGS.set(b, p, 0L);
        INTS.set(b, p + 8, 0);
        return p + 8 + PLP_TERMINATOR;
    }

    /**
     * Writes the UTF-16LE of the {@code n} UTF-8 bytes at {@code start} into {@code b} at {@code q}, straight from the
     * data buffer, for a value {@link Utf16Le#widenAscii} did not write (a byte of 0x80 or more, or more UTF-8 bytes
     * than the column's UTF-16 bound); returns its byte count.
     */
    private int transcode(byte[] b, int q, int row, int start, int n) {
        int bytes;
        try {
            bytes = Utf16Le.utf8ToUtf16le(data + start, n, b, q, q + maxBytes);
        } catch (IllegalArgumentException e) {
            // not UTF-8, which Arrow's Utf8 type promises: the message breaks off and the connection is closed
            throw new IllegalStateException("column '" + column + "', row " + row + ": " + e.getMessage(), e);
        }
        if (bytes < 0) {
            // the producer's check refuses such a value before anything is sent; with PLP, maxBytes is twice
            // the batch's longest UTF-8 value, which no UTF-16 of it exceeds
            throw new IllegalStateException("column '" + column + "', row " + row + ": its UTF-16 code units exceed"
                    + " the bound of " + maxBytes / 2);
        }
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
        // widenAscii and copyAscii write the USHORT length just before the value: here into the chunk length's
        // upper bytes, which are overwritten below (n is at most PLP_BOUNDED_UTF8, or ASCII_PLP_BOUNDED as
        // varchar: utf16Plp and asciiAsVarchar made this encoder for no longer)
        if (narrow) {
            if (n > maxBytes) {
                throw new IllegalStateException("column '" + column + "', row " + row + ": " + n
                        + " characters exceed the bound of " + maxBytes);
            }
            Utf16Le.copyAscii(data + start, n, b, q - 2, start + n + 8L <= dataCapacity);
            bytes = n;
        } else if ((!mayHaveNonAscii || tilesTranscode)
                && Utf16Le.widenAscii(data + start, n, b, q - 2, start + n + 8L <= dataCapacity)) {
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
