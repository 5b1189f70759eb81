package io.deltafunnel.delta;

/**
 * How a Delta view hands a {@code variant} value to its reader: as a DuckDB {@code STRUCT} whose fields carry these
 * reserved names, in this order (the third only when the data file is shredded):
 *
 * <pre>
 * STRUCT("__deltafunnel_variant_metadata" BLOB, "__deltafunnel_variant_value" BLOB
 *        [, "__deltafunnel_variant_typed_value" &lt;the file's shredded type&gt;])
 * </pre>
 *
 * The metadata and value are the Parquet Variant binary encoding; {@code typed_value} is the shredded part (Parquet
 * Variant shredding), as DuckDB reads it. DuckDB SQL cannot turn this into JSON text, so the view keeps the raw
 * parts under names no Delta column uses, and {@code io.deltafunnel.query.VariantColumns} recognises them in each
 * Arrow batch and replaces the struct by its canonical JSON text (see DELTA.md, "Variant columns"). The same struct
 * appears wherever a variant sits: top level, struct field, list element, map value.
 */
public final class VariantStruct {

    /** The binary Variant metadata (the key dictionary). */
    public static final String METADATA = "__deltafunnel_variant_metadata";
    /** The binary Variant value; NULL where the value is fully shredded into {@link #TYPED_VALUE}. */
    public static final String VALUE = "__deltafunnel_variant_value";
    /** The shredded part, present only for shredded files. */
    public static final String TYPED_VALUE = "__deltafunnel_variant_typed_value";

    private VariantStruct() {
    }

    /** The DuckDB type of an unshredded variant in a view (also the type of a typed NULL variant). */
    static String duckType() {
        return "STRUCT(" + SqlText.ident(METADATA) + " BLOB, " + SqlText.ident(VALUE) + " BLOB)";
    }
}
