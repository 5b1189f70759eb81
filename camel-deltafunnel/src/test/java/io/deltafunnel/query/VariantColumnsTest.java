package io.deltafunnel.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import io.deltafunnel.delta.VariantStruct;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.TransferPair;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.Test;

/** The per-batch transform's contract: untouched without variants, ownership of the roots, nothing leaked on failure. */
class VariantColumnsTest {

    /** One batch of {@code sql} from DuckDB, in a root the caller owns. */
    private static VectorSchemaRoot batch(BufferAllocator allocator, String sql) throws Exception {
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:"); Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery(sql);
                ArrowReader reader = (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, 1000)) {
            reader.loadNextBatch();
            VectorSchemaRoot shared = reader.getVectorSchemaRoot();
            VectorSchemaRoot owned = VectorSchemaRoot.create(shared.getSchema(), allocator);
            for (int i = 0; i < shared.getFieldVectors().size(); i++) {
                TransferPair pair = shared.getVector(i).makeTransferPair(owned.getVector(i));
                pair.transfer();
            }
            owned.setRowCount(shared.getRowCount());
            return owned;
        }
    }

    private static String variant(byte[] value) {
        return "{'" + VariantStruct.METADATA + "': " + VariantBytes.sql(VariantBytes.metadata()) + ", '"
                + VariantStruct.VALUE + "': " + VariantBytes.sql(value) + "}";
    }

    @Test
    void aBatchWithoutVariantsIsReturnedAsIs() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            VectorSchemaRoot root = batch(allocator, "SELECT range AS id, {'metadata': 'x'::BLOB, 'value': 'y'::BLOB} AS "
                    + "not_a_variant FROM range(10)");
            try (VectorSchemaRoot same = VariantColumns.decode(root, allocator)) {
                assertSame(root, same);
                assertEquals(10, same.getRowCount());
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }

    @Test
    void aBatchWithVariantsIsANewRootAndTheOldOneIsClosed() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            VectorSchemaRoot root = batch(allocator, "SELECT range AS id, 'keep' AS s, " + variant(VariantBytes.int8(3))
                    + " AS v FROM range(1000)");
            try (VectorSchemaRoot decoded = VariantColumns.decode(root, allocator)) {
                assertNotSame(root, decoded);
                assertEquals(0, root.getVector(0).getValueCount(), "the given root was closed (its columns moved)");
                assertEquals(1000, decoded.getRowCount());
                assertEquals("3", decoded.getVector("v").getObject(999).toString());
                assertEquals("keep", decoded.getVector("s").getObject(999).toString());
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }

    @Test
    void aFailureClosesBothRoots() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            VectorSchemaRoot root = batch(allocator, "SELECT range AS id, CASE WHEN range = 500 THEN "
                    + variant(VariantBytes.primitive(30, new byte[0])) + " ELSE " + variant(VariantBytes.bool(true))
                    + " END AS v FROM range(1000)");
            VariantDecodeException e = assertThrows(VariantDecodeException.class, () -> VariantColumns.decode(root,
                    allocator));
            assertEquals("v", e.column());
            assertEquals(500, e.row());
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }
}
