package io.deltafunnel.emulator.fidelity;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The DELETE and UPDATE forms a delete-insert merge strategy uses (issue 26): {@code DELETE FROM t WHERE EXISTS},
 * {@code DELETE t FROM t WHERE EXISTS}, {@code DELETE t FROM t JOIN s ON ...} and {@code UPDATE t SET ... FROM t
 * JOIN s ON ...}, with and without aliases, each reporting the number of target rows it deleted or updated (a
 * target row matched by several source rows counts once).
 */
abstract class JoinDmlScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    private String s() {
        return "[dbo].[" + table + "_s]";
    }

    @BeforeEach
    void tables() throws SQLException {
        dropIfExists(table);
        dropIfExists(table + "_s");
        exec("CREATE TABLE " + t() + " ([k] int NOT NULL PRIMARY KEY, [v] varchar(10) NOT NULL)");
        exec("CREATE TABLE " + s() + " ([k] int NOT NULL, [v] varchar(10) NOT NULL, [op] char(1) NOT NULL)");
        exec("INSERT INTO " + t() + " ([k], [v]) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
        // key 2 twice: a target row matched by two source rows
        exec("INSERT INTO " + s() + " ([k], [v], [op]) VALUES (2, 'B', 'U'), (2, 'B', 'U'), (3, 'C', 'D'),"
                + " (9, 'Z', 'U')");
    }

    @AfterEach
    void drop() throws SQLException {
        dropIfExists(table);
        dropIfExists(table + "_s");
    }

    private int update(String sql) throws SQLException {
        try (Statement st = conn.createStatement()) {
            return st.executeUpdate(sql);
        }
    }

    private List<List<Object>> target() throws SQLException {
        return rows("SELECT [k], [v] FROM " + t() + " ORDER BY [k]");
    }

    @Test
    void deleteFromWhereExists() throws SQLException {
        assertEquals(2, update("DELETE FROM " + t() + " WHERE EXISTS (SELECT 1 FROM " + s() + " WHERE " + s()
                + ".[k] = " + t() + ".[k])"));
        assertEquals(List.of(List.of(1, "a"), List.of(4, "d")), target());
    }

    @Test
    void deleteTargetFromTargetWhereExists() throws SQLException {
        assertEquals(2, update("DELETE " + t() + " FROM " + t() + " WHERE EXISTS (SELECT 1 FROM " + s()
                + " AS s WHERE s.[k] = " + t() + ".[k])"));
        assertEquals(List.of(List.of(1, "a"), List.of(4, "d")), target());
    }

    @Test
    void deleteTargetFromTargetJoinSource() throws SQLException {
        assertEquals(2, update("DELETE " + t() + " FROM " + t() + " JOIN " + s() + " ON " + s() + ".[k] = " + t()
                + ".[k]"));
        assertEquals(List.of(List.of(1, "a"), List.of(4, "d")), target());
    }

    @Test
    void deleteAliasFromAliasedInnerJoinWithWhere() throws SQLException {
        assertEquals(1, update("DELETE x FROM " + t() + " AS x INNER JOIN " + s() + " AS y ON y.[k] = x.[k]"
                + " WHERE y.[op] = 'D'"));
        assertEquals(List.of(List.of(1, "a"), List.of(2, "b"), List.of(4, "d")), target());
    }

    @Test
    void updateTargetFromTargetJoinSource() throws SQLException {
        assertEquals(1, update("UPDATE " + t() + " SET [v] = y.[v] FROM " + t() + " JOIN " + s() + " y ON y.[k] = "
                + t() + ".[k] WHERE y.[op] = 'D'"));
        assertEquals(List.of(List.of(1, "a"), List.of(2, "b"), List.of(3, "C"), List.of(4, "d")), target());
    }

    @Test
    void updateAliasFromAliasedJoin() throws SQLException {
        assertEquals(1, update("UPDATE x SET x.[v] = y.[v] + '!' FROM " + t() + " x INNER JOIN " + s()
                + " AS y ON y.[k] = x.[k] WHERE y.[op] = 'D'"));
        assertEquals(List.of(List.of(1, "a"), List.of(2, "b"), List.of(3, "C!"), List.of(4, "d")), target());
    }

    @Test
    void aTargetRowMatchedByTwoSourceRowsIsUpdatedOnce() throws SQLException {
        assertEquals(1, update("UPDATE " + t() + " SET [v] = y.[v] FROM " + t() + " JOIN " + s() + " y ON y.[k] = "
                + t() + ".[k] WHERE y.[op] = 'U'"));
        assertEquals(List.of(List.of(1, "a"), List.of(2, "B"), List.of(3, "c"), List.of(4, "d")), target());
    }

    @Test
    void deleteThenInsertReplacesTheTouchedKeysInOneTransaction() throws SQLException {
        // the delete-insert merge strategy: delete the keys present, then insert the rows that are not deletes
        exec("BEGIN TRAN");
        assertEquals(2, update("DELETE " + t() + " FROM " + t() + " INNER JOIN " + s() + " ON " + s() + ".[k] = "
                + t() + ".[k]"));
        assertEquals(2, update("INSERT INTO " + t() + " ([k], [v]) SELECT DISTINCT [k], [v] FROM " + s()
                + " WHERE [op] <> 'D'"));
        exec("COMMIT");
        assertEquals(List.of(List.of(1, "a"), List.of(2, "B"), List.of(4, "d"), List.of(9, "Z")), target());
    }
}
