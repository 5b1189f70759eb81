package io.deltafunnel.query;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.Base64;
import java.util.Locale;
import java.util.UUID;

/**
 * Decodes one value of the Parquet Variant binary encoding (apache/parquet-format {@code VariantEncoding.md}) into
 * canonical JSON text, rendered the way Spark's {@code to_json} renders a variant
 * ({@code org.apache.spark.types.variant.Variant#toJson}, with the UTC zone):
 *
 * <ul>
 * <li>null, booleans, int8/16/32/64: JSON literals and integers; decimal4/8/16: the exact value in plain notation
 *     ({@code BigDecimal.toPlainString}, trailing zeros of the scale kept);</li>
 * <li>float and double: Java's {@code Float.toString} / {@code Double.toString} ({@code 1.0E10}); NaN and the
 *     infinities therefore appear as the bare words {@code NaN}, {@code Infinity}, {@code -Infinity}, exactly as
 *     Spark writes them (such a document is not strict JSON);</li>
 * <li>string and short string: escaped JSON strings; binary: a base64 string;</li>
 * <li>date: {@code "yyyy-MM-dd"}; timestamp (UTC): {@code "yyyy-MM-dd HH:mm:ss[.fraction]+00:00"}; timestamp_ntz: the
 *     same without offset; the fraction has only the digits it needs (ISO local time), so the nanosecond
 *     timestamps (type ids 18, 19) render the same way with up to 9 digits;</li>
 * <li>time_ntz (id 17, not in Spark 4.0): {@code "HH:mm:ss[.fraction]"}; uuid (id 20): its canonical lower-case
 *     string;</li>
 * <li>objects: {@code {"key":value,...}} in the order of the field id list (which the specification requires sorted by
 *     key), keys looked up in the metadata dictionary whether or not it is marked sorted; arrays in order.</li>
 * </ul>
 *
 * A malformed value (bad version, an offset outside the buffers, an unknown type id) is an
 * {@link IllegalArgumentException} naming what is wrong; the caller adds the column and row.
 */
final class VariantJson {

    static final DateTimeFormatter NTZ = new DateTimeFormatterBuilder().append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral(' ').append(DateTimeFormatter.ISO_LOCAL_TIME).toFormatter(Locale.US);
    static final DateTimeFormatter UTC = new DateTimeFormatterBuilder().append(NTZ).appendOffset("+HH:MM", "+00:00")
            .toFormatter(Locale.US);

    private VariantJson() {
    }

    /** The dictionary of a metadata buffer, checked once per value and read lazily. */
    static final class Metadata {
        private final byte[] bytes;
        private final int offsetSize;
        private final int size;
        private final int offsetsStart;
        private final int stringsStart;

        Metadata(byte[] bytes) {
            if (bytes == null || bytes.length < 1) {
                throw new IllegalArgumentException("variant metadata is empty");
            }
            int header = bytes[0] & 0xFF;
            if ((header & 0x0F) != 1) {
                throw new IllegalArgumentException("variant metadata version " + (header & 0x0F) + " (only 1 is defined)");
            }
            this.bytes = bytes;
            this.offsetSize = ((header >> 6) & 3) + 1;
            this.size = readUnsigned(bytes, 1, offsetSize);
            this.offsetsStart = 1 + offsetSize;
            this.stringsStart = offsetsStart + (size + 1) * offsetSize;
            if (stringsStart > bytes.length) {
                throw new IllegalArgumentException("variant metadata dictionary of " + size + " keys exceeds its "
                        + bytes.length + " bytes");
            }
        }

        /** Appends the dictionary key {@code id} as a JSON string. */
        void appendKey(JsonText out, int id) {
            if (id < 0 || id >= size) {
                throw new IllegalArgumentException("field id " + id + " is outside the metadata dictionary of " + size
                        + " keys");
            }
            int start = readUnsigned(bytes, offsetsStart + id * offsetSize, offsetSize);
            int end = readUnsigned(bytes, offsetsStart + (id + 1) * offsetSize, offsetSize);
            if (start > end || stringsStart + end > bytes.length) {
                throw new IllegalArgumentException("metadata key " + id + " has bad offsets " + start + ".." + end);
            }
            out.appendString(bytes, stringsStart + start, end - start);
        }

        /** The dictionary key {@code id} (for merging shredded objects). */
        byte[] key(int id) {
            if (id < 0 || id >= size) {
                throw new IllegalArgumentException("field id " + id + " is outside the metadata dictionary of " + size
                        + " keys");
            }
            int start = readUnsigned(bytes, offsetsStart + id * offsetSize, offsetSize);
            int end = readUnsigned(bytes, offsetsStart + (id + 1) * offsetSize, offsetSize);
            if (start > end || stringsStart + end > bytes.length) {
                throw new IllegalArgumentException("metadata key " + id + " has bad offsets " + start + ".." + end);
            }
            return java.util.Arrays.copyOfRange(bytes, stringsStart + start, stringsStart + end);
        }
    }

    /** Decodes the whole value into {@code out}. */
    static void append(JsonText out, Metadata metadata, byte[] value) {
        if (value == null || value.length == 0) {
            throw new IllegalArgumentException("variant value is empty");
        }
        try {
            append(out, metadata, value, 0);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("variant value is truncated or has an offset outside its "
                    + value.length + " bytes", e);
        }
    }

    static int basicType(byte[] value, int pos) {
        return value[pos] & 3;
    }

    /** Visits the fields of the object at {@code pos}: (dictionary id, position of the field's value). */
    interface FieldVisitor {
        void field(int id, int valuePos);
    }

    static void forEachField(byte[] value, int pos, FieldVisitor visitor) {
        int header = (value[pos] & 0xFF) >> 2;
        int offsetSize = (header & 3) + 1;
        int idSize = ((header >> 2) & 3) + 1;
        boolean large = ((header >> 4) & 1) == 1;
        int countSize = large ? 4 : 1;
        int n = readUnsigned(value, pos + 1, countSize);
        int idStart = pos + 1 + countSize;
        int offsetStart = idStart + n * idSize;
        int dataStart = offsetStart + (n + 1) * offsetSize;
        for (int i = 0; i < n; i++) {
            int id = readUnsigned(value, idStart + i * idSize, idSize);
            int offset = readUnsigned(value, offsetStart + i * offsetSize, offsetSize);
            visitor.field(id, dataStart + offset);
        }
    }

    static void append(JsonText out, Metadata metadata, byte[] value, int pos) {
        int b = value[pos] & 0xFF;
        int header = b >> 2;
        switch (b & 3) {
            case 0 -> primitive(out, header, value, pos + 1);
            case 1 -> out.appendString(checkLength(value, pos + 1, header), pos + 1, header);
            case 2 -> {
                out.append('{');
                boolean[] first = {true};
                forEachField(value, pos, (id, valuePos) -> {
                    if (!first[0]) {
                        out.append(',');
                    }
                    first[0] = false;
                    metadata.appendKey(out, id);
                    out.append(':');
                    append(out, metadata, value, valuePos);
                });
                out.append('}');
            }
            default -> {
                int offsetSize = (header & 3) + 1;
                boolean large = ((header >> 2) & 1) == 1;
                int countSize = large ? 4 : 1;
                int n = readUnsigned(value, pos + 1, countSize);
                int offsetStart = pos + 1 + countSize;
                int dataStart = offsetStart + (n + 1) * offsetSize;
                out.append('[');
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    append(out, metadata, value, dataStart + readUnsigned(value, offsetStart + i * offsetSize, offsetSize));
                }
                out.append(']');
            }
        }
    }

    private static byte[] checkLength(byte[] value, int from, int n) {
        if (from + n > value.length) {
            throw new IllegalArgumentException("a string of " + n + " bytes at " + from + " runs past the value's "
                    + value.length + " bytes");
        }
        return value;
    }

    private static void primitive(JsonText out, int type, byte[] v, int p) {
        switch (type) {
            case 0 -> out.appendAscii("null");
            case 1 -> out.appendAscii("true");
            case 2 -> out.appendAscii("false");
            case 3 -> out.appendAscii(Integer.toString(v[p]));
            case 4 -> out.appendAscii(Integer.toString((short) readLong(v, p, 2)));
            case 5 -> out.appendAscii(Integer.toString((int) readLong(v, p, 4)));
            case 6 -> out.appendAscii(Long.toString(readLong(v, p, 8)));
            case 7 -> appendDouble(out, Double.longBitsToDouble(readLong(v, p, 8)));
            case 8 -> appendDecimal(out, BigDecimal.valueOf((int) readLong(v, p + 1, 4), scale(v, p)));
            case 9 -> appendDecimal(out, BigDecimal.valueOf(readLong(v, p + 1, 8), scale(v, p)));
            case 10 -> {
                byte[] be = new byte[16];
                for (int i = 0; i < 16; i++) {
                    be[i] = v[p + 16 - i];
                }
                appendDecimal(out, new BigDecimal(new BigInteger(be), scale(v, p)));
            }
            case 11 -> appendDate(out, (int) readLong(v, p, 4));
            case 12 -> appendTimestamp(out, readLong(v, p, 8), 1_000, true);
            case 13 -> appendTimestamp(out, readLong(v, p, 8), 1_000, false);
            case 14 -> appendFloat(out, Float.intBitsToFloat((int) readLong(v, p, 4)));
            case 15 -> {
                int n = (int) readLong(v, p, 4);
                byte[] bytes = java.util.Arrays.copyOfRange(checkLength(v, p + 4, n), p + 4, p + 4 + n);
                appendBinary(out, bytes);
            }
            case 16 -> {
                int n = (int) readLong(v, p, 4);
                out.appendString(checkLength(v, p + 4, n), p + 4, n);
            }
            case 17 -> appendTime(out, readLong(v, p, 8) * 1_000);
            case 18 -> appendTimestamp(out, readLong(v, p, 8), 1, true);
            case 19 -> appendTimestamp(out, readLong(v, p, 8), 1, false);
            case 20 -> {
                long msb = 0;
                long lsb = 0;
                for (int i = 0; i < 8; i++) {
                    msb = (msb << 8) | (v[p + i] & 0xFF);
                    lsb = (lsb << 8) | (v[p + 8 + i] & 0xFF);
                }
                appendUuid(out, new UUID(msb, lsb));
            }
            default -> throw new IllegalArgumentException("unknown variant primitive type id " + type);
        }
    }

    private static int scale(byte[] v, int p) {
        int scale = v[p] & 0xFF;
        if (scale > 38) {
            throw new IllegalArgumentException("variant decimal scale " + scale + " is above 38");
        }
        return scale;
    }

    static void appendDouble(JsonText out, double d) {
        out.appendAscii(Double.toString(d));
    }

    static void appendFloat(JsonText out, float f) {
        out.appendAscii(Float.toString(f));
    }

    static void appendDecimal(JsonText out, BigDecimal d) {
        out.appendAscii(d.toPlainString());
    }

    static void appendDate(JsonText out, int days) {
        out.appendQuotedAscii(LocalDate.ofEpochDay(days).toString());
    }

    /**
     * A timestamp counted in units of {@code nanosPerUnit} nanoseconds since the epoch (1000: micros, 1: nanos),
     * written as {@link #UTC} or {@link #NTZ} format it, without their cost (those formatters stay the reference:
     * {@code VariantJsonTest} compares the two).
     */
    static void appendTimestamp(JsonText out, long count, long nanosPerUnit, boolean utc) {
        long perSecond = 1_000_000_000L / nanosPerUnit;
        long seconds = Math.floorDiv(count, perSecond);
        long nanos = Math.floorMod(count, perSecond) * nanosPerUnit;
        long days = Math.floorDiv(seconds, 86_400L);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
        LocalDate date = LocalDate.ofEpochDay(days);
        out.append('"');
        int year = date.getYear();
        if (year >= 0 && year <= 9999) {
            digits(out, year, 4).append('-');
            digits(out, date.getMonthValue(), 2).append('-');
            digits(out, date.getDayOfMonth(), 2);
        } else {
            out.appendAscii(date.toString());
        }
        out.append(' ');
        digits(out, secondOfDay / 3600, 2).append(':');
        digits(out, secondOfDay / 60 % 60, 2).append(':');
        digits(out, secondOfDay % 60, 2);
        if (nanos != 0) {
            int n = (int) nanos;
            int width = 9;
            while (n % 10 == 0) {
                n /= 10;
                width--;
            }
            out.append('.');
            digits(out, n, width);
        }
        if (utc) {
            out.appendAscii("+00:00");
        }
        out.append('"');
    }

    private static JsonText digits(JsonText out, int value, int width) {
        int divisor = 1;
        for (int i = 1; i < width; i++) {
            divisor *= 10;
        }
        for (int v = value; divisor > 0; divisor /= 10) {
            out.append((char) ('0' + v / divisor % 10));
        }
        return out;
    }

    static void appendTime(JsonText out, long nanosOfDay) {
        out.appendQuotedAscii(DateTimeFormatter.ISO_LOCAL_TIME.format(LocalTime.ofNanoOfDay(nanosOfDay)));
    }

    static void appendBinary(JsonText out, byte[] bytes) {
        out.appendQuotedAscii(Base64.getEncoder().encodeToString(bytes));
    }

    static void appendUuid(JsonText out, UUID uuid) {
        out.appendQuotedAscii(uuid.toString());
    }

    static int readUnsigned(byte[] b, int pos, int size) {
        int r = 0;
        for (int i = 0; i < size; i++) {
            r |= (b[pos + i] & 0xFF) << (8 * i);
        }
        if (r < 0) {
            throw new IllegalArgumentException("variant size or offset " + Integer.toUnsignedString(r) + " is too large");
        }
        return r;
    }

    /** A little-endian signed integer of {@code size} bytes. */
    static long readLong(byte[] b, int pos, int size) {
        long r = 0;
        for (int i = 0; i < size; i++) {
            r |= (long) (b[pos + i] & 0xFF) << (8 * i);
        }
        int shift = 64 - 8 * size;
        return (r << shift) >> shift;
    }
}
