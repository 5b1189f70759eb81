package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every SQL Server message number the emulator sends comes from {@link ErrorCatalog}: this test reads the main
 * sources and fails, listing file and line, on any {@code new SqlServerError(} outside the catalogue (and
 * {@code SqlServerError} itself, which only copies an existing error), and on any ERROR/INFO token or
 * {@code info(…)} written with a literal message number.
 */
class ErrorCatalogScanTest {

    private static final Path MAIN = Paths.get("src/main/java");

    /** A literal number as the first argument of a raising construct; whitespace may span lines. */
    private static final Pattern LITERAL_NUMBER = Pattern.compile(
            "(new\\s+SqlServerError\\s*\\(|TokenType\\.(?:ERROR|INFO)\\s*,|\\binfo\\s*\\()\\s*([1-9][0-9]*)\\b");

    private static final Pattern ANY_CONSTRUCTION = Pattern.compile("new\\s+SqlServerError\\s*\\(");

    @Test
    void noSqlServerErrorIsBuiltOutsideTheCatalogue() throws IOException {
        List<String> offending = new ArrayList<>();
        List<Path> files = javaFiles();
        assertTrue(files.size() > 20, "main sources found under " + MAIN.toAbsolutePath() + ": " + files.size());
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (name.equals("ErrorCatalog.java") || name.equals("SqlServerError.java")) {
                continue;
            }
            String src = Files.readString(f);
            collect(f, src, LITERAL_NUMBER, offending);
            collect(f, src, ANY_CONSTRUCTION, offending);
        }
        assertEquals(List.of(), offending.stream().distinct().toList(),
                "SQL Server errors built outside ErrorCatalog (add an entry there and raise it from the catalogue)");
    }

    @Test
    void sqlServerErrorItselfOnlyBuildsFromExistingValues() throws IOException {
        Path f = javaFiles().stream().filter(p -> p.getFileName().toString().equals("SqlServerError.java"))
                .findFirst().orElseThrow();
        List<String> offending = new ArrayList<>();
        collect(f, Files.readString(f), LITERAL_NUMBER, offending);
        assertEquals(List.of(), offending);
    }

    @Test
    void theScanFindsALiteralNumberConstruction() {
        List<String> found = new ArrayList<>();
        collect(Paths.get("Example.java"), "class X {\n  Object e = new SqlServerError(\n      2627, 1, 14, \"x\");\n"
                + "  void m() { TokenWriter.message(w, TokenType.ERROR, 18456, 1, 14, m); response.info(15477, m); }\n}",
                LITERAL_NUMBER, found);
        assertEquals(List.of("Example.java:2: 2627", "Example.java:4: 18456", "Example.java:4: 15477"), found);
    }

    @Test
    void catalogueEntriesAreDistinctAndComplete() {
        Set<String> seen = new HashSet<>();
        for (ErrorCatalog e : ErrorCatalog.values()) {
            assertTrue(e.number() > 0, e.name());
            assertTrue(e.severity() >= 0 && e.severity() <= 25, e.name());
            assertFalse(e.template().isBlank(), e.name());
            // one entry per number and severity: a second entry for a number exists only where the emulator
            // reports that number at another severity
            assertTrue(seen.add(e.number() + "/" + e.severity()), "duplicate entry " + e.name());
        }
        SqlServerError e = ErrorCatalog.OBJECT_EXISTS.error(5, "There is already an object named 'x' in the database.");
        assertEquals(2714, e.number());
        assertEquals(5, e.state());
        assertEquals(16, e.severity());
        assertEquals(SqlServerError.UNSUPPORTED, ErrorCatalog.UNSUPPORTED.number());
    }

    private static List<Path> javaFiles() throws IOException {
        try (Stream<Path> s = Files.walk(MAIN)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    private static void collect(Path f, String src, Pattern p, List<String> out) {
        Matcher m = p.matcher(src);
        while (m.find()) {
            int line = 1;
            for (int i = 0; i < m.start(); i++) {
                if (src.charAt(i) == '\n') {
                    line++;
                }
            }
            int eol = src.indexOf('\n', m.start());
            String what = m.groupCount() >= 2 ? m.group(2)
                    : src.substring(m.start(), eol < 0 ? src.length() : eol).trim();
            String shown = f.startsWith(MAIN) ? MAIN.relativize(f).toString() : f.toString();
            out.add(shown + ":" + line + ": " + what);
        }
    }
}
