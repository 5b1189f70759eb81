package io.deltafunnel.mssql.channel;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CipherWarmupTest {

    /** Every record is encrypted and decrypted back to its size: small ones, then full TLS records. */
    @Test
    void roundTripsTheGivenRecords() throws Exception {
        assertEquals(300L * CipherWarmup.SMALL + 3L * CipherWarmup.FULL, CipherWarmup.run(300, 3));
        assertEquals(0L, CipherWarmup.run(0, 0));
    }

    /** The defaults make the thousands of calls the optimizing JIT counts, and about 5 MB. */
    @Test
    void defaultsCallTheCipherOftenAndEncryptLittle() {
        assertTrue(CipherWarmup.RECORDS >= 8_000, "calls the compiler counts");
        long bytes = (long) CipherWarmup.RECORDS * CipherWarmup.SMALL
                + (long) CipherWarmup.FULL_RECORDS * CipherWarmup.FULL;
        assertTrue(bytes < 8L << 20, bytes + " bytes");
    }

    /** At most one warm-up per JVM, whoever asks first (another test's producer may have). */
    @Test
    void startsOncePerJvm() {
        CipherWarmup.startOnce();
        assertTrue(CipherWarmup.started());
        assertFalse(CipherWarmup.startOnce());
    }
}
