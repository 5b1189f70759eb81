package io.deltafunnel.delta;

import java.util.List;
import java.util.StringJoiner;

/**
 * A Delta data type from the table schema. {@link #simpleString()} renders it the way the conformance corpus writes
 * types ({@code decimal(10,2)}, {@code struct<a:integer>}, {@code array<string>}, {@code map<string,long>}).
 */
public sealed interface DeltaType {

    String simpleString();

    /** True when this type is, or contains anywhere inside it, a {@code variant}. */
    boolean containsVariant();

    /** A primitive type named as in the Delta protocol: string, long, integer, short, byte, float, double, boolean, binary, date, timestamp, timestamp_ntz, void. */
    record Primitive(String name) implements DeltaType {
        @Override
        public String simpleString() {
            return name;
        }

        @Override
        public boolean containsVariant() {
            return false;
        }
    }

    record Decimal(int precision, int scale) implements DeltaType {
        @Override
        public String simpleString() {
            return "decimal(" + precision + "," + scale + ")";
        }

        @Override
        public boolean containsVariant() {
            return false;
        }
    }

    record Struct(List<DeltaColumn> fields) implements DeltaType {
        public Struct {
            fields = List.copyOf(fields);
        }

        @Override
        public String simpleString() {
            StringJoiner j = new StringJoiner(",", "struct<", ">");
            for (DeltaColumn f : fields) {
                j.add(f.name() + ":" + f.type().simpleString());
            }
            return j.toString();
        }

        @Override
        public boolean containsVariant() {
            return fields.stream().anyMatch(f -> f.type().containsVariant());
        }
    }

    record Array(DeltaType elementType, boolean containsNull) implements DeltaType {
        @Override
        public String simpleString() {
            return "array<" + elementType.simpleString() + ">";
        }

        @Override
        public boolean containsVariant() {
            return elementType.containsVariant();
        }
    }

    record MapType(DeltaType keyType, DeltaType valueType, boolean valueContainsNull) implements DeltaType {
        @Override
        public String simpleString() {
            return "map<" + keyType.simpleString() + "," + valueType.simpleString() + ">";
        }

        @Override
        public boolean containsVariant() {
            return keyType.containsVariant() || valueType.containsVariant();
        }
    }

    record Variant() implements DeltaType {
        @Override
        public String simpleString() {
            return "variant";
        }

        @Override
        public boolean containsVariant() {
            return true;
        }
    }
}
