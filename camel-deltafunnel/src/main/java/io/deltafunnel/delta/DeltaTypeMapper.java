package io.deltafunnel.delta;

import java.util.StringJoiner;

/** Maps Delta types to DuckDB type names (as DuckDB's own DESCRIBE spells them). */
final class DeltaTypeMapper {

    private DeltaTypeMapper() {
    }

    static String duckType(DeltaType type) {
        if (type instanceof DeltaType.Primitive p) {
            return switch (p.name()) {
                case "byte" -> "TINYINT";
                case "short" -> "SMALLINT";
                case "integer" -> "INTEGER";
                case "long" -> "BIGINT";
                case "float" -> "FLOAT";
                case "double" -> "DOUBLE";
                case "string", "void" -> "VARCHAR";
                case "binary" -> "BLOB";
                case "boolean" -> "BOOLEAN";
                case "date" -> "DATE";
                case "timestamp" -> "TIMESTAMP WITH TIME ZONE";
                case "timestamp_ntz" -> "TIMESTAMP";
                default -> throw new IllegalArgumentException("unknown primitive " + p.name());
            };
        }
        if (type instanceof DeltaType.Decimal d) {
            return "DECIMAL(" + d.precision() + "," + d.scale() + ")";
        }
        if (type instanceof DeltaType.Struct s) {
            StringJoiner j = new StringJoiner(", ", "STRUCT(", ")");
            for (DeltaColumn f : s.fields()) {
                j.add(SqlText.ident(f.name()) + " " + duckType(f.type()));
            }
            return j.toString();
        }
        if (type instanceof DeltaType.Array a) {
            return duckType(a.elementType()) + "[]";
        }
        if (type instanceof DeltaType.MapType m) {
            return "MAP(" + duckType(m.keyType()) + ", " + duckType(m.valueType()) + ")";
        }
        // variant: the struct the view hands to the reader, which decodes it into JSON text (see VariantStruct)
        return VariantStruct.duckType();
    }
}
