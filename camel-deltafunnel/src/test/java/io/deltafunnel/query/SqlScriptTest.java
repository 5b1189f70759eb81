package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SqlScriptTest {

    @Test
    void splitsAtTopLevelSemicolonsAndDropsEmptyStatements() {
        assertEquals(List.of("SET threads=1", "SET memory_limit='1GB'"),
                SqlScript.statements(" SET threads=1 ;; SET memory_limit='1GB';\n"));
        assertEquals(List.of(), SqlScript.statements(null));
        assertEquals(List.of(), SqlScript.statements("  ; ;\n"));
    }

    @Test
    void semicolonsInsideLiteralsAndQuotedIdentifiersDoNotSplit() {
        assertEquals(List.of("SELECT 'a;b', 'it''s;', \"we;ird\"\"x\"", "SELECT 2"),
                SqlScript.statements("SELECT 'a;b', 'it''s;', \"we;ird\"\"x\"; SELECT 2"));
        assertEquals(List.of("SELECT $$a;b$$, $t$c;$$;d$t$", "SELECT 3"),
                SqlScript.statements("SELECT $$a;b$$, $t$c;$$;d$t$; SELECT 3"));
    }

    @Test
    void commentsDoNotSplitAndCommentOnlyStatementsAreDropped() {
        String script = "-- set up; the session\nSET threads=1; /* a block; comment */ SET threads=2;\n"
                + "-- trailing comment; with semicolon\n";
        assertEquals(List.of("-- set up; the session\nSET threads=1", "/* a block; comment */ SET threads=2"),
                SqlScript.statements(script));
        assertEquals(List.of("SELECT '--not a comment;' AS x", "SELECT 1"),
                SqlScript.statements("SELECT '--not a comment;' AS x; SELECT 1"));
    }

    @Test
    void everyStatementRunsOnDuckDb() throws Exception {
        List<String> statements = SqlScript.statements(
                "-- comment; first\nCREATE TABLE t(v VARCHAR); /* ; */ INSERT INTO t VALUES ('x;y'), ($$z;$$);");
        assertEquals(2, statements.size());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
            try (ResultSet rs = st.executeQuery("SELECT string_agg(v, '|' ORDER BY v) FROM t")) {
                rs.next();
                assertEquals("x;y|z;", rs.getString(1));
            }
        }
    }
}
