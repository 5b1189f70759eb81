package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ShardProtocolTest extends ShardProtocolScenarios {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    @Override
    protected ServerUnderTest server() {
        return SERVER;
    }

    /**
     * A documented difference (mssql-emulator/README.md, "Differences from SQL Server", Locking: granularity): the
     * emulator locks whole tables, so while one session holds a row WITH (UPDLOCK, HOLDLOCK) (U on the table to the
     * end of its transaction), an UPDATE of <em>another</em> row of that table waits for it (X is not compatible
     * with U) and ends in 1222 under a LOCK_TIMEOUT. SQL Server locks the key only and lets the update through at
     * once: {@code ShardProtocolIT.anUpdateOfAnotherRowDoesNotWait}. The protocol stays correct either way (it only
     * waits longer here).
     */
    @Test
    void anUpdateOfAnotherRowWaitsForTheHoldersTableLock() throws Exception {
        Connection holder = holdingLoadRowOne();
        Connection other = session();
        exec(other, "SET LOCK_TIMEOUT " + SHORT_TIMEOUT_MS);
        assertError(1222, other, "UPDATE " + loads() + " SET [status] = 'abandoned' WHERE [load_id] = 2");
        exec(other, "SET LOCK_TIMEOUT -1");
        Future<Integer> update = inThread(() -> {
            exec(other, "UPDATE " + loads() + " SET [status] = 'abandoned' WHERE [load_id] = 2");
            return 0;
        });
        assertStillWaiting(update);
        holder.commit();
        assertEquals(0, finished(update));
        assertEquals("abandoned", stringScalar(conn, "SELECT [status] FROM " + loads() + " WHERE [load_id] = 2"));
    }
}
