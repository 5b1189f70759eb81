package io.deltafunnel.emulator.fidelity;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code sys.indexes} as far as the product reads it: the sharded load's plan table looks its
 * {@code (load_key, status)} index up by {@code object_id} and name before creating it. A primary key is a clustered
 * unique index (SQL Server's default when the table has no clustered index yet), a unique constraint a nonclustered
 * unique one, {@code CREATE INDEX} a nonclustered one.
 */
abstract class IndexCatalogScenarios extends Scenarios {

    /** name|type_desc|is_unique|is_primary_key|is_unique_constraint of the named indexes of {@code table}. */
    private List<String> indexes(String name) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT [name], [type_desc], [is_unique], [is_primary_key],"
                + " [is_unique_constraint] FROM sys.indexes WHERE [object_id] = OBJECT_ID(?) AND [name] IS NOT NULL"
                + " ORDER BY [name]")) {
            ps.setString(1, "dbo." + name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getBoolean(3) + "|" + rs.getBoolean(4)
                            + "|" + rs.getBoolean(5));
                }
            }
        }
        return out;
    }

    @Test
    void primaryKeyUniqueConstraintAndCreatedIndexAreListedWithTheirKinds() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL CONSTRAINT [pk_" + table + "] PRIMARY KEY,"
                + " [code] varchar(10) NOT NULL CONSTRAINT [uq_" + table + "] UNIQUE, [load_key] varchar(100) NOT NULL,"
                + " [status] varchar(20) NOT NULL)");
        exec("CREATE INDEX [ix_" + table + "] ON [dbo].[" + table + "] ([load_key], [status])");
        assertEquals(List.of(
                "ix_" + table + "|NONCLUSTERED|false|false|false",
                "pk_" + table + "|CLUSTERED|true|true|false",
                "uq_" + table + "|NONCLUSTERED|true|false|true"), indexes(table));
    }

    @Test
    void anIndexIsFoundByObjectIdAndNameAsTheLoadPlanTableLooksItUp() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([load_id] varchar(100) NOT NULL PRIMARY KEY,"
                + " [load_key] varchar(100) NOT NULL, [status] varchar(20) NOT NULL)");
        String lookUp = "SELECT [name] FROM sys.indexes WHERE [object_id] = OBJECT_ID(?) AND [name] = ?";
        assertEquals(0, count(lookUp, "ix_key_status"));
        exec("CREATE INDEX [ix_key_status] ON [dbo].[" + table + "] ([load_key], [status])");
        assertEquals(1, count(lookUp, "ix_key_status"));
        assertEquals(0, count(lookUp, "ix_other"));
    }

    private int count(String sql, String indexName) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, "dbo." + table);
            ps.setString(2, indexName);
            int n = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    n++;
                }
            }
            return n;
        }
    }
}
