package io.deltafunnel.mssql.reject;

import java.sql.SQLException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlStatements;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.bind.TargetTable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table a run's rejected rows go to ({@code rejectTable}): created when missing (DDL, before the run's
 * transaction), refused when it exists with another shape, and written in the transaction of the loaded rows, so that
 * a rolled-back run leaves no rejects behind and a committed one has both.
 *
 * <p>Its columns ({@link #COLUMNS}): {@code run_id}, {@code route_key}, {@code target_table}, {@code batch_index},
 * {@code row_index}, {@code source_row} (JSON), {@code column_name}, {@code error_number} (SQL Server's, NULL for a
 * client-side rejection), {@code check_name} (the client-side check, NULL for a server-side rejection),
 * {@code message}, {@code rejected_at}. Values are bound as parameters.
 */
public final class RejectTable {

    private static final Logger LOG = LoggerFactory.getLogger(RejectTable.class);

    /** The columns (name, T-SQL type as created, data type as the catalog reports it), in order. */
    public static final List<String[]> COLUMNS = List.of(
            new String[] {"run_id", "nvarchar(64) NOT NULL", "nvarchar"},
            new String[] {"route_key", "nvarchar(256) NULL", "nvarchar"},
            new String[] {"target_table", "nvarchar(300) NOT NULL", "nvarchar"},
            new String[] {"batch_index", "bigint NOT NULL", "bigint"},
            new String[] {"row_index", "bigint NOT NULL", "bigint"},
            new String[] {"source_row", "nvarchar(max) NOT NULL", "nvarchar"},
            new String[] {"column_name", "nvarchar(128) NULL", "nvarchar"},
            new String[] {"error_number", "int NULL", "int"},
            new String[] {"check_name", "nvarchar(64) NULL", "nvarchar"},
            new String[] {"message", "nvarchar(max) NOT NULL", "nvarchar"},
            new String[] {"rejected_at", "datetime2(3) NOT NULL", "datetime2"});

    /** Rows per INSERT statement (11 parameters each, well below SQL Server's 2100). */
    private static final int ROWS_PER_INSERT = 100;
    /** rejected_at is UTC. */
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    private final TableName name;

    public RejectTable(TableName name) {
        this.name = name;
    }

    public TableName name() {
        return name;
    }

    /**
     * Creates the table when missing, else checks that it has the reject table's columns (names and data types).
     * DDL: call with auto-commit on, before the run's transaction.
     *
     * @param ctx the run's failure context
     * @throws RejectTableException when an existing table has another shape
     */
    public void ensure(SqlStatements c, BulkLoadException.Context ctx) throws SQLException {
        if (TargetCatalog.find(c, name) == null) {
            StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name.quoted()).append(" (");
            for (int i = 0; i < COLUMNS.size(); i++) {
                ddl.append(i == 0 ? "" : ", ").append('[').append(COLUMNS.get(i)[0]).append("] ")
                        .append(COLUMNS.get(i)[1]);
            }
            try {
                c.execute(ddl.append(')').toString());
                LOG.info("Created the DeltaFunnel reject table {}", name);
                return;
            } catch (SQLException e) {
                if (TargetCatalog.find(c, name) == null) { // not a concurrent creation
                    throw e;
                }
            }
        }
        checkShape(TargetCatalog.describe(c, name), ctx);
    }

    private void checkShape(TargetTable table, BulkLoadException.Context ctx) {
        Map<String, String> found = new TreeMap<>();
        for (TargetColumn col : table.columns()) {
            found.put(col.name().toLowerCase(Locale.ROOT), col.dataType().toLowerCase(Locale.ROOT));
        }
        List<String> wrong = new ArrayList<>();
        for (String[] col : COLUMNS) {
            String type = found.remove(col[0]);
            if (type == null) {
                wrong.add("column '" + col[0] + "' is missing");
            } else if (!type.equals(col[2])) {
                wrong.add("column '" + col[0] + "' is " + type + ", not " + col[2]);
            }
        }
        found.keySet().forEach(extra -> wrong.add("column '" + extra + "' is not a reject table column"));
        if (!wrong.isEmpty()) {
            throw new RejectTableException("rejectTable " + name + " exists with another shape: "
                    + String.join("; ", wrong) + " (expected " + expected() + "); nothing was written", ctx);
        }
    }

    private static String expected() {
        return String.join(", ", COLUMNS.stream().map(c -> c[0] + " " + c[1]).toList());
    }

    /** Inserts {@code rows} (in the caller's transaction). */
    public void insert(SqlStatements c, List<RejectedRow> rows) throws SQLException {
        for (int from = 0; from < rows.size(); from += ROWS_PER_INSERT) {
            List<RejectedRow> part = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_INSERT));
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(name.quoted()).append(" (");
            for (int i = 0; i < COLUMNS.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append('[').append(COLUMNS.get(i)[0]).append(']');
            }
            sql.append(") VALUES ");
            List<Object> params = new ArrayList<>(part.size() * COLUMNS.size());
            for (int r = 0; r < part.size(); r++) {
                sql.append(r == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS datetime2(3)))");
                RejectedRow row = part.get(r);
                params.add(row.runId());
                params.add(row.routeKey());
                params.add(row.targetTable());
                params.add(row.batchIndex());
                params.add(row.rowIndex());
                params.add(row.sourceRow());
                params.add(row.column());
                params.add(row.errorNumber());
                params.add(row.check());
                params.add(row.message());
                params.add(UTC.format(row.time()));
            }
            c.update(sql.toString(), params.toArray());
        }
    }

    /** An existing reject table of another shape, refused before anything is written. */
    public static final class RejectTableException extends BulkLoadException {
        private static final long serialVersionUID = 1L;

        public RejectTableException(String message, BulkLoadException.Context ctx) {
            super(message, ctx, null);
        }
    }
}
