package io.deltafunnel.camel;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.handoff.DeltaFunnelStateStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Route tests that load Delta tables the test writes itself into the emulator, one run at a time: a DuckDB connection
 * for writing the tables and reading their snapshots back ({@link #duck}, opened and closed per test), the emulator
 * bound as {@code #stateDs} for incremental and sharded state, and {@link #runs} to run routes for one poll each.
 */
abstract class DeltaRouteTestSupport extends EmulatorRouteTestSupport {

    /** The state tables a sharded or incremental run creates (default {@code stateTable}). */
    protected static final List<String> STATE_TABLES =
            List.of("deltafunnel_state", "deltafunnel_state_loads", "deltafunnel_state_shards");

    /** In-memory DuckDB, owned by the test: opened before and closed after each test. */
    protected Connection duck;
    /** Runs of this test; route ids start with the test class's simple name. */
    protected OneRunRoutes runs;

    @BeforeEach
    void openDuckAndBindStateDataSource() throws Exception {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        SQLServerDataSource ds = new SQLServerDataSource();
        ds.setURL(SERVER.emulator().jdbcUrl());
        ds.setUser(SERVER.emulator().user());
        ds.setPassword(SERVER.emulator().password());
        context.getRegistry().bind("stateDs", ds);
        runs = new OneRunRoutes(context, getClass().getSimpleName().replace("RouteTest", "").toLowerCase());
    }

    @AfterEach
    void closeDuck() throws Exception {
        duck.close();
    }

    /** Drops the state tables, so the test starts with no incremental state, load plan or shard rows. */
    protected void dropStateTables() throws Exception {
        for (String t : STATE_TABLES) {
            dropIfExists(t);
        }
    }

    /**
     * A state store that answers every read with {@code versions}, as a consumer does that did not learn of a commit
     * (it crashed right after it) and plans the same run again; writes go nowhere. The names are {@code real}'s.
     */
    protected static DeltaFunnelStateStore frozenStateStore(DeltaFunnelStateStore real, Map<String, Long> versions) {
        return new DeltaFunnelStateStore() {
            @Override
            public String tableName() {
                return real.tableName();
            }

            @Override
            public Map<String, Long> loadedVersions(String key) {
                return versions;
            }

            @Override
            public void reset(String key) {
            }
        };
    }
}
