package io.deltafunnel.query;

import java.sql.Connection;
import java.util.Map;

/**
 * A {@link ConnectionPreparer} whose choices must be repeated exactly when a run is replayed, for example the Delta
 * Lake table versions it resolved. On a run's first attempt it gets no pins and reports what it chose; on a replay it
 * gets back what it chose the first time and must use exactly that.
 *
 * <p>The pins are an opaque {@code Map<String, Long>} owned by the preparer (for Delta: view name to table version).
 * {@link QueryRun} collects the pins of all its preparers into {@link QueryRun#pinnedVersions()}; the consumer keeps
 * them with the run and hands them back to {@link QueryRun#open} when it replays the run. Keys of different preparers
 * must not clash (prefix them if needed).
 */
@FunctionalInterface
public interface PinningPreparer extends ConnectionPreparer {

    /**
     * Prepares the connection.
     *
     * @param pinned what an earlier attempt of the same run chose (empty on a first attempt); must be honoured
     * @return what this preparer chose (for example view name to Delta version); never null
     * @throws Exception any failure; the run then fails in its query-setup phase
     */
    Map<String, Long> prepare(Connection connection, Map<String, Long> pinned) throws Exception;

    @Override
    default void prepare(Connection connection) throws Exception {
        prepare(connection, Map.of());
    }
}
