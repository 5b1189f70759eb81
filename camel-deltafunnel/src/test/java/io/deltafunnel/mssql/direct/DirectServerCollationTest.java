package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.TdsMessageWriter;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/**
 * A varchar target whose collation tds-codec cannot derive from its name (here Cyrillic_General_CI_AS) is encoded
 * with the collation the server reports in its FMTONLY metadata: the TYPE_INFO carries the server's 5 bytes and ASCII
 * values go out unchanged. Without the server's collation the column is refused (so a run falls back to the driver).
 */
class DirectServerCollationTest {

    /** LCID 0x0419, IgnoreCase | IgnoreWidth | IgnoreKana, version 0, sort id 0. */
    private static final byte[] CYRILLIC_CI_AS = {0x19, 0x04, (byte) 0xD0, 0x00, 0x00};

    private static BoundColumn varcharColumn(VarCharVector v) {
        TargetColumn target = new TargetColumn("s", "varchar", 10, null, null, null, true, 1, "Cyrillic_General_CI_AS");
        ArrowColumnType type = ArrowColumnTypes.forField(v.getField());
        return new BoundColumn(0, "s", type, target, TargetBinding.of(type.kind(), target, false));
    }

    @Test
    void serverCollationIsDeclaredAndAsciiTravelsAsIs() throws Exception {
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("s", a)) {
            v.allocateNew();
            v.setSafe(0, "abc".getBytes(StandardCharsets.UTF_8));
            v.setValueCount(1);
            BoundColumn column = varcharColumn(v);
            assertThrows(DirectUnsupportedColumnException.class, () -> DirectEncoders.forColumn(column, v, null));

            DirectEncoders.Encoder e = DirectEncoders.forColumn(column, v, Collation.fromBytes(CYRILLIC_CI_AS));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, 512);
            e.typeInfo(w);
            e.value(w, 0);
            w.end();
            byte[] payload = java.util.Arrays.copyOfRange(out.toByteArray(), TdsMessageWriter.HEADER, out.size());
            // BIGVARCHAR, max length 10, the server's collation; then length 3 and the ASCII bytes
            byte[] expected = {(byte) 0xA7, 10, 0, 0x19, 0x04, (byte) 0xD0, 0x00, 0x00, 3, 0, 'a', 'b', 'c'};
            assertArrayEquals(expected, payload);
        }
    }

    @Test
    void nonAsciiIntoAnUnmappedCodePageIsRefusedNamingColumnAndRow() throws Exception {
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("s", a)) {
            v.allocateNew();
            v.setSafe(0, "жук".getBytes(StandardCharsets.UTF_8));
            v.setValueCount(1);
            DirectEncoders.Encoder e = DirectEncoders.forColumn(varcharColumn(v), v,
                    Collation.fromBytes(CYRILLIC_CI_AS));
            TdsMessageWriter w = new TdsMessageWriter(new ByteArrayOutputStream(), PacketType.BULK_LOAD, 512);
            IllegalStateException x = assertThrows(IllegalStateException.class, () -> e.value(w, 0));
            assertTrue(x.getMessage().contains("column 's'") && x.getMessage().contains("row 0"), x.getMessage());
        }
    }
}
