package io.deltafunnel.emulator;

/**
 * An error to report to the client as a TDS ERROR token, with SQL Server's number, state and severity class.
 * Typed exception used throughout the server; never a protocol failure.
 */
public class SqlServerError extends Exception {
    private static final long serialVersionUID = 1L;

    /** Custom error number for statements the emulator does not implement. */
    public static final int UNSUPPORTED = 50100;

    private final int number;
    private final int state;
    private final int severity;

    public SqlServerError(int number, int state, int severity, String message) {
        super(message);
        this.number = number;
        this.state = state;
        this.severity = severity;
    }

    public SqlServerError(int number, String message) {
        this(number, 1, 16, message);
    }

    public SqlServerError(int number, String message, Throwable cause) {
        super(message, cause);
        this.number = number;
        this.state = 1;
        this.severity = 16;
    }

    public static SqlServerError unsupported(String what) {
        return new SqlServerError(UNSUPPORTED, "mssql-emulator does not support: " + what);
    }

    public static SqlServerError syntax(String near) {
        return new SqlServerError(102, 1, 15, "Incorrect syntax near '" + near + "'.");
    }

    public int number() {
        return number;
    }

    public int state() {
        return state;
    }

    public int severity() {
        return severity;
    }
}
