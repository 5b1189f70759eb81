package io.deltafunnel.mssql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.TableName;

import org.junit.jupiter.api.Test;

/** The names of the load staging tables a sharded load's shards share. */
class StagingTableTest {

    private static final TableName ORDERS = new TableName("dbo", "orders");

    @Test
    void loadStagingNameIsTheReadableIdAndTheCrcOfTheExactId() {
        String id = "20261201T141512.345Z-5f0c2a9be311";
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        assertEquals(new TableName("dbo", "orders__df_load_20261201t141512345z5f0c2a9be311_"
                + String.format("%08x", crc.getValue())), StagingTable.forLoad(ORDERS, id));
        assertEquals(StagingTable.forLoad(ORDERS, id), StagingTable.forLoad(ORDERS, id), "stable for every shard");
    }

    @Test
    void idsThatDifferOnlyInDroppedCharactersOrAfterFortyGetDifferentTables() {
        assertNotEquals(StagingTable.forLoad(ORDERS, "job-a-1"), StagingTable.forLoad(ORDERS, "joba1"));
        assertNotEquals(StagingTable.forLoad(ORDERS, "Job1"), StagingTable.forLoad(ORDERS, "job1"));
        String prefix = "x".repeat(60);
        assertNotEquals(StagingTable.forLoad(ORDERS, prefix + "a"), StagingTable.forLoad(ORDERS, prefix + "b"));
    }

    @Test
    void loadStagingNameStaysWithinTheIdentifierLimit() {
        TableName longTarget = new TableName("dbo", "t".repeat(128));
        TableName staging = StagingTable.forLoad(longTarget, "y".repeat(64));
        assertTrue(staging.table().length() <= SqlIdentifiers.MAX_LENGTH, staging.table());
        assertTrue(staging.table().matches("t+__df_load_y{40}_[0-9a-f]{8}"), staging.table());
    }
}
