package io.deltafunnel.tds;

import java.security.cert.X509Certificate;
import javax.net.ssl.X509TrustManager;

/**
 * A trust manager that accepts any server certificate: what {@code trustServerCertificate=true} asks for (the
 * session is encrypted but the server is not authenticated), and what test clients use against self-signed
 * certificates. Never the default anywhere.
 */
public final class TrustAllCertificates implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // accepts any client
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
        // accepts any server: trustServerCertificate=true
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
