package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Testcontainers(disabledWithoutDocker = true)
class ShardProtocolIT extends ShardProtocolScenarios {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }

    /**
     * SQL Server's row locks: a row held WITH (UPDLOCK, HOLDLOCK) (an equality seek on the primary key: a key lock)
     * does not stop an UPDATE of another row, even under LOCK_TIMEOUT 0. The emulator differs (table locks):
     * {@code ShardProtocolTest.anUpdateOfAnotherRowWaitsForTheHoldersTableLock}.
     */
    @Test
    void anUpdateOfAnotherRowDoesNotWait() throws Exception {
        Connection holder = holdingLoadRowOne();
        Connection other = session();
        exec(other, "SET LOCK_TIMEOUT 0");
        exec(other, "UPDATE " + loads() + " SET [status] = 'abandoned' WHERE [load_id] = 2");
        exec(other, "SET LOCK_TIMEOUT -1");
        assertEquals("abandoned", stringScalar(other, "SELECT [status] FROM " + loads() + " WHERE [load_id] = 2"));
        holder.commit();
    }
}
