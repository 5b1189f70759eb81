package io.deltafunnel.emulator;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.EnvChangeType;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Protocol paths mssql-jdbc does not exercise: transaction manager requests, server-side string checks, PLP forms. */
class RawProtocolTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static RawTdsClient client() throws Exception {
        return new RawTdsClient(SERVER.emulator().port(), SERVER.emulator().user(), SERVER.emulator().password());
    }

    private static final TypeInfo INT = TypeInfo.of(TypeId.INTN, 4);
    private static final TypeInfo NVARCHAR100 =
            new TypeInfo(TypeId.NVARCHAR, 200, 0, 0, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS);
    private static final TypeInfo NVARCHARMAX =
            new TypeInfo(TypeId.NVARCHAR, TypeId.USHORT_MAX, 0, 0, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS);

    private static TdsWriter colMetadata(TypeInfo nameType) {
        TdsWriter w = new TdsWriter();
        TokenWriter.colMetadata(w, List.of(new TokenWriter.Column("id", INT, TokenWriter.FLAG_NULLABLE),
                new TokenWriter.Column("name", nameType, TokenWriter.FLAG_NULLABLE)));
        return w;
    }

    private static void row(TdsWriter w, TypeInfo nameType, int id, String name) {
        w.writeByte(TokenType.ROW);
        ValueCodec.write(w, INT, id);
        ValueCodec.write(w, nameType, name);
    }

    private static void done(TdsWriter w, long rows) {
        TokenWriter.done(w, TokenType.DONE, DoneStatus.COUNT, 0, rows);
    }

    @Test
    void serverSideTruncationCheck2628() throws Exception {
        try (RawTdsClient c = client()) {
            c.sqlBatch("CREATE TABLE [dbo].[raw2628] ([id] INT NOT NULL, [name] NVARCHAR(5) NULL)");
            RawTdsClient.Reply ib = c.sqlBatch("INSERT BULK [dbo].[raw2628] ([id] INT, [name] NVARCHAR(100))");
            assertTrue(ib.errors.isEmpty(), ib.messages.toString());
            TdsWriter w = colMetadata(NVARCHAR100);
            row(w, NVARCHAR100, 1, "ok");
            row(w, NVARCHAR100, 2, "toolong");
            done(w, 2);
            RawTdsClient.Reply r = c.bulkLoad(w.toByteArray());
            assertEquals(List.of(2628), r.errors);
            assertTrue(r.messages.get(0).contains("column 'name'. Truncated value: 'toolo'."), r.messages.get(0));
            assertTrue((r.doneStatuses.get(r.doneStatuses.size() - 1) & DoneStatus.ERROR) != 0);
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(0L, TestSupport.count(c, "[dbo].[raw2628]"));
        }
    }

    @Test
    void plpWithUnknownLengthChunksAndNull() throws Exception {
        String big = "ab😀".repeat(5000);
        try (RawTdsClient c = client()) {
            c.sqlBatch("CREATE TABLE [dbo].[rawplp] ([id] INT NOT NULL, [name] NVARCHAR(MAX) NULL)");
            c.sqlBatch("INSERT BULK [dbo].[rawplp] ([id] INT, [name] NVARCHAR(MAX))");
            TdsWriter w = colMetadata(NVARCHARMAX);
            // row 1: PLP with unknown total length, split in uneven chunks
            w.writeByte(TokenType.ROW);
            ValueCodec.write(w, INT, 1);
            byte[] bytes = big.getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
            w.writeLong(0xFFFFFFFFFFFFFFFEL);
            int off = 0;
            int chunk = 777;
            while (off < bytes.length) {
                int n = Math.min(chunk, bytes.length - off);
                w.writeInt(n).writeBytes(bytes, off, n);
                off += n;
                chunk = chunk * 3 % 5000 + 1;
            }
            w.writeInt(0);
            // row 2: PLP NULL
            row(w, NVARCHARMAX, 2, null);
            // row 3: empty string with known length
            row(w, NVARCHARMAX, 3, "");
            done(w, 3);
            RawTdsClient.Reply r = c.bulkLoad(w.toByteArray());
            assertTrue(r.errors.isEmpty(), r.messages.toString());
            assertEquals(3L, r.doneCounts.get(r.doneCounts.size() - 1));
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(big, TestSupport.scalar(c, "SELECT [name] FROM [dbo].[rawplp] WHERE [id] = 1"));
            assertEquals(null, TestSupport.scalar(c, "SELECT [name] FROM [dbo].[rawplp] WHERE [id] = 2"));
            assertEquals("", TestSupport.scalar(c, "SELECT [name] FROM [dbo].[rawplp] WHERE [id] = 3"));
        }
    }

    @Test
    void aRequestNamingAnotherTransactionIsRefused() throws Exception {
        try (RawTdsClient c = client()) {
            c.sqlBatch("CREATE TABLE [dbo].[rawdesc] ([id] INT NOT NULL)");
            RawTdsClient.Reply begin = c.sqlBatch("BEGIN TRANSACTION");
            assertTrue(begin.beganTransaction != null && begin.beganTransaction != 0);
            long open = begin.beganTransaction;
            assertEquals(List.of(3910), c.sqlBatch("INSERT INTO [dbo].[rawdesc] VALUES (1)", 0).errors,
                    "a request without the open transaction's descriptor");
            assertEquals(List.of(3910), c.sqlBatch("INSERT INTO [dbo].[rawdesc] VALUES (1)", open + 1).errors);
            assertTrue(c.sqlBatch("INSERT INTO [dbo].[rawdesc] VALUES (2)", open).errors.isEmpty());
            c.sqlBatch("COMMIT TRANSACTION", open);
            assertEquals(List.of(3910), c.sqlBatch("INSERT INTO [dbo].[rawdesc] VALUES (9)", open).errors,
                    "a stale descriptor after the commit");
            assertTrue(c.sqlBatch("INSERT INTO [dbo].[rawdesc] VALUES (3)", 0).errors.isEmpty());
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(5, ((Number) TestSupport.scalar(c, "SELECT SUM([id]) FROM [dbo].[rawdesc]")).intValue(),
                    "only the rows sent with the right descriptor (2, then 3 outside the transaction)");
        }
    }

    @Test
    void transactionManagerBeginCommitRollback() throws Exception {
        try (RawTdsClient c = client()) {
            c.sqlBatch("CREATE TABLE [dbo].[rawtm] ([id] INT NOT NULL)");
            RawTdsClient.Reply begin = c.transactionManager(5);
            assertEquals(List.of(EnvChangeType.BEGIN_TRANSACTION), begin.envChanges);
            c.sqlBatch("INSERT INTO [dbo].[rawtm] VALUES (1)");
            RawTdsClient.Reply rollback = c.transactionManager(8);
            assertEquals(List.of(EnvChangeType.ROLLBACK_TRANSACTION), rollback.envChanges);
            c.transactionManager(5);
            c.sqlBatch("INSERT INTO [dbo].[rawtm] VALUES (2)");
            RawTdsClient.Reply commit = c.transactionManager(7);
            assertEquals(List.of(EnvChangeType.COMMIT_TRANSACTION), commit.envChanges);
            RawTdsClient.Reply again = c.transactionManager(7);
            assertEquals(List.of(3902), again.errors);
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(2, ((Number) TestSupport.scalar(c, "SELECT MAX([id]) FROM [dbo].[rawtm]")).intValue());
            assertEquals(1L, TestSupport.count(c, "[dbo].[rawtm]"));
        }
    }

    @Test
    void bulkLoadWithoutInsertBulkIsAnError() throws Exception {
        try (RawTdsClient c = client()) {
            TdsWriter w = colMetadata(NVARCHAR100);
            done(w, 0);
            RawTdsClient.Reply r = c.bulkLoad(w.toByteArray());
            assertEquals(List.of(4806), r.errors);
            // the connection still answers
            assertTrue(c.sqlBatch("SET NOCOUNT ON").errors.isEmpty());
        }
    }
}
