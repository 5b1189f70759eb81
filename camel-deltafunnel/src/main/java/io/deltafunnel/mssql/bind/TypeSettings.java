package io.deltafunnel.mssql.bind;

import java.util.Locale;

/**
 * The column types {@code createTable} gives Arrow columns that SQL Server 2025 has native types for: options
 * {@code jsonColumns} and {@code vectorColumns}, each {@code text} (the default, so that older servers keep working)
 * or {@code native}.
 *
 * @param nativeJson   jsonColumns=native: List, Struct and Map columns become {@code json} (text: nvarchar(max)
 *                     holding their JSON)
 * @param nativeVector vectorColumns=native: FixedSizeList&lt;Float32|Float64&gt;(n) columns become
 *                     {@code vector(n)} (text: nvarchar(max) holding the JSON array); a List of floats has no
 *                     length in its schema and stays text
 */
public record TypeSettings(boolean nativeJson, boolean nativeVector) {

    /** Both text. */
    public static final TypeSettings DEFAULT = new TypeSettings(false, false);

    /**
     * The settings of the option values {@code text} or {@code native} (case-insensitive; null is text).
     *
     * @throws IllegalArgumentException for any other value, naming the option
     */
    public static TypeSettings parse(String jsonColumns, String vectorColumns) {
        return new TypeSettings(isNative("jsonColumns", jsonColumns), isNative("vectorColumns", vectorColumns));
    }

    private static boolean isNative(String option, String value) {
        if (value == null) {
            return false;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "text" -> false;
            case "native" -> true;
            default -> throw new IllegalArgumentException(option + " must be text or native, got '" + value + "'");
        };
    }
}
