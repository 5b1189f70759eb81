/**
 * EXPERIMENTAL: a direct Arrow → TDS bulk writer that opens its own TDS 7.4 connection
 * ({@link io.deltafunnel.mssql.direct.DirectTdsConnection}) and writes BULK_LOAD ROW tokens straight from the Arrow
 * vectors ({@link io.deltafunnel.mssql.direct.DirectBulkWriter}), without mssql-jdbc and without boxing values.
 *
 * <p>Not used by the {@code deltafunnel-mssql} producer yet: the mssql-jdbc path ({@code BulkLoadSession},
 * {@code ArrowBulkData}) stays the only one wired into Camel. Values are validated with the same rules as that path
 * ({@code ArrowBulkData.validate}) before anything is sent.
 *
 * <p>The client-side TDS framing here is deliberately minimal and independent of the emulator's
 * {@code io.deltafunnel.tds} codec (which is test-scope only); the codec should move to a shared {@code tds-codec}
 * module used by both.
 */
package io.deltafunnel.mssql.direct;
