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

    /** Rows of {@code sql} (one parameter: the schema-qualified table) joined by "|". */
    private List<String> lines(String sql, String tableName) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, "dbo." + tableName);
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder b = new StringBuilder();
                    for (int k = 1; k <= n; k++) {
                        b.append(k > 1 ? "|" : "").append(rs.getString(k));
                    }
                    out.add(b.toString());
                }
            }
        }
        return out;
    }

    private static final String INDEX_IDS = "SELECT [name], [index_id], [type], [type_desc] FROM sys.indexes"
            + " WHERE [object_id] = OBJECT_ID(?) ORDER BY [index_id]";

    @Test
    void aHeapHasIndexIdZeroAndAClusteredIndexIsIndexIdOne() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [v] int NOT NULL)");
        assertEquals(List.of("null|0|0|HEAP"), lines(INDEX_IDS, table));
        exec("CREATE INDEX [ix_" + table + "_v] ON [dbo].[" + table + "] ([v])");
        exec("CREATE CLUSTERED INDEX [cx_" + table + "] ON [dbo].[" + table + "] ([id])");
        assertEquals(List.of("cx_" + table + "|1|1|CLUSTERED", "ix_" + table + "_v|2|2|NONCLUSTERED"),
                lines(INDEX_IDS, table));
        assertError(1902, "CREATE CLUSTERED INDEX [cx2_" + table + "] ON [dbo].[" + table + "] ([v])");
    }

    @Test
    void aNonclusteredPrimaryKeyLeavesIndexIdOneToTheClusteredIndex() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL CONSTRAINT [pk_" + table + "] PRIMARY KEY"
                + " NONCLUSTERED, [v] int NOT NULL)");
        assertEquals(List.of("null|0|0|HEAP", "pk_" + table + "|2|2|NONCLUSTERED"), lines(INDEX_IDS, table));
        exec("CREATE CLUSTERED INDEX [cx_" + table + "] ON [dbo].[" + table + "] ([v])");
        assertEquals(List.of("cx_" + table + "|1|1|CLUSTERED", "pk_" + table + "|2|2|NONCLUSTERED"),
                lines(INDEX_IDS, table));
    }

    @Test
    void indexColumnsListTheKeyColumnsInOrderWithTheirDirectionThenTheIncludedColumns() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([a] int NOT NULL CONSTRAINT [pk_" + table + "] PRIMARY KEY,"
                + " [b] int NOT NULL, [c] varchar(10) NULL, [d] int NULL)");
        exec("CREATE UNIQUE INDEX [ix_" + table + "] ON [dbo].[" + table + "] ([c] DESC, [b]) INCLUDE ([d])");
        assertEquals(List.of(
                "pk_" + table + "|1|1|a|1|0|0",
                "ix_" + table + "|2|1|c|1|1|0",
                "ix_" + table + "|2|2|b|2|0|0",
                "ix_" + table + "|2|3|d|0|0|1"), lines("SELECT i.[name], i.[index_id], ic.[index_column_id],"
                + " c.[name], ic.[key_ordinal], CAST(ic.[is_descending_key] AS int),"
                + " CAST(ic.[is_included_column] AS int) FROM sys.indexes i"
                + " JOIN sys.index_columns ic ON ic.[object_id] = i.[object_id] AND ic.[index_id] = i.[index_id]"
                + " JOIN sys.columns c ON c.[object_id] = ic.[object_id] AND c.[column_id] = ic.[column_id]"
                + " WHERE i.[object_id] = OBJECT_ID(?) ORDER BY i.[index_id], ic.[index_column_id]", table));
    }
}
