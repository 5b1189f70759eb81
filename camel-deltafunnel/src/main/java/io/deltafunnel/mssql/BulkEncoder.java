package io.deltafunnel.mssql;

/** Which code encodes the bulk-load rows. */
public enum BulkEncoder {
    /** mssql-jdbc's {@code SQLServerBulkCopy} over {@code ArrowBulkData} (the default). */
    DRIVER,
    /**
     * The project's own TDS connection and {@link io.deltafunnel.mssql.direct.DirectBulkWriter}: ROW tokens written
     * straight from the Arrow buffers. Experimental until it has passed its tests against a real SQL Server.
     */
    DIRECT
}
