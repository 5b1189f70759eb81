package io.deltafunnel.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

/**
 * The server TLS context built from the bundled self-signed PKCS12 keystore (CN=localhost, SAN localhost and
 * 127.0.0.1). The keystore password is a test-only secret: this certificate protects nothing.
 */
final class TlsContext {
    static final String KEYSTORE_RESOURCE = "/mssql-emulator-tls.p12";
    /** Test-only password of the bundled keystore. */
    static final char[] KEYSTORE_PASSWORD = "emulator-test-only".toCharArray();

    private static volatile SSLContext shared;

    private TlsContext() {
    }

    static SSLEngine newServerEngine() {
        SSLEngine engine = context().createSSLEngine();
        engine.setUseClientMode(false);
        engine.setEnabledProtocols(new String[] {"TLSv1.2"});
        return engine;
    }

    private static SSLContext context() {
        SSLContext c = shared;
        if (c == null) {
            synchronized (TlsContext.class) {
                c = shared;
                if (c == null) {
                    c = load();
                    shared = c;
                }
            }
        }
        return c;
    }

    private static SSLContext load() {
        try (InputStream in = TlsContext.class.getResourceAsStream(KEYSTORE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing TLS keystore resource " + KEYSTORE_RESOURCE);
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, KEYSTORE_PASSWORD);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, KEYSTORE_PASSWORD);
            SSLContext ctx = SSLContext.getInstance("TLSv1.2");
            ctx.init(kmf.getKeyManagers(), null, null);
            return ctx;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the emulator TLS keystore", e);
        }
    }
}
