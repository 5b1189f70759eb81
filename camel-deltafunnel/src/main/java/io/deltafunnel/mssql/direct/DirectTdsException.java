package io.deltafunnel.mssql.direct;

import io.deltafunnel.tds.ServerMessage;
import java.io.IOException;

/**
 * An ERROR token sent by SQL Server (or a protocol failure, with number 0) on a {@link DirectTdsConnection}. The
 * token's fields are tds-codec's {@link ServerMessage}.
 */
public class DirectTdsException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The server's ERROR token; null for a client-side failure. */
    private final ServerMessage error;
    private final String clientMessage;

    /** The server's ERROR token {@code m}. */
    public DirectTdsException(ServerMessage m) {
        super("SQL Server error " + m.number() + " (state " + m.state() + ", class " + m.severity() + ", line "
                + m.line() + "): " + m.text());
        this.error = m;
        this.clientMessage = null;
    }

    /** A client-side protocol failure (no server error number). */
    public DirectTdsException(String message) {
        super(message);
        this.error = null;
        this.clientMessage = message;
    }

    /** A client-side failure (no server error number) caused by {@code cause}. */
    public DirectTdsException(String message, Throwable cause) {
        super(message, cause);
        this.error = null;
        this.clientMessage = message;
    }

    /** SQL Server error number (e.g. 18456 login failed), 0 for a client-side protocol failure. */
    public int number() {
        return error == null ? 0 : error.number();
    }

    /** The error state, 0 for a client-side failure. */
    public int state() {
        return error == null ? 0 : error.state();
    }

    /** The error's class (severity), 0 for a client-side failure. */
    public int severity() {
        return error == null ? 0 : error.severity();
    }

    /** The line of the batch, 0 for a client-side failure. */
    public int line() {
        return error == null ? 0 : error.line();
    }

    /** The server's message text (the client's message for a client-side failure). */
    public String serverMessage() {
        return error == null ? clientMessage : error.text();
    }
}
