package io.deltafunnel.routes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Run in a child JVM by {@link NativeLayoutTest}: opens an in-memory DuckDB connection, prints the answer of a query
 * and the file this process maps DuckDB's JNI library from ({@code /proc/self/maps}).
 */
public final class NativeLayoutProbe {

    private NativeLayoutProbe() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 6 * 7")) {
            rs.next();
            System.out.println("answer " + rs.getInt(1));
        }
        Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(l -> l.contains("libduckdb_java"))
                .map(l -> l.substring(l.indexOf('/')))
                .distinct()
                .forEach(path -> System.out.println("mapped " + path));
    }
}
