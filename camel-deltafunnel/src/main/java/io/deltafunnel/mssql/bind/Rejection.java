package io.deltafunnel.mssql.bind;

/**
 * One value of a batch that its target column cannot take exactly: found by the client-side check of a batch
 * ({@link BatchCheck}) before anything is sent, in the same way for both bulk encoders. By default the first one fails
 * the run as a {@link ValueOutOfRangeException} (which carries it, {@link ValueOutOfRangeException#rejection()});
 * {@link BatchCheck#all} reports every one of a batch, for callers that set rejected rows aside.
 *
 * @param targetColumn the target column's name
 * @param targetType   the target column's type as T-SQL ({@link TargetColumn#typeText()}, e.g. {@code nvarchar(10)})
 * @param sourceColumn the source (Arrow) column's name
 * @param row          0-based index of the row in its batch
 * @param check        the stable name of the check that refused the value: one of the constants of this record
 *                     ({@link #TOO_LONG}, {@link #OUT_OF_RANGE}, {@link #NOT_NULL}, ...)
 * @param reason       the human-readable reason, e.g. {@code value of 11 characters is longer than nvarchar(10)...}
 */
public record Rejection(String targetColumn, String targetType, String sourceColumn, int row, String check,
        String reason) {

    /** NULL into a NOT NULL column. */
    public static final String NOT_NULL = "not-null";
    /** A number, date or time outside the range of the target type (or of Java's: an Arrow value beyond it). */
    public static final String OUT_OF_RANGE = "out-of-range";
    /** A decimal with a fractional part into an integer column. */
    public static final String FRACTIONAL_PART = "fractional-part";
    /** An integer other than 0 or 1 into bit. */
    public static final String NOT_BIT = "not-bit";
    /** More decimal places than the target's scale (it would be rounded). */
    public static final String SCALE = "scale";
    /** More digits than the target's precision. */
    public static final String PRECISION = "precision";
    /** A number the float/real target cannot represent exactly. */
    public static final String INEXACT = "inexact";
    /** NaN or an infinity (SQL Server has neither). */
    public static final String NAN = "nan";
    /** More fractional-second digits than the target keeps (datetime's 1/300 s, smalldatetime's minutes included). */
    public static final String FRACTIONAL_SECONDS = "fractional-seconds";
    /** A zone offset that is not a whole minute within +-14:00. */
    public static final String OFFSET = "offset";
    /** A string, binary or UUID longer than the target column. */
    public static final String TOO_LONG = "too-long";
    /** A character outside ASCII into a char/varchar/text column without a UTF-8 collation. */
    public static final String NON_ASCII = "non-ascii";
    /** A text that is not a UUID into uniqueidentifier. */
    public static final String BAD_UUID = "bad-uuid";
    /** A text that is not one JSON value (RFC 8259) into json. */
    public static final String NOT_JSON = "not-json";
    /** A list whose length differs from the vector(n) target's dimension count. */
    public static final String VECTOR_LENGTH = "vector-length";
    /** A list with a NULL element into vector(n). */
    public static final String NULL_ELEMENT = "null-element";
}
