package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Base of the SQL Server fidelity scenarios. Each scenario class ({@code XxxScenarios}) is abstract and has two
 * subclasses: {@code XxxTest} against the emulator ({@link EmulatorServer}) and {@code XxxIT} against a real
 * SQL Server ({@link SqlServerContainer}). Every test gets its own table name, derived from the test's name, and
 * a fresh connection {@link #conn} that is closed after the test.
 */
public abstract class Scenarios {
    /** The server this run of the scenarios talks to. */
    protected abstract ServerUnderTest server();

    /** A table name unique to the test method: {@code fid_<method>} (bracket-quote it in SQL). */
    protected String table;
    /** The test's own connection (auto-commit), closed after the test. */
    protected Connection conn;

    @BeforeEach
    void openScenario(TestInfo info) throws SQLException {
        table = "fid_" + info.getTestMethod().orElseThrow().getName();
        conn = server().connect();
    }

    @AfterEach
    void closeScenario() throws SQLException {
        if (conn != null) {
            conn.close();
        }
    }

    /** Drops {@code name} (in dbo) if it exists. */
    protected void dropIfExists(String name) throws SQLException {
        exec("IF OBJECT_ID('dbo." + name.replace("'", "''") + "') IS NOT NULL DROP TABLE [dbo].["
                + name.replace("]", "]]") + "]");
    }

    protected void exec(String sql) throws SQLException {
        exec(conn, sql);
    }

    protected static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    protected Object scalar(String sql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getObject(1);
        }
    }

    protected List<List<Object>> rows(String sql) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    /** Runs {@code sql} on {@code c}, asserts it fails with SQL Server error {@code number}, returns the error. */
    protected static SQLException assertError(int number, Connection c, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> exec(c, sql), sql);
        assertEquals(number, e.getErrorCode(), () -> "error number for " + sql + ": " + e.getMessage());
        return e;
    }

    protected SQLException assertError(int number, String sql) {
        return assertError(number, conn, sql);
    }
}
