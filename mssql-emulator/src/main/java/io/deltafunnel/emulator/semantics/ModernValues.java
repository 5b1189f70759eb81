package io.deltafunnel.emulator.semantics;

import io.deltafunnel.tds.JsonText;
import io.deltafunnel.tds.VectorCodec;

/**
 * Values of the SQL Server 2025 types {@code json} and {@code vector(n)} as the emulator stores them: a json value
 * is its text, checked to be one JSON value (RFC 8259; 13609 otherwise); a vector is the JSON array of its float32
 * elements, each written exactly ({@link Float#toString}), so that the binary form a client sends reads back bit for
 * bit. A text converted to a vector must be a JSON array of numbers (13670) with the column's dimension count
 * (42204).
 */
public final class ModernValues {
    private ModernValues() {
    }

    /** {@code text} as a json value, or 13609 naming the first unexpected character. */
    public static String json(String text) throws SqlServerError {
        int bad = JsonText.firstError(text);
        if (bad >= 0) {
            String ch = bad < text.length() ? String.valueOf(text.charAt(bad)) : "";
            throw ErrorCatalog.JSON_NOT_PROPERLY_FORMATTED.error("JSON text is not properly formatted. Unexpected"
                    + " character '" + ch + "' is found at position " + bad + ".");
        }
        return text;
    }

    /** A vector value (float[] from the wire, or text) for a {@code vector(dimensions)} column, as stored. */
    public static String vector(Object v, int dimensions) throws SqlServerError {
        float[] f;
        if (v instanceof float[]) {
            f = (float[]) v;
        } else if (v instanceof String) {
            f = VectorCodec.parseJson((String) v);
            if (f == null) {
                throw ErrorCatalog.VECTOR_CONVERSION_FAILED.error(
                        "The value cannot be converted to vector: a JSON array of numbers is expected.");
            }
        } else {
            throw ErrorCatalog.OPERAND_TYPE_CLASH.error("Operand type clash: " + v.getClass().getSimpleName()
                    + " is incompatible with vector");
        }
        if (f.length != dimensions) {
            throw ErrorCatalog.VECTOR_DIMENSION_MISMATCH.error("The vector dimensions " + dimensions + " and "
                    + f.length + " do not match.");
        }
        for (float x : f) {
            if (Float.isNaN(x) || Float.isInfinite(x)) {
                throw ErrorCatalog.VECTOR_CONVERSION_FAILED.error(
                        "The value cannot be converted to vector: a JSON array of numbers is expected.");
            }
        }
        return stored(f);
    }

    /** The stored (exact) text of a vector. */
    public static String stored(float[] f) {
        StringBuilder sb = new StringBuilder(f.length * 12 + 2).append('[');
        for (int i = 0; i < f.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(Float.toString(f[i]));
        }
        return sb.append(']').toString();
    }

    /** The elements of a stored vector. */
    public static float[] elements(String stored) {
        float[] f = VectorCodec.parseJson(stored);
        if (f == null) {
            throw new IllegalStateException("mssql-emulator: a stored vector is not a JSON array: " + stored);
        }
        return f;
    }
}
