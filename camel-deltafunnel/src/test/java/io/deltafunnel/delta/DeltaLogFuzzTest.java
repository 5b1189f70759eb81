package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.add;
import static io.deltafunnel.delta.DeltaTableWriter.commitInfo;
import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.pv;
import static io.deltafunnel.delta.DeltaTableWriter.remove;
import static io.deltafunnel.delta.DeltaTableWriter.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fuzzing of Delta logs. Each mutant is a copy of a table (data files hard-linked, log copied) with one commit
 * file or one Parquet checkpoint damaged the way a fuzzer would: a field dropped, mistyped or nulled, an action that
 * is not an object, a line dropped or duplicated, garbage lines, JSON arrays, truncation, unknown fields and actions,
 * a dropped {@code commitInfo.operationParameters}; for checkpoints a required field missing, mistyped or null, an
 * optional field or a whole column dropped, an unknown column.
 *
 * <p>The expected outcome of every JSON mutant comes from {@link Model}, an independent, deliberately naive replay of
 * the mutated log written from PROTOCOL.md (its own action schemas, Jackson trees, plain maps): REFUSE (some action
 * the snapshot uses breaks its schema, or a line is not a JSON object) requires a {@link CorruptLogException};
 * otherwise the model's state (protocol, metadata, live set keyed by (path, deletion-vector id)) is compared with the
 * unmutated table's: equal means the same rows (corpus fingerprint, or the unmutated read for the tables written
 * here), different means the reader's snapshot must hold exactly the model's live set and metadata and the view
 * exactly sum(rows of file - deletion vector cardinality) rows (or a {@link MissingDataFileException} when the model
 * says a live data file does not exist). Parquet checkpoint mutants are classified by kind: neutral ones give the same
 * rows; corrupting ones give the same rows when the reader can fall back to an older checkpoint or the commits, else
 * a {@link CorruptLogException}. No other exception type is ever accepted.
 */
class DeltaLogFuzzTest {

    private static final long[] SEEDS = {11, 23, 47};
    private static final int JSON_MUTANTS_PER_TABLE_AND_SEED = 3;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
    private static final Pattern CLASSIC = Pattern.compile("(\\d{20})\\.checkpoint\\.parquet");
    private static final Pattern V2_JSON = Pattern.compile("(\\d{20})\\.checkpoint\\.[0-9a-fA-F-]{36}\\.json");

    @TempDir
    static Path tmp;

    static Connection conn;
    private static int counter;
    /** How many mutants ended in each expected outcome (printed at the end, and each one must occur). */
    private static final Map<String, Integer> OUTCOMES = new java.util.concurrent.ConcurrentSkipListMap<>();

    @BeforeAll
    static void open() throws SQLException {
        conn = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterAll
    static void close() throws SQLException {
        conn.close();
        System.out.println("DeltaLogFuzzTest outcomes: " + OUTCOMES);
        for (String outcome : List.of("refused", "same rows", "changed (model's live set)")) {
            assertTrue(OUTCOMES.getOrDefault(outcome, 0) > 0, "no mutant ended as " + outcome + ": " + OUTCOMES);
        }
    }

    private static void outcome(String name) {
        OUTCOMES.merge(name, 1, Integer::sum);
    }

    // ---------------------------------------------------------------- test factories

    /** Mutants of the corpus tables (skipped without the corpus). */
    @TestFactory
    Stream<DynamicTest> corpusMutants() throws Exception {
        Path root = DeltaConformanceTest.corpus();
        Path expectations = root.resolve("expected.jsonl");
        Assumptions.assumeTrue(Files.isRegularFile(expectations),
                "Delta corpus not found at " + root + " (set -Ddeltafunnel.corpus or DELTAFUNNEL_CORPUS); skipping the "
                        + "corpus mutants (the mutants of the generated tables still run)");
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : Files.readAllLines(expectations, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode e = MAPPER.readTree(line);
            if (e.has("error")) {
                continue; // refused tables: nothing to compare with
            }
            String name = e.get("table").asText();
            List<String> skipped = new ArrayList<>();
            if (e.has("skipped_columns")) {
                e.get("skipped_columns").forEach(s -> skipped.add(s.asText()));
            }
            Expected expected = new Expected(e.get("rows").asLong(), e.get("fingerprint").asText(), skipped);
            tests.addAll(mutantsOf(name, root.resolve("tables").resolve(name), expected));
        }
        assertTrue(tests.size() >= 300, "at least 300 corpus mutants, got " + tests.size());
        return tests.stream();
    }

    /** Mutants of tables written here, so that the fuzzing never runs empty. */
    @TestFactory
    Stream<DynamicTest> generatedTableMutants() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path table : List.of(partitionedTable(tmp.resolve("gen-partitioned")), checkpointedTable(tmp.resolve("gen-checkpointed")),
                pipelineTable(tmp.resolve("gen-pipeline")))) {
            tests.addAll(mutantsOf(table.getFileName().toString(), table, unmutatedRead(table)));
        }
        return tests.stream();
    }

    /**
     * Every line of every commit of a pipeline-style table (a first metaData without schemaString, replaced in the next
     * commit) dropped in turn, the model deciding: read when the snapshot stays defined (the commitInfo, an add, the
     * superseded metaData dropped), refused when the incomplete metaData comes into effect or no protocol is left.
     */
    @TestFactory
    Stream<DynamicTest> droppedLinesOfAPipelineTable() throws Exception {
        Path table = pipelineTable(tmp.resolve("gen-pipeline-lines"));
        Expected expected = unmutatedRead(table);
        Model.State original = Model.replay(table);
        List<DynamicTest> tests = new ArrayList<>();
        List<Path> commits;
        try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
            commits = files.filter(p -> COMMIT.matcher(p.getFileName().toString()).matches()).sorted().toList();
        }
        for (Path commit : commits) {
            List<String> lines = Files.readAllLines(commit, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Path copy = copy(table);
                List<String> dropped = new ArrayList<>(lines);
                String line = dropped.remove(i);
                Files.write(copy.resolve("_delta_log").resolve(commit.getFileName()), dropped, StandardCharsets.UTF_8);
                String what = "v" + Model.version(commit) + " line " + (i + 1) + " dropped ("
                        + line.substring(0, Math.min(30, line.length())) + ")";
                tests.add(DynamicTest.dynamicTest("gen-pipeline " + what,
                        () -> checkJsonMutant(copy, what, original, expected)));
            }
        }
        return tests.stream();
    }

    private static List<DynamicTest> mutantsOf(String name, Path table, Expected expected) throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        Model.State original = Model.replay(table);
        for (long seed : SEEDS) {
            Random random = new Random(seed * 31 + name.hashCode());
            for (int i = 0; i < JSON_MUTANTS_PER_TABLE_AND_SEED; i++) {
                Path copy = copy(table);
                String what = JsonMutator.mutate(copy, random);
                tests.add(DynamicTest.dynamicTest(name + " seed " + seed + " #" + i + ": " + what,
                        () -> checkJsonMutant(copy, what, original, expected)));
            }
            Path checkpoint = latestClassicCheckpoint(table);
            if (checkpoint != null) {
                Path copy = copy(table);
                CheckpointMutation kind = CheckpointMutation.values()[random.nextInt(CheckpointMutation.values().length)];
                String what = CheckpointMutation.apply(kind, copy.resolve("_delta_log").resolve(checkpoint.getFileName()),
                        random);
                boolean fallback = canFallBack(copy, checkpoint);
                tests.add(DynamicTest.dynamicTest(name + " seed " + seed + " checkpoint: " + what,
                        () -> checkCheckpointMutant(copy, what, kind, fallback, expected)));
            }
        }
        return tests;
    }

    // ---------------------------------------------------------------- checks

    record Expected(long rows, String fingerprint, List<String> skipped) {
    }

    private static void checkJsonMutant(Path table, String what, Model.State original, Expected expected)
            throws Exception {
        Model.State model = Model.replay(table);
        String context = "mutation " + what + "; model: " + (model.refusal != null ? "REFUSE (" + model.refusal + ")"
                : model.sameAs(original) ? "SAME" : "CHANGED");
        if (model.refusal != null) {
            expectCorrupt(table, context);
            outcome("refused");
            return;
        }
        if (model.sameAs(original)) {
            expectRows(table, expected, context);
            outcome("same rows");
            return;
        }
        DeltaSnapshot snapshot;
        try {
            snapshot = DeltaLog.snapshot(conn, table.toString(), null, null);
        } catch (DeltaException e) {
            throw new AssertionError(context + ": the reader refused a valid log: " + e, e);
        }
        assertEquals(model.liveKeys(), keys(snapshot), context + ": live set");
        assertEquals(model.metadataId(), snapshot.tableId(), context + ": metaData.id");
        assertEquals(model.columnNames(), snapshot.schema().stream().map(DeltaColumn::name).toList(), context + ": columns");
        assertEquals(model.protocolVersions(), List.of(snapshot.protocol().minReaderVersion(),
                snapshot.protocol().minWriterVersion()), context + ": protocol");
        String missing = model.firstMissingDataFile(table);
        boolean metadataChanged = !model.sameMetadata(original);
        try {
            ViewBuilder.register(conn, "m", snapshot);
            long rows = count("SELECT count(*) FROM m");
            assertNull(missing, context + ": the live file " + missing + " does not exist, yet the view registered");
            assertEquals(model.expectedRows(table), rows, context + ": rows");
            outcome("changed (model's live set)");
        } catch (MissingDataFileException e) {
            assertNotNull(missing, context + ": unexpected " + e);
            outcome("changed, live file missing");
        } catch (DeltaException | SQLException e) {
            // only a changed schema or protocol (an older metaData now applies) may make the data unreadable
            assertTrue(metadataChanged, context + ": unexpected " + e);
            outcome("changed metadata, data unreadable");
        }
    }

    private static void assertNull(Object o, String message) {
        if (o != null) {
            fail(message);
        }
    }

    private static void checkCheckpointMutant(Path table, String what, CheckpointMutation kind, boolean fallback,
            Expected expected) throws Exception {
        String context = "checkpoint mutation " + what + " (" + (kind.neutral ? "neutral" : "corrupting, "
                + (fallback ? "fallback possible" : "no fallback")) + ")";
        if (kind.neutral || fallback) {
            expectRows(table, expected, context);
            outcome(kind.neutral ? "checkpoint neutral, same rows" : "checkpoint corrupt, fallback, same rows");
        } else {
            expectCorrupt(table, context);
            outcome("checkpoint corrupt, refused");
        }
    }

    private static void expectCorrupt(Path table, String context) {
        try {
            DeltaSnapshot s = DeltaLog.snapshot(conn, table.toString(), null, null);
            fail(context + ": expected a CorruptLogException, but the reader read " + s);
        } catch (CorruptLogException e) {
            assertTrue(e.getMessage().contains(table.toString()), context + ": the message names the table: " + e);
        } catch (DeltaException | RuntimeException e) {
            throw new AssertionError(context + ": expected a CorruptLogException, got " + e, e);
        }
    }

    private static void expectRows(Path table, Expected expected, String context) throws Exception {
        DeltaSnapshot snapshot;
        try {
            snapshot = DeltaViews.register(conn, List.of(DeltaTableSpec.latest("m", table.toString()))).get(0);
        } catch (DeltaException | RuntimeException e) {
            throw new AssertionError(context + ": expected the unmutated table's rows, got " + e, e);
        }
        assertNotNull(snapshot);
        ArrowFingerprint fp = fingerprint("m", expected.skipped());
        assertEquals(expected.rows(), fp.rowCount(), context + ": rows");
        assertEquals(expected.fingerprint(), fp.hex(), context + ": fingerprint");
    }

    private static ArrowFingerprint fingerprint(String view, List<String> skipped) throws Exception {
        try (RootAllocator allocator = new RootAllocator();
                Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + view);
                ArrowReader reader = (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, 1024)) {
            return ArrowFingerprint.of(skipped, reader);
        }
    }

    private static Expected unmutatedRead(Path table) throws Exception {
        DeltaSnapshot s = DeltaViews.register(conn, List.of(DeltaTableSpec.latest("m", table.toString()))).get(0);
        assertEquals(Model.replay(table).liveKeys(), keys(s), "model and reader agree on the unmutated table");
        ArrowFingerprint fp = fingerprint("m", s.skippedColumns());
        assertTrue(fp.rowCount() > 0);
        return new Expected(fp.rowCount(), fp.hex(), s.skippedColumns());
    }

    private static TreeSet<String> keys(DeltaSnapshot s) {
        TreeSet<String> keys = new TreeSet<>();
        for (AddFile f : s.files()) {
            DeletionVectorDescriptor dv = f.deletionVector();
            keys.add(Model.decode(f.path()) + "|" + (dv == null ? "" : dv.storageType() + dv.pathOrInlineDv()
                    + (dv.offset() == null ? "" : "@" + dv.offset())));
        }
        return keys;
    }

    private static long count(String sql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // ---------------------------------------------------------------- copies and generated tables

    /** Copies the log, hard-links (or copies) everything else. */
    private static Path copy(Path table) throws IOException {
        Path target = tmp.resolve("mutant-" + (counter++));
        try (Stream<Path> files = Files.walk(table)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path rel = table.relativize(p);
                Path to = target.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else if (rel.startsWith("_delta_log")) {
                    Files.copy(p, to);
                } else {
                    try {
                        Files.createLink(to, p);
                    } catch (IOException | UnsupportedOperationException e) {
                        Files.copy(p, to);
                    }
                }
            }
        }
        return target;
    }

    /** v0: 3 files in 2 partitions; v1: remove one, add one; v2: re-add under the same path; v3: one more file. */
    private static Path partitionedTable(Path root) {
        DeltaTableWriter t = new DeltaTableWriter(conn, root);
        String schema = schema(field("id", prim("long")), field("p", prim("string")));
        t.dataFile("p=a/1.parquet", "SELECT range AS id FROM range(3)");
        t.dataFile("p=a/2.parquet", "SELECT range + 10 AS id FROM range(4)");
        t.dataFile("p=b/3.parquet", "SELECT range + 20 AS id FROM range(5)");
        t.dataFile("p=b/4.parquet", "SELECT range + 30 AS id FROM range(2)");
        t.dataFile("p=b/5%20x.parquet", "SELECT range + 40 AS id FROM range(6)");
        t.commit(0, commitInfo(null), protocol(1, 2), metadata(schema, List.of("p"), Map.of()),
                add("p=a/1.parquet", pv("p", "a"), null), add("p=a/2.parquet", pv("p", "a"), null),
                add("p=b/3.parquet", pv("p", "b"), null));
        t.commit(1, commitInfo(null), remove("p=a/2.parquet"), add("p=b/4.parquet", pv("p", "b"), null));
        t.commit(2, commitInfo(null), remove("p=a/1.parquet"), add("p=a/1.parquet", pv("p", "a"), null));
        t.commit(3, commitInfo(null), add("p=b/5%2520x.parquet", pv("p", "b"), null),
                metadata(schema, List.of("p"), Map.of("delta.appendOnly", "false")));
        return root;
    }

    /**
     * As a Databricks pipeline writes it: v0's metaData has no schemaString (setup), v1 replaces it with a full one;
     * then an ordinary commit with a remove.
     */
    private static Path pipelineTable(Path root) {
        DeltaTableWriter t = new DeltaTableWriter(conn, root);
        String schema = schema(field("id", prim("long")));
        for (int i = 0; i < 3; i++) {
            t.dataFile(i + ".parquet", "SELECT range + " + (10 * i) + " AS id FROM range(" + (i + 2) + ")");
        }
        t.commit(0, commitInfo(null), protocol(1, 2), "{\"metaData\":{\"id\":\"test-table\",\"format\":{\"provider\":"
                + "\"parquet\",\"options\":{}},\"partitionColumns\":[],\"configuration\":{},\"createdTime\":1}}");
        t.commit(1, commitInfo(null), metadata(schema), add("0.parquet"), add("1.parquet"));
        t.commit(2, commitInfo(null), remove("0.parquet"), add("2.parquet"));
        return root;
    }

    /** Four versions, a classic checkpoint at v2, one commit after it. */
    private static Path checkpointedTable(Path root) {
        DeltaTableWriter t = new DeltaTableWriter(conn, root);
        String schema = schema(field("id", prim("long")));
        for (int i = 0; i < 4; i++) {
            t.dataFile(i + ".parquet", "SELECT range + " + (10 * i) + " AS id FROM range(" + (i + 2) + ")");
        }
        t.commit(0, commitInfo(null), protocol(1, 2), metadata(schema), add("0.parquet"), add("1.parquet"));
        t.commit(1, commitInfo(null), remove("0.parquet"), add("2.parquet"));
        t.commit(2, commitInfo(null), add("0.parquet"));
        t.classicCheckpoint(2, protocol(1, 2), metadata(schema), add("0.parquet"), add("1.parquet"), add("2.parquet"));
        t.commit(3, commitInfo(null), remove("1.parquet"), add("3.parquet"));
        return root;
    }

    // ---------------------------------------------------------------- checkpoints

    private static Path latestClassicCheckpoint(Path table) throws IOException {
        Path latest = null;
        long version = -1;
        try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Matcher m = CLASSIC.matcher(p.getFileName().toString());
                if (m.matches() && Long.parseLong(m.group(1)) > version) {
                    version = Long.parseLong(m.group(1));
                    latest = p;
                }
            }
        }
        // only when it is the newest checkpoint of any kind (else the reader would not read it)
        return latest != null && Model.checkpointVersion(table) == version ? latest : null;
    }

    /**
     * Whether the reader can replace this checkpoint: by the next older checkpoint and the commits after it, or (without
     * an older checkpoint) by the commits from version 0; in both cases every commit up to the latest must exist.
     */
    private static boolean canFallBack(Path table, Path checkpoint) throws IOException {
        long cpVersion = Model.version(checkpoint);
        TreeSet<Long> commits = new TreeSet<>();
        TreeSet<Long> olderCheckpoints = new TreeSet<>();
        try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Matcher m = COMMIT.matcher(p.getFileName().toString());
                if (m.matches()) {
                    commits.add(Long.parseLong(m.group(1)));
                }
                m = CLASSIC.matcher(p.getFileName().toString());
                if (m.matches() && Long.parseLong(m.group(1)) < cpVersion) {
                    olderCheckpoints.add(Long.parseLong(m.group(1)));
                }
            }
        }
        long latest = Math.max(cpVersion, commits.isEmpty() ? -1 : commits.last());
        long start = olderCheckpoints.isEmpty() ? 0 : olderCheckpoints.last() + 1;
        for (long v = start; v <= latest; v++) {
            if (!commits.contains(v)) {
                return false;
            }
        }
        return true;
    }

    enum CheckpointMutation {
        DROP_REQUIRED_FIELD(false), MISTYPE_REQUIRED_FIELD(false), NULL_REQUIRED_FIELD(false),
        DROP_OPTIONAL_FIELD(true), DROP_REMOVE_COLUMN(true), UNKNOWN_COLUMN(true);

        final boolean neutral;

        CheckpointMutation(boolean neutral) {
            this.neutral = neutral;
        }

        static String apply(CheckpointMutation kind, Path file, Random random) throws Exception {
            Map<String, DuckType> columns = new LinkedHashMap<>();
            String source = "read_parquet(" + SqlText.literal(file.toString()) + ")";
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + source)) {
                while (rs.next()) {
                    columns.put(rs.getString(1), DuckType.parse(rs.getString(2)));
                }
            }
            String[] requiredAdd = {"path", "partitionValues", "size", "modificationTime", "dataChange"};
            String target = requiredAdd[random.nextInt(requiredAdd.length)];
            String replace;
            String what;
            switch (kind) {
                case DROP_REQUIRED_FIELD -> {
                    replace = "REPLACE (" + rebuild(columns.get("add"), target, null) + " AS \"add\")";
                    what = "add." + target + " dropped from the schema";
                }
                case MISTYPE_REQUIRED_FIELD -> {
                    String mistyped = switch (target) {
                        case "path" -> "length(\"add\".path)";
                        case "partitionValues" -> "CAST(\"add\".partitionValues AS VARCHAR)";
                        case "dataChange" -> "CAST(\"add\".dataChange AS VARCHAR)";
                        default -> "CAST(\"add\"." + target + " AS VARCHAR)";
                    };
                    replace = "REPLACE (" + rebuild(columns.get("add"), target, mistyped) + " AS \"add\")";
                    what = "add." + target + " mistyped";
                }
                case NULL_REQUIRED_FIELD -> {
                    String nulled = "CASE WHEN \"add\".path = (SELECT max(\"add\".path) FROM " + source
                            + ") THEN NULL ELSE \"add\"." + SqlText.ident(target) + " END";
                    replace = "REPLACE (" + rebuild(columns.get("add"), target, nulled) + " AS \"add\")";
                    what = "add." + target + " null in one row";
                }
                case DROP_OPTIONAL_FIELD -> {
                    DuckType add = columns.get("add");
                    String optional = add.fields().containsKey("stats") ? "stats"
                            : add.fields().containsKey("tags") ? "tags" : "modificationTime_unknown";
                    replace = add.fields().containsKey(optional)
                            ? "REPLACE (" + rebuild(add, optional, null) + " AS \"add\")" : "";
                    what = "add." + optional + " dropped";
                }
                case DROP_REMOVE_COLUMN -> {
                    replace = columns.containsKey("remove") ? "EXCLUDE (\"remove\")" : "";
                    what = "remove column dropped";
                }
                default -> {
                    replace = "";
                    what = "unknown column added";
                }
            }
            String extra = kind == UNKNOWN_COLUMN ? ", {'x': 1, 'y': 'z'} AS futureAction" : "";
            Path out = file.resolveSibling("rewritten.tmp");
            try (Statement st = conn.createStatement()) {
                st.execute("COPY (SELECT * " + replace + extra + " FROM " + source + ") TO "
                        + SqlText.literal(out.toString()) + " (FORMAT parquet)");
            }
            Files.move(out, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return what;
        }

        /** The add struct rebuilt without {@code field} (replacement null) or with it replaced. */
        private static String rebuild(DuckType add, String field, String replacement) {
            List<String> parts = new ArrayList<>();
            for (String f : add.fields().keySet()) {
                if (f.equals(field)) {
                    if (replacement != null) {
                        parts.add(SqlText.ident(f) + " := " + replacement);
                    }
                } else {
                    parts.add(SqlText.ident(f) + " := \"add\"." + SqlText.ident(f));
                }
            }
            return "CASE WHEN \"add\" IS NULL THEN NULL ELSE struct_pack(" + String.join(", ", parts) + ") END";
        }
    }

    // ---------------------------------------------------------------- JSON mutations

    static final class JsonMutator {

        private static final String[] GARBAGE = {"not json at all", "{\"add\":", "}{", "{\"add\":{\"path\":\"x\"}} trailing",
            "\"just a string\"", "42", "null", "{'add': {}}", "\u0001\u0002"};

        /** Mutates one commit file of the table in place and says what it did. */
        static String mutate(Path table, Random random) throws IOException {
            List<Path> commits = new ArrayList<>();
            try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
                files.filter(p -> COMMIT.matcher(p.getFileName().toString()).matches()).sorted().forEach(commits::add);
            }
            // favour the commits the reader reads (after the newest checkpoint), but sometimes hit an older one
            long cp = Model.checkpointVersion(table);
            List<Path> read = commits.stream().filter(p -> Model.version(p) > cp).toList();
            Path file = !read.isEmpty() && random.nextInt(5) > 0 ? read.get(random.nextInt(read.size()))
                    : commits.get(random.nextInt(commits.size()));
            String content = Files.readString(file, StandardCharsets.UTF_8);
            List<String> lines = new ArrayList<>(List.of(content.split("\n", -1)));
            if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
                lines.remove(lines.size() - 1);
            }
            int n = random.nextInt(lines.size());
            String name = file.getFileName().toString().substring(0, 20).replaceFirst("^0+(?=\\d)", "");
            String where = "v" + name + " line " + (n + 1);
            String what;
            int kind = random.nextInt(16);
            switch (kind) {
                case 0, 1, 2, 3 -> what = fieldMutation(lines, n, random, kind % 3);
                case 4 -> {
                    lines.remove(n);
                    what = "line dropped";
                }
                case 5 -> {
                    lines.add(n, lines.get(n));
                    what = "line duplicated";
                }
                case 6 -> {
                    String g = GARBAGE[random.nextInt(GARBAGE.length)];
                    lines.add(n, g);
                    what = "garbage line " + MAPPER.valueToTree(g);
                }
                case 7 -> {
                    String all = String.join("\n", lines) + "\n";
                    int cut = 1 + random.nextInt(all.length() - 1);
                    Files.writeString(file, all.substring(0, cut), StandardCharsets.UTF_8);
                    return "v" + name + " truncated to " + cut + " of " + all.length() + " characters";
                }
                case 8 -> {
                    if (random.nextBoolean()) {
                        lines.set(n, "[" + lines.get(n) + "]");
                        what = "line wrapped in a JSON array";
                    } else {
                        lines.add(n, "[]");
                        what = "line [] inserted";
                    }
                }
                case 9 -> what = objectMutation(lines, n, node -> {
                    ObjectNode action = firstObjectAction(node);
                    (action == null ? node : action).put("someFutureField" + random.nextInt(3),
                            random.nextBoolean() ? NODES.textNode("v") : NODES.objectNode().put("k", 1));
                    return "unknown field added to " + (action == null ? "the line" : "an action");
                });
                case 10 -> {
                    lines.add(n, "{\"futureAction\":{\"path\":5,\"size\":\"big\"}}");
                    what = "unknown action inserted";
                }
                case 11 -> {
                    int ci = -1;
                    for (int i = 0; i < lines.size(); i++) {
                        if (lines.get(i).contains("\"operationParameters\"")) {
                            ci = i;
                        }
                    }
                    if (ci < 0) {
                        lines.add(n, "{\"commitInfo\":{\"operation\":\"WRITE\"}}");
                        what = "commitInfo without operationParameters inserted";
                    } else {
                        ObjectNode root = (ObjectNode) parse(lines.get(ci));
                        ((ObjectNode) root.get("commitInfo")).remove("operationParameters");
                        lines.set(ci, root.toString());
                        what = "commitInfo.operationParameters dropped";
                        where = "v" + name + " line " + (ci + 1);
                    }
                }
                case 12 -> what = objectMutation(lines, n, node -> {
                    String key = randomKey(node, random);
                    if (key == null) {
                        return "no action to replace";
                    }
                    JsonNode[] values = {NODES.numberNode(5), NODES.textNode("x"), NODES.arrayNode(), NODES.booleanNode(true)};
                    JsonNode v = values[random.nextInt(values.length)];
                    node.set(key, v);
                    return key + " replaced by " + v;
                });
                case 13 -> what = objectMutation(lines, n, node -> {
                    // a map entry mistyped (partitionValues, tags, configuration, options)
                    List<ObjectNode> maps = new ArrayList<>();
                    collectMaps(node, maps);
                    if (maps.isEmpty()) {
                        return "no map to mistype";
                    }
                    ObjectNode map = maps.get(random.nextInt(maps.size()));
                    map.set("k" + random.nextInt(9), random.nextBoolean() ? NODES.numberNode(1) : NODES.objectNode());
                    return "map entry mistyped";
                });
                default -> what = fieldMutation(lines, n, random, random.nextInt(3));
            }
            Files.writeString(file, lines.isEmpty() ? "" : String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
            return where + ": " + what;
        }

        interface NodeMutation {
            String apply(ObjectNode node);
        }

        private static String objectMutation(List<String> lines, int n, NodeMutation mutation) {
            JsonNode node = parse(lines.get(n));
            if (!(node instanceof ObjectNode object)) {
                return "line is not an object, unchanged";
            }
            String what = mutation.apply(object);
            lines.set(n, object.toString());
            return what;
        }

        /** mode 0: drop, 1: mistype, 2: null, a random field (at any depth) of a random action of the line. */
        private static String fieldMutation(List<String> lines, int n, Random random, int mode) {
            return objectMutation(lines, n, root -> {
                List<String[]> paths = new ArrayList<>();
                collectPaths(root, new ArrayList<>(), paths);
                if (paths.isEmpty()) {
                    return "no field";
                }
                String[] path = paths.get(random.nextInt(paths.size()));
                ObjectNode parent = root;
                for (int i = 0; i < path.length - 1; i++) {
                    parent = (ObjectNode) parent.get(path[i]);
                }
                String last = path[path.length - 1];
                String dotted = String.join(".", path);
                switch (mode) {
                    case 0 -> {
                        parent.remove(last);
                        return dotted + " dropped";
                    }
                    case 1 -> {
                        JsonNode v = mistype(parent.get(last), random);
                        parent.set(last, v);
                        return dotted + " mistyped as " + v;
                    }
                    default -> {
                        parent.putNull(last);
                        return dotted + " nulled";
                    }
                }
            });
        }

        private static JsonNode mistype(JsonNode v, Random random) {
            if (v.isTextual()) {
                return random.nextBoolean() ? NODES.numberNode(7) : NODES.objectNode();
            }
            if (v.isIntegralNumber()) {
                return random.nextBoolean() ? NODES.textNode(v.asText()) : NODES.numberNode(1.5);
            }
            if (v.isBoolean()) {
                return NODES.textNode(v.asText());
            }
            if (v.isObject()) {
                return random.nextBoolean() ? NODES.arrayNode() : NODES.textNode("{}");
            }
            if (v.isArray()) {
                return random.nextBoolean() ? NODES.objectNode() : NODES.arrayNode().add(1);
            }
            return NODES.textNode("null");
        }

        /** Field paths inside the line's actions (depth 1 to 3), not entering string maps. */
        private static void collectPaths(JsonNode node, List<String> prefix, List<String[]> out) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                List<String> p = new ArrayList<>(prefix);
                p.add(e.getKey());
                if (p.size() > 1) {
                    out.add(p.toArray(String[]::new));
                }
                if (e.getValue().isObject() && p.size() < 3 && !Model.STRING_MAPS.contains(e.getKey())) {
                    collectPaths(e.getValue(), p, out);
                }
            }
        }

        private static void collectMaps(JsonNode node, List<ObjectNode> out) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue() instanceof ObjectNode o) {
                    if (Model.STRING_MAPS.contains(e.getKey())) {
                        out.add(o);
                    } else {
                        collectMaps(o, out);
                    }
                }
            }
        }

        private static ObjectNode firstObjectAction(ObjectNode root) {
            for (Iterator<JsonNode> it = root.elements(); it.hasNext();) {
                if (it.next() instanceof ObjectNode o) {
                    return o;
                }
            }
            return null;
        }

        private static String randomKey(ObjectNode root, Random random) {
            List<String> keys = new ArrayList<>();
            root.fieldNames().forEachRemaining(keys::add);
            return keys.isEmpty() ? null : keys.get(random.nextInt(keys.size()));
        }

        private static JsonNode parse(String line) {
            try {
                return MAPPER.readTree(line);
            } catch (IOException e) {
                return NODES.missingNode();
            }
        }
    }

    // ---------------------------------------------------------------- the independent model

    /**
     * A naive replay written from PROTOCOL.md: the newest checkpoint (classic Parquet, or v2 JSON manifest with Parquet
     * sidecars) read with plain SQL, then the commits after it, every line parsed with Jackson. Refuses exactly what
     * makes the snapshot undefined, as the reference reader (Delta Kernel) does: a line that is not a JSON object, an
     * {@code add} that breaks the protocol's schema, a {@code remove} whose key (path, deletion vector) does, a
     * protocol or metaData action that is not an object, and a protocol or metaData <em>in effect</em> (the last one)
     * that lacks or mistypes a field. A superseded protocol or metaData needs no fields (replay takes none from it),
     * and the other fields of a {@code remove} ({@code dataChange}, ...) do not change a snapshot.
     */
    static final class Model {

        static final java.util.Set<String> STRING_MAPS = java.util.Set.of("partitionValues", "tags", "configuration",
                "options");

        /** The protocol's action schemas: field name to "type" or "type?" (optional); s, l, i, b, m (string map), a (string array) or a nested schema name. */
        private static final Map<String, Map<String, String>> SCHEMAS = Map.of(
                "protocol", fields("minReaderVersion i", "minWriterVersion i", "readerFeatures a?", "writerFeatures a?"),
                "metaData", fields("id s", "name s?", "description s?", "format format", "schemaString s",
                        "partitionColumns a", "createdTime l?", "configuration m"),
                "format", fields("provider s", "options m?"),
                "add", fields("path s", "partitionValues m", "size l", "modificationTime l", "dataChange b", "stats s?",
                        "tags m?", "deletionVector dv?", "baseRowId l?", "defaultRowCommitVersion l?",
                        "clusteringProvider s?"),
                // a snapshot takes only the logical-file key from a remove (Delta Kernel's tombstone schema too)
                "remove", fields("path s", "deletionVector dv?"),
                "dv", fields("storageType s", "pathOrInlineDv s", "offset i?", "sizeInBytes i", "cardinality l"));

        private static Map<String, String> fields(String... specs) {
            Map<String, String> m = new LinkedHashMap<>();
            for (String s : specs) {
                String[] p = s.split(" ");
                m.put(p[0], p[1]);
            }
            return m;
        }

        static final class State {
            String refusal;
            JsonNode protocol;
            JsonNode metadata;
            final Map<String, JsonNode> live = new TreeMap<>();

            boolean sameMetadata(State o) {
                return Objects.equals(project(protocol, "minReaderVersion", "minWriterVersion", "readerFeatures",
                        "writerFeatures"), project(o.protocol, "minReaderVersion", "minWriterVersion", "readerFeatures",
                                "writerFeatures"))
                        && Objects.equals(project(metadata, "id", "schemaString", "partitionColumns", "configuration"),
                                project(o.metadata, "id", "schemaString", "partitionColumns", "configuration"));
            }

            /** The fields a reader takes from an action; absent and null alike. */
            private static JsonNode project(JsonNode action, String... names) {
                if (action == null) {
                    return null;
                }
                ObjectNode p = NODES.objectNode();
                for (String n : names) {
                    if (action.hasNonNull(n)) {
                        p.set(n, action.get(n));
                    }
                }
                return p;
            }

            boolean sameAs(State o) {
                return sameMetadata(o) && live.keySet().equals(o.live.keySet());
            }

            TreeSet<String> liveKeys() {
                return new TreeSet<>(live.keySet());
            }

            String metadataId() {
                return metadata.get("id").asText();
            }

            List<Integer> protocolVersions() {
                return List.of(protocol.get("minReaderVersion").asInt(), protocol.get("minWriterVersion").asInt());
            }

            List<String> columnNames() throws IOException {
                List<String> names = new ArrayList<>();
                MAPPER.readTree(metadata.get("schemaString").asText()).get("fields").forEach(f -> names.add(f.get("name").asText()));
                return names;
            }

            String firstMissingDataFile(Path table) {
                for (JsonNode add : live.values()) {
                    if (!Files.exists(location(table, add.get("path").asText()))) {
                        return add.get("path").asText();
                    }
                }
                return null;
            }

            /** Sum over the live files of their Parquet row count minus their deletion vector's cardinality. */
            long expectedRows(Path table) throws SQLException {
                long rows = 0;
                for (JsonNode add : live.values()) {
                    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(
                            "SELECT sum(num_rows) FROM parquet_file_metadata("
                                    + SqlText.literal(location(table, add.get("path").asText()).toString()) + ")")) {
                        rs.next();
                        rows += rs.getLong(1);
                    }
                    JsonNode dv = add.get("deletionVector");
                    if (dv != null && !dv.isNull()) {
                        rows -= dv.get("cardinality").asLong();
                    }
                }
                return rows;
            }
        }

        static Path location(Path table, String path) {
            String decoded = decode(path);
            return decoded.startsWith("file:") ? Path.of(java.net.URI.create(path)) : decoded.startsWith("/")
                    ? Path.of(decoded) : table.resolve(decoded);
        }

        static long version(Path file) {
            return Long.parseLong(file.getFileName().toString().substring(0, 20));
        }

        /** Version of the newest checkpoint (classic or v2 JSON), -1 without one. */
        static long checkpointVersion(Path table) throws IOException {
            long v = -1;
            try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    String n = p.getFileName().toString();
                    if (CLASSIC.matcher(n).matches() || V2_JSON.matcher(n).matches()) {
                        v = Math.max(v, version(p));
                    }
                }
            }
            return v;
        }

        static State replay(Path table) throws Exception {
            State s = new State();
            long cp = checkpointVersion(table);
            if (cp >= 0) {
                readCheckpoint(table, cp, s);
            }
            List<Path> commits = new ArrayList<>();
            try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
                files.filter(p -> COMMIT.matcher(p.getFileName().toString()).matches() && version(p) > cp).sorted()
                        .forEach(commits::add);
            }
            String protocolFrom = null;
            String metadataFrom = null;
            for (Path commit : commits) {
                List<JsonNode> adds = new ArrayList<>();
                List<JsonNode> removes = new ArrayList<>();
                String[] lines = Files.readString(commit, StandardCharsets.UTF_8).split("\n");
                for (int i = 0; i < lines.length; i++) {
                    if (lines[i].isBlank()) {
                        continue;
                    }
                    JsonNode root;
                    try {
                        root = MAPPER.readerFor(JsonNode.class)
                                .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                                .readValue(lines[i]);
                    } catch (IOException e) {
                        s.refusal = commit.getFileName() + " line " + (i + 1) + " is not JSON";
                        return s;
                    }
                    if (root == null || !root.isObject()) {
                        s.refusal = commit.getFileName() + " line " + (i + 1) + " is not an object";
                        return s;
                    }
                    for (String action : List.of("protocol", "metaData", "add", "remove")) {
                        JsonNode a = root.get(action);
                        if (a == null || a.isNull()) {
                            continue;
                        }
                        // protocol and metaData: only the one in effect at the end needs its fields (checked below)
                        String problem = action.equals("protocol") || action.equals("metaData")
                                ? (a.isObject() ? null : action + " is not an object") : valid(action, a);
                        if (problem != null) {
                            s.refusal = commit.getFileName() + " line " + (i + 1) + ": " + problem;
                            return s;
                        }
                        String where = commit.getFileName() + " line " + (i + 1);
                        switch (action) {
                            case "protocol" -> {
                                s.protocol = a;
                                protocolFrom = where;
                            }
                            case "metaData" -> {
                                s.metadata = a;
                                metadataFrom = where;
                            }
                            case "add" -> adds.add(a);
                            default -> removes.add(a);
                        }
                    }
                }
                for (JsonNode r : removes) {
                    s.live.remove(key(r));
                }
                for (JsonNode a : adds) {
                    s.live.put(key(a), a);
                }
            }
            if (s.protocol == null || s.metadata == null) {
                s.refusal = "no protocol or no metaData";
                return s;
            }
            // the protocol and metaData in effect must be complete (those of a checkpoint were checked with it)
            String problem = protocolFrom == null ? null : valid("protocol", s.protocol);
            if (problem == null && metadataFrom != null) {
                problem = valid("metaData", s.metadata);
            }
            if (problem != null) {
                s.refusal = (problem.startsWith("protocol") ? protocolFrom : metadataFrom) + " (in effect): " + problem;
            }
            return s;
        }

        /** Null when {@code node} fits the schema {@code schema}, else what is wrong. */
        static String valid(String schema, JsonNode node) {
            if (!node.isObject()) {
                return schema + " is not an object";
            }
            for (Map.Entry<String, String> f : SCHEMAS.get(schema).entrySet()) {
                boolean optional = f.getValue().endsWith("?");
                String type = optional ? f.getValue().substring(0, f.getValue().length() - 1) : f.getValue();
                JsonNode v = node.get(f.getKey());
                if (v == null || v.isNull()) {
                    if (!optional) {
                        return schema + "." + f.getKey() + " missing";
                    }
                    continue;
                }
                boolean ok = switch (type) {
                    case "s" -> v.isTextual();
                    case "l" -> v.isIntegralNumber() && v.canConvertToLong();
                    case "i" -> v.isIntegralNumber() && v.canConvertToInt();
                    case "b" -> v.isBoolean();
                    case "m" -> v.isObject() && allMatch(v, x -> x.isTextual() || x.isNull());
                    case "a" -> v.isArray() && allMatch(v, JsonNode::isTextual);
                    default -> valid(type, v) == null;
                };
                if (!ok) {
                    return schema + "." + f.getKey() + " has the wrong type";
                }
            }
            return null;
        }

        private static boolean allMatch(JsonNode container, java.util.function.Predicate<JsonNode> p) {
            for (JsonNode x : container) {
                if (!p.test(x)) {
                    return false;
                }
            }
            return true;
        }

        static String key(JsonNode action) {
            JsonNode dv = action.get("deletionVector");
            String id = dv == null || dv.isNull() ? "" : dv.get("storageType").asText() + dv.get("pathOrInlineDv").asText()
                    + (dv.hasNonNull("offset") ? "@" + dv.get("offset").asInt() : "");
            return decode(action.get("path").asText()) + "|" + id;
        }

        static String decode(String s) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < b.length; i++) {
                if (b[i] == '%' && i + 2 < b.length && Character.digit(b[i + 1], 16) >= 0 && Character.digit(b[i + 2], 16) >= 0) {
                    out.write(Character.digit(b[i + 1], 16) * 16 + Character.digit(b[i + 2], 16));
                    i += 2;
                } else {
                    out.write(b[i]);
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        }

        /** Checkpoint state: protocol, metaData and adds as JSON trees (Parquet rows through DuckDB's to_json). */
        private static void readCheckpoint(Path table, long version, State s) throws Exception {
            Path log = table.resolve("_delta_log");
            List<String> parquet = new ArrayList<>();
            Path classic = log.resolve(String.format("%020d.checkpoint.parquet", version));
            if (Files.exists(classic)) {
                parquet.add(classic.toString());
            } else {
                try (Stream<Path> files = Files.list(log)) {
                    for (Path p : (Iterable<Path>) files::iterator) {
                        if (V2_JSON.matcher(p.getFileName().toString()).matches() && version(p) == version) {
                            for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                                if (line.isBlank()) {
                                    continue;
                                }
                                JsonNode root = MAPPER.readTree(line);
                                apply(s, root);
                                if (root.hasNonNull("sidecar")) {
                                    parquet.add(log.resolve("_sidecars").resolve(root.get("sidecar").get("path").asText()).toString());
                                }
                            }
                            break;
                        }
                    }
                }
            }
            if (parquet.isEmpty()) {
                return;
            }
            Map<String, Boolean> has = new HashMap<>();
            String src = "read_parquet(" + SqlText.list(parquet) + ", union_by_name = true)";
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + src)) {
                while (rs.next()) {
                    has.put(rs.getString(1), true);
                }
            }
            List<String> cols = new ArrayList<>();
            for (String c : List.of("protocol", "metaData", "add")) {
                cols.add(has.containsKey(c) ? "to_json(" + SqlText.ident(c) + ")::VARCHAR" : "NULL");
            }
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT " + String.join(", ", cols)
                    + " FROM " + src)) {
                while (rs.next()) {
                    ObjectNode root = NODES.objectNode();
                    String[] names = {"protocol", "metaData", "add"};
                    for (int i = 0; i < 3; i++) {
                        if (rs.getString(i + 1) != null) {
                            root.set(names[i], MAPPER.readTree(rs.getString(i + 1)));
                        }
                    }
                    apply(s, root);
                }
            }
        }

        private static void apply(State s, JsonNode root) {
            if (root.hasNonNull("protocol")) {
                s.protocol = stripNulls(root.get("protocol"));
            }
            if (root.hasNonNull("metaData")) {
                s.metadata = stripNulls(root.get("metaData"));
            }
            if (root.hasNonNull("add")) {
                s.live.put(key(root.get("add")), root.get("add"));
            }
        }

        /** Parquet rows carry absent optional fields as null; JSON lines omit them. Compare them alike. */
        private static JsonNode stripNulls(JsonNode node) {
            if (node instanceof ObjectNode o) {
                ObjectNode copy = NODES.objectNode();
                o.fields().forEachRemaining(e -> {
                    if (!e.getValue().isNull()) {
                        copy.set(e.getKey(), stripNulls(e.getValue()));
                    }
                });
                return copy;
            }
            if (node instanceof ArrayNode a) {
                ArrayNode copy = NODES.arrayNode();
                a.forEach(x -> copy.add(stripNulls(x)));
                return copy;
            }
            return node;
        }
    }
}
