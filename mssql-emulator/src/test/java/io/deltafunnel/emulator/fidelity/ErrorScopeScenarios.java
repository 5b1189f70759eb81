package io.deltafunnel.emulator.fidelity;

import io.deltafunnel.emulator.ListBulkData;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What a failed statement takes with it (the emulator's {@code semantics.ErrorScope}): with XACT_ABORT OFF a
 * duplicate key, constraint conflict, NULL, truncation, arithmetic overflow or lock timeout ends only the statement
 * (the batch goes on, the transaction stays active with XACT_STATE() = 1, its earlier rows commit); a conversion
 * error ends the batch and rolls the transaction back; with XACT_ABORT ON every run-time error does. A bulk load's
 * data error is statement-terminating like an INSERT's.
 */
abstract class ErrorScopeScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    private void create() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL CONSTRAINT [PK_" + table + "] PRIMARY KEY,"
                + " [v] int NULL CONSTRAINT [CK_" + table + "] CHECK ([v] >= 0), [s] varchar(3) NULL,"
                + " [n] smallint NULL)");
        exec("INSERT INTO " + t() + " ([id]) VALUES (1)");
    }

    private int intScalar(String sql) throws SQLException {
        return ((Number) scalar(sql)).intValue();
    }

    private List<Integer> ids() throws SQLException {
        List<Integer> out = new ArrayList<>();
        for (List<Object> r : rows("SELECT [id] FROM " + t() + " ORDER BY [id]")) {
            out.add(((Number) r.get(0)).intValue());
        }
        return out;
    }

    /** The failing statements of the statement-terminating class, by error number. */
    private String failing(int number) {
        switch (number) {
            case 2627: return "INSERT INTO " + t() + " ([id]) VALUES (1)";
            case 547: return "INSERT INTO " + t() + " ([id], [v]) VALUES (50, -1)";
            case 515: return "INSERT INTO " + t() + " ([id]) VALUES (NULL)";
            case 2628: return "INSERT INTO " + t() + " ([id], [s]) VALUES (50, 'abcd')";
            case 8115: return "INSERT INTO " + t() + " ([id], [n]) VALUES (50, 70000)";
            case 8134: return "INSERT INTO " + t() + " ([id], [v]) VALUES (50, 1 / 0)";
            default: throw new IllegalArgumentException(String.valueOf(number));
        }
    }

    @ParameterizedTest
    @CsvSource({"2627", "547", "515", "2628", "8115", "8134"})
    void statementTerminatingErrorKeepsTheTransactionAndItsEarlierRows(int number) throws SQLException {
        create();
        exec("BEGIN TRAN");
        exec("INSERT INTO " + t() + " ([id]) VALUES (2)");
        assertError(number, failing(number));
        assertEquals(1, intScalar("SELECT XACT_STATE()"), "the transaction is still committable");
        assertEquals(1, intScalar("SELECT @@TRANCOUNT"));
        exec("INSERT INTO " + t() + " ([id]) VALUES (3)");
        exec("COMMIT");
        assertEquals(List.of(1, 2, 3), ids());
    }

    @Test
    void statementTerminatingErrorLetsTheRestOfTheBatchRun() throws SQLException {
        create();
        assertError(2627, "INSERT INTO " + t() + " ([id]) VALUES (1); INSERT INTO " + t() + " ([id]) VALUES (4)");
        assertEquals(List.of(1, 4), ids(), "the statement after the duplicate key ran");
    }

    @Test
    void conversionErrorEndsTheBatchAndRollsTheTransactionBack() throws SQLException {
        create();
        exec("BEGIN TRAN");
        exec("INSERT INTO " + t() + " ([id]) VALUES (2)");
        assertError(245, "SELECT CONVERT(int, 'abc'); INSERT INTO " + t() + " ([id]) VALUES (5)");
        assertEquals(0, intScalar("SELECT XACT_STATE()"), "no transaction any more");
        assertEquals(0, intScalar("SELECT @@TRANCOUNT"));
        assertEquals(List.of(1), ids(), "row 2 rolled back, the rest of the batch (row 5) never ran");
    }

    @Test
    void conversionErrorEndsTheBatchOutsideATransactionToo() throws SQLException {
        create();
        assertError(245, "SELECT CONVERT(int, 'abc'); INSERT INTO " + t() + " ([id]) VALUES (5)");
        assertEquals(List.of(1), ids());
    }

    @Test
    void underXactAbortOnADuplicateKeyRollsTheTransactionBackAndEndsTheBatch() throws SQLException {
        create();
        exec("SET XACT_ABORT ON");
        exec("BEGIN TRAN");
        exec("INSERT INTO " + t() + " ([id]) VALUES (2)");
        assertError(2627, "INSERT INTO " + t() + " ([id]) VALUES (1); INSERT INTO " + t() + " ([id]) VALUES (6)");
        assertEquals(0, intScalar("SELECT XACT_STATE()"));
        assertEquals(0, intScalar("SELECT @@TRANCOUNT"));
        exec("SET XACT_ABORT OFF");
        assertEquals(List.of(1), ids());
    }

    @Test
    void lockTimeoutEndsOnlyTheStatement() throws SQLException {
        create();
        String other = "[dbo].[" + table + "_locked]";
        dropIfExists(table + "_locked");
        exec("CREATE TABLE " + other + " ([id] int NOT NULL PRIMARY KEY)");
        exec("INSERT INTO " + other + " ([id]) VALUES (1)");
        try (Connection holder = server().connect()) {
            exec(holder, "BEGIN TRAN");
            exec(holder, "UPDATE " + other + " SET [id] = 2 WHERE [id] = 1");
            exec("BEGIN TRAN");
            exec("INSERT INTO " + t() + " ([id]) VALUES (2)");
            exec("SET LOCK_TIMEOUT 0");
            assertError(1222, "SELECT [id] FROM " + other);
            assertEquals(1, intScalar("SELECT XACT_STATE()"));
            exec("SET LOCK_TIMEOUT -1");
            exec(holder, "ROLLBACK");
            exec("COMMIT");
        }
        assertEquals(List.of(1, 2), ids());
    }

    private void bulk(Connection c, int... keys) throws SQLException {
        ListBulkData data = new ListBulkData().column("id", Types.INTEGER, 10, 0);
        for (int k : keys) {
            data.row(k);
        }
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            bc.setDestinationTableName(t());
            bc.addColumnMapping(1, "id");
            bc.writeToServer(data);
        }
    }

    @Test
    void bulkLoadDuplicateKeyEndsOnlyTheBulkStatement() throws SQLException {
        create();
        conn.setAutoCommit(false);
        exec("INSERT INTO " + t() + " ([id]) VALUES (2)");
        SQLException e = assertThrows(SQLException.class, () -> bulk(conn, 7, 1, 8));
        assertEquals(2627, e.getErrorCode(), e.getMessage());
        assertEquals(1, intScalar("SELECT XACT_STATE()"), "the transaction survives the failed bulk load");
        bulk(conn, 7, 8);
        conn.commit();
        conn.setAutoCommit(true);
        assertEquals(List.of(1, 2, 7, 8), ids(), "nothing of the failed bulk load, everything else");
    }

    @Test
    void bulkLoadDuplicateKeyUnderXactAbortRollsTheTransactionBack() throws SQLException {
        create();
        exec("SET XACT_ABORT ON");
        conn.setAutoCommit(false);
        exec("INSERT INTO " + t() + " ([id]) VALUES (2)");
        SQLException e = assertThrows(SQLException.class, () -> bulk(conn, 7, 1));
        assertEquals(2627, e.getErrorCode(), e.getMessage());
        assertEquals(0, intScalar("SELECT @@TRANCOUNT"), "rolled back");
        conn.rollback();
        conn.setAutoCommit(true);
        exec("SET XACT_ABORT OFF");
        assertEquals(List.of(1), ids());
    }

    @Test
    void xactStateIsZeroOutsideAndOneInsideATransaction() throws SQLException {
        assertEquals(0, intScalar("SELECT XACT_STATE()"));
        exec("BEGIN TRAN");
        assertEquals(1, intScalar("SELECT XACT_STATE()"));
        exec("ROLLBACK");
        assertEquals(0, intScalar("SELECT XACT_STATE()"));
    }
}
