package io.deltafunnel.handoff;

import java.util.Map;

/**
 * Where an incremental {@code deltafunnel:} consumer learns which Delta versions its route has loaded. The truth is
 * the state table in the target database, written by the producer in the same transaction as the data; a store only
 * reads it (and deletes a key's rows on an operator reset). The SQL Server implementation is
 * {@code io.deltafunnel.mssql.state.MssqlStateStore}.
 */
public interface DeltaFunnelStateStore {

    /** The state table's name, {@code [schema.]table}; the producer writes the run's versions there. */
    String tableName();

    /** Source (table path) to the last version loaded for {@code key}; empty when nothing was loaded yet. */
    Map<String, Long> loadedVersions(String key) throws Exception;

    /** Deletes every row of {@code key}: the next run starts again (operator reset). */
    void reset(String key) throws Exception;
}
