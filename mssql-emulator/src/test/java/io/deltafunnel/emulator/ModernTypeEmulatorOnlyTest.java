package io.deltafunnel.emulator;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;
import io.deltafunnel.tds.VectorCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * json and vector where the feature is not negotiated, which a real SQL Server 2025 cannot be made to do from a
 * test: an emulator started without acknowledging JSONSUPPORT / VECTORSUPPORT (a server that does not announce the
 * features) sends json as nvarchar(max) and a vector as its JSON text in varchar(max); a client that did not
 * negotiate VECTORSUPPORT (the raw client sends no features) cannot send the vector type in a bulk load (4816).
 */
class ModernTypeEmulatorOnlyTest {
    @RegisterExtension
    static final EmulatorServer PLAIN = new EmulatorServer(b -> b.jsonSupport(false).vectorSupport(false));
    @RegisterExtension
    static final EmulatorServer MODERN = new EmulatorServer();

    @Test
    void withoutTheFeaturesJsonIsNvarcharAndVectorIsItsJsonText() throws SQLException {
        try (Connection c = PLAIN.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[mt_plain] ([j] json NULL, [v] vector(2) NULL)");
            st.execute("INSERT INTO [dbo].[mt_plain] VALUES (N'[true]', '[0.5, -1]')");
            try (ResultSet rs = st.executeQuery("SELECT [j], [v] FROM [dbo].[mt_plain]")) {
                assertEquals("nvarchar", rs.getMetaData().getColumnTypeName(1));
                assertEquals("varchar", rs.getMetaData().getColumnTypeName(2));
                assertTrue(rs.next());
                assertEquals("[true]", rs.getString(1));
                assertEquals("[5.0000000e-001,-1.0000000e+000]", rs.getString(2));
            }
        }
        List<LoginRecord> logins = PLAIN.emulator().loginRecords();
        assertTrue(!logins.isEmpty());
    }

    @Test
    void aClientWithoutVectorSupportCannotSendTheVectorType() throws Exception {
        try (RawTdsClient c = new RawTdsClient(MODERN.emulator().port(), MODERN.emulator().user(),
                MODERN.emulator().password())) {
            c.sqlBatch("CREATE TABLE [dbo].[mt_raw] ([v] vector(2) NULL)");
            assertEquals(List.of(), c.sqlBatch("INSERT BULK [dbo].[mt_raw] ([v] vector(2))").errors);
            TypeInfo vector = new TypeInfo(TypeId.VECTOR, VectorCodec.maxLength(2), 0, VectorCodec.DIMENSION_FLOAT32,
                    null);
            TdsWriter w = new TdsWriter();
            TokenWriter.colMetadata(w, List.of(new TokenWriter.Column("v", vector, TokenWriter.FLAG_NULLABLE)));
            w.writeByte(TokenType.ROW);
            ValueCodec.write(w, vector, new float[] {1f, 2f});
            TokenWriter.done(w, TokenType.DONE, 0, 0, 0);
            RawTdsClient.Reply r = c.bulkLoad(java.util.Arrays.copyOf(w.array(), w.size()));
            assertEquals(List.of(4816), r.errors);
        }
    }
}
