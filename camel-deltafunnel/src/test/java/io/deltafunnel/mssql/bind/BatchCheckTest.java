package io.deltafunnel.mssql.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client-side check of a batch reports {@link Rejection}s: the first (what fails a run by default, with today's
 * message) or every rejected value of the batch, each with target and source column, row, check name and reason.
 */
class BatchCheckTest {

    private BufferAllocator allocator;
    private VectorSchemaRoot root;
    private List<BoundColumn> columns;

    @BeforeEach
    void batch() {
        allocator = new RootAllocator();
        IntVector a = new IntVector("a", allocator);
        a.allocateNew(4);
        a.set(0, 1);
        a.set(1, 300);
        a.set(2, 2);
        a.set(3, 400);
        VarCharVector b = new VarCharVector("b", allocator);
        b.allocateNew(4);
        b.setSafe(0, "ok".getBytes(StandardCharsets.UTF_8));
        b.setNull(1);
        b.setSafe(2, "too long".getBytes(StandardCharsets.UTF_8));
        b.setSafe(3, "x".getBytes(StandardCharsets.UTF_8));
        TimeMilliVector c = new TimeMilliVector("c", allocator);
        c.allocateNew(4);
        c.set(0, 0);
        c.set(1, 90_000_000); // 25 hours: no time of day, the reader itself refuses it
        c.set(2, 0);
        c.set(3, 0);
        List<FieldVector> vectors = List.of(a, b, c);
        for (FieldVector v : vectors) {
            v.setValueCount(4);
        }
        root = new VectorSchemaRoot(vectors);
        root.setRowCount(4);
        List<TargetColumn> targets = List.of(
                new TargetColumn("A_target", "tinyint", null, null, null, null, true, 1),
                new TargetColumn("B_target", "nvarchar", 5, null, null, null, false, 2),
                new TargetColumn("C_target", "time", null, null, null, 3, true, 3));
        columns = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            FieldVector v = vectors.get(i);
            ArrowColumnType type = ArrowColumnTypes.forField(v.getField());
            columns.add(new BoundColumn(i, v.getName(), type, targets.get(i),
                    TargetBinding.of(type.kind(), targets.get(i), true)));
        }
    }

    @AfterEach
    void close() {
        root.close();
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
    }

    @Test
    void allReportsEveryRejectedValueColumnByColumnThenRowByRow() {
        List<Rejection> all = BatchCheck.all(root, columns);
        assertEquals(List.of("a:1:out-of-range", "a:3:out-of-range", "b:1:not-null", "b:2:too-long",
                "c:1:out-of-range"), all.stream().map(r -> r.sourceColumn() + ":" + r.row() + ":" + r.check())
                .toList());
        Rejection notNull = all.get(2);
        assertEquals("B_target", notNull.targetColumn());
        assertEquals("nvarchar(5)", notNull.targetType());
        assertEquals("NULL into NOT NULL column B_target", notNull.reason());
        assertEquals("value of 8 characters is longer than nvarchar(5); it would be truncated", all.get(3).reason());
        assertTrue(all.get(4).reason().startsWith("time of day out of range: "), all.get(4).reason());
        assertEquals(all.subList(0, 2), BatchCheck.check(root, columns, 2), "a limit stops the check");
        assertEquals(all.get(0), BatchCheck.first(root, columns));
    }

    @Test
    void theFirstRejectionFailsTheRunWithTheSameMessageAsBefore() {
        BulkLoadException.Context context = BulkLoadException.Context.of("dbo.t", null, HandoffStats.ZERO);
        ValueOutOfRangeException e = assertThrows(ValueOutOfRangeException.class,
                () -> BatchCheck.requireAllFit(root, columns, 10, "shard 2: ", context));
        Rejection r = e.rejection();
        assertEquals(new Rejection("A_target", "tinyint", "a", 1, Rejection.OUT_OF_RANGE, r.reason()), r);
        assertTrue(r.reason().startsWith("value 300 is outside the range of tinyint"), r.reason());
        assertEquals("shard 2: " + r.reason() + " (target column A_target tinyint)", e.detail());
        assertEquals("a", e.column());
        assertEquals(1, e.rowInBatch());
        assertEquals(11, e.rowInRun());
        assertEquals("table dbo.t: column a: row 1 of the batch (row 11 of the run): " + e.detail() + " ["
                + HandoffStats.ZERO + "]", e.getMessage().substring(e.getMessage().indexOf("table ")));
    }

    /**
     * Columns with NULLs take the column-wide pass too, which reads a NULL's slot as well (Arrow leaves it undefined):
     * a slot that would not fit under a NULL is no rejection in a nullable column, a NULL in a NOT NULL column is
     * one, and a value that does not fit next to NULLs is named by its row.
     */
    @Test
    void columnsWithNullsAreCheckedExactlyWhateverTheirNullSlotsHold() {
        DecimalVector d = new DecimalVector("d", allocator, 38, 2);
        VarCharVector s = new VarCharVector("s", allocator);
        DateDayVector day = new DateDayVector("day", allocator);
        d.allocateNew(4);
        s.allocateNew(4);
        day.allocateNew(4);
        for (int r = 0; r < 4; r++) {
            d.set(r, new BigDecimal("9999999999999.99"));
            s.setSafe(r, "fits".getBytes(StandardCharsets.UTF_8));
            day.set(r, (int) LocalDate.of(2024, 1, 1).toEpochDay());
        }
        // row 1 NULL over slots that fit (as DuckDB leaves them: zeros)
        d.setNull(1);
        s.setNull(1);
        day.setNull(1);
        List<FieldVector> vectors = List.of(d, s, day);
        try (VectorSchemaRoot batch = new VectorSchemaRoot(vectors)) {
            for (FieldVector v : vectors) {
                v.setValueCount(4);
            }
            batch.setRowCount(4);
            List<String> notNull = List.of("d:1:not-null", "s:1:not-null", "day:1:not-null");
            assertEquals(List.of(), BatchCheck.all(batch, bind(vectors, true)), "NULLs into nullable columns");
            assertEquals(notNull, BatchCheck.all(batch, bind(vectors, false)).stream()
                    .map(r -> r.sourceColumn() + ":" + r.row() + ":" + r.check()).toList());
            // the same NULL over slots that would not fit decimal(15,2), nvarchar(5) and date
            d.set(1, new BigDecimal("10000000000000.00"));
            d.setNull(1);
            s.setSafe(1, "much too long".getBytes(StandardCharsets.UTF_8));
            s.setNull(1);
            s.setValueCount(4);
            day.set(1, (int) LocalDate.of(10000, 1, 1).toEpochDay());
            day.setNull(1);
            assertEquals(List.of(), BatchCheck.all(batch, bind(vectors, true)), "NULLs into nullable columns");
            assertEquals(notNull, BatchCheck.all(batch, bind(vectors, false)).stream()
                    .map(r -> r.sourceColumn() + ":" + r.row() + ":" + r.check()).toList());
            // a value that does not fit, next to the NULL
            d.set(3, new BigDecimal("-10000000000000.00"));
            s.setSafe(3, "toolong".getBytes(StandardCharsets.UTF_8));
            s.setValueCount(4);
            day.set(3, (int) LocalDate.of(0, 12, 31).toEpochDay());
            assertEquals(List.of("d:3:precision", "s:3:too-long", "day:3:out-of-range"),
                    BatchCheck.all(batch, bind(vectors, true)).stream()
                            .map(r -> r.sourceColumn() + ":" + r.row() + ":" + r.check()).toList());
        }
    }

    /** decimal(15,2), nvarchar(5) and date targets for {@code vectors}, all nullable or all NOT NULL. */
    private static List<BoundColumn> bind(List<FieldVector> vectors, boolean nullable) {
        List<TargetColumn> targets = List.of(
                new TargetColumn("D", "decimal", null, 15, 2, null, nullable, 1),
                new TargetColumn("S", "nvarchar", 5, null, null, null, nullable, 2),
                new TargetColumn("DAY", "date", null, null, null, null, nullable, 3));
        List<BoundColumn> bound = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            ArrowColumnType type = ArrowColumnTypes.forField(vectors.get(i).getField());
            bound.add(new BoundColumn(i, vectors.get(i).getName(), type, targets.get(i),
                    TargetBinding.of(type.kind(), targets.get(i), true)));
        }
        return bound;
    }

    @Test
    void aBatchThatFitsHasNoRejection() {
        List<BoundColumn> first = columns.subList(0, 1);
        ((IntVector) root.getVector(0)).set(1, 3);
        ((IntVector) root.getVector(0)).set(3, 4);
        assertNull(BatchCheck.first(root, first));
        assertEquals(List.of(), BatchCheck.all(root, first));
        BatchCheck.requireAllFit(root, first, 0, "", BulkLoadException.Context.of("dbo.t", null, HandoffStats.ZERO));
    }
}
