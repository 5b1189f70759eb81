package io.deltafunnel.mssql.direct;

/**
 * A reply from SQL Server that this client could not decode (a TYPE_INFO, token or value it does not know). Not a
 * connection failure and never transient: sending the same request again gets the same reply.
 */
public class DirectDecodeException extends DirectTdsException {
    private static final long serialVersionUID = 1L;

    public DirectDecodeException(String message) {
        super(message);
    }
}
