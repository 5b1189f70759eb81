package io.deltafunnel.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import io.deltafunnel.mssql.direct.DirectBulkWriter;
import org.junit.jupiter.api.Test;

/**
 * {@link EncodeAb} at a small size: the same build as A and B, each in its own class loader, against the sink
 * emulator (each {@link EncodeCpu.Session#round} fails unless the server counted every row). No timing is asserted.
 */
class EncodeAbSmokeTest {

    @Test
    void measuresBothBuildsRoundByRound() throws Exception {
        Path build = Path.of(DirectBulkWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        EncodeAb.Result result;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            result = EncodeAb.run(build, build, 2, 3, 1_000, classPath, out);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(3, result.cpuA().length);
        assertEquals(3, result.cpuB().length);
        assertTrue(text.contains("round 1 (A first)"), text);
        assertTrue(text.contains("round 2 (B first)"), text);
        assertTrue(text.contains("B/A paired by round " + result.bOverA().text()), text);
        for (int r = 0; r < 3; r++) {
            assertTrue(result.cpuA()[r] > 0 && result.cpuB()[r] > 0, "round " + (r + 1) + " measured no CPU");
        }
    }

    @Test
    void theSharedClassPathLeavesOutTheBuildAndTheBenchmarkClasses() throws Exception {
        String sep = File.pathSeparator;
        List<URL> shared = EncodeAb.sharedClassPath("/x/arrow.jar" + sep + "/x/cd.jar" + sep + sep + "/x/classes"
                + sep + "/x/tds.jar", Path.of("/x/cd.jar"), Path.of("/x/classes"));
        assertEquals(List.of(Path.of("/x/arrow.jar").toUri().toURL(), Path.of("/x/tds.jar").toUri().toURL()), shared);
        assertFalse(shared.contains(Path.of("/x/cd.jar").toUri().toURL()));
    }
}
