package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.add;
import static io.deltafunnel.delta.DeltaTableWriter.commitInfo;
import static io.deltafunnel.delta.DeltaTableWriter.dv;
import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.mapped;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.pv;
import static io.deltafunnel.delta.DeltaTableWriter.remove;
import static io.deltafunnel.delta.DeltaTableWriter.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** The views DeltaViews registers: types, partition values, deletion vectors, column mapping, widening, pushdown. */
class DeltaViewsTest extends DuckDbTestSupport {

    @Test
    void partitionValuesAreTypedFromTheLogWithNullsAndEscapedPaths() throws Exception {
        DeltaTableWriter t = table("it's partitioned");
        String schema = schema(field("v", prim("integer")), field("s", prim("string")), field("i", prim("integer")),
                field("d", prim("date")), field("ts", prim("timestamp")), field("b", prim("boolean")),
                field("dec", prim("decimal(7,2)")), field("bin", prim("binary")), field("ntz", prim("timestamp_ntz")));
        // directory names on disk (unencoded) and their URI-encoded form in the log
        t.dataFile("s=A%2FB/part 1.parquet", "SELECT 1::INTEGER AS v");
        t.dataFile("s=it's/p2.parquet", "SELECT 2::INTEGER AS v");
        t.dataFile("s=__HIVE_DEFAULT_PARTITION__/p3.parquet", "SELECT 3::INTEGER AS v");
        t.dataFile("s=x/p4.parquet", "SELECT 4::INTEGER AS v, 'from file' AS s"); // file value must be ignored
        t.commit(0, protocol(3, 7, "timestampNtz"), metadata(schema, List.of("s", "i", "d", "ts", "b", "dec", "bin", "ntz"), Map.of()),
                add("s=A%252FB/part%201.parquet", pv("s", "A/B", "i", "-7", "d", "2024-02-29", "ts", "2024-01-01 10:00:00",
                        "b", "true", "dec", "12.50", "bin", "\u0001\u00ff", "ntz", "2024-01-01 10:00:00.123456"), null),
                add("s=it's/p2.parquet", pv("s", "it's \"quoted\"", "i", "", "d", null, "ts", "2024-01-01T10:00:00.000001Z",
                        "b", "false", "dec", "-0.5", "bin", "", "ntz", null), null),
                add("s=__HIVE_DEFAULT_PARTITION__/p3.parquet", pv("s", null, "i", null), null),
                add("s=x/p4.parquet", pv("s", "", "i", "4"), null));
        register("v", t);
        assertEquals(Map.of("v", "INTEGER", "s", "VARCHAR", "i", "INTEGER", "d", "DATE", "ts", "TIMESTAMP WITH TIME ZONE",
                "b", "BOOLEAN", "dec", "DECIMAL(7,2)", "bin", "BLOB", "ntz", "TIMESTAMP"), describe("v"));
        assertEquals(List.of("v", "s", "i", "d", "ts", "b", "dec", "bin", "ntz"), new ArrayList<>(describe("v").keySet()));
        assertEquals(List.of(
                "1|A/B|-7|2024-02-29|1704103200000000|true|12.50|01FF|1704103200123456",
                "2|it's \"quoted\"|null|null|1704103200000001|false|-0.50|null|null",
                "3|null|null|null|null|null|null|null|null",
                "4|null|4|null|null|null|null|null|null"),
                rows("SELECT v, s, i, d, epoch_us(ts), b, dec, hex(bin), epoch_us(ntz) FROM v ORDER BY v"));
        assertEquals(List.of("1"), rows("SELECT v FROM v WHERE s = 'A/B'"));
    }

    @Test
    void deletionVectorsInlineRelativeAndAbsolute() throws Exception {
        DeltaTableWriter t = table("dv");
        for (String f : List.of("f1", "f2", "f3")) {
            t.dataFile(f + ".parquet", "SELECT range::INTEGER AS v FROM range(10)");
        }
        byte[] inline = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 1, 3);
        byte[] forF2 = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.RUNS, 0, 9);
        byte[] forF3 = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 4, 5, 6);
        List<Integer> offsets = new ArrayList<>();
        byte[] file = DeletionVectorBytes.dvFile(List.of(forF3, forF2), offsets);
        UUID uuid = UUID.randomUUID();
        Path relative = t.root.resolve("xy/deletion_vector_" + uuid + ".bin");
        Files.createDirectories(relative.getParent());
        Files.write(relative, file);
        Path absolute = tmp.resolve("elsewhere dv.bin");
        Files.write(absolute, file);
        t.commit(0, protocol(3, 7, "deletionVectors"), metadata(schema(field("v", prim("integer")))),
                add("f1.parquet", Map.of(), dv("i", DeletionVectorBytes.z85(inline), null, inline.length, 2)),
                add("f2.parquet", Map.of(), dv("u", "xy" + DeletionVectorBytes.z85(uuid), offsets.get(1), forF2.length, 2)),
                add("f3.parquet", Map.of(), dv("p", absolute.toUri().toString(), offsets.get(0), forF3.length, 3)));
        register("v", t);
        assertEquals(List.of("23"), rows("SELECT count(*) FROM v"));
        // per file: f1 lost rows 1,3; f2 lost 0,9; f3 lost 4,5,6
        assertEquals(List.of("0:2", "1:2", "2:3", "3:2", "4:2", "5:2", "6:2", "7:3", "8:3", "9:2"),
                rows("SELECT v || ':' || count(*) FROM v GROUP BY v ORDER BY v"));
        // v1: f1's vector is replaced (remove with old DV + add with new DV, same path)
        byte[] newer = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 1, 3, 8);
        t.commit(1, commitInfo(null),
                "{\"remove\":{\"path\":\"f1.parquet\",\"dataChange\":true,\"deletionVector\":"
                        + dv("i", DeletionVectorBytes.z85(inline), null, inline.length, 2) + "}}",
                add("f1.parquet", Map.of(), dv("i", DeletionVectorBytes.z85(newer), null, newer.length, 3)));
        DeltaSnapshot s = register("v", t);
        assertEquals(3, s.fileCount());
        assertEquals(List.of("22"), rows("SELECT count(*) FROM v"));
    }

    @Test
    void missingDeletionVectorFileIsNamed() {
        DeltaTableWriter t = table("dvmissing");
        t.dataFile("f1.parquet", "SELECT 1 AS v");
        UUID uuid = UUID.randomUUID();
        t.commit(0, protocol(3, 7, "deletionVectors"), metadata(schema(field("v", prim("integer")))),
                add("f1.parquet", Map.of(), dv("u", DeletionVectorBytes.z85(uuid), 1, 30, 1)));
        MissingDataFileException e = assertThrows(MissingDataFileException.class, () -> register("v", t));
        assertTrue(e.file().endsWith("deletion_vector_" + uuid + ".bin"), e.getMessage());
    }

    @Test
    void columnMappingByNameRenamesTopLevelNestedAndPartitionColumns() throws Exception {
        columnMapping("name", null);
    }

    @Test
    void columnMappingById() throws Exception {
        columnMapping("id", "{\"col-a\": 1, \"col-s\": {__duckdb_field_id: 2, \"col-z\": 3}}");
    }

    private void columnMapping(String mode, String fieldIds) throws Exception {
        DeltaTableWriter t = table("cm-" + mode);
        String struct = "{\"type\":\"struct\",\"fields\":[" + field("zip code", prim("string"), mapped(3, "col-z")) + "]}";
        String schema = schema(field("Company Name", prim("string"), mapped(1, "col-a")),
                field("info", struct, mapped(2, "col-s")), field("Region", prim("string"), mapped(4, "col-p")));
        t.dataFile("p1.parquet", "SELECT 'ACME' AS \"col-a\", {'col-z': '12345'} AS \"col-s\"", fieldIds);
        t.dataFile("p2.parquet", "SELECT 'Globex' AS \"col-a\", NULL::STRUCT(\"col-z\" VARCHAR) AS \"col-s\"", fieldIds);
        t.commit(0, protocol(2, 5), metadata(schema, List.of("Region"), Map.of("delta.columnMapping.mode", mode)),
                add("p1.parquet", pv("col-p", "EU"), null), add("p2.parquet", pv("col-p", "US"), null));
        DeltaSnapshot s = register("v", t);
        assertEquals(ColumnMappingMode.valueOf(mode.toUpperCase()), s.columnMappingMode());
        assertEquals(Map.of("Company Name", "VARCHAR", "info", "STRUCT(\"zip code\" VARCHAR)", "Region", "VARCHAR"),
                describe("v"));
        assertEquals(List.of("ACME|{'zip code': 12345}|EU", "Globex|null|US"),
                rows("SELECT \"Company Name\", info, Region FROM v ORDER BY 1"));
    }

    @Test
    void timestampNtzAndTimestampAreIndependentOfSessionTimeZone() throws Exception {
        DeltaTableWriter t = table("ts");
        t.dataFile("a.parquet", "SELECT TIMESTAMP '2024-06-01 12:00:00' AS ntz, TIMESTAMPTZ '2024-06-01 12:00:00+00' AS ts");
        t.dataFile("b.parquet", "SELECT TIMESTAMP '2024-06-01 13:00:00' AS ntz, TIMESTAMPTZ '2024-06-01 13:00:00+00' AS ts");
        t.commit(0, protocol(3, 7, "timestampNtz"), metadata(schema(field("ntz", prim("timestamp_ntz")),
                field("ts", prim("timestamp")))), add("a.parquet"), add("b.parquet"));
        t.sql("SET TimeZone = 'America/New_York'");
        register("v", t);
        assertEquals(Map.of("ntz", "TIMESTAMP", "ts", "TIMESTAMP WITH TIME ZONE"), describe("v"));
        assertEquals(List.of("1717243200000000|1717243200000000", "1717246800000000|1717246800000000"),
                rows("SELECT epoch_us(ntz), epoch_us(ts) FROM v ORDER BY 1"));
        // a writer that stored a timestamp column without isAdjustedToUTC (like issue_1374): read as UTC
        DeltaTableWriter naive = table("naive");
        naive.dataFile("a.parquet", "SELECT TIMESTAMP '2024-06-01 13:00:00' AS ts");
        naive.commit(0, protocol(1, 2), metadata(schema(field("ts", prim("timestamp")))), add("a.parquet"));
        register("n", naive);
        assertEquals(List.of("1717246800000000"), rows("SELECT epoch_us(ts) FROM n"));
    }

    @Test
    void typeWideningCastsOldFilesToTheCurrentType() throws Exception {
        DeltaTableWriter t = table("widen");
        DeltaTableWriter.RawJson changes = new DeltaTableWriter.RawJson("[{\"fromType\":\"integer\",\"toType\":\"long\"}]");
        String schema = schema(field("x", prim("long"), Map.of("delta.typeChanges", changes)),
                field("f", prim("double")), field("d", prim("decimal(10,4)")), field("dt", prim("timestamp_ntz")),
                field("s", prim("short")));
        t.dataFile("old.parquet", "SELECT 1::INTEGER AS x, 1.5::FLOAT AS f, 1.25::DECIMAL(5,2) AS d, DATE '2024-01-02' AS dt, 1::TINYINT AS s");
        t.dataFile("new.parquet", "SELECT 5000000000::BIGINT AS x, 2.5::DOUBLE AS f, 3.1234::DECIMAL(10,4) AS d, TIMESTAMP '2024-01-03 04:05:06' AS dt, 300::SMALLINT AS s");
        t.commit(0, protocol(3, 7, "typeWidening", "timestampNtz"), metadata(schema), add("old.parquet"), add("new.parquet"));
        register("v", t);
        assertEquals(Map.of("x", "BIGINT", "f", "DOUBLE", "d", "DECIMAL(10,4)", "dt", "TIMESTAMP", "s", "SMALLINT"),
                describe("v"));
        assertEquals(List.of("1|1.5|1.2500|2024-01-02 00:00:00.0|1", "5000000000|2.5|3.1234|2024-01-03 04:05:06.0|300"),
                rows("SELECT * FROM v ORDER BY x"));
        // only one file of the old type: the view still casts it
        DeltaTableWriter single = table("widen1");
        single.dataFile("old.parquet", "SELECT 7::INTEGER AS x");
        single.commit(0, protocol(3, 7, "typeWidening"), metadata(schema(field("x", prim("long")))), add("old.parquet"));
        register("w", single);
        assertEquals(Map.of("x", "BIGINT"), describe("w"));
    }

    @Test
    void unsupportedTypeChangeIsRefused() {
        DeltaTableWriter t = table("badwiden");
        t.commit(0, protocol(3, 7, "typeWidening"), metadata(schema(field("x", prim("integer"),
                Map.of("delta.typeChanges", new DeltaTableWriter.RawJson("[{\"fromType\":\"string\",\"toType\":\"integer\"}]"))))));
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> register("v", t));
        assertTrue(e.getMessage().contains("string -> integer"), e.getMessage());
    }

    @Test
    void columnsMissingFromFilesAreNull() throws Exception {
        DeltaTableWriter t = table("evolve");
        t.dataFile("old.parquet", "SELECT 1 AS id");
        t.dataFile("new.parquet", "SELECT 2 AS id, 'x' AS extra, {'a': 1} AS st");
        String st = "{\"type\":\"struct\",\"fields\":[" + field("a", prim("integer")) + "," + field("b", prim("string")) + "]}";
        t.commit(0, protocol(1, 2), metadata(schema(field("id", prim("integer")), field("extra", prim("string")),
                field("st", st), field("never", prim("date")))), add("old.parquet"), add("new.parquet"));
        register("v", t);
        assertEquals(Map.of("id", "INTEGER", "extra", "VARCHAR", "st", "STRUCT(a INTEGER, b VARCHAR)", "never", "DATE"),
                describe("v"));
        assertEquals(List.of("1|null|null|null", "2|x|{'a': 1, 'b': NULL}|null"), rows("SELECT * FROM v ORDER BY id"));
    }

    @Test
    void emptySnapshotGivesTypedEmptyView() throws Exception {
        DeltaTableWriter t = table("empty");
        String nested = "{\"type\":\"array\",\"elementType\":\"long\",\"containsNull\":true}";
        String map = "{\"type\":\"map\",\"keyType\":\"string\",\"valueType\":\"double\",\"valueContainsNull\":true}";
        t.dataFile("a.parquet", "SELECT 1 AS id");
        t.commit(0, protocol(1, 2), metadata(schema(field("id", prim("integer")), field("arr", nested),
                field("m", map), field("ts", prim("timestamp")), field("b", prim("byte"))), List.of("b"), Map.of()),
                add("a.parquet", pv("b", "1"), null));
        t.commit(1, remove("a.parquet"));
        DeltaSnapshot s = register("v", t);
        assertEquals(0, s.fileCount());
        assertEquals(Map.of("id", "INTEGER", "arr", "BIGINT[]", "m", "MAP(VARCHAR, DOUBLE)", "ts", "TIMESTAMP WITH TIME ZONE",
                "b", "TINYINT"), describe("v"));
        assertEquals(List.of("0"), rows("SELECT count(*) FROM v"));
    }

    @Test
    void missingDataFileIsNamedAtRegistration() {
        DeltaTableWriter t = table("missing");
        t.dataFile("a.parquet", "SELECT 1 AS id");
        t.commit(0, protocol(1, 2), metadata(schema(field("id", prim("integer")))), add("a.parquet"), add("gone%20away.parquet"));
        MissingDataFileException e = assertThrows(MissingDataFileException.class, () -> register("v", t));
        assertEquals(t.root.resolve("gone away.parquet").toString(), e.file());
        assertTrue(e.getMessage().contains(t.root.toString()), e.getMessage());
    }

    @Test
    void variantColumnsAreInTheViewNoLongerLeftOut() throws Exception {
        DeltaTableWriter t = table("variant");
        String arr = "{\"type\":\"array\",\"elementType\":\"variant\",\"containsNull\":true}";
        t.dataFile("a.parquet", "SELECT 1::BIGINT AS id, {'value': '\\x0C\\x05'::BLOB, 'metadata': '\\x01\\x00\\x00'::BLOB} AS v, "
                + "[{'value': '\\x00'::BLOB, 'metadata': '\\x01\\x00\\x00'::BLOB}] AS av");
        t.commit(0, protocol(3, 7, "variantType"), metadata(schema(field("id", prim("long")), field("v", prim("variant")),
                field("av", arr))), add("a.parquet"));
        DeltaSnapshot s = register("v", t);
        assertEquals(List.of(), s.skippedColumns());
        String variant = "STRUCT(" + VariantStruct.METADATA + " BLOB, " + VariantStruct.VALUE + " BLOB)";
        assertEquals(Map.of("id", "BIGINT", "v", variant, "av", variant + "[]"), describe("v"));
        assertEquals(List.of("0C05|00"), rows("SELECT hex(v." + VariantStruct.VALUE + "), hex(av[1]."
                + VariantStruct.VALUE + ") FROM v"));
    }

    @Test
    void explainShowsProjectionAndFilterPushedIntoTheParquetScan() throws Exception {
        DeltaTableWriter t = table("pushdown");
        t.dataFile("p=1/a.parquet", "SELECT range::INTEGER AS a, range::INTEGER AS b, 'x' AS c FROM range(10)");
        t.dataFile("p=2/b.parquet", "SELECT range::INTEGER AS a, range::INTEGER AS b, 'y' AS c FROM range(10)");
        byte[] bitmap = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 7);
        t.commit(0, protocol(3, 7, "deletionVectors"), metadata(schema(field("a", prim("integer")), field("b", prim("integer")),
                field("c", prim("string")), field("p", prim("integer"))), List.of("p"), Map.of()),
                add("p=1/a.parquet", pv("p", "1"), dv("i", DeletionVectorBytes.z85(bitmap), null, bitmap.length, 1)),
                add("p=2/b.parquet", pv("p", "2"), null));
        register("v", t);
        String plan = String.join("\n", rows("EXPLAIN SELECT a FROM v WHERE b > 5"));
        String scan = scanBox(plan);
        assertTrue(scan.contains("Filters:") && scan.replace(" ", "").contains("b>5"), "filter in the scan:\n" + plan);
        assertTrue(scan.contains("Projections:") && !scan.contains(" c ") && !scan.contains(": c"), "no c:\n" + plan);
        assertEquals(List.of("7"), rows("SELECT count(*) FROM v WHERE b > 5"));
        assertEquals(List.of("4"), rows("SELECT count(*) FROM v WHERE b > 5 AND p = 2"));
    }

    /** The text of the plan box(es) holding the Parquet scan, one line per row of box content. */
    private static String scanBox(String plan) {
        String[] lines = plan.split("\n");
        int start = -1;
        int col = -1;
        for (int i = 0; i < lines.length && start < 0; i++) {
            int at = lines[i].indexOf("READ_PARQUET");
            if (at >= 0) {
                start = i;
                col = lines[i].lastIndexOf('│', at);
            }
        }
        assertTrue(start >= 0, "no READ_PARQUET in plan:\n" + plan);
        StringBuilder sb = new StringBuilder();
        for (int i = start; i < lines.length; i++) {
            String line = lines[i];
            if (col >= line.length() || line.charAt(col) != '│') {
                break;
            }
            int end = line.indexOf('│', col + 1);
            sb.append(line, col + 1, end < 0 ? line.length() : end).append('\n');
        }
        return sb.toString();
    }

    @Test
    void reRegistrationReplacesTheViewAndItsHelperTables() throws Exception {
        DeltaTableWriter dvTable = table("one");
        dvTable.dataFile("p=1/a.parquet", "SELECT range::INTEGER AS a FROM range(3)");
        byte[] bitmap = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 0);
        dvTable.commit(0, protocol(3, 7, "deletionVectors"), metadata(schema(field("a", prim("integer")),
                field("p", prim("integer"))), List.of("p"), Map.of()),
                add("p=1/a.parquet", pv("p", "1"), dv("i", DeletionVectorBytes.z85(bitmap), null, bitmap.length, 1)));
        DeltaTableWriter plain = table("two");
        plain.dataFile("a.parquet", "SELECT 42 AS z");
        plain.commit(0, protocol(1, 2), metadata(schema(field("z", prim("integer")))), add("a.parquet"));
        String view = "my \"view\"";
        DeltaViews.register(conn, List.of(DeltaTableSpec.latest(view, dvTable.root.toString())));
        assertEquals(List.of("2"), rows("SELECT count(*) FROM \"my \"\"view\"\"\""));
        assertEquals(List.of("2"), rows("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '__deltafunnel_%'"));
        DeltaViews.register(conn, List.of(DeltaTableSpec.latest(view, plain.root.toString())));
        assertEquals(List.of("42"), rows("SELECT z FROM \"my \"\"view\"\"\""));
        assertEquals(List.of("0"), rows("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '__deltafunnel_%'"));
    }

    @Test
    void severalSpecsRegisterInOrder() throws Exception {
        DeltaTableWriter a = table("a");
        a.dataFile("x.parquet", "SELECT 1 AS n");
        a.commit(0, protocol(1, 2), metadata(schema(field("n", prim("integer")))), add("x.parquet"));
        a.commit(1, remove("x.parquet"));
        List<DeltaSnapshot> snaps = DeltaViews.register(conn, List.of(DeltaTableSpec.latest("latest", a.root.toString()),
                new DeltaTableSpec("old", a.root.toString(), 0L, null)));
        assertEquals(List.of(1L, 0L), snaps.stream().map(DeltaSnapshot::version).toList());
        assertEquals(List.of("0|1"), rows("SELECT (SELECT count(*) FROM latest), (SELECT count(*) FROM old)"));
    }
}
