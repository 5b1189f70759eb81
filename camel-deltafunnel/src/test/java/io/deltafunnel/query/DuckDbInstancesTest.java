package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import io.deltafunnel.handoff.QuerySetupException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

    /**
     * Two runs read at once from one shared instance of a 2-core registry: the instance runs one thread while both
     * stream, two again when one has ended; both read every row (issue #29 §1).
     */
    @Test
    void concurrentStreamsRunTheInstanceOnFewerWorkersAndReadEveryRow() throws Exception {
        String sql = "SELECT range AS v FROM range(300000)";
        long expectedSum = 299_999L * 300_000L / 2;
        try (DuckDbInstances instances = new DuckDbInstances(2); BufferAllocator allocator = new RootAllocator()) {
            DuckDbSettings settings = DuckDbSettings.inMemory().sharedBy(instances);
            try (Connection probe = DuckDbConnections.open(settings)) {
                assumeTrue(Integer.parseInt(one(probe, "SELECT current_setting('threads')")) >= 2,
                        "DuckDB starts with one thread on this machine: nothing to give up");
                assertArrayEquals(new int[] {2, 0}, instances.threadsAndStreams(settings));
                long[] sums = new long[2];
                long[] rows = new long[2];
                try (QueryRun a = QueryRun.open("a", settings, List.of(), sql, 10_000, allocator)) {
                    assertArrayEquals(new int[] {2, 1}, instances.threadsAndStreams(settings));
                    assertEquals("2", one(probe, "SELECT current_setting('threads')"), "one stream: as started");
                    try (QueryRun b = QueryRun.open("b", settings, List.of(), sql, 10_000, allocator)) {
                        assertArrayEquals(new int[] {1, 2}, instances.threadsAndStreams(settings));
                        assertEquals("1", one(probe, "SELECT current_setting('threads')"), "two streams, two cores");
                        boolean aDone = false;
                        boolean bDone = false;
                        while (!aDone || !bDone) { // batch by batch, in turn
                            aDone = aDone || !read(a, sums, rows, 0);
                            bDone = bDone || !read(b, sums, rows, 1);
                        }
                    }
                    assertArrayEquals(new int[] {2, 1}, instances.threadsAndStreams(settings));
                    assertEquals("2", one(probe, "SELECT current_setting('threads')"), "b ended: back to two");
                    assertNull(a.next());
                }
                assertArrayEquals(new int[] {2, 0}, instances.threadsAndStreams(settings));
                assertArrayEquals(new long[] {300_000, 300_000}, rows);
                assertArrayEquals(new long[] {expectedSum, expectedSum}, sums);
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }

    private static boolean read(QueryRun run, long[] sums, long[] rows, int i) {
        try (ArrowBatch batch = run.next()) {
            if (batch == null) {
                return false;
            }
            BigIntVector v = (BigIntVector) batch.root().getVector(0);
            for (int r = 0; r < batch.rowCount(); r++) {
                sums[i] += v.get(r);
            }
            rows[i] += batch.rowCount();
            return true;
        }
    }

    @Test
    void initSqlThatSetsThreadsKeepsItsCount() throws Exception {
        try (DuckDbInstances instances = new DuckDbInstances(2); BufferAllocator allocator = new RootAllocator()) {
            DuckDbSettings settings = new DuckDbSettings(null, List.of("SET threads = 3"), false).sharedBy(instances);
            try (QueryRun a = QueryRun.open("a", settings, List.of(), "SELECT 1 AS v", 10, allocator);
                    QueryRun b = QueryRun.open("b", settings, List.of(), "SELECT 2 AS v", 10, allocator);
                    Connection probe = DuckDbConnections.open(settings)) {
                assertArrayEquals(new int[] {3, 2}, instances.threadsAndStreams(settings));
                assertEquals("3", one(probe, "SELECT current_setting('threads')"), "the user's count stays");
            }
            assertArrayEquals(new int[] {3, 0}, instances.threadsAndStreams(settings));
        }
    }

    /** The streams of all the registry's instances count: two instances with one stream each run one thread each. */
    @Test
    void streamsOfOtherInstancesCountToo() throws Exception {
        try (DuckDbInstances instances = new DuckDbInstances(2); BufferAllocator allocator = new RootAllocator()) {
            DuckDbSettings plain = DuckDbSettings.inMemory().sharedBy(instances);
            DuckDbSettings other = new DuckDbSettings(null, List.of("SET memory_limit = '1GB'"), false)
                    .sharedBy(instances);
            try (Connection p = DuckDbConnections.open(plain); Connection o = DuckDbConnections.open(other)) {
                assumeTrue(Integer.parseInt(one(p, "SELECT current_setting('threads')")) >= 2,
                        "DuckDB starts with one thread on this machine: nothing to give up");
                try (QueryRun a = QueryRun.open("a", plain, List.of(), "SELECT 1 AS v", 10, allocator)) {
                    assertEquals("2", one(o, "SELECT current_setting('threads')"), "one stream in all");
                    try (QueryRun b = QueryRun.open("b", other, List.of(), "SELECT 2 AS v", 10, allocator)) {
                        assertEquals(2, instances.size());
                        assertEquals("1", one(p, "SELECT current_setting('threads')"), "a's instance");
                        assertEquals("1", one(o, "SELECT current_setting('threads')"), "b's instance");
                        assertArrayEquals(new int[] {1, 2}, instances.threadsAndStreams(other));
                    }
                    assertEquals("2", one(p, "SELECT current_setting('threads')"), "b ended");
                    assertEquals("2", one(o, "SELECT current_setting('threads')"), "b's instance, no stream of its own");
                }
            }
        }
    }

    @Test
    void aRunWhoseQueryFailsToStartHoldsNoLease() throws Exception {
        try (DuckDbInstances instances = new DuckDbInstances(2); BufferAllocator allocator = new RootAllocator()) {
            DuckDbSettings settings = DuckDbSettings.inMemory().sharedBy(instances);
            try (QueryRun a = QueryRun.open("a", settings, List.of(), "SELECT 1 AS v", 10, allocator)) {
                QuerySetupException e = assertThrows(QuerySetupException.class, () -> QueryRun.open("b", settings, List.of(), "SELECT * FROM no_such_table", 10, allocator));
                assertTrue(e.getMessage().contains("no_such_table"), e.getMessage());
                assertArrayEquals(new int[] {instances.threadsAndStreams(settings)[0], 1},
                        instances.threadsAndStreams(settings), "only a's stream is counted");
            }
            assertEquals(0, instances.threadsAndStreams(settings)[1]);
        }
    }

    @Test
    void aLeaseEndedAfterTheRegistryClosedChangesNothing() throws Exception {
        DuckDbInstances instances = new DuckDbInstances(2);
        DuckDbSettings settings = DuckDbSettings.inMemory().sharedBy(instances);
        try (Connection c = DuckDbConnections.open(settings)) {
            DuckDbInstances.StreamLease first = instances.streamStarted(settings);
            DuckDbInstances.StreamLease second = instances.streamStarted(settings);
            instances.close();
            second.close(); // the registry's connection is closed: no SET on it
            first.close();
            first.close(); // twice: nothing
            assertEquals("2", one(c, "SELECT 1 + 1"));
        }
        assertThrows(IllegalStateException.class, () -> instances.streamStarted(settings),
                "no instance runs after close");
    }
}
