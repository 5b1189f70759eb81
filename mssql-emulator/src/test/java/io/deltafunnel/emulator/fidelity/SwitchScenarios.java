package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ALTER TABLE source SWITCH TO target} between non-partitioned tables, as the replace-by-switch write mode uses
 * it (issue 26): all rows move, the source is left empty, identity seeds stay as they were (the documented caution of
 * "Transfer data efficiently by using partition switching"), it runs inside a user transaction and a ROLLBACK undoes
 * it, it takes Sch-M on both tables (readers of the target wait for it and it waits for them, but nobody waits
 * before it runs), and each unmet requirement fails with SQL Server's number and text (4905, 4942-4947, 4913, 4955,
 * 4967, 4968, 4972, 4985; "Database engine events and errors (4000 to 4999)"). Tables are named in those messages as
 * {@code database.schema.table}.
 */
abstract class SwitchScenarios extends ConcurrentScenarios {
    private String db;

    private String src() {
        return "[dbo].[" + table + "_src]";
    }

    private String dst() {
        return "[dbo].[" + table + "_dst]";
    }

    private String other() {
        return "[dbo].[" + table + "_x]";
    }

    /** database.dbo.name as SQL Server writes a table in these messages. */
    private String full(String suffix) {
        return db + ".dbo." + table + suffix;
    }

    /** Drops the scenario's tables; the third table is a referencing table in one scenario, referenced in another. */
    private void dropAll() throws SQLException {
        for (String t : List.of("_x", "_src", "_dst")) {
            try {
                dropIfExists(table + t);
            } catch (SQLException referenced) {
                // dropped after its referencing tables, below
            }
        }
        dropIfExists(table + "_src");
        dropIfExists(table + "_dst");
        dropIfExists(table + "_x");
    }

    @BeforeEach
    void clean() throws SQLException {
        db = (String) scalar("SELECT DB_NAME()");
        dropAll();
    }

    @AfterEach
    void cleanUp() throws SQLException {
        closeSessions();
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        exec("SET LOCK_TIMEOUT -1");
        dropAll();
    }

    private void both(String columns) throws SQLException {
        exec("CREATE TABLE " + src() + " (" + columns + ")");
        exec("CREATE TABLE " + dst() + " (" + columns + ")");
    }

    private List<List<Object>> all(String t) throws SQLException {
        return rows("SELECT * FROM " + t + " ORDER BY 1");
    }

    private int count(Connection c, String t) throws SQLException {
        return intScalar(c, "SELECT COUNT(*) FROM " + t);
    }

    private String switchSql() {
        return "ALTER TABLE " + src() + " SWITCH TO " + dst();
    }

    // ---- what a switch does ----------------------------------------------------------------------------------------

    @Test
    void everyRowMovesToTheTargetWithItsIndexesAndConstraintsAndTheSourceIsLeftEmpty() throws SQLException {
        both("[id] int NOT NULL PRIMARY KEY, [v] int NOT NULL CHECK ([v] > 0), [s] varchar(10) NULL");
        exec("CREATE INDEX [ix_" + table + "_src] ON " + src() + " ([v] DESC) INCLUDE ([s])");
        exec("CREATE INDEX [ix_" + table + "_dst] ON " + dst() + " ([v] DESC) INCLUDE ([s])");
        exec("INSERT INTO " + src() + " ([id], [v], [s]) VALUES (1, 10, 'a'), (2, 20, NULL), (3, 30, 'c')");
        List<List<Object>> before = all(src());
        exec(switchSql());
        assertEquals(before, all(dst()));
        assertEquals(0, count(conn, src()));
        // the target keeps its constraints: its CHECK still refuses, its key still holds
        assertError(547, "INSERT INTO " + dst() + " ([id], [v]) VALUES (4, -1)");
        assertError(2627, "INSERT INTO " + dst() + " ([id], [v]) VALUES (1, 1)");
    }

    @Test
    void partitionOneOfNonPartitionedTablesIsIgnoredWithWarning4903() throws SQLException {
        both("[id] int NOT NULL, [v] int NULL");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 1), (2, 2)");
        List<Integer> warnings = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        try (Statement st = conn.createStatement()) {
            st.execute("ALTER TABLE " + src() + " SWITCH PARTITION 1 TO " + dst() + " PARTITION 1");
            for (SQLWarning w = st.getWarnings(); w != null; w = w.getNextWarning()) {
                warnings.add(w.getErrorCode());
                texts.add(w.getMessage());
            }
        }
        assertEquals(List.of(4903, 4903), warnings);
        assertEquals(List.of(
                "Warning: The specified partition 1 for the table '" + full("_src") + "' was ignored in ALTER TABLE"
                        + " SWITCH statement because the table is not partitioned.",
                "Warning: The specified partition 1 for the table '" + full("_dst") + "' was ignored in ALTER TABLE"
                        + " SWITCH statement because the table is not partitioned."), texts);
        assertEquals(2, count(conn, dst()));
        assertEquals(0, count(conn, src()));
    }

    @Test
    void identitySeedsStayAsTheyWereSoTheTargetCanRepeatIdentityValues() throws SQLException {
        both("[id] int IDENTITY(1,1) NOT NULL, [v] int NOT NULL");
        exec("INSERT INTO " + src() + " ([v]) VALUES (10), (20), (30)");
        exec(switchSql());
        // the target's identity was never used: its next value is its seed, a duplicate of a switched-in row
        exec("INSERT INTO " + dst() + " ([v]) VALUES (40)");
        assertEquals(List.of(List.of(1, 10), List.of(1, 40), List.of(2, 20), List.of(3, 30)),
                rows("SELECT [id], [v] FROM " + dst() + " ORDER BY [id], [v]"));
        // the source's identity goes on after its last value
        exec("INSERT INTO " + src() + " ([v]) VALUES (50)");
        assertEquals(List.of(List.of(4, 50)), rows("SELECT [id], [v] FROM " + src()));
    }

    @Test
    void theIdentityPropertyIsNotCompared() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int IDENTITY(1,1) NOT NULL, [v] int NOT NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [v] int NOT NULL)");
        exec("INSERT INTO " + src() + " ([v]) VALUES (10), (20)");
        exec(switchSql());
        assertEquals(List.of(List.of(1, 10), List.of(2, 20)), all(dst()));
    }

    @Test
    void aCheckConstraintMatchesByDefinitionNotByName() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [v] int NOT NULL CONSTRAINT [ck_" + table
                + "_a] CHECK ([v] > 0))");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [v] int NOT NULL, CONSTRAINT [ck_" + table
                + "_b] CHECK (v>0))");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 5)");
        exec(switchSql());
        assertEquals(1, count(conn, dst()));
    }

    // ---- inside a transaction --------------------------------------------------------------------------------------

    @Test
    void insideATransactionARollbackUndoesTheSwitch() throws SQLException {
        both("[id] int NOT NULL PRIMARY KEY, [v] int NOT NULL");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 10), (2, 20)");
        exec("BEGIN TRAN");
        exec(switchSql());
        assertEquals(1, intScalar(conn, "SELECT @@TRANCOUNT"));
        assertEquals(2, count(conn, dst()));
        assertEquals(0, count(conn, src()));
        exec("ROLLBACK");
        assertEquals(0, count(conn, dst()));
        assertEquals(List.of(List.of(1, 10), List.of(2, 20)), all(src()));
    }

    @Test
    void replaceByTwoSwitchesInOneTransaction() throws SQLException {
        // the target's rows out to a holding table, the staging table's rows in, commit
        String columns = "[id] int NOT NULL PRIMARY KEY, [v] int NOT NULL";
        both(columns);
        exec("CREATE TABLE " + other() + " (" + columns + ")");
        exec("INSERT INTO " + dst() + " ([id], [v]) VALUES (1, 1), (2, 2)");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (7, 70), (8, 80), (9, 90)");
        exec("BEGIN TRAN");
        exec("ALTER TABLE " + dst() + " SWITCH TO " + other());
        exec(switchSql());
        exec("COMMIT");
        assertEquals(List.of(List.of(7, 70), List.of(8, 80), List.of(9, 90)), all(dst()));
        assertEquals(List.of(List.of(1, 1), List.of(2, 2)), all(other()));
        assertEquals(0, count(conn, src()));
    }

    @Test
    void twoSwitchesInOneBatchWithoutSemicolons() throws SQLException {
        String columns = "[id] int NOT NULL PRIMARY KEY, [v] int NOT NULL";
        both(columns);
        exec("CREATE TABLE " + other() + " (" + columns + ")");
        exec("INSERT INTO " + dst() + " ([id], [v]) VALUES (1, 1)");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (2, 2)");
        exec("BEGIN TRAN ALTER TABLE " + dst() + " SWITCH TO " + other() + " ALTER TABLE " + src() + " SWITCH TO "
                + dst() + " COMMIT");
        assertEquals(List.of(List.of(2, 2)), all(dst()));
        assertEquals(List.of(List.of(1, 1)), all(other()));
    }

    // ---- locking ---------------------------------------------------------------------------------------------------

    @Test
    void aReaderHoldingASharedLockOnTheTargetBlocksTheSwitch() throws Exception {
        both("[id] int NOT NULL, [v] int NOT NULL");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 1)");
        Connection reader = session();
        exec(reader, "BEGIN TRAN");
        assertEquals(0, intScalar(reader, "SELECT COUNT(*) FROM " + dst() + " WITH (HOLDLOCK)"));
        exec("SET LOCK_TIMEOUT " + SHORT_TIMEOUT_MS);
        assertError(1222, switchSql());
        exec("SET LOCK_TIMEOUT -1");
        Future<Boolean> sw = inThread(() -> {
            exec(conn, switchSql());
            return true;
        });
        assertStillWaiting(sw);
        exec(reader, "COMMIT");
        assertTrue(finished(sw));
        assertEquals(1, count(reader, dst()));
    }

    @Test
    void readersOfTheTargetWaitForASwitchInAnOpenTransactionButNotForTheLoadBeforeIt() throws Exception {
        both("[id] int NOT NULL, [v] int NOT NULL");
        exec("INSERT INTO " + dst() + " ([id], [v]) VALUES (0, 0)");
        exec("CREATE TABLE " + other() + " ([id] int NOT NULL, [v] int NOT NULL)");
        Connection reader = session();
        exec("BEGIN TRAN");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 1), (2, 2)");
        // loading the staging table does not block readers of the target
        exec(reader, "SET LOCK_TIMEOUT 0");
        assertEquals(1, count(reader, dst()));
        exec(reader, "SET LOCK_TIMEOUT -1");
        exec("ALTER TABLE " + dst() + " SWITCH TO " + other());
        exec(switchSql());
        Future<Integer> read = inThread(() -> count(reader, dst()));
        assertStillWaiting(read);
        exec("COMMIT");
        assertEquals(2, finished(read));
    }

    // ---- requirements ----------------------------------------------------------------------------------------------

    @Test
    void aNonEmptyTargetIs4905() throws SQLException {
        both("[id] int NOT NULL");
        exec("INSERT INTO " + src() + " ([id]) VALUES (1)");
        exec("INSERT INTO " + dst() + " ([id]) VALUES (2)");
        SQLException e = assertError(4905, switchSql());
        assertEquals("ALTER TABLE SWITCH statement failed. The target table '" + full("_dst") + "' must be empty.",
                e.getMessage());
        assertEquals(1, count(conn, src()));
        assertEquals(1, count(conn, dst()));
    }

    @Test
    void aDifferentColumnCountIs4943() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [v] int NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL)");
        assertEquals("ALTER TABLE SWITCH statement failed because table '" + full("_src") + "' has 2 columns and table '"
                + full("_dst") + "' has 1 columns.", assertError(4943, switchSql()).getMessage());
    }

    @Test
    void aDifferentColumnNameIs4942() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [a] int NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [b] int NULL)");
        assertEquals("ALTER TABLE SWITCH statement failed because column 'a' at ordinal 2 in table '" + full("_src")
                + "' has a different name than the column 'b' at the same ordinal in table '" + full("_dst") + "'.",
                assertError(4942, switchSql()).getMessage());
    }

    @Test
    void aDifferentDataTypeIs4944() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [v] int NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [v] bigint NULL)");
        assertEquals("ALTER TABLE SWITCH statement failed because column 'v' has data type int in source table '"
                + full("_src") + "' which is different from its type bigint in target table '" + full("_dst") + "'.",
                assertError(4944, switchSql()).getMessage());
    }

    @Test
    void aDifferentCollationIs4945() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [s] varchar(10) COLLATE Latin1_General_CI_AS NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [s] varchar(10) COLLATE SQL_Latin1_General_CP1_CI_AS"
                + " NULL)");
        assertEquals("ALTER TABLE SWITCH statement failed because column 's' does not have the same collation in"
                + " tables '" + full("_src") + "' and '" + full("_dst") + "'.",
                assertError(4945, switchSql()).getMessage());
    }

    @Test
    void aDifferentNullabilityIs4985() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL)");
        assertEquals("ALTER TABLE SWITCH statement failed because column 'id' does not have the same nullability"
                + " attribute in tables '" + full("_src") + "' and '" + full("_dst") + "'.",
                assertError(4985, switchSql()).getMessage());
    }

    @Test
    void anIndexOfTheTargetThatTheSourceLacksIs4947() throws SQLException {
        both("[id] int NOT NULL PRIMARY KEY, [v] int NOT NULL");
        exec("CREATE INDEX [ix_" + table + "] ON " + dst() + " ([v])");
        exec("INSERT INTO " + src() + " ([id], [v]) VALUES (1, 1)");
        assertEquals("ALTER TABLE SWITCH statement failed. There is no identical index in source table '"
                + full("_src") + "' for the index 'ix_" + table + "' in target table '" + full("_dst") + "' .",
                assertError(4947, switchSql()).getMessage());
        // an index on other columns is not identical either
        exec("CREATE INDEX [ix_" + table + "_other] ON " + src() + " ([id], [v])");
        assertError(4947, switchSql());
        exec("CREATE INDEX [ix_" + table + "_same] ON " + src() + " ([v])");
        exec(switchSql());
        assertEquals(1, count(conn, dst()));
    }

    @Test
    void aClusteredIndexOnOnlyOneTableIs4913() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [v] int NOT NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL CONSTRAINT [pk_" + table + "] PRIMARY KEY, [v] int NOT NULL)");
        assertEquals("ALTER TABLE SWITCH statement failed. The table '" + full("_dst") + "' has clustered index 'pk_"
                + table + "' while the table '" + full("_src") + "' does not have clustered index.",
                assertError(4913, switchSql()).getMessage());
    }

    @Test
    void aCheckConstraintOfTheTargetThatTheSourceLacksIs4972() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [v] int NOT NULL)");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [v] int NOT NULL CHECK ([v] > 0))");
        assertEquals("ALTER TABLE SWITCH statement failed. Check constraints or partition function of source table '"
                + full("_src") + "' allows values that are not allowed by check constraints or partition function on"
                + " target table '" + full("_dst") + "'.", assertError(4972, switchSql()).getMessage());
    }

    @Test
    void aSourceReferencedByAForeignKeyIs4967() throws SQLException {
        both("[id] int NOT NULL PRIMARY KEY");
        exec("CREATE TABLE " + other() + " ([pid] int NOT NULL CONSTRAINT [fk_" + table + "] REFERENCES " + src()
                + " ([id]))");
        assertEquals("ALTER TABLE SWITCH statement failed. SWITCH is not allowed because source table '"
                + full("_src") + "' contains primary key for constraint 'fk_" + table + "'.",
                assertError(4967, switchSql()).getMessage());
    }

    @Test
    void aForeignKeyOfTheTargetWithoutACorrespondingOneOnTheSourceIs4968() throws SQLException {
        exec("CREATE TABLE " + other() + " ([id] int NOT NULL PRIMARY KEY)");
        exec("CREATE TABLE " + src() + " ([pid] int NOT NULL)");
        exec("CREATE TABLE " + dst() + " ([pid] int NOT NULL CONSTRAINT [fk_" + table + "] REFERENCES " + other()
                + " ([id]))");
        assertEquals("ALTER TABLE SWITCH statement failed. Target table '" + full("_dst") + "' has foreign key for"
                + " constraint 'fk_" + table + "' but source table '" + full("_src") + "' does not have corresponding"
                + " key.", assertError(4968, switchSql()).getMessage());
        exec("DROP TABLE " + src());
        exec("CREATE TABLE " + src() + " ([pid] int NOT NULL CONSTRAINT [fk_" + table + "_s] REFERENCES " + other()
                + " ([id]))");
        exec("INSERT INTO " + other() + " ([id]) VALUES (1)");
        exec("INSERT INTO " + src() + " ([pid]) VALUES (1)");
        exec(switchSql());
        assertEquals(1, count(conn, dst()));
    }

    @Test
    void aNotTrustedCheckOfTheSourceForATrustedOneOfTheTargetIs4960() throws Exception {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL, [v] int NOT NULL CONSTRAINT [ck_" + table
                + "_s] CHECK ([v] >= 0))");
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL, [v] int NOT NULL CONSTRAINT [ck_" + table
                + "_d] CHECK ([v] >= 0))");
        // a bulk load without CHECK_CONSTRAINTS leaves the source's constraint not trusted
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(conn)) {
            bc.setDestinationTableName(src());
            bc.writeToServer(new IntRows(1, 4));
        }
        assertEquals(Boolean.TRUE, scalar("SELECT [is_not_trusted] FROM sys.check_constraints WHERE [name] = 'ck_"
                + table + "_s'"));
        assertEquals("ALTER TABLE SWITCH statement failed. Check constraint 'ck_" + table + "_s' in source table '"
                + full("_src") + "' is NOCHECK constraint but the matching check constraint 'ck_" + table
                + "_d' in target table '" + full("_dst") + "' is CHECK.", assertError(4960, switchSql()).getMessage());
    }

    @Test
    void aNoCheckForeignKeyOfTheSourceForATrustedOneOfTheTargetIs4974() throws SQLException {
        exec("CREATE TABLE " + other() + " ([id] int NOT NULL PRIMARY KEY)");
        exec("CREATE TABLE " + src() + " ([pid] int NOT NULL)");
        exec("ALTER TABLE " + src() + " WITH NOCHECK ADD CONSTRAINT [fk_" + table + "_s] FOREIGN KEY ([pid])"
                + " REFERENCES " + other() + " ([id])");
        exec("CREATE TABLE " + dst() + " ([pid] int NOT NULL CONSTRAINT [fk_" + table + "_d] REFERENCES " + other()
                + " ([id]))");
        assertEquals("ALTER TABLE SWITCH statement failed. Foreign key constraint 'fk_" + table + "_s' is NOCHECK in"
                + " source table '" + full("_src") + "' and the corresponding constraint 'fk_" + table + "_d' is CHECK"
                + " in target table '" + full("_dst") + "'. The source table constraint must be in CHECK.",
                assertError(4974, switchSql()).getMessage());
    }

    @Test
    void aTableSwitchedToItselfIs4955() throws SQLException {
        exec("CREATE TABLE " + src() + " ([id] int NOT NULL)");
        assertEquals("ALTER TABLE SWITCH statement failed. The source table '" + full("_src") + "' and target table '"
                + full("_src") + "' are same.", assertError(4955, "ALTER TABLE " + src() + " SWITCH TO "
                + src()).getMessage());
    }

    @Test
    void aMissingSourceIs4902() throws SQLException {
        exec("CREATE TABLE " + dst() + " ([id] int NOT NULL)");
        // how SQL Server spells the name (as written, with or without its schema) is not asserted
        String m = assertError(4902, switchSql()).getMessage();
        assertTrue(m.startsWith("Cannot find the object \"") && m.contains(table + "_src")
                && m.endsWith("\" because it does not exist or you do not have permissions."), m);
    }
}
