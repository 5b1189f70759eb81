package io.deltafunnel.emulator.fidelity;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * ALTER TABLE ... ADD column and ALTER TABLE ... ALTER COLUMN as ALTER TABLE (Transact-SQL) documents them, as the
 * component's schema evolution uses them: added columns at the end (NULL in the existing rows unless NOT NULL with a
 * DEFAULT), 4901 for NOT NULL without a default on a non-empty table, 2705 for a name the table has; widening in
 * place keeps the values; a narrowing that loses data fails (8115, 2628) and changes nothing; a column that a key,
 * index, CHECK, FOREIGN KEY or DEFAULT depends on fails with 5074 for the object, then 4922.
 */
abstract class AlterTableScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    /** name|data_type|char_max|precision|scale|datetime_precision|nullable in ordinal order. */
    private List<String> columns() throws SQLException {
        List<String> out = new ArrayList<>();
        for (List<Object> r : rows("SELECT [COLUMN_NAME], [DATA_TYPE], [CHARACTER_MAXIMUM_LENGTH],"
                + " [NUMERIC_PRECISION], [NUMERIC_SCALE], [DATETIME_PRECISION], [IS_NULLABLE], [ORDINAL_POSITION]"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE [TABLE_SCHEMA] = 'dbo' AND [TABLE_NAME] = '" + table
                + "' ORDER BY [ORDINAL_POSITION]")) {
            out.add(r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(3) + "|" + r.get(4) + "|" + r.get(5)
                    + "|" + r.get(6));
        }
        return out;
    }

    private List<String> sysColumns() throws SQLException {
        List<String> out = new ArrayList<>();
        for (List<Object> r : rows("SELECT [name], [column_id] FROM sys.columns WHERE [object_id] = OBJECT_ID('dbo."
                + table + "') ORDER BY [column_id]")) {
            out.add(r.get(0) + "#" + r.get(1));
        }
        return out;
    }

    private List<String> selectStarNames() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + t())) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnName(i));
            }
        }
        return out;
    }

    /** Every message of an error, in the order the server sent them (mssql-jdbc chains them). */
    private static List<String> messages(SQLException e) {
        List<String> out = new ArrayList<>();
        for (SQLException x = e; x != null; x = x.getNextException()) {
            out.add(x.getErrorCode() + ": " + x.getMessage());
        }
        return out;
    }

    // ---- ADD --------------------------------------------------------------------------------------------------

    @Test
    void addedNullableColumnsGoToTheEndAndReadNullInExistingRows() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [a] varchar(10) NULL)");
        exec("INSERT INTO " + t() + " ([id], [a]) VALUES (1, 'x'), (2, 'y')");
        exec("ALTER TABLE " + t() + " ADD [b] nvarchar(20) NULL, [c] int NULL CONSTRAINT [DF_" + table
                + "_c] DEFAULT 5, [d] decimal(12,3)");
        assertEquals(List.of("id|int|null|10|0|null|NO", "a|varchar|10|null|null|null|YES",
                "b|nvarchar|20|null|null|null|YES", "c|int|null|10|0|null|YES", "d|decimal|null|12|3|null|YES"),
                columns());
        assertEquals(List.of("id#1", "a#2", "b#3", "c#4", "d#5"), sysColumns());
        assertEquals(List.of("id", "a", "b", "c", "d"), selectStarNames());
        assertEquals(List.of(List.of(1, "x"), List.of(2, "y")),
                rows("SELECT [id], [a] FROM " + t() + " WHERE [b] IS NULL AND [c] IS NULL AND [d] IS NULL"
                        + " ORDER BY [id]"), "existing rows read NULL, also where a DEFAULT exists");
        exec("INSERT INTO " + t() + " ([id]) VALUES (3)");
        assertEquals(5, ((Number) scalar("SELECT [c] FROM " + t() + " WHERE [id] = 3")).intValue(),
                "new rows get the default");
    }

    @Test
    void addedNotNullColumnWithDefaultFillsExistingRows() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY)");
        exec("INSERT INTO " + t() + " ([id]) VALUES (1), (2)");
        exec("ALTER TABLE " + t() + " ADD [flag] bit NOT NULL CONSTRAINT [DF_" + table + "_flag] DEFAULT 0,"
                + " [code] varchar(5) NOT NULL DEFAULT 'n/a'");
        assertEquals(List.of(List.of(1, false, "n/a"), List.of(2, false, "n/a")),
                rows("SELECT [id], [flag], [code] FROM " + t() + " ORDER BY [id]"));
        assertEquals("NO", scalar("SELECT [IS_NULLABLE] FROM INFORMATION_SCHEMA.COLUMNS WHERE [TABLE_NAME] = '"
                + table + "' AND [COLUMN_NAME] = 'flag'"));
    }

    @Test
    void nullableColumnWithDefaultWithValuesFillsExistingRows() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY)");
        exec("INSERT INTO " + t() + " ([id]) VALUES (1)");
        exec("ALTER TABLE " + t() + " ADD [v] int NULL DEFAULT 42 WITH VALUES");
        assertEquals(42, ((Number) scalar("SELECT [v] FROM " + t())).intValue());
    }

    @Test
    void notNullWithoutDefaultIs4901OnANonEmptyTableAndAllowedOnAnEmptyOne() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY)");
        exec("INSERT INTO " + t() + " ([id]) VALUES (1)");
        SQLException e = assertError(4901, "ALTER TABLE " + t() + " ADD [n] int NOT NULL");
        assertEquals("ALTER TABLE only allows columns to be added that can contain nulls, or have a DEFAULT definition"
                + " specified, or the column being added is an identity or timestamp column, or alternatively if none"
                + " of the previous conditions are satisfied the table must be empty to allow addition of this column."
                + " Column 'n' cannot be added to non-empty table '" + table
                + "' because it does not satisfy these conditions.", e.getMessage());
        assertEquals(List.of("id|int|null|10|0|null|NO"), columns(), "nothing added");
        exec("DELETE FROM " + t());
        exec("ALTER TABLE " + t() + " ADD [n] int NOT NULL");
        assertEquals(List.of("id|int|null|10|0|null|NO", "n|int|null|10|0|null|NO"), columns());
    }

    @Test
    void aColumnNameTheTableHasIs2705() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [a] int NULL)");
        SQLException e = assertError(2705, "ALTER TABLE " + t() + " ADD [b] int NULL, [A] int NULL");
        assertEquals("Column names in each table must be unique. Column name 'A' in table '" + table
                + "' is specified more than once.", e.getMessage());
        assertEquals(2, columns().size(), "neither column added");
    }

    // ---- ALTER COLUMN: widening ----------------------------------------------------------------------------

    @Test
    void wideningInPlaceKeepsTheValues() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [i] int NULL, [s] smallint NULL,"
                + " [d] decimal(9,2) NULL, [v] varchar(5) NULL, [m] varchar(5) NULL, [u] varchar(5) NULL,"
                + " [b] varbinary(2) NULL, [t] datetime2(3) NULL, [f] float(24) NULL)");
        exec("INSERT INTO " + t() + " VALUES (1, 2147483647, -32768, 1234567.89, 'abcde', 'max', 'uni',"
                + " 0x0102, '2024-05-06 07:08:09.123', 1.5)");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [i] bigint NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [s] int NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [d] decimal(18,4) NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [v] varchar(50) NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [m] varchar(max) NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [u] nvarchar(10) NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [b] varbinary(16) NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [t] datetime2(7) NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [f] float(53) NULL");
        assertEquals(List.of("id|int|null|10|0|null|NO", "i|bigint|null|19|0|null|YES",
                "s|int|null|10|0|null|YES", "d|decimal|null|18|4|null|YES", "v|varchar|50|null|null|null|YES",
                "m|varchar|-1|null|null|null|YES", "u|nvarchar|10|null|null|null|YES",
                "b|varbinary|16|null|null|null|YES", "t|datetime2|null|null|null|7|YES",
                "f|float|null|53|null|null|YES"), columns());
        List<Object> r = rows("SELECT [i], [s], [d], [v], [m], [u], [b], [t], [f] FROM "
                + t()).get(0);
        assertEquals(2147483647L, ((Number) r.get(0)).longValue());
        assertEquals(-32768, ((Number) r.get(1)).intValue());
        assertEquals(new BigDecimal("1234567.8900"), r.get(2));
        assertEquals(List.of("abcde", "max", "uni"), r.subList(3, 6));
        assertArrayEquals(new byte[] {1, 2}, (byte[]) r.get(6));
        assertEquals(java.sql.Timestamp.valueOf("2024-05-06 07:08:09.123"), r.get(7));
        assertEquals(1.5, ((Number) r.get(8)).doubleValue());
    }

    @Test
    void alterColumnWithoutNotNullMakesTheColumnNullable() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [n] int NOT NULL)");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [n] bigint");
        assertEquals(List.of("id|int|null|10|0|null|NO", "n|bigint|null|19|0|null|YES"), columns());
        exec("ALTER TABLE " + t() + " ALTER COLUMN [n] bigint NOT NULL");
        assertEquals("NO", scalar("SELECT [IS_NULLABLE] FROM INFORMATION_SCHEMA.COLUMNS WHERE [TABLE_NAME] = '"
                + table + "' AND [COLUMN_NAME] = 'n'"));
    }

    @Test
    void notNullOverExistingNullsIs515() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [n] int NULL)");
        exec("INSERT INTO " + t() + " ([id], [n]) VALUES (1, NULL)");
        SQLException e = assertError(515, "ALTER TABLE " + t() + " ALTER COLUMN [n] int NOT NULL");
        assertEquals("Cannot insert the value NULL into column 'n', table '" + conn.getCatalog() + ".dbo." + table
                + "'; column does not allow nulls. UPDATE fails.", e.getMessage());
        assertEquals("YES", scalar("SELECT [IS_NULLABLE] FROM INFORMATION_SCHEMA.COLUMNS WHERE [TABLE_NAME] = '"
                + table + "' AND [COLUMN_NAME] = 'n'"));
    }

    // ---- ALTER COLUMN: narrowing that loses data -------------------------------------------------------------

    @Test
    void narrowingAnIntegerThatDoesNotFitIs8115AndChangesNothing() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [n] int NULL)");
        exec("INSERT INTO " + t() + " ([id], [n]) VALUES (1, 40000)");
        SQLException e = assertError(8115, "ALTER TABLE " + t() + " ALTER COLUMN [n] smallint NULL");
        assertEquals("Arithmetic overflow error converting expression to data type smallint.", e.getMessage());
        assertEquals(List.of("id|int|null|10|0|null|NO", "n|int|null|10|0|null|YES"), columns());
        assertEquals(40000, ((Number) scalar("SELECT [n] FROM " + t())).intValue());
    }

    @Test
    void narrowingADecimalThatDoesNotFitIs8115() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [d] decimal(10,2) NULL)");
        exec("INSERT INTO " + t() + " ([id], [d]) VALUES (1, 12345.67)");
        SQLException e = assertError(8115, "ALTER TABLE " + t() + " ALTER COLUMN [d] decimal(5,2) NULL");
        assertEquals("Arithmetic overflow error converting numeric to data type numeric.", e.getMessage());
        assertEquals(new BigDecimal("12345.67"), scalar("SELECT [d] FROM " + t()));
    }

    @Test
    void shorteningAStringThatDoesNotFitIs2628AndChangesNothing() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [v] varchar(10) NULL)");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (1, 'ab'), (2, 'abcdef')");
        SQLException e = assertError(2628, "ALTER TABLE " + t() + " ALTER COLUMN [v] varchar(3) NULL");
        assertEquals("String or binary data would be truncated in table '" + conn.getCatalog() + ".dbo." + table
                + "', column 'v'. Truncated value: 'abc'.", e.getMessage());
        assertEquals(List.of("id|int|null|10|0|null|NO", "v|varchar|10|null|null|null|YES"), columns());
        exec("ALTER TABLE " + t() + " ALTER COLUMN [v] varchar(6) NULL");
        assertEquals("v|varchar|6|null|null|null|YES", columns().get(1), "a narrowing that fits is allowed");
    }

    // ---- ALTER COLUMN: dependent objects ------------------------------------------------------------------------

    @Test
    void aPrimaryKeyColumnIs5074Then4922() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL CONSTRAINT [PK_" + table + "] PRIMARY KEY)");
        SQLException e = assertError(5074, "ALTER TABLE " + t() + " ALTER COLUMN [id] bigint NOT NULL");
        assertEquals(List.of("5074: The object 'PK_" + table + "' is dependent on column 'id'.",
                "4922: ALTER TABLE ALTER COLUMN id failed because one or more objects access this column."),
                messages(e));
        assertEquals("int", scalar("SELECT [DATA_TYPE] FROM INFORMATION_SCHEMA.COLUMNS WHERE [TABLE_NAME] = '"
                + table + "' AND [COLUMN_NAME] = 'id'"));
    }

    @Test
    void anIndexedColumnIs5074NamingTheIndexUnlessAVarcharGrows() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [k] int NULL, [name] varchar(10) NULL)");
        exec("CREATE INDEX [ix_" + table + "_k] ON " + t() + " ([k])");
        exec("CREATE INDEX [ix_" + table + "_name] ON " + t() + " ([name])");
        SQLException e = assertError(5074, "ALTER TABLE " + t() + " ALTER COLUMN [k] bigint NULL");
        assertEquals(List.of("5074: The index 'ix_" + table + "_k' is dependent on column 'k'.",
                "4922: ALTER TABLE ALTER COLUMN k failed because one or more objects access this column."),
                messages(e));
        exec("ALTER TABLE " + t() + " ALTER COLUMN [name] varchar(40) NULL");
        assertEquals(40, ((Number) scalar("SELECT [CHARACTER_MAXIMUM_LENGTH] FROM INFORMATION_SCHEMA.COLUMNS WHERE"
                + " [TABLE_NAME] = '" + table + "' AND [COLUMN_NAME] = 'name'")).intValue());
        e = assertError(5074, "ALTER TABLE " + t() + " ALTER COLUMN [name] nvarchar(40) NULL");
        assertEquals("The index 'ix_" + table + "_name' is dependent on column 'name'.", e.getMessage(),
                "a type change of an indexed column");
    }

    @Test
    void checkUniqueForeignKeyAndDefaultDependents() throws SQLException {
        String parent = table + "_p";
        dropIfExists(table);
        dropIfExists(parent);
        exec("CREATE TABLE [dbo].[" + parent + "] ([id] int NOT NULL PRIMARY KEY)");
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [c] int NULL CONSTRAINT [CK_" + table + "] CHECK ([c] > 0),"
                + " [u] varchar(10) NULL CONSTRAINT [UQ_" + table + "] UNIQUE, [p] int NULL CONSTRAINT [FK_" + table
                + "] REFERENCES [dbo].[" + parent + "] ([id]), [d] int NULL CONSTRAINT [DF_" + table + "] DEFAULT 0,"
                + " [dv] varchar(5) NULL CONSTRAINT [DF_" + table + "_dv] DEFAULT 'x')");
        assertEquals("5074: The object 'CK_" + table + "' is dependent on column 'c'.",
                messages(assertError(5074, "ALTER TABLE " + t() + " ALTER COLUMN [c] bigint NULL")).get(0));
        assertEquals("5074: The object 'FK_" + table + "' is dependent on column 'p'.",
                messages(assertError(5074, "ALTER TABLE " + t() + " ALTER COLUMN [p] bigint NULL")).get(0));
        assertEquals("5074: The object 'DF_" + table + "' is dependent on column 'd'.",
                messages(assertError(5074, "ALTER TABLE " + t() + " ALTER COLUMN [d] bigint NULL")).get(0));
        assertEquals("5074: The object 'UQ_" + table + "' is dependent on column 'u'.",
                messages(assertError(5074, "ALTER TABLE " + t() + " ALTER COLUMN [u] nvarchar(10) NULL")).get(0));
        // documented exceptions: the length of a variable-length column in a UNIQUE constraint, the length of a
        // column with a DEFAULT (its type staying)
        exec("ALTER TABLE " + t() + " ALTER COLUMN [u] varchar(30) NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [dv] varchar(20) NULL");
        exec("INSERT INTO " + t() + " ([id]) VALUES (1)");
        assertEquals("x", scalar("SELECT [dv] FROM " + t()), "the default stays");
        assertNull(scalar("SELECT [u] FROM " + t()));
    }

    // ---- the component's path after evolution: bulk copy into the evolved table ------------------------------

    @Test
    void bulkCopyWritesTheEvolvedShape() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [name] varchar(5) NULL)");
        exec("INSERT INTO " + t() + " ([id], [name]) VALUES (1, 'old')");
        exec("ALTER TABLE " + t() + " ADD [qty] bigint NULL");
        exec("ALTER TABLE " + t() + " ALTER COLUMN [name] nvarchar(20) NULL");
        io.deltafunnel.emulator.ListBulkData data = new io.deltafunnel.emulator.ListBulkData()
                .column("id", java.sql.Types.INTEGER, 10, 0)
                .column("name", java.sql.Types.NVARCHAR, 20, 0)
                .column("qty", java.sql.Types.BIGINT, 19, 0)
                .row(2, "\u0141\u00f3d\u017a long name", 9_000_000_000L);
        try (com.microsoft.sqlserver.jdbc.SQLServerBulkCopy bc = new com.microsoft.sqlserver.jdbc.SQLServerBulkCopy(
                conn)) {
            bc.setDestinationTableName(t());
            bc.writeToServer(data);
        }
        assertEquals(List.of(List.of(1, "old"), List.of(2, "\u0141\u00f3d\u017a long name")),
                rows("SELECT [id], [name] FROM " + t() + " ORDER BY [id]"));
        assertEquals(9_000_000_000L, ((Number) scalar("SELECT [qty] FROM " + t() + " WHERE [id] = 2")).longValue());
        assertNull(scalar("SELECT [qty] FROM " + t() + " WHERE [id] = 1"));
    }
}
