package io.deltafunnel.tds;

/**
 * A TYPE_INFO (MS-TDS 2.2.5.6): type id, declared max length (bytes), precision, scale and collation.
 * For (max) types {@code maxLength} is {@link TypeId#USHORT_MAX} and values travel as PLP.
 */
public final class TypeInfo {
    private final int typeId;
    private final int maxLength;
    private final int precision;
    private final int scale;
    private final Collation collation;

    public TypeInfo(int typeId, int maxLength, int precision, int scale, Collation collation) {
        this.typeId = typeId;
        this.maxLength = maxLength;
        this.precision = precision;
        this.scale = scale;
        this.collation = collation;
    }

    public static TypeInfo of(int typeId, int maxLength) {
        return new TypeInfo(typeId, maxLength, 0, 0, null);
    }

    public int typeId() {
        return typeId;
    }

    public int maxLength() {
        return maxLength;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    public Collation collation() {
        return collation;
    }

    public boolean isPlp() {
        return (typeId == TypeId.BIGVARCHAR || typeId == TypeId.NVARCHAR || typeId == TypeId.BIGVARBINARY
                || typeId == TypeId.BIGCHAR || typeId == TypeId.NCHAR || typeId == TypeId.BIGBINARY)
                && maxLength == TypeId.USHORT_MAX || typeId == TypeId.XML || typeId == TypeId.JSON
                || typeId == TypeId.UDT && maxLength == TypeId.USHORT_MAX;
    }

    /** Reads a TYPE_INFO. Text/ntext/image table names are not part of TYPE_INFO and are not consumed here. */
    public static TypeInfo read(TdsReader r) {
        int id = r.readUnsignedByte();
        int fixed = TypeId.fixedLength(id);
        if (fixed >= 0) {
            return new TypeInfo(id, fixed, 0, 0, null);
        }
        switch (id) {
            case TypeId.GUID:
            case TypeId.INTN:
            case TypeId.BITN:
            case TypeId.FLTN:
            case TypeId.MONEYN:
            case TypeId.DATETIMN:
                return new TypeInfo(id, r.readUnsignedByte(), 0, 0, null);
            case TypeId.DECIMAL:
            case TypeId.NUMERIC:
            case TypeId.DECIMALN:
            case TypeId.NUMERICN: {
                int len = r.readUnsignedByte();
                int p = r.readUnsignedByte();
                int s = r.readUnsignedByte();
                return new TypeInfo(id, len, p, s, null);
            }
            case TypeId.DATEN:
                return new TypeInfo(id, 3, 0, 0, null);
            case TypeId.TIMEN:
            case TypeId.DATETIME2N:
            case TypeId.DATETIMEOFFSETN: {
                int s = r.readUnsignedByte();
                if (s > 7) {
                    throw new TdsProtocolException("temporal scale " + s + " out of range");
                }
                return new TypeInfo(id, 0, 0, s, null);
            }
            case TypeId.BIGVARBINARY:
            case TypeId.BIGBINARY:
                return new TypeInfo(id, r.readUnsignedShort(), 0, 0, null);
            case TypeId.BIGVARCHAR:
            case TypeId.BIGCHAR:
            case TypeId.NVARCHAR:
            case TypeId.NCHAR: {
                int len = r.readUnsignedShort();
                Collation c = Collation.fromBytes(r.readBytes(Collation.LENGTH));
                return new TypeInfo(id, len, 0, 0, c);
            }
            case TypeId.TEXT:
            case TypeId.NTEXT: {
                int len = r.readInt();
                Collation c = Collation.fromBytes(r.readBytes(Collation.LENGTH));
                return new TypeInfo(id, len, 0, 0, c);
            }
            case TypeId.IMAGE:
                return new TypeInfo(id, r.readInt(), 0, 0, null);
            case TypeId.SSVARIANT:
                return new TypeInfo(id, r.readInt(), 0, 0, null);
            case TypeId.UDT: {
                int len = r.readUnsignedShort();
                r.readBVarchar(); // database
                r.readBVarchar(); // schema
                r.readBVarchar(); // type name
                r.readUsVarchar(); // assembly qualified name
                return new TypeInfo(id, len, 0, 0, null);
            }
            case TypeId.JSON:
                return new TypeInfo(id, TypeId.USHORT_MAX, 0, 0, null);
            case TypeId.VECTOR: {
                // USHORT max length, BYTE dimension type (kept as the scale)
                int len = r.readUnsignedShort();
                int dimensionType = r.readUnsignedByte();
                return new TypeInfo(id, len, 0, dimensionType, null);
            }
            case TypeId.XML: {
                // SCHEMA_PRESENT, then (if 1) database, owning schema and XML schema collection names
                if (r.readUnsignedByte() != 0) {
                    r.readBVarchar();
                    r.readBVarchar();
                    r.readUsVarchar();
                }
                return new TypeInfo(id, TypeId.USHORT_MAX, 0, 0, null);
            }
            default:
                throw new TdsProtocolException(String.format("unsupported TYPE_INFO type 0x%02X", id));
        }
    }

    public void write(TdsWriter w) {
        w.writeByte(typeId);
        if (TypeId.fixedLength(typeId) >= 0) {
            return;
        }
        switch (typeId) {
            case TypeId.GUID:
            case TypeId.INTN:
            case TypeId.BITN:
            case TypeId.FLTN:
            case TypeId.MONEYN:
            case TypeId.DATETIMN:
                w.writeByte(maxLength);
                return;
            case TypeId.DECIMAL:
            case TypeId.NUMERIC:
            case TypeId.DECIMALN:
            case TypeId.NUMERICN:
                w.writeByte(maxLength).writeByte(precision).writeByte(scale);
                return;
            case TypeId.DATEN:
                return;
            case TypeId.TIMEN:
            case TypeId.DATETIME2N:
            case TypeId.DATETIMEOFFSETN:
                w.writeByte(scale);
                return;
            case TypeId.BIGVARBINARY:
            case TypeId.BIGBINARY:
                w.writeShort(maxLength);
                return;
            case TypeId.BIGVARCHAR:
            case TypeId.BIGCHAR:
            case TypeId.NVARCHAR:
            case TypeId.NCHAR:
                w.writeShort(maxLength);
                (collation == null ? Collation.SQL_LATIN1_GENERAL_CP1_CI_AS : collation).write(w);
                return;
            case TypeId.XML:
                w.writeByte(0); // no XML schema collection
                return;
            case TypeId.JSON:
                return;
            case TypeId.VECTOR:
                w.writeShort(maxLength).writeByte(scale);
                return;
            default:
                throw new IllegalStateException(String.format("cannot write TYPE_INFO 0x%02X", typeId));
        }
    }

    @Override
    public String toString() {
        return String.format("TypeInfo[0x%02X len=%d p=%d s=%d]", typeId, maxLength, precision, scale);
    }
}
