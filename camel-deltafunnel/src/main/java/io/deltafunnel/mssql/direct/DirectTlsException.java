package io.deltafunnel.mssql.direct;

import javax.net.ssl.SSLException;

/**
 * TLS could not be set up on a {@link DirectTdsConnection}: the handshake failed (for example a strict client talking
 * to a server that does not speak TDS 8.0), the server certificate is not trusted, or it does not name the host.
 *
 */
public class DirectTlsException extends SSLException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Reason {
        /** The handshake itself failed (protocol mismatch, connection dropped, no common cipher, ...). */
        HANDSHAKE,
        /** The certificate chain does not lead to a trusted certificate. */
        CERTIFICATE_UNTRUSTED,
        /** The certificate is trusted but names neither the host nor {@code hostNameInCertificate}. */
        HOST_NAME_MISMATCH,
        /** The server negotiated an application protocol other than "tds/8.0" (strict mode). */
        ALPN
    }

    private final Reason reason;
    private final String host;
    private final int port;

    public DirectTlsException(Reason reason, String host, int port, String message, Throwable cause) {
        super("TLS with " + host + ":" + port + " failed (" + reason + "): " + message, cause);
        this.reason = reason;
        this.host = host;
        this.port = port;
    }

    public Reason reason() {
        return reason;
    }

    /** The host the connection was made to. */
    public String host() {
        return host;
    }

    public int port() {
        return port;
    }
}
