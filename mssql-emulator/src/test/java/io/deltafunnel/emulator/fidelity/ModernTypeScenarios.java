package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import io.deltafunnel.emulator.ListBulkData;
import microsoft.sql.Vector;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL Server 2025's {@code json} and {@code vector(n)} types: created, described in sys.columns and
 * INFORMATION_SCHEMA.COLUMNS, filled by INSERT (text converted to the type) and by bulk copy (mssql-jdbc sends a
 * vector as the vector type, json as text), read back through mssql-jdbc with the JSONSUPPORT / VECTORSUPPORT
 * features negotiated (the driver asks for both), and by a client that turned vector support off, which receives the
 * vector's JSON text as varchar. Text that is not JSON is 13609; a vector with another element count is 42204, one
 * that is not an array of numbers 13670.
 */
abstract class ModernTypeScenarios extends Scenarios {

    private void createTable() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [j] json NULL, [v] vector(3) NULL)");
    }

    private static Float[] floats(float... f) {
        Float[] o = new Float[f.length];
        for (int i = 0; i < f.length; i++) {
            o[i] = f[i];
        }
        return o;
    }

    @Test
    void jsonAndVectorColumnsAreDescribed() throws SQLException {
        createTable();
        assertEquals(List.of(Arrays.asList("j", 244, -1, null), Arrays.asList("v", 165, 20, 3)),
                rows("SELECT name, CAST(system_type_id AS int), CAST(max_length AS int), vector_dimensions"
                        + " FROM sys.columns WHERE object_id = OBJECT_ID('dbo." + table + "') AND name IN ('j', 'v')"
                        + " ORDER BY name"));
        assertEquals("float32", scalar("SELECT vector_base_type_desc FROM sys.columns WHERE object_id = OBJECT_ID('dbo."
                + table + "') AND name = 'v'"));
        assertEquals(List.of(List.of("j", "json"), List.of("v", "vector")), rows("SELECT COLUMN_NAME, DATA_TYPE"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '" + table + "' AND COLUMN_NAME IN ('j', 'v')"
                + " ORDER BY COLUMN_NAME"));
    }

    @Test
    void insertedTextReadsBackAsJsonAndVector() throws SQLException {
        createTable();
        exec("INSERT INTO [dbo].[" + table + "] ([id], [j], [v]) VALUES (1, N'{\"a\":[1,2]}', '[1, 2.5, -3]'),"
                + " (2, NULL, NULL), (3, N'{}', CAST('[0.5,0.25,0.125]' AS vector(3)))");
        try (Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT [id], [j], [v] FROM [dbo].[" + table + "] ORDER BY [id]")) {
            assertEquals("json", rs.getMetaData().getColumnTypeName(2));
            assertEquals("vector", rs.getMetaData().getColumnTypeName(3));
            assertTrue(rs.next());
            assertEquals("{\"a\":[1,2]}", rs.getString(2));
            Vector v = rs.getObject(3, Vector.class);
            assertEquals(3, v.getDimensionCount());
            assertEquals(Vector.VectorDimensionType.FLOAT32, v.getVectorDimensionType());
            assertArrayEquals(floats(1f, 2.5f, -3f), v.getData());
            assertTrue(rs.next());
            assertNull(rs.getString(2));
            assertNull(rs.getObject(3, Vector.class).getData()); // mssql-jdbc: a NULL vector has no data
            assertTrue(rs.wasNull());
            assertTrue(rs.next());
            assertArrayEquals(floats(0.5f, 0.25f, 0.125f), rs.getObject(3, Vector.class).getData());
        }
    }

    @Test
    void bulkCopySendsVectorsExactlyAndJsonAsText() throws SQLException {
        createTable();
        float[] exact = {0.1f, -1.17549435E-38f, 3.4028235E38f};
        ListBulkData data = new ListBulkData().column("id", java.sql.Types.INTEGER, 10, 0)
                .column("j", java.sql.Types.NVARCHAR, 4000, 0)
                .column("v", microsoft.sql.Types.VECTOR, 3, 4)
                .row(1, "{\"k\":\"\u00e9\u4e2d\",\"n\":[1,{\"x\":null}]}",
                        new Vector(3, Vector.VectorDimensionType.FLOAT32, floats(exact)))
                .row(2, null, null);
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(conn)) {
            bc.setDestinationTableName("[dbo].[" + table + "]");
            bc.writeToServer(data);
        }
        try (Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT [j], [v] FROM [dbo].[" + table + "] ORDER BY [id]")) {
            assertTrue(rs.next());
            assertEquals("{\"k\":\"\u00e9\u4e2d\",\"n\":[1,{\"x\":null}]}", rs.getString(1));
            assertArrayEquals(floats(exact), rs.getObject(2, Vector.class).getData());
            assertTrue(rs.next());
            assertNull(rs.getString(1));
            assertNull(rs.getObject(2, Vector.class).getData());
            assertTrue(rs.wasNull());
        }
    }

    @Test
    void badValuesAreRefused() throws SQLException {
        createTable();
        assertError(13609, "INSERT INTO [dbo].[" + table + "] ([id], [j]) VALUES (1, N'{\"a\":')");
        assertError(13609, "INSERT INTO [dbo].[" + table + "] ([id], [j]) VALUES (1, N'not json')");
        assertError(42204, "INSERT INTO [dbo].[" + table + "] ([id], [v]) VALUES (1, '[1, 2]')");
        assertError(13670, "INSERT INTO [dbo].[" + table + "] ([id], [v]) VALUES (1, '[1, \"a\", 3]')");
        assertEquals(0, ((Number) scalar("SELECT COUNT(*) FROM [dbo].[" + table + "]")).intValue());
    }

    @Test
    void aClientWithoutVectorSupportReadsTheJsonText() throws SQLException {
        createTable();
        exec("INSERT INTO [dbo].[" + table + "] ([id], [v]) VALUES (1, '[1, 2.5, -3]')");
        try (Connection old = server().connect(";vectorTypeSupport=off");
                Statement st = old.createStatement();
                ResultSet rs = st.executeQuery("SELECT [v] FROM [dbo].[" + table + "]")) {
            assertEquals("varchar", rs.getMetaData().getColumnTypeName(1));
            assertTrue(rs.next());
            String text = rs.getString(1).trim();
            assertTrue(text.startsWith("[") && text.endsWith("]"), text);
            String[] parts = text.substring(1, text.length() - 1).split(",");
            float[] got = new float[parts.length];
            for (int i = 0; i < parts.length; i++) {
                got[i] = Float.parseFloat(parts[i].trim());
            }
            assertArrayEquals(new float[] {1f, 2.5f, -3f}, got);
        }
    }
}
