package io.deltafunnel.emulator.fidelity;

import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import com.microsoft.sqlserver.jdbc.SQLServerSortOrder;
import io.deltafunnel.emulator.ListBulkData;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bulk copy options as SQL Server applies them: without CHECK_CONSTRAINTS neither CHECK nor FOREIGN KEY constraints
 * are checked (NOT NULL and keys always are); with it a conflict fails the load with 547 and leaves nothing; an
 * ORDER hint naming the clustered key is verified against the rows (4819); ROWS_PER_BATCH and FIRE_TRIGGERS
 * are accepted.
 */
abstract class BulkOptionScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    private static ListBulkData idV(int... ids) {
        ListBulkData d = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.INTEGER, 10, 0);
        for (int id : ids) {
            d.row(id, -id);
        }
        return d;
    }

    private void bulk(ListBulkData data, SQLServerBulkCopyOptions o, String... orderHint) throws SQLException {
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(conn)) {
            bc.setDestinationTableName(t());
            bc.setBulkCopyOptions(o);
            for (String col : orderHint) {
                bc.addColumnOrderHint(col, SQLServerSortOrder.ASCENDING);
            }
            bc.writeToServer(data);
        }
    }

    private static SQLServerBulkCopyOptions options(boolean checkConstraints) throws SQLException {
        SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
        o.setCheckConstraints(checkConstraints);
        return o;
    }

    private int count(String name) throws SQLException {
        return ((Number) scalar("SELECT COUNT(*) FROM [dbo].[" + name + "]")).intValue();
    }

    @Test
    void withoutCheckConstraintsACheckConstraintIsNotChecked() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [v] int NULL CONSTRAINT [CK_" + table + "] CHECK ([v] > 0))");
        bulk(idV(1, 2), options(false));
        assertEquals(2, count(table));
    }

    @Test
    void withCheckConstraintsACheckConflictIs547AndLeavesNothing() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [v] int NULL CONSTRAINT [CK_" + table + "] CHECK ([v] > 0))");
        SQLException e = assertThrows(SQLException.class, () -> bulk(idV(1, 2), options(true)));
        assertEquals(547, e.getErrorCode(), e.getMessage());
        assertTrue(e.getMessage().contains("CK_" + table), e.getMessage());
        assertEquals(0, count(table));
    }

    @Test
    void foreignKeyIsCheckedOnlyWithCheckConstraints() throws SQLException {
        String parent = table + "_p";
        dropIfExists(table);
        dropIfExists(parent);
        exec("CREATE TABLE [dbo].[" + parent + "] ([id] int NOT NULL PRIMARY KEY)");
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL CONSTRAINT [FK_" + table + "] REFERENCES [dbo].[" + parent
                + "] ([id]), [v] int NULL)");
        SQLException e = assertThrows(SQLException.class, () -> bulk(idV(1), options(true)));
        assertEquals(547, e.getErrorCode(), e.getMessage());
        assertTrue(e.getMessage().contains("FK_" + table), e.getMessage());
        assertEquals(0, count(table));
        bulk(idV(1, 2), options(false));
        assertEquals(2, count(table));
        exec("DROP TABLE " + t());
        exec("DROP TABLE [dbo].[" + parent + "]");
    }

    @Test
    void notNullAndPrimaryKeyAreCheckedWithoutCheckConstraints() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [v] int NULL)");
        SQLException e = assertThrows(SQLException.class, () -> bulk(idV(1, 1), options(false)));
        assertEquals(2627, e.getErrorCode(), e.getMessage());
        assertEquals(0, count(table));
    }

    @Test
    void orderHintOnTheClusteredKeyAcceptsSortedRows() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY CLUSTERED, [v] int NULL)");
        bulk(idV(1, 2, 5), options(false), "id");
        assertEquals(3, count(table));
    }

    @Test
    void orderHintOnTheClusteredKeyRejectsUnsortedRowsWith4819() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY CLUSTERED, [v] int NULL)");
        SQLException e = assertThrows(SQLException.class, () -> bulk(idV(3, 1, 2), options(false), "id"));
        assertEquals(4819, e.getErrorCode(), e.getMessage());
        assertEquals(0, count(table));
    }

    @Test
    void orderHintOnOtherColumnsIsOnlyAHint() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY CLUSTERED, [v] int NULL)");
        bulk(idV(1, 2, 3), options(false), "v");
        assertEquals(List.of(List.<Object>of(1, -1), List.<Object>of(2, -2), List.<Object>of(3, -3)),
                rows("SELECT [id], [v] FROM " + t() + " ORDER BY [id]"));
    }

    @Test
    void rowsPerBatchAndFireTriggersAreAccepted() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [v] int NULL)");
        SQLServerBulkCopyOptions o = options(false);
        o.setBatchSize(2);
        o.setFireTriggers(true);
        o.setTableLock(true);
        bulk(idV(1, 2, 3, 4, 5), o);
        assertEquals(5, count(table));
    }
}
