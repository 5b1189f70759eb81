package io.deltafunnel.delta;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** One in-memory DuckDB connection and a temp directory per test, plus small query helpers. */
abstract class DuckDbTestSupport {

    @TempDir
    Path tmp;

    Connection conn;

    @BeforeEach
    void openConnection() throws SQLException {
        conn = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterEach
    void closeConnection() throws SQLException {
        conn.close();
    }

    DeltaTableWriter table(String name) {
        return new DeltaTableWriter(conn, tmp.resolve(name));
    }

    /** Rows of a query, each rendered as its values joined by '|', in query order. */
    List<String> rows(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    if (i > 1) {
                        sb.append('|');
                    }
                    sb.append(rs.getString(i));
                }
                rows.add(sb.toString());
            }
        }
        return rows;
    }

    /** column name -> DuckDB type of a relation. */
    Map<String, String> describe(String relation) throws SQLException {
        Map<String, String> types = new java.util.LinkedHashMap<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE " + relation)) {
            while (rs.next()) {
                types.put(rs.getString(1), rs.getString(2));
            }
        }
        return types;
    }

    DeltaSnapshot register(String view, DeltaTableWriter t) throws DeltaException {
        return DeltaViews.register(conn, List.of(DeltaTableSpec.latest(view, t.root.toString()))).get(0);
    }

    DeltaSnapshot register(String view, DeltaTableWriter t, long version) throws DeltaException {
        return DeltaViews.register(conn, List.of(new DeltaTableSpec(view, t.root.toString(), version, null))).get(0);
    }
}
