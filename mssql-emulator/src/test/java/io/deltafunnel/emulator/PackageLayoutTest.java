package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The emulator's main code is laid out by protocol role (see the README's Layout section), and the directions that
 * layout achieved hold: SQL Server's rules ({@code semantics}) do not reach into execution, the wire, H2, the test
 * harness or the API package, and the executor does not know the test harness.
 */
class PackageLayoutTest {

    private static final Path MAIN = Paths.get("src/main/java");
    private static final String BASE = "io.deltafunnel.emulator";
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(io\\.deltafunnel\\.emulator[\\w.]*);",
            Pattern.MULTILINE);

    @Test
    void mainCodeSitsInTheRolePackages() throws IOException {
        Set<String> packages = new TreeSet<>();
        for (Path f : javaFiles()) {
            Matcher m = PACKAGE.matcher(Files.readString(f));
            assertTrue(m.find(), "no package in " + f);
            packages.add(m.group(1));
        }
        assertEquals(Set.of(BASE, BASE + ".wire", BASE + ".tsql", BASE + ".exec", BASE + ".semantics", BASE + ".h2",
                BASE + ".testing"), packages);
    }

    @Test
    void semanticsImportsNeitherExecutionNorWireNorH2NorTheHarness() throws IOException {
        assertEquals(List.of(), imports("semantics", "exec", "wire", "h2", "testing", ""));
    }

    @Test
    void theExecutorDoesNotKnowTheTestHarness() throws IOException {
        assertEquals(List.of(), imports("exec", "testing"));
    }

    /** Imports by files of {@code from} of the packages {@code to} ("" is the API package itself). */
    private static List<String> imports(String from, String... to) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path f : javaFiles()) {
            String src = Files.readString(f);
            Matcher p = PACKAGE.matcher(src);
            if (!p.find() || !p.group(1).equals(BASE + "." + from)) {
                continue;
            }
            Matcher m = IMPORT.matcher(src);
            while (m.find()) {
                String imported = m.group(1);
                String rest = imported.substring(BASE.length() + 1);
                String pkg = Character.isUpperCase(rest.charAt(0)) ? "" : rest.substring(0, rest.indexOf('.'));
                for (String t : to) {
                    if (pkg.equals(t)) {
                        out.add(MAIN.relativize(f) + ": " + imported);
                    }
                }
            }
        }
        return out;
    }

    private static List<Path> javaFiles() throws IOException {
        try (Stream<Path> s = Files.walk(MAIN)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }
}
