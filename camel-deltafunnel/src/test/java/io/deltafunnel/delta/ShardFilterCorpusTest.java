package io.deltafunnel.delta;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file split of sharded loads on the real corpus tables (partitioned tables, deletion vectors, column mapping,
 * checkpoints, change-feed tables): for N = 1, 2 and 4 the shards' files are disjoint and cover the snapshot, and the
 * shards' rows together are exactly the unsharded rows (multiset compare), for snapshots and for change feeds.
 */
class ShardFilterCorpusTest {

    private static final int[] COUNTS = {1, 2, 4};
    private static final List<String> CHANGE_FEED_TABLES = List.of("cdc_ict_table", "cdf-table",
            "cdf-table-non-partitioned", "cdf-table-with-cdc-and-dvs", "checkpoint-cdf-table", "simple_table_with_cdc");

    private Connection conn;
    private Path root;

    @BeforeEach
    void setUp() throws Exception {
        root = DeltaConformanceTest.corpus();
        Assumptions.assumeTrue(Files.isRegularFile(root.resolve("expected.jsonl")), "Delta corpus not found at " + root);
        conn = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (conn != null) {
            conn.close();
        }
    }

    /** Every row of a view as JSON text, sorted: a multiset. */
    private List<String> rows(String view) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT to_json(x)::VARCHAR FROM " + view + " x")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        Collections.sort(rows);
        return rows;
    }

    private List<String> readableTables() throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<String> tables = new ArrayList<>();
        for (String line : Files.readAllLines(root.resolve("expected.jsonl"), StandardCharsets.UTF_8)) {
            JsonNode o = json.readTree(line);
            if (!o.has("error") && !o.has("skipped_columns")) {
                tables.add(o.get("table").asText());
            }
        }
        return tables;
    }

    @Test
    void theHashIsCrc32OfTheUtf8PathModN() {
        String path = "part=ä/part-00000-1.snappy.parquet";
        CRC32 crc = new CRC32();
        crc.update(path.getBytes(StandardCharsets.UTF_8));
        for (int n : new int[] {1, 2, 3, 4, 7}) {
            assertEquals((int) (crc.getValue() % n), ShardFilter.shardOf(path, n));
        }
        assertEquals(0, ShardFilter.shardOf(path, 1));
        assertTrue(ShardFilter.of(ShardFilter.shardOf(path, 4), 4).keeps(path));
        assertFalse(ShardFilter.nothing().keeps(path));
        assertThrows(IllegalArgumentException.class, () -> ShardFilter.of(4, 4));
        assertThrows(IllegalArgumentException.class, () -> ShardFilter.of(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> ShardFilter.of(0, 0));
    }

    @Test
    void snapshotShardsAreDisjointAndAddUpToTheSnapshot() throws Exception {
        int tables = 0;
        int split = 0;
        Set<String> kinds = new HashSet<>();
        for (String name : readableTables()) {
            String path = root.resolve("tables").resolve(name).toString();
            DeltaSnapshot whole = DeltaViews.register(conn, List.of(DeltaTableSpec.latest("whole", path))).get(0);
            List<String> expected = rows("whole");
            tables++;
            if (!whole.partitionColumns().isEmpty()) {
                kinds.add("partitioned");
            }
            if (whole.files().stream().anyMatch(f -> f.deletionVector() != null)) {
                kinds.add("deletion vectors");
            }
            for (int n : COUNTS) {
                List<String> union = new ArrayList<>();
                List<AddFile> files = new ArrayList<>();
                int nonEmpty = 0;
                for (int i = 0; i < n; i++) {
                    DeltaSnapshot shard = DeltaViews.register(conn, List.of(DeltaTableSpec.latest("s", path)), "s",
                            ShardFilter.of(i, n)).get(0);
                    assertEquals(whole.version(), shard.version());
                    files.addAll(shard.files());
                    List<String> rows = rows("s");
                    nonEmpty += rows.isEmpty() ? 0 : 1;
                    union.addAll(rows);
                    for (AddFile f : shard.files()) {
                        assertEquals(i, ShardFilter.shardOf(f.path(), n), name + ": " + f.path());
                    }
                }
                assertEquals(whole.files().size(), files.size(), name + " N=" + n + ": every file in one shard");
                assertEquals(new HashSet<>(whole.files()), new HashSet<>(files), name + " N=" + n);
                Collections.sort(union);
                assertEquals(expected, union, name + " N=" + n + ": the shards' rows are the snapshot's rows");
                if (n > 1 && nonEmpty > 1) {
                    split++;
                }
            }
        }
        assertTrue(tables >= 20, "corpus tables read: " + tables);
        assertTrue(split >= 10, "tables really split over several shards: " + split);
        assertEquals(Set.of("partitioned", "deletion vectors"), kinds);
    }

    @Test
    void changeFeedShardsAddUpToTheChangeFeed() throws Exception {
        int ranges = 0;
        int split = 0;
        for (String name : CHANGE_FEED_TABLES) {
            String path = root.resolve("tables").resolve(name).toString();
            long latest = DeltaLog.latestVersion(conn, path);
            // the initial load, every single version, and the whole range
            List<Long[]> pairs = new ArrayList<>();
            pairs.add(new Long[] {null, latest});
            for (long to = 1; to <= latest; to++) {
                pairs.add(new Long[] {to - 1, to});
            }
            if (latest > 1) {
                pairs.add(new Long[] {0L, latest});
            }
            for (Long[] p : pairs) {
                try {
                    ChangeFeed.register(conn, "whole", path, p[0], p[1]);
                } catch (VersionNotFoundException | ChangeDataFeedException | CorruptLogException e) {
                    continue; // a range the table cannot give (commits gone, feed not enabled): not a shard question
                }
                List<String> expected = rows("whole");
                ranges++;
                for (int n : COUNTS) {
                    List<String> union = new ArrayList<>();
                    int nonEmpty = 0;
                    for (int i = 0; i < n; i++) {
                        ChangeFeed.register(conn, "s", path, p[0], p[1], ShardFilter.of(i, n));
                        List<String> rows = rows("s");
                        nonEmpty += rows.isEmpty() ? 0 : 1;
                        union.addAll(rows);
                    }
                    Collections.sort(union);
                    assertEquals(expected, union, name + " (" + p[0] + ", " + p[1] + "] N=" + n);
                    if (n > 1 && nonEmpty > 1) {
                        split++;
                    }
                }
                ChangeFeed.register(conn, "none", path, p[0], p[1], ShardFilter.nothing());
                assertEquals(List.of(), rows("none"), "a done shard reads nothing");
            }
        }
        assertTrue(ranges >= 20, "change ranges compared: " + ranges);
        assertTrue(split >= 8, "ranges really split over several shards: " + split);
    }
}
