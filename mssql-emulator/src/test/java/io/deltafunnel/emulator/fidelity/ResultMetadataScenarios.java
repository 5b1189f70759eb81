package io.deltafunnel.emulator.fidelity;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Result column names and types as SQL Server derives them: aliases keep their spelling, an unaliased expression has
 * no name, COUNT is int and COUNT_BIG bigint, SUM/AVG per input type, literals, CAST/CONVERT.
 */
abstract class ResultMetadataScenarios extends Scenarios {

    /** name|type|precision|scale of each result column of {@code sql}. */
    private List<String> describe(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnLabel(i) + "|" + md.getColumnTypeName(i) + "|" + md.getPrecision(i) + "|"
                        + md.getScale(i));
            }
        }
        return out;
    }

    private String type(String sql) throws SQLException {
        String d = describe(sql).get(0);
        return d.substring(d.indexOf('|') + 1);
    }

    @Test
    void aliasesKeepTheirSpellingAndExpressionsHaveNoName() throws SQLException {
        List<String> names = new ArrayList<>();
        for (String d : describe("SELECT 1 AS MixedCase, 2 [Two Words], 3 lower_case, 4 AS \"Quoted\", 1 + 1")) {
            names.add(d.substring(0, d.indexOf('|')));
        }
        assertEquals(List.of("MixedCase", "Two Words", "lower_case", "Quoted", ""), names);
    }

    @Test
    void countIsIntAndCountBigIsBigint() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([id]) VALUES (1), (2)");
        assertEquals(List.of("n|int|10|0", "b|bigint|19|0"),
                describe("SELECT COUNT(*) AS n, COUNT_BIG(*) AS b FROM [dbo].[" + table + "]"));
        assertEquals(2, scalar("SELECT COUNT(*) FROM [dbo].[" + table + "]"));
        assertEquals(2L, scalar("SELECT COUNT_BIG(*) FROM [dbo].[" + table + "]"));
    }

    @Test
    void sumAndAvgTypesFollowTheInputType() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([t] tinyint NULL, [s] smallint NULL, [i] int NULL, [b] bigint NULL,"
                + " [d] decimal(10,2) NULL, [m] money NULL, [r] real NULL, [f] float NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([t], [s], [i], [b], [d], [m], [r], [f]) VALUES"
                + " (1, 1, 1, 1, 1.00, 1, 1, 1), (2, 2, 2, 2, 2.00, 2, 2, 2)");
        String from = " FROM [dbo].[" + table + "]";
        assertEquals(List.of("a|int|10|0", "b|int|10|0", "c|int|10|0", "d|bigint|19|0", "e|decimal|38|2",
                "f|money|19|4", "g|float|15|0", "h|float|15|0"), describe("SELECT SUM([t]) AS a, SUM([s]) AS b,"
                        + " SUM([i]) AS c, SUM([b]) AS d, SUM([d]) AS e, SUM([m]) AS f, SUM([r]) AS g, SUM([f]) AS h"
                        + from));
        assertEquals(List.of("a|int|10|0", "c|int|10|0", "d|bigint|19|0", "e|decimal|38|6", "f|money|19|4",
                "h|float|15|0"), describe("SELECT AVG([t]) AS a, AVG([i]) AS c, AVG([b]) AS d, AVG([d]) AS e,"
                        + " AVG([m]) AS f, AVG([f]) AS h" + from));
        // AVG of int is integer arithmetic: (1 + 2) / 2 = 1
        assertEquals(List.of(List.<Object>of(1, new BigDecimal("1.500000"))),
                rows("SELECT AVG([i]), AVG([d])" + from));
        assertEquals(List.of("x|smallint|5|0", "y|decimal|10|2"), describe("SELECT MIN([s]) AS x, MAX([d]) AS y" + from));
    }

    @Test
    void sumOfIntBeyondIntIs8115() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([i] int NOT NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([i]) VALUES (2147483647), (1)");
        // the error follows the column metadata: it surfaces when the row is read
        SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                () -> scalar("SELECT SUM([i]) FROM [dbo].[" + table + "]"));
        assertEquals(8115, e.getErrorCode(), e.getMessage());
        assertTrue(e.getMessage().contains("data type int"), e.getMessage());
        assertEquals(2147483648L, scalar("SELECT SUM(CAST([i] AS bigint)) FROM [dbo].[" + table + "]"));
    }

    @Test
    void literalTypes() throws SQLException {
        assertEquals("int|10|0", type("SELECT 1"));
        assertEquals("numeric|10|0", type("SELECT 2147483648"));
        assertEquals("numeric|2|1", type("SELECT 1.5"));
        assertEquals("numeric|2|2", type("SELECT 0.25"));
        assertEquals("float|15|0", type("SELECT 1e0"));
        assertEquals("varchar|3|0", type("SELECT 'abc'"));
        assertEquals("nvarchar|3|0", type("SELECT N'abc'"));
        assertEquals("int|10|0", type("SELECT -7"));
    }

    @Test
    void castAndConvertTypes() throws SQLException {
        assertEquals("smallint|5|0", type("SELECT CAST(1 AS smallint)"));
        assertEquals("nvarchar|5|0", type("SELECT CONVERT(nvarchar(5), 12)"));
        assertEquals("decimal|5|2", type("SELECT CAST('1.5' AS decimal(5,2))"));
        assertEquals("datetime2|27|7", type("SELECT CAST('2024-01-02' AS datetime2)"));
        assertEquals(new BigDecimal("1.50"), scalar("SELECT CAST('1.5' AS decimal(5,2))"));
    }
}
