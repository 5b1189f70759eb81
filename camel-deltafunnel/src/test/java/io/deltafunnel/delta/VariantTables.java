package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.add;
import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.schema;
import static io.deltafunnel.query.VariantBytes.array;
import static io.deltafunnel.query.VariantBytes.binary;
import static io.deltafunnel.query.VariantBytes.bool;
import static io.deltafunnel.query.VariantBytes.date;
import static io.deltafunnel.query.VariantBytes.dbl;
import static io.deltafunnel.query.VariantBytes.decimal16;
import static io.deltafunnel.query.VariantBytes.decimal4;
import static io.deltafunnel.query.VariantBytes.decimal8;
import static io.deltafunnel.query.VariantBytes.flt;
import static io.deltafunnel.query.VariantBytes.int16;
import static io.deltafunnel.query.VariantBytes.int32;
import static io.deltafunnel.query.VariantBytes.int64;
import static io.deltafunnel.query.VariantBytes.int8;
import static io.deltafunnel.query.VariantBytes.nul;
import static io.deltafunnel.query.VariantBytes.object;
import static io.deltafunnel.query.VariantBytes.shortString;
import static io.deltafunnel.query.VariantBytes.sql;
import static io.deltafunnel.query.VariantBytes.string;
import static io.deltafunnel.query.VariantBytes.timeNtz;
import static io.deltafunnel.query.VariantBytes.timestamp;
import static io.deltafunnel.query.VariantBytes.timestampNanos;
import static io.deltafunnel.query.VariantBytes.timestampNtz;
import static io.deltafunnel.query.VariantBytes.timestampNtzNanos;
import static io.deltafunnel.query.VariantBytes.uuid;

import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;

import io.deltafunnel.query.VariantBytes;

/**
 * Generated Delta tables with variant columns, written with the project's test Delta writer: Parquet files by DuckDB
 * holding the Variant binary encoding ({@link VariantBytes}) as {@code STRUCT(metadata BLOB, value BLOB[, typed_value
 * ...])} groups, the layout Spark 4.0 / Delta write, and a hand-written log with the {@code variantType} (and
 * {@code variantShredding}) feature. Each table comes with the JSON text each value must decode to.
 */
public final class VariantTables {

    private VariantTables() {
    }

    /** Metadata shared by every generated value: keys a, b, c (sorted dictionary). */
    static final byte[] METADATA = io.deltafunnel.query.VariantBytes.metadata("a", "b", "c");

    /** One value and the JSON text it decodes to. */
    public record Case(byte[] value, String json) {
    }

    /** Every primitive type, short strings, an object, an array and nesting. */
    public static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case(nul(), "null"));
        c.add(new Case(bool(true), "true"));
        c.add(new Case(bool(false), "false"));
        c.add(new Case(int8(-7), "-7"));
        c.add(new Case(int16(-30000), "-30000"));
        c.add(new Case(int32(123456789), "123456789"));
        c.add(new Case(int64(-9000000000000000000L), "-9000000000000000000"));
        c.add(new Case(dbl(2.5), "2.5"));
        c.add(new Case(dbl(Double.NaN), "NaN"));
        c.add(new Case(dbl(Double.NEGATIVE_INFINITY), "-Infinity"));
        c.add(new Case(flt(0.25f), "0.25"));
        c.add(new Case(decimal4(-12345, 2), "-123.45"));
        c.add(new Case(decimal8(100000000000L, 3), "100000000.000"));
        c.add(new Case(decimal16(new BigInteger("12345678901234567890123456789"), 9), "12345678901234567890.123456789"));
        c.add(new Case(date(19782), "\"2024-02-29\""));
        c.add(new Case(timestamp(1709210096789000L), "\"2024-02-29 12:34:56.789+00:00\""));
        c.add(new Case(timestampNtz(1709210096000000L), "\"2024-02-29 12:34:56\""));
        c.add(new Case(timestampNanos(1709210096123456789L), "\"2024-02-29 12:34:56.123456789+00:00\""));
        c.add(new Case(timestampNtzNanos(-1L), "\"1969-12-31 23:59:59.999999999\""));
        c.add(new Case(timeNtz(45296000001L), "\"12:34:56.000001\""));
        c.add(new Case(binary(new byte[] {(byte) 0xDE, (byte) 0xAD, (byte) 0xBE, (byte) 0xEF}), "\"3q2+7w==\""));
        c.add(new Case(string("a long string: \"quoted\"\n"), "\"a long string: \\\"quoted\\\"\\n\""));
        c.add(new Case(shortString("caf\u00e9"), "\"caf\u00e9\""));
        c.add(new Case(uuid(UUID.fromString("00112233-4455-6677-8899-aabbccddeeff")),
                "\"00112233-4455-6677-8899-aabbccddeeff\""));
        c.add(new Case(object(new int[] {0, 2}, int8(1), array(shortString("x"), nul())), "{\"a\":1,\"c\":[\"x\",null]}"));
        c.add(new Case(array(object(new int[] {1}, bool(true)), array(), int32(3)), "[{\"b\":true},[],3]"));
        return c;
    }

    /** The generated unshredded table: its path and, per id, the JSON of {@code v} (null: SQL NULL). */
    public record Generated(Path root, Map<Long, String> expected) {
    }

    private static String variant(byte[] value) {
        return "{'metadata': " + sql(METADATA) + ", 'value': " + sql(value) + "}";
    }

    private static final String VARIANT_ARRAY = "{\"type\":\"array\",\"elementType\":\"variant\",\"containsNull\":true}";
    private static final String VARIANT_MAP = "{\"type\":\"map\",\"keyType\":\"string\",\"valueType\":\"variant\","
            + "\"valueContainsNull\":true}";
    private static final String VARIANT_STRUCT = "{\"type\":\"struct\",\"fields\":[" + field("v", prim("variant")) + ","
            + field("n", prim("long")) + "]}";

    /**
     * Writes an unshredded table at {@code root}: {@code id long, v variant, s struct<v:variant,n:long>,
     * a array<variant>, m map<string,variant>}, one row per {@link #cases() case} (id = its index) with
     * {@code s = {v, n: id}}, {@code a = [v, NULL]}, {@code m = {'k': v}}, plus a last row whose {@code v} and
     * nested variants are SQL NULL.
     */
    public static Generated writeUnshredded(Connection duckdb, Path root) {
        DeltaTableWriter t = new DeltaTableWriter(duckdb, root);
        List<Case> cases = cases();
        Map<Long, String> expected = new LinkedHashMap<>();
        StringJoiner rows = new StringJoiner(" UNION ALL ");
        for (int i = 0; i < cases.size(); i++) {
            String v = variant(cases.get(i).value());
            rows.add("SELECT " + i + "::BIGINT AS id, " + v + " AS v, {'v': " + v + ", 'n': " + i + "::BIGINT} AS s, ["
                    + v + ", NULL] AS a, MAP {'k': " + v + "} AS m");
            expected.put((long) i, cases.get(i).json());
        }
        long nullId = cases.size();
        String typedNull = "NULL::STRUCT(metadata BLOB, \"value\" BLOB)";
        rows.add("SELECT " + nullId + "::BIGINT, " + typedNull + ", {'v': " + typedNull + ", 'n': " + nullId
                + "::BIGINT}, [" + typedNull + "], MAP {'k': " + typedNull + "}");
        expected.put(nullId, null);
        t.dataFile("part-0.parquet", rows.toString());
        t.commit(0, protocol(3, 7, "variantType"), metadata(schema(field("id", prim("long")), field("v", prim("variant")),
                field("s", VARIANT_STRUCT), field("a", VARIANT_ARRAY), field("m", VARIANT_MAP))), add("part-0.parquet"));
        return new Generated(root, expected);
    }

    /** One shredded row: id, the SQL struct of the variant (or NULL), and its expected JSON (null: SQL NULL). */
    record Shredded(String struct, String json) {
    }

    static String shredded(String value, String typed) {
        return "{'metadata': " + sql(METADATA) + ", 'value': " + value + ", 'typed_value': " + typed + "}";
    }

    static String group(String value, String typed) {
        return "{'value': " + value + ", 'typed_value': " + typed + "}";
    }

    /**
     * Writes a shredded table at {@code root} ({@code variantShredding} feature) with one variant column per
     * shredding layout, each a list of rows; returns column name to the expected JSON per row (rows ordered by
     * {@code id}). Columns: {@code p} typed_value BIGINT; {@code o} an object shredding a (INTEGER) and b (VARCHAR)
     * with a residual object; {@code arr} a list of DOUBLE groups; and one column per shredded primitive type.
     */
    public static Map<String, List<String>> writeShredded(Connection duckdb, Path root) {
        Map<String, List<Shredded>> columns = new LinkedHashMap<>();
        String noValue = "NULL::BLOB";
        columns.put("p", List.of(
                new Shredded(shredded(noValue, "42::BIGINT"), "42"),
                new Shredded(shredded(sql(shortString("not a number")), "NULL::BIGINT"), "\"not a number\""),
                new Shredded(shredded(noValue, "NULL::BIGINT"), "null"),
                new Shredded(shredded(sql(nul()), "NULL::BIGINT"), "null"),
                new Shredded("NULL", null)));
        String o = "{'a': " + group(noValue, "%s::INTEGER") + ", 'b': " + group(noValue, "%s::VARCHAR") + "}";
        String residualC = sql(object(new int[] {2}, bool(true)));
        columns.put("o", List.of(
                new Shredded(shredded(noValue, String.format(o, "1", "'s'")), "{\"a\":1,\"b\":\"s\"}"),
                new Shredded(shredded(residualC, String.format(o, "NULL", "'s'")), "{\"b\":\"s\",\"c\":true}"),
                new Shredded(shredded(residualC, "{'a': " + group(sql(string("residual a")), "NULL::INTEGER") + ", 'b': "
                        + group(noValue, "NULL::VARCHAR") + "}"), "{\"a\":\"residual a\",\"c\":true}"),
                new Shredded(shredded(sql(int8(5)), "NULL::STRUCT(a STRUCT(\"value\" BLOB, typed_value INTEGER), "
                        + "b STRUCT(\"value\" BLOB, typed_value VARCHAR))"), "5"),
                new Shredded(shredded(noValue, String.format(o, "NULL", "NULL")), "{}")));
        columns.put("arr", List.of(
                new Shredded(shredded(noValue, "[" + group(noValue, "1.5::DOUBLE") + ", " + group(sql(string("x")),
                        "NULL::DOUBLE") + ", " + group(sql(nul()), "NULL::DOUBLE") + "]"), "[1.5,\"x\",null]"),
                new Shredded(shredded(noValue, "[]::STRUCT(\"value\" BLOB, typed_value DOUBLE)[]"), "[]"),
                new Shredded(shredded(sql(array(bool(false))), "NULL::STRUCT(\"value\" BLOB, typed_value DOUBLE)[]"),
                        "[false]"),
                new Shredded(shredded(noValue, "['NaN'::DOUBLE, 'Infinity'::DOUBLE].list_transform(lambda x: "
                        + "{'value': NULL::BLOB, 'typed_value': x})"), "[NaN,Infinity]"),
                new Shredded("NULL", null)));
        Map<String, String[]> typed = new LinkedHashMap<>();
        typed.put("t_bool", new String[] {"true", "true"});
        typed.put("t_int8", new String[] {"(-5)::TINYINT", "-5"});
        typed.put("t_int16", new String[] {"(-300)::SMALLINT", "-300"});
        typed.put("t_int32", new String[] {"70000::INTEGER", "70000"});
        typed.put("t_float", new String[] {"0.5::FLOAT", "0.5"});
        typed.put("t_double", new String[] {"1e300::DOUBLE", "1.0E300"});
        typed.put("t_dec", new String[] {"(-12.30)::DECIMAL(10,2)", "-12.30"});
        typed.put("t_dec38", new String[] {"'12345678901234567890.123456789'::DECIMAL(38,9)",
                "12345678901234567890.123456789"});
        typed.put("t_date", new String[] {"DATE '2024-02-29'", "\"2024-02-29\""});
        typed.put("t_ts", new String[] {"TIMESTAMPTZ '2024-02-29 12:34:56.5+00'", "\"2024-02-29 12:34:56.5+00:00\""});
        typed.put("t_ntz", new String[] {"TIMESTAMP '2024-02-29 12:34:56.000001'", "\"2024-02-29 12:34:56.000001\""});
        typed.put("t_ns", new String[] {"TIMESTAMP_NS '2024-02-29 12:34:56.123456789'",
                "\"2024-02-29 12:34:56.123456789\""});
        typed.put("t_time", new String[] {"TIME '12:34:56.25'", "\"12:34:56.25\""});
        typed.put("t_bin", new String[] {"from_hex('00ff')", "\"AP8=\""});
        typed.put("t_str", new String[] {"'tab\there'", "\"tab\\there\""});
        typed.put("t_uuid", new String[] {"'00112233-4455-6677-8899-aabbccddeeff'::UUID",
                "\"00112233-4455-6677-8899-aabbccddeeff\""});
        for (Map.Entry<String, String[]> e : typed.entrySet()) {
            columns.put(e.getKey(), List.of(new Shredded(shredded(noValue, e.getValue()[0]), e.getValue()[1]),
                    new Shredded(shredded(sql(shortString("r")), "NULL::" + duckTypeOf(duckdb, e.getValue()[0])),
                            "\"r\""),
                    new Shredded(shredded(noValue, "NULL::" + duckTypeOf(duckdb, e.getValue()[0])), "null"),
                    new Shredded("NULL", null),
                    new Shredded(shredded(noValue, e.getValue()[0]), e.getValue()[1])));
        }
        DeltaTableWriter t = new DeltaTableWriter(duckdb, root);
        int rowCount = 5;
        StringJoiner rows = new StringJoiner(" UNION ALL ");
        List<String> fields = new ArrayList<>();
        fields.add(field("id", prim("long")));
        for (String name : columns.keySet()) {
            fields.add(field(name, prim("variant")));
        }
        for (int r = 0; r < rowCount; r++) {
            StringJoiner select = new StringJoiner(", ", "SELECT ", "");
            select.add(r + "::BIGINT AS id");
            for (Map.Entry<String, List<Shredded>> e : columns.entrySet()) {
                select.add(e.getValue().get(r).struct() + " AS " + e.getKey());
            }
            rows.add(select.toString());
        }
        t.dataFile("part-0.parquet", rows.toString());
        t.commit(0, protocol(3, 7, "variantType", "variantShredding"), metadata(schema(fields.toArray(new String[0]))),
                add("part-0.parquet"));
        Map<String, List<String>> expected = new LinkedHashMap<>();
        for (Map.Entry<String, List<Shredded>> e : columns.entrySet()) {
            List<String> json = new ArrayList<>();
            e.getValue().forEach(s -> json.add(s.json()));
            expected.put(e.getKey(), json);
        }
        return expected;
    }

    private static String duckTypeOf(Connection duckdb, String expr) {
        try (java.sql.Statement st = duckdb.createStatement(); java.sql.ResultSet rs = st.executeQuery("SELECT typeof("
                + expr + ")")) {
            rs.next();
            return rs.getString(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(expr + ": " + e.getMessage(), e);
        }
    }
}
