package io.deltafunnel.routes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;

import io.deltafunnel.sample.SampleDeltaWriter;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample Delta table the application loads by default: {@code rows} orders with a realistic mix of
 * types (integers, decimals, doubles, booleans, dates, timestamps with and without zone, strings of varied
 * length, NULLs). The content is a pure function of the row number, so every build generates the same table.
 */
public final class SampleTable {

    private static final Logger LOG = LoggerFactory.getLogger(SampleTable.class);

    /** The query that defines the sample rows; deterministic. */
    static String select(int rows) {
        return "SELECT i AS order_id,"
               + " (hash(i) % 50000)::INTEGER AS customer_id,"
               + " ['NEW','PAID','SHIPPED','DELIVERED','RETURNED'][1 + (i % 5)::INTEGER] AS status,"
               + " ((hash(i * 7) % 10000000) / 100.0)::DECIMAL(12,2) AS amount,"
               + " (i % 17) / 100.0 AS discount,"
               + " (1 + i % 40)::SMALLINT AS quantity,"
               + " (i % 11 = 0) AS priority,"
               + " DATE '2020-01-01' + (i % 2000)::INTEGER AS order_date,"
               + " TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_microseconds(i * 1234567) AS updated_at,"
               + " CASE WHEN i % 7 = 0 THEN NULL"
               + "      ELSE TIMESTAMP '2024-01-01 00:00:00' + to_microseconds(i * 7654321) END AS shipped_at,"
               + " CASE WHEN i % 13 = 0 THEN NULL"
               + "      ELSE 'customer note ' || i || ' ' || repeat('x', (i % 60)::INTEGER) || ' été ✓' END AS note"
               + " FROM range(" + rows + ") t(i)";
    }

    private SampleTable() {
    }

    /**
     * Makes sure the sample at {@code dir} holds {@code rows} rows: generates it when there is none, regenerates it
     * when it holds another number of rows, and logs which of the three it did. Returns true if it wrote one.
     *
     * @throws IOException when {@code dir} holds anything but a Delta table (it is never deleted then)
     */
    public static boolean ensure(Path dir, int rows) throws SQLException, IOException {
        if (Files.isDirectory(dir.resolve("_delta_log"))) {
            long present = count(dir);
            if (present == rows) {
                LOG.info("Sample Delta table present at {} ({} rows)", dir.toAbsolutePath(), present);
                return false;
            }
            LOG.info("Sample Delta table at {} holds {} rows, {} requested (deltafunnel.sample.rows): regenerating it",
                    dir.toAbsolutePath(), present, rows);
            deleteDeltaTable(dir);
        } else if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IOException("deltafunnel.sample.dir " + dir.toAbsolutePath()
                            + " exists and is not a Delta table; choose an empty or new directory");
                }
            }
        }
        Files.createDirectories(dir);
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duckdb, dir).append(select(rows), 4);
        }
        LOG.info("Generated the sample Delta table ({} rows) at {}", rows, dir.toAbsolutePath());
        return true;
    }

    /** The rows of the Delta table at {@code dir}; -1 when it cannot be read (it is then regenerated). */
    static long count(Path dir) {
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            DeltaViews.register(duckdb, List.of(new DeltaTableSpec("sample", dir.toAbsolutePath().toString(), null,
                    null)));
            try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM sample")) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (Exception e) {
            LOG.info("Sample Delta table at {} cannot be read ({}): regenerating it", dir.toAbsolutePath(), e.getMessage());
            return -1;
        }
    }

    /** Deletes a Delta table directory: only its {@code _delta_log} and Parquet data files, else it refuses. */
    private static void deleteDeltaTable(Path dir) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(dir)) {
            all = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path p : all) {
            String rel = dir.relativize(p).toString();
            boolean ours = p.equals(dir) || rel.startsWith("_delta_log") || rel.endsWith(".parquet")
                           || rel.endsWith(".parquet.crc") || Files.isDirectory(p);
            if (!ours) {
                throw new IOException("the sample directory " + dir.toAbsolutePath() + " holds " + rel
                        + ", which is not part of a Delta table; not deleting it. Choose another deltafunnel.sample.dir");
            }
        }
        for (Path p : all) {
            Files.delete(p);
        }
    }
}
