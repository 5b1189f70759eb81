package io.deltafunnel.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;

import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.direct.DirectBulkWriter;
import io.deltafunnel.mssql.direct.DirectTdsConnection;
import io.deltafunnel.mssql.direct.DirectUrl;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * {@link EncodeCpu}'s ORDERS shape (the README's sample table): its batch has the sample table's columns and NULLs,
 * every note ends in non-ASCII text, and the direct writer loads it into the table {@link EncodeCpu#ordersTableSql}
 * makes, against the sink emulator, which decodes every row and counts them; the allocator, closed last, must have
 * nothing outstanding. No timing is asserted.
 */
class EncodeCpuOrdersTest {

    @Test
    void theSampleTableBatchLoadsIntoItsTable() throws Exception {
        try (EmulatorProcess emulator = EmulatorProcess.start(EmulatorProcess.findJar(), "sink");
                BufferAllocator a = new RootAllocator();
                VectorSchemaRoot root = EncodeCpu.orders(a, 1000)) {
            assertEquals(11, root.getFieldVectors().size());
            assertEquals(143, root.getVector("shipped_at").getNullCount(), "a seventh of shipped_at is NULL");
            assertEquals(77, root.getVector("note").getNullCount(), "a thirteenth of the notes is NULL");
            String note = new String(((VarCharVector) root.getVector("note")).get(1), StandardCharsets.UTF_8);
            assertTrue(note.startsWith("customer note 1 x") && note.endsWith(" été ✓"), note);
            try (Connection c = BenchSupport.sqlServer(emulator.url()); Statement st = c.createStatement()) {
                st.execute(EncodeCpu.ordersTableSql("smoke_orders"));
            }
            try (DirectTdsConnection connection = DirectTdsConnection.open(DirectUrl.parse(emulator.url(), "sa",
                    BenchSupport.PASSWORD))) {
                assertEquals(1000, new DirectBulkWriter(connection).write(TableName.parse("dbo.smoke_orders"), root,
                        EncodeCpu.ordersTargets()));
            }
        }
    }
}
