package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

/** The command line entry point, run in-process. */
class MainTest {
    @Test
    void startsPrintsReadyLineAndServes() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
                MssqlEmulator emu = Main.start(new String[] {"--port", Integer.toString(port), "--password",
                    "Cli!Pass1", "--sink"}, out)) {
            String line = buf.toString(StandardCharsets.UTF_8);
            assertTrue(line.contains("listening on " + port), line);
            assertTrue(emu.sinkMode());
            try (Connection c = DriverManager.getConnection(
                    "jdbc:sqlserver://localhost:" + port + ";encrypt=true;trustServerCertificate=true", "sa",
                    "Cli!Pass1")) {
                assertEquals(1, ((Number) TestSupport.scalar(c, "SELECT 1")).intValue());
            }
        }
    }

    @Test
    void readCommittedSnapshotFlagStartsTheDatabaseWithTheOptionOn() throws Exception {
        assertEquals(false, Main.parse(new String[] {"--password", "p"}).readCommittedSnapshot);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
                MssqlEmulator emu = Main.start(new String[] {"--port", "0", "--password", "Cli!Pass1",
                    "--read-committed-snapshot"}, out)) {
            assertTrue(buf.toString(StandardCharsets.UTF_8).contains("READ_COMMITTED_SNAPSHOT ON"));
            assertTrue(emu.readCommittedSnapshot());
            try (Connection c = DriverManager.getConnection(emu.jdbcUrl(), "sa", "Cli!Pass1")) {
                assertEquals(Boolean.TRUE, TestSupport.scalar(c, "SELECT [is_read_committed_snapshot_on]"
                        + " FROM sys.databases WHERE [name] = DB_NAME()"));
            }
        }
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> Main.parse(new String[] {"--port", "1"}));
        assertThrows(IllegalArgumentException.class, () -> Main.parse(new String[] {"--nope"}));
    }
}
