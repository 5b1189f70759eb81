package io.deltafunnel.mssql.bind;

import java.util.Locale;
import java.util.Objects;

/**
 * One column of the target table as INFORMATION_SCHEMA.COLUMNS describes it.
 *
 * @param name              exact column name
 * @param type              the column's type, parsed once from {@code dataType} ({@link SqlType#parse}); every
 *                          choice by target type switches on it
 * @param dataType          lower-case SQL Server type name as the catalog reports it (nvarchar, decimal, money,
 *                          ...): the text of messages, also for an {@link SqlType#UNSUPPORTED} type
 * @param maxLength         CHARACTER_MAXIMUM_LENGTH: characters for strings, bytes for binary, -1 for (max), null
 *                          for other types
 * @param precision         NUMERIC_PRECISION, or null; for a vector column its dimension count
 *                          ({@code sys.columns.vector_dimensions})
 * @param scale             NUMERIC_SCALE, or null; for a vector column the bytes per element (4 float32, 2
 *                          float16), as mssql-jdbc's {@code microsoft.sql.Vector} counts it
 * @param datetimePrecision DATETIME_PRECISION (fractional-second digits), or null
 * @param nullable          IS_NULLABLE = 'YES'
 * @param ordinal           ORDINAL_POSITION
 * @param collationName     COLLATION_NAME (character columns), or null when unknown or not a character column
 * @param serverFilled      the server fills the column when a load sends no value for it: it has a default
 *                          (COLUMN_DEFAULT), is an identity or a computed column
 * @param identity          an identity column (COLUMNPROPERTY IsIdentity): SQL Server numbers it; explicit values
 *                          need keepIdentity (bulk copy) or SET IDENTITY_INSERT (INSERT ... SELECT, MERGE)
 */
public record TargetColumn(String name, SqlType type, String dataType, Integer maxLength, Integer precision,
        Integer scale, Integer datetimePrecision, boolean nullable, int ordinal, String collationName,
        boolean serverFilled, boolean identity) {

    public TargetColumn {
        Objects.requireNonNull(type, "type");
        dataType = dataType.toLowerCase(Locale.ROOT);
    }

    /** A column whose type is parsed from its name ({@link SqlType#parse}). */
    public TargetColumn(String name, String dataType, Integer maxLength, Integer precision, Integer scale,
            Integer datetimePrecision, boolean nullable, int ordinal, String collationName, boolean serverFilled,
            boolean identity) {
        this(name, SqlType.parse(dataType), dataType, maxLength, precision, scale, datetimePrecision, nullable,
                ordinal, collationName, serverFilled, identity);
    }

    /** A column that is not an identity column. */
    public TargetColumn(String name, String dataType, Integer maxLength, Integer precision, Integer scale,
            Integer datetimePrecision, boolean nullable, int ordinal, String collationName, boolean serverFilled) {
        this(name, dataType, maxLength, precision, scale, datetimePrecision, nullable, ordinal, collationName,
                serverFilled, false);
    }

    /** A column whose collation is unknown (or irrelevant: not a character column). */
    public TargetColumn(String name, String dataType, Integer maxLength, Integer precision, Integer scale,
            Integer datetimePrecision, boolean nullable, int ordinal) {
        this(name, dataType, maxLength, precision, scale, datetimePrecision, nullable, ordinal, null, false);
    }

    /** A column without default, identity or computation. */
    public TargetColumn(String name, String dataType, Integer maxLength, Integer precision, Integer scale,
            Integer datetimePrecision, boolean nullable, int ordinal, String collationName) {
        this(name, dataType, maxLength, precision, scale, datetimePrecision, nullable, ordinal, collationName, false);
    }

    /** The column's type as T-SQL, e.g. {@code nvarchar(10)}, {@code decimal(5,2)}, {@code datetime2(7)}. */
    public String typeText() {
        return switch (type) {
            case CHAR, VARCHAR, NCHAR, NVARCHAR, BINARY, VARBINARY ->
                    dataType + "(" + (maxLength == null || maxLength < 0 ? "max" : maxLength) + ")";
            case DECIMAL, NUMERIC -> dataType + "(" + precision + "," + scale + ")";
            case DATETIME2, DATETIMEOFFSET, TIME ->
                    dataType + "(" + (datetimePrecision == null ? 7 : datetimePrecision) + ")";
            case VECTOR -> "vector(" + precision + (scale != null && scale == 2 ? ", float16)" : ")");
            case TINYINT, SMALLINT, INT, BIGINT, BIT, REAL, FLOAT, TEXT, NTEXT, IMAGE, UNIQUEIDENTIFIER, DATE,
                    DATETIME, SMALLDATETIME, JSON, UNSUPPORTED -> dataType;
        };
    }
}
