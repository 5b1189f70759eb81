package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.tds.TdsMessageWriter;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An encoder that throws in the middle of a BULK_LOAD message (packets of it already sent): the direct connection is
 * closed at once and never reused, so no request (the run's ROLLBACK) is sent behind the half-written message; the
 * server rolls the session's transaction back.
 */
class DirectBulkWriterBreakTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    private static final int ROWS = 20_000;
    private static final int BREAKS_AT = 15_000;

    /** Writes like {@code delegate} until row {@link #BREAKS_AT}, then throws as an encoder with a bug would. */
    static final class BreakingEncoder extends DirectEncoders.Encoder {
        private final DirectEncoders.Encoder delegate;
        final IllegalStateException thrown = new IllegalStateException("encoder bug (injected by the test)");

        BreakingEncoder(IntVector vector, DirectEncoders.Encoder delegate) {
            super(vector, DirectEncoders.NullMarker.BYTE);
            this.delegate = delegate;
        }

        @Override
        void typeInfo(TdsMessageWriter w) throws IOException {
            delegate.typeInfo(w);
        }

        @Override
        void write(TdsMessageWriter w, int row) throws IOException {
            if (row == BREAKS_AT) {
                throw thrown;
            }
            delegate.value(w, row);
        }
    }

    @Test
    void anEncoderExceptionMidMessageClosesTheConnectionAndNothingIsCommitted() throws Exception {
        try (Connection jdbc = SERVER.connect(); Statement st = jdbc.createStatement()) {
            st.execute("IF OBJECT_ID('dbo.bw_break') IS NOT NULL DROP TABLE [dbo].[bw_break]");
            st.execute("CREATE TABLE [dbo].[bw_break] ([id] int NOT NULL)");
        }
        TableName table = new TableName("dbo", "bw_break");
        TargetColumn target = new TargetColumn("id", "int", null, 10, 0, null, false, 1);
        try (BufferAllocator a = new RootAllocator(); IntVector ids = new IntVector("id", a)) {
            ids.allocateNew(ROWS);
            for (int i = 0; i < ROWS; i++) {
                ids.set(i, i);
            }
            ids.setValueCount(ROWS);
            ArrowColumnType type = ArrowColumnTypes.forField(ids.getField());
            List<BoundColumn> bound = List.of(new BoundColumn(0, "id", type, target,
                    TargetBinding.of(type.kind(), target, false)));
            DirectTdsConnection connection = DirectTdsConnection.open(DirectTdsConnection.options()
                    .host("localhost").port(SERVER.emulator().port()).database("master")
                    .user(SERVER.emulator().user()).password(SERVER.emulator().password())
                    .trustServerCertificate(true));
            try (DirectSqlChannel channel = new DirectSqlChannel(connection)) {
                channel.setAutoCommit(false);
                DirectBulkWriter writer = new DirectBulkWriter(connection);
                DirectEncoders.Encoder good = DirectEncoders.forColumn(bound.get(0), ids);
                assertEquals(100, writer.write(table, bound, new DirectEncoders.Encoder[] {good}, 0, 100),
                        "a first round in the transaction");
                BreakingEncoder breaking = new BreakingEncoder(ids, DirectEncoders.forColumn(bound.get(0), ids));
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> writer.write(table, bound,
                        new DirectEncoders.Encoder[] {breaking}, 0, ROWS));
                assertSame(breaking.thrown, e);
                assertTrue(connection.isClosed(), "the connection is closed: no request may follow the broken message");
                assertTrue(channel.isClosed());
                SQLException next = assertThrows(SQLException.class, channel::rollback);
                assertTrue(next.getSQLState().startsWith("08"), next.getSQLState());
            }
        }
        try (Connection jdbc = SERVER.connect(); Statement st = jdbc.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM [dbo].[bw_break]")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getLong(1), "the session's transaction was rolled back");
            assertFalse(rs.next());
        }
    }
}
