package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.Connection;
import java.util.List;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The raw test client's two modes against the emulator: TLS (ENCRYPT_ON, handshake in PRELOGIN, LOGIN7 and the
 * session encrypted), which the bulk-stream scenarios use so they can also run against SQL Server, and plain.
 */
class RawTdsClientTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    @Test
    void tlsModeEncryptsTheSessionAndRunsRequests() throws Exception {
        int before = SERVER.emulator().encryptedSessions();
        try (RawTdsClient c = new RawTdsClient("localhost", SERVER.emulator().port(), SERVER.emulator().user(), SERVER.emulator().password(), true)) {
            assertTrue(c.tls());
            assertEquals(before + 1, SERVER.emulator().encryptedSessions());
            RawTdsClient.Reply r = c.sqlBatch("CREATE TABLE [dbo].[raw_tls] ([id] INT NOT NULL)");
            assertTrue(r.errors.isEmpty(), r.messages.toString());
            r = c.sqlBatch("INSERT INTO [dbo].[raw_tls] ([id]) VALUES (1), (2)");
            assertTrue(r.errors.isEmpty(), r.messages.toString());
            assertEquals(2L, r.doneCounts.get(r.doneCounts.size() - 1));
            // an error arrives through the encrypted stream, and the session goes on
            r = c.sqlBatch("SELECT * FROM [dbo].[no_such_table]");
            assertEquals(List.of(208), r.errors);
            assertTrue(c.sqlBatch("SET NOCOUNT ON").errors.isEmpty());
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(2L, TestSupport.count(c, "[dbo].[raw_tls]"));
        }
    }

    @Test
    void tlsModeWithAWrongPasswordFailsTheLoginWith18456() {
        IOException e = assertThrows(IOException.class,
                () -> new RawTdsClient("localhost", SERVER.emulator().port(), SERVER.emulator().user(), SERVER.emulator().password() + "x", true));
        assertTrue(e.getMessage().startsWith("login failed"), e.getMessage());
        assertTrue(e.getMessage().contains("Login failed for user"), e.getMessage());
    }

    @Test
    void plainModeStaysUnencrypted() throws Exception {
        int before = SERVER.emulator().encryptedSessions();
        try (RawTdsClient c = new RawTdsClient(SERVER.emulator().port(), SERVER.emulator().user(), SERVER.emulator().password())) {
            assertFalse(c.tls());
            assertTrue(c.sqlBatch("SET NOCOUNT ON").errors.isEmpty());
        }
        assertEquals(before, SERVER.emulator().encryptedSessions());
    }
}
