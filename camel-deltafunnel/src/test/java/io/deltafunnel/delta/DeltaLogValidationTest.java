package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.add;
import static io.deltafunnel.delta.DeltaTableWriter.commitInfo;
import static io.deltafunnel.delta.DeltaTableWriter.dv;
import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.remove;
import static io.deltafunnel.delta.DeltaTableWriter.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The log reader checks every action it uses against the protocol's schemas and refuses a malformed one with a
 * {@link CorruptLogException} naming table, file, line (or checkpoint row) and field; unknown fields, unknown actions
 * and blank lines are tolerated; the live set is keyed by (path, deletion-vector id).
 */
class DeltaLogValidationTest extends DuckDbTestSupport {

    static final String SCHEMA = schema(field("id", prim("long")));
    static final String SCHEMA_STRING = DeltaTableWriter.str(SCHEMA);

    /** v0: protocol, metaData, a.parquet (ids 0..9) written by the caller's line; the commit under test is v1. */
    private DeltaTableWriter tableWithCommit1(String name, String... commit1) {
        DeltaTableWriter t = table(name);
        t.dataFile("a.parquet", "SELECT range AS id FROM range(10)");
        t.dataFile("b.parquet", "SELECT range + 100 AS id FROM range(2)");
        t.commit(0, commitInfo(null), protocol(1, 2), metadata(SCHEMA), add("a.parquet"));
        t.commit(1, commit1);
        return t;
    }

    private CorruptLogException refused(DeltaTableWriter t) {
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> register("v", t));
        assertTrue(e.getMessage().contains(t.root.toString()), "names the table: " + e.getMessage());
        return e;
    }

    private void assertRefusedAt(DeltaTableWriter t, long line, String field) {
        CorruptLogException e = refused(t);
        assertEquals(t.log.resolve("00000000000000000001.json").toString(), e.file(), e.getMessage());
        assertTrue(e.getMessage().contains(e.file()), "names the file: " + e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(field, e.field(), e.getMessage());
        if (field != null) {
            assertTrue(e.getMessage().contains(field) && e.getMessage().contains("line " + line), e.getMessage());
        }
    }

    @Test
    void actionThatIsNotAnObjectIsRefusedWithoutNullPointerException() {
        assertRefusedAt(tableWithCommit1("t", commitInfo(null), "{\"add\": 5}"), 2, "add");
    }

    @Test
    void requiredFieldsOfAddAreChecked() {
        assertRefusedAt(tableWithCommit1("nodc", "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{},\"size\":1,"
                + "\"modificationTime\":1}}"), 1, "add.dataChange");
        assertRefusedAt(tableWithCommit1("nopv", "{\"add\":{\"path\":\"b.parquet\",\"size\":1,\"modificationTime\":1,"
                + "\"dataChange\":true}}"), 1, "add.partitionValues");
        assertRefusedAt(tableWithCommit1("nullpath", commitInfo(null), "{\"add\":{\"path\":null,\"partitionValues\":{},"
                + "\"size\":1,\"modificationTime\":1,\"dataChange\":true}}"), 2, "add.path");
        assertRefusedAt(tableWithCommit1("size", "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{},\"size\":\"1\","
                + "\"modificationTime\":1,\"dataChange\":true}}"), 1, "add.size");
    }

    @Test
    void optionalFieldsMustHaveTheirTypeWhenPresent() {
        assertRefusedAt(tableWithCommit1("tags", "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{},\"size\":1,"
                + "\"modificationTime\":1,\"dataChange\":true,\"tags\":[\"x\"]}}"), 1, "add.tags");
        assertRefusedAt(tableWithCommit1("pv", "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{\"p\":5},\"size\":1,"
                + "\"modificationTime\":1,\"dataChange\":true}}"), 1, "add.partitionValues[\"p\"]");
        assertRefusedAt(tableWithCommit1("dv", add("b.parquet", Map.of(), "{\"storageType\":\"i\",\"pathOrInlineDv\":\"x\","
                + "\"sizeInBytes\":1}")), 1, "add.deletionVector.cardinality");
    }

    @Test
    void protocolAndMetadataAreChecked() {
        assertRefusedAt(tableWithCommit1("noid", "{\"metaData\":{\"format\":{\"provider\":\"parquet\"},\"schemaString\":"
                + SCHEMA_STRING + ",\"partitionColumns\":[],\"configuration\":{}}}"), 1, "metaData.id");
        assertRefusedAt(tableWithCommit1("writer", "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":null}}"), 1,
                "protocol.minWriterVersion");
        // a mistyped reader version must not be read as "no column mapping"
        assertRefusedAt(tableWithCommit1("reader", "{\"protocol\":{\"minReaderVersion\":\"2\",\"minWriterVersion\":5}}"),
                1, "protocol.minReaderVersion");
        assertRefusedAt(tableWithCommit1("features", "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
                + "\"readerFeatures\":[5]}}"), 1, "protocol.readerFeatures[0]");
    }

    @Test
    void linesThatAreNotJsonObjectsAreRefused() {
        assertRefusedAt(tableWithCommit1("array", commitInfo(null), "[]"), 2, null);
        assertRefusedAt(tableWithCommit1("garbage", "not json", add("b.parquet")), 1, null);
        assertRefusedAt(tableWithCommit1("truncated", commitInfo(null), "{\"add\":{\"path\":\"b.parq"), 2, null);
    }

    @Test
    void unknownFieldsUnknownActionsAndBlankLinesAreIgnored() throws Exception {
        DeltaTableWriter t = tableWithCommit1("t", "{\"commitInfo\":{\"timestamp\":\"not used by snapshots\"}}", "",
                "{\"futureAction\":{\"path\":5}}", "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{},\"size\":1,"
                        + "\"modificationTime\":1,\"dataChange\":true,\"futureField\":{\"x\":[1]}}}", "   ");
        register("v", t);
        assertEquals(List.of("12"), rows("SELECT count(*) FROM v"));
    }

    /** The case: the remove of the file without deletion vector is lost; both logical files stay live. */
    @Test
    void liveSetIsKeyedByPathAndDeletionVector() throws Exception {
        byte[] bitmap = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 0, 9);
        String withDv = add("a.parquet", Map.of(), dv("i", DeletionVectorBytes.z85(bitmap), null, bitmap.length, 2));
        DeltaTableWriter t = tableWithCommit1("t", commitInfo(null), remove("a.parquet"), withDv);
        DeltaSnapshot s = register("v", t);
        assertEquals(1, s.fileCount());
        assertEquals(List.of("8"), rows("SELECT count(*) FROM v"));

        DeltaTableWriter dropped = tableWithCommit1("dropped", commitInfo(null), withDv);
        s = register("v", dropped);
        assertEquals(2, s.fileCount(), "one entry per (path, deletion vector id)");
        assertEquals(List.of("18"), rows("SELECT count(*) FROM v"));
        assertEquals(List.of("2|10"), rows("SELECT count(*) FILTER (WHERE id IN (0, 9)), count(DISTINCT id) FROM v"));
        // a remove that names the deletion vector removes only that logical file
        dropped.commit(2, "{\"remove\":{\"path\":\"a.parquet\",\"dataChange\":true,\"deletionVector\":"
                + dv("i", DeletionVectorBytes.z85(bitmap), null, bitmap.length, 2) + "}}");
        s = register("v", dropped);
        assertEquals(1, s.fileCount());
        assertEquals(List.of("10"), rows("SELECT count(*) FROM v"));
    }

    @Test
    void droppedRemoveInTheCorpusTableGivesBothFiles() throws Exception {
        Path source = DeltaConformanceTest.corpus().resolve("tables/table-with-dv-small");
        Assumptions.assumeTrue(Files.isDirectory(source), "Delta corpus not found; skipping");
        Path copy = tmp.resolve("dv-small");
        try (Stream<Path> files = Files.walk(source)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path to = copy.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        Path commit = copy.resolve("_delta_log/00000000000000000001.json");
        List<String> lines = Files.readAllLines(commit).stream().filter(l -> !l.startsWith("{\"remove\"")).toList();
        Files.write(commit, lines);
        DeltaViews.register(conn, List.of(DeltaTableSpec.latest("v", copy.toString())));
        assertEquals(List.of("18"), rows("SELECT count(*) FROM v"));
    }

    @Test
    void checkpointWithAMistypedColumnIsRefusedWhenThereIsNoFallback() {
        DeltaTableWriter t = table("cp");
        t.dataFile("a.parquet", "SELECT range AS id FROM range(3)");
        t.parquetFromJson(t.log.resolve("00000000000000000002.checkpoint.parquet"),
                "{add: 'STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size VARCHAR, modificationTime BIGINT, "
                        + "dataChange BOOLEAN)', metaData: " + SqlText.literal(ActionSchema.METADATA) + ", protocol: "
                        + SqlText.literal(ActionSchema.PROTOCOL) + "}",
                protocol(1, 2), metadata(SCHEMA), add("a.parquet"));
        CorruptLogException e = refused(t);
        assertEquals(t.log.resolve("00000000000000000002.checkpoint.parquet").toString(), e.file());
        assertEquals("add.size", e.field(), e.getMessage());
    }

    /** A tombstone in a checkpoint gives replay only its file key; its other columns do not change the rows. */
    @Test
    void checkpointRemoveIsCheckedForItsFileKeyOnly() throws Exception {
        DeltaTableWriter t = table("cprm");
        t.dataFile("a.parquet", "SELECT range AS id FROM range(3)");
        t.parquetFromJson(t.log.resolve("00000000000000000002.checkpoint.parquet"),
                "{add: " + SqlText.literal(ActionSchema.ADD) + ", remove: 'STRUCT(path VARCHAR, dataChange VARCHAR)',"
                        + " metaData: " + SqlText.literal(ActionSchema.METADATA) + ", protocol: "
                        + SqlText.literal(ActionSchema.PROTOCOL) + "}",
                protocol(1, 2), metadata(SCHEMA), add("a.parquet"), "{\"remove\":{\"path\":\"old.parquet\"}}");
        register("v", t);
        assertEquals(List.of("3"), rows("SELECT count(*) FROM v"));
        // the key itself mistyped: refused (no commits to fall back to)
        t.parquetFromJson(t.log.resolve("00000000000000000002.checkpoint.parquet"),
                "{add: " + SqlText.literal(ActionSchema.ADD) + ", remove: 'STRUCT(path BIGINT, dataChange BOOLEAN)',"
                        + " metaData: " + SqlText.literal(ActionSchema.METADATA) + ", protocol: "
                        + SqlText.literal(ActionSchema.PROTOCOL) + "}",
                protocol(1, 2), metadata(SCHEMA), add("a.parquet"), "{\"remove\":{\"path\":5,\"dataChange\":true}}");
        CorruptLogException e = refused(t);
        assertEquals("remove.path", e.field(), e.getMessage());
    }

    @Test
    void checkpointRowWithoutARequiredFieldIsRefusedNamingTheRowOrFallsBack() throws Exception {
        DeltaTableWriter t = table("cp");
        t.dataFile("a.parquet", "SELECT range AS id FROM range(3)");
        t.classicCheckpoint(0, protocol(1, 2), metadata(SCHEMA), add("a.parquet"),
                "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":1}}");
        CorruptLogException e = refused(t);
        assertEquals(4, e.line(), e.getMessage());
        assertEquals("add.dataChange", e.field(), e.getMessage());
        assertTrue(e.getMessage().contains("row 4"), e.getMessage());
        // with the commits still there the reader falls back to them
        t.commit(0, commitInfo(null), protocol(1, 2), metadata(SCHEMA), add("a.parquet"));
        register("v", t);
        assertEquals(List.of("3"), rows("SELECT count(*) FROM v"));
    }

    @Test
    void mistypedInCommitTimestampIsRefusedByTimeTravel() {
        DeltaTableWriter t = table("ict");
        t.dataFile("a.parquet", "SELECT 1::BIGINT AS id");
        t.commit(0, commitInfo(1_000L), protocol(1, 7), metadata(SCHEMA, List.of(),
                Map.of("delta.enableInCommitTimestamps", "true")), add("a.parquet"));
        t.commit(1, "{\"commitInfo\":{\"inCommitTimestamp\":\"2000\"}}");
        CorruptLogException e = assertThrows(CorruptLogException.class,
                () -> DeltaLog.snapshot(conn, t.root.toString(), null, Instant.ofEpochMilli(1_500)));
        assertEquals("commitInfo.inCommitTimestamp", e.field(), e.getMessage());
        assertEquals(1, e.line(), e.getMessage());
    }

    @Test
    void changeFeedChecksItsActions() throws Exception {
        DeltaTableWriter t = table("cdf");
        t.dataFile("a.parquet", "SELECT 1::BIGINT AS id");
        t.commit(0, commitInfo(null), protocol(1, 4), metadata(SCHEMA, List.of(),
                Map.of(ChangeFeed.ENABLE_PROPERTY, "true")), add("a.parquet"));
        t.commit(1, "{\"commitInfo\":{\"timestamp\":\"yesterday\"}}", remove("a.parquet"));
        CorruptLogException e = assertThrows(CorruptLogException.class,
                () -> ChangeFeed.register(conn, "c", t.root.toString(), 0L, 1));
        assertEquals("commitInfo.timestamp", e.field(), e.getMessage());
        t.commit(1, commitInfo(null), "{\"cdc\":{\"path\":\"_change_data/x.parquet\",\"partitionValues\":{},\"size\":1}}");
        e = assertThrows(CorruptLogException.class, () -> ChangeFeed.register(conn, "c", t.root.toString(), 0L, 1));
        assertEquals("cdc.dataChange", e.field(), e.getMessage());
    }
    // ---- no stricter than the reference reader (Delta Kernel): only what would make the rows undefined or different

    /** A Databricks pipeline setup commit: a first metaData without schemaString, replaced in the next commit. */
    @Test
    void supersededMetadataWithoutSchemaStringIsReadAndRefusedWhereItIsInEffect() throws Exception {
        DeltaTableWriter t = table("pipeline");
        t.dataFile("a.parquet", "SELECT range AS id FROM range(10)");
        t.commit(0, commitInfo(null), protocol(1, 2), "{\"metaData\":{\"id\":\"test-table\",\"format\":{\"provider\":"
                + "\"parquet\",\"options\":{}},\"partitionColumns\":[],\"configuration\":{}}}");
        t.commit(1, commitInfo(null), metadata(SCHEMA), add("a.parquet"));
        DeltaSnapshot s = register("v", t);
        assertEquals(1, s.version());
        assertEquals(List.of("id"), s.schema().stream().map(DeltaColumn::name).toList());
        assertEquals(List.of("10"), rows("SELECT count(*) FROM v"));
        register("v1", t, 1);
        assertEquals(List.of("10"), rows("SELECT count(*) FROM v1"));

        // at version 0 the incomplete metaData is the one in effect: refused clearly, naming file, line and field
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> register("v0", t, 0));
        assertEquals(t.log.resolve("00000000000000000000.json").toString(), e.file(), e.getMessage());
        assertEquals(3, e.line(), e.getMessage());
        assertEquals("metaData.schemaString", e.field(), e.getMessage());
        assertTrue(e.getMessage().contains("invalid action at line 3, metaData.schemaString: required field is missing"),
                e.getMessage());
        assertTrue(e.getMessage().contains(t.root.toString()), e.getMessage());
    }

    @Test
    void supersededProtocolNeedsNoFieldsButMustBeAnObject() throws Exception {
        DeltaTableWriter t = tableWithCommit1("protocol", "{\"protocol\":{\"minReaderVersion\":\"1\"}}",
                protocol(1, 2), add("b.parquet"));
        register("v", t);
        assertEquals(List.of("12"), rows("SELECT count(*) FROM v"));
        // the last of several in one version takes effect
        assertRefusedAt(tableWithCommit1("last", protocol(1, 2), "{\"protocol\":{\"minReaderVersion\":\"1\"}}"), 2,
                "protocol.minReaderVersion");
        // not an object: not an action at all, refused wherever it is
        assertRefusedAt(tableWithCommit1("notobject", "{\"metaData\":5}", metadata(SCHEMA)), 1, "metaData");
    }

    @Test
    void supersededMetadataWithMistypedFieldsIsReadWhenTheNextCommitReplacesIt() throws Exception {
        DeltaTableWriter t = tableWithCommit1("mistyped", "{\"metaData\":{\"id\":7,\"schemaString\":[],"
                + "\"partitionColumns\":\"x\"}}", add("b.parquet"));
        t.commit(2, metadata(SCHEMA));
        register("v", t);
        assertEquals(List.of("12"), rows("SELECT count(*) FROM v"));
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> register("v1", t, 1));
        assertEquals("metaData.id", e.field(), e.getMessage());
        assertEquals(1, e.line(), e.getMessage());
    }

    @Test
    void removeFieldsOutsideTheFileKeyDoNotMatterToASnapshotButToTheChangeFeed() throws Exception {
        DeltaTableWriter t = table("rm");
        t.dataFile("a.parquet", "SELECT range AS id FROM range(10)");
        t.dataFile("b.parquet", "SELECT range + 100 AS id FROM range(2)");
        t.commit(0, commitInfo(null), protocol(1, 4), metadata(SCHEMA, List.of(),
                Map.of(ChangeFeed.ENABLE_PROPERTY, "true")), add("a.parquet"), add("b.parquet"));
        t.commit(1, commitInfo(null), "{\"remove\":{\"path\":\"a.parquet\",\"dataChange\":\"yes\"}}");
        DeltaSnapshot s = register("v", t);
        assertEquals(1, s.fileCount());
        assertEquals(List.of("2"), rows("SELECT count(*) FROM v"));
        // nor the remove's other fields
        DeltaTableWriter other = tableWithCommit1("rmother", "{\"remove\":{\"path\":\"a.parquet\",\"dataChange\":1,"
                + "\"deletionTimestamp\":\"soon\",\"size\":\"big\",\"tags\":[],\"extendedFileMetadata\":\"no\"}}",
                add("b.parquet"));
        register("v", other);
        assertEquals(List.of("2"), rows("SELECT count(*) FROM v"));
        // the change feed uses remove.dataChange: still refused there
        CorruptLogException e = assertThrows(CorruptLogException.class,
                () -> ChangeFeed.register(conn, "c", t.root.toString(), 0L, 1));
        assertEquals("remove.dataChange", e.field(), e.getMessage());
        assertEquals(2, e.line(), e.getMessage());
        // the file key of a remove is used by a snapshot: still refused there
        assertRefusedAt(tableWithCommit1("rmpath", "{\"remove\":{\"path\":5,\"dataChange\":true}}"), 1, "remove.path");
        assertRefusedAt(tableWithCommit1("rmdv", "{\"remove\":{\"path\":\"a.parquet\",\"dataChange\":true,"
                + "\"deletionVector\":{\"storageType\":\"u\"}}}"), 1, "remove.deletionVector.pathOrInlineDv");
        assertRefusedAt(tableWithCommit1("rmnodc", "{\"remove\":{\"dataChange\":true}}"), 1, "remove.path");
    }

    /** Dropped lines that leave the snapshot well defined are read, as the reference reader reads them. */
    @Test
    void commitWithADroppedLineIsReadWhenTheSnapshotStaysDefined() throws Exception {
        // the commitInfo line dropped: nothing a snapshot uses
        DeltaTableWriter t = tableWithCommit1("noinfo", add("b.parquet"));
        register("v", t);
        assertEquals(List.of("12"), rows("SELECT count(*) FROM v"));
        // the only line of a commit dropped: an empty commit, the version exists and holds no action
        DeltaTableWriter empty = tableWithCommit1("empty");
        empty.write(empty.log.resolve("00000000000000000001.json"), "");
        DeltaSnapshot s = register("v", empty);
        assertEquals(1, s.version());
        assertEquals(List.of("10"), rows("SELECT count(*) FROM v"));
        // the newer metaData line dropped: the older complete one is in effect
        DeltaTableWriter older = tableWithCommit1("older", commitInfo(null), add("b.parquet"));
        s = register("v", older);
        assertEquals("test-table", s.tableId());
        // a pipeline table (setup metaData without schemaString) with v1's commitInfo line dropped: read
        DeltaTableWriter pipeline = table("pipeline-noinfo");
        pipeline.dataFile("a.parquet", "SELECT range AS id FROM range(10)");
        String setup = "{\"metaData\":{\"id\":\"test-table\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
                + "\"partitionColumns\":[],\"configuration\":{}}}";
        pipeline.commit(0, commitInfo(null), protocol(1, 2), setup);
        pipeline.commit(1, metadata(SCHEMA), add("a.parquet"));
        register("v", pipeline);
        assertEquals(List.of("10"), rows("SELECT count(*) FROM v"));
        // ... with v1's metaData line dropped instead, the setup metaData is in effect: refused
        pipeline.commit(1, commitInfo(null), add("a.parquet"));
        CorruptLogException incomplete = assertThrows(CorruptLogException.class, () -> register("v", pipeline));
        assertEquals("metaData.schemaString", incomplete.field(), incomplete.getMessage());
        assertEquals(3, incomplete.line(), incomplete.getMessage());
        // the only protocol dropped: the snapshot is undefined, refused
        DeltaTableWriter noProtocol = table("noprotocol");
        noProtocol.dataFile("a.parquet", "SELECT range AS id FROM range(10)");
        noProtocol.commit(0, commitInfo(null), metadata(SCHEMA), add("a.parquet"));
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> register("v", noProtocol));
        assertTrue(e.getMessage().contains("no protocol action"), e.getMessage());
    }
}
