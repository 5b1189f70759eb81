package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables after {@code ALTER TABLE ... SWITCH}: the rows are visible through the target inside the switching
 * transaction and to other sessions after its commit; a rollback (also to a savepoint) gives both tables their rows
 * back; and a table that took part in a switch is an ordinary table again: it can be switched again, dropped and its
 * name created again, altered, indexed, bulk-loaded, queried with aliases, table-name qualifiers and joins, and
 * renamed. Each table keeps its own column defaults. Identity values follow SQL Server's documented caution (the target's identity is not advanced past the
 * switched-in rows, the source's goes on after its last value), also inside a transaction and after a rollback.
 * (The emulator implements a switch by exchanging the H2 tables behind the two tables; these scenarios hold for
 * SQL Server and the emulator alike.)
 */
abstract class SwitchedTableScenarios extends ConcurrentScenarios {
    private static final String COLUMNS = "[id] int NOT NULL PRIMARY KEY, [v] int NOT NULL";

    private String src() {
        return "[dbo].[" + table + "_src]";
    }

    private String dst() {
        return "[dbo].[" + table + "_dst]";
    }

    private String other() {
        return "[dbo].[" + table + "_x]";
    }

    private void dropAll() throws SQLException {
        for (String t : List.of("_src", "_dst", "_x", "_ren")) {
            dropIfExists(table + t);
        }
    }

    @BeforeEach
    void clean() throws SQLException {
        dropAll();
    }

    @AfterEach
    void cleanUp() throws SQLException {
        closeSessions();
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        dropAll();
    }

    /** src and dst with {@code COLUMNS}, src holding (1, 10), (2, 20), (3, 30). */
    private void loadedSource() throws SQLException {
        exec("CREATE TABLE " + src() + " (" + COLUMNS + ")");
        exec("CREATE TABLE " + dst() + " (" + COLUMNS + ")");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 10), (2, 20), (3, 30)");
    }

    private List<List<Object>> all(String t) throws SQLException {
        return rows("SELECT [id], [v] FROM " + t + " ORDER BY [id]");
    }

    private static final List<List<Object>> THREE = List.of(List.of(1, 10), List.of(2, 20), List.of(3, 30));

    private String switchSql() {
        return "ALTER TABLE " + src() + " SWITCH TO " + dst();
    }

    @Test
    void rowsAreVisibleThroughTheTargetInTheTransactionAndToOthersAfterCommit() throws Exception {
        loadedSource();
        exec("BEGIN TRAN");
        exec(switchSql());
        assertEquals(THREE, all(dst()));
        assertEquals(List.of(), all(src()));
        exec("INSERT INTO " + dst() + " ([id], [v]) VALUES (4, 40)");
        exec("COMMIT");
        Connection reader = session();
        assertEquals(4, intScalar(reader, "SELECT COUNT(*) FROM " + dst()));
        assertEquals(0, intScalar(reader, "SELECT COUNT(*) FROM " + src()));
        assertEquals(100, intScalar(reader, "SELECT SUM([v]) FROM " + dst()));
    }

    @Test
    void aRollbackRestoresBothTablesRowsAndDefinitions() throws SQLException {
        loadedSource();
        exec("BEGIN TRAN");
        exec(switchSql());
        exec("INSERT INTO " + dst() + " ([id], [v]) VALUES (4, 40)");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (9, 90)");
        exec("ROLLBACK");
        assertEquals(THREE, all(src()));
        assertEquals(List.of(), all(dst()));
        // each table still enforces its own key and takes rows under its own name
        assertError(2627, "INSERT INTO " + src() + " ([id], [v]) VALUES (1, 1)");
        exec("INSERT INTO " + dst() + " ([id], [v]) VALUES (1, 1)");
        assertEquals(List.of(List.of(1, 1)), all(dst()));
        assertEquals(2, intScalar(conn, "SELECT COUNT(*) FROM sys.columns WHERE [object_id] = OBJECT_ID('dbo."
                + table + "_dst')"));
    }

    @Test
    void aRollbackToASavepointUndoesTheSwitchOnly() throws SQLException {
        loadedSource();
        exec("BEGIN TRAN");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (4, 40)");
        exec("SAVE TRAN before_switch");
        exec(switchSql());
        assertEquals(4, intScalar(conn, "SELECT COUNT(*) FROM " + dst()));
        exec("ROLLBACK TRAN before_switch");
        exec("COMMIT");
        assertEquals(4, intScalar(conn, "SELECT COUNT(*) FROM " + src()));
        assertEquals(List.of(), all(dst()));
    }

    @Test
    void aSwitchedTableCanBeSwitchedAgain() throws SQLException {
        loadedSource();
        exec("CREATE TABLE " + other() + " (" + COLUMNS + ")");
        exec(switchSql());
        exec("ALTER TABLE " + dst() + " SWITCH TO " + src());
        assertEquals(THREE, all(src()));
        exec(switchSql());
        exec("ALTER TABLE " + dst() + " SWITCH TO " + other());
        assertEquals(THREE, all(other()));
        assertEquals(List.of(), all(dst()));
        assertEquals(List.of(), all(src()));
    }

    @Test
    void aSwitchedTableCanBeDroppedAndItsNameCreatedAgain() throws SQLException {
        loadedSource();
        exec(switchSql());
        exec("DROP TABLE " + src());
        assertError(208, "SELECT COUNT(*) FROM " + src());
        assertError(208, "INSERT INTO [" + table + "_src] ([id], [v]) VALUES (5, 50)");
        exec("CREATE TABLE " + src() + " (" + COLUMNS + ")");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (7, 70)");
        assertEquals(List.of(List.of(7, 70)), all(src()));
        assertEquals(THREE, all(dst()));
        exec("DROP TABLE " + dst());
        exec("CREATE TABLE " + dst() + " (" + COLUMNS + ")");
        assertEquals(List.of(), all(dst()));
        exec(switchSql());
        assertEquals(List.of(List.of(7, 70)), all(dst()));
    }

    @Test
    void aSwitchedTableCanBeAlteredIndexedAndBulkLoaded() throws SQLException {
        loadedSource();
        exec(switchSql());
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(conn)) {
            bc.setDestinationTableName(dst());
            bc.writeToServer(new IntRows(100, 103));
        }
        assertEquals(6, intScalar(conn, "SELECT COUNT(*) FROM " + dst()));
        exec("CREATE UNIQUE INDEX [ux_" + table + "] ON " + dst() + " ([v])");
        assertError(2601, "INSERT INTO " + dst() + " ([id], [v]) VALUES (50, 10)");
        exec("ALTER TABLE " + dst() + " ADD [w] int NULL");
        exec("INSERT INTO " + dst() + " ([id], [v], [w]) VALUES (50, 50, 5)");
        assertEquals(List.of(List.of(50, 50, 5)), rows("SELECT [id], [v], [w] FROM " + dst() + " WHERE [w] IS NOT NULL"));
        assertEquals(3, intScalar(conn, "SELECT COUNT(*) FROM sys.columns WHERE [object_id] = OBJECT_ID('dbo."
                + table + "_dst')"));
        exec("ALTER TABLE " + dst() + " ALTER COLUMN [w] bigint NULL");
        exec("ALTER TABLE " + dst() + " ADD CONSTRAINT [ck_" + table + "] CHECK ([v] > 0)");
        assertError(547, "INSERT INTO " + dst() + " ([id], [v]) VALUES (51, -1)");
        exec("INSERT INTO " + dst() + " ([id], [v], [w]) VALUES (52, 52, 5000000000)");
        assertEquals(5000000000L, ((Number) scalar("SELECT [w] FROM " + dst() + " WHERE [id] = 52")).longValue());
        // the source is an ordinary empty table and takes rows of its own
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 10)");
        assertEquals(List.of(List.of(1, 10)), all(src()));
    }

    @Test
    void aSwitchedTableIsQueriedWithAliasesQualifiersAndJoins() throws SQLException {
        loadedSource();
        exec("CREATE TABLE " + other() + " ([id] int NOT NULL PRIMARY KEY, [name] varchar(10) NOT NULL)");
        exec("INSERT INTO " + other() + " ([id], [name]) VALUES (1, 'one'), (3, 'three')");
        exec(switchSql());
        String d = table + "_dst";
        String x = table + "_x";
        assertEquals(List.of(List.of("one", 10), List.of("three", 30)), rows("SELECT o.[name], t.[v] FROM " + dst()
                + " AS t JOIN " + other() + " o ON o.[id] = t.[id] ORDER BY t.[id]"));
        assertEquals(List.of(List.of(20)), rows("SELECT [" + d + "].[v] FROM [" + d + "] WHERE [" + d + "].[id] = 2"));
        assertEquals(List.of(List.of(30)), rows("SELECT [dbo].[" + d + "].[v] FROM dbo.[" + d + "] WHERE [id] = 3"));
        assertEquals(List.of(List.of("three", 30)), rows("SELECT [" + x + "].[name], [" + d + "].[v] FROM [" + x
                + "], [" + d + "] WHERE [" + x + "].[id] = [" + d + "].[id] AND [" + d + "].[id] > 1"));
        exec("UPDATE t SET t.[v] = t.[v] + 1 FROM " + dst() + " t JOIN " + other() + " o ON o.[id] = t.[id]");
        exec("DELETE FROM [" + d + "] WHERE [" + d + "].[id] = 2");
        assertEquals(List.of(List.of(1, 11), List.of(3, 31)), all(dst()));
        assertEquals(1, intScalar(conn, "SELECT COUNT(*) FROM " + dst() + " WHERE EXISTS (SELECT 1 FROM " + other()
                + " o WHERE o.[id] = [" + d + "].[id] AND o.[name] = 'one')"));
    }

    @Test
    void selectIntoCopiesASwitchedTablesExactTypesOnceItsSourceIsDropped() throws SQLException {
        // the loader's replace: staging switched into the target, staging dropped, and the next run copies the
        // target's shape with SELECT TOP 0 * INTO to switch the target out into it
        String columns = "[a] decimal(12,2) NULL, [b] numeric(5,0) NOT NULL, [c] nvarchar(17) NULL,"
                + " [d] datetime2(3) NULL, [e] datetimeoffset(6) NULL, [f] time(2) NULL, [g] varbinary(9) NULL,"
                + " [h] nvarchar(max) NULL, [i] float NULL, [j] real NULL, [k] smallint NULL, [l] bit NULL,"
                + " [m] date NULL, [n] bigint NULL";
        exec("CREATE TABLE " + src() + " (" + columns + ")");
        exec("CREATE TABLE " + dst() + " (" + columns + ")");
        exec("INSERT INTO " + src() + " ([a], [b]) VALUES (1.25, 7)");
        String shape = "SELECT [COLUMN_NAME], [DATA_TYPE], [NUMERIC_PRECISION], [NUMERIC_SCALE],"
                + " [CHARACTER_MAXIMUM_LENGTH], [DATETIME_PRECISION], [IS_NULLABLE] FROM [INFORMATION_SCHEMA].[COLUMNS]"
                + " WHERE [TABLE_SCHEMA] = N'dbo' AND [TABLE_NAME] = N'%s' ORDER BY [ORDINAL_POSITION]";
        List<List<Object>> declared = rows(String.format(shape, table + "_dst"));
        assertEquals(List.of("a", "decimal", 12, 2), declared.get(0).subList(0, 4));
        exec(switchSql());
        exec("DROP TABLE " + src());
        assertEquals(declared, rows(String.format(shape, table + "_dst")));
        exec("SELECT TOP 0 * INTO " + other() + " FROM " + dst());
        assertEquals(declared, rows(String.format(shape, table + "_x")));
        exec("ALTER TABLE " + dst() + " SWITCH TO " + other());
        assertEquals("[[1.25, 7]]", rows("SELECT [a], [b] FROM " + other()).toString());
    }

    @Test
    void aSwitchedTableCanBeRenamedAndItsOldNameCreatedAgain() throws SQLException {
        loadedSource();
        exec(switchSql());
        exec("EXEC sp_rename 'dbo." + table + "_dst', '" + table + "_ren'");
        assertEquals(THREE, all("[dbo].[" + table + "_ren]"));
        assertError(208, "SELECT COUNT(*) FROM " + dst());
        assertError(208, "SELECT COUNT(*) FROM [" + table + "_dst] AS d");
        exec("CREATE TABLE " + dst() + " (" + COLUMNS + ")");
        assertEquals(List.of(), all(dst()));
        exec("ALTER TABLE [dbo].[" + table + "_ren] SWITCH TO " + dst());
        assertEquals(THREE, all(dst()));
        assertEquals(List.of(), all("[dbo].[" + table + "_ren]"));
    }

    @Test
    void eachTableKeepsItsOwnDefaultsAcrossASwitchAndItsRollback() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [v] int NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [v] int NULL CONSTRAINT [df_" + table + "] DEFAULT 7)");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 1)");
        exec("BEGIN TRAN");
        exec(switchSql());
        exec("ROLLBACK");
        exec("INSERT INTO " + dst() + " ([id]) VALUES (2)");
        exec("INSERT INTO " + src() + " ([id]) VALUES (3)");
        assertEquals(List.of(List.of(2, 7)), all(dst()));
        assertEquals(List.of(List.of(1, 1), Arrays.asList(3, null)), all(src()));
        exec("DELETE FROM " + dst());
        exec(switchSql());
        exec("INSERT INTO " + dst() + " ([id]) VALUES (4)");
        exec("INSERT INTO " + src() + " ([id]) VALUES (5)");
        assertEquals(List.of(List.of(1, 1), Arrays.asList(3, null), List.of(4, 7)), all(dst()));
        assertEquals(List.of(Arrays.asList(5, null)), all(src()));
    }

    @Test
    void aStringTooLongForASwitchedTableNamesThatTable() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [s] varchar(3) NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [s] varchar(3) NULL)");
        exec("INSERT INTO " + src() + " ([id], [s]) VALUES (1, 'abc')");
        exec(switchSql());
        String m = assertError(2628, "INSERT INTO " + dst() + " ([id], [s]) VALUES (2, 'abcdef')").getMessage();
        assertTrue(m.contains(".dbo." + table + "_dst'"), m);
        m = assertError(2628, "INSERT INTO " + src() + " ([id], [s]) VALUES (3, 'abcdef')").getMessage();
        assertTrue(m.contains(".dbo." + table + "_src'"), m);
    }

    @Test
    void identityInsertIntoASwitchedTableMovesItsIdentityOn() throws SQLException {
        String cols = "[id] int IDENTITY(1,1) NOT NULL, [v] int NOT NULL";
        exec("CREATE TABLE " + src() + " (" + cols + ")");
        exec("CREATE TABLE " + dst() + " (" + cols + ")");
        exec("INSERT INTO " + src() + " ([v]) VALUES (10), (20)");
        exec(switchSql());
        exec("SET IDENTITY_INSERT " + dst() + " ON");
        exec("INSERT INTO " + dst() + " ([id], [v]) VALUES (100, 100)");
        exec("SET IDENTITY_INSERT " + dst() + " OFF");
        exec("INSERT INTO " + dst() + " ([v]) VALUES (101)");
        assertEquals(List.of(List.of(101, 101)), rows("SELECT [id], [v] FROM " + dst() + " WHERE [v] = 101"));
    }

    @Test
    void identityInsideATransactionAndAfterARollbackFollowsTheDocumentedCaution() throws SQLException {
        String cols = "[id] int IDENTITY(1,1) NOT NULL, [v] int NOT NULL";
        exec("CREATE TABLE " + src() + " (" + cols + ")");
        exec("CREATE TABLE " + dst() + " (" + cols + ")");
        exec("INSERT INTO " + src() + " ([v]) VALUES (10), (20), (30)");
        exec("BEGIN TRAN");
        exec(switchSql());
        exec("ROLLBACK");
        // rolled back: both identities are where they were
        exec("INSERT INTO " + src() + " ([v]) VALUES (40)");
        exec("INSERT INTO " + dst() + " ([v]) VALUES (1)");
        assertEquals(List.of(List.of(4, 40)), rows("SELECT [id], [v] FROM " + src() + " WHERE [v] = 40"));
        assertEquals(List.of(List.of(1, 1)), all(dst()));
        exec("DELETE FROM " + dst());
        exec("BEGIN TRAN");
        exec(switchSql());
        // the target's identity is not advanced past the switched-in rows (its next value after the row it had)
        exec("INSERT INTO " + dst() + " ([v]) VALUES (50)");
        exec("COMMIT");
        assertEquals(List.of(List.of(2, 50)), rows("SELECT [id], [v] FROM " + dst() + " WHERE [v] = 50"));
        // the source's identity goes on after its last value
        exec("INSERT INTO " + src() + " ([v]) VALUES (60)");
        assertEquals(List.of(List.of(5, 60)), all(src()));
    }
}
