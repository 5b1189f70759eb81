package io.deltafunnel.routes;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged application's main job on a pseudo-terminal of 80 columns (util-linux {@code script}; skipped with a
 * message when it is not installed): the output, interpreted as a terminal shows it (carriage returns and erase
 * sequences applied, {@link TerminalScreen}), has progress lines that never wrap and never share a line with a log
 * line — with four shards' progress on the one line. Needs the jar built by {@code package}; no Docker.
 */
class TerminalProcessIT {

    private static final Pattern LOG_LINE = Pattern.compile("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (TRACE|DEBUG|INFO|WARN|ERROR)");

    private static Path jar;

    @TempDir
    Path work;

    @BeforeAll
    static void findJar() throws Exception {
        Path built = Path.of(System.getProperty("deltafunnel.app.jar", "target/deltafunnel-app.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(built), "the packaged application is missing: " + built);
        Path dir = Files.createTempDirectory("deltafunnel-app-tty");
        jar = Files.copy(built, dir.resolve("deltafunnel-app.jar"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static boolean scriptInstalled() {
        try {
            Process p = new ProcessBuilder("script", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void onAnEightyColumnTerminalProgressNeverWrapsNorSharesALineWithALogLine() throws Exception {
        assumeTrue(scriptInstalled(), "util-linux script is not installed: no pseudo-terminal for this test");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String command = "stty cols 80 rows 24; exec '" + java + "' -jar '" + jar + "'";
        ProcessBuilder pb = new ProcessBuilder("script", "-qfec", command, "/dev/null").directory(work.toFile())
                .redirectErrorStream(true);
        pb.environment().remove("COLUMNS"); // the width comes from the terminal (stty size)
        pb.environment().put("TERM", "xterm");
        pb.environment().put("DELTAFUNNEL_SAMPLE_DIR", work.resolve("sample").toString());
        pb.environment().put("DELTAFUNNEL_SAMPLE_ROWS", "200000");
        pb.environment().put("DELTAFUNNEL_BATCH_SIZE", "2000");
        pb.environment().put("DELTAFUNNEL_SHARDS", "4");
        Process process = pb.start();
        process.getOutputStream().close();
        byte[] bytes = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(240, TimeUnit.SECONDS), "the job did not end");
        String output = new String(bytes, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("\rload-table-shard-") || output.contains("\r0: "),
                "no in-place progress line was drawn:\n" + output);

        TerminalScreen screen = TerminalScreen.render(output, 80);
        // log lines may be longer than the terminal (it wraps them); the progress line never is
        for (String wrapped : screen.wrappedLines()) {
            assertFalse(wrapped.startsWith("load-table") || wrapped.startsWith("0: ") || wrapped.contains(" | "),
                    "the progress line wrapped on the 80-column terminal: " + wrapped + "\n" + output);
        }
        assertTrue(output.contains("\rload-table-shard- 0: ") || output.contains("\r0: "),
                "no line with the four shards' progress:\n" + output);
        for (String line : screen.lines()) {
            var log = LOG_LINE.matcher(line);
            if (log.find()) {
                assertEquals(0, log.start(), "a log line shares its line with something else: " + line);
                assertFalse(log.find(), "two log lines on one line: " + line);
            }
            // a progress line is erased before anything else is written: none stays on the screen
            assertFalse(line.startsWith("load-table-shard-") || line.startsWith("0: "),
                    "a progress line stayed or shares a line: " + line);
        }
        assertEquals(4, screen.lines().stream().filter(l -> l.startsWith("DeltaFunnel run complete on route")).count(),
                String.join("\n", screen.lines()));
    }
}
