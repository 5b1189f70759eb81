package io.deltafunnel.emulator.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.Test;

/**
 * The emulator turns H2's value cache off before H2 reads its settings ({@link EmulatorDatabase#OBJECT_CACHE_OFF}),
 * and leaves the setting alone when the JVM was started with it. Each case runs in a fresh JVM (H2 reads the
 * property once per JVM, and this test's JVM may have loaded H2 before), on this test's class path.
 */
class ObjectCacheTest {

    @Test
    void h2sValueCacheIsOffInAJvmThatStartsAnEmulator() throws Exception {
        assertEquals("cache false, set by the emulator true", probe(List.of()));
    }

    @Test
    void aSettingTheJvmWasStartedWithIsKept() throws Exception {
        assertEquals("cache true, set by the emulator false", probe(List.of("-Dh2.objectCache=true")));
    }

    /** Runs {@link Probe} in a fresh JVM with {@code options}; returns its last line. */
    private static String probe(List<String> options) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new java.util.ArrayList<>(List.of(java.toString()));
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("the probe failed: " + out);
        }
        String[] lines = out.split("\\R");
        return lines[lines.length - 1];
    }

    /** Starts an emulator (any port) and prints what H2 read and whether the emulator set it. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            try (MssqlEmulator emu = MssqlEmulator.builder().port(0).start()) {
                System.out.println("cache " + org.h2.engine.SysProperties.OBJECT_CACHE + ", set by the emulator "
                        + EmulatorDatabase.OBJECT_CACHE_OFF);
            }
        }
    }
}
