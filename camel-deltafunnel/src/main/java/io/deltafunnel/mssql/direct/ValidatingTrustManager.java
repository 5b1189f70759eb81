package io.deltafunnel.mssql.direct;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Validates a server certificate in two separately reported steps: first the chain against the trust material, then
 * the host name (the socket's or engine's endpoint identification, "HTTPS" rules). A failure is thrown as
 * {@link Failure} so {@link DirectTdsConnection} can tell an untrusted certificate from a host-name mismatch.
 */
final class ValidatingTrustManager extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager delegate;

    ValidatingTrustManager(X509ExtendedTrustManager delegate) {
        this.delegate = delegate;
    }

    /** A certificate check failure with its reason. */
    static final class Failure extends CertificateException {
        private static final long serialVersionUID = 1L;
        final DirectTlsException.Reason reason;

        Failure(DirectTlsException.Reason reason, CertificateException cause) {
            super(cause.getMessage(), cause);
            this.reason = reason;
        }
    }

    private void checkChain(X509Certificate[] chain, String authType) throws Failure {
        try {
            delegate.checkServerTrusted(chain, authType);
        } catch (CertificateException e) {
            throw new Failure(DirectTlsException.Reason.CERTIFICATE_UNTRUSTED, e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkChain(chain, authType);
        try {
            delegate.checkServerTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            throw new Failure(DirectTlsException.Reason.HOST_NAME_MISMATCH, e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkChain(chain, authType);
        try {
            delegate.checkServerTrusted(chain, authType, engine);
        } catch (CertificateException e) {
            throw new Failure(DirectTlsException.Reason.HOST_NAME_MISMATCH, e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("a server certificate must be checked against a socket or engine");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        throw new CertificateException("client certificates are not checked by a TDS client");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        throw new CertificateException("client certificates are not checked by a TDS client");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("client certificates are not checked by a TDS client");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return delegate.getAcceptedIssuers();
    }
}
