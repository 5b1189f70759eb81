package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.add;
import static io.deltafunnel.delta.DeltaTableWriter.commitInfo;
import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.remove;
import static io.deltafunnel.delta.DeltaTableWriter.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Log replay on small generated tables: commits, checkpoints of every kind, time travel and log errors. */
class DeltaLogTest extends DuckDbTestSupport {

    static final String SCHEMA = schema(field("id", prim("long")));

    /** v0: a(0..2) + b(10..12); v1: remove a; v2: re-add a, remove b. */
    private DeltaTableWriter threeVersions(String name) {
        DeltaTableWriter t = table(name);
        t.dataFile("a.parquet", "SELECT range AS id FROM range(3)");
        t.dataFile("b.parquet", "SELECT range + 10 AS id FROM range(3)");
        t.commit(0, commitInfo(null), protocol(1, 2), metadata(SCHEMA), add("a.parquet"), add("b.parquet"));
        t.commit(1, commitInfo(null), remove("a.parquet"));
        t.commit(2, commitInfo(null), add("a.parquet"), remove("b.parquet"));
        return t;
    }

    @Test
    void jsonCommitsWithRemoveAndReAdd() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        DeltaSnapshot latest = register("v", t);
        assertEquals(2, latest.version());
        assertEquals(1, latest.fileCount());
        assertEquals(List.of("0", "1", "2"), rows("SELECT id FROM v ORDER BY id"));
        assertEquals(2, DeltaLog.latestVersion(conn, t.root.toString()));
        register("v", t, 1);
        assertEquals(List.of("10", "11", "12"), rows("SELECT id FROM v ORDER BY id"));
        register("v", t, 0);
        assertEquals(List.of("6"), rows("SELECT count(*) FROM v"));
    }

    @Test
    void fileUriAndTrailingSlashAreAccepted() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        DeltaSnapshot s = DeltaLog.snapshot(conn, t.root.toUri().toString(), null, null);
        assertEquals(t.root.toString(), s.tablePath());
        assertEquals(2, DeltaLog.snapshot(conn, t.root + "/", null, null).version());
    }

    @Test
    void versionThatDoesNotExistIsRefused() {
        DeltaTableWriter t = threeVersions("t");
        VersionNotFoundException e = assertThrows(VersionNotFoundException.class, () -> register("v", t, 7));
        assertTrue(e.getMessage().contains(t.root.toString()) && e.getMessage().contains("version 7"), e.getMessage());
    }

    @Test
    void notADeltaTable() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("plain"));
        Files.writeString(empty.resolve("x.csv"), "a\n1\n");
        NotADeltaTableException e = assertThrows(NotADeltaTableException.class,
                () -> DeltaLog.snapshot(conn, empty.toString(), null, null));
        assertTrue(e.getMessage().contains(empty.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("not a Delta table"), e.getMessage());
        assertTrue(e.getMessage().contains("no _delta_log directory"), e.getMessage());
    }

    @Test
    void aMissingDirectoryIsSaidToNotExist() {
        Path missing = tmp.resolve("nothing");
        NotADeltaTableException e = assertThrows(NotADeltaTableException.class,
                () -> DeltaLog.snapshot(conn, missing.toString(), null, null));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        assertFalse(e.getMessage().contains("no commit or checkpoint files"), e.getMessage());
        NotADeltaTableException asUri = assertThrows(NotADeltaTableException.class,
                () -> DeltaLog.snapshot(conn, missing.toUri().toString(), null, null));
        assertTrue(asUri.getMessage().contains("does not exist"), asUri.getMessage());
    }

    @Test
    void missingCommitIsNamed() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        Path v1 = t.log.resolve("00000000000000000001.json");
        Files.delete(v1);
        MissingCommitException e = assertThrows(MissingCommitException.class, () -> register("v", t));
        assertEquals(v1.toString(), e.file());
        assertTrue(e.getMessage().contains(t.root.toString()), e.getMessage());
    }

    @Test
    void corruptCommitJsonIsNamed() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        Path v1 = t.log.resolve("00000000000000000001.json");
        Files.writeString(v1, "{\"remove\": {\"path\": \"a.parquet\"\n");
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> register("v", t));
        assertEquals(v1.toString(), e.file());
        assertTrue(e.getMessage().contains(t.root.toString()), e.getMessage());
    }

    @Test
    void classicCheckpointAndLogStartingAtIt() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        t.dataFile("c.parquet", "SELECT 100 AS id");
        // checkpoint at v2: a only (b removed: tombstone)
        t.classicCheckpoint(2, protocol(1, 2), metadata(SCHEMA), add("a.parquet"), remove("b.parquet"));
        t.commit(3, commitInfo(null), add("c.parquet"));
        for (int v = 0; v <= 2; v++) {
            Files.delete(t.log.resolve(String.format("%020d.json", v)));
        }
        // no _last_checkpoint at all
        register("v", t);
        assertEquals(List.of("0", "1", "2", "100"), rows("SELECT id FROM v ORDER BY id"));
        register("v", t, 2);
        assertEquals(List.of("3"), rows("SELECT count(*) FROM v"));
        VersionNotFoundException e = assertThrows(VersionNotFoundException.class, () -> register("v", t, 1));
        assertTrue(e.getMessage().contains("version 1"), e.getMessage());
    }

    @Test
    void staleLastCheckpointIsOvertakenByListing() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        t.classicCheckpoint(1, protocol(1, 2), metadata(SCHEMA), add("b.parquet"), remove("a.parquet"));
        t.classicCheckpoint(2, protocol(1, 2), metadata(SCHEMA), add("a.parquet"), remove("b.parquet"));
        t.write(t.log.resolve("_last_checkpoint"), "{\"version\":1,\"size\":4}");
        Files.delete(t.log.resolve("00000000000000000000.json"));
        Files.delete(t.log.resolve("00000000000000000001.json"));
        Files.delete(t.log.resolve("00000000000000000002.json")); // a reader trusting the hint would need it
        register("v", t);
        assertEquals(List.of("0", "1", "2"), rows("SELECT id FROM v ORDER BY id"));
        register("v", t, 1);
        assertEquals(List.of("10", "11", "12"), rows("SELECT id FROM v ORDER BY id"));
    }

    @Test
    void corruptOrMissingLastCheckpointFallsBackToListing() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        t.classicCheckpoint(2, protocol(1, 2), metadata(SCHEMA), add("a.parquet"));
        t.write(t.log.resolve("_last_checkpoint"), "{\"version\": 2, \"size\": ");
        assertEquals(3, register("v", t).fileCount() + 2);
        t.write(t.log.resolve("_last_checkpoint"), "{\"version\": 99}");
        assertEquals(List.of("3"), rows("SELECT count(*) FROM v"));
        Files.delete(t.log.resolve("_last_checkpoint"));
        register("v", t);
        assertEquals(List.of("3"), rows("SELECT count(*) FROM v"));
    }

    @Test
    void corruptCheckpointFallsBackToCommits() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        t.write(t.log.resolve("00000000000000000002.checkpoint.parquet"), "not parquet");
        register("v", t);
        assertEquals(List.of("0", "1", "2"), rows("SELECT id FROM v ORDER BY id"));
    }

    @Test
    void multiPartCheckpointAndIncompleteOneIgnored() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        t.dataFile("c.parquet", "SELECT 100 AS id");
        t.parquetFromJson(t.log.resolve("00000000000000000001.checkpoint.0000000001.0000000002.parquet"),
                DeltaTableWriter.CHECKPOINT_COLUMNS, protocol(1, 2), metadata(SCHEMA));
        t.parquetFromJson(t.log.resolve("00000000000000000001.checkpoint.0000000002.0000000002.parquet"),
                DeltaTableWriter.CHECKPOINT_COLUMNS, add("b.parquet"), remove("a.parquet"));
        // an incomplete multi-part checkpoint at v2 (part 2 of 2 never written) must be ignored
        t.parquetFromJson(t.log.resolve("00000000000000000002.checkpoint.0000000001.0000000002.parquet"),
                DeltaTableWriter.CHECKPOINT_COLUMNS, protocol(1, 2), metadata(SCHEMA));
        t.write(t.log.resolve("_last_checkpoint"), "{\"version\":1,\"size\":4,\"parts\":2}");
        t.commit(3, commitInfo(null), add("c.parquet"));
        Files.delete(t.log.resolve("00000000000000000000.json"));
        Files.delete(t.log.resolve("00000000000000000001.json"));
        register("v", t);
        assertEquals(List.of("0", "1", "2", "100"), rows("SELECT id FROM v ORDER BY id"));
        register("v", t, 1);
        assertEquals(List.of("10", "11", "12"), rows("SELECT id FROM v ORDER BY id"));
    }

    @Test
    void v2CheckpointJsonManifestWithSidecars() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        t.parquetFromJson(t.log.resolve("_sidecars/00000000000000000002.checkpoint.0000000001.0000000001.abc.parquet"),
                DeltaTableWriter.SIDECAR_COLUMNS, add("a.parquet"), remove("b.parquet"));
        t.write(t.log.resolve("00000000000000000002.checkpoint.3a0d65cd-4056-49b8-937b-95f9e3ee90e5.json"),
                String.join("\n", "{\"checkpointMetadata\":{\"version\":2,\"tags\":{}}}",
                        protocol(3, 7, "v2Checkpoint"), metadata(SCHEMA),
                        "{\"sidecar\":{\"path\":\"00000000000000000002.checkpoint.0000000001.0000000001.abc.parquet\","
                                + "\"sizeInBytes\":1,\"modificationTime\":1}}") + "\n");
        for (int v = 0; v <= 2; v++) {
            Files.delete(t.log.resolve(String.format("%020d.json", v)));
        }
        DeltaSnapshot s = register("v", t);
        assertEquals(2, s.version());
        assertEquals(List.of("v2Checkpoint"), s.protocol().readerFeatures());
        assertEquals(List.of("0", "1", "2"), rows("SELECT id FROM v ORDER BY id"));
    }

    @Test
    void v2CheckpointParquetManifestWithSidecars() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        t.parquetFromJson(t.log.resolve("_sidecars/one.parquet"), DeltaTableWriter.SIDECAR_COLUMNS, add("a.parquet"));
        t.parquetFromJson(t.log.resolve("_sidecars/two.parquet"), DeltaTableWriter.SIDECAR_COLUMNS, remove("b.parquet"));
        t.parquetFromJson(t.log.resolve("00000000000000000002.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.parquet"),
                DeltaTableWriter.V2_CHECKPOINT_COLUMNS, "{\"checkpointMetadata\":{\"version\":2}}",
                protocol(3, 7, "v2Checkpoint"), metadata(SCHEMA), "{\"sidecar\":{\"path\":\"one.parquet\",\"sizeInBytes\":1,\"modificationTime\":1}}",
                "{\"sidecar\":{\"path\":\"two.parquet\",\"sizeInBytes\":1,\"modificationTime\":1}}");
        for (int v = 0; v <= 2; v++) {
            Files.delete(t.log.resolve(String.format("%020d.json", v)));
        }
        register("v", t);
        assertEquals(List.of("0", "1", "2"), rows("SELECT id FROM v ORDER BY id"));
    }

    @Test
    void timeTravelByTimestampUsesFileModificationTimes() throws Exception {
        DeltaTableWriter t = threeVersions("t");
        Instant base = Instant.parse("2024-01-01T00:00:00Z");
        for (int v = 0; v <= 2; v++) {
            Files.setLastModifiedTime(t.log.resolve(String.format("%020d.json", v)),
                    FileTime.from(base.plusSeconds(3600L * v)));
        }
        assertEquals(0, DeltaLog.snapshot(conn, t.root.toString(), null, base.plusSeconds(10)).version());
        assertEquals(1, DeltaLog.snapshot(conn, t.root.toString(), null, base.plusSeconds(3600)).version());
        assertEquals(2, DeltaLog.snapshot(conn, t.root.toString(), null, base.plusSeconds(99_999)).version());
        VersionNotFoundException e = assertThrows(VersionNotFoundException.class,
                () -> DeltaLog.snapshot(conn, t.root.toString(), null, base.minusSeconds(1)));
        assertTrue(e.getMessage().contains("earliest available commit is version 0"), e.getMessage());
        DeltaViews.register(conn, List.of(new DeltaTableSpec("v", t.root.toString(), null, base.plusSeconds(4000))));
        assertEquals(List.of("10", "11", "12"), rows("SELECT id FROM v ORDER BY id"));
    }

    @Test
    void timeTravelByTimestampUsesInCommitTimestamps() throws Exception {
        DeltaTableWriter t = table("ict");
        t.dataFile("a.parquet", "SELECT 1 AS id");
        t.dataFile("b.parquet", "SELECT 2 AS id");
        Map<String, String> conf = Map.of("delta.enableInCommitTimestamps", "true");
        t.commit(0, commitInfo(1_000L), protocol(1, 7), metadata(SCHEMA, List.of(), conf), add("a.parquet"));
        t.commit(1, commitInfo(2_000L), add("b.parquet"));
        t.commit(2, commitInfo(3_000L), remove("a.parquet"));
        // file times say otherwise; they must not be used
        for (int v = 0; v <= 2; v++) {
            Files.setLastModifiedTime(t.log.resolve(String.format("%020d.json", v)), FileTime.fromMillis(50_000 - v));
        }
        assertEquals(1, DeltaLog.snapshot(conn, t.root.toString(), null, Instant.ofEpochMilli(2_500)).version());
        assertEquals(0, DeltaLog.snapshot(conn, t.root.toString(), null, Instant.ofEpochMilli(1_000)).version());
        assertThrows(VersionNotFoundException.class,
                () -> DeltaLog.snapshot(conn, t.root.toString(), null, Instant.ofEpochMilli(999)));
    }

    @Test
    void unsupportedReaderVersionIsRefused() {
        DeltaTableWriter t = table("p");
        t.commit(0, protocol(4, 7), metadata(SCHEMA));
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> register("v", t));
        assertEquals("readerVersion 4", e.feature());
        assertTrue(e.getMessage().contains("reader protocol version 4") && e.getMessage().contains(t.root.toString()),
                e.getMessage());
    }

    @Test
    void unknownReaderFeatureIsRefused() {
        DeltaTableWriter t = table("p");
        t.commit(0, protocol(3, 7, "deletionVectors", "catalogManaged"), metadata(SCHEMA));
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> register("v", t));
        assertEquals("catalogManaged", e.feature());
        assertTrue(e.getMessage().contains("catalogManaged"), e.getMessage());
    }

    @Test
    void supportedReaderFeaturesAreAccepted() throws Exception {
        DeltaTableWriter t = table("p");
        t.dataFile("a.parquet", "SELECT 1::BIGINT AS id");
        t.commit(0, protocol(3, 7, "deletionVectors", "timestampNtz", "typeWidening", "typeWidening-preview",
                "v2Checkpoint", "vacuumProtocolCheck", "variantType", "variantType-preview", "variantShredding-preview"),
                metadata(SCHEMA), add("a.parquet"));
        register("v", t);
        assertEquals(List.of("1"), rows("SELECT id FROM v"));
    }

    @Test
    void versionAndTimestampTogetherAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new DeltaTableSpec("v", "/x", 1L, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> DeltaLog.snapshot(conn, "/x", 1L, Instant.EPOCH));
    }
}
