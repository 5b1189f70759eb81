package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALTER TABLE ... ADD from two sessions at once, as SQL Server serialises it: ALTER TABLE takes a
 * schema-modification (Sch-M) lock on the table, so two sessions adding columns wait for any session that holds a
 * lock on the table and for each other, and the second one sees the table as the first left it: the same column name
 * is then 2705 (what two shards of a load evolving the same target meet), another name is added next to the first
 * one's. The same holds for a key or an index both add: the second one checks against the table the first one left,
 * so a second primary key is 1779 and a second clustered index 1902 (what two shards building the staging table's
 * shape at once would meet).
 *
 * <p>No timing assertions: both ALTERs are queued behind a third session's open transaction (shown waiting), then it
 * commits; which of the two gets the lock first is not asserted.
 */
abstract class AlterTableConcurrencyScenarios extends ConcurrentScenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    @BeforeEach
    void createTable() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [v] int NULL)");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (1, 10)");
    }

    @AfterEach
    void dropTable() throws SQLException {
        closeSessions();
        dropIfExists(table);
    }

    /**
     * Runs {@code ALTER TABLE t ADD first} and {@code ALTER TABLE t ADD second} in two sessions, both waiting behind a
     * third session's transaction that has updated a row of the table, then commits that transaction. Returns each
     * ALTER's failure, or null where it succeeded, in the order {@code first}, {@code second}.
     */
    private List<SQLException> racedAdds(String first, String second) throws Exception {
        return raced("ALTER TABLE " + t() + " ADD " + first, "ALTER TABLE " + t() + " ADD " + second);
    }

    /** As {@link #racedAdds}, for any two DDL statements on the table. */
    private List<SQLException> raced(String first, String second) throws Exception {
        Connection holder = session();
        exec(holder, "BEGIN TRAN");
        exec(holder, "UPDATE " + t() + " SET [v] = [v] + 1 WHERE [id] = 1");
        Connection a = session();
        Connection b = session();
        Future<SQLException> fa = inThread(() -> attempt(a, first));
        assertStillWaiting(fa);
        Future<SQLException> fb = inThread(() -> attempt(b, second));
        assertStillWaiting(fb);
        exec(holder, "COMMIT");
        List<SQLException> outcomes = new ArrayList<>();
        outcomes.add(finished(fa));
        outcomes.add(finished(fb));
        return outcomes;
    }

    private static SQLException attempt(Connection c, String sql) {
        try {
            exec(c, sql);
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    private List<String> columnNames() throws SQLException {
        List<String> out = new ArrayList<>();
        for (List<Object> r : rows("SELECT [COLUMN_NAME] FROM INFORMATION_SCHEMA.COLUMNS WHERE [TABLE_SCHEMA] = 'dbo'"
                + " AND [TABLE_NAME] = '" + table + "' ORDER BY [ORDINAL_POSITION]")) {
            out.add((String) r.get(0));
        }
        return out;
    }

    @Test
    void twoSessionsAddingTheSameColumnAreSerialisedAndTheSecondGets2705() throws Exception {
        List<SQLException> outcomes = racedAdds("[x] int NULL", "[x] int NULL");
        SQLException failure = outcomes.get(0) == null ? outcomes.get(1) : outcomes.get(0);
        assertTrue(outcomes.get(0) == null || outcomes.get(1) == null, "one of the two ALTERs succeeds: " + outcomes);
        assertTrue(failure != null, "the other one fails");
        assertEquals(2705, failure.getErrorCode(), failure.getMessage());
        assertEquals("Column names in each table must be unique. Column name 'x' in table '" + table
                + "' is specified more than once.", failure.getMessage());
        assertEquals(List.of("id", "v", "x"), columnNames());
        assertEquals(List.of(List.of(1, 11)), rows("SELECT [id], [v] FROM " + t() + " WHERE [x] IS NULL"));
    }

    @Test
    void twoSessionsAddingDifferentColumnsBothLand() throws Exception {
        List<SQLException> outcomes = racedAdds("[x] int NULL", "[y] nvarchar(5) NULL");
        assertNull(outcomes.get(0));
        assertNull(outcomes.get(1));
        List<String> names = columnNames();
        assertEquals(4, names.size(), names.toString());
        assertEquals(List.of("id", "v"), names.subList(0, 2));
        assertTrue(names.containsAll(List.of("x", "y")), names.toString());
        exec("UPDATE " + t() + " SET [x] = 5, [y] = N'ok'");
        assertEquals(List.of(List.of(1, 11, 5, "ok")), rows("SELECT [id], [v], [x], [y] FROM " + t()));
    }

    /** A heap with one row, for the scenarios that add a key or an index the other session adds too. */
    private void heap() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [v] int NULL)");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (1, 10)");
    }

    /** The one failure of two raced statements, of which exactly one must succeed. */
    private static SQLException theOneFailure(List<SQLException> outcomes) {
        assertTrue(outcomes.get(0) == null ^ outcomes.get(1) == null, "exactly one of the two succeeds: " + outcomes);
        return outcomes.get(0) == null ? outcomes.get(1) : outcomes.get(0);
    }

    private long indexes(String where) throws SQLException {
        return ((Number) rows("SELECT COUNT(*) FROM sys.indexes WHERE [object_id] = OBJECT_ID('dbo." + table
                + "') AND " + where).get(0).get(0)).longValue();
    }

    @Test
    void twoSessionsAddingAPrimaryKeyAreSerialisedAndTheSecondGets1779() throws Exception {
        heap();
        SQLException failure = theOneFailure(racedAdds("CONSTRAINT [" + table + "_k1] PRIMARY KEY ([id])",
                "CONSTRAINT [" + table + "_k2] PRIMARY KEY ([id])"));
        assertEquals(1779, failure.getErrorCode(), failure.getMessage());
        assertEquals("Table '" + table + "' already has a primary key defined on it.", failure.getMessage());
        assertEquals(1, indexes("[is_primary_key] = 1"));
    }

    @Test
    void twoSessionsCreatingAClusteredIndexAreSerialisedAndTheSecondGets1902() throws Exception {
        heap();
        SQLException failure = theOneFailure(raced("CREATE CLUSTERED INDEX [cx1] ON " + t() + " ([id])",
                "CREATE CLUSTERED INDEX [cx2] ON " + t() + " ([v])"));
        assertEquals(1902, failure.getErrorCode(), failure.getMessage());
        assertTrue(failure.getMessage().startsWith("Cannot create more than one clustered index on table '"),
                failure.getMessage());
        assertEquals(1, indexes("[type] = 1"));
    }
}
