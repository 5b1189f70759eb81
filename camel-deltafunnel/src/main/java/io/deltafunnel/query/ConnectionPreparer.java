package io.deltafunnel.query;

import java.sql.Connection;

/**
 * Prepares a freshly opened DuckDB connection before a run's query executes, for example by registering
 * Delta Lake snapshots as views. It must not close the connection.
 */
@FunctionalInterface
public interface ConnectionPreparer {
    /**
     * @throws Exception any failure; the run then fails in its query-setup phase with this failure as the cause
     */
    void prepare(Connection connection) throws Exception;
}
