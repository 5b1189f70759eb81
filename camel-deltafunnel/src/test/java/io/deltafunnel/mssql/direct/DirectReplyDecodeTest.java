package io.deltafunnel.mssql.direct;

import java.sql.SQLException;
import java.util.List;

import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;
import io.deltafunnel.tds.TypeId;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The direct client's reading of replies with the column types of a table SQL Server may hold (xml, sql_variant, CLR
 * types: FMTONLY metadata of a target table) and of replies it cannot decode: those fail permanently, never as a
 * transient connection failure that would be replayed until the retries run out.
 */
class DirectReplyDecodeTest {

    private static DirectReply read(byte[] message) throws DirectTdsException {
        return DirectReply.read(message, (type, body) -> { }, id -> { });
    }

    private static void column(TdsWriter w, String name) {
        w.writeByte(name.length()).writeUnicode(name);
    }

    /** COLMETADATA as SQL Server sends it for SELECT * of ([id] int, [x] xml, [v] sql_variant, [g] geography). */
    @Test
    void metadataWithXmlSqlVariantAndClrColumnsIsRead() throws Exception {
        TdsWriter w = new TdsWriter();
        w.writeByte(TokenType.COLMETADATA).writeShort(5);
        w.writeInt(0).writeShort(TokenWriter.FLAG_NULLABLE).writeByte(TypeId.INTN).writeByte(4);
        column(w, "id");
        w.writeInt(0).writeShort(TokenWriter.FLAG_NULLABLE).writeByte(TypeId.XML).writeByte(0);
        column(w, "x");
        w.writeInt(0).writeShort(TokenWriter.FLAG_NULLABLE).writeByte(TypeId.SSVARIANT).writeInt(8016);
        column(w, "v");
        w.writeInt(0).writeShort(TokenWriter.FLAG_NULLABLE).writeByte(TypeId.UDT).writeShort(0xFFFF);
        w.writeBVarchar("master").writeBVarchar("sys").writeBVarchar("geography")
                .writeUsVarchar("Microsoft.SqlServer.Types.SqlGeography, Microsoft.SqlServer.Types");
        column(w, "g");
        w.writeInt(0).writeShort(TokenWriter.FLAG_NULLABLE).writeByte(TypeId.NVARCHAR).writeShort(20);
        Collation.forName("Latin1_General_CS_AS").write(w);
        column(w, "name");
        TokenWriter.done(w, TokenType.DONE, DoneStatus.FINAL, 0, 0);
        DirectReply r = read(w.toByteArray());
        assertEquals(List.of("id", "x", "v", "g", "name"), r.columns());
        assertEquals(Collation.forName("Latin1_General_CS_AS"), r.types().get(4).collation());
    }

    @Test
    void anUndecodableReplyFailsPermanently() {
        TdsWriter w = new TdsWriter();
        w.writeByte(TokenType.COLMETADATA).writeShort(1);
        w.writeInt(0).writeShort(TokenWriter.FLAG_NULLABLE).writeByte(0x99); // no such TYPE_INFO
        column(w, "odd");
        TokenWriter.done(w, TokenType.DONE, DoneStatus.FINAL, 0, 0);
        DirectDecodeException e = assertThrows(DirectDecodeException.class, () -> read(w.toByteArray()));
        assertEquals(0, e.number());
        SQLException sql = DirectSqlChannel.decodeFailure(e);
        assertFalse(SqlServerErrors.isTransient(sql), "a local decode failure is never transient");
        assertFalse(SqlServerErrors.isConnectionFailure(sql));
        assertTrue(sql.getMessage().contains("0x99"), sql.getMessage());
    }
}
