package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Refuses a table whose files shred one variant in ways DuckDB's {@code union_by_name} cannot read faithfully. When
 * files' schemas differ, the view reads them with {@code union_by_name}, which unifies each field's type across files:
 * a shredded {@code typed_value} that is BIGINT in one file and VARCHAR (or DOUBLE, DECIMAL...) in another is read as
 * the common type, so a value would be rendered as the wrong JSON type ({@code "42"} for {@code 42}, {@code 1.0} for
 * {@code 1}). Integer widths are the one unification that keeps the text (a number is written the same in any width),
 * so they are allowed; fields present in only some files are fine too (NULL elsewhere).
 */
final class ShreddingLayouts {

    private static final Set<String> INTEGERS = Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT");

    private ShreddingLayouts() {
    }

    /** Checks every variant of {@code columns} in one file per distinct schema against the unified schema. */
    static void check(Connection duckdb, String table, List<String> locations, List<DeltaColumn> columns,
            Map<String, DuckType> unified) throws DeltaException, SQLException {
        if (columns.stream().noneMatch(c -> c.type().containsVariant())) {
            return;
        }
        List<String> samples = new ArrayList<>();
        String signatures = "SELECT min(file_name) FROM (SELECT file_name, list(name || ':' || coalesce(duckdb_type, '') "
                + "|| ':' || coalesce(repetition_type, '') ORDER BY column_id) AS sig FROM parquet_schema("
                + SqlText.list(locations) + ") WHERE column_id > 0 GROUP BY file_name) GROUP BY sig ORDER BY 1";
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(signatures)) {
            while (rs.next()) {
                samples.add(rs.getString(1));
            }
        }
        for (String file : samples) {
            Map<String, DuckType> fileTypes = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM "
                    + "read_parquet(" + SqlText.list(List.of(file)) + ", hive_partitioning = false)")) {
                while (rs.next()) {
                    fileTypes.put(rs.getString(1), DuckType.parse(rs.getString(2)));
                }
            }
            for (DeltaColumn c : columns) {
                if (!c.type().containsVariant()) {
                    continue;
                }
                String conflict = conflict(c.type(), fileTypes.get(c.physicalName()), unified.get(c.physicalName()),
                        c.name(), false);
                if (conflict != null) {
                    throw new UnsupportedFeatureException(table, "variantShredding", "variant column " + c.name()
                            + " is shredded differently in the data files: " + conflict + " in " + file
                            + "; reading the files together would change the JSON type of the shredded values");
                }
            }
        }
    }

    /** The first shredded leaf whose type in the file differs from the unified type, described, or null. */
    private static String conflict(DeltaType type, DuckType file, DuckType unified, String path, boolean inVariant) {
        if (file == null || unified == null) {
            return null;
        }
        if (type instanceof DeltaType.Variant || inVariant) {
            if (file.is("STRUCT") && unified.is("STRUCT")) {
                Map<String, DuckType> u = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                u.putAll(unified.fields());
                for (Map.Entry<String, DuckType> f : file.fields().entrySet()) {
                    String found = conflict(type, f.getValue(), u.get(f.getKey()), path + "." + f.getKey(), true);
                    if (found != null) {
                        return found;
                    }
                }
                return null;
            }
            if (file.is("LIST") && unified.is("LIST")) {
                return conflict(type, file.element(), unified.element(), path + "[]", true);
            }
            if (file.equals(unified) || INTEGERS.contains(file.name()) && INTEGERS.contains(unified.name())) {
                return null;
            }
            return path + " is " + file.render() + " but " + unified.render() + " across the files";
        }
        if (type instanceof DeltaType.Struct s && file.is("STRUCT") && unified.is("STRUCT")) {
            Map<String, DuckType> f = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            f.putAll(file.fields());
            Map<String, DuckType> u = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            u.putAll(unified.fields());
            for (DeltaColumn field : s.fields()) {
                String found = conflict(field.type(), f.get(field.physicalName()), u.get(field.physicalName()),
                        path + "." + field.name(), false);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        if (type instanceof DeltaType.Array a && file.is("LIST") && unified.is("LIST")) {
            return conflict(a.elementType(), file.element(), unified.element(), path + "[]", false);
        }
        if (type instanceof DeltaType.MapType m && file.is("MAP") && unified.is("MAP")) {
            return conflict(m.valueType(), file.value(), unified.value(), path + "{}", false);
        }
        return null;
    }
}
