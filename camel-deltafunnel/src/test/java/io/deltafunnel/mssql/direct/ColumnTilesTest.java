package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
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
 * {@link ColumnTiles}: a batch whose columns are all int/bigint, decimal, date and nvarchar(n), with or without NULLs,
 * is written column by column, a tile of rows at a time, and the message is byte for byte the one written value by
 * value ({@link DirectEncoders.Encoder#value}). Covered: nvarchar(max) (PLP), NULLs in every column (a fifth of the
 * values), every such column last in the row (whose 8-byte stores reach the next row's start), text of every length
 * around the 8-byte steps and empty, non-ASCII text inside a tile (measured in UTF-16 code units and transcoded in
 * place), text longer in UTF-8 than the column's UTF-16 bound, rows straddling packet ends, tiny packets, several
 * packets per write, and tiles of {@value ColumnTiles#MAX_ROWS} rows; and each layout again with the writer's ASCII
 * batches as varchar (one byte per character; a batch with non-ASCII text stays UTF-16).
 */
class ColumnTilesTest {

    /** A column kind of the layouts. */
    private enum Kind { BIGINT, INT, DEC9, DEC5, DEC17, DEC13, DATE, TEXT, MAXTEXT }

    private static final List<List<Kind>> LAYOUTS = List.of(
            // LINEITEM's order: ints, decimals, two short texts, dates, texts last
            List.of(Kind.BIGINT, Kind.INT, Kind.DEC9, Kind.DEC5, Kind.TEXT, Kind.TEXT, Kind.DATE, Kind.DATE,
                    Kind.TEXT, Kind.TEXT),
            List.of(Kind.TEXT, Kind.BIGINT, Kind.INT),
            List.of(Kind.TEXT, Kind.DATE),
            List.of(Kind.BIGINT, Kind.DEC5),
            List.of(Kind.TEXT),
            List.of(Kind.INT),
            List.of(Kind.DATE, Kind.TEXT, Kind.DEC9, Kind.TEXT),
            // nvarchar(max): PLP values (an empty one is 12 bytes, a NULL 8)
            List.of(Kind.INT, Kind.MAXTEXT, Kind.TEXT, Kind.MAXTEXT),
            List.of(Kind.MAXTEXT),
            // decimals of 17 and 13 bytes (precision 38 and 28), last in the row too
            List.of(Kind.DEC17, Kind.TEXT, Kind.DEC13),
            List.of(Kind.BIGINT, Kind.DEC13, Kind.DATE, Kind.DEC17));

    @Test
    void tilesWriteTheBytesOfTheRowByRowLoop() throws Exception {
        Random random = new Random(20261206);
        int layout = 0;
        for (List<Kind> kinds : LAYOUTS) {
            for (boolean nonAscii : new boolean[] {false, true}) {
                for (boolean nulls : new boolean[] {false, true}) {
                    for (boolean asVarchar : new boolean[] {false, true}) {
                        check(kinds, 700, random, nonAscii, nulls, asVarchar, "layout " + layout
                                + (nonAscii ? " with non-ASCII text" : "") + (nulls ? " with NULLs" : "")
                                + (asVarchar ? ", ASCII as varchar" : ""));
                    }
                }
            }
            layout++;
        }
    }

    private void check(List<Kind> kinds, int rows, Random random, boolean nonAscii, boolean nulls, boolean asVarchar,
            String what) throws Exception {
        try (BufferAllocator a = new RootAllocator()) {
            List<FieldVector> vectors = new ArrayList<>();
            List<TargetColumn> targets = new ArrayList<>();
            for (int c = 0; c < kinds.size(); c++) {
                String name = "c" + c;
                switch (kinds.get(c)) {
                    case BIGINT -> {
                        vectors.add(new BigIntVector(name, a));
                        targets.add(new TargetColumn(name, "bigint", null, 19, 0, null, nulls, c + 1));
                    }
                    case INT -> {
                        vectors.add(new IntVector(name, a));
                        targets.add(new TargetColumn(name, "int", null, 10, 0, null, nulls, c + 1));
                    }
                    case DEC9 -> {
                        vectors.add(new DecimalVector(name, a, 15, 2));
                        targets.add(new TargetColumn(name, "decimal", null, 15, 2, null, nulls, c + 1));
                    }
                    case DEC5 -> {
                        vectors.add(new DecimalVector(name, a, 9, 2));
                        targets.add(new TargetColumn(name, "decimal", null, 9, 2, null, nulls, c + 1));
                    }
                    case DEC17 -> {
                        vectors.add(new DecimalVector(name, a, 38, 10));
                        targets.add(new TargetColumn(name, "decimal", null, 38, 10, null, nulls, c + 1));
                    }
                    case DEC13 -> {
                        vectors.add(new DecimalVector(name, a, 28, 4));
                        targets.add(new TargetColumn(name, "decimal", null, 28, 4, null, nulls, c + 1));
                    }
                    case DATE -> {
                        vectors.add(new DateDayVector(name, a));
                        targets.add(new TargetColumn(name, "date", null, null, null, 0, nulls, c + 1));
                    }
                    case TEXT -> {
                        vectors.add(new VarCharVector(name, a));
                        targets.add(new TargetColumn(name, "nvarchar", 20, null, null, null, nulls, c + 1,
                                "SQL_Latin1_General_CP1_CI_AS", false));
                    }
                    case MAXTEXT -> {
                        vectors.add(new VarCharVector(name, a));
                        targets.add(new TargetColumn(name, "nvarchar", -1, null, null, null, nulls, c + 1,
                                "SQL_Latin1_General_CP1_CI_AS", false));
                    }
                }
            }
            try (VectorSchemaRoot root = new VectorSchemaRoot(vectors)) {
                root.allocateNew();
                for (int r = 0; r < rows; r++) {
                    for (int c = 0; c < kinds.size(); c++) {
                        FieldVector v = vectors.get(c);
                        if (nulls && random.nextInt(5) == 0) {
                            setNull(v, r);
                            continue;
                        }
                        switch (kinds.get(c)) {
                            case BIGINT -> ((BigIntVector) v).setSafe(r, random.nextLong());
                            case INT -> ((IntVector) v).setSafe(r, random.nextInt());
                            case DEC9 -> ((DecimalVector) v).setSafe(r,
                                    BigDecimal.valueOf(random.nextLong() % 1_000_000_000_000_000L, 2));
                            case DEC5 -> ((DecimalVector) v).setSafe(r,
                                    BigDecimal.valueOf(random.nextInt(2 * 999_999_999) - 999_999_999L, 2));
                            // up to 38 and 28 digits, either sign, some within a long
                            case DEC17 -> ((DecimalVector) v).setSafe(r, new BigDecimal(
                                    new java.math.BigInteger(random.nextInt(126) + 1, random)
                                            .multiply(java.math.BigInteger.valueOf(random.nextBoolean() ? 1 : -1)), 10));
                            case DEC13 -> ((DecimalVector) v).setSafe(r, new BigDecimal(
                                    new java.math.BigInteger(random.nextInt(93) + 1, random)
                                            .multiply(java.math.BigInteger.valueOf(random.nextBoolean() ? 1 : -1)), 4));
                            case DATE -> ((DateDayVector) v).setSafe(r, random.nextInt(2_900_000) - 719_162);
                            case TEXT, MAXTEXT -> ((VarCharVector) v).setSafe(r, text(random, nonAscii)
                                    .getBytes(StandardCharsets.UTF_8));
                        }
                    }
                }
                root.setRowCount(rows);
                DirectEncoders.Encoder[] encoders = new DirectEncoders.Encoder[targets.size()];
                for (int c = 0; c < encoders.length; c++) {
                    FieldVector v = root.getVector(c);
                    ArrowColumnType type = ArrowColumnTypes.forField(v.getField());
                    BoundColumn column = new BoundColumn(c, v.getName(), type, targets.get(c),
                            TargetBinding.of(type.kind(), targets.get(c), false));
                    encoders[c] = DirectEncoders.forColumn(column, v, null, asVarchar);
                    if (encoders[c] instanceof Utf8Text text) {
                        // a batch with non-ASCII text in the column stays UTF-16 (one in 9 values has it, so each
                        // column of 700 rows has some)
                        assertEquals(asVarchar && !nonAscii, text.narrow(), what + ": column " + c + " as varchar");
                        assertEquals(text.narrow() ? "varchar(" + (kinds.get(c) == Kind.TEXT ? "20" : "max")
                                + ") COLLATE SQL_Latin1_General_CP1_CI_AS" : null, text.declaredType(), what);
                    }
                }
                DirectEncoders.Bounded[] bounded = java.util.Arrays.copyOf(encoders, encoders.length,
                        DirectEncoders.Bounded[].class);
                assertTrue(ColumnTiles.applies(bounded), what + ": the tiles take this batch");
                if (nulls) {
                    assertTrue(java.util.Arrays.stream(bounded).allMatch(e -> e.mayBeNull), what + ": NULLs in each");
                }
                for (int packet : new int[] {64, 100, 512, 4096, 32767}) {
                    byte[] expected = DirectRowWriteTest.message(packet, 1, valueByValue(encoders, 0, rows));
                    for (int perWrite : new int[] {1, 3}) {
                        byte[] actual = DirectRowWriteTest.message(packet, perWrite,
                                w -> DirectBulkWriter.writeRows(w, encoders, 0, rows, null));
                        assertArrayEquals(expected, actual, what + ", packet " + packet + ", " + perWrite
                                + " per write");
                        // a range that starts inside the batch
                        byte[] tail = DirectRowWriteTest.message(packet, perWrite, valueByValue(encoders, 17, rows));
                        assertArrayEquals(tail, DirectRowWriteTest.message(packet, perWrite,
                                w -> DirectBulkWriter.writeRows(w, encoders, 17, rows, null)), what + ", from row 17");
                    }
                }
                // with room for many rows, a tile takes up to MAX_ROWS of them at once, non-ASCII text too
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, 32767);
                int first = new ColumnTiles(bounded).write(w, 0, rows);
                assertTrue(first > 1, what + ": a tile of " + first + " rows");
            }
        }
    }

    /** ASCII of 0..20 characters (every 8-byte step and its tail), or, one in 9 when asked, non-ASCII text. */
    private static String text(Random random, boolean nonAscii) {
        if (nonAscii && random.nextInt(9) == 0) {
            return switch (random.nextInt(3)) {
                case 0 -> "é" + "x".repeat(random.nextInt(12));
                // 24 UTF-8 bytes, 8 UTF-16 units: longer in UTF-8 than the bound of 20
                case 1 -> "€€€€€€€€";
                default -> "ab😀";
            };
        }
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(21);
        for (int i = 0; i < n; i++) {
            sb.append((char) (' ' + random.nextInt(95)));
        }
        return sb.toString();
    }

    /** A NULL in a slot of each vector type the layouts use. */
    private static void setNull(FieldVector v, int row) {
        if (v instanceof BigIntVector x) {
            x.setNull(row);
        } else if (v instanceof IntVector x) {
            x.setNull(row);
        } else if (v instanceof DecimalVector x) {
            x.setNull(row);
        } else if (v instanceof DateDayVector x) {
            x.setNull(row);
        } else {
            ((VarCharVector) v).setNull(row);
        }
    }

    @Test
    void aBatchWithAnotherTypeStaysRowByRow() throws Exception {
        try (BufferAllocator a = new RootAllocator();
                VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(new IntVector("i", a),
                        new TimeStampMicroVector("u", a)))) {
            root.allocateNew();
            ((IntVector) root.getVector(0)).setSafe(0, 1);
            ((TimeStampMicroVector) root.getVector(1)).setSafe(0, 1_600_000_000_000_000L);
            root.setRowCount(1);
            List<TargetColumn> targets = List.of(new TargetColumn("i", "int", null, 10, 0, null, false, 1),
                    new TargetColumn("u", "datetime2", null, null, null, 6, false, 2));
            DirectEncoders.Bounded[] bounded = new DirectEncoders.Bounded[2];
            for (int c = 0; c < 2; c++) {
                FieldVector v = root.getVector(c);
                ArrowColumnType type = ArrowColumnTypes.forField(v.getField());
                BoundColumn column = new BoundColumn(c, v.getName(), type, targets.get(c),
                        TargetBinding.of(type.kind(), targets.get(c), false));
                bounded[c] = (DirectEncoders.Bounded) DirectEncoders.forColumn(column, v);
            }
            assertEquals(DirectBulkWriter.INTEGER, ColumnTiles.kind(bounded[0]));
            assertEquals(DirectBulkWriter.OTHER, ColumnTiles.kind(bounded[1]), "datetime2 is not one of the kinds");
            assertFalse(ColumnTiles.applies(bounded));
        }
    }

    /**
     * Text that is not ASCII goes into the tiles too where it is a minority of the batch's values, measured by its
     * UTF-16 code units and transcoded in place; a value whose transcoding does not fill the bytes counted for it
     * (UTF-8 that is not well-formed) ends the tile before its row, which goes row by row. In a batch whose values are
     * mostly not ASCII, such a value ends the tile instead (row by row, several rows at a time). The message is byte
     * for byte the reference.
     */
    @Test
    void nonAsciiTextGoesIntoTilesWhereItIsAMinority() throws Exception {
        int rows = 1500;
        try (BufferAllocator a = new RootAllocator();
                VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(new BigIntVector("b", a),
                        new VarCharVector("s", a), new VarCharVector("m", a)))) {
            root.allocateNew();
            for (int r = 0; r < rows; r++) {
                // s: a fifth not ASCII, from row 1200 not well-formed UTF-8 instead
                byte[] name = ((r % 5 == 0 ? "Müller " : "Mueller ") + r).getBytes(StandardCharsets.UTF_8);
                if (r >= 1200 && r % 5 == 0) {
                    // a three-byte lead followed by ASCII: counted as 6 code units, transcoded as 4
                    name = ("Mx" + r).getBytes(StandardCharsets.UTF_8);
                    name[0] = (byte) 0xE0;
                }
                ((BigIntVector) root.getVector(0)).setSafe(r, r);
                ((VarCharVector) root.getVector(1)).setSafe(r, name);
                // m: three quarters not ASCII
                ((VarCharVector) root.getVector(2)).setSafe(r, ((r % 4 != 0 ? "note ✓ " : "note ") + r)
                        .getBytes(StandardCharsets.UTF_8));
            }
            root.setRowCount(rows);
            List<TargetColumn> targets = List.of(new TargetColumn("b", "bigint", null, 19, 0, null, false, 1),
                    new TargetColumn("s", "nvarchar", 20, null, null, null, false, 2, "SQL_Latin1_General_CP1_CI_AS",
                            false),
                    new TargetColumn("m", "nvarchar", -1, null, null, null, false, 3, "SQL_Latin1_General_CP1_CI_AS",
                            false));
            DirectEncoders.Encoder[] encoders = new DirectEncoders.Encoder[3];
            for (int c = 0; c < 3; c++) {
                FieldVector v = root.getVector(c);
                ArrowColumnType type = ArrowColumnTypes.forField(v.getField());
                encoders[c] = DirectEncoders.forColumn(new BoundColumn(c, v.getName(), type, targets.get(c),
                        TargetBinding.of(type.kind(), targets.get(c), false)), v, null, true);
            }
            Utf8Text names = (Utf8Text) encoders[1];
            Utf8Text notes = (Utf8Text) encoders[2];
            assertFalse(names.narrow(), "a batch with non-ASCII text stays UTF-16");
            assertFalse(notes.narrow(), "so does the PLP column");
            int[] size = new int[8];
            assertEquals(8, names.addAsciiSizes(size, 0, 0, 8), "non-ASCII rows are measured");
            assertEquals(2 + 2 * "Müller 0".length(), size[0], "in UTF-16 code units, not UTF-8 bytes");
            assertEquals(2 + 2 * "Mueller 1".length(), size[1]);
            size = new int[8];
            assertEquals(8, names.addAsciiSizes(size, 0, 1195, 8), "UTF-8 that is not well-formed is counted too");
            assertEquals(2 + 2 * "Mx1200".length(), size[5], "by its bytes, which its transcoding does not hold to");
            size = new int[8];
            assertEquals(1, notes.addAsciiSizes(size, 0, 0, 8), "mostly non-ASCII: row 1 ends the measuring");
            assertEquals(16 + 2 * "note 0".length(), size[0], "as PLP: 16 bytes of framing");
            DirectEncoders.Bounded[] both = {(DirectEncoders.Bounded) encoders[0], names};
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(ColumnTiles.MAX_ROWS, new ColumnTiles(both).write(
                    new TdsMessageWriter(out, PacketType.BULK_LOAD, 32767), 0, 300),
                    "a whole tile with non-ASCII rows");
            assertEquals(0, new ColumnTiles(both).write(new TdsMessageWriter(out, PacketType.BULK_LOAD, 8000), 1200,
                    rows), "row 1200 is not for the tiles: its transcoding does not fill the bytes counted");
            assertEquals(4, new ColumnTiles(both).write(new TdsMessageWriter(out, PacketType.BULK_LOAD, 8000), 1201,
                    rows), "the rows after it are");
            DirectEncoders.Bounded[] all = java.util.Arrays.copyOf(encoders, 3, DirectEncoders.Bounded[].class);
            assertEquals(1, new ColumnTiles(all).write(new TdsMessageWriter(out, PacketType.BULK_LOAD, 8000), 0, rows),
                    "with the mostly non-ASCII column, row 1 ends the tile");
            for (int packet : new int[] {100, 512, 8000}) {
                for (DirectEncoders.Encoder[] columns : List.of(encoders, new DirectEncoders.Encoder[] {encoders[0],
                        encoders[1]})) {
                    assertArrayEquals(DirectRowWriteTest.message(packet, 1, valueByValue(columns, 0, rows)),
                            DirectRowWriteTest.message(packet, 1, w -> DirectBulkWriter.writeRows(w, columns, 0, rows,
                                    null)), "packet " + packet + ", " + columns.length + " columns");
                }
            }
        }
    }

    /**
     * Random batches of a bigint and three text columns (nvarchar(12), nvarchar(max), nvarchar(4)), each column with
     * its own share of ASCII, accented, Cyrillic, CJK, supplementary and not well-formed values (a continuation byte or
     * a three-byte lead followed by ASCII, whose transcoding the tiles' count holds or does not; never a sequence cut
     * off at the value's end, which the row-by-row loop refuses too) and NULLs, from none to all: whichever way each
     * column goes (into the tiles or row by row), the message is byte for byte the value-by-value one, at random packet
     * sizes and start rows.
     */
    @Test
    void randomTextMixesWriteTheBytesOfTheRowByRowLoop() throws Exception {
        Random random = new Random(61206);
        String[] pieces = {"a", "Zürich", "дом", "中文", "😀", "ab", "12345678", "é", " "};
        for (int round = 0; round < 60; round++) {
            int rows = 1 + random.nextInt(600);
            try (BufferAllocator a = new RootAllocator();
                    VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(new BigIntVector("b", a),
                            new VarCharVector("s", a), new VarCharVector("m", a), new VarCharVector("t", a)))) {
                root.allocateNew();
                int[] bound = {0, 12, -1, 4};
                int[] nonAscii = {0, random.nextInt(101), random.nextInt(101), random.nextInt(101)};
                int[] nullShare = {0, random.nextInt(3) * 20, random.nextInt(3) * 20, random.nextInt(3) * 20};
                for (int r = 0; r < rows; r++) {
                    ((BigIntVector) root.getVector(0)).setSafe(r, random.nextLong());
                    for (int c = 1; c < 4; c++) {
                        VarCharVector v = (VarCharVector) root.getVector(c);
                        if (random.nextInt(100) < nullShare[c]) {
                            v.setNull(r);
                            continue;
                        }
                        int chars = bound[c] < 0 ? 40 : bound[c];
                        v.setSafe(r, randomText(random, random.nextInt(100) < nonAscii[c], pieces, chars));
                    }
                }
                root.setRowCount(rows);
                List<TargetColumn> targets = List.of(new TargetColumn("b", "bigint", null, 19, 0, null, true, 1),
                        new TargetColumn("s", "nvarchar", 12, null, null, null, true, 2,
                                "SQL_Latin1_General_CP1_CI_AS", false),
                        new TargetColumn("m", "nvarchar", -1, null, null, null, true, 3,
                                "SQL_Latin1_General_CP1_CI_AS", false),
                        new TargetColumn("t", "nvarchar", 4, null, null, null, true, 4,
                                "SQL_Latin1_General_CP1_CI_AS", false));
                DirectEncoders.Encoder[] encoders = new DirectEncoders.Encoder[4];
                for (int c = 0; c < 4; c++) {
                    FieldVector v = root.getVector(c);
                    ArrowColumnType type = ArrowColumnTypes.forField(v.getField());
                    encoders[c] = DirectEncoders.forColumn(new BoundColumn(c, v.getName(), type, targets.get(c),
                            TargetBinding.of(type.kind(), targets.get(c), false)), v, null, random.nextBoolean());
                }
                assertTrue(ColumnTiles.applies(java.util.Arrays.copyOf(encoders, 4, DirectEncoders.Bounded[].class)),
                        "round " + round);
                int packet = new int[] {64, 100, 512, 4096, 8000, 32767}[random.nextInt(6)];
                int from = random.nextInt(rows);
                String what = "round " + round + ": " + rows + " rows from " + from + ", packet " + packet
                        + ", non-ASCII % " + java.util.Arrays.toString(nonAscii) + ", NULL % "
                        + java.util.Arrays.toString(nullShare);
                assertArrayEquals(DirectRowWriteTest.message(packet, 1, valueByValue(encoders, from, rows)),
                        DirectRowWriteTest.message(packet, 1 + random.nextInt(3),
                                w -> DirectBulkWriter.writeRows(w, encoders, from, rows, null)), what);
            }
        }
    }

    /**
     * Text of at most {@code chars} UTF-16 code units (so that it fits its column): ASCII, or pieces of other
     * scripts, sometimes with a byte that makes it not well-formed UTF-8 (never a sequence cut off at the end).
     */
    private static byte[] randomText(Random random, boolean nonAscii, String[] pieces, int chars) {
        StringBuilder sb = new StringBuilder();
        // not well-formed: a continuation byte or a three-byte lead, then "abc" (3 code units at most as transcoded)
        boolean broken = nonAscii && chars >= 4 && random.nextInt(10) == 0;
        int target = random.nextInt((broken ? chars - 3 : chars) + 1);
        while (true) {
            String piece = nonAscii ? pieces[random.nextInt(pieces.length)] : "xyz0123 abcdefghij".substring(0,
                    1 + random.nextInt(8));
            if (sb.length() + piece.length() > target) {
                break;
            }
            sb.append(piece);
        }
        byte[] text = sb.toString().getBytes(StandardCharsets.UTF_8);
        if (!broken) {
            return text;
        }
        byte[] utf8 = java.util.Arrays.copyOf(text, text.length + 4);
        utf8[text.length] = random.nextBoolean() ? (byte) 0x80 : (byte) 0xE0;
        utf8[text.length + 1] = 'a';
        utf8[text.length + 2] = 'b';
        utf8[text.length + 3] = 'c';
        return utf8;
    }

    /** Rows {@code from} to {@code to}, each value written by its encoder's {@code value}: the reference. */
    private static DirectRowWriteTest.Body valueByValue(DirectEncoders.Encoder[] encoders, int from, int to) {
        return w -> {
            for (int i = from; i < to; i++) {
                w.writeByte(TokenType.ROW);
                for (DirectEncoders.Encoder e : encoders) {
                    e.value(w, i);
                }
            }
        };
    }
}
