package io.deltafunnel.emulator.wire;

import io.deltafunnel.tds.PreloginOptions;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * The server TLS context built from the bundled self-signed PKCS12 keystore (CN=localhost, SAN localhost and
 * 127.0.0.1). The keystore password is a test-only secret: this certificate protects nothing.
 */
public final class TlsContext {
    static final String KEYSTORE_RESOURCE = "/mssql-emulator-tls.p12";
    /** Test-only password of the bundled keystore. */
    static final char[] KEYSTORE_PASSWORD = "emulator-test-only".toCharArray();
    private static final Logger LOG = Logger.getLogger(TlsContext.class.getName());

    private static volatile Loaded shared;

    private record Loaded(SSLContext context, X509Certificate certificate) {
    }

    private TlsContext() {
    }

    /** TDS 7.x: an engine for the PRELOGIN-wrapped handshake, TLS 1.2 only (1.3 broke the wrapped exchange). */
    static SSLEngine newServerEngine() {
        SSLEngine engine = loaded().context().createSSLEngine();
        engine.setUseClientMode(false);
        engine.setEnabledProtocols(new String[] {"TLSv1.2"});
        return engine;
    }

    /**
     * TDS 8.0 (strict): runs the server side of a TLS 1.2/1.3 handshake directly on the socket, offering ALPN
     * "tds/8.0". The returned socket wraps (and closes) {@code socket}.
     */
    static SSLSocket strictHandshake(Socket socket) throws IOException {
        SSLSocket ssl = (SSLSocket) loaded().context().getSocketFactory().createSocket(socket, null, true);
        ssl.setUseClientMode(false);
        ssl.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
        SSLParameters p = ssl.getSSLParameters();
        p.setApplicationProtocols(new String[] {PreloginOptions.ALPN_TDS_8_0});
        ssl.setSSLParameters(p);
        ssl.startHandshake();
        return ssl;
    }

    /** The emulator's self-signed certificate. */
    public static X509Certificate certificate() {
        return loaded().certificate();
    }

    /**
     * Loads the shared context now, if it is not loaded yet (the emulator's acceptor does it before its first accept).
     * A failure is logged and left to the first handshake, which loads again and fails with it.
     */
    public static void preload() {
        try {
            loaded();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot load the emulator's TLS context ahead of the first handshake", e);
        }
    }

    private static Loaded loaded() {
        Loaded c = shared;
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

    private static Loaded load() {
        try (InputStream in = TlsContext.class.getResourceAsStream(KEYSTORE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing TLS keystore resource " + KEYSTORE_RESOURCE);
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, KEYSTORE_PASSWORD);
            X509Certificate cert = null;
            for (String alias : java.util.Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias)) {
                    cert = (X509Certificate) ks.getCertificate(alias);
                    break;
                }
            }
            if (cert == null) {
                throw new IllegalStateException("TLS keystore " + KEYSTORE_RESOURCE + " holds no key entry");
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, KEYSTORE_PASSWORD);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            return new Loaded(ctx, cert);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the emulator TLS keystore", e);
        }
    }
}
