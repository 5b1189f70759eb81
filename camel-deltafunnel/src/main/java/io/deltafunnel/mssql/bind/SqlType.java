package io.deltafunnel.mssql.bind;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The SQL Server column types of a target column, as {@code INFORMATION_SCHEMA.COLUMNS.DATA_TYPE} names them: parsed
 * once ({@link #parse}) when {@link TargetCatalog} describes a table, then carried by {@link TargetColumn#type()}.
 * Every choice by target type (the binding, the direct encoder, the declared type, the type text) is an exhaustive
 * switch on this enum, so a type added here does not compile until each of them handles it.
 *
 * <p>The constants are exactly the types the producer writes. Every other type the catalog can report (money,
 * smallmoney, xml, sql_variant, geography, geometry, hierarchyid, timestamp/rowversion, CLR types, float16 vectors...)
 * is {@link #UNSUPPORTED}: binding a source column to it is refused with the column's own type name
 * ({@link TargetColumn#dataType()}).
 */
public enum SqlType {
    TINYINT("tinyint"),
    SMALLINT("smallint"),
    INT("int"),
    BIGINT("bigint"),
    BIT("bit"),
    DECIMAL("decimal"),
    NUMERIC("numeric"),
    REAL("real"),
    FLOAT("float"),
    CHAR("char"),
    VARCHAR("varchar"),
    TEXT("text"),
    NCHAR("nchar"),
    NVARCHAR("nvarchar"),
    NTEXT("ntext"),
    BINARY("binary"),
    VARBINARY("varbinary"),
    IMAGE("image"),
    UNIQUEIDENTIFIER("uniqueidentifier"),
    DATE("date"),
    TIME("time"),
    DATETIME2("datetime2"),
    DATETIME("datetime"),
    SMALLDATETIME("smalldatetime"),
    DATETIMEOFFSET("datetimeoffset"),
    /** SQL Server 2025's json: valid JSON text (Utf8, or nested Arrow types rendered as JSON). */
    JSON("json"),
    /**
     * SQL Server 2025's vector(n) with float32 elements ({@link TargetColumn#precision()} is n): Arrow lists of
     * Float32/Float64 with n elements each.
     */
    VECTOR("vector"),
    /** Any type the producer does not write; the column's {@link TargetColumn#dataType()} keeps its name. */
    UNSUPPORTED(null);

    private static final Map<String, SqlType> BY_NAME = new HashMap<>();

    static {
        for (SqlType t : values()) {
            if (t.typeName != null) {
                BY_NAME.put(t.typeName, t);
            }
        }
    }

    private final String typeName;

    SqlType(String typeName) {
        this.typeName = typeName;
    }

    /** The catalog's (lower-case) name of the type, or null for {@link #UNSUPPORTED}. */
    public String typeName() {
        return typeName;
    }

    /**
     * The type named {@code dataType} (a DATA_TYPE value, any case), or {@link #UNSUPPORTED} for a type the producer
     * does not write.
     */
    public static SqlType parse(String dataType) {
        SqlType t = BY_NAME.get(dataType.trim().toLowerCase(Locale.ROOT));
        return t == null ? UNSUPPORTED : t;
    }

    /** nchar, nvarchar, ntext: UTF-16 text whatever the collation. */
    public boolean unicode() {
        return switch (this) {
            case NCHAR, NVARCHAR, NTEXT -> true;
            case TINYINT, SMALLINT, INT, BIGINT, BIT, DECIMAL, NUMERIC, REAL, FLOAT, CHAR, VARCHAR, TEXT, BINARY,
                    VARBINARY, IMAGE, UNIQUEIDENTIFIER, DATE, TIME, DATETIME2, DATETIME, SMALLDATETIME,
                    DATETIMEOFFSET, JSON, VECTOR, UNSUPPORTED -> false;
        };
    }

    /** char, varchar, text: single-byte text in the column collation's code page (or UTF-8 with a _UTF8 collation). */
    public boolean codePageText() {
        return switch (this) {
            case CHAR, VARCHAR, TEXT -> true;
            case TINYINT, SMALLINT, INT, BIGINT, BIT, DECIMAL, NUMERIC, REAL, FLOAT, NCHAR, NVARCHAR, NTEXT, BINARY,
                    VARBINARY, IMAGE, UNIQUEIDENTIFIER, DATE, TIME, DATETIME2, DATETIME, SMALLDATETIME,
                    DATETIMEOFFSET, JSON, VECTOR, UNSUPPORTED -> false;
        };
    }

    /** text, ntext, image: the deprecated large types, always without a length limit the producer checks. */
    public boolean legacyLarge() {
        return switch (this) {
            case TEXT, NTEXT, IMAGE -> true;
            case TINYINT, SMALLINT, INT, BIGINT, BIT, DECIMAL, NUMERIC, REAL, FLOAT, CHAR, VARCHAR, NCHAR, NVARCHAR,
                    BINARY, VARBINARY, UNIQUEIDENTIFIER, DATE, TIME, DATETIME2, DATETIME, SMALLDATETIME,
                    DATETIMEOFFSET, JSON, VECTOR, UNSUPPORTED -> false;
        };
    }
}
