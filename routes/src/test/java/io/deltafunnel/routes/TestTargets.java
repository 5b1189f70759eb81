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

    /**
     * The sample rows written as {@code files} Parquet files (one Delta commit), generated once per JVM: a table that
     * shards split by file. The file names are random, so which shard gets which file differs between generations;
     * {@link #shardFiles} says it for a given table.
     */
    static synchronized Path multiFileSample(int rows, int files) throws Exception {
        Path dir = Path.of("target", "test-sample", "orders-" + rows + "-in-" + files + "-files").toAbsolutePath();
        if (!java.nio.file.Files.isDirectory(dir.resolve("_delta_log"))) {
            java.nio.file.Files.createDirectories(dir);
            try (Connection duckdb = io.deltafunnel.query.DuckDbConnections.open(
                    io.deltafunnel.query.DuckDbSettings.inMemory())) {
                new io.deltafunnel.sample.SampleDeltaWriter(duckdb, dir).append(SampleTable.select(rows), files);
            }
        }
        return dir;
    }

    /**
     * How many data files of the table's first commit each of {@code shardCount} shards reads, by the contract of
     * docs/sharding.md: {@code floorMod(CRC32(UTF-8 bytes of add.path), N)}.
     */
    static int[] shardFiles(Path table, int shardCount) throws Exception {
        int[] files = new int[shardCount];
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{\"add\":\\{\"path\":\"([^\"]+)\"")
                .matcher(java.nio.file.Files.readString(table.resolve("_delta_log/00000000000000000000.json")));
        while (m.find()) {
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(m.group(1).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            files[(int) Math.floorMod(crc.getValue(), (long) shardCount)]++;
        }
        return files;
    }

    static List<List<Object>> rows(MssqlEmulator emu, String sql) throws Exception {
        return rows(emu.jdbcUrl(), emu.user(), emu.password(), sql);
    }

    static List<List<Object>> rows(String url, String user, String password, String sql) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, user, password);
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
