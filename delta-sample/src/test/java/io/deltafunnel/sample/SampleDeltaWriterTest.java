package io.deltafunnel.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The writer's log and files as a Delta reader sees them (the component's reader is tested on them elsewhere). */
class SampleDeltaWriterTest {

    @Test
    void appendsCommitVersionsWithProtocolMetadataAndOneAddPerFile(@TempDir Path dir) throws Exception {
        Path table = dir.resolve("t");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            SampleDeltaWriter w = new SampleDeltaWriter(duck, table);
            assertEquals(0, w.append("SELECT i::INTEGER AS id, 'n' || i AS name FROM range(10) t(i)", 3));
            assertEquals(1, w.append("SELECT i::INTEGER AS id, 'm' || i AS name FROM range(10, 15) t(i)", 1));

            List<String> v0 = Files.readAllLines(table.resolve("_delta_log/00000000000000000000.json"));
            List<String> v1 = Files.readAllLines(table.resolve("_delta_log/00000000000000000001.json"));
            assertTrue(v0.stream().anyMatch(l -> l.startsWith("{\"protocol\"")), "first commit has the protocol");
            assertTrue(v0.stream().anyMatch(l -> l.startsWith("{\"metaData\"")), "first commit has the metadata");
            assertEquals(3, v0.stream().filter(l -> l.startsWith("{\"add\"")).count());
            assertTrue(v1.stream().noneMatch(l -> l.startsWith("{\"metaData\"")), "later commits only add");
            assertEquals(1, v1.stream().filter(l -> l.startsWith("{\"add\"")).count());
            // each add records its rows (stats.numRecords): 10 rows over 3 files as row_number() % 3 splits them
            assertEquals(List.of(4L, 3L, 3L), v0.stream().filter(l -> l.startsWith("{\"add\""))
                    .map(SampleDeltaWriterTest::numRecords).toList());
            assertEquals(List.of(5L), v1.stream().filter(l -> l.startsWith("{\"add\""))
                    .map(SampleDeltaWriterTest::numRecords).toList());

            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*), sum(id) FROM read_parquet('"
                         + table.toString().replace("'", "''") + "/*.parquet')")) {
                rs.next();
                assertEquals(15, rs.getLong(1));
                assertEquals(105, rs.getLong(2));
            }
        }
    }

    /** {@code stats.numRecords} of an add line (stats is a JSON string inside the action). */
    private static long numRecords(String addLine) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"stats\":\"\\{\\\\\"numRecords\\\\\":(\\d+)\\}\"")
                .matcher(addLine);
        assertTrue(m.find(), addLine);
        return Long.parseLong(m.group(1));
    }
}
