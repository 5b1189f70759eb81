package io.deltafunnel.mssql.session;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.channel.SqlChannel;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A staging heap beside a target: its name, its creation as an empty copy of the target's columns (plus the change
 * columns of a change-row batch), the copy of its rows into the target, and its removal. Used by a replace/merge run
 * (one staging table per run) and by a sharded load (one per load, shared by its shards). Stateless apart from the
 * name; the caller owns the channel. Creation and removal are DDL: call them with auto-commit on, outside a
 * transaction.
 */
public final class StagingTable {

    /** SQL Server error 2714: "There is already an object named '%.*ls' in the database." */
    public static final int ALREADY_EXISTS = 2714;

    /** SQL Server error 3701: "Cannot drop the table '%.*ls', because it does not exist or you do not have permission." */
    static final int CANNOT_DROP = 3701;

    private final TableName name;

    public StagingTable(TableName name) {
        this.name = name;
    }

    public TableName name() {
        return name;
    }

    /** {@code <table>__df_<run id prefix>} in the target's schema, within SQL Server's 128-character limit. */
    public static TableName forRun(TableName target, String runId) {
        String suffix = "__df_" + sanitise(runId);
        return withSuffix(target, suffix.substring(0, Math.min(suffix.length(), 5 + 12)));
    }

    /**
     * {@code <table>__df_load_<load id>_<crc>} in the target's schema, within SQL Server's 128-character limit: the
     * staging table that the shards of one load share. The readable part is the id reduced to lower-case letters and
     * digits (at most 40 of them); {@code <crc>} is the CRC32 of the exact id (UTF-8, 8 hex digits), so that two ids
     * that differ only in other characters, or after the first 40, get different tables.
     */
    public static TableName forLoad(TableName target, String loadId) {
        String readable = sanitise(loadId);
        CRC32 crc = new CRC32();
        crc.update(loadId.getBytes(StandardCharsets.UTF_8));
        String suffix = "__df_load_" + readable.substring(0, Math.min(readable.length(), 40)) + "_"
                + String.format(Locale.ROOT, "%08x", crc.getValue());
        return withSuffix(target, suffix);
    }

    private static String sanitise(String id) {
        return id.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
    }

    private static TableName withSuffix(TableName target, String suffix) {
        String base = target.table();
        if (base.length() + suffix.length() > SqlIdentifiers.MAX_LENGTH) {
            base = base.substring(0, SqlIdentifiers.MAX_LENGTH - suffix.length());
        }
        return target.sibling(base + suffix);
    }

    /**
     * Creates the table ({@code SELECT TOP 0 * INTO}) from {@code target}'s columns, plus a nullable column for each
     * change column ({@link MergeStatement#isChangeColumn}) of {@code schema} when {@code changeRows}.
     *
     * @param tolerateExisting when true, a table of that name that exists already (or is created concurrently: SQL
     *                         Server error {@value #ALREADY_EXISTS}) is used as it is
     * @return true when this call created the table, false when it existed
     */
    public boolean create(SqlChannel c, TableName target, Schema schema, boolean changeRows, boolean tolerateExisting)
            throws SQLException {
        return create(c, target, null, schema, changeRows, tolerateExisting);
    }

    /**
     * As {@link #create(SqlChannel, TableName, Schema, boolean, boolean)}, with only {@code targetColumns} of the
     * target (in that order) when not null: a history run's staging table leaves out the target's history columns.
     */
    public boolean create(SqlChannel c, TableName target, List<String> targetColumns, Schema schema,
            boolean changeRows, boolean tolerateExisting) throws SQLException {
        if (tolerateExisting && TargetCatalog.find(c, name) != null) {
            return false;
        }
        StringBuilder extra = new StringBuilder();
        if (changeRows) {
            for (Field f : schema.getFields()) {
                if (MergeStatement.isChangeColumn(f.getName())) {
                    extra.append(", CAST(NULL AS ").append(ArrowColumnTypes.createTableType(f)).append(") AS ")
                            .append(SqlIdentifiers.quote(f.getName()));
                }
            }
        }
        try {
            String columns = targetColumns == null ? "*"
                    : targetColumns.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "));
            c.execute("SELECT TOP 0 " + columns + extra + " INTO " + name.quoted() + " FROM " + target.quoted());
            return true;
        } catch (SQLException e) {
            if (tolerateExisting && e.getErrorCode() == ALREADY_EXISTS) {
                return false; // created by another shard in the meantime
            }
            throw e;
        }
    }

    /**
     * Drops the table when it exists (existence through the catalog, a bound parameter; then a plain DROP). Another
     * session may drop it between the check and the DROP (two shards that both see the load done): SQL Server then
     * answers 3701, which also means "no permission", so the catalog is asked again and only a table that is really
     * gone counts as dropped.
     */
    public void drop(SqlChannel c) throws SQLException {
        if (TargetCatalog.find(c, name) != null) {
            try {
                c.execute("DROP TABLE " + name.quoted());
            } catch (SQLException e) {
                if (e.getErrorCode() != CANNOT_DROP || TargetCatalog.find(c, name) != null) {
                    throw e;
                }
            }
        }
    }

    /** {@code INSERT INTO target WITH (TABLOCK) (cols) SELECT cols FROM staging}. */
    public String insertInto(TableName target, List<BoundColumn> dataColumns) {
        String columnList = dataColumns.stream().map(col -> SqlIdentifiers.quote(col.target().name()))
                .collect(Collectors.joining(", "));
        return "INSERT INTO " + target.quoted() + " WITH (TABLOCK) (" + columnList + ") SELECT " + columnList
                + " FROM " + name.quoted();
    }

    @Override
    public String toString() {
        return name.toString();
    }
}
