package io.deltafunnel.mssql;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlServerErrorsTest {

    @Test
    void transientByErrorNumber() {
        for (int n : new int[] {1205, 1222, 40197, 40501, 40613, 49918, 49919, 49920, 4060, 10928, 10929}) {
            assertTrue(SqlServerErrors.isTransient(new SQLException("whatever", "S0001", n)), "error " + n);
        }
    }

    @Test
    void notTransient() {
        assertFalse(SqlServerErrors.isTransient(new SQLException("String or binary data would be truncated",
                "22001", 8152)));
        assertFalse(SqlServerErrors.isTransient(new SQLException("Violation of PRIMARY KEY", "23000", 2627)));
        // Message text never decides.
        assertFalse(SqlServerErrors.isTransient(new SQLException("deadlock victim, connection reset, timeout",
                "S0001", 50000)));
    }

    @Test
    void connectionFailures() {
        assertTrue(SqlServerErrors.isTransient(new SQLException("x", "08S01", 0)));
        assertTrue(SqlServerErrors.isTransient(new SQLException("x", "08006", 0)));
        assertTrue(SqlServerErrors.isTransient(new SQLNonTransientConnectionException("closed")));
    }

    @Test
    void chainedAndCauses() {
        SQLException head = new SQLException("outer", "S0001", 3621);
        head.setNextException(new SQLException("inner", "40001", 1205));
        assertTrue(SqlServerErrors.isTransient(head));
        SQLException wrapped = new SQLException("wrapper", null, 0, new SQLException("x", "S0001", 40613));
        assertTrue(SqlServerErrors.isTransient(wrapped));
        assertEquals(40613, SqlServerErrors.errorNumber(wrapped));
        assertNull(SqlServerErrors.errorNumber(new RuntimeException()));
    }
}
