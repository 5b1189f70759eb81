package io.deltafunnel.emulator.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.deltafunnel.emulator.RawTdsClient;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The BULK_LOAD stream itself, with bytes mssql-jdbc never sends, through the raw TDS client ({@link RawTdsClient})
 * in TLS mode (ENCRYPT_ON, the TLS handshake in PRELOGIN, LOGIN7 and everything after encrypted), so the same
 * scenario runs against the emulator ({@code BulkStreamTest}) and a real SQL Server ({@code BulkStreamIT}): a
 * message ending after its last ROW without a DONE token is accepted; COLMETADATA that differs from the INSERT BULK
 * column list is refused with 4816 (type id, length, precision/scale, PLP-ness) or 4804 (column count, premature
 * end), and nothing of the round is stored. The emulator's own "not supported" refusals of the bulk stream are in
 * {@code io.deltafunnel.emulator.BulkStreamEmulatorOnlyTest}.
 */
abstract class BulkStreamScenarios extends Scenarios {
    private static final TypeInfo INT = TypeInfo.of(TypeId.INTN, 4);
    private static final Collation CI_AS = Collation.SQL_LATIN1_GENERAL_CP1_CI_AS;

    /** A raw TLS session to the server under test, owned (and closed) by the caller. */
    private RawTdsClient client() throws Exception {
        ServerUnderTest s = server();
        return new RawTdsClient(s.host(), s.port(), s.user(), s.password(), true);
    }

    /** Runs {@code ddl} (a CREATE TABLE of {@link #table}) on the raw session after dropping a leftover table. */
    private void create(RawTdsClient c, String ddl) throws Exception {
        dropIfExists(table);
        RawTdsClient.Reply r = c.sqlBatch(ddl);
        assertTrue(r.errors.isEmpty(), r.messages.toString());
    }

    private static TdsWriter colMetadata(String n1, TypeInfo t1, String n2, TypeInfo t2) {
        TdsWriter w = new TdsWriter();
        TokenWriter.colMetadata(w, List.of(new TokenWriter.Column(n1, t1, TokenWriter.FLAG_NULLABLE),
                new TokenWriter.Column(n2, t2, TokenWriter.FLAG_NULLABLE)));
        return w;
    }

    private static void row(TdsWriter w, TypeInfo t1, Object v1, TypeInfo t2, Object v2) {
        w.writeByte(TokenType.ROW);
        ValueCodec.write(w, t1, v1);
        ValueCodec.write(w, t2, v2);
    }

    private static void done(TdsWriter w, long rows) {
        TokenWriter.done(w, TokenType.DONE, DoneStatus.COUNT, 0, rows);
    }

    /** The rows in the test's table, read through mssql-jdbc. */
    private long count() throws SQLException {
        return ((Number) scalar("SELECT COUNT(*) FROM [dbo].[" + table + "]")).longValue();
    }

    /** Asserts a single error {@code number} with SQL Server's state and severity, DONE with the error bit. */
    private void assertRefused(RawTdsClient.Reply r, int number, int state, int severity, String message) {
        assertEquals(List.of(number), r.errors, () -> server().kind() + ": " + r.messages);
        assertEquals(List.of(state), r.states, () -> server().kind() + ": state of " + r.messages);
        assertEquals(List.of(severity), r.severities, () -> server().kind() + ": severity of " + r.messages);
        assertEquals(message, r.messages.get(0));
        assertTrue((r.doneStatuses.get(r.doneStatuses.size() - 1) & DoneStatus.ERROR) != 0);
    }

    private static RawTdsClient.Reply load(RawTdsClient c, String table, String declaration, byte[] message)
            throws Exception {
        RawTdsClient.Reply ib = c.sqlBatch("INSERT BULK [dbo].[" + table + "] (" + declaration + ")");
        assertTrue(ib.errors.isEmpty(), ib.messages.toString());
        return c.bulkLoad(message);
    }

    private static final TypeInfo NVARCHAR10 = new TypeInfo(TypeId.NVARCHAR, 20, 0, 0, CI_AS);

    @Test
    void aMessageEndingAfterItsLastRowWithoutDoneIsAccepted() throws Exception {
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(10) NULL)");
            TdsWriter w = colMetadata("id", INT, "name", NVARCHAR10);
            row(w, INT, 1, NVARCHAR10, "one");
            row(w, INT, 2, NVARCHAR10, null);
            RawTdsClient.Reply r = load(c, table, "[id] INT, [name] NVARCHAR(10)", w.toByteArray());
            assertTrue(r.errors.isEmpty(), r.messages.toString());
            assertEquals(2L, r.doneCounts.get(r.doneCounts.size() - 1));
        }
        assertEquals(2L, count());
    }

    @Test
    void aWireTypeOtherThanTheDeclaredOneIs4816() throws Exception {
        TypeInfo varchar10 = new TypeInfo(TypeId.BIGVARCHAR, 10, 0, 0, CI_AS);
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(10) NULL)");
            TdsWriter w = colMetadata("id", varchar10, "name", NVARCHAR10);
            row(w, varchar10, "1", NVARCHAR10, "x");
            done(w, 1);
            assertRefused(load(c, table, "[id] INT, [name] NVARCHAR(10)", w.toByteArray()), 4816, 1, 16,
                    "Invalid column type from bcp client for colid 1.");
            // the connection goes on, and a matching stream loads
            TdsWriter ok = colMetadata("id", INT, "name", NVARCHAR10);
            row(ok, INT, 1, NVARCHAR10, "x");
            done(ok, 1);
            assertTrue(load(c, table, "[id] INT, [name] NVARCHAR(10)", ok.toByteArray()).errors.isEmpty());
        }
        assertEquals(1L, count());
    }

    @Test
    void aPrecisionOrScaleOtherThanTheDeclaredOneIs4816() throws Exception {
        TypeInfo dec10x3 = new TypeInfo(TypeId.DECIMALN, 9, 10, 3, null);
        TypeInfo dec12x2 = new TypeInfo(TypeId.DECIMALN, 9, 12, 2, null);
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [d] DECIMAL(10,2) NULL)");
            for (TypeInfo wrong : List.of(dec10x3, dec12x2)) {
                TdsWriter w = colMetadata("id", INT, "d", wrong);
                row(w, INT, 1, wrong, new BigDecimal("1.000").setScale(wrong.scale()));
                done(w, 1);
                assertRefused(load(c, table, "[id] INT, [d] DECIMAL(10,2)", w.toByteArray()), 4816, 1, 16,
                        "Invalid column type from bcp client for colid 2.");
            }
            // NUMERICN with the declared precision and scale, in mssql-jdbc's 17-byte form, is accepted
            TypeInfo num = new TypeInfo(TypeId.NUMERICN, 17, 10, 2, null);
            TdsWriter w = colMetadata("id", INT, "d", num);
            row(w, INT, 1, num, new BigDecimal("12.34"));
            done(w, 1);
            assertTrue(load(c, table, "[id] INT, [d] DECIMAL(10,2)", w.toByteArray()).errors.isEmpty());
        }
        assertEquals(1L, count());
    }

    @Test
    void plpWhereTheDeclarationIsNotMaxAndTheReverseAre4816() throws Exception {
        TypeInfo nvmax = new TypeInfo(TypeId.NVARCHAR, TypeId.USHORT_MAX, 0, 0, CI_AS);
        TypeInfo nv4000 = new TypeInfo(TypeId.NVARCHAR, 8000, 0, 0, CI_AS);
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(MAX) NULL)");
            TdsWriter w = colMetadata("id", INT, "name", nvmax);
            row(w, INT, 1, nvmax, "x");
            done(w, 1);
            assertRefused(load(c, table, "[id] INT, [name] NVARCHAR(4000)", w.toByteArray()), 4816, 1, 16,
                    "Invalid column type from bcp client for colid 2.");
            TdsWriter w2 = colMetadata("id", INT, "name", nv4000);
            row(w2, INT, 1, nv4000, "x");
            done(w2, 1);
            assertRefused(load(c, table, "[id] INT, [name] NVARCHAR(MAX)", w2.toByteArray()), 4816, 1, 16,
                    "Invalid column type from bcp client for colid 2.");
        }
        assertEquals(0L, count());
    }

    @Test
    void aWireLengthLongerThanTheDeclaredOneIs4816() throws Exception {
        TypeInfo nv20 = new TypeInfo(TypeId.NVARCHAR, 40, 0, 0, CI_AS);
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(50) NULL)");
            TdsWriter w = colMetadata("id", INT, "name", nv20);
            row(w, INT, 1, nv20, "x");
            done(w, 1);
            assertRefused(load(c, table, "[id] INT, [name] NVARCHAR(10)", w.toByteArray()), 4816, 1, 16,
                    "Invalid column type from bcp client for colid 2.");
            // shorter than declared is what mssql-jdbc sends for temporal text (varchar(50) declared): accepted
            assertTrue(load(c, table, "[id] INT, [name] NVARCHAR(30)", w.toByteArray()).errors.isEmpty());
        }
        assertEquals(1L, count());
    }

    @Test
    void textDeclaredButVarcharMaxSentIs4816AndTextOnTheWireLoads() throws Exception {
        TypeInfo vmax = new TypeInfo(TypeId.BIGVARCHAR, TypeId.USHORT_MAX, 0, 0, CI_AS);
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [t] TEXT NULL)");
            TdsWriter w = colMetadata("id", INT, "t", vmax);
            row(w, INT, 1, vmax, "legacy");
            done(w, 1);
            // the direct writer's old behaviour: text declared, varchar(max) PLP sent
            assertRefused(load(c, table, "[id] INT, [t] TEXT", w.toByteArray()), 4816, 1, 16,
                    "Invalid column type from bcp client for colid 2.");
            // varchar(max) declared and sent (what mssql-jdbc does for a text column) loads
            assertTrue(load(c, table, "[id] INT, [t] VARCHAR(MAX)", w.toByteArray()).errors.isEmpty());
            // text declared and TEXT sent: TYPE_INFO with a 4-byte length, collation and table name; values with
            // a text pointer and timestamp
            TdsWriter t = new TdsWriter();
            t.writeByte(TokenType.COLMETADATA).writeShort(2);
            t.writeInt(0).writeShort(TokenWriter.FLAG_NULLABLE);
            INT.write(t);
            t.writeByte(2).writeUnicode("id");
            t.writeInt(0).writeShort(TokenWriter.FLAG_NULLABLE);
            t.writeByte(TypeId.TEXT).writeInt(0x7FFFFFFF);
            CI_AS.write(t);
            t.writeByte(1).writeShort(table.length()).writeUnicode(table);
            t.writeByte(1).writeUnicode("t");
            t.writeByte(TokenType.ROW);
            ValueCodec.write(t, INT, 2);
            byte[] value = "old text".getBytes(StandardCharsets.US_ASCII);
            t.writeByte(16).writeBytes(new byte[16]).writeBytes(new byte[8]).writeInt(value.length).writeBytes(value);
            done(t, 1);
            RawTdsClient.Reply r = load(c, table, "[id] INT, [t] TEXT", t.toByteArray());
            assertTrue(r.errors.isEmpty(), r.messages.toString());
        }
        assertEquals("legacy", scalar("SELECT [t] FROM [dbo].[" + table + "] WHERE [id] = 1"));
        assertEquals("old text", scalar("SELECT [t] FROM [dbo].[" + table + "] WHERE [id] = 2"));
    }

    private static final String PREMATURE_END = "While reading current row from host, a premature end-of-message was"
            + " encountered--an incoming data stream was interrupted when the server expected to see more data. The"
            + " host program may have terminated. Ensure that you are using a supported client application"
            + " programming interface (API).";

    @Test
    void aColumnCountOtherThanTheDeclaredOneIs4804() throws Exception {
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(10) NULL)");
            TdsWriter w = colMetadata("id", INT, "name", NVARCHAR10);
            row(w, INT, 1, NVARCHAR10, "x");
            done(w, 1);
            assertRefused(load(c, table, "[id] INT", w.toByteArray()), 4804, 3, 16, PREMATURE_END);
        }
        assertEquals(0L, count());
    }

    @Test
    void aMessageWithOnlyDoneOrEndingInsideARowIs4804() throws Exception {
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(10) NULL)");
            TdsWriter only = new TdsWriter();
            done(only, 0);
            assertRefused(load(c, table, "[id] INT, [name] NVARCHAR(10)", only.toByteArray()), 4804, 2, 16,
                    PREMATURE_END);
            TdsWriter w = colMetadata("id", INT, "name", NVARCHAR10);
            row(w, INT, 1, NVARCHAR10, "x");
            w.writeByte(TokenType.ROW);
            ValueCodec.write(w, INT, 2);
            w.writeShort(20).writeBytes(new byte[3]); // a 20-byte value cut after 3 bytes
            assertRefused(load(c, table, "[id] INT, [name] NVARCHAR(10)", w.toByteArray()), 4804, 1, 17,
                    PREMATURE_END);
            assertTrue(c.sqlBatch("SET NOCOUNT ON").errors.isEmpty());
        }
        assertEquals(0L, count());
    }

    @Test
    void a4816InsideATransactionEndsOnlyTheBulkStatement() throws Exception {
        TypeInfo varchar10 = new TypeInfo(TypeId.BIGVARCHAR, 10, 0, 0, CI_AS);
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(10) NULL)");
            assertTrue(c.sqlBatch("BEGIN TRAN").errors.isEmpty());
            assertTrue(c.sqlBatch("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (1, N'kept')")
                    .errors.isEmpty());
            TdsWriter w = colMetadata("id", varchar10, "name", NVARCHAR10);
            row(w, varchar10, "2", NVARCHAR10, "x");
            done(w, 1);
            assertRefused(load(c, table, "[id] INT, [name] NVARCHAR(10)", w.toByteArray()), 4816, 1, 16,
                    "Invalid column type from bcp client for colid 1.");
            // the transaction is still active (semantics.ErrorScope: a bulk statement's error is statement-level)
            RawTdsClient.Reply commit = c.sqlBatch("COMMIT");
            assertTrue(commit.errors.isEmpty(), () -> server().kind() + ": " + commit.messages);
        }
        assertEquals(1L, count(), "the row inserted before the failed bulk load is committed");
    }

    /**
     * A bulk statement that declares a column's type from before an {@code ALTER COLUMN} narrowed it (as a loader
     * does that read the table's columns before another session altered them): the stream is valid for the
     * declaration, and SQL Server converts each value into the column as it is now, refusing the statement for one
     * row's value with 8115 (arithmetic overflow), 2628 (truncation) or 515 (NULL into NOT NULL). Each ends only the
     * statement: the transaction stays, and a row that fits loads with the same declaration.
     */
    @Test
    void aValueTheNarrowedColumnNoLongerTakesIs8115Or2628Or515AndEndsOnlyTheStatement() throws Exception {
        TypeInfo nvarchar20 = new TypeInfo(TypeId.NVARCHAR, 40, 0, 0, CI_AS);
        String declared = "[id] INT, [name] NVARCHAR(20)";
        try (RawTdsClient c = client()) {
            create(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(20) NULL)");
            for (String alter : List.of("[id] SMALLINT NOT NULL", "[name] NVARCHAR(5) NOT NULL")) {
                RawTdsClient.Reply r = c.sqlBatch("ALTER TABLE [dbo].[" + table + "] ALTER COLUMN " + alter);
                assertTrue(r.errors.isEmpty(), () -> server().kind() + ": " + r.messages);
            }
            assertTrue(c.sqlBatch("BEGIN TRAN").errors.isEmpty());
            assertTrue(c.sqlBatch("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (1, N'kept')")
                    .errors.isEmpty());
            Object[][] refused = {{40000, "ok", 8115}, {2, "longer than five", 2628}, {3, null, 515}};
            for (Object[] bad : refused) {
                TdsWriter w = colMetadata("id", INT, "name", nvarchar20);
                row(w, INT, bad[0], nvarchar20, bad[1]);
                done(w, 1);
                RawTdsClient.Reply r = load(c, table, declared, w.toByteArray());
                assertEquals(List.of(bad[2]), r.errors, () -> server().kind() + ": " + r.messages);
                assertTrue((r.doneStatuses.get(r.doneStatuses.size() - 1) & DoneStatus.ERROR) != 0);
            }
            TdsWriter ok = colMetadata("id", INT, "name", nvarchar20);
            row(ok, INT, 4, nvarchar20, "fits");
            done(ok, 1);
            RawTdsClient.Reply fits = load(c, table, declared, ok.toByteArray());
            assertTrue(fits.errors.isEmpty(), () -> server().kind() + ": " + fits.messages);
            RawTdsClient.Reply commit = c.sqlBatch("COMMIT");
            assertTrue(commit.errors.isEmpty(), () -> server().kind() + ": the transaction stayed: " + commit.messages);
        }
        assertEquals(2L, count(), "the row inserted before and the row that fits are committed");
    }
}
