package io.deltafunnel.tds;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * Reads and writes one value of a given {@link TypeInfo} (the bytes of a ROW column or an RPC parameter value).
 *
 * <p>Java mapping: integers as Integer (tinyint, smallint, int) or Long (bigint); bit as Boolean; real as Float;
 * float as Double; decimal/numeric/money as BigDecimal; date as LocalDate; time as LocalTime; datetime2, datetime
 * and smalldatetime as LocalDateTime; datetimeoffset as OffsetDateTime; character types as String; binary types as
 * byte[]; uniqueidentifier as UUID; json as String; vector as float[] ({@link VectorCodec}); NULL as null.
 */
public final class ValueCodec {
    private ValueCodec() {
    }

    public static Object read(TdsReader r, TypeInfo t) {
        int id = t.typeId();
        switch (id) {
            case TypeId.NULL:
                return null;
            case TypeId.INT1:
                return r.readUnsignedByte();
            case TypeId.BIT:
                return r.readUnsignedByte() != 0;
            case TypeId.INT2:
                return (int) r.readShort();
            case TypeId.INT4:
                return r.readInt();
            case TypeId.INT8:
                return r.readLong();
            case TypeId.FLT4:
                return Float.intBitsToFloat(r.readInt());
            case TypeId.FLT8:
                return Double.longBitsToDouble(r.readLong());
            case TypeId.MONEY:
                return MoneyCodec.read(r, 8);
            case TypeId.MONEY4:
                return MoneyCodec.read(r, 4);
            case TypeId.DATETIME:
                return TemporalCodec.readDateTime(r);
            case TypeId.DATETIM4:
                return TemporalCodec.readSmallDateTime(r);
            case TypeId.INTN: {
                int len = r.readUnsignedByte();
                switch (len) {
                    case 0: return null;
                    case 1: return r.readUnsignedByte();
                    case 2: return (int) r.readShort();
                    case 4: return r.readInt();
                    case 8: return r.readLong();
                    default: throw new TdsProtocolException("INTN length " + len);
                }
            }
            case TypeId.BITN: {
                int len = r.readUnsignedByte();
                if (len == 0) {
                    return null;
                }
                checkLen(len, 1, id);
                return r.readUnsignedByte() != 0;
            }
            case TypeId.FLTN: {
                int len = r.readUnsignedByte();
                switch (len) {
                    case 0: return null;
                    case 4: return Float.intBitsToFloat(r.readInt());
                    case 8: return Double.longBitsToDouble(r.readLong());
                    default: throw new TdsProtocolException("FLTN length " + len);
                }
            }
            case TypeId.MONEYN: {
                int len = r.readUnsignedByte();
                if (len == 0) {
                    return null;
                }
                if (len != 4 && len != 8) {
                    throw new TdsProtocolException("MONEYN length " + len);
                }
                return MoneyCodec.read(r, len);
            }
            case TypeId.DATETIMN: {
                int len = r.readUnsignedByte();
                switch (len) {
                    case 0: return null;
                    case 4: return TemporalCodec.readSmallDateTime(r);
                    case 8: return TemporalCodec.readDateTime(r);
                    default: throw new TdsProtocolException("DATETIMN length " + len);
                }
            }
            case TypeId.DECIMAL:
            case TypeId.NUMERIC:
            case TypeId.DECIMALN:
            case TypeId.NUMERICN: {
                int len = r.readUnsignedByte();
                if (len == 0) {
                    return null;
                }
                if (len > 17 || len < 2) {
                    throw new TdsProtocolException("DECIMALN length " + len);
                }
                return DecimalCodec.read(r, len, t.scale());
            }
            case TypeId.DATEN: {
                int len = r.readUnsignedByte();
                if (len == 0) {
                    return null;
                }
                checkLen(len, 3, id);
                return TemporalCodec.readDate(r);
            }
            case TypeId.TIMEN: {
                int len = r.readUnsignedByte();
                if (len == 0) {
                    return null;
                }
                checkLen(len, TemporalCodec.timeLength(t.scale()), id);
                return TemporalCodec.readTime(r, t.scale());
            }
            case TypeId.DATETIME2N: {
                int len = r.readUnsignedByte();
                if (len == 0) {
                    return null;
                }
                checkLen(len, TemporalCodec.timeLength(t.scale()) + 3, id);
                return TemporalCodec.readDateTime2(r, t.scale());
            }
            case TypeId.DATETIMEOFFSETN: {
                int len = r.readUnsignedByte();
                if (len == 0) {
                    return null;
                }
                checkLen(len, TemporalCodec.timeLength(t.scale()) + 5, id);
                return TemporalCodec.readDateTimeOffset(r, t.scale());
            }
            case TypeId.GUID: {
                int len = r.readUnsignedByte();
                if (len == 0) {
                    return null;
                }
                checkLen(len, 16, id);
                return GuidCodec.fromBytes(r.readBytes(16));
            }
            case TypeId.BIGVARCHAR:
            case TypeId.BIGCHAR:
            case TypeId.NVARCHAR:
            case TypeId.NCHAR: {
                byte[] b = readVarBytes(r, t);
                return b == null ? null : decodeString(b, t);
            }
            case TypeId.BIGVARBINARY:
            case TypeId.BIGBINARY:
                return readVarBytes(r, t);
            case TypeId.UDT:
                return readVarBytes(r, t); // the CLR serialisation, as bytes
            case TypeId.SSVARIANT: {
                // 4-byte length (0 = NULL), then base type, property bytes and value: returned undecoded
                int len = r.readInt();
                return len == 0 ? null : r.readBytes(len);
            }
            case TypeId.XML: {
                byte[] b = Plp.read(r);
                if (b == null) {
                    return null;
                }
                // UTF-16LE; a leading byte order mark is not part of the text
                int off = b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE ? 2 : 0;
                if (((b.length - off) & 1) != 0) {
                    throw new TdsProtocolException("odd byte count for UTF-16 XML data");
                }
                return new String(b, off, b.length - off, StandardCharsets.UTF_16LE);
            }
            case TypeId.JSON: {
                byte[] b = Plp.read(r);
                return b == null ? null : new String(b, StandardCharsets.UTF_8);
            }
            case TypeId.VECTOR: {
                int len = r.readUnsignedShort();
                return len == 0xFFFF ? null : VectorCodec.decode(r.readBytes(len));
            }
            case TypeId.TEXT:
            case TypeId.NTEXT:
            case TypeId.IMAGE: {
                int ptrLen = r.readUnsignedByte();
                if (ptrLen == 0) {
                    return null;
                }
                r.skip(ptrLen + 8L);
                int len = r.readInt();
                byte[] b = r.readBytes(len);
                return id == TypeId.IMAGE ? b : decodeString(b, t);
            }
            default:
                throw new TdsProtocolException(String.format("cannot read values of type 0x%02X", id));
        }
    }

    private static void checkLen(int len, int expected, int id) {
        if (len != expected) {
            throw new TdsProtocolException(String.format("type 0x%02X value length %d, expected %d", id, len,
                    expected));
        }
    }

    /** Raw bytes of a ushort-length or PLP value, null for NULL. */
    public static byte[] readVarBytes(TdsReader r, TypeInfo t) {
        if (t.isPlp()) {
            return Plp.read(r);
        }
        int len = r.readUnsignedShort();
        if (len == 0xFFFF) {
            return null;
        }
        if (len > t.maxLength()) {
            throw new TdsProtocolException("value of " + len + " bytes exceeds declared length " + t.maxLength());
        }
        return r.readBytes(len);
    }

    public static String decodeString(byte[] b, TypeInfo t) {
        if (TypeId.isUnicode(t.typeId())) {
            if ((b.length & 1) != 0) {
                throw new TdsProtocolException("odd byte count for UTF-16 data");
            }
            return new String(b, StandardCharsets.UTF_16LE);
        }
        Collation c = t.collation() == null ? Collation.SQL_LATIN1_GENERAL_CP1_CI_AS : t.collation();
        return new String(b, c.charset());
    }

    public static byte[] encodeString(String s, TypeInfo t) {
        if (TypeId.isUnicode(t.typeId())) {
            return s.getBytes(StandardCharsets.UTF_16LE);
        }
        Collation c = t.collation() == null ? Collation.SQL_LATIN1_GENERAL_CP1_CI_AS : t.collation();
        return s.getBytes(c.charset());
    }

    /**
     * Writes a value of a nullable type (INTN, BITN, FLTN, MONEYN, DATETIMN, DECIMALN/NUMERICN, DATEN, TIMEN,
     * DATETIME2N, DATETIMEOFFSETN, GUID, the ushort-length character and binary types and their (max) forms). The
     * value must already be valid for the type (rounded, in range).
     */
    public static void write(TdsWriter w, TypeInfo t, Object v) {
        int id = t.typeId();
        switch (id) {
            case TypeId.INTN:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                w.writeByte(t.maxLength());
                w.writeLongBytes(((Number) v).longValue(), t.maxLength());
                return;
            case TypeId.BITN:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                w.writeByte(1).writeByte(((Boolean) v) ? 1 : 0);
                return;
            case TypeId.FLTN:
                if (v == null) {
                    w.writeByte(0);
                } else if (t.maxLength() == 4) {
                    w.writeByte(4).writeInt(Float.floatToIntBits(((Number) v).floatValue()));
                } else {
                    w.writeByte(8).writeLong(Double.doubleToLongBits(((Number) v).doubleValue()));
                }
                return;
            case TypeId.MONEYN:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                w.writeByte(t.maxLength());
                MoneyCodec.write(w, (BigDecimal) v, t.maxLength());
                return;
            case TypeId.DATETIMN:
                if (v == null) {
                    w.writeByte(0);
                } else if (t.maxLength() == 4) {
                    w.writeByte(4);
                    TemporalCodec.writeSmallDateTime(w, (LocalDateTime) v);
                } else {
                    w.writeByte(8);
                    TemporalCodec.writeDateTime(w, (LocalDateTime) v);
                }
                return;
            case TypeId.DECIMALN:
            case TypeId.NUMERICN:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                DecimalCodec.write(w, ((BigDecimal) v).setScale(t.scale()), t.precision());
                return;
            case TypeId.DATEN:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                w.writeByte(3);
                TemporalCodec.writeDate(w, (LocalDate) v);
                return;
            case TypeId.TIMEN:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                w.writeByte(TemporalCodec.timeLength(t.scale()));
                TemporalCodec.writeTime(w, (LocalTime) v, t.scale());
                return;
            case TypeId.DATETIME2N:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                w.writeByte(TemporalCodec.timeLength(t.scale()) + 3);
                TemporalCodec.writeDateTime2(w, (LocalDateTime) v, t.scale());
                return;
            case TypeId.DATETIMEOFFSETN:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                w.writeByte(TemporalCodec.timeLength(t.scale()) + 5);
                TemporalCodec.writeDateTimeOffset(w, (OffsetDateTime) v, t.scale());
                return;
            case TypeId.GUID:
                if (v == null) {
                    w.writeByte(0);
                    return;
                }
                w.writeByte(16).writeBytes(GuidCodec.toBytes((UUID) v));
                return;
            case TypeId.BIGVARCHAR:
            case TypeId.BIGCHAR:
            case TypeId.NVARCHAR:
            case TypeId.NCHAR:
                writeVarBytes(w, t, v == null ? null : encodeString((String) v, t));
                return;
            case TypeId.BIGVARBINARY:
            case TypeId.BIGBINARY:
                writeVarBytes(w, t, (byte[]) v);
                return;
            case TypeId.XML:
                Plp.write(w, v == null ? null : ((String) v).getBytes(StandardCharsets.UTF_16LE));
                return;
            case TypeId.JSON:
                Plp.write(w, v == null ? null : ((String) v).getBytes(StandardCharsets.UTF_8));
                return;
            case TypeId.VECTOR:
                if (v == null) {
                    w.writeShort(0xFFFF);
                } else {
                    byte[] b = VectorCodec.encode((float[]) v);
                    w.writeShort(b.length).writeBytes(b);
                }
                return;
            default:
                throw new IllegalArgumentException(String.format("cannot write values of type 0x%02X", id));
        }
    }

    public static void writeVarBytes(TdsWriter w, TypeInfo t, byte[] b) {
        if (t.isPlp()) {
            Plp.write(w, b);
        } else if (b == null) {
            w.writeShort(0xFFFF);
        } else {
            w.writeShort(b.length);
            w.writeBytes(b);
        }
    }
}
