package io.deltafunnel.routes;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.emulator.MssqlEmulator;

/** Helpers shared by the application tests. */
final class TestTargets {

    static final String PASSWORD = "Routes!Test1";

    private TestTargets() {
    }

    static MssqlEmulator startEmulator() {
        return MssqlEmulator.builder().port(0).password(PASSWORD).start();
    }

    /** A small sample table, generated once per JVM. */
    static synchronized Path smallSample() throws Exception {
        Path dir = Path.of("target", "test-sample", "orders");
        SampleTable.ensure(dir, 5000);
        return dir.toAbsolutePath();
    }

    static List<List<Object>> rows(MssqlEmulator emu, String sql) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(emu.jdbcUrl(), emu.user(), emu.password());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    static long count(MssqlEmulator emu, String table) throws Exception {
        return ((Number) rows(emu, "SELECT COUNT_BIG(*) FROM " + table).get(0).get(0)).longValue();
    }
}
