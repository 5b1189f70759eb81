package io.deltafunnel.mssql.state;

import java.util.Map;

import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.mssql.channel.ConnectionProvider;
import io.deltafunnel.mssql.channel.JdbcSqlChannel;
import io.deltafunnel.mssql.channel.SqlChannel;

/** Reads (and on an operator reset deletes) a route's rows of the SQL Server {@link StateTable}. */
public final class MssqlStateStore implements DeltaFunnelStateStore {

    private final ConnectionProvider connections;
    private final StateTable table;

    public MssqlStateStore(ConnectionProvider connections, String tableName) {
        this.connections = connections;
        this.table = StateTable.parse(tableName);
    }

    @Override
    public String tableName() {
        return table.name().toString();
    }

    @Override
    public Map<String, Long> loadedVersions(String key) throws Exception {
        try (SqlChannel c = new JdbcSqlChannel(connections.open())) {
            table.ensure(c);
            return table.read(c, key);
        }
    }

    @Override
    public void reset(String key) throws Exception {
        try (SqlChannel c = new JdbcSqlChannel(connections.open())) {
            table.ensure(c);
            table.reset(c, key);
        }
    }
}
