package io.deltafunnel.mssql.direct;

import java.io.IOException;

/**
 * An ERROR token sent by SQL Server (or a protocol failure, with number 0) on a {@link DirectTdsConnection}.
 */
public class DirectTdsException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int number;
    private final int state;
    private final int severity;
    private final int line;
    private final String serverMessage;

    public DirectTdsException(int number, int state, int severity, int line, String serverMessage) {
        super("SQL Server error " + number + " (state " + state + ", class " + severity + ", line " + line + "): "
                + serverMessage);
        this.number = number;
        this.state = state;
        this.severity = severity;
        this.line = line;
        this.serverMessage = serverMessage;
    }

    /** A client-side protocol failure (no server error number). */
    public DirectTdsException(String message) {
        super(message);
        this.number = 0;
        this.state = 0;
        this.severity = 0;
        this.line = 0;
        this.serverMessage = message;
    }

    /** A client-side failure (no server error number) caused by {@code cause}. */
    public DirectTdsException(String message, Throwable cause) {
        super(message, cause);
        this.number = 0;
        this.state = 0;
        this.severity = 0;
        this.line = 0;
        this.serverMessage = message;
    }

    /** SQL Server error number (e.g. 18456 login failed), 0 for a client-side protocol failure. */
    public int number() {
        return number;
    }

    public int state() {
        return state;
    }

    /** The error's class (severity). */
    public int severity() {
        return severity;
    }

    public int line() {
        return line;
    }

    /** The server's message text. */
    public String serverMessage() {
        return serverMessage;
    }
}
