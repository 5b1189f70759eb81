package io.deltafunnel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The component's main code keeps the layout docs/architecture.md draws: packages by role, imports pointing one way
 * (no package cycles), the Arrow layer free of SQL Server code, no Camel outside {@code io.deltafunnel.camel}, a
 * small {@code mssql} root, and no class over 600 lines without a stated reason.
 *
 * <p>Dependencies are read from the source: {@code import} lines and fully qualified names in code (comments and
 * string literals are left out, so a Javadoc mention is no dependency).
 */
class PackageStructureTest {

    private static final Path MAIN = Paths.get("src/main/java");
    private static final String BASE = "io.deltafunnel";
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.deltafunnel(?:\\.[a-z]\\w*)*)\\.[A-Z]");
    private static final Pattern COMMENTS_AND_STRINGS =
            Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\\\n])*\"", Pattern.DOTALL);

    /** Package -> the other project packages its main code refers to. */
    private static final Map<String, Set<String>> DEPENDENCIES = new TreeMap<>();
    /** Package -> its files. */
    private static final Map<String, List<Path>> FILES = new TreeMap<>();
    /** Package -> the Camel references of its files. */
    private static final Map<String, Set<String>> CAMEL = new TreeMap<>();

    @BeforeAll
    static void readTheSources() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(MAIN)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        for (Path f : files) {
            String src = Files.readString(f);
            Matcher p = PACKAGE.matcher(src);
            assertTrue(p.find(), "no package in " + f);
            String pkg = p.group(1);
            FILES.computeIfAbsent(pkg, k -> new ArrayList<>()).add(f);
            Set<String> deps = DEPENDENCIES.computeIfAbsent(pkg, k -> new TreeSet<>());
            String code = COMMENTS_AND_STRINGS.matcher(src).replaceAll(" ");
            Matcher r = REFERENCE.matcher(code);
            while (r.find()) {
                if (!r.group(1).equals(pkg) && !r.group(1).equals(BASE + ".camel.generated")) {
                    deps.add(r.group(1));
                }
            }
            if (code.contains("org.apache.camel")) {
                CAMEL.computeIfAbsent(pkg, k -> new TreeSet<>()).add(MAIN.relativize(f).toString());
            }
        }
    }

    @Test
    void thereAreNoPackageCycles() {
        List<String> cycles = new ArrayList<>();
        for (String start : DEPENDENCIES.keySet()) {
            List<String> path = pathBack(start, start);
            if (path != null) {
                cycles.add(String.join(" -> ", path));
            }
        }
        assertEquals(List.of(), cycles, "package cycles (see docs/architecture.md for the intended direction)");
    }

    @Test
    void theArrowLayerKnowsNothingOfSqlServer() {
        List<String> wrong = new ArrayList<>();
        DEPENDENCIES.forEach((pkg, deps) -> {
            if (pkg.equals(BASE + ".arrow") || pkg.startsWith(BASE + ".arrow.")) {
                deps.stream().filter(d -> d.startsWith(BASE + ".mssql") || d.startsWith(BASE + ".camel"))
                        .forEach(d -> wrong.add(pkg + " -> " + d));
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void onlyTheCamelPackageKnowsCamel() {
        Map<String, Set<String>> outside = new TreeMap<>(CAMEL);
        outside.remove(BASE + ".camel");
        assertEquals(Map.of(), outside, "the plain packages must not use Camel");
    }

    @Test
    void theDirectPathUsesNoDriverType() throws IOException {
        // bulkEncoder=direct writes the driver-neutral BulkBatch: nothing of mssql-jdbc, nor its ISQLServerBulkData
        // adapter (ArrowBulkData, BoundBulkData), is referred to by the direct package's code
        Pattern driver = Pattern.compile("com\\.microsoft\\.sqlserver|\\bArrowBulkData\\b|\\bBoundBulkData\\b");
        List<String> wrong = new ArrayList<>();
        for (Path f : FILES.getOrDefault(BASE + ".mssql.direct", List.of())) {
            String code = COMMENTS_AND_STRINGS.matcher(Files.readString(f)).replaceAll(" ");
            Matcher m = driver.matcher(code);
            while (m.find()) {
                wrong.add(MAIN.relativize(f) + ": " + m.group());
            }
        }
        assertTrue(FILES.containsKey(BASE + ".mssql.direct"), "no direct package found");
        assertEquals(List.of(), wrong);
    }

    @Test
    void theMssqlRootHoldsOnlyTheSharedVocabulary() {
        List<Path> root = FILES.getOrDefault(BASE + ".mssql", List.of());
        assertTrue(root.size() <= 12, "io.deltafunnel.mssql has " + root.size() + " files: " + root);
        // the root is the bottom of the mssql layers: it refers to none of its role packages
        Set<String> up = new TreeSet<>();
        for (String d : DEPENDENCIES.get(BASE + ".mssql")) {
            if (d.startsWith(BASE + ".mssql.")) {
                up.add(d);
            }
        }
        assertEquals(Set.of(), up);
    }

    @Test
    void noClassIsOver600LinesWithoutSayingWhy() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (List<Path> files : FILES.values()) {
            for (Path f : files) {
                List<String> lines = Files.readAllLines(f);
                if (lines.size() > 600 && lines.stream().noneMatch(l -> l.contains("Longer than 600 lines:"))) {
                    tooLong.add(MAIN.relativize(f) + " (" + lines.size() + " lines)");
                }
            }
        }
        assertEquals(List.of(), tooLong,
                "split these, or say in the class Javadoc why not (\"Longer than 600 lines: ...\")");
    }

    /** A dependency path from {@code from} back to {@code target}, or null when there is none. */
    private static List<String> pathBack(String target, String from) {
        Deque<List<String>> queue = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        Map<String, Set<String>> graph = new HashMap<>(DEPENDENCIES);
        queue.add(List.of(from));
        while (!queue.isEmpty()) {
            List<String> path = queue.poll();
            String last = path.get(path.size() - 1);
            for (String next : graph.getOrDefault(last, Set.of())) {
                List<String> longer = new ArrayList<>(path);
                longer.add(next);
                if (next.equals(target)) {
                    return longer;
                }
                if (seen.add(next)) {
                    queue.add(longer);
                }
            }
        }
        return null;
    }
}
