package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.schema;
import static io.deltafunnel.delta.DeltaTableWriter.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@link FileSchemas}: a view over local files whose footers were read before is registered again without reading
 * them; only new files' footers are read; a known file that is gone still fails as {@link MissingDataFileException}
 * naming it; a file whose size is not the log's, and files of more than one schema, are read as before. Real Delta
 * tables written for each test (Parquet files by DuckDB, the log by hand with each file's true size).
 */
class FileSchemasTest extends DuckDbTestSupport {

    private static final String SCHEMA = schema(field("id", prim("integer")), field("name", prim("string")));

    /** An add action with the file's true size, as a Delta writer records it. */
    private static String add(String relative, long size) {
        return "{\"add\":{\"path\":" + str(relative) + ",\"partitionValues\":{},\"size\":" + size
                + ",\"modificationTime\":1700000000000,\"dataChange\":true}}";
    }

    private static long footersReadBy(Step step) throws Exception {
        long before = FileSchemas.footersRead();
        step.run();
        return FileSchemas.footersRead() - before;
    }

    private interface Step {
        void run() throws Exception;
    }

    private DeltaTableWriter threeFiles(String name) {
        DeltaTableWriter t = table(name);
        String[] actions = new String[5];
        actions[0] = protocol(1, 2);
        actions[1] = metadata(SCHEMA);
        for (int i = 0; i < 3; i++) {
            long size = t.dataFile("f" + i + ".parquet", "SELECT " + i + "::INTEGER AS id, 'n" + i + "' AS name");
            actions[2 + i] = add("f" + i + ".parquet", size);
        }
        t.commit(0, actions);
        return t;
    }

    @Test
    void aTableSeenBeforeIsRegisteredWithoutReadingItsFooters() throws Exception {
        DeltaTableWriter t = threeFiles("seen");
        assertEquals(3, footersReadBy(() -> register("v", t)));
        assertEquals(0, footersReadBy(() -> register("w", t)));
        assertEquals(List.of("0|n0", "1|n1", "2|n2"), rows("SELECT id, name FROM w ORDER BY id"));
        assertEquals(Map.of("id", "INTEGER", "name", "VARCHAR"), describe("w"));
    }

    @Test
    void onlyANewFilesFooterIsRead() throws Exception {
        DeltaTableWriter t = threeFiles("grows");
        register("v", t);
        long size = t.dataFile("f3.parquet", "SELECT 3::INTEGER AS id, 'n3' AS name");
        t.commit(1, add("f3.parquet", size));
        assertEquals(1, footersReadBy(() -> register("v", t)));
        assertEquals(List.of("4"), rows("SELECT count(*) FROM v"));
    }

    @Test
    void aKnownFileThatIsGoneStillFailsAsMissing() throws Exception {
        DeltaTableWriter t = threeFiles("vacuumed");
        register("v", t);
        Files.delete(t.root.resolve("f1.parquet"));
        MissingDataFileException e = assertThrows(MissingDataFileException.class, () -> register("v", t));
        assertEquals(t.root.resolve("f1.parquet").toString(), e.file());
    }

    @Test
    void aFileWhoseSizeIsNotTheLogsIsReadEachTime() throws Exception {
        DeltaTableWriter t = table("sizes");
        long size = t.dataFile("a.parquet", "SELECT 1::INTEGER AS id, 'a' AS name");
        t.commit(0, protocol(1, 2), metadata(SCHEMA), add("a.parquet", size + 1));
        assertEquals(1, footersReadBy(() -> register("v", t)));
        assertEquals(1, footersReadBy(() -> register("v", t)));
        assertEquals(List.of("1|a"), rows("SELECT id, name FROM v"));
    }

    @Test
    void filesOfTwoSchemasAreDescribedAsTheirUnionEachTime() throws Exception {
        DeltaTableWriter t = table("evolved");
        String evolved = schema(field("id", prim("integer")), field("name", prim("string")),
                field("extra", prim("integer")));
        long a = t.dataFile("a.parquet", "SELECT 1::INTEGER AS id, 'a' AS name");
        long b = t.dataFile("b.parquet", "SELECT 2::INTEGER AS id, 'b' AS name, 7::INTEGER AS extra");
        t.commit(0, protocol(1, 2), metadata(evolved), add("a.parquet", a), add("b.parquet", b));
        assertEquals(2, footersReadBy(() -> register("v", t)));
        // both signatures are known now; the union of the two schemas is described from the files again
        assertEquals(0, footersReadBy(() -> register("v", t)));
        assertEquals(Map.of("id", "INTEGER", "name", "VARCHAR", "extra", "INTEGER"), describe("v"));
        assertEquals(List.of("1|a|null", "2|b|7"), rows("SELECT id, name, extra FROM v ORDER BY id"));
    }

    @Test
    void onlyLocalFilesAreKept() {
        assertNull(FileSchemas.localPath("s3://bucket/t/a.parquet"));
        assertNull(FileSchemas.localPath("abfss://c@a.dfs.core.windows.net/t/a.parquet"));
        assertEquals(Path.of("/tmp/t/a b.parquet"), FileSchemas.localPath("file:/tmp/t/a%20b.parquet"));
        assertEquals(Path.of("/tmp/t/a.parquet"), FileSchemas.localPath("/tmp/t/a.parquet"));
        // not a URI (an unencoded space): read as a remote file is, not refused
        assertNull(FileSchemas.localPath("file:/tmp/t/a b.parquet"));
    }
}
