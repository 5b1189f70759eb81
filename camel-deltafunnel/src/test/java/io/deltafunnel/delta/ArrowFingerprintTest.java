package io.deltafunnel.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.Test;

/** The fingerprint renders values as FINGERPRINT.md says, over DuckDB's Arrow export. */
class ArrowFingerprintTest extends DuckDbTestSupport {

    @Test
    void rendersEveryKindOfValue() throws Exception {
        String sql = "SELECT * FROM (VALUES (1.5::DECIMAL(5,2), 0.1::FLOAT, 35837837.190000005::DOUBLE, MAP {'b': 1, 'a': 2},"
                + " [1, NULL, 2], {'aa': 1, 'ac': {'aca': NULL::INTEGER}}, DATE '2024-02-29', '\\x00\\xff'::BLOB,"
                + " TIMESTAMPTZ '1969-12-31 23:59:59.999999+00', 'héllo', true, -7::TINYINT, NULL::VARCHAR, 'skip me'),"
                + " (-0.5, -0.0::FLOAT, 1e7::DOUBLE, MAP {}, [], NULL, DATE '1970-01-01', ''::BLOB, TIMESTAMPTZ '1970-01-01 00:00:00+00', '', false, 0, 'x', 'y'))"
                + " t(d, f, db, m, l, s, dt, b, ts, str, bo, ti, n, skipped)";
        String row1 = String.join("\u0001", "1.50", "0.1", "3.5837837190000005E7", "{a=2,b=1}", "[1,\\N,2]",
                "{aa=1,ac={aca=\\N}}", "2024-02-29", "00ff", "-1", "héllo", "true", "-7", "\\N");
        String row2 = String.join("\u0001", "-0.50", "-0.0", "1.0E7", "{}", "[]", "\\N", "1970-01-01", "", "0", "",
                "false", "0", "x");
        List<String> sorted = new java.util.ArrayList<>(List.of(row1, row2));
        sorted.sort((a, b) -> java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (String r : sorted) {
            sha.update((r + "\n").getBytes(StandardCharsets.UTF_8));
        }
        try (RootAllocator allocator = new RootAllocator();
                Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery(sql);
                ArrowReader reader = (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, 1)) {
            ArrowFingerprint fp = ArrowFingerprint.of(List.of("skipped"), reader);
            assertEquals(List.of(row1, row2), fp.renderedRows());
            assertEquals(HexFormat.of().formatHex(sha.digest()), fp.hex());
        }
    }

    @Test
    void emptyInputHashesTheEmptyString() {
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", new ArrowFingerprint(List.of()).hex());
    }
}
