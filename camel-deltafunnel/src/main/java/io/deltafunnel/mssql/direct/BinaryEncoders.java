package io.deltafunnel.mssql.direct;

import static io.deltafunnel.mssql.direct.TextEncoders.bytes;
import static io.deltafunnel.mssql.direct.TextEncoders.writePlp;

import java.io.IOException;

import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.bind.SqlType;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.direct.DirectEncoders.Encoder;
import io.deltafunnel.mssql.direct.DirectEncoders.NullMarker;
import io.deltafunnel.mssql.direct.TextEncoders.BytesSource;
import io.deltafunnel.tds.GuidCodec;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TypeId;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.ReusableByteArray;

/**
 * The {@link DirectEncoders} of binary/varbinary/image and uniqueidentifier targets.
 */
final class BinaryEncoders {

    private BinaryEncoders() {
    }

    static Encoder binary(FieldVector v, ValueKind kind, TargetColumn t) {
        BytesSource src = kind == ValueKind.BINARY ? bytes(v) : null;
        if (src == null) {
            return null;
        }
        Integer max = t.maxLength();
        boolean plp = t.type() == SqlType.IMAGE || max == null || max < 0 || max > 8000;
        int typeId = t.type() == SqlType.BINARY ? TypeId.BIGBINARY : TypeId.BIGVARBINARY;
        return new Encoder(v, plp ? NullMarker.PLP : NullMarker.USHORT) {
            private final ReusableByteArray in = new ReusableByteArray();

            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(typeId).writeShort(plp ? 0xFFFF : max);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                int n = src.read(row, in);
                if (plp) {
                    writePlp(w, in.getBuffer(), n);
                } else {
                    w.writeShort(n).writeBytes(in.getBuffer(), 0, n);
                }
            }
        };
    }

    static Encoder guid(FieldVector v, ValueKind kind) {
        BytesSource src = kind == ValueKind.UUID || kind == ValueKind.STRING ? bytes(v) : null;
        if (src == null) {
            return null;
        }
        boolean text = kind == ValueKind.STRING;
        return new Encoder(v, NullMarker.BYTE) {
            private final ReusableByteArray in = new ReusableByteArray();
            private final byte[] bigEndian = new byte[16];
            private final byte[] wire = new byte[16];

            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.GUID).writeByte(16);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                src.read(row, in);
                byte[] b = in.getBuffer();
                if (text) {
                    parseUuid(b, bigEndian); // 36 characters, checked by the producer
                    b = bigEndian;
                }
                GuidCodec.fromBigEndian(b, 0, wire, 0);
                w.writeByte(16).writeBytes(wire, 0, 16);
            }
        };
    }

    /** The 16 big-endian bytes of a checked xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx text (ASCII bytes). */
    static void parseUuid(byte[] text, byte[] out) {
        int o = 0;
        for (int i = 0; i < 36; ) {
            if (text[i] == '-') {
                i++;
                continue;
            }
            out[o++] = (byte) (hex(text[i]) << 4 | hex(text[i + 1]));
            i += 2;
        }
    }

    private static int hex(byte c) {
        return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    }
}
