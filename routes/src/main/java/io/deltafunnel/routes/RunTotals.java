package io.deltafunnel.routes;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.query.WholeViewQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The number of rows a run will deliver, when it can be known up front: for a source that reads one Delta table
 * whole ({@code delta.<view>=…} and {@code query=SELECT * FROM <view>}), the row count of that snapshot, counted in
 * the background on a private DuckDB connection (DuckDB answers {@code count(*)} over Parquet from the file
 * metadata, deletion vectors applied; it needs no {@code stats} in the log). A shard of a sharded load reads a share
 * of the files, so the table's count would be wrong: its total is what the consumer says in header
 * {@code CamelDeltaFunnelExpectedRows} (the share's rows from the Delta log's statistics, when every file has them;
 * {@link RouteRun#knownTotal()}). Any other query: unknown (no percentage, no ETA).
 */
final class RunTotals {

    private static final Logger LOG = LoggerFactory.getLogger(RunTotals.class);

    private RunTotals() {
    }

    /** A total being counted; {@link #rows()} is null until known (or when it cannot be known). */
    static final class Total {
        private volatile Long rows;
        private volatile Thread counting;

        Long rows() {
            return rows;
        }

        void cancel() {
            Thread t = counting;
            if (t != null) {
                t.interrupt();
            }
        }
    }

    /** Starts counting the total of the run {@code source} is about to make; null when it cannot be known. */
    static Total start(DeltaFunnelEndpoint source) {
        DeltaTableSpec spec;
        try {
            List<DeltaTableSpec> specs = source.deltaSpecs();
            String query = source.queryText();
            if (specs.size() != 1 || query == null || source.getConfiguration().getShardCount() > 1) {
                // a shard reads its share of the files only: the table's total would be wrong
                return null;
            }
            if (!WholeViewQuery.readsWhole(query, specs.get(0).view())) {
                return null;
            }
            spec = specs.get(0);
        } catch (RuntimeException e) {
            return null;
        }
        Total total = new Total();
        Thread t = new Thread(() -> {
            try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
                DeltaViews.registerQuietly(duckdb, List.of(spec)); // the run logs its own view once
                try (Statement st = duckdb.createStatement();
                     ResultSet rs = st.executeQuery("SELECT count(*) FROM \"" + spec.view().replace("\"", "\"\"") + "\"")) {
                    rs.next();
                    total.rows = rs.getLong(1);
                }
            } catch (Exception e) {
                LOG.debug("Could not count the rows of {} for the progress percentage", spec.path(), e);
            } finally {
                total.counting = null;
            }
        }, "deltafunnel-total-" + spec.view());
        t.setDaemon(true);
        total.counting = t;
        t.start();
        return total;
    }
}
