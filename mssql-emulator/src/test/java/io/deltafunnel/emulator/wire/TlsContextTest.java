package io.deltafunnel.emulator.wire;

import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled keystore, re-stored with one PBKDF2 iteration (mssql-emulator README, "TLS keystore"), still holds the
 * same certificate, which clients and the SQL Server ITs trust; {@link TlsContext#preload} loads the one shared
 * context that handshakes use.
 */
class TlsContextTest {

    /** SHA-256 of the certificate's DER encoding, as the keystore has held it since it was generated. */
    private static final String FINGERPRINT = "909932cc3731d2dc6f1566c0112b2b8b6a8793bb2c245dd50fe37b6675509d74";

    @Test
    void preloadLoadsTheSharedContextWithTheSameCertificate() throws Exception {
        TlsContext.preload();
        TlsContext.preload();
        X509Certificate cert = TlsContext.certificate();
        assertSame(cert, TlsContext.certificate());
        assertEquals(FINGERPRINT,
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded())));
        assertTrue(cert.getSubjectX500Principal().getName().contains("CN=localhost"),
                cert.getSubjectX500Principal().getName());
        // the server engine is made from that context
        assertFalse(TlsContext.newServerEngine().getUseClientMode());
    }
}
