package io.deltafunnel.tds;

/** The peer sent bytes that do not follow the TDS grammar. */
public class TdsProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TdsProtocolException(String message) {
        super(message);
    }

    public TdsProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
