package io.deltafunnel.emulator;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every supported type with edge values, written four ways and read back exactly. */
class TypeRoundTripTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static ListBulkData bulkData(boolean nativeTemporals) {
        ListBulkData d = new ListBulkData();
        for (TypeFixture.Col c : TypeFixture.COLS) {
            d.column(c.name, c.jdbcType, c.precision, c.scale);
        }
        for (TypeFixture.Row r : TypeFixture.rows()) {
            Object[] v = new Object[r.in.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = TypeFixture.bulkValue(r.in[i], TypeFixture.COLS.get(i), nativeTemporals);
            }
            d.row(v);
        }
        return d;
    }

    private static void bulkLoad(Connection c, String table, ListBulkData data) throws SQLException {
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            bc.setDestinationTableName("[dbo].[" + table + "]");
            bc.writeToServer(data);
        }
    }

    static void verify(Connection c, String table) throws SQLException {
        verify(c, table, TypeFixture.rows());
    }

    static void verify(Connection c, String table, List<TypeFixture.Row> rows) throws SQLException {
        List<String> problems = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT " + TypeFixture.columnList() + " FROM [dbo].[" + table
                        + "] ORDER BY [id]")) {
            int n = 0;
            while (rs.next()) {
                TypeFixture.Row r = rows.get(n++);
                for (int i = 0; i < TypeFixture.COLS.size(); i++) {
                    TypeFixture.Col col = TypeFixture.COLS.get(i);
                    Object actual = TypeFixture.read(rs, i + 1, col);
                    if (!TypeFixture.same(r.expected[i], actual, col)) {
                        problems.add("row " + n + " " + col.name + ": expected "
                                + TypeFixture.describe(TypeFixture.normalize(r.expected[i], col)) + " got "
                                + TypeFixture.describe(actual));
                    }
                }
            }
            assertEquals(rows.size(), n, "row count");
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    @Test
    void bulkDataWithTemporalsAsText() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, TypeFixture.createTable("rt_text"));
            bulkLoad(c, "rt_text", bulkData(false));
            verify(c, "rt_text");
        }
    }

    @Test
    void bulkDataWithNativeTemporals() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator(), ";sendTemporalDataTypesAsStringForBulkCopy=false")) {
            TestSupport.exec(c, TypeFixture.createTable("rt_native"));
            bulkLoad(c, "rt_native", bulkData(true));
            List<TypeFixture.Row> rows = TypeFixture.rows();
            // in native mode mssql-jdbc converts smalldatetime itself and truncates the seconds (29.999 -> :04)
            rows.get(3).expected[18] = TypeFixture.ldt("2024-01-02 03:04:00");
            verify(c, "rt_native", rows);
        }
    }

    @Test
    void bulkFromResultSet() throws Exception {
        // the destination connection uses 4096-byte packets: the bulk stream spans many of them
        try (Connection src = TestSupport.connect(SERVER.emulator()); Connection dst = TestSupport.connect(SERVER.emulator(), ";packetSize=4096")) {
            TestSupport.exec(src, TypeFixture.createTable("rt_rs_src"));
            bulkLoad(src, "rt_rs_src", bulkData(false));
            TestSupport.exec(dst, TypeFixture.createTable("rt_rs_dst"));
            try (Statement st = src.createStatement();
                    ResultSet rs = st.executeQuery("SELECT " + TypeFixture.columnList()
                            + " FROM [dbo].[rt_rs_src] ORDER BY [id]");
                    SQLServerBulkCopy bc = new SQLServerBulkCopy(dst)) {
                bc.setDestinationTableName("[dbo].[rt_rs_dst]");
                bc.writeToServer(rs);
            }
            verify(dst, "rt_rs_dst");
        }
    }

    @Test
    void preparedStatementInsert() throws Exception {
        // sendTimeAsDatetime=false: otherwise the driver itself sends LocalTime as datetime (ms precision)
        try (Connection c = TestSupport.connect(SERVER.emulator(), ";sendTimeAsDatetime=false")) {
            TestSupport.exec(c, TypeFixture.createTable("rt_ps"));
            StringBuilder marks = new StringBuilder();
            for (int i = 0; i < TypeFixture.COLS.size(); i++) {
                marks.append(i > 0 ? ", " : "").append('?');
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO [dbo].[rt_ps] (" + TypeFixture.columnList()
                    + ") VALUES (" + marks + ")")) {
                for (TypeFixture.Row r : TypeFixture.rows()) {
                    for (int i = 0; i < r.in.length; i++) {
                        TypeFixture.Col col = TypeFixture.COLS.get(i);
                        Object v = r.in[i];
                        if (v == null) {
                            ps.setNull(i + 1, col.jdbcType == microsoft.sql.Types.GUID ? java.sql.Types.CHAR
                                    : col.jdbcType);
                        } else if (col.kind == TypeFixture.Kind.INT) {
                            ps.setLong(i + 1, ((Number) v).longValue());
                        } else if (col.kind == TypeFixture.Kind.DTO) {
                            ps.setObject(i + 1, microsoft.sql.DateTimeOffset.valueOf(
                                    (java.time.OffsetDateTime) v));
                        } else {
                            ps.setObject(i + 1, v);
                        }
                    }
                    assertEquals(1, ps.executeUpdate());
                }
            }
            verify(c, "rt_ps");
        }
    }
}
