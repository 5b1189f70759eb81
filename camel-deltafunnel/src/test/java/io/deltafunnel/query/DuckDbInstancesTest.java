package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared in-memory DuckDB instances (issue #29): connections of one instance per init SQL, TEMP objects private to
 * each connection, the init SQL run once per instance, a failed start not kept, ownership at close.
 */
class DuckDbInstancesTest {

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void connectionsShareOneInstanceButNotTheirTempViews() throws Exception {
        try (DuckDbInstances instances = new DuckDbInstances()) {
            DuckDbSettings settings = DuckDbSettings.inMemory().sharedBy(instances);
            try (Connection a = DuckDbConnections.open(settings); Connection b = DuckDbConnections.open(settings)) {
                assertEquals(1, instances.size(), "one instance for the same settings");
                run(a, "CREATE TABLE shared_t AS SELECT 42 AS v"); // a main-schema table: instance-wide
                assertEquals("42", one(b, "SELECT v FROM shared_t"), "the connections are of one instance");
                run(a, "CREATE TEMP VIEW t AS SELECT 'a' AS who");
                run(b, "CREATE TEMP VIEW t AS SELECT 'b' AS who"); // no clash: TEMP is per connection
                assertEquals("a", one(a, "SELECT who FROM t"));
                assertEquals("b", one(b, "SELECT who FROM t"));
            }
            try (Connection c = DuckDbConnections.open(settings)) {
                assertEquals("0", one(c, "SELECT count(*) FROM duckdb_views() WHERE temporary AND view_name = 't'"),
                        "a closed connection's TEMP views are gone");
            }
        }
    }

    @Test
    void initSqlRunsOncePerInstanceAndOtherInitSqlGetsItsOwnInstance() throws Exception {
        try (DuckDbInstances instances = new DuckDbInstances()) {
            // CREATE TABLE (not OR REPLACE) fails when run a second time on the same instance
            DuckDbSettings counted = new DuckDbSettings(null,
                    List.of("SET threads = 1", "CREATE TABLE started AS SELECT 1 AS n"), false).sharedBy(instances);
            try (Connection a = DuckDbConnections.open(counted); Connection b = DuckDbConnections.open(counted)) {
                assertEquals("1", one(b, "SELECT count(*) FROM started"));
                assertEquals("1", one(b, "SELECT current_setting('threads')"), "a GLOBAL setting reaches every connection");
            }
            try (Connection other = DuckDbConnections.open(DuckDbSettings.inMemory().sharedBy(instances))) {
                assertEquals(2, instances.size());
                assertEquals("0", one(other, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'started'"),
                        "other init SQL, another instance");
            }
        }
    }

    @Test
    void aFailedStartIsNotKeptAndNamesTheStatement() throws Exception {
        try (DuckDbInstances instances = new DuckDbInstances()) {
            DuckDbSettings bad = new DuckDbSettings(null, List.of("SET no_such_option = 1"), false).sharedBy(instances);
            SQLException e = assertThrows(SQLException.class, () -> DuckDbConnections.open(bad));
            assertTrue(e.getMessage().contains("SET no_such_option = 1"), e.getMessage());
            assertEquals(0, instances.size(), "nothing kept after a failed start");
            assertThrows(SQLException.class, () -> DuckDbConnections.open(bad), "the next open tries again");
        }
    }

    @Test
    void aConnectionHandedOutOutlivesTheRegistryWhichRefusesNewOnes() throws Exception {
        DuckDbInstances instances = new DuckDbInstances();
        DuckDbSettings settings = DuckDbSettings.inMemory().sharedBy(instances);
        try (Connection c = DuckDbConnections.open(settings)) {
            instances.close();
            assertEquals(0, instances.size());
            assertEquals("2", one(c, "SELECT 1 + 1"), "the caller's connection keeps the instance alive");
            assertThrows(IllegalStateException.class, () -> DuckDbConnections.open(settings));
        }
    }

    @Test
    void aDatabaseFileIsNotShared() {
        DuckDbInstances instances = new DuckDbInstances();
        assertThrows(IllegalArgumentException.class,
                () -> new DuckDbSettings("/tmp/x.duckdb", List.of(), false).sharedBy(instances));
        assertThrows(IllegalArgumentException.class,
                () -> instances.open(new DuckDbSettings("/tmp/x.duckdb", List.of(), false)));
        instances.close();
    }
}
