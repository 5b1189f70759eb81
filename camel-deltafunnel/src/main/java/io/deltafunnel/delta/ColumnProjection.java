package io.deltafunnel.delta;

import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Builds the SQL expression that turns a Parquet column (as DuckDB reads it, {@link DuckType}) into the Delta column
 * the view exposes: renames physical (column-mapped) nested field names to logical ones, casts widened types to the
 * table's current type, converts timestamps as UTC whatever the session time zone, and yields typed NULLs for fields
 * a file does not have, and hands variants over as a {@link VariantStruct}. An unchanged column stays a bare column reference so that DuckDB can push filters into the
 * Parquet scan.
 */
final class ColumnProjection {

    /** An expression and whether it is the unchanged input. */
    record Expr(String sql, boolean identity) {
    }

    private ColumnProjection() {
    }

    static Expr project(String input, DeltaType target, DuckType physical, int depth) {
        if (physical == null) {
            return new Expr(nullOf(target), false);
        }
        if (target instanceof DeltaType.Primitive p) {
            return primitive(input, p.name(), physical);
        }
        if (target instanceof DeltaType.Decimal) {
            return castUnlessSame(input, DeltaTypeMapper.duckType(target), physical);
        }
        if (target instanceof DeltaType.Struct s) {
            return struct(input, s, physical, depth);
        }
        if (target instanceof DeltaType.Array a) {
            if (!physical.is("LIST")) {
                return new Expr("CAST(" + input + " AS " + DeltaTypeMapper.duckType(target) + ")", false);
            }
            String var = "e" + depth;
            Expr element = project(var, a.elementType(), physical.element(), depth + 1);
            if (element.identity()) {
                return new Expr(input, true);
            }
            return new Expr("list_transform(" + input + ", lambda " + var + ": " + element.sql() + ")", false);
        }
        if (target instanceof DeltaType.MapType m) {
            if (!physical.is("MAP")) {
                return new Expr("CAST(" + input + " AS " + DeltaTypeMapper.duckType(target) + ")", false);
            }
            String var = "m" + depth;
            Expr key = project(var + ".key", m.keyType(), physical.key(), depth + 1);
            Expr value = project(var + ".value", m.valueType(), physical.value(), depth + 1);
            if (key.identity() && value.identity()) {
                return new Expr(input, true);
            }
            return new Expr("map_from_entries(list_transform(map_entries(" + input + "), lambda " + var
                    + ": struct_pack(key := " + key.sql() + ", value := " + value.sql() + ")))", false);
        }
        if (target instanceof DeltaType.Variant) {
            return new Expr(variant(input, physical), false);
        }
        throw new IllegalArgumentException("no projection for Delta type " + target.simpleString());
    }

    /**
     * A variant as the {@link VariantStruct} the reader decodes: the file's {@code metadata}, {@code value} and, when
     * shredded, {@code typed_value}, renamed to the reserved field names. DuckDB reads a Parquet group without the
     * {@code VARIANT} annotation (what Spark 4.0 / Delta 3.x-4.0 write) as a plain {@code STRUCT}; a group with it as its
     * own {@code VARIANT} type, which {@code variant_to_parquet_variant} turns back into unshredded binary parts.
     */
    private static String variant(String input, DuckType physical) {
        String metadata;
        String value;
        String typed = null;
        if (physical.is("VARIANT")) {
            String parts = "CAST(variant_to_parquet_variant(" + input + ") AS STRUCT(metadata BLOB, \"value\" BLOB))";
            metadata = "struct_extract(" + parts + ", 'metadata')";
            value = "struct_extract(" + parts + ", 'value')";
        } else {
            Map<String, DuckType> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            if (physical.is("STRUCT")) {
                fields.putAll(physical.fields());
            }
            if (!fields.containsKey("metadata") || !(fields.containsKey("value") || fields.containsKey("typed_value"))) {
                throw new IllegalArgumentException("a variant column must be stored as a group of metadata, value "
                        + "[and typed_value], but the data file has " + physical.render());
            }
            metadata = "struct_extract(" + input + ", 'metadata')";
            value = fields.containsKey("value") ? "struct_extract(" + input + ", 'value')" : "CAST(NULL AS BLOB)";
            if (fields.containsKey("typed_value")) {
                typed = "struct_extract(" + input + ", 'typed_value')";
            }
        }
        StringJoiner packed = new StringJoiner(", ", "struct_pack(", ")");
        packed.add(SqlText.ident(VariantStruct.METADATA) + " := " + metadata);
        packed.add(SqlText.ident(VariantStruct.VALUE) + " := " + value);
        if (typed != null) {
            packed.add(SqlText.ident(VariantStruct.TYPED_VALUE) + " := " + typed);
        }
        return "CASE WHEN " + input + " IS NULL THEN NULL ELSE " + packed + " END";
    }

    private static Expr struct(String input, DeltaType.Struct target, DuckType physical, int depth) {
        if (!physical.is("STRUCT")) {
            return new Expr("CAST(" + input + " AS " + DeltaTypeMapper.duckType(target) + ")", false);
        }
        Map<String, DuckType> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        byName.putAll(physical.fields());
        boolean identity = physical.fields().size() == target.fields().size();
        StringJoiner packed = new StringJoiner(", ", "struct_pack(", ")");
        int i = 0;
        String[] physicalNames = physical.fields().keySet().toArray(new String[0]);
        for (DeltaColumn field : target.fields()) {
            DuckType childType = byName.get(field.physicalName());
            String access = "struct_extract(" + input + ", " + SqlText.literal(field.physicalName()) + ")";
            Expr child = childType == null ? new Expr(nullOf(field.type()), false)
                    : project(access, field.type(), childType, depth + 1);
            identity &= child.identity() && i < physicalNames.length && physicalNames[i].equals(field.name());
            packed.add(SqlText.ident(field.name()) + " := " + child.sql());
            i++;
        }
        if (identity) {
            return new Expr(input, true);
        }
        return new Expr("CASE WHEN " + input + " IS NULL THEN NULL ELSE " + packed + " END", false);
    }

    private static Expr primitive(String input, String deltaName, DuckType physical) {
        String p = physical.name();
        switch (deltaName) {
            case "timestamp":
                if (p.equals("TIMESTAMP WITH TIME ZONE")) {
                    return new Expr(input, true);
                }
                if (p.startsWith("TIMESTAMP")) {
                    String naive = p.equals("TIMESTAMP") ? input : "CAST(" + input + " AS TIMESTAMP)";
                    return new Expr("timezone('UTC', " + naive + ")", false);
                }
                if (p.equals("DATE")) {
                    return new Expr("timezone('UTC', CAST(" + input + " AS TIMESTAMP))", false);
                }
                return new Expr("CAST(" + input + " AS TIMESTAMP WITH TIME ZONE)", false);
            case "timestamp_ntz":
                if (p.equals("TIMESTAMP")) {
                    return new Expr(input, true);
                }
                if (p.equals("TIMESTAMP WITH TIME ZONE")) {
                    return new Expr("timezone('UTC', " + input + ")", false);
                }
                return new Expr("CAST(" + input + " AS TIMESTAMP)", false);
            case "void":
                return new Expr("CAST(NULL AS VARCHAR)", false);
            default:
                return castUnlessSame(input, DeltaTypeMapper.duckType(new DeltaType.Primitive(deltaName)), physical);
        }
    }

    private static Expr castUnlessSame(String input, String duckTarget, DuckType physical) {
        if (DuckType.parse(duckTarget).equals(physical)) {
            return new Expr(input, true);
        }
        return new Expr("CAST(" + input + " AS " + duckTarget + ")", false);
    }

    static String nullOf(DeltaType type) {
        return "CAST(NULL AS " + DeltaTypeMapper.duckType(type) + ")";
    }
}
