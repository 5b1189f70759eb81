package io.deltafunnel.emulator.fidelity;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The DELETE and UPDATE forms a delete-insert merge strategy uses (issue 26): {@code DELETE FROM t WHERE EXISTS},
 * {@code DELETE t FROM t WHERE EXISTS}, {@code DELETE t FROM t JOIN s ON ...} and {@code UPDATE t SET ... FROM t
 * JOIN s ON ...}, with and without aliases, each reporting the number of target rows it deleted or updated (a
 * target row matched by several source rows counts once). Also the forms the strategies' soft deletes and ranked
 * change rows use: {@code UPDATE ... FROM ... JOIN} whose WHERE ranks with a correlated {@code NOT EXISTS},
 * {@code DELETE ... WHERE EXISTS} over a derived table with {@code ROW_NUMBER()}, and a {@code MERGE} whose
 * {@code UPDATE SET} reads the target's own columns in a {@code CASE}.
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
        dropIfExists(table + "_c");
    }

    /** Change rows as a merge strategy's staging table holds them: key, value, change type and version. */
    private String changes() throws SQLException {
        String c = "[dbo].[" + table + "_c]";
        dropIfExists(table + "_c");
        exec("CREATE TABLE " + c + " ([k] int NOT NULL, [v] varchar(10) NOT NULL, [op] varchar(16) NOT NULL,"
                + " [ver] bigint NOT NULL, [at] datetime2 NULL)");
        // key 1: updated then deleted (last change a delete); key 2: deleted then re-inserted; key 3: deleted in
        // the same version as a postimage (the postimage wins); key 4: a preimage only; key 9: a new insert
        exec("INSERT INTO " + c + " ([k], [v], [op], [ver], [at]) VALUES"
                + " (1, 'A', 'update_postimage', 5, '2026-01-01T00:00:05'), (1, 'A', 'delete', 6, '2026-01-01T00:00:06'),"
                + " (2, 'b', 'delete', 5, '2026-01-01T00:00:05'), (2, 'B', 'insert', 7, '2026-01-01T00:00:07'),"
                + " (3, 'c', 'delete', 6, '2026-01-01T00:00:06'), (3, 'C', 'update_postimage', 6, '2026-01-01T00:00:06'),"
                + " (4, 'x', 'update_preimage', 6, '2026-01-01T00:00:06'), (9, 'Z', 'insert', 7, '2026-01-01T00:00:07')");
        return c;
    }

    /** The last change per key, as a derived table with ROW_NUMBER (the merge strategies' ranked source). */
    private static String ranked(String c) {
        return "(SELECT [k], [v], [op], [at] FROM (SELECT [k], [v], [op], [at], ROW_NUMBER() OVER (PARTITION BY [k]"
                + " ORDER BY [ver] DESC, CASE WHEN [op] = 'delete' THEN 1 ELSE 2 END DESC) AS [rn] FROM " + c
                + " WHERE [op] <> 'update_preimage') AS D WHERE D.[rn] = 1)";
    }

    @Test
    void updateFromJoinWhereNotExistsMarksTheKeysWhoseLastChangeIsADelete() throws SQLException {
        // a soft delete under deleteInsert: the join's WHERE ranks with a correlated NOT EXISTS over the same table
        exec("ALTER TABLE " + t() + " ADD [gone] datetime2 NULL");
        String c = changes();
        assertEquals(1, update("UPDATE T SET [gone] = S.[at] FROM " + t() + " AS T INNER JOIN " + c + " AS S ON"
                + " T.[k] = S.[k] WHERE S.[op] = 'delete' AND NOT EXISTS (SELECT 1 FROM " + c + " AS E WHERE E.[k] ="
                + " S.[k] AND E.[op] <> 'update_preimage' AND (E.[ver] > S.[ver] OR (E.[ver] = S.[ver] AND E.[op] <>"
                + " 'delete')))"));
        assertEquals(List.of(List.of(1)), rows("SELECT [k] FROM " + t() + " WHERE [gone] ="
                + " CAST('2026-01-01T00:00:06' AS datetime2)"), "key 1 marked with its delete's timestamp");
        assertEquals(List.of(List.of(2), List.of(3), List.of(4)), rows("SELECT [k] FROM " + t()
                + " WHERE [gone] IS NULL ORDER BY [k]"));
        assertEquals(List.of(List.of(1, "a"), List.of(2, "b"), List.of(3, "c"), List.of(4, "d")), target());
    }

    @Test
    void deleteWhereExistsOverARankedDerivedTableThenInsertFromIt() throws SQLException {
        String c = changes();
        exec("BEGIN TRAN");
        assertEquals(2, update("DELETE T FROM " + t() + " AS T WHERE EXISTS (SELECT 1 FROM " + ranked(c) + " AS S"
                + " WHERE T.[k] = S.[k] AND S.[op] <> 'delete')"));
        assertEquals(3, update("INSERT INTO " + t() + " ([k], [v]) SELECT S.[k], S.[v] FROM " + ranked(c) + " AS S"
                + " WHERE S.[op] <> 'delete'"));
        exec("COMMIT");
        // 1: last change a delete (not re-inserted here, the DELETE left it: a soft delete marks it before)
        assertEquals(List.of(List.of(1, "a"), List.of(2, "B"), List.of(3, "C"), List.of(4, "d"), List.of(9, "Z")),
                target());
    }

    @Test
    void mergeWithCaseInItsUpdateKeepsTheTargetsValueForADelete() throws SQLException {
        // a soft delete under upsert: one WHEN MATCHED THEN UPDATE whose CASEs read the target's own columns
        exec("ALTER TABLE " + t() + " ADD [gone] bit NULL");
        String c = changes();
        assertEquals(4, update("MERGE INTO " + t() + " AS T USING " + ranked(c) + " AS S ON (T.[k] = S.[k])"
                + " WHEN MATCHED THEN UPDATE SET T.[v] = CASE WHEN S.[op] = 'delete' THEN T.[v] ELSE S.[v] END,"
                + " T.[gone] = CASE WHEN S.[op] = 'delete' THEN 1 ELSE 0 END"
                + " WHEN NOT MATCHED AND S.[op] <> 'delete' THEN INSERT ([k], [v], [gone]) VALUES (S.[k], S.[v], 0);"));
        assertEquals(List.of(List.of(1, "a", true), List.of(2, "B", false), List.of(3, "C", false),
                Arrays.asList(4, "d", null), List.of(9, "Z", false)),
                rows("SELECT [k], [v], [gone] FROM " + t() + " ORDER BY [k]"));
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
