package io.deltafunnel.mssql.reject;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.deltafunnel.handoff.RejectSettings;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.mssql.channel.SqlChannel;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RowBisection} against a channel that refuses any bulk statement holding a bad row, as SQL Server refuses a
 * whole statement: it finds exactly the bad rows, loads every other row once, stays within about 2·k·log2(n) extra
 * statements, undoes each refused statement with its savepoint, and leaves any other error to the caller. Also the
 * row selection of {@link BulkBatch} it relies on, and {@link SqlServerErrors#isRowDataError}.
 */
class RowBisectionTest {

    private BufferAllocator allocator;
    private VectorSchemaRoot root;

    @BeforeEach
    void batch() {
        allocator = new RootAllocator();
        IntVector id = new IntVector("id", allocator);
        int n = 1000;
        id.allocateNew(n);
        for (int i = 0; i < n; i++) {
            id.set(i, i);
        }
        id.setValueCount(n);
        root = VectorSchemaRoot.of(id);
    }

    @AfterEach
    void close() {
        root.close();
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
    }

    /** Refuses a bulk statement that holds a bad row with {@code error}, loading nothing of it. */
    private static final class RefusingChannel implements SqlChannel {
        final Set<Integer> bad;
        final int error;
        final List<Integer> loaded = new ArrayList<>();
        final List<String> statements = new ArrayList<>();
        int bulkStatements;
        int successes;
        int trancount;

        RefusingChannel(Set<Integer> bad, int error) {
            this.bad = bad;
            this.error = error;
        }

        @Override
        public void bulkWrite(TableName destination, BulkBatch batch, BulkLoadSettings settings) throws SQLException {
            bulkStatements++;
            trancount = 1;
            for (int i = 0; i < batch.rowCount(); i++) {
                if (bad.contains(batch.row(i))) {
                    throw new SQLException("refused", "23000", error);
                }
            }
            for (int i = 0; i < batch.rowCount(); i++) {
                loaded.add(batch.row(i));
            }
            successes++;
        }

        @Override
        public void execute(String sql) {
            statements.add(sql);
        }

        @Override
        public List<Object[]> query(String sql, Object... params) {
            return List.<Object[]>of(new Object[] {trancount});
        }

        @Override
        public long update(String sql, Object... params) {
            return 0;
        }

        @Override
        public void setQueryTimeout(int seconds) {
        }

        @Override
        public void setAutoCommit(boolean autoCommit) {
        }

        @Override
        public boolean getAutoCommit() {
            return false;
        }

        @Override
        public void commit() {
        }

        @Override
        public void rollback() {
        }

        @Override
        public boolean isClosed() {
            return false;
        }

        @Override
        public boolean temporalAsText() {
            return false;
        }

        @Override
        public String encoder() {
            return "test";
        }

        @Override
        public void close() {
        }
    }

    private static BulkLoadSettings settings() {
        return BulkLoadSettings.defaults(TableName.parse("dbo.t"))
                .withRejects(new RejectSettings(100, "dbo.t_rejects", null));
    }

    @Test
    void findsExactlyTheBadRowsWithinKLogNStatementsAndLoadsEveryOtherRowOnce() throws Exception {
        for (Set<Integer> bad : List.of(Set.of(999), Set.of(0, 1, 2), Set.of(5, 250, 251, 700, 998))) {
            RefusingChannel c = new RefusingChannel(bad, 2627);
            Set<Integer> refused = new TreeSet<>();
            BulkBatch batch = new BulkBatch(root, List.of(), 0).checked();
            int written = RowBisection.write(c, TableName.parse("dbo.t"), batch, settings(), (row, e) -> {
                assertEquals(2627, e.getErrorCode());
                refused.add(row);
            });
            assertEquals(new TreeSet<>(bad), refused);
            assertEquals(1000 - bad.size(), written);
            assertEquals(1000 - bad.size(), c.loaded.size());
            assertEquals(1000 - bad.size(), new TreeSet<>(c.loaded).size(), "a row loaded twice");
            int k = bad.size();
            assertTrue(c.bulkStatements <= 1 + 2 * k * 10, c.bulkStatements + " statements for k=" + k);
            long saves = c.statements.stream().filter(x -> x.equals("SAVE TRAN " + RowBisection.SAVEPOINT)).count();
            long toSavepoint = c.statements.stream()
                    .filter(x -> x.equals("ROLLBACK TRAN " + RowBisection.SAVEPOINT)).count();
            long whole = c.statements.stream().filter(x -> x.equals("IF @@TRANCOUNT > 0 ROLLBACK TRAN")).count();
            assertEquals(c.bulkStatements - c.successes, toSavepoint + whole, "each refused statement undone once");
            assertTrue(saves >= toSavepoint, "a savepoint for each rollback to it");
            int firstSave = c.statements.indexOf("SAVE TRAN " + RowBisection.SAVEPOINT);
            int lastWhole = c.statements.lastIndexOf("IF @@TRANCOUNT > 0 ROLLBACK TRAN");
            assertTrue(firstSave < 0 || lastWhole < firstSave,
                    "the whole transaction is rolled back only before a part loaded (then savepoints)");
        }
    }

    @Test
    void aBatchWithoutABadRowIsOneStatement() throws Exception {
        RefusingChannel c = new RefusingChannel(Set.of(), 2627);
        assertEquals(1000, RowBisection.write(c, TableName.parse("dbo.t"), new BulkBatch(root, List.of(), 0).checked(),
                settings(), (row, e) -> { throw new AssertionError("nothing refused"); }));
        assertEquals(1, c.bulkStatements);
    }

    @Test
    void anErrorThatIsNotAboutARowsDataIsThrownAsItIs() {
        RefusingChannel c = new RefusingChannel(Set.of(10), 1205);
        SQLException e = assertThrows(SQLException.class, () -> RowBisection.write(c, TableName.parse("dbo.t"),
                new BulkBatch(root, List.of(), 0).checked(), settings(), (row, x) -> {
                    throw new AssertionError("not bisected");
                }));
        assertEquals(1205, e.getErrorCode());
        assertEquals(1, c.bulkStatements);
        assertTrue(c.statements.stream().noneMatch(s -> s.contains("ROLLBACK")));
    }

    @Test
    void rowDataErrorsAreTheDocumentedNumbersOnly() {
        for (int n : new int[] {2627, 2601, 547, 8115, 2628, 515}) {
            assertTrue(SqlServerErrors.isRowDataError(new SQLException("x", "23000", n)), "" + n);
        }
        for (int n : new int[] {1205, 1222, 229, 4060, 8672, 0}) {
            assertTrue(!SqlServerErrors.isRowDataError(new SQLException("x", "23000", n)), "" + n);
        }
        assertTrue(!SqlServerErrors.isRowDataError(new SQLException("x", "08S01", 2627)), "a connection failure");
    }

    @Test
    void aSelectionReadsTheSameVectorsThroughRowIndexes() {
        BulkBatch all = new BulkBatch(root, List.of(), 7).checked();
        BulkBatch some = all.select(new int[] {1, 5, 999});
        assertEquals(3, some.rowCount());
        assertEquals(999, some.row(2));
        assertTrue(some.validated());
        assertEquals(7, some.firstRowInRun());
        BulkBatch half = some.slice(1, 3);
        assertEquals(2, half.rowCount());
        assertEquals(5, half.row(0));
        assertThrows(IllegalArgumentException.class, () -> all.select(new int[] {5, 5}));
        assertThrows(IllegalArgumentException.class, () -> all.select(new int[] {1000}));
    }

    @Test
    void rejectSettingsNeedATableAndANonNegativeLimit() {
        assertThrows(IllegalArgumentException.class, () -> new RejectSettings(-1, "t", null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RejectSettings(3, " ",
                null));
        assertTrue(e.getMessage().contains("needs rejectTable"), e.getMessage());
        assertTrue(!RejectSettings.NONE.enabled());
        assertEquals(RejectSettings.NONE, BulkLoadSettings.defaults(TableName.parse("t")).rejects());
    }
}
