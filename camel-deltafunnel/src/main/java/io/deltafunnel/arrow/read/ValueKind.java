package io.deltafunnel.arrow.read;

/**
 * The canonical Java value a source column yields, independent of its exact Arrow type. It decides which SQL Server
 * column types the column can be written to.
 */
public enum ValueKind {
    /** {@link ColumnReader#getLong}: 0 or 1. */
    BOOLEAN,
    /** {@link ColumnReader#getLong}: an exact integer. */
    INTEGER,
    /** {@link ColumnReader#getObject}: a {@link java.math.BigDecimal}. */
    DECIMAL,
    /** {@link ColumnReader#getDouble}: a value that is exactly a float. */
    FLOAT32,
    /** {@link ColumnReader#getDouble}. */
    FLOAT64,
    /** {@link ColumnReader#getObject}: a {@link String}. */
    STRING,
    /** {@link ColumnReader#getObject}: a {@code byte[]}. */
    BINARY,
    /** {@link ColumnReader#getObject}: a {@link java.util.UUID}. */
    UUID,
    /** {@link ColumnReader#getObject}: a {@link java.time.LocalDate}. */
    DATE,
    /** {@link ColumnReader#getObject}: a {@link java.time.LocalTime} (nanosecond resolution). */
    TIME,
    /** {@link ColumnReader#getObject}: a {@link java.time.LocalDateTime} (nanosecond resolution). */
    TIMESTAMP,
    /** {@link ColumnReader#getObject}: an {@link java.time.OffsetDateTime} (nanosecond resolution). */
    TIMESTAMP_TZ,
    /** {@link ColumnReader#getObject}: a JSON text {@link String} (lists, structs, maps). */
    JSON
}
