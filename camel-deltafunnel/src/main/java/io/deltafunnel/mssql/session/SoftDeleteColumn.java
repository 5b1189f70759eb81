package io.deltafunnel.mssql.session;

import java.sql.SQLException;
import java.util.Map;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SchemaEvolution;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.bind.TargetTable;
import io.deltafunnel.mssql.channel.SqlChannel;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code softDeleteColumn} of a {@code deleteMode=soft} merge (docs/incremental.md, "Soft deletes"): checked,
 * created or added before the run's transaction. It is a nullable {@code bit} (1 = deleted, 0 or NULL = not) or
 * {@code datetime2} (the delete's {@code _commit_timestamp}, NULL = not deleted), never a source column. A table that
 * {@code createTable} creates gets it in its {@code CREATE TABLE}; an existing table without it gets it by
 * {@code ALTER TABLE ... ADD} when {@code schemaEvolution} is {@code addColumns} or {@code widen}, else the run is
 * refused. Every refusal comes before anything is written. Stateless.
 */
public final class SoftDeleteColumn {

    private static final Logger LOG = LoggerFactory.getLogger(SoftDeleteColumn.class);

    private SoftDeleteColumn() {
    }

    /** The column's type when it is created: the configured one, else {@code bit}. */
    static String createType(BulkLoadSettings.Merge merge) {
        return merge.softDeleteType() == null ? "bit" : merge.softDeleteType();
    }

    /** {@code createTableDdl} ({@code CREATE TABLE t (...)}) with the soft-delete column added as its last column. */
    static String withColumn(String createTableDdl, BulkLoadSettings.Merge merge) {
        if (!createTableDdl.endsWith(")")) {
            throw new IllegalStateException("not a CREATE TABLE statement: " + createTableDdl);
        }
        return createTableDdl.substring(0, createTableDdl.length() - 1) + ", "
                + SqlIdentifiers.quote(merge.softDeleteColumn()) + " " + createType(merge) + " NULL)";
    }

    /**
     * Refuses a soft-delete column that a source column would be written into (by name or by
     * {@code columnMapping}), or that is a key column.
     */
    static void checkNotASourceColumn(Schema dataSchema, BulkLoadSettings settings, BulkLoadException.Context ctx) {
        String column = settings.merge().softDeleteColumn();
        for (Field f : dataSchema.getFields()) {
            String target = f.getName();
            for (Map.Entry<String, String> m : settings.columnMapping().entrySet()) {
                if (m.getKey().equalsIgnoreCase(f.getName())) {
                    target = m.getValue();
                }
            }
            if (target.equalsIgnoreCase(column)) {
                throw new ColumnMappingException("softDeleteColumn '" + column + "' is written by source column '"
                        + f.getName() + "': it must be a column of the target only, which deleteMode=soft sets",
                        ctx.withColumn(f.getName()));
            }
        }
        if (settings.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(column))) {
            throw new ColumnMappingException("softDeleteColumn '" + column + "' is a key column", ctx.withColumn(column));
        }
    }

    /**
     * Makes sure {@code table} has the soft-delete column of a fitting type, adding it when allowed (DDL, auto-commit
     * on, before the run's transaction; a concurrent run adding it too is tolerated: decided by the catalog).
     *
     * @param hasTimestamp the batches carry {@code _commit_timestamp} (a datetime2 column needs it for change rows)
     * @param changeRows   the batches are change rows
     * @return the column as {@link MergeStatement} uses it
     * @throws ColumnMappingException when the column is missing and may not be added, has a wrong type, or is a
     *                                datetime2 column the change rows have no timestamp for
     */
    static MergeStatement.SoftColumn ensure(SqlChannel channel, TargetTable table, BulkLoadSettings settings,
            boolean changeRows, boolean hasTimestamp, String runId, BulkLoadException.Context ctx)
            throws SQLException {
        BulkLoadSettings.Merge merge = settings.merge();
        String name = merge.softDeleteColumn();
        TargetColumn column = table.column(name);
        if (column == null) {
            if (settings.schemaEvolution() == SchemaEvolution.NONE) {
                throw new ColumnMappingException("softDeleteColumn '" + name + "' does not exist in " + table.name()
                        + " (add it as bit or datetime2 NULL, or set schemaEvolution=addColumns to add it; createTable"
                        + " adds it to a table it creates)", ctx.withColumn(name));
            }
            String sql = "ALTER TABLE " + table.name().quoted() + " ADD " + SqlIdentifiers.quote(name) + " "
                    + createType(merge) + " NULL";
            LOG.info("Run {}: schemaEvolution adds softDeleteColumn {} {} to {}", runId, name, createType(merge),
                    table.name());
            try {
                channel.execute(sql);
            } catch (SQLException e) {
                // another run (a shard) added it meanwhile: decided by the catalog, not the message
                if (TargetCatalog.describe(channel, table.name()).column(name) == null) {
                    throw e;
                }
            }
            column = TargetCatalog.describe(channel, table.name()).column(name);
            if (column == null) {
                throw new ColumnMappingException("softDeleteColumn '" + name + "' was added to " + table.name()
                        + " but the catalog does not show it", ctx.withColumn(name));
            }
        }
        String type = column.dataType();
        if (!type.equals("bit") && !type.equals("datetime2")) {
            throw new ColumnMappingException("softDeleteColumn '" + column.name() + "' of " + table.name() + " is "
                    + column.typeText() + "; deleteMode=soft needs a bit (1 = deleted) or datetime2 (the delete's"
                    + " _commit_timestamp) column", ctx.withColumn(column.name()));
        }
        if (merge.softDeleteType() != null && !merge.softDeleteType().equals(type)) {
            throw new ColumnMappingException("softDeleteColumn '" + column.name() + "' of " + table.name() + " is "
                    + column.typeText() + ", not " + merge.softDeleteType() + " as softDeleteColumn says",
                    ctx.withColumn(column.name()));
        }
        if (!column.nullable()) {
            throw new ColumnMappingException("softDeleteColumn '" + column.name() + "' of " + table.name()
                    + " is NOT NULL; it must be nullable (the staging table copies it, and the bulk copy leaves it"
                    + " empty)", ctx.withColumn(column.name()));
        }
        boolean timestamp = type.equals("datetime2");
        if (timestamp && changeRows && !hasTimestamp) {
            throw new ColumnMappingException("softDeleteColumn '" + column.name() + "' is datetime2, set to the"
                    + " delete's _commit_timestamp, but the change rows carry no _commit_timestamp column",
                    ctx.withColumn(column.name()));
        }
        return new MergeStatement.SoftColumn(column.name(), timestamp);
    }
}
