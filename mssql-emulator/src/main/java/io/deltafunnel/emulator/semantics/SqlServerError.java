package io.deltafunnel.emulator.semantics;

/**
 * An error to report to the client as a TDS ERROR token, with SQL Server's number, state and severity class.
 * Typed exception used throughout the server; never a protocol failure.
 */
public class SqlServerError extends Exception {
    private static final long serialVersionUID = 1L;

    /** Custom error number for statements the emulator does not implement ({@link ErrorCatalog#UNSUPPORTED}). */
    public static final int UNSUPPORTED = ErrorCatalog.UNSUPPORTED.number();

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
        return ErrorCatalog.UNSUPPORTED.error("mssql-emulator does not support: " + what);
    }

    public static SqlServerError syntax(String near) {
        return ErrorCatalog.INCORRECT_SYNTAX.error("Incorrect syntax near '" + near + "'.");
    }

    /** The same error (number, state, severity) with another message text, e.g. a name as the client wrote it. */
    public SqlServerError withMessage(String message) {
        return new SqlServerError(number, state, severity, message);
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
