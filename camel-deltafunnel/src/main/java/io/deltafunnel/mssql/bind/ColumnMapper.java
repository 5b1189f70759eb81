package io.deltafunnel.mssql.bind;

import io.deltafunnel.mssql.BulkLoadSettings.TypeSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.arrow.read.FloatListColumnType;
import io.deltafunnel.arrow.read.UnsupportedArrowTypeException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.TableName;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Matches the Arrow schema's columns with the target table's, before any row is sent.
 *
 * <p>Explicit {@code source:target} pairs win; every other source column maps to the target column of the same
 * name, compared case-insensitively. Fails with {@link ColumnMappingException} when a source column has no target,
 * a NOT NULL target column has no source, two sources map to one target, a mapping names an unknown column, or a
 * source type cannot go into its target column type (for an Arrow type that has no reader at all, caused by an
 * {@link UnsupportedArrowTypeException}).
 */
public final class ColumnMapper {

    private ColumnMapper() {
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** The target column name for each source field (explicit mapping first, else the field's own name). */
    static List<String> targetNames(Schema schema, Map<String, String> explicit, BulkLoadException.Context ctx) {
        Map<String, String> byLowerSource = new HashMap<>();
        explicit.forEach((k, v) -> byLowerSource.put(lower(k), v));
        Set<String> sources = new HashSet<>();
        for (Field f : schema.getFields()) {
            sources.add(lower(f.getName()));
        }
        for (String src : explicit.keySet()) {
            if (!sources.contains(lower(src))) {
                throw new ColumnMappingException("columnMapping names source column '" + src
                        + "', which the Arrow batch does not have (it has " + names(schema) + ")", ctx.withColumn(src));
            }
        }
        List<String> out = new ArrayList<>();
        for (Field f : schema.getFields()) {
            out.add(byLowerSource.getOrDefault(lower(f.getName()), f.getName()));
        }
        return out;
    }

    public static List<BoundColumn> bind(Schema schema, TargetTable table, Map<String, String> explicit,
            boolean temporalAsText, BulkLoadException.Context ctx) {
        List<String> targets = targetNames(schema, explicit, ctx);
        List<BoundColumn> out = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (int i = 0; i < schema.getFields().size(); i++) {
            Field field = schema.getFields().get(i);
            ArrowColumnType type;
            try {
                type = ArrowColumnTypes.forField(field);
            } catch (UnsupportedArrowTypeException e) {
                throw new ColumnMappingException(e.reason(), ctx.withColumn(field.getName()), e);
            }
            TargetColumn target = table.column(targets.get(i));
            if (target == null) {
                throw new ColumnMappingException("source column '" + field.getName() + "' has no target column"
                        + (targets.get(i).equals(field.getName()) ? "" : " '" + targets.get(i) + "'")
                        + " in " + table.name() + " (target columns: " + table.columns().stream()
                                .map(TargetColumn::name).toList() + ")", ctx.withColumn(field.getName()));
            }
            if (!used.add(lower(target.name()))) {
                throw new ColumnMappingException("two source columns map to target column '" + target.name() + "'",
                        ctx.withColumn(field.getName()));
            }
            TargetBinding binding;
            try {
                binding = TargetBinding.of(type.kind(), target, temporalAsText);
                binding.checkSource(type);
            } catch (IllegalArgumentException e) {
                throw new ColumnMappingException("source column '" + field.getName() + "' (" + field.getType()
                        + ") cannot go into target column '" + target.name() + "': " + e.getMessage(),
                        ctx.withColumn(field.getName()));
            }
            out.add(new BoundColumn(i, field.getName(), type, target, binding));
        }
        for (TargetColumn c : table.columns()) {
            if (!c.nullable() && !c.serverFilled() && !used.contains(lower(c.name()))) {
                throw new ColumnMappingException("NOT NULL target column '" + c.name() + "' of " + table.name()
                        + " has no source column (source columns: " + names(schema) + ")", ctx.withColumn(c.name()));
            }
        }
        return out;
    }

    /**
     * Refuses a source column mapped to an identity column without {@code keepIdentity=true}: SQL Server numbers
     * identity columns itself, and the two write paths would silently differ (mssql-jdbc drops such a mapping and the
     * server renumbers the rows; an INSERT ... SELECT or MERGE naming the column fails with 544).
     */
    public static void checkIdentity(List<BoundColumn> columns, boolean keepIdentity, TableName table,
            BulkLoadException.Context ctx) {
        if (keepIdentity) {
            return;
        }
        for (BoundColumn c : columns) {
            if (c.target().identity()) {
                throw new ColumnMappingException("source column '" + c.sourceName() + "' maps to identity column '"
                        + c.target().name() + "' of " + table + ", which SQL Server numbers itself: set"
                        + " keepIdentity=true to write the source's values, or leave the column out",
                        ctx.withColumn(c.sourceName()));
            }
        }
    }

    private static List<String> names(Schema schema) {
        return schema.getFields().stream().map(Field::getName).toList();
    }

    /** CREATE TABLE for the Arrow schema, with the mapped target names; each part quoted. */
    public static String createTableSql(TableName table, Schema schema, Map<String, String> explicit,
            BulkLoadException.Context ctx) {
        return createTableSql(table, schema, explicit, ctx, TypeSettings.DEFAULT);
    }

    /**
     * CREATE TABLE for the Arrow schema with {@code types}: json for nested columns and vector(n) for
     * FixedSizeList&lt;Float32|Float64&gt;(n) columns where they are native (a FixedSizeList beyond 1998 elements
     * is refused, naming the column).
     */
    public static String createTableSql(TableName table, Schema schema, Map<String, String> explicit,
            BulkLoadException.Context ctx, TypeSettings types) {
        List<String> targets = targetNames(schema, explicit, ctx);
        StringBuilder sql = new StringBuilder("CREATE TABLE ").append(table.quoted()).append(" (");
        for (int i = 0; i < schema.getFields().size(); i++) {
            Field field = schema.getFields().get(i);
            String type;
            try {
                type = nativeType(ArrowColumnTypes.forField(field), types, field.getName(), ctx);
                if (type == null) {
                    type = ArrowColumnTypes.createTableType(field);
                }
            } catch (UnsupportedArrowTypeException e) {
                throw new ColumnMappingException(e.reason(), ctx.withColumn(field.getName()), e);
            }
            if (i > 0) {
                sql.append(", ");
            }
            sql.append(SqlIdentifiers.quote(targets.get(i))).append(' ').append(type)
                    .append(field.isNullable() ? " NULL" : " NOT NULL");
        }
        return sql.append(')').toString();
    }

    /** The SQL Server 2025 type of a column where {@code types} makes it native, else null. */
    private static String nativeType(ArrowColumnType type, TypeSettings types, String column,
            BulkLoadException.Context ctx) {
        if (types.nativeVector() && type instanceof FloatListColumnType floats && floats.fixedSize() > 0) {
            if (floats.fixedSize() > MAX_VECTOR_DIMENSIONS) {
                throw new ColumnMappingException("vectorColumns=native: column '" + column + "' has "
                        + floats.fixedSize() + " elements per row, more than the " + MAX_VECTOR_DIMENSIONS
                        + " of a float32 vector", ctx.withColumn(column));
            }
            return "vector(" + floats.fixedSize() + ")";
        }
        if (types.nativeJson() && type.kind() == io.deltafunnel.arrow.read.ValueKind.JSON) {
            return "json";
        }
        return null;
    }

    /** The most dimensions of a float32 vector (SQL Server 2025). */
    static final int MAX_VECTOR_DIMENSIONS = io.deltafunnel.tds.VectorCodec.MAX_FLOAT32_DIMENSIONS;
}
