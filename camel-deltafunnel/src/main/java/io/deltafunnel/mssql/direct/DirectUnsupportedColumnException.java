package io.deltafunnel.mssql.direct;

/**
 * A column whose Arrow type / target type pair the direct writer does not encode (the mssql-jdbc path may still
 * handle it).
 */
public class DirectUnsupportedColumnException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String column;

    public DirectUnsupportedColumnException(String column, String reason) {
        super("column '" + column + "': " + reason);
        this.column = column;
    }

    public String column() {
        return column;
    }
}
