package io.deltafunnel.mssql.session;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How a hook's text is split into batches at GO lines, and the line each batch starts on. */
class SqlHooksTest {

    @Test
    void oneBatchWithoutGo() {
        assertEquals(List.of(new SqlHooks.Batch("INSERT a VALUES (1);\nINSERT b VALUES (2)", 1)),
                SqlHooks.batches("INSERT a VALUES (1);\nINSERT b VALUES (2)"));
    }

    @Test
    void goLinesSplitInAnyCaseWithBlanksAndCrLf() {
        assertEquals(List.of(new SqlHooks.Batch("A", 1), new SqlHooks.Batch("\nB\nC", 3),
                new SqlHooks.Batch("D", 7)), SqlHooks.batches("A\r\n go \r\n\nB\nC\n\tGo\nD"));
    }

    @Test
    void blankBatchesAreLeftOutAndGoInsideALineDoesNotSplit() {
        assertEquals(List.of(new SqlHooks.Batch("SELECT 'GO' AS go_on", 2)),
                SqlHooks.batches("GO\nSELECT 'GO' AS go_on\nGO\n   \nGO"));
    }
}
