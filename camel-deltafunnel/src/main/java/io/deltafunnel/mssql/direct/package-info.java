/**
 * The direct Arrow → TDS path behind the producer option {@code bulkEncoder=direct}: an own TDS 7.4/8.0 client
 * ({@link io.deltafunnel.mssql.direct.DirectTdsConnection}: encryption, certificate validation, SQL or access-token
 * login, routing, SQL batches, {@code sp_executesql} with bound parameters, result sets, transaction descriptors), a
 * bulk writer that encodes BULK_LOAD ROW tokens straight from the Arrow vectors
 * ({@link io.deltafunnel.mssql.direct.DirectBulkWriter}, {@code DirectEncoders}), and the session's channel over them
 * ({@link io.deltafunnel.mssql.direct.DirectSqlChannel}, opened by {@link io.deltafunnel.mssql.direct.DirectChannels}
 * from an mssql-jdbc URL read by {@link io.deltafunnel.mssql.direct.DirectUrl}).
 *
 * <p>Values are validated with the same rules as the mssql-jdbc path ({@code BulkBatch.validate}) before anything
 * is sent. The wire vocabulary (packets, tokens, TYPE_INFO, value codecs, TLS record streams, PRELOGIN/LOGIN7 layout)
 * is the {@code tds-codec} module's, shared with the {@code mssql-emulator}.
 *
 * <p>Experimental: the producer's default encoder stays {@code driver} until this path has passed its {@code *IT}
 * tests against a real SQL Server.
 */
package io.deltafunnel.mssql.direct;
