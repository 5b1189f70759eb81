package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.deltafunnel.emulator.semantics.SqlServerError;

import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bulk-stream behaviours of the emulator that SQL Server does not share, so they have no {@code *IT}: the emulator
 * refuses with 50100 ("not supported") what SQL Server's documentation leaves open (see "Differences from SQL
 * Server" in the README). The bulk-stream behaviours SQL Server documents are the shared scenarios in
 * {@code fidelity/BulkStreamScenarios} ({@code BulkStreamTest} here, {@code BulkStreamIT} against SQL Server).
 */
class BulkStreamEmulatorOnlyTest {
    private static final TypeInfo INT = TypeInfo.of(TypeId.INTN, 4);
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    /** Emulator only: SQL Server does not document how it matches COLMETADATA names; the emulator refuses. */
    @Test
    void columnsInAnotherOrderThanDeclaredAreRefusedAsNotSupported() throws Exception {
        try (RawTdsClient c = new RawTdsClient(SERVER.emulator().port(), SERVER.emulator().user(), SERVER.emulator().password())) {
            c.sqlBatch("CREATE TABLE [dbo].[bs_order] ([id] INT NOT NULL, [n] INT NULL)");
            TdsWriter w = new TdsWriter();
            TokenWriter.colMetadata(w, List.of(new TokenWriter.Column("n", INT, TokenWriter.FLAG_NULLABLE),
                    new TokenWriter.Column("id", INT, TokenWriter.FLAG_NULLABLE)));
            w.writeByte(TokenType.ROW);
            ValueCodec.write(w, INT, 1);
            ValueCodec.write(w, INT, 2);
            TokenWriter.done(w, TokenType.DONE, DoneStatus.COUNT, 0, 1);
            RawTdsClient.Reply ib = c.sqlBatch("INSERT BULK [dbo].[bs_order] ([id] INT, [n] INT)");
            assertTrue(ib.errors.isEmpty(), ib.messages.toString());
            RawTdsClient.Reply r = c.bulkLoad(w.toByteArray());
            assertEquals(List.of(SqlServerError.UNSUPPORTED), r.errors);
            assertTrue(r.messages.get(0).contains("column 1 named 'n' where INSERT BULK declared 'id'"),
                    r.messages.get(0));
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(0L, TestSupport.count(c, "[dbo].[bs_order]"));
        }
    }
}
