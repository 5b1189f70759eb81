package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import java.sql.SQLException;
import java.util.List;
import org.h2.api.ErrorCode;
import org.junit.jupiter.api.Test;

/**
 * H2's "Duplicate column name" (42121), which the emulator's own checks normally pre-empt (a race with another
 * session's DDL is the way to reach it), reaches the client as SQL Server's 2705 from the catalogue, not as the
 * emulator's generic H2 error.
 */
class H2ErrorsDuplicateColumnTest {

    @Test
    void duplicateColumnNameIs2705WithSqlServersMessage() {
        TableDef table = new TableDef("dbo", "orders", 1234, List.of(), List.of());
        SQLException h2 = new SQLException("Duplicate column name \"x\"; SQL statement:\nALTER TABLE ...", "42S21",
                ErrorCode.DUPLICATE_COLUMN_NAME_1);
        SqlServerError e = H2Errors.map(h2, table, "master");
        assertEquals(ErrorCatalog.DUPLICATE_COLUMN_NAME.number(), e.number());
        assertEquals(2705, e.number());
        assertEquals("Column names in each table must be unique. Column name 'x' in table 'orders' is specified more"
                + " than once.", e.getMessage());
    }
}
