package io.deltafunnel.emulator.semantics;

import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.DecimalCodec;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.VectorCodec;

import java.util.Locale;

/**
 * A SQL Server column type as declared (e.g. nvarchar(50), decimal(18,2), datetime2(7)). {@code length} is in
 * characters for char types (n-types included), in bytes for binary types, {@link #MAX} for (max), the dimension
 * count for {@code vector(n)}. {@code json} and {@code vector} (SQL Server 2025) are stored in H2 as their JSON text;
 * what the client sees depends on the features its login negotiated ({@link #typeInfo(boolean, boolean)}).
 */
public final class SqlType {
    public static final int MAX = -1;

    /** SQL Server base types the emulator knows. */
    public enum Base {
        BIT, TINYINT, SMALLINT, INT, BIGINT, REAL, FLOAT, DECIMAL, NUMERIC, MONEY, SMALLMONEY, DATE, TIME, DATETIME,
        SMALLDATETIME, DATETIME2, DATETIMEOFFSET, CHAR, VARCHAR, NCHAR, NVARCHAR, TEXT, NTEXT, BINARY, VARBINARY,
        IMAGE, UNIQUEIDENTIFIER, XML, JSON, VECTOR
    }

    private final Base base;
    private final int length;
    private final int precision;
    private final int scale;
    /** The declared COLLATE of a character type, or null for the database default (SQL_Latin1_General_CP1_CI_AS). */
    private final Collation collation;

    private SqlType(Base base, int length, int precision, int scale) {
        this(base, length, precision, scale, null);
    }

    private SqlType(Base base, int length, int precision, int scale, Collation collation) {
        this.base = base;
        this.length = length;
        this.precision = precision;
        this.scale = scale;
        this.collation = collation;
    }

    /** This character type with an explicit collation (a column's {@code COLLATE}). */
    public SqlType withCollation(Collation c) {
        return new SqlType(base, length, precision, scale, c);
    }

    /** The collation of a character type (the declared one, else the default), null for other types. */
    public Collation collation() {
        if (!isCharacter()) {
            return null;
        }
        return collation != null ? collation : Collation.SQL_LATIN1_GENERAL_CP1_CI_AS;
    }

    /** sys.columns.collation_name / INFORMATION_SCHEMA.COLUMNS.COLLATION_NAME: null for non-character types. */
    public String collationName() {
        Collation c = collation();
        return c == null ? null : c.name();
    }

    public static SqlType of(Base base) {
        switch (base) {
            case DECIMAL:
            case NUMERIC:
                return new SqlType(base, 0, 18, 0);
            case TIME:
            case DATETIME2:
            case DATETIMEOFFSET:
                return new SqlType(base, 0, 0, 7);
            case CHAR:
            case VARCHAR:
            case NCHAR:
            case NVARCHAR:
            case BINARY:
            case VARBINARY:
                return new SqlType(base, 1, 0, 0);
            case TEXT:
            case NTEXT:
            case IMAGE:
            case XML:
            case JSON:
                return new SqlType(base, MAX, 0, 0);
            case FLOAT:
                return new SqlType(base, 0, 53, 0);
            default:
                return new SqlType(base, 0, 0, 0);
        }
    }

    public static SqlType withLength(Base base, int length) {
        return new SqlType(base, length, 0, 0);
    }

    public static SqlType decimal(Base base, int precision, int scale) {
        return new SqlType(base, 0, precision, scale);
    }

    public static SqlType withScale(Base base, int scale) {
        return new SqlType(base, 0, 0, scale);
    }

    public static SqlType floatOf(int mantissaBits) {
        return mantissaBits <= 24 ? of(Base.REAL) : of(Base.FLOAT);
    }

    public Base base() {
        return base;
    }

    public int length() {
        return length;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    public boolean isMax() {
        return length == MAX;
    }

    /** json or vector: SQL Server 2025 types whose wire form depends on the negotiated login features. */
    public boolean isModern() {
        return base == Base.JSON || base == Base.VECTOR;
    }

    public boolean isCharacter() {
        switch (base) {
            case CHAR: case VARCHAR: case NCHAR: case NVARCHAR: case TEXT: case NTEXT:
                return true;
            default:
                return false;
        }
    }

    public boolean isUnicode() {
        return base == Base.NCHAR || base == Base.NVARCHAR || base == Base.NTEXT;
    }

    public boolean isBinary() {
        return base == Base.BINARY || base == Base.VARBINARY || base == Base.IMAGE;
    }

    public boolean isFixedLengthString() {
        return base == Base.CHAR || base == Base.NCHAR || base == Base.BINARY;
    }

    /** Lower-case SQL Server type name (INFORMATION_SCHEMA DATA_TYPE). */
    public String name() {
        return base.name().toLowerCase(Locale.ROOT);
    }

    /** Declaration text, e.g. {@code nvarchar(max)}, {@code decimal(38,10)}. */
    public String declaration() {
        switch (base) {
            case CHAR: case VARCHAR: case NCHAR: case NVARCHAR: case BINARY: case VARBINARY:
                return name() + "(" + (isMax() ? "max" : Integer.toString(length)) + ")";
            case DECIMAL: case NUMERIC:
                return name() + "(" + precision + "," + scale + ")";
            case TIME: case DATETIME2: case DATETIMEOFFSET:
                return name() + "(" + scale + ")";
            case VECTOR:
                return "vector(" + length + ")";
            default:
                return name();
        }
    }

    /** H2 column type able to hold every value of this type exactly. */
    public String h2Type() {
        switch (base) {
            case BIT: return "BOOLEAN";
            case TINYINT: return "SMALLINT";
            case SMALLINT: return "SMALLINT";
            case INT: return "INTEGER";
            case BIGINT: return "BIGINT";
            case REAL: return "REAL";
            case FLOAT: return "DOUBLE PRECISION";
            case DECIMAL: case NUMERIC: return "NUMERIC(" + precision + "," + scale + ")";
            case MONEY: return "NUMERIC(19,4)";
            case SMALLMONEY: return "NUMERIC(10,4)";
            case DATE: return "DATE";
            case TIME: return "TIME(" + scale + ")";
            // stored with spare precision: the normalisation trigger / bulk path apply SQL Server's rounding
            case DATETIME: return "TIMESTAMP(7)";
            case SMALLDATETIME: return "TIMESTAMP(7)";
            case DATETIME2: return "TIMESTAMP(" + scale + ")";
            case DATETIMEOFFSET: return "TIMESTAMP(" + scale + ") WITH TIME ZONE";
            case CHAR: case NCHAR: return "CHAR(" + length + ")";
            case VARCHAR: case NVARCHAR: return isMax() ? "CHARACTER LARGE OBJECT" : "VARCHAR(" + length + ")";
            case TEXT: case NTEXT: return "CHARACTER LARGE OBJECT";
            case BINARY: return "BINARY(" + length + ")";
            case VARBINARY: return isMax() ? "BINARY LARGE OBJECT" : "VARBINARY(" + length + ")";
            case IMAGE: return "BINARY LARGE OBJECT";
            case UNIQUEIDENTIFIER: return "UUID";
            case XML: return "CHARACTER LARGE OBJECT";
            // the JSON text (a vector as its exact float32 elements)
            case JSON: case VECTOR: return "CHARACTER LARGE OBJECT";
            default: throw new IllegalStateException(base.name());
        }
    }

    /** TYPE_INFO used when this type is sent to a client that negotiated JSONSUPPORT and VECTORSUPPORT. */
    public TypeInfo typeInfo() {
        return typeInfo(true, true);
    }

    /**
     * TYPE_INFO used when this type is sent to the client (COLMETADATA, RETURNVALUE): without the feature, json
     * travels as nvarchar(max) and a vector as its JSON text in varchar(max), as SQL Server 2025 sends them to
     * down-level clients.
     */
    public TypeInfo typeInfo(boolean jsonFeature, boolean vectorFeature) {
        if (base == Base.JSON) {
            return jsonFeature ? TypeInfo.of(TypeId.JSON, TypeId.USHORT_MAX)
                    : new TypeInfo(TypeId.NVARCHAR, TypeId.USHORT_MAX, 0, 0, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS);
        }
        if (base == Base.VECTOR) {
            return vectorFeature
                    ? new TypeInfo(TypeId.VECTOR, VectorCodec.maxLength(length), 0, VectorCodec.DIMENSION_FLOAT32, null)
                    : new TypeInfo(TypeId.BIGVARCHAR, TypeId.USHORT_MAX, 0, 0, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS);
        }
        Collation c = collation();
        switch (base) {
            case BIT: return TypeInfo.of(TypeId.BITN, 1);
            case TINYINT: return TypeInfo.of(TypeId.INTN, 1);
            case SMALLINT: return TypeInfo.of(TypeId.INTN, 2);
            case INT: return TypeInfo.of(TypeId.INTN, 4);
            case BIGINT: return TypeInfo.of(TypeId.INTN, 8);
            case REAL: return TypeInfo.of(TypeId.FLTN, 4);
            case FLOAT: return TypeInfo.of(TypeId.FLTN, 8);
            case DECIMAL:
                return new TypeInfo(TypeId.DECIMALN, DecimalCodec.lengthForPrecision(precision), precision, scale, null);
            case NUMERIC:
                return new TypeInfo(TypeId.NUMERICN, DecimalCodec.lengthForPrecision(precision), precision, scale, null);
            case MONEY: return TypeInfo.of(TypeId.MONEYN, 8);
            case SMALLMONEY: return TypeInfo.of(TypeId.MONEYN, 4);
            case DATE: return TypeInfo.of(TypeId.DATEN, 3);
            case TIME: return new TypeInfo(TypeId.TIMEN, 0, 0, scale, null);
            case DATETIME: return TypeInfo.of(TypeId.DATETIMN, 8);
            case SMALLDATETIME: return TypeInfo.of(TypeId.DATETIMN, 4);
            case DATETIME2: return new TypeInfo(TypeId.DATETIME2N, 0, 0, scale, null);
            case DATETIMEOFFSET: return new TypeInfo(TypeId.DATETIMEOFFSETN, 0, 0, scale, null);
            case CHAR: return new TypeInfo(TypeId.BIGCHAR, length, 0, 0, c);
            case VARCHAR: return new TypeInfo(TypeId.BIGVARCHAR, isMax() ? TypeId.USHORT_MAX : length, 0, 0, c);
            case TEXT: return new TypeInfo(TypeId.BIGVARCHAR, TypeId.USHORT_MAX, 0, 0, c);
            case NCHAR: return new TypeInfo(TypeId.NCHAR, 2 * length, 0, 0, c);
            case NVARCHAR:
                return new TypeInfo(TypeId.NVARCHAR, isMax() ? TypeId.USHORT_MAX : 2 * length, 0, 0, c);
            case NTEXT: return new TypeInfo(TypeId.NVARCHAR, TypeId.USHORT_MAX, 0, 0, c);
            case BINARY: return TypeInfo.of(TypeId.BIGBINARY, length);
            case VARBINARY: return TypeInfo.of(TypeId.BIGVARBINARY, isMax() ? TypeId.USHORT_MAX : length);
            case IMAGE: return TypeInfo.of(TypeId.BIGVARBINARY, TypeId.USHORT_MAX);
            case UNIQUEIDENTIFIER: return TypeInfo.of(TypeId.GUID, 16);
            case XML: return TypeInfo.of(TypeId.XML, TypeId.USHORT_MAX);
            default: throw new IllegalStateException(base.name());
        }
    }

    /** sys.columns max_length: bytes, -1 for (max). */
    public int maxLengthBytes() {
        switch (base) {
            case BIT: case TINYINT: return 1;
            case SMALLINT: return 2;
            case INT: case REAL: case SMALLMONEY: case SMALLDATETIME: return 4;
            case BIGINT: case FLOAT: case MONEY: case DATETIME: return 8;
            case DECIMAL: case NUMERIC: return DecimalCodec.lengthForPrecision(precision);
            case DATE: return 3;
            case TIME: return scale <= 2 ? 3 : scale <= 4 ? 4 : 5;
            case DATETIME2: return (scale <= 2 ? 3 : scale <= 4 ? 4 : 5) + 3;
            case DATETIMEOFFSET: return (scale <= 2 ? 3 : scale <= 4 ? 4 : 5) + 5;
            case UNIQUEIDENTIFIER: return 16;
            case NCHAR: case NVARCHAR: return isMax() ? -1 : 2 * length;
            case TEXT: case NTEXT: case IMAGE: return 16;
            case XML: case JSON: return -1;
            case VECTOR: return VectorCodec.maxLength(length);
            default: return isMax() ? -1 : length;
        }
    }

    /** INFORMATION_SCHEMA.COLUMNS.NUMERIC_PRECISION (null when not numeric). */
    public Integer numericPrecision() {
        switch (base) {
            case TINYINT: return 3;
            case SMALLINT: return 5;
            case INT: return 10;
            case BIGINT: return 19;
            case REAL: return 24;
            case FLOAT: return 53;
            case DECIMAL: case NUMERIC: return precision;
            case MONEY: return 19;
            case SMALLMONEY: return 10;
            default: return null;
        }
    }

    public Integer numericScale() {
        switch (base) {
            case TINYINT: case SMALLINT: case INT: case BIGINT: return 0;
            case DECIMAL: case NUMERIC: return scale;
            case MONEY: case SMALLMONEY: return 4;
            default: return null;
        }
    }

    public Integer datetimePrecision() {
        switch (base) {
            case DATE: case SMALLDATETIME: return 0;
            case DATETIME: return 3;
            case TIME: case DATETIME2: case DATETIMEOFFSET: return scale;
            default: return null;
        }
    }

    /** CHARACTER_MAXIMUM_LENGTH: characters (or bytes for binary), -1 for (max), null otherwise. */
    public Integer characterMaximumLength() {
        switch (base) {
            case CHAR: case VARCHAR: case NCHAR: case NVARCHAR: case BINARY: case VARBINARY:
                return isMax() ? -1 : length;
            case TEXT: case IMAGE: return Integer.MAX_VALUE;
            case NTEXT: return Integer.MAX_VALUE / 2;
            case XML: case JSON: return -1;
            default: return null;
        }
    }

    /** sys.types system_type_id. */
    public int systemTypeId() {
        switch (base) {
            case BIT: return 104;
            case TINYINT: return 48;
            case SMALLINT: return 52;
            case INT: return 56;
            case BIGINT: return 127;
            case REAL: return 59;
            case FLOAT: return 62;
            case DECIMAL: return 106;
            case NUMERIC: return 108;
            case MONEY: return 60;
            case SMALLMONEY: return 122;
            case DATE: return 40;
            case TIME: return 41;
            case DATETIME: return 61;
            case SMALLDATETIME: return 58;
            case DATETIME2: return 42;
            case DATETIMEOFFSET: return 43;
            case CHAR: return 175;
            case VARCHAR: return 167;
            case NCHAR: return 239;
            case NVARCHAR: return 231;
            case TEXT: return 35;
            case NTEXT: return 99;
            case BINARY: return 173;
            case VARBINARY: return 165;
            case IMAGE: return 34;
            case UNIQUEIDENTIFIER: return 36;
            case XML: return 241;
            case JSON: return 244;
            // vector is a system type over varbinary: system_type_id 165, its own user_type_id
            case VECTOR: return 165;
            default: throw new IllegalStateException(base.name());
        }
    }

    /** sys.columns user_type_id: the system type id, except vector's own type id. */
    public int userTypeId() {
        return base == Base.VECTOR ? VECTOR_USER_TYPE_ID : systemTypeId();
    }

    /** The user_type_id the emulator gives vector (README: SQL Server's is not documented). */
    public static final int VECTOR_USER_TYPE_ID = 255;

    @Override
    public String toString() {
        return declaration();
    }
}
