package io.deltafunnel.camel;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.session.SchemaEvolver;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * schemaEvolution through the route into the emulator, on real Delta tables written version by version: a table that
 * gains columns (mergeSchema) and one that widens columns (typeWidening int to long, date to timestamp_ntz), each
 * version loaded and compared with the source snapshot; none refusing with every column listed; a cut during an
 * evolving run; a bad option value.
 */
class SchemaEvolutionRouteTest extends DeltaRouteTestSupport {

    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    @TempDir
    Path tmp;


    @BeforeEach
    void noState() throws Exception {
        dropStateTables();
    }

    /** One poll of an incremental=changes route (merge on id) at the table's latest version; returns its failure. */
    private Throwable loadChanges(Path delta, String mssqlOptions) throws Exception {
        return runs.run("deltafunnel:" + runs.nextId() + "?delta.t=" + delta + "&query=RAW(SELECT * FROM t)&batchSize=2"
                + "&stateDataSource=#stateDs&stateKey=" + table + "&repeatCount=1&initialDelay=0"
                + "&sendEmptyMessageWhenIdle=true&bridgeErrorHandler=true&incremental=changes",
                mssql("writeMode=merge&keyColumns=id&" + mssqlOptions)).failure();
    }

    @Test
    void incrementalChangesAddTheNewColumnBeforeTheRunAndOlderRowsReadNull() throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve("cdf")).withChangeDataFeed();
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("name", "string")),
                "SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) v(id, name)");
        assertEquals(null, loadChanges(t.path(), "createTable=true&schemaEvolution=addColumns"));
        assertTargetIsSnapshot(t.path(), 0, "id", "name");
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("name", "string"), SchemaEvolvingDeltaTable.field("score", "long")),
                "SELECT * FROM (VALUES (4, 'd', 40::BIGINT)) v(id, name, score)");
        t.commit(null, null, "SELECT * FROM (VALUES (5, 'e', NULL::BIGINT), (6, 'f', 60::BIGINT)) v(id, name, score)");
        assertEquals(null, loadChanges(t.path(), "schemaEvolution=addColumns"));
        assertTargetIsSnapshot(t.path(), 2, "id", "name", "score");
        assertEquals(List.of("1|a|null", "2|b|null", "3|c|null", "4|d|40", "5|e|null", "6|f|60"),
                target("id", "name", "score"));
    }

    /** The shards of one sharded load of version {@code version}, run at the same time; returns their failures. */
    private List<Throwable> loadSharded(Path delta, long version, int shards, String mssqlOptions) throws Exception {
        List<String> uris = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            uris.add("deltafunnel:evolving?delta.t=" + delta + "&deltaVersion.t=" + version
                    + "&query=RAW(SELECT * FROM t)&batchSize=2&stateDataSource=#stateDs&shardCount=" + shards
                    + "&shardIndex=" + i + "&repeatCount=1&initialDelay=0&bridgeErrorHandler=true");
        }
        return runs.runAll(uris, mssql(mssqlOptions), 120).failures();
    }

    @Test
    void aShardedLoadEvolvesTheTargetBeforeItsStagingCopyAndEveryShardBindsTheSame() throws Exception {
        SchemaEvolvingDeltaTable t = gainingTable();
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        assertEquals(List.of(), loadSharded(t.path(), 2, 2, "writeMode=replace&schemaEvolution=addColumns"));
        assertTargetIsSnapshot(t.path(), 2, "id", "name", "score", "note");
        assertEquals(List.of("id int NO", "name nvarchar YES", "score bigint YES", "note nvarchar YES"), targetTypes());
    }

    /** One run of version {@code version} of {@code delta} into the test's table; returns the run's failure or null. */
    private Throwable load(Path delta, long version, String mssqlOptions) throws Exception {
        return runs.run("deltafunnel:" + runs.nextId() + "?delta.t=" + delta + "&deltaVersion.t=" + version
                + "&query=RAW(SELECT * FROM t)&batchSize=2&repeatCount=1&initialDelay=0", mssql(mssqlOptions)).failure();
    }

    private static String text(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Timestamp t) {
            return TS.format(t.toLocalDateTime());
        }
        if (v instanceof LocalDateTime t) {
            return TS.format(t);
        }
        if (v instanceof Number n && !(v instanceof java.math.BigDecimal)) {
            return Long.toString(n.longValue());
        }
        return v.toString();
    }

    /** The rows of the Delta snapshot at {@code version}, ordered by id, every column as text. */
    private List<String> snapshot(Path delta, long version) throws Exception {
        DeltaViews.register(duck, List.of(new DeltaTableSpec("snap", delta.toString(), version, null)));
        List<String> rows = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM snap ORDER BY id")) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    sb.append(i == 1 ? "" : "|").append(text(rs.getObject(i)));
                }
                rows.add(sb.toString());
            }
        }
        return rows;
    }

    /** The target's rows, ordered by id, the given columns as text. */
    private List<String> target(String... columns) throws Exception {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : query("SELECT [" + String.join("], [", columns) + "] FROM [dbo].[" + table
                + "] ORDER BY [id]")) {
            rows.add(String.join("|", r.stream().map(SchemaEvolutionRouteTest::text).toList()));
        }
        return rows;
    }

    private List<String> targetTypes() throws Exception {
        List<String> out = new ArrayList<>();
        for (List<Object> r : query("SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE FROM INFORMATION_SCHEMA.COLUMNS"
                + " WHERE TABLE_NAME = '" + table + "' ORDER BY ORDINAL_POSITION")) {
            out.add(r.get(0) + " " + r.get(1) + " " + r.get(2));
        }
        return out;
    }

    /** v0 (id, name), v1 adds score long and note string, v2 appends more rows. */
    private SchemaEvolvingDeltaTable gainingTable() throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve("gains"));
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("name", "string")),
                "SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) v(id, name)");
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("name", "string"), SchemaEvolvingDeltaTable.field("score", "long"),
                SchemaEvolvingDeltaTable.field("note", "string")),
                "SELECT * FROM (VALUES (4, 'd', 40::BIGINT, 'x'), (5, 'e', NULL::BIGINT, 'y')) v(id, name, score, note)");
        t.commit(null, null, "SELECT * FROM (VALUES (6, 'f', 60::BIGINT, NULL)) v(id, name, score, note)");
        return t;
    }

    /** v0 (id int, amount int, d date), v1 widens amount to long and d to timestamp_ntz, v2 appends more rows. */
    private SchemaEvolvingDeltaTable wideningTable() throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve("widens"));
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("amount", "integer"), SchemaEvolvingDeltaTable.field("d", "date")),
                "SELECT * FROM (VALUES (1, 10, DATE '2024-01-01'), (2, NULL, DATE '2024-01-02'),"
                        + " (3, 30, NULL::DATE)) v(id, amount, d)");
        t.commit("\"typeWidening\",\"timestampNtz\"", List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("amount", "long",
                        "[{\"fromType\":\"integer\",\"toType\":\"long\"}]"),
                SchemaEvolvingDeltaTable.field("d", "timestamp_ntz",
                        "[{\"fromType\":\"date\",\"toType\":\"timestamp_ntz\"}]")),
                "SELECT * FROM (VALUES (4, 5000000000::BIGINT, TIMESTAMP '2024-01-04 03:04:05.123456')) v(id, amount, d)");
        t.commit(null, null, "SELECT * FROM (VALUES (5, -6000000000::BIGINT, TIMESTAMP '2024-01-05 00:00:01'),"
                + " (6, 7::BIGINT, NULL::TIMESTAMP)) v(id, amount, d)");
        return t;
    }

    private void assertTargetIsSnapshot(Path delta, long version, String... columns) throws Exception {
        assertEquals(snapshot(delta, version), target(columns), "target vs source at version " + version);
    }

    @Test
    void addColumnsFollowsAGainingTableVersionByVersionInReplaceMode() throws Exception {
        SchemaEvolvingDeltaTable t = gainingTable();
        String options = "writeMode=replace&createTable=true&schemaEvolution=addColumns";
        assertEquals(null, load(t.path(), 0, options));
        assertTargetIsSnapshot(t.path(), 0, "id", "name");
        for (long v = 1; v <= 2; v++) {
            assertEquals(null, load(t.path(), v, options));
            assertTargetIsSnapshot(t.path(), v, "id", "name", "score", "note");
        }
        assertEquals(List.of("id int YES", "name nvarchar YES", "score bigint YES", "note nvarchar YES"), targetTypes());
        // the rows of version 0 read NULL in the added columns
        assertEquals(List.of("1|a|null|null", "2|b|null|null", "3|c|null|null", "4|d|40|x", "5|e|null|y",
                "6|f|60|null"), target("id", "name", "score", "note"));
        // a re-run finds nothing to evolve and loads the same
        assertEquals(null, load(t.path(), 2, options));
        assertTargetIsSnapshot(t.path(), 2, "id", "name", "score", "note");
    }

    @Test
    void addColumnsInAppendModeLeavesNullsInTheOlderRows() throws Exception {
        SchemaEvolvingDeltaTable t = gainingTable();
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        assertEquals(null, load(t.path(), 0, "schemaEvolution=addColumns"));
        exec("DELETE FROM [dbo].[" + table + "]"); // the append of version 1 again writes every row of it
        assertEquals(null, load(t.path(), 1, "schemaEvolution=addColumns"));
        assertTargetIsSnapshot(t.path(), 1, "id", "name", "score", "note");
        assertEquals(List.of("id int NO", "name nvarchar YES", "score bigint YES", "note nvarchar YES"), targetTypes());
    }

    @Test
    void widenFollowsAWideningTableVersionByVersionInMergeMode() throws Exception {
        SchemaEvolvingDeltaTable t = wideningTable();
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [amount] int NULL, [d] date NULL)");
        String options = "writeMode=merge&keyColumns=id&schemaEvolution=widen";
        assertEquals(null, load(t.path(), 0, options));
        assertTargetIsSnapshot(t.path(), 0, "id", "amount", "d");
        for (long v = 1; v <= 2; v++) {
            assertEquals(null, load(t.path(), v, options));
            assertTargetIsSnapshot(t.path(), v, "id", "amount", "d");
        }
        assertEquals(List.of("id int NO", "amount bigint YES", "d datetime2 YES"), targetTypes());
        assertEquals(6L, ((Number) query("SELECT DATETIME_PRECISION FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '"
                + table + "' AND COLUMN_NAME = 'd'").get(0).get(0)).longValue());
    }

    @Test
    void widenKeepsANotNullColumnNotNull() throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve("nn"));
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("amount", "long")), "SELECT 1 AS id, 5000000000::BIGINT AS amount");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NULL, [amount] int NOT NULL)");
        assertEquals(null, load(t.path(), 0, "schemaEvolution=widen"));
        assertEquals(List.of("id int YES", "amount bigint NO"), targetTypes());
        assertTargetIsSnapshot(t.path(), 0, "id", "amount");
    }

    @Test
    void noneRefusesListingEveryColumnBeforeAnythingIsWritten() throws Exception {
        SchemaEvolvingDeltaTable t = gainingTable();
        assertEquals(null, load(t.path(), 0, "createTable=true"));
        List<String> before = target("id", "name");
        Throwable e = load(t.path(), 1, "");
        ColumnMappingException m = assertInstanceOf(ColumnMappingException.class, e);
        assertTrue(m.getMessage().contains("source column 'score' has no target column"), m.getMessage());
        assertTrue(m.getMessage().contains("source column 'note' has no target column"), m.getMessage());
        assertTrue(m.getMessage().contains("schemaEvolution=none"), m.getMessage());
        assertEquals(before, target("id", "name"));
        assertEquals(List.of("id int YES", "name nvarchar YES"), targetTypes());
        // addColumns without widen refuses a type that only widening fixes (date to timestamp), before any DDL
        SchemaEvolvingDeltaTable w = wideningTable();
        exec("DROP TABLE [dbo].[" + table + "]");
        assertEquals(null, load(w.path(), 0, "createTable=true"));
        Throwable e2 = load(w.path(), 1, "schemaEvolution=addColumns");
        ColumnMappingException m2 = assertInstanceOf(ColumnMappingException.class, e2);
        assertTrue(m2.getMessage().contains("target column 'd' date") && m2.getMessage().contains(
                "widen would alter it to datetime2(6)"), m2.getMessage());
        assertEquals(List.of("id int YES", "amount int YES", "d date YES"), targetTypes());
    }

    @Test
    void widenNamesTheDefaultConstraintThatDependsOnTheColumn() throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve("df"));
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("amount", "long")), "SELECT 1 AS id, 5000000000::BIGINT AS amount");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NULL, [amount] int NOT NULL CONSTRAINT [DF_amount] DEFAULT 0)");
        Throwable e = load(t.path(), 0, "schemaEvolution=widen");
        SchemaEvolver.SchemaEvolutionException s = assertInstanceOf(SchemaEvolver.SchemaEvolutionException.class, e);
        assertTrue(s.getMessage().contains("'amount'") && s.getMessage().contains("DF_amount")
                && s.getMessage().contains("5074"), s.getMessage());
        assertEquals(List.of("id int YES", "amount int NO"), targetTypes());
    }

    @Test
    void widenNamesTheDependentObjectWhenSqlServerCannotAlterTheColumn() throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve("dep"));
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "long")), "SELECT 5000000000::BIGINT AS id");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, CONSTRAINT [PK_evolve] PRIMARY KEY ([id]))");
        Throwable e = load(t.path(), 0, "schemaEvolution=widen");
        SchemaEvolver.SchemaEvolutionException s = assertInstanceOf(SchemaEvolver.SchemaEvolutionException.class, e);
        assertTrue(s.getMessage().contains("'id'") && s.getMessage().contains("PK_evolve"), s.getMessage());
        assertEquals(List.of("id int NO"), targetTypes());
        assertEquals(0, count(table));
    }

    @Test
    void aCutDuringAnEvolvingRunLeavesTheRowsAndTheReRunCompletesExactly() throws Exception {
        SchemaEvolvingDeltaTable t = gainingTable();
        String options = "writeMode=replace&createTable=true&schemaEvolution=addColumns&maxRetries=0";
        assertEquals(null, load(t.path(), 0, options));
        List<String> before = target("id", "name");
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(2, 1); // the second batch of version 2's run
        Throwable e = load(t.path(), 2, options);
        assertTrue(e != null, "the cut run failed");
        assertEquals(before, target("id", "name"), "the target's rows are as before the cut run");
        // the evolved schema stays (documented): the columns were added before the run's transaction
        assertEquals(List.of("id int YES", "name nvarchar YES", "score bigint YES", "note nvarchar YES"), targetTypes());
        assertEquals(null, load(t.path(), 2, options));
        assertTargetIsSnapshot(t.path(), 2, "id", "name", "score", "note");
    }

    @Test
    void anUnknownSchemaEvolutionValueIsRefusedBeforeAnythingIsWritten() throws Exception {
        SchemaEvolvingDeltaTable t = gainingTable();
        Exception e = assertThrows(Exception.class, () -> load(t.path(), 0, "createTable=true&schemaEvolution=bogus"));
        Throwable c = e;
        while (c != null && !(c instanceof IllegalArgumentException && c.getMessage().contains("schemaEvolution"))) {
            c = c.getCause();
        }
        assertTrue(c != null, "no IllegalArgumentException naming schemaEvolution in " + e);
        assertTrue(c.getMessage().contains("none, addColumns or widen") && c.getMessage().contains("'bogus'"),
                c.getMessage());
        assertEquals(0, query("SELECT 1 FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = '" + table + "'").size());
    }
}
