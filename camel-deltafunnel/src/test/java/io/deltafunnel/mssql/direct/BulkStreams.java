package io.deltafunnel.mssql.direct;

import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;

/**
 * Splits a captured BULK_LOAD payload into its COLMETADATA columns and the raw bytes of each ROW value (public for the
 * route tests that check what the producer sent).
 */
public final class BulkStreams {

    /** One COLMETADATA column: its TYPE_INFO, flags and name. */
    public record Column(String name, int flags, TypeInfo type) {
        @Override
        public String toString() {
            return name + ":" + type;
        }
    }

    /** A decoded BULK_LOAD message: columns, and per row the raw bytes of each value (length prefix included). */
    public record Stream(List<Column> columns, List<List<byte[]>> rows) {
    }

    private BulkStreams() {
    }

    public static Stream parse(byte[] payload) {
        TdsReader rd = new TdsReader(payload);
        if (rd.readUnsignedByte() != TokenType.COLMETADATA) {
            throw new IllegalArgumentException("no COLMETADATA");
        }
        int count = rd.readUnsignedShort();
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rd.readInt();
            int flags = rd.readUnsignedShort();
            TypeInfo t = TypeInfo.read(rd);
            if (t.typeId() == TypeId.TEXT || t.typeId() == TypeId.NTEXT || t.typeId() == TypeId.IMAGE) {
                int parts = rd.readUnsignedByte();
                for (int p = 0; p < parts; p++) {
                    rd.readUsVarchar();
                }
            }
            cols.add(new Column(rd.readBVarchar(), flags, t));
        }
        List<List<byte[]>> rows = new ArrayList<>();
        while (true) {
            int token = rd.readUnsignedByte();
            if (token == TokenType.DONE) {
                break;
            }
            if (token != TokenType.ROW) {
                throw new IllegalArgumentException(String.format("token 0x%02X", token));
            }
            List<byte[]> row = new ArrayList<>();
            for (Column c : cols) {
                // re-read the value from a position-tracking copy to get its raw bytes
                int before = payload.length - rd.available();
                ValueCodec.read(rd, c.type());
                int after = payload.length - rd.available();
                byte[] raw = new byte[after - before];
                System.arraycopy(payload, before, raw, 0, raw.length);
                row.add(raw);
            }
            rows.add(row);
        }
        return new Stream(cols, rows);
    }
}
