package io.deltafunnel.mssql.direct;

/**
 * The server answered the login with a routing ENVCHANGE (type 20) that {@link DirectTdsConnection} did not follow:
 * routing is switched off ({@code followRouting(false)}) or the routed server routed again (only one redirect is
 * followed).
 */
public class DirectRoutingException extends DirectTdsException {
    private static final long serialVersionUID = 1L;

    private final String targetHost;
    private final int targetPort;

    public DirectRoutingException(String message, String targetHost, int targetPort) {
        super(message);
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    /** The host the server routed to. */
    public String targetHost() {
        return targetHost;
    }

    public int targetPort() {
        return targetPort;
    }
}
