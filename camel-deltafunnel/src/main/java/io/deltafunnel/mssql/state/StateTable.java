package io.deltafunnel.mssql.state;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.channel.SqlChannel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state table of incremental loads, by default {@code [dbo].[deltafunnel_state]}:
 *
 * <pre>
 * CREATE TABLE [dbo].[deltafunnel_state] (
 *   [route]      nvarchar(128) NOT NULL,   -- the state key (consumer option stateKey, default the route id)
 *   [source]     nvarchar(320) NOT NULL,   -- the Delta table path (delta.&lt;view&gt; value)
 *   [version]    bigint        NOT NULL,   -- the last Delta version loaded
 *   [run_id]     nvarchar(64)  NULL,       -- the run that loaded it
 *   [updated_at] datetime2(3)  NOT NULL,   -- UTC
 *   PRIMARY KEY ([route], [source]))
 * </pre>
 *
 * Created automatically (outside any transaction) when missing. {@link #record} runs inside the caller's transaction,
 * the one that commits the run's data.
 */
public final class StateTable {

    public static final String DEFAULT_NAME = "dbo.deltafunnel_state";

    private static final Logger LOG = LoggerFactory.getLogger(StateTable.class);

    private final TableName name;

    public StateTable(TableName name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public static StateTable parse(String text) {
        return new StateTable(TableName.parse(text == null || text.isBlank() ? DEFAULT_NAME : text));
    }

    public TableName name() {
        return name;
    }

    /** Creates the table when missing; DDL, so call it with auto-commit on, outside a run's transaction. */
    public void ensure(SqlChannel c) throws SQLException {
        if (TargetCatalog.find(c, name) != null) {
            return;
        }
        try {
            c.execute("CREATE TABLE " + name.quoted() + " ([route] nvarchar(128) NOT NULL, [source] nvarchar(320)"
                    + " NOT NULL, [version] bigint NOT NULL, [run_id] nvarchar(64) NULL, [updated_at] datetime2(3)"
                    + " NOT NULL, PRIMARY KEY ([route], [source]))");
            LOG.info("Created the DeltaFunnel state table {}", name);
        } catch (SQLException e) {
            if (TargetCatalog.find(c, name) == null) { // not a concurrent creation
                throw e;
            }
        }
    }

    /** Source to version for {@code key}. */
    public Map<String, Long> read(SqlChannel c, String key) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Object[] row : c.query("SELECT [source], [version] FROM " + name.quoted() + " WHERE [route] = ?", key)) {
            out.put((String) row[0], ((Number) row[1]).longValue());
        }
        return out;
    }

    /** Deletes the rows of {@code key}. */
    public int reset(SqlChannel c, String key) throws SQLException {
        return (int) c.update("DELETE FROM " + name.quoted() + " WHERE [route] = ?", key);
    }

    /**
     * Records the run's versions, in the caller's open transaction. Each row must still hold the version the run was
     * planned from ({@link IncrementalLoad.Source#storedVersion()}, null = no row); otherwise the run was already
     * applied or the state moved, and a {@link StateConflictException} is thrown (the caller rolls back).
     */
    public void record(SqlChannel c, IncrementalLoad load, String runId, BulkLoadException.Context ctx) throws SQLException {
        for (IncrementalLoad.Source s : load.sources()) {
            List<Object[]> rows = c.query("SELECT [version] FROM " + name.quoted()
                    + " WITH (UPDLOCK, HOLDLOCK) WHERE [route] = ? AND [source] = ?", load.stateKey(), s.source());
            Long current = rows.isEmpty() ? null : ((Number) rows.get(0)[0]).longValue();
            if (!Objects.equals(current, s.storedVersion())) {
                throw new StateConflictException("state " + name + " of key '" + load.stateKey() + "', source "
                        + s.source() + " holds version " + current + ", but run " + runId + " was planned from "
                        + s.storedVersion() + " (already applied, or moved by another writer); the run is rolled"
                        + " back so that nothing is applied twice", ctx);
            }
            String sql = current == null
                    ? "INSERT INTO " + name.quoted() + " ([version], [run_id], [updated_at], [route], [source])"
                            + " VALUES (?, ?, SYSUTCDATETIME(), ?, ?)"
                    : "UPDATE " + name.quoted() + " SET [version] = ?, [run_id] = ?, [updated_at] = SYSUTCDATETIME()"
                            + " WHERE [route] = ? AND [source] = ?";
            c.update(sql, s.toVersion(), runId, load.stateKey(), s.source());
        }
    }
}
