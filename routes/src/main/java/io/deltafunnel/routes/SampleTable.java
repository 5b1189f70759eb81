package io.deltafunnel.routes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

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

    /** Generates the sample at {@code dir} unless a Delta table is already there. Returns true if it wrote one. */
    public static boolean ensure(Path dir, int rows) throws SQLException, IOException {
        if (Files.isDirectory(dir.resolve("_delta_log"))) {
            LOG.info("Sample Delta table already present at {}", dir.toAbsolutePath());
            return false;
        }
        Files.createDirectories(dir);
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duckdb, dir).append(select(rows), 4);
        }
        LOG.info("Generated the sample Delta table ({} rows) at {}", rows, dir.toAbsolutePath());
        return true;
    }
}
