package io.deltafunnel.mssql.shard;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import io.deltafunnel.mssql.channel.JdbcSqlChannel;

/**
 * Test helper: writes a load plan the way {@code docs/sharding.md} step 1 says the consumer does (in one
 * transaction, the load row read under {@code UPDLOCK, HOLDLOCK}; none found: the load row {@code open} and N
 * {@code pending} shard rows), so that producer tests need no consumer.
 */
final class ShardLoadPlans {

    private ShardLoadPlans() {
    }

    /** Creates the load tables when missing and opens load {@code loadId} with {@code shards} pending shards. */
    static void open(Connection c, String stateTable, String loadId, String loadKey, int shards) throws SQLException {
        ShardTables tables = ShardTables.of(stateTable);
        tables.ensure(new JdbcSqlChannel(c)); // not closed: the caller owns the connection
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (PreparedStatement ps = c.prepareStatement("SELECT [status] FROM " + tables.loads().quoted()
                    + " WITH (UPDLOCK, HOLDLOCK) WHERE [load_id] = ?")) {
                ps.setString(1, loadId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        throw new IllegalStateException("load " + loadId + " exists");
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + tables.loads().quoted()
                    + " ([load_id], [load_key], [shard_count], [status], [pins], [created_at])"
                    + " VALUES (?, ?, ?, ?, ?, SYSUTCDATETIME())")) {
                ps.setString(1, loadId);
                ps.setString(2, loadKey);
                ps.setInt(3, shards);
                ps.setString(4, LoadRowStatus.OPEN.text());
                ps.setString(5, "{}");
                ps.executeUpdate();
            }
            for (int i = 0; i < shards; i++) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + tables.shards().quoted()
                        + " ([load_id], [shard_index], [status]) VALUES (?, ?, ?)")) {
                    ps.setString(1, loadId);
                    ps.setInt(2, i);
                    ps.setString(3, ShardRowStatus.PENDING.text());
                    ps.executeUpdate();
                }
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
