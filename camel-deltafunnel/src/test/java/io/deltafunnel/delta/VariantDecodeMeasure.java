package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.add;
import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.schema;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import io.deltafunnel.query.VariantColumns;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.TransferPair;
import org.duckdb.DuckDBResultSet;

/**
 * A rough measurement (not a test, no assertion) of where variant decoding costs least, written for DELTA.md's
 * "Variant columns". It generates a Delta table of event-like variants (an object of nine fields: integers, a
 * decimal, strings, a timestamp, a nested object and an array), then times, per value:
 * <ol>
 * <li>the reader's per-batch Arrow transform ({@link VariantColumns#decode}) alone, on batches already exported;</li>
 * <li>DuckDB exporting the raw variant struct to Arrow (the baseline every option pays);</li>
 * <li>DuckDB's own VARIANT-to-JSON in SQL ({@code CAST(variant_bytes_to_variant(metadata || value) AS JSON)}),
 *     the in-database alternative, exported as text.</li>
 * </ol>
 * Run: {@code java -cp <test classpath> io.deltafunnel.delta.VariantDecodeMeasure [rows] [scratch dir]}.
 */
public final class VariantDecodeMeasure {

    private VariantDecodeMeasure() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("variant-measure");
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:"); BufferAllocator allocator = new RootAllocator()) {
            DeltaTableWriter t = new DeltaTableWriter(conn, dir.resolve("events"));
            // the variant bytes are built by DuckDB's own encoder (VARIANT -> Parquet variant parts), unshredded
            t.dataFile("part-0.parquet", "SELECT range AS id, CAST(variant_to_parquet_variant({'user': range, "
                    + "'kind': 'click', 'score': (range % 1000)::DECIMAL(9,2) / 7, 'ok': range % 3 = 0, "
                    + "'at': TIMESTAMPTZ '2024-01-01 00:00:00+00' + INTERVAL (range) SECOND, "
                    + "'page': '/products/' || (range % 977), 'tags': ['a', 'b', (range % 10)::VARCHAR], "
                    + "'geo': {'lat': 48.1 + (range % 100) / 1000.0, 'lon': 11.5}, 'n': range * 2}::VARIANT) "
                    + "AS STRUCT(metadata BLOB, \"value\" BLOB)) AS v FROM range(" + rows + ")");
            t.commit(0, protocol(3, 7, "variantType"), metadata(schema(field("id", prim("long")),
                    field("v", prim("variant")))), add("part-0.parquet"));
            DeltaViews.register(conn, List.of(DeltaTableSpec.latest("t", t.root.toString())));
            for (int round = 0; round < 3; round++) {
                long export = 0;
                long decode = 0;
                long bytes = 0;
                long t0 = System.nanoTime();
                try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT v FROM t");
                        ArrowReader reader = (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(allocator,
                                65536)) {
                    while (reader.loadNextBatch()) {
                        VectorSchemaRoot shared = reader.getVectorSchemaRoot();
                        VectorSchemaRoot owned = VectorSchemaRoot.create(shared.getSchema(), allocator);
                        TransferPair pair = shared.getVector(0).makeTransferPair(owned.getVector(0));
                        pair.transfer();
                        owned.setRowCount(shared.getRowCount());
                        long d0 = System.nanoTime();
                        try (VectorSchemaRoot json = VariantColumns.decode(owned, allocator)) {
                            decode += System.nanoTime() - d0;
                            bytes += json.getVector(0).getBufferSize();
                        }
                    }
                }
                export = System.nanoTime() - t0 - decode;
                long n0 = System.nanoTime();
                try (Statement st = conn.createStatement();
                        ResultSet rs = st.executeQuery("SELECT CAST(variant_bytes_to_variant(v.\""
                                + VariantStruct.METADATA + "\" || v.\"" + VariantStruct.VALUE + "\") AS JSON)::VARCHAR FROM t");
                        ArrowReader reader = (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(allocator,
                                65536)) {
                    while (reader.loadNextBatch()) {
                        bytes += 0;
                    }
                }
                long duck = System.nanoTime() - n0;
                System.out.printf("round %d: %,d values: Java decode %.0f ns/value (%.1f MB JSON); DuckDB export of "
                        + "the raw struct %.0f ns/value; DuckDB SQL VARIANT->JSON incl. export %.0f ns/value%n", round,
                        rows, (double) decode / rows, bytes / 1e6, (double) export / rows, (double) duck / rows);
            }
            System.out.println("allocator outstanding: " + allocator.getAllocatedMemory());
        }
    }
}
