package io.deltafunnel.tds;

/** TYPE_INFO type identifiers (MS-TDS 2.2.5.4). */
public final class TypeId {
    // fixed-length
    public static final int NULL = 0x1F;
    public static final int INT1 = 0x30;
    public static final int BIT = 0x32;
    public static final int INT2 = 0x34;
    public static final int INT4 = 0x38;
    public static final int DATETIM4 = 0x3A;
    public static final int FLT4 = 0x3B;
    public static final int MONEY = 0x3C;
    public static final int DATETIME = 0x3D;
    public static final int FLT8 = 0x3E;
    public static final int MONEY4 = 0x7A;
    public static final int INT8 = 0x7F;
    // byte-length
    public static final int GUID = 0x24;
    public static final int INTN = 0x26;
    public static final int DECIMAL = 0x37;
    public static final int NUMERIC = 0x3F;
    public static final int BITN = 0x68;
    public static final int DECIMALN = 0x6A;
    public static final int NUMERICN = 0x6C;
    public static final int FLTN = 0x6D;
    public static final int MONEYN = 0x6E;
    public static final int DATETIMN = 0x6F;
    public static final int DATEN = 0x28;
    public static final int TIMEN = 0x29;
    public static final int DATETIME2N = 0x2A;
    public static final int DATETIMEOFFSETN = 0x2B;
    // ushort-length
    public static final int BIGVARBINARY = 0xA5;
    public static final int BIGVARCHAR = 0xA7;
    public static final int BIGBINARY = 0xAD;
    public static final int BIGCHAR = 0xAF;
    public static final int NVARCHAR = 0xE7;
    public static final int NCHAR = 0xEF;
    // long-length
    public static final int TEXT = 0x23;
    public static final int IMAGE = 0x22;
    public static final int NTEXT = 0x63;
    public static final int SSVARIANT = 0x62;
    public static final int XML = 0xF1;
    /** CLR user-defined types (geography, geometry, hierarchyid, ...): ushort max length, PLP at 0xFFFF. */
    public static final int UDT = 0xF0;
    /**
     * json (SQL Server 2025, with the JSONSUPPORT feature acknowledged): TYPE_INFO is the type byte alone, values are
     * PLP UTF-8 text. Without the feature the server describes json columns as nvarchar(max).
     */
    public static final int JSON = 0xF4;
    /**
     * vector(n) (SQL Server 2025, with VECTORSUPPORT acknowledged): TYPE_INFO is USHORT max length (8 + n * element
     * size) and a BYTE dimension type ({@link VectorCodec}); values are USHORT length + bytes, 0xFFFF for NULL.
     * Without the feature the server sends the vector's JSON text as varchar(max).
     */
    public static final int VECTOR = 0xF5;

    /** USHORTMAXLEN: marks a (max) type travelling as PLP. */
    public static final int USHORT_MAX = 0xFFFF;

    private TypeId() {
    }

    /** Fixed-length types: length in bytes, or -1 if the type is not fixed-length. */
    public static int fixedLength(int typeId) {
        switch (typeId) {
            case NULL: return 0;
            case INT1: case BIT: return 1;
            case INT2: return 2;
            case INT4: case DATETIM4: case FLT4: case MONEY4: return 4;
            case MONEY: case DATETIME: case FLT8: case INT8: return 8;
            default: return -1;
        }
    }

    public static boolean isCharacter(int typeId) {
        return typeId == BIGVARCHAR || typeId == BIGCHAR || typeId == NVARCHAR || typeId == NCHAR
                || typeId == TEXT || typeId == NTEXT;
    }

    public static boolean isUnicode(int typeId) {
        return typeId == NVARCHAR || typeId == NCHAR || typeId == NTEXT;
    }

    public static boolean isBinary(int typeId) {
        return typeId == BIGVARBINARY || typeId == BIGBINARY || typeId == IMAGE;
    }
}
