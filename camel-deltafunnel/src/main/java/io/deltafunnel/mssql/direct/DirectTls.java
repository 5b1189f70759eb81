package io.deltafunnel.mssql.direct;

import io.deltafunnel.tds.TrustAllCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The trust side of {@link DirectTdsConnection}'s TLS: the {@link SSLContext} built from the options (JDK default
 * trust store or {@code trustStore}, validated by {@link ValidatingTrustManager}, or trust-all with
 * {@code trustServerCertificate}) and the mapping of JDK handshake failures to {@link DirectTlsException} reasons.
 * The handshake itself is tds-codec's {@link io.deltafunnel.tds.PreloginTls} (TDS 7.x) or the JDK's
 * {@link javax.net.ssl.SSLSocket} (TDS 8.0 strict).
 */
final class DirectTls {
    private DirectTls() {
    }

    /**
     * The client TLS context for {@code o}'s trust settings.
     *
     * @throws DirectTlsException the trust store cannot be used (wrong type or password, no X.509 trust manager)
     * @throws IOException the trust store file cannot be read
     */
    static SSLContext sslContext(DirectOptions o) throws IOException {
        try {
            TrustManager tm;
            if (o.trustServerCertificate) {
                tm = new TrustAllCertificates();
            } else {
                KeyStore ks = null;
                if (o.trustStore != null) {
                    ks = KeyStore.getInstance(o.trustStoreType);
                    try (InputStream f = Files.newInputStream(o.trustStore)) {
                        ks.load(f, o.trustStorePassword);
                    }
                }
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(ks);
                X509ExtendedTrustManager x509 = null;
                for (TrustManager t : tmf.getTrustManagers()) {
                    if (t instanceof X509ExtendedTrustManager e) {
                        x509 = e;
                    }
                }
                if (x509 == null) {
                    throw new IllegalStateException("the JDK trust manager factory offers no X509ExtendedTrustManager");
                }
                tm = new ValidatingTrustManager(x509);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {tm}, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            String what = o.trustStore == null ? "the default trust store"
                    : "trust store " + o.trustStore + " (type " + o.trustStoreType + ")";
            throw new DirectTlsException(DirectTlsException.Reason.HANDSHAKE, o.host, o.port,
                    "cannot set up TLS with " + what + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IOException("cannot read trust store " + o.trustStore + ": " + e.getMessage(), e);
        }
    }

    /**
     * Turns a JDK TLS failure on the connection to {@code host}:{@code port} into a {@link DirectTlsException} with
     * its reason ({@code strict}: the handshake was the TDS 8.0 one).
     */
    static DirectTlsException failure(SSLException e, String host, int port, boolean strict) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ValidatingTrustManager.Failure f) {
                return new DirectTlsException(f.reason, host, port, f.getMessage(), e);
            }
        }
        String hint = strict ? " (encryption STRICT needs a TDS 8.0 server that expects TLS first)" : "";
        return new DirectTlsException(DirectTlsException.Reason.HANDSHAKE, host, port, e.getMessage() + hint, e);
    }
}
