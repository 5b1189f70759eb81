package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TokenType;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * {@link DirectBulkWriter#writeRows} writes a row of bounded columns straight into the packet when it has room: the
 * message is byte for byte the one written value by value ({@link DirectEncoders.Encoder#value}), with NULLs,
 * non-ASCII text, decimals of both wire lengths and rows straddling packet ends (written past them and moved behind
 * the next header), columns with and without NULLs (the row loop calls the common encoders of columns without NULLs
 * by their own class), for every row and for a row selection.
 */
class DirectRowWriteTest {

    @Test
    void rowsStraightIntoThePacketEqualValueByValue() throws Exception {
        int rows = 300;
        try (BufferAllocator a = new RootAllocator();
                VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(new BigIntVector("b", a),
                        new IntVector("i", a), new DecimalVector("d", a, 15, 2), new DecimalVector("e", a, 38, 4),
                        new VarCharVector("s", a), new DateDayVector("t", a), new TimeStampMicroVector("u", a),
                        new VarCharVector("n", a)))) {
            root.allocateNew();
            for (int r = 0; r < rows; r++) {
                ((BigIntVector) root.getVector(0)).setSafe(r, r * 0x0101_0101_0101L - 7);
                if (r % 7 == 3) {
                    ((IntVector) root.getVector(1)).setNull(r);
                    ((VarCharVector) root.getVector(4)).setNull(r);
                } else {
                    ((IntVector) root.getVector(1)).setSafe(r, -r);
                    String s = r % 5 == 0 ? "é" + r + "€" : "row " + "x".repeat(r % 23);
                    ((VarCharVector) root.getVector(4)).setSafe(r, s.getBytes(StandardCharsets.UTF_8));
                }
                ((DecimalVector) root.getVector(2)).setSafe(r, BigDecimal.valueOf(r * 1234L - 99_999, 2));
                ((DecimalVector) root.getVector(3)).setSafe(r, new BigDecimal("-12345678901234567890123.4567")
                        .add(BigDecimal.valueOf(r)));
                ((DateDayVector) root.getVector(5)).setSafe(r, 8000 + r);
                ((TimeStampMicroVector) root.getVector(6)).setSafe(r, 1_600_000_000_000_000L + r * 1_000_001L);
                // never NULL: the row loop calls this column's encoder by its own class
                String n = r % 9 == 4 ? "ü" + "y".repeat(r % 31) : "z".repeat(r % 37);
                ((VarCharVector) root.getVector(7)).setSafe(r, n.getBytes(StandardCharsets.UTF_8));
            }
            root.setRowCount(rows);
            List<TargetColumn> targets = List.of(
                    new TargetColumn("b", "bigint", null, 19, 0, null, false, 1),
                    new TargetColumn("i", "int", null, 10, 0, null, true, 2),
                    new TargetColumn("d", "decimal", null, 15, 2, null, false, 3),
                    new TargetColumn("e", "decimal", null, 38, 4, null, false, 4),
                    new TargetColumn("s", "nvarchar", 30, null, null, null, true, 5, "SQL_Latin1_General_CP1_CI_AS",
                            false),
                    new TargetColumn("t", "date", null, null, null, 0, false, 6),
                    new TargetColumn("u", "datetime2", null, null, null, 6, false, 7),
                    new TargetColumn("n", "nvarchar", 40, null, null, null, false, 8, "SQL_Latin1_General_CP1_CI_AS",
                            false));
            DirectEncoders.Encoder[] encoders = new DirectEncoders.Encoder[targets.size()];
            List<BoundColumn> bound = new java.util.ArrayList<>();
            for (int c = 0; c < encoders.length; c++) {
                FieldVector v = root.getVector(c);
                ArrowColumnType type = ArrowColumnTypes.forField(v.getField());
                BoundColumn column = new BoundColumn(c, v.getName(), type, targets.get(c),
                        TargetBinding.of(type.kind(), targets.get(c), false));
                bound.add(column);
                encoders[c] = DirectEncoders.forColumn(column, v);
            }
            assertTrue(DirectEncoders.rowReserve(encoders) > 0, "every column is bounded");
            BulkBatch batch = new BulkBatch(root, bound, 0).validate(io.deltafunnel.mssql.TableName.parse("dbo.t"));
            BulkBatch selection = batch.select(new int[] {0, 3, 4, 10, 11, 12, 50, 150, 298, 299});
            for (int packet : new int[] {64, 100, 512, 8000}) {
                for (BulkBatch rowsOf : new BulkBatch[] {null, selection}) {
                    int count = rowsOf == null ? rows : rowsOf.rowCount();
                    byte[] expected = message(packet, 1, w -> {
                        for (int i = 0; i < count; i++) {
                            w.writeByte(TokenType.ROW);
                            for (DirectEncoders.Encoder e : encoders) {
                                e.value(w, rowsOf == null ? i : rowsOf.row(i));
                            }
                        }
                    });
                    for (int perWrite : new int[] {1, 4}) {
                        byte[] actual = message(packet, perWrite,
                                w -> DirectBulkWriter.writeRows(w, encoders, 0, count, rowsOf));
                        assertArrayEquals(expected, actual, "packet " + packet + ", " + perWrite + " per write, "
                                + (rowsOf == null ? "every row" : "a selection"));
                    }
                }
            }
        }
    }

    /** What a test writes into a message. */
    @FunctionalInterface
    interface Body {
        void write(TdsMessageWriter w) throws Exception;
    }

    /** A BULK_LOAD message of {@code packet}-byte packets, {@code perWrite} per write: a lead byte, then the body. */
    static byte[] message(int packet, int perWrite, Body body) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, packet, perWrite);
        w.writeByte(0x81); // a lead byte, so that rows start at odd positions
        body.write(w);
        w.end();
        return out.toByteArray();
    }
}
