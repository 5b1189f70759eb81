package io.deltafunnel.emulator.fidelity;

import io.deltafunnel.emulator.ListBulkData;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SAVE TRANSACTION and ROLLBACK TRANSACTION name (Transact-SQL): a rollback to a savepoint undoes what followed it
 * (bulk loads included) and leaves the transaction open with {@code @@TRANCOUNT} unchanged; duplicate names roll back
 * to the most recent; an unknown name is 6401; SAVE outside a transaction is 628; the outermost transaction's name
 * rolls everything back. The JDBC savepoint API (mssql-jdbc sends SAVE TRAN / ROLLBACK TRAN) works the same way.
 */
abstract class SavepointScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    private void create() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY)");
    }

    private void insert(int id) throws SQLException {
        exec("INSERT INTO " + t() + " ([id]) VALUES (" + id + ")");
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

    @Test
    void rollbackToASavepointUndoesWhatFollowedAndKeepsTheTransaction() throws SQLException {
        create();
        exec("BEGIN TRAN");
        insert(1);
        exec("SAVE TRAN before_two");
        insert(2);
        exec("ROLLBACK TRAN before_two");
        assertEquals(1, intScalar("SELECT @@TRANCOUNT"));
        assertEquals(1, intScalar("SELECT XACT_STATE()"));
        assertEquals(List.of(1), ids());
        insert(3);
        exec("COMMIT TRAN");
        assertEquals(List.of(1, 3), ids());
    }

    @Test
    void duplicateNamesRollBackToTheMostRecentAndTheSavepointStays() throws SQLException {
        create();
        exec("BEGIN TRANSACTION");
        insert(1);
        exec("SAVE TRANSACTION sp");
        insert(2);
        exec("SAVE TRANSACTION sp");
        insert(3);
        exec("ROLLBACK TRANSACTION sp");
        assertEquals(List.of(1, 2), ids());
        insert(4);
        exec("ROLLBACK TRANSACTION sp");
        assertEquals(List.of(1, 2), ids(), "the same savepoint again");
        exec("COMMIT");
        assertEquals(List.of(1, 2), ids());
    }

    @Test
    void rollingBackToAnOuterSavepointDiscardsTheInnerOnes() throws SQLException {
        create();
        exec("BEGIN TRAN");
        insert(1);
        exec("SAVE TRAN outer_sp");
        insert(2);
        exec("SAVE TRAN inner_sp");
        insert(3);
        exec("ROLLBACK TRAN outer_sp");
        assertEquals(List.of(1), ids());
        SQLException e = assertError(6401, "ROLLBACK TRAN inner_sp");
        assertEquals("Cannot roll back inner_sp. No transaction or savepoint of that name was found.", e.getMessage());
        assertEquals(1, intScalar("SELECT @@TRANCOUNT"), "the failed rollback leaves the transaction open");
        exec("COMMIT");
        assertEquals(List.of(1), ids());
    }

    @Test
    void unknownNameIs6401AndSavepointNamesAreCaseSensitive() throws SQLException {
        create();
        exec("BEGIN TRAN");
        insert(1);
        exec("SAVE TRAN Mixed");
        insert(2);
        SQLException e = assertError(6401, "ROLLBACK TRAN mixed");
        assertEquals("Cannot roll back mixed. No transaction or savepoint of that name was found.", e.getMessage());
        assertEquals(List.of(1, 2), ids());
        exec("ROLLBACK TRAN Mixed");
        assertEquals(List.of(1), ids());
        exec("ROLLBACK");
        assertEquals(List.of(), ids());
    }

    @Test
    void saveOutsideATransactionIs628() throws SQLException {
        SQLException e = assertError(628, "SAVE TRAN nowhere");
        assertEquals("Cannot issue SAVE TRANSACTION when there is no active transaction.", e.getMessage());
    }

    @Test
    void theOutermostTransactionsNameRollsEverythingBack() throws SQLException {
        create();
        exec("BEGIN TRAN whole");
        insert(1);
        exec("BEGIN TRAN nested");
        insert(2);
        assertEquals(2, intScalar("SELECT @@TRANCOUNT"));
        assertError(6401, "ROLLBACK TRAN nested");
        exec("ROLLBACK TRAN whole");
        assertEquals(0, intScalar("SELECT @@TRANCOUNT"));
        assertEquals(List.of(), ids());
    }

    @Test
    void savepointNameFromAVariable() throws SQLException {
        create();
        exec("BEGIN TRAN");
        insert(1);
        exec("DECLARE @sp varchar(32) = 'from_var'; SAVE TRAN @sp");
        insert(2);
        exec("DECLARE @sp varchar(32) = 'from_var'; ROLLBACK TRAN @sp");
        exec("COMMIT");
        assertEquals(List.of(1), ids());
    }

    private void bulk(Connection c, int... keys) throws SQLException {
        ListBulkData data = new ListBulkData().column("id", Types.INTEGER, 10, 0);
        for (int k : keys) {
            data.row(k);
        }
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            bc.setDestinationTableName(t());
            bc.writeToServer(data);
        }
    }

    @Test
    void aBulkLoadAfterASavepointIsRolledBackWithIt() throws SQLException {
        create();
        exec("BEGIN TRAN");
        insert(1);
        exec("SAVE TRAN before_bulk");
        bulk(conn, 10, 11, 12);
        assertEquals(List.of(1, 10, 11, 12), ids());
        exec("ROLLBACK TRAN before_bulk");
        assertEquals(List.of(1), ids());
        bulk(conn, 20);
        exec("COMMIT");
        assertEquals(List.of(1, 20), ids());
    }

    /**
     * What the producer's rejected-rows bisection does (mssql.reject.RowBisection): under implicit transactions
     * (setAutoCommit(false)) a SELECT without a table opens no transaction, so {@code SELECT @@TRANCOUNT} tells
     * whether a savepoint can be set; a bulk load refused for a duplicate key (2627) ends only its statement, the
     * savepoint set before it takes it back and the transaction goes on; refused as the transaction's first
     * statement, rolling back the transaction it started loses nothing else.
     */
    @Test
    void aBulkLoadRefusedForItsDataIsUndoneBySavepointOrByTheTransactionItStarted() throws SQLException {
        create();
        insert(1);
        conn.setAutoCommit(false);
        try {
            assertEquals(0, intScalar("SELECT @@TRANCOUNT"));
            assertEquals(0, intScalar("SELECT @@TRANCOUNT"), "a SELECT without a table opens no transaction");
            SQLException first = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> bulk(conn, 2, 1));
            assertEquals(2627, first.getErrorCode());
            exec("IF @@TRANCOUNT > 0 ROLLBACK TRAN");
            assertEquals(0, intScalar("SELECT @@TRANCOUNT"));
            bulk(conn, 2);
            assertEquals(1, intScalar("SELECT @@TRANCOUNT"));
            exec("SAVE TRAN deltafunnel_rows");
            SQLException again = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> bulk(conn, 3, 1, 4));
            assertEquals(2627, again.getErrorCode());
            assertEquals(1, intScalar("SELECT XACT_STATE()"), "the transaction stays usable");
            exec("ROLLBACK TRAN deltafunnel_rows");
            exec("SAVE TRAN deltafunnel_rows");
            bulk(conn, 3);
            conn.commit();
        } finally {
            conn.setAutoCommit(true);
        }
        assertEquals(List.of(1, 2, 3), ids());
    }

    @Test
    void jdbcSavepointsUseTheSameMechanism() throws SQLException {
        create();
        conn.setAutoCommit(false);
        insert(1);
        Savepoint sp = conn.setSavepoint("halves");
        bulk(conn, 5, 6);
        insert(7);
        conn.rollback(sp);
        assertEquals(1, intScalar("SELECT @@TRANCOUNT"));
        Savepoint unnamed = conn.setSavepoint();
        insert(8);
        conn.rollback(unnamed);
        insert(9);
        conn.commit();
        conn.setAutoCommit(true);
        assertEquals(List.of(1, 9), ids());
    }

    @Test
    void aTableCreatedAfterASavepointIsDroppedByTheRollbackToIt() throws SQLException {
        create();
        String later = table + "_later";
        dropIfExists(later);
        exec("BEGIN TRAN");
        insert(1);
        exec("SAVE TRAN before_ddl");
        exec("CREATE TABLE [dbo].[" + later + "] ([id] int NOT NULL)");
        org.junit.jupiter.api.Assertions.assertNotNull(scalar("SELECT OBJECT_ID('dbo." + later + "')"));
        exec("ROLLBACK TRAN before_ddl");
        org.junit.jupiter.api.Assertions.assertNull(scalar("SELECT OBJECT_ID('dbo." + later + "')"),
                "the CREATE TABLE after the savepoint is undone");
        exec("COMMIT");
        assertEquals(List.of(1), ids());
    }
}
