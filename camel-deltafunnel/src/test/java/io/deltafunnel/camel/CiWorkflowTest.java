package io.deltafunnel.camel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hosted CI workflow ({@code .github/workflows/ci.yml}) has the structure the README promises: it runs on pushes
 * to main and on pull requests, on an Ubuntu runner (Docker available, so every {@code *IT} runs against SQL Server),
 * for Java 17, 21 and 25 (Temurin, Maven cache) and SQL Server 2019, 2022 and 2025, with one {@code mvn -B verify} step
 * that passes the matrix's image as {@code -Dmssql.image}, and without the Delta corpus (not in the repository).
 */
class CiWorkflowTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    @Test
    void workflowRunsVerifyOnUbuntuForEveryJavaAndSqlServerVersion() throws Exception {
        Path file = Path.of("..", ".github", "workflows", "ci.yml");
        assertTrue(Files.isRegularFile(file), "missing " + file.toAbsolutePath());
        String text = Files.readString(file);
        Map<String, Object> wf = map(new Load(LoadSettings.builder().build()).loadFromString(text));

        Map<String, Object> on = map(wf.get("on"));
        assertEquals(List.of("main"), map(on.get("push")).get("branches"));
        assertTrue(on.containsKey("pull_request"), "runs on pull requests");

        Map<String, Object> jobs = map(wf.get("jobs"));
        assertEquals(1, jobs.size(), "one job");
        Map<String, Object> job = map(jobs.values().iterator().next());
        assertTrue(String.valueOf(job.get("runs-on")).startsWith("ubuntu-"), "Linux runner with Docker");
        Map<String, Object> matrix = map(map(job.get("strategy")).get("matrix"));
        assertEquals(List.of("17", "21", "25"), matrix.get("java"));
        assertEquals(List.of("2019", "2022", "2025"), matrix.get("sqlserver"));

        List<Object> steps = list(job.get("steps"));
        Map<String, Object> setupJava = steps.stream().map(CiWorkflowTest::map)
                .filter(s -> String.valueOf(s.get("uses")).startsWith("actions/setup-java@")).findFirst()
                .orElseThrow(() -> new AssertionError("no actions/setup-java step"));
        Map<String, Object> with = map(setupJava.get("with"));
        assertEquals("temurin", with.get("distribution"));
        assertEquals("${{ matrix.java }}", with.get("java-version"));
        assertEquals("maven", with.get("cache"));
        assertTrue(steps.stream().map(CiWorkflowTest::map)
                .anyMatch(s -> String.valueOf(s.get("uses")).startsWith("actions/checkout@")), "checkout step");

        List<String> runs = steps.stream().map(CiWorkflowTest::map).filter(s -> s.containsKey("run"))
                .map(s -> String.valueOf(s.get("run")).trim()).toList();
        assertEquals(List.of("mvn -B verify -Dmssql.image=mcr.microsoft.com/mssql/server:${{ matrix.sqlserver }}-latest"),
                runs, "one step: the whole build, every *IT against the matrix's SQL Server image");
        assertTrue(!text.contains("delta-corpus") && !text.contains("deltafunnel.corpus"),
                "the Delta corpus is not in the repository: its tests skip there");
    }

    /** No {@code *IT} hard-codes its SQL Server image: each takes -Dmssql.image (SqlServerContainer.shared() or .image()). */
    @Test
    void everyItTakesItsImageFromTheMatrix() throws Exception {
        List<Path> its;
        try (var files = Files.walk(Path.of(".."))) {
            its = files.filter(f -> f.getFileName().toString().endsWith("IT.java"))
                    .filter(f -> f.toString().contains("src" + java.io.File.separator + "test")).toList();
        }
        assertTrue(its.size() >= 6, "found the *IT classes: " + its);
        for (Path f : its) {
            String src = Files.readString(f);
            assertTrue(!src.contains("mcr.microsoft.com/mssql/server:"), f + " hard-codes its SQL Server image");
            if (src.contains("MSSQLServerContainer(")) {
                assertTrue(src.contains("SqlServerContainer.image()"), f + " must start SqlServerContainer.image()");
            }
        }
    }
}
